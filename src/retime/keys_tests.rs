//! Scaling some keys of a track: by hand (times, handles, the difference measured, a
//! mirrored run, collisions refused with both keys named), and as a property: scaling the
//! selected keys by `S` then `1/S` about the same pivot gives the keys back, and a scale is
//! refused exactly when a selected key would land on or pass an unselected one.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;
use crate::model::{HandleType, Interpolation, TrackKind};

fn scalar(mode: Interpolation, points: &[(f64, f64)]) -> Track {
    Track::new("t", TrackKind::Scalar, mode).with_keys(points.iter().map(|&(t, v)| Key::new(t, vec![v])).collect())
}

fn times(t: &Track) -> Vec<f64> {
    t.keys.iter().map(|k| k.time).collect()
}

/// Keys at 0, 1, 2, 3, 6 with Free handles; keys 2 and 3 scaled by 2 about 2: key 2 stays at
/// 2, key 3 goes to 4, and both keep their values with their handles' dt doubled (the handle
/// points scaled about the pivot with them); keys 0, 1 and 6 are exactly as they were.
#[test]
fn selected_keys_move_with_their_handles() {
    let mut t = scalar(Interpolation::Bezier, &[(0.0, 0.0), (1.0, 1.0), (2.0, 4.0), (3.0, 2.0), (6.0, 5.0)]);
    for k in &mut t.keys {
        *k = k.clone().with_handles((HandleType::Free, HandleType::Free), vec![(-0.25, 0.5)], vec![(0.3, -0.75)]);
    }
    let r = retime_keys(&t, &[3, 2], 2.0, 2.0).unwrap();
    assert_eq!(times(&r.track), [0.0, 1.0, 2.0, 4.0, 6.0]);
    for i in [2, 3] {
        let k = &r.track.keys[i];
        assert_eq!((k.value[0], k.left[0], k.right[0]), (t.keys.value(i)[0], (-0.5, 0.5), (0.6, -0.75)), "key {i}");
        assert_eq!(k.handles, (HandleType::Free, HandleType::Free));
    }
    for i in [0, 1, 4] {
        assert_eq!(r.track.keys[i], t.keys[i], "unselected key {i}");
    }
    assert!(r.notes.is_empty());
}

/// Linear keys (0, 0), (1, 1), (2, 0), the middle one scaled by 1.5 about 0: it moves to
/// 1.5. The old and new curves are piecewise linear, their difference largest at a
/// breakpoint: 1/3 at t = 1 (old 1, new 1/1.5) and 1/2 at t = 1.5 (old 0.5, new 1), so the
/// measured difference is exactly 0.5.
#[test]
fn the_difference_is_measured_over_the_curve() {
    let t = scalar(Interpolation::Linear, &[(0.0, 0.0), (1.0, 1.0), (2.0, 0.0)]);
    let r = retime_keys(&t, &[1], 1.5, 0.0).unwrap();
    assert_eq!(times(&r.track), [0.0, 1.5, 2.0]);
    assert_eq!(r.max_difference, 0.5);
}

/// Keys 0, 1, 2, 3 with 1 and 2 selected: by 2 about 1, key 2 would land on key 3 (2 → 3); by
/// 3, pass it (2 → 4); by 2 about 2, key 1 would land on key 0 (the first selected key that
/// collides is named). The error names the track, both keys and their times.
#[test]
fn a_key_landing_on_or_passing_an_unselected_key_is_refused() {
    let t = scalar(Interpolation::Linear, &[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (3.0, 3.0)]);
    let collision = |s: f64, p: f64| match retime_keys(&t, &[1, 2], s, p) {
        Err(RetimeError::Collision { key, to, other, onto, .. }) => (key, to, other, onto),
        other => panic!("{other:?}"),
    };
    assert_eq!(collision(2.0, 1.0), (2, 3.0, 3, true));
    assert_eq!(collision(3.0, 1.0), (2, 4.0, 3, false));
    assert_eq!(collision(2.0, 2.0), (1, 0.0, 0, true));
    let text = retime_keys(&t, &[1, 2], 3.0, 1.0).unwrap_err().to_string();
    assert_eq!(
        text,
        "track \"t\": key 2 at 2.000 s would move to 4.000 s, past unselected key 3 at 3.000 s (Blender would merge them; Tangent keeps every key): select that key too, or change S or the pivot"
    );
    // Within the gap they stay in: fine.
    assert_eq!(times(&retime_keys(&t, &[1, 2], 1.5, 1.5).unwrap().track), [0.0, 0.75, 2.25, 3.0]);
}

/// Keys at 0..4 (values 0, 10, 20, 30, 40), keys 1–3 mirrored about 2 (S = −1): the run comes
/// in reverse order in place (values 30, 20, 10 at 1, 2, 3), TCB bias negated and ease swapped,
/// Bézier handles swapped with their types and their dt negated; keys 0 and 4 stay.
#[test]
fn a_mirrored_run_is_reversed_in_place() {
    let mut t = scalar(Interpolation::Tcb, &[(0.0, 0.0), (1.0, 10.0), (2.0, 20.0), (3.0, 30.0), (4.0, 40.0)]);
    for (i, k) in t.keys.iter_mut().enumerate() {
        let x = i as f64 / 8.0;
        *k = k.clone().with_tcb(x, -x, 0.2 + x).with_ease(x, 0.5 - x).with_handles((HandleType::Free, HandleType::Vector), vec![(-0.2, x)], vec![(0.4, -x)]);
    }
    let r = retime_keys(&t, &[1, 2, 3], -1.0, 2.0).unwrap();
    assert_eq!(times(&r.track), [0.0, 1.0, 2.0, 3.0, 4.0]);
    assert_eq!(r.track.keys.iter().map(|k| k.value[0]).collect::<Vec<_>>(), [0.0, 30.0, 20.0, 10.0, 40.0]);
    let (new, old) = (&r.track.keys[1], &t.keys[3]);
    assert_eq!((new.tension, new.continuity, new.bias), (old.tension, old.continuity, -old.bias));
    assert_eq!((new.ease_to, new.ease_from), (old.ease_from, old.ease_to));
    assert_eq!(new.handles, (HandleType::Vector, HandleType::Free));
    assert_eq!((new.left[0], new.right[0]), ((-0.4, -0.375), (0.2, 0.375)));
    assert_eq!((&r.track.keys[0], &r.track.keys[4]), (&t.keys[0], &t.keys[4]));
    // Selected keys around an unselected one cannot be mirrored past it.
    assert!(matches!(retime_keys(&t, &[1, 3], -1.0, 2.0), Err(RetimeError::Collision { key: 1, other: 2, onto: false, .. })));
}

/// Every key selected: the whole track retimed ([`retime_track`], exact, notes and all).
#[test]
fn every_key_selected_is_the_whole_track() {
    let t = scalar(Interpolation::Step, &[(0.0, 1.0), (1.0, 2.0), (2.5, 3.0)]);
    let (a, b) = (retime_keys(&t, &[0, 1, 2], -1.5, 0.7).unwrap(), retime_track(&t, -1.5, 0.7).unwrap());
    assert_eq!((a.track, a.max_difference, a.notes), (b.track, b.max_difference, b.notes));
}

#[test]
fn bad_input_is_refused() {
    let t = scalar(Interpolation::Linear, &[(0.0, 0.0), (1.0, 1.0)]);
    assert!(matches!(retime_keys(&t, &[0], 0.0, 0.0), Err(RetimeError::Scale(_))));
    assert!(matches!(retime_keys(&t, &[0], 2.0, f64::NAN), Err(RetimeError::Pivot(_))));
    assert_eq!(retime_keys(&t, &[2], 2.0, 0.0).unwrap_err().to_string(), "track \"t\" has no key 2 (it has 2)");
}

/// Whether scaling `selected` by `scale` about `pivot` would put a selected key on or past an
/// unselected one, checked against every unselected key (distinct times).
fn collides(t: &Track, selected: &[usize], scale: f64, pivot: f64) -> bool {
    let unselected: Vec<f64> = (0..t.keys.len()).filter(|i| !selected.contains(i)).map(|i| t.keys.time(i)).collect();
    selected.iter().any(|&s| {
        let (from, to) = (t.keys.time(s), pivot + (t.keys.time(s) - pivot) * scale);
        unselected.iter().any(|&u| (from < u && to >= u) || (from > u && to <= u))
    })
}

/// Scaling the selected keys by `S` then `1/S` about the same pivot gives the keys back
/// (times within 1e-12 relative, all else exactly, handles' dt within 1e-12), on Linear, Cubic,
/// TCB, Step and Bézier (Free handles) tracks, for positive and negative `S`; the unselected
/// keys never move; a scale is refused exactly when a selected key would land on or pass an
/// unselected one. Counts the cases of each kind, so the property is known to be checked on
/// enough of them, mirrors among them, and refusals met (about 37%, 16% and 60% of the 1,000
/// cases; the bounds are far below).
#[test]
fn there_and_back_restores_the_keys() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let (checked, mirrored, refused) = (AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0));
    let strategy = (
        proptest::collection::vec((0.01f64..1.0, -5.0f64..5.0, proptest::bool::weighted(0.5)), 3..14),
        prop_oneof![0.2f64..5.0, -5.0f64..-0.2],
        (-1.0f64..8.0, 0usize..4),
        (0usize..14, 1usize..6),
        0usize..5,
    );
    let mut runner = TestRunner::new(Config { cases: 1000, failure_persistence: None, ..Config::default() });
    let modes = [Interpolation::Linear, Interpolation::Cubic, Interpolation::Tcb, Interpolation::Step, Interpolation::Bezier];
    let result = runner.run(&strategy, |(raw, scale, (pivot, pivot_i), (start, len), mode_i)| {
        let mut time = 0.0;
        let keys: Vec<Key> = raw
            .iter()
            .enumerate()
            .map(|(i, &(gap, v, _))| {
                time += gap;
                let w = i as f64 * 0.07;
                Key::new(time, vec![v]).with_tcb(w, -w, 0.3 - w).with_ease(w, 0.2).with_handles(
                    (HandleType::Free, HandleType::Free),
                    vec![(-gap / 3.0, v)],
                    vec![(0.1 + w, -v)],
                )
            })
            .collect();
        let t = Track::new("t", TrackKind::Scalar, modes[mode_i]).with_keys(keys);
        let n = t.keys.len();
        // Half the cases a random subset, half one run of keys (the usual selection).
        let selected: Vec<usize> =
            if start % 2 == 0 { raw.iter().enumerate().filter(|r| r.1 .2).map(|r| r.0).collect() } else { (start % n..(start % n + len).min(n)).collect() };
        if selected.is_empty() || selected.len() == n {
            return Ok(());
        }
        // A random pivot, or the selection's centre (Blender's other pivot).
        let centre = (t.keys[selected[0]].time + t.keys[selected[selected.len() - 1]].time) / 2.0;
        let pivot = if pivot_i == 0 { pivot } else { centre };
        let there = match retime_keys(&t, &selected, scale, pivot) {
            Err(RetimeError::Collision { .. }) => {
                prop_assert!(collides(&t, &selected, scale, pivot), "refused without a collision");
                refused.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            other => other.unwrap(),
        };
        prop_assert!(!collides(&t, &selected, scale, pivot), "a collision was let through");
        for i in (0..t.keys.len()).filter(|i| !selected.contains(i)) {
            prop_assert_eq!(&there.track.keys[i], &t.keys[i], "unselected key {} moved", i);
        }
        let back = retime_keys(&there.track, &selected, 1.0 / scale, pivot).unwrap();
        prop_assert_eq!(back.track.keys.len(), t.keys.len());
        let near = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(pivot.abs()).max(1.0);
        for (a, b) in t.keys.iter().zip(&back.track.keys) {
            prop_assert!(near(a.time, b.time), "{} came back at {}", a.time, b.time);
            prop_assert!(a.left.iter().zip(&b.left).chain(a.right.iter().zip(&b.right)).all(|(x, y)| near(x.0, y.0) && x.1 == y.1));
            let plain = |k: &Key| Key { time: 0.0, left: Vec::new(), right: Vec::new(), ..k.clone() };
            prop_assert_eq!(plain(a), plain(b));
        }
        checked.fetch_add(1, Ordering::Relaxed);
        mirrored.fetch_add(usize::from(scale < 0.0), Ordering::Relaxed);
        Ok(())
    });
    result.unwrap();
    let (checked, mirrored, refused) = (checked.into_inner(), mirrored.into_inner(), refused.into_inner());
    assert!(checked >= 250 && mirrored >= 100 && refused >= 300, "{checked} cases checked there and back ({mirrored} mirrored), {refused} refused (of 1000)");
}

/// A run of Bézier keys with their own segments (Elastic out, Back in; Elastic in out of the
/// run) mirrored about its middle key (scale −1): inside the run the new curve is the old one
/// mirrored in time, exactly (each segment's settings moved to the key that now starts it, In
/// and Out swapped); the segment out of the run to the unselected key keeps its own settings,
/// not swapped (it still runs forward in time).
#[test]
fn a_mirrored_run_carries_its_segments() {
    use crate::model::{Easing, KeyInterpolation};
    let mut t = scalar(Interpolation::Bezier, &[(0.0, 0.0), (1.0, 1.0), (2.0, 3.0), (3.0, 2.0), (4.0, 5.0), (5.0, 4.0)]);
    for k in &mut t.keys {
        *k = k.clone().with_handles((HandleType::Free, HandleType::Free), vec![(-0.3, 0.2)], vec![(0.25, -0.4)]);
    }
    (t.keys[1].interpolation, t.keys[1].easing, t.keys[1].amplitude, t.keys[1].period) = (KeyInterpolation::Elastic, Easing::Out, 0.5, 0.3);
    (t.keys[2].interpolation, t.keys[2].easing, t.keys[2].back) = (KeyInterpolation::Back, Easing::In, 2.5);
    (t.keys[3].interpolation, t.keys[3].easing, t.keys[3].amplitude, t.keys[3].period) = (KeyInterpolation::Elastic, Easing::In, 0.8, 0.4);
    let r = retime_keys(&t, &[1, 2, 3], -1.0, 2.0).unwrap();
    assert_eq!(times(&r.track), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let keys = &r.track.keys;
    // New key 1 (old key 3) starts the old segment 2 → 3, eased in, now out; new key 2 (old
    // key 2) the old segment 1 → 2, Elastic out, now in; new key 3 (old key 1) leads out of
    // the run to key 4 with old key 3's Elastic in, as it was.
    assert_eq!((keys[1].interpolation, keys[1].easing, keys[1].back), (KeyInterpolation::Back, Easing::Out, 2.5));
    assert_eq!((keys[2].interpolation, keys[2].easing, keys[2].amplitude, keys[2].period), (KeyInterpolation::Elastic, Easing::In, 0.5, 0.3));
    assert_eq!((keys[3].interpolation, keys[3].easing, keys[3].amplitude, keys[3].period), (KeyInterpolation::Elastic, Easing::In, 0.8, 0.4));
    let (old, new) = (TrackCurve::new(&t).unwrap(), TrackCurve::new(&r.track).unwrap());
    let (mut eo, mut en) = (old.evaluator(), new.evaluator());
    let mut checked = 0;
    for i in 1..200 {
        let at = 1.0 + 2.0 * f64::from(i) / 200.0;
        let (a, b) = (en.value_at(at)[0], eo.value_at(4.0 - at)[0]);
        assert!((a - b).abs() <= 1e-9 * (1.0 + b.abs()), "t = {at}: new {a}, old mirrored {b}");
        checked += 1;
    }
    assert_eq!(checked, 199);
}
