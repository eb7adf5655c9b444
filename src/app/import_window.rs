//! File > Import… (Ctrl+I, or drop a `.glb`, `.gltf`, `.json` or `.csv` on the window): the
//! file (native dialog or typed path), whether it becomes a new project or its tracks are
//! added to the open one (one undo step), and which animation of several. The import
//! ([`crate::import::import_path_with_progress`]) runs on a worker thread with a progress bar
//! and Cancel; the open document is untouched until it has succeeded, and the window then
//! shows the report (one line per track, the warnings).

use std::path::PathBuf;

use eframe::egui;

use super::commands::AppCommand;
use super::compiled_track::CompiledTake;
use super::files::{ImportMode, ImportResult};
use super::jobs::Job;
use super::panel::{Panel, PanelContext};
use super::windows::Window;
use crate::import::{import_path_with_progress, ImportError, ImportOptions};

pub struct ImportWindow {
    pub path: String,
    pub mode: ImportMode,
    pub animation: String,
    /// The last import's report, shown until the next one.
    pub report: Option<String>,
    running: Option<Job<Result<ImportResult, ImportError>>>,
    /// Start importing in the next frame ([`Self::import_now`]).
    start_now: bool,
}

impl Default for ImportWindow {
    fn default() -> Self {
        Self { path: String::new(), mode: ImportMode::NewProject, animation: String::new(), report: None, running: None, start_now: false }
    }
}

/// The extensions import reads, for the file dialog's filter.
fn extensions() -> Vec<&'static str> {
    crate::import::IMPORT_KINDS.iter().map(|k| k.extension).collect()
}

impl ImportWindow {
    /// The window is opened on `path` (a dropped file), or on no file yet: then the system's
    /// dialog asks for one unless a path is typed already (File > Import…).
    pub fn show(&mut self, path: Option<PathBuf>) {
        let path = path.or_else(|| self.path.is_empty().then(|| rfd::FileDialog::new().add_filter("Animation", &extensions()).pick_file()).flatten());
        if let Some(path) = path {
            self.path = path.display().to_string();
            self.report = None;
        }
    }

    /// Imports `path` as a new project as soon as the window draws.
    pub fn import_now(&mut self, path: PathBuf) {
        self.show(Some(path));
        self.mode = ImportMode::NewProject;
        self.start_now = true;
    }

    fn start(&mut self, ctx: &egui::Context) {
        let path = PathBuf::from(self.path.trim());
        let animation = Some(self.animation.trim().to_owned()).filter(|a| !a.is_empty());
        let job = Job::spawn(format!("Importing {}", path.display()), Some(ctx), move |w| {
            let result = import_path_with_progress(&path, &ImportOptions { animation, format: None }, &|n, of| {
                w.progress().advance_of(n, of);
                w.repaint();
                !w.cancelled()
            })
            .map(|imported| ImportResult { take: CompiledTake::new(imported.project), report: imported.report });
            (!w.cancelled()).then_some(result)
        });
        self.running = Some(job);
        self.report = None;
    }

    /// A finished import becomes a command; an error stays in the window.
    fn poll(&mut self, out: &mut Vec<AppCommand>) {
        let Some((_, made)) = Job::finished(&mut self.running) else { return };
        match made {
            Some(Ok(imported)) => {
                self.report = Some(imported.report.to_string());
                out.push(AppCommand::Imported { imported: Box::new(imported), mode: self.mode });
            }
            Some(Err(e)) => self.report = Some(format!("Import failed: {e}")),
            None => self.report = Some("Import cancelled".to_owned()),
        }
    }
}

impl Panel for ImportWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        self.poll(out);
        if !cx.ui.windows.is_open(Window::Import) {
            if let Some(job) = &self.running {
                job.cancel();
            }
            return;
        }
        let ctx = ui.ctx().clone();
        if std::mem::take(&mut self.start_now) && self.running.is_none() {
            self.start(&ctx);
        }
        let mut open = true;
        open &= super::style::tool_window(ui, "Import animation", cx.view.dock_tools, |ui| {
            ui.label(format!("Tangent imports {}: values and tangents as they are in the file.", crate::import::import_kinds_list()));
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut self.path).hint_text("file to import").desired_width(360.0)).accessible_name("import path");
                if ui.button("Browse…").on_hover_text("Choose the file with the system's dialog").clicked() {
                    if let Some(p) = rfd::FileDialog::new().add_filter("Animation", &extensions()).pick_file() {
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
                Some(job) => {
                    let (_, fraction) = job.progress();
                    ui.horizontal(|ui| {
                        ui.add(egui::ProgressBar::new(fraction.unwrap_or(0.0)).show_percentage().desired_width(300.0));
                        if ui.button("Cancel").on_hover_text("Stop reading; the open project stays as it is").clicked() {
                            job.cancel();
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
            out.push(AppCommand::CloseWindow(Window::Import));
        }
    }
}
