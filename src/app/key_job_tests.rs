//! Changes of a big selection made on a worker (`planner.rs`), driven through the real UI:
//! the result is the one the UI thread would have made, one undo step, and the commands given
//! meanwhile run after it, in order.

use std::sync::Arc;

use eframe::egui::{Key as K, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use super::commands::{AppCommand, Command};
use super::key_change::{Change, Gesture, Phase};
use super::tests::harness;
use super::TangentApp;
use crate::{Interpolation, Key, Project, Track, TrackKind};

fn project() -> Project {
    project_of(3, 40)
}

fn project_of(tracks: u16, keys: u16) -> Project {
    let tracks = (0..tracks)
        .map(|t| {
            let keys = (0..keys).map(|i| Key::new(f64::from(i) / 30.0, vec![(f64::from(i) * 0.3 + f64::from(t)).sin(), 1.0, 0.5])).collect();
            Track::new(format!("bone{t}.translation"), TrackKind::Vec3, Interpolation::Tcb).with_keys(keys)
        })
        .collect();
    Project { tracks, ..Project::default() }
}

fn tensions(h: &Harness<'_, TangentApp>) -> Vec<f64> {
    h.state().state.project().tracks.iter().flat_map(|t| t.keys.iter().map(|k| k.tension)).collect()
}

/// Steps frames until no change is being made or waits (at most 10 s); returns how many
/// frames saw one busy.
fn settle(h: &mut Harness<'_, TangentApp>) -> usize {
    let mut busy = 0;
    for _ in 0..2000 {
        if !h.state().state.ui.key_queue.is_busy() {
            break;
        }
        busy += 1;
        std::thread::sleep(std::time::Duration::from_millis(5));
        h.step();
    }
    assert!(!h.state().state.ui.key_queue.is_busy(), "the change never finished");
    h.run();
    busy
}

/// `project` opened with the worker taking changes from `background_keys` selected keys, every
/// key selected, then `act` and one frame: the harness once the change is in place, and
/// whether the change was made on the worker.
fn select_all_then(project: Project, background_keys: usize, act: impl FnOnce(&mut Harness<'static, TangentApp>)) -> (Harness<'static, TangentApp>, bool) {
    let mut h = harness(project);
    h.state_mut().state.ui.key_queue.background_keys = background_keys;
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    act(&mut h);
    h.step();
    settle(&mut h);
    let on_worker = h.state().state.ui.key_queue.started > 0;
    (h, on_worker)
}

/// Every key of 20 tracks × 1,000 keys selected, then the tension slider dragged from 0.5 to
/// 0.8 of its width in six moves, then dropped: the tensions it leaves, and how many frames saw
/// a change on the worker. (Big enough that the worker is usually still busy at the next move,
/// so the drag's changes wait and merge, as in the real window.)
fn drag_tension(background_keys: usize) -> (Harness<'static, TangentApp>, usize) {
    let mut h = harness(project_of(20, 1000));
    h.state_mut().state.ui.key_queue.background_keys = background_keys;
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    let slider = h.get_all_by_label("tension").next().expect("the tension slider").rect();
    let at = |f: f32| eframe::egui::pos2(slider.left() + slider.width() * f, slider.center().y);
    h.hover_at(at(0.5));
    h.step();
    h.drag_at(at(0.5));
    h.step();
    let mut busy = 0;
    for i in 1..=6u8 {
        h.hover_at(at(0.5 + 0.05 * f32::from(i)));
        h.step();
        busy += usize::from(h.state().state.ui.key_queue.is_busy());
    }
    h.drop_at(at(0.8));
    h.step();
    busy += settle(&mut h);
    (h, busy)
}

/// The slider dragged over a selection made on the worker ends where the same drag made on
/// the UI thread ends, bit for bit, as one undo step that one Ctrl+Z reverts.
#[test]
fn a_slider_dragged_over_a_big_selection_ends_as_on_the_ui_thread_in_one_step() {
    let (mut h, busy) = drag_tension(1);
    let (here, busy_here) = drag_tension(usize::MAX);
    assert!(busy > 0 && busy_here == 0, "the worker's path was taken ({busy} busy frames), and only there");
    let (worker, ui_thread) = (tensions(&h), tensions(&here));
    assert!(worker[0] > 0.3 && worker.iter().all(|&t| t == worker[0]), "every key set to the slider's last value: {worker:?}");
    assert_eq!(worker, ui_thread);
    let doc = &h.state().state.doc;
    assert_eq!(doc.document.undo_label(), Some("Set tension"));
    assert_eq!(
        doc.curve(2).unwrap().as_ref().unwrap().outgoing_tangent(5),
        here.state().state.doc.curve(2).unwrap().as_ref().unwrap().outgoing_tangent(5),
        "the curves in place are the new keys'"
    );
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert!(tensions(&h).iter().all(|&t| t == 0.0), "one undo reverts every track");
    assert_eq!(h.state().state.doc.document.undo_label(), None, "the drag was the only step");
}

fn set_tension(tension: f64) -> AppCommand {
    AppCommand::Gesture(Gesture {
        label: "Set tension".to_owned(),
        phase: Phase::Once,
        change: Some(Change::Each(Arc::new(move |k: &mut Key| k.tension = tension))),
    })
}

/// Undo given in the same frame as a change that goes to the worker waits for it, then undoes
/// it (not the step before it); Redo given after another change finds nothing to redo.
#[test]
fn commands_given_while_a_change_is_made_run_after_it_in_order() {
    let mut h = harness(project());
    h.state_mut().state.ui.key_queue.background_keys = 1;
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    h.state_mut().queue.extend([set_tension(0.5), AppCommand::Ui(Command::Undo)]);
    h.step();
    assert!(h.state().state.ui.key_queue.is_busy(), "the change went to the worker");
    // The next frame draws before it puts the change in place: the status bar says it is made.
    h.step();
    assert!(h.query_by_label("Set tension: 120 keys…").is_some(), "the status bar shows the change being made");
    settle(&mut h);
    assert!(tensions(&h).iter().all(|&t| t == 0.0), "the change was made, then undone: {:?}", tensions(&h));
    assert_eq!(h.state().state.doc.document.undo_label(), None);
    assert_eq!(h.state().state.doc.document.redo_label(), Some("Set tension"));
    h.state_mut().queue.extend([set_tension(0.25), AppCommand::Ui(Command::Redo)]);
    h.step();
    settle(&mut h);
    assert!(tensions(&h).iter().all(|&t| t == 0.25), "the new change cleared what Redo would have redone: {:?}", tensions(&h));
    h.state_mut().state.doc.undo();
    assert!(tensions(&h).iter().all(|&t| t == 0.0), "and it is the only step");
    assert_eq!(h.state().state.doc.document.undo_label(), None);
}

/// A change made from a project that is no longer the open one (a file opened while it was
/// made) is dropped, and the status bar says so.
#[test]
fn a_change_made_for_a_document_since_replaced_is_dropped() {
    let mut h = harness(project());
    h.state_mut().state.ui.key_queue.background_keys = 1;
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    h.state_mut().queue.push(set_tension(0.5));
    h.step();
    assert!(h.state().state.ui.key_queue.is_busy());
    h.state_mut().state.replace_document(project(), None);
    settle(&mut h);
    assert!(tensions(&h).iter().all(|&t| t == 0.0), "the new document is as it was opened");
    let status = &h.state().state.ui.status;
    assert!(status.is_error && status.text.contains("not applied"), "{status:?}");
    h.get_by_label(&status.text.clone());
}

/// `Key > Handle type` on a big selection is made on the worker: the keys it leaves are the
/// ones the UI thread's path makes, bit for bit, as one undo step, and the status bar says
/// how many keys changed.
#[test]
fn handle_types_set_on_a_big_selection_match_the_ui_thread() {
    let bezier = || {
        let mut p = project();
        p.tracks.iter_mut().for_each(|t| t.interpolation = Interpolation::Bezier);
        p
    };
    let run = |background_keys: usize| {
        select_all_then(bezier(), background_keys, |h| h.state_mut().queue.push(AppCommand::Ui(Command::SetHandleType(crate::HandleType::Vector))))
    };
    let ((mut h, on_worker), (here, on_worker_here)) = (run(1), run(usize::MAX));
    assert!(on_worker && !on_worker_here, "the worker's path was taken, and only there");
    let keys = |h: &Harness<'_, TangentApp>| h.state().state.project().tracks.iter().flat_map(|t| t.keys.clone()).collect::<Vec<Key>>();
    assert!(keys(&h).iter().all(|k| k.handles == (crate::HandleType::Vector, crate::HandleType::Vector)));
    assert_eq!(keys(&h), keys(&here), "the same keys, handles and all");
    assert_eq!(h.state().state.ui.status.text, "Set the handles of 120 keys to Vector");
    assert_eq!(h.state().state.ui.status, here.state().state.ui.status);
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(h.state().state.project(), &bezier(), "one undo reverts every track");
}

/// The time field on a big selection is made on the worker: every selected key moved so that
/// the first is at the typed time, keys re-sorted past the unselected ones and the selection
/// moved with them, exactly as on the UI thread. Two times given in one frame: the second
/// waits and moves the keys from where the first left them, so the first key ends at it.
#[test]
fn the_time_field_on_a_big_selection_matches_the_ui_thread() {
    let set_time = |t: f64| AppCommand::Gesture(Gesture { label: "Set key time".to_owned(), phase: Phase::Once, change: Some(Change::FirstKeyTo(t)) });
    let run = |background_keys: usize| {
        let mut h = harness(project());
        h.state_mut().state.ui.key_queue.background_keys = background_keys;
        // Keys 10..14 of tracks 1 and 2 (1/30 s apart): moved 0.25 s later they pass the four
        // unselected keys 14..18.
        let picked = (1..3).flat_map(|track| (10..14).map(move |key| super::key_change::KeyRef { track, key }));
        h.state_mut().state.doc.selection = picked.collect::<std::collections::BTreeSet<_>>().into();
        h.state_mut().queue.extend([set_time(10.0 / 30.0 + 0.2), set_time(10.0 / 30.0 + 0.25)]);
        h.step();
        settle(&mut h);
        let started = h.state().state.ui.key_queue.started;
        (h, started)
    };
    let ((h, started), (here, started_here)) = (run(1), run(usize::MAX));
    assert_eq!((started, started_here), (2, 0), "both changes were made on the worker, and only there");
    let state = &h.state().state;
    assert_eq!(state.project(), here.state().state.project());
    assert_eq!(state.doc.selection.iter().collect::<Vec<_>>(), here.state().state.doc.selection.iter().collect::<Vec<_>>());
    let first = *state.doc.selection.iter().next().unwrap();
    assert_eq!(first.key, 14, "the first selected key passed four unselected ones");
    let time = state.project().tracks[first.track].keys.time(first.key);
    assert!((time - (10.0 / 30.0 + 0.25)).abs() < 1e-12, "the first selected key is at the last time given: {time}");
    assert!(state.project().tracks[0].keys.iter().enumerate().all(|(i, k)| k.time == f64::from(i as u16) / 30.0), "track 0 untouched");
}

/// The inspector's time field stepped with the keyboard over every key, on the worker and on
/// the UI thread: the same project, every key moved by the same amount, one undo step.
#[test]
fn the_time_field_stepped_in_the_inspector_moves_every_key_alike() {
    let run = |background_keys: usize| {
        select_all_then(project(), background_keys, |h| {
            // The inspector's time field (the transport has one too): it shows "(mixed)".
            let field = h.get_all_by_role_and_label(eframe::egui::accesskit::Role::SpinButton, "time").find(|n| n.value().is_some_and(|v| v.contains("mixed")));
            field.expect("the inspector's time field").focus();
            h.run();
            h.key_press(K::ArrowUp);
        })
    };
    let ((mut h, on_worker), (here, on_worker_here)) = (run(1), run(usize::MAX));
    assert!(on_worker && !on_worker_here, "the worker's path was taken, and only there");
    assert_eq!(h.state().state.project(), here.state().state.project());
    let before = project();
    let moved: Vec<f64> =
        h.state().state.project().tracks.iter().flat_map(|t| &t.keys).zip(before.tracks.iter().flat_map(|t| &t.keys)).map(|(a, b)| a.time - b.time).collect();
    assert!(moved[0] > 0.0 && moved.iter().all(|d| (d - moved[0]).abs() < 1e-12), "every key moved alike: {:?}", &moved[..3]);
    assert_eq!(h.state().state.doc.document.undo_label(), Some("Set key time"));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(h.state().state.project(), &before);
}

/// Undo and redo of a change of every key swap each track between two curves that keep
/// their stamps, so once both were drawn their frames build no polyline again.
#[test]
fn undo_and_redo_frames_reuse_the_polylines_of_both_states() {
    let mut h = harness(project());
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    h.state_mut().queue.push(set_tension(0.5));
    h.run();
    let builds = |h: &Harness<'_, TangentApp>| h.state().panels.graph.curves.builds;
    let press = |h: &mut Harness<'_, TangentApp>, m: Modifiers| {
        h.key_press_modifiers(m, K::Z);
        h.run();
    };
    press(&mut h, Modifiers::COMMAND);
    press(&mut h, Modifiers::COMMAND | Modifiers::SHIFT);
    let drawn = builds(&h);
    for _ in 0..2 {
        press(&mut h, Modifiers::COMMAND);
        assert!(tensions(&h).iter().all(|&t| t == 0.0));
        press(&mut h, Modifiers::COMMAND | Modifiers::SHIFT);
        assert!(tensions(&h).iter().all(|&t| t == 0.5));
    }
    assert_eq!(builds(&h), drawn, "no polyline built again");
}

/// The pointer pressed on `key` (first component) in the graph, a frame each to hover and
/// press, then moved `moves` times by `step`, a frame each: where it was pressed.
fn press_and_move(h: &mut Harness<'static, TangentApp>, key: &Key, moves: u8, step: eframe::egui::Vec2) -> eframe::egui::Pos2 {
    let transform = h.state().panels.graph.transform.expect("the graph was drawn");
    let start = transform.position_from_point(&egui_plot::PlotPoint::new(key.time, key.value[0]));
    h.hover_at(start);
    h.step();
    h.drag_at(start);
    h.step();
    for i in 1..=moves {
        h.hover_at(start + step * f32::from(i));
        h.step();
    }
    start
}

/// Every key of 4 tracks × 40 selected, then a key dragged in the graph across its
/// neighbours and up in eight moves, then dropped: the project it leaves, the project before,
/// and how many changes went to the worker.
fn drag_selected_keys(background_keys: usize) -> (Harness<'static, TangentApp>, Project, usize) {
    let before = project_of(4, 40);
    let mut h = harness(before.clone());
    h.state_mut().state.ui.key_queue.background_keys = background_keys;
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    let start = press_and_move(&mut h, &before.tracks[0].keys[20], 8, eframe::egui::vec2(9.0, -4.0));
    // The pointer held still: the last move is not made again (on the worker it would keep
    // moving and compiling every track, and never settle).
    settle(&mut h);
    let started = h.state().state.ui.key_queue.started;
    for _ in 0..3 {
        h.step();
    }
    assert!(!h.state().state.ui.key_queue.is_busy() && h.state().state.ui.key_queue.started == started, "a frame with the pointer still moved nothing");
    h.drop_at(start + eframe::egui::vec2(72.0, -32.0));
    h.step();
    settle(&mut h);
    let started = h.state().state.ui.key_queue.started;
    (h, before, started)
}

/// A drag of every selected key in the graph, made on the worker (each frame's move waiting
/// behind the one being made, and merged into the latest), ends bit for bit where the same
/// drag spliced on the UI thread ends: the keys re-sorted past their neighbours, the selection
/// moved with them, one undo step that one Ctrl+Z reverts.
#[test]
fn a_graph_drag_of_a_big_selection_ends_as_on_the_ui_thread_in_one_step() {
    let (mut h, before, started) = drag_selected_keys(1);
    let (here, _, started_here) = drag_selected_keys(usize::MAX);
    assert!(started > 0 && started_here == 0, "the worker's path was taken ({started} changes), and only there");
    let (worker, ui_thread) = (h.state().state.project(), here.state().state.project());
    assert_ne!(worker, &before, "the drag moved the keys");
    assert_eq!(worker, ui_thread);
    let moved =
        |p: &Project| p.tracks.iter().zip(&before.tracks).map(|(a, b)| a.keys.iter().zip(&b.keys).filter(|(x, y)| x.time != y.time).count()).sum::<usize>();
    assert_eq!(moved(worker), 4 * 40, "every selected key moved in time");
    assert_eq!(*h.state().state.doc.selection, *here.state().state.doc.selection, "the selection follows the keys alike");
    assert_eq!(h.state().state.doc.selection.len(), 4 * 40);
    let curve = |h: &Harness<'_, TangentApp>| h.state().state.doc.curve(3).unwrap().as_ref().unwrap().evaluator().value_at(0.7);
    assert_eq!(curve(&h), curve(&here), "the curves in place are the moved keys'");
    assert_eq!(h.state().state.doc.document.undo_label(), Some("Move keys"));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(h.state().state.project(), &before, "one undo reverts every track");
    assert_eq!(h.state().state.doc.document.undo_label(), None, "the drag was the only step");
}

/// Every third key of tracks 0 and 1 and every key of track 2 selected, then Delete: the
/// project, selection and status it leaves, and whether the worker made it.
fn delete_some(background_keys: usize) -> (Harness<'static, TangentApp>, Project, bool) {
    let before = project_of(3, 40);
    let mut h = harness(before.clone());
    h.state_mut().state.ui.key_queue.background_keys = background_keys;
    let picked = (0..2).flat_map(|track| (0..40).step_by(3).map(move |key| super::key_change::KeyRef { track, key }));
    let all_of_2 = (0..40).map(|key| super::key_change::KeyRef { track: 2, key });
    h.state_mut().state.doc.selection.extend(picked.chain(all_of_2));
    h.key_press(K::Delete);
    h.step();
    settle(&mut h);
    let on_worker = h.state().state.ui.key_queue.started > 0;
    (h, before, on_worker)
}

/// Delete on a big selection's tracks, made on the worker, leaves what the UI thread leaves:
/// 14 keys gone from each of tracks 0 and 1, track 2 whole (a track keeps a key), nothing
/// of the deleted keys selected, "Deleted 28 keys", one undo step.
#[test]
fn delete_on_big_tracks_matches_the_ui_thread() {
    let (mut h, before, on_worker) = delete_some(1);
    let (here, _, here_on_worker) = delete_some(usize::MAX);
    assert!(on_worker && !here_on_worker, "the worker's path was taken, and only there");
    let lens: Vec<usize> = h.state().state.project().tracks.iter().map(|t| t.keys.len()).collect();
    assert_eq!(lens, [26, 26, 40]);
    assert_eq!(h.state().state.project(), here.state().state.project());
    assert!(h.state().state.project().tracks[0].keys.iter().all(|k| (k.time * 30.0).round() as u32 % 3 != 0), "every third key went");
    assert_eq!(*h.state().state.doc.selection, *here.state().state.doc.selection);
    assert_eq!(h.state().state.ui.status.text, "Deleted 28 keys");
    assert_eq!(h.state().state.ui.status, here.state().state.ui.status);
    assert_eq!(h.state().state.doc.document.undo_label(), Some("Delete keys"));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(h.state().state.project(), &before, "one undo brings every key back");
}

/// While a change is being made (or commands wait for one), a key cannot be grabbed: a drag
/// made from the keys on screen would put back what the change is replacing. The status bar
/// says why, and nothing moves.
#[test]
fn no_key_drag_starts_while_a_change_is_made() {
    let before = project_of(2, 40);
    let mut h = harness(before.clone());
    // Something waiting for a change keeps the queue busy as long as the test needs.
    h.state_mut().state.ui.key_queue.defer(AppCommand::Ui(Command::SelectAll));
    assert!(h.state().state.ui.key_queue.is_busy());
    let start = press_and_move(&mut h, &before.tracks[0].keys[20], 4, eframe::egui::vec2(10.0, -8.0));
    h.drop_at(start + eframe::egui::vec2(40.0, -32.0));
    h.step();
    assert_eq!(h.state().state.project(), &before, "nothing moved");
    assert!(h.state().state.ui.status.text.starts_with("Try again once it is in place"), "{}", h.state().state.ui.status.text);
}
