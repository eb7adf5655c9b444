//! Key reduction on Blender's Decimate anchor (`tests/reference/reduce_anchor`, copied from
//! `../shared/reduce-anchor`: Blender 3.4's key counts on two dense signals) and on smooth
//! tracks, measured on the compiled curves.

use super::*;
use crate::model::Key;

/// A `time,x` CSV of `dir` (under `tests/reference`) as a Linear Scalar track of its samples.
fn csv_track(dir: &str, name: &str) -> Track {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference").join(dir).join(name);
    let text = std::fs::read_to_string(path).unwrap();
    let keys = text
        .lines()
        .skip(1)
        .map(|l| {
            let (t, x) = l.split_once(',').unwrap();
            Key::new(t.parse().unwrap(), vec![x.parse().unwrap()])
        })
        .collect();
    Track::new(name, TrackKind::Scalar, Interpolation::Linear).with_keys(keys)
}

fn anchor(name: &str) -> Track {
    csv_track("reduce_anchor", name)
}

/// Blender's key counts (README of the anchor) at E = 1e-2, 1e-3, 1e-4.
const BLENDER: [(&str, [usize; 3]); 2] = [("two_sines.csv", [48, 121, 184]), ("ease_steps.csv", [22, 42, 64])];

#[test]
fn fewer_keys_than_blender_decimate_within_the_bound() {
    for (name, blender) in BLENDER {
        let track = anchor(name);
        let mut ours = 0;
        for (e, theirs) in [1e-2, 1e-3, 1e-4].into_iter().zip(blender) {
            let r = reduce_track(&track, Tolerance::new(e, DEFAULT_ANGLE_DEG).unwrap()).unwrap();
            // Measured again here, independently of the report: every sample within E.
            let curve = TrackCurve::new(&r.track).unwrap();
            let mut ev = curve.evaluator();
            let worst = track.keys.iter().map(|k| (ev.value_at(k.time)[0] - k.value[0]).abs()).fold(0.0, f64::max);
            assert!(worst <= e, "{name} E={e}: {worst}");
            assert!((r.max_error - worst).abs() <= 1e-12, "{name}: reported {} measured {worst}", r.max_error);
            assert!(r.keys_after <= theirs, "{name} E={e}: {} keys vs Blender's {theirs}", r.keys_after);
            let corners = r.track.keys.iter().filter(|k| k.handles.0 == crate::HandleType::Free).count();
            eprintln!("{name} E={e}: {} keys, {corners} corners (Blender {theirs}), max error {worst:.3e}", r.keys_after);
            ours += r.keys_after;
        }
        let total: usize = blender.iter().sum();
        assert!(ours * 10 <= total * 4, "{name}: {ours} keys over the three E vs Blender's {total}");
    }
}

/// A smooth TCB track sampled densely (as a baked export would be) is reduced, and the result
/// stays within E everywhere on a fine grid, not only at the keys.
#[test]
fn a_smooth_track_stays_within_the_bound_between_keys() {
    let keys = (0..=180).map(|i| {
        let t = f64::from(i) / 30.0;
        Key::new(t, vec![t.sin() * 2.0, (1.3 * t).cos()])
    });
    let track = Track::new("s", TrackKind::Vec2, Interpolation::Tcb).with_keys(keys.collect());
    let e = 1e-4;
    let r = reduce_track(&track, Tolerance::new(e, DEFAULT_ANGLE_DEG).unwrap()).unwrap();
    assert!(r.keys_after < 60, "{} keys: {:?}, error {}", r.keys_after, r.kept, r.max_error);
    let (a, b) = (TrackCurve::new(&track).unwrap(), TrackCurve::new(&r.track).unwrap());
    let (mut ea, mut eb) = (a.evaluator(), b.evaluator());
    for i in 0..=60_000 {
        let t = f64::from(i) / 10_000.0;
        let d = ea.value_at(t).iter().zip(eb.value_at(t)).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt();
        assert!(d <= e, "at {t}: {d}");
    }
}

#[test]
fn jumps_and_step_tracks_are_kept() {
    let mut keys: Vec<Key> = (0..=40).map(|i| Key::new(f64::from(i) / 40.0, vec![f64::from(i) / 40.0])).collect();
    keys.extend((20..=40).map(|i| Key::new(f64::from(i) / 20.0, vec![5.0 - f64::from(i) / 20.0])));
    let track = Track::new("j", TrackKind::Scalar, Interpolation::Linear).with_keys(keys);
    let r = reduce_track(&track, Tolerance::new(1e-6, DEFAULT_ANGLE_DEG).unwrap()).unwrap();
    assert!(r.kept.is_none() && r.keys_after == 4, "two straight runs, jump kept: {:?}", r.track.keys.iter().map(|k| (k.time, k.value[0])).collect::<Vec<_>>());
    let (t1, t2) = (&r.track.keys[1], &r.track.keys[2]);
    assert!(t1.time == 1.0 && t2.time == 1.0 && (t1.value[0] - 1.0).abs() < 1e-6 && (t2.value[0] - 4.0).abs() < 1e-6);
    let step = Track { interpolation: Interpolation::Step, ..track };
    assert!(reduce_track(&step, Tolerance::new(1e-3, DEFAULT_ANGLE_DEG).unwrap()).unwrap().kept.is_some());
}

/// More signals against Blender 3.4's Decimate (`tests/reference/reduce_blender`, made by
/// `tools/blender/decimate_reference.py`): never more keys than Blender at any E, every sample
/// within E. Prints the table the README quotes (`cargo test --lib blender_table -- --nocapture`).
#[test]
fn blender_table_more_signals() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/reduce_blender");
    let counts: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("counts.json")).unwrap()).unwrap();
    let signals = counts["signals"].as_object().unwrap();
    assert!(signals.len() >= 3);
    for (name, rows) in signals {
        let track = Track { name: name.clone(), ..csv_track("reduce_blender", &format!("{name}.csv")) };
        let (mut ours_total, mut theirs_total) = (0, 0);
        for row in rows.as_array().unwrap() {
            let e = row["E"].as_f64().unwrap();
            let theirs = row["blender_keys"].as_u64().unwrap() as usize;
            let r = reduce_track(&track, Tolerance::new(e, DEFAULT_ANGLE_DEG).unwrap()).unwrap();
            let ours = if r.kept.is_some() { track.keys.len() } else { r.keys_after };
            let curve = TrackCurve::new(&r.track).unwrap();
            let mut ev = curve.evaluator();
            let worst = track.keys.iter().map(|k| (ev.value_at(k.time)[0] - k.value[0]).abs()).fold(0.0, f64::max);
            assert!(worst <= e, "{name} E={e}: {worst}");
            assert!(ours <= theirs, "{name} E={e}: {ours} keys vs Blender's {theirs}");
            let corners = r.track.keys.iter().filter(|k| k.handles.0 == crate::HandleType::Free).count();
            eprintln!(
                "| {name} | {} | {e:e} | {theirs} | {ours} ({corners} corners) | {:.0}% | {worst:.2e} |",
                track.keys.len(),
                100.0 * ours as f64 / theirs as f64
            );
            (ours_total, theirs_total) = (ours_total + ours, theirs_total + theirs);
        }
        eprintln!("| {name} | | all three | {theirs_total} | {ours_total} | {:.0}% | |", 100.0 * ours_total as f64 / theirs_total as f64);
    }
}
