//! The clip's own copy of what its player reads per segment, made once per [`super::Clip`]
//! ([`Plan`]). For TCB and Cubic tracks without ease of one to three components and for Slerp
//! tracks: one record of two cache lines per segment ([`Rec`]) holding everything its
//! evaluation reads, its key times and where its track's next two records are; the records of all
//! these tracks in one array **in order of their start times**, so that the segments a frame
//! plays lie together in memory (a few pages for all tracks, not one or two per track, and one
//! stream for the processor to fetch ahead); and one grid from time to every track's record
//! ([`Grid`]), a row per time cell, for seeks. Every other track is played through its own
//! [`TrackCurve`].
//!
//! The records hold the numbers `curve/playback.rs` reads (a [`PolySegment`]'s coefficients and
//! `1/Δt`, a [`crate::quat::SlerpPair`]'s parts and its `1/Δt`), copied, so that the player's
//! operations on them are `sample`'s on the same numbers. The player uses a record only for a
//! time `t` with `t0 ≤ t < t1`, checked however the record was found: then it is the segment
//! `sample` evaluates by the rule of [`crate::search`], the one segment of its track holding `t`.

use crate::curve::playback::{Form, PolySegment};
use crate::quat::{Quat, SlerpPair};
use crate::search::prefetch;
use crate::TrackCurve;

/// One segment of a track the player evaluates itself, 128 bytes (two cache lines): its key
/// times `t0` and `t1` and the positions of the track's next two records (in the first line),
/// and what its evaluation reads, `1/Δt` last (`data[INV_DT]`, in the second line). A TCB or
/// Cubic segment of at most three components holds its coefficients coefficient by coefficient
/// (`data[3j + c]`: coefficient `j`, `c3, c2, c1, c0`, of component `c`), so that the
/// components are evaluated side by side; a Slerp segment its pair's `q0` and `q1′`, `θ`,
/// `1/sin θ`, the largest local time the player weighs it at ([`Rec::arc_parts`]) and the
/// segment's number in its track.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(super) struct Rec {
    // The first cache line: all a step reads, and the start of the data.
    t0: f64,
    t1: f64,
    /// The positions of the track's next record (low half; its own for the last) and of the
    /// one after it (high half; the next's, for the last two).
    nexts: u64,
    /// The segment's numbers, then `1/Δt` (`data[INV_DT]`).
    data: [f64; 13],
}

/// Where a record's `1/Δt` is: last, so that the four lanes from coefficient `j` of a
/// polynomial segment (`data[3j..3j + 4]`) lie inside the data for every `j`.
const INV_DT: usize = 12;

impl Rec {
    /// No segment: a record that holds no time (`t0 = t1 = 0`), for slots that hold none.
    pub(super) const NONE: Self = Self { t0: 0.0, t1: 0.0, nexts: 0, data: [0.0; 13] };

    fn poly(p: &PolySegment, t0: f64, t1: f64) -> Self {
        let mut data = [0.0; 13];
        for (c, coefficients) in p.k.iter().take(3).enumerate() {
            for (j, &x) in coefficients.iter().enumerate() {
                data[3 * j + c] = x;
            }
        }
        data[INV_DT] = p.inv_dt;
        Self { data, t0, t1, nexts: 0 }
    }

    fn slerp(pair: &(SlerpPair, f64), seg: u32, t0: f64, t1: f64) -> Self {
        let (q0, q1, arc) = pair.0.parts();
        let mut data = [0.0; 13];
        data[..4].copy_from_slice(&q0);
        data[4..8].copy_from_slice(&q1);
        // The largest local time the player weighs this arc at itself: 1 where `sample` takes
        // `u = (t − t0)·(1/Δt)` and weighs an arc by `sin2`; −1 (no local time, which is never
        // negative) where it is no arc or `sample` divides by `Δt` instead.
        data[10] = -1.0;
        if let Some((theta, inv_sin)) = arc.filter(|_| pair.1 > 0.0 && pair.1.is_finite()) {
            (data[8], data[9], data[10]) = (theta, inv_sin, 1.0);
        }
        // A segment number below 2⁵³, so exact; read only by `seg`.
        data[11] = f64::from(seg);
        data[INV_DT] = pair.1;
        Self { data, t0, t1, nexts: 0 }
    }

    /// `poly_value` (`Poly::value` without ease) at the time `d = t − t0` past the segment's
    /// start ([`Self::offset`]): `u = d·(1/Δt)`, then Horner's rule per component, the same
    /// operations in the same order.
    #[inline(always)]
    pub(super) fn poly_value<const D: usize>(&self, d: f64, out: &mut [f64; D]) {
        let k = &self.data;
        let u = d * k[INV_DT];
        for (c, o) in out.iter_mut().enumerate().take(3) {
            *o = ((k[c] * u + k[3 + c]) * u + k[6 + c]) * u + k[9 + c];
        }
    }

    /// [`Self::poly_value`] of a three-component segment, the components side by side in the
    /// four 64-bit lanes of one 256-bit register (the fourth, from the next coefficient or
    /// `1/Δt`, not used): the same operations on each component, so the same bits, from four
    /// loads of the coefficients instead of eight.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub(super) fn poly3_avx2(&self, d: f64, out: &mut [f64; 3]) {
        use std::arch::x86_64::{
            _mm256_add_pd, _mm256_castpd256_pd128, _mm256_extractf128_pd, _mm256_mul_pd, _mm256_set1_pd, _mm256_set_pd, _mm_cvtsd_f64, _mm_unpackhi_pd,
        };
        let k = &self.data;
        let u = _mm256_set1_pd(d * k[INV_DT]);
        // Coefficient `j` of the three components (and one more number), `data[3j..3j + 4]`.
        macro_rules! coefficient {
            ($j:literal) => {
                _mm256_set_pd(k[3 * $j + 3], k[3 * $j + 2], k[3 * $j + 1], k[3 * $j])
            };
        }
        let v = _mm256_mul_pd(coefficient!(0), u);
        let v = _mm256_mul_pd(_mm256_add_pd(v, coefficient!(1)), u);
        let v = _mm256_mul_pd(_mm256_add_pd(v, coefficient!(2)), u);
        let v = _mm256_add_pd(v, coefficient!(3));
        let (low, high) = (_mm256_castpd256_pd128(v), _mm256_extractf128_pd::<1>(v));
        *out = [_mm_cvtsd_f64(low), _mm_cvtsd_f64(_mm_unpackhi_pd(low, low)), _mm_cvtsd_f64(high)];
    }

    /// A Slerp segment's `θ`, `1/sin θ` and the largest local time [`Self::arc_time`] at which
    /// the player weighs it as an arc itself: 1, or −1 where it never does (no sine-weighted
    /// arc, or a local time `sample` divides for). Local times are never negative, so one
    /// compare decides.
    #[inline(always)]
    pub(super) fn arc_parts(&self) -> (f64, f64, f64) {
        (self.data[8], self.data[9], self.data[10])
    }

    /// A Slerp segment's `q0` and `q1′`.
    #[inline(always)]
    pub(super) fn quats(&self) -> (&Quat, &Quat) {
        let (q0, rest) = self.data.split_first_chunk::<4>().unwrap_or((&[0.0; 4], &[]));
        (q0, rest.first_chunk::<4>().unwrap_or(&[0.0; 4]))
    }

    /// A Slerp segment's local time at the time `d = t − t0 ≥ 0` past its start
    /// ([`Self::offset`]): `d·(1/Δt)`, what `sample` takes wherever [`Self::arc_parts`] lets
    /// the player weigh the arc (elsewhere it means nothing).
    #[inline(always)]
    pub(super) fn arc_time(&self, d: f64) -> f64 {
        d * self.data[INV_DT]
    }

    /// Whether `t0 ≤ t < t1` (`false` for NaN), as [`Self::offset`] tests it: then this is the
    /// segment holding `t`.
    #[inline(always)]
    pub(super) fn holds(&self, t: f64) -> bool {
        self.offset(t).is_some()
    }

    /// `t − t0` where `t0 ≤ t < t1` (the segment holds `t`), else `None`: the start is read once
    /// for the test and the evaluation. For finite key times `t − t0 ≥ 0` exactly where `t0 ≤ t` (the
    /// difference of two unequal finite numbers is not zero).
    #[inline(always)]
    pub(super) fn offset(&self, t: f64) -> Option<f64> {
        let d = t - self.t0;
        ((d >= 0.0) & (t < self.t1)).then_some(d)
    }

    /// `t − t0`, what [`Self::offset`] gives a record known to hold `t`.
    #[inline(always)]
    pub(super) fn since(&self, t: f64) -> f64 {
        t - self.t0
    }

    #[inline(always)]
    pub(super) fn t1(&self) -> f64 {
        self.t1
    }

    /// The position of the track's next record (its own, for the last).
    #[inline(always)]
    pub(super) fn next(&self) -> u32 {
        // The low half.
        self.nexts as u32
    }

    /// The position of the track's record after the next.
    #[inline(always)]
    pub(super) fn next2(&self) -> u32 {
        (self.nexts >> 32) as u32
    }

    /// A Slerp segment's number in its track.
    #[inline(always)]
    pub(super) fn seg(&self) -> usize {
        // Written from a u32 (`Rec::slerp`), so exact.
        self.data[11] as usize
    }
}

/// Where a time is for one track in one grid cell: the key time in the cell (`+∞` if none)
/// and the position of the track's record for a time before it and for one at or after it
/// ([`OUT`] outside the track's keys).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(super) struct Cell {
    first: f64,
    below: u32,
    at: u32,
}

impl Cell {
    /// The position of the record of `t` (in this cell), or [`OUT`].
    #[inline(always)]
    pub(super) fn pos(&self, t: f64) -> usize {
        (if self.first <= t { self.at } else { self.below }) as usize
    }
}

/// A position that is no record: the time is outside the track's keys.
pub(super) const OUT: usize = u32::MAX as usize;

/// Time to every track's record in one row: cells of equal width, cell `⌊(t − t₀)·scale⌋`,
/// at most one distinct key time of each track per cell. As that cell number never decreases
/// when `t` grows, a track's keys in an earlier cell are `≤ t` and those in a later one `> t`,
/// so which record holds `t` depends only on whether `t` is before the cell's key time:
/// exactly `upper_bound`'s count. Row `k` holds the cells of every track with a column, side
/// by side. At most 8 cells per key of the longest track.
#[derive(Clone, Debug, Default)]
pub(super) struct Grid {
    x0: f64,
    scale: f64,
    len: f64,
    width: usize,
    cells: Vec<Cell>,
}

impl Grid {
    /// The bytes of its cells.
    pub(super) fn bytes(&self) -> usize {
        std::mem::size_of_val(&self.cells[..])
    }

    /// A grid over the columns' key times (each sorted) and their records' positions, or
    /// `None` where it would be large or two distinct times share a cell however it is cut.
    fn new(columns: &[(&[f64], &[u32])]) -> Option<Self> {
        let (mut x0, mut last, mut gap, mut most) = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, 64.0f64);
        for (times, _) in columns {
            x0 = x0.min(*times.first()?);
            last = last.max(*times.last()?);
            gap = times.windows(2).map(|w| w[1] - w[0]).filter(|&d| d > 0.0).fold(gap, f64::min);
            most = most.max(8.0 * times.len() as f64);
        }
        if !(x0.is_finite() && last.is_finite() && last > x0) {
            return None;
        }
        let mut scale = 1.0 / gap;
        for _ in 0..4 {
            let end = (last - x0) * scale;
            if !(end.is_finite() && end < most) {
                return None;
            }
            // In range, so exact.
            let rows = end as usize + 1;
            let width = columns.len();
            let mut grid = Self { x0, scale, len: rows as f64, width, cells: vec![Cell::default(); rows * width] };
            if columns.iter().enumerate().all(|(col, &(times, pos))| grid.fill(col, times, pos)) {
                return Some(grid);
            }
            scale *= 1.25;
        }
        None
    }

    /// Fills column `col` from a track's key times and its records' positions; `false` if two
    /// of its distinct times share a cell.
    fn fill(&mut self, col: usize, times: &[f64], pos: &[u32]) -> bool {
        let n = times.len();
        // The record holding a time with `count` keys at or before it.
        let record = |count: usize| if count >= 1 && count < n { pos.get(count - 1).copied().unwrap_or(u32::MAX) } else { u32::MAX };
        let rows = self.cells.len() / self.width.max(1);
        let (mut i, mut row) = (0, 0);
        while row < rows {
            // The next distinct key time and its cell (none: past every row).
            let m = times[i.min(n)..].iter().take_while(|&&x| x == times[i]).count();
            let k = if i < n { self.row_of(times[i]) } else { Some(rows) };
            let Some(k) = k else { return false };
            if k < row {
                return false;
            }
            for r in row..k.min(rows) {
                self.cells[r * self.width + col] = Cell { first: f64::INFINITY, below: record(i), at: record(i) };
            }
            if k < rows {
                self.cells[k * self.width + col] = Cell { first: times[i], below: record(i), at: record(i + m) };
            }
            (i, row) = (i + m, k + 1);
        }
        i >= n
    }

    /// The row of `t`; `None` before the first key and past the last row (or NaN).
    #[inline(always)]
    pub(super) fn row_of(&self, t: f64) -> Option<usize> {
        let k = (t - self.x0) * self.scale;
        // In range, so exact.
        (k >= 0.0 && k < self.len).then_some(k as usize)
    }

    /// Row `k`, one cell per column.
    #[inline(always)]
    pub(super) fn row(&self, k: usize) -> &[Cell] {
        self.cells.get(k * self.width..(k + 1) * self.width).unwrap_or(&[])
    }

    /// Asks the processor for row `k` (a hint).
    #[inline(always)]
    pub(super) fn prefetch_row(&self, k: usize) {
        let p = self.cells.as_ptr().wrapping_add(k * self.width).cast::<u8>();
        for offset in (0..self.width * std::mem::size_of::<Cell>()).step_by(64) {
            prefetch(p.wrapping_add(offset));
        }
    }
}

/// How the player evaluates a track of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Kind {
    /// TCB or Cubic without ease, of this many components (1 to 3).
    Poly(usize),
    Slerp,
}

/// One track the player evaluates itself: the track's index in the clip, how, every record's
/// position (for a segment the track's own index found) and its grid column.
#[derive(Clone, Debug)]
pub(super) struct Member {
    pub(super) track: usize,
    pub(super) kind: Kind,
    pub(super) pos: Vec<u32>,
    pub(super) column: Option<usize>,
}

/// The records of every track the player evaluates itself, in order of start time, and the
/// grid.
#[derive(Clone, Debug, Default)]
pub(super) struct Plan {
    pub(super) recs: Vec<Rec>,
    pub(super) members: Vec<Member>,
    pub(super) grid: Grid,
    /// Whether each track of the clip is a member.
    pub(super) grouped: Vec<bool>,
}

impl Plan {
    /// The plan of `curves` but those `taken` (kept as keys, [`super::packed`]).
    pub(super) fn new(curves: &[TrackCurve], taken: &[bool]) -> Self {
        let mut tracks: Vec<(usize, Kind, &[f64], Vec<Rec>)> = Vec::new();
        for (i, curve) in curves.iter().enumerate().filter(|(i, _)| !taken.get(*i).copied().unwrap_or(false)) {
            let times = curve.times();
            let bounds = |s: usize| (times.get(s).copied().unwrap_or(f64::NAN), times.get(s + 1).copied().unwrap_or(f64::NAN));
            // Segment numbers below u32::MAX (checked).
            match curve.playback_form() {
                Form::Poly(segs) if (1..=3).contains(&curve.dim()) && !segs.is_empty() && segs.len() < OUT => {
                    let recs = segs.iter().enumerate().map(|(s, p)| Rec::poly(p, bounds(s).0, bounds(s).1)).collect();
                    tracks.push((i, Kind::Poly(curve.dim()), times, recs));
                }
                Form::Slerp(pairs) if !pairs.is_empty() && pairs.len() < OUT => {
                    let recs = pairs.iter().enumerate().map(|(s, p)| Rec::slerp(p, s as u32, bounds(s).0, bounds(s).1)).collect();
                    tracks.push((i, Kind::Slerp, times, recs));
                }
                _ => {}
            }
        }
        let mut plan = Self::merge(&tracks).unwrap_or_default();
        plan.grouped = (0..curves.len()).map(|i| taken.get(i).copied().unwrap_or(false)).collect();
        for m in &plan.members {
            plan.grouped[m.track] = true;
        }
        plan
    }

    /// Merges `(track index, kind, key times, records in segment order)`s by start time;
    /// `None` past u32 records.
    fn merge(tracks: &[(usize, Kind, &[f64], Vec<Rec>)]) -> Option<Self> {
        let mut order: Vec<(f64, usize, usize)> =
            tracks.iter().enumerate().flat_map(|(m, (.., recs))| recs.iter().enumerate().map(move |(s, r)| (r.t0, m, s))).collect();
        if order.len() >= OUT {
            return None;
        }
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let mut pos: Vec<Vec<u32>> = tracks.iter().map(|(.., recs)| vec![0; recs.len()]).collect();
        for (p, &(_, m, s)) in order.iter().enumerate() {
            // Below u32::MAX (checked above).
            pos[m][s] = p as u32;
        }
        let recs = order
            .iter()
            .map(|&(_, m, s)| {
                let at = |k: usize| pos[m].get(k.min(pos[m].len().saturating_sub(1))).copied().unwrap_or(0);
                Rec { nexts: u64::from(at(s + 1)) | u64::from(at(s + 2)) << 32, ..tracks[m].3[s] }
            })
            .collect();
        let columns: Vec<(&[f64], &[u32])> = tracks.iter().zip(&pos).map(|((_, _, times, _), pos)| (*times, &pos[..])).collect();
        let (grid, column) = Self::grid(&columns);
        let members = tracks.iter().zip(pos).zip(column).map(|(((track, kind, ..), pos), column)| Member { track: *track, kind: *kind, pos, column }).collect();
        Some(Self { recs, members, grid, grouped: Vec::new() })
    }

    /// The bytes of its records and grid, and the keys of its tracks.
    pub(super) fn bytes_and_keys(&self) -> (usize, usize, usize) {
        (std::mem::size_of_val(&self.recs[..]), self.grid.bytes(), self.members.iter().map(|m| m.pos.len() + 1).sum())
    }

    /// The grid of as many of `columns` as it can hold, leaving out the tracks with the
    /// shortest intervals first, and each track's column in it.
    fn grid(columns: &[(&[f64], &[u32])]) -> (Grid, Vec<Option<usize>>) {
        let gap = |times: &[f64]| times.windows(2).map(|w| w[1] - w[0]).filter(|&d| d > 0.0).fold(f64::INFINITY, f64::min);
        let mut kept: Vec<usize> = (0..columns.len()).collect();
        kept.sort_by(|&a, &b| gap(columns[b].0).total_cmp(&gap(columns[a].0)).then(a.cmp(&b)));
        while !kept.is_empty() {
            let mut ordered = kept.clone();
            ordered.sort_unstable();
            let chosen: Vec<(&[f64], &[u32])> = ordered.iter().map(|&m| columns[m]).collect();
            if let Some(grid) = Grid::new(&chosen) {
                let mut column = vec![None; columns.len()];
                for (c, &m) in ordered.iter().enumerate() {
                    column[m] = Some(c);
                }
                return (grid, column);
            }
            kept.pop();
        }
        (Grid::default(), vec![None; columns.len()])
    }
}

#[cfg(test)]
mod tests {
    use super::{Grid, OUT};
    use crate::search::upper_bound;

    /// Each column's record is the one `upper_bound`'s count gives, at, between, just beside
    /// and outside the keys, with keys sharing a time and columns over different ranges; no
    /// grid where one interval is far shorter than the others.
    #[test]
    fn grid_rows_are_upper_bound() {
        let mut seed = 11u64;
        let mut r = || {
            seed = seed * 16807 % 2_147_483_647;
            seed as f64 / 2_147_483_647.0
        };
        let mut column = |start: f64, n: usize| {
            let mut t = start;
            let times: Vec<f64> = (0..n)
                .map(|i| {
                    if i % 7 != 3 {
                        t += 0.01 + 0.02 * r();
                    }
                    t
                })
                .collect();
            let pos: Vec<u32> = (0..n as u32 - 1).map(|s| 1000 + 3 * s).collect();
            (times, pos)
        };
        let (a, b) = (column(-3.7, 500), column(-1.0, 300));
        let grid = Grid::new(&[(&a.0, &a.1), (&b.0, &b.1)]).expect("a grid");
        let mut queries: Vec<f64> = a.0.iter().chain(&b.0).flat_map(|&x| [x, x.next_down(), x.next_up(), x + 0.004]).collect();
        queries.extend((0..4000).map(|k| -4.0 + 16.0 * f64::from(k) / 4000.0));
        for x in queries {
            let row = grid.row_of(x).map(|k| grid.row(k));
            for (c, (times, pos)) in [&a, &b].into_iter().enumerate() {
                let count = upper_bound(times, x);
                let want = if count >= 1 && count < times.len() { pos[count - 1] as usize } else { OUT };
                match row {
                    Some(row) => assert_eq!(row[c].pos(x), want, "column {c} at {x}"),
                    None => assert_eq!(want, OUT, "column {c} at {x}, outside the grid"),
                }
            }
        }
        let mut uneven = a.0.clone();
        uneven[100] = uneven[99] + 1e-9;
        assert!(Grid::new(&[(&uneven, &a.1)]).is_none());
        assert!(Grid::new(&[(&[1.0, 1.0], &[0])]).is_none() && Grid::new(&[(&[], &[])]).is_none());
    }
}
