//! Rotation modes of Quat tracks: Slerp, Nlerp (three.js' quaternion interpolants) and Squad
//! with precomputed control points (SPEC §5; the formulas are in [`crate::quat`]). Their
//! velocity is the derivative of the four components, by a central difference of step 1e-6 in
//! local time; rotations have no acceleration as positions do.

use super::keys::KeyTable;
use super::modes::{Derivatives, Kinds, Mode, Splice, Written};
use super::Segments;
use crate::model::Interpolation;
use crate::quat::{self, Quat, SlerpPair, SquadPolys, SquadSegment};

/// Slerp's row of the table of modes.
pub(super) const SLERP: Mode = Mode {
    interpolation: Interpolation::Slerp,
    summary: "Spherical linear interpolation, shortest arc (three.js slerpFlat)",
    kinds: Kinds::Rotations,
    derivatives: Derivatives::Velocity,
    may_overflow: false,
    splice: Splice::Whole,
    written: Written::Linear,
    compile: |_, keys, _| (Segments::Rotation(Rotation::slerp(keys)), None),
};

/// Nlerp's row of the table of modes.
pub(super) const NLERP: Mode = Mode {
    interpolation: Interpolation::Nlerp,
    summary: "Normalised linear interpolation, shortest arc",
    kinds: Kinds::Rotations,
    derivatives: Derivatives::Velocity,
    may_overflow: false,
    splice: Splice::Whole,
    written: Written::Baked,
    compile: |_, _, _| (Segments::Rotation(Rotation::Nlerp), None),
};

/// Squad's row of the table of modes: it reuses the fitted polynomials of the curve before an
/// edit, and splices itself.
pub(super) const SQUAD: Mode = Mode {
    interpolation: Interpolation::Squad,
    summary: "Spherical cubic through the keys (numpy-quaternion squad)",
    kinds: Kinds::Rotations,
    derivatives: Derivatives::Velocity,
    may_overflow: true,
    splice: Splice::Own,
    written: Written::Baked,
    compile: |_, keys, previous| {
        let previous = previous.and_then(|c| if let Segments::Rotation(r) = &c.segments { Some(r) } else { None });
        (Segments::Rotation(Rotation::squad(keys, previous)), None)
    },
};

/// Which rotation interpolation, with what it precomputes.
#[derive(Clone, Debug)]
pub(crate) enum Rotation {
    /// Per segment its prepared slerp (sign, angle and its sine: no `acos` per sample) and
    /// `1/Δt` (no division for the local time), or 0 where that overflows (a subnormal `Δt`,
    /// whose local time is divided out instead).
    Slerp(Vec<(SlerpPair, f64)>),
    Nlerp,
    /// Control points `a_i`, `b_i` per key; per segment its [`SquadSegment`] (the inner
    /// slerps prepared, no library call per sample), `1/Δt` as for Slerp (apart: a sample in
    /// random order reads it, and the segments only where they are not fitted), and the
    /// segments' fitted polynomials ([`SquadPolys`]), which samples use where they exist.
    Squad {
        a: Vec<Quat>,
        b: Vec<Quat>,
        segments: Vec<SquadSegment>,
        inv_dt: Vec<f64>,
        polys: SquadPolys,
    },
}

/// `1/Δt` of segment `s`, or 0 where that overflows (`Δt` subnormal, or 0 for a segment that
/// is never selected): the local time is then divided out.
fn inv_dt(keys: &KeyTable, s: usize) -> f64 {
    let inv = 1.0 / (keys.times[s + 1] - keys.times[s]);
    if inv.is_finite() {
        inv
    } else {
        0.0
    }
}

/// Step in local time of the central difference that gives a rotation's velocity.
const DIFFERENCE_STEP: f64 = 1e-6;

fn as_quat(v: &[f64]) -> Quat {
    [v[0], v[1], v[2], v[3]]
}

impl Rotation {
    /// Slerp: each segment's pair prepared.
    pub fn slerp(keys: &KeyTable) -> Self {
        Self::Slerp(
            (0..keys.len().saturating_sub(1)).map(|s| (SlerpPair::new(&as_quat(keys.value(s)), &as_quat(keys.value(s + 1))), inv_dt(keys, s))).collect(),
        )
    }

    /// Squad: sign-align the keys to one hemisphere (each key flipped to have a non-negative
    /// dot with the previous one, in `keys`), then compute control points per strictly
    /// increasing run of times; the segments' polynomials reuse those of `previous` (the
    /// track before an edit) where a segment is unchanged ([`SquadPolys::reusing`]).
    pub fn squad(keys: &mut KeyTable, previous: Option<&Rotation>) -> Self {
        let n = keys.len();
        let mut qs: Vec<Quat> = keys.values.chunks_exact(4).map(as_quat).collect();
        for i in 1..n {
            if quat::dot(&qs[i - 1], &qs[i]) < 0.0 {
                qs[i] = quat::neg(&qs[i]);
            }
        }
        for (dst, q) in keys.values_mut().chunks_exact_mut(4).zip(&qs) {
            dst.copy_from_slice(q);
        }
        let times = &keys.times;
        let mut a = qs.clone();
        let mut b = qs.clone();
        let mut lo = 0;
        while lo < n {
            let mut hi = lo;
            while hi + 1 < n && times[hi + 1] > times[hi] {
                hi += 1;
            }
            let (ra, rb) = quat::squad_controls(&qs[lo..=hi], &times[lo..=hi]);
            a[lo..=hi].copy_from_slice(&ra);
            b[lo..=hi].copy_from_slice(&rb);
            lo = hi + 1;
        }
        let segments: Vec<SquadSegment> = (0..n.saturating_sub(1)).map(|s| SquadSegment::new(&qs[s], &qs[s + 1], &a[s], &b[s])).collect();
        let previous = match previous {
            Some(Self::Squad { segments, polys, .. }) => Some((segments.as_slice(), polys)),
            _ => None,
        };
        let polys = SquadPolys::reusing(&segments, previous);
        Self::Squad { a, b, segments, inv_dt: (0..n.saturating_sub(1)).map(|s| inv_dt(keys, s)).collect(), polys }
    }

    /// Squad: control points of keys `from..to_old` and segments `from..to_old` of `self`
    /// replaced by those of `part` (a Squad track of the keys from `lo`) at `from..to_new`
    /// (`(from, to_old, to_new)` for keys, then for segments). `false`, changing nothing,
    /// when either is not Squad or the polynomials do not fit.
    pub fn squad_splice(&mut self, part: &Rotation, lo: usize, keys: (usize, usize, usize), segs: (usize, usize, usize)) -> bool {
        let (Self::Squad { a, b, segments, inv_dt, polys }, Self::Squad { a: pa, b: pb, segments: ps, inv_dt: pi, polys: pp }) = (self, part) else {
            return false;
        };
        let (range, new) = (segs.0..segs.1, segs.0 - lo..segs.2 - lo);
        if !polys.splice(range.clone(), pp, new.clone()) {
            return false;
        }
        segments.splice(range.clone(), ps[new.clone()].iter().copied());
        inv_dt.splice(range, pi[new].iter().copied());
        let (range, new) = (keys.0..keys.1, keys.0 - lo..keys.2 - lo);
        a.splice(range.clone(), pa[new.clone()].iter().copied());
        b.splice(range, pb[new].iter().copied());
        true
    }

    /// The rotation at global time `t` inside segment `seg`.
    #[inline]
    pub fn value(&self, keys: &KeyTable, seg: usize, t: f64, out: &mut [f64]) {
        let t0 = keys.times[seg];
        let divided = || (t - t0) / (keys.times[seg + 1] - t0);
        let local = |inv_dt: f64| if inv_dt > 0.0 { (t - t0) * inv_dt } else { divided() };
        let q = match self {
            Self::Slerp(pairs) => pairs[seg].0.at(local(pairs[seg].1)),
            Self::Nlerp => quat::nlerp(&as_quat(keys.value(seg)), &as_quat(keys.value(seg + 1)), divided()),
            Self::Squad { segments, inv_dt, polys, .. } => polys.at(seg, &segments[seg], local(inv_dt[seg])),
        };
        out.copy_from_slice(&q);
    }

    /// `dq/dt` by [`difference_velocity`].
    pub fn velocity(&self, keys: &KeyTable, seg: usize, u: f64, out: &mut [f64]) {
        difference_velocity(keys, seg, u, out, |t, q| self.value(keys, seg, t, q));
    }
}

/// `dq/dt` of a rotation segment by a central difference of step [`DIFFERENCE_STEP`] in local
/// time (one-sided at the ends), from `value(t, out)` inside segment `seg`.
pub(crate) fn difference_velocity(keys: &KeyTable, seg: usize, u: f64, out: &mut [f64], value: impl Fn(f64, &mut [f64])) {
    let (t0, dt) = keys.span(seg);
    let h = DIFFERENCE_STEP;
    let (ua, ub) = ((u - h).max(0.0), (u + h).min(1.0));
    let mut a = [0.0; 4];
    let mut b = [0.0; 4];
    value(t0 + ua * dt, &mut a);
    value(t0 + ub * dt, &mut b);
    for c in 0..4 {
        out[c] = (b[c] - a[c]) / ((ub - ua) * dt);
    }
}
