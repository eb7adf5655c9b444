//! Squad per segment without library calls per sample: [`SquadSegment`], the exact form,
//! algebraically the same as [`super::squad`] (the log/exp form) and within a few ulps of it.
//! Tracks sample its fitted polynomial ([`super::SquadPolys`]) where it has one, and it
//! where it has none; the fit is made and checked from it.

use super::{conj, dot, log, mul, Quat};
use crate::trig::{low_angle, sin_cos, sin_cos2, unit_angle};

/// One squad segment `slerp(slerp(R_i, R_{i+1}, τ), slerp(A_i, B_i, τ), 2τ(1 − τ))` with what
/// does not depend on `τ` done once.
///
/// Each inner slerp `exp(τL)·q₁` (`L = log(q₂′q₁⁻¹) = a·n̂`, `q₂′` sign-aligned to `q₁`, so
/// `a ≤ π/2`) is `cos(τa)·q₁ + sin(τa)·M` with `M = (n̂, 0)·q₁` stored. The outer slerp from
/// `P` to `Q` (`Q` negated when `P·Q < 0`), `exp(h·log(Q P⁻¹))·P` with `h = 2τ(1 − τ)`, is
///
/// `cos(hφ)·P + sin(hφ)/sin φ · (Q − cos φ·P)`,   `cos φ = P·Q`,
///
/// since `(Q P⁻¹ − cos φ)·P = Q − cos φ·P` is the vector part of `Q P⁻¹` carried by `P`, of
/// norm `sin φ`. The angle comes from the half-chords `sin(φ/2) = |Q − P|/2` and
/// `cos(φ/2) = |Q + P|/2` (the smaller is the sine: that picks the sign of `Q`), so that it
/// does not wait for `P·Q`: `φ = 2·`[`low_angle`]`(sin(φ/2), cos(φ/2))`,
/// `sin φ = 2 sin(φ/2) cos(φ/2)`. The sines and cosines go through [`sin_cos2`] and
/// [`sin_cos`] (`τa ≤ π/2`, `hφ ≤ π/4`): polynomials and a table instead of three `sin`,
/// three `cos` and an `atan2`.
///
/// **Accuracy contract**: every component within [`SQUAD_TOLERANCE`] of [`super::squad`] on
/// the same keys and control points (`tests` below, on random rotations of any angle, and
/// `tests/reference.rs` against numpy-quaternion at 1e-12).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SquadSegment {
    keys: InnerSlerp,
    controls: InnerSlerp,
}

/// The largest difference per component between [`SquadSegment::at`] and [`super::squad`]
/// (measured below 1e-15 over 100,000 random cases).
pub const SQUAD_TOLERANCE: f64 = 2e-15;

/// `exp(τL)·q₁ = cos(τa)·q₁ + sin(τa)·m`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct InnerSlerp {
    q1: Quat,
    m: Quat,
    angle: f64,
}

impl InnerSlerp {
    fn new(q1: &Quat, q2: &Quat) -> Self {
        let q2 = if dot(q1, q2) < 0.0 { super::neg(q2) } else { *q2 };
        let l = log(&mul(&q2, &conj(q1)));
        let angle = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
        let m = if angle > 0.0 { mul(&[l[0] / angle, l[1] / angle, l[2] / angle, 0.0], q1) } else { [0.0; 4] };
        Self { q1: *q1, m, angle }
    }

    #[inline(always)]
    fn at(&self, (s, c): (f64, f64)) -> Quat {
        std::array::from_fn(|i| c * self.q1[i] + s * self.m[i])
    }
}

impl SquadSegment {
    /// The segment from key `r0` to `r1` with control points `a` (of `r0`) and `b` (of `r1`).
    #[must_use]
    pub fn new(r0: &Quat, r1: &Quat, a: &Quat, b: &Quat) -> Self {
        Self { keys: InnerSlerp::new(r0, r1), controls: InnerSlerp::new(a, b) }
    }

    /// The rotation at `τ ∈ [0, 1]`.
    #[inline]
    #[must_use]
    pub fn at(&self, tau: f64) -> Quat {
        let (p, q) = self.inner(tau);
        // Half-chords: |Q′ − P|/2 = sin(φ/2) and |Q′ + P|/2 = cos(φ/2), whichever sign of Q
        // is nearer P (no need to wait for P·Q).
        let (minus, plus): (Quat, Quat) = (std::array::from_fn(|i| q[i] - p[i]), std::array::from_fn(|i| q[i] + p[i]));
        let (a, b) = (dot(&minus, &minus).sqrt(), dot(&plus, &plus).sqrt());
        let (lo, hi) = (0.5 * a.min(b), 0.5 * a.max(b));
        let sin = 2.0 * lo * hi;
        let d = dot(&p, &q);
        let (sign, cos) = if d < 0.0 { (-1.0, -d) } else { (1.0, d) };
        let e: Quat = std::array::from_fn(|i| sign * q[i] - cos * p[i]);
        let inv = if sin > 0.0 { 1.0 / sin } else { 0.0 };
        let (s, c) = sin_cos(2.0 * tau * (1.0 - tau) * (2.0 * low_angle(lo, hi)));
        let f = s * inv;
        std::array::from_fn(|i| c * p[i] + f * e[i])
    }
}

/// What [`super::SquadPolys`] fits a segment from: the outer slerp with a chosen target sign,
/// where it is analytic in `τ`.
impl SquadSegment {
    /// The inner slerps `P(τ)` (keys) and `Q(τ)` (control points).
    #[inline(always)]
    fn inner(&self, tau: f64) -> (Quat, Quat) {
        let (s, c) = sin_cos2([tau * self.keys.angle, tau * self.controls.angle]);
        (self.keys.at((s[0], c[0])), self.controls.at((s[1], c[1])))
    }

    /// `P(τ)·Q(τ)`: where it changes sign, [`Self::at`] changes hemisphere (and jumps).
    pub(crate) fn outer_cos(&self, tau: f64) -> f64 {
        let (p, q) = self.inner(tau);
        dot(&p, &q)
    }

    /// A bound on `|d²(P·Q)/dτ²|`: `(a + b)²` for inner angular speeds `a` and `b` (each inner
    /// slerp is a great-circle arc, `|P′| = a`, `|P″| = a²`).
    pub(crate) fn outer_cos_curvature(&self) -> f64 {
        (self.keys.angle + self.controls.angle).powi(2)
    }

    /// [`Self::at`] with the outer slerp aimed at `sign·Q` whatever the sign of `P·Q`: the
    /// same rotation where `sign·P·Q ≥ 0`, and its analytic continuation a little beyond
    /// (the angle `φ = 2·atan2(|sQ − P|, |sQ + P|)` may pass `π/2`; `hφ ≤ π/2` still).
    pub(crate) fn at_signed(&self, tau: f64, sign: f64) -> Quat {
        let (p, q) = self.inner(tau);
        let q = q.map(|v| sign * v);
        let (minus, plus): (Quat, Quat) = (std::array::from_fn(|i| q[i] - p[i]), std::array::from_fn(|i| q[i] + p[i]));
        let (half_sin, half_cos) = (0.5 * dot(&minus, &minus).sqrt(), 0.5 * dot(&plus, &plus).sqrt());
        let (sin, cos) = (2.0 * half_sin * half_cos, dot(&p, &q));
        let e: Quat = std::array::from_fn(|i| q[i] - cos * p[i]);
        let inv = if sin > 0.0 { 1.0 / sin } else { 0.0 };
        let (s, c) = sin_cos(2.0 * tau * (1.0 - tau) * (2.0 * unit_angle(half_sin, half_cos)));
        let f = s * inv;
        std::array::from_fn(|i| c * p[i] + f * e[i])
    }
}

#[cfg(test)]
mod tests {
    use super::super::{normalize, squad, squad_controls, IDENTITY};
    use super::*;
    use proptest::prelude::*;

    fn z(half: f64) -> Quat {
        [0.0, 0.0, half.sin(), half.cos()]
    }

    /// By hand, rotations about one axis (where every product commutes and squad reduces to
    /// interpolating half-angles): keys at times 0, 1, 2 with half-angles 0, 0.3, 0.5 give
    /// `A₀ = R₀` (0) and `B₀ = R₁ exp(−(0.2 − 0.3)/4)` (0.325); at `τ = ½` (`h = ½`) the inner
    /// slerps are at 0.15 and 0.1625, and the result at their mean, 0.15625.
    #[test]
    fn one_axis_by_hand() {
        let keys = [z(0.0), z(0.3), z(0.5)];
        let (a, b) = squad_controls(&keys, &[0.0, 1.0, 2.0]);
        let got = SquadSegment::new(&keys[0], &keys[1], &a[0], &b[0]).at(0.5);
        let want = z(0.15625);
        assert!(got.iter().zip(&want).all(|(g, w)| (g - w).abs() <= 4.0 * f64::EPSILON), "{got:?} vs {want:?}");
        // The ends are the keys.
        let seg = SquadSegment::new(&keys[0], &keys[1], &a[0], &b[0]);
        assert_eq!(seg.at(0.0), keys[0]);
        assert!(seg.at(1.0).iter().zip(&keys[1]).all(|(g, w)| (g - w).abs() <= 4.0 * f64::EPSILON));
        // Identical keys and controls: the key at every τ.
        assert_eq!(SquadSegment::new(&IDENTITY, &IDENTITY, &IDENTITY, &IDENTITY).at(0.3), IDENTITY);
    }

    fn unit(v: [f64; 4]) -> Quat {
        normalize(&v)
    }

    proptest! {
        /// Against the log/exp form on random rotations and control points of every angle
        /// (the control points as random as the keys, so the outer slerp spans up to π/2).
        #[test]
        fn agrees_with_the_log_exp_form(
            r0 in prop::array::uniform4(-1.0f64..1.0), r1 in prop::array::uniform4(-1.0f64..1.0),
            a in prop::array::uniform4(-1.0f64..1.0), b in prop::array::uniform4(-1.0f64..1.0),
            tau in 0.0f64..=1.0,
        ) {
            prop_assume!([r0, r1, a, b].iter().all(|q| dot(q, q) > 1e-3));
            let (r0, r1, a, b) = (unit(r0), unit(r1), unit(a), unit(b));
            let got = SquadSegment::new(&r0, &r1, &a, &b).at(tau);
            let want = squad(&r0, &r1, &a, &b, tau);
            for c in 0..4 {
                prop_assert!((got[c] - want[c]).abs() <= SQUAD_TOLERANCE, "{got:?} vs {want:?}");
            }
        }

        /// With the sign of `P·Q` where it is, the signed form is the segment (what the fitted
        /// polynomials are checked against, `super::super::squad_poly`): within 2 ulps of 1.
        #[test]
        fn the_signed_form_is_the_segment_on_its_side(
            r0 in prop::array::uniform4(-1.0f64..1.0), r1 in prop::array::uniform4(-1.0f64..1.0),
            a in prop::array::uniform4(-1.0f64..1.0), b in prop::array::uniform4(-1.0f64..1.0),
            tau in 0.0f64..=1.0,
        ) {
            prop_assume!([r0, r1, a, b].iter().all(|q| dot(q, q) > 1e-3));
            let seg = SquadSegment::new(&unit(r0), &unit(r1), &unit(a), &unit(b));
            let sign = if seg.outer_cos(tau) < 0.0 { -1.0 } else { 1.0 };
            let (got, want) = (seg.at_signed(tau, sign), seg.at(tau));
            for c in 0..4 {
                prop_assert!((got[c] - want[c]).abs() <= 2.0 * f64::EPSILON, "{got:?} vs {want:?}");
            }
        }

        /// Small steps (control points near the keys, the outer angle near 0): the same.
        #[test]
        fn agrees_for_small_angles(e in prop::array::uniform3(-1e-4f64..1e-4), tau in 0.0f64..=1.0) {
            let r0 = crate::euler::to_quat(&[0.3, -0.2, 1.1], crate::euler::EulerOrder::ZYX);
            let r1 = crate::euler::to_quat(&[0.3 + e[0], -0.2, 1.1 + e[1]], crate::euler::EulerOrder::ZYX);
            let a = crate::euler::to_quat(&[0.3 + e[2], -0.2 + e[0], 1.1], crate::euler::EulerOrder::ZYX);
            let got = SquadSegment::new(&r0, &r1, &a, &r1).at(tau);
            let want = squad(&r0, &r1, &a, &r1, tau);
            for c in 0..4 {
                prop_assert!((got[c] - want[c]).abs() <= SQUAD_TOLERANCE, "{got:?} vs {want:?}");
            }
        }
    }
}
