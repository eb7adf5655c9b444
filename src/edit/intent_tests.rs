//! Tests of `intent.rs`: what each intent makes, applied and undone.

use super::*;
use crate::edit::Document;

/// Two scalar TCB tracks "a" and "b" (= a + 4), keys at t = 0..4 with values 0, 1, 3, 2, 5.
fn two_tracks() -> Project {
    let track = |name: &str, base: f64| {
        Track::new(name, TrackKind::Scalar, Interpolation::Tcb)
            .with_keys([0.0, 1.0, 3.0, 2.0, 5.0].iter().enumerate().map(|(i, v)| Key::new(i as f64, vec![base + v])).collect())
    };
    Project { tracks: vec![track("a", 0.0), track("b", 4.0)], ..Project::default() }
}

fn sel(keys: &[(usize, usize)]) -> BTreeSet<KeyRef> {
    keys.iter().map(|&(track, key)| KeyRef { track, key }).collect()
}

/// Applies `edits` as one step, checks `check`, undoes, and checks the project is restored.
fn apply_and_undo(project: &Project, edits: Vec<Edit>, check: impl FnOnce(&Project)) {
    let mut doc = Document::new(project.clone());
    doc.begin_gesture("test");
    for e in edits {
        doc.apply("test", e).unwrap();
    }
    doc.end_gesture();
    check(doc.project());
    assert_eq!(doc.undo().as_deref(), Some("test"));
    assert_eq!(doc.project(), project, "undo restores the project");
    assert!(!doc.is_dirty());
}

#[test]
fn moving_a_key_past_its_neighbour_resorts_and_keeps_it_selected() {
    let p = two_tracks();
    let origins = move_origins(&p, &sel(&[(0, 1)]));
    let edits = move_keys(&origins, 1.5, 0.25, 0, None);
    assert_eq!(edits.len(), 1);
    // Key 1 (t = 1) moved to t = 2.5 passes key 2 (t = 2) and becomes key 2.
    assert_eq!(edits[0].selected, vec![KeyRef { track: 0, key: 2 }]);
    apply_and_undo(&p, edits.into_iter().map(|e| e.edit).collect(), |q| {
        assert_eq!((q.tracks[0].keys.time(2), q.tracks[0].keys.value(2)[0]), (2.5, 1.25));
        assert_eq!(q.tracks[0].keys.time(1), 2.0);
        assert_eq!(q.tracks[1], two_tracks().tracks[1]);
    });
}

#[test]
fn moving_with_snap_lands_on_frames_and_the_grid() {
    let p = two_tracks();
    let origins = move_origins(&p, &sel(&[(0, 2), (1, 2)]));
    let edits = move_keys(&origins, 0.26, 0.37, 0, Some(Snap { fps: 10.0, value_step: 0.5 }));
    assert_eq!(edits.len(), 2);
    apply_and_undo(&p, edits.into_iter().map(|e| e.edit).collect(), |q| {
        assert_eq!((q.tracks[0].keys.time(2), q.tracks[0].keys.value(2)[0]), (2.3, 3.5));
        assert_eq!((q.tracks[1].keys.time(2), q.tracks[1].keys.value(2)[0]), (2.3, 7.5));
    });
}

#[test]
fn locked_tracks_are_not_moved() {
    let mut p = two_tracks();
    p.tracks[1].locked = true;
    let origins = move_origins(&p, &sel(&[(0, 2), (1, 2)]));
    assert_eq!(origins.iter().map(|o| o.track).collect::<Vec<_>>(), vec![0]);
}

#[test]
fn changing_selected_keys_sets_a_field_on_each() {
    let p = two_tracks();
    let edits = change_keys(&p, &sel(&[(0, 1), (0, 3), (1, 0)]), |k| k.tension = 0.5);
    assert_eq!(edits.len(), 2);
    apply_and_undo(&p, edits.into_iter().map(|e| e.edit).collect(), |q| {
        let t: Vec<f64> = q.tracks[0].keys.iter().map(|k| k.tension).collect();
        assert_eq!(t, vec![0.0, 0.5, 0.0, 0.5, 0.0]);
        assert_eq!(q.tracks[1].keys[0].tension, 0.5);
    });
    // A time change that moves keys past others re-sorts the track, and the selected
    // keys follow: keys 1 and 3 of track 0 (t = 1, 3) moved by +1.5 land at 2.5 and 4.5.
    let edits = change_keys(&p, &sel(&[(0, 1), (0, 3)]), |k| k.time += 1.5);
    let Edit::SetKeys { keys, .. } = &edits[0].edit else { panic!("a SetKeys") };
    assert_eq!(keys.iter().map(|k| k.time).collect::<Vec<_>>(), vec![0.0, 2.0, 2.5, 4.0, 4.5]);
    assert_eq!(edits[0].selected, vec![KeyRef { track: 0, key: 2 }, KeyRef { track: 0, key: 4 }]);
    let edit = change_key(&p, KeyRef { track: 1, key: 4 }, |k| k.bias = -1.0).unwrap();
    apply_and_undo(&p, vec![edit], |q| assert_eq!(q.tracks[1].keys[4].bias, -1.0));
    assert!(change_key(&p, KeyRef { track: 1, key: 9 }, |_| {}).is_none());
}

#[test]
fn inserting_a_key_selects_it_and_refuses_an_occupied_time() {
    let p = two_tracks();
    let e = insert_key(&p, 0, 1.5, vec![2.0]).unwrap();
    assert_eq!(e.selected, vec![KeyRef { track: 0, key: 2 }]);
    apply_and_undo(&p, vec![e.edit], |q| {
        assert_eq!(q.tracks[0].keys.len(), 6);
        assert_eq!((q.tracks[0].keys.time(2), q.tracks[0].keys.value(2)[0]), (1.5, 2.0));
    });
    let err = insert_key(&p, 0, 2.0, vec![0.0]).unwrap_err();
    assert!(err.is_notice());
    assert_eq!(err.to_string(), "A key already sits at 2.000 s");
}

#[test]
fn deleting_keeps_at_least_one_key_per_track() {
    let p = two_tracks();
    let all_of_b: Vec<(usize, usize)> = (0..5).map(|k| (1, k)).collect();
    let mut s = sel(&all_of_b);
    s.extend(sel(&[(0, 0), (0, 4)]));
    let (deletions, refused) = delete_keys(&p, &s);
    assert_eq!(refused, vec![IntentError::MustKeepOneKey("b".into())]);
    assert_eq!(deletions.len(), 1);
    assert_eq!((deletions[0].track, deletions[0].deleted), (0, 2));
    apply_and_undo(&p, deletions.into_iter().map(|d| d.edit).collect(), |q| {
        let times: Vec<f64> = q.tracks[0].keys.iter().map(|k| k.time).collect();
        assert_eq!(times, vec![1.0, 2.0, 3.0]);
        assert_eq!(q.tracks[1].keys.len(), 5);
    });
}

#[test]
fn copy_then_paste_replaces_keys_at_the_same_times() {
    let p = two_tracks();
    let (clip, name) = copy_keys(&p, &sel(&[(0, 1), (0, 2)])).unwrap();
    assert_eq!(name, "a");
    assert_eq!(clip.keys.iter().map(|k| (k.time, k.value[0])).collect::<Vec<_>>(), vec![(0.0, 1.0), (1.0, 3.0)]);
    // At t = 3 the pasted keys land on b's keys 3 and 4 and replace them.
    let e = paste_keys(&p, &clip, 1, 3.0).unwrap();
    assert_eq!(e.selected, vec![KeyRef { track: 1, key: 3 }, KeyRef { track: 1, key: 4 }]);
    apply_and_undo(&p, vec![e.edit], |q| {
        let b: Vec<(f64, f64)> = q.tracks[1].keys.iter().map(|k| (k.time, k.value[0])).collect();
        assert_eq!(b, vec![(0.0, 4.0), (1.0, 5.0), (2.0, 7.0), (3.0, 1.0), (4.0, 3.0)]);
    });
    assert!(copy_keys(&p, &BTreeSet::new()).is_none());
}

/// Pasting many keys over a long track: the keys kept are those whose times no pasted key
/// has (checked pair by pair here), whatever the order of the clipboard; ±0 are one time.
#[test]
fn paste_replaces_exactly_the_keys_at_pasted_times() {
    let track = Track::new("a", TrackKind::Scalar, Interpolation::Linear)
        .with_keys((0..400).map(|i| Key::new(f64::from(i) * 0.5 - 10.0, vec![f64::from(i)])).collect());
    let p = Project { tracks: vec![track], ..Project::default() };
    // Every third half-second from −10 on, backwards, and 0.25-offset times between keys.
    let mut keys: Vec<Key> = (0..300).rev().map(|i| Key::new(f64::from(i) * 1.5, vec![-1.0])).collect();
    keys.extend((0..50).map(|i| Key::new(f64::from(i) + 0.25, vec![-2.0])));
    keys.push(Key::new(-0.0, vec![-3.0]));
    let clip = Clipboard { kind: TrackKind::Scalar, keys };
    let e = paste_keys(&p, &clip, 0, -10.0).unwrap();
    let Edit::SetKeys { keys, .. } = &e.edit else { panic!("{:?}", e.edit) };
    let pasted: Vec<f64> = clip.keys.iter().map(|k| k.time - 10.0).collect();
    let kept: Vec<f64> = p.tracks[0].keys.iter().map(|k| k.time).filter(|t| !pasted.contains(t)).collect();
    assert_eq!(keys.len(), kept.len() + pasted.len());
    assert_eq!(keys.iter().filter(|k| k.value[0] >= 0.0).map(|k| k.time).collect::<Vec<_>>(), kept);
    assert!(keys.windows(2).all(|w| w[0].time <= w[1].time), "sorted");
    assert_eq!(e.selected.len(), pasted.len());
}

#[test]
fn pasting_into_a_track_of_another_size_is_refused() {
    let mut p = two_tracks();
    p.tracks.push(Track::new("v", TrackKind::Vec2, Interpolation::Tcb).with_keys(vec![Key::new(0.0, vec![0.0, 0.0])]));
    let (clip, _) = copy_keys(&p, &sel(&[(0, 1)])).unwrap();
    let err = paste_keys(&p, &clip, 2, 0.0).unwrap_err();
    assert_eq!(err.to_string(), "Paste: copied Scalar keys do not fit the Vec2 track \"v\"");
    assert!(!err.is_notice());
}

#[test]
fn changing_kind_pads_and_truncates_and_undoes() {
    let p = two_tracks();
    let e = change_kind(&p, 0, TrackKind::Quat).unwrap();
    apply_and_undo(&p, vec![e], |q| {
        let t = &q.tracks[0];
        assert_eq!(t.kind, TrackKind::Quat);
        assert_eq!(t.interpolation, Interpolation::Slerp, "TCB does not apply to rotations");
        assert_eq!(t.keys[0].value, vec![0.0, 0.0, 0.0, 1.0], "all zeros pads to the identity");
        assert_eq!(t.keys[1].value, vec![1.0, 0.0, 0.0, 1.0], "w pads from the identity");
    });
    let e = change_kind(&p, 1, TrackKind::Vec3).unwrap();
    apply_and_undo(&p, vec![e], |q| assert_eq!(q.tracks[1].keys[2].value, vec![7.0, 0.0, 0.0]));
}

#[test]
fn a_new_track_gets_a_free_name_and_two_keys() {
    let mut p = two_tracks();
    p.tracks[0].name = "vec2".into();
    let e = new_track(&p, TrackKind::Vec2);
    let Edit::InsertTrack { index, track } = &e else { panic!("{e:?}") };
    assert_eq!((*index, track.name.as_str(), track.interpolation), (2, "vec2 2", Interpolation::Tcb));
    assert_eq!(track.keys.iter().map(|k| k.value.clone()).collect::<Vec<_>>(), vec![vec![0.0, 0.0], vec![1.0, 1.0]]);
    apply_and_undo(&p, vec![e], |q| assert_eq!(q.tracks.len(), 3));
    let Edit::InsertTrack { track, .. } = new_track(&p, TrackKind::Quat) else { unreachable!() };
    assert_eq!((track.name.as_str(), track.interpolation), ("quat", Interpolation::Slerp));
    assert_eq!(track.keys[1].value, vec![0.0, 0.0, 0.0, 1.0]);
    assert!(crate::curve::validate(&new_project().tracks[0]).is_ok());
}
