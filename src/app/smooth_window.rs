//! Edit > Smooth…: a Butterworth low-pass (cutoff, order), a Gaussian (sigma) or a median
//! (window) with [`crate::smooth`]. With keys selected, each of their tracks is filtered as a
//! whole signal and only the selected keys take the filtered values
//! ([`crate::smooth::smooth_keys`]: unselected keys keep theirs exactly); with none, the active
//! track is smoothed whole. The smoothing runs on a worker whenever the filter or the document
//! changes; while the window is open the graph draws each smoothed curve beside a ghost of the
//! original ([`AppCommand::SetSmoothPreview`]), the window says how many keys of how many
//! tracks change, and the table gives, per track, the largest difference measured and the
//! keys' rate (or their resampling), or why the track cannot be smoothed (with the valid
//! range). Apply puts the tracks in place as one undo step — if the document, its revision and
//! the selection are still those the smoothing was made for.

use eframe::egui;

use super::commands::AppCommand;
use super::document::cleanup::{plural, smooth_targets, Smoothing};
use super::jobs::Job;
use super::panel::{Panel, PanelContext};
use super::payload::{Basis, Window};
use super::preview_job::Previewed;
use crate::smooth::{Filter, DEFAULT_ORDER, MAX_ORDER};

/// Which filter the window shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Butterworth,
    Gaussian,
    Median,
}

pub struct SmoothWindow {
    kind: Kind,
    cutoff_hz: f64,
    order: usize,
    sigma_s: f64,
    window_s: f64,
    /// The last result made and the one in flight.
    preview: Previewed<(Filter, Basis), Smoothing>,
}

impl Default for SmoothWindow {
    fn default() -> Self {
        Self { kind: Kind::Butterworth, cutoff_hz: 6.0, order: DEFAULT_ORDER, sigma_s: 0.02, window_s: 0.1, preview: Previewed::default() }
    }
}

impl SmoothWindow {
    /// The filter asked, or why it is not one (a sigma of 0, say).
    fn filter(&self) -> Result<Filter, String> {
        let f = match self.kind {
            Kind::Butterworth => Filter::butterworth(self.cutoff_hz, self.order),
            Kind::Gaussian => Filter::gaussian(self.sigma_s),
            Kind::Median => Filter::median(self.window_s),
        };
        f.map_err(|e| e.to_string())
    }

    /// Starts smoothing for `asked` on a worker thread unless it is already running.
    fn start(&mut self, cx: &PanelContext<'_>, asked: (Filter, Basis), ctx: &egui::Context) {
        if self.preview.is_running(&asked) {
            return;
        }
        // The document's project shared, not copied.
        let project = cx.doc.document.shared_project();
        let which = cx.doc.cleanup_targets();
        let job = Job::spawn("Smooth", Some(ctx), move |w| smooth_targets(&project, &which, asked.0, asked.1, &|| w.cancelled()));
        self.preview.run(asked, job.made_for(asked.1));
    }

    fn close(&mut self, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if self.preview.clear() || cx.ui.smooth_preview.is_some() {
            out.push(AppCommand::SetSmoothPreview(None));
        }
    }

    /// The filter's choice and its parameters.
    fn controls(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.kind, Kind::Butterworth, "Butterworth").on_hover_text("Zero-phase low-pass (filtfilt), as scipy.signal.butter + filtfilt");
            ui.radio_value(&mut self.kind, Kind::Gaussian, "Gaussian").on_hover_text("scipy.ndimage.gaussian_filter1d, mode 'nearest'");
            ui.radio_value(&mut self.kind, Kind::Median, "Median").on_hover_text("scipy.ndimage.median_filter, mode 'nearest': removes spikes");
        });
        ui.horizontal(|ui| match self.kind {
            Kind::Butterworth => {
                ui.label("cutoff");
                ui.add(egui::DragValue::new(&mut self.cutoff_hz).range(0.0..=1e6).speed(0.1).suffix(" Hz"))
                    .on_hover_text("Above 0 and below half the keys' rate (the Nyquist rate)")
                    .accessible_name("smooth cutoff");
                ui.label("order");
                ui.add(egui::DragValue::new(&mut self.order).range(1..=MAX_ORDER)).accessible_name("smooth order");
            }
            Kind::Gaussian => {
                ui.label("sigma");
                ui.add(egui::DragValue::new(&mut self.sigma_s).range(0.0..=1e3).speed(0.001).suffix(" s")).accessible_name("smooth sigma");
            }
            Kind::Median => {
                ui.label("window");
                ui.add(egui::DragValue::new(&mut self.window_s).range(0.0..=1e3).speed(0.005).suffix(" s")).accessible_name("smooth window");
            }
        });
    }
}

impl Panel for SmoothWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if !cx.ui.windows.is_open(Window::Smooth) {
            self.close(cx, out);
            return;
        }
        if self.preview.poll() {
            out.push(AppCommand::SetSmoothPreview(self.preview.computed.clone()));
        }
        let filter = self.filter();
        let asked = filter.as_ref().ok().map(|f| (*f, cx.doc.basis()));
        if let Some(asked) = asked {
            if self.preview.computed.as_ref().is_none_or(|c| (c.filter, c.made_for) != asked) {
                self.start(cx, asked, ui.ctx());
            }
        }
        let (mut open, mut close) = (true, false);
        open &= super::style::tool_window(ui, "Smooth", cx.view.dock_tools, |ui| {
            ui.label("Filters each track's keys as a signal; with keys selected, only they take the filtered values. The original stays drawn as a ghost. The difference is measured over the curves, not only at keys.");
            self.controls(ui);
            let fresh = self.preview.computed.as_ref().is_some_and(|c| Some((c.filter, c.made_for)) == asked);
            match (&filter, &self.preview.computed) {
                (Err(e), _) => _ = ui.colored_label(ui.visuals().error_fg_color, e),
                (Ok(_), None) => {
                    _ = ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("smoothing…");
                    })
                }
                (Ok(_), Some(c)) => report_table(ui, c, fresh),
            }
            let any = self.preview.computed.as_ref().is_some_and(|c| c.tracks.iter().any(|t| t.2.is_ok()));
            let tips = ("Replace these tracks' keys by the smoothed ones, as one undo step", "No track here can be smoothed, or the preview is being made");
            let (apply, closes) = super::style::apply_or_cancel(ui, "Apply", fresh && any, tips);
            if let (true, Some(c)) = (apply, &self.preview.computed) {
                out.push(AppCommand::ApplySmooth(c.clone()));
            }
            close |= closes;
        });
        if !open || close {
            out.push(AppCommand::CloseWindow(Window::Smooth));
        }
    }
}

fn report_table(ui: &mut egui::Ui, smoothing: &Smoothing, fresh: bool) {
    if smoothing.tracks.is_empty() {
        ui.label("Nothing to smooth: select keys on a track, or click one.");
        return;
    }
    let ok = smoothing.tracks.iter().filter(|t| t.2.is_ok()).count();
    match smoothing.selected_keys() {
        Some((keys, tracks)) => {
            ui.label(format!("Changes {keys} selected key{} on {tracks} track{}; the other keys keep their values.", plural(keys), plural(tracks)))
        }
        None => ui.label(format!("Changes every key of {ok} track{} (no key is selected).", plural(ok))),
    };
    super::style::body_line(ui, &smoothing.body);
    super::style::jumps_warning(ui, &smoothing.crossed);
    super::style::track_table(ui, "smooth report", |ui| {
        egui::Grid::new("smooth report").num_columns(3).striped(true).show(ui, |ui| {
            ui.strong("track");
            ui.strong("max difference");
            ui.strong("keys");
            ui.end_row();
            for (_, name, result) in &smoothing.tracks {
                ui.label(name);
                match result {
                    Ok(s) => {
                        let s = &s.smoothed;
                        let unit = super::units::Measured::of(s.track.kind, super::units::Measured::Degrees);
                        ui.label(super::units::fmt_measured(s.max_difference, unit, 3));
                        let keys = s.selected.map_or(s.keys.to_string(), |k| format!("{k} of {}", s.keys));
                        match (s.resampled, s.selected) {
                            (Some(dt), None) => ui.label(format!("{keys} (resampled at {dt:.4} s: keys were not uniform)")),
                            (Some(dt), Some(_)) => ui.label(format!("{keys} (filtered resampled at {dt:.4} s: keys are not uniform; the keys stay)")),
                            (None, _) => ui.label(format!("{keys} (uniform at {:.3} Hz)", s.rate)),
                        };
                    }
                    Err(e) => {
                        ui.label("");
                        ui.colored_label(ui.visuals().error_fg_color, e);
                    }
                }
                ui.end_row();
            }
        });
    });
    if !fresh {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("smoothing again…");
        });
    }
}
