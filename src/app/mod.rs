//! The editor window (the `gui` feature), in layers that import only downward:
//!
//! ```text
//! mod.rs (TangentApp, Panels)     the window: panels, then the dispatcher, once a frame
//! panels (one file each)          read a PanelContext, push AppCommands   panel.rs
//! tool_window.rs tools/           the one frame of every tool; the table of tools, a file each
//! dispatch.rs                     runs commands, owns deferral, applies results if current
//! tool_commands.rs             a tool's Apply, Insert/Remove time, blend sliders
//! file_commands.rs planner.rs     open/save; where a change of keys is made
//! state.rs                        AppState = DocState + ViewSettings + UiState
//! file_job.rs key_queue.rs jobs.rs   work off the UI thread: one Job type
//! commands.rs                     AppCommand, Command (menus, shortcuts, tooltips)
//! tool.rs                         the Tool trait, the one result shape, previews
//! document/                       DocState: edits, undo, selection, per-track caches
//! basis.rs message.rs compiled_track.rs key_change.rs windows.rs files.rs finished.rs
//!   what commands carry, each named for what it holds; settings.rs key_ranges.rs
//!   playback.rs style.rs units.rs   plain data, no egui state
//! ```
//!
//! Menus, shortcuts, drags and tests all change the document through one door: commands.
//! `tools/check_cycles.py` fails on an import cycle among these files.

mod basis;
mod blend_window;
mod body;
mod command_text;
mod commands;
mod compiled_track;
mod dialogs;
mod dispatch;
mod document;
mod dope_rows;
mod dope_sheet;
mod export_window;
mod file_commands;
mod file_job;
mod files;
mod finished;
mod frame_stats;
mod gesture;
mod graph;
mod import_window;
mod inspector;
mod inspector_handles;
mod inspector_segments;
mod jobs;
mod key_change;
pub mod key_queue;
pub mod key_ranges;
mod menu;
mod message;
mod panel;
mod path_view;
pub mod planner;
mod playback;
mod pointer_menus;
mod pose_draw;
mod pose_view;
mod preview_job;
mod problems_window;
mod recovery;
mod rotation_view;
mod runtime_preview;
mod segment_commands;
mod settings;
mod speed;
mod state;
mod status;
mod style;
mod time_axis;
mod tool;
mod tool_commands;
mod tool_info;
mod tool_window;
mod tools;
mod track_rows;
mod tracks;
mod transport;
mod units;
mod windows;

#[cfg(test)]
mod bezier_tests;
#[cfg(test)]
mod blend_tests;
#[cfg(test)]
mod bvh_tests;
#[cfg(test)]
mod compact_tests;
#[cfg(test)]
mod currency_tests;
#[cfg(test)]
mod dispatch_tests;
#[cfg(test)]
mod dope_tests;
#[cfg(test)]
mod euler_tests;
#[cfg(test)]
mod export_window_tests;
#[cfg(test)]
mod gesture_tests;
#[cfg(test)]
mod graph_view_tests;
#[cfg(test)]
mod key_job_tests;
#[cfg(test)]
mod pose_tests;
#[cfg(test)]
mod problems_tests;
#[cfg(test)]
mod recovery_tests;
#[cfg(test)]
mod runtime_preview_tests;
#[cfg(test)]
mod segment_tests;
#[cfg(test)]
mod selection_tests;
#[cfg(test)]
mod snapshot_tests;
#[cfg(test)]
mod test_steps;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tool_tests;

use std::path::PathBuf;

use anyhow::anyhow;
use eframe::egui;

pub use basis::Basis;
pub use commands::{AppCommand, Command, Decision, EditCommand};
pub use compiled_track::{CompiledTake, CompiledTrack};
pub use document::DocState;
pub use file_commands::Saving;
pub use files::AfterDiscard;
pub use key_change::KeyRef;
pub use message::Status;
pub use panel::{Panel, PanelContext};
pub use playback::{Transport, TransportCommand};
pub use settings::{CentralView, Plane, ViewSettings};
pub use state::{AppState, UiState};
pub use windows::{PanelRequest, Window};

use crate::io::demo_project;

/// Every panel of the window, each with the state only it needs.
#[derive(Default)]
pub struct Panels {
    pub menu: menu::MenuBar,
    pub status: status::StatusBar,
    pub transport: transport::TransportBar,
    pub tracks: tracks::TrackList,
    pub inspector: inspector::Inspector,
    pub graph: graph::Graph,
    pub dope: dope_sheet::DopeSheet,
    pub speed: speed::SpeedGraph,
    pub path: path_view::PathView,
    pub rotation: rotation_view::RotationView,
    pub pose: pose_view::PoseView,
    pub problems: problems_window::ProblemsWindow,
    pub dialogs: dialogs::Dialogs,
    pub export: export_window::ExportWindow,
    pub pointer_menus: pointer_menus::PointerMenus,
    /// One window per row of `tools::TOOLS`.
    pub tools: tools::ToolWindows,
    pub blend: blend_window::BlendWindow,
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
            app.state.ui.frame_stats = frame_stats::FrameStats::from_env();
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

/// The editor's state on start: `file` opened (a big project on a worker thread while the
/// window paints, `file_job.rs`; a file of a kind Tangent imports as an untitled imported
/// project, as File > Import does), or the demo project. A project file's disk stamp is
/// recorded, so Save asks before overwriting it if another program changes it.
pub fn initial_state(file: Option<PathBuf>) -> anyhow::Result<AppState> {
    let Some(path) = file else { return Ok(AppState::new(demo_project(), None)) };
    let importable = crate::import::import_kind(&path).is_some();
    if std::fs::metadata(&path).is_ok_and(|m| m.len() > file_job::BACKGROUND_BYTES) {
        if !importable {
            return Ok(AppState::opening(path));
        }
        // A big file to import: in the Import window, on its worker, once the window is up.
        let mut state = AppState::new(crate::Project::default(), None);
        state.set_status(Status::message(format!("Importing {}…", path.display())));
        state.ui.windows.open(Window::Import);
        state.ui.requests.push(PanelRequest::ImportNow(path));
        return Ok(state);
    }
    Ok(match crate::open::open_any(&path)? {
        crate::open::Opened::Project(project) => {
            let stamp = files::disk_stamp(&path);
            let mut state = AppState::new(project, Some(path));
            state.doc.disk_stamp = stamp;
            state
        }
        crate::open::Opened::Imported(imported) => {
            let summary = imported.report.summary();
            let mut state = AppState::new(imported.project, None);
            state.doc.imported_from = Some(path);
            state.set_status(Status::message(format!("Imported {summary}; File > Save as… to keep it")));
            state
        }
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

    /// Hands the dispatcher's requests to the panels they are for.
    fn take_requests(&mut self) {
        for request in std::mem::take(&mut self.state.ui.requests) {
            match request {
                PanelRequest::FrameAll => {
                    self.panels.graph.frame_all = true;
                    self.panels.pose.frame = true;
                    self.panels.dope.frame = true;
                }
                PanelRequest::FrameGraph => self.panels.graph.frame_all = true,
                PanelRequest::FrameSelected => self.panels.graph.frame_selected = true,
                PanelRequest::Import(path) => self.panels.import.show(path),
                PanelRequest::ImportNow(path) => self.panels.import.import_now(path),
            }
        }
    }

    /// One frame: input, panels and dialogs, then the commands they queued. Separate from
    /// `eframe::App` so tests and benchmarks drive it headless.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let mut out = std::mem::take(&mut self.queue);
        dispatch::handle_input(&ctx, &self.state, &mut out);
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
        // The tools (docked: panels below the centre, laid out before it).
        for tool in &mut p.tools.0 {
            tool.ui(ui, &cx, &mut out);
        }
        p.import.ui(ui, &cx, &mut out);
        p.blend.ui(ui, &cx, &mut out);
        egui::CentralPanel::default().show(ui, |ui| central(ui, p, &cx, &mut out));
        p.dialogs.ui(ui, &cx, &mut out);
        p.export.ui(ui, &cx, &mut out);
        p.pointer_menus.ui(ui, &cx, &mut out);
        p.problems.ui(ui, &cx, &mut out);
        if cx.ui.windows.is_open(Window::FrameStats) {
            let mut open = true;
            frame_stats::window(&ctx, &cx.ui.frame_stats, &mut open);
            if !open {
                out.push(AppCommand::CloseWindow(Window::FrameStats));
            }
        }
        self.recovery.ui(ui, &cx, &mut out);
        // Finished jobs' results first (as commands), then what the panels asked for.
        let mut changed = false;
        for command in dispatch::finished_jobs(&mut self.state).into_iter().chain(out.drain(..)) {
            changed |= dispatch::run_or_defer(&ctx, &mut self.state, command);
        }
        self.take_requests();
        let state = &mut self.state;
        let doc = &state.doc;
        state.ui.runtime_preview.keep_current(doc.basis(), || doc.document.shared_project(), &ctx);
        if changed && !ctx.will_discard() {
            // Panels drew the state from before the commands: draw it again (a pass that is
            // discarded is followed at once by another, which draws it).
            ctx.request_repaint();
        }
        self.queue = out;
        self.recovery.tick(&self.state, std::time::Instant::now(), &ctx);
        if let Some(after) = self.state.ui.pending_after.take() {
            file_commands::run_after_discard(&ctx, &mut self.state, after);
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
            (CentralView::DopeSheet, "Dope sheet", "Every track's keys as marks in rows, grouped by the body's tree: select, box-select and move keys in time"),
            (CentralView::Path, "Path", "A Vec2/Vec3 path in space, with the constant-speed preview"),
            (CentralView::Rotation, "Rotation", "A Quat or Euler track's orientation and angular speed"),
            (CentralView::Pose, "Pose", "The body at the playhead: click a joint to show its tracks, drag to turn, scroll to zoom"),
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
        CentralView::Pose => p.pose.ui(ui, cx, out),
        CentralView::DopeSheet => p.dope.ui(ui, cx, out),
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
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.state.ui.frame_stats.begin(frame.info().cpu_usage);
        TangentApp::ui(self, ui);
        self.state.ui.frame_stats.end(ui.ctx());
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.state.view);
    }
}
