//! The fast solve of a Bézier segment's `x̂(s) = u` (what every Bezier sample does): a first
//! guess built when the track is compiled, a fixed number of Halley and Newton steps chosen
//! then, a residual check, and the safeguarded solver ([`SegmentComponent::parameter_at`])
//! as the fallback.
//!
//! # First guess
//! Two cubic Hermite pieces of the inverse `s(u)`, through the nodes `s = 0, ½, 1` (at
//! `u = 0, x̂(½), 1`) with slopes `1/x̂′(s)` there, stored as polynomials: the lower piece in
//! `u`, the upper one in `v = 1 − u` (so both end nodes are exact: `u = 0` gives `s = 0`).
//!
//! # Steps
//! Halley's iteration `s ← s − f·f′/(f′² − ½·f·f″)` with `f = x̂(s) − u` converges cubically
//! (error `e ← K·e³`), Newton's `s ← s − f/f′` quadratically (`e ← C·e²`), each with one
//! division. At compile time the guess's error `e₀` is measured at `s = ¼` and `s = ¾` (no
//! solve: the `u` of a known `s` is `x̂(s)`), `K = (x̂″/2x̂′)² + |x̂‴|/6x̂′` and
//! `C = |x̂″/2x̂′|` are taken at their largest over `s = 0, ¼, ½, ¾, 1`, and the segment gets
//! the cheapest of 1 to [`MAX_STEPS`] Halley steps, optionally followed by one Newton step,
//! that the model predicts to reach `e ≤ 10⁻¹⁷`. Automatic handles take one Halley and one
//! Newton step (two Halley steps where a neighbouring interval is about 5× shorter or
//! longer). The model only sets the steps: the residual check at run time is what
//! guarantees the result, and a segment the model misjudges costs a fallback, not accuracy.
//!
//! Segments the fast path does not serve are flagged at compile time and solved safely:
//! `x̂′` below [`MIN_FAST_SLOPE`] anywhere on `[0, 1]` (vertical or zero-length handles, where
//! the inverse has a square-root singularity, or overlapping handles that meet) or more than
//! [`MAX_STEPS`] Halley steps predicted. Handles at thirds (`x̂(s) = s` exactly) skip the
//! solve.

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
    /// The guess, `halley` Halley steps, one Newton step if `newton`, the residual check.
    Fast { halley: u8, newton: bool },
}

/// How to solve `x̂(s) = u` for one [`SegmentComponent`], built from it at compile time.
/// 64 bytes (seven `f64` and the path).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeSolver {
    /// `x̂(½)`: the lower piece serves `u < mid`.
    mid: f64,
    /// Lower piece: `s ≈ ((lo₂·u + lo₁)·u + lo₀)·u`.
    lo: [f64; 3],
    /// Upper piece: `s ≈ 1 − ((hi₂·v + hi₁)·v + hi₀)·v` with `v = 1 − u`.
    hi: [f64; 3],
    path: SolvePath,
}

/// The cubic `w(v) = ((c₂v + c₁)v + c₀)v` with `w′(0) = slope0`, `w(h) = ½`, `w′(h) = slope1`.
fn piece(h: f64, slope0: f64, slope1: f64) -> [f64; 3] {
    let r1 = 0.5 - slope0 * h;
    let r2 = slope1 - slope0;
    [slope0, (3.0 * r1 - r2 * h) / (h * h), (r2 * h - 2.0 * r1) / (h * h * h)]
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
fn jet(k: &SegmentComponent, s: f64, u: f64) -> (f64, f64, f64) {
    let [x1, x2, x3] = k.x;
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
        let m = min_slope(k);
        if !(m >= MIN_FAST_SLOPE) {
            return Self::default();
        }
        let mid = k.time(0.5);
        let inverse_slope = |s: f64| 1.0 / k.time_derivatives(s).0;
        let (m0, m_mid, m1) = (inverse_slope(0.0), inverse_slope(0.5), inverse_slope(1.0));
        let mut solver = Self { mid, lo: piece(mid, m0, m_mid), hi: piece(1.0 - mid, m1, m_mid), path: SolvePath::Safe };
        let e0 = [0.25, 0.75].iter().map(|&p| (solver.guess(k.time(p)) - p).abs()).fold(0.0, f64::max);
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

    /// The two-piece Hermite first guess of `s(u)`.
    #[inline]
    #[must_use]
    pub fn guess(&self, u: f64) -> f64 {
        if u < self.mid {
            ((self.lo[2] * u + self.lo[1]) * u + self.lo[0]) * u
        } else {
            let v = 1.0 - u;
            1.0 - ((self.hi[2] * v + self.hi[1]) * v + self.hi[0]) * v
        }
    }

    /// The `s ∈ [0, 1]` with `x̂(s) = u` for the component `k` this solver was built from.
    ///
    /// **Accuracy contract**: the result satisfies `|x̂(s) − u| ≤` [`RESIDUAL_BOUND`] (4 ulps
    /// of 1) with `x̂` evaluated by [`SegmentComponent::time`], for `u ∈ [0, 1]`; `u ≤ 0` (or
    /// NaN) gives 0 and `u ≥ 1` gives 1. The fast path returns `s` only after checking that
    /// residual; otherwise (and on segments flagged at compile time) the answer is the
    /// safeguarded solver's, which meets the same bound (`tests/properties.rs` checks both
    /// on random handles: zero-length, vertical, overlapping, at thirds). Where
    /// `x̂′ ≥ m > 0`, `s` is then within `RESIDUAL_BOUND/m` of the exact root plus rounding.
    #[inline(always)]
    #[must_use]
    pub fn parameter_at(&self, k: &SegmentComponent, u: f64) -> f64 {
        if !(u > 0.0 && u < 1.0) {
            return if u >= 1.0 { 1.0 } else { 0.0 };
        }
        let (halley, newton) = match self.path {
            SolvePath::Fast { halley, newton } => (halley, newton),
            SolvePath::Linear => return u,
            SolvePath::Safe => return safe(k, u),
        };
        let mut s = self.guess(u);
        for _ in 0..halley {
            let (f, d1, h) = jet(k, s, u);
            s -= f * d1 / (d1 * d1 - f * h);
        }
        if newton {
            let (f, d1, _) = jet(k, s, u);
            s -= f / d1;
        }
        let s = s.clamp(0.0, 1.0);
        if (k.time(s) - u).abs() <= RESIDUAL_BOUND {
            s
        } else {
            safe(k, u)
        }
    }
}

/// The fallback, kept out of the inlined fast path.
#[cold]
#[inline(never)]
fn safe(k: &SegmentComponent, u: f64) -> f64 {
    k.parameter_at(u)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn component(a1: f64, a2: f64) -> SegmentComponent {
        SegmentComponent::new((0.0, 0.0), (a1, 1.0), (a2 - 1.0, -1.0), (1.0, 2.0))
    }

    /// Both pieces meet the nodes: `s = 0, ½, 1` at `u = 0, x̂(½), 1`, with slopes `1/x̂′`.
    #[test]
    fn guess_passes_through_its_nodes() {
        let k = component(0.2, 0.55);
        let g = TimeSolver::new(&k);
        assert_eq!(g.guess(0.0), 0.0);
        assert_eq!(g.guess(1.0), 1.0);
        assert!((g.guess(k.time(0.5)) - 0.5).abs() < 1e-15);
        let h = 1e-7;
        let slope = (g.guess(h) - g.guess(0.0)) / h;
        assert!((slope - 1.0 / k.time_derivatives(0.0).0).abs() < 1e-5, "{slope}");
    }

    /// Auto handles (0.39 of the segment, or 0.18 next to a 5× shorter interval) take one
    /// Halley and one Newton step, or two and one; thirds are linear; a vertical handle, or
    /// overlapping ones meeting in the middle, are solved safely.
    #[test]
    fn paths_chosen_at_compile_time() {
        assert_eq!(TimeSolver::new(&component(0.39, 0.61)).path(), SolvePath::Fast { halley: 1, newton: true });
        assert_eq!(TimeSolver::new(&component(0.18, 0.61)).path(), SolvePath::Fast { halley: 2, newton: true });
        assert_eq!(TimeSolver::new(&SegmentComponent::new((2.0, 0.0), (1.0, 1.0), (-1.0, 0.0), (5.0, 1.0))).path(), SolvePath::Linear);
        assert_eq!(TimeSolver::new(&component(0.0, 0.61)).path(), SolvePath::Safe);
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
