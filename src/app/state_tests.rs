//! The document side of the editor state, edited and undone without a GUI.

use std::collections::BTreeSet;

use super::state::*;
use crate::io::demo_project;

#[test]
fn the_document_side_edits_and_undoes_without_a_gui() {
    let mut d = DocState::new(demo_project(), None);
    let before = d.project().clone();
    d.selection = BTreeSet::from([KeyRef { track: 0, key: 1 }]);
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
