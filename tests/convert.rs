//! Convert to Bézier: TCB (both tangent modes), three.js Cubic (every ending) and Linear
//! tracks become Bezier tracks with no change in value (≤ 1e-12 relative over 10,000 times,
//! measured here by sampling both curves), and eased TCB segments within the user's bound.

mod common;

use common::rng;
use tangent::convert::{to_bezier, ConvertError};
use tangent::{Ending, HandleType, Interpolation, Key, TangentMode, Track, TrackCurve, TrackKind};

fn random_track(seed: u64, kind: TrackKind, mode: Interpolation, ease: bool) -> Track {
    let mut r = rng::uniform(seed);
    let mut t = -1.0;
    let keys = (0..9)
        .map(|_| {
            t += 0.05 + 2.0 * r();
            let value = (0..kind.dim()).map(|_| 200.0 * r() - 100.0).collect();
            let k = Key::new(t, value).with_tcb(2.0 * r() - 1.0, 2.0 * r() - 1.0, 2.0 * r() - 1.0);
            if ease && r() < 0.6 {
                k.with_ease(r(), r())
            } else {
                k
            }
        })
        .collect();
    Track::new("t", kind, mode).with_keys(keys)
}

/// Largest component difference over 10,000 evenly spaced times across the keys and a little
/// beyond, relative to the largest key value.
fn relative_difference(a: &Track, b: &Track) -> f64 {
    let (ca, cb) = (TrackCurve::new(a).unwrap(), TrackCurve::new(b).unwrap());
    let (t0, t1) = ca.domain();
    let scale = a.keys.iter().flat_map(|k| k.value.iter()).fold(1.0f64, |m, v| m.max(v.abs()));
    let (mut ea, mut eb) = (ca.evaluator(), cb.evaluator());
    (0..=10_000)
        .map(|i| {
            let t = t0 - 0.1 + (t1 - t0 + 0.2) * f64::from(i) / 10_000.0;
            ea.value_at(t).iter().zip(eb.value_at(t)).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
        })
        .fold(0.0, f64::max)
        / scale
}

#[test]
fn tcb_cubic_and_linear_convert_without_changing_a_value() {
    let mut cases = Vec::new();
    for (seed, kind) in [(1, TrackKind::Scalar), (2, TrackKind::Vec2), (3, TrackKind::Vec3), (4, TrackKind::Vec4)] {
        for mode in [TangentMode::Seed, TangentMode::TimeAdjusted] {
            let mut t = random_track(seed, kind, Interpolation::Tcb, false);
            t.tangents = mode;
            cases.push(t);
        }
        for (start, end) in [(Ending::ZeroCurvature, Ending::ZeroSlope), (Ending::ZeroSlope, Ending::WrapAround), (Ending::WrapAround, Ending::ZeroCurvature)] {
            let mut t = random_track(seed + 10, kind, Interpolation::Cubic, false);
            t.ending_start = start;
            t.ending_end = end;
            cases.push(t);
        }
        cases.push(random_track(seed + 20, kind, Interpolation::Linear, false));
    }
    for track in cases {
        let c = to_bezier(&track, 1e-6).unwrap();
        assert_eq!(c.track.interpolation, Interpolation::Bezier);
        assert_eq!(c.track.keys.len(), track.keys.len(), "no keys added without ease");
        assert_eq!(c.added_keys, 0);
        let d = relative_difference(&track, &c.track);
        assert!(d <= 1e-12, "{:?} {:?} {:?}: relative difference {d:e}", track.kind, track.interpolation, track.tangents);
        assert!(c.max_difference <= 1e-12 * 100.0, "reported {}", c.max_difference);
    }
}

/// Linear (0, 0) → (3, 6) becomes Vector handles, which Blender's rule puts a third of the
/// way along the line: right of key 0 = (1, 2), left of key 1 = (−1, −2).
#[test]
fn linear_becomes_vector_handles() {
    let t = Track::new("l", TrackKind::Scalar, Interpolation::Linear).with_keys(vec![Key::new(0.0, vec![0.0]), Key::new(3.0, vec![6.0])]);
    let c = to_bezier(&t, 1e-6).unwrap();
    assert!(c.track.keys.iter().all(|k| k.handles == (HandleType::Vector, HandleType::Vector)));
    let curve = TrackCurve::new(&c.track).unwrap();
    assert_eq!(curve.bezier_handles(0, 0).unwrap().1, (1.0, 2.0));
    assert_eq!(curve.bezier_handles(1, 0).unwrap().0, (-1.0, -2.0));
}

/// Largest component difference at `per_interval` evenly spaced times in each interval
/// between consecutive key times of either track (its ends included), and how many times.
fn dense_difference(a: &Track, b: &Track, per_interval: usize) -> (f64, usize) {
    let (ca, cb) = (TrackCurve::new(a).unwrap(), TrackCurve::new(b).unwrap());
    let mut cuts: Vec<f64> = a.keys.iter().chain(&b.keys).map(|k| k.time).collect();
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    let (mut ea, mut eb) = (ca.evaluator(), cb.evaluator());
    let (mut worst, mut points) = (0.0f64, 0);
    for w in cuts.windows(2) {
        for j in 0..=per_interval {
            let t = w[0] + (w[1] - w[0]) * j as f64 / per_interval as f64;
            let d = ea.value_at(t).iter().zip(eb.value_at(t)).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
            worst = worst.max(d);
            points += 1;
        }
    }
    (worst, points)
}

#[test]
fn eased_segments_get_the_fewest_keys_within_the_bound() {
    let track = random_track(7, TrackKind::Vec2, Interpolation::Tcb, true);
    let mut last = usize::MAX;
    for bound in [1e-6, 1e-4, 1e-2] {
        let c = to_bezier(&track, bound).unwrap();
        let scale = track.keys.iter().flat_map(|k| k.value.iter()).fold(1.0f64, |m, v| m.max(v.abs()));
        let d = relative_difference(&track, &c.track) * scale;
        assert!(d <= bound, "bound {bound:e}: measured {d:e}");
        // The report (16 points between key times, the largest refined) against 1,000 points
        // between each two key times of either track: a lobe of the difference is as wide as
        // that interval, so the dense maximum is within about 1.2e-6 of each true peak
        // ((π/2000)²/2); 5e-6 relative is the tolerance. Without the refinement the report is
        // about 0.5% low ((π/32)²/2) and fails; so does one that overstates.
        let (dense, points) = dense_difference(&track, &c.track, 1000);
        assert!(points >= 1000 * (track.keys.len() - 1), "{points} points");
        assert!(c.max_difference <= bound, "reported {:e} above the bound {bound:e}", c.max_difference);
        assert!((c.max_difference - dense).abs() <= 5e-6 * dense, "reported {:e} vs measured {dense:e}", c.max_difference);
        assert!(d <= dense * (1.0 + 5e-6), "the dense measure {dense:e} misses the wide grid's {d:e}");
        assert!(c.added_keys > 0, "eased segments need keys");
        assert!(c.added_keys <= last, "looser bounds need no more keys");
        last = c.added_keys;
        // Original keys are all kept, in order.
        for k in &track.keys {
            assert!(c.track.keys.iter().any(|n| n.time == k.time && n.value == k.value));
        }
    }
}

#[test]
fn rotations_and_bad_bounds_are_refused() {
    let q = Track::new("q", TrackKind::Quat, Interpolation::Slerp).with_keys(vec![Key::new(0.0, vec![0.0, 0.0, 0.0, 1.0])]);
    assert!(matches!(to_bezier(&q, 1e-6), Err(ConvertError::Unsupported { .. })));
    let t = random_track(3, TrackKind::Scalar, Interpolation::Tcb, false);
    assert!(matches!(to_bezier(&t, 0.0), Err(ConvertError::Bound(_))));
    assert!(matches!(to_bezier(&t, f64::NAN), Err(ConvertError::Bound(_))));
}
