//! The dope sheet driven like a user: the tab, box select, a time drag as one undo step that
//! moves the same keys the graph shows selected, clicks on a summary mark, Shift-click, and a
//! body's tree as rows.

use std::collections::BTreeSet;

use eframe::egui::{Key as K, Modifiers, Pos2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use egui_plot::PlotPoint;

use super::tests::{app, click_at, drag, harness};
use super::{KeyRef, TangentApp};
use crate::{Interpolation, Key, Project, Track, TrackKind};

/// `tests::two_tracks` ("a": keys 0, 1, 3, 2, 5 at t = 0..4 s; "b" = a + 4) at 30 fps.
fn two_tracks() -> Project {
    Project { fps: 30.0, ..super::tests::two_tracks() }
}

/// Where time `t` of row `row` is in the dope sheet (row 0 the summary, then "a", "b").
fn at(h: &Harness<'_, TangentApp>, t: f64, row: f64) -> Pos2 {
    h.state().panels.dope.transform.as_ref().expect("the dope sheet was drawn").position_from_point(&PlotPoint::new(t, -row))
}

fn open_dope_sheet(h: &mut Harness<'static, TangentApp>) {
    h.get_by_label("Dope sheet").click();
    h.run();
    h.run();
}

#[test]
fn box_select_then_a_time_drag_is_one_undo_step_and_the_graph_shows_the_same_keys() {
    let mut h = harness(two_tracks());
    open_dope_sheet(&mut h);
    let before = app(&h).project().clone();
    // Rows 1 ("a") and 2 ("b") between 0.6 s and 2.4 s: keys 1 and 2 of each.
    let (from, to) = (at(&h, 0.6, 0.6), at(&h, 2.4, 2.4));
    drag(&mut h, from, to);
    let expected: BTreeSet<KeyRef> = [(0, 1), (0, 2), (1, 1), (1, 2)].into_iter().map(|(track, key)| KeyRef { track, key }).collect();
    assert_eq!(*app(&h).doc.selection, expected, "{}", app(&h).ui.status.text);
    // Drag a's key at 1 s to 1.5 s (frame 45 at 30 fps): all four move by 0.5 s.
    let (from, to) = (at(&h, 1.0, 1.0), at(&h, 1.51, 1.0));
    drag(&mut h, from, to);
    let p = app(&h).project();
    for (ti, base) in [(0, 0.0), (1, 4.0)] {
        let times: Vec<f64> = p.tracks[ti].keys.iter().map(|k| k.time).collect();
        assert_eq!(times, vec![0.0, 1.5, 2.5, 3.0, 4.0], "track {ti}: moved and snapped to frames");
        let values: Vec<f64> = p.tracks[ti].keys.iter().map(|k| k.value[0] - base).collect();
        assert_eq!(values, vec![0.0, 1.0, 3.0, 2.0, 5.0], "values untouched");
    }
    assert_eq!(*app(&h).doc.selection, expected, "the moved keys stay selected");
    // The graph shows the same keys selected, where the dope sheet moved them.
    h.get_by_label("Graph").click();
    h.run();
    let sel: Vec<f64> = app(&h).doc.selection.iter().map(|k| app(&h).project().tracks[k.track].keys.time(k.key)).collect();
    assert_eq!(sel, vec![1.5, 2.5, 1.5, 2.5]);
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &before, "the whole drag was one undo step");
}

#[test]
fn a_summary_mark_selects_every_key_at_its_time_and_shift_click_removes_one() {
    let mut h = harness(two_tracks());
    open_dope_sheet(&mut h);
    let p = at(&h, 3.0, 0.0);
    click_at(&mut h, p, Modifiers::NONE);
    let at3: BTreeSet<KeyRef> = [KeyRef { track: 0, key: 3 }, KeyRef { track: 1, key: 3 }].into();
    assert_eq!(*app(&h).doc.selection, at3);
    h.run();
    let marks = |h: &Harness<'_, TangentApp>, track| h.state().panels.dope.selected_marks(&super::dope_rows::RowId::Track(track));
    assert_eq!((marks(&h, 0), marks(&h, 1)), (1, 1), "each track's row draws its key at 3 s selected");
    let p = at(&h, 3.0, 2.0);
    click_at(&mut h, p, Modifiers::SHIFT);
    assert_eq!(*app(&h).doc.selection, BTreeSet::from([KeyRef { track: 0, key: 3 }]), "Shift-click on b's selected key removes it: {}", app(&h).ui.status.text);
    h.run();
    assert_eq!((marks(&h, 0), marks(&h, 1)), (1, 0), "b's row no longer draws it selected (its kept marks made again)");
    // Empty space: nothing selected, the playhead there.
    let p = at(&h, 2.5, 1.0);
    click_at(&mut h, p, Modifiers::NONE);
    assert!(app(&h).doc.selection.is_empty());
    assert!((app(&h).ui.playhead - 2.5).abs() < 0.05);
}

#[test]
fn a_skeletons_tracks_are_rows_under_their_joints() {
    use crate::model::{Joint, Skeleton};
    let track = |name: &str| Track::new(name, TrackKind::Scalar, Interpolation::Linear).with_keys(vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![1.0])]);
    let project = Project {
        tracks: vec![track("Hips.x"), track("Leg.x")],
        skeleton: Some(Skeleton { joints: vec![Joint::new("Hips", None, [0.0; 3], None), Joint::new("Leg", Some(0), [0.0; 3], None)] }),
        ..Project::default()
    };
    let mut h = harness(project);
    open_dope_sheet(&mut h);
    let rows: Vec<String> = h.state().panels.dope.row_labels(&app(&h).project().tracks);
    assert_eq!(rows, vec!["Summary (2 tracks)", "- Hips (2)", "  x", "  - Leg (1)", "    x"]);
    // Collapse all: the summary and the root's summary row.
    h.get_by_label("Collapse all").click();
    h.run();
    h.run();
    assert_eq!(h.state().panels.dope.row_labels(&app(&h).project().tracks), vec!["Summary (2 tracks)", "+ Hips (2)"]);
}
