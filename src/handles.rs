//! Editing Bézier handles as Blender's graph editor does, as keys for an
//! [`crate::Edit::SetKeys`]: dragging a handle, and setting handle types (the `V` menu).
//!
//! - Dragging an **Auto** or **AutoClamped** handle turns both sides of the key into
//!   **Aligned** (Blender does the same), so the other side turns with it.
//! - Dragging a **Vector** handle turns that side **Free**.
//! - Dragging an **Aligned** handle turns the key's other Aligned side to point the opposite
//!   way, keeping its own length; a **Free** side moves alone.
//! - A handle stays on its side of the key in time (`dt ≤ 0` left, `≥ 0` right).
//!
//! Whenever a side stops being automatic its current handles (as the curve resolved them) are
//! stored first, so the curve does not jump.
//!
//! Inserting a key inside a Bezier segment ([`insert_key`]) splits the segment as Blender 3.4's
//! `keyframe_points.insert` does (checked against Blender in `tests/bezier_insert.rs`).

use crate::bezier::{corrected, Offset, SegmentComponent};
use crate::curve::TrackCurve;
use crate::model::{HandleType, Interpolation, Key, Track};

/// Which handle of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Left,
    Right,
}

/// The resolved `(left, right)` handles of key `i` for every component, or flat thirds of a
/// unit when the curve is not Bezier.
fn resolved(curve: &TrackCurve, i: usize) -> (Vec<(f64, f64)>, Vec<(f64, f64)>) {
    (0..curve.dim()).map(|c| curve.bezier_handles(i, c).unwrap_or(((-1.0 / 3.0, 0.0), (1.0 / 3.0, 0.0)))).unzip()
}

/// Stores the resolved handles on any side of `key` that has none yet.
fn store_resolved(key: &mut Key, curve: &TrackCurve, i: usize) {
    let (left, right) = resolved(curve, i);
    if key.left.is_empty() || key.handles.0.is_automatic() {
        key.left = left;
    }
    if key.right.is_empty() || key.handles.1.is_automatic() {
        key.right = right;
    }
}

/// Whether key `i`'s `side` handle shapes the curve, so the editor draws it and lets it be
/// dragged (as Blender's graph editor): a right handle when the key's own segment is Bézier,
/// a left handle when the segment before it is (the first key's left handle always, as it
/// gives Linear extrapolation's slope).
#[must_use]
pub fn handle_in_use(keys: &[Key], i: usize, side: Side) -> bool {
    use crate::model::KeyInterpolation::Bezier;
    match side {
        Side::Right => keys.get(i).is_some_and(|k| k.interpolation == Bezier),
        Side::Left => i == 0 || keys.get(i - 1).is_some_and(|k| k.interpolation == Bezier),
    }
}

/// The keys of `track` after dragging key `i`'s `side` handle of component `c` to `offset`
/// (`(dt, dv)` from the key). `curve` is `track` compiled.
#[must_use]
pub fn drag_handle(track: &Track, curve: &TrackCurve, i: usize, side: Side, c: usize, offset: (f64, f64)) -> Vec<Key> {
    let mut keys = track.keys.to_vec();
    if let Some(key) = dragged_handle(track, curve, i, side, c, offset) {
        keys[i] = key;
    }
    keys
}

/// Key `i` of `track` after the drag of [`drag_handle`]: the only key a handle drag changes
/// (so a drag sends one key a frame, not the track), or `None` past the end.
#[must_use]
pub fn dragged_handle(track: &Track, curve: &TrackCurve, i: usize, side: Side, c: usize, offset: (f64, f64)) -> Option<Key> {
    let mut key = (i < track.keys.len()).then(|| track.keys.key(i).into_owned())?;
    move_handle(&mut key, curve, i, side, c, offset);
    Some(key)
}

/// The keys of `track` with the `side` handle of component `c` of each key in `which` moved to
/// `to(current)`, where `current` is the handle as the curve resolved it: numeric entry of one
/// coordinate for many keys at once. Each key follows the rules of a drag.
#[must_use]
pub fn set_handles(track: &Track, curve: &TrackCurve, which: &[usize], side: Side, c: usize, to: impl Fn(Offset) -> Offset) -> Vec<Key> {
    let mut keys = track.keys.to_vec();
    for &i in which {
        let (Some(key), Some((l, r))) = (keys.get_mut(i), curve.bezier_handles(i, c)) else { continue };
        let current = if side == Side::Left { l } else { r };
        move_handle(key, curve, i, side, c, to(current));
    }
    keys
}

/// Key `i` (of the track `curve` was compiled from) with its `side` handle of component `c`
/// moved to `offset`, by the rules in the module docs.
fn move_handle(key: &mut Key, curve: &TrackCurve, i: usize, side: Side, c: usize, offset: Offset) {
    if c >= key.value.len() {
        return;
    }
    store_resolved(key, curve, i);
    let (mine, other) = match side {
        Side::Left => (key.handles.0, key.handles.1),
        Side::Right => (key.handles.1, key.handles.0),
    };
    let (mine, other) = match mine {
        HandleType::Auto | HandleType::AutoClamped => (HandleType::Aligned, if other.is_automatic() { HandleType::Aligned } else { other }),
        HandleType::Vector => (HandleType::Free, other),
        t => (t, other),
    };
    let offset = match side {
        Side::Left => (offset.0.min(0.0), offset.1),
        Side::Right => (offset.0.max(0.0), offset.1),
    };
    let (this_side, other_side) = match side {
        Side::Left => (&mut key.left, &mut key.right),
        Side::Right => (&mut key.right, &mut key.left),
    };
    this_side[c] = offset;
    if mine == HandleType::Aligned && other == HandleType::Aligned {
        let (dt, dv) = other_side[c];
        let length = (dt * dt + dv * dv).sqrt();
        let norm = (offset.0 * offset.0 + offset.1 * offset.1).sqrt();
        if norm > 0.0 {
            other_side[c] = (-offset.0 / norm * length, -offset.1 / norm * length);
        }
    }
    key.handles = match side {
        Side::Left => (mine, other),
        Side::Right => (other, mine),
    };
}

/// The keys of `track` with the given sides of keys `which` set to `kind` (`None` leaves a
/// side as it is). Sides becoming Free or Aligned keep their current handles.
#[must_use]
pub fn set_handle_types(track: &Track, curve: &TrackCurve, which: &[usize], left: Option<HandleType>, right: Option<HandleType>) -> Vec<Key> {
    let mut keys = track.keys.to_vec();
    for &i in which {
        let Some(key) = keys.get_mut(i) else { continue };
        store_resolved(key, curve, i);
        if let Some(t) = left {
            key.handles.0 = t;
        }
        if let Some(t) = right {
            key.handles.1 = t;
        }
        forget_automatic(key);
    }
    keys
}

/// A Bézier segment split at one time by de Casteljau's construction: the new handles of the
/// start key's right side, of the new key (both sides, offsets from the split point) and of
/// the end key's left side. Together they draw exactly the curve the segment drew.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    pub start_right: Offset,
    pub left: Offset,
    pub right: Offset,
    pub end_left: Offset,
    /// The point on the curve at the split time.
    pub point: (f64, f64),
}

/// The segment from `p0` (right handle `right`) to `p3` (left handle `left`) split at time
/// `t`, strictly inside it. The handles are first corrected for overlap as the curve is drawn
/// ([`corrected`]); `s` solves `x(s) = t`, then with `Pij = lerp(Pi, Pj, s)`:
/// `P01, P12, P23 → P012, P123 → P = lerp(P012, P123, s)`; start right = P01 − P0, new left =
/// P012 − P, new right = P123 − P, end left = P23 − P3.
#[must_use]
pub fn split_segment(p0: (f64, f64), right: Offset, left: Offset, p3: (f64, f64), t: f64) -> Option<Split> {
    let len = p3.0 - p0.0;
    if !(t > p0.0 && t < p3.0) {
        return None;
    }
    let (r, l) = corrected(len, right, left);
    let s = SegmentComponent::new(p0, right, left, p3).parameter_at((t - p0.0) / len);
    let lerp = |a: (f64, f64), b: (f64, f64)| (a.0 + (b.0 - a.0) * s, a.1 + (b.1 - a.1) * s);
    let sub = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0, a.1 - b.1);
    let (p1, p2) = ((p0.0 + r.0, p0.1 + r.1), (p3.0 + l.0, p3.1 + l.1));
    let (p01, p12, p23) = (lerp(p0, p1), lerp(p1, p2), lerp(p2, p3));
    let (p012, p123) = (lerp(p01, p12), lerp(p12, p23));
    let p = lerp(p012, p123);
    // The split point's time is `t` up to rounding; offsets are taken from (t, P.v).
    let point = (t, p.1);
    Some(Split { start_right: sub(p01, p0), left: sub(p012, point), right: sub(p123, point), end_left: sub(p23, p3), point })
}

/// `track`'s keys with a new key at time `t` with value `value` (the curve's own value there),
/// and the new key's index. `curve` is `track` compiled.
///
/// On a Bezier track, as Blender 3.4: a key inside a segment whose facing handles (the start
/// key's right, the end key's left) are both automatic (Auto, AutoClamped, Vector) is
/// AutoClamped and the neighbours' handles are recomputed around it. Otherwise the segment is
/// split ([`split_segment`]): the new key is Aligned with the split's handles, and the
/// neighbours' facing sides that are Free or Aligned are shortened to the split's, so the
/// curve keeps its shape except where an automatic neighbour recomputes. Outside the keys, or
/// on other tracks, the new key is a plain key (AutoClamped by default).
#[must_use]
pub fn insert_key(track: &Track, curve: &TrackCurve, t: f64, value: Vec<f64>) -> (Vec<Key>, usize) {
    let mut keys = track.keys.to_vec();
    let at = keys.partition_point(|k| k.time < t);
    let mut new = Key::new(t, value);
    let inside = at > 0 && at < keys.len();
    if track.interpolation == Interpolation::Bezier && inside {
        let (facing_start, facing_end) = (keys[at - 1].handles.1, keys[at].handles.0);
        if !(facing_start.is_automatic() && facing_end.is_automatic()) {
            store_resolved(&mut keys[at - 1], curve, at - 1);
            store_resolved(&mut keys[at], curve, at);
            let (mut left, mut right) = (Vec::new(), Vec::new());
            for c in 0..curve.dim() {
                let (a, b) = (&keys[at - 1], &keys[at]);
                let split = split_segment((a.time, a.value[c]), a.right[c], b.left[c], (b.time, b.value[c]), t);
                let Some(split) = split else { return insert_plain(track.keys.to_vec(), at, new) };
                keys[at - 1].right[c] = split.start_right;
                keys[at].left[c] = split.end_left;
                left.push(split.left);
                right.push(split.right);
            }
            forget_automatic(&mut keys[at - 1]);
            forget_automatic(&mut keys[at]);
            new = new.with_handles((HandleType::Aligned, HandleType::Aligned), left, right);
        }
    }
    insert_plain(keys, at, new)
}

fn insert_plain(mut keys: Vec<Key>, at: usize, key: Key) -> (Vec<Key>, usize) {
    keys.insert(at, key);
    (keys, at)
}

/// Drops stored handles of automatic sides (they are recomputed).
fn forget_automatic(key: &mut Key) {
    if key.handles.0.is_automatic() {
        key.left.clear();
    }
    if key.handles.1.is_automatic() {
        key.right.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Interpolation, TrackKind};

    /// Keys (0, 0), (1, 1), (2, 0) with AutoClamped handles: key 1 is a maximum, so its
    /// handles are flat, ±1/2.5614 long in time.
    fn hill() -> Track {
        Track::new("h", TrackKind::Scalar, Interpolation::Bezier).with_keys(vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![1.0]), Key::new(2.0, vec![0.0])])
    }

    #[test]
    fn dragging_an_auto_handle_makes_the_key_aligned_and_turns_the_other_side() {
        let t = hill();
        let curve = TrackCurve::new(&t).unwrap();
        let keys = drag_handle(&t, &curve, 1, Side::Right, 0, (0.3, 0.4));
        let k = &keys[1];
        assert_eq!(k.handles, (HandleType::Aligned, HandleType::Aligned));
        assert_eq!(k.right, vec![(0.3, 0.4)]);
        // The left side keeps its length 1/2.5614 and points the opposite way: (−0.6, −0.8)·L.
        let l = 1.0 / 2.5614;
        assert!((k.left[0].0 + 0.6 * l).abs() < 1e-12 && (k.left[0].1 + 0.8 * l).abs() < 1e-12, "{:?}", k.left);
        // The edited track is valid and draws the handle where it was dragged.
        let edited = Track { keys: keys.into(), ..t };
        let c = TrackCurve::new(&edited).unwrap();
        let (_, right) = c.bezier_handles(1, 0).unwrap();
        assert!((right.0 - 0.3).abs() < 1e-12 && (right.1 - 0.4).abs() < 1e-12, "{right:?}");
    }

    #[test]
    fn vector_handles_become_free_and_handles_stay_on_their_side() {
        let mut t = hill();
        t.keys[1].handles = (HandleType::Vector, HandleType::Vector);
        let curve = TrackCurve::new(&t).unwrap();
        let keys = drag_handle(&t, &curve, 1, Side::Left, 0, (0.5, 2.0));
        assert_eq!(keys[1].handles, (HandleType::Free, HandleType::Vector));
        assert_eq!(keys[1].left, vec![(0.0, 2.0)], "a left handle cannot pass its key in time");
    }

    #[test]
    fn setting_free_keeps_the_shape_and_setting_auto_forgets_handles() {
        let t = hill();
        let curve = TrackCurve::new(&t).unwrap();
        let keys = set_handle_types(&t, &curve, &[0, 1, 2], Some(HandleType::Free), Some(HandleType::Free));
        let free = Track { keys: keys.into(), ..t.clone() };
        let c = TrackCurve::new(&free).unwrap();
        let (mut a, mut b) = (curve.evaluator(), c.evaluator());
        for i in 0..=100 {
            let x = f64::from(i) / 50.0;
            assert_eq!(a.value_at(x), b.value_at(x), "t = {x}");
        }
        let back = set_handle_types(&free, &c, &[1], Some(HandleType::Auto), None);
        assert_eq!(back[1].handles.0, HandleType::Auto);
        assert!(back[1].left.is_empty() && !back[1].right.is_empty());
    }
}
