//! The stacked graph's lanes (View > Stacked curves, `Shift+N`): a thin line between lanes and,
//! at the left of each, the curve's name and the value range its lane spans, in the track's
//! units — the numbers the value axis cannot give when every lane has its own scale.

use eframe::egui::{Align2, Color32, RichText};
use egui_plot::{HLine, LineStyle, PlotPoint, PlotUi, Text};

use super::display::{display, lane_centre, lanes, LANE_HALF};
use crate::app::panel::PanelContext;
use crate::app::style::{component_color, track_color};
use crate::app::units::{shown, unit};

/// Separators between lanes: faint, so the curves stay what the eye follows.
const SEPARATOR: Color32 = Color32::from_rgba_premultiplied(90, 90, 90, 90);

/// Draws the lanes' separators and labels over the plot's visible lanes.
pub fn draw_lanes(plot_ui: &mut PlotUi<'_>, cx: &PanelContext<'_>) {
    let bounds = plot_ui.plot_bounds();
    let (x0, y0, y1) = (bounds.min()[0], bounds.min()[1], bounds.max()[1]);
    let tracks = &cx.project().tracks;
    for (lane, (ti, comp)) in lanes(cx).into_iter().enumerate() {
        let centre = lane_centre(lane);
        if centre + 1.0 < y0 || centre - 1.0 > y1 {
            continue;
        }
        plot_ui.hline(HLine::new("", centre - 1.0).color(SEPARATOR).width(1.0).style(LineStyle::Solid));
        let track = &tracks[ti];
        let d = display(cx, ti, comp);
        let (lo, hi) = (d.value(centre - LANE_HALF), d.value(centre + LANE_HALF));
        let in_unit = unit(track.kind).unwrap_or("file units");
        let name = if track.kind.dim() == 1 { track.name.clone() } else { format!("{}.{}", track.name, track.kind.component_names()[comp]) };
        let label = format!("{name}  {:.3} … {:.3} {in_unit}", shown(track.kind, lo), shown(track.kind, hi));
        let color = component_color(track_color(track, ti), comp, track.kind.dim());
        plot_ui.text(Text::new("", PlotPoint::new(x0, centre + LANE_HALF), RichText::new(label).color(color).small()).anchor(Align2::LEFT_TOP));
    }
}
