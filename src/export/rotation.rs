//! Euler tracks in glTF and three.js JSON: written as quaternion keys that keep every turn.
//!
//! glTF `rotation` and three.js `.quaternion` hold quaternions, and both players interpolate
//! two keys the short way round (glTF LINEAR and three.js `slerpFlat` flip the second key when
//! the dot product is negative; CUBICSPLINE is normalised component-wise). A segment whose
//! rotation turns 180° or more would play backwards the short way, so a 720° spin baked with
//! too few keys turns less, or not at all. Every key is therefore turned into the hemisphere of
//! the key before (dot ≥ 0), and no segment may turn [`MAX_TURN_DEG`] (170°) or more along the
//! curve: where one would, keys sampled from the curve are added.
//!
//! - **Step** Euler tracks are exact: STEP quaternion keys, each key's rotation.
//! - **Default bake**: one key per frame at the export's fps (the rotation of
//!   [`TrackCurve::rotation_at`]), and keys added inside a frame that turns 170° or more (a spin
//!   faster than 170° per frame). A joint of a take (a BVH import's skeleton) is sampled at the
//!   take's own frames instead, its key times ([`super::skeleton::take_frames`]), so every
//!   frame's rotation is a key. The turn inside a frame is bounded by the sum of the angles'
//!   changes, `|Δx| + |Δy| + |Δz|` (each axis turns the body by its own angle's change), taken
//!   at eight points of the frame and every key time inside it; only frames where that bound
//!   reaches 170° are sampled finer and measured as rotation angles.
//! - **As edited** (a plain export of a smooth Euler track: Bezier, Tcb or Cubic, as `tangent
//!   reduce` and the editor leave one): not baked back to a key per frame but the fewest
//!   quaternion keys within [`AS_EDITED_DEG`], as `--adaptive` chooses them (below: Slerp, or
//!   Bezier keys as glTF CUBICSPLINE where the runtime plays them), the angle measured densely
//!   on the keys as played and reported. Linear Euler tracks
//!   (a take's frames, a spin between two keys) keep the default bake: their keys are samples.
//! - **`--adaptive E --angle A`** (A in degrees, for Quat and Euler tracks alike, through
//!   [`ExportOptions::adaptive_angle_deg`]; without it, as before, E read as radians):
//!   [`crate::euler_tracks::euler_to_quat`] within the bound — Slerp keys written as LINEAR rotations (reported "baked"), Bezier keys as glTF
//!   CUBICSPLINE. three.js' `InterpolateBezier` does not normalise quaternions, so three.js JSON
//!   (and `--adaptive-linear`, and a track baked beyond its keys for pre/post infinity) gets
//!   Slerp keys only ([`slerp_within`]).
//!
//! Errors are rotation angles in radians, measured on the written keys as played, as the
//! report gives them for Quat tracks.

use crate::bake::Bound;
use crate::curve::TrackCurve;
use crate::euler_tracks::{euler_to_quat, EulerTrackError};
use crate::model::{Interpolation, Key, Track, TrackKind};
use crate::quat::{self, Quat};
use crate::reduce::rotation::{max_angle, slerp_keys, MAX_SEGMENT_TURN_DEG as MAX_TURN_DEG};
use crate::reduce::FIT_FRACTION;
use crate::search::SegmentCursor;

use super::bezier::cubic_spline_from_handles;
use super::{Exact, ExportError, ExportOptions, Form, Format};

/// Sub-steps of a frame over which the turn inside it is bounded.
const FRAME_STEPS: usize = 8;
/// A frame found to turn 170° or more is sampled until each step's bound is below this.
const FINE_STEP_DEG: f64 = 45.0;
/// The slerp fit samples the curve at least every this many degrees of angle change.
const SAMPLE_STEP_DEG: f64 = 2.5;
/// Halvings of a step at most (a discontinuity, e.g. a cycle's wrap, never gets smaller).
const MAX_DEPTH: u32 = 24;
/// Rounds of the slerp fit on denser samples while the measured angle exceeds the bound.
const DENSER_ROUNDS: usize = 4;
/// The angle within which a plain export (no `--adaptive`) writes a smooth Euler track (Bezier,
/// Tcb, Cubic: an edited or reduced one) as the fewest slerp keys instead of a key per frame,
/// in degrees: 0.01°, a hundredth of a degree, the default bound of `tangent reduce --angle`
/// ([`crate::reduce::DEFAULT_ANGLE_DEG`]), far below what a viewer sees, and keys kept
/// from the curve's own rotations (exact at their times).
pub const AS_EDITED_DEG: f64 = crate::reduce::DEFAULT_ANGLE_DEG;
/// `--adaptive` bounds above this many degrees are treated as this (tighter, still within E).
const MAX_BOUND_DEG: f64 = 90.0;

/// An Euler track as quaternion keys over `span` (its keys, or the clip for pre/post
/// infinity), and the report's note on how (module docs). `take`: the track animates a joint
/// of the project's skeleton, and a default bake samples the take's frames.
pub(super) fn euler_as_quaternions(
    track: &Track,
    curve: &TrackCurve,
    format: Format,
    options: &ExportOptions,
    span: (f64, f64),
    take: bool,
) -> Result<(Exact, String), ExportError> {
    let order = track.order;
    let keyed = span == curve.domain();
    let head = format!("Euler {order} as quaternions");
    let mode = format!("{:?}", track.interpolation);
    if track.interpolation == Interpolation::Step && keyed {
        let mut values: Vec<f64> = Vec::with_capacity(4 * curve.times().len());
        for i in 0..curve.times().len() {
            let v = curve.key_value(i);
            push_aligned(&mut values, crate::euler::to_quat(&[v[0], v[1], v[2]], order));
        }
        let exact = Exact { form: Form::Step, times: curve.times().to_vec(), values, tangents: None, max_error: 0.0 };
        return Ok((exact, format!("{head}: Step keys, exact")));
    }
    let inexact = format!("{head}: {mode} Euler keys have no exact quaternion form");
    if let Some(bound) = options.adaptive {
        let deg = bound.get().to_degrees().min(MAX_BOUND_DEG);
        if let Some((exact, how)) = adaptive(track, curve, format, options, deg, span)? {
            return Ok((exact, format!("{inexact}; {how} within {:e} rad", bound.get())));
        }
    }
    if options.adaptive.is_none() && track.interpolation != Interpolation::Linear {
        if let Some((exact, how)) = adaptive(track, curve, format, options, AS_EDITED_DEG, span)? {
            let measured = exact.max_error.to_degrees();
            return Ok((exact, format!("{inexact}; as edited, {how} within {AS_EDITED_DEG}° (measured {measured:.5}°)")));
        }
    }
    let (grid, rate) = if take {
        (super::skeleton::take_frames(curve.times(), options.fps, span), "the take's frames (its key times)".to_owned())
    } else {
        (options.fps.frames(span.0, span.1), format!("{} fps", options.fps.get()))
    };
    let (times, values, added) = fixed_rate(curve, grid, span);
    let max_error = measure(curve, &times, &values, 4);
    let extra = if added > 0 { format!(", {added} keys added where a frame turned {MAX_TURN_DEG}° or more") } else { String::new() };
    let missed = options.adaptive.map(|b| format!("; no keys within {:e} rad", b.get())).unwrap_or_default();
    let exact = Exact { form: Form::Baked, times, values, tangents: None, max_error };
    Ok((exact, format!("{inexact}{missed}; baked at {rate}{extra}")))
}

impl ExportOptions {
    /// The options `track` is prepared with: for a rotation (Quat or Euler) track, when
    /// [`Self::adaptive_angle_deg`] is set, [`Self::adaptive`] becomes that angle in radians —
    /// the unit every rotation bound of the export is measured in (`crate::bake`, this file).
    pub(super) fn for_track(&self, track: &Track) -> std::borrow::Cow<'_, Self> {
        match (self.adaptive, self.adaptive_angle_deg) {
            (Some(_), Some(deg)) if track.kind.is_rotation() => {
                let adaptive = Bound::new(deg.to_radians()).ok().or(self.adaptive);
                std::borrow::Cow::Owned(Self { adaptive, ..self.clone() })
            }
            _ => std::borrow::Cow::Borrowed(self),
        }
    }
}

/// `q`, or `−q` if that is nearer the last quaternion of `values` (dot ≥ 0), appended.
fn push_aligned(values: &mut Vec<f64>, q: Quat) {
    let q = match values.len().checked_sub(4) {
        Some(i) if q.iter().zip(&values[i..]).map(|(a, b)| a * b).sum::<f64>() < 0.0 => quat::neg(&q),
        _ => q,
    };
    values.extend_from_slice(&q);
}

/// Evaluates an Euler curve's angles and rotation.
struct Sampler<'a> {
    curve: &'a TrackCurve,
    cursor: SegmentCursor,
    scratch: Vec<f64>,
}

impl<'a> Sampler<'a> {
    fn new(curve: &'a TrackCurve) -> Self {
        Self { curve, cursor: SegmentCursor::new(), scratch: vec![0.0; curve.dim()] }
    }

    fn angles(&mut self, t: f64) -> [f64; 3] {
        self.curve.sample(&mut self.cursor, t, &mut self.scratch);
        [self.scratch[0], self.scratch[1], self.scratch[2]]
    }

    fn rotation(&mut self, t: f64) -> Quat {
        self.curve.rotation_at(&mut self.cursor, t, &mut self.scratch).unwrap_or(quat::IDENTITY)
    }
}

/// The bound on the turn between two angle triples: `|Δx| + |Δy| + |Δz|`, in degrees.
fn turn_bound(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    (0..3).map(|c| (b[c] - a[c]).abs()).sum::<f64>().to_degrees()
}

/// Times in `[ta, tb]` (both included, sorted): `steps` equal steps and every key time inside,
/// each step then halved while `too_long(sampler, a, b)` (at most [`MAX_DEPTH`] times).
fn fine_times(s: &mut Sampler<'_>, ta: f64, tb: f64, steps: usize, mut too_long: impl FnMut(&mut Sampler<'_>, f64, f64) -> bool) -> Vec<f64> {
    let mut coarse: Vec<f64> = (0..=steps).map(|k| ta + (tb - ta) * k as f64 / steps as f64).collect();
    let keys = s.curve.times();
    let (from, to) = (keys.partition_point(|&t| t <= ta), keys.partition_point(|&t| t < tb));
    coarse.extend_from_slice(&keys[from..to.max(from)]);
    coarse.sort_by(f64::total_cmp);
    coarse.dedup();
    let mut out = vec![ta];
    for w in coarse.windows(2) {
        let mut stack = vec![(w[0], w[1], 0)];
        while let Some((a, b, depth)) = stack.pop() {
            let m = 0.5 * (a + b);
            if depth < MAX_DEPTH && a < m && m < b && too_long(s, a, b) {
                stack.push((m, b, depth + 1));
                stack.push((a, m, depth + 1));
            } else {
                out.push(b);
            }
        }
    }
    out
}

/// Whether the step `[a, b]` may turn `fine` degrees or more ([`turn_bound`]).
fn turns_up_to(fine: f64) -> impl FnMut(&mut Sampler<'_>, f64, f64) -> bool {
    move |s, a, b| turn_bound(&s.angles(a), &s.angles(b)) >= fine
}

/// Times strictly inside `(ta, tb)` to add so that no piece turns [`MAX_TURN_DEG`] or more
/// along the curve (`tb_eval` is where the piece ends: `tb`, or just before it at a jump).
fn turn_splits(s: &mut Sampler<'_>, ta: f64, tb_eval: f64) -> Vec<f64> {
    let pts = fine_times(s, ta, tb_eval, FRAME_STEPS, |_, _, _| false);
    let angles: Vec<[f64; 3]> = pts.iter().map(|&t| s.angles(t)).collect();
    let bound: f64 = angles.windows(2).map(|w| turn_bound(&w[0], &w[1])).sum();
    if bound < MAX_TURN_DEG {
        return Vec::new();
    }
    let pts = fine_times(s, ta, tb_eval, FRAME_STEPS, turns_up_to(FINE_STEP_DEG));
    let mut rotations = Vec::with_capacity(4 * pts.len());
    for &t in &pts {
        push_aligned(&mut rotations, s.rotation(t));
    }
    let q = |i: usize| [rotations[4 * i], rotations[4 * i + 1], rotations[4 * i + 2], rotations[4 * i + 3]];
    let mut added = Vec::new();
    let mut turned = 0.0;
    for j in 1..pts.len() {
        let step = quat::angle_between(&q(j - 1), &q(j)).to_degrees();
        if turned + step >= MAX_TURN_DEG && turned > 0.0 {
            added.push(pts[j - 1]);
            turned = 0.0;
        }
        turned += step;
    }
    added
}

/// Jump times (two keys at one time) in `[t0, t1]`.
fn jumps_in(curve: &TrackCurve, t0: f64, t1: f64) -> Vec<f64> {
    let mut j: Vec<f64> = curve.times().windows(2).filter(|w| w[0] == w[1] && (t0..=t1).contains(&w[0])).map(|w| w[0]).collect();
    j.dedup();
    j
}

/// One key per frame of `grid` (the frames over `span`; a jump: the rotation arriving, then
/// the one after, at its time), each in the hemisphere of the key before, with keys added
/// inside frames that turn [`MAX_TURN_DEG`] or more. Returns times, values and how many keys
/// were added.
fn fixed_rate(curve: &TrackCurve, mut grid: Vec<f64>, span: (f64, f64)) -> (Vec<f64>, Vec<f64>, usize) {
    let jumps = jumps_in(curve, span.0, span.1);
    grid.extend_from_slice(&jumps);
    grid.sort_by(f64::total_cmp);
    grid.dedup();
    let mut s = Sampler::new(curve);
    let (mut times, mut values, mut added) = (Vec::with_capacity(grid.len()), Vec::with_capacity(4 * grid.len()), 0);
    for (i, &t) in grid.iter().enumerate() {
        let jump = jumps.contains(&t);
        let arrive = if jump { t.next_down() } else { t };
        if i > 0 {
            for extra in turn_splits(&mut s, grid[i - 1], arrive) {
                times.push(extra);
                push_aligned(&mut values, s.rotation(extra));
                added += 1;
            }
        }
        if jump {
            times.push(t);
            push_aligned(&mut values, s.rotation(arrive));
        }
        times.push(t);
        push_aligned(&mut values, s.rotation(t));
    }
    (times, values, added)
}

/// The largest angle (radians) between slerp playback of the keys and the curve, at
/// `per_segment − 1` points inside each segment of positive length.
fn measure(curve: &TrackCurve, times: &[f64], values: &[f64], per_segment: usize) -> f64 {
    let mut s = Sampler::new(curve);
    let q = |i: usize| [values[4 * i], values[4 * i + 1], values[4 * i + 2], values[4 * i + 3]];
    let mut worst: f64 = 0.0;
    for k in 0..times.len().saturating_sub(1) {
        let (ta, tb) = (times[k], times[k + 1]);
        if tb <= ta {
            continue;
        }
        for j in 1..per_segment {
            let w = j as f64 / per_segment as f64;
            let played = quat::slerp(&q(k), &q(k + 1), w);
            worst = worst.max(quat::angle_between(&played, &s.rotation(ta + (tb - ta) * w)));
        }
    }
    worst
}

fn track_error(e: EulerTrackError) -> ExportError {
    match e {
        EulerTrackError::Track(e) => ExportError::Track(e),
        e => ExportError::Encode(e.to_string()),
    }
}

/// `--adaptive`'s form within `deg` degrees (module docs), also the as-edited form, or `None`
/// where no fit stayed within the bound (then the track is baked at the frame rate). The text
/// says which keys were written.
fn adaptive(
    track: &Track,
    curve: &TrackCurve,
    format: Format,
    options: &ExportOptions,
    deg: f64,
    span: (f64, f64),
) -> Result<Option<(Exact, String)>, ExportError> {
    let cubic = matches!(format, Format::Gltf | Format::Glb)
        && !options.adaptive_linear
        && !matches!(options.runtime, crate::runtime::Runtime::Blender | crate::runtime::Runtime::Blender34 | crate::runtime::Runtime::Godot);
    if span == curve.domain() {
        // Only the keys are written (over the keys' span): the quaternion track need not, and
        // cannot always (CycleOffset), extrapolate as the Euler track does.
        let (pre_infinity, post_infinity) = (crate::model::Infinity::Constant, crate::model::Infinity::Constant);
        let fitted = euler_to_quat(&Track { pre_infinity, post_infinity, ..track.clone() }, deg).map_err(track_error)?;
        if fitted.max_error_deg <= deg {
            let keys = &fitted.track.keys;
            let times: Vec<f64> = keys.iter().map(|k| k.time).collect();
            let max_error = fitted.max_error_deg.to_radians();
            match fitted.track.interpolation {
                Interpolation::Slerp => {
                    let values = keys.iter().flat_map(|k| k.value.iter().copied()).collect();
                    let exact = Exact { form: Form::Baked, times, values, tangents: None, max_error };
                    return Ok(Some((exact, format!("{} slerp keys", keys.len()))));
                }
                Interpolation::Bezier if cubic && times.windows(2).all(|w| w[0] < w[1]) => {
                    let fc = TrackCurve::new(&fitted.track)?;
                    if let Some(values) = cubic_spline_from_handles(&fitted.track, &fc) {
                        let exact = Exact { form: Form::CubicSpline, times, values, tangents: None, max_error };
                        return Ok(Some((exact, format!("{} Bezier keys (CUBICSPLINE)", keys.len()))));
                    }
                }
                _ => {}
            }
        }
    }
    Ok(slerp_within(curve, span, deg)?.map(|exact| {
        let n = exact.times.len();
        (exact, format!("{n} slerp keys"))
    }))
}

/// Whether the slerp from `a`'s rotation to `b`'s strays `deg` degrees or more from the curve
/// at the quarter points (so the fit can always advance by one sample).
fn slerp_misses(s: &mut Sampler<'_>, a: f64, b: f64, deg: f64) -> bool {
    let (qa, mut qb) = (s.rotation(a), s.rotation(b));
    if quat::dot(&qa, &qb) < 0.0 {
        qb = quat::neg(&qb);
    }
    [0.25, 0.5, 0.75].iter().any(|&w| quat::angle_between(&quat::slerp(&qa, &qb, w), &s.rotation(a + (b - a) * w)).to_degrees() >= deg)
}

/// The fewest Slerp keys kept from samples of the curve over `span` within `deg` degrees
/// (`reduce::rotation::slerp_keys`, each segment turning less than [`MAX_TURN_DEG`]),
/// measured densely; runs between jumps are fitted apart. Samples: every key time and at
/// least every [`SAMPLE_STEP_DEG`] of angle change. A curve whose speed changes strays between
/// such samples, so while the measured angle exceeds `deg` it is fitted again on samples close
/// enough that the slerp between two stays within `deg / 2` at its quarter points
/// ([`slerp_misses`]); then, as the bake does (`crate::bake`), against `deg / 2` on those, and
/// on those doubled, up to [`DENSER_ROUNDS`] rounds in all. The keys as baked, their error in
/// radians.
fn slerp_within(curve: &TrackCurve, span: (f64, f64), deg: f64) -> Result<Option<Exact>, ExportError> {
    let mut s = Sampler::new(curve);
    let mut cuts = vec![span.0];
    cuts.extend(jumps_in(curve, span.0, span.1).into_iter().filter(|&t| span.0 < t && t < span.1));
    cuts.push(span.1);
    let template = Track::new("euler as quaternions", TrackKind::Quat, Interpolation::Slerp);
    for round in 0..=DENSER_ROUNDS {
        let (mut keys, mut all_times): (Vec<Key>, Vec<f64>) = (Vec::new(), Vec::new());
        let mut last: Vec<f64> = Vec::new();
        for (r, w) in cuts.windows(2).enumerate() {
            let end = if r + 2 < cuts.len() { w[1].next_down() } else { w[1] };
            let mut times = fine_times(&mut s, w[0], end.max(w[0]), crate::reduce::SAMPLES_PER_SEGMENT, |s, a, b| {
                turns_up_to(SAMPLE_STEP_DEG)(s, a, b) || (round > 0 && slerp_misses(s, a, b, deg / 2.0))
            });
            for _ in 2..round {
                times = times.windows(2).flat_map(|p| [p[0], 0.5 * (p[0] + p[1])]).chain(times.last().copied()).collect();
            }
            let mut values = last.clone();
            for &t in &times {
                push_aligned(&mut values, s.rotation(t));
            }
            let values = values.split_off(last.len());
            last = values[values.len() - 4..].to_vec();
            let mut run = slerp_keys(&times, &values, if round < 2 { deg * FIT_FRACTION } else { deg / 2.0 });
            if let Some(k) = run.last_mut() {
                k.time = w[1];
            }
            keys.extend(run);
            all_times.extend(times);
        }
        let played = TrackCurve::new(&template.with_other_keys(keys))?;
        let err = max_angle(curve, &played, &all_times, true);
        if err <= deg {
            let times = played.times().to_vec();
            let values = (0..times.len()).flat_map(|i| played.key_value(i).iter().copied()).collect();
            return Ok(Some(Exact { form: Form::Baked, times, values, tangents: None, max_error: err.to_radians() }));
        }
    }
    Ok(None)
}

#[cfg(test)]
#[path = "rotation_tests.rs"]
mod tests;
