//! Drawing the value graph: each visible track's curve across the view (beyond its keys too),
//! its keys, the tangent arrows and handles of TCB keys, the Bézier handles of Bezier keys
//! (coloured by handle type), ease handles of selected keys, the box being dragged, and the
//! playhead.

use eframe::egui::{self, Color32, Vec2};
use egui_plot::{Arrows, Line, LineStyle, MarkerShape, PlotPoint, PlotPoints, PlotUi, Points, Polygon, Text, VLine};

use super::display::{component_shown, display, Display};
use super::hit::{ease_time, handle_tip, keys_in_view, tangent_tip, Target, EASE_OFFSET};
use super::lod::{columns, envelope_series, CURVE_COLUMNS};
use super::markers::MarkerSet;
use super::view::{Graph, GraphDrag};
use crate::app::panel::PanelContext;
use crate::app::style::{component_color, handle_color, track_color, EASE, INCOMING, OUTGOING, PLAYHEAD, PREVIEW, PROBLEM_SPIKE, PROBLEM_STEP};
use crate::app::tool::Drawn;
use crate::app::units::{fmt_shown, shown, unit};
use crate::edit::intent::{self, KeyRef};
use crate::handles::Side;
use crate::{HandleType, Interpolation, Track, TrackCurve, TrackKind};

/// Points drawn for all curves together (egui tessellates a line point at ~80 ns here): when
/// many curves are drawn at once — a select-all on a mocap take draws 600 — each is drawn in
/// fewer columns, down to [`CURVE_COLUMNS`]' minimum, so the frame stays interactive. Up to
/// 50 curves of a 1,000-pixel-wide graph are drawn in full.
const POINT_BUDGET: usize = 150_000;
/// Runs of selected keys in a dense track: white, a little transparent over the curve.
const SELECTED_RUN: Color32 = Color32::from_rgba_premultiplied(200, 200, 200, 200);
/// Above this many curves drawn, none is named in the legend (it would cover the plot); stacked,
/// none is (each lane is labelled).
const LEGEND_CURVES: usize = 12;

/// Draws the graph; returns the most points any one curve was drawn with (a few per pixel
/// column of the plot, whatever the number of keys).
pub fn draw(plot_ui: &mut PlotUi<'_>, cx: &PanelContext<'_>, graph: &mut Graph) -> usize {
    let mut most = 0;
    let drawn: Vec<usize> = (0..cx.project().tracks.len()).filter(|&ti| cx.curve_drawn(ti)).collect();
    let curves: usize = drawn.iter().map(|&ti| (0..cx.project().tracks[ti].kind.dim()).filter(|&c| component_shown(cx, ti, c)).count()).sum();
    let (range, width) = columns(plot_ui);
    let n = width.min(POINT_BUDGET / (3 * curves.max(1))).max(CURVE_COLUMNS.0);
    for ti in drawn {
        let Some(Ok(curve)) = cx.doc.curve(ti) else {
            continue;
        };
        most = most.max(draw_track(plot_ui, cx, graph, (ti, &cx.project().tracks[ti]), curve, (range, n, curves <= LEGEND_CURVES && !cx.view.stacked)));
    }
    graph.curves.retain(|ti| cx.curve_drawn(ti));
    graph.markers.retain(|ti| cx.curve_drawn(ti));
    graph.bands.retain(|ti| cx.curve_drawn(ti));
    // The tools' previews (`tool::Drawn`): in a band under the ghosts, over a ghost of their
    // own above them.
    for made in cx.ui.previews.iter() {
        if let Drawn::Band(band) = made.0.drawn() {
            draw_in_band(plot_ui, cx, &made.0.new_tracks(), band);
        }
    }
    if let Some(ghost) = cx.ui.shown_ghost() {
        super::ghost::draw_ghost(plot_ui, cx, ghost);
    }
    if let Some(played) = cx.ui.runtime_preview.ghost() {
        super::ghost::draw_ghost(plot_ui, cx, played);
    }
    for made in cx.ui.previews.iter() {
        match made.0.drawn() {
            Drawn::OverGhost => super::ghost::draw_over_ghost(plot_ui, cx, made.new_curves().into_iter()),
            Drawn::Nothing | Drawn::Band(_) => {}
        }
    }
    draw_drag_feedback(plot_ui, graph);
    // View > Problems: each jump of the document as it is, a dashed line at its time.
    if let Some(found) = &cx.ui.problems {
        let basis = cx.doc.basis();
        if found.made_for == (basis.document, basis.revision) {
            for jump in &found.jumps {
                let color = if jump.shape == crate::problems::JumpShape::Step { PROBLEM_STEP } else { PROBLEM_SPIKE };
                plot_ui.vline(VLine::new("", jump.time).color(color).width(1.0).style(LineStyle::dashed_loose()));
            }
        }
    }
    plot_ui.vline(VLine::new("", cx.playhead()).color(PLAYHEAD).width(1.5));
    most
}

/// Draws one track, its curves over `range` in `n` columns, `named` in the legend or not;
/// returns the points of its longest curve series.
fn draw_track(
    plot_ui: &mut PlotUi<'_>,
    cx: &PanelContext<'_>,
    graph: &mut Graph,
    (ti, track): (usize, &Track),
    curve: &TrackCurve,
    (range, n, named): ((f64, f64), usize, bool),
) -> usize {
    let bounds = plot_ui.plot_bounds();
    let (x0, x1) = (bounds.min()[0], bounds.max()[0]);
    let base = track_color(track, ti);
    let dim = curve.dim();
    let displays: Vec<Display> = (0..dim).map(|c| display(cx, ti, c)).collect();
    // Quaternion keys are drawn normalised, as the curve holds them: no stored-value ranges.
    let ranges = if track.kind == TrackKind::Quat { None } else { cx.doc.key_ranges(ti) };
    let series = graph.curves.series(ti, cx.doc.curve_stamp(ti).unwrap_or(0), curve, ranges, range, n, &displays).clone();
    let most = series.iter().map(Vec::len).max().unwrap_or(0);
    let names = track.kind.component_names();
    let (in_view, few) = keys_in_view(track, (x0, x1));
    let markers = if track.kind == TrackKind::Quat {
        Default::default()
    } else {
        let stamp = (cx.doc.curve_stamp(ti).unwrap_or(0), cx.doc.selection.generation());
        graph.markers.markers(plot_ui, cx, (ti, track), stamp, in_view.clone())
    };
    let active = cx.doc.active_track == Some(ti);
    // Keys denser than the pixel columns: the shown components' bands from one cached image
    // (`band.rs`), the lines below only for the legend.
    let dense = !track.locked && series.iter().all(|p| p.len() > DENSE_POINTS_PER_COLUMN * n);
    if dense {
        let shown: Vec<usize> = (0..dim).filter(|&c| component_shown(cx, ti, c)).collect();
        let lines: Vec<&[[f64; 2]]> = shown.iter().map(|&c| series[c].as_slice()).collect();
        let colors: Vec<Color32> = shown.iter().map(|&c| component_color(base, c, dim)).collect();
        let stamp = cx.doc.curve_stamp(ti).unwrap_or(0) ^ displays.iter().fold(0u64, |h, d| h.rotate_left(7) ^ d.bits());
        graph.bands.draw(plot_ui, ti, stamp, &lines, &colors);
    }
    let tangents = cx.view.show_tangents && track.interpolation == Interpolation::Tcb;
    let bezier = cx.view.show_tangents && track.interpolation == Interpolation::Bezier;
    for (c, points) in series.into_iter().enumerate() {
        if !component_shown(cx, ti, c) {
            continue;
        }
        // Unnamed items stay out of the legend; an Euler curve says it is in degrees.
        let in_unit = unit(track.kind).map_or(String::new(), |u| format!(" ({u})"));
        let name = match (named, dim) {
            (false, _) => String::new(),
            (true, 1) => format!("{}{in_unit}", track.name),
            (true, _) => format!("{}.{}{in_unit}", track.name, names[c]),
        };
        let color = component_color(base, c, dim);
        let first = points.first().copied();
        let mut line = Line::new(name.clone(), PlotPoints::from(points)).color(color).width(if active { 2.5 } else { 1.5 });
        if track.locked {
            line = line.style(LineStyle::dashed_loose());
        }
        if dense {
            // In the legend only: the band image is the curve.
            line = Line::new(name.clone(), PlotPoints::from(first.map(|p| vec![p]).unwrap_or_default())).color(color);
        }
        plot_ui.line(line);
        if track.kind == TrackKind::Quat {
            continue;
        }
        draw_keys(plot_ui, track, c, displays[c], &markers, (name, color));
        if tangents && few {
            draw_tangents(plot_ui, cx, graph, curve, ti, c, displays[c], in_view.clone());
        }
        if bezier && few {
            draw_bezier_handles(plot_ui, cx, graph, curve, (ti, c), displays[c], in_view.clone());
        }
    }
    if tangents && few {
        draw_ease_handles(plot_ui, cx, ti, in_view);
    }
    most
}

/// Points per pixel column above which a curve is dense: drawn as a band (`band.rs`).
pub const DENSE_POINTS_PER_COLUMN: usize = 2;

/// Key markers of component `c` ([`MarkerSet`]): plain ones as diamonds, selected ones bigger
/// and white, or in a dense track white runs along the curve.
fn draw_keys(plot_ui: &mut PlotUi<'_>, track: &Track, c: usize, d: Display, markers: &MarkerSet, (name, color): (String, Color32)) {
    let points = |keys: &[usize]| -> Vec<[f64; 2]> { keys.iter().map(|&i| [track.keys.time(i), d.show(track.keys.value(i)[c])]).collect() };
    if !markers.plain.is_empty() {
        plot_ui.points(Points::new(name.clone(), PlotPoints::from(points(&markers.plain))).shape(MarkerShape::Diamond).radius(4.5).color(color).filled(true));
    }
    if markers.runs.is_empty() && !markers.selected.is_empty() {
        plot_ui
            .points(Points::new(name, PlotPoints::from(points(&markers.selected))).shape(MarkerShape::Diamond).radius(6.5).color(Color32::WHITE).filled(true));
    }
    for run in &markers.runs {
        let keys = &markers.selected[run.clone()];
        if keys.len() == 1 {
            plot_ui.points(Points::new("", PlotPoints::from(points(keys))).shape(MarkerShape::Circle).radius(2.5).color(Color32::WHITE).filled(true));
        } else {
            plot_ui.line(Line::new("", PlotPoints::from(points(keys))).color(SELECTED_RUN).width(2.0));
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_tangents(
    plot_ui: &mut PlotUi<'_>,
    cx: &PanelContext<'_>,
    graph: &Graph,
    curve: &TrackCurve,
    ti: usize,
    c: usize,
    d: Display,
    keys: std::ops::Range<usize>,
) {
    let track = &cx.project().tracks[ti];
    let (mut in_from, mut in_to, mut out_from, mut out_to) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut handles_in = Vec::new();
    let mut handles_out = Vec::new();
    for ki in keys {
        let at = (track.keys.time(ki), d.show(track.keys.value(ki)[c]));
        let selected = cx.doc.selection.contains(&KeyRef { track: ti, key: ki });
        if let Some(tip) = tangent_tip(curve, ki, c, false, at, d) {
            in_from.push([tip.0, tip.1]);
            in_to.push([at.0, at.1]);
            if selected {
                handles_in.push([tip.0, tip.1]);
            }
        }
        if let Some(tip) = tangent_tip(curve, ki, c, true, at, d) {
            out_from.push([at.0, at.1]);
            out_to.push([tip.0, tip.1]);
            if selected {
                handles_out.push([tip.0, tip.1]);
            }
        }
    }
    // Unnamed items stay out of the legend.
    plot_ui.arrows(Arrows::new("", PlotPoints::from(in_from), PlotPoints::from(in_to)).color(INCOMING).tip_length(8.0));
    plot_ui.arrows(Arrows::new("", PlotPoints::from(out_from), PlotPoints::from(out_to)).color(OUTGOING).tip_length(8.0));
    plot_ui.points(Points::new("", PlotPoints::from(handles_in)).shape(MarkerShape::Circle).radius(5.0).color(INCOMING).filled(true));
    plot_ui.points(Points::new("", PlotPoints::from(handles_out)).shape(MarkerShape::Circle).radius(5.0).color(OUTGOING).filled(true));
    // "in"/"out" labels with the numbers, on hover.
    if let Some(Target::Tangent { key, comp, outgoing }) = graph.hover {
        if key.track == ti && comp == c {
            let at = (track.keys.time(key.key), d.show(track.keys.value(key.key)[c]));
            if let Some(tip) = tangent_tip(curve, key.key, c, outgoing, at, d) {
                let (label, v) = if outgoing { ("out rb", curve.outgoing_tangent(key.key)) } else { ("in ra", curve.incoming_tangent(key.key)) };
                let text = format!("{label} = {}", fmt_shown(track.kind, v.unwrap_or(&[])));
                let color = if outgoing { OUTGOING } else { INCOMING };
                plot_ui.text(Text::new("", PlotPoint::new(tip.0, tip.1), text).color(color).anchor(egui::Align2::LEFT_BOTTOM));
            }
        }
    }
}

/// The Bézier handles of component `c` of the keys in view: a line from the key to each
/// handle and a dot at its end, in the colour of the side's handle type; bigger dots on the
/// selected keys (those can be dragged). Hovering a handle shows its offset and type.
fn draw_bezier_handles(
    plot_ui: &mut PlotUi<'_>,
    cx: &PanelContext<'_>,
    graph: &Graph,
    curve: &TrackCurve,
    (ti, c): (usize, usize),
    d: Display,
    keys: std::ops::Range<usize>,
) {
    const TYPES: [HandleType; 5] = [HandleType::Free, HandleType::Aligned, HandleType::Vector, HandleType::Auto, HandleType::AutoClamped];
    let track = &cx.project().tracks[ti];
    // Per handle type: line starts, line ends, dots, dots of selected keys.
    let mut by_type: [[Vec<[f64; 2]>; 4]; 5] = Default::default();
    for ki in keys {
        let k = track.keys.key(ki);
        let at = (k.time, d.show(k.value[c]));
        let selected = cx.doc.selection.contains(&KeyRef { track: ti, key: ki });
        for (side, kind) in [(Side::Left, k.handles.0), (Side::Right, k.handles.1)] {
            let Some(tip) = handle_tip(&track.keys, curve, ki, c, side, at, d) else { continue };
            let slot = &mut by_type[TYPES.iter().position(|t| *t == kind).unwrap_or(0)];
            slot[0].push([at.0, at.1]);
            slot[1].push([tip.0, tip.1]);
            slot[if selected { 3 } else { 2 }].push([tip.0, tip.1]);
        }
    }
    for (kind, [from, to, dots, selected]) in TYPES.into_iter().zip(by_type) {
        if from.is_empty() {
            continue;
        }
        let color = handle_color(kind);
        // Unnamed items stay out of the legend.
        plot_ui.arrows(Arrows::new("", PlotPoints::from(from), PlotPoints::from(to)).color(color.gamma_multiply(0.8)).tip_length(0.0));
        plot_ui.points(Points::new("", PlotPoints::from(dots)).shape(MarkerShape::Circle).radius(3.0).color(color).filled(true));
        plot_ui.points(Points::new("", PlotPoints::from(selected)).shape(MarkerShape::Circle).radius(5.0).color(color).filled(true));
    }
    if let Some(Target::Handle { key, comp, side }) = graph.hover {
        if key.track == ti && comp == c {
            let k = track.keys.key(key.key);
            let at = (k.time, d.show(k.value[c]));
            if let (Some(tip), Some((l, r))) = (handle_tip(&track.keys, curve, key.key, c, side, at, d), curve.bezier_handles(key.key, c)) {
                let (name, h, kind) = if side == Side::Left { ("left", l, k.handles.0) } else { ("right", r, k.handles.1) };
                let in_unit = unit(track.kind).map_or(String::new(), |u| format!(" {u}"));
                let text = format!("{name} handle Δt = {:.3}, Δv = {:.3}{in_unit} ({kind:?})", h.0, shown(track.kind, h.1));
                plot_ui.text(Text::new("", PlotPoint::new(tip.0, tip.1), text).color(handle_color(kind)).anchor(egui::Align2::LEFT_BOTTOM));
            }
        }
    }
}

/// The ease handles of the selected keys among `keys` (the keys in view).
fn draw_ease_handles(plot_ui: &mut PlotUi<'_>, cx: &PanelContext<'_>, ti: usize, keys: std::ops::Range<usize>) {
    let track = &cx.project().tracks[ti];
    let d0 = display(cx, ti, 0);
    let mut from = Vec::new();
    let mut to = Vec::new();
    for kr in intent::in_keys(&cx.doc.selection, ti, keys) {
        let y = d0.show(track.keys.value(kr.key)[0]);
        if let Some(t) = ease_time(&track.keys, kr.key, true) {
            from.push([t, y]);
        }
        if let Some(t) = ease_time(&track.keys, kr.key, false) {
            to.push([t, y]);
        }
    }
    if from.is_empty() && to.is_empty() {
        return;
    }
    // Drawn below the key's level (the hit test uses the same offset).
    let offset = |pts: Vec<[f64; 2]>, plot_ui: &PlotUi<'_>| -> Vec<[f64; 2]> {
        let t = plot_ui.transform();
        pts.into_iter()
            .map(|[x, y]| {
                let v = t.value_from_position(t.position_from_point(&PlotPoint::new(x, y)) + Vec2::new(0.0, EASE_OFFSET));
                [v.x, v.y]
            })
            .collect()
    };
    let from = offset(from, plot_ui);
    let to = offset(to, plot_ui);
    plot_ui.points(Points::new("", PlotPoints::from(from)).shape(MarkerShape::Right).radius(6.0).color(EASE).filled(true));
    plot_ui.points(Points::new("", PlotPoints::from(to)).shape(MarkerShape::Left).radius(6.0).color(EASE).filled(true));
}

/// A tool's preview drawn in a band ([`Drawn::Band`], Simplify's): each new curve (amber,
/// `style::PREVIEW`) and its keys, between dashed lines at ±`band` around the original curve
/// (the band it must stay in; none when `None`).
fn draw_in_band(plot_ui: &mut PlotUi<'_>, cx: &PanelContext<'_>, tracks: &[(usize, &Track, &TrackCurve)], band: Option<f64>) {
    for &(ti, track, reduced) in tracks {
        let Some(Ok(original)) = cx.doc.curve(ti) else { continue };
        // The tracks whose curves are drawn (a large document draws the active and selected
        // ones), so that a preview of a whole take costs what is on screen.
        if !cx.curve_drawn(ti) || track.kind == TrackKind::Quat {
            continue;
        }
        let displays: Vec<Display> = (0..original.dim()).map(|c| display(cx, ti, c)).collect();
        let (range, n) = columns(plot_ui);
        let base = envelope_series(original, None, range, n, &displays);
        let fitted = envelope_series(reduced, None, range, n, &displays);
        for (c, (orig, fit)) in base.into_iter().zip(fitted).enumerate() {
            if !component_shown(cx, ti, c) {
                continue;
            }
            // Bounded on the body, a curve has no band of its own: its bound is the body's.
            if let Some(band) = band {
                let e = band * displays[c].scale;
                let color = Color32::from_rgba_unmultiplied(255, 255, 255, 90);
                for sign in [1.0, -1.0] {
                    let edge: Vec<[f64; 2]> = orig.iter().map(|p| [p[0], p[1] + sign * e]).collect();
                    plot_ui.line(Line::new("", PlotPoints::from(edge)).color(color).style(LineStyle::dashed_dense()).width(1.0));
                }
            }
            plot_ui.line(Line::new("", PlotPoints::from(fit)).color(PREVIEW).width(1.5));
            // The reduced keys in view, one by one while they are at most one per 4 pixels
            // (denser, the fitted curve shows them, as the graph's own markers do).
            let in_view = track.keys.partition_point(|t| t < range.0)..track.keys.partition_point(|t| t <= range.1);
            if in_view.len() <= n / 4 {
                let keys: Vec<[f64; 2]> = in_view.map(|i| [track.keys.time(i), displays[c].show(track.keys.value(i)[c])]).collect();
                plot_ui.points(Points::new("", PlotPoints::from(keys)).shape(MarkerShape::Circle).radius(3.5).color(PREVIEW).filled(false));
            }
        }
    }
}

fn draw_drag_feedback(plot_ui: &mut PlotUi<'_>, graph: &Graph) {
    if let (Some(GraphDrag::Box { origin }), Some(p)) = (&graph.drag, plot_ui.pointer_coordinate()) {
        let rect = vec![[origin.x, origin.y], [p.x, origin.y], [p.x, p.y], [origin.x, p.y]];
        plot_ui.polygon(
            Polygon::new("", PlotPoints::from(rect))
                .fill_color(Color32::from_rgba_unmultiplied(120, 160, 255, 30))
                .stroke(egui::Stroke::new(1.0, Color32::from_rgb(120, 160, 255))),
        );
    }
}
