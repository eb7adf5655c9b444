//! Hand-checked values of the compiled curve: three.js cubic endings, one-key tracks, TCB
//! natural ends, infinity modes and jumps.

use super::*;
use crate::model::{Ending, Key};

fn scalar(mode: Interpolation, keys: &[(f64, f64)]) -> Track {
    Track::new("s", TrackKind::Scalar, mode).with_keys(keys.iter().map(|&(t, v)| Key::new(t, vec![v])).collect())
}

fn at(track: &Track, t: f64) -> f64 {
    TrackCurve::new(track).unwrap().evaluator().value_at(t)[0]
}

/// three.js cubic, segment 0 of keys (0,0),(1,1),(2,2),(3,0) at p = 0.5, where
/// sP·vP + s0·v0 + s1·v1 + sN·v2 with wN = 0.5 gives s1 = 0.5625, sN = −0.0625, and
/// ZeroCurvature: wP = −0.5, vP = v1 → sP = 0.0625: 0.0625 + 0.5625 − 0.125 = 0.5;
/// ZeroSlope: wP = 0.5, vP = v1 → sP = −0.0625: −0.0625 + 0.5625 − 0.125 = 0.375;
/// WrapAround: wP = 0.5, vP = v[n−2] = 2: −0.125 + 0.5625 − 0.125 = 0.3125.
#[test]
fn three_cubic_start_endings_hand_values() {
    let mut t = scalar(Interpolation::Cubic, &[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (3.0, 0.0)]);
    for (ending, want) in [(Ending::ZeroCurvature, 0.5), (Ending::ZeroSlope, 0.375), (Ending::WrapAround, 0.3125)] {
        t.ending_start = ending;
        assert!((at(&t, 0.5) - want).abs() < 1e-15, "{ending:?}: {}", at(&t, 0.5));
    }
}

/// The mirror image at the end: segment 2 of keys (0,0),(1,2),(2,1),(3,3) at p = 0.5, with
/// wP = 0.5 (sP = −0.0625 on v1 = 2, s0 = 0.5625 on v2 = 1) and the end conditions below.
#[test]
fn three_cubic_end_endings_hand_values() {
    let mut t = scalar(Interpolation::Cubic, &[(0.0, 0.0), (1.0, 2.0), (2.0, 1.0), (3.0, 3.0)]);
    // ZeroCurvature: −0.0625·2 + 0.5625·1 + 0.4375·3 + 0.0625·1 = 1.8125
    // ZeroSlope:     −0.0625·2 + 0.5625·1 + 0.5625·3 − 0.0625·3 = 1.9375
    // WrapAround: vN = v1 = 2, tNext = t1 + t1 − t0 → wN = 0.5:
    //                −0.0625·2 + 0.5625·1 + 0.5625·3 − 0.0625·2 = 2.0
    for (ending, want) in [(Ending::ZeroCurvature, 1.8125), (Ending::ZeroSlope, 1.9375), (Ending::WrapAround, 2.0)] {
        t.ending_end = ending;
        assert!((at(&t, 2.5) - want).abs() < 1e-15, "{ending:?}: {}", at(&t, 2.5));
    }
}

#[test]
fn one_key_is_constant_in_every_mode_and_infinity() {
    for mode in [Interpolation::Step, Interpolation::Linear, Interpolation::Cubic, Interpolation::Tcb] {
        let mut t = scalar(mode, &[(1.0, 7.0)]);
        t.pre_infinity = Infinity::Linear;
        t.post_infinity = Infinity::CycleOffset;
        for x in [-5.0, 1.0, 1.5, 100.0] {
            assert_eq!(at(&t, x), 7.0, "{mode:?} at {x}");
        }
    }
    assert!(matches!(TrackCurve::new(&scalar(Interpolation::Tcb, &[])), Err(TrackError::NoKeys { .. })));
}

/// TCB natural ends: keys (0,0),(1,1),(2,0), T=C=B=0 give ra₁ = 0, so rb₀ = 1.5·1 − 0 = 1.5
/// and the second derivative at the first key is 0.
#[test]
fn tcb_natural_end_has_zero_curvature() {
    let t = scalar(Interpolation::Tcb, &[(0.0, 0.0), (1.0, 1.0), (2.0, 0.0)]);
    let c = TrackCurve::new(&t).unwrap();
    assert_eq!(c.outgoing_tangent(0).unwrap(), &[1.5]);
    assert_eq!(c.incoming_tangent(1).unwrap(), &[0.0]);
    let mut acc = [1.0];
    c.segment_acceleration(0, 0.0, &mut acc);
    assert_eq!(acc, [0.0]);
    c.segment_acceleration(1, 1.0, &mut acc);
    assert_eq!(acc, [0.0]);
}

/// Keys (0,0),(1,1),(2,3) linear, so the end slopes are 1 and 2 per second.
#[test]
fn infinity_modes_hand_values() {
    let mut t = scalar(Interpolation::Linear, &[(0.0, 0.0), (1.0, 1.0), (2.0, 3.0)]);
    t.post_infinity = Infinity::Linear;
    t.pre_infinity = Infinity::Linear;
    assert_eq!(at(&t, 3.0), 5.0);
    assert_eq!(at(&t, -1.0), -1.0);
    t.post_infinity = Infinity::Cycle;
    t.pre_infinity = Infinity::Cycle;
    assert_eq!(at(&t, 2.5), 0.5);
    assert_eq!(at(&t, -0.5), 2.0); // −0.5 ≡ 1.5
    t.post_infinity = Infinity::CycleOffset;
    assert_eq!(at(&t, 3.5), 3.0 + 2.0); // one cycle on (+3), 1.5 into it (2.0)
    t.post_infinity = Infinity::PingPong;
    assert_eq!(at(&t, 2.5), 2.0); // reversed: 2.5 ≡ 1.5
    assert_eq!(at(&t, 4.5), 0.5); // forward again
    let mut v = [0.0];
    let c = TrackCurve::new(&t).unwrap();
    c.velocity(&mut SegmentCursor::new(), 2.5, &mut v);
    assert_eq!(v, [-2.0], "ping-pong runs the curve backwards");
    let mut q = Track::new("q", TrackKind::Quat, Interpolation::Slerp).with_keys(vec![Key::new(0.0, vec![0.0, 0.0, 0.0, 1.0])]);
    q.post_infinity = Infinity::Linear;
    assert!(matches!(TrackCurve::new(&q), Err(TrackError::InfinityMismatch { .. })));
}

/// At a jump (two keys at t = 1) the value is the second key's; just before, the segment
/// heads to the first; no mode divides by the zero gap.
#[test]
fn jumps_take_the_last_key_and_never_nan() {
    for mode in [Interpolation::Step, Interpolation::Linear, Interpolation::Cubic, Interpolation::Tcb] {
        let t = scalar(mode, &[(0.0, 0.0), (1.0, 1.0), (1.0, 5.0), (1.0, 9.0), (2.0, 10.0)]);
        assert_eq!(at(&t, 1.0), 9.0, "{mode:?}");
        let before = at(&t, 1.0 - 1e-9);
        assert!(before.is_finite() && (mode == Interpolation::Step || (before - 1.0).abs() < 1e-6), "{mode:?}: {before}");
        assert!(at(&t, 1.5).is_finite());
    }
}
