//! The speed graph under the value graph: `|dP/dt|` of the active track against time, drawn
//! segment by segment so the jumps at keys show as vertical steps. For TCB tracks both
//! tangent modes are drawn — the track's own solid, the other dashed — so the difference
//! Seed and TimeAdjusted make at unevenly spaced keys is visible. The series come from
//! [`crate::analysis`], at most about two points per pixel column, and are kept until the
//! track, the visible range or the width changes (an idle repaint computes nothing). The
//! other mode's curve is compiled from the keys in view only (exact there: a TCB segment
//! depends on its neighbours alone), and left out when more segments than pixel columns are
//! in view, where the two would differ by less than a pixel. An Euler track's speed is in
//! degrees per second, as its curves are drawn in degrees (`units.rs`).

use eframe::egui;
use egui_plot::{Legend, Line, LineStyle, Plot, PlotPoints, VLine};

use super::commands::AppCommand;
use super::panel::{Panel, PanelContext};
use super::style::{track_color, AXIS_WIDTH, PLAYHEAD};
use super::units::{display_scale, unit};
use crate::analysis::{other_tangents_between, speed_series_within};
use crate::{Interpolation, Track, TrackCurve, TrackKind};

/// What the series were computed for: track, curve stamp, visible range, width in pixels.
type SeriesKey = (usize, u64, f64, f64, usize);

/// The speed graph and its series, kept between frames.
#[derive(Default)]
pub struct SpeedGraph {
    /// The track's speed and, for TCB tracks, the other tangent mode's (when drawn).
    series: Option<(SeriesKey, Vec<[f64; 2]>, Option<Vec<[f64; 2]>>)>,
}

impl SpeedGraph {
    fn series(&mut self, key: SeriesKey, track: &Track, curve: &TrackCurve) -> (&[[f64; 2]], Option<&[[f64; 2]]>) {
        if self.series.as_ref().is_none_or(|(k, ..)| *k != key) {
            let (_, _, x0, x1, width) = key;
            let scale = display_scale(track.kind);
            let shown = |series: Vec<[f64; 2]>| if scale == 1.0 { series } else { series.into_iter().map(|[t, v]| [t, v * scale]).collect() };
            let own = shown(speed_series_within(curve, x0, x1, 2 * width));
            let other = (track.interpolation == Interpolation::Tcb).then(|| other_series(track, curve, (x0, x1), width)).flatten().map(shown);
            self.series = Some((key, own, other));
        }
        let (_, own, other) = self.series.as_ref().expect("just computed");
        (own, other.as_deref())
    }
}

/// The other tangent mode's speed over `[x0, x1]`, from the keys in view and two more on each
/// side; `None` when more segments than pixel columns are in view.
fn other_series(track: &Track, curve: &TrackCurve, (x0, x1): (f64, f64), width: usize) -> Option<Vec<[f64; 2]>> {
    let times = curve.times();
    let first = times.partition_point(|&t| t < x0).saturating_sub(3);
    let last = (times.partition_point(|&t| t <= x1) + 2).min(times.len());
    if last - first > width {
        return None;
    }
    let part = other_tangents_between(track, first..last).ok()?;
    Some(speed_series_within(&part, x0, x1, 2 * width))
}

impl Panel for SpeedGraph {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, _out: &mut Vec<AppCommand>) {
        let Some(ti) = cx.doc.active_track else {
            ui.label("Speed graph: click a track or key to choose the track.");
            return;
        };
        let track = &cx.project().tracks[ti];
        let Some(Ok(curve)) = cx.doc.curve(ti) else {
            return;
        };
        if track.kind == TrackKind::Quat || track.interpolation == Interpolation::Step {
            ui.label(format!("Speed graph: \"{}\" is a {:?} {:?} track, which has no speed to plot.", track.name, track.kind, track.interpolation));
            return;
        }
        let color = track_color(track, ti);
        let tcb = track.interpolation == Interpolation::Tcb;
        let stamp = cx.doc.curve_stamp(ti).unwrap_or(0);
        crate::app::time_axis::time_axis(Plot::new("speed_graph"), cx.view.frame_axis, cx.project().fps)
            .legend(Legend::default())
            .y_axis_label(unit(track.kind).map_or_else(|| "speed |dP/dt|".to_owned(), |u| format!("speed |dP/dt| ({u}/s)")))
            .y_axis_min_width(AXIS_WIDTH)
            .allow_drag(false)
            .allow_boxed_zoom(false)
            .link_axis(egui::Id::unique("time axis"), [true, false])
            .link_cursor(egui::Id::unique("time axis"), [true, false])
            .include_y(0.0)
            // The time range comes from the value graph through the link; fitting it here too
            // would feed back and make the view drift.
            .auto_bounds(egui::Vec2b::new(false, true))
            .show(ui, |plot_ui| {
                let b = plot_ui.plot_bounds();
                let width = plot_ui.transform().frame().width().max(1.0) as usize;
                let (own, other) = self.series((ti, stamp, b.min()[0], b.max()[0], width), track, curve);
                let mode = if tcb { format!(" ({:?})", track.tangents) } else { String::new() };
                plot_ui.line(Line::new(format!("{}{mode}", track.name), PlotPoints::from(own.to_vec())).color(color).width(2.0));
                if let Some(other) = other {
                    plot_ui.line(
                        Line::new(format!("{} ({:?})", track.name, crate::analysis::other_tangent_mode(track.tangents)), PlotPoints::from(other.to_vec()))
                            .color(color.gamma_multiply(0.6))
                            .style(LineStyle::dashed_dense())
                            .width(1.5),
                    );
                }
                plot_ui.vline(VLine::new("", cx.playhead()).color(PLAYHEAD).width(1.0));
            });
    }
}
