//! File > Export…: format, the runtime it is made for, where each track goes, fixed or
//! adaptive baking, constant speed, and the output path; the export runs on a background
//! thread with a progress bar and can be cancelled. The file is written atomically, so a
//! cancelled or failed export leaves none. The last export's warnings (a track the runtime
//! plays beyond the bound: `export/runtime.rs`) stay listed under the button, its notes per
//! track (what `tangent bake` prints) folded below them. The settings are the project's
//! (`Project::export`, saved with it; at first GLB at the project's frame rate), sent on each
//! change (`AppCommand::SetExportSettings`: the project unsaved, no undo step): "Preview as" turns on
//! View > Preview runtime (`runtime_preview.rs`), which plays them, and the window lists its
//! distances.

use std::path::PathBuf;

use eframe::egui;

use super::body::BodyChange;
use super::commands::{AppCommand, Command};
use super::jobs::Job;
use super::message::Status;
use super::panel::{Panel, PanelContext};
use super::runtime_preview::ExportSettings;
use super::units::{fmt_measured, Largest, Measured};
use super::windows::Window;
use crate::export::{export_to_file, ExportError, Form, Format, Target, TrackReport};
use crate::runtime::Runtime;
use crate::Project;

/// The dialog's settings and the export in flight.
#[derive(Default)]
pub struct ExportWindow {
    /// What the export writes (and View > Preview runtime plays: sent on each change).
    pub settings: ExportSettings,
    pub path: String,
    running: Option<Job<(Result<Vec<TrackReport>, ExportError>, BodyChange)>>,
    /// How far the body of the last export, as its runtime plays it, is from the document's.
    pub body: BodyChange,
    /// The last export's warnings, `track: text`.
    pub warnings: Vec<String>,
    /// The last export's notes per track (what `tangent bake` prints after a track's line:
    /// keys made for a runtime, baked, …), `track: text`.
    pub notes: Vec<String>,
    /// The last export per track: name, keys written, form, largest error with its unit.
    pub written: Vec<(String, usize, Form, String)>,
    /// Who "Preview as" turns View > Preview runtime on for.
    pub preview_runtime: PreviewAs,
}

/// The runtime of the window's "Preview as" (the newest Blender unless chosen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreviewAs(pub Runtime);

impl Default for PreviewAs {
    fn default() -> Self {
        Self(Runtime::Blender)
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
        if let Some(status) = self.poll(cx.project()) {
            out.push(AppCommand::Status(status));
        }
        if !cx.ui.windows.is_open(Window::Export) {
            return;
        }
        // The document's settings (its own, else the project's frame rate): a change is sent
        // below and kept in the project, so the window shows what will be saved.
        if self.settings != cx.ui.runtime_preview.settings {
            self.settings = cx.ui.runtime_preview.settings.clone();
        }
        let mut open = true;
        let (mut start, mut look) = (false, false);
        egui::Window::new("Export").open(&mut open).resizable(true).default_width(460.0).show(&ctx, |ui| {
            let busy = self.running.is_some();
            ui.add_enabled_ui(!busy, |ui| self.settings_ui(ui, cx.project()));
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
                        let tip = "Draw each track as this runtime would play this export, as a ghost kept up to date as you edit (View > Preview runtime), and list how far each strays from its curve";
                        look = ui.button("Preview as").on_hover_text(tip).clicked();
                        let combo = egui::ComboBox::from_id_salt("preview runtime").selected_text(self.preview_runtime.0.label()).show_ui(ui, |ui| {
                            for r in Runtime::ALL {
                                ui.selectable_value(&mut self.preview_runtime.0, r, r.label());
                            }
                        });
                        combo.response.accessible_name("preview runtime");
                    });
                }
            }
            for w in &self.warnings {
                ui.colored_label(ui.visuals().warn_fg_color, format!("⚠ {w}"));
            }
            if self.running.is_none() {
                super::style::body_line(ui, &self.body);
            }
            if !self.notes.is_empty() {
                egui::CollapsingHeader::new(format!("Notes of the last export ({})", self.notes.len())).id_salt("export notes").show(ui, |ui| {
                    for n in &self.notes {
                        ui.label(n);
                    }
                });
            }
            if !self.written.is_empty() {
                let keys: usize = self.written.iter().map(|w| w.1).sum();
                egui::CollapsingHeader::new(format!("Keys per track of the last export ({keys} keys)")).id_salt("export keys").show(ui, |ui| {
                    super::style::track_table(ui, "export keys table", |ui| {
                        egui::Grid::new("export keys grid").num_columns(4).striped(true).show(ui, |ui| {
                            for (name, keys, form, error) in &self.written {
                                ui.label(name);
                                ui.label(format!("{keys} keys"));
                                ui.label(format!("{form:?}"));
                                ui.label(error);
                                ui.end_row();
                            }
                        });
                    });
                });
            }
            preview_list(ui, cx);
        });
        if self.settings != cx.ui.runtime_preview.settings {
            out.push(AppCommand::SetExportSettings(Box::new(self.settings.clone())));
        }
        if start {
            out.push(AppCommand::Status(self.begin(cx.doc.document.shared_project())));
        }
        if look {
            out.push(AppCommand::Ui(Command::PreviewRuntime(Some(self.preview_runtime.0))));
        }
        if !open && !self.is_running() {
            out.push(AppCommand::CloseWindow(Window::Export));
        }
    }
}

impl ExportWindow {
    /// Format, rate, constant speed, each track's target, and the path.
    fn settings_ui(&mut self, ui: &mut egui::Ui, project: &Project) {
        ui.horizontal(|ui| {
            ui.label("Format");
            for (f, name, tip) in [
                (Format::Csv, "CSV", "A time column and one column per component, sampled at the frame rate"),
                (Format::ThreeJson, "three.js JSON", "AnimationClip.toJSON: load with THREE.AnimationClip.parse"),
                (Format::Gltf, "glTF", "glTF 2.0 text with the buffer embedded"),
                (Format::Glb, "GLB", "Binary glTF 2.0"),
            ] {
                ui.selectable_value(&mut self.settings.format, f, name).on_hover_text(tip);
            }
        });
        ui.horizontal(|ui| {
            ui.label("Played by");
            for (r, tip) in [
                (Runtime::Spec, "The glTF specification (three.js plays the same): the error is measured as it interpolates"),
                (Runtime::Three, "three.js r187: plays as the specification does"),
                (
                    Runtime::Blender,
                    "Blender 4.2 and later (4.5, 5.0): its glTF importer ignores CUBICSPLINE tangents and merges keys within 0.01 frames: adaptive keys its Auto handles play within E (glTF and GLB only)",
                ),
                (
                    Runtime::Blender34,
                    "Blender 3.4's glTF importer ignores CUBICSPLINE tangents: adaptive keys its Auto Clamped handles play within E (glTF and GLB only)",
                ),
                (
                    Runtime::Godot,
                    "Godot 3.2's glTF importer misreads CUBICSPLINE tangents and resamples at its import frame rate (15 fps by default): linear keys, and the error it plays measured (glTF and GLB only)",
                ),
            ] {
                ui.selectable_value(&mut self.settings.runtime, r, r.label()).on_hover_text(tip);
            }
        });
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.settings.adaptive, false, "every frame").on_hover_text("Baked tracks get one key per frame");
            ui.add(egui::DragValue::new(&mut self.settings.fps).range(1.0..=1000.0).suffix(" fps")).accessible_name("export fps");
            ui.radio_value(&mut self.settings.adaptive, true, "adaptive").on_hover_text("The fewest keys that stay within the error bound");
            ui.add(
                egui::DragValue::new(&mut self.settings.bound)
                    .range(1e-9..=1.0)
                    .speed(0.0)
                    .custom_formatter(|v, _| format!("{v:.0e}"))
                    .prefix("E = ")
                    .suffix(" file units"),
            )
            .accessible_name("export error bound")
            .on_hover_text("Largest allowed difference from the curve of Scalar and vector tracks, in file units");
            // An angle for rotations, Quat and Euler alike; a project saved before it had one
            // bounds them by E in radians until an angle is set.
            let mut angle = self.settings.angle_deg.unwrap_or(self.settings.bound.to_degrees());
            let r = ui
                .add(
                    egui::DragValue::new(&mut angle)
                        .range(1e-6..=10.0)
                        .speed(0.0)
                        .custom_formatter(|v, _| format!("{v:.3}"))
                        .prefix("rotations ")
                        .suffix(" deg"),
                )
                .accessible_name("export angle bound")
                .on_hover_text("Largest allowed angle between the rotation and what is written, in degrees, for Quat and Euler tracks");
            if r.changed() {
                self.settings.angle_deg = Some(angle);
            }
        });
        ui.add_enabled(self.settings.adaptive, egui::Checkbox::new(&mut self.settings.adaptive_linear, "linear keys"))
            .on_hover_text("Adaptive: bake linear keys (for engines without cubic curves) instead of the fewest Bézier keys within E, written as glTF CUBICSPLINE or three.js InterpolateBezier");
        ui.checkbox(&mut self.settings.constant_speed, "constant speed paths").on_hover_text("Bake Vec2/Vec3 paths moved at constant speed (arc length)");
        ui.separator();
        ui.label("Where each track goes").on_hover_text("See docs/export.md for what each target means in each format");
        super::style::track_table(ui, "export targets", |ui| {
            egui::Grid::new("export targets").num_columns(2).show(ui, |ui| {
                for track in &project.tracks {
                    ui.label(&track.name);
                    let current = self.settings.targets.get(&track.name).copied().unwrap_or_else(|| Target::for_track(track, self.settings.format));
                    let mut t = current;
                    let r = egui::ComboBox::from_id_salt(("export target", &track.name)).selected_text(format!("{t:?}")).show_ui(ui, |ui| {
                        for option in Target::ALL.into_iter().filter(|o| o.fits(track.kind, self.settings.format)) {
                            ui.selectable_value(&mut t, option, format!("{option:?}"));
                        }
                    });
                    r.response.accessible_name(format!("target of {}", track.name));
                    if t != current {
                        self.settings.targets.insert(track.name.clone(), t);
                    }
                    ui.end_row();
                }
            });
        });
        ui.separator();
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut self.path).hint_text("export path").desired_width(300.0)).accessible_name("export path");
            if ui.button("Browse…").on_hover_text("Choose the file with the system dialog").clicked() {
                if let Some(p) = rfd::FileDialog::new().add_filter("export", &[self.settings.format.extension()]).save_file() {
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
            path.set_extension(self.settings.format.extension());
        }
        let options = match self.settings.options() {
            Ok(o) => o,
            Err(e) => return Status::error(format!("Export: {e}")),
        };
        // Skipped tracks are not exported, so the progress bar does not count them.
        let target = |t: &crate::Track| self.settings.targets.get(&t.name).copied().unwrap_or_else(|| Target::for_track(t, self.settings.format));
        let total = project.tracks.iter().filter(|t| target(t) != Target::Skip).count();
        let format = self.settings.format;
        let job = Job::spawn(format!("Exporting {}", path.display()), None, move |w| {
            // Its own copy, the share let go (`io::released`): an edit during the export then
            // does not copy the whole project on the UI thread.
            let project = crate::io::released(project);
            w.progress().set("Exporting", 0, total);
            // A cancelled export says so (`ExportError::Cancelled`): the result is kept.
            let written = export_to_file(&path, &project, format, &options, &|n, _| {
                w.progress().advance(n);
                !w.cancelled()
            });
            // With a skeleton, the body as the export's runtime plays it (the export's tracks
            // played as the runtime would, in place of the document's).
            let body = match (&written, project.skeleton.is_some()) {
                (Ok(_), true) => {
                    w.progress().set("Measuring the body as it plays", 0, 1);
                    match crate::export::preview(&project, format, &options, options.runtime, &|_, _| !w.cancelled()) {
                        Ok(tracks) => {
                            let curves: Vec<(usize, &crate::TrackCurve)> = tracks.iter().map(|p| (p.track, &p.played)).collect();
                            BodyChange(crate::body::replaced_difference(&project, &curves).map_err(|e| e.to_string()).transpose())
                        }
                        Err(e) => BodyChange(Some(Err(e.to_string()))),
                    }
                }
                _ => BodyChange::default(),
            };
            Some((written, body))
        });
        self.running = Some(job);
        self.warnings.clear();
        self.notes.clear();
        Status::message("Exporting…")
    }

    /// A finished export's result, for the status line; `project` says which tracks are
    /// rotations (their error shown in degrees).
    fn poll(&mut self, project: &Project) -> Option<Status> {
        let (_, made) = Job::finished(&mut self.running)?;
        let (made, body) = made.unwrap_or((Err(ExportError::Cancelled), BodyChange::default()));
        self.body = body;
        let body = self.body.text().map(|t| format!("; {t} as it plays")).unwrap_or_default();
        Some(match made {
            Ok(report) => {
                let baked = report.iter().filter(|r| r.form == Form::Baked).count();
                let mut worst = Largest::default();
                for r in &report {
                    worst.add(r.max_error, error_unit(project, r));
                }
                let keys: usize = report.iter().map(|r| r.keys).sum();
                self.warnings = report.iter().filter_map(|r| r.warning.as_ref().map(|w| format!("{}: {w}", r.name))).collect();
                self.notes = report.iter().filter_map(|r| r.note.as_ref().map(|n| format!("{}: {n}", r.name))).collect();
                self.written = report.iter().map(|r| (r.name.clone(), r.keys, r.form, fmt_measured(r.max_error, error_unit(project, r), 2))).collect();
                let runtime = report.first().map_or(Runtime::Spec, |r| r.runtime);
                let played = if runtime == Runtime::Spec { String::new() } else { format!(" in {runtime}") };
                let warned = match self.warnings.len() {
                    0 => String::new(),
                    n => format!("; {n} warning{} (Export window)", if n == 1 { "" } else { "s" }),
                };
                Status::message(format!(
                    "Exported {} tracks ({keys} keys, {baked} baked, largest error{played} {}) to {}{warned}{body}",
                    report.len(),
                    worst.text(2),
                    self.path
                ))
            }
            Err(ExportError::Cancelled) => Status::message("Export cancelled; no file written"),
            Err(e) => Status::error(format!("Export failed: {e}")),
        })
    }
}

/// The unit of an exported track's error: a rotation's angle in radians (shown in degrees),
/// else file units; a track no longer in `project` by that name (merged weights, renamed
/// since) by its target.
fn error_unit(project: &Project, report: &TrackReport) -> Measured {
    match project.track(&report.name) {
        Some(track) => Measured::of(track.kind, Measured::Radians),
        None if report.target == Target::Rotation => Measured::Radians,
        None => Measured::FileUnits,
    }
}

/// View > Preview runtime's distances, beyond the bound in the warning colour (the track
/// list shows them too).
fn preview_list(ui: &mut egui::Ui, cx: &PanelContext<'_>) {
    let preview = &cx.ui.runtime_preview;
    let (Some(runtime), Some(shown)) = (preview.runtime, &preview.shown) else { return };
    ui.separator();
    let made = if preview.is_current(cx.doc.basis()) { "" } else { " (being made again)" };
    ui.label(format!("{runtime} plays each track within (largest distance from its curve){made}"));
    super::style::body_line(ui, &shown.body);
    let bound = shown.asked.settings.bound();
    egui::Grid::new("runtime preview").num_columns(2).show(ui, |ui| {
        for (&i, &d) in &shown.deviation {
            let Some(track) = cx.project().tracks.get(i) else { continue };
            ui.label(&track.name);
            let text = fmt_measured(d, Measured::of(track.kind, Measured::Radians), 2);
            if bound.is_some_and(|b| d > b) {
                ui.colored_label(ui.visuals().warn_fg_color, text);
            } else {
                ui.label(text);
            }
            ui.end_row();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exports for each Blender and one for the specification of the same demo: the window's
    /// settings reach the export, the report's warnings are kept for the window (five
    /// CUBICSPLINE tracks Blender 4.2+ would play beyond 1e-4 for the specification, none for
    /// a Blender), and the status line says which.
    #[test]
    fn the_runtime_reaches_the_export_and_its_warnings_are_listed() {
        let dir = std::env::temp_dir().join(format!("tangent-export-runtime-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let project = std::sync::Arc::new(crate::io::demo_project());
        for (runtime, warnings) in [(Runtime::Spec, 5), (Runtime::Blender, 0), (Runtime::Blender34, 0)] {
            let settings = ExportSettings { adaptive: true, bound: 1e-4, runtime, ..Default::default() };
            let mut w = ExportWindow { settings, path: dir.join(format!("{runtime:?}.glb")).display().to_string(), ..Default::default() };
            w.begin(project.clone());
            let status = loop {
                if let Some(s) = w.poll(&project) {
                    break s;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            };
            assert_eq!(w.warnings.len(), warnings, "{runtime:?}: {:?}", w.warnings);
            // For Blender 3.4, the notes say which keys were made for its handles (as `tangent
            // bake` prints them); at 1e-4 4.2+'s keys are linear ones (docs/export.md).
            assert_eq!(w.notes.iter().any(|n| n.contains("keys for Blender 3.4's automatic handles")), runtime == Runtime::Blender34, "{:?}", w.notes);
            assert!(runtime != Runtime::Blender || w.notes.iter().any(|n| n.contains("linear keys")), "{:?}", w.notes);
            assert!(w.warnings.iter().all(|x| x.contains("Blender 4.2+ plays it up to")), "{:?}", w.warnings);
            assert_eq!(status.text.contains("warnings (Export window)"), warnings > 0, "{}", status.text);
            let blender = runtime.blender().is_some();
            assert_eq!(status.text.contains(&format!("in {runtime}")), blender, "{}", status.text);
        }
    }
}
