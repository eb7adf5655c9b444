//! The polynomial segment: per component a cubic `p(e) = c3 e³ + c2 e² + c1 e + c0` in eased
//! local time `e = ease(u)`, `u = (t − t0)/Δt`, evaluated by Horner's rule. TCB
//! ([`super::tcb`]) and three.js Cubic ([`super::cubic`]) tracks compile to it.
//!
//! Its derivatives in global time are exact, by the chain rule through the ease
//! ([`crate::tcb::Ease`]):
//!
//! ```text
//! dP/dt   = p′(e) · e′(u) / Δt
//! d²P/dt² = (p″(e) · e′(u)² + p′(e) · e″(u)) / Δt²
//! ```
//!
//! with `p′(e) = 3c3 e² + 2c2 e + c1` and `p″(e) = 6c3 e + 2c2`, written once, in
//! [`Derivative`]. Velocity, acceleration, speed, arc length and the editor's speed graph
//! all go through it.

use super::keys::KeyTable;
use crate::tcb::{Ease, EaseJet};

/// One cubic segment, packed so that evaluation touches one record.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PolySegment {
    /// `1 / (t_{s+1} − t_s)`; 0 for zero-length segments, which are never selected.
    pub inv_dt: f64,
    pub ease: Ease,
    /// Per component `[c3, c2, c1, c0]`; unused components are zero.
    pub k: [[f64; 4]; 4],
}

/// `p′` of a segment's four component lanes: `p′(e) = (d0 e + d1) e + d2` with
/// `d0 = 3c3`, `d1 = 2c2`, `d2 = c1`, and `p″(e) = 2 d0 e + d1`. Unused lanes are zero, so
/// sums over all four lanes need no branches.
#[derive(Clone, Copy, Debug)]
pub struct Derivative {
    d: [[f64; 4]; 3],
}

impl Derivative {
    fn of(seg: &PolySegment) -> Self {
        let mut d = [[0.0; 4]; 3];
        for (c, k) in seg.k.iter().enumerate() {
            d[0][c] = 3.0 * k[0];
            d[1][c] = 2.0 * k[1];
            d[2][c] = k[2];
        }
        Self { d }
    }

    /// `p′(e)` of component `c`, per unit of eased local time.
    #[inline]
    #[must_use]
    pub fn first(&self, c: usize, e: f64) -> f64 {
        (self.d[0][c] * e + self.d[1][c]) * e + self.d[2][c]
    }

    /// `p″(e)` of component `c`.
    #[inline]
    #[must_use]
    pub fn second(&self, c: usize, e: f64) -> f64 {
        2.0 * self.d[0][c] * e + self.d[1][c]
    }

    /// `|p′(e)|` over the four lanes.
    #[inline]
    #[must_use]
    pub fn norm(&self, e: f64) -> f64 {
        let mut sum = 0.0;
        for c in 0..4 {
            let v = self.first(c, e);
            sum += v * v;
        }
        sum.sqrt()
    }
}

impl PolySegment {
    /// `[dP/dt, d²P/dt²]` of component `c` at ease jet `j` (the chain rule of the module docs).
    #[inline]
    fn chain(&self, d: &Derivative, c: usize, j: EaseJet) -> [f64; 2] {
        let (d1, d2) = (d.first(c, j.value), d.second(c, j.value));
        [d1 * j.first * self.inv_dt, (d2 * j.first * j.first + d1 * j.second) * self.inv_dt * self.inv_dt]
    }
}

/// The speed function of one segment, `|dP/dt|` against local time, for many evaluations
/// (arc-length quadrature). From [`super::TrackCurve::segment_speed_fn`].
#[derive(Clone, Copy, Debug)]
pub enum SegmentSpeed<'a> {
    /// `|p′(e(u))| · e′(u) / Δt`.
    Poly { derivative: Derivative, ease: Ease, inv_dt: f64 },
    /// Any other mode: the norm of its velocity.
    Other { curve: &'a super::TrackCurve, seg: usize },
}

impl SegmentSpeed<'_> {
    /// `|dP/dt|` at local time `u`.
    #[inline]
    #[must_use]
    pub fn at(&self, u: f64) -> f64 {
        match self {
            Self::Poly { derivative, ease, inv_dt } => {
                let j = ease.jet(u);
                derivative.norm(j.value) * j.first * inv_dt
            }
            Self::Other { curve, seg } => curve.segment_speed(*seg, u),
        }
    }
}

/// The segments of a TCB or three.js Cubic track.
#[derive(Clone, Debug)]
pub(crate) struct Poly {
    segs: Vec<PolySegment>,
    /// How many segments have ease (none: the remap is skipped).
    eased: usize,
}

impl Poly {
    /// The segments (for the overflow check, `super::finite`).
    pub fn segments(&self) -> &[PolySegment] {
        &self.segs
    }

    pub fn new(segs: Vec<PolySegment>) -> Self {
        let eased = segs.iter().filter(|s| !s.ease.is_identity()).count();
        Self { segs, eased }
    }

    /// Whether any segment has ease.
    pub fn is_eased(&self) -> bool {
        self.eased > 0
    }

    /// Segments `range` replaced by `new` (`splice.rs`).
    pub fn splice(&mut self, range: std::ops::Range<usize>, new: &[PolySegment]) {
        let count = |segs: &[PolySegment]| segs.iter().filter(|s| !s.ease.is_identity()).count();
        self.eased = self.eased - count(&self.segs[range.clone()]) + count(new);
        self.segs.splice(range, new.iter().copied());
    }

    /// The value at global time `t` inside segment `seg`.
    #[inline]
    pub fn value(&self, keys: &KeyTable, seg: usize, t: f64, out: &mut [f64]) {
        let p = &self.segs[seg];
        let u = (t - keys.times[seg]) * p.inv_dt;
        let e = if self.eased > 0 { p.ease.value(u) } else { u };
        for (o, k) in out.iter_mut().zip(&p.k) {
            *o = ((k[0] * e + k[1]) * e + k[2]) * e + k[3];
        }
    }

    /// [`Self::value`] at each of `times` (all inside segment `seg`) into `out`
    /// (`times.len()·dim` values): the same operations, in a loop over the samples of one
    /// segment with a fixed number of components, which the compiler vectorizes.
    pub fn value_run(&self, keys: &KeyTable, seg: usize, times: &[f64], out: &mut [f64]) {
        let p = &self.segs[seg];
        let t0 = keys.times[seg];
        match keys.dim {
            1 => run::<1>(p, t0, self.eased > 0, times, out),
            2 => run::<2>(p, t0, self.eased > 0, times, out),
            3 => run::<3>(p, t0, self.eased > 0, times, out),
            _ => run::<4>(p, t0, self.eased > 0, times, out),
        }
    }

    /// `dP/dt` at local time `u` of segment `seg`.
    pub fn velocity(&self, seg: usize, u: f64, out: &mut [f64]) {
        let p = &self.segs[seg];
        let (d, j) = (Derivative::of(p), p.ease.jet(u));
        for (c, o) in out.iter_mut().enumerate() {
            *o = p.chain(&d, c, j)[0];
        }
    }

    /// `d²P/dt²` at local time `u` of segment `seg` (at an ease switch point, the branch that
    /// starts there).
    pub fn acceleration(&self, seg: usize, u: f64, out: &mut [f64]) {
        let p = &self.segs[seg];
        let (d, j) = (Derivative::of(p), p.ease.jet(u));
        for (c, o) in out.iter_mut().enumerate() {
            *o = p.chain(&d, c, j)[1];
        }
    }

    /// `(|P′|, P′·P″)` in one pass, for `dim` components.
    pub fn speed_derivatives(&self, seg: usize, u: f64, dim: usize) -> (f64, f64) {
        let p = &self.segs[seg];
        let (d, j) = (Derivative::of(p), p.ease.jet(u));
        let (mut vv, mut va) = (0.0, 0.0);
        for c in 0..dim {
            let [vel, acc] = p.chain(&d, c, j);
            vv += vel * vel;
            va += vel * acc;
        }
        (vv.sqrt(), va)
    }

    /// The speed function of segment `seg`.
    pub fn speed_fn(&self, seg: usize) -> SegmentSpeed<'static> {
        let p = &self.segs[seg];
        SegmentSpeed::Poly { derivative: Derivative::of(p), ease: p.ease, inv_dt: p.inv_dt }
    }

    /// Where the ease changes branch inside segment `seg`.
    pub fn breaks(&self, seg: usize) -> [Option<f64>; 2] {
        self.segs[seg].ease.breaks()
    }
}

/// [`Poly::value_run`] for `D` components. Without ease, two samples at a time, so that each
/// Horner step is one packed operation on both; the eased loop apart, one by one.
#[inline(always)]
fn run<const D: usize>(p: &PolySegment, t0: f64, eased: bool, times: &[f64], out: &mut [f64]) {
    let k: [[f64; 4]; D] = std::array::from_fn(|c| p.k[c]);
    let (out, _) = out.as_chunks_mut::<D>();
    let horner = |e: f64| -> [f64; D] { std::array::from_fn(|c| ((k[c][0] * e + k[c][1]) * e + k[c][2]) * e + k[c][3]) };
    if eased {
        for (o, &t) in out.iter_mut().zip(times) {
            *o = horner(p.ease.value((t - t0) * p.inv_dt));
        }
        return;
    }
    let (pairs, rest) = out.as_chunks_mut::<2>();
    let (time_pairs, last) = times.as_chunks::<2>();
    for (o, t) in pairs.iter_mut().zip(time_pairs) {
        let e = t.map(|t| (t - t0) * p.inv_dt);
        for c in 0..D {
            let v = e.map(|e| ((k[c][0] * e + k[c][1]) * e + k[c][2]) * e + k[c][3]);
            (o[0][c], o[1][c]) = (v[0], v[1]);
        }
    }
    if let (Some(o), Some(&t)) = (rest.first_mut(), last.first()) {
        *o = horner((t - t0) * p.inv_dt);
    }
}

/// `1/(t1 − t0)`, or 0 for a zero-length segment.
pub(crate) fn inv_dt(t0: f64, t1: f64) -> f64 {
    if t1 > t0 {
        1.0 / (t1 - t0)
    } else {
        0.0
    }
}
