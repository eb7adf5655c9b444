//! File > Export…: format, the runtime it is made for, where each track goes, fixed or
//! adaptive baking, constant speed, and the output path; the export runs on a background
//! thread with a progress bar and can be cancelled. The file is written atomically, so a
//! cancelled or failed export leaves none. The last export's warnings (a track the runtime
//! plays beyond the bound: `export/runtime.rs`) stay listed under the button.

use std::path::PathBuf;

use eframe::egui;

use super::commands::AppCommand;
use super::jobs::Job;
use super::panel::{Panel, PanelContext};
use super::payload::{Status, Window};
use crate::bake::{Bound, Fps};
use crate::export::{export_to_file, ExportError, ExportOptions, Form, Format, Target, TrackReport};
use crate::runtime::Runtime;
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
    /// Who plays the file (`--runtime`).
    pub runtime: Runtime,
    pub targets: std::collections::BTreeMap<String, Target>,
    pub path: String,
    running: Option<Job<Result<Vec<TrackReport>, ExportError>>>,
    /// The last export's warnings, `track: text`.
    pub warnings: Vec<String>,
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
            runtime: Runtime::Spec,
            targets: Default::default(),
            path: String::new(),
            running: None,
            warnings: Vec::new(),
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
            for w in &self.warnings {
                ui.colored_label(ui.visuals().warn_fg_color, format!("⚠ {w}"));
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
            ui.label("Played by");
            for (r, tip) in [
                (Runtime::Spec, "The glTF specification (three.js plays the same): the error is measured as it interpolates"),
                (Runtime::Three, "three.js r187: plays as the specification does"),
                (
                    Runtime::Blender,
                    "Blender 3.4's glTF importer ignores CUBICSPLINE tangents: adaptive keys its automatic handles play within E (glTF and GLB only)",
                ),
            ] {
                ui.selectable_value(&mut self.runtime, r, r.label()).on_hover_text(tip);
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
            runtime: self.runtime,
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
        self.warnings.clear();
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
                self.warnings = report.iter().filter_map(|r| r.warning.as_ref().map(|w| format!("{}: {w}", r.name))).collect();
                let runtime = report.first().map_or(Runtime::Spec, |r| r.runtime);
                let played = if runtime == Runtime::Spec { String::new() } else { format!(" in {runtime}") };
                let warned = match self.warnings.len() {
                    0 => String::new(),
                    n => format!("; {n} warning{} (Export window)", if n == 1 { "" } else { "s" }),
                };
                Status::message(format!(
                    "Exported {} tracks ({keys} keys, {baked} baked, largest error{played} {worst:.2e}) to {}{warned}",
                    report.len(),
                    self.path
                ))
            }
            Err(ExportError::Cancelled) => Status::message("Export cancelled; no file written"),
            Err(e) => Status::error(format!("Export failed: {e}")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An export for Blender and one for the specification of the same demo: the window's
    /// settings reach the export, the report's warnings are kept for the window (five
    /// CUBICSPLINE tracks Blender would play beyond 1e-4 for the specification, none for
    /// Blender), and the status line says which.
    #[test]
    fn the_runtime_reaches_the_export_and_its_warnings_are_listed() {
        let dir = std::env::temp_dir().join(format!("tangent-export-runtime-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let project = std::sync::Arc::new(crate::io::demo_project());
        for (runtime, warnings) in [(Runtime::Spec, 5), (Runtime::Blender, 0)] {
            let mut w =
                ExportWindow { adaptive: true, bound: 1e-4, runtime, path: dir.join(format!("{runtime:?}.glb")).display().to_string(), ..Default::default() };
            w.begin(project.clone());
            let status = loop {
                if let Some(s) = w.poll() {
                    break s;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            };
            assert_eq!(w.warnings.len(), warnings, "{runtime:?}: {:?}", w.warnings);
            assert!(w.warnings.iter().all(|x| x.contains("Blender 3.4 plays it up to")), "{:?}", w.warnings);
            assert_eq!(status.text.contains("warnings (Export window)"), warnings > 0, "{}", status.text);
            assert_eq!(status.text.contains("in Blender 3.4"), runtime == Runtime::Blender, "{}", status.text);
        }
    }
}
