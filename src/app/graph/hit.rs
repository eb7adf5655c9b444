//! What is under the pointer in the value graph: tangent, Bézier and ease handles of selected
//! keys first, then keys, then the playhead line; and where handles are drawn.

use eframe::egui::{Pos2, Vec2};
use egui_plot::{PlotPoint, PlotTransform};

use super::display::{component_shown, display, Display};
use crate::app::panel::PanelContext;
use crate::edit::intent::{self, KeyRef};
use crate::handles::Side;
use crate::{Interpolation, Key, Track, TrackCurve, TrackKind};

/// How close (in points) the pointer must be to grab a key or handle.
pub const GRAB_RADIUS: f32 = 9.0;
/// Ease handles are drawn this many points below their key's level.
pub const EASE_OFFSET: f32 = 14.0;

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
    /// A Bézier handle of a key.
    Handle {
        key: KeyRef,
        comp: usize,
        side: Side,
    },
    /// The playhead line, to scrub.
    Playhead,
}

/// Above this many keys of a track in view, its tangent arrows and handles are neither drawn
/// nor grabbable (they would be a blur).
pub const MAX_ARROWS_PER_TRACK: usize = 300;

/// The keys of `track` in the view's time range `(x0, x1)` with a 2% margin, and whether they
/// are few enough to draw their tangents and handles.
pub fn keys_in_view(track: &Track, (x0, x1): (f64, f64)) -> (std::ops::Range<usize>, bool) {
    let margin = (x1 - x0) * 0.02;
    let keys = keys_in_range(&track.keys, x0 - margin, x1 + margin);
    let few = keys.len() <= MAX_ARROWS_PER_TRACK;
    (keys, few)
}

pub use crate::app::key_ranges::keys_in_range;

/// Tip of a tangent arrow in plot coordinates: a third of the neighbouring segment, the
/// Bézier-handle convention (a Hermite tangent r over Δt is a handle of r/3 over Δt/3).
pub fn tangent_tip(curve: &TrackCurve, key: usize, comp: usize, outgoing: bool, at: (f64, f64), d: Display) -> Option<(f64, f64)> {
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

/// Where the `side` Bézier handle of `key`, component `comp`, is drawn (plot coordinates),
/// as the curve resolved it (automatic handles too); `None` where the handle does not shape
/// the curve (next to a Constant, Linear or eased segment, [`crate::handles::handle_in_use`]).
pub fn handle_tip(keys: &[Key], curve: &TrackCurve, key: usize, comp: usize, side: Side, at: (f64, f64), d: Display) -> Option<(f64, f64)> {
    if !crate::handles::handle_in_use(keys, key, side) {
        return None;
    }
    let (left, right) = curve.bezier_handles(key, comp)?;
    let h = if side == Side::Left { left } else { right };
    Some((at.0 + h.0, at.1 + h.1 * d.scale))
}

/// Time of an ease handle: `ease_from` of the way into the next segment, or `ease_to` of the
/// way back into the previous one.
pub fn ease_time(keys: &[Key], key: usize, from: bool) -> Option<f64> {
    let k = &keys[key];
    if from {
        let next = keys.get(key + 1)?;
        Some(k.time + k.ease_from * (next.time - k.time))
    } else {
        let prev = keys.get(key.checked_sub(1)?)?;
        Some(k.time - k.ease_to * (k.time - prev.time))
    }
}

/// The nearest of several candidates within [`GRAB_RADIUS`].
struct Nearest {
    pos: Pos2,
    best: Option<(f32, Target)>,
}

impl Nearest {
    fn consider(&mut self, p: Pos2, target: Target) {
        let d = p.distance(self.pos);
        if d <= GRAB_RADIUS && self.best.is_none_or(|(bd, _)| d < bd) {
            self.best = Some((d, target));
        }
    }
}

/// The nearest grabbable thing within [`GRAB_RADIUS`] of `pos`: handles of selected keys
/// first, then keys, then the playhead.
pub fn hit_test(cx: &PanelContext<'_>, transform: &PlotTransform, pos: Pos2) -> Option<Target> {
    let mut near = Nearest { pos, best: None };
    if cx.view.show_tangents {
        // Only handles that are drawn: of selected keys in view, on tracks with few keys there.
        let b = transform.bounds();
        for ti in cx.doc.selection.tracks() {
            let Some(track) = cx.project().tracks.get(ti).filter(|_| cx.curve_drawn(ti)) else { continue };
            let (in_view, few) = keys_in_view(track, (b.min()[0], b.max()[0]));
            if few {
                for kr in intent::in_keys(&cx.doc.selection, ti, in_view) {
                    handles(cx, transform, *kr, &mut near);
                }
            }
        }
    }
    if let Some((_, t)) = near.best {
        return Some(t);
    }
    keys(cx, transform, &mut near);
    let on_playhead = (transform.position_from_point_x(cx.playhead()) - pos.x).abs() <= 4.0;
    near.best.map(|(_, t)| t).or(on_playhead.then_some(Target::Playhead))
}

/// The tangent and ease handles of selected key `kr`.
fn handles(cx: &PanelContext<'_>, transform: &PlotTransform, kr: KeyRef, near: &mut Nearest) {
    let track = &cx.project().tracks[kr.track];
    let Some(Ok(curve)) = cx.doc.curve(kr.track) else { return };
    if !track.visible || !matches!(track.interpolation, Interpolation::Tcb | Interpolation::Bezier) || track.kind == TrackKind::Quat {
        return;
    }
    let key = track.keys.key(kr.key);
    for comp in 0..track.kind.dim() {
        if !component_shown(cx, kr.track, comp) {
            continue;
        }
        let d = display(cx, kr.track, comp);
        let at = (key.time, d.show(key.value[comp]));
        if track.interpolation == Interpolation::Bezier {
            for side in [Side::Left, Side::Right] {
                if let Some(tip) = handle_tip(&track.keys, curve, kr.key, comp, side, at, d) {
                    near.consider(transform.position_from_point(&PlotPoint::new(tip.0, tip.1)), Target::Handle { key: kr, comp, side });
                }
            }
            continue;
        }
        for outgoing in [true, false] {
            if let Some(tip) = tangent_tip(curve, kr.key, comp, outgoing, at, d) {
                near.consider(transform.position_from_point(&PlotPoint::new(tip.0, tip.1)), Target::Tangent { key: kr, comp, outgoing });
            }
        }
    }
    if track.interpolation != Interpolation::Tcb {
        return;
    }
    let d0 = display(cx, kr.track, 0);
    for from in [true, false] {
        if let Some(t) = ease_time(&track.keys, kr.key, from) {
            let p = transform.position_from_point(&PlotPoint::new(t, d0.show(key.value[0])));
            near.consider(p + Vec2::new(0.0, EASE_OFFSET), Target::Ease { key: kr, from });
        }
    }
}

/// Keys of visible tracks near the pointer (only those within the grab radius in time).
fn keys(cx: &PanelContext<'_>, transform: &PlotTransform, near: &mut Nearest) {
    let b = transform.bounds();
    let margin = (b.max()[0] - b.min()[0]) * 0.02;
    for (ti, track) in cx.project().tracks.iter().enumerate() {
        if !cx.curve_drawn(ti) || track.kind == TrackKind::Quat {
            continue;
        }
        let shown: Vec<Option<Display>> = (0..track.kind.dim()).map(|c| component_shown(cx, ti, c).then(|| display(cx, ti, c))).collect();
        let dt = f64::from(GRAB_RADIUS) / transform.dpos_dvalue_x().abs();
        let t = transform.value_from_position(near.pos).x;
        for ki in keys_in_range(&track.keys, (t - dt).max(b.min()[0] - margin), (t + dt).min(b.max()[0] + margin)) {
            let time = track.keys.time(ki);
            for (comp, &v) in track.keys.value(ki).iter().enumerate() {
                let Some(d) = shown[comp] else { continue };
                let p = transform.position_from_point(&PlotPoint::new(time, d.show(v)));
                near.consider(p, Target::Key(KeyRef { track: ti, key: ki }, comp));
            }
        }
    }
}
