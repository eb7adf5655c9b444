//! The jump rule on hand-made tracks (the angles worked out in each comment), and a proptest:
//! spikes injected into random smooth takes are all found at their frame, and clean random
//! takes give none.

use proptest::prelude::*;

use super::*;
use crate::model::{Interpolation, Key};

/// An Euler XYZ track at 120 fps: `f(frame)` gives the angles in degrees.
fn euler_track(name: &str, frames: usize, f: impl Fn(usize) -> [f64; 3]) -> Track {
    let keys = (0..frames).map(|i| Key::new(i as f64 / 120.0, f(i).iter().map(|d| d.to_radians()).collect())).collect();
    Track::new(name, TrackKind::Euler, Interpolation::Linear).with_keys(keys)
}

fn project(tracks: Vec<Track>) -> Project {
    Project { fps: 120.0, tracks, ..Project::default() }
}

#[test]
fn a_spike_is_one_jump_at_its_first_frame_and_is_fixed_exactly() {
    // z turns 1°/frame; frames 30 and 31 have x + 140° (a marker swap). The step into frame
    // 30: R(29)⁻¹R(30) turns 140° about x (plus 1° about z): about 140°.
    let spiked = euler_track("arm.rotation", 60, |i| [if i == 30 || i == 31 { 140.0 } else { 0.0 }, 0.0, i as f64]);
    let p = project(vec![spiked.clone()]);
    let jumps = find_jumps(&p, &[], &JumpRule::default());
    assert_eq!(jumps.len(), 1, "{jumps:?}");
    let j = &jumps[0];
    assert_eq!((j.first, j.frame, j.shape), (30, 30, JumpShape::Spike { back: 32 }));
    assert!((j.size - 140.0).abs() < 0.5, "{j}");
    assert!((j.around - 1.0).abs() < 1e-9, "{j}");
    assert_eq!(j.to_string(), "jump arm.rotation at 0.2500 s (frame 30): turns 140.0° in one frame (around it: 1.00°/frame)");
    // Fixed: slerp between frames 29 and 32 turning about z at 1°/frame gives 30° and 31°.
    let (fixed, changed) = fix_spikes(&spiked, &jumps.iter().collect::<Vec<_>>());
    assert_eq!(changed, 2);
    for (i, (a, b)) in fixed.keys.iter().zip(&spiked.keys).enumerate() {
        if i == 30 || i == 31 {
            let want = [0.0, 0.0, (i as f64).to_radians()];
            assert!(a.value.iter().zip(want).all(|(x, y)| (x - y).abs() < 1e-12), "key {i}: {:?}", a.value);
        } else {
            assert_eq!(a, b, "key {i} unchanged");
        }
    }
    assert!(find_jumps(&project(vec![fixed]), &[], &JumpRule::default()).is_empty());
}

#[test]
fn a_wrap_is_no_jump_and_a_lasting_flip_is_a_step_left_alone() {
    // 179° then -179° about z: the same rotation 2° on (a wrap), no jump.
    let wrap = euler_track("wrap.rotation", 60, |i| [0.0, 0.0, if i < 30 { 150.0 + i as f64 } else { 150.0 + i as f64 - 360.0 }]);
    assert!(find_jumps(&project(vec![wrap]), &[], &JumpRule::default()).is_empty());
    // The root flips 161° about y at frame 40 and stays flipped: a step.
    let flip = euler_track("root.rotation", 80, |i| [0.0, if i >= 40 { 161.0 } else { 0.0 }, 0.5 * i as f64]);
    let jumps = find_jumps(&project(vec![flip.clone()]), &[], &JumpRule::default());
    assert_eq!(jumps.len(), 1);
    assert_eq!((jumps[0].frame, jumps[0].shape), (40, JumpShape::Step));
    assert!((jumps[0].size - 161.0).abs() < 1.0, "{}", jumps[0]);
    assert_eq!(fix_spikes(&flip, &jumps.iter().collect::<Vec<_>>()), (flip, 0));
}

#[test]
fn quaternion_and_position_spikes() {
    // A Quat track turning 0.5°/frame about y, with one frame turned 90° about x.
    let q = |i: usize| {
        let y = euler::to_quat(&[0.0, (0.5 * i as f64).to_radians(), 0.0], EulerOrder::XYZ);
        if i == 20 {
            quat::mul(&euler::to_quat(&[std::f64::consts::FRAC_PI_2, 0.0, 0.0], EulerOrder::XYZ), &y)
        } else {
            y
        }
    };
    let keys = (0..50).map(|i| Key::new(i as f64 / 120.0, q(i).to_vec())).collect();
    let rot = Track::new("hand.rotation", TrackKind::Quat, Interpolation::Slerp).with_keys(keys);
    // A position moving 1 unit per frame on x, with frame 25 off by 30 on y (extent 49 on x:
    // the threshold is 5% of it, 2.45).
    let keys = (0..50).map(|i| Key::new(i as f64 / 120.0, vec![i as f64, if i == 25 { 30.0 } else { 0.0 }, 0.0])).collect();
    let pos = Track::new("hand.translation", TrackKind::Vec3, Interpolation::Linear).with_keys(keys);
    let jumps = find_jumps(&project(vec![rot, pos]), &[], &JumpRule::default());
    let found: Vec<(usize, i64, JumpShape)> = jumps.iter().map(|j| (j.track, j.frame, j.shape)).collect();
    assert_eq!(found.len(), 2, "{jumps:?}");
    assert!(found.contains(&(0, 20, JumpShape::Spike { back: 21 })) && found.contains(&(1, 25, JumpShape::Spike { back: 26 })), "{found:?}");
    let pos_jump = jumps.iter().find(|j| j.track == 1).unwrap();
    // √(1² + 30²) ≈ 30.017 units into frame 25.
    assert!((pos_jump.size - 901f64.sqrt()).abs() < 1e-12, "{pos_jump}");
    assert!(pos_jump.to_string().contains("moves 30.0167 file units in one frame (around it: 1.0000 file units/frame)"), "{pos_jump}");
}

/// A smooth random rotation: per axis a sum of two sines of up to 30° at up to 1 Hz (at most
/// about 3.1°/frame per axis at 120 fps, 5.4°/frame in all).
fn smooth(params: &[(f64, f64, f64); 6], i: usize) -> [f64; 3] {
    let t = i as f64 / 120.0;
    [0, 1, 2].map(|a| {
        let (p, q) = (params[2 * a], params[2 * a + 1]);
        p.0 * (std::f64::consts::TAU * p.1 * t + p.2).sin() + q.0 * (std::f64::consts::TAU * q.1 * t + q.2).sin()
    })
}

fn sine() -> impl Strategy<Value = (f64, f64, f64)> {
    (0.0..30.0f64, 0.05..1.0f64, 0.0..6.3f64)
}

#[test]
fn injected_spikes_are_all_found_and_none_invented() {
    let cases = std::cell::Cell::new(0usize);
    let spikes = std::cell::Cell::new(0usize);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig { cases: 200, ..ProptestConfig::default() });
    let strategy = (proptest::array::uniform6(sine()), proptest::collection::btree_set(40usize..560, 0..4), 1usize..=3, 90.0..170.0f64, 0usize..3);
    runner
        .run(&strategy, |(params, at, width, angle, axis)| {
            // Spikes at least 40 frames apart: the injected frames, each `width` frames turned
            // `angle` degrees about `axis` (in the Euler angles' own axis).
            let at: Vec<usize> = at.into_iter().fold(Vec::new(), |mut v, f| {
                if v.last().is_none_or(|&l| f >= l + 40) {
                    v.push(f);
                }
                v
            });
            let spiked = |i: usize| at.iter().any(|&f| i >= f && i < f + width);
            let track = euler_track("j.rotation", 600, |i| {
                let mut a = smooth(&params, i);
                if spiked(i) {
                    a[axis] += angle;
                }
                a
            });
            let clean = euler_track("j.rotation", 600, |i| smooth(&params, i));
            prop_assert!(find_jumps(&project(vec![clean]), &[], &JumpRule::default()).is_empty(), "a clean take has no jump");
            let jumps = find_jumps(&project(vec![track]), &[], &JumpRule::default());
            let mut found: Vec<i64> = jumps.iter().map(|j| j.frame).collect();
            found.sort_unstable();
            let want: Vec<i64> = at.iter().map(|&f| f as i64).collect();
            prop_assert_eq!(&found, &want, "{:?}", jumps);
            let spikes_only = jumps.iter().all(|j| j.shape != JumpShape::Step);
            prop_assert!(spikes_only, "every injected jump comes back: {:?}", jumps);
            cases.set(cases.get() + 1);
            spikes.set(spikes.get() + want.len());
            Ok(())
        })
        .unwrap();
    assert_eq!(cases.get(), 200, "every case ran");
    assert!(spikes.get() > 100, "spikes were injected ({})", spikes.get());
}
