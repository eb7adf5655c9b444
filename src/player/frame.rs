//! A frame of a [`super::ClipPlayer`]: every track's hot state ([`Tracks`]) and the loops
//! that find each track's segment at a frame's time and write its value (see the speed
//! section of the module docs of [`crate::player`]).

use crate::curve::playback::{poly_bytes, poly_value, prefetch_ahead, prefetch_record, slerp_local, slerp_value, Form, PolySegment};
use crate::quat::{arc_weights, SlerpPair};
use crate::search::{within, Located, SegmentCursor};
use crate::TrackCurve;
use std::ops::Range;

/// One track's hot state: what a frame reads and updates for it, 80 bytes. `R` is what the
/// player reads per segment: a [`PolySegment`], a Slerp pair, or nothing (`()`: the track's
/// own `segment_value`).
#[derive(Clone, Debug)]
struct Slot<'c, R> {
    /// `times[seg]` and `times[seg + 1]` of the segment found last, or `(+∞, −∞)`, between
    /// which no time lies (before the first frame, and after one outside the keys).
    lo: f64,
    hi: f64,
    seg: usize,
    /// Where the track's value starts in a frame.
    out: usize,
    times: &'c [f64],
    records: &'c [R],
    curve: &'c TrackCurve,
    cursor: SegmentCursor,
}

impl<'c, R> Slot<'c, R> {
    const NOWHERE: (f64, f64) = (f64::INFINITY, f64::NEG_INFINITY);

    fn new(curve: &'c TrackCurve, records: &'c [R], out: usize) -> Self {
        let (lo, hi) = Self::NOWHERE;
        Self { lo, hi, seg: 0, out, times: curve.times(), records, curve, cursor: SegmentCursor::new() }
    }
}

/// The segment data the player evaluates itself, by the operations of the track's mode.
trait Record {
    /// The bytes of the record a value of `d` components reads.
    fn used(d: usize) -> Range<usize>;
    /// The value at `t` in the segment `[lo, hi)` this record belongs to.
    fn value<const D: usize>(&self, lo: f64, hi: f64, t: f64, out: &mut [f64; D]);
}

impl Record for PolySegment {
    #[inline(always)]
    fn used(d: usize) -> Range<usize> {
        poly_bytes(d)
    }
    #[inline(always)]
    fn value<const D: usize>(&self, lo: f64, _: f64, t: f64, out: &mut [f64; D]) {
        poly_value(self, lo, t, out);
    }
}

impl Record for (SlerpPair, f64) {
    #[inline(always)]
    fn used(_: usize) -> Range<usize> {
        0..std::mem::size_of::<Self>()
    }
    #[inline(always)]
    fn value<const D: usize>(&self, lo: f64, hi: f64, t: f64, out: &mut [f64; D]) {
        let q = slerp_value(self, lo, hi, t);
        out.iter_mut().zip(q).for_each(|(o, q)| *o = q);
    }
}

impl Record for () {
    fn used(_: usize) -> Range<usize> {
        0..0
    }
    fn value<const D: usize>(&self, _: f64, _: f64, _: f64, _: &mut [f64; D]) {}
}

/// Consecutive slots of one dimension, in one of the player's slot arrays.
#[derive(Clone, Debug)]
struct Group {
    slots: Range<usize>,
    dim: usize,
}

/// The slots of one form, sorted by dimension, and their groups.
#[derive(Clone, Debug)]
struct Slots<'c, R> {
    slots: Vec<Slot<'c, R>>,
    groups: Vec<Group>,
}

impl<'c, R> Slots<'c, R> {
    /// Slots for `(curve, records, out)`s, grouped by dimension (and within a group ordered by
    /// mode, so that a mode's dispatch inside `segment_value` predicts).
    fn new(mut tracks: Vec<(&'c TrackCurve, &'c [R], usize)>) -> Self {
        tracks.sort_by_key(|(c, _, out)| (c.dim(), c.interpolation() as usize, *out));
        let mut groups: Vec<Group> = Vec::new();
        for (k, (c, _, _)) in tracks.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if g.dim == c.dim() => g.slots.end = k + 1,
                _ => groups.push(Group { slots: k..k + 1, dim: c.dim() }),
            }
        }
        Self { slots: tracks.into_iter().map(|(c, r, out)| Slot::new(c, r, out)).collect(), groups }
    }
}

/// Runs `$call` on each group of `$slots` with its dimension as the constant `D`.
macro_rules! for_each_dim {
    ($slots:expr, |$s:ident, $d:ident| $call:expr) => {
        for g in &$slots.groups {
            let Some($s) = $slots.slots.get_mut(g.slots.clone()) else { continue };
            match g.dim {
                1 => {
                    const $d: usize = 1;
                    $call
                }
                2 => {
                    const $d: usize = 2;
                    $call
                }
                3 => {
                    const $d: usize = 3;
                    $call
                }
                _ => {
                    const $d: usize = 4;
                    $call
                }
            }
        }
    };
}

/// Every track's hot state, by the form it is evaluated in.
#[derive(Clone, Debug)]
pub(super) struct Tracks<'c> {
    poly: Slots<'c, PolySegment>,
    slerp: Slots<'c, (SlerpPair, f64)>,
    other: Slots<'c, ()>,
    /// The Slerp tracks' arcs of a frame.
    arcs: Arcs,
    /// Whether the processor has 256-bit registers (AVX2) for Slerp tracks.
    wide: bool,
}

impl<'c> Tracks<'c> {
    /// The hot state of `(curve, where its value starts in a frame)`s.
    pub(super) fn new(tracks: impl Iterator<Item = (&'c TrackCurve, &'c usize)>) -> Self {
        let (mut poly, mut slerp, mut other) = (Vec::new(), Vec::new(), Vec::new());
        for (curve, &out) in tracks {
            match curve.playback_form() {
                Form::Poly(segs) => poly.push((curve, segs, out)),
                Form::Slerp(pairs) => slerp.push((curve, pairs, out)),
                Form::Other => other.push((curve, &[][..], out)),
            }
        }
        let (poly, slerp, other) = (Slots::new(poly), Slots::new(slerp), Slots::new(other));
        #[cfg(target_arch = "x86_64")]
        let wide = std::arch::is_x86_feature_detected!("avx2");
        #[cfg(not(target_arch = "x86_64"))]
        let wide = false;
        let arcs = Arcs::with_capacity(slerp.slots.len());
        Self { poly, slerp, other, arcs, wide }
    }

    /// Every track at `t`, found from where the last frame was ([`step`]).
    pub(super) fn play_on(&mut self, t: f64, out: &mut [f64]) {
        for_each_dim!(self.poly, |slots, D| play::<PolySegment, D>(slots, t, out));
        play_slerp(&mut self.slerp.slots, &mut self.arcs, t, out, false, self.wide);
        for_each_dim!(self.other, |slots, D| play_other::<D>(slots, t, out));
    }

    /// Every track at `t`, wherever that is: every segment found by its track's index and its
    /// data asked for, then every track evaluated.
    pub(super) fn jump_to(&mut self, t: f64, out: &mut [f64]) {
        mark_and_ask(&mut self.poly.slots, t);
        mark_and_ask(&mut self.slerp.slots, t);
        mark_and_ask(&mut self.other.slots, t);
        ask_keys(&self.poly.slots, t);
        ask_keys(&self.slerp.slots, t);
        ask_keys(&self.other.slots, t);
        for_each_dim!(self.poly, |slots, D| find_marked::<PolySegment, D>(slots, t));
        for_each_dim!(self.slerp, |slots, D| find_marked::<(SlerpPair, f64), D>(slots, t));
        for_each_dim!(self.other, |slots, D| find_marked::<(), D>(slots, t));
        for_each_dim!(self.poly, |slots, D| write::<PolySegment, D>(slots, t, out));
        play_slerp(&mut self.slerp.slots, &mut self.arcs, t, out, true, self.wide);
        for_each_dim!(self.other, |slots, D| write_other::<D>(slots, t, out));
    }
}

/// A track's `D` values in a frame (the offsets were laid out for these dimensions, so the
/// range is always there).
#[inline(always)]
fn value_of<const D: usize>(out: &mut [f64], at: usize) -> Option<&mut [f64; D]> {
    out.get_mut(at..at + D).and_then(|o| o.try_into().ok())
}

/// How many segments ahead of playback the player asks for the data.
const AHEAD: usize = 2;

/// How many key times past the cached segment sequential playback looks at once.
const LOOK: usize = 4;

/// Sequential playback's step: with `w` the key times from the cached segment `seg` on, when
/// `w[0] ≤ t` the next [`LOOK`] are counted without branches; if `c < LOOK` of them are
/// `≤ t`, then `w[c] ≤ t < w[c + 1]`, so `t` is inside segment `seg + c` (the last of keys
/// sharing a time, as the rule of [`crate::search`] says), which is cached. This holds
/// whatever `seg` is, cached or not. `false` when it does not decide (a jump, playing
/// backwards, the last keys): then [`find`].
#[inline(always)]
fn step<R>(s: &mut Slot<'_, R>, t: f64) -> Option<(f64, f64)> {
    let seg = s.seg;
    let Some(Ok(w)) = s.times.get(seg..seg + LOOK + 2).map(<&[f64; LOOK + 2]>::try_from) else { return None };
    let c: usize = w[1..=LOOK].iter().map(|&x| usize::from(x <= t)).sum();
    if !(w[0] <= t && c < LOOK) {
        return None;
    }
    (s.lo, s.hi, s.seg) = (w[c], w[c + 1], seg + c);
    Some((w[c], w[c + 1]))
}

/// Where [`step`] does not decide: the cached segment, else the track's cursor and index.
/// Whether `t` is inside the keys.
#[inline(never)]
fn find<R>(s: &mut Slot<'_, R>, t: f64) -> bool {
    within(s.lo, t, s.hi) || {
        let found = s.curve.locate(&mut s.cursor, t);
        cache(s, found)
    }
}

/// Caches what a search found in `s`; whether it is a segment (`t` inside the keys).
#[inline(always)]
fn cache<R>(s: &mut Slot<'_, R>, found: Located) -> bool {
    if let Located::Inside(seg) = found {
        if let (Some(&lo), Some(&hi)) = (s.times.get(seg), s.times.get(seg + 1)) {
            (s.lo, s.hi, s.seg) = (lo, hi, seg);
            return true;
        }
    }
    (s.lo, s.hi) = Slot::<R>::NOWHERE;
    false
}

/// The Slerp tracks of a frame whose weights are computed together ([`arc_weights`]): per
/// lane the arc's `θ`, `sin θ` and local time, the weights, and the slot. Sized once for every
/// Slerp track.
#[derive(Clone, Debug, Default)]
struct Arcs {
    theta: Vec<f64>,
    sin: Vec<f64>,
    u: Vec<f64>,
    ws: Vec<f64>,
    wt: Vec<f64>,
    slot: Vec<usize>,
    len: usize,
}

impl Arcs {
    fn with_capacity(n: usize) -> Self {
        let z = vec![0.0; n];
        Self { theta: z.clone(), sin: z.clone(), u: z.clone(), ws: z.clone(), wt: z, slot: vec![0; n], len: 0 }
    }

    /// Adds slot `k`'s arc at local time `u`; `false` (nothing added) if it is not an arc at a
    /// time in `[0, 1]`.
    #[inline(always)]
    fn push(&mut self, pair: &SlerpPair, u: f64, k: usize) -> bool {
        let i = self.len;
        match (pair.arc(), self.theta.get_mut(i), self.sin.get_mut(i), self.u.get_mut(i), self.slot.get_mut(i)) {
            (Some((theta, sin)), Some(a), Some(b), Some(c), Some(d)) if (0.0..=1.0).contains(&u) => {
                (*a, *b, *c, *d) = (theta, sin, u, k);
                self.len += 1;
                true
            }
            _ => false,
        }
    }

    /// The weights of every arc added, lane by lane.
    #[inline(always)]
    fn weigh(&mut self) {
        let n = self.len.min(self.ws.len()).min(self.wt.len());
        arc_weights(&self.theta, &self.sin, &self.u, &mut self.ws[..n], &mut self.wt[..n]);
    }
}

/// Slerp tracks at `t` (sequential playback: `seek` false, each track's segment found from
/// where it was; a seek: found already, [`Tracks::jump_to`]), in three passes: every track's
/// segment and local time, the arcs' weights together ([`arc_weights`]), each arc's mix. A
/// track that is not an arc at a time in `[0, 1]` is evaluated in the first pass (`at`, or
/// `sample` outside its keys). With 256-bit registers where the processor has them.
fn play_slerp(slots: &mut [Slot<'_, (SlerpPair, f64)>], arcs: &mut Arcs, t: f64, out: &mut [f64], seek: bool, wide: bool) {
    #[cfg(target_arch = "x86_64")]
    if wide {
        // SAFETY: `wide` is set only where the processor has AVX2.
        return unsafe { play_slerp_avx2(slots, arcs, t, out, seek) };
    }
    let _ = wide;
    play_slerp_in(slots, arcs, t, out, seek);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn play_slerp_avx2(slots: &mut [Slot<'_, (SlerpPair, f64)>], arcs: &mut Arcs, t: f64, out: &mut [f64], seek: bool) {
    play_slerp_in(slots, arcs, t, out, seek);
}

#[inline(always)]
fn play_slerp_in(slots: &mut [Slot<'_, (SlerpPair, f64)>], arcs: &mut Arcs, t: f64, out: &mut [f64], seek: bool) {
    arcs.len = 0;
    for (k, s) in slots.iter_mut().enumerate() {
        let found = if seek {
            within(s.lo, t, s.hi)
        } else {
            let found = step(s, t).is_some() || find(s, t);
            prefetch_ahead(s.times, s.records, s.seg + AHEAD, <(SlerpPair, f64)>::used(4));
            found
        };
        let Some(o) = value_of::<4>(out, s.out) else { continue };
        match s.records.get(s.seg) {
            Some(r) if found => {
                let u = slerp_local(r, s.lo, s.hi, t);
                if !arcs.push(&r.0, u, k) {
                    *o = r.0.at(u);
                }
            }
            _ => s.curve.sample(&mut s.cursor, t, o),
        }
    }
    arcs.weigh();
    for i in 0..arcs.len {
        let (Some(&k), Some(&ws), Some(&wt)) = (arcs.slot.get(i), arcs.ws.get(i), arcs.wt.get(i)) else { continue };
        let Some(s) = slots.get(k) else { continue };
        if let (Some(r), Some(o)) = (s.records.get(s.seg), value_of::<4>(out, s.out)) {
            *o = r.0.mix(ws, wt);
        }
    }
}

/// Sequential playback of a group of tracks of one form and dimension.
#[inline(never)]
fn play<R: Record, const D: usize>(slots: &mut [Slot<'_, R>], t: f64, out: &mut [f64]) {
    for s in slots {
        let Some(o) = value_of::<D>(out, s.out) else { continue };
        let (lo, hi) = match step(s, t) {
            Some(bounds) => bounds,
            None if find(s, t) => (s.lo, s.hi),
            None => {
                s.curve.sample(&mut s.cursor, t, o);
                continue;
            }
        };
        prefetch_ahead(s.times, s.records, s.seg + AHEAD, R::used(D));
        if let Some(r) = s.records.get(s.seg) {
            r.value(lo, hi, t, o);
        }
    }
}

/// Sequential playback of a group of tracks the player does not evaluate itself.
#[inline(never)]
fn play_other<const D: usize>(slots: &mut [Slot<'_, ()>], t: f64, out: &mut [f64]) {
    for s in slots {
        let Some(o) = value_of::<D>(out, s.out) else { continue };
        if step(s, t).is_some() || find(s, t) {
            s.curve.segment_value(s.seg, t, o);
        } else {
            s.curve.sample(&mut s.cursor, t, o);
        }
    }
}

/// The first pass of a seek ([`Tracks::jump_to`]): every slot whose cached segment does not
/// hold `t` is marked (a NaN upper bound) and its index's bucket entry asked for.
#[inline(never)]
fn mark_and_ask<R>(slots: &mut [Slot<'_, R>], t: f64) {
    for s in slots {
        if !within(s.lo, t, s.hi) {
            s.hi = f64::NAN;
            s.curve.prefetch_lookup(t);
        }
    }
}

/// The second pass of a seek: for every marked slot, the positions its index counts and the
/// key times there asked for.
#[inline(never)]
fn ask_keys<R>(slots: &[Slot<'_, R>], t: f64) {
    for s in slots.iter().filter(|s| s.hi.is_nan()) {
        s.curve.prefetch_keys(t);
    }
}

/// The third pass of a seek: every marked slot's segment looked up by its track's index (no
/// cursor: `t` may be anywhere) and cached, and its data asked for.
#[inline(never)]
fn find_marked<R: Record, const D: usize>(slots: &mut [Slot<'_, R>], t: f64) {
    for s in slots.iter_mut().filter(|s| s.hi.is_nan()) {
        let count = s.curve.count_anywhere(t);
        if cache(s, Located::from_count(count, s.times.len())) {
            prefetch_record(s.records, s.seg, R::used(D));
        }
    }
}

/// A group of tracks at `t`, their segments found ([`Tracks::jump_to`]).
#[inline(never)]
fn write<R: Record, const D: usize>(slots: &mut [Slot<'_, R>], t: f64, out: &mut [f64]) {
    for s in slots {
        let Some(o) = value_of::<D>(out, s.out) else { continue };
        match s.records.get(s.seg) {
            Some(r) if within(s.lo, t, s.hi) => r.value(s.lo, s.hi, t, o),
            _ => s.curve.sample(&mut s.cursor, t, o),
        }
    }
}

/// A group of tracks the player does not evaluate itself at `t`, their segments found.
#[inline(never)]
fn write_other<const D: usize>(slots: &mut [Slot<'_, ()>], t: f64, out: &mut [f64]) {
    for s in slots {
        let Some(o) = value_of::<D>(out, s.out) else { continue };
        if within(s.lo, t, s.hi) {
            s.curve.segment_value(s.seg, t, o);
        } else {
            s.curve.sample(&mut s.cursor, t, o);
        }
    }
}
