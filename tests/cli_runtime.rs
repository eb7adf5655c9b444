//! `tangent bake --runtime` as scripts use it (issue 34): the real binary, its report on
//! stdout, its warnings on stderr, and what it refuses.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tangent(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tangent")).args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn scratch(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tangent-cli-runtime-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

fn demo() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/demo.ron").to_string_lossy().into_owned()
}

/// The default runtime keeps the report's five columns and warns, on stderr, about each
/// CUBICSPLINE track the newest Blender would play beyond the bound, with the distance.
#[test]
fn the_default_export_warns_about_blender_on_stderr() {
    let out = scratch("spec.glb");
    let o = tangent(&["bake", &demo(), "--format", "glb", "--adaptive", "1e-4", "-o", &out]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
    assert!(stdout.lines().all(|l| !l.contains("in Blender") && !l.starts_with("warning")), "{stdout}");
    let camera = stderr.lines().find(|l| l.starts_with("warning: track \"camera\": Blender 4.2+ plays it up to ")).unwrap_or_else(|| panic!("{stderr}"));
    let far: f64 = camera.split("up to ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(far > 0.1, "{camera}");
    assert!(camera.contains("--runtime blender"), "{camera}");
    assert_eq!(stderr.lines().filter(|l| l.starts_with("warning: ")).count(), 5, "{stderr}");
}

/// With `--runtime blender` (Blender 4.2 and later) and `--runtime blender-3.4` each line names
/// that Blender after the error, no warning is printed, and every error is within the bound.
#[test]
fn a_blender_export_reports_blender_and_stays_within_the_bound() {
    for (runtime, label) in [("blender", "Blender 4.2+"), ("blender-3.4", "Blender 3.4")] {
        let out = scratch(&format!("{runtime}.glb"));
        let o = tangent(&["bake", &demo(), "--format", "glb", "--adaptive", "1e-3", "--runtime", runtime, "-o", &out]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let stdout = text(&o.stdout);
        assert_eq!(text(&o.stderr), "");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 8, "{stdout}");
        for l in &lines {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols[5], format!("in {label}"), "{l}");
            let err: f64 = cols[4].trim_start_matches("max error ").split(' ').next().unwrap().parse().unwrap();
            assert!(err <= 1e-3, "{l}");
        }
        assert!(lines.iter().any(|l| l.contains(&format!("keys for {label}'s automatic handles"))), "{stdout}");
    }
}

#[test]
fn blender_reads_gltf_only_and_an_unknown_runtime_is_refused() {
    let out = scratch("refused.json");
    for (runtime, label) in [("blender", "Blender 4.2+"), ("blender-3.4", "Blender 3.4")] {
        let o = tangent(&["bake", &demo(), "--format", "json", "--runtime", runtime, "-o", &out]);
        assert!(!o.status.success());
        assert_eq!(text(&o.stdout), "");
        assert!(text(&o.stderr).contains(&format!("{label} reads glTF")), "{}", text(&o.stderr));
        assert!(!std::path::Path::new(&out).exists());
    }
    let o = tangent(&["bake", &demo(), "--format", "glb", "--runtime", "unity", "-o", &scratch("x.glb")]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("spec") && text(&o.stderr).contains("blender-3.4") && text(&o.stderr).contains("godot"), "{}", text(&o.stderr));
    let o = tangent(&["bake", &demo(), "--format", "json", "--runtime", "godot", "-o", &scratch("refused_godot.json")]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("Godot 3.2 reads glTF"), "{}", text(&o.stderr));
}

/// `--runtime godot`: no CUBICSPLINE sampler in the file (Godot 3.2 misreads the tangents and
/// drops CUBICSPLINE weights), each line names Godot, and the tracks its import's 15 fps
/// resampling plays beyond the bound (the camera and the spin at 1e-3) are warned about with
/// the figure the report gives.
#[test]
fn a_godot_export_writes_no_cubicspline_and_warns_about_resampling() {
    let out = scratch("godot.glb");
    let o = tangent(&["bake", &demo(), "--format", "glb", "--adaptive", "1e-3", "--runtime", "godot", "-o", &out]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 8, "{stdout}");
    assert!(lines.iter().all(|l| l.split('\t').nth(5) == Some("in Godot 3.2") && l.split('\t').nth(2) != Some("CUBICSPLINE")), "{stdout}");
    let bytes = std::fs::read(&out).unwrap();
    assert!(!bytes.windows(11).any(|w| w == b"CUBICSPLINE"), "a CUBICSPLINE sampler in the file");
    let camera = lines.iter().find(|l| l.starts_with("camera\t")).unwrap();
    let err: f64 = camera.split('\t').nth(4).unwrap().trim_start_matches("max error ").split(' ').next().unwrap().parse().unwrap();
    assert!(err > 1e-3, "15 fps resampling of the camera: {camera}");
    let warned = stderr.lines().find(|l| l.contains("track \"camera\"")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(warned.contains(&format!("{err:.3e}")) && warned.contains("resamples at 15 fps"), "{warned}");
    let tint = lines.iter().find(|l| l.starts_with("tint\t")).unwrap();
    assert!(tint.contains("LINEAR") && !stderr.contains("track \"tint\""), "{tint}");
}
