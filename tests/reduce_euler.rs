//! Euler tracks reduced within an angle, and exported as edited, through the real binary: the
//! 31-joint take `tests/problems/body31.bvh` (600 frames at 120 fps, `tools/problem_takes.py`)
//! imported, reduced with `--tolerance 0.05 --angle 0.5`, and baked to GLB without
//! `--adaptive`.
//!
//! - Every Euler track keeps under a quarter of its keys, and its rotation turns at most 0.5°
//!   from the original at every frame: measured here with quaternions of the angles computed
//!   by `common/euler_ref.rs` (not the crate's `euler.rs`; checked against scipy first).
//! - The plain GLB has at most 3 × the reduced keys + 4 keys per rotation channel (counted in
//!   the GLB's own JSON), and the bake report gives each track's keys and its error with a unit.

use std::path::{Path, PathBuf};
use std::process::Command;

use tangent::{SegmentCursor, TrackCurve, TrackKind};

#[path = "common/euler_ref.rs"]
mod euler_ref;

const ANGLE_DEG: f64 = 0.5;

fn run(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_tangent")).args(args).output().unwrap();
    assert!(o.status.success(), "tangent {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tangent-reduce-euler-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The GLB's JSON chunk.
fn glb_json(path: &Path) -> serde_json::Value {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..4], b"glTF");
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    assert_eq!(&bytes[16..20], b"JSON");
    serde_json::from_slice(&bytes[20..20 + len]).unwrap()
}

#[test]
fn a_reduced_take_keeps_its_euler_rotations_within_the_angle_and_exports_as_edited() {
    assert!(euler_ref::check_against_scipy() > 200, "the reference rotation agrees with scipy");
    let dir = scratch();
    let bvh = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/problems/body31.bvh");
    let (take, reduced, glb) = (dir.join("take.ron"), dir.join("reduced.ron"), dir.join("reduced.glb"));
    let _ = std::fs::remove_file(&take);
    run(&["import", bvh.to_str().unwrap(), "-o", take.to_str().unwrap()]);
    let report = run(&["reduce", take.to_str().unwrap(), "--tolerance", "0.05", "--angle", &ANGLE_DEG.to_string(), "-o", reduced.to_str().unwrap()]);
    let before = tangent::io::load_project(&take).unwrap();
    let after = tangent::io::load_project(&reduced).unwrap();
    assert_eq!(before.skeleton.as_ref().unwrap().joints.len(), 31);

    let mut euler_tracks = 0;
    let (mut worst, mut worst_fraction) = (0.0f64, 0.0f64);
    for (orig, red) in before.tracks.iter().zip(&after.tracks) {
        assert_eq!(orig.name, red.name);
        if orig.kind != TrackKind::Euler {
            continue;
        }
        euler_tracks += 1;
        let fraction = red.keys.len() as f64 / orig.keys.len() as f64;
        assert!(fraction < 0.25, "{}: {} of {} keys", orig.name, red.keys.len(), orig.keys.len());
        // The report line states the angle in degrees.
        let line = report.lines().find(|l| l.starts_with(&format!("{}\t", orig.name))).unwrap();
        assert!(line.ends_with('°'), "{line}");
        // Every frame is a key of the imported take: its own angles against the reduced curve's.
        let order = orig.order.name();
        let curve = TrackCurve::new(red).unwrap();
        let (mut cursor, mut v) = (SegmentCursor::new(), vec![0.0; 3]);
        for k in &orig.keys {
            curve.sample(&mut cursor, k.time, &mut v);
            let a = euler_ref::quat([k.value[0], k.value[1], k.value[2]], order);
            let b = euler_ref::quat([v[0], v[1], v[2]], order);
            let angle = euler_ref::angle_deg(a, b);
            assert!(angle <= ANGLE_DEG * (1.0 + 1e-9), "{} at {} s: {angle}° from the original", orig.name, k.time);
            worst = worst.max(angle);
        }
        worst_fraction = worst_fraction.max(fraction);
    }
    assert_eq!(euler_tracks, 31);
    println!("31 Euler tracks: at most {:.1}% of their keys, at most {worst:.4}° from the original at every frame", 100.0 * worst_fraction);

    // A plain bake of the reduced take: the fewest keys as edited, not a key per frame.
    let bake = run(&["bake", reduced.to_str().unwrap(), "--format", "glb", "-o", glb.to_str().unwrap()]);
    let json = glb_json(&glb);
    let anim = &json["animations"][0];
    let mut channels = 0;
    for ch in anim["channels"].as_array().unwrap() {
        if ch["target"]["path"] != "rotation" {
            continue;
        }
        let node = ch["target"]["node"].as_u64().unwrap() as usize;
        let name = format!("{}.rotation", json["nodes"][node]["name"].as_str().unwrap());
        let sampler = &anim["samplers"][ch["sampler"].as_u64().unwrap() as usize];
        let keys = json["accessors"][sampler["input"].as_u64().unwrap() as usize]["count"].as_u64().unwrap() as usize;
        let reduced_keys = after.track(&name).unwrap().keys.len();
        assert!(keys <= 3 * reduced_keys + 4, "{name}: {keys} keys in the GLB for {reduced_keys} reduced keys");
        let line = bake.lines().find(|l| l.starts_with(&format!("{name}\t"))).unwrap();
        assert!(line.contains(&format!("\t{keys} keys\t")) && line.contains(" rad (") && line.contains("as edited"), "{line}");
        channels += 1;
    }
    assert_eq!(channels, 31);
    let _ = std::fs::remove_dir_all(&dir);
}
