//! Unit quaternions `[x, y, z, w]` (three.js order) and the rotation interpolants of SPEC §5:
//! three.js' `slerpFlat`, shortest-arc nlerp, and numpy-quaternion's time-aware `squad`.

mod batch;
mod squad;
mod squad_poly;

pub(crate) use batch::{arc_weights, mix};
pub use squad::{SquadSegment, SQUAD_TOLERANCE};
pub use squad_poly::{SquadPolys, SQUAD_FIT_TOLERANCE};

/// A quaternion `[x, y, z, w]`.
pub type Quat = [f64; 4];

pub const IDENTITY: Quat = [0.0, 0.0, 0.0, 1.0];

/// Above this cosine three.js' slerp switches to normalised lerp (seed 004).
pub const SLERP_DOT_THRESHOLD: f64 = 0.9995;

#[must_use]
#[inline]
pub fn dot(a: &Quat, b: &Quat) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

#[must_use]
#[inline]
pub fn neg(q: &Quat) -> Quat {
    [-q[0], -q[1], -q[2], -q[3]]
}

/// `q / |q|`; the identity for a zero or non-finite quaternion (refused at input anyway).
#[must_use]
#[inline]
pub fn normalize(q: &Quat) -> Quat {
    let n = dot(q, q).sqrt();
    if n > 0.0 && n.is_finite() {
        [q[0] / n, q[1] / n, q[2] / n, q[3] / n]
    } else {
        IDENTITY
    }
}

/// Hamilton product `a·b` (apply b, then a).
#[must_use]
#[inline]
pub fn mul(a: &Quat, b: &Quat) -> Quat {
    let [ax, ay, az, aw] = *a;
    let [bx, by, bz, bw] = *b;
    [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz]
}

/// Conjugate, the inverse of a unit quaternion.
#[must_use]
#[inline]
pub fn conj(q: &Quat) -> Quat {
    [-q[0], -q[1], -q[2], q[3]]
}

/// Logarithm of a unit quaternion: `(v̂·atan2(|v|, w), 0)`. `atan2` keeps it accurate for
/// tiny angles, where `acos(w)` would lose half the digits.
#[must_use]
pub fn log(q: &Quat) -> Quat {
    let vn = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]).sqrt();
    if vn == 0.0 {
        return [0.0; 4];
    }
    let f = vn.atan2(q[3]) / vn;
    [q[0] * f, q[1] * f, q[2] * f, 0.0]
}

/// Exponential of a pure quaternion `(v, 0)`: `(v̂ sin|v|, cos|v|)`.
#[must_use]
pub fn exp(v: &Quat) -> Quat {
    let a = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if a == 0.0 {
        return IDENTITY;
    }
    let f = a.sin() / a;
    [v[0] * f, v[1] * f, v[2] * f, a.cos()]
}

fn scale(q: &Quat, s: f64) -> Quat {
    [q[0] * s, q[1] * s, q[2] * s, q[3] * s]
}

/// three.js `Quaternion.slerpFlat`: identical inputs are returned as they are; otherwise q1 is
/// flipped when `dot < 0` (shortest arc), then sin-weighted slerp below the
/// [`SLERP_DOT_THRESHOLD`] and normalised lerp above it. `t` is not clamped.
#[must_use]
pub fn slerp(q0: &Quat, q1: &Quat, t: f64) -> Quat {
    SlerpPair::new(q0, q1).at(t)
}

/// [`slerp`] of one pair of quaternions with everything that does not depend on `t` done
/// once: the sign flip, `θ = acos(q0·q1′)` and `1/sin θ`. A sample is then
/// `q0·sin((1 − t)θ)·(1/sin θ) + q1′·sin(tθ)·(1/sin θ)` (no `acos`, no division), or the
/// normalised lerp above the threshold; bit for bit what [`slerp`] computes, since [`slerp`]
/// is this. (The reciprocal differs from dividing by `sin θ` by at most an ulp of the weight;
/// three.js divides. Dividing twice per sample cost the clip player 5% of a frame.)
///
/// `θ ≤ π/2` (`q0·q1′ ≥ 0`), so for `t ∈ [0, 1]` both angles lie in `[0, π/2]`, where the
/// two sines are one polynomial evaluation on both lanes ([`crate::trig::sin2`], within
/// 4e-16) instead of two calls into the C library. The weights are exactly 1 and 0 at both
/// ends ([`arc_ends`]: `sin 0 = 0` exactly, and the weight 1 is taken as it is rather than
/// `sin θ · (1/sin θ)`), so a sample at a key is the key. Outside `[0, 1]` (extrapolation by
/// the standalone [`slerp`]) the library's `sin` serves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SlerpPair {
    q0: Quat,
    /// `q1`, or `−q1` when `q0·q1 < 0`.
    q1: Quat,
    theta: f64,
    /// `1/sin θ`.
    inv_sin: f64,
    form: SlerpForm,
}

/// Which of [`slerp`]'s three cases a pair falls in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum SlerpForm {
    /// `q0 == q1`: `q0` at every `t`.
    #[default]
    Same,
    /// Sin-weighted, below the threshold.
    Arc,
    /// Normalised lerp, at or above the threshold.
    Lerp,
}

impl SlerpPair {
    #[must_use]
    pub fn new(q0: &Quat, q1: &Quat) -> Self {
        if q0 == q1 {
            return Self { q0: *q0, q1: *q1, ..Self::default() };
        }
        let mut q1 = *q1;
        let mut d = dot(q0, &q1);
        if d < 0.0 {
            q1 = neg(&q1);
            d = -d;
        }
        if d < SLERP_DOT_THRESHOLD {
            let theta = d.acos();
            Self { q0: *q0, q1, theta, inv_sin: 1.0 / crate::trig::sin_cos(theta).0, form: SlerpForm::Arc }
        } else {
            Self { q0: *q0, q1, theta: 0.0, inv_sin: 0.0, form: SlerpForm::Lerp }
        }
    }

    /// The rotation at `t`.
    #[inline]
    #[must_use]
    pub fn at(&self, t: f64) -> Quat {
        let (q0, q1, s) = (&self.q0, &self.q1, 1.0 - t);
        match self.form {
            SlerpForm::Same => *q0,
            SlerpForm::Arc => {
                let (ws, wt) = if (0.0..=1.0).contains(&t) {
                    batch::arc_weight(self.theta, self.inv_sin, t)
                } else {
                    ((s * self.theta).sin() * self.inv_sin, (t * self.theta).sin() * self.inv_sin)
                };
                batch::mix(q0, q1, ws, wt)
            }
            SlerpForm::Lerp => normalize(&[q0[0] * s + q1[0] * t, q0[1] * s + q1[1] * t, q0[2] * s + q1[2] * t, q0[3] * s + q1[3] * t]),
        }
    }
}

/// `normalize((1 − t) q0 + t q1')` with `q1' = −q1` when `dot(q0, q1) < 0`. Inlined: called
/// through a copy on the stack, its 16-byte loads of the 8-byte stores that made the copy
/// could not be forwarded (a stall of most of a sample).
#[must_use]
#[inline]
pub fn nlerp(q0: &Quat, q1: &Quat, t: f64) -> Quat {
    let q1 = if dot(q0, q1) < 0.0 { neg(q1) } else { *q1 };
    let s = 1.0 - t;
    normalize(&[q0[0] * s + q1[0] * t, q0[1] * s + q1[1] * t, q0[2] * s + q1[2] * t, q0[3] * s + q1[3] * t])
}

/// Slerp with no small-angle shortcut: `(q2 q1⁻¹)^t q1` through [`log`]/[`exp`], q2 flipped
/// when `dot < 0`. Exact to rounding at every angle, as squad needs.
#[must_use]
pub fn slerp_exact(q1: &Quat, q2: &Quat, t: f64) -> Quat {
    ExactPair::new(q1, q2).at(t)
}

/// [`slerp_exact`] of one pair with the part that does not depend on `t` done once: the flip
/// and `L = log(q2′ q1⁻¹)` (a product, a square root and an `atan2`). A sample is then
/// `exp(t·L)·q1`, bit for bit what [`slerp_exact`] computes, since [`slerp_exact`] is this.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ExactPair {
    q1: Quat,
    log: Quat,
}

impl ExactPair {
    #[must_use]
    pub fn new(q1: &Quat, q2: &Quat) -> Self {
        let q2 = if dot(q1, q2) < 0.0 { neg(q2) } else { *q2 };
        Self { q1: *q1, log: log(&mul(&q2, &conj(q1))) }
    }

    /// The rotation at `t`.
    #[inline]
    #[must_use]
    pub fn at(&self, t: f64) -> Quat {
        mul(&exp(&scale(&self.log, t)), &self.q1)
    }
}

/// Control points of time-aware squad (numpy-quaternion `squad`; SEMANTICS.md D) for
/// sign-aligned unit keys `r` at strictly increasing `times` (n ≥ 2):
///
/// `A_i = R_i exp((−log(R_i⁻¹R_{i+1}) + log(R_{i−1}⁻¹R_i)·Δ_i/Δ_{i−1})/4)`,
/// `B_i = R_{i+1} exp(−(log(R_{i+1}⁻¹R_{i+2})·Δ_i/Δ_{i+1} − log(R_i⁻¹R_{i+1}))/4)`,
/// with `A_0 = R_0`, `A_{n−1} = R_{n−1}`, `B_{n−2} = R_{n−1}`, `B_{n−1} = R_{n−1}R_{n−2}⁻¹R_{n−1}`.
#[must_use]
pub fn squad_controls(r: &[Quat], times: &[f64]) -> (Vec<Quat>, Vec<Quat>) {
    let n = r.len();
    let mut a = r.to_vec();
    let mut b = r.to_vec();
    if n < 2 {
        return (a, b);
    }
    let rel = |i: usize, j: usize| log(&mul(&conj(&r[i]), &r[j]));
    for i in 1..n - 1 {
        let ratio = (times[i + 1] - times[i]) / (times[i] - times[i - 1]);
        let (ln, lp) = (rel(i, i + 1), rel(i - 1, i));
        let arg = [0, 1, 2, 3].map(|c| (-ln[c] + lp[c] * ratio) * 0.25);
        a[i] = mul(&r[i], &exp(&arg));
    }
    for i in 0..n.saturating_sub(2) {
        let ratio = (times[i + 1] - times[i]) / (times[i + 2] - times[i + 1]);
        let (ln, lc) = (rel(i + 1, i + 2), rel(i, i + 1));
        let arg = [0, 1, 2, 3].map(|c| (ln[c] * ratio - lc[c]) * -0.25);
        b[i] = mul(&r[i + 1], &exp(&arg));
    }
    b[n - 2] = r[n - 1];
    b[n - 1] = mul(&mul(&r[n - 1], &conj(&r[n - 2])), &r[n - 1]);
    (a, b)
}

/// One squad segment: `slerp(slerp(R_i, R_{i+1}, τ), slerp(A_i, B_i, τ), 2τ(1 − τ))` by the
/// log/exp form of each slerp ([`slerp_exact`]), with the C library's `atan2`, `sin` and `cos`:
/// the reference that [`SquadSegment`] and the fitted [`SquadPolys`], which tracks evaluate,
/// are tested against.
#[must_use]
pub fn squad(r0: &Quat, r1: &Quat, a: &Quat, b: &Quat, tau: f64) -> Quat {
    slerp_exact(&slerp_exact(r0, r1, tau), &slerp_exact(a, b, tau), 2.0 * tau * (1.0 - tau))
}

/// Angle in radians of the rotation taking `a` to `b`, `2 acos(|a·b|)` computed stably.
#[must_use]
pub fn angle_between(a: &Quat, b: &Quat) -> f64 {
    let d = dot(a, b).abs().min(1.0);
    let diff = mul(&conj(a), b);
    let v = (diff[0] * diff[0] + diff[1] * diff[1] + diff[2] * diff[2]).sqrt();
    2.0 * v.atan2(d)
}

/// Rotation matrix (row-major) of a unit quaternion.
#[must_use]
pub fn to_matrix(q: &Quat) -> [[f64; 3]; 3] {
    let [x, y, z, w] = *q;
    [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w)],
        [2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w)],
        [2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &Quat, b: &Quat, eps: f64) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() <= eps)
    }

    #[test]
    fn slerp_takes_shortest_arc() {
        let q0 = IDENTITY;
        // 90° about z, given with the negative sign: slerp must go the short way.
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let q1 = [0.0, 0.0, -h, -h];
        let mid = slerp(&q0, &q1, 0.5);
        let want = [0.0, 0.0, (std::f64::consts::PI / 8.0).sin(), (std::f64::consts::PI / 8.0).cos()];
        assert!(close(&mid, &want, 1e-15), "{mid:?}");
    }

    /// The prepared pair by hand: identity to 90° about z given with the negative sign. It is
    /// flipped to `[0, 0, √½, √½]`, `θ = acos(√½) = π/4`, `sin θ = √½`; at `t = ¼` the weights
    /// are `sin(3π/16)/sin(π/4)` and `sin(π/16)/sin(π/4)`, i.e. a rotation by `π/16` (half
    /// of 22.5°): `[0, 0, sin(π/16), cos(π/16)]`.
    #[test]
    fn slerp_pair_by_hand() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let pair = SlerpPair::new(&IDENTITY, &[0.0, 0.0, -h, -h]);
        assert_eq!(pair.q1, [0.0, 0.0, h, h]);
        assert!((pair.theta - std::f64::consts::FRAC_PI_4).abs() < 1e-15);
        assert!((pair.inv_sin - std::f64::consts::SQRT_2).abs() < 1e-15);
        let a = std::f64::consts::PI / 16.0;
        let q = pair.at(0.25);
        assert!(close(&q, &[0.0, 0.0, a.sin(), a.cos()], 1e-15), "{q:?}");
        // Identical keys return the key itself, at any t.
        let q0 = normalize(&[0.1, 0.2, 0.3, 0.9]);
        assert_eq!(SlerpPair::new(&q0, &q0).at(0.7), q0);
    }

    /// The prepared exact pair by hand: from identity to 120° about x (`[sin 60°, 0, 0,
    /// cos 60°]`), `L = log(q) = [π/3, 0, 0, 0]`, so at `t = ½` the result is 60° about x.
    #[test]
    fn exact_pair_by_hand() {
        let third = std::f64::consts::FRAC_PI_3;
        let pair = ExactPair::new(&IDENTITY, &[third.sin(), 0.0, 0.0, third.cos()]);
        assert!(close(&pair.log, &[third, 0.0, 0.0, 0.0], 1e-15), "{:?}", pair.log);
        let sixth = std::f64::consts::FRAC_PI_6;
        assert!(close(&pair.at(0.5), &[sixth.sin(), 0.0, 0.0, sixth.cos()], 1e-15));
    }

    #[test]
    fn slerp_near_identical_uses_normalised_lerp() {
        // cos(θ) = 0.9996 > 0.9995: lerp + normalise, unit to 1e-15.
        let th = 0.9996f64.acos();
        let q1 = [th.sin(), 0.0, 0.0, th.cos()];
        let m = slerp(&IDENTITY, &q1, 0.5);
        let lerp = normalize(&[0.5 * q1[0], 0.0, 0.0, 0.5 + 0.5 * q1[3]]);
        assert_eq!(m, lerp);
        assert!((dot(&m, &m) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn slerp_exact_constant_angular_speed() {
        let q1 = crate::euler::to_quat(&[0.3, 2.0, -1.0], crate::euler::EulerOrder::ZYX);
        let total = angle_between(&IDENTITY, &q1);
        let a = slerp_exact(&IDENTITY, &q1, 0.25);
        assert!((angle_between(&IDENTITY, &a) - total * 0.25).abs() < 1e-13);
    }

    #[test]
    fn log_exp_round_trip() {
        let q = normalize(&[0.1, -0.7, 0.2, 0.4]);
        assert!(close(&exp(&log(&q)), &q, 1e-15));
    }

    proptest::proptest! {
        /// The polynomial sines against the library's, through an independent form (the
        /// log/exp slerp): within 1e-15 per component for every pair below the lerp threshold
        /// and `t ∈ [0, 1]`; the ends are the keys bit for bit; outside `[0, 1]` (the library's
        /// sines) within `2e-15·|t|`, as the rounding of `tθ` grows with `t`.
        #[test]
        fn slerp_agrees_with_the_log_exp_form(
            a in proptest::array::uniform4(-1.0f64..1.0), b in proptest::array::uniform4(-1.0f64..1.0), t in 0.0f64..=1.0, far in 1.0f64..3.0,
        ) {
            proptest::prop_assume!(dot(&a, &a) > 1e-3 && dot(&b, &b) > 1e-3);
            let (q0, q1) = (normalize(&a), normalize(&b));
            proptest::prop_assume!(dot(&q0, &q1).abs() < SLERP_DOT_THRESHOLD);
            for t in [t, far, -far] {
                let (got, want) = (slerp(&q0, &q1, t), slerp_exact(&q0, &q1, t));
                proptest::prop_assert!(close(&got, &want, 1e-15 * (2.0 * t.abs()).max(1.0)), "t = {}: {:?} vs {:?}", t, got, want);
            }
            let pair = SlerpPair::new(&q0, &q1);
            proptest::prop_assert_eq!(pair.at(0.0), q0);
            proptest::prop_assert_eq!(pair.at(1.0), pair.q1);
        }
    }
}
