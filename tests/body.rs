//! The body's forward kinematics (SPEC §14, issue 42) against Blender 3.4's own BVH importer:
//! every joint (bone head) and end site (leaf bone's tail) at every frame of takes written by
//! Blender's BVH exporter in three rotation orders and of hand-written CMU-style takes, within
//! 2e-5 of the skeleton's size (`tests/body/README.md`: how the references were made). Then
//! `tangent pose` and `tangent diff --body` as scripts call them: `diff --body` against the
//! largest displacement computed here from `tangent pose` of both files at every frame.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use tangent::body::{Pose, Rig};
use tangent::open::{open_any, Opened};
use tangent::{Project, TrackCurve};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn take(path: &Path) -> Project {
    match open_any(path).unwrap() {
        Opened::Imported(i) => i.project,
        Opened::Project(p) => p,
    }
}

/// A reference file: its frame time and, per frame, the points in order.
fn reference(path: &Path) -> (f64, Vec<Vec<(String, [f64; 3])>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let frame_time: f64 = header.rsplit(' ').next().unwrap().parse().unwrap();
    let mut frames: Vec<Vec<(String, [f64; 3])>> = Vec::new();
    for line in lines {
        let w: Vec<&str> = line.split(' ').collect();
        let f: usize = w[0].parse().unwrap();
        if frames.len() <= f {
            frames.resize(f + 1, Vec::new());
        }
        frames[f].push((w[1].to_owned(), [w[2], w[3], w[4]].map(|x| x.parse().unwrap())));
    }
    (frame_time, frames)
}

/// The largest distance from Blender's points over every frame, relative to the skeleton's size.
fn worst_against_blender(bvh: &Path, pose_txt: &Path) -> (f64, usize) {
    let project = take(bvh);
    let rig = Rig::new(&project).unwrap();
    let curves: Vec<TrackCurve> = project.tracks.iter().map(|t| TrackCurve::new(t).unwrap()).collect();
    let mut animated = rig.animate(|i| Ok(&curves[i])).unwrap();
    let (frame_time, frames) = reference(pose_txt);
    let mut pose = Pose::default();
    let mut worst: f64 = 0.0;
    let mut points = 0;
    for (f, want) in frames.iter().enumerate() {
        animated.pose_at(f as f64 * frame_time, &mut pose).unwrap();
        let names: Vec<&str> = rig.points().iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, want.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), "{}: points in skeleton order", bvh.display());
        for (p, (_, q)) in pose.points.iter().zip(want) {
            let d = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt();
            worst = worst.max(d / rig.size());
            points += 1;
        }
    }
    (worst, points)
}

#[test]
fn joints_and_end_sites_where_blender_puts_them() {
    let takes = [
        ("tests/import-samples/bvh/cmu_zyx.bvh", "tests/body/cmu_zyx.pose.txt"),
        ("tests/import-samples/bvh/sample_xzy.bvh", "tests/body/sample_xzy.pose.txt"),
        ("tests/body/hand_cmu.bvh", "tests/body/hand_cmu.pose.txt"),
        ("tests/body/blender_export_xyz.bvh", "tests/body/blender_export_xyz.pose.txt"),
        ("tests/body/blender_export_yzx.bvh", "tests/body/blender_export_yzx.pose.txt"),
        ("tests/body/blender_export_zxy.bvh", "tests/body/blender_export_zxy.pose.txt"),
    ];
    let mut checked = 0;
    for (bvh, txt) in takes {
        let (worst, points) = worst_against_blender(&root().join(bvh), &root().join(txt));
        println!("{bvh}: {points} points, largest difference {worst:.2e} of the skeleton's size");
        assert!(worst <= 2e-5, "{bvh}: {worst:e} of the skeleton's size from Blender");
        checked += points;
    }
    // 30·14 ×4 + 90·5 + 30·13 points.
    assert_eq!(checked, 30 * 14 * 4 + 90 * 5 + 30 * 13);
}

fn tangent(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tangent")).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// `TIME NAME X Y Z` lines by (time bits, name).
fn parse_pose(out: &Output) -> BTreeMap<(u64, String), [f64; 3]> {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            assert_eq!(w.len(), 5, "{l}");
            ((w[0].parse::<f64>().unwrap().to_bits(), w[1].to_owned()), [w[2], w[3], w[4]].map(|x| x.parse().unwrap()))
        })
        .collect()
}

#[test]
fn pose_prints_every_point_per_time_and_refuses_what_has_no_body() {
    let bvh = root().join("tests/body/hand_cmu.bvh");
    let out = tangent(&["pose", bvh.to_str().unwrap(), "--times", "0,0.1"], "");
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 * 13, "{text}");
    assert!(lines[0].starts_with("0.0 Hips "), "{}", lines[0]);
    assert!(lines.iter().any(|l| l.starts_with("0.1 LeftFoot_end ")), "{text}");
    // From stdin, the same numbers.
    let piped = tangent(&["pose", bvh.to_str().unwrap()], "0\n0.1\n");
    assert_eq!(piped.stdout, out.stdout);
    // The values parse back to the library's pose at the same time (shortest round trip).
    let project = take(&bvh);
    let rig = Rig::new(&project).unwrap();
    let curves: Vec<TrackCurve> = project.tracks.iter().map(|t| TrackCurve::new(t).unwrap()).collect();
    let mut pose = Pose::default();
    rig.animate(|i| Ok(&curves[i])).unwrap().pose_at(0.1, &mut pose).unwrap();
    let printed = parse_pose(&out);
    for (p, at) in rig.points().iter().zip(&pose.points) {
        assert_eq!(printed[&(0.1f64.to_bits(), p.name.clone())], *at, "{}", p.name);
    }
    // No skeleton: refused with a message, nothing on stdout.
    let demo = root().join("assets/demo.ron");
    let out = tangent(&["pose", demo.to_str().unwrap(), "--times", "0"], "");
    assert!(!out.status.success() && out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no skeleton"), "{err}");
    let out = tangent(&["pose", bvh.to_str().unwrap(), "--times", "0,nan"], "");
    assert!(!out.status.success() && out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn diff_body_is_the_largest_displacement_of_the_poses() {
    let dir = std::env::temp_dir().join(format!("tangent-body-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let before = dir.join("before.ron");
    let after = dir.join("after.ron");
    let bvh = root().join("tests/body/hand_cmu.bvh");
    assert!(tangent(&["import", bvh.to_str().unwrap(), "-o", before.to_str().unwrap()], "").status.success());
    let out = tangent(&["filter", before.to_str().unwrap(), "--butterworth", "10", "-o", after.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = tangent(&["diff", before.to_str().unwrap(), after.to_str().unwrap(), "--body"], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Hips.rotation: ") && text.contains(" deg\n"), "{text}");
    let body = text.lines().last().unwrap();
    // body: largest joint displacement D file units at JOINT, T s (P% of the skeleton's size)
    let rest = body.strip_prefix("body: largest joint displacement ").unwrap_or_else(|| panic!("{text}"));
    let (d, rest) = rest.split_once(" file units at ").unwrap();
    let (joint, rest) = rest.split_once(", ").unwrap();
    let (t, _) = rest.split_once(" s (").unwrap();
    let (d, t): (f64, f64) = (d.parse().unwrap(), t.parse().unwrap());
    // The same from `tangent pose` of both files at every frame of the take (its 30 key times).
    let keys: Vec<f64> = tangent::io::load_project(&before).unwrap().tracks[0].keys.iter().map(|k| k.time).collect();
    assert_eq!(keys.len(), 30);
    let times: String = keys.iter().map(|t| format!("{t:?}\n")).collect();
    let a = parse_pose(&tangent(&["pose", before.to_str().unwrap()], &times));
    let b = parse_pose(&tangent(&["pose", after.to_str().unwrap()], &times));
    let (mut worst, mut at) = (0.0, (String::new(), 0.0));
    for (k, p) in &a {
        let q = b[k];
        let dist = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt();
        if dist > worst {
            (worst, at) = (dist, (k.1.clone(), f64::from_bits(k.0)));
        }
    }
    assert_eq!(a.len(), 30 * 13);
    assert!(worst > 0.0);
    // diff measures at every key time, and also at every frame at the project's fps (here
    // 0.116666… s beside the key at 14 × 0.0083333 s): never less than at the keys, and the
    // grid is within a millionth of a second of them, so hardly more.
    assert!(d >= worst && d <= worst * (1.0 + 1e-4), "diff says {d} at {joint} {t}, the poses {worst} at {at:?}");
    assert_eq!(joint, at.0);
    assert!((t - at.1).abs() < 1e-5, "diff at {t} s, the poses at {} s", at.1);
    std::fs::remove_dir_all(&dir).ok();
}
