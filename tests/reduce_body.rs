//! `tangent reduce --body E` (issue 43) on a 31-joint CMU-style take of 600 frames written by
//! `tools/problem_takes.py`: with E = 1e-3 of the skeleton's size, every joint and end site
//! stays within E at every frame (measured again by `tangent diff --body` on the written
//! file), with at most 0.8x the keys of the best per-curve reduction (one tolerance for every
//! track — `--tolerance t --angle t` in degrees of t radians — searched over a log grid) whose
//! body error is also within E.

use std::path::PathBuf;
use std::process::Command;

use tangent::body::{project_difference, Rig};
use tangent::open::{open_any, Opened};
use tangent::reduce::{project, Tolerance};

fn take() -> (PathBuf, tangent::Project) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/problems/body31.bvh");
    let Opened::Imported(i) = open_any(&path).unwrap() else { panic!("a BVH take") };
    (path, i.project)
}

#[test]
fn reduce_on_the_body_beats_every_per_curve_tolerance() {
    let (path, take) = take();
    let rig = Rig::new(&take).unwrap();
    assert_eq!(rig.skeleton.joints.len(), 31);
    let bound = 1e-3 * rig.size();
    let ours = tangent::reduce::body::reduce_on_body(&take, bound, &|_| {}).unwrap();
    assert!(ours.displacement.distance <= bound, "{}", ours.displacement);
    // The best single tolerance whose body error is within the bound.
    let keys = |p: &tangent::Project| p.tracks.iter().map(|t| t.keys.len()).sum::<usize>();
    let mut best: Option<(f64, usize)> = None;
    let mut tried = 0;
    for k in 0..=32 {
        let t = 1e-6 * 10f64.powf(k as f64 / 8.0);
        // The same number for every track: t file units for positions, t radians (as
        // degrees) of rotation for the Euler tracks.
        let reports = project::reduce_tracks(&take, &[], Tolerance::new(t, t.to_degrees().min(90.0)).unwrap(), &|_, _| {});
        let reduced = project::apply(&take, &reports);
        let d = project_difference(&take, &reduced).unwrap().unwrap();
        tried += 1;
        if d.distance <= bound && best.is_none_or(|b| keys(&reduced) < b.1) {
            best = Some((t, keys(&reduced)));
        }
    }
    assert_eq!(tried, 33);
    let (t, per_curve) = best.expect("some tolerance keeps the body within the bound");
    println!(
        "body bound {bound:.4e}: {} keys (scale {:.3}); best per-curve tolerance {t:.3e}: {per_curve} keys; of {}",
        ours.keys_after, ours.scale, ours.keys_before
    );
    assert!(ours.keys_after as f64 <= 0.8 * per_curve as f64, "{} keys on the body against {per_curve} per curve", ours.keys_after);

    // The command writes the reduced take, and diff --body measures it within the bound.
    let dir = std::env::temp_dir().join(format!("tangent-reduce-body-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (orig, out) = (dir.join("take.ron"), dir.join("reduced.ron"));
    tangent::io::save_project(&orig, &take).unwrap();
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_tangent")).args(args).output().unwrap();
    let o = run(&["reduce", path.to_str().unwrap(), "--body", &bound.to_string(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains(&format!("keys: {} -> {} ", ours.keys_before, ours.keys_after)), "{text}");
    let o = run(&["diff", orig.to_str().unwrap(), out.to_str().unwrap(), "--body"]);
    let text = String::from_utf8(o.stdout).unwrap();
    let d: f64 = text.lines().last().unwrap().strip_prefix("body: largest joint displacement ").unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(d <= bound, "diff --body says {d} > {bound}");
    std::fs::remove_dir_all(&dir).ok();
}
