//! The clip's own copy of what its player reads per segment, made once per [`super::Clip`]:
//! for TCB and Cubic tracks without ease of one to three components and for Slerp tracks, one
//! record of two cache lines per segment holding everything its evaluation reads (the
//! segment's key times included), the key times again with room past the last key for
//! sequential playback's look ahead, and a [`Grid`] from time to segment for seeks. Every
//! other track is played through its own [`TrackCurve`].
//!
//! The records hold the numbers `curve/playback.rs` reads (a [`PolySegment`]'s coefficients and
//! `1/Δt`, a [`crate::quat::SlerpPair`]'s parts and its `1/Δt`), copied, so that the player's
//! operations on them are `sample`'s on the same numbers.

use crate::curve::playback::{Form, PolySegment};
use crate::quat::{Quat, SlerpPair};
use crate::search::prefetch;
use crate::TrackCurve;

/// How many key times past the cached segment sequential playback compares at once.
pub(super) const LOOK: usize = 4;

/// One TCB or Cubic segment of at most three components, coefficient by coefficient: `k[j]`
/// holds coefficient `j` (`c3, c2, c1, c0`) of each component, so that the components are
/// evaluated side by side. The fourth lane holds the segment's start time (`k[0][3]`), `1/Δt`
/// (`k[1][3]`) and end time (`k[2][3]`). 128 bytes, two cache lines.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(super) struct PolyRec {
    pub(super) k: [[f64; 4]; 4],
}

impl PolyRec {
    fn new(p: &PolySegment, t0: f64, t1: f64) -> Self {
        let mut k = [[0.0; 4]; 4];
        for (c, coefficients) in p.k.iter().take(3).enumerate() {
            for (j, &x) in coefficients.iter().enumerate() {
                k[j][c] = x;
            }
        }
        (k[0][3], k[1][3], k[2][3]) = (t0, p.inv_dt, t1);
        Self { k }
    }

    /// `poly_value` (`Poly::value` without ease) at `t`: `u = (t − t0)·(1/Δt)`, then Horner's
    /// rule per component, the same operations in the same order.
    #[inline(always)]
    pub(super) fn value<const D: usize>(&self, t: f64, out: &mut [f64; D]) {
        let k = &self.k;
        let u = (t - k[0][3]) * k[1][3];
        let v: [f64; 4] = std::array::from_fn(|c| ((k[0][c] * u + k[1][c]) * u + k[2][c]) * u + k[3][c]);
        for (o, v) in out.iter_mut().zip(v) {
            *o = v;
        }
    }
}

/// One Slerp segment: its pair's two quaternions, `(θ, sin θ)` where it is a sine-weighted arc,
/// its `1/Δt` (0 where that overflows) and its key times. 128 bytes, two cache lines.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(super) struct SlerpRec {
    pub(super) q0: Quat,
    pub(super) q1: Quat,
    pub(super) theta: f64,
    pub(super) sin: f64,
    inv_dt: f64,
    t0: f64,
    t1: f64,
    pub(super) arc: bool,
}

impl SlerpRec {
    fn new(pair: &(SlerpPair, f64), t0: f64, t1: f64) -> Self {
        let (q0, q1, arc) = pair.0.parts();
        let (theta, sin) = arc.unwrap_or((0.0, 0.0));
        Self { q0, q1, theta, sin, inv_dt: pair.1, t0, t1, arc: arc.is_some() }
    }

    /// The local time `slerp_local` gives at `t`.
    #[inline(always)]
    pub(super) fn local(&self, t: f64) -> f64 {
        if self.inv_dt > 0.0 {
            (t - self.t0) * self.inv_dt
        } else {
            (t - self.t0) / (self.t1 - self.t0)
        }
    }
}

/// One cell of a [`Grid`]: the number of keys in the cells before it, and the one key time in
/// it (`+∞` if none) with how many keys are at that time.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(super) struct Cell {
    first: f64,
    base: u32,
    mult: u32,
}

/// Time to the number of key times `≤ t` in one read: cells of equal width over the keys,
/// cell `⌊(t − t₀)·scale⌋`, at most one distinct key time per cell. As that cell number never
/// decreases when `t` grows, every key in an earlier cell is `≤ t` and every key in a later
/// one `> t`, so a cell's count is its `base`, plus its keys when its time is `≤ t`: exactly
/// `upper_bound`'s count. Made only where it has at most 8 cells per key.
#[derive(Clone, Debug)]
pub(super) struct Grid {
    x0: f64,
    scale: f64,
    len: f64,
    cells: Vec<Cell>,
}

impl Grid {
    /// A grid of `times` (sorted), or `None` where it would be large (a short interval among
    /// long ones) or there are not two distinct times.
    pub(super) fn new(times: &[f64]) -> Option<Self> {
        let n = times.len();
        let (&x0, &last) = (times.first()?, times.last()?);
        if n > u32::MAX as usize || !(x0.is_finite() && last.is_finite() && last > x0) {
            return None;
        }
        let gap = times.windows(2).map(|w| w[1] - w[0]).filter(|&d| d > 0.0).fold(f64::INFINITY, f64::min);
        let most = (8 * n).max(64) as f64;
        let mut scale = 1.0 / gap;
        for _ in 0..4 {
            let end = (last - x0) * scale;
            if !(end.is_finite() && end < most) {
                return None;
            }
            // In range, so exact.
            let mut grid = Self { x0, scale, len: 0.0, cells: vec![Cell::default(); end as usize + 1] };
            grid.len = grid.cells.len() as f64;
            if grid.fill(times) {
                return Some(grid);
            }
            scale *= 1.25;
        }
        None
    }

    /// Places every distinct key time in its cell and counts the keys before each cell;
    /// `false` if two distinct times share a cell.
    fn fill(&mut self, times: &[f64]) -> bool {
        let mut i = 0;
        let mut taken = vec![false; self.cells.len()];
        while i < times.len() {
            let m = times[i..].iter().take_while(|&&x| x == times[i]).count();
            let Some(k) = self.cell_of(times[i]) else { return false };
            if std::mem::replace(&mut taken[k], true) {
                return false;
            }
            // Below u32::MAX (checked in `new`).
            self.cells[k] = Cell { first: times[i], base: i as u32, mult: m as u32 };
            i += m;
        }
        let mut before = 0;
        for (cell, taken) in self.cells.iter_mut().zip(taken) {
            if taken {
                before = cell.base + cell.mult;
            } else {
                *cell = Cell { first: f64::INFINITY, base: before, mult: 0 };
            }
        }
        true
    }

    /// The cell of `t`; `None` before the first key and past the last cell (or NaN).
    #[inline(always)]
    pub(super) fn cell_of(&self, t: f64) -> Option<usize> {
        let k = (t - self.x0) * self.scale;
        // In range, so exact.
        (k >= 0.0 && k < self.len).then(|| k as usize)
    }

    /// The number of key times `≤ t`, `t` in cell `k`.
    #[inline(always)]
    pub(super) fn count(&self, k: usize, t: f64) -> Option<usize> {
        let c = self.cells.get(k)?;
        Some(c.base as usize + c.mult as usize * usize::from(c.first <= t))
    }

    /// Asks the processor for cell `k` (a hint).
    #[inline(always)]
    pub(super) fn prefetch(&self, k: usize) {
        prefetch(self.cells.as_ptr().wrapping_add(k));
    }
}

/// What the player reads of one track it evaluates itself: its key times followed by
/// [`LOOK`]` + 1` times `+∞`, a record per segment, and the grid if there is one.
#[derive(Clone, Debug)]
pub(super) struct Compact<R> {
    pub(super) times: Vec<f64>,
    pub(super) recs: Vec<R>,
    pub(super) grid: Option<Grid>,
}

impl<R> Compact<R> {
    fn new(times: &[f64], recs: Vec<R>) -> Self {
        let grid = Grid::new(times);
        let times = times.iter().copied().chain([f64::INFINITY; LOOK + 1]).collect();
        Self { times, recs, grid }
    }

    /// The number of keys.
    #[inline(always)]
    pub(super) fn keys(&self) -> usize {
        self.times.len() - (LOOK + 1)
    }
}

/// A track as the player plays it.
#[derive(Clone, Debug)]
pub(super) enum Plan {
    Poly(Compact<PolyRec>),
    Slerp(Compact<SlerpRec>),
    /// Through the curve's `segment_value` (every other form, and Vec4 polynomials).
    Other,
}

impl Plan {
    pub(super) fn of(curve: &TrackCurve) -> Self {
        let times = curve.times();
        let bounds = |s: usize| (times.get(s).copied().unwrap_or(f64::NAN), times.get(s + 1).copied().unwrap_or(f64::NAN));
        match curve.playback_form() {
            Form::Poly(segs) if curve.dim() <= 3 => {
                let recs = segs.iter().enumerate().map(|(s, p)| PolyRec::new(p, bounds(s).0, bounds(s).1)).collect();
                Self::Poly(Compact::new(times, recs))
            }
            Form::Slerp(pairs) => {
                let recs = pairs.iter().enumerate().map(|(s, p)| SlerpRec::new(p, bounds(s).0, bounds(s).1)).collect();
                Self::Slerp(Compact::new(times, recs))
            }
            _ => Self::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Grid;
    use crate::search::upper_bound;

    /// The grid's count is `upper_bound`'s at, between, just beside and outside the keys, with
    /// keys sharing a time; no grid where one interval is far shorter than the others.
    #[test]
    fn grid_counts_as_upper_bound() {
        let mut seed = 11u64;
        let mut r = || {
            seed = seed * 16807 % 2_147_483_647;
            seed as f64 / 2_147_483_647.0
        };
        let mut t = -3.7;
        let times: Vec<f64> = (0..500)
            .map(|i| {
                if i % 7 != 3 {
                    t += 0.01 + 0.02 * r();
                }
                t
            })
            .collect();
        let grid = Grid::new(&times).expect("a grid");
        let mut queries: Vec<f64> = times.iter().flat_map(|&x| [x, x.next_down(), x.next_up(), x + 0.004]).collect();
        queries.extend((0..2000).map(|_| -4.0 + 16.0 * r()));
        for x in queries {
            let want = upper_bound(&times, x);
            match grid.cell_of(x) {
                Some(k) => assert_eq!(grid.count(k, x), Some(want), "x = {x}"),
                None => assert!(want == 0 || want == times.len(), "x = {x} is outside the grid at count {want}"),
            }
        }
        let mut uneven = times.clone();
        uneven[100] = uneven[99] + 1e-9;
        assert!(Grid::new(&uneven).is_none());
        assert!(Grid::new(&[1.0, 1.0]).is_none() && Grid::new(&[]).is_none());
    }
}
