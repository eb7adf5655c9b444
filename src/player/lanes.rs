//! The loops over the tracks the player evaluates itself ([`super::compact`]): a [`Group`]
//! of one form and dimension, one [`Lane`] per track, so that a loop's body has no dispatch
//! on the track's mode.
//!
//! Whatever finds a record (sequential playback's step, the grid, the track's index), the
//! record is used only if `t0 ≤ t < t1` ([`Rec::holds`], [`Rec::offset`]): then it is the segment `sample`
//! evaluates, the one segment of the track holding `t`. Anything else goes to `sample`.

use super::compact::{Cell, Kind, Plan, Rec, OUT};
use crate::quat::{arc_weights, mix};
use crate::search::{prefetch, Located, SegmentCursor};
use crate::TrackCurve;

/// What sequential playback reads of a track every frame, 32 bytes (two lanes to a cache
/// line): the end of its record found last, where its value goes, that record's position and
/// the positions of the track's two records after it. What else a track needs is in its
/// [`Cold`] state, read where the step does not decide, by seeks, and for a Slerp segment
/// the player does not weigh as an arc (evaluated by the track).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(super) struct Lane {
    end: f64,
    out: usize,
    pos: u32,
    next: [u32; 2],
}

impl Lane {
    /// The position of the record found last ([`OUT`] for none).
    #[inline(always)]
    fn pos(&self) -> usize {
        self.pos as usize
    }

    /// Sets the position of the record found ([`OUT`] and every record position fit a u32).
    #[inline(always)]
    fn set_pos(&mut self, pos: usize) {
        self.pos = u32::try_from(pos).unwrap_or(u32::MAX);
    }
}

/// The rest of a track's state: whether its record holds this frame's time (`hit`, a seek's
/// passes), its grid column, and, for a segment its index found and for what is outside its
/// keys, the track itself.
#[derive(Clone, Debug)]
struct Cold<'c> {
    hit: bool,
    column: Option<usize>,
    /// Each segment's record position ([`super::compact::Member::pos`]).
    positions: &'c [u32],
    curve: &'c TrackCurve,
    cursor: SegmentCursor,
}

/// The tracks of one kind and the records they read: `lanes[i]` and `cold[i]` are one track.
#[derive(Clone, Debug)]
pub(super) struct Group<'c> {
    plan: &'c Plan,
    lanes: Vec<Lane>,
    cold: Vec<Cold<'c>>,
    pub(super) kind: Kind,
    /// How much of a frame the group's values take: every lane's `out` plus its dimension is
    /// at most this (each lane's `out` is set here and never changes), so that a frame cut to
    /// it holds every lane's value without a check per lane ([`value_at`]).
    span: usize,
}

impl<'c> Group<'c> {
    /// The plan's tracks of `kind`: `curves` and `offsets` are the clip's.
    pub(super) fn new(plan: &'c Plan, kind: Kind, curves: &'c [TrackCurve], offsets: &[usize]) -> Self {
        let members: Vec<_> = plan.members.iter().filter(|m| m.kind == kind).collect();
        let lanes: Vec<Lane> = members
            .iter()
            .map(|m| {
                let pos = m.pos.first().copied().unwrap_or(u32::MAX);
                let out = offsets.get(m.track).copied().unwrap_or(usize::MAX);
                Lane { end: f64::INFINITY, out, pos, next: [u32::MAX; 2] }
            })
            .collect();
        let cold =
            members.iter().map(|m| Cold { hit: false, column: m.column, positions: &m.pos, curve: &curves[m.track], cursor: SegmentCursor::new() }).collect();
        let dim = match kind {
            Kind::Poly(d) => d,
            Kind::Slerp => 4,
        };
        let span = lanes.iter().map(|l| l.out.saturating_add(dim)).max().unwrap_or(0);
        Self { plan, lanes, cold, kind, span }
    }

    /// How many tracks.
    pub(super) fn len(&self) -> usize {
        self.lanes.len()
    }
}

/// Sequential playback's step: the lane's record, or the track's next one if `t` has passed
/// the lane's record's end (selected by a mask, not a branch: whether `t` passed a key is a coin
/// toss per frame), or, if `t` passed that one's end too (a branch, rarely taken), the one after;
/// the record if it holds `t`, and `t − t0` ([`Rec::offset`]). `None`: [`find`]. First the hint, a frame ahead of its use: the
/// record after the one taken as the lane tells it (the next's next if `t` passed the end,
/// else the next), asked for before the record taken is read, so that the hint does not wait
/// for it.
#[inline(always)]
fn step<'r>(recs: &'r [Rec], l: &mut Lane, t: f64) -> Option<(&'r Rec, f64)> {
    let a = u32::from(l.end <= t).wrapping_neg();
    let mut p = l.pos ^ ((l.pos ^ l.next[0]) & a);
    prefetch_rec(recs, (l.next[0] ^ ((l.next[0] ^ l.next[1]) & a)) as usize);
    let mut r = recs.get(p as usize)?;
    let d = match r.offset(t) {
        Some(d) => d,
        None => {
            p = l.next[1];
            r = recs.get(p as usize)?;
            r.offset(t)?
        }
    };
    l.pos = p;
    refresh(l, r);
    Some((r, d))
}

/// Keeps in the lane the end of its record `r` and the positions of the track's next two.
#[inline(always)]
fn refresh(l: &mut Lane, r: &Rec) {
    (l.end, l.next) = (r.t1(), [r.next(), r.next2()]);
}

/// Where [`step`] does not decide: the grid, else the track's index. Whether `t` is inside
/// the track's keys (then its record is at `pos`).
#[inline(never)]
fn find(data: &Plan, l: &mut Lane, c: &Cold<'_>, t: f64) -> bool {
    let pos = match c.column {
        Some(k) => data.grid.row_of(t).and_then(|row| data.grid.row(row).get(k)).map_or(OUT, |cell| cell.pos(t)),
        None => index_pos(c, t),
    };
    l.set_pos(pos);
    match data.recs.get(pos) {
        Some(r) if r.holds(t) => {
            refresh(l, r);
            true
        }
        _ => false,
    }
}

/// The position of the record of `t` by the track's own index, or [`OUT`].
#[inline(always)]
fn index_pos(c: &Cold<'_>, t: f64) -> usize {
    match Located::from_count(c.curve.count_anywhere(t), c.curve.times().len()) {
        Located::Inside(s) => c.positions.get(s).map_or(OUT, |&p| p as usize),
        _ => OUT,
    }
}

/// Asks for both cache lines of `recs[pos]` (which need not exist: a hint).
#[inline(always)]
fn prefetch_rec(recs: &[Rec], pos: usize) {
    let p = recs.as_ptr().wrapping_add(pos).cast::<u8>();
    prefetch(p);
    prefetch(p.wrapping_add(64));
}

/// A track's `D` values in a frame (the offsets were laid out for these dimensions, so the
/// range is always there).
#[inline(always)]
pub(super) fn value_of<const D: usize>(out: &mut [f64], at: usize) -> Option<&mut [f64; D]> {
    out.get_mut(at..at + D).and_then(|o| o.try_into().ok())
}

/// A lane's `D` values in its group's part of a frame (`&mut out[..span]`, which panics if
/// the frame is shorter: the clip's layout rules that out, and `ClipPlayer` checks every
/// frame's length), without a bounds check:
/// a check per track is a measurable part of a frame.
///
/// # Safety
/// `at + D ≤ frame.len()`: true of every lane's `out` and its group's dimension in a frame
/// cut to the group's span.
#[inline(always)]
pub(super) unsafe fn value_at<const D: usize>(frame: &mut [f64], at: usize) -> &mut [f64; D] {
    debug_assert!(at + D <= frame.len());
    // SAFETY: `at + D ≤ frame.len()` (the caller's promise), so the `D` values lie inside the
    // frame, which this borrows mutably.
    unsafe { &mut *frame.as_mut_ptr().add(at).cast::<[f64; D]>() }
}

/// Sequential playback of a group of polynomial tracks of `D` components (`WIDE`: on four
/// lanes, see [`poly_value`]).
///
/// # Safety
/// With `WIDE`, the processor must have AVX2.
#[inline(always)]
pub(super) unsafe fn play_poly<const D: usize, const WIDE: bool>(g: &mut Group<'_>, t: f64, out: &mut [f64]) {
    let data = g.plan;
    let recs = &data.recs[..];
    // What the unchecked writes rely on: the group's dimension is `D`.
    assert_eq!(g.kind, Kind::Poly(D), "a group of {D} components");
    let out = &mut out[..g.span];
    for (l, c) in g.lanes.iter_mut().zip(&mut g.cold) {
        // SAFETY: a lane's `out` plus the group's dimension is within its span.
        let o = unsafe { value_at::<D>(out, l.out) };
        let (r, d) = match step(recs, l, t) {
            Some(found) => found,
            None if find(data, l, c, t) => (&recs[l.pos()], recs[l.pos()].since(t)),
            None => {
                c.curve.sample(&mut c.cursor, t, o);
                continue;
            }
        };
        // SAFETY: with `WIDE` the processor has AVX2 (this function's contract).
        unsafe { poly_value::<D, WIDE>(r, d, o) };
    }
}

/// [`Rec::poly_value`], on four lanes for three components with `WIDE` (the same operations
/// in the same order: the same bits).
///
/// # Safety
/// With `WIDE`, the processor must have AVX2.
#[inline(always)]
unsafe fn poly_value<const D: usize, const WIDE: bool>(r: &Rec, d: f64, o: &mut [f64; D]) {
    #[cfg(target_arch = "x86_64")]
    if WIDE {
        if let Ok(o) = <&mut [f64; 3]>::try_from(&mut o[..]) {
            // SAFETY: with `WIDE` the processor has AVX2 (this function's contract).
            return unsafe { r.poly3_avx2(d, o) };
        }
    }
    r.poly_value(d, o);
}

/// The first pass of a seek: the grid's row asked for; its tracks without a column, their
/// index's first data.
#[inline(never)]
pub(super) fn ask<'g, 'c: 'g>(plan: &Plan, groups: impl Iterator<Item = &'g Group<'c>>, t: f64) -> Option<usize> {
    let row = plan.grid.row_of(t);
    if let Some(k) = row {
        plan.grid.prefetch_row(k);
    }
    for c in groups.flat_map(|g| &g.cold).filter(|c| c.column.is_none()) {
        c.curve.prefetch_lookup(t);
    }
    row
}

/// The second pass of a seek: each track's record from the grid row (`[]` if `t` is outside
/// the grid), and asked for (tracks without a column: their index's next data asked for).
#[inline(never)]
pub(super) fn read(g: &mut Group<'_>, row: &[Cell], t: f64) {
    for (l, c) in g.lanes.iter_mut().zip(&g.cold) {
        match c.column {
            Some(k) => {
                l.set_pos(row.get(k).map_or(OUT, |cell| cell.pos(t)));
                prefetch_rec(&g.plan.recs, l.pos());
            }
            None => c.curve.prefetch_keys(t),
        }
    }
}

/// The third pass of a seek: the tracks without a column, by their index; then whether each
/// track's record holds `t`.
#[inline(never)]
pub(super) fn settle(g: &mut Group<'_>, t: f64) {
    let recs = &g.plan.recs[..];
    for (l, c) in g.lanes.iter_mut().zip(&g.cold).filter(|(_, c)| c.column.is_none()) {
        l.set_pos(index_pos(c, t));
        prefetch_rec(recs, l.pos());
    }
    for (l, c) in g.lanes.iter_mut().zip(&mut g.cold) {
        c.hit = match recs.get(l.pos()) {
            Some(r) if r.holds(t) => {
                refresh(l, r);
                true
            }
            _ => false,
        };
    }
}

/// A group of polynomial tracks of `D` components at `t`, their records found by a seek
/// (`WIDE`: as in [`play_poly`]).
///
/// # Safety
/// With `WIDE`, the processor must have AVX2.
#[inline(always)]
pub(super) unsafe fn write_poly<const D: usize, const WIDE: bool>(g: &mut Group<'_>, t: f64, out: &mut [f64]) {
    assert_eq!(g.kind, Kind::Poly(D), "a group of {D} components");
    let out = &mut out[..g.span];
    for (l, c) in g.lanes.iter_mut().zip(&mut g.cold) {
        // SAFETY: a lane's `out` plus the group's dimension is within its span.
        let o = unsafe { value_at::<D>(out, l.out) };
        match g.plan.recs.get(l.pos()) {
            // SAFETY: with `WIDE` the processor has AVX2 (this function's contract).
            Some(r) if c.hit => unsafe { poly_value::<D, WIDE>(r, r.since(t), o) },
            _ => c.curve.sample(&mut c.cursor, t, o),
        }
    }
}

/// How many arcs [`Arcs`] holds: its arrays are fixed, so that a lane's index needs no
/// bounds check; more Slerp tracks are weighed and mixed [`ARCS`] at a time.
const ARCS: usize = 64;

/// The Slerp tracks of a frame whose weights are computed together ([`arc_weights`], a lane
/// per track, four to a 256-bit register where the processor has AVX2): per lane the arc's
/// `θ`, `1/sin θ` and local time, its record and where its value goes.
#[derive(Clone, Debug)]
pub(super) struct Arcs<'c> {
    theta: [f64; ARCS],
    inv_sin: [f64; ARCS],
    u: [f64; ARCS],
    rec: [&'c Rec; ARCS],
    out: [usize; ARCS],
    /// The weights [`arc_weights`] writes (kept here, so that a frame does not clear them).
    ws: [f64; ARCS],
    wt: [f64; ARCS],
    len: usize,
}

impl Default for Arcs<'_> {
    fn default() -> Self {
        let zero = [0.0; ARCS];
        // Arcs of θ = 0 with 1/sin θ = 1: finite weights for the lanes computed and not used.
        Self { theta: zero, inv_sin: [1.0; ARCS], u: zero, rec: [&Rec::NONE; ARCS], out: [0; ARCS], ws: zero, wt: zero, len: 0 }
    }
}

impl<'c> Arcs<'c> {
    /// Adds the arc of record `r` at local time `u ≥ 0` ([`Rec::arc_time`]), its value going
    /// to `out`, as arc number `*n` (below [`ARCS`]: the caller's chunks of lanes are no
    /// longer), counted; `false` (nothing added) if the player does not weigh it at `u`
    /// ([`Rec::arc_parts`]: no arc, or `u > 1`). One compare.
    #[inline(always)]
    fn push(&mut self, n: &mut usize, r: &'c Rec, u: f64, out: usize) -> bool {
        let (theta, inv_sin, last) = r.arc_parts();
        if !(u <= last) {
            return false;
        }
        let i = *n % ARCS;
        (self.theta[i], self.inv_sin[i], self.u[i], self.rec[i], self.out[i]) = (theta, inv_sin, u, r, out);
        *n = i + 1;
        true
    }

    /// The weights of the arcs held ([`arc_weights`]), each one's mix ([`mix`]) written.
    ///
    /// # Safety
    /// Every arc's `out` plus 4 is at most `frame.len()`.
    #[inline(always)]
    unsafe fn mix(&mut self, frame: &mut [f64]) {
        let n = self.len.min(ARCS);
        // Whole registers of four lanes: the lanes past `n` hold an earlier chunk's or frame's
        // arcs (or the initial ones), whose weights are computed and not used.
        let m = n.next_multiple_of(4).min(ARCS);
        let (ws, wt) = (&mut self.ws, &mut self.wt);
        arc_weights(&self.theta[..m], &self.inv_sin[..m], &self.u[..m], &mut ws[..m], &mut wt[..m]);
        for i in 0..n {
            // SAFETY: the caller's promise.
            let o = unsafe { value_at::<4>(frame, self.out[i]) };
            let (q0, q1) = self.rec[i].quats();
            *o = mix(q0, q1, ws[i], wt[i]);
        }
        self.len = 0;
    }
}

/// Slerp tracks at `t` (sequential playback: `seek` false, each track's record found from
/// where it was; a seek: found already), in three passes: every track's record and local
/// time, the arcs' weights together ([`arc_weights`]), each arc's mix ([`mix`]). A track that
/// the player does not weigh itself ([`Rec::arc_parts`]: no arc, a local time past 1, or a
/// segment whose `1/Δt` is 0, for which `sample` divides) is evaluated in the first pass
/// (`segment_value`, or `sample` outside its keys).
#[inline(always)]
pub(super) fn play_slerp<'c>(g: &mut Group<'c>, arcs: &mut Arcs<'c>, t: f64, out: &mut [f64], seek: bool) {
    // What the unchecked writes rely on: this group's values are of 4 components.
    assert_eq!(g.kind, Kind::Slerp, "a Slerp group");
    let data = g.plan;
    let out = &mut out[..g.span];
    for (lanes, cold) in g.lanes.chunks_mut(ARCS).zip(g.cold.chunks_mut(ARCS)) {
        arcs.len = slerp_chunk(data, lanes, cold, arcs, t, out, seek);
        // SAFETY: every arc held was pushed by `slerp_chunk` from a lane of `g`, whose `out`
        // plus 4 is within its span, the length of `out`.
        unsafe { arcs.mix(out) };
    }
}

/// The first pass of [`play_slerp`] over at most [`ARCS`] lanes: their arcs held in `arcs`,
/// the others evaluated. How many arcs.
#[inline(always)]
fn slerp_chunk<'c>(data: &'c Plan, lanes: &mut [Lane], cold: &mut [Cold<'_>], arcs: &mut Arcs<'c>, t: f64, out: &mut [f64], seek: bool) -> usize {
    let recs = &data.recs[..];
    let mut n = 0;
    for (l, c) in lanes.iter_mut().zip(cold) {
        let found = if seek {
            recs.get(l.pos()).filter(|_| c.hit).map(|r| (r, r.since(t)))
        } else {
            step(recs, l, t).or_else(|| if find(data, l, c, t) { recs.get(l.pos()).map(|r| (r, r.since(t))) } else { None })
        };
        match found {
            Some((r, d)) if arcs.push(&mut n, r, r.arc_time(d), l.out) => {}
            Some((r, _)) => {
                if let Some(o) = value_of::<4>(out, l.out) {
                    c.curve.segment_value(r.seg(), t, o);
                }
            }
            None => {
                if let Some(o) = value_of::<4>(out, l.out) {
                    c.curve.sample(&mut c.cursor, t, o);
                }
            }
        }
    }
    n
}
