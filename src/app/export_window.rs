//! File > Export…: format, the runtime it is made for, where each track goes, fixed or
//! adaptive baking, constant speed, and the output path; the export runs on a background
//! thread with a progress bar and can be cancelled. The file is written atomically, so a
//! cancelled or failed export leaves none. The last export's warnings (a track the runtime
//! plays beyond the bound: `export/runtime.rs`) stay listed under the button. Preview draws
//! what the chosen runtime plays of this export as the graph's ghost (`export::preview`, on a
//! worker) and lists each track's largest distance from its curve.

use std::path::PathBuf;

use eframe::egui;

use super::commands::AppCommand;
use super::document::cleanup::Ghost;
use super::jobs::Job;
use super::panel::{Panel, PanelContext};
use super::payload::{Status, Window};
use crate::bake::{Bound, Fps};
use crate::export::{export_to_file, preview, ExportError, ExportOptions, Form, Format, PreviewTrack, Target, TrackReport};
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
    /// Who Preview plays the export with.
    pub preview_runtime: Runtime,
    previewing: Option<Job<Result<Vec<PreviewTrack>, ExportError>>>,
    /// The last preview: the runtime that played it, the bound, and per track its name and
    /// largest distance from the curve.
    pub previewed: Option<(Runtime, Option<f64>, Vec<(String, f64)>)>,
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
            preview_runtime: Runtime::Blender,
            previewing: None,
            previewed: None,
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
        self.poll_preview(cx.project(), out);
        if !cx.ui.windows.is_open(Window::Export) {
            return;
        }
        let mut open = true;
        let (mut start, mut look) = (false, false);
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
                    ui.horizontal(|ui| {
                        start = ui.button("Export").on_hover_text("Bake and write the file").clicked();
                        let tip = "Draw each track as this runtime would play this export, as the ghost (View > Clear ghost removes it), and list how far each strays from its curve";
                        look = ui.add_enabled(self.previewing.is_none(), egui::Button::new("Preview as")).on_hover_text(tip).clicked();
                        let combo = egui::ComboBox::from_id_salt("preview runtime").selected_text(self.preview_runtime.label()).show_ui(ui, |ui| {
                            for r in Runtime::ALL {
                                ui.selectable_value(&mut self.preview_runtime, r, r.label());
                            }
                        });
                        combo.response.accessible_name("preview runtime");
                    });
                }
            }
            for w in &self.warnings {
                ui.colored_label(ui.visuals().warn_fg_color, format!("⚠ {w}"));
            }
            self.preview_list(ui);
        });
        if start {
            out.push(AppCommand::Status(self.begin(cx.doc.document.shared_project())));
        }
        if look {
            out.push(AppCommand::Status(self.begin_preview(cx.doc.document.shared_project())));
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

    /// The export's options from the window's settings.
    fn options(&self) -> Result<ExportOptions, crate::bake::RateError> {
        Ok(ExportOptions {
            adaptive: self.adaptive.then(|| Bound::new(self.bound)).transpose()?,
            adaptive_linear: self.adaptive_linear,
            constant_speed: self.constant_speed,
            targets: self.targets.clone(),
            runtime: self.runtime,
            ..ExportOptions::new(Fps::new(self.fps)?)
        })
    }

    /// Starts the preview of `project`'s export as the chosen runtime plays it, on a worker.
    fn begin_preview(&mut self, project: std::sync::Arc<Project>) -> Status {
        let options = match self.options() {
            Ok(o) => o,
            Err(e) => return Status::error(format!("Preview: {e}")),
        };
        let (format, runtime) = (self.format, self.preview_runtime);
        self.previewing = Some(Job::spawn("Preview of the runtime's playback", None, move |_| {
            let project = crate::io::released(project);
            Some(preview(&project, format, &options, runtime))
        }));
        Status::message(format!("Preview: playing the export as {runtime} would…"))
    }

    /// A finished preview: the ghost, the list, the status line.
    fn poll_preview(&mut self, project: &Project, out: &mut Vec<AppCommand>) {
        let Some((_, made)) = Job::finished(&mut self.previewing) else { return };
        let status = match made.unwrap_or(Err(ExportError::Cancelled)) {
            Ok(tracks) => {
                let label = format!("{} playback", self.preview_runtime);
                let list: Vec<(String, f64)> = tracks.iter().filter_map(|p| project.tracks.get(p.track).map(|t| (t.name.clone(), p.deviation))).collect();
                let worst = list.iter().fold(None, |w: Option<&(String, f64)>, x| if w.is_none_or(|w| x.1 > w.1) { Some(x) } else { w });
                let text = worst.map_or(String::new(), |(n, d)| format!("; largest {d:.2e} ({n})"));
                let ghost = Ghost { label, tracks: tracks.into_iter().map(|p| (p.track, p.played)).collect() };
                out.push(AppCommand::SetRuntimeGhost(std::sync::Arc::new(ghost)));
                self.previewed = Some((self.preview_runtime, self.adaptive.then_some(self.bound), list));
                Status::message(format!("Preview: {} playback of the export drawn as the ghost{text}", self.preview_runtime))
            }
            Err(e) => Status::error(format!("Preview failed: {e}")),
        };
        out.push(AppCommand::Status(status));
    }

    /// The last preview's distances, beyond the bound in the warning colour.
    fn preview_list(&self, ui: &mut egui::Ui) {
        let Some((runtime, bound, list)) = &self.previewed else { return };
        ui.separator();
        ui.label(format!("{runtime} plays each track within (largest distance from its curve)"));
        egui::Grid::new("runtime preview").num_columns(2).show(ui, |ui| {
            for (name, d) in list {
                ui.label(name);
                let text = format!("{d:.2e}");
                if bound.is_some_and(|b| *d > b) {
                    ui.colored_label(ui.visuals().warn_fg_color, text);
                } else {
                    ui.label(text);
                }
                ui.end_row();
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
        let options = match self.options() {
            Ok(o) => o,
            Err(e) => return Status::error(format!("Export: {e}")),
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

    fn previewed(w: &mut ExportWindow, project: &Project) -> (std::sync::Arc<Ghost>, Status) {
        let mut out = Vec::new();
        while out.is_empty() {
            w.poll_preview(project, &mut out);
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let ghost = out.iter().find_map(|c| if let AppCommand::SetRuntimeGhost(g) = c { Some(g.clone()) } else { None });
        let status = out.into_iter().find_map(|c| if let AppCommand::Status(s) = c { Some(s) } else { None }).unwrap();
        (ghost.unwrap_or_else(|| panic!("{}", status.text)), status)
    }

    /// Blender's playback of the demo's adaptive export: for the specification's keys the
    /// camera strays far (tangents ignored), for keys made for Blender it stays within the
    /// bound; the ghost holds every exported track as played, the list each track's distance.
    #[test]
    fn preview_plays_the_export_in_the_chosen_runtime() {
        let project = std::sync::Arc::new(crate::io::demo_project());
        for (runtime, far) in [(Runtime::Spec, true), (Runtime::Blender, false)] {
            let mut w = ExportWindow { adaptive: true, bound: 1e-3, runtime, preview_runtime: Runtime::Blender, ..Default::default() };
            w.begin_preview(project.clone());
            let (ghost, status) = previewed(&mut w, &project);
            assert_eq!(ghost.label, "Blender 3.4 playback");
            assert_eq!(ghost.tracks.len(), project.tracks.len(), "{}", status.text);
            let (by, bound, list) = w.previewed.clone().unwrap();
            assert_eq!((by, bound), (Runtime::Blender, Some(1e-3)));
            let camera = list.iter().find(|(n, _)| n == "camera").unwrap().1;
            assert_eq!(camera > 0.1, far, "{runtime:?}: camera {camera}");
            if !far {
                assert!(list.iter().all(|(_, d)| *d <= 1e-3 * (1.0 + 1e-3)), "{list:?}");
            }
            assert!(status.text.starts_with("Preview: Blender 3.4 playback"), "{}", status.text);
        }
    }

    /// In the editor: File > Export… (Ctrl+Shift+E), adaptive (E = 1e-3), Preview as Blender 3.4
    /// clicked; the graph's ghost is Blender's playback of the specification's keys and the
    /// window lists the camera's distance (far: Blender ignores the tangents).
    #[test]
    fn preview_button_sets_the_ghost_and_lists_the_distances() {
        use egui_kittest::kittest::Queryable;
        let mut h = crate::app::tests::harness(crate::io::demo_project());
        h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::E);
        h.run();
        h.get_by_label("adaptive").click();
        h.run();
        h.state_mut().panels.export.bound = 1e-3;
        h.get_by_label("Preview as").click();
        for _ in 0..2000 {
            h.step();
            if h.state().panels.export.previewed.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        h.run();
        let ghost = crate::app::tests::app(&h).ui.ghost.clone().expect("the ghost");
        assert_eq!(ghost.label, "Blender 3.4 playback");
        assert!(h.query_by_label_contains("Blender 3.4 plays each track within").is_some());
        let camera = &h.state().panels.export.previewed.as_ref().unwrap().2.iter().find(|(n, _)| n == "camera").unwrap().1;
        assert!(*camera > 0.1, "{camera}");
        assert!(h.query_by_label(&format!("{camera:.2e}")).is_some(), "{camera}");
    }
}
