//! The value-vs-time graph: curves drawn from the engine beyond the keys (pre/post infinity),
//! keys to click, box-select and drag, TCB tangent arrows (in = ra, out = rb) with handles
//! that set tension and bias, ease handles on the time axis, and the playhead.
//!
//! Left-drag a key to move the selection; left-drag empty space to box-select; right- or
//! middle-drag to pan; scroll to pan, Ctrl+scroll to zoom. Double-click a curve to insert a
//! key. Hold Ctrl while dragging to invert snapping.

use std::collections::BTreeSet;

use eframe::egui::{self, Color32, Pos2, Vec2};
use egui_plot::{Arrows, Legend, Line, LineStyle, MarkerShape, Plot, PlotBounds, PlotPoint, PlotPoints, PlotTransform, Points, Polygon, Text, VLine};
use tangent::{Interpolation, Key, SegmentCursor, TrackCurve};

use super::state::{AppState, KeyRef};
use super::style::{component_color, track_color, INCOMING, OUTGOING};

/// Width of the value axis, shared with the speed graph so their time axes line up.
pub const AXIS_WIDTH: f32 = 44.0;

/// Samples drawn across the visible time range per curve.
const CURVE_SAMPLES: usize = 800;
/// How close (in points) the pointer must be to grab a key or handle.
const GRAB_RADIUS: f32 = 9.0;
/// Above this many keys in view, a track's tangent arrows are not drawn (they would be a blur).
const MAX_ARROWS_PER_TRACK: usize = 300;

/// Something under the pointer that a drag can move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    Key(KeyRef, usize),
    Tangent {
        key: KeyRef,
        comp: usize,
        outgoing: bool,
    },
    Ease {
        key: KeyRef,
        from: bool,
    },
    /// The playhead line, to scrub.
    Playhead,
}

/// A drag in progress.
#[derive(Clone, Debug)]
pub enum GraphDrag {
    Move {
        origin: PlotPoint,
        comp: usize,
        /// Display units per value unit of the grabbed component.
        scale: f64,
        originals: Vec<(usize, Vec<Key>, BTreeSet<usize>)>,
    },
    Box {
        origin: PlotPoint,
    },
    Tangent {
        key: KeyRef,
        origin: Pos2,
        dir: Vec2,
        length: f32,
        tension: f64,
        bias: f64,
    },
    Ease {
        key: KeyRef,
        from: bool,
    },
    Scrub,
}

/// Graph state that lives only while the editor runs.
#[derive(Clone, Debug, Default)]
pub struct GraphState {
    pub drag: Option<GraphDrag>,
    pub hover: Option<Target>,
    /// The value graph's plot-to-screen mapping in the last frame.
    pub transform: Option<PlotTransform>,
    /// Where the last click was: a double-click counts only on the same spot.
    pub last_click: Option<Pos2>,
}

/// Maps a component's values to the screen: `display = (value − offset) · scale`.
#[derive(Clone, Copy, Debug)]
pub struct Display {
    pub offset: f64,
    pub scale: f64,
}

impl Display {
    pub const IDENTITY: Display = Display { offset: 0.0, scale: 1.0 };
    pub fn show(self, v: f64) -> f64 {
        (v - self.offset) * self.scale
    }
}

/// The display mapping of one component: identity, or [min, max] of its keys onto [−1, 1]
/// when the view is normalised.
pub fn display(state: &AppState, track: usize, comp: usize) -> Display {
    if !state.view.normalize {
        return Display::IDENTITY;
    }
    let keys = &state.project().tracks[track].keys;
    let (lo, hi) = keys.iter().map(|k| k.value[comp]).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let half = 0.5 * (hi - lo);
    if half > 0.0 {
        Display { offset: 0.5 * (hi + lo), scale: 1.0 / half }
    } else {
        Display { offset: lo, scale: 1.0 }
    }
}

fn component_shown(state: &AppState, track: usize, comp: usize) -> bool {
    let name = &state.project().tracks[track].name;
    !state.view.hidden_components.contains(&(name.clone(), comp))
}

/// Indices of keys whose time lies in `[t0, t1]`.
fn keys_in_range(keys: &[Key], t0: f64, t1: f64) -> std::ops::Range<usize> {
    let a = keys.partition_point(|k| k.time < t0);
    let b = keys.partition_point(|k| k.time <= t1);
    a..b.max(a)
}

/// Tip of a tangent arrow in plot coordinates: a third of the neighbouring segment, the
/// Bézier-handle convention (a Hermite tangent r over Δt is a handle of r/3 over Δt/3).
fn tangent_tip(curve: &TrackCurve, key: usize, comp: usize, outgoing: bool, at: (f64, f64), d: Display) -> Option<(f64, f64)> {
    let times = curve.times();
    let (dt, r) = if outgoing {
        (times.get(key + 1)? - times[key], curve.outgoing_tangent(key)?[comp])
    } else {
        (times[key] - times.get(key.checked_sub(1)?)?, curve.incoming_tangent(key)?[comp])
    };
    if dt <= 0.0 {
        return None;
    }
    let sign = if outgoing { 1.0 } else { -1.0 };
    Some((at.0 + sign * dt / 3.0, at.1 + sign * r * d.scale / 3.0))
}

/// Time of an ease handle: `ease_from` of the way into the next segment, or `ease_to` of the
/// way back into the previous one.
fn ease_time(keys: &[Key], key: usize, from: bool) -> Option<f64> {
    let k = &keys[key];
    if from {
        let next = keys.get(key + 1)?;
        Some(k.time + k.ease_from * (next.time - k.time))
    } else {
        let prev = keys.get(key.checked_sub(1)?)?;
        Some(k.time - k.ease_to * (k.time - prev.time))
    }
}

/// The nearest grabbable thing within [`GRAB_RADIUS`] of `pos`: handles of selected keys
/// first, then keys.
pub fn hit_test(state: &AppState, transform: &PlotTransform, pos: Pos2) -> Option<Target> {
    let b = transform.bounds();
    let margin = (b.max()[0] - b.min()[0]) * 0.02;
    let mut best: Option<(f32, Target)> = None;
    let consider = |best: &mut Option<(f32, Target)>, p: Pos2, target: Target| {
        let d = p.distance(pos);
        if d <= GRAB_RADIUS && best.is_none_or(|(bd, _)| d < bd) {
            *best = Some((d, target));
        }
    };
    for kr in &state.selection {
        let track = &state.project().tracks[kr.track];
        let Some(Ok(curve)) = state.curve(kr.track) else {
            continue;
        };
        if !track.visible || track.interpolation != Interpolation::Tcb || !state.view.show_tangents {
            continue;
        }
        let key = &track.keys[kr.key];
        for comp in 0..track.kind.dim() {
            if !component_shown(state, kr.track, comp) {
                continue;
            }
            let d = display(state, kr.track, comp);
            let at = (key.time, d.show(key.value[comp]));
            for outgoing in [true, false] {
                if let Some(tip) = tangent_tip(curve, kr.key, comp, outgoing, at, d) {
                    consider(&mut best, transform.position_from_point(&PlotPoint::new(tip.0, tip.1)), Target::Tangent { key: *kr, comp, outgoing });
                }
            }
        }
        let d0 = display(state, kr.track, 0);
        for from in [true, false] {
            if let Some(t) = ease_time(&track.keys, kr.key, from) {
                let p = transform.position_from_point(&PlotPoint::new(t, d0.show(key.value[0])));
                consider(&mut best, p + Vec2::new(0.0, 14.0), Target::Ease { key: *kr, from });
            }
        }
    }
    if best.is_some() {
        return best.map(|(_, t)| t);
    }
    let on_playhead = (transform.position_from_point_x(state.playhead) - pos.x).abs() <= 4.0;
    for (ti, track) in state.project().tracks.iter().enumerate() {
        if !track.visible {
            continue;
        }
        if track.kind == tangent::TrackKind::Quat {
            continue;
        }
        let shown: Vec<Option<Display>> = (0..track.kind.dim()).map(|c| component_shown(state, ti, c).then(|| display(state, ti, c))).collect();
        // Only keys within the grab radius in time can be hit.
        let dt = f64::from(GRAB_RADIUS) / transform.dpos_dvalue_x().abs();
        let t = transform.value_from_position(pos).x;
        for ki in keys_in_range(&track.keys, (t - dt).max(b.min()[0] - margin), (t + dt).min(b.max()[0] + margin)) {
            let key = &track.keys[ki];
            for (comp, &v) in key.value.iter().enumerate() {
                let Some(d) = shown[comp] else { continue };
                let p = transform.position_from_point(&PlotPoint::new(key.time, d.show(v)));
                consider(&mut best, p, Target::Key(KeyRef { track: ti, key: ki }, comp));
            }
        }
    }
    best.map(|(_, t)| t).or(on_playhead.then_some(Target::Playhead))
}

pub fn ui(ui: &mut egui::Ui, state: &mut AppState, height: f32) {
    let frame_all = std::mem::take(&mut state.frame_all);
    let frame_selected = std::mem::take(&mut state.frame_selected);
    let fit = if frame_selected { state.selection_bounds().map(|(lo, hi)| pad(lo, hi)) } else { fit_bounds(state) };
    let dragging_pan = ui.input(|i| i.pointer.secondary_down() || i.pointer.middle_down());
    let response = Plot::new("value_graph")
        .legend(Legend::default().color_conflict_handling(egui_plot::ColorConflictHandling::PickFirst))
        .x_axis_label("time (s)")
        .y_axis_label("value")
        .y_axis_min_width(AXIS_WIDTH)
        .height(height)
        .allow_drag(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .link_axis(egui::Id::unique("time axis"), [true, false])
        .link_cursor(egui::Id::unique("time axis"), [true, false])
        .show(ui, |plot_ui| {
            if frame_all || frame_selected {
                if let Some(b) = fit {
                    plot_ui.set_plot_bounds(b);
                }
            }
            if dragging_pan && plot_ui.response().dragged() {
                let d = plot_ui.pointer_coordinate_drag_delta();
                plot_ui.translate_bounds(-d);
            }
            draw(plot_ui, state);
        });
    interact(ui, state, &response.response, &response.transform);
    state.graph.transform = Some(response.transform);
}

fn pad(lo: [f64; 2], hi: [f64; 2]) -> PlotBounds {
    let pad_x = ((hi[0] - lo[0]) * 0.08).max(0.5);
    let pad_y = ((hi[1] - lo[1]) * 0.15).max(0.5);
    PlotBounds::from_min_max([lo[0] - pad_x, lo[1] - pad_y], [hi[0] + pad_x, hi[1] + pad_y])
}

/// Bounds that hold every key of every visible track, in display units.
fn fit_bounds(state: &AppState) -> Option<PlotBounds> {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for (ti, track) in state.project().tracks.iter().enumerate().filter(|(_, t)| t.visible) {
        for comp in 0..track.kind.dim() {
            let d = display(state, ti, comp);
            for k in &track.keys {
                lo[0] = lo[0].min(k.time);
                hi[0] = hi[0].max(k.time);
                lo[1] = lo[1].min(d.show(k.value[comp]));
                hi[1] = hi[1].max(d.show(k.value[comp]));
            }
        }
    }
    lo[0].is_finite().then(|| pad(lo, hi))
}

fn draw(plot_ui: &mut egui_plot::PlotUi<'_>, state: &AppState) {
    let bounds = plot_ui.plot_bounds();
    let (x0, x1) = (bounds.min()[0], bounds.max()[0]);
    let margin = (x1 - x0) * 0.02;
    for (ti, track) in state.project().tracks.iter().enumerate() {
        let Some(Ok(curve)) = state.curve(ti) else {
            continue;
        };
        if !track.visible {
            continue;
        }
        let base = track_color(track, ti);
        let dim = curve.dim();
        let mut cursor = SegmentCursor::new();
        let mut value = vec![0.0; dim];
        let mut series: Vec<Vec<[f64; 2]>> = vec![Vec::with_capacity(CURVE_SAMPLES + 1); dim];
        let shown: Vec<bool> = (0..dim).map(|c| component_shown(state, ti, c)).collect();
        let displays: Vec<Display> = (0..dim).map(|c| display(state, ti, c)).collect();
        for k in 0..=CURVE_SAMPLES {
            let t = x0 + (x1 - x0) * k as f64 / CURVE_SAMPLES as f64;
            curve.sample(&mut cursor, t, &mut value);
            for c in 0..dim {
                series[c].push([t, displays[c].show(value[c])]);
            }
        }
        let names = track.kind.component_names();
        let in_view = keys_in_range(&track.keys, x0 - margin, x1 + margin);
        let active = state.active_track == Some(ti);
        for (c, points) in series.into_iter().enumerate() {
            if !shown[c] {
                continue;
            }
            let name = if dim == 1 { track.name.clone() } else { format!("{}.{}", track.name, names[c]) };
            let color = component_color(base, c, dim);
            let width = if active { 2.5 } else { 1.5 };
            let mut line = Line::new(name.clone(), PlotPoints::from(points)).color(color).width(width);
            if track.locked {
                line = line.style(LineStyle::dashed_loose());
            }
            plot_ui.line(line);
            if track.kind == tangent::TrackKind::Quat {
                continue;
            }
            let d = displays[c];
            let mut plain = Vec::new();
            let mut selected = Vec::new();
            // Where many keys share a pixel column, one marker stands for them (selected keys
            // are always drawn): a 10,000-key track stays cheap to draw.
            let min_dt = (x1 - x0) / f64::from(plot_ui.transform().frame().width().max(1.0)) * 1.5;
            let mut last_t = f64::NEG_INFINITY;
            let any_selected = state.selection.iter().any(|k| k.track == ti);
            for ki in in_view.clone() {
                let p = [track.keys[ki].time, d.show(track.keys[ki].value[c])];
                if any_selected && state.selection.contains(&KeyRef { track: ti, key: ki }) {
                    selected.push(p);
                } else if p[0] - last_t >= min_dt {
                    plain.push(p);
                    last_t = p[0];
                }
            }
            plot_ui.points(Points::new(name.clone(), PlotPoints::from(plain)).shape(MarkerShape::Diamond).radius(4.5).color(color).filled(true));
            if !selected.is_empty() {
                plot_ui
                    .points(Points::new(name.clone(), PlotPoints::from(selected)).shape(MarkerShape::Diamond).radius(6.5).color(Color32::WHITE).filled(true));
            }
            if state.view.show_tangents && track.interpolation == Interpolation::Tcb && in_view.len() <= MAX_ARROWS_PER_TRACK {
                draw_tangents(plot_ui, state, curve, ti, c, d, in_view.clone());
            }
        }
        if state.view.show_tangents && track.interpolation == Interpolation::Tcb {
            draw_ease_handles(plot_ui, state, ti);
        }
    }
    draw_drag_feedback(plot_ui, state);
    plot_ui.vline(VLine::new("", state.playhead).color(Color32::from_rgb(240, 80, 60)).width(1.5));
}

fn draw_tangents(plot_ui: &mut egui_plot::PlotUi<'_>, state: &AppState, curve: &TrackCurve, ti: usize, c: usize, d: Display, keys: std::ops::Range<usize>) {
    let track = &state.project().tracks[ti];
    let (mut in_from, mut in_to, mut out_from, mut out_to) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut handles_in = Vec::new();
    let mut handles_out = Vec::new();
    for ki in keys {
        let key = &track.keys[ki];
        let at = (key.time, d.show(key.value[c]));
        let selected = state.selection.contains(&KeyRef { track: ti, key: ki });
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
    let name = String::new();
    plot_ui.arrows(Arrows::new(name.clone(), PlotPoints::from(in_from), PlotPoints::from(in_to)).color(INCOMING).tip_length(8.0));
    plot_ui.arrows(Arrows::new(name.clone(), PlotPoints::from(out_from), PlotPoints::from(out_to)).color(OUTGOING).tip_length(8.0));
    plot_ui.points(Points::new(name.clone(), PlotPoints::from(handles_in)).shape(MarkerShape::Circle).radius(5.0).color(INCOMING).filled(true));
    plot_ui.points(Points::new(name, PlotPoints::from(handles_out)).shape(MarkerShape::Circle).radius(5.0).color(OUTGOING).filled(true));
    // "in"/"out" labels with the numbers, on hover.
    if let Some(Target::Tangent { key, comp, outgoing }) = state_hover(state) {
        if key.track == ti && comp == c {
            let k = &track.keys[key.key];
            let at = (k.time, d.show(k.value[c]));
            if let Some(tip) = tangent_tip(curve, key.key, c, outgoing, at, d) {
                let (label, v) = if outgoing { ("out rb", curve.outgoing_tangent(key.key)) } else { ("in ra", curve.incoming_tangent(key.key)) };
                let text = format!("{label} = {}", fmt_vec(v.unwrap_or(&[])));
                plot_ui.text(
                    Text::new("", PlotPoint::new(tip.0, tip.1), text).color(if outgoing { OUTGOING } else { INCOMING }).anchor(egui::Align2::LEFT_BOTTOM),
                );
            }
        }
    }
}

fn state_hover(state: &AppState) -> Option<Target> {
    state.graph.hover
}

fn draw_ease_handles(plot_ui: &mut egui_plot::PlotUi<'_>, state: &AppState, ti: usize) {
    let track = &state.project().tracks[ti];
    let d0 = display(state, ti, 0);
    let mut from = Vec::new();
    let mut to = Vec::new();
    for kr in state.selection.iter().filter(|k| k.track == ti) {
        let y = d0.show(track.keys[kr.key].value[0]);
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
    // Drawn 14 points below the key's level (the hit test uses the same offset).
    let offset = |pts: Vec<[f64; 2]>, plot_ui: &egui_plot::PlotUi<'_>| -> Vec<[f64; 2]> {
        let t = plot_ui.transform();
        pts.into_iter()
            .map(|[x, y]| {
                let p = t.position_from_point(&PlotPoint::new(x, y)) + Vec2::new(0.0, 14.0);
                let v = t.value_from_position(p);
                [v.x, v.y]
            })
            .collect()
    };
    let from = offset(from, plot_ui);
    let to = offset(to, plot_ui);
    plot_ui.points(Points::new("", PlotPoints::from(from)).shape(MarkerShape::Right).radius(6.0).color(super::style::EASE).filled(true));
    plot_ui.points(Points::new("", PlotPoints::from(to)).shape(MarkerShape::Left).radius(6.0).color(super::style::EASE).filled(true));
}

fn draw_drag_feedback(plot_ui: &mut egui_plot::PlotUi<'_>, state: &AppState) {
    if let (Some(GraphDrag::Box { origin }), Some(p)) = (&state.graph.drag, plot_ui.pointer_coordinate()) {
        let rect = vec![[origin.x, origin.y], [p.x, origin.y], [p.x, p.y], [origin.x, p.y]];
        plot_ui.polygon(
            Polygon::new("", PlotPoints::from(rect))
                .fill_color(Color32::from_rgba_unmultiplied(120, 160, 255, 30))
                .stroke(egui::Stroke::new(1.0, Color32::from_rgb(120, 160, 255))),
        );
    }
}

pub fn fmt_vec(v: &[f64]) -> String {
    let parts: Vec<String> = v.iter().map(|x| format!("{x:.3}")).collect();
    if parts.len() == 1 {
        parts[0].clone()
    } else {
        format!("({})", parts.join(", "))
    }
}

/// Turns this frame's pointer input on the plot into selections and edits.
fn interact(ui: &egui::Ui, state: &mut AppState, response: &egui::Response, transform: &PlotTransform) {
    let ctx = ui.ctx().clone();
    let (modifiers, press_origin, pointer) = ui.input(|i| (i.modifiers, i.pointer.press_origin(), i.pointer.interact_pos()));
    state.graph.hover = pointer.filter(|p| transform.frame().contains(*p)).and_then(|p| hit_test(state, transform, p));
    match state.graph.hover {
        Some(Target::Key(..) | Target::Tangent { .. } | Target::Ease { .. }) => ctx.set_cursor_icon(egui::CursorIcon::Grab),
        Some(Target::Playhead) => ctx.set_cursor_icon(egui::CursorIcon::ResizeHorizontal),
        None => {}
    }
    let to_plot = |p: Pos2| transform.value_from_position(p);
    let primary = response.dragged_by(egui::PointerButton::Primary) || response.drag_started_by(egui::PointerButton::Primary);

    if response.drag_started_by(egui::PointerButton::Primary) {
        let origin = press_origin.unwrap_or_default();
        start_drag(state, transform, origin, modifiers);
    }
    if primary && response.dragged() {
        if let Some(p) = pointer {
            continue_drag(&ctx, state, transform, to_plot(p), p, modifiers);
        }
    }
    if response.drag_stopped() {
        if let (Some(GraphDrag::Box { origin }), Some(p)) = (state.graph.drag.clone(), pointer) {
            if transform.position_from_point(&origin).distance(p) < 4.0 {
                // A slow click that egui counted as a drag.
                click(state, transform, p, modifiers);
            } else {
                box_select(state, transform, origin, to_plot(p), modifiers.shift || modifiers.command);
            }
        }
        state.graph.drag = None;
        state.end_frame(&ctx);
    }
    if response.clicked() {
        if let Some(p) = pointer {
            let same_spot = state.graph.last_click.is_some_and(|q| q.distance(p) < 6.0);
            if response.double_clicked() && same_spot {
                double_click(&ctx, state, transform, p);
            } else {
                click(state, transform, p, modifiers);
            }
            state.graph.last_click = Some(p);
        }
    }
}

fn click(state: &mut AppState, transform: &PlotTransform, pos: Pos2, modifiers: egui::Modifiers) {
    match hit_test(state, transform, pos) {
        Some(Target::Key(k, _)) => {
            let add = modifiers.shift || modifiers.command;
            if add {
                if !state.selection.remove(&k) {
                    state.selection.insert(k);
                }
            } else {
                state.selection = BTreeSet::from([k]);
            }
            state.active_track = Some(k.track);
            let key = &state.project().tracks[k.track].keys[k.key];
            state.set_message(format!("Key {} of \"{}\": t = {:.4} s, value = {}", k.key, state.project().tracks[k.track].name, key.time, fmt_vec(&key.value)));
        }
        Some(_) => {}
        None => {
            if !(modifiers.shift || modifiers.command) {
                state.selection.clear();
            }
            state.scrub(transform.value_from_position(pos).x);
        }
    }
}

fn double_click(ctx: &egui::Context, state: &mut AppState, transform: &PlotTransform, pos: Pos2) {
    let t = transform.value_from_position(pos).x;
    // The visible, editable track whose curve passes nearest the pointer at t.
    let mut best: Option<(f32, usize)> = None;
    for (ti, track) in state.project().tracks.iter().enumerate() {
        if !track.visible || track.locked || track.kind == tangent::TrackKind::Quat {
            continue;
        }
        let Some(v) = state.sample(ti, t) else {
            continue;
        };
        for (c, &x) in v.iter().enumerate() {
            let p = transform.position_from_point(&PlotPoint::new(t, display(state, ti, c).show(x)));
            let d = (p.y - pos.y).abs();
            if d < 16.0 && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, ti));
            }
        }
    }
    match best {
        Some((_, ti)) => {
            state.active_track = Some(ti);
            state.insert_key(ctx, ti, t);
        }
        None => state.set_message("Double-click on a curve to insert a key there"),
    }
}

fn start_drag(state: &mut AppState, transform: &PlotTransform, origin: Pos2, modifiers: egui::Modifiers) {
    let plot_origin = transform.value_from_position(origin);
    state.graph.drag = match hit_test(state, transform, origin) {
        Some(Target::Key(k, comp)) => {
            if !state.selection.contains(&k) {
                if !(modifiers.shift || modifiers.command) {
                    state.selection.clear();
                }
                state.selection.insert(k);
            }
            state.active_track = Some(k.track);
            let tracks: BTreeSet<usize> = state.selection.iter().map(|s| s.track).collect();
            let originals = tracks
                .into_iter()
                .filter(|&t| !state.project().tracks[t].locked)
                .map(|t| (t, state.project().tracks[t].keys.clone(), state.selection.iter().filter(|s| s.track == t).map(|s| s.key).collect()))
                .collect();
            Some(GraphDrag::Move { origin: plot_origin, comp, scale: display(state, k.track, comp).scale, originals })
        }
        Some(Target::Tangent { key, comp, outgoing }) => {
            let track = &state.project().tracks[key.track];
            let k = &track.keys[key.key];
            let Some(Ok(curve)) = state.curve(key.track) else {
                return;
            };
            let d = display(state, key.track, comp);
            let at = (k.time, d.show(k.value[comp]));
            let tip = tangent_tip(curve, key.key, comp, outgoing, at, d).unwrap_or(at);
            let from = transform.position_from_point(&PlotPoint::new(at.0, at.1));
            let to = transform.position_from_point(&PlotPoint::new(tip.0, tip.1));
            let v = to - from;
            let length = v.length().max(8.0);
            Some(GraphDrag::Tangent { key, origin, dir: if v.length() > 0.0 { v / v.length() } else { Vec2::X }, length, tension: k.tension, bias: k.bias })
        }
        Some(Target::Ease { key, from }) => Some(GraphDrag::Ease { key, from }),
        Some(Target::Playhead) => Some(GraphDrag::Scrub),
        None => Some(GraphDrag::Box { origin: plot_origin }),
    };
}

fn continue_drag(ctx: &egui::Context, state: &mut AppState, transform: &PlotTransform, p: PlotPoint, screen: Pos2, modifiers: egui::Modifiers) {
    let Some(drag) = state.graph.drag.clone() else {
        return;
    };
    match drag {
        GraphDrag::Move { origin, comp, scale, originals } => {
            let snap = state.view.snap != modifiers.command;
            let fps = state.project().fps;
            let span = transform.bounds().max()[1] - transform.bounds().min()[1];
            let step = 10f64.powf((span / scale / 20.0).log10().floor());
            let (dt, dv) = (p.x - origin.x, (p.y - origin.y) / scale);
            for (track, keys, selected) in originals {
                let tagged: Vec<(usize, Key)> = keys
                    .into_iter()
                    .enumerate()
                    .map(|(i, mut k)| {
                        if selected.contains(&i) {
                            k.time += dt;
                            if comp < k.value.len() {
                                k.value[comp] += dv;
                            }
                            if snap {
                                k.time = (k.time * fps).round() / fps;
                                if comp < k.value.len() && step.is_finite() && step > 0.0 {
                                    k.value[comp] = (k.value[comp] / step).round() * step;
                                }
                            }
                        }
                        (i, k)
                    })
                    .collect();
                state.apply_tagged(ctx, "Move keys", track, tagged, &selected);
            }
        }
        GraphDrag::Tangent { key, origin, dir, length, tension, bias } => {
            let delta = screen - origin;
            let along = f64::from(delta.dot(dir) / length);
            let across = f64::from((dir.x * delta.y - dir.y * delta.x) / length);
            let t = (tension - along).clamp(-1.0, 1.0);
            let b = (bias - across).clamp(-1.0, 1.0);
            let mut keys = state.project().tracks[key.track].keys.clone();
            keys[key.key].tension = t;
            keys[key.key].bias = b;
            if state.edit(ctx, "Drag tangent", tangent::Edit::SetKeys { track: key.track, keys }) {
                state.set_message(format!("Tension {t:.3}, bias {b:.3}"));
            }
        }
        GraphDrag::Ease { key, from } => {
            let mut keys = state.project().tracks[key.track].keys.clone();
            let k = &keys[key.key];
            let value = if from {
                keys.get(key.key + 1).map(|n| (p.x - k.time) / (n.time - k.time))
            } else {
                key.key.checked_sub(1).map(|i| (k.time - p.x) / (k.time - keys[i].time))
            };
            if let Some(v) = value {
                let v = v.clamp(0.0, 1.0);
                if from {
                    keys[key.key].ease_from = v;
                } else {
                    keys[key.key].ease_to = v;
                }
                if state.edit(ctx, "Drag ease", tangent::Edit::SetKeys { track: key.track, keys }) {
                    state.set_message(format!("{} {v:.3}", if from { "Ease from" } else { "Ease to" }));
                }
            }
        }
        GraphDrag::Scrub => state.scrub(p.x),
        GraphDrag::Box { .. } => {}
    }
}

fn box_select(state: &mut AppState, transform: &PlotTransform, a: PlotPoint, b: PlotPoint, add: bool) {
    if !add {
        state.selection.clear();
    }
    let (t0, t1) = (a.x.min(b.x), a.x.max(b.x));
    let (v0, v1) = (a.y.min(b.y), a.y.max(b.y));
    let _ = transform;
    let mut found = Vec::new();
    for (ti, track) in state.project().tracks.iter().enumerate() {
        if !track.visible || track.kind == tangent::TrackKind::Quat {
            continue;
        }
        let shown: Vec<Option<Display>> = (0..track.kind.dim()).map(|c| component_shown(state, ti, c).then(|| display(state, ti, c))).collect();
        for ki in keys_in_range(&track.keys, t0, t1) {
            let hit = shown.iter().enumerate().any(|(c, d)| d.is_some_and(|d| (v0..=v1).contains(&d.show(track.keys[ki].value[c]))));
            if hit {
                found.push(KeyRef { track: ti, key: ki });
            }
        }
    }
    let n = found.len();
    if let Some(first) = found.first() {
        state.active_track = Some(first.track);
    }
    state.selection.extend(found);
    state.set_message(format!("Box selected {n} keys"));
}
