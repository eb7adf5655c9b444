//! The time solve of the segments Blender's automatic handles make, without iterating.
//!
//! An Auto or AutoClamped handle reaches `1/2.5614` of its interval in time (unless the 5:1
//! length clamp or AutoClamped's cut-back shortens it), so every segment between two such
//! handles has the same time cubic, `x̂(s) = 3a·s(1−s)² + 3(1−a)·s²(1−s) + s³` with
//! `a = 1/2.5614`. Its inverse `s(u)` is one fixed function, tabulated once in pieces of
//! width `1/128` centred on `u = k/128` (`k = 0 … 128`; the first and last are half used). On
//! each piece `s(u)` is the polynomial of degree [`POINTS`]` − 1` through the inverse at the
//! piece's Chebyshev points (first kind), in the variable `w = 128u − k ∈ [−½, ½]`, evaluated
//! as `c₀ + w·q(w)` with `q` by Estrin's scheme. Its interpolation error is below 8e-17
//! (mpmath at 40 digits: 128 pieces of degree 5 give 7.9e-17, 64 pieces 5.1e-15, 32 pieces of
//! degree 7 4.0e-17), under the rounding of `s` itself. The piece is found by rounding `128u`
//! to the nearest integer with the `2⁵²` trick (an addition and a subtraction, no
//! conversion), which also gives `w`.
//!
//! So one lookup replaces the guess, the Halley step and the residual check of
//! [`super::TimeSolver`]'s general path: `|s − s*| ≤ 8e-17 + ` the rounding of the last
//! addition (`½` ulp of `s`) and of `w·q` (`q ≤ 0.02`, so `≤ 1e-18`), so `x̂(s) − u` is at
//! most `x̂′ ≤ 1.2` times that, about 2e-16, plus the rounding of `x̂` (three operations,
//! `≤ 1.5` ulps of 1): within [`RESIDUAL_BOUND`](super::RESIDUAL_BOUND) (4 ulps of 1).
//! `residual_within_bound_everywhere` measures 3.3e-16 over a million points and every
//! piece's ends.
//!
//! A segment takes this path when its time cubic is exactly the automatic one. The handle
//! rules compute a handle's time from absolute key times, so an automatic handle's fraction
//! of its interval is `1/2.5614` only to within the rounding of those times:
//! [`SegmentComponent::new`] takes a fraction within [`snap_slack`] of `1/2.5614` (or of
//! `1 − 1/2.5614`) as exactly that. This moves the curve in time by at most that slack times
//! `Δt` (about 1e-13 s for keys at 1,000 s), which is what the rounding of the handle's time
//! already allows.

use super::{SegmentComponent, AUTO_FRACTION};
use std::sync::LazyLock;

/// Pieces per unit of `u` (there are one more: the ends are half pieces).
pub const PIECES: usize = 128;

/// Interpolation points per piece (the polynomial's degree is one less).
pub const POINTS: usize = 6;

/// `2⁵²`: adding it to a number in `[0, 2⁵¹)` rounds that number to an integer, which the
/// sum's low mantissa bits then hold.
const ROUNDER: f64 = 4_503_599_627_370_496.0;

/// The rounding, in ulps of the larger key time, within which a handle's fraction of its
/// interval is taken as the automatic one.
pub const SNAP_ULPS: f64 = 16.0;

/// How far a handle's fraction of the interval `[t0, t1]` may be from the automatic one and
/// still be taken as it: [`SNAP_ULPS`] ulps of the key times, relative to `t1 − t0`, and of 1.
#[must_use]
pub fn snap_slack(t0: f64, t1: f64) -> f64 {
    SNAP_ULPS * f64::EPSILON * (1.0 + t0.abs().max(t1.abs()) / (t1 - t0))
}

/// `target` if `fraction` is within `slack` of it, else `fraction`.
#[must_use]
pub fn snapped(fraction: f64, target: f64, slack: f64) -> f64 {
    if (fraction - target).abs() <= slack {
        target
    } else {
        fraction
    }
}

/// The time cubic of a segment between two automatic handles, `[x₁, x₂, x₃]` of
/// `x̂(s) = ((x₃ s + x₂) s + x₁) s`, as [`SegmentComponent::new`] builds it.
#[must_use]
pub fn auto_time_cubic() -> [f64; 3] {
    SegmentComponent::new((0.0, 0.0), (AUTO_FRACTION, 0.0), (-AUTO_FRACTION, 0.0), (1.0, 0.0)).x
}

/// Whether the time cubic `x` is the automatic one.
#[must_use]
pub fn is_auto(x: &[f64; 3]) -> bool {
    *x == AUTO_INVERSE.x
}

/// `s(u)` for [`auto_time_cubic`], per piece in power basis of `w`.
#[derive(Debug)]
pub struct AutoInverse {
    x: [f64; 3],
    pieces: [[f64; POINTS]; PIECES + 1],
}

/// Built on first use (a few microseconds: 774 short Newton solves).
pub static AUTO_INVERSE: LazyLock<AutoInverse> = LazyLock::new(AutoInverse::new);

impl AutoInverse {
    fn new() -> Self {
        let k = SegmentComponent { x: auto_time_cubic(), y: [0.0; 4] };
        let w: [f64; POINTS] = std::array::from_fn(|j| 0.5 * (std::f64::consts::PI * (2 * j + 1) as f64 / (2 * POINTS) as f64).cos());
        let pieces = std::array::from_fn(|piece| {
            let s = w.map(|w| root(&k, (piece as f64 + w) / PIECES as f64));
            interpolate(&w, &s)
        });
        Self { x: k.x, pieces }
    }

    /// `s` with `x̂(s) = u` for `u ∈ (0, 1)`, to the accuracy the module docs give.
    #[inline(always)]
    #[must_use]
    pub fn parameter(&self, u: f64) -> f64 {
        let scaled = u * PIECES as f64;
        let rounded = scaled + ROUNDER;
        // `rounded − 2⁵²` is exact: `scaled` rounded to the nearest integer, `0 ≤ k ≤ 128`.
        let (piece, w) = ((rounded.to_bits() & 0x1ff) as usize, scaled - (rounded - ROUNDER));
        let c = &self.pieces[piece.min(PIECES)];
        let w2 = w * w;
        let q = (c[1] + c[2] * w) + (c[3] + c[4] * w) * w2 + c[5] * (w2 * w2);
        c[0] + w * q
    }
}

/// The polynomial through `(u[k], s[k])` (distinct `u`), in power basis: Newton's divided
/// differences, then the nested form `d₀ + (u − u₀)(d₁ + (u − u₁)(d₂ + …))` expanded.
pub(super) fn interpolate<const N: usize>(u: &[f64; N], s: &[f64; N]) -> [f64; N] {
    let mut d = *s;
    for j in 1..N {
        for i in (j..N).rev() {
            d[i] = (d[i] - d[i - 1]) / (u[i] - u[i - j]);
        }
    }
    let mut c = [0.0; N];
    c[0] = d[N - 1];
    for k in (0..N - 1).rev() {
        // c ← c·(u − u_k) + d_k
        for i in (1..N).rev() {
            c[i] = c[i - 1] - u[k] * c[i];
        }
        c[0] = d[k] - u[k] * c[0];
    }
    c
}

/// The root of `x̂(s) = u` by Newton's method from `s = u`, for `u` a little outside `[0, 1]`
/// too (the end pieces' points): the automatic cubic has `x̂′ ≥ 0.9` there.
fn root(k: &SegmentComponent, u: f64) -> f64 {
    let mut s = u;
    for _ in 0..100 {
        let next = s - (k.time(s) - u) / k.time_derivatives(s).0;
        if next == s {
            break;
        }
        s = next;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bezier::RESIDUAL_BOUND;

    /// Hand-checked against mpmath (40 digits, `findroot` on the cubic): s(0.1) =
    /// 0.0886211227357711953…, s(0.25) = 0.2336671848578343268…, and s(½) = ½ by symmetry.
    #[test]
    fn matches_mpmath() {
        let t = &*AUTO_INVERSE;
        assert!((t.parameter(0.1) - 0.088_621_122_735_771_195).abs() <= 1e-16, "{}", t.parameter(0.1));
        assert!((t.parameter(0.25) - 0.233_667_184_857_834_327).abs() <= 1e-16, "{}", t.parameter(0.25));
        assert!((t.parameter(0.5) - 0.5).abs() <= 2.5e-16, "{:e}", t.parameter(0.5) - 0.5);
    }

    /// The table alone meets the solver's residual bound, densely, at every piece's ends and
    /// next to 0 and 1.
    #[test]
    fn residual_within_bound_everywhere() {
        let k = SegmentComponent { x: auto_time_cubic(), y: [0.0; 4] };
        let edges = (1..PIECES).flat_map(|p| {
            let u = p as f64 / PIECES as f64;
            [u, f64::from_bits(u.to_bits() - 1), f64::from_bits(u.to_bits() + 1)]
        });
        let mut worst = 0.0f64;
        for u in (1..1_000_000).map(|i| f64::from(i) / 1e6).chain(edges).chain([1e-300, f64::from_bits(1.0f64.to_bits() - 1)]) {
            worst = worst.max((k.time(AUTO_INVERSE.parameter(u)) - u).abs());
        }
        assert!(worst <= RESIDUAL_BOUND, "{worst:e}");
    }

    /// Automatic handles computed in absolute time (keys near 1,000 s, so the handle times
    /// round at 1.1e-13) give exactly the automatic cubic; a handle 1e-9 of the interval
    /// longer, a third, or one cut back by the 5:1 clamp do not.
    #[test]
    fn automatic_handles_share_the_cubic() {
        let (t0, t1) = (1000.1, 1000.7);
        let len = t1 - t0;
        let segment = |a1: f64, a2: f64| {
            let (h1, h2) = (t0 + a1 * len, t0 + a2 * len);
            SegmentComponent::new((t0, 0.0), (h1 - t0, 0.0), (h2 - t1, 0.0), (t1, 0.0)).x
        };
        assert_ne!(((t0 + AUTO_FRACTION * len) - t0) / len, AUTO_FRACTION, "the example rounds");
        assert!(is_auto(&segment(AUTO_FRACTION, 1.0 - AUTO_FRACTION)));
        for (a1, a2) in [(AUTO_FRACTION + 1e-9, 1.0 - AUTO_FRACTION), (1.0 / 3.0, 2.0 / 3.0), (AUTO_FRACTION, 1.0 - AUTO_FRACTION / 5.0)] {
            assert!(!is_auto(&segment(a1, a2)), "{a1} {a2}");
        }
    }
}
