//! Retiming (issue 32): a track stretched in time about a pivot, `new(t) = old(pivot + (t −
//! pivot)/S)`, by moving its keys to `t' = pivot + (t − pivot)·S` and adjusting what depends
//! on the direction of time. A negative `S` mirrors time: the keys come in reverse order.
//!
//! Why each mode stays exact:
//! - **Step, Linear, Slerp, Nlerp**: a segment depends only on its two keys and the fraction
//!   of the way through it, which a time scale keeps. Mirrored, a Step track holds each value
//!   until the *earlier* key of the new order, so the values move one key along, and a jump at
//!   the new first key keeps the value held before it (only the instants of the keys
//!   themselves differ: a step is taken on the other side of its key).
//! - **Tcb, Cubic, Squad**: their tangents and controls are built from key values and ratios of
//!   key spacings (SPEC §4, three.js `CubicInterpolant`, the time-aware squad), which a time
//!   scale keeps. Mirrored, a TCB key's bias changes sign and its ease-to and ease-from swap,
//!   and a Cubic track's start and end conditions swap — exact but for three.js' ZeroSlope
//!   ending, which takes the segment's other key at the start and the end key itself at the
//!   end, so it is not its own mirror: that difference is measured and reported.
//! - **Bezier**: handles are offsets `(dt, dv)`: each `dt` is scaled by `S` (mirrored, left and
//!   right swap, with their types). Automatic handles (Auto, AutoClamped) are computed by
//!   Blender's rules from their neighbours in time *and* value, which a time scale does not
//!   keep, so they are written as they were resolved, Aligned (they are collinear): the curve
//!   stays exact, and the report says so.
//! - **Per-key segments** of Bezier tracks (Constant, Linear, Blender's easing equations) depend
//!   on the fraction of the way through the segment, except Elastic's period (seconds), which
//!   is scaled by `|S|`. Mirrored, each segment's settings move to its new start key and ease-in
//!   becomes ease-out (Penner's `out(u) = 1 − in(1 − u)`). A mirrored Constant segment cannot
//!   stay exact (it holds its start key's value, now the other end): measured and reported.
//! - Pre- and post-infinity swap when mirrored.
//!
//! The difference is then measured, not assumed: the new curve against the old one at the
//! mapped times, densely over the keyed range ([`Retimed::max_difference`]).
//!
//! [`retime_keys`] (`retime/keys.rs`) scales only some keys of a track, as Blender's graph
//! editor scales the selected keys, refusing a key that would land on or pass an unselected one.

use thiserror::Error;

use crate::curve::TrackCurve;
use crate::error::TrackError;
use crate::model::{HandleType, Interpolation, Key, Track};
use crate::search::SegmentCursor;

mod keys;
pub use keys::retime_keys;

/// Why a track cannot be retimed.
#[derive(Debug, Error)]
pub enum RetimeError {
    #[error("the scale must be a finite number other than 0 (a negative scale mirrors time), got {0}")]
    Scale(f64),
    #[error("the pivot must be a finite time in seconds, got {0}")]
    Pivot(f64),
    #[error("track \"{track}\" has no key {key} (it has {keys})")]
    NoKey { track: String, key: usize, keys: usize },
    /// A selected key would land on or pass an unselected key of its track ([`retime_keys`]).
    #[error(
        "track \"{track}\": key {key} at {from:.3} s would move to {to:.3} s, {} unselected key {other} at {at:.3} s (Blender would merge them; Tangent keeps every key): select that key too, or change S or the pivot",
        if *onto { "onto" } else { "past" }
    )]
    Collision { track: String, key: usize, from: f64, to: f64, other: usize, at: f64, onto: bool },
    #[error(transparent)]
    Track(#[from] TrackError),
}

/// A retimed track and what was measured.
#[derive(Clone, Debug)]
pub struct Retimed {
    pub track: Track,
    /// The largest difference between the new curve and the old one stretched: Euclidean over
    /// the components, in degrees for rotations (Quat and Euler), at [`MEASURE_POINTS`] times
    /// a segment. For some keys scaled ([`retime_keys`]), the curve is not a stretch: the
    /// difference is from the old curve at the same times ([`crate::smooth::max_difference`]).
    pub max_difference: f64,
    /// What changed besides times (automatic handles written as Aligned, …).
    pub notes: Vec<String>,
}

/// A measured difference above this is reported in [`Retimed::notes`].
pub const EXACT: f64 = 1e-9;

/// Times per segment of the new curve where the difference is measured.
pub const MEASURE_POINTS: usize = 32;

/// `track` retimed by `scale` about `pivot` (module docs).
///
/// # Errors
/// A zero or non-finite scale, a non-finite pivot, or an invalid track.
pub fn retime_track(track: &Track, scale: f64, pivot: f64) -> Result<Retimed, RetimeError> {
    if !(scale.is_finite() && scale != 0.0) {
        return Err(RetimeError::Scale(scale));
    }
    if !pivot.is_finite() {
        return Err(RetimeError::Pivot(pivot));
    }
    let old = TrackCurve::new(track)?;
    let map = |t: f64| pivot + (t - pivot) * scale;
    let mut notes = Vec::new();
    let dim = track.kind.dim();
    // Bezier handles as resolved, where they are automatic (module docs).
    let mut keys: Vec<Key> = track.keys.to_vec();
    if track.interpolation == Interpolation::Bezier {
        let mut fixed = 0;
        for (i, k) in keys.iter_mut().enumerate() {
            let sides = [k.handles.0.is_automatic() && k.handles.0 != HandleType::Vector, k.handles.1.is_automatic() && k.handles.1 != HandleType::Vector];
            if !sides[0] && !sides[1] {
                continue;
            }
            let resolved: Vec<_> = (0..dim).filter_map(|c| old.bezier_handles(i, c)).collect();
            k.left = resolved.iter().map(|h| h.0).collect();
            k.right = resolved.iter().map(|h| h.1).collect();
            // Both sides get stored offsets; a side that was automatic becomes Aligned.
            if sides[0] {
                k.handles.0 = HandleType::Aligned;
            }
            if sides[1] {
                k.handles.1 = HandleType::Aligned;
            }
            fixed += 1;
        }
        if fixed > 0 {
            notes.push(format!(
                "{fixed} keys' automatic handles written as Aligned, as they were resolved (automatic handles depend on value and time, so they would move)"
            ));
        }
    }
    for k in &mut keys {
        k.time = map(k.time);
        for h in k.left.iter_mut().chain(k.right.iter_mut()) {
            h.0 *= scale;
        }
        k.period = scaled_period(k.period, scale);
    }
    let mut new = track.with_other_keys(Vec::new());
    if scale < 0.0 {
        keys.reverse();
        for k in &mut keys {
            k.bias = -k.bias;
            std::mem::swap(&mut k.ease_to, &mut k.ease_from);
            std::mem::swap(&mut k.left, &mut k.right);
            k.handles = (k.handles.1, k.handles.0);
        }
        if track.interpolation == Interpolation::Step && keys.len() > 1 {
            mirror_step_values(&mut keys);
        }
        if track.interpolation == Interpolation::Bezier {
            mirror_segments(&mut keys);
        }
        std::mem::swap(&mut new.pre_infinity, &mut new.post_infinity);
        std::mem::swap(&mut new.ending_start, &mut new.ending_end);
    }
    new.keys = keys.into();
    let curve = TrackCurve::new(&new)?;
    let max_difference = measure(&old, &curve, scale, pivot);
    if max_difference > EXACT {
        let unit = if track.kind.is_rotation() { "°" } else { "" };
        let constant = track.keys.iter().any(|k| k.interpolation == crate::model::KeyInterpolation::Constant);
        let why = match track.interpolation {
            Interpolation::Cubic => " (three.js' ZeroSlope ending is not its own mirror)",
            Interpolation::Bezier if scale < 0.0 && constant => " (a Constant segment holds its start key's value, which mirrored is the other end)",
            _ => "",
        };
        notes.push(format!("not exact under this scale: the curve moved by up to {max_difference:.3e}{unit}{why}"));
    }
    Ok(Retimed { track: new, max_difference, notes })
}

/// An Elastic period (seconds) under a time scale `S`: `|S|·period`, stored as float32 as
/// Blender does, so an Elastic segment moves by that rounding (measured, and reported when it
/// exceeds [`EXACT`]).
#[allow(clippy::cast_possible_truncation)]
fn scaled_period(period: f32, scale: f64) -> f32 {
    (f64::from(period) * scale.abs()) as f32
}

/// A mirrored Bezier track's per-key segment settings, in the new (reversed) order: the
/// segment from new key `j` to `j + 1` is the old segment that started at the key now at
/// `j + 1`, so each key takes the settings of the key after it, its easing mirrored (what
/// eased in now eases out: Penner's equations satisfy `out(u) = 1 − in(1 − u)`, Automatic
/// taken as the end it means for its mode). The last key, which starts no segment here, takes
/// the first key's old settings as they are: in a mirrored run ([`keys`]) they are those of
/// the segment that leads out of the run, still forward in time. Mirroring twice gives back
/// every key's settings.
fn mirror_segments(keys: &mut [Key]) {
    use crate::model::Easing;
    let n = keys.len();
    if n < 2 {
        return;
    }
    let settings: Vec<_> = keys.iter().map(|k| (k.interpolation, k.easing, k.back, k.amplitude, k.period)).collect();
    for (j, k) in keys.iter_mut().enumerate() {
        let (mode, easing, back, amplitude, period) = settings[if j + 1 < n { j + 1 } else { 0 }];
        let easing = match easing.resolved(mode) {
            _ if !mode.is_easing() || j + 1 == n => easing,
            Easing::In => Easing::Out,
            Easing::Out => Easing::In,
            other => other,
        };
        (k.interpolation, k.easing, k.back, k.amplitude, k.period) = (mode, easing, back, amplitude, period);
    }
}

/// A mirrored Step track's keys, in the new order with their old values: between new keys
/// `j` and `j + 1` the old track held the value of the key now at `j + 1` (the one before it in
/// old time), so each key takes the value of the key after it (the last keeps its own); and
/// the first key becomes a jump, its own value held before it (module docs).
fn mirror_step_values(keys: &mut Vec<Key>) {
    let values: Vec<Vec<f64>> = keys.iter().map(|k| k.value.clone()).collect();
    let last = values.len() - 1;
    for (j, k) in keys.iter_mut().enumerate() {
        k.value.clone_from(&values[(j + 1).min(last)]);
    }
    let held = Key { value: values[0].clone(), ..keys[0].clone() };
    keys.insert(0, held);
}

/// The largest difference between `new` and `old` stretched, over `new`'s keyed range.
fn measure(old: &TrackCurve, new: &TrackCurve, scale: f64, pivot: f64) -> f64 {
    let (mut co, mut cn) = (SegmentCursor::new(), SegmentCursor::new());
    let (mut a, mut b) = (vec![0.0; old.dim()], vec![0.0; new.dim()]);
    let rotation = old.kind().is_rotation();
    let times = new.times().to_vec();
    let mut worst: f64 = 0.0;
    let mut at = |t: f64| {
        let back = pivot + (t - pivot) / scale;
        let d = if rotation {
            let (qa, qb) = (old.rotation_at(&mut co, back, &mut a), new.rotation_at(&mut cn, t, &mut b));
            qa.zip(qb).map_or(0.0, |(qa, qb)| crate::quat::angle_between(&qa, &qb).to_degrees())
        } else {
            old.sample(&mut co, back, &mut a);
            new.sample(&mut cn, t, &mut b);
            a.iter().zip(&b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
        };
        worst = worst.max(d);
    };
    for w in times.windows(2).filter(|w| w[1] > w[0]) {
        // Inside each segment only: at a key's own instant a mirrored step or jump is taken on
        // the other side.
        for j in 1..MEASURE_POINTS {
            at(w[0] + (w[1] - w[0]) * j as f64 / MEASURE_POINTS as f64);
        }
    }
    worst
}

#[cfg(test)]
#[path = "retime_tests.rs"]
mod tests;
