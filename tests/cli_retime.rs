//! `tangent retime` on the real binary: the demo project (every mode) stretched and mirrored,
//! the report's measured differences, the written file's key times, and a zero scale refused
//! with nothing written.

use std::path::PathBuf;
use std::process::Command;

fn tangent(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tangent")).args(args).output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tangent-cli-retime-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn demo() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/demo.ron").display().to_string()
}

/// Scaled by 2 about 1, every track of the demo is exact (each line's measured difference
/// under 1e-9) and each key time t becomes 1 + 2(t − 1), its value kept.
#[test]
fn the_demo_stretched_is_exact_and_keys_move() {
    let out_path = scratch("stretched.ron");
    let out = tangent(&["retime", &demo(), "--scale", "2", "--pivot", "1", "-o", out_path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let original = tangent::io::load_project(std::path::Path::new(&demo())).unwrap();
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.starts_with("wrote")).collect();
    assert_eq!(lines.len(), original.tracks.len(), "{stdout}");
    for l in &lines {
        let d: f64 = l.split("max difference ").nth(1).unwrap().split([' ', '\t']).next().unwrap().parse().unwrap();
        assert!(d < 1e-9, "{l}");
    }
    let stretched = tangent::io::load_project(&out_path).unwrap();
    for (a, b) in original.tracks.iter().zip(&stretched.tracks) {
        for (ka, kb) in a.keys.iter().zip(&b.keys) {
            assert!((kb.time - (1.0 + 2.0 * (ka.time - 1.0))).abs() < 1e-12, "{}", a.name);
            assert_eq!(ka.value, kb.value, "{}", a.name);
        }
    }
}

/// Mirrored, the Cubic track with three.js' ZeroSlope ending is said not to be exact, with the
/// difference measured; a zero scale is refused saying the valid range, and nothing written.
#[test]
fn mirrored_and_refused() {
    let out_path = scratch("mirrored.ron");
    let out = tangent(&["retime", &demo(), "--scale", "-1", "-o", out_path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(stdout.lines().any(|l| l.starts_with("height\t") && l.contains("not exact under this scale")), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("spin\t") && l.ends_with(" deg")), "{stdout}");
    let zero = scratch("zero.ron");
    let out = tangent(&["retime", &demo(), "--scale", "0", "-o", zero.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("a finite number other than 0"));
    assert!(!zero.exists());
}
