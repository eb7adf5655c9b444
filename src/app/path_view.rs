//! The path view: a Vec2 track (or a Vec3 track projected on XY, XZ or YZ) drawn in space,
//! keys draggable in the plane, the in/out tangents (TCB) or handles (Bézier) at each key,
//! dots at equal time steps so uneven speed shows as uneven spacing, and the constant-speed
//! preview: one marker moved by the raw parameter, one by arc length (the library's
//! `ArcLengthTable`), with both speeds plotted and their deviation from the mean.

use eframe::egui::{self, Color32, Pos2};
use egui_plot::{Arrows, Legend, Line, MarkerShape, Plot, PlotPoint, PlotPoints, PlotTransform, Points, VLine};

use super::commands::AppCommand;
use super::gesture;
use super::jobs::Job;
use super::key_change::{Change, KeyRef};
use super::panel::{Panel, PanelContext};
use super::settings::Plane;
use super::style::{track_color, INCOMING, OUTGOING, PLAYHEAD};
use crate::analysis::max_deviation_percent;
use crate::arclen::{speed_profile, ArcLengthError, ArcLengthTable, ConstantSpeed};
use crate::{Interpolation, PathCurve, SegmentCursor, Track, TrackCurve, TrackKind};

/// Most spacing dots and curve samples drawn.
const MAX_DOTS: usize = 1500;
const CURVE_SAMPLES: usize = 2000;
const GRAB_RADIUS: f32 = 9.0;
/// Above this many keys, tangent arrows are not drawn.
const MAX_ARROWS: usize = 400;
pub const RAW_MARKER: Color32 = Color32::from_rgb(255, 120, 90);
pub const CONSTANT_MARKER: Color32 = Color32::from_rgb(120, 255, 140);

/// A key drag in progress: the track, the key, its value when grabbed and where.
type PathDrag = (usize, usize, Vec<f64>, PlotPoint);
/// What an arc-length table is of: (track, curve stamp, tolerance).
type TableKey = (usize, u64, f64);
/// The cached arc-length table.
type CachedTable = (TableKey, Result<ArcLengthTable, ArcLengthError>);
/// Tracks of more keys than this build their arc-length table on a worker thread (about
/// 2 ms per 1,000 keys at E = 1e-6 here: a 100,000-key path took 0.2 s per change on the UI
/// thread, every frame of a drag).
pub const TABLE_ON_WORKER_KEYS: usize = 20_000;

/// The key markers drawn, for (track, curve stamp, axes, plot bounds), and whether there
/// were too many in view to mark.
type CachedKeys = ((usize, u64, (usize, usize), [f64; 4]), Vec<[f64; 2]>, bool);

/// The path view: the drag in progress, the arc-length table, the key markers, and the last
/// plot transform.
#[derive(Default)]
pub struct PathView {
    drag: Option<PathDrag>,
    table: Option<CachedTable>,
    /// The table being built on a worker (one at a time), what it is of, and the frame that
    /// started it (a later frame takes it in).
    building: Option<(TableKey, Job<Result<ArcLengthTable, ArcLengthError>>, u64)>,
    /// The frame being drawn (`egui::Context::cumulative_frame_nr`).
    frame: u64,
    keys: Option<CachedKeys>,
    pub transform: Option<PlotTransform>,
}

/// The keys of `track` to mark in the plane `(a, b)` within `bounds` (`[x0, y0, x1, y1]`):
/// those in view, while there are at most [`MAX_DOTS`] of them. More are too dense to tell
/// apart: the curve and the dots show the path, as the graph shows dense keys by their
/// curve. Kept in `cache` until the track, the plane or the view changes, so an idle frame
/// does not pass over a long track's keys.
fn key_marks<'c>(
    cache: &'c mut Option<CachedKeys>,
    cx: &PanelContext<'_>,
    (ti, track): (usize, &Track),
    (a, b): (usize, usize),
    bounds: [f64; 4],
) -> (&'c [[f64; 2]], bool) {
    let key = (ti, cx.doc.curve_stamp(ti).unwrap_or(0), (a, b), bounds);
    if cache.as_ref().is_none_or(|(k, _, _)| *k != key) {
        let inside = |k: &&crate::Key| (bounds[0]..=bounds[2]).contains(&k.value[a]) && (bounds[1]..=bounds[3]).contains(&k.value[b]);
        let in_view = track.keys.iter().filter(inside).take(MAX_DOTS + 1);
        let mut marks: Vec<[f64; 2]> = in_view.map(|k| [k.value[a], k.value[b]]).collect();
        let dense = marks.len() > MAX_DOTS;
        if dense {
            marks.clear();
        }
        *cache = Some((key, marks, dense));
    }
    cache.as_ref().map_or((&[], false), |(_, marks, dense)| (marks, *dense))
}

/// The track the path view shows: the active track if it is a Vec2/Vec3, else the first
/// visible one.
pub fn path_track(cx: &PanelContext<'_>) -> Option<usize> {
    let tracks = &cx.project().tracks;
    let is_path = |i: usize| matches!(tracks[i].kind, TrackKind::Vec2 | TrackKind::Vec3);
    cx.doc.active_track.filter(|&i| is_path(i)).or_else(|| (0..tracks.len()).find(|&i| is_path(i) && tracks[i].visible))
}

impl PathView {
    /// How many keys the last frame marked (tests).
    #[must_use]
    pub fn marked_keys(&self) -> usize {
        self.keys.as_ref().map_or(0, |(_, marks, _)| marks.len())
    }

    /// Whether a table is being built on a worker (the view repaints until it is in).
    #[must_use]
    pub fn building_table(&self) -> bool {
        self.building.is_some()
    }

    /// The arc-length table of `track` at the view's tolerance, rebuilt when the track changes:
    /// here for a track of at most [`TABLE_ON_WORKER_KEYS`] keys, else on a worker, one table
    /// at a time. Until the worker's table is in, the last table of the same track and
    /// tolerance is given (of the curve before the latest changes, during a drag: the
    /// constant-speed marker then lags the drag by a table), or `None` before the first.
    pub fn table(&mut self, cx: &PanelContext<'_>, track: usize) -> Option<&Result<ArcLengthTable, ArcLengthError>> {
        let key = (track, cx.doc.curve_stamp(track)?, cx.view.arclen_tolerance);
        let build =
            |curve: &TrackCurve, tolerance: f64| PathCurve::new(curve).map_err(ArcLengthError::from).and_then(|path| ArcLengthTable::new(path, tolerance));
        // Not in the frame that started it, even if it is done (a frame that shows the view
        // draws it measuring, whatever the worker's speed; tests rely on it).
        if let Some((of, job, _)) = self.building.as_mut().filter(|b| b.2 < self.frame) {
            match job.poll() {
                Some(Some(table)) => (self.table, self.building) = (Some((*of, table)), None),
                Some(None) => self.building = None,
                None => {}
            }
        }
        if self.table.as_ref().is_none_or(|(k, _)| *k != key) {
            let Some(Ok(curve)) = cx.doc.curve(track) else { return None };
            if curve.times().len() <= TABLE_ON_WORKER_KEYS {
                self.table = Some((key, build(curve, key.2)));
            } else if self.building.is_none() {
                let curve = curve.clone();
                let job = Job::spawn("Arc-length table", None, move |_| Some(build(&curve, key.2)));
                self.building = Some((key, job, self.frame));
            }
        }
        self.table.as_ref().filter(|(k, _)| k.0 == key.0 && k.2 == key.2).map(|(_, t)| t)
    }

    /// Positions of the two markers at the playhead: by raw parameter and by arc length.
    pub fn markers(&mut self, cx: &PanelContext<'_>, track: usize) -> Option<(Vec<f64>, Vec<f64>)> {
        let table = self.table(cx, track)?.as_ref().ok()?;
        let curve = cx.doc.curve(track)?.as_ref().ok()?;
        let (t0, t1) = curve.domain();
        let mut raw = vec![0.0; curve.dim()];
        curve.sample(&mut SegmentCursor::new(), cx.playhead().clamp(t0, t1), &mut raw);
        let mut constant = vec![0.0; curve.dim()];
        ConstantSpeed::new(PathCurve::new(curve).ok()?, table, t1 - t0).sample(cx.playhead() - t0, &mut constant);
        Some((raw, constant))
    }
}

impl Panel for PathView {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        self.frame = ui.ctx().cumulative_frame_nr();
        let Some(ti) = path_track(cx) else {
            ui.label("The path view shows Vec2 and Vec3 tracks: add one (Tracks > + Add) or click one.");
            return;
        };
        let track = &cx.project().tracks[ti];
        let Some(Ok(curve)) = cx.doc.curve(ti) else {
            ui.label(format!("\"{}\" cannot be evaluated.", track.name));
            return;
        };
        controls(ui, cx, out, track);
        let (a, b) = if track.kind == TrackKind::Vec2 { (0, 1) } else { cx.view.plane.axes() };
        let markers = self.markers(cx, ti);
        let dragging = self.drag.is_some();
        let h = ui.available_height();
        let plot = Plot::new("path_view").data_aspect(1.0).legend(Legend::default()).allow_drag(false).allow_double_click_reset(false).height(h * 0.64);
        let response = plot.show(ui, |plot_ui| {
            if dragging {
                // The view must not refit under the pointer while a key moves.
                plot_ui.set_auto_bounds(false);
            }
            let [x0, y0] = plot_ui.plot_bounds().min();
            let [x1, y1] = plot_ui.plot_bounds().max();
            let keys = key_marks(&mut self.keys, cx, (ti, track), (a, b), [x0, y0, x1, y1]);
            draw_path(plot_ui, cx, (ti, track), curve, (a, b), keys);
            if let Some((raw, constant)) = &markers {
                let (big, small) = (11.0, 7.0);
                let (r_raw, r_const) = if cx.view.constant_speed { (small, big) } else { (big, small) };
                plot_ui.points(Points::new("raw parameter", PlotPoints::from(vec![[raw[a], raw[b]]])).radius(r_raw).color(RAW_MARKER).filled(true));
                plot_ui
                    .points(Points::new("arc length", PlotPoints::from(vec![[constant[a], constant[b]]])).radius(r_const).color(CONSTANT_MARKER).filled(true));
            }
        });
        if self.building.is_some() {
            // The worker's table is put in by a later frame.
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(20));
        }
        self.drag_keys(ui, cx, out, ti, (a, b), &response.response, &response.transform);
        self.transform = Some(response.transform);
        self.speed_plot(ui, cx, ti, curve);
    }
}

/// The plane, the constant-speed toggle and the arc-length tolerance.
fn controls(ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, track: &Track) {
    let (mut plane, mut constant_speed, mut tolerance) = (cx.view.plane, cx.view.constant_speed, cx.view.arclen_tolerance);
    ui.horizontal(|ui| {
        ui.label(format!("Path of \"{}\"", track.name));
        if track.kind == TrackKind::Vec3 {
            for (p, name) in [(Plane::Xy, "XY"), (Plane::Xz, "XZ"), (Plane::Yz, "YZ")] {
                ui.selectable_value(&mut plane, p, name).on_hover_text("The plane the Vec3 path is projected on");
            }
        }
        ui.separator();
        ui.checkbox(&mut constant_speed, "constant speed")
            .on_hover_text("Playback follows the arc-length motion (green marker) instead of the raw parameter (red marker)");
        ui.add(egui::DragValue::new(&mut tolerance).range(1e-9..=1.0).speed(0.0).custom_formatter(|v, _| format!("{v:.0e}")).prefix("E = "))
            .accessible_name("arc-length tolerance")
            .on_hover_text("Arc-length table error bound, in length units (type a value)");
    });
    if (plane, constant_speed, tolerance) != (cx.view.plane, cx.view.constant_speed, cx.view.arclen_tolerance) {
        out.push(cx.view_change(|v| (v.plane, v.constant_speed, v.arclen_tolerance) = (plane, constant_speed, tolerance)));
    }
}

/// The curve, dots at equal time steps, the keys and their tangents, in the plane `(a, b)`.
fn draw_path(
    plot_ui: &mut egui_plot::PlotUi<'_>,
    cx: &PanelContext<'_>,
    (ti, track): (usize, &Track),
    curve: &TrackCurve,
    (a, b): (usize, usize),
    (keys, dense): (&[[f64; 2]], bool),
) {
    let color = track_color(track, ti);
    let (t0, t1) = curve.domain();
    let mut v = vec![0.0; curve.dim()];
    let mut cursor = SegmentCursor::new();
    let mut at = |t: f64| {
        curve.sample(&mut cursor, t, &mut v);
        [v[a], v[b]]
    };
    let pts: Vec<[f64; 2]> = (0..=CURVE_SAMPLES).map(|i| at(t0 + (t1 - t0) * i as f64 / CURVE_SAMPLES as f64)).collect();
    plot_ui.line(Line::new(track.name.clone(), PlotPoints::from(pts)).color(color).width(2.0));
    // Dots at equal time steps (frames, or coarser on very long tracks).
    let step = (1.0 / cx.project().fps).max((t1 - t0) / MAX_DOTS as f64);
    let n = ((t1 - t0) / step).floor() as usize;
    let dots: Vec<[f64; 2]> = (0..=n).map(|i| at(t0 + i as f64 * step)).collect();
    plot_ui.points(Points::new(format!("every {step:.3} s"), PlotPoints::from(dots)).radius(1.8).color(color.gamma_multiply(0.8)));
    let name = if dense { "keys (too dense to mark)" } else { "keys" };
    plot_ui.points(Points::new(name, PlotPoints::from(keys.to_vec())).shape(MarkerShape::Diamond).radius(5.0).color(Color32::WHITE).filled(true));
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
    if track.interpolation == Interpolation::Bezier && track.keys.len() <= MAX_ARROWS {
        draw_bezier_arrows(plot_ui, track, curve, (a, b));
    }
}

/// Bézier keys' handles in the plane: the value offsets `dv` of the left handle (arriving, as
/// the incoming arrow) and of the right one (leaving). Where the components share their time
/// handles (automatic handles always do) these are the path's own control points.
fn draw_bezier_arrows(plot_ui: &mut egui_plot::PlotUi<'_>, track: &Track, curve: &TrackCurve, (a, b): (usize, usize)) {
    let (mut f, mut t, mut f2, mut t2) = (vec![], vec![], vec![], vec![]);
    for (i, k) in track.keys.iter().enumerate() {
        let (Some((la, ra)), Some((lb, rb))) = (curve.bezier_handles(i, a), curve.bezier_handles(i, b)) else { continue };
        let p = [k.value[a], k.value[b]];
        if la.1 != 0.0 || lb.1 != 0.0 {
            f.push([p[0] + la.1, p[1] + lb.1]);
            t.push(p);
        }
        if ra.1 != 0.0 || rb.1 != 0.0 {
            f2.push(p);
            t2.push([p[0] + ra.1, p[1] + rb.1]);
        }
    }
    plot_ui.arrows(Arrows::new("in (left handles)", PlotPoints::from(f), PlotPoints::from(t)).color(INCOMING).tip_length(8.0));
    plot_ui.arrows(Arrows::new("out (right handles)", PlotPoints::from(f2), PlotPoints::from(t2)).color(OUTGOING).tip_length(8.0));
}

fn hit_key(track: &Track, (a, b): (usize, usize), transform: &PlotTransform, pos: Pos2) -> Option<usize> {
    track
        .keys
        .iter()
        .enumerate()
        .map(|(i, k)| (i, transform.position_from_point(&PlotPoint::new(k.value[a], k.value[b])).distance(pos)))
        .filter(|(_, d)| *d <= GRAB_RADIUS)
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(i, _)| i)
}

impl PathView {
    #[allow(clippy::too_many_arguments)]
    fn drag_keys(
        &mut self,
        ui: &egui::Ui,
        cx: &PanelContext<'_>,
        out: &mut Vec<AppCommand>,
        ti: usize,
        (a, b): (usize, usize),
        response: &egui::Response,
        transform: &PlotTransform,
    ) {
        let (press, pointer, modifiers) = ui.input(|i| (i.pointer.press_origin(), i.pointer.interact_pos(), i.modifiers));
        let track = &cx.project().tracks[ti];
        if response.drag_started_by(egui::PointerButton::Primary) && cx.ui.key_queue.is_busy() {
            // (As in the graph: no drag from keys that a change being made will replace.)
            out.push(AppCommand::Status(cx.busy_status()));
        } else if response.drag_started_by(egui::PointerButton::Primary) {
            self.drag = press.and_then(|origin| {
                hit_key(track, (a, b), transform, origin).map(|k| (ti, k, track.keys[k].value.clone(), transform.value_from_position(origin)))
            });
        }
        let mut change = None;
        if let (Some((track, key, original, origin)), Some(p), true) = (&self.drag, pointer, response.dragged()) {
            let now = transform.value_from_position(p);
            let mut value = original.clone();
            value[a] += now.x - origin.x;
            value[b] += now.y - origin.y;
            if cx.view.snap != modifiers.command {
                let span = transform.bounds().max()[0] - transform.bounds().min()[0];
                let step = 10f64.powf((span / 20.0).log10().floor());
                value[a] = (value[a] / step).round() * step;
                value[b] = (value[b] / step).round() * step;
            }
            // The key alone, spliced in (its time stays, so nothing is re-sorted): only the
            // segments it reaches are compiled again, not the whole track.
            let edit = crate::edit::intent::change_key(cx.project(), KeyRef { track: *track, key: *key }, |k| k.value = value);
            change = edit.map(|edit| Change::edits(vec![edit], None));
        }
        if self.drag.is_some() {
            out.extend(gesture::step(response, "Move key in space", change));
        }
        if response.drag_stopped() {
            self.drag = None;
        }
        if response.clicked() {
            if let Some(k) = pointer.and_then(|p| hit_key(track, (a, b), transform, p)) {
                out.push(AppCommand::Select(std::collections::BTreeSet::from([KeyRef { track: ti, key: k }])));
                out.push(AppCommand::SetActiveTrack(ti));
            }
        }
    }

    /// Speed of both motions against time, with their deviation from the mean in percent.
    fn speed_plot(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, ti: usize, curve: &TrackCurve) {
        let table = match self.table(cx, ti) {
            Some(Ok(table)) => table,
            Some(Err(_)) => {
                ui.label("No arc-length table: this track's interpolation has no derivative.");
                return;
            }
            None => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("Measuring the path's length…");
                });
                return;
            }
        };
        let Ok(path) = PathCurve::new(curve) else { return };
        let profile = speed_profile(path, table, 600);
        let dev_raw = max_deviation_percent(profile.iter().map(|p| p.1));
        let dev_const = max_deviation_percent(profile.iter().map(|p| p.2));
        ui.label(format!(
            "length {:.4}; arc-length table {} samples, error bound E = {:.0e}; speed deviation: raw parameter {dev_raw:.1}%, arc length {dev_const:.4}%",
            table.length(),
            table.len(),
            table.tolerance()
        ));
        let raw: Vec<[f64; 2]> = profile.iter().map(|p| [p.0, p.1]).collect();
        let constant: Vec<[f64; 2]> = profile.iter().map(|p| [p.0, p.2]).collect();
        Plot::new("path_speed").legend(Legend::default()).x_axis_label("time (s)").y_axis_label("speed").include_y(0.0).allow_drag(false).show(ui, |plot_ui| {
            plot_ui.line(Line::new(format!("raw parameter (±{dev_raw:.1}%)"), PlotPoints::from(raw)).color(RAW_MARKER).width(2.0));
            plot_ui.line(Line::new(format!("arc length (±{dev_const:.4}%)"), PlotPoints::from(constant)).color(CONSTANT_MARKER).width(2.0));
            plot_ui.vline(VLine::new("", cx.playhead()).color(PLAYHEAD));
        });
    }
}
