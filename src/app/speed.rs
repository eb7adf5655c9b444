//! The speed graph under the value graph: `|dP/dt|` of the active track against time, drawn
//! segment by segment so the jumps at keys show as vertical steps. For TCB tracks both
//! tangent modes are drawn — the track's own solid, the other dashed — so the difference
//! Seed and TimeAdjusted make at unevenly spaced keys is visible.

use eframe::egui;
use egui_plot::{Legend, Line, LineStyle, Plot, PlotPoints, VLine};
use tangent::{Interpolation, TangentMode, TrackCurve, TrackKind};

use super::state::AppState;
use super::style::track_color;

/// Samples per segment, reduced on long tracks so a frame stays cheap.
const SAMPLES_PER_SEGMENT: usize = 32;
const MAX_POINTS: usize = 4000;

/// `(t, |dP/dt|)` over the keyed range within `[x0, x1]`, each segment from its start (right
/// limit) to its end (left limit).
pub fn speed_series(curve: &TrackCurve, x0: f64, x1: f64) -> Vec<[f64; 2]> {
    let times = curve.times();
    let first = times.partition_point(|&t| t < x0).saturating_sub(1);
    let last = times.partition_point(|&t| t <= x1).min(curve.segment_count());
    if last.saturating_sub(first) > MAX_POINTS / 4 {
        // Too many segments in view to draw each: sample evenly (the jumps are sub-pixel).
        let mut cursor = tangent::SegmentCursor::new();
        let mut v = vec![0.0; curve.dim()];
        return (0..=MAX_POINTS)
            .map(|i| {
                let t = x0 + (x1 - x0) * i as f64 / MAX_POINTS as f64;
                curve.velocity(&mut cursor, t, &mut v);
                [t, v.iter().map(|x| x * x).sum::<f64>().sqrt()]
            })
            .collect();
    }
    let segs: Vec<usize> = (first..last).filter(|&s| times[s + 1] > times[s]).collect();
    let per = (MAX_POINTS / segs.len().max(1)).clamp(2, SAMPLES_PER_SEGMENT);
    let mut out = Vec::with_capacity(segs.len() * (per + 1));
    for s in segs {
        for i in 0..=per {
            let u = i as f64 / per as f64;
            let t = times[s] + u * (times[s + 1] - times[s]);
            if (x0..=x1).contains(&t) {
                out.push([t, curve.segment_speed(s, u)]);
            }
        }
    }
    out
}

pub fn ui(ui: &mut egui::Ui, state: &mut AppState) {
    let Some(ti) = state.active_track else {
        ui.label("Speed graph: click a track or key to choose the track.");
        return;
    };
    let track = state.project().tracks[ti].clone();
    let Some(Ok(curve)) = state.curve(ti) else {
        return;
    };
    if track.kind == TrackKind::Quat || track.interpolation == Interpolation::Step {
        ui.label(format!("Speed graph: \"{}\" is a {:?} {:?} track, which has no speed to plot.", track.name, track.kind, track.interpolation));
        return;
    }
    let color = track_color(&track, ti);
    let other = (track.interpolation == Interpolation::Tcb).then(|| {
        let mut t = track.clone();
        t.tangents = match t.tangents {
            TangentMode::Seed => TangentMode::TimeAdjusted,
            TangentMode::TimeAdjusted => TangentMode::Seed,
        };
        (t.tangents, TrackCurve::new(&t))
    });
    Plot::new("speed_graph")
        .legend(Legend::default())
        .x_axis_label("time (s)")
        .y_axis_label("speed |dP/dt|")
        .y_axis_min_width(super::graph::AXIS_WIDTH)
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
            let (x0, x1) = (b.min()[0], b.max()[0]);
            let mode = if track.interpolation == Interpolation::Tcb { format!(" ({:?})", track.tangents) } else { String::new() };
            plot_ui.line(Line::new(format!("{}{mode}", track.name), PlotPoints::from(speed_series(curve, x0, x1))).color(color).width(2.0));
            if let Some((m, Ok(c))) = &other {
                plot_ui.line(
                    Line::new(format!("{} ({m:?})", track.name), PlotPoints::from(speed_series(c, x0, x1)))
                        .color(color.gamma_multiply(0.6))
                        .style(LineStyle::dashed_dense())
                        .width(1.5),
                );
            }
            plot_ui.vline(VLine::new("", state.playhead).color(egui::Color32::from_rgb(240, 80, 60)).width(1.0));
        });
}
