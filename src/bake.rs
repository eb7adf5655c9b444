//! Baking: replacing a track by keys that a simple interpolation reproduces — linear for
//! values, slerp for rotations — for formats and engines that have nothing better.
//!
//! - [`Rate::Fixed`] samples at `fps` (every frame, first and last key time included).
//! - [`Rate::Adaptive`] places the fewest keys it can so that linear (or slerp) playback of
//!   them stays within `E` of the curve: greedy longest reach over candidate times (32 per
//!   key segment plus every key time), each reach checked at every candidate and midpoint it
//!   spans, against `E/2` (the checks are samples; the margin covers what lies between them).
//!   The error is the largest component difference for values and the rotation angle in
//!   radians for quaternions; [`Baked::max_error`] reports it measured again, 128 points per
//!   baked segment (at a fixed rate, where segments are one frame, at the quarter points).
//! - [`Motion::ConstantSpeed`] bakes a path moved by arc length over the same duration.
//!
//! A jump (two keys at one time) is kept: the baked keys hold the value arriving at it and
//! then the value after it, at the same time.

use thiserror::Error;

use crate::arclen::{ArcLengthTable, ConstantSpeed};
use crate::curve::{PathCurve, TrackCurve};
use crate::model::TrackKind;
use crate::quat;
use crate::search::SegmentCursor;

/// A frame rate: positive and finite, checked when made.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Fps(f64);

/// An error bound for adaptive baking (value units, or radians for rotations): positive and
/// finite, checked when made.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Bound(f64);

/// A rate or bound that cannot be used.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RateError {
    #[error("the frame rate must be a positive number of frames per second, got {0}")]
    Fps(f64),
    #[error("the error bound must be a positive number, got {0}")]
    Bound(f64),
}

impl Fps {
    /// [`crate::DEFAULT_FPS`].
    pub const DEFAULT: Self = Self(crate::DEFAULT_FPS);

    pub fn new(fps: f64) -> Result<Self, RateError> {
        if fps.is_finite() && fps > 0.0 {
            Ok(Self(fps))
        } else {
            Err(RateError::Fps(fps))
        }
    }

    #[must_use]
    pub fn get(self) -> f64 {
        self.0
    }

    /// Frame times from `t0` to `t1`: `t0 + k/fps` for `k = 0 … ⌈(t1 − t0)·fps⌉`, the last
    /// clamped to `t1`, so both ends are included.
    #[must_use]
    pub fn frames(self, t0: f64, t1: f64) -> Vec<f64> {
        let n = ((t1 - t0) * self.0).ceil().max(0.0) as usize;
        (0..=n).map(|k| (t0 + k as f64 / self.0).min(t1)).collect()
    }
}

impl Bound {
    pub fn new(bound: f64) -> Result<Self, RateError> {
        if bound.is_finite() && bound > 0.0 {
            Ok(Self(bound))
        } else {
            Err(RateError::Bound(bound))
        }
    }

    #[must_use]
    pub fn get(self) -> f64 {
        self.0
    }
}

/// How densely to bake.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rate {
    /// One key per frame at this rate.
    Fixed(Fps),
    /// The fewest keys within this error bound.
    Adaptive(Bound),
}

impl Rate {
    /// One key per frame at `fps`, if it is a usable rate.
    pub fn fixed(fps: f64) -> Result<Self, RateError> {
        Fps::new(fps).map(Self::Fixed)
    }

    /// The fewest keys within `bound`, if it is a usable bound.
    pub fn adaptive(bound: f64) -> Result<Self, RateError> {
        Bound::new(bound).map(Self::Adaptive)
    }
}

/// Which motion to bake.
#[derive(Clone, Copy, Debug)]
pub enum Motion<'a> {
    /// The curve as keyed (by its own time).
    Raw,
    /// The path moved at constant speed over the keyed duration, by its arc-length table.
    ConstantSpeed { path: PathCurve<'a>, table: &'a ArcLengthTable },
}

/// Candidate times per key segment for adaptive baking.
const CANDIDATES_PER_SEGMENT: usize = 32;

/// Baked keys of one track: `values[key * dim + c]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Baked {
    pub dim: usize,
    pub times: Vec<f64>,
    pub values: Vec<f64>,
    /// Largest difference between linear (slerp) playback of these keys and the curve,
    /// measured on a fine grid.
    pub max_error: f64,
}

/// The function being baked: time → value.
struct Source<'a> {
    curve: &'a TrackCurve,
    motion: Motion<'a>,
    cursor: SegmentCursor,
    t0: f64,
    duration: f64,
}

impl Source<'_> {
    fn at(&mut self, t: f64, out: &mut [f64]) {
        match self.motion {
            Motion::Raw => self.curve.sample(&mut self.cursor, t, out),
            Motion::ConstantSpeed { path, table } => {
                let mut cs = ConstantSpeed::new(path, table, self.duration);
                cs.sample(t - self.t0, out);
            }
        }
    }

    /// The values at `ts` (`ts.len()·dim`): one pass of [`TrackCurve::sample_many`] for the
    /// curve itself.
    fn many(&mut self, ts: &[f64], dim: usize) -> Vec<f64> {
        let mut out = vec![0.0; ts.len() * dim];
        match self.motion {
            Motion::Raw => self.curve.sample_many(ts, &mut out),
            Motion::ConstantSpeed { .. } => {
                for (o, &t) in out.chunks_exact_mut(dim).zip(ts) {
                    self.at(t, o);
                }
            }
        }
        out
    }
}

fn is_rotation(curve: &TrackCurve) -> bool {
    curve.kind() == TrackKind::Quat
}

/// Playback of baked keys `a`, `b` at fraction `w`: lerp, or slerp for rotations.
fn between(rot: bool, a: &[f64], b: &[f64], w: f64, out: &mut [f64]) {
    if rot {
        let q = quat::slerp(&[a[0], a[1], a[2], a[3]], &[b[0], b[1], b[2], b[3]], w);
        out.copy_from_slice(&q);
    } else {
        for c in 0..out.len() {
            out[c] = a[c] + (b[c] - a[c]) * w;
        }
    }
}

/// Error between two values: largest component difference, or rotation angle.
fn error(rot: bool, a: &[f64], b: &[f64]) -> f64 {
    if rot {
        quat::angle_between(&[a[0], a[1], a[2], a[3]], &[b[0], b[1], b[2], b[3]])
    } else {
        a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
    }
}

/// Key times in `[t0, t1]`, each jump time once.
fn break_times(curve: &TrackCurve, t0: f64, t1: f64) -> Vec<f64> {
    let mut v: Vec<f64> = curve.times().iter().copied().filter(|t| (t0..=t1).contains(t)).collect();
    v.dedup();
    v
}

fn jump_times(curve: &TrackCurve) -> Vec<f64> {
    curve.times().windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]).collect()
}

/// Bakes `curve` over its keyed range.
#[must_use]
pub fn bake(curve: &TrackCurve, rate: Rate, motion: Motion<'_>) -> Baked {
    let (t0, t1) = curve.domain();
    bake_range(curve, rate, motion, t0, t1)
}

/// Bakes `curve` over `[t0, t1]`, which may reach beyond its keys (pre/post infinity).
#[must_use]
pub fn bake_range(curve: &TrackCurve, rate: Rate, motion: Motion<'_>, t0: f64, t1: f64) -> Baked {
    let dim = curve.dim();
    let rot = is_rotation(curve);
    let (k0, k1) = curve.domain();
    let mut src = Source { curve, motion, cursor: SegmentCursor::new(), t0: k0, duration: k1 - k0 };
    // Candidate times: a grid, plus key times where the curve may bend sharply.
    let (grid, adaptive_bound) = match rate {
        Rate::Fixed(fps) => {
            let mut g = fps.frames(t0, t1);
            g.dedup();
            (g, None)
        }
        Rate::Adaptive(e) => {
            let mut g = Vec::new();
            let mut keys = break_times(curve, t0, t1);
            if keys.first() != Some(&t0) {
                keys.insert(0, t0);
            }
            if keys.last() != Some(&t1) {
                keys.push(t1);
            }
            for w in keys.windows(2) {
                for k in 0..CANDIDATES_PER_SEGMENT {
                    g.push(w[0] + (w[1] - w[0]) * k as f64 / CANDIDATES_PER_SEGMENT as f64);
                }
            }
            g.push(t1);
            g.dedup();
            // Built against E/2: the checks between candidates are samples, and the margin
            // keeps the error between them inside E.
            let build = 0.5 * e.get();
            (refine_grid(&mut src, g, dim, rot, build), Some(build))
        }
    };
    let jumps = if matches!(motion, Motion::Raw) { jump_times(curve) } else { Vec::new() };
    let gv = src.many(&grid, dim);
    let chosen: Vec<usize> = match adaptive_bound {
        None => (0..grid.len()).collect(),
        Some(e) => greedy(&mut src, &grid, &gv, dim, rot, e, &jumps),
    };
    let mut times = Vec::with_capacity(chosen.len() + 2 * jumps.len());
    let mut values = Vec::with_capacity(times.capacity() * dim);
    let mut left = vec![0.0; dim];
    for &i in &chosen {
        let t = grid[i];
        if jumps.contains(&t) {
            // The value arriving at the jump, then the value after it.
            src.at(t.next_down(), &mut left);
            times.push(t);
            values.extend_from_slice(&left);
        }
        times.push(t);
        values.extend_from_slice(&gv[i * dim..(i + 1) * dim]);
    }
    let mut baked = Baked { dim, times, values, max_error: 0.0 };
    // Fixed-rate segments are a frame long: their quarter points find the peak of the
    // (smooth, small) error; adaptive segments are long and get a dense check.
    let per_segment = if adaptive_bound.is_some() { 4 * CANDIDATES_PER_SEGMENT } else { 4 };
    baked.max_error = measure(&mut src, &baked, rot, per_segment);
    baked
}

/// Splits candidate intervals until playing each one linearly stays within `e` at its
/// quarter points, so the greedy pass can always advance by one candidate.
fn refine_grid(src: &mut Source<'_>, grid: Vec<f64>, dim: usize, rot: bool, e: f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(grid.len());
    let (mut a, mut b, mut m, mut lin) = (vec![0.0; dim], vec![0.0; dim], vec![0.0; dim], vec![0.0; dim]);
    for w in grid.windows(2) {
        out.push(w[0]);
        let mut stack = vec![(w[0], w[1])];
        while let Some((ta, tb)) = stack.pop() {
            src.at(ta, &mut a);
            src.at(tb.next_down().max(ta), &mut b);
            let fits = [0.25, 0.5, 0.75].iter().all(|&f| {
                src.at(ta + (tb - ta) * f, &mut m);
                between(rot, &a, &b, f, &mut lin);
                error(rot, &lin, &m) <= e
            });
            let tm = 0.5 * (ta + tb);
            if fits || !(ta < tm && tm < tb) || tb - ta < 1e-9 {
                if out.last() != Some(&ta) {
                    out.push(ta);
                }
            } else {
                // Right half first, so the left half pops (and is emitted) first.
                stack.push((tm, tb));
                stack.push((ta, tm));
            }
        }
    }
    out.push(*grid.last().unwrap());
    out.dedup();
    out
}

/// Error of playing segment `i → j` of the candidate grid linearly, at every candidate and
/// midpoint in between.
fn segment_error(src: &mut Source<'_>, grid: &[f64], gv: &[f64], dim: usize, rot: bool, i: usize, j: usize) -> f64 {
    let (a, b) = (&gv[i * dim..(i + 1) * dim], &gv[j * dim..(j + 1) * dim]);
    let (ta, tb) = (grid[i], grid[j]);
    let mut lin = vec![0.0; dim];
    let mut mid = vec![0.0; dim];
    let mut worst: f64 = 0.0;
    for k in i..j {
        if k > i {
            between(rot, a, b, (grid[k] - ta) / (tb - ta), &mut lin);
            worst = worst.max(error(rot, &lin, &gv[k * dim..(k + 1) * dim]));
        }
        let tm = 0.5 * (grid[k] + grid[k + 1]);
        src.at(tm, &mut mid);
        between(rot, a, b, (tm - ta) / (tb - ta), &mut lin);
        worst = worst.max(error(rot, &lin, &mid));
    }
    worst
}

/// Greedy longest reach: from each chosen candidate, the farthest one whose segment stays
/// within `e` (galloping, then bisection). Jump times are always chosen.
fn greedy(src: &mut Source<'_>, grid: &[f64], gv: &[f64], dim: usize, rot: bool, e: f64, jumps: &[f64]) -> Vec<usize> {
    let n = grid.len();
    let mut chosen = vec![0];
    let mut i = 0;
    while i + 1 < n {
        // The next jump bounds the reach: playback cannot interpolate across it.
        let limit = grid.iter().enumerate().skip(i + 1).find(|(_, t)| jumps.contains(t)).map_or(n - 1, |(k, _)| k);
        let good = crate::search::farthest_fitting(i, limit, |j| segment_error(src, grid, gv, dim, rot, i, j) <= e);
        chosen.push(good);
        i = good;
    }
    chosen
}

/// Largest error of linear playback of `baked` against the source, on `per_segment` points
/// per baked segment.
fn measure(src: &mut Source<'_>, baked: &Baked, rot: bool, per_segment: usize) -> f64 {
    let dim = baked.dim;
    let segments: Vec<usize> = (0..baked.times.len().saturating_sub(1)).filter(|&k| baked.times[k + 1] > baked.times[k]).collect();
    let weights: Vec<f64> = (1..per_segment).map(|s| s as f64 / per_segment as f64).collect();
    // Every check time, in order, sampled in one pass.
    let checks: Vec<f64> =
        segments.iter().flat_map(|&k| weights.iter().map(move |w| (k, w))).map(|(k, w)| baked.times[k] + (baked.times[k + 1] - baked.times[k]) * w).collect();
    let truth = src.many(&checks, dim);
    let mut lin = vec![0.0; dim];
    let mut worst: f64 = 0.0;
    for (j, (&k, &w)) in segments.iter().flat_map(|k| std::iter::repeat(k).zip(&weights)).enumerate() {
        let (a, b) = (&baked.values[k * dim..(k + 1) * dim], &baked.values[(k + 1) * dim..(k + 2) * dim]);
        between(rot, a, b, w, &mut lin);
        worst = worst.max(error(rot, &lin, &truth[j * dim..(j + 1) * dim]));
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Interpolation, Key, Track};

    fn curve(mode: Interpolation, keys: &[(f64, f64)]) -> TrackCurve {
        TrackCurve::new(&Track::new("s", TrackKind::Scalar, mode).with_keys(keys.iter().map(|&(t, v)| Key::new(t, vec![v])).collect())).unwrap()
    }

    #[test]
    fn rates_are_checked_when_made() {
        for bad in [0.0, -30.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(Rate::fixed(bad), Err(RateError::Fps(_))), "{bad}");
            assert!(matches!(Rate::adaptive(bad), Err(RateError::Bound(_))), "{bad}");
        }
        assert_eq!(Rate::fixed(24.0), Ok(Rate::Fixed(Fps(24.0))));
        // 4 frames per second over [0, 1]: 0, 0.25, 0.5, 0.75, 1.
        assert_eq!(Fps::new(4.0).unwrap().frames(0.0, 1.0), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    }

    #[test]
    fn fixed_rate_includes_both_ends_and_every_frame() {
        let c = curve(Interpolation::Tcb, &[(0.0, 0.0), (1.0, 2.0), (1.05, 1.0)]);
        let b = bake(&c, Rate::fixed(10.0).unwrap(), Motion::Raw);
        assert_eq!(b.times.len(), 12);
        assert_eq!(b.times[0], 0.0);
        assert_eq!(*b.times.last().unwrap(), 1.05);
        assert_eq!(b.values[0], 0.0);
        assert_eq!(*b.values.last().unwrap(), 1.0);
    }

    #[test]
    fn adaptive_on_a_linear_track_keeps_only_the_keys() {
        let c = curve(Interpolation::Linear, &[(0.0, 0.0), (1.0, 2.0), (3.0, -1.0)]);
        let b = bake(&c, Rate::adaptive(1e-9).unwrap(), Motion::Raw);
        assert_eq!(b.times, vec![0.0, 1.0, 3.0]);
        assert!(b.max_error < 1e-12);
    }

    #[test]
    fn adaptive_respects_its_bound_and_uses_fewer_keys_for_looser_bounds() {
        let c = curve(Interpolation::Tcb, &[(0.0, 0.0), (1.0, 3.0), (1.5, -1.0), (3.0, 2.0)]);
        let mut last = usize::MAX;
        for e in [1e-4, 1e-3, 1e-2, 1e-1] {
            let b = bake(&c, Rate::adaptive(e).unwrap(), Motion::Raw);
            assert!(b.max_error <= e, "E={e}: {}", b.max_error);
            assert!(b.times.len() <= last);
            last = b.times.len();
        }
    }

    #[test]
    fn jumps_are_kept_as_two_keys_at_one_time() {
        let c = curve(Interpolation::Linear, &[(0.0, 0.0), (1.0, 1.0), (1.0, 5.0), (2.0, 6.0)]);
        let b = bake(&c, Rate::adaptive(1e-6).unwrap(), Motion::Raw);
        let at = b.times.iter().position(|&t| t == 1.0).unwrap();
        assert_eq!(b.times[at + 1], 1.0);
        assert!((b.values[at] - 1.0).abs() < 1e-9 && b.values[at + 1] == 5.0);
        assert!(b.max_error < 1e-6);
    }

    #[test]
    fn constant_speed_bake_covers_equal_lengths() {
        let t = Track::new("p", TrackKind::Vec2, Interpolation::Tcb).with_keys(vec![
            Key::new(0.0, vec![0.0, 0.0]),
            Key::new(0.3, vec![1.0, 2.0]),
            Key::new(2.0, vec![4.0, 0.0]),
        ]);
        let c = TrackCurve::new(&t).unwrap();
        let path = PathCurve::new(&c).unwrap();
        let table = ArcLengthTable::new(path, 1e-8).unwrap();
        let b = bake(&c, Rate::fixed(50.0).unwrap(), Motion::ConstantSpeed { path, table: &table });
        let step: Vec<f64> = b
            .times
            .windows(2)
            .zip(b.values.chunks(2).collect::<Vec<_>>().windows(2))
            .map(|(_, v)| ((v[1][0] - v[0][0]).powi(2) + (v[1][1] - v[0][1]).powi(2)).sqrt())
            .collect();
        let mean = step.iter().sum::<f64>() / step.len() as f64;
        // Chords of equal arcs: equal to within the curvature's chord shortening.
        assert!(step.iter().all(|s| (s - mean).abs() / mean < 0.02), "{step:?}");
    }

    #[test]
    fn rotations_bake_with_slerp_within_an_angle() {
        let q = |deg: f64| {
            let h = deg.to_radians() / 2.0;
            vec![0.0, 0.0, h.sin(), h.cos()]
        };
        // Steps of at most 90°: larger ones make numpy-quaternion's squad (which Tangent
        // follows) flip its inner slerp pair, a discontinuity no baking can follow.
        let t = Track::new("r", TrackKind::Quat, Interpolation::Squad).with_keys(vec![
            Key::new(0.0, q(0.0)),
            Key::new(1.0, q(90.0)),
            Key::new(2.0, q(100.0)),
            Key::new(3.0, q(170.0)),
        ]);
        let c = TrackCurve::new(&t).unwrap();
        let b = bake(&c, Rate::adaptive(1e-4).unwrap(), Motion::Raw);
        assert!(b.max_error <= 1e-4, "{}", b.max_error);
    }
}
