//! Converting TCB, three.js Cubic and Linear tracks to Bezier keys (SPEC §10) without
//! changing the curve, and Bezier tracks to Bezier keys whose handles all sit at thirds (what
//! glTF CUBICSPLINE can carry; their Constant and eased segments within a bound).
//!
//! A cubic segment in local time `u` with end derivatives `p′(0)`, `p′(1)` (per unit `u`) is
//! exactly the Bézier segment with handles at a third of the segment in time:
//! `right_i = (Δt/3, p′(0)/3)`, `left_{i+1} = (−Δt/3, −p′(1)/3)` (then `x̂(s) = s`). The
//! derivatives come from the compiled curve's exact velocity (`p′ = Δt · dP/dt`), so TCB
//! (either tangent mode) and Cubic (any ending) convert exactly; Linear keys get Vector
//! handles, which are the same thirds along the line.
//!
//! A TCB segment with ease is not a cubic in time (it is `p(e(u))` with `e` piecewise
//! quadratic). It is split into the fewest pieces whose Hermite cubics (values and exact
//! derivatives at the piece ends) stay within the user's bound: greedily, each piece as long
//! as a bisection over its end finds, each candidate checked at [`CHECKS_PER_PIECE`] evenly
//! spaced points against [`BUILD_FRACTION`] of the bound (the Hermite error of a smooth piece
//! is a smooth bump of one or two lobes; between the checks its peak can be missed by well
//! under 1%, which the margin covers). Each new key is a Bezier
//! key with Free handles. A Bezier track's segments are all pieced so: a segment whose
//! handles sit at thirds, or a Linear one, is one piece; others (handles elsewhere, Constant
//! segments, Blender's easing equations) as many as the bound needs, none shorter than
//! [`MIN_PIECE`] of its segment. The report gives the difference measured afterwards, in each
//! interval between key times at [`MEASURE_POINTS`] times and then at the peak found by a
//! golden-section search, with the converted curve evaluated as any Bezier track is.

use thiserror::Error;

use crate::curve::TrackCurve;
use crate::error::TrackError;
use crate::model::{AutoSmoothing, Easing, HandleType, Interpolation, Key, KeyInterpolation, Track};
use crate::search::SegmentCursor;

/// Points at which a candidate piece of an eased segment is checked against the bound.
pub const CHECKS_PER_PIECE: usize = 64;

/// Pieces are built against this fraction of the user's bound.
pub const BUILD_FRACTION: f64 = 0.95;

/// On a segment with corners (a Bounce's bounces), a piece's end derivatives are taken this
/// far (in local time) inside it, so they are one-sided at a corner; elsewhere at the ends.
const INSIDE: f64 = 1e-12;

fn inside_of(corners: &[f64]) -> f64 {
    if corners.is_empty() {
        0.0
    } else {
        INSIDE
    }
}

/// Points in each interval between key times at which the conversion's difference is
/// measured before the largest is refined ([`crate::reduce::measure::golden_max`]).
pub const MEASURE_POINTS: usize = 16;

/// Why a track cannot be converted.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ConvertError {
    #[error("track \"{track}\": {interpolation:?} keys cannot become Bezier keys (only Tcb, Cubic and Linear ones can)")]
    Unsupported { track: String, interpolation: Interpolation },
    #[error("the bound for eased segments must be a positive number, got {0}")]
    Bound(f64),
    #[error(transparent)]
    Track(#[from] TrackError),
}

/// A converted track and what the conversion did.
#[derive(Clone, Debug, PartialEq)]
pub struct Conversion {
    pub track: Track,
    /// Keys added inside eased segments.
    pub added_keys: usize,
    /// Largest difference between the original and the converted curve (largest component
    /// difference; [`MEASURE_POINTS`] per interval between keys, the peak refined).
    pub max_difference: f64,
}

/// Converts `track` to Bezier keys; `bound` limits the difference where eased segments must
/// be approximated.
pub fn to_bezier(track: &Track, bound: f64) -> Result<Conversion, ConvertError> {
    if !matches!(track.interpolation, Interpolation::Tcb | Interpolation::Cubic | Interpolation::Linear | Interpolation::Bezier) {
        return Err(ConvertError::Unsupported { track: track.name.clone(), interpolation: track.interpolation });
    }
    if !(bound.is_finite() && bound > 0.0) {
        return Err(ConvertError::Bound(bound));
    }
    let curve = TrackCurve::new(track)?;
    // New Bézier curves smooth their automatic handles as Blender's new F-curves do.
    let mut out = Track {
        interpolation: Interpolation::Bezier,
        auto_smoothing: AutoSmoothing::ContinuousAcceleration,
        keys: Vec::with_capacity(track.keys.len()).into(),
        ..track.clone()
    };
    let mut added = 0;
    if track.interpolation == Interpolation::Linear {
        out.keys = track.keys.iter().map(|k| plain(k).with_handles((HandleType::Vector, HandleType::Vector), vec![], vec![])).collect();
    } else {
        let mut cursor = SegmentCursor::new();
        // The left handle of the key that ends the piece before it.
        let mut pending: Option<Vec<(f64, f64)>> = None;
        for (i, key) in track.keys.iter().enumerate() {
            out.keys.push(Key { left: pending.take().unwrap_or_default(), ..plain(key) });
            if i + 1 == track.keys.len() || track.keys.time(i + 1) <= key.time {
                continue;
            }
            // A Bezier track's segments all go through the pieces: a segment already a cubic
            // with handles at thirds (or Linear) is one piece, others (handles elsewhere,
            // Constant, eased) become as many as the bound needs.
            let eased = track.interpolation == Interpolation::Bezier
                || (track.interpolation == Interpolation::Tcb && (key.ease_from != 0.0 || track.keys[i + 1].ease_to != 0.0));
            let corners = if eased { corners(key) } else { Vec::new() };
            let cuts = if eased { pieces(&curve, &mut cursor, i, BUILD_FRACTION * bound, &corners) } else { vec![0.0, 1.0] };
            for w in cuts.windows(2) {
                if w[0] > 0.0 {
                    let t = local_time(&curve, i, w[0]);
                    out.keys.push(Key { left: pending.take().unwrap_or_default(), ..plain(&Key::new(t, value_at(&curve, &mut cursor, t))) });
                    added += 1;
                }
                let (left, right) = piece_handles(&curve, i, (w[0], w[1]), inside_of(&corners));
                out.keys.last_mut().expect("a key was pushed").right = right;
                pending = Some(left);
            }
        }
        mirror_missing_handles(&mut out.keys);
    }
    let converted = TrackCurve::new(&out)?;
    let max_difference = difference(&curve, &converted);
    Ok(Conversion { track: out, added_keys: added, max_difference })
}

/// The key with Free handle types and no handles yet.
fn plain(k: &Key) -> Key {
    let mut key = Key::new(k.time, k.value.clone());
    key.handles = (HandleType::Free, HandleType::Free);
    key
}

fn local_time(curve: &TrackCurve, seg: usize, u: f64) -> f64 {
    let t = curve.times();
    t[seg] + u * (t[seg + 1] - t[seg])
}

fn value_at(curve: &TrackCurve, cursor: &mut SegmentCursor, t: f64) -> Vec<f64> {
    let mut v = vec![0.0; curve.dim()];
    curve.sample(cursor, t, &mut v);
    v
}

/// Handles of the Hermite piece over local times `[ua, ub]` of segment `seg`: `(left of the
/// piece's end, right of its start)`, each a third of the piece in time, with the curve's
/// exact derivative.
fn piece_handles(curve: &TrackCurve, seg: usize, (ua, ub): (f64, f64), inside: f64) -> (Vec<(f64, f64)>, Vec<(f64, f64)>) {
    let dim = curve.dim();
    let h = (ub - ua) * (curve.times()[seg + 1] - curve.times()[seg]) / 3.0;
    let (mut va, mut vb) = (vec![0.0; dim], vec![0.0; dim]);
    curve.segment_velocity(seg, ua + inside, &mut va);
    curve.segment_velocity(seg, ub - inside, &mut vb);
    (vb.iter().map(|v| (-h, -v * h)).collect(), va.iter().map(|v| (h, v * h)).collect())
}

/// Sides no segment uses (the first key's left, the last key's right, the sides facing a
/// jump) get the mirror image of the key's other handle, so every Free side has one.
fn mirror_missing_handles(keys: &mut [Key]) {
    for k in keys {
        let dim = k.value.len();
        let mirror = |h: &[(f64, f64)]| if h.is_empty() { vec![(0.0, 0.0); dim] } else { h.iter().map(|&(dt, dv)| (-dt, -dv)).collect() };
        if k.left.is_empty() {
            k.left = mirror(&k.right);
        }
        if k.right.is_empty() {
            k.right = mirror(&k.left);
        }
    }
}

/// The shortest piece, as a fraction of its segment: where the curve jumps (a Constant
/// segment's end, an easing equation that meets its key only at the key's time) no cubic
/// follows it, and a piece this short carries the jump as a steep ramp whose time still
/// differs from the key's in float32.
pub const MIN_PIECE: f64 = 1e-4;

/// Cut points in local time for eased segment `seg`: greedy longest pieces within `bound`.
/// Cuts are made at `corners` (local times where the curve has a corner) first.
fn pieces(curve: &TrackCurve, cursor: &mut SegmentCursor, seg: usize, bound: f64, corners: &[f64]) -> Vec<f64> {
    let mut cuts = vec![0.0];
    for end in corners.iter().copied().chain([1.0]) {
        pieces_to(curve, cursor, (seg, bound, inside_of(corners)), end, &mut cuts);
    }
    cuts
}

/// [`pieces`] from the last cut to `stop`.
fn pieces_to(curve: &TrackCurve, cursor: &mut SegmentCursor, (seg, bound, inside): (usize, f64, f64), stop: f64, cuts: &mut Vec<f64>) {
    let mut start = *cuts.last().expect("cuts start at 0");
    while start < stop {
        if piece_error(curve, cursor, seg, (start, stop), inside) <= bound {
            cuts.push(stop);
            break;
        }
        let (mut lo, mut hi) = (start, stop);
        for _ in 0..40 {
            let mid = 0.5 * (lo + hi);
            if piece_error(curve, cursor, seg, (start, mid), inside) <= bound {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let end = if lo > start { lo } else { hi }.max((start + MIN_PIECE).min(stop));
        cuts.push(end);
        start = end;
    }
}

/// Where a Bezier track's segment after `key` has corners, in local time: Bounce's bounces
/// (`easing.c`'s thresholds 1/2.75, 2/2.75 and 2.5/2.75 of ease-out; mirrored for ease-in;
/// both halves and the middle for in-and-out).
fn corners(key: &Key) -> Vec<f64> {
    const OUT: [f64; 3] = [1.0 / 2.75, 2.0 / 2.75, 2.5 / 2.75];
    if key.interpolation != KeyInterpolation::Bounce {
        return Vec::new();
    }
    let mut at: Vec<f64> = match key.easing.resolved(key.interpolation) {
        Easing::In => OUT.iter().map(|u| 1.0 - u).collect(),
        Easing::InOut => OUT.iter().map(|u| 0.5 * (1.0 - u)).chain([0.5]).chain(OUT.iter().map(|u| 0.5 + 0.5 * u)).collect(),
        _ => OUT.to_vec(),
    };
    at.sort_by(f64::total_cmp);
    at
}

/// Largest component difference between the curve and the Hermite piece over `[ua, ub]`.
fn piece_error(curve: &TrackCurve, cursor: &mut SegmentCursor, seg: usize, (ua, ub): (f64, f64), inside: f64) -> f64 {
    let dim = curve.dim();
    let (t0, t1) = (local_time(curve, seg, ua), local_time(curve, seg, ub));
    let h = t1 - t0;
    let (pa, pb) = (value_at(curve, cursor, t0), value_at(curve, cursor, t1));
    let (mut va, mut vb) = (vec![0.0; dim], vec![0.0; dim]);
    curve.segment_velocity(seg, ua + inside, &mut va);
    curve.segment_velocity(seg, ub - inside, &mut vb);
    let mut worst: f64 = 0.0;
    for j in 1..CHECKS_PER_PIECE {
        let s = j as f64 / CHECKS_PER_PIECE as f64;
        let truth = value_at(curve, cursor, t0 + s * h);
        let (h00, h10, h01, h11) = (2.0 * s * s * s - 3.0 * s * s + 1.0, s * s * s - 2.0 * s * s + s, -2.0 * s * s * s + 3.0 * s * s, s * s * s - s * s);
        for c in 0..dim {
            let hermite = h00 * pa[c] + h10 * h * va[c] + h01 * pb[c] + h11 * h * vb[c];
            worst = worst.max((hermite - truth[c]).abs());
        }
    }
    worst
}

/// Largest component difference between two curves: at [`MEASURE_POINTS`] evenly spaced
/// times in each interval between consecutive key times of either curve, the largest of
/// them then refined by a golden-section search between its two neighbours (on a piece the
/// difference is a smooth bump of one or two lobes, so the sampled peak sits beside the true
/// one; a corner, as Bounce's, is among the key times or caught by the samples).
fn difference(a: &TrackCurve, b: &TrackCurve) -> f64 {
    let cuts = a.key_times_with(b);
    let (mut ca, mut cb) = (SegmentCursor::new(), SegmentCursor::new());
    let (mut va, mut vb) = (vec![0.0; a.dim()], vec![0.0; b.dim()]);
    let mut diff = |t: f64| {
        a.sample(&mut ca, t, &mut va);
        b.sample(&mut cb, t, &mut vb);
        va.iter().zip(&vb).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
    };
    let first = cuts.first().map_or(0.0, |&t| diff(t));
    cuts.windows(2).map(|w| crate::reduce::measure::sampled_max(&mut diff, w[0], w[1], MEASURE_POINTS).0).fold(first, f64::max)
}
