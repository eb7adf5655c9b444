//! File > Import… (Ctrl+I, or drop a `.glb`, `.gltf`, `.json` or `.csv` on the window): the
//! file (native dialog or typed path), whether it becomes a new project or its tracks are
//! added to the open one (one undo step), and which animation of several. The import
//! ([`crate::import::import_path_with_progress`]) runs on a worker thread with a progress bar
//! and Cancel; the open document is untouched until it has succeeded, and the window then
//! shows the report (one line per track, the warnings).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use eframe::egui;

use super::commands::AppCommand;
use super::{Panel, PanelContext};
use crate::import::{import_path_with_progress, ImportError, ImportOptions, ImportReport};

/// How the imported tracks arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportMode {
    /// A new, untitled project (asks first about unsaved changes).
    NewProject,
    /// Added to the open project as one undo step (names made unique).
    AddTracks,
}

struct Running {
    done: Arc<AtomicUsize>,
    total: Arc<AtomicUsize>,
    cancel: Arc<AtomicBool>,
    result: mpsc::Receiver<Result<ImportResult, ImportError>>,
}

/// A finished import, its tracks compiled on the worker
/// ([`super::state::CompiledTake`]: the UI thread only puts them in place).
#[derive(Clone, Debug, PartialEq)]
pub struct ImportResult {
    pub report: ImportReport,
    pub take: super::state::CompiledTake,
}

pub struct ImportWindow {
    pub open: bool,
    pub path: String,
    pub mode: ImportMode,
    pub animation: String,
    /// The last import's report, shown until the next one.
    pub report: Option<String>,
    running: Option<Running>,
}

impl Default for ImportWindow {
    fn default() -> Self {
        Self { open: false, path: String::new(), mode: ImportMode::NewProject, animation: String::new(), report: None, running: None }
    }
}

/// The extensions import reads.
pub const EXTENSIONS: [&str; 4] = ["glb", "gltf", "json", "csv"];

impl ImportWindow {
    /// Opens the window on `path` (a dropped file, or one picked in the dialog).
    pub fn show_path(&mut self, path: PathBuf) {
        self.path = path.display().to_string();
        self.open = true;
        self.report = None;
    }

    fn start(&mut self, ctx: &egui::Context) {
        let (done, total, cancel) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)), Arc::new(AtomicBool::new(false)));
        let (tx, rx) = mpsc::channel();
        let path = PathBuf::from(self.path.trim());
        let animation = Some(self.animation.trim().to_owned()).filter(|a| !a.is_empty());
        let (d, t, c, ctx) = (done.clone(), total.clone(), cancel.clone(), ctx.clone());
        std::thread::spawn(move || {
            let result = import_path_with_progress(&path, &ImportOptions { animation, format: None }, &|n, of| {
                d.store(n, Ordering::Relaxed);
                t.store(of, Ordering::Relaxed);
                ctx.request_repaint();
                !c.load(Ordering::Relaxed)
            })
            .map(|imported| ImportResult { take: super::state::CompiledTake::new(imported.project), report: imported.report });
            let _ = tx.send(result);
            ctx.request_repaint();
        });
        self.running = Some(Running { done, total, cancel, result: rx });
        self.report = None;
    }

    /// A finished import becomes a command; an error stays in the window.
    fn poll(&mut self, out: &mut Vec<AppCommand>) {
        let Some(r) = &self.running else { return };
        let Ok(result) = r.result.try_recv() else { return };
        self.running = None;
        match result {
            Ok(imported) => {
                self.report = Some(imported.report.to_string());
                out.push(AppCommand::Imported { imported: Box::new(imported), mode: self.mode });
            }
            Err(e) => self.report = Some(format!("Import failed: {e}")),
        }
    }
}

impl Panel for ImportWindow {
    fn ui(&mut self, ui: &mut egui::Ui, _cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        self.poll(out);
        if !self.open {
            return;
        }
        let ctx = ui.ctx().clone();
        let mut open = true;
        egui::Window::new("Import animation").open(&mut open).collapsible(false).resizable(true).default_width(520.0).show(&ctx, |ui| {
            ui.label("glTF (.gltf, .glb), a three.js clip (.json) or CSV: values and tangents as they are in the file.");
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut self.path).hint_text("file to import").desired_width(360.0)).accessible_name("import path");
                if ui.button("Browse…").on_hover_text("Choose the file with the system's dialog").clicked() {
                    if let Some(p) = rfd::FileDialog::new().add_filter("Animation", &EXTENSIONS).pick_file() {
                        self.path = p.display().to_string();
                    }
                }
            });
            ui.horizontal(|ui| {
                ui.radio_value(&mut self.mode, ImportMode::NewProject, "as a new project")
                    .on_hover_text("Replace the open project (asks first about unsaved changes)");
                ui.radio_value(&mut self.mode, ImportMode::AddTracks, "add to this project")
                    .on_hover_text("Add the tracks to the open project, as one undo step");
            });
            ui.horizontal(|ui| {
                ui.label("animation");
                ui.add(egui::TextEdit::singleline(&mut self.animation).hint_text("all").desired_width(200.0))
                    .on_hover_text("Of several animations or clips, import only this one (then without the NAME/ prefix)")
                    .accessible_name("import animation");
            });
            match &self.running {
                Some(r) => {
                    let (done, total) = (r.done.load(Ordering::Relaxed), r.total.load(Ordering::Relaxed).max(1));
                    ui.horizontal(|ui| {
                        ui.add(egui::ProgressBar::new(done as f32 / total as f32).show_percentage().desired_width(300.0));
                        if ui.button("Cancel").clicked() {
                            r.cancel.store(true, Ordering::Relaxed);
                        }
                    });
                }
                None => {
                    let ready = !self.path.trim().is_empty();
                    if ui.add_enabled(ready, egui::Button::new("Import")).on_hover_text("Read the file (the open project is untouched if it fails)").clicked() {
                        self.start(&ctx);
                    }
                }
            }
            if let Some(report) = &self.report {
                ui.separator();
                egui::ScrollArea::vertical().max_height(220.0).show(ui, |ui| {
                    ui.add(egui::Label::new(egui::RichText::new(report).monospace()).wrap());
                });
            }
        });
        if !open {
            self.open = false;
            if let Some(r) = &self.running {
                r.cancel.store(true, Ordering::Relaxed);
            }
        }
    }
}
