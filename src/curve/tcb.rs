//! Kochanek–Bartels (TCB) tracks compiled to polynomial segments (SPEC §4). The tangents
//! `ra`, `rb` and the ease come from [`crate::tcb`]; here each segment becomes the Hermite
//! cubic
//!
//! `f(u) = u³(2p₀ + r₁ − 2p₁ + r₂) + u²(−3p₀ − 2r₁ + 3p₁ − r₂) + u r₁ + p₀`
//!
//! with `r₁ = rb` of the start key and `r₂ = ra` of the end key, in eased local time.

use super::keys::KeyTable;
use super::modes::{Derivatives, Kinds, Mode, Splice, Written};
use super::poly::{inv_dt, Poly, PolySegment};
use super::Segments;
use crate::model::Interpolation;
use crate::model::{Key, TangentMode};
use crate::tcb::{key_tangents, Ease, KeyTangents};

/// TCB's row of the table of modes.
pub(super) const MODE: Mode = Mode {
    interpolation: Interpolation::Tcb,
    summary: "Kochanek–Bartels: tension, continuity, bias and ease per key",
    kinds: Kinds::Vectors,
    derivatives: Derivatives::Acceleration,
    may_overflow: true,
    splice: Splice::Local,
    written: Written::Cubic,
    compile: |track, keys, _| {
        let (poly, tangents) = compile(&track.keys.as_full(), keys, track.tangents);
        (Segments::Poly(poly), Some(tangents))
    },
};

/// The segments of a TCB track and the key tangents they were built from.
pub(crate) fn compile(keys: &[Key], table: &KeyTable, mode: TangentMode) -> (Poly, KeyTangents) {
    let tg = key_tangents(keys, table.dim, mode);
    let (times, values, dim) = (&table.times, &table.values, table.dim);
    let mut segs = vec![PolySegment::default(); times.len().saturating_sub(1)];
    for (s, seg) in segs.iter_mut().enumerate() {
        seg.inv_dt = inv_dt(times[s], times[s + 1]);
        seg.ease = Ease::new(keys[s].ease_from, keys[s + 1].ease_to);
        let empty = times[s + 1] <= times[s];
        for c in 0..dim {
            let p0 = values[s * dim + c];
            if empty {
                seg.k[c] = [0.0, 0.0, 0.0, p0];
                continue;
            }
            let p1 = values[(s + 1) * dim + c];
            let r1 = tg.outgoing[s * dim + c];
            let r2 = tg.incoming[(s + 1) * dim + c];
            seg.k[c] = [2.0 * p0 + r1 - 2.0 * p1 + r2, -3.0 * p0 - 2.0 * r1 + 3.0 * p1 - r2, r1, p0];
        }
    }
    (Poly::new(segs), tg)
}
