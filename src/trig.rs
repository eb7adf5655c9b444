//! Inline trigonometric kernels for bounded arguments, where a call into the C library costs
//! more than the sample it serves (Squad's exact form, [`crate::quat::SquadSegment`], which
//! Squad's fit is made from; Slerp's weights).
//! Each is a short polynomial with no branch on the argument, accurate to a few ulps on its
//! stated range (the tests below check them against the standard library).

/// `(sin x, cos x)` for `|x| ≤ π/2`, by their Taylor series in `y = x²`:
///
/// ```text
/// sin x = x + x·y·S(y),  S(y) = −1/3! + y/5! − y²/7! + … + y⁹/21!    (terms to x²¹)
/// cos x = (1 − y/2) + y²·C(y),  C(y) = 1/4! − y/6! + … − y⁹/22!    (terms to x²²)
/// ```
///
/// (the first two terms of the cosine apart, so that its last rounding is of `1 − y/2`). `S`
/// and `C` are evaluated by Estrin's scheme (pairs `k₀ + k₁y`, combined with `y²`, `y⁴`,
/// `y⁸`): a dependency chain of four multiply-adds instead of ten, which is what a sample
/// waits for. The first omitted terms, `x²³/23!` and `x²⁴/24!`, are below 1.3e-18 at
/// `|x| = π/2`, so each result is within 2 ulps of 1 of the true value (4e-16, tested).
/// Beyond `π/2` the truncation grows (4e-16 at 2).
#[inline(always)]
#[must_use]
pub fn sin_cos(x: f64) -> (f64, f64) {
    let y = x * x;
    let [s, c] = estrin(&SIN_COS, [y, y]);
    (x + x * y * s, (1.0 - 0.5 * y) + y * y * c)
}

/// [`sin_cos`] of two arguments at once, `([sin x₀, sin x₁], [cos x₀, cos x₁])`: the same
/// operations lane by lane, bit for bit two calls of [`sin_cos`].
#[inline(always)]
#[must_use]
pub fn sin_cos2(x: [f64; 2]) -> ([f64; 2], [f64; 2]) {
    let y = [x[0] * x[0], x[1] * x[1]];
    let (s, c) = (estrin(&SIN_COS.map(|k| [k[0]; 2]), y), estrin(&SIN_COS.map(|k| [k[1]; 2]), y));
    let lanes = |f: &dyn Fn(usize) -> f64| [f(0), f(1)];
    (lanes(&|i| x[i] + x[i] * y[i] * s[i]), lanes(&|i| (1.0 - 0.5 * y[i]) + y[i] * y[i] * c[i]))
}

/// `[sin x₀, sin x₁]` for `|xᵢ| ≤ π/2`: Slerp's two weights per sample
/// ([`crate::quat::SlerpPair`], and the clip player's arcs, four lanes at a time), as
/// `x + x·y·P(y)`, `y = x²`, where `P` is the polynomial of degree 7 closest to
/// `(sin x/x − 1)/y` in relative error over `[0, π/2]` (a minimax fit by the Remez exchange,
/// `tools/fit_slerp_sine.py`, at 50 digits: 5.2e-19 before its coefficients are rounded to
/// f64, 1.4e-17 after), evaluated by Estrin's scheme (pairs `k₀ + k₁y`, combined with `y²`,
/// `y⁴`). Eight terms instead of [`sin_cos`]'s ten Taylor terms: a fifth fewer operations
/// where the player weighs its arcs. Within 4e-16 of the true sine (tested against the
/// standard library).
#[inline(always)]
#[must_use]
pub fn sin2(x: [f64; 2]) -> [f64; 2] {
    let lane = |l: usize| {
        let y = x[l] * x[l];
        let y2 = y * y;
        let k = &SLERP_SINE;
        let p = (k[0] + k[1] * y) + (k[2] + k[3] * y) * y2;
        let q = (k[4] + k[5] * y) + (k[6] + k[7] * y) * y2;
        x[l] + x[l] * y * (p + q * (y2 * y2))
    };
    [lane(0), lane(1)]
}

/// The coefficients of [`sin2`]'s `P(y)`, from `y⁰` up (`tools/fit_slerp_sine.py` prints them).
const SLERP_SINE: [f64; 8] = [
    -0.166_666_666_666_666_66,
    0.008_333_333_333_333_24,
    -0.000_198_412_698_412_216_54,
    2.755_731_921_273_423_3e-6,
    -2.505_210_698_018_103_3e-8,
    1.605_894_353_051_779_7e-10,
    -7.643_057_647_491_696e-13,
    2.721_582_192_699_707_6e-15,
];

/// Two polynomials of degree 9, `Σ kᵢ[l]·y[l]ⁱ` for lanes `l = 0, 1`, by Estrin's scheme:
/// pairs `k₀ + k₁y`, combined with `y²`, `y⁴`, `y⁸` (lane by lane, so that the compiler can
/// hold both lanes in one register).
#[inline(always)]
fn estrin(k: &[[f64; 2]; 10], y: [f64; 2]) -> [f64; 2] {
    let lanes = |f: &dyn Fn(usize) -> f64| [f(0), f(1)];
    let y2 = lanes(&|l| y[l] * y[l]);
    let y4 = lanes(&|l| y2[l] * y2[l]);
    let y8 = lanes(&|l| y4[l] * y4[l]);
    let pair = |i: usize| lanes(&|l| k[i][l] + k[i + 1][l] * y[l]);
    let (p0, p2, p4, p6, p8) = (pair(0), pair(2), pair(4), pair(6), pair(8));
    lanes(&|l| (p0[l] + p2[l] * y2[l]) + (p4[l] + p6[l] * y2[l]) * y4[l] + p8[l] * y8[l])
}

/// `[S, C]` coefficient pairs: `(−1)ᵏ⁺¹/(2k+3)!` and `(−1)ᵏ/(2k+4)!` for `k = 0..=9`.
const SIN_COS: [[f64; 2]; 10] = [
    [-1.0 / 6.0, 1.0 / 24.0],
    [1.0 / 120.0, -1.0 / 720.0],
    [-1.0 / 5040.0, 1.0 / 40_320.0],
    [1.0 / 362_880.0, -1.0 / 3_628_800.0],
    [-1.0 / 39_916_800.0, 1.0 / 479_001_600.0],
    [1.0 / 6_227_020_800.0, -1.0 / 87_178_291_200.0],
    [-1.0 / 1_307_674_368_000.0, 1.0 / 20_922_789_888_000.0],
    [1.0 / 355_687_428_096_000.0, -1.0 / 6_402_373_705_728_000.0],
    [-1.0 / 121_645_100_408_832_000.0, 1.0 / 2_432_902_008_176_640_000.0],
    [1.0 / 51_090_942_171_709_440_000.0, -1.0 / 1_124_000_727_777_607_680_000.0],
];

/// The angle `φ ∈ [0, π/2]` of the first-quadrant unit vector `(c, s) = (cos φ, sin φ)`
/// (`atan2(s, c)` for `s, c ≥ 0`, `s² + c² = 1` to rounding), without a library call.
///
/// With `lo = min(s, c) = sin ψ`, `hi = max(s, c) = cos ψ`, `ψ ∈ [0, π/4]` and `φ = ψ` or
/// `π/2 − ψ`: the table angle `θₖ = asin(k/32)`, `k = ⌊32·lo⌋`, lies at most 0.043 below ψ,
/// and `ψ = θₖ + asin(lo·cos θₖ − hi·k/32)` (the sine of `ψ − θₖ`), where
///
/// `asin d = d + d·y(1/6 + 3y/40 + 5y²/112 + 35y³/1152 + 63y⁴/2816)`, `y = d²` (by Estrin's
/// scheme, as in [`sin_cos`]),
///
/// leaves out less than 1e-18 relative for `|d| ≤ 0.043`. Bucket 0 is `θ₀ = 0`, so small
/// angles keep their relative accuracy. A vector of norm `1 + ε` changes `ψ − θₖ` by
/// `ε(ψ − θₖ)`: negligible for a norm off by a few ulps.
#[inline(always)]
#[must_use]
pub fn unit_angle(s: f64, c: f64) -> f64 {
    let psi = low_angle(s.min(c), s.max(c));
    if s <= c {
        psi
    } else {
        std::f64::consts::FRAC_PI_2 - psi
    }
}

/// [`unit_angle`] of `(hi, lo) = (cos ψ, sin ψ)` known to be at most `π/4` (`lo ≤ hi`): `ψ`,
/// by the table and series there.
#[inline(always)]
#[must_use]
pub fn low_angle(lo: f64, hi: f64) -> f64 {
    // Clamped first (NaN to 0 by `as`), so the index is in the table and the conversion short.
    let k = (lo * 32.0).clamp(0.0, (ASIN_TABLE.len() - 1) as f64) as i32 as usize;
    let [theta, cos] = ASIN_TABLE[k];
    let d = lo * cos - hi * (k as f64 / 32.0);
    let (y, pair) = (d * d, |a: f64, b: f64, y: f64| a + b * y);
    let y2 = y * y;
    let poly = pair(1.0 / 6.0, 3.0 / 40.0, y) + pair(5.0 / 112.0, 35.0 / 1152.0, y) * y2 + 63.0 / 2816.0 * (y2 * y2);
    theta + (d + d * y * poly)
}

/// `[asin(k/32), √(1 − (k/32)²)]` for `k = 0..=22` (`lo ≤ √½ < 23/32`), correctly rounded
/// (checked against the standard library by `the_asin_table_is_exact`). Its `asin(1/2)` is
/// π/6 correctly rounded, one ulp above `FRAC_PI_6` (π rounded, then divided), which clippy
/// takes for an approximation of the constant.
#[allow(clippy::approx_constant)]
const ASIN_TABLE: [[f64; 2]; 23] = [
    [0.0, 1.0],
    [0.031255088499495154, 0.9995115994824673],
    [0.06254076179649139, 0.998044963916957],
    [0.09388787510751648, 0.9955957701296244],
    [0.1253278311680654, 0.9921567416492215],
    [0.1568928710204612, 0.9877175393299442],
    [0.1886163861754041, 0.982264602843857],
    [0.22053326092083333, 0.9757809372497497],
    [0.25268025514207865, 0.9682458365518543],
    [0.2850964402527462, 0.9596345332990055],
    [0.31782370392788073, 0.9499177595981665],
    [0.3509073435910811, 0.939061200082295],
    [0.3843967744956391, 0.9270248108869579],
    [0.4183463864434681, 0.9137619698258403],
    [0.4528165947449256, 0.899218410621135],
    [0.48787514754029293, 0.8833308765689106],
    [0.5235987755982989, 0.8660254037844386],
    [0.560075306226582, 0.8472151069828724],
    [0.5974064166453502, 0.8267972847076845],
    [0.6357112854013022, 0.8046495743489833],
    [0.6751315329370317, 0.7806247497997998],
    [0.7158380602251112, 0.7545435292281023],
    [0.758040765426236, 0.7261843774138906],
];

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Hand-checked: `sin(π/6) = ½`, `cos(π/3) = ½`, `sin(π/2) = 1`, `cos 0 = 1`, `sin 0 = 0`,
    /// and `sin 1 = 0.8414709848078965`, `cos 1 = 0.5403023058681398` (to 16 digits).
    #[test]
    fn sin_cos_by_hand() {
        use std::f64::consts::{FRAC_PI_2, FRAC_PI_3, FRAC_PI_6};
        let close = |a: f64, b: f64| (a - b).abs() <= 2.0 * f64::EPSILON;
        assert!(close(sin_cos(FRAC_PI_6).0, 0.5));
        assert!(close(sin_cos(FRAC_PI_3).1, 0.5));
        assert!(close(sin_cos(FRAC_PI_2).0, 1.0));
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
        assert!(close(sin_cos(1.0).0, 0.841_470_984_807_896_5));
        assert!(close(sin_cos(1.0).1, 0.540_302_305_868_139_8));
        // Slerp's sine: sin(π/6) = ½, sin(π/2) = 1, sin 1 as above.
        let [half, one] = sin2([FRAC_PI_6, FRAC_PI_2]);
        assert!(close(half, 0.5) && close(one, 1.0) && close(sin2([1.0, 0.0])[0], 0.841_470_984_807_896_5));
        assert_eq!(sin2([0.0, 0.0]), [0.0, 0.0]);
    }

    /// Slerp's sine on an even sweep of its whole range, both lanes, against the standard
    /// library: within 4e-16 and 2 ulps relative at every one of 20,002 points.
    #[test]
    fn sin2_sweeps_its_range() {
        let mut checked = 0;
        for i in 0..=10_000 {
            let x = std::f64::consts::FRAC_PI_2 * f64::from(i) / 10_000.0;
            for (x, s) in [x, x * 1e-6].into_iter().zip(sin2([x, x * 1e-6])) {
                let e = (s - x.sin()).abs();
                assert!(e <= 4e-16 && e <= 2.0 * f64::EPSILON * x.sin(), "sin {x}: {s} vs {}", x.sin());
                checked += 1;
            }
        }
        assert_eq!(checked, 20_002);
    }

    /// Hand-checked: `(√½, √½)` is at `π/4`, `(½, √¾)` at `π/6`, `(√¾, ½)` at `π/3`, the axes
    /// at 0 and `π/2`; a tiny angle keeps its relative accuracy.
    #[test]
    fn unit_angle_by_hand() {
        use std::f64::consts::{FRAC_1_SQRT_2, FRAC_PI_2, FRAC_PI_3, FRAC_PI_4, FRAC_PI_6};
        let r3 = 0.75f64.sqrt();
        let close = |a: f64, b: f64| (a - b).abs() <= 2.0 * f64::EPSILON;
        assert!(close(unit_angle(FRAC_1_SQRT_2, FRAC_1_SQRT_2), FRAC_PI_4));
        assert!(close(unit_angle(0.5, r3), FRAC_PI_6));
        assert!(close(unit_angle(r3, 0.5), FRAC_PI_3));
        assert_eq!(unit_angle(0.0, 1.0), 0.0);
        assert_eq!(unit_angle(1.0, 0.0), FRAC_PI_2);
        assert_eq!(unit_angle(1e-200, 1.0), 1e-200);
    }

    /// The table is what its doc says, to the last bit of the standard library's values.
    #[test]
    fn the_asin_table_is_exact() {
        for (k, [theta, cos]) in ASIN_TABLE.iter().enumerate() {
            let s = k as f64 / 32.0;
            assert!((theta - s.asin()).abs() <= f64::EPSILON * theta, "{k}");
            assert!((cos - (1.0 - s * s).sqrt()).abs() <= f64::EPSILON, "{k}");
        }
    }

    proptest! {
        /// Two at once are two one at a time, bit for bit.
        #[test]
        fn sin_cos2_is_two_sin_cos(a in -1.6f64..1.6, b in -1.6f64..1.6) {
            let (s, c) = sin_cos2([a, b]);
            prop_assert_eq!((s[0], c[0]), sin_cos(a));
            prop_assert_eq!((s[1], c[1]), sin_cos(b));
        }

        /// Slerp's sine against the standard library over its range, both lanes: within 4e-16
        /// (and within 2 ulps of the sine relatively, so small angles keep their accuracy).
        #[test]
        fn sin2_agrees_with_std(a in 0.0f64..=std::f64::consts::FRAC_PI_2, b in 0.0f64..1e-3) {
            for (x, s) in [a, b].into_iter().zip(sin2([a, b])) {
                prop_assert!((s - x.sin()).abs() <= 4e-16 && (s - x.sin()).abs() <= 2.0 * f64::EPSILON * x.sin(), "sin {x}: {s} vs {}", x.sin());
                prop_assert_eq!(sin2([-x, x]), [-s, s]);
            }
        }

        /// Against the standard library over the whole range: within 4e-16.
        #[test]
        fn sin_cos_agrees_with_std(x in -std::f64::consts::FRAC_PI_2..=std::f64::consts::FRAC_PI_2) {
            let (s, c) = sin_cos(x);
            prop_assert!((s - x.sin()).abs() <= 4e-16, "sin {x}: {s} vs {}", x.sin());
            prop_assert!((c - x.cos()).abs() <= 4e-16, "cos {x}: {c} vs {}", x.cos());
        }

        /// Against `atan2` on unit vectors of every first-quadrant angle: within 2 ulps of the
        /// angle, and relatively for small ones.
        #[test]
        fn unit_angle_agrees_with_atan2(phi in 0.0f64..std::f64::consts::FRAC_PI_2, tiny in 1e-300f64..1e-3) {
            let (s, c) = phi.sin_cos();
            let want = s.atan2(c);
            prop_assert!((unit_angle(s, c) - want).abs() <= 2.0 * f64::EPSILON * want.max(1e-300) + 1e-300, "{phi}");
            let (s, c) = tiny.sin_cos();
            prop_assert!((unit_angle(s, c) / s.atan2(c) - 1.0).abs() <= 2.0 * f64::EPSILON, "{tiny}");
        }
    }
}
