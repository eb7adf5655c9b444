//! The document side of the editor state, edited and undone without a GUI.

use std::collections::BTreeSet;

use super::*;
use crate::app::compiled_track::CompiledTake;
use crate::app::key_change::KeyRef;
use crate::io::demo_project;

#[test]
fn the_document_side_edits_and_undoes_without_a_gui() {
    let mut d = DocState::new(demo_project(), None);
    let before = d.project().clone();
    d.selection = BTreeSet::from([KeyRef { track: 0, key: 1 }]).into();
    let stamp = d.curve_stamp(0);
    assert_eq!(d.delete_selected(), Some(Status::message("Deleted 1 keys")));
    assert!(d.selection.is_empty());
    assert_ne!(d.curve_stamp(0), stamp, "the edited track's curve was recompiled");
    assert_eq!(d.curve(0).unwrap().as_ref().unwrap().times().len(), before.tracks[0].keys.len() - 1);
    assert_eq!(d.undo(), Status::message("Undid Delete keys"));
    assert_eq!(d.project(), &before);
    assert_eq!(d.curve(0).unwrap().as_ref().unwrap().times().len(), before.tracks[0].keys.len());
}

#[test]
fn insert_and_paste_select_what_they_made() {
    let mut d = DocState::new(demo_project(), None);
    let t = 0.123;
    let status = d.insert_key(0, t);
    assert!(!status.is_error, "{}", status.text);
    let sel: Vec<KeyRef> = d.selection.iter().copied().collect();
    assert_eq!(sel.len(), 1);
    assert_eq!(d.project().tracks[0].keys[sel[0].key].time, t);
    assert!(d.copy().text.starts_with("Copied 1 keys"));
    d.active_track = Some(0);
    assert!(d.paste(0.5).text.starts_with("Pasted 1 keys"));
    assert_eq!(d.document.undo_label(), Some("Paste keys"));
}

/// Undo and redo of an edit of one track recompile that track only, to the same curve a
/// fresh compile gives; undoing a track's removal recompiles everything.
#[test]
fn undo_and_redo_recompile_only_the_tracks_they_change() {
    let mut d = DocState::new(demo_project(), None);
    let stamps = |d: &DocState| (0..d.project().tracks.len()).map(|i| d.curve_stamp(i).unwrap()).collect::<Vec<_>>();
    d.selection = BTreeSet::from([KeyRef { track: 1, key: 2 }]).into();
    d.delete_selected();
    for step in ["undo", "redo"] {
        let before = stamps(&d);
        if step == "undo" {
            d.undo();
        } else {
            d.redo();
        }
        let after = stamps(&d);
        let changed: Vec<usize> = (0..before.len()).filter(|&i| before[i] != after[i]).collect();
        assert_eq!(changed, vec![1], "{step}");
        let fresh = crate::TrackCurve::new(&d.project().tracks[1]).unwrap();
        let mine = d.curve(1).unwrap().as_ref().unwrap();
        assert_eq!(mine.times(), fresh.times(), "{step}");
        let (mut a, mut b) = (vec![0.0; fresh.dim()], vec![0.0; fresh.dim()]);
        for k in 0..200 {
            let t = f64::from(k) * 0.02;
            mine.sample(&mut crate::SegmentCursor::new(), t, &mut a);
            fresh.sample(&mut crate::SegmentCursor::new(), t, &mut b);
            assert_eq!(a, b, "{step} at {t}");
        }
    }
    d.apply("Remove", crate::Edit::RemoveTrack { index: 0 }).unwrap();
    let before = stamps(&d);
    d.undo();
    let after = stamps(&d);
    assert_eq!(after.len(), before.len() + 1);
    assert!(after.iter().all(|s| !before.contains(s)), "a removed track brought back: every curve recompiled");
}

/// Showing, hiding, locking or renaming a track keeps its compiled curve (the same stamp: no
/// recompile, and no other track compiled to check it); a change of its keys recompiles it.
#[test]
fn view_flags_and_names_keep_the_curve() {
    let mut d = DocState::new(demo_project(), None);
    let stamps: Vec<_> = (0..d.project().tracks.len()).map(|i| d.curve_stamp(i)).collect();
    let mut track = d.project().tracks[1].clone();
    (track.visible, track.locked, track.name) = (false, true, "renamed".into());
    d.apply("View", crate::Edit::SetTrack { index: 1, track: track.clone() }).unwrap();
    assert_eq!((0..d.project().tracks.len()).map(|i| d.curve_stamp(i)).collect::<Vec<_>>(), stamps, "no curve recompiled");
    assert!(d.curve(1).unwrap().is_ok());
    track.locked = false;
    track.keys[0].value[0] += 1.0;
    d.apply("Keys", crate::Edit::SetTrack { index: 1, track }).unwrap();
    assert_ne!(d.curve_stamp(1), stamps[1], "new keys: recompiled");
    assert_eq!(d.curve_stamp(0), stamps[0]);
    let header = crate::TrackHeader { visible: false, name: "renamed again".into(), ..d.project().tracks[0].header() };
    d.apply("View", crate::Edit::SetHeader { index: 0, header }).unwrap();
    assert_eq!(d.curve_stamp(0), stamps[0], "a header edit keeps the curve");
    assert!(!d.project().tracks[0].visible);
}

/// Delete with keys selected on several tracks is one undo step (it was one per track: one
/// undo brought back the last track's keys only); the deleted keys leave the selection.
#[test]
fn deleting_keys_of_several_tracks_is_one_undo_step() {
    let mut d = DocState::new(demo_project(), None);
    let before = d.project().clone();
    d.selection = BTreeSet::from([KeyRef { track: 0, key: 1 }, KeyRef { track: 1, key: 0 }, KeyRef { track: 1, key: 2 }]).into();
    assert_eq!(d.delete_selected(), Some(Status::message("Deleted 3 keys")));
    assert_eq!(d.project().tracks[0].keys.len(), before.tracks[0].keys.len() - 1);
    assert_eq!(d.project().tracks[1].keys.len(), before.tracks[1].keys.len() - 2);
    assert!(d.selection.is_empty());
    assert_eq!(d.undo(), Status::message("Undid Delete keys"));
    assert_eq!(d.project(), &before, "one undo brings back both tracks' keys");
    assert_eq!(d.undo(), Status::message("Nothing to undo"));
    for (i, t) in before.tracks.iter().enumerate() {
        assert_eq!(d.curve(i).unwrap().as_ref().unwrap().times().len(), t.keys.len(), "track {i} recompiled");
    }
}

/// An imported take is added with the curves its worker compiled: the document's own curves
/// keep their stamps, the new tracks get the worker's curves (the same allocations), names
/// are made unique, one undo step removes them all and redo brings them back. A take whose
/// compile failed is refused with the reason, and the document keeps the tracks before it.
#[test]
fn an_imported_take_is_added_with_its_worker_compiled_curves() {
    let mut d = DocState::new(demo_project(), None);
    let n = d.project().tracks.len();
    let stamps: Vec<_> = (0..n).map(|i| d.curve_stamp(i)).collect();
    let mut take = CompiledTake::new(demo_project());
    take.project.tracks.truncate(2);
    take.tracks.truncate(2);
    let worker_times: Vec<*const f64> = take.tracks.iter().map(|c| c.curve.as_ref().unwrap().times().as_ptr()).collect();
    let status = d.add_imported(take, "the demo");
    assert!(!status.is_error, "{}", status.text);
    assert_eq!(d.project().tracks.len(), n + 2);
    assert_eq!((0..n).map(|i| d.curve_stamp(i)).collect::<Vec<_>>(), stamps, "no curve of the document recompiled");
    for (k, ptr) in worker_times.iter().enumerate() {
        assert_eq!(d.curve(n + k).unwrap().as_ref().unwrap().times().as_ptr(), *ptr, "the worker's curve is in place");
    }
    assert_ne!(d.project().tracks[n].name, d.project().tracks[0].name, "names made unique");
    assert_eq!(d.undo(), Status::message("Undid Import"));
    assert_eq!(d.project().tracks.len(), n);
    d.redo();
    assert_eq!(d.project().tracks.len(), n + 2);
    assert!(d.curve(n + 1).unwrap().is_ok());

    let mut bad = CompiledTake::new(demo_project());
    bad.project.tracks.truncate(2);
    bad.tracks.truncate(2);
    bad.project.tracks[1].keys[0].value[0] = f64::NAN;
    bad.tracks[1].curve = crate::TrackCurve::new(&bad.project.tracks[1]);
    assert!(bad.tracks[1].curve.is_err());
    let status = d.add_imported(bad, "a bad take");
    assert!(status.is_error && status.text.starts_with("Import:"), "{}", status.text);
    assert_eq!(d.project().tracks.len(), n + 3, "the track before the bad one was added");
    assert!((0..d.project().tracks.len()).all(|i| d.curve(i).is_some_and(|c| c.is_ok())));
}

/// Save as's offer: the project's own file; a take imported from `take.bvh` as `take.ron` in
/// the import's folder; `untitled.ron` otherwise (no folder: the dialog's own).
#[test]
fn save_as_offers_the_imported_files_name_with_ron() {
    use std::path::{Path, PathBuf};
    let offer = |path: Option<&str>, from: Option<&str>| save_as_offer_for(path.map(Path::new), from.map(Path::new));
    assert_eq!(offer(None, Some("/takes/walk/take.bvh")), (Some(PathBuf::from("/takes/walk")), "take.ron".to_owned()));
    assert_eq!(offer(None, Some("take.v2.glb")), (None, "take.v2.ron".to_owned()));
    assert_eq!(offer(Some("/p/scene.ron"), Some("/takes/take.bvh")), (Some(PathBuf::from("/p")), "scene.ron".to_owned()));
    assert_eq!(offer(None, None), (None, "untitled.ron".to_owned()));
    assert_eq!(offer(None, Some("/")), (None, "untitled.ron".to_owned()), "no file name to take");
    let mut d = DocState::new(demo_project(), None);
    d.imported_from = Some(PathBuf::from("/takes/take.bvh"));
    assert_eq!(d.save_as_offer().1, "take.ron");
}
