//! Some keys of a track scaled in time (Key > Scale time… with keys selected), as Blender's
//! graph editor scales the selected keys: each selected key moves to `pivot + (t − pivot)·S`
//! with its value, its Bézier handles' time extents scaled by `S` (the handle points
//! transformed with it, as Blender's transform does); the unselected keys stay where they are.
//!
//! - **No key is lost.** Where Blender lets a scaled key land on or pass an unselected key of
//!   its curve (and then merges or reorders them), this refuses, naming both keys
//!   ([`RetimeError::Collision`]). Selected keys may pass each other only when `S < 0`.
//! - **Mirrored** (`S < 0`): each run of consecutive selected keys comes in reverse order in
//!   place, and what depends on the direction of time is turned as a whole-track mirror turns
//!   it: left and right Bézier handles swap with their types, a TCB key's bias changes sign
//!   and its ease-to and ease-from swap, and the run's segment settings (interpolation,
//!   easing, back, amplitude, period) move to the key that now starts each segment, In and Out
//!   swapped; the segment out of the run keeps its own. Step keys keep their own values.
//! - **Not a stretch.** The segments between a scaled key and an unselected one change shape,
//!   so the curve is not the old one stretched: [`Retimed::max_difference`] is here the largest
//!   difference between the new curve and the old one *at the same times*, over the curve
//!   ([`crate::smooth::max_difference`]: Euclidean over components, degrees for rotations) —
//!   how far the change moved the motion. Automatic handles stay automatic (Blender's rules
//!   place them from the keys' new neighbours), as in Blender.
//! - When every key of the track is selected, this is [`retime_track`]: the whole track,
//!   stretched exactly.

use super::{retime_track, RetimeError, Retimed};
use crate::curve::TrackCurve;
use crate::model::{Key, Track};

/// `track` with the keys `selected` (indices, any order) scaled in time by `scale` about
/// `pivot` (module docs). The key indices of the result are those of `track` but for
/// mirrored runs, each reversed in place, so the set of selected indices is unchanged.
///
/// # Errors
/// A zero or non-finite scale, a non-finite pivot, an index the track does not have, a
/// selected key that would land on or pass an unselected key, or an invalid track.
pub fn retime_keys(track: &Track, selected: &[usize], scale: f64, pivot: f64) -> Result<Retimed, RetimeError> {
    if !(scale.is_finite() && scale != 0.0) {
        return Err(RetimeError::Scale(scale));
    }
    if !pivot.is_finite() {
        return Err(RetimeError::Pivot(pivot));
    }
    let n = track.keys.len();
    let mut chosen = vec![false; n];
    for &k in selected {
        *chosen.get_mut(k).ok_or_else(|| RetimeError::NoKey { track: track.name.clone(), key: k, keys: n })? = true;
    }
    if chosen.iter().all(|&c| c) {
        return retime_track(track, scale, pivot);
    }
    let old = TrackCurve::new(track)?;
    let map = |t: f64| pivot + (t - pivot) * scale;
    check_collisions(track, &chosen, map)?;
    let mut keys: Vec<Key> = track.keys.to_vec();
    for k in keys.iter_mut().zip(&chosen).filter(|(_, &c)| c).map(|(k, _)| k) {
        k.time = map(k.time);
        for h in k.left.iter_mut().chain(k.right.iter_mut()) {
            h.0 *= scale;
        }
        if scale < 0.0 {
            k.bias = -k.bias;
            std::mem::swap(&mut k.ease_to, &mut k.ease_from);
            std::mem::swap(&mut k.left, &mut k.right);
            k.handles = (k.handles.1, k.handles.0);
        }
    }
    if scale < 0.0 {
        for run in runs(&chosen) {
            keys[run.clone()].reverse();
            super::mirror_segments(&mut keys[run]);
        }
    }
    let new = track.with_other_keys(keys);
    let curve = TrackCurve::new(&new)?;
    let max_difference = crate::smooth::max_difference(&old, &curve);
    Ok(Retimed { track: new, max_difference, notes: Vec::new() })
}

/// The first selected key (by index) whose new time lands on or passes an unselected key:
/// each selected key must stay strictly between the unselected keys around it (or at the time
/// of one it already shared a time with, where it does not move).
fn check_collisions(track: &Track, chosen: &[bool], map: impl Fn(f64) -> f64) -> Result<(), RetimeError> {
    let keys = &track.keys;
    let n = keys.len();
    // The nearest unselected key after each index.
    let mut next = vec![None; n];
    let mut after = None;
    for i in (0..n).rev() {
        next[i] = after;
        if !chosen[i] {
            after = Some(i);
        }
    }
    let mut before = None;
    for i in 0..n {
        if !chosen[i] {
            before = Some(i);
            continue;
        }
        let (from, to) = (keys[i].time, map(keys[i].time));
        let stays = |o: usize, beyond: bool| {
            let at = keys[o].time;
            beyond || (to == at && from == at)
        };
        let hit = before.filter(|&p| !stays(p, to > keys[p].time)).or_else(|| next[i].filter(|&q| !stays(q, to < keys[q].time)));
        if let Some(other) = hit {
            let at = keys[other].time;
            return Err(RetimeError::Collision { track: track.name.clone(), key: i, from, to, other, at, onto: to == at });
        }
    }
    Ok(())
}

/// The runs of consecutive selected indices.
fn runs(chosen: &[bool]) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, _) in chosen.iter().enumerate().filter(|(_, &c)| c) {
        match out.last_mut() {
            Some(r) if r.end == i => r.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

#[cfg(test)]
#[path = "keys_tests.rs"]
mod tests;
