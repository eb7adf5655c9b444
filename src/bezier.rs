//! Bézier keys (SPEC §10): where Blender 3.4 puts a key's handles, and the cubic Bézier
//! segment between two keys evaluated at a time.
//!
//! # Handles (Blender's `calchandleNurb_intern`, F-curve smoothing "None")
//! Per key and component, with the neighbouring keys `prev`, `next` (a missing one mirrored
//! through the key: `prev = 2·key − next`), `dA = key − prev`, `dB = next − key`, and
//! `lenA = dA.t`, `lenB = dB.t` (0 taken as 1):
//!
//! - **Auto**: slope `m = (sA + sB)/2`, the plain mean of the secant slopes to the
//!   neighbours; after clamping the lengths to a 5:1 ratio, `left = key − (lenA/2.5614)·(1, m)`,
//!   `right = key + (lenB/2.5614)·(1, m)`. (So an Auto handle reaches 1/2.5614 ≈ 0.39 of the
//!   neighbouring interval, not a third: that is Blender's "Continuous Acceleration"
//!   smoothing, a global solve.)
//! - **AutoClamped**: as Auto, then for interior keys: flat where the key is an extreme or
//!   equals a neighbour; otherwise a handle whose value passes its neighbour's is cut back
//!   to it and the other side follows to stay collinear.
//! - **Vector**: `left = key − dA/3`, `right = key + dB/3`.
//! - **Aligned** (unless either side is Free): the right handle is turned opposite the left
//!   one keeping its length, then the left opposite the right (Blender with the left handle
//!   selected); an automatic side is computed first and the Aligned side follows it.
//! - **End keys**: with both sides automatic and the curve held beyond that end, both
//!   handles are flat.
//! - A stored handle on the wrong side of its key has its time moved to the key's.
//!
//! `tests/reference/blender_bezier` holds Blender 3.4.1's own handles and `fcurve.evaluate`
//! samples for 39 cases; `tests/bezier_reference.rs` checks these rules against them.
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

use crate::model::HandleType;

mod auto_inverse;
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

/// Where the handles of every key of one component are, as `(left, right)` offsets.
/// `held_before` / `held_after`: the curve is constant beyond its first / last key (then
/// end keys with both sides automatic get flat handles). With fewer than two keys nothing is
/// computed: stored handles stay, missing ones are flat and one unit long (Blender's insert).
#[must_use]
pub fn resolve_handles(keys: &[HandleInput], held_before: bool, held_after: bool) -> Vec<(Offset, Offset)> {
    let n = keys.len();
    keys.iter()
        .enumerate()
        .map(|(i, k)| {
            let stored = stored_absolute(k);
            if n < 2 {
                return to_offsets(k, stored);
            }
            let prev = (i > 0).then(|| (keys[i - 1].time, keys[i - 1].value));
            let next = (i + 1 < n).then(|| (keys[i + 1].time, keys[i + 1].value));
            let flat_end = (i == 0 && held_before) || (i == n - 1 && held_after);
            to_offsets(k, handles_of(k, stored, prev, next, flat_end))
        })
        .collect()
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

/// Blender's rules for one key with at least one neighbour.
fn handles_of(k: &HandleInput, (mut hl, mut hr): (Point, Point), prev: Option<Point>, next: Option<Point>, flat_end: bool) -> (Point, Point) {
    let key = (k.time, k.value);
    let p1 = prev.unwrap_or_else(|| sub(scale(key, 2.0), next.expect("a neighbour")));
    let p3 = next.unwrap_or_else(|| sub(scale(key, 2.0), p1));
    let (da, db) = (sub(key, p1), sub(p3, key));
    let len_a = if da.0 == 0.0 { 1.0 } else { da.0 };
    let len_b = if db.0 == 0.0 { 1.0 } else { db.0 };
    let (lt, rt) = k.types;
    if is_auto(lt) || is_auto(rt) {
        let interior = prev.zip(next);
        (hl, hr) = auto_handles(key, (hl, hr), (lt, rt), (da, db), (len_a, len_b), interior);
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
    (hl, hr)
}

/// Auto and AutoClamped sides (the others are returned as given).
fn auto_handles(
    key: Point,
    (mut hl, mut hr): (Point, Point),
    (lt, rt): (HandleType, HandleType),
    (da, db): (Point, Point),
    (mut len_a, mut len_b): (f64, f64),
    interior: Option<(Point, Point)>,
) -> (Point, Point) {
    let tvec = add(scale(db, 1.0 / len_b), scale(da, 1.0 / len_a));
    let len = tvec.0 * AUTO_DIVISOR;
    if len == 0.0 {
        return (hl, hr);
    }
    len_a = len_a.min(AUTO_RATIO_LIMIT * len_b);
    len_b = len_b.min(AUTO_RATIO_LIMIT * len_a);
    let (mut left_cut, mut right_cut) = (false, false);
    // (previous − key, next − key) in value, for AutoClamped on interior keys.
    let rel = interior.map(|(p, n)| (p.1 - key.1, n.1 - key.1));
    let extreme = rel.is_some_and(|(a, b)| (a <= 0.0 && b <= 0.0) || (a >= 0.0 && b >= 0.0));
    if is_auto(lt) {
        hl = sub(key, scale(tvec, len_a / len));
        if let (HandleType::AutoClamped, Some((a, _)), Some((p, _))) = (lt, rel, interior) {
            if extreme {
                hl.1 = key.1;
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
            } else if (a <= 0.0 && n.1 < hr.1) || (a > 0.0 && n.1 > hr.1) {
                hr.1 = n.1;
                right_cut = true;
            }
        }
    }
    if left_cut || right_cut {
        // Keep the two sides collinear through the key after the cut.
        let (h1x, h2x) = (hl.0 - key.0, key.0 - hr.0);
        if left_cut {
            hr.1 = key.1 + ((key.1 - hl.1) / h1x) * h2x;
        } else {
            hl.1 = key.1 + ((key.1 - hr.1) / h2x) * h1x;
        }
    }
    (hl, hr)
}

/// Aligned sides: turned opposite the other handle, keeping their own length (left leads).
fn align(key: Point, mut hl: Point, mut hr: Point, lt: HandleType, rt: HandleType) -> (Point, Point) {
    let norm = |p: Point| (p.0 * p.0 + p.1 * p.1).sqrt();
    let la = norm(sub(key, hl));
    let lb = norm(sub(key, hr));
    let la = if la == 0.0 { 1.0 } else { la };
    let lb = if lb == 0.0 { 1.0 } else { lb };
    let ratio = la / lb;
    let eps = 1e-5;
    if rt == HandleType::Aligned && la > eps {
        hr = add(key, scale(sub(key, hl), 1.0 / ratio));
    }
    if lt == HandleType::Aligned && lb > eps {
        hl = add(key, scale(sub(key, hr), ratio));
    }
    (hl, hr)
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
        let h = resolve_handles(&keys, true, true);
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
        let h = resolve_handles(&keys, true, true);
        let m = (10.0 + 1.0) / 2.0;
        assert!(close(h[1].1, (0.5 / 2.5614, 0.5 / 2.5614 * m)), "{:?}", h[1]);
    }

    /// (0,0), (1,3), (2,1): key 1 is a maximum, so AutoClamped is flat; Auto is not.
    #[test]
    fn auto_clamped_is_flat_at_extremes() {
        let k = |t| [key(0.0, 0.0, (t, t)), key(1.0, 3.0, (t, t)), key(2.0, 1.0, (t, t))];
        assert_eq!(resolve_handles(&k(AutoClamped), true, true)[1].1 .1, 0.0);
        assert!(resolve_handles(&k(Auto), true, true)[1].1 .1 != 0.0);
    }

    /// Vector handles point a third of the way to the neighbour: (0,0) → (3,6) gives (1, 2).
    #[test]
    fn vector_handles_point_at_neighbours() {
        let keys = [key(0.0, 0.0, (Vector, Vector)), key(3.0, 6.0, (Vector, Vector))];
        let h = resolve_handles(&keys, true, true);
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
        let h = resolve_handles(&[key(0.0, 0.0, (Vector, Vector)), k, free], true, true);
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
