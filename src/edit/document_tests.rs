//! The undo history of [`Document`]: steps, gestures, limits, locks and saving.

use super::*;
use crate::model::{Interpolation, TrackKind};

fn doc() -> Document {
    let t = Track::new("a", TrackKind::Scalar, Interpolation::Tcb).with_keys(vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![1.0])]);
    Document::new(Project { tracks: vec![t], ..Project::default() })
}

#[test]
fn a_gesture_is_one_undo_step() {
    let mut d = doc();
    let before = d.project().clone();
    d.begin_gesture("Move key");
    for i in 1..=30 {
        let mut keys = d.project().tracks[0].keys.clone();
        keys[1].value[0] = 1.0 + f64::from(i);
        d.apply("Move key", Edit::SetKeys { track: 0, keys: keys.into() }).unwrap();
    }
    d.end_gesture();
    assert!(d.is_dirty());
    assert_eq!(d.undo_label(), Some("Move key"));
    d.undo();
    assert_eq!(d.project(), &before);
    assert!(!d.is_dirty());
    assert!(d.undo().is_none());
    d.redo();
    assert_eq!(d.project().tracks[0].keys.value(1)[0], 31.0);
}

#[test]
fn invalid_edits_are_refused_and_change_nothing() {
    let mut d = doc();
    let before = d.project().clone();
    let keys = vec![Key::new(1.0, vec![0.0]), Key::new(0.0, vec![1.0])];
    let err = d.apply("Move", Edit::SetKeys { track: 0, keys: keys.into() }).unwrap_err();
    assert!(err.to_string().contains("time order"));
    let nan = vec![Key::new(0.0, vec![f64::NAN])];
    assert!(d.apply("Set", Edit::SetKeys { track: 0, keys: nan.into() }).is_err());
    let mut quat = before.tracks[0].clone();
    quat.kind = TrackKind::Quat;
    assert!(d.apply("Kind", Edit::SetTrack { index: 0, track: quat }).is_err());
    let dup = before.tracks[0].clone();
    assert!(d.apply("Add", Edit::InsertTrack { index: 1, track: dup }).unwrap_err().to_string().contains("unique"));
    assert_eq!(d.project(), &before);
    assert!(d.undo_label().is_none() && !d.is_dirty());
}

#[test]
fn locked_tracks_refuse_edits_but_can_be_unlocked() {
    let mut d = doc();
    let mut locked = d.project().tracks[0].clone();
    locked.locked = true;
    d.apply("Lock", Edit::SetTrack { index: 0, track: locked.clone() }).unwrap();
    let keys = vec![Key::new(0.0, vec![5.0])];
    assert!(matches!(d.apply("Set", Edit::SetKeys { track: 0, keys: keys.into() }), Err(EditError::Locked(_))));
    assert!(matches!(d.apply("Remove", Edit::RemoveTrack { index: 0 }), Err(EditError::Locked(_))));
    let mut renamed = locked.clone();
    renamed.name = "b".into();
    assert!(d.apply("Rename", Edit::SetTrack { index: 0, track: renamed }).is_err());
    let mut unlocked = locked;
    unlocked.locked = false;
    d.apply("Unlock", Edit::SetTrack { index: 0, track: unlocked }).unwrap();
    assert!(!d.project().tracks[0].locked);
}

/// A shared project (what a save writes) stays as it was when the document changes after,
/// by an edit or an undo; unshared, an edit copies nothing.
#[test]
fn a_shared_project_stays_as_it_was() {
    let mut d = doc();
    let before = d.project().clone();
    let saving = d.shared_project();
    d.apply("Set", Edit::SetKeys { track: 0, keys: vec![Key::new(0.0, vec![9.0])].into() }).unwrap();
    assert_eq!(*saving, before, "the save writes the project as it was");
    assert_eq!(d.project().tracks[0].keys, vec![Key::new(0.0, vec![9.0])]);
    let saving = d.shared_project();
    d.undo();
    assert_eq!(saving.tracks[0].keys, vec![Key::new(0.0, vec![9.0])], "an undo copies too");
    assert_eq!(*d.project(), before);
    drop(saving);
    let at = std::ptr::from_ref(d.project());
    d.apply("Set", Edit::SetKeys { track: 0, keys: vec![Key::new(0.0, vec![1.0])].into() }).unwrap();
    assert_eq!(std::ptr::from_ref(d.project()), at, "not shared: edited in place");
}

#[test]
fn redo_keeps_to_the_undo_limit() {
    let mut d = doc();
    for i in 0..=UNDO_LIMIT {
        d.apply("Set", Edit::SetKeys { track: 0, keys: vec![Key::new(0.0, vec![i as f64])].into() }).unwrap();
    }
    assert_eq!(d.undo.len(), UNDO_LIMIT);
    d.undo();
    d.redo();
    assert_eq!(d.undo.len(), UNDO_LIMIT);
    // Redo goes through the same door as every new step.
    d.undo();
    d.apply("Other", Edit::SetKeys { track: 0, keys: vec![Key::new(0.0, vec![-1.0])].into() }).unwrap();
    d.undo();
    d.redo();
    assert!(d.undo.len() <= UNDO_LIMIT);
}

/// Hand-checked with a limit of 10 keys: steps holding 4, 4 and 4 keys keep the newest two
/// (8 keys); one step of 12 keys alone is kept, being the newest.
#[test]
fn the_undo_history_holds_at_most_its_key_limit() {
    let mut d = doc();
    d.undo_key_limit = 10;
    let keys = |n: usize, v: f64| (0..n).map(|i| Key::new(i as f64, vec![v])).collect::<Vec<_>>();
    // The first step's inverse holds the 2 keys of doc(); the others 4 each.
    for v in 1..=4 {
        d.apply("Set", Edit::SetKeys { track: 0, keys: keys(4, f64::from(v)).into() }).unwrap();
    }
    assert_eq!(d.undo.iter().map(Step::keys_held).collect::<Vec<_>>(), vec![4, 4], "2 + 4 + 4 + 4 > 10: the two oldest dropped");
    assert_eq!(d.undo().as_deref(), Some("Set"));
    assert_eq!(d.project().tracks[0].keys[0].value, vec![3.0]);
    d.redo();
    d.apply("Big", Edit::SetKeys { track: 0, keys: keys(12, 5.0).into() }).unwrap();
    d.apply("Bigger", Edit::SetKeys { track: 0, keys: keys(1, 6.0).into() }).unwrap();
    assert_eq!(d.undo.iter().map(|s| s.label.as_str()).collect::<Vec<_>>(), vec!["Bigger"], "12 keys: only the newest step is kept");
    assert!(d.undo().is_some() && d.undo().is_none());
    assert_eq!(d.project().tracks[0].keys.len(), 12);
}

#[test]
fn saving_marks_clean_and_new_edits_dirty() {
    let mut d = doc();
    let keys = vec![Key::new(0.0, vec![3.0])];
    d.apply("Set", Edit::SetKeys { track: 0, keys: keys.into() }).unwrap();
    d.mark_saved();
    assert!(!d.is_dirty());
    d.undo();
    assert!(d.is_dirty(), "undoing past the save makes the document differ from the file");
    d.redo();
    assert!(!d.is_dirty());
}

/// An abandoned gesture restores the state before it and leaves nothing to undo or redo; the
/// steps before it stay, and an empty gesture abandoned changes nothing.
#[test]
fn an_abandoned_gesture_leaves_nothing_to_undo_or_redo() {
    let mut d = doc();
    let mut keys = d.project().tracks[0].keys.clone();
    keys[0].value[0] = -1.0;
    d.apply("Set", Edit::SetKeys { track: 0, keys: keys.into() }).unwrap();
    let (before, revision) = (d.project().clone(), d.revision());
    d.begin_gesture("Slide");
    for i in 1..=5 {
        let mut keys = d.project().tracks[0].keys.clone();
        keys[1].value[0] = f64::from(i);
        d.apply("Slide", Edit::SetKeys { track: 0, keys: keys.into() }).unwrap();
    }
    assert_eq!(d.gesture_tracks(), Some(vec![0]));
    assert!(d.abandon_gesture());
    assert!(!d.in_gesture());
    assert_eq!(d.project(), &before, "the keys as they were before the gesture");
    assert!(d.revision() > revision, "a change views see");
    assert_eq!((d.undo_label(), d.redo_label()), (Some("Set"), None), "only the step before it");
    assert!(d.redo().is_none(), "nothing to redo");
    assert_eq!(d.undo().as_deref(), Some("Set"));
    assert!(!d.is_dirty());
    d.redo();
    d.begin_gesture("Nothing");
    let revision = d.revision();
    assert!(!d.abandon_gesture(), "an empty gesture");
    assert_eq!(d.revision(), revision);
    assert!(!d.abandon_gesture(), "no gesture open");
    assert_eq!(d.undo_label(), Some("Set"));
}
