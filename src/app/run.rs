//! Running the command queue: shortcuts and dropped files become commands, and every command
//! a panel pushed runs here, once per frame, in order.
//!
//! Gestures: a panel begins one when a drag starts and ends it when the drag stops. An edit
//! that is not part of the gesture (Delete, Paste, Undo pressed mid-drag) first closes the
//! open gesture, so it is its own undo step; the dragging panel's later edits, computed from
//! what the drag began with, are then dropped instead of undoing it.

use std::path::PathBuf;

use eframe::egui;

use super::commands::{AppCommand, Command, Decision, EditCommand, TrackEdits};
use super::files::Saving;
use super::state::{AfterDiscard, AppState, Status};
use super::Panels;

/// Every command's shortcuts, those with more modifiers first. egui matches a shortcut
/// "logically", ignoring an extra Shift or Alt held down, so Ctrl+Shift+Z also matches Undo's
/// Ctrl+Z: asked first, Redo consumes it (and Save as its Ctrl+Shift+S before Save).
fn shortcuts_in_matching_order() -> &'static [(Command, egui::KeyboardShortcut)] {
    static LIST: std::sync::LazyLock<Vec<(Command, egui::KeyboardShortcut)>> = std::sync::LazyLock::new(|| {
        let all = Command::FILE.into_iter().chain(Command::EDIT).chain(Command::KEY).chain(Command::VIEW).chain(Command::PLAY);
        let mut list: Vec<_> = all.flat_map(|c| c.shortcut().into_iter().chain(c.alternative_shortcuts()).map(move |s| (c, s))).collect();
        let held = |m: egui::Modifiers| [m.alt, m.shift, m.command || m.ctrl || m.mac_cmd].into_iter().filter(|x| *x).count();
        list.sort_by_key(|(_, s)| std::cmp::Reverse(held(s.modifiers)));
        list
    });
    &LIST
}

/// Shortcuts, files dropped on the window, and the window's close button.
pub fn handle_input(ctx: &egui::Context, state: &AppState, out: &mut Vec<AppCommand>) {
    let typing = ctx.egui_wants_keyboard_input();
    for &(command, s) in shortcuts_in_matching_order() {
        if typing && command.is_plain_key() {
            continue;
        }
        if ctx.input_mut(|i| i.consume_shortcut(&s)) {
            out.push(AppCommand::Ui(command));
        }
    }
    let dropped: Vec<PathBuf> = ctx.input(|i| i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).collect());
    for path in dropped {
        let ext = path.extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default();
        if ext == "ron" {
            out.push(AppCommand::Open(path));
        } else if super::import_window::EXTENSIONS.contains(&ext.as_str()) {
            out.push(AppCommand::ImportPath(path));
        }
    }
    if ctx.input(|i| i.viewport().close_requested()) && state.doc.document.is_dirty() && !state.ui.quit_confirmed {
        ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
        out.push(AppCommand::Ui(Command::Quit));
    }
}

/// Runs one command; returns whether it changed anything on screen (so the frame is drawn
/// again), which a drag's repeated identical edit does not.
pub fn run_command(ctx: &egui::Context, state: &mut AppState, panels: &mut Panels, command: AppCommand) -> bool {
    let changed = match command {
        AppCommand::Ui(c) => {
            run_ui_command(ctx, state, panels, c);
            true
        }
        AppCommand::BeginGesture(label) => {
            state.doc.document.begin_gesture(&label);
            state.ui.gesture_interrupted = false;
            false
        }
        AppCommand::EndGesture => {
            state.doc.document.end_gesture();
            state.ui.gesture_interrupted = false;
            true
        }
        AppCommand::Edit(e) => edit(state, e),
        AppCommand::EditTracks(e) => edit_tracks(state, e),
        AppCommand::ChangeKeys(c) => super::key_jobs::change_keys(ctx, state, c),
        AppCommand::SetHandleSides(sides) => super::key_jobs::set_handle_types(ctx, state, sides),
        AppCommand::InsertKey { track, t } => {
            end_gesture(state);
            state.doc.active_track = Some(track);
            let s = state.doc.insert_key(track, t);
            state.set_status(s);
            true
        }
        c @ (AppCommand::SetPreview(_) | AppCommand::ApplySimplify(..) | AppCommand::ConvertToBezier { .. } | AppCommand::Restore { .. }) => {
            key_command(state, c)
        }
        AppCommand::Select(selection) => replace(&mut *state.doc.selection, selection),
        AppCommand::ToggleSelected(k) => state.doc.selection.remove(&k) || state.doc.selection.insert(k),
        AppCommand::AddToSelection(keys) => {
            state.doc.selection.extend(keys);
            true
        }
        AppCommand::SetActiveTrack(t) => t < state.project().tracks.len() && replace(&mut state.doc.active_track, Some(t)),
        AppCommand::SetView(view) => {
            if view.normalize != state.view.normalize {
                panels.graph.frame_all = true;
            }
            replace(&mut state.view, *view)
        }
        AppCommand::Transport(c) => {
            let fps = state.project().fps;
            let t = state.ui.transport.run(c, fps);
            t.is_none() || t.is_some_and(|t| replace(&mut state.ui.playhead, t))
        }
        AppCommand::Status(s) => replace(&mut state.ui.status, s),
        AppCommand::Open(path) => {
            state.confirm_or_run(AfterDiscard::Open(Some(path)));
            true
        }
        c @ (AppCommand::ImportPath(_) | AppCommand::Imported { .. }) => import_command(state, panels, c),
        AppCommand::SaveTo(mut path) => {
            if path.extension().is_none() {
                path.set_extension("ron");
            }
            if state.save_to(&path) {
                state.ui.show_save_path = false;
            }
            true
        }
        AppCommand::Overwrite(path) => overwrite(state, path),
        AppCommand::Decide(d) => {
            decide(ctx, state, d);
            true
        }
        AppCommand::CloseOpenPath => replace(&mut state.ui.show_open_path, false),
        AppCommand::CloseSavePath => replace(&mut state.ui.show_save_path, false),
        AppCommand::CancelFileJob => {
            state.cancel_file_job();
            true
        }
    };
    state.follow_range();
    changed
}

/// A file to import, or a finished import.
fn import_command(state: &mut AppState, panels: &mut Panels, command: AppCommand) -> bool {
    match command {
        AppCommand::ImportPath(path) => {
            panels.import.show_path(path);
            true
        }
        AppCommand::Imported { imported, mode } => {
            end_gesture(state);
            let (summary, take) = (imported.report.summary(), imported.take);
            match mode {
                super::import_window::ImportMode::NewProject => state.confirm_or_run(AfterDiscard::Imported(Box::new(take), summary)),
                super::import_window::ImportMode::AddTracks => {
                    let s = state.doc.add_imported(take, &summary);
                    state.set_status(s);
                    state.follow_range();
                }
            }
            true
        }
        _ => false,
    }
}

/// File > Import…: the window, and the system's file dialog when no file is chosen yet.
fn open_import(panels: &mut Panels) {
    panels.import.open = true;
    if panels.import.path.is_empty() {
        if let Some(p) = rfd::FileDialog::new().add_filter("Animation", &super::import_window::EXTENSIONS).pick_file() {
            panels.import.show_path(p);
        }
    }
}

/// The commands of the Key menu's windows (Simplify, Convert to Bézier) and of the recovery
/// offer.
fn key_command(state: &mut AppState, command: AppCommand) -> bool {
    match command {
        AppCommand::Restore { take, origin } => {
            end_gesture(state);
            let s = state.doc.restore(*take, origin);
            state.set_status(s);
            state.follow_range();
            true
        }
        AppCommand::SetPreview(p) => replace(&mut state.ui.preview, p),
        AppCommand::ApplySimplify(reports, preview) => {
            end_gesture(state);
            let s = state.doc.apply_simplify(&reports, preview);
            state.set_status(s);
            true
        }
        AppCommand::ConvertToBezier { bound, done } => {
            end_gesture(state);
            let s = state.doc.convert_to_bezier(bound, done);
            state.set_status(s);
            true
        }
        _ => false,
    }
}

/// Sets `slot` to `value`; returns whether that changed it.
fn replace<T: PartialEq>(slot: &mut T, value: T) -> bool {
    if *slot == value {
        return false;
    }
    *slot = value;
    true
}

/// Whether `edit` would leave the project as it is.
pub(super) fn is_noop(project: &crate::Project, edit: &crate::Edit) -> bool {
    match edit {
        crate::Edit::SetKeys { track, keys } => project.tracks.get(*track).is_some_and(|t| &t.keys == keys),
        crate::Edit::SpliceKeys { track, at, remove, keys } => {
            project.tracks.get(*track).is_some_and(|t| t.keys.get(*at..at.saturating_add(*remove)) == Some(keys.as_slice()))
        }
        crate::Edit::SetTrack { index, track } => project.tracks.get(*index).is_some_and(|t| t == track),
        crate::Edit::SetHeader { index, header } => project.tracks.get(*index).is_some_and(|t| t.header() == *header),
        _ => false,
    }
}

/// Closes an open gesture before an edit of its own; the rest of that gesture is dropped.
pub(super) fn end_gesture(state: &mut AppState) {
    if state.doc.document.in_gesture() {
        state.doc.document.end_gesture();
        state.ui.gesture_interrupted = true;
    }
}

/// An edit that is part of a gesture joins the open one (a panel that missed its drag's start
/// still makes one step of it); one that is not closes it. False: its gesture was ended
/// meanwhile (Delete or Undo during a drag), and the edit, computed before, is dropped.
pub(super) fn join_gesture(state: &mut AppState, gesture: bool, label: &str) -> bool {
    if gesture && !state.doc.document.in_gesture() {
        if state.ui.gesture_interrupted {
            return false;
        }
        state.doc.document.begin_gesture(label);
    }
    if !gesture {
        end_gesture(state);
    }
    true
}

/// Applies an edit command; returns whether the project changed.
fn edit(state: &mut AppState, e: EditCommand) -> bool {
    if !join_gesture(state, e.gesture, &e.label) {
        return false;
    }
    let track = e.edit.track();
    let noop = is_noop(state.project(), &e.edit);
    let result = if noop { Ok(()) } else { state.doc.apply(&e.label, e.edit) };
    match result {
        Ok(()) => {
            if let (Some(selected), Some(track)) = (e.selected, track) {
                state.doc.selection.retain(|k| k.track != track);
                state.doc.selection.extend(selected);
            }
            let shown = e.message.is_some_and(|m| replace(&mut state.ui.status, Status::message(m)));
            !noop || shown
        }
        Err(s) => {
            state.set_status(s);
            true
        }
    }
}

/// Applies edits of several tracks as one change; returns whether anything changed.
pub(super) fn edit_tracks(state: &mut AppState, e: TrackEdits) -> bool {
    if !join_gesture(state, e.gesture, &e.label) {
        return false;
    }
    // Not part of a gesture: a step of its own, grouping the tracks' edits.
    let own_step = !e.gesture;
    if own_step {
        state.doc.document.begin_gesture(&e.label);
    }
    let edits: Vec<_> = e.edits.into_iter().filter(|k| !is_noop(state.project(), &k.edit)).collect();
    let changed = !edits.is_empty();
    let result = state.doc.apply_key_edits(&e.label, edits);
    if own_step {
        state.doc.document.end_gesture();
    }
    match result {
        Ok(()) => changed,
        Err(s) => {
            state.set_status(s);
            true
        }
    }
}

fn run_ui_command(ctx: &egui::Context, state: &mut AppState, panels: &mut Panels, command: Command) {
    match command {
        Command::New => state.confirm_or_run(AfterDiscard::New),
        Command::Open => state.confirm_or_run(AfterDiscard::Open(None)),
        Command::OpenPath => state.ui.show_open_path = true,
        Command::Save => {
            save_interactive(state);
        }
        Command::SaveAs => {
            save_as_interactive(state);
        }
        Command::Export => panels.export.open = true,
        Command::Import => open_import(panels),
        Command::Quit => state.confirm_or_run(AfterDiscard::Quit),
        Command::Undo => {
            end_gesture(state);
            let s = state.doc.undo();
            state.set_status(s);
        }
        Command::Redo => {
            end_gesture(state);
            let s = state.doc.redo();
            state.set_status(s);
        }
        Command::SelectAll => state.doc.select_all(),
        Command::DeselectAll => state.doc.selection.clear(),
        Command::DeleteKeys => {
            end_gesture(state);
            super::key_jobs::delete_keys(ctx, state);
        }
        Command::Copy => {
            let s = state.doc.copy();
            state.set_status(s);
        }
        Command::Paste => {
            end_gesture(state);
            let s = state.doc.paste(state.ui.playhead);
            state.set_status(s);
        }
        Command::InsertKey => match state.doc.active_track {
            Some(t) => {
                end_gesture(state);
                let s = state.doc.insert_key(t, state.ui.playhead);
                state.set_status(s);
            }
            None => state.set_status(Status::message("Insert key: click a track first")),
        },
        Command::ConvertToBezier => panels.convert.open = true,
        Command::Simplify => panels.simplify.open = true,
        Command::HandleTypeMenu => {
            if state.doc.selection.is_empty() {
                state.set_status(Status::message("Handle type: select Bézier keys first"));
            } else {
                panels.handle_menu.open = true;
            }
        }
        Command::SetHandleType(kind) => _ = super::key_jobs::set_handle_types(ctx, state, super::doc_edits::HandleSides::both(kind)),
        Command::FrameAll => panels.graph.frame_all = true,
        Command::FrameSelected => panels.graph.frame_selected = true,
        Command::ToggleNormalize => {
            state.view.normalize = !state.view.normalize;
            panels.graph.frame_all = true;
        }
        Command::ToggleTangents => state.view.show_tangents = !state.view.show_tangents,
        Command::ToggleSpeedGraph => state.view.show_speed = !state.view.show_speed,
        Command::ToggleAllCurves => state.view.show_all_curves = !state.view.show_all_curves,
        Command::ToggleSnap => state.view.snap = !state.view.snap,
        Command::PlayPause => state.ui.transport.toggle_play(),
        Command::StepFrame => {
            let fps = state.project().fps;
            state.ui.playhead = state.ui.transport.step(fps);
        }
    }
}

/// The answer to "changed on disk": write over it, or leave it.
fn overwrite(state: &mut AppState, path: Option<PathBuf>) -> bool {
    state.ui.confirm_overwrite = None;
    match path {
        Some(p) => {
            state.save_over(&p);
        }
        None => state.set_status(Status::message("Not saved: the file on disk was left as it is (Save as… keeps your version elsewhere)")),
    }
    true
}

/// The answer to "Unsaved changes": save then continue, continue, or go back.
fn decide(ctx: &egui::Context, state: &mut AppState, d: Decision) {
    let Some(after) = state.ui.confirm_discard.take() else { return };
    match d {
        Decision::Save => match save_interactive(state) {
            Saving::Done(true) => run_after_discard(ctx, state, after),
            Saving::Done(false) => {}
            // Runs once the save on the worker thread has succeeded.
            Saving::Started => {
                if let Some(job) = &mut state.ui.file_job {
                    job.then = Some(after);
                }
            }
        },
        Decision::Discard => run_after_discard(ctx, state, after),
        Decision::Cancel => {}
    }
}

/// Does what was waiting for the unsaved-changes decision.
pub fn run_after_discard(ctx: &egui::Context, state: &mut AppState, after: AfterDiscard) {
    match after {
        AfterDiscard::New => state.new_document(),
        AfterDiscard::Imported(take, summary) => {
            state.replace_doc_state(super::DocState::with_compiled(*take, None));
            state.set_status(Status::message(format!("Imported {summary}; File > Save as… to keep it")));
        }
        AfterDiscard::Open(Some(path)) => state.open(&path),
        AfterDiscard::Open(None) => match rfd::FileDialog::new().add_filter("Tangent project", &["ron"]).pick_file() {
            Some(path) => state.open(&path),
            None => {
                state.ui.show_open_path = true;
                state.set_status(Status::message("No file chosen (type a path if no file dialog appeared)"));
            }
        },
        AfterDiscard::Quit => {
            state.ui.quit_confirmed = true;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

/// Save: to the project's file, or ask where. Returns whether it was saved.
fn save_interactive(state: &mut AppState) -> Saving {
    match state.doc.path.clone() {
        Some(path) => state.save(&path),
        None => save_as_interactive(state),
    }
}

/// Save as: the system dialog, or the typed-path window where none can open.
fn save_as_interactive(state: &mut AppState) -> Saving {
    let name = state.doc.path.as_deref().and_then(std::path::Path::file_name).map_or_else(|| "untitled.ron".to_owned(), |n| n.to_string_lossy().into_owned());
    match rfd::FileDialog::new().add_filter("Tangent project", &["ron"]).set_file_name(name).save_file() {
        Some(path) => state.save(&path),
        None => {
            state.ui.show_save_path = true;
            state.set_status(Status::message("No file chosen (type a path if no file dialog appeared)"));
            Saving::Done(false)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::app::state::KeyRef;
    use crate::edit::intent;
    use crate::io::demo_project;

    /// The queue alone (no window): a drag's edits, Delete in the middle, more drag edits.
    #[test]
    fn an_edit_of_its_own_ends_the_gesture_and_drops_the_rest_of_it() {
        let ctx = egui::Context::default();
        let mut state = AppState::new(demo_project(), None);
        let mut panels = Panels::default();
        let before = state.project().clone();
        let selection = BTreeSet::from([KeyRef { track: 0, key: 1 }]);
        let origins = intent::move_origins(state.project(), &selection);
        let mut run = |state: &mut AppState, c: AppCommand| run_command(&ctx, state, &mut panels, c);
        run(&mut state, AppCommand::Select(selection));
        run(&mut state, AppCommand::BeginGesture("Move keys".into()));
        for i in 1..=3 {
            for e in intent::move_keys(&origins, 0.01 * f64::from(i), 0.1, 0, None) {
                run(&mut state, EditCommand::keys("Move keys", e).in_gesture(true).into());
            }
        }
        let moved = state.project().clone();
        run(&mut state, AppCommand::Ui(Command::DeleteKeys));
        let deleted = state.project().clone();
        assert_eq!(deleted.tracks[0].keys.len(), before.tracks[0].keys.len() - 1);
        for e in intent::move_keys(&origins, 0.05, 0.2, 0, None) {
            assert!(!run(&mut state, EditCommand::keys("Move keys", e).in_gesture(true).into()), "dropped");
        }
        run(&mut state, AppCommand::EndGesture);
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
        let mut panels = Panels::default();
        let edit = intent::change_key(state.project(), KeyRef { track: 0, key: 0 }, |k| k.tension = 0.5).unwrap();
        assert!(run_command(&ctx, &mut state, &mut panels, EditCommand::new("Set tension", edit.clone()).into()));
        let revision = state.doc.document.revision();
        assert!(!run_command(&ctx, &mut state, &mut panels, EditCommand::new("Set tension", edit).into()));
        assert_eq!(state.doc.document.revision(), revision);
        assert_eq!(state.doc.document.undo_label(), Some("Set tension"));
    }

    /// Key > Convert to Bézier on keys of two tracks: both become Bezier tracks with the same
    /// values (eased "path" gets extra keys), in one undo step that restores both.
    #[test]
    fn convert_to_bezier_is_one_undo_step_and_keeps_the_curves() {
        let ctx = egui::Context::default();
        let mut state = AppState::new(demo_project(), None);
        let mut panels = Panels::default();
        let before = state.project().clone();
        let (path, height) = (0, 3);
        assert_eq!(before.tracks[height].name, "height");
        let selection = BTreeSet::from([KeyRef { track: path, key: 1 }, KeyRef { track: height, key: 0 }]);
        run_command(&ctx, &mut state, &mut panels, AppCommand::Select(selection));
        run_command(&ctx, &mut state, &mut panels, AppCommand::Ui(Command::ConvertToBezier));
        assert!(panels.convert.open, "the command opens the window that asks for the bound");
        run_command(&ctx, &mut state, &mut panels, AppCommand::ConvertToBezier { bound: 1e-6, done: None });
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
}

#[cfg(test)]
mod disk_tests {
    use super::*;
    use crate::edit::intent::{self, KeyRef};
    use crate::io::demo_project;

    /// Save does not overwrite a file another program changed since it was opened: it asks;
    /// Cancel leaves the file, Overwrite writes it.
    #[test]
    fn save_asks_before_overwriting_a_file_changed_on_disk() {
        let dir = std::env::temp_dir().join(format!("tangent-disk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.ron");
        crate::io::save_project(&path, &demo_project()).unwrap();
        let ctx = egui::Context::default();
        let mut state = AppState::new(demo_project(), None);
        let mut panels = Panels::default();
        state.open(&path);
        let edit = intent::change_key(state.project(), KeyRef { track: 0, key: 1 }, |k| k.tension = 0.5).unwrap();
        state.doc.apply("Set tension", edit).unwrap();
        let theirs = "(version: 1, fps: 24.0, tracks: [(name: \"x\", kind: Scalar, interpolation: Linear, keys: [(time: 0.0, value: [1.0])])])";
        std::fs::write(&path, theirs).unwrap();
        run_command(&ctx, &mut state, &mut panels, AppCommand::Ui(Command::Save));
        assert_eq!(state.ui.confirm_overwrite.as_deref(), Some(path.as_path()));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs, "not overwritten");
        assert!(state.doc.document.is_dirty());
        run_command(&ctx, &mut state, &mut panels, AppCommand::Overwrite(None));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs, "Cancel leaves it");
        run_command(&ctx, &mut state, &mut panels, AppCommand::Ui(Command::Save));
        run_command(&ctx, &mut state, &mut panels, AppCommand::Overwrite(Some(path.clone())));
        assert_eq!(crate::io::load_project(&path).unwrap(), *state.project(), "Overwrite writes ours");
        assert!(!state.doc.document.is_dirty() && state.ui.confirm_overwrite.is_none());
        // Saved by us: the next save needs no question.
        let edit = intent::change_key(state.project(), KeyRef { track: 0, key: 1 }, |k| k.tension = 0.25).unwrap();
        state.doc.apply("Set tension", edit).unwrap();
        run_command(&ctx, &mut state, &mut panels, AppCommand::Ui(Command::Save));
        assert!(state.ui.confirm_overwrite.is_none() && !state.doc.document.is_dirty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
