//! The loops over the tracks the player evaluates itself ([`super::compact`]): one
//! [`Lane`] per track, the lanes of one form and dimension together, so that a loop's body
//! has no dispatch on the track's mode.

use super::compact::{Compact, PolyRec, SlerpRec, LOOK};
use crate::quat::{arc_weights, mix};
use crate::search::{prefetch, Located, SegmentCursor};
use crate::TrackCurve;

/// How many segments ahead of playback the player asks for a record.
const AHEAD: usize = 1;

/// One track's state: the segment found last (`seg`, which [`Lane::step`] checks whatever it
/// is), whether it holds this frame's time (`hit`, a seek's passes), where the value goes, the
/// track's compact data and, for what is outside its keys, the track itself.
#[derive(Clone, Debug)]
pub(super) struct Lane<'c, R> {
    seg: usize,
    hit: bool,
    /// A seek's grid cell, or `usize::MAX` (outside the grid, or no grid).
    cell: usize,
    pub(super) out: usize,
    times: &'c [f64],
    recs: &'c [R],
    data: &'c Compact<R>,
    curve: &'c TrackCurve,
    cursor: SegmentCursor,
}

impl<'c, R> Lane<'c, R> {
    pub(super) fn new(curve: &'c TrackCurve, data: &'c Compact<R>, out: usize) -> Self {
        Self { seg: 0, hit: false, cell: usize::MAX, out, times: &data.times, recs: &data.recs, data, curve, cursor: SegmentCursor::new() }
    }

    /// The track's number of components.
    pub(super) fn dim(&self) -> usize {
        self.curve.dim()
    }

    /// Sequential playback's step: with `w` the key times from `seg` on (`+∞` past the last),
    /// when `w[0] ≤ t` the next [`LOOK`] are counted without branches; if `c < LOOK` of them
    /// are `≤ t`, then `w[c] ≤ t < w[c + 1]`: `t` is inside segment `seg + c` (by the rule of
    /// [`crate::search`]) if that is not the last key. `false` when it does not decide.
    #[inline(always)]
    fn step(&mut self, t: f64) -> bool {
        let seg = self.seg;
        let Some(Ok(w)) = self.times.get(seg..seg + LOOK + 2).map(<&[f64; LOOK + 2]>::try_from) else { return false };
        let c: usize = w[1..=LOOK].iter().map(|&x| usize::from(x <= t)).sum();
        let ok = w[0] <= t && c < LOOK && seg + c < self.recs.len();
        self.seg = if ok { seg + c } else { seg };
        ok
    }

    /// Where [`Self::step`] does not decide: the grid, else the track's index. Whether `t` is
    /// inside the keys (then in segment `seg`).
    #[inline(never)]
    fn find(&mut self, t: f64) -> bool {
        let count = match &self.data.grid {
            Some(g) => match g.cell_of(t).and_then(|k| g.count(k, t)) {
                Some(count) => count,
                None => return false,
            },
            None => self.curve.count_anywhere(t),
        };
        self.settle(count)
    }

    /// Takes the segment of a count of key times `≤ t`; whether `t` is inside the keys.
    #[inline(always)]
    fn settle(&mut self, count: usize) -> bool {
        match Located::from_count(count, self.data.keys()) {
            Located::Inside(s) if s < self.recs.len() => {
                self.seg = s;
                true
            }
            _ => false,
        }
    }

    /// Asks for the record of segment `seg` and the key times a while ahead.
    #[inline(always)]
    fn prefetch_ahead(&self, seg: usize) {
        prefetch(self.times.as_ptr().wrapping_add(seg + 8));
        self.prefetch_rec(seg + AHEAD);
    }

    /// Asks for both cache lines of `recs[seg]` (which need not exist: a hint).
    #[inline(always)]
    fn prefetch_rec(&self, seg: usize) {
        let p = self.recs.as_ptr().wrapping_add(seg).cast::<u8>();
        prefetch(p);
        prefetch(p.wrapping_add(64));
    }
}

/// A track's `D` values in a frame (the offsets were laid out for these dimensions, so the
/// range is always there).
#[inline(always)]
pub(super) fn value_of<const D: usize>(out: &mut [f64], at: usize) -> Option<&mut [f64; D]> {
    out.get_mut(at..at + D).and_then(|o| o.try_into().ok())
}

/// Sequential playback of polynomial tracks of `D` components.
#[inline(always)]
pub(super) fn play_poly<const D: usize>(lanes: &mut [Lane<'_, PolyRec>], t: f64, out: &mut [f64]) {
    for l in lanes {
        let Some(o) = value_of::<D>(out, l.out) else { continue };
        if !(l.step(t) || l.find(t)) {
            l.curve.sample(&mut l.cursor, t, o);
            continue;
        }
        l.prefetch_ahead(l.seg);
        if let Some(r) = l.recs.get(l.seg) {
            r.value(t, o);
        }
    }
}

/// The first pass of a seek: every lane's grid cell asked for (or its index's first data).
#[inline(never)]
pub(super) fn ask_cells<R>(lanes: &mut [Lane<'_, R>], t: f64) {
    for l in lanes {
        l.cell = usize::MAX;
        match &l.data.grid {
            Some(g) => {
                if let Some(k) = g.cell_of(t) {
                    g.prefetch(k);
                    l.cell = k;
                }
            }
            None => l.curve.prefetch_lookup(t),
        }
    }
}

/// The second pass of a seek: each lane's segment from its grid cell and its record asked for
/// (without a grid: the index's next data asked for).
#[inline(never)]
pub(super) fn read_cells<R>(lanes: &mut [Lane<'_, R>], t: f64) {
    for l in lanes {
        l.hit = false;
        match &l.data.grid {
            Some(g) => {
                if let Some(count) = g.count(l.cell, t) {
                    l.hit = l.settle(count);
                    l.prefetch_rec(l.seg);
                }
            }
            None => l.curve.prefetch_keys(t),
        }
    }
}

/// The third pass of a seek, for lanes without a grid: the index's count.
#[inline(never)]
pub(super) fn count_rest<R>(lanes: &mut [Lane<'_, R>], t: f64) {
    for l in lanes.iter_mut().filter(|l| l.data.grid.is_none()) {
        l.hit = l.settle(l.curve.count_anywhere(t));
        l.prefetch_rec(l.seg);
    }
}

/// Polynomial tracks of `D` components at `t`, their segments found by a seek.
#[inline(always)]
pub(super) fn write_poly<const D: usize>(lanes: &mut [Lane<'_, PolyRec>], t: f64, out: &mut [f64]) {
    for l in lanes {
        let Some(o) = value_of::<D>(out, l.out) else { continue };
        match l.recs.get(l.seg) {
            Some(r) if l.hit => r.value(t, o),
            _ => l.curve.sample(&mut l.cursor, t, o),
        }
    }
}

/// The Slerp tracks of a frame whose weights are computed together ([`arc_weights`]): per
/// lane the arc's `θ`, `sin θ` and local time, the weights, and the track. Sized once for
/// every Slerp track.
#[derive(Clone, Debug, Default)]
pub(super) struct Arcs {
    theta: Vec<f64>,
    sin: Vec<f64>,
    u: Vec<f64>,
    ws: Vec<f64>,
    wt: Vec<f64>,
    lane: Vec<usize>,
    len: usize,
}

impl Arcs {
    pub(super) fn with_capacity(n: usize) -> Self {
        let z = vec![0.0; n];
        Self { theta: z.clone(), sin: z.clone(), u: z.clone(), ws: z.clone(), wt: z, lane: vec![0; n], len: 0 }
    }

    /// Adds lane `k`'s arc at local time `u`; `false` (nothing added) if it is not an arc at a
    /// time in `[0, 1]`.
    #[inline(always)]
    fn push(&mut self, r: &SlerpRec, u: f64, k: usize) -> bool {
        let i = self.len;
        match (self.theta.get_mut(i), self.sin.get_mut(i), self.u.get_mut(i), self.lane.get_mut(i)) {
            (Some(a), Some(b), Some(c), Some(d)) if r.arc && (0.0..=1.0).contains(&u) => {
                (*a, *b, *c, *d) = (r.theta, r.sin, u, k);
                self.len += 1;
                true
            }
            _ => false,
        }
    }
}

/// Slerp tracks at `t` (sequential playback: `seek` false, each track's segment found from
/// where it was; a seek: found already), in three passes: every track's segment and local
/// time, the arcs' weights together ([`arc_weights`]), each arc's mix ([`mix`]). A track that is not an arc at a time in
/// `[0, 1]` is evaluated in the first pass (`segment_value`, or `sample` outside its keys).
#[inline(always)]
pub(super) fn play_slerp(lanes: &mut [Lane<'_, SlerpRec>], arcs: &mut Arcs, t: f64, out: &mut [f64], seek: bool) {
    arcs.len = 0;
    for (k, l) in lanes.iter_mut().enumerate() {
        let inside = if seek {
            l.hit
        } else {
            let inside = l.step(t) || l.find(t);
            l.prefetch_ahead(l.seg);
            inside
        };
        let Some(o) = value_of::<4>(out, l.out) else { continue };
        match l.recs.get(l.seg) {
            Some(r) if inside => {
                if !arcs.push(r, r.local(t), k) {
                    l.curve.segment_value(l.seg, t, o);
                }
            }
            _ => l.curve.sample(&mut l.cursor, t, o),
        }
    }
    let n = arcs.len.min(arcs.ws.len()).min(arcs.wt.len());
    arc_weights(&arcs.theta, &arcs.sin, &arcs.u, &mut arcs.ws[..n], &mut arcs.wt[..n]);
    for ((&k, &ws), &wt) in arcs.lane.iter().zip(&arcs.ws[..n]).zip(&arcs.wt[..n]) {
        let Some(l) = lanes.get(k) else { continue };
        if let (Some(r), Some(o)) = (l.recs.get(l.seg), value_of::<4>(out, l.out)) {
            *o = mix(&r.q0, &r.q1, ws, wt);
        }
    }
}
