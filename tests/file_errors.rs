//! Files say what is wrong with them (issue 28): an unknown field in a project file is refused
//! at its line and column with the nearest known name (on the big files' fast path too), an
//! unknown kind given to import names the kinds Tangent reads, and a file of a kind Tangent
//! imports opens as an untitled imported project. The command line's part runs the binary.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use tangent::error::{edit_distance, nearest_name};
use tangent::import::{import_kind, import_kinds_list, import_path, ImportError, ImportFormat, ImportOptions, IMPORT_KINDS};
use tangent::io::{parse_project, project_to_string};
use tangent::open::{open_any, OpenError, Opened};
use tangent::{FileError, Interpolation, Key, Project, Track, TrackKind};

const EXAMPLE: &str = r#"(
    version: 1,
    fps: 60.0,
    tracks: [
        (
            name: "position",
            kind: Vec2,
            interpolation: Tcb,
            keys: [
                (time: 0.0, value: [0.0, 0.0]),
                (time: 1.0, value: [4.0, 2.0], tension: 0.2),
            ],
        ),
    ],
)"#;

/// Line and column (both from 1, the column in characters) of byte `at` in `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap().chars().count() + 1;
    (line, column)
}

/// `text` with `insert` put just before the first `before`, and where it went.
fn insert_before(text: &str, before: &str, insert: &str) -> (String, (usize, usize)) {
    let at = text.find(before).unwrap_or_else(|| panic!("no {before:?}"));
    (format!("{}{insert}{}", &text[..at], &text[at..]), line_col(text, at))
}

/// The unknown-field error of loading `text`, as (field, line, column, suggestion, message).
fn unknown(text: &str) -> (String, usize, usize, Option<&'static str>, String) {
    match parse_project(text, "f.ron") {
        Err(e @ FileError::UnknownField { .. }) => {
            let message = e.to_string();
            let FileError::UnknownField { field, line, column, suggestion, .. } = e else { unreachable!() };
            (field, line, column, suggestion, message)
        }
        other => panic!("expected an unknown field, got {other:?}"),
    }
}

#[test]
fn the_example_loads_and_a_misspelt_tension_is_refused_at_its_line_with_the_nearest_name() {
    assert_eq!(parse_project(EXAMPLE, "f.ron").unwrap().tracks[0].keys[1].tension, 0.2);
    let (bad, (line, column)) = insert_before(EXAMPLE, "tension: 0.2", "tensoin: 0.5, ");
    assert_eq!(line, 11);
    let (field, l, c, suggestion, message) = unknown(&bad);
    assert_eq!((field.as_str(), l, c, suggestion), ("tensoin", line, column, Some("tension")));
    assert_eq!(message, format!("f.ron:{line}:{column}: unknown field `tensoin` in a key; did you mean `tension`?"));
    // The issue's key, on its own line: the tension it meant is not silently 0.
    let issue = EXAMPLE.replace("(time: 0.0, value: [0.0, 0.0]),", "(time: 0.0, value: [0.0, 0.0], tensoin: 0.5),");
    let (_, l, _, _, message) = unknown(&issue);
    assert_eq!(l, 10);
    assert!(message.contains("tensoin") && message.contains("`tension`") && message.starts_with("f.ron:10:"), "{message}");
}

#[test]
fn unknown_project_track_and_binding_fields_are_refused_too() {
    let cases = [
        // (insert before, inserted, field, suggestion, place)
        ("fps: 60.0", "fsp: 24.0, ", "fsp", Some("fps"), "the project"),
        ("tracks: [", "frames: 3, ", "frames", None, "the project"),
        ("kind: Vec2", "colour: Rgb(1, 2, 3), ", "colour", Some("color"), "a track"),
        ("kind: Vec2", "pre_infinty: Cycle, ", "pre_infinty", Some("pre_infinity"), "a track"),
        ("kind: Vec2", "visibel: false, ", "visibel", Some("visible"), "a track"),
        ("kind: Vec2", "comment: \"hi\", ", "comment", None, "a track"),
        ("kind: Vec2", "binding: Gltf(animation: \"a\", nod: 1, property: Translation), ", "nod", Some("node"), "a glTF binding"),
        (
            "kind: Vec2",
            "binding: Three(path: \"a.position\", value_type: Vector, element: (index: 0, count: 2, stride: 1)), ",
            "stride",
            None,
            "a binding's element",
        ),
        ("tension: 0.2", "wibble: 1.0, ", "wibble", None, "a key"),
        ("tension: 0.2", "Bias: 1.0, ", "Bias", Some("bias"), "a key"),
    ];
    for (before, inserted, want_field, want_suggestion, place) in cases {
        let (bad, (line, at)) = insert_before(EXAMPLE, before, inserted);
        // The field's own column, within a binding's parentheses too.
        let column = at + inserted.find(&format!("{want_field}:")).unwrap();
        let (field, l, c, suggestion, message) = unknown(&bad);
        assert_eq!((field.as_str(), l, c, suggestion), (want_field, line, column, want_suggestion), "{inserted}");
        assert!(message.contains(&format!("unknown field `{want_field}` in {place}; ")), "{message}");
        if want_suggestion.is_none() {
            assert!(!message.contains("did you mean") && message.contains("the fields there are `"), "{message}");
        }
    }
    // Top level, after the tracks: on a line of its own before the closing parenthesis.
    let at = EXAMPLE.rfind(')').unwrap();
    let bad = format!("{}    fpss: 30.0,\n{}", &EXAMPLE[..at], &EXAMPLE[at..]);
    let (field, l, c, suggestion, _) = unknown(&bad);
    assert_eq!((field.as_str(), l, c, suggestion), ("fpss", line_col(EXAMPLE, at).0, 5, Some("fps")), "{bad}");
}

#[test]
fn a_misspelt_mode_gets_the_nearest_name() {
    let message = parse_project(&EXAMPLE.replace("interpolation: Tcb", "interpolation: Tcbb"), "f.ron").unwrap_err().to_string();
    assert!(message.starts_with("f.ron:8:") && message.contains("Tcbb") && message.ends_with("did you mean `Tcb`?"), "{message}");
    let message = parse_project(&EXAMPLE.replace("interpolation: Tcb", "interpolation: Bouncy"), "f.ron").unwrap_err().to_string();
    assert!(message.contains("Bouncy") && !message.contains("did you mean"), "{message}");
}

#[test]
fn the_nearest_name_is_by_edit_distance_and_only_when_close() {
    assert_eq!(edit_distance("tensoin", "tension"), 1, "a transposition is one edit");
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(edit_distance("", "abc"), 3);
    assert_eq!(edit_distance("fps", "fps"), 0);
    let key = ["time", "value", "tension", "continuity", "bias", "ease_to", "ease_from", "handles", "left", "right"];
    assert_eq!(nearest_name("tensoin", &key), Some("tension"));
    assert_eq!(nearest_name("contiunity", &key), Some("continuity"));
    assert_eq!(nearest_name("ease_in", &key), Some("ease_to"));
    assert_eq!(nearest_name("TIME", &key), Some("time"));
    assert_eq!(nearest_name("tim", &key), Some("time"));
    assert_eq!(nearest_name("foo", &["fps", "version", "tracks"]), None, "two edits in three letters is not close");
    assert_eq!(nearest_name("wibble", &key), None);
}

/// A project whose text takes the split path (`tangent::ron_split`): over its size threshold,
/// with plain key lists the fast key reader takes.
fn big_project_text() -> String {
    let keys: Vec<Key> = (0..8_000).map(|i| Key::new(f64::from(i) / 30.0, vec![f64::from(i).sin()])).collect();
    let tracks = (0..6).map(|t| Track::new(format!("t{t}"), TrackKind::Scalar, Interpolation::Tcb).with_keys(keys.clone())).collect();
    let text = project_to_string(&Project { tracks, ..Project::default() }).unwrap();
    assert!(text.len() > tangent::ron_split::SPLIT_BYTES, "{} bytes", text.len());
    text
}

fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

#[test]
fn a_big_file_on_the_fast_path_refuses_unknown_fields_at_their_line_in_the_whole_file() {
    let text = big_project_text();
    // The good file does take the fast path, and loads.
    assert_eq!(tangent::ron_split::parse_split(&text, &ron_options()).expect("the split path").tracks.len(), 6);
    assert_eq!(parse_project(&text, "big.ron").unwrap().tracks.len(), 6);
    // A key deep in the fifth track (the fast key reader's part), a track's header, the
    // project after its tracks.
    let fifth = text.find("name: \"t4\"").unwrap();
    let key_at = fifth + text[fifth..].find("time: 200.0,").unwrap();
    let cases = [
        (key_at, "tensoin: 0.5, ", "tensoin", Some("tension")),
        (fifth, "colour: Rgb(1, 2, 3), ", "colour", Some("color")),
        (text.rfind(')').unwrap(), "fsp: 24.0, ", "fsp", Some("fps")),
    ];
    for (at, inserted, want_field, want_suggestion) in cases {
        let bad = format!("{}{inserted}{}", &text[..at], &text[at..]);
        let (line, column) = line_col(&text, at);
        assert!(line > 1000, "deep in the file: line {line}");
        assert!(tangent::ron_split::parse_split(&bad, &ron_options()).is_none(), "{inserted}: the fast path must not load it");
        let (field, l, c, suggestion, message) = unknown(&bad);
        assert_eq!((field.as_str(), l, c, suggestion), (want_field, line, column, want_suggestion), "{inserted}");
        assert!(message.starts_with(&format!("f.ron:{line}:{column}: unknown field `{want_field}`")), "{message}");
    }
    // The fast key reader leaves an unknown field to RON rather than reading past it.
    assert_eq!(tangent::ron_keys::parse_key_list("[(time: 0.0, value: [0.0], tensoin: 0.5)]", 0), None);
}

#[test]
fn the_committed_example_files_still_load() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    tangent::io::load_project(&root.join("assets/demo.ron")).unwrap();
    let format = std::fs::read_to_string(root.join("docs/format.md")).unwrap();
    let example = format.split("```ron").nth(1).unwrap().split("```").next().unwrap();
    parse_project(example, "docs/format.md").unwrap();
}

#[test]
fn import_kinds_are_one_table_chosen_by_extension_in_any_case() {
    assert_eq!(import_kinds_list(), ".glb, .gltf (glTF), .json (three.js clip), .csv, .bvh (motion capture) and .fbx (FBX)");
    assert_eq!(IMPORT_KINDS.len(), 6);
    assert_eq!(import_kind(Path::new("a/walk.GLB")).map(|k| k.format), Some(ImportFormat::Glb));
    assert_eq!(import_kind(Path::new("walk.gltf")).map(|k| k.format), Some(ImportFormat::Gltf));
    assert_eq!(import_kind(Path::new("clip.Json")).map(|k| k.format), Some(ImportFormat::ThreeJson));
    assert_eq!(import_kind(Path::new("take.csv")).map(|k| k.format), Some(ImportFormat::Csv));
    assert_eq!(import_kind(Path::new("take.Fbx")).map(|k| k.format), Some(ImportFormat::Fbx));
    for other in ["take.xyz", "take.max", "take.ron", "noext", "csv"] {
        assert_eq!(import_kind(Path::new(other)), None, "{other}");
    }
}

fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tangent-file-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let p = scratch_dir().join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Binary, not UTF-8 (an FBX file's first bytes), under extensions no kind has (`.max`).
const FBX: &[u8] = b"Kaydara FBX Binary  \x00\x1a\x00\xe8\x1c\x00\x00\xff\xfe";

fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import-samples").join(name)
}

#[test]
fn import_of_an_unknown_kind_names_the_kinds() {
    for name in ["take.xyz", "take.max"] {
        let path = scratch(name, FBX);
        let e = import_path(&path, &ImportOptions::default()).unwrap_err();
        assert!(matches!(e, ImportError::UnknownKind { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!(
                "cannot import `{}`: Tangent imports .glb, .gltf (glTF), .json (three.js clip), .csv, .bvh (motion capture) and .fbx (FBX)",
                path.display()
            )
        );
    }
    // Told the format, the extension does not matter.
    let csv = scratch("take.txt", b"time,a\n0,1\n1,2\n");
    let options = ImportOptions { format: Some(ImportFormat::Csv), ..ImportOptions::default() };
    assert_eq!(import_path(&csv, &options).unwrap().project.tracks.len(), 1);
}

#[test]
fn open_any_opens_projects_and_imports_importable_files() {
    // A project file, by .ron or by being text.
    let ron = scratch("p.ron", EXAMPLE.as_bytes());
    let text = scratch("p.txt", EXAMPLE.as_bytes());
    for path in [&ron, &text] {
        match open_any(path).unwrap() {
            Opened::Project(p) => assert_eq!(p, parse_project(EXAMPLE, "x").unwrap()),
            other => panic!("{other:?}"),
        }
    }
    // An importable file, whatever the extension's case: the project File > Import makes.
    let glb = scratch("WALK.GLB", &std::fs::read(sample("bezier_mover.glb")).unwrap());
    let want = import_path(&sample("bezier_mover.glb"), &ImportOptions::default()).unwrap();
    let opened = open_any(&glb).unwrap();
    assert_eq!(opened.project(), &want.project);
    let (project, report) = opened.into_parts();
    assert!(!project.tracks.is_empty());
    let report = report.expect("an import's report");
    assert_eq!((report.format, report.tracks.len()), (ImportFormat::Glb, project.tracks.len()));
    assert!(matches!(open_any(&sample("character_clip.json")).unwrap(), Opened::Imported(_)));
    // Binary of no known kind: named as such, with the kinds.
    let max = scratch("take.max", FBX);
    let e = open_any(&max).unwrap_err();
    assert!(matches!(e, OpenError::Unknown { .. }), "{e:?}");
    assert!(e.to_string().contains(".glb, .gltf (glTF), .json (three.js clip), .csv, .bvh (motion capture) and .fbx (FBX)"), "{e}");
    // A .ron that is not text is a project file that cannot be read.
    let bad = scratch("bad.ron", FBX);
    assert!(matches!(open_any(&bad).unwrap_err(), OpenError::File(FileError::Io { .. })));
    // The project's errors are the project's: a misspelt field is named.
    let misspelt = scratch("misspelt.ron", EXAMPLE.replace("tension:", "tensoin:").as_bytes());
    let e = open_any(&misspelt).unwrap_err();
    assert!(matches!(e, OpenError::File(FileError::UnknownField { .. })) && e.to_string().contains("did you mean `tension`?"), "{e}");
    // An importable file that is broken says what the importer says.
    let broken = scratch("broken.glb", b"glTX");
    assert!(matches!(open_any(&broken).unwrap_err(), OpenError::Import(_)));
    // An FBX file opens as its import (`tangent scene.fbx`); a cut one gives ufbx's reason.
    let fbx = sample("fbx/sample_props.fbx");
    assert_eq!(open_any(&fbx).unwrap().project(), &import_path(&fbx, &ImportOptions::default()).unwrap().project);
    let e = open_any(&scratch("cut.fbx", FBX)).unwrap_err();
    assert!(matches!(e, OpenError::Import(_)) && e.to_string().ends_with("cut.fbx: not a readable FBX file: Truncated file"), "{e}");
}

fn tangent(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tangent")).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"").unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn tangent_check_prints_the_unknown_field() {
    let (bad, (line, column)) = insert_before(EXAMPLE, "tension: 0.2", "tensoin: 0.5, ");
    let path = scratch("check-misspelt.ron", bad.as_bytes());
    let out = tangent(&["check", path.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert_eq!(err.trim_end(), format!("tangent: {}:{line}:{column}: unknown field `tensoin` in a key; did you mean `tension`?", path.display()));
}

#[test]
fn tangent_import_of_an_unknown_kind_names_the_kinds_and_writes_nothing() {
    for name in ["cli-take.xyz", "cli-take.max"] {
        let path = scratch(name, FBX);
        let out = tangent(&["import", path.to_str().unwrap()]);
        assert!(!out.status.success());
        assert!(out.stdout.is_empty());
        let err = text(&out.stderr);
        assert_eq!(
            err.trim_end(),
            format!(
                "tangent: cannot import `{}`: Tangent imports .glb, .gltf (glTF), .json (three.js clip), .csv, .bvh (motion capture) and .fbx (FBX)",
                path.display()
            )
        );
        assert!(!path.with_extension("ron").exists(), "nothing written");
    }
}

#[test]
fn tangent_import_of_an_fbx_stack() {
    let out_path = scratch_dir().join("cli-door.ron");
    let _ = std::fs::remove_file(&out_path);
    let fbx = sample("fbx/sample_props.fbx");
    let out = tangent(&["import", fbx.to_str().unwrap(), "-o", out_path.to_str().unwrap(), "--animation", "Door|DoorAction"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("Door.translation\tVec3\tLinear\t71 keys\tnode \"Door\" translation (animation \"Door|DoorAction\")\n"), "{stdout}");
    assert_eq!(tangent::io::load_project(&out_path).unwrap().tracks.len(), 3);
    let out = tangent(&["import", fbx.to_str().unwrap(), "-o", out_path.with_extension("x.ron").to_str().unwrap(), "--animation", "Walk"]);
    assert!(!out.status.success() && text(&out.stderr).contains("no animation named \"Walk\" (the file has: Crate|CrateAction, "), "{}", text(&out.stderr));
}

#[test]
fn tangent_check_on_an_importable_file_says_so() {
    let out = tangent(&["check", sample("bezier_mover.glb").to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("ok, a GLB file Tangent imports (not a project)") && stdout.contains("`tangent import "), "{stdout}");
    let out = tangent(&["check", scratch("cli-check.max", FBX).to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("nor a kind Tangent imports (.glb, .gltf (glTF), .json (three.js clip), .csv, .bvh (motion capture) and .fbx (FBX))"),
        "{}",
        text(&out.stderr)
    );
}
