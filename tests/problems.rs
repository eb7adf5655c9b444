//! `tangent problems` and `tangent filter --jumps` (issue 43) on takes written by a separate
//! program (`tools/problem_takes.py`, which shares no code with Tangent): a clean take, the
//! same with a two-frame 140° spike and a lasting 161° flip at known frames and joints, and a
//! take whose angles wrap at ±180°. The jumps listed are exactly the injected ones; after
//! `--jumps` the spike is gone, every key more than two frames from it is unchanged to 1e-12,
//! and the spike's frames are within 2° of the clean take's.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tangent::open::{open_any, Opened};
use tangent::{Project, SegmentCursor, TrackCurve};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tangent(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tangent")).args(args).output().unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn take(path: &Path) -> Project {
    match open_any(path).unwrap() {
        Opened::Imported(i) => i.project,
        Opened::Project(p) => p,
    }
}

fn sample(name: &str) -> String {
    root().join("tests/problems").join(name).to_str().unwrap().to_owned()
}

#[test]
fn problems_lists_exactly_the_injected_jumps() {
    assert_eq!(stdout(&tangent(&["problems", &sample("clean.bvh")])), "", "a clean take has no problem");
    assert_eq!(stdout(&tangent(&["problems", &sample("wrap.bvh")])), "", "a wrap at ±180° is no jump");
    let text = stdout(&tangent(&["problems", &sample("spiked.bvh")]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    // Most severe first: the flip (161° against 0.47°/frame around it), then the spike.
    assert!(lines[0].starts_with("jump Hips.rotation at 1.6667 s (frame 200): turns 16"), "{text}");
    assert!(lines[1].starts_with("jump LeftForeArm.rotation at 0.8333 s (frame 100): turns 1"), "{text}");
    for line in lines {
        assert!(line.contains("° in one frame (around it: ") && line.ends_with("°/frame)"), "{line}");
    }
    // Errors as usual: a missing file fails with a message and nothing on stdout.
    let out = tangent(&["problems", "no/such/take.bvh"]);
    assert!(!out.status.success() && out.stdout.is_empty());
}

#[test]
fn jumps_fixes_the_spike_exactly_and_leaves_the_flip() {
    let dir = std::env::temp_dir().join(format!("tangent-problems-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fixed = dir.join("fixed.ron");
    let report = stdout(&tangent(&["filter", &sample("spiked.bvh"), "--jumps", "-o", fixed.to_str().unwrap()]));
    assert!(report.contains("LeftForeArm.rotation: spike at 0.8333 s (frame 100), 2 keys replaced"), "{report}");
    assert!(report.contains("Hips.rotation: step at 1.6667 s (frame 200) left as it is"), "{report}");
    assert!(report.contains("body: largest joint displacement ") && report.contains("% of the skeleton's size)"), "{report}");
    // No spike is left; the flip still is.
    let again = stdout(&tangent(&["problems", fixed.to_str().unwrap()]));
    assert_eq!(again.lines().count(), 1, "{again}");
    assert!(again.starts_with("jump Hips.rotation at 1.6667 s (frame 200)"), "{again}");
    let (before, after, clean) =
        (take(&PathBuf::from(sample("spiked.bvh"))), tangent::io::load_project(&fixed).unwrap(), take(&PathBuf::from(sample("clean.bvh"))));
    let mut checked = 0;
    for (a, b) in before.tracks.iter().zip(&after.tracks) {
        assert_eq!(a.keys.len(), b.keys.len());
        for (i, (ka, kb)) in a.keys.iter().zip(&b.keys).enumerate() {
            let near_spike = a.name == "LeftForeArm.rotation" && (98..=103).contains(&i);
            if !near_spike {
                assert!(ka.time == kb.time && ka.value.iter().zip(&kb.value).all(|(x, y)| (x - y).abs() <= 1e-12), "{} key {i} changed", a.name);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 11 * 300 - 6);
    // The spike's frames against the clean take: the angle between the rotations.
    let arm = |p: &Project| TrackCurve::new(p.track("LeftForeArm.rotation").unwrap()).unwrap();
    let (fixed_arm, clean_arm) = (arm(&after), arm(&clean));
    let (mut c1, mut c2, mut s1, mut s2) = (SegmentCursor::new(), SegmentCursor::new(), [0.0; 3], [0.0; 3]);
    for i in [100usize, 101] {
        let t = clean.tracks[0].keys[i].time;
        let (q1, q2) = (fixed_arm.rotation_at(&mut c1, t, &mut s1).unwrap(), clean_arm.rotation_at(&mut c2, t, &mut s2).unwrap());
        let angle = tangent::quat::angle_between(&q1, &q2).to_degrees();
        assert!(angle < 2.0, "frame {i}: {angle}° from the clean take");
    }
    std::fs::remove_dir_all(&dir).ok();
}
