//! Track edits (`SetTrack`, `SetHeader`, `InsertTrack`) are checked on their own, not by
//! compiling the whole project again.

use super::*;
use crate::model::{Interpolation, TrackKind};

/// A track edit is checked on its own: a track whose numbers overflow (valid `f64`s, 1e308
/// in a TCB track, as a typed value can make) does not refuse a rename or a show/hide of
/// another track, but a new or changed track that overflows is refused, and so is a name
/// already taken.
#[test]
fn track_edits_are_checked_on_their_own() {
    let t = |name: &str, v: f64| {
        Track::new(name, TrackKind::Scalar, Interpolation::Tcb).with_keys(vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![v]), Key::new(2.0, vec![0.0])])
    };
    let mut d = Document::new(Project { tracks: vec![t("a", 1.0), t("huge", 1e308)], ..Project::default() });
    assert!(matches!(crate::TrackCurve::new(&d.project().tracks[1]), Err(TrackError::Overflow { .. })), "the second track overflows");
    let mut renamed = d.project().tracks[0].clone();
    renamed.name = "b".into();
    renamed.visible = false;
    d.apply("Rename", Edit::SetTrack { index: 0, track: renamed }).unwrap();
    assert_eq!(d.project().tracks[0].name, "b");
    let overflowing = Edit::SetTrack { index: 0, track: t("b", 1e308) };
    assert!(matches!(d.apply("Set", overflowing), Err(EditError::Project(ProjectError::Track(TrackError::Overflow { .. })))));
    assert!(matches!(d.apply("Add", Edit::InsertTrack { index: 2, track: t("c", 1e308) }), Err(EditError::Project(_))));
    assert!(matches!(d.apply("Add", Edit::InsertTrack { index: 2, track: t("huge", 1.0) }), Err(EditError::Project(ProjectError::DuplicateName(_)))));
    d.apply("Add", Edit::InsertTrack { index: 2, track: t("c", 2.0) }).unwrap();
    assert_eq!(d.project().tracks.len(), 3);
}

/// `SetHeader` renames, hides, locks and unlocks without touching the keys (the very same
/// allocation stays in place, and the undo step holds none), refuses a name already taken
/// and a rename or recolour of a locked track, leaving the track as it was, and undoes to
/// the header before.
#[test]
fn header_edits_leave_the_keys_alone() {
    let t = |name: &str| Track::new(name, TrackKind::Scalar, Interpolation::Tcb).with_keys(vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![1.0])]);
    let mut d = Document::new(Project { tracks: vec![t("a"), t("b")], ..Project::default() });
    let keys = d.project().tracks[0].keys.as_ptr();
    let header = |d: &Document| d.project().tracks[0].header();
    let before = header(&d);
    let hidden = TrackHeader { visible: false, locked: true, name: "c".into(), ..before.clone() };
    d.apply("Hide", Edit::SetHeader { index: 0, header: hidden.clone() }).unwrap();
    assert_eq!(header(&d), hidden);
    assert_eq!(d.project().tracks[0].keys.as_ptr(), keys, "the keys were not copied");
    assert_eq!(d.undo.last().map(Step::keys_held), Some(0));
    let renamed = TrackHeader { name: "d".into(), ..hidden.clone() };
    assert!(matches!(d.apply("Rename", Edit::SetHeader { index: 0, header: renamed }), Err(EditError::Locked(_))));
    let recoloured = TrackHeader { color: Some(crate::Rgb(1, 2, 3)), ..hidden.clone() };
    assert!(matches!(d.apply("Colour", Edit::SetHeader { index: 0, header: recoloured }), Err(EditError::Locked(_))));
    let unlocked = TrackHeader { locked: false, visible: true, ..hidden.clone() };
    d.apply("Unlock", Edit::SetHeader { index: 0, header: unlocked.clone() }).unwrap();
    let taken = TrackHeader { name: "b".into(), ..unlocked.clone() };
    assert!(matches!(d.apply("Rename", Edit::SetHeader { index: 0, header: taken }), Err(EditError::Project(ProjectError::DuplicateName(_)))));
    assert_eq!(header(&d), unlocked, "a refused rename leaves the header as it was");
    assert!(d.undo().is_some() && d.undo().is_some());
    assert_eq!(header(&d), before);
    assert_eq!(d.project().tracks[0].keys.as_ptr(), keys);
}
