//! Pointer input on the value graph turned into commands: click to select or move the
//! playhead, double-click to insert a key, drag keys, tangent, Bézier and ease handles (each
//! drag one gesture, `gesture::step`), the playhead, or a selection box.

use std::collections::BTreeSet;

use eframe::egui::{self, Modifiers, Pos2, Vec2};
use egui_plot::{PlotPoint, PlotTransform};

use super::display::{component_shown, display, snap_step, Display};
use super::hit::{hit_test, keys_in_range, tangent_tip, Target};
use super::view::{Graph, GraphDrag};
use crate::app::commands::AppCommand;
use crate::app::gesture;
use crate::app::key_change::{Change, KeyMove};
use crate::app::message::Status;
use crate::app::panel::PanelContext;
use crate::app::playback::TransportCommand;
use crate::app::units::{display_scale, fmt_shown, shown, unit};
use crate::edit::intent::{self, KeyEdit, KeyRef, Snap};
use crate::handles::{self, Side};
use crate::TrackKind;

fn adds(m: Modifiers) -> bool {
    m.shift || m.command
}

/// "Key 2 of "a": t = …, value = …" (in the track's display units, `units.rs`).
fn describe(cx: &PanelContext<'_>, k: KeyRef, key: &crate::Key) -> String {
    let track = &cx.project().tracks[k.track];
    format!("Key {} of \"{}\": t = {:.4} s, value = {}", k.key, track.name, key.time, fmt_shown(track.kind, &key.value))
}

impl Graph {
    /// Turns this frame's pointer input on the plot into commands.
    pub(super) fn interact(&mut self, ui: &egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, response: &egui::Response, transform: &PlotTransform) {
        let (modifiers, press_origin, pointer) = ui.input(|i| (i.modifiers, i.pointer.press_origin(), i.pointer.interact_pos()));
        self.hover = pointer.filter(|p| transform.frame().contains(*p)).and_then(|p| hit_test(cx, transform, p));
        match self.hover {
            Some(Target::Key(..) | Target::Tangent { .. } | Target::Ease { .. } | Target::Handle { .. }) => ui.ctx().set_cursor_icon(egui::CursorIcon::Grab),
            Some(Target::Playhead) => ui.ctx().set_cursor_icon(egui::CursorIcon::ResizeHorizontal),
            None => {}
        }
        let primary = response.dragged_by(egui::PointerButton::Primary) || response.drag_started_by(egui::PointerButton::Primary);
        if response.drag_started_by(egui::PointerButton::Primary) {
            self.start_drag(cx, out, transform, press_origin.unwrap_or_default(), modifiers);
        }
        let change = match pointer {
            Some(p) if primary && response.dragged() => self.continue_drag(cx, out, transform, p, modifiers),
            _ => None,
        };
        if let Some(label) = self.drag.as_ref().and_then(GraphDrag::gesture) {
            out.extend(gesture::step(response, label, change));
        }
        if response.drag_stopped() {
            if let (Some(GraphDrag::Box { origin }), Some(p)) = (&self.drag, pointer) {
                if transform.position_from_point(origin).distance(p) < 4.0 {
                    // A slow click that egui counted as a drag.
                    click(cx, out, transform, p, modifiers);
                } else {
                    box_select(cx, out, *origin, transform.value_from_position(p), adds(modifiers));
                }
            }
            self.drag = None;
        }
        if response.clicked() {
            if let Some(p) = pointer {
                let same_spot = self.last_click.is_some_and(|q| q.distance(p) < 6.0);
                if response.double_clicked() && same_spot {
                    double_click(cx, out, transform, p);
                } else {
                    click(cx, out, transform, p, modifiers);
                }
                self.last_click = Some(p);
            }
        }
    }

    /// What the press grabbed: keys (selecting them), a handle, the playhead, or empty space.
    fn start_drag(&mut self, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, transform: &PlotTransform, origin: Pos2, modifiers: Modifiers) {
        let plot_origin = transform.value_from_position(origin);
        let target = hit_test(cx, transform, origin);
        if cx.ui.key_queue.is_busy() && target.is_some_and(|t| !matches!(t, Target::Playhead)) {
            // A drag made from the keys on screen while a change of them is being made would
            // undo that change when it lands: no editing drag until it is in place.
            out.push(AppCommand::Status(cx.busy_status()));
            self.drag = None;
            return;
        }
        self.drag = match target {
            Some(Target::Key(k, comp)) => {
                let mut selection: BTreeSet<KeyRef> = (*cx.doc.selection).clone();
                if !selection.contains(&k) {
                    if !adds(modifiers) {
                        selection.clear();
                    }
                    selection.insert(k);
                    out.push(AppCommand::Select(selection.clone()));
                }
                out.push(AppCommand::SetActiveTrack(k.track));
                let origins = std::sync::Arc::new(intent::move_origins(cx.project(), &selection));
                let scale = display(cx, k.track, comp).scale;
                let unit_scale = display_scale(cx.project().tracks[k.track].kind);
                let sent = std::cell::Cell::new(None);
                Some(GraphDrag::Move { origin: plot_origin, at_start: *transform, comp, scale, unit_scale, origins, sent })
            }
            Some(Target::Tangent { key, comp, outgoing }) => {
                let k = &cx.project().tracks[key.track].keys[key.key];
                let Some(Ok(curve)) = cx.doc.curve(key.track) else { return };
                let d = display(cx, key.track, comp);
                let at = (k.time, d.show(k.value[comp]));
                let tip = tangent_tip(curve, key.key, comp, outgoing, at, d).unwrap_or(at);
                let v = transform.position_from_point(&PlotPoint::new(tip.0, tip.1)) - transform.position_from_point(&PlotPoint::new(at.0, at.1));
                let dir = if v.length() > 0.0 { v / v.length() } else { Vec2::X };
                Some(GraphDrag::Tangent { key, origin, dir, length: v.length().max(8.0), tension: k.tension, bias: k.bias })
            }
            Some(Target::Ease { key, from }) => Some(GraphDrag::Ease { key, from }),
            Some(Target::Handle { key, comp, side }) => {
                let track = cx.project().tracks[key.track].clone();
                let Some(Ok(curve)) = cx.doc.curve(key.track) else { return };
                let display = display(cx, key.track, comp);
                Some(GraphDrag::Handle { key, comp, side, start: Box::new((track, curve.clone())), display })
            }
            Some(Target::Playhead) => Some(GraphDrag::Scrub),
            None => Some(GraphDrag::Box { origin: plot_origin }),
        };
    }

    /// A frame of the drag: the change it makes (`None` if it makes none, or moves the
    /// playhead, which it sends itself).
    fn continue_drag(&self, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, transform: &PlotTransform, screen: Pos2, modifiers: Modifiers) -> Option<Change> {
        let p = transform.value_from_position(screen);
        match self.drag.as_ref() {
            Some(GraphDrag::Move { origin, at_start, comp, scale, unit_scale, origins, sent }) => {
                // Through the mapping the drag began with: a layout that shifts for a frame
                // (a panel appearing) must not move the keys under a pointer that stands still.
                let p = at_start.value_from_position(screen);
                let snap = (cx.view.snap != modifiers.command).then(|| {
                    let span = transform.bounds().max()[1] - transform.bounds().min()[1];
                    Snap { fps: cx.project().fps, value_step: snap_step(span, *scale, *unit_scale) }
                });
                let (dt, dv) = (p.x - origin.x, (p.y - origin.y) / scale);
                if sent.replace(Some((dt, dv, snap))) == Some((dt, dv, snap)) {
                    return None;
                }
                let mut m = KeyMove { origins: origins.clone(), dt, dv, comp: *comp, snap, message: String::new() };
                m.message = match m.keys() {
                    // One key (cheap to move here): where it is going.
                    1 => moved_message(cx, &intent::move_keys(origins, dt, dv, *comp, snap)),
                    n => format!("Moving {n} keys"),
                };
                // One command for every track: one change, the tracks compiled together (on a
                // worker for a big selection, `planner::plan_change`).
                Some(Change::Move(std::sync::Arc::new(m)))
            }
            Some(GraphDrag::Tangent { key, origin, dir, length, tension, bias }) => {
                let delta = screen - *origin;
                let along = f64::from(delta.dot(*dir) / length);
                let across = f64::from((dir.x * delta.y - dir.y * delta.x) / length);
                let t = (tension - along).clamp(-1.0, 1.0);
                let b = (bias - across).clamp(-1.0, 1.0);
                let edit = intent::change_key(cx.project(), *key, |k| {
                    k.tension = t;
                    k.bias = b;
                })?;
                Some(Change::edits(vec![edit], Some(format!("Tension {t:.3}, bias {b:.3}"))))
            }
            Some(GraphDrag::Ease { key, from }) => ease(cx, *key, *from, p.x),
            Some(GraphDrag::Handle { key, comp, side, start, display }) => drag_handle(*key, (*comp, *side), start, *display, p),
            Some(GraphDrag::Scrub) => {
                out.push(AppCommand::Transport(TransportCommand::Scrub(p.x)));
                None
            }
            Some(GraphDrag::Box { .. }) | None => None,
        }
    }
}

/// What the status line says while keys move: the key's new place, or how far many moved.
fn moved_message(cx: &PanelContext<'_>, edits: &[KeyEdit]) -> String {
    let moved: Vec<(KeyRef, &crate::Key)> = edits
        .iter()
        .flat_map(|e| {
            let (keys, at) = match &e.edit {
                crate::Edit::SetKeys { keys, .. } => (keys.as_slice(), 0),
                crate::Edit::SpliceKeys { keys, at, .. } => (keys.as_slice(), *at),
                _ => (&[][..], 0),
            };
            e.selected.iter().filter_map(move |k| keys.get(k.key.checked_sub(at)?).map(|key| (*k, key)))
        })
        .collect();
    match moved.as_slice() {
        [(k, key)] => describe(cx, *k, key),
        many => format!("Moving {} keys", many.len()),
    }
}

/// The `side` Bézier handle of `key` dragged to plot point `p` (Blender's rules: automatic
/// handles become Aligned, Vector becomes Free, Aligned turns the other side).
fn drag_handle(key: KeyRef, (comp, side): (usize, Side), start: &(crate::Track, crate::TrackCurve), d: Display, p: PlotPoint) -> Option<Change> {
    let (track, curve) = start;
    if key.key >= track.keys.len() {
        return None;
    }
    let value = d.value(p.y);
    let offset = (p.x - track.keys.time(key.key), value - track.keys.value(key.key)[comp]);
    if !(offset.0.is_finite() && offset.1.is_finite()) {
        return None;
    }
    let k = handles::dragged_handle(track, curve, key.key, side, comp, offset)?;
    let (name, kind, h) = if side == Side::Left { ("Left", k.handles.0, &k.left) } else { ("Right", k.handles.1, &k.right) };
    let h = h.get(comp).copied().unwrap_or(offset);
    let dv = shown(track.kind, h.1);
    let in_unit = unit(track.kind).map_or(String::new(), |u| format!(" {u}"));
    let message = format!("{name} handle of key {}: Δt = {:.4}, Δv = {dv:.4}{in_unit} ({kind:?})", key.key, h.0);
    // The one key the drag changes (from the track as the drag began), not the whole track.
    let edit = crate::Edit::SpliceKeys { track: key.track, at: key.key, remove: 1, keys: vec![k] };
    Some(Change::edits(vec![edit], Some(message)))
}

/// The ease handle of `key` dragged to time `t`.
fn ease(cx: &PanelContext<'_>, key: KeyRef, from: bool, t: f64) -> Option<Change> {
    let keys = &cx.project().tracks[key.track].keys;
    let k = &keys[key.key];
    let value = if from {
        keys.get(key.key + 1).map(|n| (t - k.time) / (n.time - k.time))
    } else {
        key.key.checked_sub(1).map(|i| (k.time - t) / (k.time - keys[i].time))
    };
    let v = value?.clamp(0.0, 1.0);
    let edit = intent::change_key(cx.project(), key, |k| if from { k.ease_from = v } else { k.ease_to = v })?;
    let message = format!("{} {v:.3}", if from { "Ease from" } else { "Ease to" });
    Some(Change::edits(vec![edit], Some(message)))
}

fn click(cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, transform: &PlotTransform, pos: Pos2, modifiers: Modifiers) {
    match hit_test(cx, transform, pos) {
        Some(Target::Key(k, _)) => {
            if adds(modifiers) {
                out.push(AppCommand::ToggleSelected(k));
            } else {
                out.push(AppCommand::Select(BTreeSet::from([k])));
            }
            out.push(AppCommand::SetActiveTrack(k.track));
            out.push(AppCommand::Status(Status::message(describe(cx, k, &cx.project().tracks[k.track].keys[k.key]))));
        }
        Some(_) => {}
        None => {
            if !adds(modifiers) {
                out.push(AppCommand::Select(BTreeSet::new()));
            }
            out.push(AppCommand::Transport(TransportCommand::Scrub(transform.value_from_position(pos).x)));
        }
    }
}

/// Inserts a key on the visible, editable curve that passes nearest the pointer.
fn double_click(cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, transform: &PlotTransform, pos: Pos2) {
    let t = transform.value_from_position(pos).x;
    let mut best: Option<(f32, usize)> = None;
    for (ti, track) in cx.project().tracks.iter().enumerate() {
        if !cx.curve_drawn(ti) || track.locked || track.kind == TrackKind::Quat {
            continue;
        }
        let Some(v) = cx.doc.sample(ti, t) else {
            continue;
        };
        for (c, &x) in v.iter().enumerate() {
            let p = transform.position_from_point(&PlotPoint::new(t, display(cx, ti, c).show(x)));
            let d = (p.y - pos.y).abs();
            if d < 16.0 && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, ti));
            }
        }
    }
    out.push(match best {
        Some((_, track)) => AppCommand::InsertKey { track, t },
        None => AppCommand::Status(Status::message("Double-click on a curve to insert a key there")),
    });
}

fn box_select(cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, a: PlotPoint, b: PlotPoint, add: bool) {
    let (t0, t1) = (a.x.min(b.x), a.x.max(b.x));
    let (v0, v1) = (a.y.min(b.y), a.y.max(b.y));
    let mut found = Vec::new();
    for (ti, track) in cx.project().tracks.iter().enumerate() {
        if !cx.curve_drawn(ti) || track.kind == TrackKind::Quat {
            continue;
        }
        let shown: Vec<Option<Display>> = (0..track.kind.dim()).map(|c| component_shown(cx, ti, c).then(|| display(cx, ti, c))).collect();
        for ki in keys_in_range(&track.keys, t0, t1) {
            let hit = shown.iter().enumerate().any(|(c, d)| d.is_some_and(|d| (v0..=v1).contains(&d.show(track.keys.value(ki)[c]))));
            if hit {
                found.push(KeyRef { track: ti, key: ki });
            }
        }
    }
    out.extend(AppCommand::box_selected(found, add));
}
