//! Key > Simplify…: key reduction ([`crate::reduce`]) of the selected tracks (those of the
//! selected keys, or the active track) with a tolerance slider. The reduction runs on a worker
//! thread whenever the tolerance or the document changes, so the window never freezes; while
//! it is open the graph draws the reduced curve over the original inside the band ±E around
//! it ([`Preview`], through [`AppCommand::SetPreview`]), and the table gives each track's key
//! counts and measured error. Apply replaces the tracks as one undo step.

use std::sync::mpsc;
use std::sync::Arc;

use eframe::egui;

use super::commands::AppCommand;
use super::{Panel, PanelContext};
use crate::reduce::project::{reduce_tracks, TrackReport};
use crate::reduce::{Tolerance, DEFAULT_ANGLE_DEG};
use crate::{Track, TrackCurve};

/// What the graph draws while Simplify is open: for each track, the reduced track compiled,
/// and the tolerance of the band. Made on the reduction's worker, with the key ranges Apply
/// puts in place with the curves (nothing is compiled on the UI thread).
#[derive(Clone)]
pub struct Preview {
    pub tolerance: f64,
    pub tracks: Vec<(usize, Track, TrackCurve)>,
    pub ranges: Vec<super::key_ranges::KeyRanges>,
}

impl Preview {
    /// The reduced tracks of `reports` (those not kept as they were) compiled, on every core.
    #[must_use]
    pub fn of(tolerance: f64, reports: &[TrackReport]) -> Self {
        use rayon::prelude::*;
        let made: Vec<_> = reports
            .par_iter()
            .filter_map(|r| r.result.as_ref().ok().filter(|x| x.kept.is_none()).map(|x| (r.index, &x.track)))
            .filter_map(|(i, t)| TrackCurve::new(t).ok().map(|c| ((i, t.clone(), c), super::key_ranges::KeyRanges::new(t))))
            .collect();
        let (tracks, ranges) = made.into_iter().unzip();
        Self { tolerance, tracks, ranges }
    }
}

impl std::fmt::Debug for Preview {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Preview({} tracks at {:e})", self.tracks.len(), self.tolerance)
    }
}

impl PartialEq for Preview {
    fn eq(&self, other: &Self) -> bool {
        self.tolerance == other.tolerance && self.tracks.iter().map(|t| (t.0, &t.1)).eq(other.tracks.iter().map(|t| (t.0, &t.1)))
    }
}

/// A reduction computed for one tolerance, angle and document revision.
struct Computed {
    key: (f64, f64, u64),
    reports: Vec<TrackReport>,
    preview: Arc<Preview>,
}

/// What the worker sends: the reports and the reduced tracks compiled.
type Made = (Vec<TrackReport>, Arc<Preview>);

pub struct SimplifyWindow {
    pub open: bool,
    tolerance: f64,
    angle: f64,
    computed: Option<Computed>,
    /// The reduction in flight and what it was asked for.
    running: Option<((f64, f64, u64), mpsc::Receiver<Made>)>,
}

impl Default for SimplifyWindow {
    fn default() -> Self {
        Self { open: false, tolerance: 1e-3, angle: DEFAULT_ANGLE_DEG * 10.0, computed: None, running: None }
    }
}

impl SimplifyWindow {
    /// Starts the reduction for `key` on a worker thread unless it is already running.
    fn start(&mut self, cx: &PanelContext<'_>, key: (f64, f64, u64), ctx: &egui::Context) {
        if self.running.as_ref().is_some_and(|r| r.0 == key) {
            return;
        }
        let Ok(tol) = Tolerance::new(key.0, key.1) else { return };
        // The document's project shared, not copied (a copy of a mocap take is 150 ms).
        let project = cx.doc.document.shared_project();
        let which: Vec<usize> = cx.doc.convert_targets().into_iter().collect();
        let (tx, rx) = mpsc::channel();
        let ctx = ctx.clone();
        std::thread::spawn(move || {
            let reports = reduce_tracks(&project, &which, tol, &|_, _| {});
            drop(project);
            let preview = Arc::new(Preview::of(key.0, &reports));
            let _ = tx.send((reports, preview));
            ctx.request_repaint();
        });
        self.running = Some((key, rx));
    }

    /// Takes a finished reduction, if any.
    fn poll(&mut self) -> bool {
        let Some((key, rx)) = &self.running else { return false };
        match rx.try_recv() {
            Ok((reports, preview)) => {
                self.computed = Some(Computed { key: *key, reports, preview });
                self.running = None;
                true
            }
            Err(mpsc::TryRecvError::Empty) => false,
            Err(mpsc::TryRecvError::Disconnected) => {
                self.running = None;
                false
            }
        }
    }

    fn preview(&self) -> Option<Arc<Preview>> {
        self.computed.as_ref().map(|c| c.preview.clone())
    }
}

impl Panel for SimplifyWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if !self.open {
            if self.computed.take().is_some() || cx.ui.preview.is_some() {
                out.push(AppCommand::SetPreview(None));
            }
            self.running = None;
            return;
        }
        let key = (self.tolerance, self.angle, cx.doc.document.revision());
        if self.poll() {
            out.push(AppCommand::SetPreview(self.preview()));
        }
        if self.computed.as_ref().is_none_or(|c| c.key != key) {
            self.start(cx, key, ui.ctx());
        }
        let (mut open, mut close) = (true, false);
        egui::Window::new("Simplify").open(&mut open).collapsible(false).resizable(false).show(ui.ctx(), |ui| {
            ui.label("The fewest Bézier keys that stay within the tolerance of the curve (measured, not assumed).");
            ui.horizontal(|ui| {
                ui.label("tolerance");
                ui.add(egui::Slider::new(&mut self.tolerance, 1e-6..=1.0).logarithmic(true).custom_formatter(|v, _| format!("{v:.0e}")))
                    .on_hover_text("Largest distance from the original curve, in value units (Euclidean over a vector's components)")
                    .accessible_name("simplify tolerance");
            });
            ui.horizontal(|ui| {
                ui.label("rotations");
                ui.add(egui::Slider::new(&mut self.angle, 0.001..=10.0).logarithmic(true).suffix("°"))
                    .on_hover_text("Largest angle from the original rotation, for Quat tracks")
                    .accessible_name("simplify angle");
            });
            let fresh = self.computed.as_ref().is_some_and(|c| c.key == key);
            match &self.computed {
                None => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("measuring…");
                    });
                }
                Some(c) => report_table(ui, &c.reports, fresh),
            }
            ui.horizontal(|ui| {
                let any = self.computed.as_ref().is_some_and(|c| c.reports.iter().any(|r| r.result.as_ref().is_ok_and(|x| x.kept.is_none())));
                let apply = ui.add_enabled(fresh && any, egui::Button::new("Apply")).on_hover_text("Replace these tracks' keys, as one undo step");
                if apply.clicked() {
                    if let Some(c) = &self.computed {
                        out.push(AppCommand::ApplySimplify(c.reports.clone(), c.preview.clone()));
                    }
                    close = true;
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
        if !open || close {
            self.open = false;
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
                        ui.label(format!("{:.2e}", x.max_error));
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
