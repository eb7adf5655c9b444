//! Euler tracks as a whole (SPEC §13): the Euler filter on a track's keys, and conversion
//! between Quat and Euler tracks both ways. What the command line (`tangent filter --euler`,
//! `tangent convert --to-euler / --to-quat`) and the editor (Edit > Euler Filter, Track >
//! Convert Rotation) call.
//!
//! - **Filter** ([`filter_track`]): each key's angles replaced by the triple of the same
//!   rotation nearest the key before ([`crate::euler::filter`]). Bézier handles are offsets
//!   from their key, so they move with it (as Blender moves a key "with handles").
//! - **Quat → Euler** ([`quat_to_euler`]): the same key times; each key's angles from its
//!   quaternion ([`crate::euler::from_quat`]), the first key's principal, each next one the
//!   triple nearest the key before. Slerp and Nlerp become Linear, Squad becomes Tcb (smooth
//!   through the keys), Bezier becomes Bezier with automatic (AutoClamped) handles, Step stays.
//!   The report lists the hemisphere flips of the quaternion keys (where slerp took the
//!   short way by negating a key), which the angles do not have.
//! - **Euler → Quat** ([`euler_to_quat`]): the rotation of the Euler curve sampled densely
//!   (every segment at least [`crate::reduce::SAMPLES_PER_SEGMENT`] samples and one per 2.5° of
//!   its angle change), each sample turned into the hemisphere of the one before, then the
//!   reduction's two candidates (`reduce/rotation.rs`): Slerp keys kept from the samples, and
//!   component-wise Bezier keys fitted to them (`reduce/fit.rs`), each segment turning less
//!   than [`crate::reduce::rotation::MAX_SEGMENT_TURN_DEG`] (a Bezier segment that turns more is fitted again in two
//!   halves). Both are measured against the Euler curve's rotation at every sample and densely
//!   between; the one with fewer keys within the bound wins. While neither holds, or only the
//!   Slerp keys do and the Bezier keys that missed are fewer: the samples are doubled where a
//!   candidate strayed more than twice the bound (it bulges between samples) or the Slerp keys
//!   missed, and a Bezier fit that missed by less has its chord tightened by the ratio
//!   measured; [`DENSER_ROUNDS`] rounds at most. Step tracks convert exactly.

use thiserror::Error;

use crate::curve::TrackCurve;
use crate::error::TrackError;
use crate::euler::{self, Angles, EulerOrder};
use crate::model::{HandleType, Interpolation, Key, Track, TrackKind};
use crate::quat;
use crate::reduce::fit::{fit_run, FitKey, Samples};
/// The most a segment of [`euler_to_quat`]'s result turns, in degrees.
pub use crate::reduce::rotation::MAX_SEGMENT_TURN_DEG as MAX_TURN_DEG;
use crate::reduce::rotation::{max_angle, slerp_keys, turn_fits};
use crate::reduce::{bezier_track, FIT_FRACTION, SAMPLES_PER_SEGMENT};

/// Why a track cannot be filtered or converted.
#[derive(Debug, Error)]
pub enum EulerTrackError {
    #[error("track \"{track}\" is {kind:?}, not an Euler track")]
    NotEuler { track: String, kind: TrackKind },
    #[error("track \"{track}\" is {kind:?}, not a Quat track")]
    NotQuat { track: String, kind: TrackKind },
    #[error("the angle must be between 0 and 180 degrees, got {0}")]
    Angle(f64),
    #[error(transparent)]
    Track(#[from] TrackError),
}

fn angles_of(key: &Key) -> Angles {
    angles(&key.value)
}

fn angles(value: &[f64]) -> Angles {
    [value[0], value[1], value[2]]
}

fn require_euler(track: &Track) -> Result<(), EulerTrackError> {
    if track.kind == TrackKind::Euler {
        Ok(())
    } else {
        Err(EulerTrackError::NotEuler { track: track.name.clone(), kind: track.kind })
    }
}

/// The Euler filter on an Euler track: the filtered track and how many keys changed.
///
/// # Errors
/// When the track is not an Euler track or not valid.
pub fn filter_track(track: &Track) -> Result<(Track, usize), EulerTrackError> {
    require_euler(track)?;
    TrackCurve::new(track)?;
    let mut values: Vec<Angles> = (0..track.keys.len()).map(|i| angles(track.keys.value(i))).collect();
    let changed = euler::filter(&mut values, track.order);
    Ok((track.with_other_keys(track.keys.with_values(values.concat())), changed))
}

/// A Quat track converted to Euler angles.
#[derive(Clone, Debug)]
pub struct QuatToEuler {
    pub track: Track,
    /// Indices `i` where quaternion keys `i` and `i + 1` were in opposite hemispheres.
    pub hemisphere_flips: Vec<usize>,
}

/// The Euler interpolation that plays a quaternion mode's keys most alike (module docs).
#[must_use]
pub fn euler_mode_for(quat_mode: Interpolation) -> Interpolation {
    match quat_mode {
        Interpolation::Step => Interpolation::Step,
        Interpolation::Squad | Interpolation::Tcb | Interpolation::Cubic => Interpolation::Tcb,
        Interpolation::Bezier => Interpolation::Bezier,
        Interpolation::Slerp | Interpolation::Nlerp | Interpolation::Linear => Interpolation::Linear,
    }
}

/// A Quat track as an Euler track in `order`, keys at the same times (module docs).
///
/// # Errors
/// When the track is not a Quat track or not valid.
pub fn quat_to_euler(track: &Track, order: EulerOrder) -> Result<QuatToEuler, EulerTrackError> {
    if track.kind != TrackKind::Quat {
        return Err(EulerTrackError::NotQuat { track: track.name.clone(), kind: track.kind });
    }
    TrackCurve::new(track)?;
    let mut previous: Option<Angles> = None;
    let keys: Vec<Key> = track
        .keys
        .iter()
        .map(|k| {
            let principal = euler::from_quat(&[k.value[0], k.value[1], k.value[2], k.value[3]], order);
            let angles = previous.map_or(principal, |p| euler::nearest_equivalent(&principal, &p, order));
            previous = Some(angles);
            Key::new(k.time, angles.to_vec()).with_tcb(k.tension, k.continuity, k.bias).with_ease(k.ease_to, k.ease_from)
        })
        .collect();
    let converted = Track {
        kind: TrackKind::Euler,
        order,
        interpolation: euler_mode_for(track.interpolation),
        binding: track.binding.clone(),
        ..track.with_other_keys(keys)
    };
    Ok(QuatToEuler { track: converted, hemisphere_flips: crate::analysis::hemisphere_flips(track) })
}

/// An Euler track converted to quaternion keys, and the measurement of it.
#[derive(Clone, Debug)]
pub struct EulerToQuat {
    pub track: Track,
    pub keys_before: usize,
    pub keys_after: usize,
    /// The largest angle in degrees between the Euler curve's rotation and the new curve's,
    /// measured at every sample and densely between them.
    pub max_error_deg: f64,
}

/// Sample times of one run of keys (no two sharing a time): each segment split into at least
/// [`SAMPLES_PER_SEGMENT`] steps and one per 2.5° of the largest angle change.
fn run_times(keys: &[Key]) -> Vec<f64> {
    let mut times = Vec::new();
    for w in keys.windows(2) {
        let change = (0..3).map(|c| (w[1].value[c] - w[0].value[c]).abs()).sum::<f64>();
        let n = SAMPLES_PER_SEGMENT.max((change / 2.5f64.to_radians()).ceil().min(4096.0) as usize);
        times.extend((0..n).map(|j| w[0].time + (w[1].time - w[0].time) * j as f64 / n as f64));
    }
    times.extend(keys.last().map(|k| k.time));
    times
}

/// The curve's rotations at `times`, each turned into the hemisphere of the one before. At
/// the ends of a run (`ends`: its first and last key) the keys' own rotations, so a jump's
/// two sides each end their run (the curve at a jump's time is the later key).
fn continuous_rotations(curve: &TrackCurve, times: &[f64], ends: (&Key, &Key)) -> Vec<f64> {
    let mut cursor = crate::search::SegmentCursor::new();
    let mut scratch = vec![0.0; curve.dim()];
    let mut values: Vec<f64> = Vec::with_capacity(times.len() * 4);
    let order = curve.order();
    for (i, &t) in times.iter().enumerate() {
        let mut q = match ends {
            (first, _) if i == 0 => euler::to_quat(&angles_of(first), order),
            (_, last) if i + 1 == times.len() => euler::to_quat(&angles_of(last), order),
            _ => curve.rotation_at(&mut cursor, t, &mut scratch).unwrap_or(quat::IDENTITY),
        };
        if let Some(prev) = values.len().checked_sub(4).map(|i| &values[i..]) {
            if q.iter().zip(prev).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
                q = quat::neg(&q);
            }
        }
        values.extend_from_slice(&q);
    }
    values
}

/// Bezier keys fitted to samples `from..=to` within `chord`; where a fitted segment turns
/// [`crate::reduce::rotation::MAX_SEGMENT_TURN_DEG`] or more, the samples are split at the middle of that segment and
/// each half fitted again (the halves share the key at the split).
fn fit_turning(times: &[f64], values: &[f64], from: usize, to: usize, chord: f64, runs: &mut Vec<Vec<FitKey>>) {
    let samples = Samples { times: &times[from..=to], values: &values[from * 4..(to + 1) * 4], dim: 4 };
    let fitted = fit_run(&samples, chord);
    let too_far = fitted.windows(2).find(|w| !turn_fits(&w[0].value, &w[1].value));
    match too_far {
        Some(w) if to - from >= 2 => {
            let mid_time = 0.5 * (w[0].time + w[1].time);
            let split = (from + 1..to).min_by(|&a, &b| (times[a] - mid_time).abs().total_cmp(&(times[b] - mid_time).abs())).unwrap_or(from + 1);
            fit_turning(times, values, from, split, chord, runs);
            fit_turning(times, values, split, to, chord, runs);
        }
        _ => runs.push(fitted),
    }
}

/// Bezier keys from runs that share their end keys: one key where two runs meet, with the
/// first run's left handle and the second's right (Free, as they need not be collinear).
fn joined_bezier(template: &Track, runs: Vec<Vec<FitKey>>) -> Track {
    let count = runs.len();
    let mut track = bezier_track(template, runs);
    let mut keys: Vec<Key> = Vec::with_capacity(track.keys.len());
    for k in std::mem::take(&mut track.keys) {
        match keys.last_mut() {
            Some(last) if count > 1 && last.time == k.time && last.value == k.value => {
                last.right = k.right;
                last.handles = (HandleType::Free, HandleType::Free);
            }
            _ => keys.push(k),
        }
    }
    track.keys = keys.into();
    track
}

/// Rounds of denser samples or a tighter Bezier chord while no candidate stays within the bound.
const DENSER_ROUNDS: usize = 6;

/// An Euler track as the fewest Slerp or Bezier quaternion keys within `angle_deg` of its
/// rotation (module docs). Keys sharing a time (jumps) are kept as jumps.
///
/// # Errors
/// When the track is not an Euler track or not valid, or the angle is not in (0, 180).
pub fn euler_to_quat(track: &Track, angle_deg_bound: f64) -> Result<EulerToQuat, EulerTrackError> {
    require_euler(track)?;
    if !(angle_deg_bound > 0.0 && angle_deg_bound < 180.0) {
        return Err(EulerTrackError::Angle(angle_deg_bound));
    }
    let curve = TrackCurve::new(track)?;
    let template = Track { kind: TrackKind::Quat, order: EulerOrder::default(), ..track.with_other_keys(Vec::new()) };
    let exact = |interpolation| {
        let mut previous = quat::IDENTITY;
        let keys: Vec<Key> = track
            .keys
            .iter()
            .map(|k| {
                let q = euler::to_quat(&angles_of(k), track.order);
                previous = if quat::dot(&q, &previous) < 0.0 { quat::neg(&q) } else { q };
                Key::new(k.time, previous.to_vec())
            })
            .collect();
        Track { interpolation, ..template.with_other_keys(keys) }
    };
    if track.interpolation == Interpolation::Step || track.keys.len() < 2 {
        let mode = if track.interpolation == Interpolation::Step { Interpolation::Step } else { Interpolation::Slerp };
        let quats = exact(mode);
        return Ok(EulerToQuat { keys_before: track.keys.len(), keys_after: quats.keys.len(), track: quats, max_error_deg: 0.0 });
    }
    // Runs between jumps.
    let mut runs: Vec<&[Key]> = Vec::new();
    let mut start = 0;
    for i in 1..=track.keys.len() {
        if i == track.keys.len() || track.keys.time(i) == track.keys.time(i - 1) {
            runs.push(&track.keys[start..i]);
            start = i;
        }
    }
    let mut best: Option<EulerToQuat> = None;
    // The Bezier fit's chord as a fraction of the bound's: tightened by the ratio measured when
    // its curve strays past the bound between samples (as `reduce::fit_values` does).
    let mut chord_fraction = FIT_FRACTION;
    // Halvings of the samples' spacing: where a candidate strayed far (twice the bound) or
    // the Slerp keys did not hold.
    let mut density = 0;
    for _ in 0..=DENSER_ROUNDS {
        let (mut slerp, mut bezier, mut all_times) = (Vec::new(), Vec::new(), Vec::new());
        for run in &runs {
            let mut times = run_times(run);
            for _ in 0..density {
                times = times.windows(2).flat_map(|w| [w[0], 0.5 * (w[0] + w[1])]).chain(times.last().copied()).collect();
            }
            let values = continuous_rotations(&curve, &times, (&run[0], &run[run.len() - 1]));
            slerp.extend(slerp_keys(&times, &values, angle_deg_bound * FIT_FRACTION));
            let chord = (angle_deg_bound.to_radians() / 2.0).sin() * chord_fraction;
            let mut fitted = Vec::new();
            fit_turning(&times, &values, 0, times.len() - 1, chord, &mut fitted);
            bezier.extend(joined_bezier(&template, fitted).keys);
            all_times.extend(times);
        }
        let candidates = [
            Track { interpolation: Interpolation::Slerp, ..template.with_other_keys(slerp) },
            Track { interpolation: Interpolation::Bezier, ..template.with_other_keys(bezier) },
        ];
        let (mut denser, mut bezier_over) = (false, None);
        for c in candidates {
            let reduced = TrackCurve::new(&c)?;
            let err = max_angle(&curve, &reduced, &all_times, true);
            if err > angle_deg_bound {
                let far = err > 2.0 * angle_deg_bound;
                denser |= c.interpolation == Interpolation::Slerp || far;
                if c.interpolation == Interpolation::Bezier {
                    if !far {
                        chord_fraction *= (angle_deg_bound / err).clamp(0.5, 0.95);
                    }
                    bezier_over = Some(c.keys.len());
                }
            }
            let better = best.as_ref().is_none_or(|b| {
                let (ok, b_ok) = (err <= angle_deg_bound, b.max_error_deg <= angle_deg_bound);
                (ok && !b_ok) || (ok == b_ok && (c.keys.len(), err) < (b.keys_after, b.max_error_deg))
            });
            if better {
                best = Some(EulerToQuat { keys_before: track.keys.len(), keys_after: c.keys.len(), track: c, max_error_deg: err });
            }
        }
        // Done when a candidate holds, unless the Bezier keys, fewer, only just missed.
        if best.as_ref().is_some_and(|b| b.max_error_deg <= angle_deg_bound && bezier_over.is_none_or(|n| b.keys_after <= n)) {
            break;
        }
        density += usize::from(denser);
    }
    Ok(best.expect("at least one round ran"))
}

#[cfg(test)]
#[path = "euler_tracks_tests.rs"]
mod tests;
