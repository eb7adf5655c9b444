//! Large selections in the editor: a select-all on a big document draws a frame whose shapes
//! do not grow with the keys, the inspector's "(mixed)" answers follow edits, and Ctrl+A
//! typed in a text field stays in the field.

use eframe::egui::{Key as K, Modifiers};
use egui_kittest::kittest::Queryable;

use super::tests::harness;
use crate::edit::intent::KeyRef;
use crate::{Edit, Interpolation, Key, Project, Track, TrackKind};

fn project(tracks: usize, keys: usize) -> Project {
    let tracks = (0..tracks)
        .map(|t| {
            let keys = (0..keys).map(|i| Key::new(i as f64 / 30.0, vec![(i as f64 * 0.05 + t as f64).sin(), 1.0, 0.5])).collect();
            Track::new(format!("bone{t}.translation"), TrackKind::Vec3, Interpolation::Tcb).with_keys(keys)
        })
        .collect();
    Project { tracks, ..Project::default() }
}

/// Shapes painted in the last frame.
fn shapes(h: &egui_kittest::Harness<'_, super::TangentApp>) -> usize {
    h.output().shapes.len()
}

/// With every key of 40 Vec3 tracks selected, the frame paints about as many shapes at 6,000
/// keys per track as at 300 (dense keys are marked as runs, not one shape per key): before,
/// it painted a marker per selected key, 720,000 at the larger size. The legend is left out.
#[test]
fn select_all_paints_shapes_bounded_by_the_view_not_the_keys() {
    let mut counts = Vec::new();
    for keys in [300, 6000] {
        let mut h = harness(project(40, keys));
        h.key_press_modifiers(Modifiers::COMMAND, K::A);
        h.run();
        assert_eq!(h.state().state.doc.selection.len(), 40 * keys);
        h.get_by_label(&format!("{} keys selected", 40 * keys));
        assert!(h.query_by_label("bone0.translation.x").is_none(), "120 curves drawn: no legend over the plot");
        counts.push(shapes(&h));
    }
    assert!(counts[1] < 20_000 && counts[1] <= counts[0] * 2, "shapes at 300 and 6,000 keys per track: {counts:?}");
}

/// "(mixed)" is asked again after an edit changes the selected keys, and after the selection
/// changes, though the answer is kept between frames.
#[test]
fn the_inspector_says_mixed_after_an_edit_and_a_new_selection() {
    let mut h = harness(project(2, 4));
    *h.state_mut().state.doc.selection = [0, 1].map(|key| KeyRef { track: 0, key }).into();
    h.run();
    assert!(h.query_by_label("(mixed)").is_none(), "equal tensions");
    let mut keys = h.state().state.doc.project().tracks[0].keys.clone();
    keys[1].tension = 0.5;
    h.state_mut().state.doc.document.apply("tension", Edit::SetKeys { track: 0, keys }).unwrap();
    h.run();
    assert!(h.query_by_label("(mixed)").is_some(), "the edit is seen");
    *h.state_mut().state.doc.selection = [0, 2].map(|key| KeyRef { track: 0, key }).into();
    h.run();
    assert!(h.query_by_label("(mixed)").is_none(), "the new selection is asked again");
}

/// A field typed for keys on several tracks (here: the tension slider stepped with the
/// keyboard, no drag) is one change: one undo step puts every track back. Before, each track
/// was its own step, and one undo reverted only the last track. The selection stays as it was.
#[test]
fn a_field_set_on_keys_of_several_tracks_is_one_undo_step() {
    let mut h = harness(project(3, 5));
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    let generation = h.state().state.doc.selection.generation();
    h.get_all_by_label("tension").next().expect("the tension slider").focus();
    h.run();
    h.key_press(K::ArrowRight);
    h.run();
    let tensions = |h: &egui_kittest::Harness<'_, super::TangentApp>| -> Vec<f64> {
        h.state().state.project().tracks.iter().flat_map(|t| t.keys.iter().map(|k| k.tension)).collect()
    };
    let after = tensions(&h);
    assert!(after.iter().all(|&t| t > 0.0 && t == after[0]), "every key of the 3 tracks set: {after:?}");
    assert_eq!(h.state().state.doc.selection.len(), 15);
    assert_eq!(h.state().state.doc.selection.generation(), generation, "keys that did not move: the selection untouched");
    assert_eq!(h.state().state.doc.document.undo_label(), Some("Set tension"));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert!(tensions(&h).iter().all(|&t| t == 0.0), "one undo reverts every track: {:?}", tensions(&h));
    assert_eq!(h.state().state.doc.document.undo_label(), None, "and it was the only step");
}

/// Ctrl+A typed in a text field selects the field's text, not every key (issue 44); with no
/// field focused it selects every key.
#[test]
fn ctrl_a_in_a_text_field_stays_in_the_field() {
    let mut h = harness(project(2, 5));
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    assert_eq!(h.state().state.doc.selection.len(), 10, "Ctrl+A without a field selects every key");
    h.state_mut().state.doc.selection = std::collections::BTreeSet::new().into();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label_contains("Open path").click();
    h.run();
    h.get_by_label("Project file").click();
    h.run();
    h.get_by_label("Project file").type_text("some/path.ron");
    h.run();
    assert!(h.ctx.egui_wants_keyboard_input(), "the field has the keyboard");
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    assert!(h.state().state.doc.selection.is_empty(), "Ctrl+A in the field selected keys");
}
