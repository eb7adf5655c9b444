//! Linear interpolation, as three.js `LinearInterpolant` computes it (same operation order,
//! so the same bits): `v = v0·(1 − w) + v1·w` with `w = (t − t0)/(t1 − t0)`. Velocity
//! `(v1 − v0)/Δt`; acceleration zero.

use super::keys::KeyTable;

/// The Linear mode (no per-segment data).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Linear;

impl Linear {
    #[inline]
    pub fn value(keys: &KeyTable, seg: usize, t: f64, out: &mut [f64]) {
        let dim = keys.dim;
        let t0 = keys.times[seg];
        let w1 = (t - t0) / (keys.times[seg + 1] - t0);
        let w0 = 1.0 - w1;
        let v = keys.pair(seg);
        for c in 0..dim {
            out[c] = v[c] * w0 + v[dim + c] * w1;
        }
    }

    pub fn velocity(keys: &KeyTable, seg: usize, out: &mut [f64]) {
        let dim = keys.dim;
        let (_, dt) = keys.span(seg);
        let v = keys.pair(seg);
        for c in 0..dim {
            out[c] = (v[dim + c] - v[c]) / dt;
        }
    }
}
