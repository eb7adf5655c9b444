//! The path view: a Vec2 track (or a Vec3 track projected on XY, XZ or YZ) drawn in space,
//! keys draggable in the plane, the in/out tangents at each key, dots at equal time steps so
//! uneven speed shows as uneven spacing, and the constant-speed preview: one marker moved by
//! the raw parameter, one by arc length (the library's `ArcLengthTable`), with both speeds
//! plotted and their deviation from the mean.

use eframe::egui::{self, Color32, Pos2};
use egui_plot::{Arrows, Legend, Line, MarkerShape, Plot, PlotPoint, PlotPoints, Points, VLine};
use serde::{Deserialize, Serialize};
use tangent::arclen::{speed_profile, ArcLengthError, ArcLengthTable, ConstantSpeed};
use tangent::{Edit, Interpolation, PathCurve, SegmentCursor, TrackKind};

use super::state::AppState;
use super::style::{track_color, INCOMING, OUTGOING};

/// Most spacing dots and curve samples drawn.
const MAX_DOTS: usize = 1500;
const CURVE_SAMPLES: usize = 2000;
const GRAB_RADIUS: f32 = 9.0;
/// Above this many keys, tangent arrows are not drawn.
const MAX_ARROWS: usize = 400;
pub const RAW_MARKER: Color32 = Color32::from_rgb(255, 120, 90);
pub const CONSTANT_MARKER: Color32 = Color32::from_rgb(120, 255, 140);

/// Which two components the view shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Plane {
    #[default]
    Xy,
    Xz,
    Yz,
}

impl Plane {
    pub fn axes(self) -> (usize, usize) {
        match self {
            Self::Xy => (0, 1),
            Self::Xz => (0, 2),
            Self::Yz => (1, 2),
        }
    }
}

/// A key drag in progress: the track, the key, its value when grabbed and where.
#[derive(Clone, Debug, Default)]
pub struct PathState {
    drag: Option<(usize, usize, Vec<f64>, PlotPoint)>,
    /// The cached arc-length table: (track, document revision, tolerance) → table.
    table: Option<(usize, u64, f64, Result<ArcLengthTable, ArcLengthError>)>,
    pub transform: Option<egui_plot::PlotTransform>,
}

/// The track the path view shows: the active track if it is a Vec2/Vec3, else the first
/// visible one.
pub fn path_track(state: &AppState) -> Option<usize> {
    let is_path = |i: usize| matches!(state.project().tracks[i].kind, TrackKind::Vec2 | TrackKind::Vec3);
    state.active_track.filter(|&i| is_path(i)).or_else(|| (0..state.project().tracks.len()).find(|&i| is_path(i) && state.project().tracks[i].visible))
}

/// The arc-length table of `track` at the view's tolerance, rebuilt when the track changes.
pub fn table(state: &mut AppState, track: usize) -> Option<&Result<ArcLengthTable, ArcLengthError>> {
    let rev = state.doc.revision();
    let tol = state.view.arclen_tolerance;
    let fresh = matches!(&state.path_view.table, Some((t, r, e, _)) if *t == track && *r == rev && *e == tol);
    if !fresh {
        let Some(Ok(curve)) = state.curve(track) else { return None };
        let table = PathCurve::new(curve).map_err(ArcLengthError::from).and_then(|path| ArcLengthTable::new(path, tol));
        state.path_view.table = Some((track, rev, tol, table));
    }
    state.path_view.table.as_ref().map(|(_, _, _, t)| t)
}

/// Positions of the two markers at the playhead: by raw parameter and by arc length.
pub fn markers(state: &mut AppState, track: usize) -> Option<(Vec<f64>, Vec<f64>)> {
    table(state, track)?;
    let playhead = state.playhead;
    let curve = state.curve(track)?.as_ref().ok()?;
    let table = state.path_view.table.as_ref()?.3.as_ref().ok()?;
    let (t0, t1) = curve.domain();
    let mut raw = vec![0.0; curve.dim()];
    curve.sample(&mut SegmentCursor::new(), playhead.clamp(t0, t1), &mut raw);
    let mut constant = vec![0.0; curve.dim()];
    ConstantSpeed::new(PathCurve::new(curve).ok()?, table, t1 - t0).sample(playhead - t0, &mut constant);
    Some((raw, constant))
}

pub fn ui(ui: &mut egui::Ui, state: &mut AppState) {
    let Some(ti) = path_track(state) else {
        ui.label("The path view shows Vec2 and Vec3 tracks: add one (Tracks > + Add) or click one.");
        return;
    };
    let (name, kind) = (state.project().tracks[ti].name.clone(), state.project().tracks[ti].kind);
    if !matches!(state.curve(ti), Some(Ok(_))) {
        ui.label(format!("\"{name}\" cannot be evaluated."));
        return;
    }
    ui.horizontal(|ui| {
        ui.label(format!("Path of \"{name}\""));
        if kind == TrackKind::Vec3 {
            for (p, name) in [(Plane::Xy, "XY"), (Plane::Xz, "XZ"), (Plane::Yz, "YZ")] {
                ui.selectable_value(&mut state.view.plane, p, name).on_hover_text("The plane the Vec3 path is projected on");
            }
        }
        ui.separator();
        ui.checkbox(&mut state.view.constant_speed, "constant speed")
            .on_hover_text("Playback follows the arc-length motion (green marker) instead of the raw parameter (red marker)");
        ui.add(egui::DragValue::new(&mut state.view.arclen_tolerance).range(1e-9..=1.0).speed(0.0).custom_formatter(|v, _| format!("{v:.0e}")).prefix("E = "))
            .accessible_name("arc-length tolerance")
            .on_hover_text("Arc-length table error bound, in length units (type a value)");
    });
    let (a, b) = state.view.plane.axes();
    let (a, b) = if kind == TrackKind::Vec2 { (0, 1) } else { (a, b) };
    let markers = markers(state, ti);
    let table_info = match table(state, ti) {
        Some(Ok(t)) => Some((t.len(), t.tolerance(), t.length())),
        _ => None,
    };
    let track = &state.project().tracks[ti];
    let Some(Ok(curve)) = state.curve(ti) else { return };
    let color = track_color(track, ti);
    let dragging = state.path_view.drag.is_some();
    let h = ui.available_height();
    let response = Plot::new("path_view").data_aspect(1.0).legend(Legend::default()).allow_drag(false).allow_double_click_reset(false).height(h * 0.64).show(
        ui,
        |plot_ui| {
            if dragging {
                // The view must not refit under the pointer while a key moves.
                plot_ui.set_auto_bounds(false);
            }
            let (t0, t1) = curve.domain();
            let mut v = vec![0.0; curve.dim()];
            let mut cursor = SegmentCursor::new();
            let pts: Vec<[f64; 2]> = (0..=CURVE_SAMPLES)
                .map(|i| {
                    curve.sample(&mut cursor, t0 + (t1 - t0) * i as f64 / CURVE_SAMPLES as f64, &mut v);
                    [v[a], v[b]]
                })
                .collect();
            plot_ui.line(Line::new(track.name.clone(), PlotPoints::from(pts)).color(color).width(2.0));
            // Dots at equal time steps (frames, or coarser on very long tracks).
            let step = (1.0 / state.project().fps).max((t1 - t0) / MAX_DOTS as f64);
            let n = ((t1 - t0) / step).floor() as usize;
            let dots: Vec<[f64; 2]> = (0..=n)
                .map(|i| {
                    curve.sample(&mut cursor, t0 + i as f64 * step, &mut v);
                    [v[a], v[b]]
                })
                .collect();
            plot_ui.points(Points::new(format!("every {:.3} s", step), PlotPoints::from(dots)).radius(1.8).color(color.gamma_multiply(0.8)));
            let keys: Vec<[f64; 2]> = track.keys.iter().map(|k| [k.value[a], k.value[b]]).collect();
            plot_ui.points(Points::new("keys", PlotPoints::from(keys)).shape(MarkerShape::Diamond).radius(5.0).color(Color32::WHITE).filled(true));
            if track.interpolation == Interpolation::Tcb && track.keys.len() <= MAX_ARROWS {
                let (mut f, mut t, mut f2, mut t2) = (vec![], vec![], vec![], vec![]);
                for (i, k) in track.keys.iter().enumerate() {
                    let p = [k.value[a], k.value[b]];
                    if let (Some(ra), true) = (curve.incoming_tangent(i), i > 0) {
                        f.push([p[0] - ra[a] / 3.0, p[1] - ra[b] / 3.0]);
                        t.push(p);
                    }
                    if let (Some(rb), true) = (curve.outgoing_tangent(i), i + 1 < track.keys.len()) {
                        f2.push(p);
                        t2.push([p[0] + rb[a] / 3.0, p[1] + rb[b] / 3.0]);
                    }
                }
                plot_ui.arrows(Arrows::new("in (ra)", PlotPoints::from(f), PlotPoints::from(t)).color(INCOMING).tip_length(8.0));
                plot_ui.arrows(Arrows::new("out (rb)", PlotPoints::from(f2), PlotPoints::from(t2)).color(OUTGOING).tip_length(8.0));
            }
            if let Some((raw, constant)) = &markers {
                let (big, small) = (11.0, 7.0);
                let (r_raw, r_const) = if state.view.constant_speed { (small, big) } else { (big, small) };
                plot_ui.points(Points::new("raw parameter", PlotPoints::from(vec![[raw[a], raw[b]]])).radius(r_raw).color(RAW_MARKER).filled(true));
                plot_ui
                    .points(Points::new("arc length", PlotPoints::from(vec![[constant[a], constant[b]]])).radius(r_const).color(CONSTANT_MARKER).filled(true));
            }
        },
    );
    drag_keys(ui, state, ti, (a, b), &response.response, &response.transform);
    state.path_view.transform = Some(response.transform);
    speed_plot(ui, state, ti, table_info);
}

fn drag_keys(ui: &egui::Ui, state: &mut AppState, ti: usize, (a, b): (usize, usize), response: &egui::Response, transform: &egui_plot::PlotTransform) {
    let ctx = ui.ctx().clone();
    let (press, pointer, modifiers) = ui.input(|i| (i.pointer.press_origin(), i.pointer.interact_pos(), i.modifiers));
    if response.drag_started_by(egui::PointerButton::Primary) {
        if let Some(origin) = press {
            let hit = hit_key(state, ti, (a, b), transform, origin);
            state.path_view.drag = hit.map(|k| (ti, k, state.project().tracks[ti].keys[k].value.clone(), transform.value_from_position(origin)));
        }
    }
    if let (Some((track, key, original, origin)), Some(p)) = (state.path_view.drag.clone(), pointer) {
        if response.dragged() {
            let now = transform.value_from_position(p);
            let mut value = original.clone();
            value[a] += now.x - origin.x;
            value[b] += now.y - origin.y;
            if state.view.snap != modifiers.command {
                let span = transform.bounds().max()[0] - transform.bounds().min()[0];
                let step = 10f64.powf((span / 20.0).log10().floor());
                value[a] = (value[a] / step).round() * step;
                value[b] = (value[b] / step).round() * step;
            }
            let mut keys = state.project().tracks[track].keys.clone();
            keys[key].value = value;
            state.edit(&ctx, "Move key in space", Edit::SetKeys { track, keys });
        }
    }
    if response.drag_stopped() {
        state.path_view.drag = None;
        state.end_frame(&ctx);
    }
    if response.clicked() {
        if let Some(k) = pointer.and_then(|p| hit_key(state, ti, (a, b), transform, p)) {
            state.selection = std::collections::BTreeSet::from([super::state::KeyRef { track: ti, key: k }]);
            state.active_track = Some(ti);
        }
    }
}

fn hit_key(state: &AppState, ti: usize, (a, b): (usize, usize), transform: &egui_plot::PlotTransform, pos: Pos2) -> Option<usize> {
    state.project().tracks[ti]
        .keys
        .iter()
        .enumerate()
        .map(|(i, k)| (i, transform.position_from_point(&PlotPoint::new(k.value[a], k.value[b])).distance(pos)))
        .filter(|(_, d)| *d <= GRAB_RADIUS)
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(i, _)| i)
}

/// Speed of both motions against time, with their deviation from the mean in percent.
fn speed_plot(ui: &mut egui::Ui, state: &mut AppState, ti: usize, info: Option<(usize, f64, f64)>) {
    if !matches!(table(state, ti), Some(Ok(_))) {
        ui.label("No arc-length table: this track's interpolation has no derivative.");
        return;
    }
    let (Some(Ok(curve)), Some((_, _, _, Ok(table)))) = (state.curve(ti), state.path_view.table.as_ref()) else { return };
    let Ok(path) = PathCurve::new(curve) else { return };
    let profile = speed_profile(path, table, 600);
    let deviation = |f: &dyn Fn(&(f64, f64, f64)) -> f64| {
        let mean = profile.iter().map(f).sum::<f64>() / profile.len() as f64;
        if mean > 0.0 {
            100.0 * profile.iter().map(|p| (f(p) - mean).abs()).fold(0.0, f64::max) / mean
        } else {
            0.0
        }
    };
    let dev_raw = deviation(&|p| p.1);
    let dev_const = deviation(&|p| p.2);
    if let Some((n, tol, length)) = info {
        ui.label(format!(
            "length {length:.4}; arc-length table {n} samples, error bound E = {tol:.0e}; speed deviation: raw parameter {dev_raw:.1}%, arc length {dev_const:.4}%"
        ));
    }
    let raw: Vec<[f64; 2]> = profile.iter().map(|p| [p.0, p.1]).collect();
    let constant: Vec<[f64; 2]> = profile.iter().map(|p| [p.0, p.2]).collect();
    Plot::new("path_speed").legend(Legend::default()).x_axis_label("time (s)").y_axis_label("speed").include_y(0.0).allow_drag(false).show(ui, |plot_ui| {
        plot_ui.line(Line::new(format!("raw parameter (±{dev_raw:.1}%)"), PlotPoints::from(raw)).color(RAW_MARKER).width(2.0));
        plot_ui.line(Line::new(format!("arc length (±{dev_const:.4}%)"), PlotPoints::from(constant)).color(CONSTANT_MARKER).width(2.0));
        plot_ui.vline(VLine::new("", state.playhead).color(Color32::from_rgb(240, 80, 60)));
    });
}
