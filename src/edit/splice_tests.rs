//! Tests of [`Edit::SpliceKeys`] and of key drags built from splices: against hand-checked
//! key lists, and against the plain rule a drag must follow (move the selected keys, then a
//! stable sort of the whole track by time), with random tracks, selections and drags.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::intent::{move_keys, move_origins, move_track_whole, KeyRef};
use super::{Document, Edit, EditError};
use crate::curve::validate;
use crate::{Interpolation, Key, Project, Track, TrackKind};

fn project(times: &[f64]) -> Project {
    let keys = times.iter().enumerate().map(|(i, &t)| Key::new(t, vec![i as f64])).collect();
    Project { tracks: vec![Track::new("a", TrackKind::Scalar, Interpolation::Linear).with_keys(keys)], ..Project::default() }
}

fn times(p: &Project) -> Vec<f64> {
    p.tracks[0].keys.iter().map(|k| k.time).collect()
}

#[test]
fn a_splice_replaces_a_range_and_its_inverse_puts_it_back() {
    let mut p = project(&[0.0, 1.0, 2.0, 3.0]);
    let before = p.clone();
    let inverse = Edit::SpliceKeys { track: 0, at: 1, remove: 2, keys: vec![Key::new(1.5, vec![9.0])] }.apply(&mut p).unwrap();
    assert_eq!(times(&p), vec![0.0, 1.5, 3.0]);
    assert_eq!(p.tracks[0].keys[1].value, vec![9.0]);
    assert_eq!(inverse, Edit::SpliceKeys { track: 0, at: 1, remove: 1, keys: before.tracks[0].keys[1..3].to_vec() });
    inverse.apply(&mut p).unwrap();
    assert_eq!(p, before);
}

#[test]
fn a_bad_splice_is_refused_and_changes_nothing() {
    let mut p = project(&[0.0, 1.0, 2.0, 3.0]);
    let before = p.clone();
    let out_of_range = Edit::SpliceKeys { track: 0, at: 3, remove: 2, keys: vec![] }.apply(&mut p);
    assert_eq!(out_of_range, Err(EditError::NoKeys { track: 0, at: 3, end: 5 }));
    // Key 1 moved after key 2: out of order.
    let unsorted = Edit::SpliceKeys { track: 0, at: 1, remove: 1, keys: vec![Key::new(2.5, vec![1.0])] }.apply(&mut p);
    assert!(matches!(unsorted, Err(EditError::Track(_))), "{unsorted:?}");
    assert!(Edit::SpliceKeys { track: 0, at: 0, remove: 1, keys: vec![Key::new(f64::NAN, vec![0.0])] }.apply(&mut p).is_err());
    assert_eq!(p, before);
}

/// Splices of different ranges in one gesture (a drag that moves a key past several others
/// and back) undo as one step, to exactly the keys before the drag.
#[test]
fn splices_in_a_gesture_undo_as_one_step() {
    let before = project(&[0.0, 1.0, 2.0, 3.0, 4.0]);
    let mut d = Document::new(before.clone());
    d.begin_gesture("Move keys");
    d.apply(
        "Move keys",
        Edit::SpliceKeys {
            track: 0,
            at: 1,
            remove: 3,
            keys: vec![before.tracks[0].keys[2].clone(), before.tracks[0].keys[3].clone(), Key::new(3.5, vec![1.0])],
        },
    )
    .unwrap();
    d.apply("Move keys", Edit::SpliceKeys { track: 0, at: 0, remove: 2, keys: vec![Key::new(0.5, vec![7.0]), before.tracks[0].keys[2].clone()] }).unwrap();
    d.end_gesture();
    assert_eq!(times(d.project()), vec![0.5, 2.0, 3.0, 3.5, 4.0]);
    assert_eq!(d.undo().as_deref(), Some("Move keys"));
    assert_eq!(d.project(), &before);
    assert_eq!(d.undo(), None, "one step");
}

/// The plain rule: the selected keys moved by `dt` (and `dv` on the value), then the whole
/// track stably sorted by time; and where the selected keys end up.
fn reference(keys: &[Key], selected: &BTreeSet<usize>, dt: f64, dv: f64) -> (Vec<Key>, Vec<usize>) {
    let mut tagged: Vec<(usize, Key)> = keys.iter().cloned().enumerate().collect();
    for (i, k) in &mut tagged {
        if selected.contains(i) {
            k.time += dt;
            k.value[0] += dv;
        }
    }
    tagged.sort_by(|a, b| a.1.time.total_cmp(&b.1.time));
    let now_selected = tagged.iter().enumerate().filter(|(_, (i, _))| selected.contains(i)).map(|(at, _)| at).collect();
    (tagged.into_iter().map(|(_, k)| k).collect(), now_selected)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A drag of random selected keys through several frames: after every frame the track is
    /// the plain rule's result (or, where that is not a valid track, the frame is refused and
    /// nothing changes), the selection follows its keys, and undo restores the track.
    #[test]
    fn a_drag_of_splices_matches_moving_and_sorting_the_whole_track(
        steps in prop::collection::vec(1u8..4, 2..40),
        picks in prop::collection::vec(any::<bool>(), 40),
        drags in prop::collection::vec((-3.0f64..3.0, -1.0f64..1.0), 1..6),
    ) {
        let mut t = 0.0;
        let keys: Vec<f64> = steps.iter().map(|&s| { t += f64::from(s) * 0.25; t }).collect();
        let before = project(&keys);
        let selected: BTreeSet<usize> = (0..keys.len()).filter(|&i| picks[i]).collect();
        prop_assume!(!selected.is_empty());
        let selection = selected.iter().map(|&key| KeyRef { track: 0, key }).collect();
        let origins = move_origins(&before, &selection);
        let mut d = Document::new(before.clone());
        d.begin_gesture("Move keys");
        for (dt, dv) in drags {
            // Quarter-second steps make keys land on each other's times (ties) often.
            let dt = (dt * 4.0).round() / 4.0;
            let (want, want_selected) = reference(&before.tracks[0].keys, &selected, dt, dv);
            let edits = move_keys(&origins, dt, dv, 0, None);
            prop_assert_eq!(edits.len(), 1);
            // The worker's form for big selections: the whole track, the same keys.
            let whole = move_track_whole(&origins[0], dt, dv, 0, None).expect("keys are selected");
            let Edit::SetKeys { keys: whole_keys, .. } = &whole.edit else { panic!("not SetKeys: {:?}", whole.edit) };
            prop_assert_eq!(whole_keys, &want);
            prop_assert_eq!(whole.selected.iter().map(|k| k.key).collect::<Vec<_>>(), want_selected.clone());
            let was = d.project().clone();
            let valid = validate(&before.tracks[0].clone().with_keys(want.clone())).is_ok();
            let result = d.apply("Move keys", edits[0].edit.clone());
            prop_assert_eq!(result.is_ok(), valid, "refused exactly when the plain rule gives an invalid track");
            if valid {
                prop_assert_eq!(&d.project().tracks[0].keys, &want);
                let got: Vec<usize> = edits[0].selected.iter().map(|k| k.key).collect();
                prop_assert_eq!(got, want_selected);
            } else {
                prop_assert_eq!(d.project(), &was);
            }
        }
        d.end_gesture();
        d.undo();
        prop_assert_eq!(d.project(), &before);
    }
}
