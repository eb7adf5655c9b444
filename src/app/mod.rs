//! The editor window. App state (`state.rs`) is kept apart from drawing; each panel is its
//! own file with one `ui` function that reads the state and changes the document only
//! through undoable edits; every command (menu or shortcut) goes through `commands.rs`.

mod commands;
mod dialogs;
mod export_window;
mod graph;
mod inspector;
mod menu;
mod path_view;
mod rotation_view;
mod speed;
mod state;
mod status;
mod style;
#[cfg(test)]
mod tests;
mod tracks;
mod transport;

use std::path::PathBuf;

use anyhow::anyhow;
use eframe::egui;
#[allow(unused_imports)] // CentralView is for the UI benchmark, which includes this module.
pub use state::{AppState, CentralView};
use tangent::io::{demo_project, load_project};

use commands::Command;
use state::AfterDiscard;

/// Opens the editor on `file`, or on the demo project.
pub fn run(file: Option<PathBuf>) -> anyhow::Result<()> {
    let state = match file {
        Some(path) => {
            let project = load_project(&path)?;
            AppState::new(project, Some(path))
        }
        None => AppState::new(demo_project(), None),
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1360.0, 860.0])
            .with_min_inner_size([720.0, 480.0])
            .with_title(state.title())
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native(
        "Tangent",
        options,
        Box::new(move |cc| {
            let mut app = TangentApp::new(state);
            if let Some(storage) = cc.storage {
                if let Some(view) = eframe::get_value(storage, eframe::APP_KEY) {
                    app.state.view = view;
                }
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow!("could not open a window: {e}"))
}

/// The eframe application: state plus the panels that draw it.
pub struct TangentApp {
    pub state: AppState,
    title: String,
}

impl TangentApp {
    pub fn new(state: AppState) -> Self {
        Self { state, title: String::new() }
    }

    /// One frame: input, panels, dialogs, then the commands they queued. Separate from
    /// `eframe::App` so tests and benchmarks drive it headless.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let state = &mut self.state;
        handle_input(&ctx, state);
        if let Some(t) = state.transport.tick(f64::from(ctx.input(|i| i.stable_dt))) {
            state.playhead = t;
        }
        if state.transport.playing {
            ctx.request_repaint();
        }
        egui::Panel::top("menu").show(ui, |ui| menu::ui(ui, state));
        egui::Panel::bottom("status").show(ui, |ui| status::ui(ui, state));
        egui::Panel::bottom("transport").show(ui, |ui| transport::ui(ui, state));
        // Fixed widths: a selection filling the inspector must not move the graph under the pointer.
        egui::Panel::left("tracks").exact_size(280.0).show(ui, |ui| tracks::ui(ui, state));
        egui::Panel::right("inspector").exact_size(300.0).show(ui, |ui| inspector::ui(ui, state));
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                use state::CentralView as V;
                for (v, name, tip) in [
                    (V::Graph, "Graph", "Values against time, with tangents and the speed graph"),
                    (V::Path, "Path", "A Vec2/Vec3 path in space, with the constant-speed preview"),
                    (V::Rotation, "Rotation", "A Quat track's orientation and angular speed"),
                ] {
                    ui.selectable_value(&mut state.view.central, v, name).on_hover_text(tip);
                }
            });
            match state.view.central {
                state::CentralView::Graph => {
                    let h = ui.available_height();
                    let value_height = if state.view.show_speed { (h * 0.66).max(120.0) } else { h };
                    graph::ui(ui, state, value_height);
                    if state.view.show_speed {
                        speed::ui(ui, state);
                    }
                }
                state::CentralView::Path => path_view::ui(ui, state),
                state::CentralView::Rotation => rotation_view::ui(ui, state),
            }
        });
        dialogs::ui(&ctx, state);
        export_window::ui(&ctx, state);
        for command in state.take_pending() {
            run_command(&ctx, state, command);
        }
        if let Some(after) = state.pending_after.take() {
            state.run_after_discard(&ctx, after);
        }
        state.end_frame(&ctx);
        let title = state.title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }
}

impl eframe::App for TangentApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        TangentApp::ui(self, ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.state.view);
    }
}

/// Shortcuts, files dropped on the window, and the window's close button.
fn handle_input(ctx: &egui::Context, state: &mut AppState) {
    let typing = ctx.egui_wants_keyboard_input();
    let all = Command::FILE.into_iter().chain(Command::EDIT).chain(Command::VIEW).chain(Command::PLAY);
    for command in all {
        if typing && command.is_plain_key() {
            continue;
        }
        let shortcuts = command.shortcut().into_iter().chain(command.alternative_shortcuts());
        for s in shortcuts {
            if ctx.input_mut(|i| i.consume_shortcut(&s)) {
                state.request(command);
            }
        }
    }
    let dropped: Vec<PathBuf> = ctx.input(|i| i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).collect());
    if let Some(path) = dropped.into_iter().find(|p| p.extension().is_some_and(|e| e == "ron")) {
        state.confirm_or_run(AfterDiscard::Open(Some(path)));
    }
    if ctx.input(|i| i.viewport().close_requested()) && state.doc.is_dirty() && !state.quit_confirmed {
        ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
        state.confirm_discard = Some(AfterDiscard::Quit);
    }
}

fn run_command(ctx: &egui::Context, state: &mut AppState, command: Command) {
    match command {
        Command::New => state.confirm_or_run(AfterDiscard::New),
        Command::Open => state.confirm_or_run(AfterDiscard::Open(None)),
        Command::OpenPath => state.show_open_path = true,
        Command::Save => {
            state.save_interactive();
        }
        Command::SaveAs => {
            state.save_as_interactive();
        }
        Command::Export => state.export.open = true,
        Command::Quit => state.confirm_or_run(AfterDiscard::Quit),
        Command::Undo => state.undo(),
        Command::Redo => state.redo(),
        Command::SelectAll => state.select_all(),
        Command::DeselectAll => state.selection.clear(),
        Command::DeleteKeys => state.delete_selected(ctx),
        Command::Copy => state.copy(),
        Command::Paste => state.paste(ctx),
        Command::InsertKey => match state.active_track {
            Some(t) => state.insert_key(ctx, t, state.playhead),
            None => state.set_message("Insert key: click a track first"),
        },
        Command::FrameAll => state.frame_all = true,
        Command::FrameSelected => state.frame_selected = true,
        Command::ToggleNormalize => {
            state.view.normalize = !state.view.normalize;
            state.frame_all = true;
        }
        Command::ToggleTangents => state.view.show_tangents = !state.view.show_tangents,
        Command::ToggleSpeedGraph => state.view.show_speed = !state.view.show_speed,
        Command::ToggleSnap => state.view.snap = !state.view.snap,
        Command::PlayPause => state.transport.toggle_play(),
        Command::StepFrame => {
            let fps = state.project().fps;
            state.playhead = state.transport.step(fps);
        }
    }
}
