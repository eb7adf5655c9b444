//! [`SlerpPair::at`] split so that many pairs are evaluated at once (the clip player's Slerp
//! tracks, [`crate::player`]): the weights of sine-weighted arcs over arrays, one pair per
//! lane ([`arc_weights`], a loop the compiler vectorizes), then each pair's mix of its two
//! quaternions ([`mix`]). The same operations as [`SlerpPair::at`], so the same
//! bits; what is not an arc at a time in `[0, 1]` is left to `at`.

use super::{Quat, SlerpForm, SlerpPair};
use crate::trig::sin2;

impl SlerpPair {
    /// `(θ, 1/sin θ)` of a sine-weighted arc, the pairs whose weights [`arc_weights`]
    /// computes; `None` for the same rotation twice and for pairs close enough for the
    /// normalised lerp.
    #[inline(always)]
    #[must_use]
    pub(crate) fn arc(&self) -> Option<(f64, f64)> {
        (self.form == SlerpForm::Arc).then_some((self.theta, self.inv_sin))
    }

    /// `q0`, `q1′` (`q1` on `q0`'s side) and [`Self::arc`]: what [`mix`] and
    /// [`arc_weights`] read, for a copy kept elsewhere (the clip player's records).
    #[must_use]
    pub(crate) fn parts(&self) -> (Quat, Quat, Option<(f64, f64)>) {
        (self.q0, self.q1, self.arc())
    }
}

/// `q0·ws + q1′·wt` of a pair's [`SlerpPair::parts`]: with the weights of [`arc_weights`],
/// [`SlerpPair::at`] on an arc.
#[inline(always)]
#[must_use]
pub(crate) fn mix(q0: &Quat, q1: &Quat, ws: f64, wt: f64) -> Quat {
    [q0[0] * ws + q1[0] * wt, q0[1] * ws + q1[1] * wt, q0[2] * ws + q1[2] * wt, q0[3] * ws + q1[3] * wt]
}

/// The weights `(ws, wt)` of an arc at `t ∈ [0, 1]` from `sin((1 − t)θ)/sin θ` and
/// `sin(tθ)/sin θ` as computed (through `1/sin θ`): exactly 1 where `t` is 0 (`ws`) or 1
/// (`wt`), where the product can miss 1 by an ulp; the other weight is then `sin 0 = 0`.
#[inline(always)]
#[must_use]
pub(crate) fn arc_ends(t: f64, ws: f64, wt: f64) -> (f64, f64) {
    (if t == 0.0 { 1.0 } else { ws }, if t == 1.0 { 1.0 } else { wt })
}

/// The weights `(ws, wt)` of the arc `(θ, 1/sin θ)` at `t ∈ [0, 1]`: `sin((1 − t)θ)·(1/sin θ)`
/// and `sin(tθ)·(1/sin θ)`, the sines by [`sin2`] ([`arc_ends`] at the ends). What
/// [`SlerpPair::at`] weighs by, and [`arc_weights`] lane by lane.
#[inline(always)]
#[must_use]
pub(crate) fn arc_weight(theta: f64, inv_sin: f64, t: f64) -> (f64, f64) {
    let [a, b] = sin2([(1.0 - t) * theta, t * theta]);
    arc_ends(t, a * inv_sin, b * inv_sin)
}

/// For each lane `i`, [`arc_weight`] of the arc `(theta[i], inv_sin[i])` at `u[i] ∈ [0, 1]`.
/// The slices have one length (the shortest counts).
#[inline(always)]
pub(crate) fn arc_weights(theta: &[f64], inv_sin: &[f64], u: &[f64], ws: &mut [f64], wt: &mut [f64]) {
    for ((((&theta, &inv), &t), ws), wt) in theta.iter().zip(inv_sin).zip(u).zip(ws).zip(wt) {
        (*ws, *wt) = arc_weight(theta, inv, t);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{normalize, SlerpPair};
    use super::{arc_weights, mix};

    /// Pairs of every form (arcs, the same rotation, close enough for the lerp, opposite
    /// hemispheres) at times in `[0, 1]`, its ends included: the arcs' weights and mix are
    /// `at`, bit for bit; the others are not arcs.
    #[test]
    fn weights_and_mix_are_at_bit_for_bit() {
        let mut seed = 7u64;
        let mut r = || {
            seed = seed * 16807 % 2_147_483_647;
            seed as f64 / 2_147_483_647.0 * 2.0 - 1.0
        };
        let (mut pairs, mut us) = (Vec::new(), Vec::new());
        for k in 0..4000 {
            let q0 = normalize(&[r(), r(), r(), r() + 0.1]);
            let q1 = match k % 4 {
                0 => q0,
                1 => normalize(&[q0[0] + 1e-3 * r(), q0[1], q0[2], q0[3]]),
                _ => normalize(&[r(), r(), r(), r() + 0.1]),
            };
            pairs.push(SlerpPair::new(&q0, &q1));
            us.push([0.0, 1.0, 0.5 + 0.5 * r()][k % 3]);
        }
        let arcs: Vec<(usize, (f64, f64))> = pairs.iter().enumerate().filter_map(|(i, p)| Some((i, p.arc()?))).collect();
        let theta: Vec<f64> = arcs.iter().map(|(_, a)| a.0).collect();
        let inv_sin: Vec<f64> = arcs.iter().map(|(_, a)| a.1).collect();
        let u: Vec<f64> = arcs.iter().map(|&(i, _)| us[i]).collect();
        let (mut ws, mut wt) = (vec![0.0; arcs.len()], vec![0.0; arcs.len()]);
        arc_weights(&theta, &inv_sin, &u, &mut ws, &mut wt);
        for (k, &(i, _)) in arcs.iter().enumerate() {
            assert_eq!(
                {
                    let (q0, q1, _) = pairs[i].parts();
                    mix(&q0, &q1, ws[k], wt[k])
                }
                .map(f64::to_bits),
                pairs[i].at(us[i]).map(f64::to_bits),
                "pair {i} at {}",
                us[i]
            );
        }
        assert!(arcs.len() > 1500 && arcs.len() < 3000, "{} arcs of 4000", arcs.len());
    }
}
