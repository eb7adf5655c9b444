//! One path for an edit, driven like a user drives it (egui_kittest): a drag in each panel
//! that edits — a key, a tangent, an ease and a Bézier handle in the graph, keys in the dope sheet,
//! a point in the path view, an inspector slider — is exactly one undo step, and the status
//! line says what the drag did; and without a window, a panel that missed its drag's start
//! still makes one step, and a drag whose last change is made on a worker closes its step
//! after that change.

use std::sync::Arc;

use eframe::egui::{self, Key as K, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use egui_plot::PlotPoint;

use super::commands::AppCommand;
use super::dispatch::{finished_jobs, run_command};
use super::key_change::{Change, Gesture, Phase};
use super::state::AppState;
use super::tests::{app, click_at, drag, harness, key_pos, plot_to_screen, two_tracks};
use super::TangentApp;
use crate::{Interpolation, Key, Project, Track, TrackKind};

/// The drag just made changed the project from `before` in exactly one undo step, called
/// `label`: one Ctrl+Z puts `before` back and leaves nothing to undo.
fn one_undo_step(h: &mut Harness<'static, TangentApp>, before: &Project, label: &str) {
    assert_ne!(app(h).project(), before, "the drag changed the project: {}", app(h).ui.status.text);
    assert_eq!(app(h).doc.document.undo_label(), Some(label));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(h).project(), before, "one undo takes back the whole {label} drag");
    assert_eq!(app(h).doc.document.undo_label(), None, "the {label} drag was one step, the only one");
}

/// `project` in the editor with key `key` of track 0 clicked (selected: its handles drawn),
/// and the project as it is then.
fn with_key_selected(project: Project, key: usize) -> (Harness<'static, TangentApp>, Project) {
    let mut h = harness(project);
    let p = key_pos(&h, 0, key);
    click_at(&mut h, p, Modifiers::NONE);
    let before = app(&h).project().clone();
    (h, before)
}

#[test]
fn a_key_drag_in_the_graph_is_one_undo_step() {
    let mut h = harness(two_tracks());
    let before = app(&h).project().clone();
    let (from, to) = (key_pos(&h, 0, 2), plot_to_screen(&h, 2.3, 2.6));
    drag(&mut h, from, to);
    assert!(app(&h).ui.status.text.starts_with("Key 2 of \"a\""), "{}", app(&h).ui.status.text);
    one_undo_step(&mut h, &before, "Move keys");
}

#[test]
fn a_tangent_drag_in_the_graph_is_one_undo_step_and_says_the_tension() {
    let (mut h, before) = with_key_selected(two_tracks(), 2);
    // Key 2 of "a" is at (2, 3); its outgoing tangent's tip a third of the way to key 3.
    let r = app(&h).doc.curve(0).unwrap().as_ref().unwrap().outgoing_tangent(2).unwrap()[0];
    let tip = plot_to_screen(&h, 2.0 + 1.0 / 3.0, 3.0 + r / 3.0);
    drag(&mut h, tip, tip + egui::vec2(-20.0, 15.0));
    assert!(app(&h).ui.status.text.starts_with("Tension "), "{}", app(&h).ui.status.text);
    one_undo_step(&mut h, &before, "Drag tangent");
}

#[test]
fn an_ease_drag_in_the_graph_is_one_undo_step_and_says_the_ease() {
    let (mut h, before) = with_key_selected(two_tracks(), 2);
    let p = key_pos(&h, 0, 2);
    // The ease handles of key 2 (ease 0: at the key's time), drawn 14 points below it
    // (`graph::hit::EASE_OFFSET`).
    let ease = p + egui::vec2(0.0, 14.0);
    drag(&mut h, ease, ease + egui::vec2(60.0, 0.0));
    assert!(app(&h).ui.status.text.starts_with("Ease from "), "{}", app(&h).ui.status.text);
    assert!(app(&h).project().tracks[0].keys[2].ease_from > 0.0);
    one_undo_step(&mut h, &before, "Drag ease");
}

#[test]
fn a_handle_drag_in_the_graph_is_one_undo_step_and_says_where_the_handle_is() {
    let keys = [(0.0, 0.0), (1.0, 2.0), (3.0, 1.0), (4.0, 3.0)].iter().map(|&(t, v)| Key::new(t, vec![v])).collect();
    let project = Project { tracks: vec![Track::new("b", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys)], ..Project::default() };
    let (mut h, before) = with_key_selected(project, 1);
    let (_, right) = crate::TrackCurve::new(&before.tracks[0]).unwrap().bezier_handles(1, 0).unwrap();
    let (tip, to) = (plot_to_screen(&h, 1.0 + right.0, 2.0 + right.1), plot_to_screen(&h, 1.0 + right.0, 2.6));
    drag(&mut h, tip, to);
    assert!(app(&h).ui.status.text.starts_with("Right handle of key 1"), "{}", app(&h).ui.status.text);
    one_undo_step(&mut h, &before, "Drag handle");
}

#[test]
fn a_time_drag_in_the_dope_sheet_is_one_undo_step() {
    let mut h = harness(Project { fps: 30.0, ..two_tracks() });
    h.get_by_label("Dope sheet").click();
    h.run();
    h.run();
    let before = app(&h).project().clone();
    // Row 1 is "a": its key at 1 s dragged to 1.5 s.
    let at = |h: &Harness<'_, TangentApp>, t: f64| h.state().panels.dope.transform.as_ref().unwrap().position_from_point(&PlotPoint::new(t, -1.0));
    let (from, to) = (at(&h, 1.0), at(&h, 1.51));
    drag(&mut h, from, to);
    assert!(app(&h).ui.status.text.starts_with("Moving 1 key(s)"), "{}", app(&h).ui.status.text);
    one_undo_step(&mut h, &before, "Move keys");
}

#[test]
fn a_point_drag_in_the_path_view_is_one_undo_step() {
    let mut h = harness(crate::io::demo_project());
    h.get_by_label("Path").click();
    h.run();
    let before = app(&h).project().clone();
    let to_screen = |h: &Harness<'_, TangentApp>, x: f64, y: f64| h.state().panels.path.transform.as_ref().unwrap().position_from_point(&PlotPoint::new(x, y));
    // Key 2 of "path" is at (1.5, 1.0).
    let (from, to) = (to_screen(&h, 1.5, 1.0), to_screen(&h, 2.0, 0.4));
    drag(&mut h, from, to);
    one_undo_step(&mut h, &before, "Move key in space");
}

#[test]
fn an_inspector_slider_drag_is_one_undo_step() {
    let (mut h, before) = with_key_selected(two_tracks(), 2);
    let slider = h.get_all_by_label("tension").next().expect("the tension slider").rect();
    let at = |f: f32| egui::pos2(slider.left() + slider.width() * f, slider.center().y);
    drag(&mut h, at(0.5), at(0.8));
    assert!(app(&h).project().tracks[0].keys[2].tension > 0.3, "{}", app(&h).project().tracks[0].keys[2].tension);
    one_undo_step(&mut h, &before, "Set tension");
}

/// A step of a "Set tension" gesture, setting the selected keys' tension to `t` if given.
fn set_tension(phase: Phase, t: Option<f64>) -> AppCommand {
    let change = t.map(|t| Change::Each(Arc::new(move |k: &mut Key| k.tension = t)));
    AppCommand::Gesture(Gesture { label: "Set tension".to_owned(), phase, change })
}

/// Without a window: `state` went from `before` by one "Set tension" undo step, the only one.
fn one_tension_step(state: &mut AppState, before: &Project) {
    assert!(!state.doc.document.in_gesture(), "the end closed the step");
    assert_eq!(state.doc.undo().text, "Undid Set tension");
    assert_eq!(state.project(), before, "one undo takes back every track");
    assert_eq!(state.doc.undo().text, "Nothing to undo");
}

/// Steps whose panel missed the drag's start (no `Begin`): the first change opens the step,
/// the end closes it; one step all the same.
#[test]
fn a_drag_whose_start_was_missed_is_still_one_undo_step() {
    let ctx = egui::Context::default();
    let mut state = AppState::new(two_tracks(), None);
    let before = state.project().clone();
    state.doc.selection = std::collections::BTreeSet::from([super::KeyRef { track: 0, key: 2 }]).into();
    for t in [0.2, 0.4, 0.6] {
        assert!(run_command(&ctx, &mut state, set_tension(Phase::Change, Some(t))));
    }
    run_command(&ctx, &mut state, set_tension(Phase::End, None));
    assert_eq!(state.project().tracks[0].keys[2].tension, 0.6);
    one_tension_step(&mut state, &before);
}

/// A drag's end that brings a change made on a worker (a big selection): the step closes once
/// that change is in place, so the drag over two tracks is still one undo step.
#[test]
fn a_drags_end_whose_change_is_made_on_a_worker_closes_the_step_after_it() {
    let ctx = egui::Context::default();
    let mut state = AppState::new(two_tracks(), None);
    state.ui.key_queue.background_keys = 1;
    let before = state.project().clone();
    state.doc.selection = (0..2).map(|track| super::KeyRef { track, key: 2 }).collect::<std::collections::BTreeSet<_>>().into();
    run_command(&ctx, &mut state, set_tension(Phase::Begin, None));
    run_command(&ctx, &mut state, set_tension(Phase::End, Some(0.6)));
    assert!(state.ui.key_queue.running.is_some(), "the end's change went to the worker");
    for _ in 0..2000 {
        for command in finished_jobs(&mut state) {
            run_command(&ctx, &mut state, command);
        }
        if !state.ui.key_queue.is_busy() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(!state.ui.key_queue.is_busy(), "the change landed");
    assert!(state.project().tracks.iter().all(|t| t.keys[2].tension == 0.6));
    one_tension_step(&mut state, &before);
}
