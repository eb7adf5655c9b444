//! The command line as scripts use it (SPEC §9): the real binary, its stdout, stderr and
//! exit code.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn tangent(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tangent")).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn demo() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/demo.ron").display().to_string()
}

fn scratch(name: &str, contents: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tangent-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p.display().to_string()
}

#[test]
fn eval_with_times_prints_round_trippable_values() {
    let out = tangent(&["eval", &demo(), "--track", "path", "--times", "-1,0,0.6,1.3,4,9"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty());
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 6);
    // Keys at 0 and 0.6 come back exactly; before and after hold the end values.
    assert_eq!(lines[0], "-4.0 -1.5");
    assert_eq!(lines[1], "-4.0 -1.5");
    assert_eq!(lines[2], "-2.0 2.0");
    assert_eq!(lines[4], "4.0 1.5");
    assert_eq!(lines[5], "4.0 1.5");
    // A value between keys parses back to the f64 the library computes.
    let project = tangent::io::demo_project();
    let curve = tangent::TrackCurve::new(project.track("path").unwrap()).unwrap();
    let want = curve.evaluator().value_at(1.3);
    let got: Vec<f64> = lines[3].split(' ').map(|s| s.parse().unwrap()).collect();
    assert_eq!(got, want);
}

#[test]
fn eval_reads_times_from_stdin() {
    let out = tangent(&["eval", &demo(), "--track", "bounce"], "0\n0.25\n\n1.75\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], "0.0");
    // bounce cycles after its last key (1.0): 1.75 is 0.75 into the next cycle.
    let out2 = tangent(&["eval", &demo(), "--track", "bounce", "--times", "0.75"], "");
    assert_eq!(lines[2], text(&out2.stdout).trim());
}

#[test]
fn eval_errors_go_to_stderr_with_failure() {
    let out = tangent(&["eval", &demo(), "--track", "nope", "--times", "0"], "");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("no track named \"nope\""), "{}", text(&out.stderr));
    let out = tangent(&["eval", &demo(), "--track", "path"], "0\nabc\n");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "no partial output on error");
    assert!(text(&out.stderr).contains("line 2"), "{}", text(&out.stderr));
    let out = tangent(&["eval", "/no/such/file.ron", "--track", "path", "--times", "0"], "");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("/no/such/file.ron"));
    assert_eq!(err.matches("No such file or directory").count(), 1, "each cause once: {err}");
}

#[test]
fn a_bad_key_is_named_once() {
    let bad =
        scratch("zero-quat.ron", "(version: 1, tracks: [(name: \"q\", kind: Quat, interpolation: Slerp, keys: [(time: 0.0, value: [0.0, 0.0, 0.0, 0.0])])])");
    for args in [vec!["check", bad.as_str()], vec!["eval", bad.as_str(), "--track", "q", "--times", "0"]] {
        let out = tangent(&args, "");
        assert!(!out.status.success());
        let err = text(&out.stderr);
        assert_eq!(err.matches("track \"q\", key 0").count(), 1, "{args:?}: {err}");
        assert!(err.contains("quaternion is zero"), "{err}");
    }
}

#[test]
fn bake_refuses_bad_rates_formats_and_targets() {
    let out_file = std::env::temp_dir().join(format!("tangent-bad-rate-{}.glb", std::process::id()));
    let out = out_file.display().to_string();
    for (args, says) in [
        (vec!["--format", "glb", "--fps", "0"], "frame rate must be a positive number"),
        (vec!["--format", "glb", "--adaptive", "-1"], "error bound must be a positive number"),
        (vec!["--format", "xyz"], "invalid value 'xyz'"),
        (vec!["--format", "glb", "--map", "path=nowhere"], "unknown target \"nowhere\""),
    ] {
        let demo = demo();
        let mut all = vec!["bake", demo.as_str(), "-o", out.as_str()];
        all.extend(args.iter().copied());
        let o = tangent(&all, "");
        assert!(!o.status.success(), "{args:?}");
        assert!(text(&o.stderr).contains(says), "{args:?}: {}", text(&o.stderr));
        assert!(!out_file.exists(), "{args:?}: nothing written");
    }
}

#[test]
fn check_reports_ok_and_problems() {
    let out = tangent(&["check", &demo()], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("ok"));
    let bad = scratch(
        "bad.ron",
        "(version: 1, tracks: [(name: \"a\", kind: Vec2, interpolation: Linear, keys: [(time: 1.0, value: [0.0, 0.0]), (time: 0.5, value: [1.0, 1.0])])])",
    );
    let out = tangent(&["check", &bad], "");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("track \"a\", key 1") && err.contains("time order"), "{err}");
    let syntax = scratch("syntax.ron", "(version: 1,\n tracks: [\n (name: \"a\" kind: Vec2)])");
    let out = tangent(&["check", &syntax], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("syntax.ron:3:"), "{}", text(&out.stderr));
}

#[test]
fn arclen_summary_and_both_directions() {
    let out = tangent(&["arclen", &demo(), "--track", "path", "--tolerance", "1e-6"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let mut lines = s.lines();
    let length: f64 = lines.next().unwrap().strip_prefix("length ").unwrap().parse().unwrap();
    let samples: usize = lines.next().unwrap().strip_prefix("samples ").unwrap().parse().unwrap();
    assert!(length > 10.0 && samples >= 5);
    let half = format!("{}\n", length / 2.0);
    let t = tangent(&["arclen", &demo(), "--track", "path", "--tolerance", "1e-6", "--lengths"], &half);
    let t: f64 = text(&t.stdout).trim().parse().unwrap();
    let back = tangent(&["arclen", &demo(), "--track", "path", "--tolerance", "1e-6", "--times"], &format!("{t}\n"));
    let s: f64 = text(&back.stdout).trim().parse().unwrap();
    assert!((s - length / 2.0).abs() < 1e-6);
    let out = tangent(&["arclen", &demo(), "--track", "height", "--tolerance", "1e-6"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("Vec2 or Vec3"));
}

#[test]
fn bake_writes_each_format_and_reports_each_track() {
    let dir = std::env::temp_dir().join(format!("tangent-bake-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (format, magic) in [("csv", &b"time,"[..]), ("json", &b"{"[..]), ("gltf", &b"{"[..]), ("glb", &b"glTF"[..])] {
        let out = dir.join(format!("demo.{format}"));
        let o = tangent(&["bake", &demo(), "--format", format, "-o", &out.display().to_string(), "--adaptive", "1e-3"], "");
        assert!(o.status.success(), "{format}: {}", text(&o.stderr));
        let bytes = std::fs::read(&out).unwrap();
        assert!(bytes.starts_with(magic), "{format}");
        let report = text(&o.stdout);
        assert_eq!(report.lines().count(), 8, "{report}");
        // Every line states the track's form and its true maximum error; keyed formats keep
        // the adaptive bound (CSV rows are samples at the frame rate, where it does not apply).
        for line in report.lines() {
            let err: f64 = line.rsplit("max error ").next().unwrap().split(' ').next().unwrap().parse().unwrap();
            assert!(line.contains(" rad (") || line.contains(" value units"), "the error's unit: {line}");
            assert!(format == "csv" || err <= 1e-3, "{format}: {line}");
        }
    }
    let csv = std::fs::read_to_string(dir.join("demo.csv")).unwrap();
    assert!(csv.lines().next().unwrap().starts_with("time,path.x,path.y,"));
    assert_eq!(csv.lines().count(), 1 + 121, "a header and one row per frame at 30 fps over 4 s");
}

#[test]
fn bake_failures_are_clear_and_leave_no_file() {
    let dir = std::env::temp_dir().join(format!("tangent-bake-fail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("x.gltf");
    let o = tangent(&["bake", &demo(), "--format", "gltf", "--map", "path=property", "-o", &out.display().to_string()], "");
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("track \"path\": a Vec2 track cannot go to Property in Gltf"), "{}", text(&o.stderr));
    assert!(!out.exists());
    let missing = dir.join("no/such/dir/x.glb");
    let o = tangent(&["bake", &demo(), "--format", "glb", "-o", &missing.display().to_string()], "");
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("no/such/dir/x.glb"), "{}", text(&o.stderr));
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(Result::ok).collect();
    assert!(leftovers.is_empty(), "no partial or temporary files: {leftovers:?}");
}

/// `tangent reduce` on Blender's anchor signal (tests/reference/reduce_anchor): a report line
/// per track, the file written, and every sample of the original within E when evaluated by
/// `tangent eval` on the written file.
#[test]
fn reduce_reports_each_track_and_writes_a_project_within_the_bound() {
    let csv = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/reduce_anchor/two_sines.csv")).unwrap();
    let samples: Vec<(f64, f64)> = csv.lines().skip(1).map(|l| l.split_once(',').unwrap()).map(|(t, x)| (t.parse().unwrap(), x.parse().unwrap())).collect();
    let keys: Vec<String> = samples.iter().map(|(t, x)| format!("(time: {t:?}, value: [{x:?}])")).collect();
    let ron = format!("(version: 1, fps: 24.0, tracks: [(name: \"sig\", kind: Scalar, interpolation: Linear, keys: [{}])])", keys.join(", "));
    let input = scratch("dense.ron", &ron);
    let output = scratch("reduced.ron", "");
    let out = tangent(&["reduce", &input, "--tolerance", "1e-3", "-o", &output], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = stdout.lines().next().unwrap();
    assert!(line.starts_with("sig\t240 -> "), "{stdout}");
    let after: usize = line.split("-> ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(after <= 121 * 4 / 10, "{after} keys");
    let times: Vec<String> = samples.iter().map(|(t, _)| format!("{t:?}")).collect();
    let eval = tangent(&["eval", &output, "--track", "sig"], &times.join("\n"));
    assert!(eval.status.success(), "{}", text(&eval.stderr));
    let values = text(&eval.stdout);
    // One line per sample: the zip below stops at the shorter side, so a short (or empty)
    // output would otherwise check fewer samples (or none).
    assert_eq!(values.lines().count(), samples.len(), "one value per sample time");
    for ((_, want), got) in samples.iter().zip(values.lines()) {
        let got: f64 = got.parse().unwrap();
        assert!((got - want).abs() <= 1e-3, "{got} vs {want}");
    }
    // A bad tolerance and an unknown track are errors, and no file is written.
    let none = scratch("none.ron", "");
    std::fs::remove_file(&none).unwrap();
    let bad = tangent(&["reduce", &input, "--tolerance", "0", "-o", &none], "");
    assert!(!bad.status.success() && text(&bad.stderr).contains("tolerance must be a positive number"), "{}", text(&bad.stderr));
    let bad = tangent(&["reduce", &input, "--tolerance", "1e-3", "--track", "nope", "-o", &none], "");
    assert!(!bad.status.success() && text(&bad.stderr).contains("no track named \"nope\""), "{}", text(&bad.stderr));
    assert!(!std::path::Path::new(&none).exists());
}

/// `tangent eval` refuses NaN and infinite times, from stdin or `--times`, with nothing on
/// stdout.
#[test]
fn eval_refuses_times_that_are_not_finite() {
    for (args, stdin) in [(vec!["--times", "0,NaN"], ""), (vec![], "0.5\ninf\n"), (vec![], "-inf\n")] {
        let demo = demo();
        let mut all = vec!["eval", demo.as_str(), "--track", "path"].into_iter().map(str::to_owned).collect::<Vec<_>>();
        all.extend(args.iter().map(|s| (*s).to_owned()));
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let out = tangent(&refs, stdin);
        assert!(!out.status.success(), "{args:?} {stdin:?}");
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
        assert!(text(&out.stderr).contains("not a finite number"), "{}", text(&out.stderr));
    }
}

fn import_sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import-samples").join(name)
}

#[test]
fn import_writes_the_project_beside_the_file_and_reports_each_track() {
    let dir = std::env::temp_dir().join(format!("tangent-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let glb = dir.join("walk cycle.glb");
    std::fs::copy(import_sample("bezier_mover.glb"), &glb).unwrap();
    let o = tangent(&["import", &glb.display().to_string()], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(o.stderr.is_empty(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Mover.translation\tVec3\tBezier\t7 keys\tglTF node 0 \"Mover\" translation (animation \"MoverAction\")");
    assert_eq!(lines.len(), 4, "{out}");
    let ron = dir.join("walk cycle.ron");
    assert_eq!(lines[3], format!("wrote {} (3 tracks, 24 fps)", ron.display()));
    let check = tangent(&["check", &ron.display().to_string()], "");
    assert!(text(&check.stdout).contains("ok, version 2, 3 tracks, 15 keys, 24 fps"), "{}", text(&check.stdout));
    // Without -o an existing project is never overwritten; with -o it is.
    let again = tangent(&["import", &glb.display().to_string()], "");
    assert!(!again.status.success() && again.stdout.is_empty());
    assert!(text(&again.stderr).contains("already exists; give -o"), "{}", text(&again.stderr));
    let forced = tangent(&["import", &glb.display().to_string(), "-o", &ron.display().to_string()], "");
    assert!(forced.status.success(), "{}", text(&forced.stderr));
}

#[test]
fn import_prints_warnings_and_picks_an_animation() {
    let dir = std::env::temp_dir().join(format!("tangent-import-anim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("s.ron").display().to_string();
    let o = tangent(&["import", &import_sample("synthetic_quantized_sparse.glb").display().to_string(), "-o", &out], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    assert!(stdout.contains("warning: animation \"animation0\", channel 4: it targets KHR_animation_pointer"), "{stdout}");
    assert!(stdout.contains("animation0/Morph.weights[2]\tScalar\tLinear\t4 keys\t"), "{stdout}");
    let o = tangent(&["import", &import_sample("synthetic_quantized_sparse.glb").display().to_string(), "-o", &out, "--animation", "Second"], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).starts_with("node0.rotation\tQuat\tBezier\t3 keys\t"), "{}", text(&o.stdout));
    // The imported tracks evaluate like any project's: at the keys (f32 times), their values.
    let e = tangent(&["eval", &out, "--track", "Sparse.scale", "--times", &format!("{:?},{:?}", f64::from(0.1f32), f64::from(0.6f32))], "");
    assert_eq!(text(&e.stdout), "1.0 1.0 1.0\n2.0 0.5 1.5\n");
}

#[test]
fn import_errors_name_the_file_and_write_nothing() {
    let bad = scratch("ragged.csv", "time,a,b\n0,1,2\n1,3\n");
    let o = tangent(&["import", &bad], "");
    assert!(!o.status.success() && o.stdout.is_empty());
    assert_eq!(text(&o.stderr).trim(), format!("tangent: {bad}: row 3, column 3 (\"b\"): the row has 2 cells, the header 3"));
    assert!(!PathBuf::from(bad.replace(".csv", ".ron")).exists());
    // An unknown animation: a failure, and the -o path (in this test's scratch directory, not
    // a path other runs share) is never written.
    let out = PathBuf::from(scratch("unwritten.ron", ""));
    std::fs::remove_file(&out).unwrap();
    let o = tangent(&["import", &import_sample("mixed_interp.gltf").display().to_string(), "-o", &out.display().to_string(), "--animation", "Nope"], "");
    assert!(!o.status.success(), "an unknown animation is a failure");
    assert!(o.stdout.is_empty(), "{}", text(&o.stdout));
    assert!(text(&o.stderr).contains("no animation named \"Nope\""), "{}", text(&o.stderr));
    assert!(!out.exists(), "nothing written to {}", out.display());
}
