//! Keys a Blender's playback carries within a bound ([`blender_keys`]): Blender drops a
//! CUBICSPLINE file's tangents and gives every key automatic handles (AutoClamped in 3.4, Auto
//! in 4.2+: [`Version::handles`]) on a Continuous Acceleration curve, so the only freedom is
//! where the keys are; 4.2+ also merges keys within 0.01 frames, so there they stay
//! [`MERGE_SPACING`] apart. Start from the keys of the cubic fit (`crate::reduce::fit_range`,
//! whose free slopes Blender does not keep), play them with that Blender's model and measure
//! the difference exactly per cubic piece
//! (`crate::reduce::measure::max_difference`); add a key from the curve at the worst point of
//! each of Blender's segments that strays beyond the bound; repeat; then remove the keys the
//! curve stays within the bound without ([`PRUNE_LIMIT`]). With continuous acceleration a key
//! changes every handle of its run, but its influence decays by about `2 − √3 ≈ 0.27` per key,
//! so the refinement stays where the error was. Where the curve has a corner (a TCB key with
//! continuity) the keys crowd geometrically towards it, and linear keys may be fewer.

use super::blender::{Version, FACTORY_FPS, MERGE_FRAMES};
use crate::curve::TrackCurve;
use crate::error::TrackError;
use crate::model::{Interpolation, Key, Track, TrackKind};
use crate::reduce::measure::max_difference;

/// Refinement rounds before giving up (each at least one key per segment over the bound).
pub const MAX_ROUNDS: usize = 40;

/// The closest two keys may be, relative to their time (at least 0.01 s): `1e-5`, about 80
/// float32 steps of the frame number at any rate. Keys closer than that are a jump, which no
/// Bezier curve of Blender's follows. (Keys crowded towards a corner make the curve sensitive
/// to the frames' rounding: export checks the keys at float32 frames.)
pub const MIN_SPACING: f64 = 1e-5;

/// For Blender 4.2+, which merges keys within [`MERGE_FRAMES`]: the closest two keys may be, in
/// seconds, 0.0102 frames at 24 fps (the factory rate and the lowest the export checks), and
/// [`MERGE_SLACK`] × the later key's time more, for the float32 frames (a key's time and frame
/// are each rounded to float32: up to 1.2e-7 of the frame each). At a higher rate that is more
/// frames; a scene below 23.6 fps would merge keys this close. As close as the keys can be,
/// since the end keys' handles are flat (Constant extrapolation) and a corner needs keys close
/// to it: the error there grows with the spacing (about 4/27 × slope × spacing at an end).
pub const MERGE_SPACING: f64 = 1.02 * MERGE_FRAMES as f64 / FACTORY_FPS;

/// [`MERGE_SPACING`]'s float32 allowance per second of the key's time: 5e-7 s (4.8e-7 of the
/// frame at any rate, four float32 roundings).
pub const MERGE_SLACK: f64 = 5e-7;

/// The closest keys at `a` and `b` may be for `version`.
fn spacing(version: Version, a: f64, b: f64) -> f64 {
    let late = a.abs().max(b.abs());
    let merge = if version.merges() { MERGE_SPACING + MERGE_SLACK * late } else { 0.0 };
    (MIN_SPACING * late.max(1e-2)).max(merge)
}

fn too_close(version: Version, a: f64, b: f64) -> bool {
    !(b - a > spacing(version, a, b))
}

/// Keys for Blender ([`blender_keys`]).
#[derive(Clone, Debug)]
pub struct BlenderKeys {
    /// A Bezier track of the keys with that Blender's automatic handles and Continuous
    /// Acceleration: the curve it plays (before float32 rounding).
    pub track: Track,
    /// Its largest (Euclidean) distance from the curve, measured.
    pub max_error: f64,
    /// Refinement rounds taken.
    pub rounds: usize,
}

/// Keys whose Continuous Acceleration Bezier curve with `version`'s automatic handles (that
/// Blender's import of CUBICSPLINE keys: AutoClamped in 3.4, Auto in 4.2+, whose keys also stay
/// [`MERGE_SPACING`] apart) stays within `bound` of `curve` over `range`, or `None` where no
/// such keys exist within `limit` keys and [`MAX_ROUNDS`] (a jump, a corner that needs ever more
/// keys — for 4.2+ closer than the spacing —, rotations, whose components Blender normalises:
/// those go as LINEAR keys).
///
/// # Errors
/// When a model track does not compile (keys not finite).
pub fn blender_keys(
    version: Version,
    track: &Track,
    curve: &TrackCurve,
    range: (f64, f64),
    bound: f64,
    limit: usize,
) -> Result<Option<BlenderKeys>, TrackError> {
    if track.kind.is_rotation() || !(range.1 > range.0) || !(bound > 0.0) {
        return Ok(None);
    }
    let mut times = start_times(version, track, curve, range, bound);
    let mut ev = curve.evaluator();
    for round in 0..=MAX_ROUNDS {
        if times.windows(2).any(|w| too_close(version, w[0], w[1])) || times.len() > limit {
            return Ok(None);
        }
        let model = model_track(version, track.kind, times.iter().map(|&t| Key::new(t, ev.value_at(t))).collect());
        let mc = TrackCurve::new(&model)?;
        let (worst, over) = max_difference(curve, &mc, bound);
        if worst <= bound {
            let (model, worst) = prune(version, track.kind, curve, model, worst, bound)?;
            return Ok(Some(BlenderKeys { track: model, max_error: worst, rounds: round }));
        }
        let added = worst_per_segment(curve, &mc, &times, &over);
        let added = if version.merges() { spaced(version, &times, added) } else { added };
        if added.is_empty() {
            return Ok(None);
        }
        times.extend(added);
        times.sort_by(f64::total_cmp);
        times.dedup();
    }
    Ok(None)
}

/// The Bezier track `version` of Blender makes of `keys` (its automatic handles, Continuous
/// Acceleration; the keys as given, none merged).
#[must_use]
pub fn model_track(version: Version, kind: TrackKind, keys: Vec<Key>) -> Track {
    super::blender::bezier_track(version, kind, Interpolation::Bezier, keys)
}

/// The cubic fit's key times within the range, with the range's ends; the curve's own key
/// times where the fit fails. For a Blender that merges keys, a time too close to the one
/// before (or to the range's end) is left out.
fn start_times(version: Version, track: &Track, curve: &TrackCurve, range: (f64, f64), bound: f64) -> Vec<f64> {
    let fitted = crate::reduce::fit_range(track, curve, range, bound).ok().map(|r| r.track.keys.iter().map(|k| k.time).collect::<Vec<_>>());
    let mut times: Vec<f64> = fitted.unwrap_or_else(|| curve.times().to_vec()).into_iter().filter(|t| range.0 < *t && *t < range.1).collect();
    times.sort_by(f64::total_cmp);
    let mut out = vec![range.0];
    for t in times {
        let last = out[out.len() - 1];
        if !version.merges() || (!too_close(version, last, t) && !too_close(version, t, range.1)) {
            out.push(t);
        }
    }
    out.push(range.1);
    out.dedup();
    out
}

/// For a Blender that merges keys: each new time moved to at least [`spacing`] (and a
/// millionth) from the keys of its segment — to exactly that where it would fall within two
/// spacings of one, which no later key could then split — or left out where the segment is
/// too short to hold it. Keys then crowd towards a corner or a flattened end only down to that
/// spacing; where that needs closer keys the curve stays beyond the bound and the fit gives up.
fn spaced(version: Version, times: &[f64], added: Vec<f64>) -> Vec<f64> {
    added
        .into_iter()
        .filter_map(|t| {
            let seg = times.partition_point(|&k| k <= t);
            let (a, b) = (times[seg.saturating_sub(1)], times[seg.min(times.len() - 1)]);
            let gap = spacing(version, a, b) * (1.0 + 1e-6);
            let t = match t {
                t if t - a < 2.0 * gap => a + gap,
                t if b - t < 2.0 * gap => b - gap,
                t => t,
            };
            (b - a > 2.0 * gap).then_some(t)
        })
        .filter(|t| !times.contains(t))
        .collect()
}

/// Of the times where the difference exceeds the bound (one per measured piece), the worst in
/// each segment of the model.
fn worst_per_segment(curve: &TrackCurve, model: &TrackCurve, times: &[f64], over: &[f64]) -> Vec<f64> {
    let (mut eo, mut em) = (curve.evaluator(), model.evaluator());
    let mut best: Vec<(usize, f64, f64)> = Vec::new();
    for &t in over {
        let seg = times.partition_point(|&k| k <= t).saturating_sub(1);
        let d = eo.value_at(t).iter().zip(em.value_at(t)).map(|(a, b)| (a - b) * (a - b)).sum::<f64>();
        match best.last_mut() {
            Some(b) if b.0 == seg => {
                if d > b.2 {
                    (b.1, b.2) = (t, d);
                }
            }
            _ => best.push((seg, t, d)),
        }
    }
    best.into_iter().map(|b| b.1).filter(|t| !times.contains(t)).collect()
}

/// Tracks of more keys than this are not pruned (each trial compiles and measures the whole
/// track: quadratic).
pub const PRUNE_LIMIT: usize = 1500;

/// Keys removed one by one (first to last) where the curve without them stays within the
/// bound: the refinement adds a key per stray segment each round, some of which later keys
/// make unnecessary (the demo's tracks at 1e-4: 84 keys instead of 201 for `path`).
fn prune(version: Version, kind: TrackKind, curve: &TrackCurve, mut model: Track, mut worst: f64, bound: f64) -> Result<(Track, f64), TrackError> {
    if model.keys.len() > PRUNE_LIMIT {
        return Ok((model, worst));
    }
    let mut i = 1;
    while i + 1 < model.keys.len() {
        let mut keys = model.keys.to_vec();
        keys.remove(i);
        let trial = model_track(version, kind, keys);
        let (w, _) = max_difference(curve, &TrackCurve::new(&trial)?, bound);
        if w <= bound {
            (model, worst) = (trial, w);
        } else {
            i += 1;
        }
    }
    Ok((model, worst))
}
