//! Blender's easing interpolation modes (Back, Bounce, Circular, Cubic, Elastic, Exponential,
//! Quadratic, Quartic, Quintic, Sinusoidal; also Constant and Linear) with their `easing`
//! (Automatic, In, Out, In and Out): the value of a segment after a key and its slope, exactly as
//! Blender 3.4 evaluates an F-Curve with such keys.
//!
//! The formulas are Robert Penner's easing equations as Blender writes them in
//! `source/blender/blenlib/intern/easing.c` (`BLI_easing_*`); which one a key's `interpolation`
//! and `easing` select, and with which arguments, is `fcurve_eval_keyframes_interpolate` in
//! `source/blender/blenkernel/intern/fcurve.c`:
//!
//! - `time` = evaluation time − key time, `begin` = key value, `change` = next key value − key
//!   value, `duration` = next key time − key time; `back`, `amplitude` and `period` are the
//!   key's own (the key that starts the segment);
//! - a segment of `duration` 0 (and a Constant one) is the key's value;
//! - Linear is `BLI_easing_linear_ease`;
//! - Automatic easing ([`Easing::resolved`]) is Ease Out for Back, Bounce and Elastic and Ease In
//!   for the seven others.
//!
//! Blender computes in float32; this module follows the same formulas and branches in f64, so
//! values agree with Blender to float32 rounding (`tests/easing_reference.rs` checks them against
//! Blender 3.4.1 itself, `tests/reference/blender_easing.json`). Times are in whatever unit the
//! caller uses for `duration` (Tangent: seconds); Elastic's `period` is in the same unit (Blender
//! keeps it in frames: divide by the frame rate).
//!
//! Both [`ease`] and [`ease_derivative`] come from one definition of each formula, evaluated on
//! a dual number (value and d/dt carried together), so the slope is the exact derivative of the
//! value's formula, branch by branch.

use std::f64::consts::{FRAC_PI_2, PI};
use std::ops::{Add, Div, Mul, Neg, Sub};

/// The segment after a key, as Blender's keyframe `interpolation` (BEZT_IPO_*).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum KeyInterpolation {
    #[default]
    Bezier,
    Constant,
    Linear,
    Back,
    Bounce,
    Circ,
    Cubic,
    Elastic,
    Expo,
    Quad,
    Quart,
    Quint,
    Sine,
}

/// Blender's keyframe `easing`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Easing {
    #[default]
    Auto,
    In,
    Out,
    InOut,
}

/// Blender's default `back` of a new key (Back's overshoot).
pub const DEFAULT_BACK: f64 = 1.70158;
/// Blender's default `amplitude` of a new key (Elastic).
pub const DEFAULT_AMPLITUDE: f64 = 0.8;
/// Blender's default period is 4.1 frames; Tangent keeps seconds: 4.1 / 24 (Blender's default frame rate).
pub const DEFAULT_PERIOD: f64 = 4.1 / 24.0;

/// A key's easing parameters: Back's `back` (overshoot) and Elastic's `amplitude` and
/// `period`. The period is in the same time unit as the segment's `duration`; 0 means
/// Blender's automatic period (0.3 × duration, 0.45 × duration for In and Out).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EaseParams {
    pub back: f64,
    pub amplitude: f64,
    pub period: f64,
}

impl Default for EaseParams {
    /// Blender's values for a new key: back 1.70158, amplitude 0.8, period 4.1 frames at 24 fps.
    fn default() -> Self {
        Self { back: DEFAULT_BACK, amplitude: DEFAULT_AMPLITUDE, period: DEFAULT_PERIOD }
    }
}

impl KeyInterpolation {
    /// Every mode, in Blender's order of `BEZT_IPO_*` (Bezier, Constant, Linear, then the
    /// easing modes alphabetically).
    pub const ALL: [Self; 13] = {
        use KeyInterpolation::*;
        [Bezier, Constant, Linear, Back, Bounce, Circ, Cubic, Elastic, Expo, Quad, Quart, Quint, Sine]
    };

    /// Back to Sine: the modes that Blender evaluates with an easing equation and whose key's
    /// `easing` matters.
    pub fn is_easing(self) -> bool {
        !matches!(self, Self::Bezier | Self::Constant | Self::Linear)
    }

    /// Blender's name for the mode in its menus.
    pub fn label(self) -> &'static str {
        const LABELS: [&str; 13] =
            ["Bezier", "Constant", "Linear", "Back", "Bounce", "Circular", "Cubic", "Elastic", "Exponential", "Quadratic", "Quartic", "Quintic", "Sinusoidal"];
        LABELS[self as usize]
    }
}

impl Easing {
    /// Every easing, in Blender's order.
    pub const ALL: [Self; 4] = [Self::Auto, Self::In, Self::Out, Self::InOut];

    /// Blender's name for the easing in its menus.
    pub fn label(self) -> &'static str {
        ["Automatic Easing", "Ease In", "Ease Out", "Ease In and Out"][self as usize]
    }

    /// Which of In, Out and InOut this easing means for `mode`: itself unless Auto; Auto is
    /// Out for Back, Bounce and Elastic and In for every other mode (the `default:` branches of
    /// `fcurve_eval_keyframes_interpolate`). Bezier, Constant and Linear ignore the easing.
    pub fn resolved(self, mode: KeyInterpolation) -> Easing {
        use KeyInterpolation::{Back, Bounce, Elastic};
        match self {
            Self::Auto if matches!(mode, Back | Bounce | Elastic) => Self::Out,
            Self::Auto => Self::In,
            other => other,
        }
    }
}

/// The value of an eased segment at time `t` after its start (0 ≤ t ≤ duration), Blender's
/// call for `mode` (one of the easing modes, Linear or Constant also accepted) with `begin`, `change`, `duration`.
///
/// As Blender: Constant, and any segment whose `duration` is 0, is `begin`; Linear is
/// `change · t / duration + begin` (`BLI_easing_linear_ease`). Bezier needs the keys' handles,
/// which this function does not have: it is given the Linear value (the Bezier segment whose
/// handles lie on the chord). Outside Blender's domain the result stays finite: `t` is clamped
/// to [0, duration] and a negative `duration` is treated as 0.
pub fn ease(mode: KeyInterpolation, easing: Easing, p: EaseParams, t: f64, begin: f64, change: f64, duration: f64) -> f64 {
    segment(mode, easing, p, t, begin, change, duration).v
}

/// d/dt of the same (analytic where defined; for the speed graph and arc length).
///
/// The exact derivative of the formula [`ease`] uses at `t`. Where Blender's value jumps or
/// kinks it is one-sided: at t = 0 and t = duration, where Blender returns the key values
/// (Elastic, Exponential), the slope of the formula there; at a branch boundary the slope of
/// the branch Blender takes. Circular's slope is infinite where the curve turns vertical (In at
/// its end, Out at its start, In and Out at its middle): there it is the slope at the float32
/// time nearest to that point, where `1 − u²` is 2⁻²³ (about 2900 × change / duration, twice that for In and Out).
/// Constant, zero-duration and clamped-away times give 0. A slope beyond f64's range (only with
/// an Elastic period or blend width near 1e-300 of the segment) is ±`f64::MAX`.
pub fn ease_derivative(mode: KeyInterpolation, easing: Easing, p: EaseParams, t: f64, begin: f64, change: f64, duration: f64) -> f64 {
    let slope = segment(mode, easing, p, t, begin, change, duration).d;
    // Beyond f64 only for absurd parameters (an Elastic period or blend near 1e-300 of the
    // segment): the largest finite slope of that sign.
    if slope.is_nan() {
        0.0
    } else {
        slope.clamp(-f64::MAX, f64::MAX)
    }
}

/// Both [`ease`] and [`ease_derivative`]: the chosen formula on `t` as a dual number.
fn segment(mode: KeyInterpolation, easing: Easing, p: EaseParams, t: f64, b: f64, c: f64, d: f64) -> Dual {
    use KeyInterpolation::*;
    if mode == Constant || d <= 0.0 || d.is_nan() {
        return Dual::constant(b);
    }
    let time = if t < 0.0 || t > d { Dual::constant(t.clamp(0.0, d)) } else { Dual::var(t) };
    let e = easing.resolved(mode);
    match mode {
        Bezier | Constant | Linear => time * c / d + b,
        Back => back(e, time, b, c, d, p.back),
        Bounce => bounce(e, time, b, c, d),
        Circ => circ(e, time, b, c, d),
        Cubic | Quad | Quart | Quint => power(mode, e, time, b, c, d),
        Elastic => elastic(e, time, b, c, d, p.amplitude, p.period),
        Expo => expo(e, time, b, c, d),
        Sine => sine(e, time, b, c, d),
    }
}

/// Back (`BLI_easing_back_ease_*`), overshoot `s` = the key's `back` (used as given: Blender
/// 3.4 does not replace 0 by 1.70158), u = t / d:
///
/// - In: `c·u²·((s + 1)·u − s) + b`;
/// - Out, with u − 1 for u: `c·(u²·((s + 1)·u + s) + 1) + b`;
/// - In and Out, s × 1.525 and u = t / (d / 2): `c/2·(u²·((s + 1)·u − s)) + b` for u < 1,
///   else with u − 2 for u `c/2·(u²·((s + 1)·u + s) + 2) + b`.
fn back(e: Easing, t: Dual, b: f64, c: f64, d: f64, s: f64) -> Dual {
    match e {
        Easing::Out => {
            let u = t / d - 1.0;
            (u * u * ((s + 1.0) * u + s) + 1.0) * c + b
        }
        Easing::InOut => {
            let s = s * 1.525;
            let u = t / (d / 2.0);
            if u.v < 1.0 {
                u * u * ((s + 1.0) * u - s) * (c / 2.0) + b
            } else {
                let u = u - 2.0;
                (u * u * ((s + 1.0) * u + s) + 2.0) * (c / 2.0) + b
            }
        }
        _ => {
            let u = t / d;
            u * u * ((s + 1.0) * u - s) * c + b
        }
    }
}

/// Bounce (`BLI_easing_bounce_ease_*`). Out, u = t / d, four parabolas of 7.5625 = 2.75²:
/// `c·(7.5625·u²) + b` for u < 1/2.75, then `c·(7.5625·(u − k)² + h) + b` with
/// (k, h) = (1.5/2.75, 0.75) below 2/2.75, (2.25/2.75, 0.9375) below 2.5/2.75, else
/// (2.625/2.75, 0.984375). In: `c − Out(d − t, 0, c, d) + b`. In and Out: `In(2t, 0, c, d)/2 + b`
/// for t < d/2, else `Out(2t − d, 0, c, d)/2 + c/2 + b`.
fn bounce(e: Easing, t: Dual, b: f64, c: f64, d: f64) -> Dual {
    match e {
        Easing::Out => bounce_out(t, b, c, d),
        Easing::InOut if t.v < d / 2.0 => bounce_in(t * 2.0, 0.0, c, d) * 0.5 + b,
        Easing::InOut => bounce_out(t * 2.0 - d, 0.0, c, d) * 0.5 + c * 0.5 + b,
        _ => bounce_in(t, b, c, d),
    }
}

fn bounce_in(t: Dual, b: f64, c: f64, d: f64) -> Dual {
    -bounce_out(-t + d, 0.0, c, d) + c + b
}

fn bounce_out(t: Dual, b: f64, c: f64, d: f64) -> Dual {
    let u = t / d;
    let (k, h) = if u.v < 1.0 / 2.75 {
        return u * u * 7.5625 * c + b;
    } else if u.v < 2.0 / 2.75 {
        (1.5 / 2.75, 0.75)
    } else if u.v < 2.5 / 2.75 {
        (2.25 / 2.75, 0.9375)
    } else {
        (2.625 / 2.75, 0.984375)
    };
    let u = u - k;
    (u * 7.5625 * u + h) * c + b
}

/// Circular (`BLI_easing_circ_ease_*`), u = t / d: In `−c·(√(1 − u²) − 1) + b`; Out, with
/// u − 1 for u, `c·√(1 − u²) + b`; In and Out, u = t / (d / 2): `−c/2·(√(1 − u²) − 1) + b` for
/// u < 1, else with u − 2 for u `c/2·(√(1 − u²) + 1) + b`. A negative `1 − u²` (float rounding
/// at the ends, NaN in Blender) is taken as 0.
fn circ(e: Easing, t: Dual, b: f64, c: f64, d: f64) -> Dual {
    let root = |u: Dual| (-(u * u) + 1.0).sqrt();
    match e {
        Easing::Out => root(t / d - 1.0) * c + b,
        Easing::InOut => {
            let u = t / (d / 2.0);
            if u.v < 1.0 {
                (root(u) - 1.0) * (-c / 2.0) + b
            } else {
                (root(u - 2.0) + 1.0) * (c / 2.0) + b
            }
        }
        _ => (root(t / d) - 1.0) * -c + b,
    }
}

/// Quadratic, Cubic, Quartic and Quintic (`BLI_easing_{quad,cubic,quart,quint}_ease_*`), n = 2,
/// 3, 4, 5, u = t / d. In: `c·uⁿ + b`. Out: Quadratic `−c·u·(u − 2) + b`; the others with
/// u − 1 for u: Cubic and Quintic `c·(uⁿ + 1) + b`, Quartic `−c·(u⁴ − 1) + b`. In and Out,
/// u = t / (d / 2): `c/2·uⁿ + b` for u < 1; else Quadratic with u − 1 for u
/// `−c/2·(u·(u − 2) − 1) + b`, the others with u − 2 for u: Cubic and Quintic
/// `c/2·(uⁿ + 2) + b`, Quartic `−c/2·(u⁴ − 2) + b`.
fn power(mode: KeyInterpolation, e: Easing, t: Dual, b: f64, c: f64, d: f64) -> Dual {
    let n = match mode {
        KeyInterpolation::Quad => 2,
        KeyInterpolation::Cubic => 3,
        KeyInterpolation::Quart => 4,
        _ => 5,
    };
    match (e, n) {
        (Easing::Out, 2) => {
            let u = t / d;
            u * (u - 2.0) * -c + b
        }
        (Easing::Out, 4) => ((t / d - 1.0).powi(4) - 1.0) * -c + b,
        (Easing::Out, _) => ((t / d - 1.0).powi(n) + 1.0) * c + b,
        (Easing::InOut, _) => {
            let u = t / (d / 2.0);
            if u.v < 1.0 {
                u.powi(n) * (c / 2.0) + b
            } else if n == 2 {
                let u = u - 1.0;
                (u * (u - 2.0) - 1.0) * (-c / 2.0) + b
            } else if n == 4 {
                ((u - 2.0).powi(4) - 2.0) * (-c / 2.0) + b
            } else {
                ((u - 2.0).powi(n) + 2.0) * (c / 2.0) + b
            }
        }
        _ => (t / d).powi(n) * c + b,
    }
}

/// Elastic (`BLI_easing_elastic_ease_*`, with Blender's `USE_ELASTIC_BLEND`).
///
/// At t = 0 the value is `b`, at t = d it is `b + c` (Blender's early returns). Otherwise, with
/// τ the normalised time shifted to end at 0 (In: u − 1, Out: −u, u = t / d; In and Out:
/// u − 1 with u = t / (d / 2), and −(u − 1) past the middle):
///
/// - a period of 0 is `0.3·d` (In and Out: `0.45·d`);
/// - if the amplitude A ≥ |c| (and is not 0): `s = P / 2π · asin(c / A)`, blend f = 1;
/// - else (A = 0 or A < |c|): `s = P / 4`, A is replaced by `c`, and the blend
///   f = A / |c| (0 when A = 0) rises linearly to 1 over the last `|s|` of time before the
///   crossing: where `|τ·d| < |s|`, with l = |τ·d| / |s|, f ← f·l + (1 − l). With c = 0, f = 1.
///
/// Then, W = `A·2^(10τ)·sin((τ·d − s)·2π / P)`: In `−f·W + b`; Out `f·W + c + b`; In and Out
/// `−f/2·W + b` before the middle, `f/2·W + c + b` from it on.
///
/// So amplitude 0 means no oscillation past the blend, and an amplitude with `c = 0` still
/// oscillates (around `b`), as in Blender. Every case is finite: `d > 0` makes the automatic
/// period non-zero and `|c / A| ≤ 1` where the arcsine is taken; a period too short for f64 to
/// hold the phase gives no wave ([`elastic_sine`]).
fn elastic(e: Easing, t: Dual, b: f64, c: f64, d: f64, amplitude: f64, period: f64) -> Dual {
    let (tau, period) = match e {
        Easing::Out => (-(t / d), if period == 0.0 { d * 0.3 } else { period }),
        Easing::InOut => (t / (d / 2.0) - 1.0, if period == 0.0 { d * (0.3 * 1.5) } else { period }),
        _ => (t / d - 1.0, if period == 0.0 { d * 0.3 } else { period }),
    };
    // The wave's amplitude: Blender's f × A (see `elastic_blend`), or A with f = 1.
    let (s, fa) = if amplitude == 0.0 || amplitude < c.abs() {
        let s = period / 4.0;
        (s, elastic_blend(tau, c, d, amplitude, s))
    } else {
        let s = period / (2.0 * PI) * (c / amplitude).asin();
        (s, Dual::constant(amplitude))
    };
    let wave = |tau: Dual| (tau * 10.0).exp2() * elastic_sine(tau * d - s, period);
    let value = match e {
        Easing::Out => fa * wave(tau) + c + b,
        Easing::InOut if tau.v < 0.0 => fa * -0.5 * wave(tau) + b,
        Easing::InOut => fa * 0.5 * wave(-tau) + c + b,
        _ => -(fa * wave(tau)) + b,
    };
    let end = match e {
        Easing::InOut => t.v / (d / 2.0) == 2.0,
        _ => t.v / d == 1.0,
    };
    value.at_key(t.v == 0.0, b).at_key(end, b + c)
}

/// `sin(x · 2π / P)`; 0 when the phase or its slope overflows f64 (a period below about 1e-300
/// of the segment: no float resolves such a wave; Blender, in float32, never gets there).
fn elastic_sine(x: Dual, period: f64) -> Dual {
    let phase = x * (2.0 * PI / period);
    if phase.v.is_finite() && phase.d.is_finite() {
        phase.sin()
    } else {
        Dual::constant(0.0)
    }
}

/// Blender's `elastic_blend` times the amplitude it then uses (`c`): f·c, which is
/// `A·sign(c)` (0 when A = 0), blended linearly to `c` where `|τ·d| < |s|`:
/// `A·sign(c)·l + c·(1 − l)`, l = |τ·d| / |s|; 0 when c = 0. Written as the product so that a
/// tiny |c| cannot overflow the factor A / |c|.
fn elastic_blend(tau: Dual, c: f64, d: f64, amplitude: f64, s: f64) -> Dual {
    if c == 0.0 {
        return Dual::constant(0.0);
    }
    let width = s.abs();
    let fc = if amplitude != 0.0 { amplitude * c.signum() } else { 0.0 };
    let x = (tau * d).abs();
    if x.v < width {
        let l = x / width;
        l * fc + (-l + 1.0) * c
    } else {
        Dual::constant(fc)
    }
}

/// 2⁻¹⁰: Exponential's `2^(10(u − 1))` at u = 0, subtracted so the curve starts at its key.
const POW_MIN: f64 = 1.0 / 1024.0;
/// 1 / (1 − 2⁻¹⁰): rescales Exponential so that it ends at its key.
const POW_SCALE: f64 = 1.0 / (1.0 - 1.0 / 1024.0);

/// Exponential (`BLI_easing_expo_ease_*`, Blender 3.4's rescaled form that meets both keys),
/// u = t / d: In `c·(2^(10(u − 1)) − 2⁻¹⁰)/(1 − 2⁻¹⁰) + b`; Out
/// `c·(1 − (2^(−10u) − 2⁻¹⁰)/(1 − 2⁻¹⁰)) + b`; both `b` at t = 0. In and Out: In with half the
/// change over half the duration for t ≤ d/2, else Out from `b + c/2` over the second half.
fn expo(e: Easing, t: Dual, b: f64, c: f64, d: f64) -> Dual {
    match e {
        Easing::Out => expo_out(t, b, c, d),
        Easing::InOut if t.v <= d / 2.0 => expo_in(t, b, c / 2.0, d / 2.0),
        Easing::InOut => expo_out(t - d / 2.0, b + c / 2.0, c / 2.0, d / 2.0),
        _ => expo_in(t, b, c, d),
    }
}

fn expo_in(t: Dual, b: f64, c: f64, d: f64) -> Dual {
    let value = (((t / d - 1.0) * 10.0).exp2() - POW_MIN) * POW_SCALE * c + b;
    value.at_key(t.v == 0.0, b)
}

fn expo_out(t: Dual, b: f64, c: f64, d: f64) -> Dual {
    let value = (-(((t * -10.0) / d).exp2() - POW_MIN) * POW_SCALE + 1.0) * c + b;
    value.at_key(t.v == 0.0, b)
}

/// Sinusoidal (`BLI_easing_sine_ease_*`), u = t / d: In `−c·cos(u·π/2) + c + b`; Out
/// `c·sin(u·π/2) + b`; In and Out `−c/2·(cos(π·u) − 1) + b`.
fn sine(e: Easing, t: Dual, b: f64, c: f64, d: f64) -> Dual {
    match e {
        Easing::Out => (t / d * FRAC_PI_2).sin() * c + b,
        Easing::InOut => ((t * PI / d).cos() - 1.0) * (-c / 2.0) + b,
        _ => (t / d * FRAC_PI_2).cos() * -c + c + b,
    }
}

/// √(2⁻²³): the smallest `√(1 − u²)` a float32 time u < 1 gives; Circular's slope is taken
/// there where the exact one is infinite.
const SQRT_FLOOR: f64 = 3.452_669_830_012_439e-4;

/// A value and its derivative with respect to the segment time: forward-mode differentiation,
/// so that each formula above is written once for both.
#[derive(Clone, Copy, Debug)]
struct Dual {
    v: f64,
    d: f64,
}

impl Dual {
    fn var(v: f64) -> Self {
        Self { v, d: 1.0 }
    }
    fn constant(v: f64) -> Self {
        Self { v, d: 0.0 }
    }
    fn powi(self, n: i32) -> Self {
        Self { v: self.v.powi(n), d: f64::from(n) * self.v.powi(n - 1) * self.d }
    }
    /// √max(v, 0); the derivative uses max(√v, [`SQRT_FLOOR`]) so it stays finite.
    fn sqrt(self) -> Self {
        let r = self.v.max(0.0).sqrt();
        Self { v: r, d: self.d / (2.0 * r.max(SQRT_FLOOR)) }
    }
    fn sin(self) -> Self {
        Self { v: self.v.sin(), d: self.v.cos() * self.d }
    }
    fn cos(self) -> Self {
        Self { v: self.v.cos(), d: -self.v.sin() * self.d }
    }
    fn exp2(self) -> Self {
        let v = self.v.exp2();
        Self { v, d: v * std::f64::consts::LN_2 * self.d }
    }
    /// This value, with `v` instead where `key` (Blender's early return of a key's value); the
    /// slope stays the formula's.
    fn at_key(self, key: bool, v: f64) -> Self {
        if key {
            Self { v, d: self.d }
        } else {
            self
        }
    }
    /// |v|; at 0 the slope of −v, which is the one-sided slope at the ends of a segment.
    fn abs(self) -> Self {
        if self.v > 0.0 {
            self
        } else {
            -self
        }
    }
}

/// `impl Op<Rhs> for Lhs` from the value and derivative of `a op b`.
macro_rules! dual_op {
    ($op:ident, $f:ident, $lhs:ty, $rhs:ty, |$a:ident, $b:ident| $v:expr, $d:expr) => {
        impl $op<$rhs> for $lhs {
            type Output = Dual;
            fn $f(self, o: $rhs) -> Dual {
                let ($a, $b) = (self, o);
                Dual { v: $v, d: $d }
            }
        }
    };
}
dual_op!(Add, add, Dual, Dual, |a, b| a.v + b.v, a.d + b.d);
dual_op!(Add, add, Dual, f64, |a, b| a.v + b, a.d);
dual_op!(Sub, sub, Dual, Dual, |a, b| a.v - b.v, a.d - b.d);
dual_op!(Sub, sub, Dual, f64, |a, b| a.v - b, a.d);
dual_op!(Mul, mul, Dual, Dual, |a, b| a.v * b.v, a.d * b.v + a.v * b.d);
dual_op!(Mul, mul, Dual, f64, |a, b| a.v * b, a.d * b);
dual_op!(Mul, mul, f64, Dual, |a, b| a * b.v, a * b.d);
dual_op!(Div, div, Dual, f64, |a, b| a.v / b, a.d / b);

impl Neg for Dual {
    type Output = Self;
    fn neg(self) -> Self {
        Self { v: -self.v, d: -self.d }
    }
}

#[cfg(test)]
#[path = "easing_tests.rs"]
mod tests;
