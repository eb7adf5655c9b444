//! The editor window (the `gui` feature). State (`state.rs`) is kept apart from drawing: the
//! document side, the persisted view settings and the runtime UI state. Each panel is a type
//! behind the one small [`Panel`] trait: it reads a [`PanelContext`] and pushes
//! [`AppCommand`]s; the app runs the queue once per frame (`run.rs`), so menus, shortcuts,
//! drags and tests all change the document through one door.

#[cfg(test)]
mod bezier_tests;
mod bezier_windows;
mod commands;
#[cfg(test)]
mod currency_tests;
mod dialogs;
mod doc_edits;
mod export_window;
mod files;
mod graph;
mod import_window;
mod inspector;
mod inspector_handles;
#[cfg(test)]
mod key_job_tests;
pub mod key_jobs;
pub mod key_ranges;
mod menu;
mod path_view;
mod playback;
mod recovery;
mod rotation_view;
mod run;
mod selection;
#[cfg(test)]
mod selection_tests;
mod simplify;
#[cfg(test)]
mod snapshot_tests;
mod speed;
mod state;
#[cfg(test)]
mod state_tests;
mod status;
mod style;
#[cfg(test)]
mod tests;
mod tracks;
mod transport;
mod undo_curves;

use std::path::PathBuf;

use anyhow::anyhow;
use eframe::egui;

pub use commands::{AppCommand, Command, Decision, EditCommand};
pub use playback::{Transport, TransportCommand};
pub use state::{AfterDiscard, AppState, CentralView, CompiledTake, DocState, KeyRef, Plane, Status, UiState, ViewSettings};

use crate::io::{demo_project, load_project};

/// What every panel sees: the document side, the view settings and the UI state, read-only.
#[derive(Clone, Copy)]
pub struct PanelContext<'a> {
    pub doc: &'a DocState,
    pub view: &'a ViewSettings,
    pub ui: &'a UiState,
}

impl PanelContext<'_> {
    pub fn project(&self) -> &crate::Project {
        self.doc.project()
    }

    /// Whether track `ti`'s curve and keys are drawn (and can be picked) in the graph: visible,
    /// and in a large document also active or holding selected keys (or all curves asked for).
    pub fn curve_drawn(&self, ti: usize) -> bool {
        let tracks = &self.project().tracks;
        tracks.get(ti).is_some_and(|t| t.visible)
            && (self.view.show_all_curves
                || tracks.len() <= state::LARGE_DOCUMENT_TRACKS
                || self.doc.active_track == Some(ti)
                || self.doc.selection.of_track(ti).next().is_some())
    }

    /// How many visible tracks' curves a large document is not drawing.
    pub fn hidden_curves(&self) -> usize {
        let tracks = &self.project().tracks;
        (0..tracks.len()).filter(|&ti| tracks[ti].visible && !self.curve_drawn(ti)).count()
    }

    pub fn playhead(&self) -> f64 {
        self.ui.playhead
    }

    /// A copy of the view settings with `change` made, as a command (view settings are not
    /// part of the document, so this is no undo step).
    pub fn view_change(&self, change: impl FnOnce(&mut ViewSettings)) -> AppCommand {
        let mut v = self.view.clone();
        change(&mut v);
        AppCommand::SetView(Box::new(v))
    }
}

/// A part of the window: draws from the context, asks for changes through `out`.
pub trait Panel {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>);
}

/// Every panel of the window, each with the state only it needs.
#[derive(Default)]
pub struct Panels {
    pub menu: menu::MenuBar,
    pub status: status::StatusBar,
    pub transport: transport::TransportBar,
    pub tracks: tracks::TrackList,
    pub inspector: inspector::Inspector,
    pub graph: graph::Graph,
    pub speed: speed::SpeedGraph,
    pub path: path_view::PathView,
    pub rotation: rotation_view::RotationView,
    pub dialogs: dialogs::Dialogs,
    pub export: export_window::ExportWindow,
    pub handle_menu: bezier_windows::HandleMenu,
    pub convert: bezier_windows::ConvertWindow,
    pub simplify: simplify::SimplifyWindow,
    pub import: import_window::ImportWindow,
}

/// Opens the editor on `file`, or on the demo project.
pub fn run(file: Option<PathBuf>) -> anyhow::Result<()> {
    let state = initial_state(file)?;
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
            let mut app = TangentApp::with_recovery(state, recovery::default_dir());
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

/// The editor's state on start: `file` opened (a big one on a worker thread while the window
/// paints, `files.rs`), or the demo project.
pub fn initial_state(file: Option<PathBuf>) -> anyhow::Result<AppState> {
    Ok(match file {
        Some(path) if std::fs::metadata(&path).is_ok_and(|m| m.len() > files::BACKGROUND_BYTES) => AppState::opening(path),
        Some(path) => {
            let project = load_project(&path)?;
            AppState::new(project, Some(path))
        }
        None => AppState::new(demo_project(), None),
    })
}

/// The eframe application: state, the panels that draw it, the command queue and autosave.
pub struct TangentApp {
    pub state: AppState,
    pub panels: Panels,
    pub recovery: recovery::Recovery,
    queue: Vec<AppCommand>,
    title: String,
}

impl TangentApp {
    /// Without autosave (tests, benchmarks).
    pub fn new(state: AppState) -> Self {
        Self::with_recovery(state, None)
    }

    /// Autosaving into `dir` (see `recovery.rs`), offering what a crashed editor left there.
    pub fn with_recovery(state: AppState, dir: Option<PathBuf>) -> Self {
        Self { state, panels: Panels::default(), recovery: recovery::Recovery::new(dir), queue: Vec::new(), title: String::new() }
    }

    /// Whether a file is being opened on a worker thread (the document is not there yet).
    pub fn is_loading(&self) -> bool {
        self.state.ui.file_job.as_ref().is_some_and(|j| j.opening)
    }

    /// One frame: input, panels and dialogs, then the commands they queued. Separate from
    /// `eframe::App` so tests and benchmarks drive it headless.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let mut out = std::mem::take(&mut self.queue);
        run::handle_input(&ctx, &self.state, &mut out);
        let state = &mut self.state;
        if let Some(t) = state.ui.transport.tick(f64::from(ctx.input(|i| i.stable_dt))) {
            state.ui.playhead = t;
        }
        if state.ui.transport.playing {
            ctx.request_repaint();
        }
        let cx = PanelContext { doc: &state.doc, view: &state.view, ui: &state.ui };
        let p = &mut self.panels;
        egui::Panel::top("menu").show(ui, |ui| p.menu.ui(ui, &cx, &mut out));
        egui::Panel::bottom("status").show(ui, |ui| p.status.ui(ui, &cx, &mut out));
        egui::Panel::bottom("transport").show(ui, |ui| p.transport.ui(ui, &cx, &mut out));
        // Fixed widths: a selection filling the inspector must not move the graph under the pointer.
        egui::Panel::left("tracks").exact_size(280.0).show(ui, |ui| p.tracks.ui(ui, &cx, &mut out));
        egui::Panel::right("inspector").exact_size(300.0).show(ui, |ui| p.inspector.ui(ui, &cx, &mut out));
        egui::CentralPanel::default().show(ui, |ui| central(ui, p, &cx, &mut out));
        p.dialogs.ui(ui, &cx, &mut out);
        p.export.ui(ui, &cx, &mut out);
        p.handle_menu.ui(ui, &cx, &mut out);
        p.convert.ui(ui, &cx, &mut out);
        p.simplify.ui(ui, &cx, &mut out);
        p.import.ui(ui, &cx, &mut out);
        self.recovery.ui(ui, &cx, &mut out);
        files::progress_window(&ctx, &cx, &mut out);
        let mut changed = self.state.poll_file_job();
        changed |= key_jobs::poll_key_job(&ctx, &mut self.state, &mut self.panels);
        for command in out.drain(..) {
            changed |= key_jobs::run_or_defer(&ctx, &mut self.state, &mut self.panels, command);
        }
        if changed && !ctx.will_discard() {
            // Panels drew the state from before the commands: draw it again (a pass that is
            // discarded is followed at once by another, which draws it).
            ctx.request_repaint();
        }
        self.queue = out;
        self.recovery.tick(&self.state, std::time::Instant::now(), &ctx);
        if let Some(after) = self.state.ui.pending_after.take() {
            run::run_after_discard(&ctx, &mut self.state, after);
        }
        if std::mem::take(&mut self.state.ui.document_replaced) {
            self.panels.graph.frame_all = true;
            ctx.request_repaint();
        }
        let title = self.state.title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }
}

/// The centre: view tabs, then the graph with the speed graph, the path or the rotation view.
fn central(ui: &mut egui::Ui, p: &mut Panels, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
    ui.horizontal(|ui| {
        let mut central = cx.view.central;
        for (v, name, tip) in [
            (CentralView::Graph, "Graph", "Values against time, with tangents and the speed graph"),
            (CentralView::Path, "Path", "A Vec2/Vec3 path in space, with the constant-speed preview"),
            (CentralView::Rotation, "Rotation", "A Quat track's orientation and angular speed"),
        ] {
            ui.selectable_value(&mut central, v, name).on_hover_text(tip);
        }
        if central != cx.view.central {
            out.push(cx.view_change(|v| v.central = central));
        }
    });
    match cx.view.central {
        CentralView::Graph => {
            let h = ui.available_height();
            p.graph.height = if cx.view.show_speed { (h * 0.66).max(120.0) } else { h };
            p.graph.ui(ui, cx, out);
            if cx.view.show_speed {
                p.speed.ui(ui, cx, out);
            }
        }
        CentralView::Path => p.path.ui(ui, cx, out),
        CentralView::Rotation => p.rotation.ui(ui, cx, out),
    }
}

impl Drop for TangentApp {
    /// A clean quit removes this editor's recovery copy; a panic keeps it for the next start.
    fn drop(&mut self) {
        if !std::thread::panicking() {
            self.recovery.on_exit(&self.state);
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
