//! Edit > Smooth…: a Butterworth low-pass (cutoff, order), a Gaussian (sigma) or a median
//! (window) with [`crate::smooth`]. With keys selected, each of their tracks is filtered as a
//! whole signal and only the selected keys take the filtered values
//! ([`crate::smooth::smooth_keys`]: unselected keys keep theirs exactly); with none, the active
//! track is smoothed whole. Previewed over a ghost of the original; the table gives, per
//! track, the largest difference measured and the keys' rate (or their resampling), or why
//! the track cannot be smoothed (with the valid range); the report warns when the keys cross
//! a jump (a filter smears it).

use eframe::egui;

use crate::app::document::targets::plural;
use crate::app::document::DocState;
use crate::app::message::Status;
use crate::app::tool::{Tool, ToolInfo, ToolMenu, ToolResult, ToolText, ToolView};
use crate::app::units::{fmt_measured, Largest, Measured};
use crate::smooth::{smooth_keys, smooth_track, Filter, Smoothed, DEFAULT_ORDER, MAX_ORDER};
use crate::Track;

/// Which filter the window shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Butterworth,
    Gaussian,
    Median,
}

/// The filter's choice and each filter's parameters (kept while another is chosen).
pub struct Settings {
    kind: Kind,
    cutoff_hz: f64,
    order: usize,
    sigma_s: f64,
    window_s: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Self { kind: Kind::Butterworth, cutoff_hz: 6.0, order: DEFAULT_ORDER, sigma_s: 0.02, window_s: 0.1 }
    }
}

pub struct Smooth;

impl Tool for Smooth {
    type Settings = Settings;
    type Asked = Filter;
    type Report = Smoothed;

    const INFO: &'static ToolInfo = &ToolInfo {
        name: "Smooth",
        text: "Smooth…",
        tooltip: "Smooth the selected keys (each track filtered as a whole, only the selected keys' values change) or, with none selected, the active track: Butterworth, Gaussian or median, as scipy; previewed over a ghost of the original with the largest difference measured per track; one undo step",
        menus: &[ToolMenu::Edit],
        shortcut: Some(egui::KeyboardShortcut::new(egui::Modifiers::ALT, egui::Key::O)),
    };
    const TEXT: ToolText = ToolText {
        working: "smoothing…",
        again: "smoothing again…",
        nothing: "Nothing to smooth: select keys on a track, or click one.",
        apply: "Apply",
        apply_tips: ("Replace these tracks' keys by the smoothed ones, as one undo step", "No track here can be smoothed, or the preview is being made"),
        columns: &["max difference", "keys"],
    };
    const WARNS_JUMPS: bool = true;

    fn controls(ui: &mut egui::Ui, s: &mut Settings, _view: &ToolView<'_>) {
        ui.label("Filters each track's keys as a signal; with keys selected, only they take the filtered values. The original stays drawn as a ghost. The difference is measured over the curves, not only at keys.");
        ui.horizontal(|ui| {
            ui.radio_value(&mut s.kind, Kind::Butterworth, "Butterworth").on_hover_text("Zero-phase low-pass (filtfilt), as scipy.signal.butter + filtfilt");
            ui.radio_value(&mut s.kind, Kind::Gaussian, "Gaussian").on_hover_text("scipy.ndimage.gaussian_filter1d, mode 'nearest'");
            ui.radio_value(&mut s.kind, Kind::Median, "Median").on_hover_text("scipy.ndimage.median_filter, mode 'nearest': removes spikes");
        });
        ui.horizontal(|ui| match s.kind {
            Kind::Butterworth => {
                ui.label("cutoff");
                ui.add(egui::DragValue::new(&mut s.cutoff_hz).range(0.0..=1e6).speed(0.1).suffix(" Hz"))
                    .on_hover_text("Above 0 and below half the keys' rate (the Nyquist rate)")
                    .accessible_name("smooth cutoff");
                ui.label("order");
                ui.add(egui::DragValue::new(&mut s.order).range(1..=MAX_ORDER)).accessible_name("smooth order");
            }
            Kind::Gaussian => {
                ui.label("sigma");
                ui.add(egui::DragValue::new(&mut s.sigma_s).range(0.0..=1e3).speed(0.001).suffix(" s")).accessible_name("smooth sigma");
            }
            Kind::Median => {
                ui.label("window");
                ui.add(egui::DragValue::new(&mut s.window_s).range(0.0..=1e3).speed(0.005).suffix(" s")).accessible_name("smooth window");
            }
        });
    }

    fn asked(s: &Settings, _view: &ToolView<'_>) -> Result<Filter, String> {
        let f = match s.kind {
            Kind::Butterworth => Filter::butterworth(s.cutoff_hz, s.order),
            Kind::Gaussian => Filter::gaussian(s.sigma_s),
            Kind::Median => Filter::median(s.window_s),
        };
        f.map_err(|e| e.to_string())
    }

    fn run_track(track: &Track, keys: Option<&[usize]>, filter: &Filter) -> Result<Smoothed, String> {
        match keys {
            Some(keys) => smooth_keys(track, keys, filter),
            None => smooth_track(track, filter),
        }
        .map_err(|e| e.to_string())
    }

    fn new_track(s: &Smoothed) -> Option<&Track> {
        Some(&s.track)
    }

    fn row(ui: &mut egui::Ui, s: &Smoothed) {
        ui.label(fmt_measured(s.max_difference, Measured::of(s.track.kind, Measured::Degrees), 3));
        let keys = s.selected.map_or(s.keys.to_string(), |k| format!("{k} of {}", s.keys));
        match (s.resampled, s.selected) {
            (Some(dt), None) => ui.label(format!("{keys} (resampled at {dt:.4} s: keys were not uniform)")),
            (Some(dt), Some(_)) => ui.label(format!("{keys} (filtered resampled at {dt:.4} s: keys are not uniform; the keys stay)")),
            (None, _) => ui.label(format!("{keys} (uniform at {:.3} Hz)", s.rate)),
        };
    }

    fn summary(ui: &mut egui::Ui, made: &ToolResult<Self>) {
        let ok = made.reports().count();
        match selected_keys(made) {
            Some((keys, tracks)) => {
                ui.label(format!("Changes {keys} selected key{} on {tracks} track{}; the other keys keep their values.", plural(keys), plural(tracks)))
            }
            None => ui.label(format!("Changes every key of {ok} track{} (no key is selected).", plural(ok))),
        };
    }

    /// Tracks smoothed whole leave the selection (resampled tracks have other keys); where
    /// only selected keys changed, they stay selected.
    fn apply(doc: &mut DocState, made: &ToolResult<Self>) -> Status {
        let (applied, refused) = made.replace_in(doc);
        let whole: Vec<usize> = made.reports().filter(|(t, s)| s.selected.is_none() && applied.contains(&t.index)).map(|(t, _)| t.index).collect();
        doc.deselect_tracks(&whole);
        let (mut worst, mut resampled) = (Largest::default(), 0);
        for (_, s) in made.reports().filter(|(t, _)| applied.contains(&t.index)) {
            worst.add(s.max_difference, Measured::of(s.track.kind, Measured::Degrees));
            resampled += usize::from(s.resampled.is_some() && s.selected.is_none());
        }
        let n = applied.len();
        let what = match selected_keys(made) {
            Some((k, _)) if n > 0 => format!("Smoothed {k} selected key{} on {n} track{}", plural(k), plural(n)),
            _ => format!("Smoothed {n} track{}", plural(n)),
        };
        let text = format!("{what}: largest difference {}{}", worst.text(3), if resampled > 0 { format!(", {resampled} resampled") } else { String::new() });
        match (n, refused.or_else(|| made.first_error())) {
            (0, Some(e)) => Status::error(format!("Smooth: {e}")),
            (0, None) => Status::message("Smooth: select keys on a track, or click one"),
            (_, Some(e)) => Status::error(format!("{text}; {e}, left as it was")),
            (_, None) => Status::message(text),
        }
    }
}

/// How many keys change on how many tracks: `Some((keys, tracks))` when keys are selected
/// (only they change), `None` when whole tracks are smoothed.
fn selected_keys(made: &ToolResult<Smooth>) -> Option<(usize, usize)> {
    let counts: Vec<usize> = made.reports().filter_map(|(_, s)| s.selected).collect();
    (!counts.is_empty()).then(|| (counts.iter().sum(), counts.len()))
}
