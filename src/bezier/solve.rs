//! The fast solve of a Bézier segment's `x̂(s) = u` (what every Bezier sample does): a first
//! guess built when the track is compiled, a fixed number of Halley and Newton steps chosen
//! then, a residual check, and the safeguarded solver ([`SegmentComponent::parameter_at`])
//! as the fallback.
//!
//! # First guess
//! The polynomial of degree 9 in `u` through the ten points `(x̂(sₖ), sₖ)` of the inverse,
//! with `sₖ = ½ − ½·cos(πk/9)` (Chebyshev–Lobatto nodes in `s`, so no solve is needed to
//! build it), stored in power basis and evaluated by Estrin's scheme (a short dependency
//! chain and no branch). For Blender's automatic handles (`x̂′ ≥ 0.9`) it is within about
//! 1e-6 of the root; the nodes include `s = 0` and `s = 1`.
//!
//! # Steps
//! Halley's iteration `s ← s − f·f′/(f′² − ½·f·f″)` with `f = x̂(s) − u` converges cubically
//! (error `e ← K·e³`), Newton's `s ← s − f/f′` quadratically (`e ← C·e²`), each with one
//! division. At compile time the guess's error `e₀` is measured at the 18 midpoints between
//! the nodes and 2 more near the ends (no solve: the `u` of a known `s` is `x̂(s)`),
//! `K = (x̂″/2x̂′)² + |x̂‴|/6x̂′` and `C = |x̂″/2x̂′|` are taken at their largest over
//! `s = 0, ¼, ½, ¾, 1`, and the segment gets the cheapest of 1 to [`MAX_STEPS`] Halley steps,
//! optionally followed by one Newton step, that the model predicts to reach `e ≤ 10⁻¹⁷`.
//! Automatic handles take one Halley step (one Halley and one Newton step where a
//! neighbouring interval is about 5× shorter or longer). The model only sets the steps: the
//! residual check at run time is what guarantees the result, and a segment the model
//! misjudges costs a fallback, not accuracy.
//!
//! Segments the fast path does not serve are flagged at compile time and solved safely:
//! `x̂′` below [`MIN_FAST_SLOPE`] anywhere on `[0, 1]` (vertical or zero-length handles, where
//! the inverse has a square-root singularity, or overlapping handles that meet) or more than
//! [`MAX_STEPS`] Halley steps predicted. Handles at thirds (`x̂(s) = s` exactly) skip the
//! solve, and segments between two automatic handles (all share one time cubic) read its
//! inverse from a table ([`super::auto_inverse`]), which is accurate enough to need neither
//! steps nor the residual check.

use super::auto_inverse::{interpolate, is_auto, AUTO_INVERSE};
use super::SegmentComponent;

/// Segments whose `dx̂/ds` falls below this somewhere on `[0, 1]` use the safeguarded solver.
pub const MIN_FAST_SLOPE: f64 = 0.05;

/// The most Halley steps a segment's fast path takes.
pub const MAX_STEPS: u8 = 4;

/// The residual `|x̂(s) − u|` (as [`SegmentComponent::time`] computes it) that the solve
/// guarantees: a few ulps of the local time.
pub const RESIDUAL_BOUND: f64 = 4.0 * f64::EPSILON;

/// What the compile-time check chose for a segment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SolvePath {
    /// The safeguarded solver only.
    #[default]
    Safe,
    /// Handles at thirds: `x̂(s) = s` exactly, so `s = u`.
    Linear,
    /// Automatic handles on both sides: the shared table (`bezier/auto_inverse.rs`), accurate
    /// enough to need no residual check.
    Auto,
    /// The guess, `halley` Halley steps, one Newton step if `newton`, the residual check.
    Fast { halley: u8, newton: bool },
}

/// Points the first guess interpolates (its degree is one less).
const NODES: usize = 10;

/// How to solve `x̂(s) = u` for one [`SegmentComponent`], built from it at compile time.
/// 88 bytes (ten `f64` and the path).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeSolver {
    /// The first guess `s ≈ Σ cᵢ uⁱ`.
    c: [f64; NODES],
    path: SolvePath,
}

/// The least `dx̂/ds` on `[0, 1]` (a quadratic: its ends or its vertex).
fn min_slope(k: &SegmentComponent) -> f64 {
    let d = |s: f64| k.time_derivatives(s).0;
    let mut m = d(0.0).min(d(1.0));
    if k.x[2] != 0.0 {
        let vertex = -k.x[1] / (3.0 * k.x[2]);
        if vertex > 0.0 && vertex < 1.0 {
            m = m.min(d(vertex));
        }
    }
    m
}

/// `x̂(s) − u`, `x̂′(s)` and `½x̂″(s)`, sharing their products (`f` is bit for bit
/// `k.time(s) − u`).
#[inline(always)]
fn jet(x: &[f64; 3], s: f64, u: f64) -> (f64, f64, f64) {
    let [x1, x2, x3] = *x;
    let q = x3 * s;
    let p = q + x2;
    ((p * s + x1) * s - u, (p + p + q) * s + x1, q + q + p)
}

/// The cheapest steps that the error model predicts to converge from `e0`, if any.
fn plan(e0: f64, halley_gain: f64, newton_gain: f64) -> SolvePath {
    let mut e = e0;
    for halley in 1..=MAX_STEPS {
        e = halley_gain * e * e * e;
        if e <= 1e-17 {
            return SolvePath::Fast { halley, newton: false };
        }
        if newton_gain * e * e <= 1e-17 {
            return SolvePath::Fast { halley, newton: true };
        }
    }
    SolvePath::Safe
}

impl TimeSolver {
    /// The guess, the step count or the safe path for `k` (see the module docs).
    #[must_use]
    pub fn new(k: &SegmentComponent) -> Self {
        if k.x == [1.0, 0.0, 0.0] {
            return Self { path: SolvePath::Linear, ..Self::default() };
        }
        if is_auto(&k.x) {
            return Self { path: SolvePath::Auto, ..Self::default() };
        }
        let m = min_slope(k);
        if !(m >= MIN_FAST_SLOPE) {
            return Self::default();
        }
        let node = |i: usize| 0.5 - 0.5 * (std::f64::consts::PI * i as f64 / (NODES - 1) as f64).cos();
        let s: [f64; NODES] = std::array::from_fn(node);
        let mut solver = Self { c: interpolate(&s.map(|s| k.time(s)), &s), path: SolvePath::Safe };
        let probes = (0..NODES - 1).map(|i| 0.5 * (node(i) + node(i + 1))).chain([0.01, 0.99]);
        let e0 = probes.map(|p| (solver.guess(k.time(p)) - p).abs()).fold(0.0, f64::max);
        let (mut halley_gain, mut newton_gain) = (0.0f64, 0.0f64);
        for s in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let (d1, d2) = k.time_derivatives(s);
            let c = (d2 / (2.0 * d1)).abs();
            halley_gain = halley_gain.max(c * c + k.x[2].abs() / d1);
            newton_gain = newton_gain.max(c);
        }
        solver.path = plan(e0, halley_gain, newton_gain);
        solver
    }

    /// What was chosen for this segment.
    #[must_use]
    pub fn path(&self) -> SolvePath {
        self.path
    }

    /// The first guess of `s(u)`, by Estrin's scheme: pairs `c₂ᵢ + c₂ᵢ₊₁u`, combined with
    /// `u²`, `u⁴`, `u⁸`.
    #[inline(always)]
    #[must_use]
    pub fn guess(&self, u: f64) -> f64 {
        let c = &self.c;
        let (u2, pair) = (u * u, |i: usize| c[i] + c[i + 1] * u);
        let u4 = u2 * u2;
        let low = (pair(0) + pair(2) * u2) + (pair(4) + pair(6) * u2) * u4;
        low + pair(8) * (u4 * u4)
    }

    /// The `s ∈ [0, 1]` with `x̂(s) = u` for the component `k` this solver was built from.
    ///
    /// **Accuracy contract**: the result satisfies `|x̂(s) − u| ≤` [`RESIDUAL_BOUND`] (4 ulps
    /// of 1) with `x̂` evaluated by [`SegmentComponent::time`], for `u ∈ [0, 1]`; `u ≤ 0` (or
    /// NaN) gives 0 and `u ≥ 1` gives 1. The fast path returns `s` only after checking that
    /// residual (the automatic handles' table meets it by construction, and a dense test
    /// measures it); otherwise (and on segments flagged at compile time) the answer is the
    /// safeguarded solver's, which meets the same bound (`tests/properties.rs` checks both
    /// on random handles: zero-length, vertical, overlapping, at thirds). Where
    /// `x̂′ ≥ m > 0`, `s` is then within `RESIDUAL_BOUND/m` of the exact root plus rounding.
    #[inline(always)]
    #[must_use]
    pub fn parameter_at(&self, k: &SegmentComponent, u: f64) -> f64 {
        self.solve(&k.x, u)
    }

    /// [`Self::parameter_at`] given only the time cubic `x` of the component (`k.x`), as the
    /// compiled segments store it.
    #[inline(always)]
    #[must_use]
    pub fn solve(&self, x: &[f64; 3], u: f64) -> f64 {
        if !(u > 0.0 && u < 1.0) {
            return if u >= 1.0 { 1.0 } else { 0.0 };
        }
        let s = match self.path {
            // Within the bound without a check (see `auto_inverse`).
            SolvePath::Auto => return AUTO_INVERSE.parameter(u).clamp(0.0, 1.0),
            SolvePath::Fast { halley, newton } => self.refine(x, u, halley, newton),
            SolvePath::Linear => return u,
            SolvePath::Safe => return safe(x, u),
        };
        let s = s.clamp(0.0, 1.0);
        // `SegmentComponent::time`, bit for bit.
        if ((((x[2] * s + x[1]) * s + x[0]) * s) - u).abs() <= RESIDUAL_BOUND {
            s
        } else {
            safe(x, u)
        }
    }
}

impl TimeSolver {
    /// The guess, then `halley` Halley steps and one Newton step if `newton`.
    #[inline(always)]
    fn refine(&self, x: &[f64; 3], u: f64, halley: u8, newton: bool) -> f64 {
        let mut s = self.guess(u);
        for _ in 0..halley {
            let (f, d1, h) = jet(x, s, u);
            s -= f * d1 / (d1 * d1 - f * h);
        }
        if newton {
            let (f, d1, _) = jet(x, s, u);
            s -= f / d1;
        }
        s
    }
}

/// The fallback, kept out of the inlined fast path.
#[cold]
#[inline(never)]
fn safe(x: &[f64; 3], u: f64) -> f64 {
    SegmentComponent { x: *x, y: [0.0; 4] }.parameter_at(u)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn component(a1: f64, a2: f64) -> SegmentComponent {
        SegmentComponent::new((0.0, 0.0), (a1, 1.0), (a2 - 1.0, -1.0), (1.0, 2.0))
    }

    /// The guess meets its ten nodes `(x̂(sₖ), sₖ)` to rounding, and between them, for Auto
    /// handles (`a1 = 1/2.56`, `a2 = 1 − a1`, as Auto ones but off the table), stays within
    /// 2e-6 of the root found by
    /// bisection.
    #[test]
    fn guess_passes_through_its_nodes() {
        let k = component(0.2, 0.55);
        let g = TimeSolver::new(&k);
        for i in 0..NODES {
            let s = 0.5 - 0.5 * (std::f64::consts::PI * i as f64 / 9.0).cos();
            assert!((g.guess(k.time(s)) - s).abs() < 1e-13, "node {i}");
        }
        let a = 1.0 / 2.56;
        let k = component(a, 1.0 - a);
        let g = TimeSolver::new(&k);
        for i in 0..=200 {
            let u = f64::from(i) / 200.0;
            let (mut lo, mut hi) = (0.0, 1.0);
            while hi - lo > 1e-15 {
                let mid = 0.5 * (lo + hi);
                (lo, hi) = if k.time(mid) < u { (mid, hi) } else { (lo, mid) };
            }
            assert!((g.guess(u) - lo).abs() < 2e-6, "u = {u}: {} vs {lo}", g.guess(u));
        }
    }

    /// Handles at 0.39 and 0.61 of the segment (near Auto ones) take one Halley step, or one
    /// Halley and one Newton step next to a 5× shorter interval (0.18); thirds are linear;
    /// a vertical handle, or overlapping ones meeting in the middle, are solved safely; Auto
    /// handles (1/2.5614) read the table.
    #[test]
    fn paths_chosen_at_compile_time() {
        assert_eq!(TimeSolver::new(&component(0.39, 0.61)).path(), SolvePath::Fast { halley: 1, newton: false });
        assert_eq!(TimeSolver::new(&component(0.18, 0.61)).path(), SolvePath::Fast { halley: 1, newton: true });
        assert_eq!(TimeSolver::new(&SegmentComponent::new((2.0, 0.0), (1.0, 1.0), (-1.0, 0.0), (5.0, 1.0))).path(), SolvePath::Linear);
        assert_eq!(TimeSolver::new(&component(0.0, 0.61)).path(), SolvePath::Safe);
        let a = super::super::AUTO_FRACTION;
        assert_eq!(TimeSolver::new(&component(a, 1.0 - a)).path(), SolvePath::Auto);
        assert_eq!(TimeSolver::new(&component(1.0, 0.0)).path(), SolvePath::Safe);
    }

    /// The fast path agrees with the safeguarded solver within the residual bound.
    #[test]
    fn fast_path_meets_the_contract() {
        for (a1, a2) in [(0.39, 0.61), (0.1, 0.9), (0.035, 0.6), (0.6, 0.4), (0.9, 0.95)] {
            let k = component(a1, a2);
            let g = TimeSolver::new(&k);
            for i in 0..=1000 {
                let u = f64::from(i) / 1000.0;
                let s = g.parameter_at(&k, u);
                assert!((k.time(s) - u).abs() <= RESIDUAL_BOUND, "{a1} {a2} {u}: {s}");
                assert!((s - k.parameter_at(u)).abs() <= 1e-14, "{a1} {a2} {u}");
            }
        }
    }
}
