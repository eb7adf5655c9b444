//! three.js `CubicInterpolant` (r187) compiled to polynomial segments (SPEC §3,
//! SEMANTICS.md B): the same values as three.js, including its three endings.

use super::keys::KeyTable;
use super::modes::{Derivatives, Kinds, Mode, Splice, Written};
use super::poly::{inv_dt, Poly, PolySegment};
use super::Segments;
use crate::model::Ending;
use crate::model::Interpolation;

/// Cubic's row of the table of modes.
pub(super) const MODE: Mode = Mode {
    interpolation: Interpolation::Cubic,
    summary: "three.js CubicInterpolant with the track's two endings",
    kinds: Kinds::Vectors,
    derivatives: Derivatives::Acceleration,
    may_overflow: true,
    splice: Splice::LocalUnlessWrapAround,
    written: Written::Cubic,
    compile: |track, keys, _| (Segments::Poly(compile(keys, track.ending_start, track.ending_end)), None),
};

/// three.js `CubicInterpolant` per segment, expanded into a polynomial in `p`:
/// `sP·vP + s0·v0 + s1·v1 + sN·vN` with `wP = ½Δt/(t0 − tPrev)`, `wN = ½Δt/(tNext − t1)` and
/// the neighbours chosen by the [`Ending`]s at the ends (SEMANTICS.md B). A jump (two keys at
/// one time) is treated as an end with `ZeroCurvature`, where three.js would divide by zero.
pub(crate) fn compile(table: &KeyTable, start: Ending, end: Ending) -> Poly {
    let (times, values, dim) = (&table.times, &table.values, table.dim);
    let n = times.len();
    let mut segs = vec![PolySegment::default(); n.saturating_sub(1)];
    for s in 0..n.saturating_sub(1) {
        let (i0, i1) = (s, s + 1);
        let (t0, t1) = (times[i0], times[i1]);
        if t1 <= t0 {
            for c in 0..dim {
                segs[s].k[c][3] = values[i0 * dim + c];
            }
            continue;
        }
        segs[s].inv_dt = inv_dt(t0, t1);
        let whole = |e: Ending, gap: f64| {
            if e == Ending::WrapAround && !(gap > 0.0) {
                Ending::ZeroCurvature
            } else {
                e
            }
        };
        let (i_prev, t_prev) = if i0 > 0 && times[i0 - 1] < t0 {
            (i0 - 1, times[i0 - 1])
        } else {
            let e = if i0 == 0 { whole(start, times[n - 1] - times[n.saturating_sub(2)]) } else { Ending::ZeroCurvature };
            match e {
                Ending::ZeroSlope => (i1, 2.0 * t0 - t1),
                Ending::WrapAround => (n - 2, t0 + times[n - 2] - times[n - 1]),
                Ending::ZeroCurvature => (i1, t1),
            }
        };
        let (i_next, t_next) = if i1 + 1 < n && times[i1 + 1] > t1 {
            (i1 + 1, times[i1 + 1])
        } else {
            let e = if i1 == n - 1 { whole(end, times[1] - times[0]) } else { Ending::ZeroCurvature };
            match e {
                Ending::ZeroSlope => (i1, 2.0 * t1 - t0),
                Ending::WrapAround => (1, t1 + times[1] - times[0]),
                Ending::ZeroCurvature => (i0, t0),
            }
        };
        let half_dt = (t1 - t0) * 0.5;
        let wp = half_dt / (t0 - t_prev);
        let wn = half_dt / (t_next - t1);
        for c in 0..dim {
            let vp = values[i_prev * dim + c];
            let v0 = values[i0 * dim + c];
            let v1 = values[i1 * dim + c];
            let vn = values[i_next * dim + c];
            segs[s].k[c] = [
                -wp * vp + (1.0 + wp) * v0 + (-1.0 - wn) * v1 + wn * vn,
                2.0 * wp * vp + (-1.5 - 2.0 * wp) * v0 + (1.5 + wn) * v1 - wn * vn,
                -wp * vp + (-0.5 + wp) * v0 + 0.5 * v1,
                v0,
            ];
        }
    }
    Poly::new(segs)
}
