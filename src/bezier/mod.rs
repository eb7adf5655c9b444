//! Bézier keys (SPEC §10): where Blender 3.4 puts a key's handles, and the cubic Bézier
//! segment between two keys evaluated at a time.
//!
//! # Handles (Blender 3.4's `BKE_fcurve_handles_recalc_ex`)
//! [`resolve_handles`] takes one component's keys, what lies beyond them ([`Ends`]) and the
//! track's [`AutoSmoothing`]. A first pass sets every key's handles from its neighbours alone
//! (`calchandleNurb_intern`); with [`AutoSmoothing::ContinuousAcceleration`] a second pass
//! solves runs of automatic keys together (`bezier/smoothing.rs`). Read in Blender's source
//! (`blenkernel/intern/curve.cc`, `fcurve.cc`, `blenlib/intern/math_solvers.c`) and written
//! anew, in `f64`.
//!
//! Per key and component, with the neighbouring keys `prev`, `next` (a missing one mirrored
//! through the key: `prev = 2·key − next`), `dA = key − prev`, `dB = next − key`, and
//! `lenA = dA.t`, `lenB = dB.t` (0 taken as 1):
//!
//! - **Auto**: slope `m = (sA + sB)/2`, the plain mean of the secant slopes to the
//!   neighbours. Without smoothing, after clamping the lengths to a 5:1 ratio,
//!   `left = key − (lenA/2.5614)·(1, m)`, `right = key + (lenB/2.5614)·(1, m)`: an Auto handle
//!   reaches 1/2.5614 ≈ 0.39 of its interval. With smoothing, `left = key − (lenA/3)·(1, m)`,
//!   `right = key + (lenB/3)·(1, m)` (no clamp): a third, so that time is linear in the curve
//!   parameter between automatic keys.
//! - **AutoClamped**: as Auto, then for interior keys: flat where the key is an extreme or
//!   equals a neighbour (the key is then *locked*); otherwise a handle whose value passes its
//!   neighbour's is cut back to it and the other side follows to stay collinear.
//! - **Vector**: `left = key − dA/3`, `right = key + dB/3`.
//! - **Aligned** (unless either side is Free): the right handle is turned opposite the left
//!   one keeping its length, then the left opposite the right (Blender with the left handle
//!   selected); an automatic side is computed first and the Aligned side follows it.
//! - **End keys** ([`Ends::Open`]): with both sides automatic and the curve held beyond that
//!   end, both handles are flat and the key is locked. An end is held unless it is `Linear`
//!   or repeats while the other end is `Linear` ([`Ends::of`]: Blender's one extrapolation
//!   per F-curve, hidden on a side with a Cycles modifier).
//! - **Keys at one time**: both are locked.
//! - **Cycles** ([`Ends::Cycle`], in both smoothing modes): when the first and last keys are
//!   automatic on both sides, the first key's `prev` is the key before the last and the last
//!   key's `next` the key after the first, each moved by one period `(t_last − t_first,
//!   v_last − v_first)`, value included, for Repeat as for Repeat with Offset (Blender's
//!   `cycle_offset_triple`); nothing is flattened, and if either end key is locked both are
//!   made flat and locked, so the seam stays smooth. Otherwise the cycle is ignored and the
//!   ends are held.
//! - A stored handle on the wrong side of its key has its time moved to the key's.
//!
//! **Continuous Acceleration** (the second pass): a *free* key is automatic on both sides
//! and not locked. Each run of free keys, with the key that ends it on each side, is one
//! tridiagonal system in the runs' right-handle values `h[i]` (left ones `−h[i]/l[i]`, the
//! slope continuous), whose equations make the acceleration continuous at each free key:
//! `l[i]²·h[i−1] + 2(l[i]+1)·h[i] + h[i+1]/l[i+1] = dy[i]·l[i]² + dy[i+1]`, with `l[i]` the
//! ratio of the intervals after and before key `i` and `dy` the value steps. A run's end key
//! keeps its handle, or, when its inner side is Vector or it is the curve's own extrapolated
//! end, gets zero acceleration (so Vector handles beside automatic, Free or Aligned keys
//! change value). AutoClamped keys keep the handles beside them from reversing or passing a
//! neighbour's value, by locking and releasing handles at those limits and solving again. On
//! a cycle whose end keys are free the runs wrap around the seam (every key free: one
//! periodic system). Where a neighbour's handle is not at a third the equations carry its
//! length, shortened when longer than 2/3 of the interval (then the curve is C¹ only there).
//! The details and formulas are in `bezier/smoothing.rs`. The solve is linear in the keys.
//!
//! `tests/reference/blender_bezier` holds Blender 3.4.1's own handles and `fcurve.evaluate`
//! samples for 39 cases without smoothing, `tests/reference/blender_auto_smoothing` 118 curves
//! in both modes with Cycles modifiers; `tests/bezier_reference.rs` and
//! `tests/bezier_smoothing_reference.rs` check these rules against them.
//!
//! # Segments
//! From key `i` to `i+1`: `P0 = (t0, v0)`, `P1 = P0 + right_i`, `P2 = P3 + left_{i+1}`,
//! `P3 = (t1, v1)`. A handle whose time extent exceeds the segment is shortened toward its
//! key, keeping its direction, to reach the other key's time (Blender's
//! `BKE_fcurve_correct_bezpart`, applied at evaluation only). Then, with local time
//! `u = (t − t0)/(t1 − t0)` and the handle times as fractions `a1, a2 ∈ [0, 1]`,
//! `x̂(s) = 3a1·s(1−s)² + 3a2·s²(1−s) + s³` is non-decreasing (its derivative is a
//! quadratic in `s` that is non-negative at every corner of `[0,1]²` of `(a1, a2)`), so
//! `x̂(s) = u` has one solution; the value is `y(s)`. [`TimeSolver`] (in `bezier/solve.rs`)
//! finds it within a few ulps: a guess built at compile time and a fixed number of Halley
//! steps, falling back to the safeguarded Newton of [`SegmentComponent::parameter_at`].
//! Between two automatic handles (`a1 = 1/2.5614`, `a2 = 1 − a1`) it reads a table instead
//! (`bezier/auto_inverse.rs`); a handle fraction within the rounding of the key times of
//! `1/2.5614` (or `1 − 1/2.5614`) is taken as exactly that, so that those segments share it.
//!
//! Free and Aligned handles may be vertical (no extent in time) or reach across their
//! segment; there `x̂′(s) = 0` and the slope in time is infinite. Values stay exact and finite;
//! arc length and adaptive baking keep their error bounds only where the speed is finite,
//! which automatic handles (strictly inside their segment in time) always give.

use crate::model::{AutoSmoothing, HandleType};

mod auto_inverse;
mod smoothing;
mod solve;
pub use solve::{SolvePath, TimeSolver, MAX_STEPS, MIN_FAST_SLOPE, RESIDUAL_BOUND};

/// A handle as `(dt, dv)` from its key.
pub type Offset = (f64, f64);

/// Auto handles reach `1/AUTO_DIVISOR` of the neighbouring interval in time.
pub const AUTO_DIVISOR: f64 = 2.5614;

/// The fraction of its interval an unclamped automatic handle reaches in time.
pub const AUTO_FRACTION: f64 = 1.0 / AUTO_DIVISOR;

/// Auto handles clamp the two neighbour distances to at most this ratio.
pub const AUTO_RATIO_LIMIT: f64 = 5.0;

/// One component of one key, as the handle rules read it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandleInput {
    pub time: f64,
    pub value: f64,
    pub types: (HandleType, HandleType),
    /// Stored `(dt, dv)` handles, where present.
    pub left: Option<Offset>,
    pub right: Option<Offset>,
}

/// What lies beyond a component's first and last keys, as the handle rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ends {
    /// No cycle. `held_before` / `held_after`: the curve is constant beyond its first / last
    /// key (then an end key with both sides automatic gets flat handles and ends a smoothing
    /// run); otherwise it is extrapolated along the end handle.
    Open { held_before: bool, held_after: bool },
    /// The keyed range repeats (Blender's Cycles modifier, Repeat or Repeat with Offset on
    /// both sides; Tangent's `Cycle` or `CycleOffset` infinity on both sides, in any mix).
    /// The first and last keys see their neighbours across the seam, shifted by
    /// `(last − first)` in time *and value* whichever the cycle mode: Blender computes the
    /// same handles for Repeat and Repeat with Offset. Unless both end keys are automatic on
    /// both sides, Blender ignores the cycle for handles and so does this: the ends are then
    /// held, as Tangent's cycling infinities are never `Linear`.
    Cycle,
}

impl Ends {
    /// The ends of a track with these infinity modes. An end is held unless it is `Linear`,
    /// or it repeats (`Cycle`, `CycleOffset`, `PingPong`) while the other end is `Linear`:
    /// Blender has one extrapolation per F-curve, which its handles follow at both ends, and
    /// a Cycles modifier on one side hides it there; the other side shows what it is.
    #[must_use]
    pub fn of(pre: crate::model::Infinity, post: crate::model::Infinity) -> Self {
        use crate::model::Infinity::{Cycle, CycleOffset, Linear, PingPong};
        let repeats = |i| matches!(i, Cycle | CycleOffset | PingPong);
        if matches!(pre, Cycle | CycleOffset) && matches!(post, Cycle | CycleOffset) {
            Ends::Cycle
        } else {
            let held = |side, other| !(side == Linear || (repeats(side) && other == Linear));
            Ends::Open { held_before: held(pre, post), held_after: held(post, pre) }
        }
    }
}

/// Where the handles of every key of one component are, as `(left, right)` offsets: Blender
/// 3.4's `BKE_fcurve_handles_recalc_ex` (the per-key rules of the module docs, then, with
/// [`AutoSmoothing::ContinuousAcceleration`], the runs of free automatic keys solved
/// together, `bezier/smoothing.rs`). With fewer than two keys nothing is computed: stored handles
/// stay, missing ones are flat and one unit long (Blender's insert).
#[must_use]
pub fn resolve_handles(keys: &[HandleInput], ends: Ends, smoothing: AutoSmoothing) -> Vec<(Offset, Offset)> {
    let n = keys.len();
    let mut handles: Vec<(Point, Point)> = keys.iter().map(stored_absolute).collect();
    if n >= 2 {
        let full_auto = |k: &HandleInput| is_auto(k.types.0) && is_auto(k.types.1);
        // Blender: `BKE_fcurve_is_cyclic(fcu) && BEZT_IS_AUTOH(first) && BEZT_IS_AUTOH(last)`.
        let cycle = ends == Ends::Cycle && full_auto(&keys[0]) && full_auto(&keys[n - 1]);
        let (held_before, held_after) = match ends {
            Ends::Open { held_before, held_after } => (held_before, held_after),
            Ends::Cycle => (true, true),
        };
        let thirds = smoothing == AutoSmoothing::ContinuousAcceleration;
        let mut locked = vec![false; n];
        for (i, k) in keys.iter().enumerate() {
            let (prev, next) = neighbours(keys, i, cycle);
            let flat_end = !cycle && ((i == 0 && held_before) || (i == n - 1 && held_after));
            let (h, extreme) = handles_of(k, handles[i], prev, next, flat_end, thirds);
            handles[i] = h;
            locked[i] |= extreme || (flat_end && full_auto(k));
            // Duplicate times lock both keys ("avoid total smoothing failure on duplicate
            // keyframes"); across the seam, the first key when the last two share a time.
            if (i > 0 && keys[i - 1].time >= k.time) || (i == 0 && cycle && keys[n - 2].time >= keys[n - 1].time) {
                locked[i] = true;
                if i > 0 {
                    locked[i - 1] = true;
                }
            }
        }
        if cycle && (locked[0] || locked[n - 1]) {
            // "If cyclic extrapolation and Auto Clamp has triggered, ensure it is symmetric."
            for i in [0, n - 1] {
                handles[i].0 .1 = keys[i].value;
                handles[i].1 .1 = keys[i].value;
                locked[i] = true;
            }
        }
        if thirds {
            smoothing::smooth(keys, &mut handles, &locked, cycle);
        }
    }
    keys.iter().zip(handles).map(|(k, h)| to_offsets(k, h)).collect()
}

/// The neighbours key `i`'s rules read: the keys beside it, and across the seam of a cycle
/// the key before the last (for the first key) or after the first (for the last key),
/// shifted by one period `(t_last − t_first, v_last − v_first)` (Blender's
/// `cycle_offset_triple`).
fn neighbours(keys: &[HandleInput], i: usize, cycle: bool) -> (Option<Point>, Option<Point>) {
    let n = keys.len();
    let at = |j: usize| (keys[j].time, keys[j].value);
    let period = sub(at(n - 1), at(0));
    let prev = if i > 0 { Some(at(i - 1)) } else { cycle.then(|| sub(at(n - 2), period)) };
    let next = if i + 1 < n { Some(at(i + 1)) } else { cycle.then(|| add(at(1), period)) };
    (prev, next)
}

type Point = (f64, f64);

fn add(a: Point, b: Point) -> Point {
    (a.0 + b.0, a.1 + b.1)
}
fn sub(a: Point, b: Point) -> Point {
    (a.0 - b.0, a.1 - b.1)
}
fn scale(a: Point, f: f64) -> Point {
    (a.0 * f, a.1 * f)
}

/// Stored handles as absolute points, each moved to its own side of the key in time.
fn stored_absolute(k: &HandleInput) -> (Point, Point) {
    let left = k.left.map_or((k.time - 1.0, k.value), |(dt, dv)| (k.time + dt.min(0.0), k.value + dv));
    let right = k.right.map_or((k.time + 1.0, k.value), |(dt, dv)| (k.time + dt.max(0.0), k.value + dv));
    (left, right)
}

fn to_offsets(k: &HandleInput, (l, r): (Point, Point)) -> (Offset, Offset) {
    (sub(l, (k.time, k.value)), sub(r, (k.time, k.value)))
}

fn is_auto(h: HandleType) -> bool {
    matches!(h, HandleType::Auto | HandleType::AutoClamped)
}

/// Blender's rules for one key with at least one neighbour (`calchandleNurb_intern`, and
/// the end flattening of `BKE_fcurve_handles_recalc_ex`). `thirds`: automatic handles reach
/// a third of their interval in time and lengths are not clamped to 5:1 (Blender with auto
/// smoothing). Also says whether an AutoClamped side found the key an extreme (Blender's
/// `HD_AUTOTYPE_LOCKED_FINAL`: its handles are final and it ends a smoothing run).
fn handles_of(
    k: &HandleInput,
    (mut hl, mut hr): (Point, Point),
    prev: Option<Point>,
    next: Option<Point>,
    flat_end: bool,
    thirds: bool,
) -> ((Point, Point), bool) {
    let key = (k.time, k.value);
    let p1 = prev.unwrap_or_else(|| sub(scale(key, 2.0), next.expect("a neighbour")));
    let p3 = next.unwrap_or_else(|| sub(scale(key, 2.0), p1));
    let (da, db) = (sub(key, p1), sub(p3, key));
    let len_a = if da.0 == 0.0 { 1.0 } else { da.0 };
    let len_b = if db.0 == 0.0 { 1.0 } else { db.0 };
    let (lt, rt) = k.types;
    let mut extreme = false;
    if is_auto(lt) || is_auto(rt) {
        let interior = prev.zip(next);
        ((hl, hr), extreme) = auto_handles(key, (hl, hr), (lt, rt), (da, db), (len_a, len_b), interior, thirds);
    }
    if lt == HandleType::Vector {
        hl = sub(key, scale(da, 1.0 / 3.0));
    }
    if rt == HandleType::Vector {
        hr = add(key, scale(db, 1.0 / 3.0));
    }
    if lt != HandleType::Free && rt != HandleType::Free && (lt == HandleType::Aligned || rt == HandleType::Aligned) {
        (hl, hr) = align(key, hl, hr, lt, rt);
    }
    if flat_end && is_auto(lt) && is_auto(rt) {
        hl.1 = key.1;
        hr.1 = key.1;
    }
    ((hl, hr), extreme)
}

/// Auto and AutoClamped sides (the others are returned as given), and whether an
/// AutoClamped side found the key an extreme.
fn auto_handles(
    key: Point,
    (mut hl, mut hr): (Point, Point),
    (lt, rt): (HandleType, HandleType),
    (da, db): (Point, Point),
    (mut len_a, mut len_b): (f64, f64),
    interior: Option<(Point, Point)>,
    thirds: bool,
) -> ((Point, Point), bool) {
    let tvec = add(per_unit(db, len_b), per_unit(da, len_a));
    // Smoothing: `len = 6`, so a handle is `tvec·lenA/6`, a third of the interval in time
    // (`tvec.t = 2`): the time of every segment between automatic keys is linear in `s`.
    let len = if thirds { 6.0 } else { tvec.0 * AUTO_DIVISOR };
    if len == 0.0 {
        return ((hl, hr), false);
    }
    if !thirds {
        len_a = len_a.min(AUTO_RATIO_LIMIT * len_b);
        len_b = len_b.min(AUTO_RATIO_LIMIT * len_a);
    }
    let (mut left_cut, mut right_cut, mut locked) = (false, false, false);
    // (previous − key, next − key) in value, for AutoClamped on interior keys.
    let rel = interior.map(|(p, n)| (p.1 - key.1, n.1 - key.1));
    let extreme = rel.is_some_and(|(a, b)| (a <= 0.0 && b <= 0.0) || (a >= 0.0 && b >= 0.0));
    if is_auto(lt) {
        hl = sub(key, scale(tvec, len_a / len));
        if let (HandleType::AutoClamped, Some((a, _)), Some((p, _))) = (lt, rel, interior) {
            if extreme {
                hl.1 = key.1;
                locked = true;
            } else if (a <= 0.0 && p.1 > hl.1) || (a > 0.0 && p.1 < hl.1) {
                hl.1 = p.1;
                left_cut = true;
            }
        }
    }
    if is_auto(rt) {
        hr = add(key, scale(tvec, len_b / len));
        if let (HandleType::AutoClamped, Some((a, _)), Some((_, n))) = (rt, rel, interior) {
            if extreme {
                hr.1 = key.1;
                locked = true;
            } else if (a <= 0.0 && n.1 < hr.1) || (a > 0.0 && n.1 > hr.1) {
                hr.1 = n.1;
                right_cut = true;
            }
        }
    }
    if left_cut || right_cut {
        // Keep the two sides collinear through the key after the cut.
        // (A cut side without extent in time, rounded away, would make it ±∞ or 0·∞: then
        // the other side stays as it is.)
        let (h1x, h2x) = (hl.0 - key.0, key.0 - hr.0);
        if left_cut {
            let v = key.1 + ((key.1 - hl.1) / h1x) * h2x;
            hr.1 = if v.is_finite() { v } else { hr.1 };
        } else {
            let v = key.1 + ((key.1 - hr.1) / h2x) * h1x;
            hl.1 = if v.is_finite() { v } else { hl.1 };
        }
    }
    ((hl, hr), locked)
}

/// Aligned sides: turned opposite the other handle, keeping their own length (left leads).
fn align(key: Point, mut hl: Point, mut hr: Point, lt: HandleType, rt: HandleType) -> (Point, Point) {
    let la = length(sub(key, hl));
    let lb = length(sub(key, hr));
    let la = if la == 0.0 { 1.0 } else { la };
    let lb = if lb == 0.0 { 1.0 } else { lb };
    let ratio = la / lb;
    let eps = 1e-5;
    if rt == HandleType::Aligned && la > eps {
        hr = add(key, scale_keeping_zeros(sub(key, hl), 1.0 / ratio));
    }
    if lt == HandleType::Aligned && lb > eps {
        hl = add(key, scale_keeping_zeros(sub(key, hr), ratio));
    }
    (hl, hr)
}

/// `p/len`, as `p·(1/len)`, or divided where `1/len` overflows (a subnormal interval).
fn per_unit(p: Point, len: f64) -> Point {
    let inv = 1.0 / len;
    if inv.is_finite() {
        scale(p, inv)
    } else {
        (p.0 / len, p.1 / len)
    }
}

/// `|p|`, as `√(t² + v²)`, or `hypot` where the squares overflow.
fn length(p: Point) -> f64 {
    let l = (p.0 * p.0 + p.1 * p.1).sqrt();
    if l.is_finite() {
        l
    } else {
        p.0.hypot(p.1)
    }
}

/// `p·f`, a zero component staying zero when `f` is infinite (no `0·∞ = NaN`).
fn scale_keeping_zeros(p: Point, f: f64) -> Point {
    let times = |x: f64| if x == 0.0 { x } else { x * f };
    (times(p.0), times(p.1))
}

/// A segment's right handle (of its start key) and left handle (of its end key) after
/// Blender's correction for a segment `len` long: a handle longer in time than the segment is
/// shortened toward its key, direction kept, to reach the other key's time.
#[must_use]
pub fn corrected(len: f64, right: Offset, left: Offset) -> (Offset, Offset) {
    let (mut r, mut l) = (right, left);
    let (l1, l2) = (r.0.abs(), l.0.abs());
    if l1 > len {
        r = scale(r, len / l1);
    }
    if l2 > len {
        l = scale(l, len / l2);
    }
    (r, l)
}

/// One component of one Bézier segment in local time: `x̂(s) = ((x3 s + x2) s + x1) s` maps
/// the curve parameter to local time `u ∈ [0, 1]`, `y(s) = ((y3 s + y2) s + y1) s + y0` is
/// the value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SegmentComponent {
    pub x: [f64; 3],
    pub y: [f64; 4],
}

impl SegmentComponent {
    /// The segment from `(t0, v0)` with right handle `right` to `(t1, v1)` with left handle
    /// `left` (offsets from their keys; `t1 > t0`), after Blender's overlap correction.
    #[must_use]
    pub fn new((t0, v0): Point, right: Offset, left: Offset, (t1, v1): Point) -> Self {
        let len = t1 - t0;
        let (r, l) = corrected(len, right, left);
        let slack = auto_inverse::snap_slack(t0, t1);
        let a1 = auto_inverse::snapped((r.0 / len).clamp(0.0, 1.0), AUTO_FRACTION, slack);
        let a2 = auto_inverse::snapped((1.0 + l.0 / len).clamp(0.0, 1.0), 1.0 - AUTO_FRACTION, slack);
        let (p1, p2) = (v0 + r.1, v1 + l.1);
        Self { x: [3.0 * a1, 3.0 * a2 - 6.0 * a1, 1.0 + 3.0 * a1 - 3.0 * a2], y: [v0, 3.0 * (p1 - v0), 3.0 * (v0 - 2.0 * p1 + p2), v1 - v0 + 3.0 * (p1 - p2)] }
    }

    /// `x̂(s)`.
    #[inline]
    #[must_use]
    pub fn time(&self, s: f64) -> f64 {
        ((self.x[2] * s + self.x[1]) * s + self.x[0]) * s
    }

    /// `dx̂/ds` and `d²x̂/ds²`.
    #[inline]
    #[must_use]
    pub fn time_derivatives(&self, s: f64) -> (f64, f64) {
        ((3.0 * self.x[2] * s + 2.0 * self.x[1]) * s + self.x[0], 6.0 * self.x[2] * s + 2.0 * self.x[1])
    }

    /// `y(s)`.
    #[inline]
    #[must_use]
    pub fn value(&self, s: f64) -> f64 {
        ((self.y[3] * s + self.y[2]) * s + self.y[1]) * s + self.y[0]
    }

    /// `dy/ds` and `d²y/ds²`.
    #[inline]
    #[must_use]
    pub fn value_derivatives(&self, s: f64) -> (f64, f64) {
        ((3.0 * self.y[3] * s + 2.0 * self.y[2]) * s + self.y[1], 6.0 * self.y[3] * s + 2.0 * self.y[2])
    }

    /// The `s ∈ [0, 1]` with `x̂(s) = u`: Newton from `s = u` (exact when the handles sit at
    /// thirds), kept inside a bracket that bisection shrinks when a step would leave it.
    /// Stops when `x̂(s) = u` exactly or the step no longer changes `s`. This safeguarded
    /// solver serves any handles; evaluation goes through [`TimeSolver`], which is faster and
    /// falls back to it.
    #[inline]
    #[must_use]
    pub fn parameter_at(&self, u: f64) -> f64 {
        if !(u > 0.0) {
            return 0.0;
        }
        if u >= 1.0 {
            return 1.0;
        }
        let (mut lo, mut hi, mut s) = (0.0, 1.0, u);
        for _ in 0..100 {
            let f = self.time(s) - u;
            if f == 0.0 {
                break;
            }
            if f < 0.0 {
                lo = s;
            } else {
                hi = s;
            }
            let d = self.time_derivatives(s).0;
            let mut next = s - f / d;
            if !(next > lo && next < hi) {
                next = 0.5 * (lo + hi);
            }
            if next == s || hi - lo <= f64::EPSILON * 0.5 {
                s = next;
                break;
            }
            s = next;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use HandleType::{Aligned, Auto, AutoClamped, Free, Vector};

    const HELD: Ends = Ends::Open { held_before: true, held_after: true };

    fn key(time: f64, value: f64, types: (HandleType, HandleType)) -> HandleInput {
        HandleInput { time, value, types, left: None, right: None }
    }

    fn close(a: Offset, b: Offset) -> bool {
        (a.0 - b.0).abs() < 1e-12 && (a.1 - b.1).abs() < 1e-12
    }

    /// Key (0.5, 1) between (0, 0) and (2, 2): secant slopes 2 and 2/3, m = 4/3; lengths 0.5
    /// and 1.5 (ratio 3, unclamped): left = −(0.5/2.5614)·(1, 4/3), right = (1.5/2.5614)·(1, 4/3).
    #[test]
    fn auto_handle_hand_values() {
        let keys = [key(0.0, 0.0, (Auto, Auto)), key(0.5, 1.0, (Auto, Auto)), key(2.0, 2.0, (Auto, Auto))];
        let h = resolve_handles(&keys, HELD, AutoSmoothing::None);
        let (l, r) = (0.5 / 2.5614, 1.5 / 2.5614);
        assert!(close(h[1].0, (-l, -l * 4.0 / 3.0)), "{:?}", h[1]);
        assert!(close(h[1].1, (r, r * 4.0 / 3.0)), "{:?}", h[1]);
        // Ends held: both automatic sides flat, times from the mirrored neighbour.
        assert!(close(h[0].1, (0.5 / 2.5614, 0.0)) && close(h[2].0, (-1.5 / 2.5614, 0.0)), "{h:?}");
    }

    /// Lengths 0.1 and 1.0: the longer is clamped to 5 × 0.1 = 0.5 (slope unchanged).
    #[test]
    fn auto_lengths_are_clamped_to_five_to_one() {
        let keys = [key(0.0, 0.0, (Auto, Auto)), key(0.1, 1.0, (Auto, Auto)), key(1.1, 2.0, (Auto, Auto))];
        let h = resolve_handles(&keys, HELD, AutoSmoothing::None);
        let m = (10.0 + 1.0) / 2.0;
        assert!(close(h[1].1, (0.5 / 2.5614, 0.5 / 2.5614 * m)), "{:?}", h[1]);
    }

    /// (0,0), (1,3), (2,1): key 1 is a maximum, so AutoClamped is flat; Auto is not.
    #[test]
    fn auto_clamped_is_flat_at_extremes() {
        let k = |t| [key(0.0, 0.0, (t, t)), key(1.0, 3.0, (t, t)), key(2.0, 1.0, (t, t))];
        assert_eq!(resolve_handles(&k(AutoClamped), HELD, AutoSmoothing::None)[1].1 .1, 0.0);
        assert!(resolve_handles(&k(Auto), HELD, AutoSmoothing::None)[1].1 .1 != 0.0);
    }

    /// Vector handles point a third of the way to the neighbour: (0,0) → (3,6) gives (1, 2).
    #[test]
    fn vector_handles_point_at_neighbours() {
        let keys = [key(0.0, 0.0, (Vector, Vector)), key(3.0, 6.0, (Vector, Vector))];
        let h = resolve_handles(&keys, HELD, AutoSmoothing::None);
        assert!(close(h[0].1, (1.0, 2.0)) && close(h[1].0, (-1.0, -2.0)), "{h:?}");
    }

    /// Aligned: the right handle (1, −0.5), length √1.25, is turned opposite the left
    /// (−0.25, −0.5), length √0.3125, keeping its own length: (0.25, 0.5)·√1.25/√0.3125 =
    /// (0.5, 1).
    #[test]
    fn aligned_right_follows_left_keeping_its_length() {
        let mut k = key(1.0, 2.0, (Aligned, Aligned));
        k.left = Some((-0.25, -0.5));
        k.right = Some((1.0, -0.5));
        let mut free = key(2.0, 0.0, (Free, Free));
        free.left = Some((-0.1, 0.0));
        free.right = Some((0.1, 0.0));
        let h = resolve_handles(&[key(0.0, 0.0, (Vector, Vector)), k, free], HELD, AutoSmoothing::None);
        assert!(close(h[1].1, (0.5, 1.0)), "{:?}", h[1]);
        assert!(close(h[1].0, (-0.25, -0.5)));
    }

    /// Handles at thirds make x̂(s) = s exactly: the parameter is the local time.
    #[test]
    fn thirds_make_time_linear() {
        let seg = SegmentComponent::new((2.0, 1.0), (1.0, 0.5), (-1.0, 0.0), (5.0, 4.0));
        for u in [0.0, 0.1, 0.37, 0.5, 0.99, 1.0] {
            assert!((seg.parameter_at(u) - u).abs() < 1e-15, "{u}");
        }
        // y(s) is then the Hermite cubic with end slopes 3·0.5 and 0 per unit s: at s = ½,
        // (1 + 4)/2 + (1.5 − 0)/8 = 2.6875.
        assert!((seg.value(0.5) - 2.6875).abs() < 1e-15);
    }

    /// A right handle 3 long on a 1-long segment is shortened to reach t1, direction kept:
    /// (3, 6) → (1, 2); a vertical handle (0, 1) gives x̂′(0) = 0 but a finite solve.
    #[test]
    fn long_handles_are_shortened_and_vertical_ones_solve() {
        let seg = SegmentComponent::new((0.0, 0.0), (3.0, 6.0), (0.0, 0.0), (1.0, 1.0));
        let want = SegmentComponent::new((0.0, 0.0), (1.0, 2.0), (0.0, 0.0), (1.0, 1.0));
        assert_eq!(seg, want);
        let vertical = SegmentComponent::new((0.0, 0.0), (0.0, 1.0), (-0.3, 0.0), (1.0, 1.0));
        for u in [1e-300, 1e-12, 0.2, 0.999_999] {
            let s = vertical.parameter_at(u);
            assert!((vertical.time(s) - u).abs() <= 1e-15 && (0.0..=1.0).contains(&s), "{u}: {s}");
        }
    }
}
