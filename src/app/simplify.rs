//! Key > Simplify…: key reduction ([`crate::reduce`]) of the selected tracks (those of the
//! selected keys, or the active track) with a tolerance slider. The reduction runs on a worker
//! thread whenever the tolerance or the document changes, so the window never freezes; while
//! it is open the graph draws the reduced curve over the original inside the band ±E around
//! it ([`Simplified`], through [`AppCommand::SetPreview`]), and the table gives each track's key
//! counts and measured error. Apply replaces the tracks as one undo step — if the document,
//! its revision and the selection are still those the reduction was made for.

use eframe::egui;

use super::commands::AppCommand;
use super::jobs::Job;
use super::panel::{Panel, PanelContext};
use super::payload::{Basis, Simplified, Window};
use super::preview_job::Previewed;
use crate::reduce::project::{reduce_tracks, TrackReport};
use crate::reduce::{Tolerance, DEFAULT_ANGLE_DEG};

/// What a reduction is made for: tolerance, angle, the bound on the body (if that mode is
/// on), and the document, revision and selection (the tracks reduced are the selection's, or
/// on the body every joint track).
type Asked = (f64, f64, Option<f64>, Basis);

pub struct SimplifyWindow {
    tolerance: f64,
    angle: f64,
    /// Bound on the body (issue 43): on, and E in file units.
    on_body: bool,
    body_bound: f64,
    /// The last result made and the one in flight.
    preview: Previewed<Asked, Simplified>,
}

impl Default for SimplifyWindow {
    fn default() -> Self {
        Self { tolerance: 1e-3, angle: DEFAULT_ANGLE_DEG * 10.0, on_body: false, body_bound: 0.0, preview: Previewed::default() }
    }
}

fn asked_of(s: &Simplified) -> Asked {
    (s.tolerance, s.angle, s.body_bound, s.made_for)
}

/// A reduction bounded on the body, as Simplify shows and applies it.
fn on_body(project: &crate::Project, bound: f64, asked: Asked) -> Simplified {
    match crate::reduce::body::reduce_on_body(project, bound, &|_| {}) {
        Ok(r) => {
            let reports = r.tracks.into_iter().map(|(index, result)| TrackReport { index, name: project.tracks[index].name.clone(), result }).collect();
            let mut s = Simplified::new(asked.0, asked.1, asked.3, reports).measured_on(project);
            s.body_bound = Some(bound);
            s.note = Some(format!(
                "{} -> {} keys of the skeleton's tracks, within {bound:.4} file units on the body (the budget at {:.2}x its guaranteed share)",
                r.keys_before, r.keys_after, r.scale
            ));
            s
        }
        Err(e) => {
            let mut s = Simplified::new(asked.0, asked.1, asked.3, Vec::new());
            s.body_bound = Some(bound);
            s.note = Some(format!("Bound on the body: {e}"));
            s
        }
    }
}

impl SimplifyWindow {
    /// Starts the reduction for `asked` on a worker thread unless it is already running.
    fn start(&mut self, cx: &PanelContext<'_>, asked: Asked, ctx: &egui::Context) {
        if self.preview.is_running(&asked) {
            return;
        }
        let Ok(tol) = Tolerance::new(asked.0, asked.1) else { return };
        // The document's project shared, not copied (a copy of a mocap take is 150 ms).
        let project = cx.doc.document.shared_project();
        let which: Vec<usize> = cx.doc.convert_targets().into_iter().collect();
        let job = Job::spawn("Simplify", Some(ctx), move |w| {
            if let Some(bound) = asked.2 {
                return (!w.cancelled()).then(|| on_body(&project, bound, asked));
            }
            let reports = reduce_tracks(&project, &which, tol, &|_, _| {});
            (!w.cancelled()).then(|| Simplified::new(asked.0, asked.1, asked.3, reports).measured_on(&project))
        });
        self.preview.run(asked, job.made_for(asked.3));
    }
}

impl Panel for SimplifyWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if !cx.ui.windows.is_open(Window::Simplify) {
            if self.preview.clear() || cx.ui.preview.is_some() {
                out.push(AppCommand::SetPreview(None));
            }
            return;
        }
        let size = cx.project().skeleton.as_ref().and_then(|_| crate::body::Rig::new(cx.project()).ok()).map(|r| r.size());
        if self.body_bound <= 0.0 {
            self.body_bound = size.map_or(0.0, |s| 1e-3 * s);
        }
        let body = (self.on_body && size.is_some() && self.body_bound > 0.0).then_some(self.body_bound);
        let asked = (self.tolerance, self.angle, body, cx.doc.basis());
        if self.preview.poll() {
            out.push(AppCommand::SetPreview(self.preview.computed.clone()));
        }
        if self.preview.computed.as_ref().is_none_or(|c| asked_of(c) != asked) {
            self.start(cx, asked, ui.ctx());
        }
        let (mut open, mut close) = (true, false);
        open &= super::style::tool_window(ui, "Simplify", cx.view.dock_tools, |ui| {
            ui.label("The fewest Bézier keys that stay within the tolerance of the curve (measured, not assumed).");
            ui.horizontal(|ui| {
                ui.label("tolerance (file units)");
                ui.add(egui::Slider::new(&mut self.tolerance, 1e-6..=1.0).logarithmic(true).custom_formatter(|v, _| format!("{v:.0e}")))
                    .on_hover_text("Largest distance from the original curve of Scalar and vector tracks, in file units (Euclidean over a vector's components). Rotation tracks, Quat and Euler, are bounded by the angle below")
                    .accessible_name("simplify tolerance");
            });
            if let Some(size) = size {
                ui.horizontal(|ui| {
                    ui.checkbox(&mut self.on_body, "Bound on the body").on_hover_text("Reduce every joint track of the skeleton so that no joint or end site moves more than E from the original at any time (the error shared down the hierarchy: docs/problems.md); the tolerance fields are then not used");
                    ui.add_enabled(self.on_body, egui::DragValue::new(&mut self.body_bound).range(1e-9..=size.max(1e-9)).speed(size * 1e-4).suffix(" file units"))
                        .on_hover_text(format!("E: the largest displacement of any joint, in file units (the skeleton's size is {size:.4}; {:.3}% of it now)", 100.0 * self.body_bound / size))
                        .accessible_name("body bound");
                });
            }
            ui.horizontal(|ui| {
                ui.label("rotations, Quat and Euler (deg)");
                ui.add(egui::Slider::new(&mut self.angle, 0.001..=10.0).logarithmic(true).suffix("°"))
                    .on_hover_text("Largest angle between the original and the reduced rotation, in degrees, for Quat and Euler tracks alike (an Euler track's three angles are fitted so that the rotation they make stays within it, measured in the track's order)")
                    .accessible_name("simplify angle");
            });
            let fresh = self.preview.computed.as_ref().is_some_and(|c| asked_of(c) == asked);
            match &self.preview.computed {
                None => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("measuring…");
                    });
                }
                Some(c) => {
                    if let Some(note) = &c.note {
                        ui.label(note);
                    }
                    super::style::body_line(ui, &c.body);
                    report_table(ui, &c.reports, fresh);
                }
            }
            let any = self.preview.computed.as_ref().is_some_and(|c| c.reduces_any());
            let tips = ("Replace these tracks' keys, as one undo step", "Nothing to reduce within this tolerance, or the preview is being made");
            let (apply, closes) = super::style::apply_or_cancel(ui, "Apply", fresh && any, tips);
            if let (true, Some(c)) = (apply, &self.preview.computed) {
                out.push(AppCommand::ApplySimplify(c.clone()));
            }
            close |= closes;
        });
        if !open || close {
            out.push(AppCommand::CloseWindow(Window::Simplify));
        }
    }
}

fn report_table(ui: &mut egui::Ui, reports: &[TrackReport], fresh: bool) {
    if reports.is_empty() {
        ui.label("Nothing to simplify: select keys on a track, or click one.");
        return;
    }
    super::style::track_table(ui, "simplify report", |ui| {
        egui::Grid::new("simplify report").num_columns(3).striped(true).show(ui, |ui| {
            ui.strong("track");
            ui.strong("keys");
            ui.strong("max error");
            ui.end_row();
            for r in reports {
                ui.label(&r.name);
                match &r.result {
                    Ok(x) if x.kept.is_none() => {
                        ui.label(format!("{} -> {}", x.keys_before, x.keys_after));
                        ui.label(super::units::fmt_measured(x.max_error, super::units::reduction(x.track.kind), 2));
                    }
                    Ok(x) => {
                        ui.label(format!("{}", x.keys_before));
                        ui.label(format!("kept: {}", x.kept.as_deref().unwrap_or("")));
                    }
                    Err(e) => {
                        ui.label("");
                        ui.colored_label(ui.visuals().error_fg_color, e.to_string());
                    }
                }
                ui.end_row();
            }
        });
    });
    if !fresh {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("measuring the new tolerance…");
        });
    }
}
