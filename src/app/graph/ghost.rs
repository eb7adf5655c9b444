//! Ghost curves: the original curve drawn faint and dashed beside what replaces it — while
//! Edit > Smooth… or Key > Scale time… is open (the new curve drawn amber over it), while a
//! blend slider moves keys, and after a Smooth, Simplify, Scale time or blend was applied,
//! until View > Clear ghost (as Blender's ghost curves); and the export as a runtime plays it
//! while View > Preview runtime is on.

use eframe::egui::Color32;
use egui_plot::{Line, LineStyle, PlotPoints, PlotUi};

use super::display::{component_shown, display, Display};
use super::lod::{columns, envelope_series};
use crate::app::document::targets::Ghost;
use crate::app::panel::PanelContext;
use crate::app::style::{component_color, track_color, PREVIEW};
use crate::TrackCurve;

/// How strongly a ghost is drawn (alpha of the track's colour).
const GHOST_ALPHA: u8 = 110;

/// The ghost of the last tool applied.
pub fn draw_ghost(plot_ui: &mut PlotUi<'_>, cx: &PanelContext<'_>, ghost: &Ghost) {
    for (ti, curve) in &ghost.tracks {
        draw_ghost_curve(plot_ui, cx, *ti, curve);
    }
}

/// A tool's preview drawn over a ghost (Edit > Smooth…, Key > Scale time…): each track's current curve as a
/// ghost, the curve that would replace it amber (`style::PREVIEW`).
pub fn draw_over_ghost<'a>(plot_ui: &mut PlotUi<'_>, cx: &PanelContext<'_>, previews: impl Iterator<Item = (usize, &'a TrackCurve)>) {
    for (ti, new) in previews {
        let Some(Ok(original)) = cx.doc.curve(ti) else { continue };
        if draw_ghost_curve(plot_ui, cx, ti, original) {
            draw_series(plot_ui, cx, ti, new, |_| (PREVIEW, false));
        }
    }
}

/// One track's `curve` faint and dashed in its colours; whether it was drawn (the track is
/// still there with as many components, and its curve is drawn).
fn draw_ghost_curve(plot_ui: &mut PlotUi<'_>, cx: &PanelContext<'_>, ti: usize, curve: &TrackCurve) -> bool {
    let Some(track) = cx.project().tracks.get(ti) else { return false };
    if !cx.curve_drawn(ti) || track.kind.dim() != curve.dim() {
        return false;
    }
    let base = track_color(track, ti);
    let dim = curve.dim();
    draw_series(plot_ui, cx, ti, curve, |c| {
        let color = component_color(base, c, dim);
        (Color32::from_rgba_unmultiplied(color.r(), color.g(), color.b(), GHOST_ALPHA), true)
    });
    true
}

/// `curve`'s shown components across the view, each in the colour `style(c)` gives, dashed
/// or not.
fn draw_series(plot_ui: &mut PlotUi<'_>, cx: &PanelContext<'_>, ti: usize, curve: &TrackCurve, style: impl Fn(usize) -> (Color32, bool)) {
    let displays: Vec<Display> = (0..curve.dim()).map(|c| display(cx, ti, c)).collect();
    let (range, n) = columns(plot_ui);
    for (c, points) in envelope_series(curve, None, range, n, &displays).into_iter().enumerate() {
        if component_shown(cx, ti, c) {
            let (color, dashed) = style(c);
            let line = Line::new("", PlotPoints::from(points)).color(color).width(1.5);
            plot_ui.line(if dashed { line.style(LineStyle::dashed_loose()) } else { line });
        }
    }
}
