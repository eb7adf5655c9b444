//! The loops over the tracks the player evaluates itself ([`super::compact`]): a [`Group`]
//! of one form and dimension, one [`Lane`] per track, so that a loop's body has no dispatch
//! on the track's mode.
//!
//! Whatever finds a record (sequential playback's step, the grid, the track's index), the
//! record is used only if `t0 ≤ t < t1` ([`Rec::holds`]): then it is the segment `sample`
//! evaluates, the one segment of the track holding `t`. Anything else goes to `sample`.

use super::compact::{Cell, Kind, Plan, Rec, OUT};
use crate::quat::{arc_weights, mix};
use crate::search::{prefetch, Located, SegmentCursor};
use crate::TrackCurve;

/// One track's state: the position of its record found last, whether it holds this frame's
/// time (`hit`, a seek's passes), where the value goes, its grid column, and, for a segment
/// its index found and for what is outside its keys, the track itself.
#[derive(Clone, Debug)]
pub(super) struct Lane<'c> {
    pos: usize,
    /// The end of the record at `pos`, and the positions of the track's two records after it.
    end: f64,
    next: [usize; 2],
    hit: bool,
    out: usize,
    column: Option<usize>,
    /// Each segment's record position ([`super::compact::Member::pos`]).
    positions: &'c [u32],
    curve: &'c TrackCurve,
    cursor: SegmentCursor,
}

/// The tracks of one kind and the records they read.
#[derive(Clone, Debug)]
pub(super) struct Group<'c> {
    plan: &'c Plan,
    lanes: Vec<Lane<'c>>,
    pub(super) kind: Kind,
}

impl<'c> Group<'c> {
    /// The plan's tracks of `kind`: `curves` and `offsets` are the clip's.
    pub(super) fn new(plan: &'c Plan, kind: Kind, curves: &'c [TrackCurve], offsets: &[usize]) -> Self {
        let lanes = plan
            .members
            .iter()
            .filter(|m| m.kind == kind)
            .map(|m| {
                let pos = m.pos.first().map_or(OUT, |&p| p as usize);
                let out = offsets.get(m.track).copied().unwrap_or(usize::MAX);
                Lane {
                    pos,
                    end: f64::INFINITY,
                    next: [OUT; 2],
                    hit: false,
                    out,
                    column: m.column,
                    positions: &m.pos,
                    curve: &curves[m.track],
                    cursor: SegmentCursor::new(),
                }
            })
            .collect();
        Self { plan, lanes, kind }
    }

    /// How many tracks.
    pub(super) fn len(&self) -> usize {
        self.lanes.len()
    }
}

/// Sequential playback's step: the lane's record, or the track's next one if `t` has passed
/// the lane's record's end (selected by a mask, not a branch: whether `t` passed a key is a coin
/// toss per frame), or, if `t` passed that one's end too (a branch, rarely taken), the one after;
/// the record if it holds `t`. `None`: [`find`].
#[inline(always)]
fn step<'r>(recs: &'r [Rec], l: &mut Lane<'_>, t: f64) -> Option<&'r Rec> {
    let a = usize::from(l.end <= t).wrapping_neg();
    let p = l.pos ^ ((l.pos ^ l.next[0]) & a);
    let mut r = recs.get(p)?;
    let mut p = p;
    if !r.holds(t) {
        p = l.next[1];
        r = recs.get(p).filter(|r| r.holds(t))?;
    }
    l.pos = p;
    refresh(l, r);
    Some(r)
}

/// Keeps in the lane the end of its record `r` and the positions of the track's next two.
#[inline(always)]
fn refresh(l: &mut Lane<'_>, r: &Rec) {
    (l.end, l.next) = (r.t1(), [r.next(), r.next2()]);
}

/// Where [`step`] does not decide: the grid, else the track's index. Whether `t` is inside
/// the track's keys (then its record is at `pos`).
#[inline(never)]
fn find(data: &Plan, l: &mut Lane<'_>, t: f64) -> bool {
    let pos = match l.column {
        Some(c) => data.grid.row_of(t).and_then(|k| data.grid.row(k).get(c)).map_or(OUT, |cell| cell.pos(t)),
        None => index_pos(l, t),
    };
    l.pos = pos;
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
fn index_pos(l: &Lane<'_>, t: f64) -> usize {
    match Located::from_count(l.curve.count_anywhere(t), l.curve.times().len()) {
        Located::Inside(s) => l.positions.get(s).map_or(OUT, |&p| p as usize),
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

/// Sequential playback's hint, a frame ahead of its use: the track's next record.
#[inline(always)]
fn prefetch_ahead(recs: &[Rec], l: &Lane<'_>) {
    prefetch_rec(recs, l.next[0]);
}

/// A track's `D` values in a frame (the offsets were laid out for these dimensions, so the
/// range is always there).
#[inline(always)]
pub(super) fn value_of<const D: usize>(out: &mut [f64], at: usize) -> Option<&mut [f64; D]> {
    out.get_mut(at..at + D).and_then(|o| o.try_into().ok())
}

/// Sequential playback of a group of polynomial tracks of `D` components.
#[inline(always)]
pub(super) fn play_poly<const D: usize>(g: &mut Group<'_>, t: f64, out: &mut [f64]) {
    let data = g.plan;
    let recs = &data.recs[..];
    for l in &mut g.lanes {
        let Some(o) = value_of::<D>(out, l.out) else { continue };
        let r = match step(recs, l, t) {
            Some(r) => r,
            None if find(data, l, t) => &recs[l.pos],
            None => {
                l.curve.sample(&mut l.cursor, t, o);
                continue;
            }
        };
        prefetch_ahead(recs, l);
        r.poly_value(t, o);
    }
}

/// The first pass of a seek: the grid's row asked for; its tracks without a column, their
/// index's first data.
#[inline(never)]
pub(super) fn ask<'g, 'c: 'g>(plan: &Plan, groups: impl Iterator<Item = &'g Group<'c>>, t: f64) -> Option<usize> {
    let row = plan.grid.row_of(t);
    if let Some(k) = row {
        plan.grid.prefetch_row(k);
    }
    for l in groups.flat_map(|g| &g.lanes).filter(|l| l.column.is_none()) {
        l.curve.prefetch_lookup(t);
    }
    row
}

/// The second pass of a seek: each track's record from the grid row (`[]` if `t` is outside
/// the grid), and asked for (tracks without a column: their index's next data asked for).
#[inline(never)]
pub(super) fn read(g: &mut Group<'_>, row: &[Cell], t: f64) {
    for l in &mut g.lanes {
        match l.column {
            Some(c) => {
                l.pos = row.get(c).map_or(OUT, |cell| cell.pos(t));
                prefetch_rec(&g.plan.recs, l.pos);
            }
            None => l.curve.prefetch_keys(t),
        }
    }
}

/// The third pass of a seek: the tracks without a column, by their index; then whether each
/// track's record holds `t`.
#[inline(never)]
pub(super) fn settle(g: &mut Group<'_>, t: f64) {
    let recs = &g.plan.recs[..];
    for l in g.lanes.iter_mut().filter(|l| l.column.is_none()) {
        l.pos = index_pos(l, t);
        prefetch_rec(recs, l.pos);
    }
    for l in &mut g.lanes {
        l.hit = match recs.get(l.pos) {
            Some(r) if r.holds(t) => {
                refresh(l, r);
                true
            }
            _ => false,
        };
    }
}

/// A group of polynomial tracks of `D` components at `t`, their records found by a seek.
#[inline(always)]
pub(super) fn write_poly<const D: usize>(g: &mut Group<'_>, t: f64, out: &mut [f64]) {
    for l in &mut g.lanes {
        let Some(o) = value_of::<D>(out, l.out) else { continue };
        match g.plan.recs.get(l.pos) {
            Some(r) if l.hit => r.poly_value(t, o),
            _ => l.curve.sample(&mut l.cursor, t, o),
        }
    }
}

/// How many arcs [`Arcs`] holds: its arrays are fixed, so that a lane's index needs no
/// bounds check; more Slerp tracks are weighed and mixed [`ARCS`] at a time.
const ARCS: usize = 64;

/// The Slerp tracks of a frame whose weights are computed together ([`arc_weights`], a lane
/// per track, four to a 256-bit register where the processor has AVX2): per lane the arc's
/// `θ`, `sin θ` and local time, its record and where its value goes.
#[derive(Clone, Debug)]
pub(super) struct Arcs {
    theta: [f64; ARCS],
    sin: [f64; ARCS],
    u: [f64; ARCS],
    pos: [usize; ARCS],
    out: [usize; ARCS],
    len: usize,
}

impl Default for Arcs {
    fn default() -> Self {
        Self { theta: [0.0; ARCS], sin: [0.0; ARCS], u: [0.0; ARCS], pos: [0; ARCS], out: [0; ARCS], len: 0 }
    }
}

impl Arcs {
    /// Adds the arc of record `pos`, `r`, at local time `u`, its value going to `out` (the
    /// arcs held weighed and mixed into `frame` first if there are [`ARCS`]); `false` (nothing
    /// added) if it is not an arc at a time in `[0, 1]`.
    #[inline(always)]
    fn push(&mut self, r: &Rec, pos: usize, u: f64, out: usize, recs: &[Rec], frame: &mut [f64]) -> bool {
        let Some((theta, sin)) = r.arc() else { return false };
        if !(0.0..=1.0).contains(&u) {
            return false;
        }
        if self.len >= ARCS {
            self.mix(recs, frame);
        }
        let i = self.len % ARCS;
        (self.theta[i], self.sin[i], self.u[i], self.pos[i], self.out[i]) = (theta, sin, u, pos, out);
        self.len = i + 1;
        true
    }

    /// The weights of the arcs held ([`arc_weights`]), each one's mix ([`mix`]) written.
    #[inline(always)]
    fn mix(&mut self, recs: &[Rec], frame: &mut [f64]) {
        let n = self.len.min(ARCS);
        let (mut ws, mut wt) = ([0.0; ARCS], [0.0; ARCS]);
        arc_weights(&self.theta[..n], &self.sin[..n], &self.u[..n], &mut ws[..n], &mut wt[..n]);
        for i in 0..n {
            if let (Some(r), Some(o)) = (recs.get(self.pos[i]), value_of::<4>(frame, self.out[i])) {
                let (q0, q1) = r.quats();
                *o = mix(q0, q1, ws[i], wt[i]);
            }
        }
        self.len = 0;
    }
}

/// Slerp tracks at `t` (sequential playback: `seek` false, each track's record found from
/// where it was; a seek: found already), in three passes: every track's record and local
/// time, the arcs' weights together ([`arc_weights`]), each arc's mix ([`mix`]). A track that
/// is not an arc at a time in `[0, 1]` is evaluated in the first pass (`segment_value`, or
/// `sample` outside its keys).
#[inline(always)]
pub(super) fn play_slerp(g: &mut Group<'_>, arcs: &mut Arcs, t: f64, out: &mut [f64], seek: bool) {
    let data = g.plan;
    let recs = &data.recs[..];
    arcs.len = 0;
    for l in &mut g.lanes {
        let found = if seek {
            recs.get(l.pos).filter(|_| l.hit)
        } else {
            let r = step(recs, l, t).or_else(|| if find(data, l, t) { recs.get(l.pos) } else { None });
            prefetch_ahead(recs, l);
            r
        };
        match found {
            Some(r) if arcs.push(r, l.pos, r.local(t), l.out, recs, out) => {}
            Some(r) => {
                if let Some(o) = value_of::<4>(out, l.out) {
                    l.curve.segment_value(r.seg(), t, o);
                }
            }
            None => {
                if let Some(o) = value_of::<4>(out, l.out) {
                    l.curve.sample(&mut l.cursor, t, o);
                }
            }
        }
    }
    arcs.mix(recs, out);
}
