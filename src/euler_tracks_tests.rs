//! Track-level Euler operations by hand: the filter, Quat → Euler with its flips, Euler → Quat
//! keeping every turn (a 720° spin, a tilted 450° spin), Step exactly, jumps kept.

use super::*;
use crate::model::Infinity;
use std::f64::consts::{PI, TAU};

fn euler_track(order: EulerOrder, mode: Interpolation, keys: &[(f64, [f64; 3])]) -> Track {
    Track { order, ..Track::new("r", TrackKind::Euler, mode).with_keys(keys.iter().map(|(t, v)| Key::new(*t, v.to_vec())).collect()) }
}

fn rotations(track: &Track, times: &[f64]) -> Vec<quat::Quat> {
    let curve = TrackCurve::new(track).unwrap();
    let mut cursor = crate::search::SegmentCursor::new();
    let mut scratch = vec![0.0; curve.dim()];
    times.iter().map(|&t| curve.rotation_at(&mut cursor, t, &mut scratch).unwrap()).collect()
}

/// The turn of each segment between consecutive keys (hemisphere-continuous keys: the angle
/// `2·acos(q_a·q_b)` along the path, not the shortest one).
fn turns_deg(track: &Track) -> Vec<f64> {
    track.keys.windows(2).map(|w| 2.0 * quat::dot(&q4(&w[0].value), &q4(&w[1].value)).clamp(-1.0, 1.0).acos().to_degrees()).collect()
}

fn q4(v: &[f64]) -> quat::Quat {
    [v[0], v[1], v[2], v[3]]
}

#[test]
fn filter_track_by_hand() {
    let t = euler_track(EulerOrder::XYZ, Interpolation::Linear, &[(0.0, [0.0, 0.0, 3.0]), (1.0, [0.0, 0.0, -3.0]), (2.0, [0.0, 0.0, -2.0])]);
    let (f, changed) = filter_track(&t).unwrap();
    assert_eq!(changed, 2);
    assert_eq!(f.keys[1].value, vec![0.0, 0.0, -3.0 + TAU]);
    assert_eq!(f.keys[2].value, vec![0.0, 0.0, -2.0 + TAU]);
    assert_eq!((f.order, f.interpolation, f.keys.len()), (EulerOrder::XYZ, Interpolation::Linear, 3));
    let q = Track::new("q", TrackKind::Quat, Interpolation::Slerp);
    assert!(matches!(filter_track(&q), Err(EulerTrackError::NotEuler { .. })));
}

/// Rotations about Z by 0°, 170° and 340°, the last given as −20° with the sign that puts it
/// in the other hemisphere from the key before: Z angles 0, 170°, 340° (continuous, not
/// −20°), one hemisphere flip at key 1, and each key the same rotation.
#[test]
fn quat_to_euler_by_hand() {
    let about_z = |deg: f64, sign: f64| {
        let h = deg.to_radians() / 2.0;
        vec![0.0, 0.0, sign * h.sin(), sign * h.cos()]
    };
    let keys = vec![Key::new(0.0, about_z(0.0, 1.0)), Key::new(1.0, about_z(170.0, 1.0)), Key::new(2.0, about_z(-20.0, 1.0))];
    let q = Track::new("q", TrackKind::Quat, Interpolation::Slerp).with_keys(keys);
    for order in EulerOrder::ALL {
        let r = quat_to_euler(&q, order).unwrap();
        assert_eq!(r.hemisphere_flips, vec![1]);
        assert_eq!((r.track.kind, r.track.order, r.track.interpolation), (TrackKind::Euler, order, Interpolation::Linear));
        let z: Vec<f64> = r.track.keys.iter().map(|k| k.value[2].to_degrees()).collect();
        for (got, want) in z.iter().zip([0.0, 170.0, 340.0]) {
            assert!((got - want).abs() < 1e-9, "{order}: {z:?}");
        }
        for (k, e) in q.keys.iter().zip(&r.track.keys) {
            let m = euler::to_matrix(&angles_of(e), order);
            assert!(euler::mat_distance(&m, &quat::to_matrix(&q4(&k.value))) < 1e-12);
        }
    }
}

/// 720° about Z in 2 s, Linear: a single-axis spin at constant speed, which Slerp plays
/// exactly. With samples every 2.5° and segments below 170°, the greedy keeps 167.5° segments:
/// ⌈720 / 167.5⌉ = 5 segments, 6 keys; every turn below 170°, the turns add up to 720°, and
/// the curve is `[0, 0, sin(πt), cos(πt)]` (rotation 2πt) up to sign.
#[test]
fn a_720_degree_spin_keeps_every_turn() {
    let spin = euler_track(EulerOrder::XYZ, Interpolation::Linear, &[(0.0, [0.0, 0.0, 0.0]), (2.0, [0.0, 0.0, 4.0 * PI])]);
    let r = euler_to_quat(&spin, 0.1).unwrap();
    assert_eq!((r.track.kind, r.track.interpolation, r.keys_after), (TrackKind::Quat, Interpolation::Slerp, 6));
    let turns = turns_deg(&r.track);
    assert!(turns.iter().all(|&a| a < 170.0), "{turns:?}");
    assert!((turns.iter().sum::<f64>() - 720.0).abs() < 1e-9, "{turns:?}");
    assert!(r.max_error_deg < 1e-9, "{}", r.max_error_deg);
    let times: Vec<f64> = (0..=40).map(|i| f64::from(i) * 0.05).collect();
    for (t, q) in times.iter().zip(rotations(&r.track, &times)) {
        let want = [0.0, 0.0, (PI * t).sin(), (PI * t).cos()];
        assert!(quat::dot(&q, &want).abs() > 1.0 - 1e-12, "t = {t}: {q:?}");
    }
}

/// A tilted spin (ZYX: Z turns 450° while X holds a 0.4 rad tilt, Tcb keys): within the bound
/// everywhere, no segment turning 170° or more, for the Slerp and the Bezier result alike.
#[test]
fn a_tilted_450_degree_spin_within_the_bound() {
    let keys: Vec<(f64, [f64; 3])> = (0..=5).map(|i| (f64::from(i) * 0.5, [0.4, 0.1 * f64::from(i).sin(), 2.5 * PI * f64::from(i) / 5.0])).collect();
    let spin = euler_track(EulerOrder::ZYX, Interpolation::Tcb, &keys);
    for bound in [0.5, 0.01] {
        let r = euler_to_quat(&spin, bound).unwrap();
        assert!(r.max_error_deg <= bound, "{bound}: {}", r.max_error_deg);
        assert!(turns_deg(&r.track).iter().all(|&a| a < 170.0));
        // Checked independently of the measurement: 1000 times, the Euler rotation against
        // the converted one.
        let times: Vec<f64> = (0..=1000).map(|i| f64::from(i) * 2.5e-3).collect();
        for (t, (a, b)) in times.iter().zip(rotations(&spin, &times).iter().zip(rotations(&r.track, &times))) {
            assert!(crate::reduce::rotation::angle_deg(a, &b) <= bound, "t = {t}");
        }
    }
}

/// Step keys convert key for key; a jump (two keys at one time) stays a jump.
#[test]
fn step_exact_and_jumps_kept() {
    let step = euler_track(EulerOrder::YXZ, Interpolation::Step, &[(0.0, [0.1, 0.2, 0.3]), (1.0, [3.0, -1.0, 7.0])]);
    let r = euler_to_quat(&step, 0.1).unwrap();
    assert_eq!((r.track.interpolation, r.keys_after, r.max_error_deg), (Interpolation::Step, 2, 0.0));
    for (k, e) in r.track.keys.iter().zip(&step.keys) {
        assert!(quat::dot(&q4(&k.value), &euler::to_quat(&angles_of(e), EulerOrder::YXZ)).abs() > 1.0 - 1e-15);
    }
    let jump = euler_track(EulerOrder::XYZ, Interpolation::Linear, &[(0.0, [0.0; 3]), (1.0, [0.0, 0.0, 1.0]), (1.0, [0.0, 2.0, 0.0]), (2.0, [0.0, 2.5, 0.0])]);
    let r = euler_to_quat(&jump, 0.1).unwrap();
    assert!(r.track.keys.windows(2).any(|w| w[0].time == 1.0 && w[1].time == 1.0), "{:?}", r.track.keys);
    assert!(r.max_error_deg <= 0.1);
}

#[test]
fn bad_input_is_refused() {
    let spin = euler_track(EulerOrder::XYZ, Interpolation::Linear, &[(0.0, [0.0; 3]), (1.0, [0.0, 0.0, 1.0])]);
    assert!(matches!(euler_to_quat(&spin, 0.0), Err(EulerTrackError::Angle(_))));
    assert!(matches!(euler_to_quat(&spin, 180.0), Err(EulerTrackError::Angle(_))));
    let mut cycling = spin.clone();
    cycling.post_infinity = Infinity::Cycle;
    assert!(euler_to_quat(&cycling, 1.0).is_ok());
    assert!(matches!(quat_to_euler(&spin, EulerOrder::XYZ), Err(EulerTrackError::NotQuat { .. })));
}
