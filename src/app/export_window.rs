//! File > Export…: format, where each track goes, fixed or adaptive baking, constant speed,
//! and the output path; the export runs on a background thread with a progress bar and can
//! be cancelled. The file is written atomically, so a cancelled or failed export leaves none.

use std::path::PathBuf;

use eframe::egui;

use super::commands::AppCommand;
use super::jobs::Job;
use super::panel::{Panel, PanelContext};
use super::payload::{Status, Window};
use crate::bake::{Bound, Fps};
use crate::export::{export_to_file, ExportError, ExportOptions, Form, Format, Target, TrackReport};
use crate::Project;

/// The dialog's settings and the export in flight.
pub struct ExportWindow {
    pub format: Format,
    pub fps: f64,
    pub adaptive: bool,
    pub bound: f64,
    /// Adaptive: linear keys instead of fitted Bézier keys.
    pub adaptive_linear: bool,
    pub constant_speed: bool,
    pub targets: std::collections::BTreeMap<String, Target>,
    pub path: String,
    running: Option<Job<Result<Vec<TrackReport>, ExportError>>>,
}

impl Default for ExportWindow {
    fn default() -> Self {
        Self {
            format: Format::Glb,
            fps: crate::DEFAULT_FPS,
            adaptive: false,
            bound: crate::DEFAULT_ACCURACY,
            adaptive_linear: false,
            constant_speed: false,
            targets: Default::default(),
            path: String::new(),
            running: None,
        }
    }
}

impl ExportWindow {
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }
}

impl Panel for ExportWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        let ctx = ui.ctx().clone();
        if let Some(status) = self.poll() {
            out.push(AppCommand::Status(status));
        }
        if !cx.ui.windows.is_open(Window::Export) {
            return;
        }
        let mut open = true;
        let mut start = false;
        egui::Window::new("Export").open(&mut open).resizable(true).default_width(460.0).show(&ctx, |ui| {
            let busy = self.running.is_some();
            ui.add_enabled_ui(!busy, |ui| self.settings(ui, cx.project()));
            match &self.running {
                Some(job) => {
                    let (_, fraction) = job.progress();
                    ui.add(egui::ProgressBar::new(fraction.unwrap_or(0.0)).show_percentage());
                    if ui.button("Cancel").on_hover_text("Stop the export; no file is written").clicked() {
                        job.cancel();
                    }
                    ctx.request_repaint();
                }
                None => {
                    start = ui.button("Export").on_hover_text("Bake and write the file").clicked();
                }
            }
        });
        if start {
            out.push(AppCommand::Status(self.begin(cx.doc.document.shared_project())));
        }
        if !open && !self.is_running() {
            out.push(AppCommand::CloseWindow(Window::Export));
        }
    }
}

impl ExportWindow {
    /// Format, rate, constant speed, each track's target, and the path.
    fn settings(&mut self, ui: &mut egui::Ui, project: &Project) {
        ui.horizontal(|ui| {
            ui.label("Format");
            for (f, name, tip) in [
                (Format::Csv, "CSV", "A time column and one column per component, sampled at the frame rate"),
                (Format::ThreeJson, "three.js JSON", "AnimationClip.toJSON: load with THREE.AnimationClip.parse"),
                (Format::Gltf, "glTF", "glTF 2.0 text with the buffer embedded"),
                (Format::Glb, "GLB", "Binary glTF 2.0"),
            ] {
                ui.selectable_value(&mut self.format, f, name).on_hover_text(tip);
            }
        });
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.adaptive, false, "every frame").on_hover_text("Baked tracks get one key per frame");
            ui.add(egui::DragValue::new(&mut self.fps).range(1.0..=1000.0).suffix(" fps")).accessible_name("export fps");
            ui.radio_value(&mut self.adaptive, true, "adaptive").on_hover_text("The fewest keys that stay within the error bound");
            ui.add(egui::DragValue::new(&mut self.bound).range(1e-9..=1.0).speed(0.0).custom_formatter(|v, _| format!("{v:.0e}")).prefix("E = "))
                .accessible_name("export error bound")
                .on_hover_text("Largest allowed difference from the curve (value units; radians for rotations)");
        });
        ui.add_enabled(self.adaptive, egui::Checkbox::new(&mut self.adaptive_linear, "linear keys"))
            .on_hover_text("Adaptive: bake linear keys (for engines without cubic curves) instead of the fewest Bézier keys within E, written as glTF CUBICSPLINE or three.js InterpolateBezier");
        ui.checkbox(&mut self.constant_speed, "constant speed paths").on_hover_text("Bake Vec2/Vec3 paths moved at constant speed (arc length)");
        ui.separator();
        ui.label("Where each track goes").on_hover_text("See docs/export.md for what each target means in each format");
        super::style::track_table(ui, "export targets", |ui| {
            egui::Grid::new("export targets").num_columns(2).show(ui, |ui| {
                for track in &project.tracks {
                    ui.label(&track.name);
                    let current = self.targets.get(&track.name).copied().unwrap_or_else(|| Target::for_track(track, self.format));
                    let mut t = current;
                    let r = egui::ComboBox::from_id_salt(("export target", &track.name)).selected_text(format!("{t:?}")).show_ui(ui, |ui| {
                        for option in Target::ALL.into_iter().filter(|o| o.fits(track.kind, self.format)) {
                            ui.selectable_value(&mut t, option, format!("{option:?}"));
                        }
                    });
                    r.response.accessible_name(format!("target of {}", track.name));
                    if t != current {
                        self.targets.insert(track.name.clone(), t);
                    }
                    ui.end_row();
                }
            });
        });
        ui.separator();
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut self.path).hint_text("export path").desired_width(300.0)).accessible_name("export path");
            if ui.button("Browse…").on_hover_text("Choose the file with the system dialog").clicked() {
                if let Some(p) = rfd::FileDialog::new().add_filter("export", &[self.format.extension()]).save_file() {
                    self.path = p.display().to_string();
                }
            }
        });
    }

    /// Starts the export of `project` on a background thread.
    fn begin(&mut self, project: std::sync::Arc<Project>) -> Status {
        let mut path = PathBuf::from(self.path.trim());
        if self.path.trim().is_empty() {
            return Status::error("Export: type or choose a path first");
        }
        if path.extension().is_none() {
            path.set_extension(self.format.extension());
        }
        let (fps, bound) = match (Fps::new(self.fps), self.adaptive.then(|| Bound::new(self.bound)).transpose()) {
            (Ok(fps), Ok(bound)) => (fps, bound),
            (Err(e), _) | (_, Err(e)) => return Status::error(format!("Export: {e}")),
        };
        let options = ExportOptions {
            adaptive: bound,
            adaptive_linear: self.adaptive_linear,
            constant_speed: self.constant_speed,
            targets: self.targets.clone(),
            ..ExportOptions::new(fps)
        };
        // Skipped tracks are not exported, so the progress bar does not count them.
        let target = |t: &crate::Track| self.targets.get(&t.name).copied().unwrap_or_else(|| Target::for_track(t, self.format));
        let total = project.tracks.iter().filter(|t| target(t) != Target::Skip).count();
        let format = self.format;
        let job = Job::spawn(format!("Exporting {}", path.display()), None, move |w| {
            // Its own copy, the share let go (`io::released`): an edit during the export then
            // does not copy the whole project on the UI thread.
            let project = crate::io::released(project);
            w.progress().set("Exporting", 0, total);
            // A cancelled export says so (`ExportError::Cancelled`): the result is kept.
            Some(export_to_file(&path, &project, format, &options, &|n, _| {
                w.progress().advance(n);
                !w.cancelled()
            }))
        });
        self.running = Some(job);
        Status::message("Exporting…")
    }

    /// A finished export's result, for the status line.
    fn poll(&mut self) -> Option<Status> {
        let (_, made) = Job::finished(&mut self.running)?;
        Some(match made.unwrap_or(Err(ExportError::Cancelled)) {
            Ok(report) => {
                let baked = report.iter().filter(|r| r.form == Form::Baked).count();
                let worst = report.iter().map(|r| r.max_error).fold(0.0, f64::max);
                let keys: usize = report.iter().map(|r| r.keys).sum();
                Status::message(format!("Exported {} tracks ({keys} keys, {baked} baked, largest error {worst:.2e}) to {}", report.len(), self.path))
            }
            Err(ExportError::Cancelled) => Status::message("Export cancelled; no file written"),
            Err(e) => Status::error(format!("Export failed: {e}")),
        })
    }
}
