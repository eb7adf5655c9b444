//! The dispatcher: shortcuts and dropped files become commands, and every command a panel
//! pushed runs here, once per frame, in order. It owns deferral (while a change of many keys
//! is made on a worker, the commands that touch the document wait: [`run_or_defer`]), carries
//! out the planner's plans (`planner.rs`), and puts finished results in place only while what
//! they were made for holds (`AppState::current`). It knows no panel: what it asks of their
//! own state goes through `UiState::requests`, and windows open in `UiState::windows`.
//!
//! Gestures: every drag and widget edit reaches the document by one route, the steps of a
//! gesture (`AppCommand::Gesture`, made by `gesture::step`) applied by [`gesture`]: the step
//! opens the undo step when its drag starts and closes it when the drag stops. An edit that is
//! not part of the gesture (Delete, Paste, Undo pressed mid-drag) first closes the open
//! gesture, so it is its own undo step; the dragging panel's later steps, computed from what
//! the drag began with, are then dropped instead of undoing it.

use std::path::PathBuf;

use eframe::egui;

use super::basis::Needs;
use super::command_text::Toggle;
use super::commands::{AppCommand, Command, EditCommand};
use super::file_commands::{decide, finished_file, overwrite, save_as_interactive, save_interactive};
use super::files::AfterDiscard;
use super::finished::{Finished, Handoff, MadeKeys};
use super::jobs::Job;
use super::key_change::{Gesture, HandleSides, Phase};
use super::key_queue::KeyJob;
use super::message::Status;
use super::planner::{self, is_noop, Plan};
use super::segment_commands;
use super::state::AppState;
use super::tool_commands;
use super::windows::{PanelRequest, Window};

/// Every command's shortcuts, those with more modifiers first. egui matches a shortcut
/// "logically", ignoring an extra Shift or Alt held down, so Ctrl+Shift+Z also matches Undo's
/// Ctrl+Z: asked first, Redo consumes it (and Save as its Ctrl+Shift+S before Save).
fn shortcuts_in_matching_order() -> &'static [(Command, egui::KeyboardShortcut)] {
    static LIST: std::sync::LazyLock<Vec<(Command, egui::KeyboardShortcut)>> = std::sync::LazyLock::new(|| {
        let menus = Command::FILE.into_iter().chain(Command::EDIT).chain(Command::KEY).chain(Command::TRACK).chain(Command::VIEW).chain(Command::PLAY);
        let all = menus.chain(super::tools::all().map(Command::Tool));
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
    // While a text field has the keyboard, its own editing keys are its own: Ctrl+A selects
    // the field's text, not every key of the graph (issue 44). A focused slider or button
    // keeps them for the editor (Ctrl+Z undoes a slider step).
    let text_edit = |s: &egui::KeyboardShortcut| {
        s.modifiers.command && matches!(s.logical_key, egui::Key::A | egui::Key::C | egui::Key::V | egui::Key::X | egui::Key::Z | egui::Key::Y)
    };
    let in_text = ctx.text_edit_focused();
    for &(command, s) in shortcuts_in_matching_order() {
        if typing && command.is_plain_key() || in_text && text_edit(&s) {
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
        } else if crate::import::import_kind(&path).is_some() {
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
pub fn run_command(ctx: &egui::Context, state: &mut AppState, command: AppCommand) -> bool {
    let changed = match command {
        AppCommand::Ui(c) => {
            run_ui_command(ctx, state, c);
            true
        }
        AppCommand::Gesture(g) => gesture(ctx, state, g),
        AppCommand::Edit(e) => edit(state, e),
        AppCommand::SetHandleSides(sides) => set_handle_types(ctx, state, sides),
        AppCommand::InsertKey { track, t } => {
            end_gesture(state);
            state.doc.active_track = Some(track);
            let s = state.doc.insert_key(track, t);
            state.set_status(s);
            true
        }
        AppCommand::Select(selection) => replace(&mut *state.doc.selection, selection),
        AppCommand::ToggleSelected(k) => state.doc.selection.remove(&k) || state.doc.selection.insert(k),
        AppCommand::AddToSelection(keys) => {
            state.doc.selection.extend(keys);
            true
        }
        AppCommand::SetActiveTrack(t) => t < state.project().tracks.len() && replace(&mut state.doc.active_track, Some(t)),
        AppCommand::SetProblems(found) => replace(&mut state.ui.problems, found),
        AppCommand::SelectJoints(joints) => state.select_joints(joints),
        AppCommand::SetView(view) => {
            if (view.normalize, view.stacked) != (state.view.normalize, state.view.stacked) {
                state.ui.requests.push(PanelRequest::FrameAll);
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
        AppCommand::Restore { take, origin } => restore(state, *take, origin),
        AppCommand::ImportPath(path) => {
            state.ui.windows.open(Window::Import);
            state.ui.requests.push(PanelRequest::Import(Some(path)));
            true
        }
        AppCommand::Imported { imported, mode } => import(state, *imported, mode),
        AppCommand::CloseWindow(w) => state.ui.windows.close(w),
        AppCommand::Finished(f) => finished(ctx, state, f),
        AppCommand::SaveTo(path) => save_to(state, path),
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
        AppCommand::ToolPreview(tool, made) => state.ui.previews.set(tool, made),
        AppCommand::ToolApply(made) => tool_commands::apply_tool(state, &made),
        AppCommand::Blend(c) => tool_commands::blend(state, c),
        AppCommand::RuntimePlayed(made) => made.take().is_some_and(|made| runtime_played(state, made)),
        AppCommand::SetExportSettings(settings) => {
            // Saved with the project: the document is unsaved, but nothing is undone.
            state.doc.set_export_settings(&settings);
            state.ui.runtime_preview.settings = *settings;
            true
        }
    };
    state.follow_range();
    changed
}

/// Save to a typed path (the Save as window; `.ron` added if it has no extension).
fn save_to(state: &mut AppState, mut path: PathBuf) -> bool {
    if path.extension().is_none() {
        path.set_extension("ron");
    }
    if state.save_to(&path) {
        state.ui.show_save_path = false;
    }
    true
}

/// Recovered work (the recovery offer): the document's tracks replaced, one undo step.
fn restore(state: &mut AppState, take: super::compiled_track::CompiledTake, origin: Option<PathBuf>) -> bool {
    end_gesture(state);
    let s = state.doc.restore(take, origin);
    state.set_status(s);
    true
}

/// View > Preview runtime's worker played the export: put in place if it is current.
fn runtime_played(state: &mut AppState, made: super::runtime_preview::RuntimeMade) -> bool {
    if let Some(status) = state.ui.runtime_preview.install(made, state.doc.basis()) {
        state.set_status(status);
    }
    true
}

/// A finished import: opened as a new project (asking first about unsaved changes) or its
/// tracks added as one undo step.
fn import(state: &mut AppState, imported: super::files::ImportResult, mode: super::files::ImportMode) -> bool {
    end_gesture(state);
    let (summary, from, take) = (imported.report.summary(), PathBuf::from(&imported.report.path), imported.take);
    match mode {
        super::files::ImportMode::NewProject => state.confirm_or_run(AfterDiscard::Imported(Box::new(take), summary, from)),
        super::files::ImportMode::AddTracks => {
            let s = state.doc.add_imported(take, &summary);
            state.set_status(s);
        }
    }
    true
}

/// A View toggle flipped: its view setting, or its window opened or closed
/// (`Command::toggle`).
fn flip(state: &mut AppState, c: Command) {
    match c.toggle() {
        Some(Toggle::View(flag)) => {
            let on = flag(&mut state.view);
            *on = !*on;
        }
        Some(Toggle::Window(w)) => state.ui.windows.toggle(w),
        None => {}
    }
}

/// View > Preview runtime ▸: on for `runtime`, or off.
fn preview_runtime(state: &mut AppState, runtime: Option<crate::runtime::Runtime>) {
    state.ui.runtime_preview.set_runtime(runtime);
    let text = match runtime {
        Some(r) => format!("Preview runtime: the export as {r} plays it, drawn as a ghost; each track's distance in the track list"),
        None => "Preview runtime off".to_owned(),
    };
    state.set_status(Status::message(text));
}

/// Sets `slot` to `value`; returns whether that changed it.
fn replace<T: PartialEq>(slot: &mut T, value: T) -> bool {
    if *slot == value {
        return false;
    }
    *slot = value;
    true
}

/// Closes an open gesture before an edit of its own; the rest of that gesture is dropped.
pub(super) fn end_gesture(state: &mut AppState) {
    state.end_gesture();
}

/// A step of a gesture joins the open one, or opens one (a panel that missed its drag's start
/// still makes one step of it). False: its gesture was ended meanwhile (Delete or Undo during
/// a drag), and the step, computed before, is dropped.
fn join_gesture(state: &mut AppState, label: &str) -> bool {
    if !state.doc.document.in_gesture() {
        if state.ui.gesture_interrupted {
            return false;
        }
        state.doc.document.begin_gesture(label);
    }
    true
}

/// Applies an edit command, an undo step of its own; returns whether the project changed.
fn edit(state: &mut AppState, e: EditCommand) -> bool {
    end_gesture(state);
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

fn run_ui_command(ctx: &egui::Context, state: &mut AppState, command: Command) {
    match command {
        Command::New => state.confirm_or_run(AfterDiscard::New),
        Command::Open => state.confirm_or_run(AfterDiscard::Open(None)),
        Command::OpenPath => state.ui.show_open_path = true,
        Command::Save => _ = save_interactive(state),
        Command::SaveAs => _ = save_as_interactive(state),
        Command::Export => state.ui.windows.open(Window::Export),
        Command::Tool(tool) => state.ui.windows.open(Window::Tool(tool)),
        Command::Import => {
            state.ui.windows.open(Window::Import);
            state.ui.requests.push(PanelRequest::Import(None));
        }
        Command::Quit => state.confirm_or_run(AfterDiscard::Quit),
        Command::Undo | Command::Redo => {
            end_gesture(state);
            let s = if command == Command::Undo { state.doc.undo() } else { state.doc.redo() };
            state.set_status(s);
        }
        Command::SelectAll => state.doc.select_all(),
        Command::DeselectAll => state.doc.selection.clear(),
        Command::DeleteKeys => {
            end_gesture(state);
            delete_keys(ctx, state);
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
        Command::Blend(tool) => tool_commands::open_blend(state, tool),
        Command::ClearGhost => state.ui.ghost = None,
        Command::PreviewRuntime(runtime) => preview_runtime(state, runtime),
        Command::EulerFilter => euler_filter(ctx, state),
        Command::FixJumps => {
            end_gesture(state);
            match planner::plan_fix_jumps(&state.doc) {
                Ok(plan) => _ = carry_out(ctx, state, plan, "Fix jumps", true),
                Err(s) => state.set_status(s),
            }
        }
        Command::SetHandleType(kind) => _ = set_handle_types(ctx, state, HandleSides::both(kind)),
        Command::HandleTypeMenu => segment_commands::open_menu(state, Window::HandleTypeMenu, "Handle type"),
        Command::InterpolationMenu => segment_commands::open_menu(state, Window::InterpolationMenu, "Interpolation mode"),
        Command::EasingMenu => segment_commands::open_menu(state, Window::EasingMenu, "Easing"),
        Command::SetKeyInterpolation(mode) => segment_commands::set_interpolation(ctx, state, mode, gesture),
        Command::SetEasing(easing) => segment_commands::set_easing(ctx, state, easing, gesture),
        Command::FrameAll => state.ui.requests.push(PanelRequest::FrameAll),
        Command::FrameSelected => state.ui.requests.push(PanelRequest::FrameSelected),
        c @ (Command::ToggleNormalize | Command::ToggleStacked) => {
            flip(state, c);
            // Another layout of the values: fit it.
            state.ui.requests.push(PanelRequest::FrameAll);
        }
        c @ (Command::ToggleFrameAxis
        | Command::ToggleDockTools
        | Command::ToggleTangents
        | Command::ToggleSpeedGraph
        | Command::ToggleAllCurves
        | Command::ToggleSnap
        | Command::ToggleFrameStats
        | Command::ToggleProblems) => flip(state, c),
        Command::PlayPause => state.ui.transport.toggle_play(),
        Command::StepFrame => {
            let fps = state.project().fps;
            state.ui.playhead = state.ui.transport.step(fps);
        }
    }
}

// A change of keys, as the planner plans it, and the commands that wait for it.

/// Whether `command` waits for a change being made on a worker: everything that reads or
/// changes the document or the selection does; what only moves the view, the playhead or the
/// status, or closes a window, does not.
#[must_use]
pub fn waits_for_change(command: &AppCommand) -> bool {
    match command {
        AppCommand::SetView(_)
        | AppCommand::Transport(_)
        | AppCommand::Status(_)
        | AppCommand::ToolPreview(..)
        | AppCommand::CloseOpenPath
        | AppCommand::CloseSavePath
        | AppCommand::CancelFileJob
        | AppCommand::CloseWindow(_)
        | AppCommand::Finished(_)
        | AppCommand::RuntimePlayed(_)
        | AppCommand::SetExportSettings(_)
        | AppCommand::SetProblems(_) => false,
        AppCommand::Ui(_)
        | AppCommand::Gesture(_)
        | AppCommand::Edit(_)
        | AppCommand::SetHandleSides(_)
        | AppCommand::InsertKey { .. }
        | AppCommand::ToolApply(_)
        | AppCommand::Blend(_)
        | AppCommand::Select(_)
        | AppCommand::ToggleSelected(_)
        | AppCommand::AddToSelection(_)
        | AppCommand::SetActiveTrack(_)
        | AppCommand::SelectJoints(_)
        | AppCommand::Open(_)
        | AppCommand::Restore { .. }
        | AppCommand::ImportPath(_)
        | AppCommand::Imported { .. }
        | AppCommand::SaveTo(_)
        | AppCommand::Decide(_)
        | AppCommand::Overwrite(_) => true,
    }
}

/// Runs `command`, or keeps it for later if it has to wait for a change of many keys being
/// made on a worker. Returns whether anything on screen changed.
pub fn run_or_defer(ctx: &egui::Context, state: &mut AppState, command: AppCommand) -> bool {
    if state.ui.key_queue.is_busy() && waits_for_change(&command) {
        state.ui.key_queue.defer(command);
        return false;
    }
    run_command(ctx, state, command)
}

/// The results of the jobs the UI state holds (the change of keys on a worker, a big open or
/// save), come back as commands for [`run_command`] (the panels' own jobs send theirs as
/// commands too: a tool's preview and result, an import, an export's status, a restore).
pub fn finished_jobs(state: &mut AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    if let Some(done) = finished_file(state) {
        out.push(AppCommand::Finished(Finished::File(Handoff::new(done))));
    }
    if let Some((KeyJob { own_step, job, describe, .. }, made)) = state.ui.key_queue.finished() {
        // A worker that ended without its keys (a panic) changes nothing, and says so.
        let (keys, status) = match made {
            Some(keys) => {
                let status = describe.map(|d| Status::message(d(&keys)));
                (keys, status)
            }
            None => (Vec::new(), Some(Status::error(format!("{}: the worker stopped without a result; nothing changed", job.label())))),
        };
        let made = MadeKeys { label: job.label().to_owned(), own_step, made_for: job.basis(), keys, status };
        out.push(AppCommand::Finished(Finished::Keys(Handoff::new(made))));
    }
    if let Some(made) = state.ui.runtime_preview.finished() {
        out.push(AppCommand::RuntimePlayed(Handoff::new(made)));
    }
    out
}

/// A job's result: applied if what it was made for holds.
fn finished(ctx: &egui::Context, state: &mut AppState, f: Finished) -> bool {
    match f {
        Finished::Keys(made) => made.take().is_some_and(|made| install_keys(ctx, state, made)),
        Finished::File(done) => done.take().map(|done| state.file_done(done)).is_some(),
    }
}

/// Puts a change the worker made in place, if the document it was made from is still as it
/// was (`AppState::current`), then runs the commands that waited for it, until one starts
/// another change on the worker. Returns whether anything changed.
fn install_keys(ctx: &egui::Context, state: &mut AppState, made: MadeKeys) -> bool {
    let MadeKeys { label, own_step, made_for, keys, status } = made;
    if made_for.is_some_and(|b| state.current(&b, Needs::Everything, &label)) {
        if own_step {
            state.doc.document.begin_gesture(&label);
        }
        let result = state.doc.install_key_changes(&label, keys);
        if own_step {
            state.doc.document.end_gesture();
        }
        match (result, status) {
            (Err(s), _) => state.set_status(s),
            (Ok(()), Some(status)) => state.set_status(status),
            (Ok(()), None) => {}
        }
    }
    while let Some(command) = state.ui.key_queue.next_deferred() {
        run_command(ctx, state, command);
    }
    state.follow_range();
    true
}

/// A step of a gesture — the one route of every drag and widget edit to the document: the
/// undo step opened when its drag begins, its change made as the planner plans it (at once,
/// or on a worker), the step closed when the drag ends (once the change is in place). A step
/// that is no drag is an undo step of its own. Returns whether anything changed on screen.
fn gesture(ctx: &egui::Context, state: &mut AppState, g: Gesture) -> bool {
    let Gesture { label, phase, change } = g;
    match phase {
        Phase::Begin => {
            state.doc.document.begin_gesture(&label);
            state.ui.gesture_interrupted = false;
        }
        Phase::Once => end_gesture(state),
        Phase::Change | Phase::End => {}
    }
    let own_step = phase == Phase::Once;
    let mut changed = false;
    if let Some(change) = change {
        if own_step || join_gesture(state, &label) {
            let plan = planner::plan_change(&state.doc, &label, change, own_step, state.ui.key_queue.background_keys);
            changed = carry_out(ctx, state, plan, &label, own_step);
        }
    }
    if phase == Phase::End {
        if state.ui.key_queue.running.is_some() {
            // Its last change is being made on a worker: the step closes once that is in place.
            state.ui.key_queue.defer_next(AppCommand::Gesture(Gesture { label, phase, change: None }));
            return true;
        }
        state.doc.document.end_gesture();
        state.ui.gesture_interrupted = false;
        changed = true;
    }
    changed
}

/// Edit > Euler filter: at once, or on a worker (one undo step either way), or what the status
/// bar says when no Euler track is selected.
fn euler_filter(ctx: &egui::Context, state: &mut AppState) {
    end_gesture(state);
    match planner::plan_euler_filter(&state.doc, state.ui.key_queue.background_keys) {
        Ok(plan) => _ = carry_out(ctx, state, plan, "Euler filter", true),
        Err(s) => state.set_status(s),
    }
}

/// Delete: at once, or on a worker (one undo step either way).
fn delete_keys(ctx: &egui::Context, state: &mut AppState) {
    match planner::plan_delete(&state.doc, state.ui.key_queue.background_keys) {
        Plan::Document => {
            if let Some(s) = state.doc.delete_selected() {
                state.set_status(s);
            }
        }
        plan => _ = carry_out(ctx, state, plan, "Delete keys", true),
    }
}

/// `Key > Handle type` of every selected key. Ends an open gesture first (a handle type is a
/// step of its own); returns `true` (the status changes).
fn set_handle_types(ctx: &egui::Context, state: &mut AppState, sides: HandleSides) -> bool {
    end_gesture(state);
    match planner::plan_handle_types(&state.doc, sides, state.ui.key_queue.background_keys) {
        Plan::Document => {
            let s = state.doc.set_handle_types(sides);
            state.set_status(s);
        }
        plan => _ = carry_out(ctx, state, plan, "Set handle type", true),
    }
    true
}

/// Carries out `plan` (a change labelled `label`, an undo step of its own if `own_step`, else
/// part of the open gesture): applies its edits now, or starts its work on a worker from the
/// project as it is, made for the document's basis now. Returns whether anything changed on
/// screen.
fn carry_out(ctx: &egui::Context, state: &mut AppState, plan: Plan, label: &str, own_step: bool) -> bool {
    match plan {
        Plan::Edits { local, wide, message } => {
            let status = state.ui.status.clone();
            if let Some(m) = message {
                state.set_status(Status::message(m));
            }
            if own_step {
                state.doc.document.begin_gesture(label);
            }
            let wide: Vec<_> = wide.into_iter().filter(|k| !is_noop(state.project(), &k.edit)).collect();
            let changed = !local.is_empty() || !wide.is_empty();
            // The local splices each recompiled where they reach, the others together on every core.
            let result = state.doc.apply_local_splices(label, local).and(state.doc.apply_key_edits(label, wide));
            if own_step {
                state.doc.document.end_gesture();
            }
            if let Err(s) = result {
                state.set_status(s);
            }
            changed || state.ui.status != status
        }
        Plan::Document => false,
        Plan::Worker(w) => {
            let project = state.doc.document.shared_project();
            let work = w.work;
            let job = Job::spawn(w.label, Some(ctx), move |_| {
                let made = work(&project);
                // Let go of the project before the result is taken: the document then changes
                // it in place instead of copying it.
                drop(project);
                Some(made)
            });
            state.ui.key_queue.start(KeyJob { own_step: w.own_step, keys: w.keys, job: job.made_for(state.doc.basis()), describe: w.describe });
            true
        }
    }
}
