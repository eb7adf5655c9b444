//! The dispatcher without a window: gestures and edits of their own, repeated edits, Convert
//! as one step, and a job that ends without a result.

use super::tool::{id, made_now, window};
use super::tools::convert_bezier::ConvertToBezier;
use std::collections::BTreeSet;

use eframe::egui;

use super::commands::{AppCommand, Command, EditCommand};
use super::dispatch::{finished_jobs, run_command, run_or_defer};
use super::jobs::Job;
use super::key_change::{Change, Gesture, KeyMove, Phase};
use super::key_queue::KeyJob;
use super::state::AppState;
use crate::app::key_change::KeyRef;
use crate::edit::intent;
use crate::io::demo_project;
use std::sync::Arc;

/// The queue alone (no window): a drag's edits, Delete in the middle, more drag edits.
#[test]
fn an_edit_of_its_own_ends_the_gesture_and_drops_the_rest_of_it() {
    let ctx = egui::Context::default();
    let mut state = AppState::new(demo_project(), None);
    let before = state.project().clone();
    let selection = BTreeSet::from([KeyRef { track: 0, key: 1 }]);
    let origins = Arc::new(intent::move_origins(state.project(), &selection));
    let run = |state: &mut AppState, c: AppCommand| run_command(&ctx, state, c);
    let step = |phase, dt: f64, dv: f64| {
        let m = KeyMove { origins: origins.clone(), dt, dv, comp: 0, snap: None, message: String::new() };
        AppCommand::Gesture(Gesture { label: "Move keys".into(), phase, change: Some(Change::Move(Arc::new(m))) })
    };
    run(&mut state, AppCommand::Select(selection));
    run(&mut state, step(Phase::Begin, 0.01, 0.1));
    for i in 2..=3 {
        run(&mut state, step(Phase::Change, 0.01 * f64::from(i), 0.1));
    }
    let moved = state.project().clone();
    run(&mut state, AppCommand::Ui(Command::DeleteKeys));
    let deleted = state.project().clone();
    assert_eq!(deleted.tracks[0].keys.len(), before.tracks[0].keys.len() - 1);
    assert!(!run(&mut state, step(Phase::Change, 0.05, 0.2)), "dropped");
    run(&mut state, AppCommand::Gesture(Gesture { label: "Move keys".into(), phase: Phase::End, change: None }));
    assert_eq!(state.project(), &deleted);
    assert_eq!(state.doc.undo().text, "Undid Delete keys");
    assert_eq!(state.project(), &moved);
    assert_eq!(state.doc.undo().text, "Undid Move keys");
    assert_eq!(state.project(), &before);
    assert_eq!(state.doc.undo().text, "Nothing to undo");
}

#[test]
fn a_repeated_identical_edit_changes_nothing_and_asks_for_no_frame() {
    let ctx = egui::Context::default();
    let mut state = AppState::new(demo_project(), None);
    let edit = intent::change_key(state.project(), KeyRef { track: 0, key: 0 }, |k| k.tension = 0.5).unwrap();
    assert!(run_command(&ctx, &mut state, EditCommand::new("Set tension", edit.clone()).into()));
    let revision = state.doc.document.revision();
    assert!(!run_command(&ctx, &mut state, EditCommand::new("Set tension", edit).into()));
    assert_eq!(state.doc.document.revision(), revision);
    assert_eq!(state.doc.document.undo_label(), Some("Set tension"));
}

/// Key > Convert to Bézier on keys of two tracks: both become Bezier tracks with the same
/// values (eased "path" gets extra keys), in one undo step that restores both.
#[test]
fn convert_to_bezier_is_one_undo_step_and_keeps_the_curves() {
    let ctx = egui::Context::default();
    let mut state = AppState::new(demo_project(), None);
    let before = state.project().clone();
    let (path, height) = (0, 3);
    assert_eq!(before.tracks[height].name, "height");
    let selection = BTreeSet::from([KeyRef { track: path, key: 1 }, KeyRef { track: height, key: 0 }]);
    run_command(&ctx, &mut state, AppCommand::Select(selection));
    run_command(&ctx, &mut state, AppCommand::Ui(Command::Tool(id::<ConvertToBezier>())));
    assert!(state.ui.windows.is_open(window::<ConvertToBezier>()), "the command opens the window that asks for the bound");
    let made = made_now::<ConvertToBezier>(&state.doc, 1e-6);
    run_command(&ctx, &mut state, AppCommand::ToolApply(made));
    let after = state.project().clone();
    for i in [path, height] {
        assert_eq!(after.tracks[i].interpolation, crate::Interpolation::Bezier);
        let (a, b) = (crate::TrackCurve::new(&before.tracks[i]).unwrap(), crate::TrackCurve::new(&after.tracks[i]).unwrap());
        let (mut ea, mut eb) = (a.evaluator(), b.evaluator());
        for k in 0..=400 {
            let t = 4.0 * f64::from(k) / 400.0;
            let d = ea.value_at(t).iter().zip(eb.value_at(t)).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
            assert!(d <= 1e-6, "track {i} at {t}: {d}");
        }
    }
    assert!(after.tracks[path].keys.len() > before.tracks[path].keys.len(), "eased segments got keys");
    assert_eq!(after.tracks[height].keys.len(), before.tracks[height].keys.len());
    assert!(state.ui.status.text.starts_with("Converted 2 tracks"), "{}", state.ui.status.text);
    state.doc.undo();
    assert_eq!(state.project(), &before);
}

/// A change whose worker panics changes nothing, says so, and lets what waited run.
#[test]
fn a_change_whose_worker_stops_without_a_result_changes_nothing() {
    let ctx = egui::Context::default();
    let mut state = AppState::new(demo_project(), None);
    let before = state.project().clone();
    let job = Job::spawn("Set tension", None, |_| -> Option<Vec<crate::app::compiled_track::ChangedKeys>> { panic!("on purpose") });
    state.ui.key_queue.start(KeyJob { own_step: true, keys: 1, job: job.made_for(state.doc.basis()), describe: None });
    state.ui.key_queue.defer(AppCommand::Ui(Command::SelectAll));
    let mut results = Vec::new();
    for _ in 0..500 {
        results = finished_jobs(&mut state);
        if !results.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert_eq!(results.len(), 1, "the job's end comes back as a command");
    for command in results {
        run_or_defer(&ctx, &mut state, command);
    }
    assert_eq!(state.project(), &before);
    assert!(state.ui.status.is_error && state.ui.status.text.contains("stopped without a result"), "{:?}", state.ui.status);
    assert!(!state.ui.key_queue.is_busy() && !state.doc.selection.is_empty(), "Select all, which waited, ran");
}
