//! Key reduction (SPEC §12): a track's keys replaced by the fewest Bezier keys whose curve
//! stays within a bound of the original, measured afterwards on the compiled curves.
//!
//! - **Data.** Linear, Slerp and Nlerp keys are samples: the fit must pass within E of each
//!   key, and that is where the error is measured. Smooth tracks (Tcb, Cubic, Bezier, Squad)
//!   are sampled at their keys and [`SAMPLES_PER_SEGMENT`] − 1 times inside each segment; after
//!   the fit the difference is measured between every pair of consecutive breakpoints (the
//!   union of both curves' key times) by [`measure::max_difference`]; where it exceeds E,
//!   the worst time becomes another sample and the track is fitted again against a bound
//!   tightened by the ratio measured, up to [`REFIT_ROUNDS`] times.
//! - **Kept as they are**: Step tracks, jumps (keys sharing a time split the track into runs
//!   fitted apart, the jump kept), and a track the fit cannot make smaller (the report says so).
//! - **Quat tracks** (`rotation.rs`): within an angle, as Slerp keys (kept samples) or as
//!   component-wise Bezier keys, whichever is fewer.
//! - **Euler tracks** (`euler.rs`): within the same angle, measured between the rotations (not
//!   per angle): Bezier keys of the three angles fitted within a bound that guarantees it,
//!   loosened while the measured angle allows.
//!
//! The fitted keys are Free Bézier keys with handles at thirds ([`fit`]), so glTF CUBICSPLINE
//! and three.js `InterpolateBezier` hold them exactly.

pub mod body;
pub mod euler;
pub mod fit;
pub mod measure;
pub mod project;
pub mod rotation;

use thiserror::Error;

use crate::curve::TrackCurve;
use crate::error::TrackError;
use crate::model::{HandleType, Interpolation, Key, Track, TrackKind};
use fit::{fit_run, FitKey, Samples};

/// Samples per segment of a smooth original before the first fit (its keys included).
pub const SAMPLES_PER_SEGMENT: usize = 8;
/// Rounds of "measure, add the worst times as samples, fit again" for smooth originals.
pub const REFIT_ROUNDS: usize = 8;
/// Segments are fitted against this fraction of the bound, so rounding in the compiled curve
/// cannot carry a sample over it.
pub const FIT_FRACTION: f64 = 0.995;
/// The angle bound for rotation (Quat and Euler) tracks when none is given (SPEC §12), in
/// degrees.
pub const DEFAULT_ANGLE_DEG: f64 = 0.01;

/// How far the reduced curve may stray: which bound applies depends on the track's kind.
///
/// | kind | bound | measured as |
/// |---|---|---|
/// | Scalar, Vec2, Vec3, Vec4 | [`Self::value`] | Euclidean distance over the components, value (file) units |
/// | Quat | [`Self::angle_deg`] | rotation angle between original and reduced, degrees |
/// | Euler | [`Self::angle_deg`] | rotation angle between original and reduced (in the track's order), degrees |
///
/// What the editor's Simplify and `tangent reduce --tolerance E --angle A` pass to
/// [`reduce_track`] and [`project::reduce_tracks`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Distance in value units (Euclidean over the components), for Scalar and vector tracks.
    pub value: f64,
    /// Angle in degrees between the original and the reduced rotation, for Quat and Euler
    /// tracks.
    pub angle_deg: f64,
}

impl Tolerance {
    /// # Errors
    /// When a bound is not a positive finite number.
    pub fn new(value: f64, angle_deg: f64) -> Result<Self, ReduceError> {
        if !(value > 0.0 && value.is_finite()) {
            return Err(ReduceError::Tolerance(value));
        }
        if !(angle_deg > 0.0 && angle_deg < 180.0) {
            return Err(ReduceError::Angle(angle_deg));
        }
        Ok(Self { value, angle_deg })
    }
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum ReduceError {
    #[error("the tolerance must be a positive number, got {0}")]
    Tolerance(f64),
    #[error("the angle must be between 0 and 180 degrees, got {0}")]
    Angle(f64),
    #[error(transparent)]
    Track(#[from] TrackError),
}

/// A reduced track and the measurement of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reduced {
    pub track: Track,
    pub keys_before: usize,
    pub keys_after: usize,
    /// Largest difference measured: value units, or degrees for rotation (Quat and Euler)
    /// tracks ([`Reduced::is_angle`]).
    pub max_error: f64,
    /// Why the track was left as it was, if it was.
    pub kept: Option<String>,
}

impl Reduced {
    /// Whether [`Self::max_error`] is an angle in degrees (a rotation track's), not a distance.
    #[must_use]
    pub fn is_angle(&self) -> bool {
        self.track.kind.is_rotation()
    }

    fn kept(track: &Track, why: impl Into<String>) -> Self {
        Self { track: track.clone(), keys_before: track.keys.len(), keys_after: track.keys.len(), max_error: 0.0, kept: Some(why.into()) }
    }
}

/// Reduces `track` within `tol` (see the module docs).
///
/// # Errors
/// When the track is not valid.
pub fn reduce_track(track: &Track, tol: Tolerance) -> Result<Reduced, ReduceError> {
    let curve = TrackCurve::new(track)?;
    if track.interpolation == Interpolation::Step {
        return Ok(Reduced::kept(track, "Step keys are kept as they are"));
    }
    if track.keys.len() < 3 {
        return Ok(Reduced::kept(track, "fewer than three keys"));
    }
    let reduced = match track.kind {
        TrackKind::Quat => rotation::reduce(track, &curve, tol)?,
        TrackKind::Euler => euler::reduce(track, &curve, tol)?,
        _ => reduce_values(track, &curve, tol.value)?,
    };
    if reduced.keys_after >= reduced.keys_before {
        return Ok(Reduced::kept(track, format!("no fewer keys within the bound ({} would be needed)", reduced.keys_after)));
    }
    Ok(reduced)
}

/// Whether a track's keys are samples of the data (the bound holds at the keys only).
fn is_sampled(interpolation: Interpolation) -> bool {
    matches!(interpolation, Interpolation::Linear | Interpolation::Slerp | Interpolation::Nlerp | Interpolation::Step)
}

/// The samples the fit must pass within the bound of: every key (its own value, so a jump's
/// two keys are both there), for smooth tracks evenly spaced times inside each segment, and
/// the `extra` times (inside segments) that an earlier measurement found over the bound.
/// Returned as runs: a jump (two keys at one time) starts a new run.
fn sample_runs(track: &Track, curve: &TrackCurve, extra: &[f64]) -> Vec<(Vec<f64>, Vec<f64>)> {
    let mut ev = curve.evaluator();
    let smooth = !is_sampled(track.interpolation);
    let mut runs: Vec<(Vec<f64>, Vec<f64>)> = vec![(Vec::new(), Vec::new())];
    let mut extra = extra.iter().copied().peekable();
    for (i, k) in track.keys.iter().enumerate() {
        let run = runs.last_mut().expect("one run");
        if run.0.last() == Some(&k.time) {
            runs.push((vec![k.time], k.value.clone()));
        } else {
            run.0.push(k.time);
            run.1.extend_from_slice(&k.value);
        }
        let Some(next) = track.keys.get(i + 1) else { continue };
        let dt = next.time - k.time;
        if !(dt > 0.0) {
            continue;
        }
        let mut inside: Vec<f64> =
            if smooth { (1..SAMPLES_PER_SEGMENT).map(|j| k.time + dt * j as f64 / SAMPLES_PER_SEGMENT as f64).collect() } else { Vec::new() };
        while let Some(t) = extra.next_if(|&t| t < next.time) {
            if t > k.time {
                inside.push(t);
            }
        }
        inside.sort_by(f64::total_cmp);
        inside.dedup();
        let run = runs.last_mut().expect("one run");
        for t in inside {
            run.0.push(t);
            run.1.extend_from_slice(&ev.value_at(t));
        }
    }
    runs
}

/// Scalar and vector tracks: fit, build, measure; smooth originals are refitted with the
/// times where the measurement found the bound exceeded added as samples.
fn reduce_values(track: &Track, curve: &TrackCurve, bound: f64) -> Result<Reduced, ReduceError> {
    let best = fit_values(track, curve, bound, None)?;
    if best.max_error > bound {
        return Ok(Reduced::kept(track, format!("the fit stayed {:.2e} away, above the bound", best.max_error)));
    }
    Ok(best)
}

/// Bezier keys fitted to `track` over `range` (which may reach beyond its keys, where pre/post
/// infinity shapes the curve) within `bound`: the cubic form of adaptive export. The samples
/// are the keys of a linear adaptive bake at a tenth of the bound (dense where the curve
/// bends), then as in [`reduce_track`]; the measured error is in the report, which may exceed
/// `bound` only if [`REFIT_ROUNDS`] did not suffice (the caller decides).
///
/// # Errors
/// When the track is not valid.
pub fn fit_range(track: &Track, curve: &TrackCurve, range: (f64, f64), bound: f64) -> Result<Reduced, ReduceError> {
    fit_values(track, curve, bound, Some(range))
}

/// Samples of `curve` over `range` from a linear adaptive bake at `bound / 10`, with `extra`
/// times added, as runs split at jumps.
fn baked_runs(curve: &TrackCurve, range: (f64, f64), bound: f64, extra: &[f64]) -> Vec<(Vec<f64>, Vec<f64>)> {
    let rate = crate::bake::Rate::adaptive(bound / 10.0).expect("a positive bound");
    let baked = crate::bake::bake_range(curve, rate, crate::bake::Motion::Raw, range.0, range.1);
    let dim = curve.dim();
    let mut points: Vec<(f64, Vec<f64>)> = baked.times.iter().enumerate().map(|(i, &t)| (t, baked.values[i * dim..(i + 1) * dim].to_vec())).collect();
    let mut ev = curve.evaluator();
    points.extend(extra.iter().filter(|&&t| !baked.times.contains(&t)).map(|&t| (t, ev.value_at(t))));
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut runs: Vec<(Vec<f64>, Vec<f64>)> = vec![(Vec::new(), Vec::new())];
    for (t, v) in points {
        if runs.last().and_then(|r| r.0.last()) == Some(&t) {
            runs.push((Vec::new(), Vec::new()));
        }
        let run = runs.last_mut().expect("one run");
        run.0.push(t);
        run.1.extend_from_slice(&v);
    }
    runs
}

/// The fit-measure-refit loop behind [`reduce_track`] and [`fit_range`].
fn fit_values(track: &Track, curve: &TrackCurve, bound: f64, range: Option<(f64, f64)>) -> Result<Reduced, ReduceError> {
    let smooth = range.is_some() || !is_sampled(track.interpolation);
    let dim = curve.dim();
    let mut extra: Vec<f64> = Vec::new();
    let mut best = None;
    let mut fit_bound = bound * FIT_FRACTION;
    for _ in 0..=REFIT_ROUNDS {
        let runs = match range {
            None => sample_runs(track, curve, &extra),
            Some(r) => baked_runs(curve, r, bound, &extra),
        };
        let fitted = runs.iter().map(|(t, v)| fit_run(&Samples { times: t, values: v, dim }, fit_bound)).collect();
        let mut reduced = bezier_track(track, fitted);
        if range.is_some() {
            // Baked over the range: what lies beyond the keys is in the keys now.
            (reduced.pre_infinity, reduced.post_infinity) = (crate::model::Infinity::Constant, crate::model::Infinity::Constant);
        }
        let rc = TrackCurve::new(&reduced)?;
        let (worst, over) = if smooth { measure::max_difference(curve, &rc, bound) } else { (measure::at_keys(track, &rc), Vec::new()) };
        let done = worst <= bound || over.is_empty();
        best = Some(Reduced { keys_before: track.keys.len(), keys_after: reduced.keys.len(), track: reduced, max_error: worst, kept: None });
        if done {
            break;
        }
        // Between samples the difference bulges past what the samples saw: fit tighter by the
        // ratio measured, and sample where it happened.
        fit_bound *= (bound / worst).min(0.98);
        extra.extend(over);
        extra.sort_by(f64::total_cmp);
        extra.dedup();
    }
    Ok(best.expect("at least one round"))
}

/// A Bezier track with `track`'s settings and the fitted keys: handles at a third of each
/// neighbouring segment, slopes as fitted — Aligned where the key is smooth (one slope), Free
/// at corners; a run's outer handles mirror its inner ones.
pub(crate) fn bezier_track(track: &Track, runs: Vec<Vec<FitKey>>) -> Track {
    let mut keys = Vec::new();
    for run in runs {
        for (i, k) in run.iter().enumerate() {
            let before = i.checked_sub(1).map_or_else(|| run.get(1).map_or(0.0, |n| n.time - k.time), |p| k.time - run[p].time);
            let after = run.get(i + 1).map_or(before, |n| n.time - k.time);
            let left = k.slope_in.iter().map(|m| (-before / 3.0, -m * before / 3.0)).collect();
            let right = k.slope_out.iter().map(|m| (after / 3.0, m * after / 3.0)).collect();
            let kind = if k.slope_in == k.slope_out { HandleType::Aligned } else { HandleType::Free };
            keys.push(Key::new(k.time, k.value.clone()).with_handles((kind, kind), left, right));
        }
    }
    Track { interpolation: Interpolation::Bezier, keys: keys.into(), ..track.clone() }
}

#[cfg(test)]
mod tests;
