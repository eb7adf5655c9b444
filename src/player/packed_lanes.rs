//! The loops over the tracks kept as keys ([`super::packed`]). Per track a lane of 16 bytes:
//! the segment it was in, that segment's end and where its value goes. A frame of sequential
//! playback takes the lane's segment or the next (the next if `t` passed the end: chosen
//! without a branch, as whether `t` passed a key is a coin toss per frame), reads its keys and
//! computes its numbers from them every frame, with no branch but one rarely taken: when the
//! segment does not hold `t` (`t0 ≤ t < t1`, tested whatever found it), or is one the track's
//! `segment_value` evaluates, [`rare`] finds the segment by the track's index and evaluates it
//! (or `sample`, outside the keys). A seek finds every track's segment by its index (asked
//! for in passes first) and evaluates it the same way.

use super::lanes::{value_at, value_of};
use super::packed::{horner, poly_coefficients, Packed, PolyKeys, Rows, SlerpKeys, WINDOW};
use crate::quat::{arc_weights, mix, Quat};
use crate::search::{prefetch, Located, SegmentCursor};
use crate::TrackCurve;

/// No segment.
const NONE: u32 = u32::MAX;

/// The sign bit of an f64.
const SIGN: u64 = 1 << 63;

/// What a frame reads of a track: its segment (or [`NONE`]), that segment's end (`−∞` for
/// none, so that a frame takes segment 0 and checks it) and where its value goes.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Lane<H> {
    /// The track's keys (read every frame: here rather than behind a pointer).
    hot: H,
    t1: f64,
    /// The end of the segment after (`+∞` for none): a frame that passed two keys takes the
    /// segment after next without a branch.
    t2: f64,
    seg: u32,
    out: usize,
}

/// A Slerp track's keys, as its lane holds them.
#[derive(Clone, Copy, Debug)]
struct SlerpHot<'c> {
    times: &'c [f32],
    quats: &'c [Quat],
    arcs: &'c [[f64; 2]],
}

/// The TCB tracks of one dimension: lanes, the rest, and the part of a frame their values take
/// (every lane's `out` plus the dimension is at most this).
type PolyGroup<'c> = (Vec<Lane<&'c [[f32; 4]]>>, Vec<Cold<'c, PolyKeys>>, usize);

/// What a lane's track needs beyond the lane: its keys, the track, its cursor for `sample`.
#[derive(Clone, Debug)]
struct Cold<'c, K> {
    keys: &'c K,
    /// Its column in [`Rows`].
    column: Option<usize>,
    curve: &'c TrackCurve,
    cursor: SegmentCursor,
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
}

impl<'c> PackedTracks<'c> {
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
            let (lanes, cold) = tracks
                .map(|(i, p)| (lane(&p.keys[..], offsets, p.track), Cold { keys: p, column: column(i), curve: &curves[p.track], cursor: SegmentCursor::new() }))
                .unzip::<_, _, Vec<_>, Vec<_>>();
            let span = lanes.iter().map(|l| l.out + d + 1).max().unwrap_or(0);
            (lanes, cold, span)
        });
        let m = packed.poly.len();
        let slerp: (Vec<_>, Vec<_>) = packed
            .slerp
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    lane(SlerpHot { times: &s.times, quats: &s.quats, arcs: &s.arcs }, offsets, s.track),
                    Cold { keys: s, column: column(m + i), curve: &curves[s.track], cursor: SegmentCursor::new() },
                )
            })
            .unzip();
        let zero = [0.0; ARCS];
        let arcs =
            Box::new(Arcs { theta: zero, inv_sin: [1.0; ARCS], u: zero, ws: zero, wt: zero, q: [std::ptr::null(); ARCS], flip: [0; ARCS], out: [0; ARCS] });
        let slerp_span = slerp.0.iter().map(|l: &Lane<_>| l.out + 4).max().unwrap_or(0);
        Self { rows: &packed.rows, row: None, poly, slerp, slerp_span, arcs }
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
            let mut stash = |n: &mut usize, l: &mut Lane<SlerpHot<'_>>, (s, (t1, t2, theta, inv_sin, u, q0, q1)): (usize, Arc<'_>)| {
                (l.seg, l.t1, l.t2) = (s as u32, t1, t2);
                // `q₁` negated where the pair flipped it (the sign of `1/sin θ`): exact.
                let flip = inv_sin.to_bits() & SIGN;
                let i = *n % ARCS;
                (a.theta[i], a.inv_sin[i], a.u[i], a.out[i]) = (theta, f64::from_bits(inv_sin.to_bits() & !SIGN), u, l.out);
                (a.q[i], a.flip[i]) = (std::ptr::from_ref(q0), flip);
                debug_assert!(std::ptr::eq(q0.as_ptr().wrapping_add(4), q1.as_ptr()));
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
                            let s = step(l);
                            let k = l.hot;
                            let found = match fast_arc(&k, s, t) {
                                Some(arc) => Some((s, arc)),
                                None => slerp_rare(l, c, t, out),
                            };
                            if let Some(found) = found {
                                stash(&mut n, l, found);
                            }
                        }
                    }
                }
            }
            for (l, c) in pairs.into_remainder().iter_mut().zip(colds.into_remainder().iter_mut()) {
                let s = step(l);
                let k = l.hot;
                let found = match fast_arc(&k, s, t) {
                    Some(arc) => Some((s, arc)),
                    None => slerp_rare(l, c, t, out),
                };
                if let Some(found) = found {
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
                // SAFETY: `a.q[k]` points at a key of a Slerp track that has the next key after it
                // (an arc's two keys, stashed this frame).
                let (q0, q1) = unsafe { (&*a.q[k], &*a.q[k].add(1)) };
                let flip = a.flip[k];
                *o = mix(q0, &q1.map(|x| f64::from_bits(x.to_bits() ^ flip)), a.ws[k], a.wt[k]);
            }
        }
    }
}

/// TCB tracks of `D` components at `t`: the lane's segment `s` (sequential playback: or the
/// next, if `t` passed the end, chosen without a branch, as whether `t` passed a key is a coin
/// toss per frame; a seek: the one it found) is evaluated from keys `s − 1` to `s + 2` if it
/// holds `t` and is neither the track's first nor its last (whose end tangents follow another
/// rule); else [`poly_rare`]. The one branch taken is rare; the fast path reads no bound but
/// `1 ≤ s ≤ n − 3` and writes its value without a check ([`value_at`], the group's span).
///
/// # Safety
/// With `WIDE`, the processor must have AVX2.
#[inline(always)]
unsafe fn play_poly<const D: usize, const WIDE: bool>((lanes, cold, span): &mut PolyGroup<'_>, t: f64, out: &mut [f64], seek: bool) {
    let out = &mut out[..*span];
    let mut lanes = lanes.chunks_exact_mut(4);
    let mut cold = cold.chunks_exact_mut(4);
    for (ls, cs) in (&mut lanes).zip(&mut cold) {
        let [la, lb, lc, ld] = ls else { continue };
        if let (Some((sa, ka)), Some((sb, kb)), Some((sc, kc)), Some((sd, kd))) =
            (window(la, t, seek), window(lb, t, seek), window(lc, t, seek), window(ld, t, seek))
        {
            // SAFETY: with `WIDE` the processor has AVX2 (this function's contract).
            let (a, b, cc, dd) =
                unsafe { (value_and_bounds::<WIDE>(ka, t), value_and_bounds::<WIDE>(kb, t), value_and_bounds::<WIDE>(kc, t), value_and_bounds::<WIDE>(kd, t)) };
            if (a.1 <= t) & (t < a.2) & (b.1 <= t) & (t < b.2) & (cc.1 <= t) & (t < cc.2) & (dd.1 <= t) & (t < dd.2) {
                for (l, s, (v, _, t1, t2)) in [(la, sa, a), (lb, sb, b), (lc, sc, cc), (ld, sd, dd)] {
                    // SAFETY: a lane's `out` plus `D` is within the group's span.
                    let o = unsafe { value_at::<D>(out, l.out) };
                    for (c, o) in o.iter_mut().enumerate() {
                        *o = v[c + 1];
                    }
                    (l.seg, l.t1, l.t2) = (s as u32, t1, t2);
                }
                continue;
            }
        }
        for (l, c) in [la, lb, lc, ld].into_iter().zip(cs.iter_mut()) {
            // SAFETY: as above.
            unsafe { one::<D, WIDE>(l, c, t, out, seek) };
        }
    }
    for (l, c) in lanes.into_remainder().iter_mut().zip(cold.into_remainder().iter_mut()) {
        // SAFETY: as above.
        unsafe { one::<D, WIDE>(l, c, t, out, seek) };
    }
}

/// The lane's segment `s` (sequential playback: or the next or the one after, if `t` passed
/// its end or the next's, chosen without a branch, as whether `t` passed a key is a coin toss
/// per frame; a seek: the one it found) and keys `s − 1` to `s + 2`, if they exist (then the
/// segment is neither the track's first nor its last).
#[inline(always)]
fn window<'k>(l: &Lane<&'k [[f32; 4]]>, t: f64, seek: bool) -> Option<(usize, &'k [[f32; 4]; 4])> {
    let s = if seek { l.seg } else { l.seg.wrapping_add(u32::from(t >= l.t1) + u32::from(t >= l.t2)) } as usize;
    let keys = l.hot;
    // A track kept as keys has at least four.
    if s.wrapping_sub(1) >= keys.len() - 3 {
        return None;
    }
    // SAFETY: `s − 1 + 3 < n`.
    Some((s, unsafe { &*keys.as_ptr().add(s - 1).cast::<[[f32; 4]; 4]>() }))
}

/// One TCB lane at `t`: its [`window`] if that holds `t`, else [`poly_rare`].
///
/// # Safety
/// With `WIDE`, the processor must have AVX2.
#[inline(always)]
unsafe fn one<const D: usize, const WIDE: bool>(l: &mut Lane<&[[f32; 4]]>, c: &mut Cold<'_, PolyKeys>, t: f64, out: &mut [f64], seek: bool) {
    // SAFETY: a lane's `out` plus `D` is within the group's span.
    let o = unsafe { value_at::<D>(out, l.out) };
    if let Some((s, k)) = window(l, t, seek) {
        // SAFETY: with `WIDE` the processor has AVX2 (this function's contract).
        let (v, t0, t1, t2) = unsafe { value_and_bounds::<WIDE>(k, t) };
        if (t0 <= t) & (t < t1) {
            for (c, o) in o.iter_mut().enumerate() {
                *o = v[c + 1];
            }
            (l.seg, l.t1, l.t2) = (s as u32, t1, t2);
            return;
        }
    }
    // SAFETY: as above.
    unsafe { poly_rare::<D, WIDE>(l, c, t, o) };
}

/// Where the fast path of [`play_poly`] does not decide: the segment after the one it tried
/// (`t` passed two keys in a frame), else the track's index ([`find`]); evaluated from its
/// keys, or by the track's `segment_value` (its first and last segments), or `sample` (outside
/// the keys).
///
/// # Safety
/// With `WIDE`, the processor must have AVX2.
#[inline(never)]
unsafe fn poly_rare<const D: usize, const WIDE: bool>(l: &mut Lane<&[[f32; 4]]>, c: &mut Cold<'_, PolyKeys>, t: f64, o: &mut [f64; D]) {
    let keys = l.hot;
    let Some(s) = find(l, c.curve, |s| keys.get(s).map(|k| f64::from(k[0])), t) else {
        c.curve.sample(&mut c.cursor, t, o);
        return;
    };
    match window_at(keys, s, t) {
        Some((k, t0, _)) => {
            // SAFETY: with `WIDE` the processor has AVX2 (this function's contract).
            let v = unsafe { value::<WIDE>(k, t - t0) };
            for (c, o) in o.iter_mut().enumerate() {
                *o = v[c + 1];
            }
        }
        None => c.curve.segment_value(s, t, o),
    }
}

/// The value of the segment from `k[1]` to `k[2]` at `d = t − t0` past its start, on every
/// lane: its numbers ([`poly_coefficients`]), then Horner's rule at `u = d·(1/Δt)`.
///
/// # Safety
/// With `WIDE`, the processor must have AVX2.
#[inline(always)]
unsafe fn value<const WIDE: bool>(k: &[[f32; 4]; 4], d: f64) -> [f64; 4] {
    #[cfg(target_arch = "x86_64")]
    if WIDE {
        // SAFETY: the processor has AVX2 (this function's contract).
        return unsafe { value_avx2(k, d) };
    }
    let (c, inv_dt) = poly_coefficients(k);
    horner(&c, d * inv_dt)
}

/// The window's segment at `t` (whether or not it holds `t`): its value, its start and end,
/// and the end of the segment after (the key times of `k[1]`, `k[2]` and `k[3]`), read from
/// the same loads as the value.
///
/// # Safety
/// With `WIDE`, the processor must have AVX2.
#[inline(always)]
unsafe fn value_and_bounds<const WIDE: bool>(k: &[[f32; 4]; 4], t: f64) -> ([f64; 4], f64, f64, f64) {
    #[cfg(target_arch = "x86_64")]
    if WIDE {
        // SAFETY: the processor has AVX2 (this function's contract).
        return unsafe { value_and_bounds_avx2(k, t) };
    }
    let t0 = f64::from(k[1][0]);
    // SAFETY: not `WIDE`.
    (unsafe { value::<false>(k, t - t0) }, t0, f64::from(k[2][0]), f64::from(k[3][0]))
}

/// [`value_and_bounds`] in 256-bit registers (lane 0 of each key is its time).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn value_and_bounds_avx2(k: &[[f32; 4]; 4], t: f64) -> ([f64; 4], f64, f64, f64) {
    use std::arch::x86_64::{_mm256_cvtps_pd, _mm256_cvtsd_f64, _mm_loadu_ps};
    // SAFETY: each load reads one key's four f32s, inside `k`.
    let [a, p0, p1, e] = k.map(|x| unsafe { _mm256_cvtps_pd(_mm_loadu_ps(x.as_ptr())) });
    let t0 = _mm256_cvtsd_f64(p0);
    (horner_keys(a, p0, p1, e, t - t0), t0, _mm256_cvtsd_f64(p1), _mm256_cvtsd_f64(e))
}

/// [`value`] in 256-bit registers, a lane per component: the same operations lane by lane as
/// [`poly_coefficients`] and [`horner`], so the same bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn value_avx2(k: &[[f32; 4]; 4], d: f64) -> [f64; 4] {
    use std::arch::x86_64::{_mm256_cvtps_pd, _mm_loadu_ps};
    // SAFETY: each load reads one key's four f32s, inside `k`.
    let [a, p0, p1, e] = k.map(|x| unsafe { _mm256_cvtps_pd(_mm_loadu_ps(x.as_ptr())) });
    horner_keys(a, p0, p1, e, d)
}

/// The value `d` past the start of the segment from `p0` to `p1` (keys `[t, x, y, z]` as
/// f64s), `a` and `e` its neighbours.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn horner_keys(
    a: std::arch::x86_64::__m256d,
    p0: std::arch::x86_64::__m256d,
    p1: std::arch::x86_64::__m256d,
    e: std::arch::x86_64::__m256d,
    d: f64,
) -> [f64; 4] {
    use std::arch::x86_64::{_mm256_add_pd, _mm256_cvtsd_f64, _mm256_mul_pd, _mm256_set1_pd, _mm256_storeu_pd, _mm256_sub_pd};
    // r₁ = ½(p₁ − a), r₂ = ½(e − p₀), δ = p₁ − p₀, c₃ = (r₁ + r₂) − (δ + δ), c₂ = (δ − r₁) − c₃.
    let half = _mm256_set1_pd(0.5);
    let (r1, r2, dp) = (_mm256_mul_pd(half, _mm256_sub_pd(p1, a)), _mm256_mul_pd(half, _mm256_sub_pd(e, p0)), _mm256_sub_pd(p1, p0));
    let c3 = _mm256_sub_pd(_mm256_add_pd(r1, r2), _mm256_add_pd(dp, dp));
    let c2 = _mm256_sub_pd(_mm256_sub_pd(dp, r1), c3);
    let inv_dt = 1.0 / (_mm256_cvtsd_f64(p1) - _mm256_cvtsd_f64(p0));
    let u = _mm256_set1_pd(d * inv_dt);
    let v = _mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(c3, u), c2), u), r1), u), p0);
    let mut out = [0.0; 4];
    // SAFETY: four f64s into `out`.
    unsafe { _mm256_storeu_pd(out.as_mut_ptr(), v) };
    out
}

/// The segment of `t` by the track's own index, if `t` is inside its keys.
#[inline(always)]
fn index(curve: &TrackCurve, t: f64) -> Option<usize> {
    match Located::from_count(curve.count_anywhere(t), curve.times().len()) {
        Located::Inside(s) => Some(s),
        _ => None,
    }
}

/// Keys `s − 1` to `s + 2` and the bounds of segment `s` if it holds `t` and is evaluated from
/// its keys (none for a track's first and last segments, and those marked).
#[inline(always)]
fn window_at(keys: &[[f32; 4]], s: usize, t: f64) -> Option<(&[[f32; 4]; 4], f64, f64)> {
    let k = keys.get(s.wrapping_sub(1)..s.wrapping_add(3)).and_then(|k| <&[[f32; 4]; 4]>::try_from(k).ok())?;
    let (t0, t1) = (f64::from(k[1][0]), f64::from(k[2][0]));
    ((t0 <= t) & (t < t1)).then_some((k, t0, t1))
}

/// [`arc_at`] where keys `s` to `s + 2` exist (`s < n − 2`; the last segment goes to
/// [`slerp_rare`]), without another check, and the end of the segment after.
#[inline(always)]
fn fast_arc<'k>(k: &SlerpHot<'k>, s: usize, t: f64) -> Option<Arc<'k>> {
    if s >= k.times.len() - 2 {
        return None;
    }
    // SAFETY: `s + 2 < n`, the length of `times` and `quats`, and `s < n − 1`, that of `arcs`.
    let (t0, t1, t2, [theta, inv_sin], q0, q1) = unsafe {
        (
            f64::from(*k.times.get_unchecked(s)),
            f64::from(*k.times.get_unchecked(s + 1)),
            f64::from(*k.times.get_unchecked(s + 2)),
            *k.arcs.get_unchecked(s),
            k.quats.get_unchecked(s),
            k.quats.get_unchecked(s + 1),
        )
    };
    let u = (t - t0) * (1.0 / (t1 - t0));
    ((t0 <= t) & (t < t1) & (theta >= 0.0) & (u <= 1.0)).then_some((t1, t2, theta, inv_sin, u, q0, q1))
}

/// A Slerp segment that holds `t`, as a frame weighs it: its end, the end of the segment
/// after (`+∞` for none), `θ`, `1/sin θ` (signed), the local time and the two keys.
type Arc<'k> = (f64, f64, f64, f64, f64, &'k Quat, &'k Quat);

/// Where [`fast_arc`] does not decide: the segment [`find`] finds, its arc if the player
/// weighs it; else the value written by the track's `segment_value` (a segment that is no
/// arc) or `sample` (outside the keys), and `None`.
#[inline(never)]
fn slerp_rare<'k>(l: &mut Lane<SlerpHot<'k>>, c: &mut Cold<'_, SlerpKeys>, t: f64, out: &mut [f64]) -> Option<(usize, Arc<'k>)> {
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
    let (&[t0, t1], &[theta, inv_sin], [q0, q1]) = (
        k.times.get(s..s.wrapping_add(2)).and_then(|x| <&[f32; 2]>::try_from(x).ok())?,
        k.arcs.get(s)?,
        k.quats.get(s..s.wrapping_add(2)).and_then(|x| <&[Quat; 2]>::try_from(x).ok())?,
    );
    let (t0, t1) = (f64::from(t0), f64::from(t1));
    let u = (t - t0) * (1.0 / (t1 - t0));
    let t2 = k.times.get(s.wrapping_add(2)).map_or(f64::INFINITY, |&x| f64::from(x));
    ((t0 <= t) & (t < t1) & (theta >= 0.0) & (u <= 1.0)).then_some((t1, t2, theta, inv_sin, u, q0, q1))
}

/// Where the step does not decide: the segment after the one the step tried (`t` passed two
/// keys in a frame), else the track's index; kept in the lane. `None` outside the keys.
#[inline(never)]
fn find<H>(l: &mut Lane<H>, curve: &TrackCurve, bound: impl Fn(usize) -> Option<f64>, t: f64) -> Option<usize> {
    let next = l.seg.wrapping_add(2) as usize;
    let s = match (bound(next), bound(next + 1)) {
        (Some(t0), Some(t1)) if l.seg != NONE && t0 <= t && t < t1 => Some(next),
        _ => index(curve, t),
    };
    (l.seg, l.t1, l.t2) = match s {
        Some(s) => (s as u32, bound(s + 1).unwrap_or(f64::NEG_INFINITY), bound(s + 2).unwrap_or(f64::INFINITY)),
        None => (NONE, f64::NEG_INFINITY, f64::NEG_INFINITY),
    };
    s
}
