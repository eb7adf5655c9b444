//! The speed graph under the value graph: `|dP/dt|` of the active track against time, drawn
//! segment by segment so the jumps at keys show as vertical steps. For TCB tracks both
//! tangent modes are drawn — the track's own solid, the other dashed — so the difference
//! Seed and TimeAdjusted make at unevenly spaced keys is visible. The series come from
//! [`crate::analysis`]; the other mode's curve is compiled once per change of the track.

use eframe::egui;
use egui_plot::{Legend, Line, LineStyle, Plot, PlotPoints, VLine};

use super::commands::AppCommand;
use super::style::{track_color, AXIS_WIDTH, PLAYHEAD};
use super::{Panel, PanelContext};
use crate::analysis::{curve_with_other_tangents, speed_series};
use crate::{Interpolation, TrackCurve, TrackError, TrackKind};

/// The speed graph, and the active track's curve in the other tangent mode.
#[derive(Default)]
pub struct SpeedGraph {
    /// `(track, curve stamp)` → the curve with the other tangent mode.
    other: Option<((usize, u64), Result<TrackCurve, TrackError>)>,
}

impl SpeedGraph {
    fn other_curve(&mut self, cx: &PanelContext<'_>, ti: usize) -> Option<&TrackCurve> {
        let key = (ti, cx.doc.curve_stamp(ti)?);
        if self.other.as_ref().is_none_or(|(k, _)| *k != key) {
            self.other = Some((key, curve_with_other_tangents(&cx.project().tracks[ti])));
        }
        self.other.as_ref().and_then(|(_, c)| c.as_ref().ok())
    }
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
        let other = if tcb { self.other_curve(cx, ti) } else { None };
        Plot::new("speed_graph")
            .legend(Legend::default())
            .x_axis_label("time (s)")
            .y_axis_label("speed |dP/dt|")
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
                let (x0, x1) = (b.min()[0], b.max()[0]);
                let mode = if tcb { format!(" ({:?})", track.tangents) } else { String::new() };
                plot_ui.line(Line::new(format!("{}{mode}", track.name), PlotPoints::from(speed_series(curve, x0, x1))).color(color).width(2.0));
                if let Some(c) = other {
                    plot_ui.line(
                        Line::new(format!("{} ({:?})", track.name, c.tangent_mode()), PlotPoints::from(speed_series(c, x0, x1)))
                            .color(color.gamma_multiply(0.6))
                            .style(LineStyle::dashed_dense())
                            .width(1.5),
                    );
                }
                plot_ui.vline(VLine::new("", cx.playhead()).color(PLAYHEAD).width(1.0));
            });
    }
}
