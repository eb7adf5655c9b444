//! Per-key segment settings of Bezier tracks compiled into curves: Constant, Linear and eased
//! segments against hand-checked numbers, their derivatives against differences, and Linear
//! extrapolation by Blender's end-key rules.

use crate::model::{Easing, HandleType, Infinity, Interpolation, Key, KeyInterpolation, Track, TrackKind};
use crate::TrackCurve;

/// Keys (0, 0), (2, 10), (3, 4) on a Bezier track; key 0's segment `mode`.
fn track(mode: KeyInterpolation, easing: Easing) -> Track {
    let mut keys = vec![Key::new(0.0, vec![0.0]), Key::new(2.0, vec![10.0]), Key::new(3.0, vec![4.0])];
    keys[0].interpolation = mode;
    keys[0].easing = easing;
    Track::new("t", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys)
}

fn at(track: &Track, t: f64) -> f64 {
    TrackCurve::new(track).unwrap().evaluator().value_at(t)[0]
}

#[test]
fn constant_holds_until_the_next_key_then_jumps() {
    let t = track(KeyInterpolation::Constant, Easing::Auto);
    assert_eq!(at(&t, 0.0), 0.0);
    assert_eq!(at(&t, 1.0), 0.0);
    assert_eq!(at(&t, 1.999_999), 0.0);
    assert_eq!(at(&t, 2.0), 10.0, "the next key's value from its time on");
    let mut v = [0.0];
    TrackCurve::new(&t).unwrap().velocity(&mut crate::SegmentCursor::new(), 1.0, &mut v);
    assert_eq!(v[0], 0.0);
}

#[test]
fn linear_is_the_chord() {
    let t = track(KeyInterpolation::Linear, Easing::Auto);
    assert_eq!(at(&t, 0.5), 2.5);
    assert_eq!(at(&t, 1.0), 5.0);
    let mut v = [0.0];
    TrackCurve::new(&t).unwrap().velocity(&mut crate::SegmentCursor::new(), 1.3, &mut v);
    assert!((v[0] - 5.0).abs() < 1e-12, "{}", v[0]);
}

/// Hand-checked: Quad In at half the segment is begin + change/4 = 2.5; Quad Out is
/// begin + change·(1 − 1/4) = 7.5; Cubic In (Auto) at a quarter is 10/64.
#[test]
fn eased_segments_follow_the_equations() {
    assert!((at(&track(KeyInterpolation::Quad, Easing::In), 1.0) - 2.5).abs() < 1e-12);
    assert!((at(&track(KeyInterpolation::Quad, Easing::Out), 1.0) - 7.5).abs() < 1e-12);
    assert!((at(&track(KeyInterpolation::Cubic, Easing::Auto), 0.5) - 10.0 / 64.0).abs() < 1e-12);
    // The segment after the eased one is still the Bézier between keys 1 and 2.
    let plain = track(KeyInterpolation::Bezier, Easing::Auto);
    let eased = track(KeyInterpolation::Elastic, Easing::Auto);
    assert_eq!(at(&plain, 2.5), at(&eased, 2.5));
    assert_ne!(at(&plain, 1.0), at(&eased, 1.0));
}

/// The velocity of every eased mode agrees with a central difference of the values, and
/// the values stay finite.
#[test]
fn eased_velocity_is_the_derivative_of_the_values() {
    let mut checked = 0;
    for mode in KeyInterpolation::ALL.into_iter().filter(|m| m.is_easing()) {
        for easing in Easing::ALL {
            let t = track(mode, easing);
            let curve = TrackCurve::new(&t).unwrap();
            let mut e = curve.evaluator();
            for i in 1..40 {
                let x = 2.0 * f64::from(i) / 40.0 + 0.013;
                let h = 1e-6;
                let diff = (e.value_at(x + h)[0] - e.value_at(x - h)[0]) / (2.0 * h);
                let mut v = [0.0];
                e.velocity(x, &mut v);
                assert!(v[0].is_finite());
                // Bounce has corners inside the segment: skip points within h of one.
                let (a, b) = ((e.value_at(x)[0] - e.value_at(x - h)[0]) / h, (e.value_at(x + h)[0] - e.value_at(x)[0]) / h);
                if (a - b).abs() > 1e-3 * (1.0 + a.abs()) {
                    continue;
                }
                assert!((v[0] - diff).abs() < 1e-4 * (1.0 + diff.abs()), "{mode:?} {easing:?} at {x}: {} vs {diff}", v[0]);
                checked += 1;
            }
        }
    }
    assert!(checked > 10 * 4 * 30, "only {checked} points checked");
}

/// Blender's `fcurve_eval_keyframes_extrapolate`: beyond the first key along its left
/// handle (here a Free handle pointing elsewhere than the right one), beyond a Constant last
/// key flat, beyond a Linear last key along the last chord.
#[test]
fn linear_extrapolation_follows_the_end_keys() {
    let mut t = track(KeyInterpolation::Bezier, Easing::Auto);
    (t.pre_infinity, t.post_infinity) = (Infinity::Linear, Infinity::Linear);
    t.keys[0] = t.keys[0].clone().with_handles((HandleType::Free, HandleType::Free), vec![(-0.5, -1.0)], vec![(0.5, 3.0)]);
    // Slope 2 from the left handle: 1 s before the key, value −2.
    assert!((at(&t, -1.0) + 2.0).abs() < 1e-12, "{}", at(&t, -1.0));
    t.keys[2].interpolation = KeyInterpolation::Constant;
    assert_eq!(at(&t, 4.0), 4.0);
    t.keys[2].interpolation = KeyInterpolation::Linear;
    // The chord from (2, 10) to (3, 4): slope −6.
    assert!((at(&t, 4.0) + 2.0).abs() < 1e-12, "{}", at(&t, 4.0));
}

#[test]
fn bad_parameters_are_refused_with_their_name() {
    let mut t = track(KeyInterpolation::Elastic, Easing::Auto);
    t.keys[0].period = f32::NAN;
    let e = TrackCurve::new(&t).unwrap_err().to_string();
    assert!(e.contains("period"), "{e}");
    t.keys[0].period = 0.1;
    t.keys[0].amplitude = 1e30;
    let e = TrackCurve::new(&t).unwrap_err().to_string();
    assert!(e.contains("amplitude"), "{e}");
}
