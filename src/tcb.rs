//! Kochanek–Bartels splines: ease and per-key tangents (SPEC §4, seed 001).
//!
//! A TCB segment from key i to key i+1 is the cubic Hermite curve
//! `f(u) = p_i h00(u) + rb_i h10(u) + p_{i+1} h01(u) + ra_{i+1} h11(u)` in local time `u`,
//! after `u` has been remapped by [`ease`]. `rb` is a key's outgoing tangent and `ra` its
//! incoming one; both are measured per unit of *local* segment time.

use crate::model::{Key, TangentMode};

/// The ease remapping of one segment's local time, `u ↦ e(u)` (SPEC §4 step 1), with its
/// first and second derivatives: the one definition that value, velocity, acceleration and
/// arc length all use.
///
/// Built from the segment's start key's `ease_from` (`a`) and end key's `ease_to` (`b`).
/// With `s = a + b`: if `s = 0` the identity; if `s > 1` both are scaled by `1/s`; with
/// `k = 1/(2 − a − b)`
///
/// ```text
///         (k/a)·u²               u < a        (accelerate)      e′ = 2(k/a)·u     e″ = 2k/a
/// e(u) =  k·(2u − a)             a ≤ u < 1−b  (constant speed)  e′ = 2k           e″ = 0
///         1 − (k/b)·(1 − u)²     u ≥ 1 − b    (decelerate)      e′ = 2(k/b)(1−u)  e″ = −2k/b
/// ```
///
/// It maps [0, 1] onto [0, 1] monotonically with `e′(0) = 0` when `a > 0` and `e′(1) = 0`
/// when `b > 0`. Out-of-range `u` is clamped (for `e` and `e′`), and an empty branch (a or
/// b = 0) is never entered, so every result is finite for every finite input.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ease {
    /// `a` and `b` after scaling, and `k`; `k = 0` (impossible otherwise: `k ≥ ½`) marks the
    /// identity.
    a: f64,
    b: f64,
    k: f64,
}

/// `e(u)`, `e′(u)` and `e″(u)` at one local time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EaseJet {
    pub value: f64,
    pub first: f64,
    pub second: f64,
}

impl Ease {
    /// No ease: `e(u) = u`.
    pub const IDENTITY: Self = Self { a: 0.0, b: 0.0, k: 0.0 };

    /// The ease of a segment whose start key has `ease_from = a` and end key `ease_to = b`
    /// (both in [0, 1], as validation guarantees).
    #[must_use]
    pub fn new(a: f64, b: f64) -> Self {
        let s = a + b;
        if s == 0.0 {
            return Self::IDENTITY;
        }
        let (a, b) = if s > 1.0 { (a / s, b / s) } else { (a, b) };
        Self { a, b, k: 1.0 / (2.0 - a - b) }
    }

    /// `(a, b, k)`, or `None` for the identity.
    #[inline]
    fn params(&self) -> Option<(f64, f64, f64)> {
        (self.k != 0.0).then_some((self.a, self.b, self.k))
    }

    /// Whether this is the identity (no ease on the segment).
    #[must_use]
    #[inline]
    pub fn is_identity(&self) -> bool {
        self.k == 0.0
    }

    /// `e(u)`.
    #[must_use]
    #[inline]
    pub fn value(&self, u: f64) -> f64 {
        let Some((a, b, k)) = self.params() else { return u };
        let u = u.clamp(0.0, 1.0);
        if u < a {
            (k / a) * u * u
        } else if u < 1.0 - b || b == 0.0 {
            k * (2.0 * u - a)
        } else {
            let v = 1.0 - u;
            1.0 - (k / b) * v * v
        }
    }

    /// `e(u)`, `e′(u)`, `e″(u)`. At a branch switch the branch that starts there is used.
    #[must_use]
    #[inline]
    pub fn jet(&self, u: f64) -> EaseJet {
        let Some((a, b, k)) = self.params() else { return EaseJet { value: u, first: 1.0, second: 0.0 } };
        let value = self.value(u);
        let c = u.clamp(0.0, 1.0);
        let (first, second) = if c < a {
            (2.0 * (k / a) * c, 2.0 * k / a)
        } else if c < 1.0 - b || b == 0.0 {
            (2.0 * k, 0.0)
        } else {
            (2.0 * (k / b) * (1.0 - c), -2.0 * k / b)
        };
        EaseJet { value, first, second }
    }

    /// The local times where the ease changes branch (`a` and `1 − b` after scaling), inside
    /// (0, 1). Integrators split there because the second derivative jumps.
    #[must_use]
    pub fn breaks(&self) -> [Option<f64>; 2] {
        let Some((a, b, _)) = self.params() else { return [None, None] };
        let inside = |x: f64| (x > 0.0 && x < 1.0).then_some(x);
        [inside(a), inside(1.0 - b)]
    }
}

/// `e(u)` for a segment with `ease_from = a` at its start and `ease_to = b` at its end: a
/// shorthand for [`Ease::new`]`(a, b).value(u)`.
#[must_use]
pub fn ease(u: f64, a: f64, b: f64) -> f64 {
    Ease::new(a, b).value(u)
}

/// Incoming (`ra`) and outgoing (`rb`) tangents of every key, flattened `key * dim + c`.
///
/// Runs of keys separated by a jump (two keys at one time) are treated as separate curves:
/// the keys on each side of a jump get end tangents, so no tangent divides by a zero gap.
/// For a key where a tangent is unused (`ra` of a run's first key, `rb` of its last) the
/// used tangent of the same key is stored, so the editor can draw a meaningful arrow.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KeyTangents {
    pub incoming: Vec<f64>,
    pub outgoing: Vec<f64>,
}

/// Computes [`KeyTangents`] for `keys` (already validated: sorted, finite, right length).
///
/// Interior key (prev, cur, next) with T, C, B of cur:
/// `g1 = (cur − prev)(1 + B)`, `g2 = (next − cur)(1 − B)`, `g3 = g2 − g1`,
/// `ra = (1 − T)(g1 + ½ g3 (1 + C))`, `rb = (1 − T)(g1 + ½ g3 (1 − C))`; in
/// [`TangentMode::TimeAdjusted`] then `ra ·= 2Δ₋/(Δ₋ + Δ₊)`, `rb ·= 2Δ₊/(Δ₋ + Δ₊)`.
/// First key: `rb = (1.5 (next − cur) − 0.5 ra_next)(1 − T)`; last key:
/// `ra = (1.5 (cur − prev) − 0.5 rb_prev)(1 − T)` (zero second derivative at the ends, using
/// the neighbour's tangent after time adjustment). Two keys: `rb_0 = ra_1 = (p1 − p0)(1 − T)`
/// with each key's own T. One key: zero.
#[must_use]
pub fn key_tangents(keys: &[Key], dim: usize, mode: TangentMode) -> KeyTangents {
    let n = keys.len();
    let mut ra = vec![0.0; n * dim];
    let mut rb = vec![0.0; n * dim];
    let mut lo = 0;
    while lo < n {
        let mut hi = lo;
        while hi + 1 < n && keys[hi + 1].time > keys[hi].time {
            hi += 1;
        }
        run_tangents(&keys[lo..=hi], dim, mode, &mut ra[lo * dim..(hi + 1) * dim], &mut rb[lo * dim..(hi + 1) * dim]);
        lo = hi + 1;
    }
    KeyTangents { incoming: ra, outgoing: rb }
}

fn run_tangents(keys: &[Key], dim: usize, mode: TangentMode, ra: &mut [f64], rb: &mut [f64]) {
    let n = keys.len();
    if n < 2 {
        return;
    }
    let last = n - 1;
    if n == 2 {
        for c in 0..dim {
            let d = keys[1].value[c] - keys[0].value[c];
            rb[c] = d * (1.0 - keys[0].tension);
            ra[dim + c] = d * (1.0 - keys[1].tension);
        }
    } else {
        for i in 1..last {
            let (prev, cur, next) = (&keys[i - 1], &keys[i], &keys[i + 1]);
            let (t, cont, b) = (cur.tension, cur.continuity, cur.bias);
            let (scale_in, scale_out) = match mode {
                TangentMode::Seed => (1.0, 1.0),
                TangentMode::TimeAdjusted => {
                    let dm = cur.time - prev.time;
                    let dp = next.time - cur.time;
                    (2.0 * dm / (dm + dp), 2.0 * dp / (dm + dp))
                }
            };
            for c in 0..dim {
                let g1 = (cur.value[c] - prev.value[c]) * (1.0 + b);
                let g2 = (next.value[c] - cur.value[c]) * (1.0 - b);
                let g3 = g2 - g1;
                ra[i * dim + c] = (1.0 - t) * (g1 + 0.5 * g3 * (1.0 + cont)) * scale_in;
                rb[i * dim + c] = (1.0 - t) * (g1 + 0.5 * g3 * (1.0 - cont)) * scale_out;
            }
        }
        for c in 0..dim {
            let (p0, p1) = (keys[0].value[c], keys[1].value[c]);
            rb[c] = (1.5 * (p1 - p0) - 0.5 * ra[dim + c]) * (1.0 - keys[0].tension);
            let (pl, pm) = (keys[last].value[c], keys[last - 1].value[c]);
            ra[last * dim + c] = (1.5 * (pl - pm) - 0.5 * rb[(last - 1) * dim + c]) * (1.0 - keys[last].tension);
        }
    }
    // Unused end tangents mirror the used one of the same key, for display.
    for c in 0..dim {
        ra[c] = rb[c];
        rb[last * dim + c] = ra[last * dim + c];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(t: f64, v: f64) -> Key {
        Key::new(t, vec![v])
    }

    #[test]
    fn ease_hand_values() {
        // a = b = 0: identity.
        assert_eq!(ease(0.3, 0.0, 0.0), 0.3);
        // a = 0.5, b = 0: k = 1/1.5; u = 0.25 < a: (k/a) u² = (2/1.5)(0.0625) = 1/12.
        assert!((ease(0.25, 0.5, 0.0) - 1.0 / 12.0).abs() < 1e-15);
        // u = 0.75 ≥ a: k (2u − a) = (1/1.5)(1.0) = 2/3.
        assert!((ease(0.75, 0.5, 0.0) - 2.0 / 3.0).abs() < 1e-15);
        // a = b = 1 (s = 2 > 1 → a = b = 0.5, k = 1): u = 0.25 → 2·0.0625 = 0.125; symmetric.
        assert!((ease(0.25, 1.0, 1.0) - 0.125).abs() < 1e-15);
        assert!((ease(0.75, 1.0, 1.0) - 0.875).abs() < 1e-15);
        assert_eq!(ease(0.0, 0.3, 0.4), 0.0);
        assert!((ease(1.0, 0.3, 0.4) - 1.0).abs() < 1e-15);
        // b = 0 at u = 1 must not produce 0·∞.
        assert!((ease(1.0, 0.6, 0.0) - 1.0).abs() < 1e-15);
        assert!((ease(0.0, 0.0, 0.6)).abs() < 1e-15);
    }

    /// a = 0.5, b = 0: k = 2/3, k/a = 4/3. At u = 0.25: e′ = 2·(4/3)·0.25 = 2/3, e″ = 8/3;
    /// at u = 0.75 (constant branch): e′ = 2k = 4/3, e″ = 0. a = b = 1 scales to 0.5 each with
    /// k = 1: at u = 0.75, e′ = 2·2·0.25 = 1, e″ = −4.
    #[test]
    fn ease_jet_hand_values() {
        let e = Ease::new(0.5, 0.0);
        let j = e.jet(0.25);
        assert!((j.value - 1.0 / 12.0).abs() < 1e-15 && (j.first - 2.0 / 3.0).abs() < 1e-15 && (j.second - 8.0 / 3.0).abs() < 1e-15, "{j:?}");
        let j = e.jet(0.75);
        assert!((j.first - 4.0 / 3.0).abs() < 1e-15 && j.second == 0.0, "{j:?}");
        let j = Ease::new(1.0, 1.0).jet(0.75);
        assert!((j.first - 1.0).abs() < 1e-15 && (j.second + 4.0).abs() < 1e-15, "{j:?}");
        assert_eq!(Ease::new(0.0, 0.0).jet(0.3), EaseJet { value: 0.3, first: 1.0, second: 0.0 });
        assert_eq!(Ease::new(0.3, 0.4).breaks(), [Some(0.3), Some(0.6)]);
    }

    #[test]
    fn ease_derivative_matches_difference_quotient() {
        for &(a, b) in &[(0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.3, 0.4), (1.0, 1.0), (0.8, 0.6)] {
            for i in 1..100 {
                let u = i as f64 / 100.0 + 0.0031;
                if u >= 1.0 {
                    continue;
                }
                let h = 1e-7;
                let e = Ease::new(a, b);
                let fd = (e.value(u + h) - e.value(u - h)) / (2.0 * h);
                assert!((fd - e.jet(u).first).abs() < 1e-5, "a={a} b={b} u={u}");
                let fd2 = (e.jet(u + h).first - e.jet(u - h).first) / (2.0 * h);
                let near_break = e.breaks().iter().flatten().any(|x| (x - u).abs() < 2.0 * h);
                assert!(near_break || (fd2 - e.jet(u).second).abs() < 1e-5, "a={a} b={b} u={u}");
            }
        }
    }

    #[test]
    fn tension_one_gives_zero_tangents() {
        let keys = vec![k(0.0, 0.0), k(1.0, 3.0).with_tcb(1.0, 0.0, 0.0), k(2.0, 1.0)];
        let tg = key_tangents(&keys, 1, TangentMode::Seed);
        assert_eq!(tg.incoming[1], 0.0);
        assert_eq!(tg.outgoing[1], 0.0);
    }

    #[test]
    fn interior_catmull_rom_and_time_adjusted_hand_values() {
        // Keys (0,0), (1,2), (3,5); SEMANTICS.md A table: seed ra=rb=2.5, rb0=1.75, ra2=3.25;
        // time-adjusted ra1=5/3, rb1=10/3, rb0=13/6, ra2=17/6.
        let keys = vec![k(0.0, 0.0), k(1.0, 2.0), k(3.0, 5.0)];
        let s = key_tangents(&keys, 1, TangentMode::Seed);
        assert_eq!((s.incoming[1], s.outgoing[1], s.outgoing[0], s.incoming[2]), (2.5, 2.5, 1.75, 3.25));
        let ta = key_tangents(&keys, 1, TangentMode::TimeAdjusted);
        let want = [5.0 / 3.0, 10.0 / 3.0, 13.0 / 6.0, 17.0 / 6.0];
        let got = [ta.incoming[1], ta.outgoing[1], ta.outgoing[0], ta.incoming[2]];
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-14, "{got:?}");
        }
    }

    #[test]
    fn continuity_minus_one_makes_box_corners() {
        // C = −1: ra = (1−T) g1 (pure incoming chord), rb = (1−T) g2 (pure outgoing chord).
        let keys = vec![k(0.0, 0.0), k(1.0, 1.0).with_tcb(0.0, -1.0, 0.0), k(2.0, 3.0)];
        let tg = key_tangents(&keys, 1, TangentMode::Seed);
        assert_eq!(tg.incoming[1], 1.0);
        assert_eq!(tg.outgoing[1], 2.0);
    }

    #[test]
    fn two_keys_use_own_tension() {
        let keys = vec![k(0.0, 1.0).with_tcb(0.5, 0.0, 0.0), k(2.0, 5.0).with_tcb(-0.5, 0.0, 0.0)];
        let tg = key_tangents(&keys, 1, TangentMode::Seed);
        assert_eq!(tg.outgoing[0], 2.0);
        assert_eq!(tg.incoming[1], 6.0);
    }

    #[test]
    fn a_jump_splits_the_tangent_runs() {
        let keys = vec![k(0.0, 0.0), k(1.0, 1.0), k(1.0, 10.0), k(2.0, 12.0)];
        let tg = key_tangents(&keys, 1, TangentMode::TimeAdjusted);
        assert_eq!(tg.incoming[1], 1.0);
        assert_eq!(tg.outgoing[2], 2.0);
        assert!(tg.incoming.iter().chain(&tg.outgoing).all(|x| x.is_finite()));
    }
}
