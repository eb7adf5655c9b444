//! Retiming by hand and as properties: every mode stretched and mirrored stays the curve
//! stretched (measured independently here, densely), keys keep their values, and a scale by
//! `S` then `1/S` about the same pivot gives the track back.

use super::*;
use crate::model::{Infinity, TrackKind};

fn track(kind: TrackKind, mode: Interpolation, keys: &[(f64, Vec<f64>)]) -> Track {
    Track::new("t", kind, mode).with_keys(keys.iter().map(|(t, v)| Key::new(*t, v.clone())).collect())
}

/// The new curve against the old one at `pivot + (t − pivot)/S`, at 997 times over the new
/// keyed range, key instants excluded (checked here, apart from `measure`).
fn stretched_difference(old: &Track, new: &Track, scale: f64, pivot: f64) -> f64 {
    let (a, b) = (TrackCurve::new(old).unwrap(), TrackCurve::new(new).unwrap());
    let (mut ea, mut eb) = (a.evaluator(), b.evaluator());
    let (t0, t1) = b.domain();
    let keys: Vec<f64> = b.times().to_vec();
    (1..997)
        .map(|i| t0 + (t1 - t0) * f64::from(i) / 997.0)
        .filter(|t| keys.iter().all(|k| (k - t).abs() > 1e-9))
        .map(|t| {
            let (x, y) = (ea.value_at(pivot + (t - pivot) / scale), eb.value_at(t));
            if old.kind == TrackKind::Quat {
                let s = if x.iter().zip(&y).map(|(p, q)| p * q).sum::<f64>() < 0.0 { -1.0 } else { 1.0 };
                x.iter().zip(&y).map(|(p, q)| (p - s * q).abs()).fold(0.0, f64::max)
            } else {
                x.iter().zip(&y).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max)
            }
        })
        .fold(0.0, f64::max)
}

/// By hand: keys at 1 and 3 scaled by 2 about 1 go to 1 and 5; by −1 about 2, to 3 and 1 in
/// reverse order, the value at 1 (new) being the old value at 3.
#[test]
fn times_by_hand() {
    let t = track(TrackKind::Scalar, Interpolation::Linear, &[(1.0, vec![10.0]), (3.0, vec![20.0])]);
    let r = retime_track(&t, 2.0, 1.0).unwrap();
    assert_eq!(r.track.keys.iter().map(|k| (k.time, k.value[0])).collect::<Vec<_>>(), vec![(1.0, 10.0), (5.0, 20.0)]);
    let r = retime_track(&t, -1.0, 2.0).unwrap();
    assert_eq!(r.track.keys.iter().map(|k| (k.time, k.value[0])).collect::<Vec<_>>(), vec![(1.0, 20.0), (3.0, 10.0)]);
    assert!(r.max_difference < 1e-12);
}

/// A mirrored Step track by hand: keys 0→a, 1→b, 2→c held forward; mirrored about 1 the new
/// keys are at 0 (old 2), 1 (old 1), 2 (old 0); on (0, 1) the old track held b, on (1, 2) a,
/// before 0 (old after 2) c, after 2 (old before 0) a.
#[test]
fn mirrored_step_by_hand() {
    let t = track(TrackKind::Scalar, Interpolation::Step, &[(0.0, vec![1.0]), (1.0, vec![2.0]), (2.0, vec![3.0])]);
    let r = retime_track(&t, -1.0, 1.0).unwrap();
    let curve = TrackCurve::new(&r.track).unwrap();
    let mut ev = curve.evaluator();
    for (time, want) in [(-0.5, 3.0), (0.5, 2.0), (1.5, 1.0), (2.5, 1.0)] {
        assert_eq!(ev.value_at(time)[0], want, "t = {time}");
    }
    assert!(r.max_difference < 1e-12, "{}", r.max_difference);
}

/// Every mode on a track with uneven key spacing, TCB parameters, ease, Bezier handles of every
/// type and infinities, scaled by 2.5, 0.3, −1 and −1.7 about 0.4: the curve stretched within
/// 1e-9 (measured here and by `retime_track`), and each key keeps its value (but a mirrored
/// Step's, moved one along).
#[test]
fn every_mode_stays_exact() {
    let times = [0.0, 0.3, 1.1, 1.5, 2.6];
    let scalar = |i: usize| vec![(i as f64 * 1.7).sin() * 3.0 + i as f64];
    let mut cases: Vec<Track> = Vec::new();
    for mode in [Interpolation::Step, Interpolation::Linear, Interpolation::Cubic, Interpolation::Tcb, Interpolation::Bezier] {
        let mut t = track(TrackKind::Scalar, mode, &times.iter().enumerate().map(|(i, &t)| (t, scalar(i))).collect::<Vec<_>>());
        if mode == Interpolation::Tcb {
            for (i, k) in t.keys.iter_mut().enumerate() {
                *k = k.clone().with_tcb(0.3 - 0.2 * i as f64, -0.4 + 0.1 * i as f64, 0.5 - 0.25 * i as f64).with_ease(0.1 * i as f64, 0.5 - 0.1 * i as f64);
            }
        }
        if mode == Interpolation::Bezier {
            let types = [HandleType::AutoClamped, HandleType::Auto, HandleType::Vector, HandleType::Free, HandleType::Aligned];
            for (i, k) in t.keys.iter_mut().enumerate() {
                let ty = types[i];
                let offsets = if ty.is_automatic() { (vec![], vec![]) } else { (vec![(-0.1, 0.4)], vec![(0.2, -0.8)]) };
                *k = k.clone().with_handles((ty, ty), offsets.0, offsets.1);
            }
        }
        if mode == Interpolation::Cubic {
            t.ending_start = crate::model::Ending::WrapAround;
            t.ending_end = crate::model::Ending::WrapAround;
        }
        t.pre_infinity = Infinity::Linear;
        cases.push(t);
    }
    let quat = |i: usize| {
        let a = 0.7 * i as f64;
        let n = (1.0f64 + 0.04 + 0.09).sqrt();
        vec![(a / 2.0).sin() * 1.0 / n, (a / 2.0).sin() * 0.2 / n, (a / 2.0).sin() * 0.3 / n, (a / 2.0).cos()]
    };
    for mode in [Interpolation::Slerp, Interpolation::Nlerp, Interpolation::Squad] {
        cases.push(track(TrackKind::Quat, mode, &times.iter().enumerate().map(|(i, &t)| (t, quat(i))).collect::<Vec<_>>()));
    }
    let mut checked = 0;
    for t in &cases {
        for scale in [2.5, 0.3, -1.0, -1.7] {
            let r = retime_track(t, scale, 0.4).unwrap();
            let d = stretched_difference(t, &r.track, scale, 0.4);
            assert!(d < 1e-9, "{:?} by {scale}: {d:e} (measured {:e})", t.interpolation, r.max_difference);
            assert!(r.max_difference < 1e-9, "{:?} by {scale}: measured {:e}", t.interpolation, r.max_difference);
            // Handles stay on their sides: left before the key, right after it.
            for k in &r.track.keys {
                assert!(k.left.iter().all(|h| h.0 <= 0.0) && k.right.iter().all(|h| h.0 >= 0.0), "{scale}: {k:?}");
            }
            if !(t.interpolation == Interpolation::Step && scale < 0.0) {
                let mut old: Vec<Vec<f64>> = t.keys.iter().map(|k| k.value.clone()).collect();
                if scale < 0.0 {
                    old.reverse();
                }
                assert_eq!(old, r.track.keys.iter().map(|k| k.value.clone()).collect::<Vec<_>>());
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 8 * 4);
}

/// three.js' ZeroSlope ending is not its own mirror: a mirrored Cubic track with it moves, and
/// the retime says by how much (within 5% of the difference measured here, 1000 times).
#[test]
fn a_mirrored_zero_slope_cubic_is_measured_and_said() {
    let mut t = track(TrackKind::Scalar, Interpolation::Cubic, &[(0.0, vec![0.0]), (1.0, vec![3.0]), (1.5, vec![-1.0]), (3.0, vec![2.0])]);
    t.ending_start = crate::model::Ending::ZeroSlope;
    let r = retime_track(&t, -1.0, 0.0).unwrap();
    let d = stretched_difference(&t, &r.track, -1.0, 0.0);
    assert!(d > 1e-3 && (r.max_difference - d).abs() <= 0.05 * d, "{} vs {d}", r.max_difference);
    assert!(r.notes.iter().any(|n| n.starts_with("not exact under this scale")), "{:?}", r.notes);
    // Scaled forward it is exact and nothing is said.
    let r = retime_track(&t, 2.0, 0.0).unwrap();
    assert!(r.max_difference < 1e-9 && r.notes.is_empty(), "{:?}", r.notes);
}

#[test]
fn bad_scale_and_pivot_are_refused() {
    let t = track(TrackKind::Scalar, Interpolation::Linear, &[(0.0, vec![0.0]), (1.0, vec![1.0])]);
    for s in [0.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(retime_track(&t, s, 0.0), Err(RetimeError::Scale(_))));
    }
    assert!(matches!(retime_track(&t, 2.0, f64::NAN), Err(RetimeError::Pivot(_))));
    assert!(retime_track(&t, 0.0, 0.0).unwrap_err().to_string().contains("other than 0"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
    /// Scaling by S then 1/S about the same pivot gives the track back (times within 1e-12
    /// relative, everything else as it was once automatic handles are resolved), for
    /// positive and negative S.
    #[test]
    fn there_and_back_is_the_identity(raw in proptest::collection::vec((0.01f64..1.0, -5.0f64..5.0), 2..12), scale in proptest::prop_oneof![0.1f64..10.0, -10.0f64..-0.1], pivot in -3.0f64..3.0, mode_i in 0usize..4) {
        let mode = [Interpolation::Linear, Interpolation::Cubic, Interpolation::Tcb, Interpolation::Step][mode_i];
        let mut time = 0.0;
        let keys: Vec<(f64, Vec<f64>)> = raw.iter().map(|&(gap, v)| { time += gap; (time, vec![v]) }).collect();
        let t = track(TrackKind::Scalar, mode, &keys);
        let there = retime_track(&t, scale, pivot).unwrap();
        let back = retime_track(&there.track, 1.0 / scale, pivot).unwrap();
        let d = stretched_difference(&t, &back.track, 1.0, 0.0);
        proptest::prop_assert!(d < 1e-9, "{:?} by {}: {:e}", mode, scale, d);
        if mode != Interpolation::Step || scale > 0.0 {
            proptest::prop_assert_eq!(back.track.keys.len(), t.keys.len());
            for (a, b) in t.keys.iter().zip(&back.track.keys) {
                proptest::prop_assert!((a.time - b.time).abs() <= 1e-12 * a.time.abs().max(1.0));
                proptest::prop_assert_eq!(&a.value, &b.value);
            }
        }
    }
}

/// Per-key segments under a time scale: every easing mode and Constant stay exact scaled by
/// 2 and mirrored by −0.5 (Elastic within its float32 period's rounding); the mirrored track's
/// eased segment eases the other way.
#[test]
fn eased_segments_stretch_and_mirror() {
    use crate::model::{Easing, KeyInterpolation};
    let mut checked = 0;
    for mode in KeyInterpolation::ALL {
        for easing in Easing::ALL {
            let mut keys = vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![2.0]), Key::new(2.5, vec![-1.0])];
            keys[0].interpolation = mode;
            keys[0].easing = easing;
            keys[1].interpolation = KeyInterpolation::Bounce;
            let track = Track::new("e", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys);
            for scale in [2.0, -0.5] {
                let r = retime_track(&track, scale, 0.7).unwrap();
                // Elastic's period is float32; Circular's slope is infinite at its vertical
                // ends, where a rounding of the time in 1e-16 moves the value by its square root.
                let bound = match mode {
                    KeyInterpolation::Elastic => 1e-5,
                    KeyInterpolation::Circ => 1e-7,
                    _ => 1e-9,
                };
                if mode == KeyInterpolation::Constant && scale < 0.0 {
                    assert!(r.max_difference > 1.0 && r.notes.iter().any(|n| n.contains("Constant")), "{:?}", r.notes);
                    continue;
                }
                assert!(r.max_difference <= bound, "{mode:?} {easing:?} by {scale}: {}", r.max_difference);
                checked += 1;
                if scale < 0.0 && mode == KeyInterpolation::Quad && easing == Easing::In {
                    // Old segment 0 → 1 is now the last one, starting at the key now at 1.
                    let k = &r.track.keys[1];
                    assert_eq!((k.interpolation, k.easing), (KeyInterpolation::Quad, Easing::Out));
                }
            }
        }
    }
    assert_eq!(checked, 13 * 4 * 2 - 4);
}
