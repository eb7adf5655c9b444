//! Linear interpolation, as three.js `LinearInterpolant` computes it (same operation order,
//! so the same bits): `v = v0·(1 − w) + v1·w` with `w = (t − t0)/(t1 − t0)`. Velocity
//! `(v1 − v0)/Δt`; acceleration zero.

use super::keys::KeyTable;
use super::modes::{Derivatives, Kinds, Mode, Splice, Written};
use super::Segments;
use crate::model::Interpolation;

/// Linear's row of the table of modes (its acceleration is exactly zero).
pub(super) const MODE: Mode = Mode {
    interpolation: Interpolation::Linear,
    summary: "Straight lines between keys (three.js LinearInterpolant)",
    kinds: Kinds::Vectors,
    derivatives: Derivatives::Acceleration,
    may_overflow: true,
    splice: Splice::Local,
    written: Written::Linear,
    compile: |_, _, _| (Segments::Linear, None),
};

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
        match dim {
            1 => lerp::<1>(v, w0, w1, out),
            2 => lerp::<2>(v, w0, w1, out),
            3 => lerp::<3>(v, w0, w1, out),
            _ => lerp::<4>(v, w0, w1, out),
        }
    }

    /// [`Self::value`] at each of `times` (all inside segment `seg`) into `out`
    /// (`times.len()·dim` values), the same operations in one loop per segment.
    pub fn value_run(keys: &KeyTable, seg: usize, times: &[f64], out: &mut [f64]) {
        let dim = keys.dim;
        let (t0, t1) = (keys.times[seg], keys.times[seg + 1]);
        let v = keys.pair(seg);
        for (o, &t) in out.chunks_exact_mut(dim).zip(times) {
            let w1 = (t - t0) / (t1 - t0);
            let w0 = 1.0 - w1;
            match dim {
                1 => lerp::<1>(v, w0, w1, o),
                2 => lerp::<2>(v, w0, w1, o),
                3 => lerp::<3>(v, w0, w1, o),
                _ => lerp::<4>(v, w0, w1, o),
            }
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

/// `out = v0·w0 + v1·w1` for the `D` components of the two keys in `v` (a fixed size, so no
/// bounds checks per component).
#[inline(always)]
fn lerp<const D: usize>(v: &[f64], w0: f64, w1: f64, out: &mut [f64]) {
    let (a, b): (&[f64; D], &[f64; D]) = (v[..D].try_into().expect("D components"), v[D..2 * D].try_into().expect("D components"));
    let out: &mut [f64; D] = out.try_into().expect("D components");
    for c in 0..D {
        out[c] = a[c] * w0 + b[c] * w1;
    }
}
