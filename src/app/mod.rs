//! The editor window. App state (`state.rs`) is kept apart from drawing; each panel is its
//! own file with one `ui` function that reads the state and records what the user asked for.

mod graph;
mod menu;
mod state;
mod status;
mod style;
#[cfg(test)]
mod tests;
mod tracks;

use std::path::PathBuf;

use anyhow::anyhow;
use eframe::egui;
pub use state::AppState;
use tangent::io::{demo_project, load_project};

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
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 400.0])
            .with_title(state.title()),
        ..Default::default()
    };
    eframe::run_native(
        "Tangent",
        options,
        Box::new(move |_cc| Ok(Box::new(TangentApp { state }))),
    )
    .map_err(|e| anyhow!("could not open a window: {e}"))
}

/// The eframe application: state plus the panels that draw it.
pub struct TangentApp {
    pub state: AppState,
}

impl TangentApp {
    /// Draws every panel (separate from `eframe::App` so tests can drive it headless).
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let state = &mut self.state;
        egui::Panel::top("menu").show(ui, |ui| menu::ui(ui, state));
        egui::Panel::bottom("status").show(ui, |ui| status::ui(ui, state));
        egui::Panel::left("tracks")
            .default_size(220.0)
            .show(ui, |ui| tracks::ui(ui, state));
        egui::CentralPanel::default().show(ui, |ui| graph::ui(ui, state));
        state.apply_pending(ui.ctx());
    }
}

impl eframe::App for TangentApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        TangentApp::ui(self, ui);
    }
}
