//! The loops over the tracks kept as float32 keys ([`super::packed`]): [`PackedTracks`]
//! holds their lanes ([`super::packed_cursor`]) and plays a frame, the TCB lanes by
//! [`super::packed_poly`], the Slerp lanes here: a frame steps each lane to its segment (the
//! same, the next or the one after, without a branch), takes the arc from its keys (two lanes
//! at a time), weighs all arcs together and mixes each; a lane whose segment does not hold
//! `t`, or is no arc, goes to [`slerp_rare`]. A seek finds every track's segment first, in
//! passes over all tracks that ask for the next pass's data: the row of key counts, then the
//! few keys of the row counted, else the track's own index.

use super::lanes::{value_at, value_of};
use super::packed::{Packed, PolyKeys, Rows, SlerpKeys, WINDOW};
use super::packed_cursor::{find, Cold, Lane, HELD, NONE};
use super::packed_poly::{play_poly, PolyGroup};
use crate::quat::{arc_weights, mix, Quat};
use crate::search::prefetch;
use crate::TrackCurve;

/// The sign bit of an f64.
const SIGN: u64 = 1 << 63;

/// A Slerp track's keys, as its lane holds them.
#[derive(Clone, Copy, Debug)]
struct SlerpHot<'c> {
    times: &'c [f32],
    quats: &'c [Quat],
    arcs: &'c [[f64; 2]],
}

/// A track's key times, for a seek.
trait Times {
    fn time(&self, i: usize) -> Option<f64>;
    /// How many keys there are.
    fn len(&self) -> usize;
    /// Key `i`'s time, without a check.
    ///
    /// # Safety
    /// `i < self.len()`.
    unsafe fn time_unchecked(&self, i: usize) -> f64;
    /// Asks for the keys a seek reads around key `i`.
    fn ask(&self, i: usize);
}

impl Times for PolyKeys {
    #[inline(always)]
    fn time(&self, i: usize) -> Option<f64> {
        self.keys.get(i).map(|k| f64::from(k[0]))
    }

    #[inline(always)]
    fn len(&self) -> usize {
        self.keys.len()
    }

    #[inline(always)]
    unsafe fn time_unchecked(&self, i: usize) -> f64 {
        // SAFETY: `i < len` (the caller's promise).
        f64::from(unsafe { self.keys.get_unchecked(i) }[0])
    }

    #[inline(always)]
    fn ask(&self, i: usize) {
        prefetch(self.keys.as_ptr().wrapping_add(i.wrapping_sub(1)));
        prefetch(self.keys.as_ptr().wrapping_add(i + 2));
    }
}

impl Times for SlerpKeys {
    #[inline(always)]
    fn time(&self, i: usize) -> Option<f64> {
        self.times.get(i).map(|&x| f64::from(x))
    }

    #[inline(always)]
    fn len(&self) -> usize {
        self.times.len()
    }

    #[inline(always)]
    unsafe fn time_unchecked(&self, i: usize) -> f64 {
        // SAFETY: `i < len` (the caller's promise).
        f64::from(unsafe { *self.times.get_unchecked(i) })
    }

    #[inline(always)]
    fn ask(&self, i: usize) {
        prefetch(self.times.as_ptr().wrapping_add(i));
        prefetch(self.quats.as_ptr().wrapping_add(i));
        prefetch(self.quats.as_ptr().wrapping_add(i + 1));
        prefetch(self.arcs.as_ptr().wrapping_add(i));
    }
}

/// The first pass of a seek for one kind of track: tracks without a column, their index asked.
fn ask_index<K>(cold: &[Cold<'_, K>], t: f64, row: Option<usize>) {
    for c in cold.iter().filter(|c| c.column.is_none() || row.is_none()) {
        c.curve.prefetch_lookup(t);
    }
}

/// The second pass: each track's number of keys before the row (kept in its lane) and the
/// keys there asked for; tracks without a column, their index's keys asked for.
fn read_row<H, K: Times>(lanes: &mut [Lane<H>], cold: &[Cold<'_, K>], t: f64, row: &[u16]) {
    for (l, c) in lanes.iter_mut().zip(cold) {
        match c.column.and_then(|k| row.get(k)) {
            Some(&base) => {
                l.seg = u32::from(base);
                c.keys.ask(usize::from(base));
            }
            None => {
                l.seg = NONE;
                c.curve.prefetch_keys(t);
            }
        }
    }
}

/// The third pass: each track's segment (the keys of its row counted, or its index), kept in
/// its lane, its keys asked for.
fn settle<H, K: Times>(lanes: &mut [Lane<H>], cold: &[Cold<'_, K>], t: f64) {
    for (l, c) in lanes.iter_mut().zip(cold) {
        let count = if l.seg == NONE {
            c.curve.count_anywhere(t)
        } else {
            let base = l.seg as usize;
            if base + WINDOW <= c.keys.len() {
                // SAFETY: `base + j < base + WINDOW ≤ len`.
                base + (0..WINDOW).map(|j| usize::from(unsafe { c.keys.time_unchecked(base + j) } <= t)).sum::<usize>()
            } else {
                base + (0..WINDOW).map(|j| usize::from(c.keys.time(base + j).is_some_and(|x| x <= t))).sum::<usize>()
            }
        };
        let n = c.curve.times().len();
        l.seg = if count >= 1 && count < n { (count - 1) as u32 } else { NONE };
        c.keys.ask(l.seg as usize);
    }
}

/// How many arcs are weighed together.
const ARCS: usize = 64;

/// The arcs of a chunk of Slerp lanes: `θ`, `1/sin θ`, local time, weights, the two
/// quaternions and where the value goes.
#[derive(Clone, Debug)]
struct Arcs {
    theta: [f64; ARCS],
    inv_sin: [f64; ARCS],
    u: [f64; ARCS],
    ws: [f64; ARCS],
    wt: [f64; ARCS],
    /// The arc's first key (the second follows it) and the sign mask of the second (set where
    /// the pair negated it).
    q: [*const Quat; ARCS],
    flip: [u64; ARCS],
    out: [usize; ARCS],
}

/// The tracks of a clip kept as keys: TCB tracks by dimension, Slerp tracks.
#[derive(Clone, Debug)]
pub(super) struct PackedTracks<'c> {
    rows: &'c Rows,
    /// A seek's row.
    row: Option<usize>,
    poly: [PolyGroup<'c>; 3],
    slerp: (Vec<Lane<SlerpHot<'c>>>, Vec<Cold<'c, SlerpKeys>>),
    /// The part of a frame the Slerp tracks' values take (every lane's `out` plus 4 at most).
    slerp_span: usize,
    arcs: Box<Arcs>,
    /// Whether the processor has AVX-512 (F, VL, DQ): then the Slerp lanes' weights use it.
    avx512: bool,
}

impl<'c> PackedTracks<'c> {
    /// Weigh the Slerp arcs in 256-bit registers even where the processor has AVX-512.
    pub(super) fn use_256_bit_registers(&mut self) {
        self.avx512 = false;
    }

    /// Whether there are no tracks kept as keys (the default: then a frame skips them).
    pub(super) fn is_empty(&self) -> bool {
        self.poly.iter().all(|p| p.0.is_empty()) && self.slerp.0.is_empty()
    }

    pub(super) fn new(packed: &'c Packed, curves: &'c [TrackCurve], offsets: &[usize]) -> Self {
        fn lane<H>(hot: H, offsets: &[usize], track: usize) -> Lane<H> {
            Lane { hot, t1: f64::NEG_INFINITY, t2: f64::NEG_INFINITY, seg: NONE, out: offsets[track] }
        }
        let column = |i: usize| packed.rows.columns.get(i).copied().flatten();
        let poly = std::array::from_fn(|d| {
            let tracks = packed.poly.iter().enumerate().filter(|(_, p)| p.dim == d + 1);
            let (lanes, cold) =
                tracks.map(|(i, p)| (lane(&p.keys[..], offsets, p.track), Cold::new(p, column(i), &curves[p.track]))).unzip::<_, _, Vec<_>, Vec<_>>();
            let span = lanes.iter().map(|l| l.out + d + 1).max().unwrap_or(0);
            (lanes, cold, span)
        });
        let m = packed.poly.len();
        let slerp: (Vec<_>, Vec<_>) = packed
            .slerp
            .iter()
            .enumerate()
            .map(|(i, s)| (lane(SlerpHot { times: &s.times, quats: &s.quats, arcs: &s.arcs }, offsets, s.track), Cold::new(s, column(m + i), &curves[s.track])))
            .unzip();
        let zero = [0.0; ARCS];
        let arcs =
            Box::new(Arcs { theta: zero, inv_sin: [1.0; ARCS], u: zero, ws: zero, wt: zero, q: [std::ptr::null(); ARCS], flip: [0; ARCS], out: [0; ARCS] });
        let slerp_span = slerp.0.iter().map(|l: &Lane<_>| l.out + 4).max().unwrap_or(0);
        #[cfg(target_arch = "x86_64")]
        let avx512 = {
            use std::arch::is_x86_feature_detected as has;
            has!("avx2") && has!("avx512f") && has!("avx512vl") && has!("avx512dq")
        };
        #[cfg(not(target_arch = "x86_64"))]
        let avx512 = false;
        Self { rows: &packed.rows, row: None, poly, slerp, slerp_span, arcs, avx512 }
    }

    /// Every track at `t`: from each lane's segment, or (`seek`) the segment a seek found.
    ///
    /// # Safety
    /// With `WIDE`, the processor must have AVX2.
    #[inline(always)]
    pub(super) unsafe fn play<const WIDE: bool>(&mut self, t: f64, out: &mut [f64], seek: bool) {
        let [p1, p2, p3] = &mut self.poly;
        // SAFETY: this function's contract.
        unsafe {
            play_poly::<1, WIDE>(p1, t, out, seek);
            play_poly::<2, WIDE>(p2, t, out, seek);
            play_poly::<3, WIDE>(p3, t, out, seek);
        }
        #[cfg(target_arch = "x86_64")]
        if WIDE && self.avx512 {
            // SAFETY: `avx512` is set only where the processor has these features.
            return unsafe { self.play_slerp_avx512(t, out, seek) };
        }
        self.play_slerp(t, out, seek);
    }

    /// [`Self::play_slerp`] where 512-bit registers weigh eight arcs at a time (the same
    /// operations lane by lane, so the same bits): Slerp 8.2 → 7.8 ns a track
    /// (docs/measured.md). The TCB lanes stay in 256-bit registers, which are faster there.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq")]
    fn play_slerp_avx512(&mut self, t: f64, out: &mut [f64], seek: bool) {
        self.play_slerp(t, out, seek);
    }

    /// The first pass of a seek: the row of `t` asked for, and the index of each track
    /// without a column.
    pub(super) fn ask(&mut self, t: f64) {
        self.row = self.rows.row_of(t);
        if let Some(k) = self.row {
            let row = self.rows.row(k);
            for offset in (0..row.len()).step_by(32) {
                prefetch(row.as_ptr().wrapping_add(offset));
            }
        }
        self.poly.iter().for_each(|p| ask_index(&p.1, t, self.row));
        ask_index(&self.slerp.1, t, self.row);
    }

    /// The second and third passes of a seek: each track's segment found from the row (or its
    /// index) and its keys asked for.
    pub(super) fn find_all(&mut self, t: f64) {
        let row = self.row.map_or(&[][..], |k| self.rows.row(k));
        for (lanes, cold, _) in &mut self.poly {
            read_row(lanes, cold, t, row);
        }
        read_row(&mut self.slerp.0, &self.slerp.1, t, row);
        for (lanes, cold, _) in &mut self.poly {
            settle(lanes, cold, t);
        }
        settle(&mut self.slerp.0, &self.slerp.1, t);
    }

    /// Slerp lanes in chunks of [`ARCS`]: every lane's arc, then the arcs' weights together,
    /// then each arc's mix.
    #[inline(always)]
    fn play_slerp(&mut self, t: f64, out: &mut [f64], seek: bool) {
        let (lanes, cold) = &mut self.slerp;
        let a = &mut *self.arcs;
        for (lanes, cold) in lanes.chunks_mut(ARCS).zip(cold.chunks_mut(ARCS)) {
            let mut n = 0;
            let step = |l: &Lane<SlerpHot<'_>>| if seek { l.seg } else { l.seg.wrapping_add(u32::from(t >= l.t1) + u32::from(t >= l.t2)) } as usize;
            let mut stash = |n: &mut usize, l: &mut Lane<SlerpHot<'_>>, (s, (t1, t2, theta, inv_sin, u, keys)): (usize, Arc<'_>)| {
                (l.seg, l.t1, l.t2) = (s as u32, t1, t2);
                // `q₁` negated where the pair flipped it (the sign of `1/sin θ`): exact.
                let flip = inv_sin.to_bits() & SIGN;
                let i = *n % ARCS;
                (a.theta[i], a.inv_sin[i], a.u[i], a.out[i]) = (theta, f64::from_bits(inv_sin.to_bits() & !SIGN), u, l.out);
                // A pointer to both keys (from the pair's reference, so that it reaches the second).
                (a.q[i], a.flip[i]) = (keys.as_ptr(), flip);
                *n = i + 1;
            };
            let mut pairs = lanes.chunks_exact_mut(2);
            let mut colds = cold.chunks_exact_mut(2);
            for (ls, cs) in (&mut pairs).zip(&mut colds) {
                let [la, lb] = ls else { continue };
                let (sa, sb) = (step(la), step(lb));
                let (ka, kb) = (la.hot, lb.hot);
                match (fast_arc(&ka, sa, t), fast_arc(&kb, sb, t)) {
                    (Some(x), Some(y)) => {
                        stash(&mut n, la, (sa, x));
                        stash(&mut n, lb, (sb, y));
                    }
                    _ => {
                        for (l, c) in [la, lb].into_iter().zip(cs.iter_mut()) {
                            if let Some(found) = lane_arc(l, c, step(l), t, out) {
                                stash(&mut n, l, found);
                            }
                        }
                    }
                }
            }
            for (l, c) in pairs.into_remainder().iter_mut().zip(colds.into_remainder().iter_mut()) {
                if let Some(found) = lane_arc(l, c, step(l), t, out) {
                    stash(&mut n, l, found);
                }
            }
            // Whole registers of four: the lanes past `n` hold earlier arcs, weighed and unused.
            let m = n.next_multiple_of(4).min(ARCS);
            arc_weights(&a.theta[..m], &a.inv_sin[..m], &a.u[..m], &mut a.ws[..m], &mut a.wt[..m]);
            let frame = &mut out[..self.slerp_span];
            for k in 0..n.min(ARCS) {
                // SAFETY: a lane's `out` plus 4 is within the Slerp lanes' span.
                let o = unsafe { value_at::<4>(frame, a.out[k]) };
                // SAFETY: `a.q[k]` points at an arc's two keys, from a reference to both (stashed
                // this frame; the clip's keys outlive the player).
                let (q0, q1) = unsafe { (&*a.q[k], &*a.q[k].add(1)) };
                let flip = a.flip[k];
                *o = mix(q0, &q1.map(|x| f64::from_bits(x.to_bits() ^ flip)), a.ws[k], a.wt[k]);
            }
        }
    }
}

/// [`arc_at`] where keys `s` to `s + 2` exist (`s < n − 2`; the last segment goes to
/// [`slerp_rare`]), without another check, and the end of the segment after.
#[inline(always)]
fn fast_arc<'k>(k: &SlerpHot<'k>, s: usize, t: f64) -> Option<Arc<'k>> {
    if s >= k.times.len() - 2 {
        return None;
    }
    // SAFETY: `s + 2 < n`, the length of `times` and `quats` (so keys `s` and `s + 1` are a
    // pair inside `quats`), and `s < n − 1`, that of `arcs`.
    let (t0, t1, t2, [theta, inv_sin], keys) = unsafe {
        (
            f64::from(*k.times.get_unchecked(s)),
            f64::from(*k.times.get_unchecked(s + 1)),
            f64::from(*k.times.get_unchecked(s + 2)),
            *k.arcs.get_unchecked(s),
            &*k.quats.as_ptr().add(s).cast::<[Quat; 2]>(),
        )
    };
    let u = (t - t0) * (1.0 / (t1 - t0));
    ((t0 <= t) & (t < t1) & (theta >= 0.0) & (u <= 1.0)).then_some((t1, t2, theta, inv_sin, u, keys))
}

/// A Slerp segment that holds `t`, as a frame weighs it: its end, the end of the segment
/// after (`+∞` for none), `θ`, `1/sin θ` (signed), the local time and the two keys.
type Arc<'k> = (f64, f64, f64, f64, f64, &'k [Quat; 2]);

/// One Slerp lane's arc at `t` in segment `s` ([`fast_arc`], else [`slerp_rare`]).
#[inline(always)]
fn lane_arc<'k>(l: &mut Lane<SlerpHot<'k>>, c: &mut Cold<'_, SlerpKeys>, s: usize, t: f64, out: &mut [f64]) -> Option<(usize, Arc<'k>)> {
    match fast_arc(&l.hot, s, t) {
        Some(arc) => Some((s, arc)),
        None => slerp_rare(l, c, t, out),
    }
}

/// Where [`fast_arc`] does not decide: the segment [`find`] finds, its arc if the player
/// weighs it; else the value written by the track's `segment_value` (a segment that is no
/// arc) or `sample` (outside the keys), and `None`.
#[inline(never)]
#[cold]
fn slerp_rare<'k>(l: &mut Lane<SlerpHot<'k>>, c: &mut Cold<'_, SlerpKeys>, t: f64, out: &mut [f64]) -> Option<(usize, Arc<'k>)> {
    if let Some(v) = c.held.at(t) {
        if let Some(o) = value_of::<4>(out, l.out) {
            *o = *v;
        }
        (l.seg, l.t1, l.t2) = HELD;
        return None;
    }
    let k = l.hot;
    match find(l, c.curve, |s| k.times.get(s).map(|&x| f64::from(x)), t) {
        Some(s) => arc_at(&k, s, t).map(|arc| (s, arc)).or_else(|| {
            if let Some(o) = value_of::<4>(out, l.out) {
                c.curve.segment_value(s, t, o);
            }
            None
        }),
        None => {
            if let Some(o) = value_of::<4>(out, l.out) {
                c.curve.sample(&mut c.cursor, t, o);
            }
            None
        }
    }
}

/// Segment `s` of a Slerp track if it holds `t` and the player weighs its arc at `t`: its end,
/// `θ`, `1/sin θ` (signed), the local time and the two keys.
#[inline(always)]
fn arc_at<'k>(k: &SlerpHot<'k>, s: usize, t: f64) -> Option<Arc<'k>> {
    let (&[t0, t1], &[theta, inv_sin], keys) = (
        k.times.get(s..s.wrapping_add(2)).and_then(|x| <&[f32; 2]>::try_from(x).ok())?,
        k.arcs.get(s)?,
        k.quats.get(s..s.wrapping_add(2)).and_then(|x| <&[Quat; 2]>::try_from(x).ok())?,
    );
    let (t0, t1) = (f64::from(t0), f64::from(t1));
    let u = (t - t0) * (1.0 / (t1 - t0));
    let t2 = k.times.get(s.wrapping_add(2)).map_or(f64::INFINITY, |&x| f64::from(x));
    ((t0 <= t) & (t < t1) & (theta >= 0.0) & (u <= 1.0)).then_some((t1, t2, theta, inv_sin, u, keys))
}
