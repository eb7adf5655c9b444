//! The dope sheet (the centre's "Dope sheet" tab): one row per track, grouped as the track list
//! groups them (the body's tree, or the name before the last `.`), a summary row per group and
//! one for the whole take; keys as marks shaped by the segment after them (`dope_rows.rs`).
//!
//! Click a mark to select its key (a summary's mark: every key at that time below it),
//! Shift/Ctrl-click to add or remove; drag on empty space to box-select; drag a selected mark
//! to move the selected keys in time, snapped to frames (Ctrl: not snapped) — one gesture, one
//! undo step, through the same key change as the graph's drag. The selection is the
//! document's, shared with the graph; Delete, Copy/Paste, Scale time (`S`, about the
//! playhead or another pivot) and every other key command act on it as they do there.
//! Double-click a group's row to open or close it. Scroll pans, Ctrl+scroll zooms time.

use std::collections::BTreeSet;
use std::sync::Arc;

use eframe::egui::{self, Color32, Modifiers, Pos2};
use egui_plot::{Bar, BarChart, GridMark, MarkerShape, Plot, PlotBounds, PlotPoint, PlotPoints, PlotTransform, Points, Polygon, VLine};

use super::commands::AppCommand;
use super::dope_rows::{dope_rows, marks, ColumnCache, DopeRow, MarkCache, MarkKey, Selection, Shape, SAME_TIME};
use super::gesture;
use super::key_change::{Change, KeyMove, KeyRef};
use super::message::Status;
use super::panel::{Panel, PanelContext};
use super::playback::TransportCommand;
use super::style::{track_color, PLAYHEAD};
use super::track_rows::{body_rows, rows};
use crate::edit::intent::{self, MoveOrigin, Snap};

/// Points a row is tall when the view is framed.
const ROW_HEIGHT: f32 = 22.0;
/// How near (in points, in time) the pointer must be to a mark to grab it.
const GRAB: f32 = 6.0;
/// Summary rows' marks.
const SUMMARY: Color32 = Color32::from_rgb(170, 170, 170);

/// A drag in progress.
enum DopeDrag {
    /// The selected keys moved in time from where they were when the drag began.
    /// `selected`: the press changed the selection (so a release without a move is no click).
    Move {
        from: f64,
        origins: Arc<Vec<MoveOrigin>>,
        sent: std::cell::Cell<Option<(f64, bool)>>,
        selected: bool,
        press: Pos2,
        /// The plot mapping when the drag began.
        at_start: PlotTransform,
    },
    Box {
        origin: PlotPoint,
    },
}

/// The dope sheet's own state.
pub struct DopeSheet {
    drag: Option<DopeDrag>,
    /// Groups opened (in a large document) or closed (otherwise) by the user.
    toggled: BTreeSet<String>,
    marks: MarkCache,
    /// Which pixel columns hold keys, per track (what a row's runs are made from).
    columns: ColumnCache,
    /// Fit the take's time range and the first rows in the next frame.
    pub frame: bool,
    /// The rows drawn in the last frame (what a click or box select refers to).
    rows: Vec<DopeRow>,
    /// The plot-to-screen mapping in the last frame.
    pub transform: Option<PlotTransform>,
}

impl Default for DopeSheet {
    fn default() -> Self {
        Self {
            drag: None,
            toggled: BTreeSet::new(),
            marks: MarkCache::default(),
            columns: ColumnCache::default(),
            frame: true,
            rows: Vec::new(),
            transform: None,
        }
    }
}

/// The names a group of `project` can have: its joints and its tracks' name prefixes.
fn group_names(project: &crate::Project) -> Vec<String> {
    // Joints, and the name prefixes of tracks (those of no joint are grouped by them).
    let joints = project.skeleton.iter().flat_map(|s| s.joints.iter().map(|j| j.name.clone()));
    joints.chain(project.tracks.iter().filter_map(|t| super::track_rows::prefix(&t.name).map(str::to_owned))).collect()
}

/// Row `i` is drawn centred at `y = −i`.
fn row_y(i: usize) -> f64 {
    -(i as f64)
}

impl DopeSheet {
    fn build_rows(&self, cx: &PanelContext<'_>) -> Vec<DopeRow> {
        let tracks = &cx.project().tracks;
        let listed: Vec<usize> = (0..tracks.len()).filter(|&i| tracks[i].visible).collect();
        let open_by_default = tracks.len() <= super::settings::LARGE_DOCUMENT_TRACKS;
        let open = |p: &str| open_by_default != self.toggled.contains(p);
        let list = match &cx.project().skeleton {
            Some(skeleton) => body_rows(tracks, &listed, skeleton, open),
            None => rows(tracks, &listed, open),
        };
        dope_rows(&listed, list)
    }

    /// The toolbar: open or close every group, and what the marks mean.
    fn toolbar(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, rows: &[DopeRow]) {
        ui.horizontal(|ui| {
            let groups: Vec<&str> = rows.iter().filter_map(|r| if let DopeRow::Group { name, .. } = r { Some(name.as_str()) } else { None }).collect();
            let open_by_default = cx.project().tracks.len() <= super::settings::LARGE_DOCUMENT_TRACKS;
            if ui.button("Expand all").on_hover_text("Open every group's rows").clicked() {
                self.set_all_open(cx, true, open_by_default);
            }
            if ui.button("Collapse all").on_hover_text("Close every group to its summary row").clicked() {
                self.set_all_open(cx, false, open_by_default);
            }
            ui.label(format!("{} rows, {} groups", rows.len(), groups.len()));
            // Truncated, never wider than the centre: a long toolbar pushed the plot under the inspector.
            ui.add(egui::Label::new("marks: diamond smooth, circle linear, square constant, triangle eased; white selected").truncate()).on_hover_text(
                "A key's mark shows the segment after it: diamond Bézier, TCB, Cubic or Squad; circle Linear, Slerp or Nlerp; square Step or Constant; triangle an easing (Sine … Elastic). Where keys are denser than the pixels, a bar shows the span holding keys.\n\nClick a key to select it (Shift/Ctrl adds or removes), drag empty space to box-select, drag selected keys to move them in time (snapped to frames; Ctrl: free). S scales the selection in time, Delete deletes, Ctrl+C/V copy and paste. Double-click a group to open or close it. Scroll pans, Ctrl+scroll zooms time.",
            );
        });
    }

    fn set_all_open(&mut self, cx: &PanelContext<'_>, open: bool, open_by_default: bool) {
        self.toggled.clear();
        if open != open_by_default {
            // Every group's name toggled away from the default.
            self.toggled.extend(group_names(cx.project()));
        }
    }

    /// The take's time range and the first rows that fit `height`.
    fn framed(cx: &PanelContext<'_>, rows: usize, height: f32) -> PlotBounds {
        let tracks = &cx.project().tracks;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for t in tracks.iter().filter(|t| t.visible) {
            if let Some((a, b)) = t.time_range() {
                lo = lo.min(a);
                hi = hi.max(b);
            }
        }
        if !lo.is_finite() {
            (lo, hi) = (0.0, 1.0);
        }
        let pad = ((hi - lo) * 0.04).max(0.05);
        let fit = f64::from((height / ROW_HEIGHT).max(3.0));
        let shown = fit.max(1.0).min(fit.max(rows as f64));
        PlotBounds::from_min_max([lo - pad, 0.5 - shown], [hi + pad, 0.5])
    }
}

impl Panel for DopeSheet {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        let rows = self.build_rows(cx);
        self.toolbar(ui, cx, &rows);
        let tracks = &cx.project().tracks;
        let labels: Vec<String> = rows.iter().map(|r| r.label(tracks)).collect();
        let frame = std::mem::take(&mut self.frame);
        let height = ui.available_height();
        let plot = super::time_axis::time_axis(Plot::new("dope_sheet"), cx.view.frame_axis, cx.project().fps)
            .y_axis_formatter(move |mark, _| {
                let i = -mark.value.round();
                if (mark.value + i).abs() < 1e-6 && i >= 0.0 {
                    labels.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_grid_spacer(|input| {
                let (lo, hi) = input.bounds;
                let (a, b) = (lo.ceil() as i64, hi.floor() as i64);
                if b - a > 2_000 {
                    return Vec::new();
                }
                (a..=b).map(|v| GridMark { value: v as f64, step_size: 1.0 }).collect()
            })
            .y_axis_min_width(220.0)
            .height(height)
            .allow_drag(false)
            .allow_zoom(egui::Vec2b::new(true, false))
            .allow_boxed_zoom(false)
            .allow_double_click_reset(false)
            .show_x(false)
            .show_y(false)
            .link_axis(egui::Id::unique("time axis"), [true, false]);
        let response = plot.show(ui, |plot_ui| {
            if frame {
                plot_ui.set_plot_bounds(Self::framed(cx, rows.len(), height));
            }
            self.draw(plot_ui, cx, &rows);
        });
        self.rows = rows;
        self.marks.retain(&self.rows);
        self.columns.retain(cx.project().tracks.len(), &self.rows);
        self.interact(ui, cx, out, &response.response, &response.transform);
        self.transform = Some(response.transform);
    }
}

impl DopeSheet {
    /// Every row in view: marks grouped by look (one plot item each), runs as one bar chart.
    fn draw(&mut self, plot_ui: &mut egui_plot::PlotUi<'_>, cx: &PanelContext<'_>, rows: &[DopeRow]) {
        let bounds = plot_ui.plot_bounds();
        let (x0, x1) = (bounds.min()[0], bounds.max()[0]);
        let columns = (plot_ui.transform().frame().width().max(1.0) / 2.0) as usize;
        let tracks = &cx.project().tracks;
        // The tracks holding a selected key: found once (a jump per track in the set).
        let with_selected = cx.doc.selection.tracks();
        // Kept columns of selected keys hold while the selection and the keys do.
        let generation = cx.doc.selection.generation() ^ cx.doc.document.revision().rotate_left(32);
        let selection = Selection { keys: &cx.doc.selection, tracks: &with_selected, generation };
        let mut points: std::collections::HashMap<(Shape, bool, Color32), Vec<[f64; 2]>> = std::collections::HashMap::new();
        let mut bars: Vec<Bar> = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let y = row_y(i);
            if y + 1.0 < bounds.min()[1] || y - 1.0 > bounds.max()[1] {
                continue;
            }
            let color = match row {
                DopeRow::Track { index, .. } => track_color(&tracks[*index], *index),
                _ => SUMMARY,
            };
            let stamps = |ti: usize| cx.doc.curve_stamp(ti).unwrap_or(0);
            // A row none of whose tracks holds a selected key draws the same whatever else
            // is selected: its marks are kept across selection changes (None), and made again
            // when it holds one now or did when they were made (the generation differs).
            let holds = row.members().iter().any(|ti| with_selected.binary_search(ti).is_ok());
            let key = MarkKey { stamps: row.stamp(&stamps), selection: holds.then_some(selection.generation), range: (x0.to_bits(), x1.to_bits()), columns };
            let held = &mut self.columns;
            let m = self.marks.get(row, key, || marks(tracks, &selection, row, ((x0, x1), columns), held, &stamps));
            for &(t, shape, selected) in &m.keys {
                points.entry((shape, selected, color)).or_default().push([t, y]);
            }
            for &(a, b, selected) in &m.runs {
                let fill = if selected { Color32::WHITE } else { color.linear_multiply(0.8) };
                bars.push(Bar::new(y, b - a).base_offset(a).width(if selected { 0.45 } else { 0.3 }).fill(fill).stroke(egui::Stroke::NONE));
            }
        }
        if !bars.is_empty() {
            plot_ui.bar_chart(BarChart::new("", bars).horizontal().allow_hover(false));
        }
        for ((shape, selected, color), pts) in points {
            let marker = match shape {
                Shape::Smooth | Shape::Summary => MarkerShape::Diamond,
                Shape::Linear => MarkerShape::Circle,
                Shape::Constant => MarkerShape::Square,
                Shape::Eased => MarkerShape::Up,
            };
            let (c, r) = if selected { (Color32::WHITE, 6.0) } else { (color, 4.5) };
            plot_ui.points(Points::new("", PlotPoints::from(pts)).shape(marker).radius(r).color(c).filled(true));
        }
        if let Some(DopeDrag::Box { origin }) = &self.drag {
            if let Some(p) = plot_ui.pointer_coordinate() {
                let corners = vec![[origin.x, origin.y], [p.x, origin.y], [p.x, p.y], [origin.x, p.y]];
                plot_ui.polygon(
                    Polygon::new("", PlotPoints::from(corners))
                        .fill_color(Color32::from_rgba_unmultiplied(120, 160, 255, 30))
                        .stroke((1.0, Color32::LIGHT_BLUE)),
                );
            }
        }
        plot_ui.vline(VLine::new("", cx.playhead()).color(PLAYHEAD).width(1.5));
    }

    /// Opens every group (Expand all).
    pub fn open_all(&mut self, project: &crate::Project) {
        let open_by_default = project.tracks.len() <= super::settings::LARGE_DOCUMENT_TRACKS;
        self.toggled.clear();
        if !open_by_default {
            self.toggled.extend(group_names(project));
        }
    }

    /// How many selected marks row `id` drew in the last frame.
    #[cfg(test)]
    pub fn selected_marks(&self, id: &super::dope_rows::RowId) -> usize {
        self.marks.selected_in(id)
    }

    /// The rows drawn in the last frame, as their labels read.
    #[cfg(test)]
    pub fn row_labels(&self, tracks: &[crate::Track]) -> Vec<String> {
        self.rows.iter().map(|r| r.label(tracks)).collect()
    }

    /// The row under `y` (within 0.45 of its centre).
    fn row_at(&self, y: f64) -> Option<usize> {
        let i = (-y).round();
        (i >= 0.0 && (y + i).abs() <= 0.45 && (i as usize) < self.rows.len()).then_some(i as usize)
    }

    /// The keys of the mark under `pos`: the nearest key time of the row's tracks within
    /// [`GRAB`] points, and every key of them at that time.
    fn keys_at(&self, cx: &PanelContext<'_>, transform: &PlotTransform, pos: Pos2) -> Option<(usize, Vec<KeyRef>)> {
        let p = transform.value_from_position(pos);
        let i = self.row_at(p.y)?;
        let dt = f64::from(GRAB) / transform.dpos_dvalue_x().abs();
        let tracks = &cx.project().tracks;
        let mut best: Option<f64> = None;
        for &ti in self.rows[i].members() {
            let keys = &tracks[ti].keys;
            let k = keys.partition_point(|t| t < p.x);
            for j in [k.wrapping_sub(1), k] {
                if j < keys.len() {
                    let time = keys.time(j);
                    let d = (time - p.x).abs();
                    if d <= dt && best.is_none_or(|b| d < (b - p.x).abs()) {
                        best = Some(time);
                    }
                }
            }
        }
        let t = best?;
        let found = self.rows[i]
            .members()
            .iter()
            .flat_map(|&ti| super::key_ranges::keys_in_range(&tracks[ti].keys, t - SAME_TIME, t + SAME_TIME).map(move |key| KeyRef { track: ti, key }))
            .collect();
        Some((i, found))
    }

    fn interact(&mut self, ui: &egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, response: &egui::Response, transform: &PlotTransform) {
        let (modifiers, press, pointer) = ui.input(|i| (i.modifiers, i.pointer.press_origin(), i.pointer.interact_pos()));
        let adds = modifiers.shift || modifiers.command;
        if response.drag_started_by(egui::PointerButton::Primary) {
            self.start_drag(cx, out, transform, press.unwrap_or_default(), modifiers);
        }
        let mut change = None;
        if response.dragged_by(egui::PointerButton::Primary) {
            if let (Some(DopeDrag::Move { from, origins, sent, at_start, .. }), Some(p)) = (&self.drag, pointer) {
                // Through the mapping the drag began with: a zoom or a layout that shifts
                // mid-drag must not move keys under a pointer that stands still.
                let dt = at_start.value_from_position(p).x - from;
                let snapped = !modifiers.command;
                if sent.replace(Some((dt, snapped))) != Some((dt, snapped)) {
                    change = Some(move_change(cx, origins, dt, snapped));
                }
            }
        }
        if let Some(DopeDrag::Move { .. }) = self.drag {
            out.extend(gesture::step(response, "Move keys", change));
        }
        if response.drag_stopped() {
            match (self.drag.take(), pointer) {
                (Some(DopeDrag::Box { origin }), Some(p)) => {
                    if transform.position_from_point(&origin).distance(p) < 4.0 {
                        self.click(cx, out, transform, p, modifiers);
                    } else {
                        self.box_select(cx, out, origin, transform.value_from_position(p), adds);
                    }
                }
                (Some(DopeDrag::Move { selected, press, .. }), p) => {
                    // A slow click that egui counted as a drag: a click, unless the press
                    // already selected what it pressed on.
                    let still = p.is_some_and(|p| p.distance(press) < 4.0);
                    if let (true, false, Some(p)) = (still, selected, p) {
                        self.click(cx, out, transform, p, modifiers);
                    }
                }
                _ => {}
            }
        }
        let group =
            pointer.filter(|_| response.double_clicked()).and_then(|p| self.row_at(transform.value_from_position(p).y)).and_then(|i| match &self.rows[i] {
                DopeRow::Group { name, .. } => Some(name.clone()),
                _ => None,
            });
        if let Some(name) = group {
            // A double-click on a group's row opens or closes it.
            if !self.toggled.remove(&name) {
                self.toggled.insert(name);
            }
        } else if response.clicked() {
            if let Some(p) = pointer {
                self.click(cx, out, transform, p, modifiers);
            }
        }
    }

    fn start_drag(&mut self, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, transform: &PlotTransform, origin: Pos2, modifiers: Modifiers) {
        let hit = self.keys_at(cx, transform, origin);
        if hit.is_none() {
            self.drag = Some(DopeDrag::Box { origin: transform.value_from_position(origin) });
            return;
        }
        if cx.ui.key_queue.is_busy() {
            out.push(AppCommand::Status(cx.busy_status()));
            return;
        }
        let Some((_, keys)) = hit else { return };
        let mut selection: BTreeSet<KeyRef> = (*cx.doc.selection).clone();
        let selects = !keys.iter().any(|k| selection.contains(k));
        if selects {
            if !(modifiers.shift || modifiers.command) {
                selection.clear();
            }
            selection.extend(keys.iter().copied());
            out.push(AppCommand::Select(selection.clone()));
        }
        if let Some(k) = keys.first() {
            out.push(AppCommand::SetActiveTrack(k.track));
        }
        let origins = Arc::new(intent::move_origins(cx.project(), &selection));
        self.drag = Some(DopeDrag::Move {
            from: transform.value_from_position(origin).x,
            origins,
            sent: std::cell::Cell::new(None),
            selected: selects,
            press: origin,
            at_start: *transform,
        });
    }

    fn click(&self, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, transform: &PlotTransform, pos: Pos2, modifiers: Modifiers) {
        let adds = modifiers.shift || modifiers.command;
        match self.keys_at(cx, transform, pos) {
            Some((_, keys)) => {
                if adds {
                    let all_in = keys.iter().all(|k| cx.doc.selection.contains(k));
                    let mut selection: BTreeSet<KeyRef> = (*cx.doc.selection).clone();
                    for k in &keys {
                        if all_in {
                            selection.remove(k);
                        } else {
                            selection.insert(*k);
                        }
                    }
                    out.push(AppCommand::Select(selection));
                } else {
                    out.push(AppCommand::Select(keys.iter().copied().collect()));
                }
                if let Some(k) = keys.first() {
                    out.push(AppCommand::SetActiveTrack(k.track));
                    let t = cx.project().tracks[k.track].keys.time(k.key);
                    out.push(AppCommand::Status(Status::message(format!("{} key(s) at {t:.4} s (frame {:.1})", keys.len(), t * cx.project().fps))));
                }
            }
            // Empty space of a group's row: nothing (a double-click there opens or closes it).
            None if self.row_at(transform.value_from_position(pos).y).is_some_and(|i| matches!(self.rows[i], DopeRow::Group { .. })) => {}
            None => {
                if !adds {
                    out.push(AppCommand::Select(BTreeSet::new()));
                }
                out.push(AppCommand::Transport(TransportCommand::Scrub(transform.value_from_position(pos).x)));
            }
        }
    }

    /// Every key of the rows whose centre lies in the box, in its time range.
    fn box_select(&self, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, a: PlotPoint, b: PlotPoint, add: bool) {
        let (t0, t1) = (a.x.min(b.x), a.x.max(b.x));
        let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
        let tracks = &cx.project().tracks;
        // Each track once, however many rows in the box hold it (its own, its groups', the
        // summary): the keys come out in selection order, with no set built here (a box over
        // a whole take is millions of keys).
        let boxed: BTreeSet<usize> =
            self.rows.iter().enumerate().filter(|(i, _)| (y0..=y1).contains(&row_y(*i))).flat_map(|(_, row)| row.members().iter().copied()).collect();
        let found: Vec<KeyRef> =
            boxed.into_iter().flat_map(|ti| super::key_ranges::keys_in_range(&tracks[ti].keys, t0, t1).map(move |key| KeyRef { track: ti, key })).collect();
        out.extend(AppCommand::box_selected(found, add));
    }
}

/// A frame of a time drag: the selected keys moved by `dt` seconds from where they were when
/// the drag began, snapped to frames unless `snapped` is off (values untouched: no component
/// is moved).
fn move_change(cx: &PanelContext<'_>, origins: &Arc<Vec<MoveOrigin>>, dt: f64, snapped: bool) -> Change {
    let fps = cx.project().fps;
    let snap = snapped.then_some(Snap { fps, value_step: 0.0 });
    let mut m = KeyMove { origins: origins.clone(), dt, dv: 0.0, comp: usize::MAX, snap, message: String::new() };
    let shown = if snapped { (dt * fps).round() } else { dt * fps };
    m.message = format!("Moving {} key(s) by {shown:+.1} frames ({:+.4} s)", m.keys(), shown / fps);
    Change::Move(Arc::new(m))
}
