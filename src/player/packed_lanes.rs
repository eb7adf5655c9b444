//! The loops over the tracks kept as keys ([`super::packed`]). Per track a lane of 16 bytes:
//! the segment it was in, that segment's end and where its value goes. A frame of sequential
//! playback takes the lane's segment or the next (the next if `t` passed the end: chosen
//! without a branch, as whether `t` passed a key is a coin toss per frame), reads its keys and
//! computes its numbers from them every frame, with no branch but one rarely taken: when the
//! segment does not hold `t` (`t0 ≤ t < t1`, tested whatever found it), or is one the track's
//! `segment_value` evaluates, [`rare`] finds the segment by the track's index and evaluates it
//! (or `sample`, outside the keys). A seek finds every track's segment by its index (asked
//! for in passes first) and evaluates it the same way.

use super::lanes::value_of;
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
    seg: u32,
    out: u32,
}

/// A Slerp track's keys, as its lane holds them.
#[derive(Clone, Copy, Debug)]
struct SlerpHot<'c> {
    times: &'c [f32],
    quats: &'c [Quat],
    arcs: &'c [[f64; 2]],
}

/// The TCB tracks of one dimension: lanes and the rest.
type PolyGroup<'c> = (Vec<Lane<&'c [[f32; 4]]>>, Vec<Cold<'c, PolyKeys>>);

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
    /// Asks for the keys a seek reads around key `i`.
    fn ask(&self, i: usize);
}

impl Times for PolyKeys {
    #[inline(always)]
    fn time(&self, i: usize) -> Option<f64> {
        self.keys.get(i).map(|k| f64::from(k[0]))
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
            base + (0..WINDOW).map(|j| usize::from(c.keys.time(base + j).is_some_and(|x| x <= t))).sum::<usize>()
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
    q: [[Quat; 2]; ARCS],
    out: [u32; ARCS],
}

/// The tracks of a clip kept as keys: TCB tracks by dimension, Slerp tracks.
#[derive(Clone, Debug)]
pub(super) struct PackedTracks<'c> {
    rows: &'c Rows,
    /// A seek's row.
    row: Option<usize>,
    poly: [PolyGroup<'c>; 3],
    slerp: (Vec<Lane<SlerpHot<'c>>>, Vec<Cold<'c, SlerpKeys>>),
    arcs: Box<Arcs>,
}

impl<'c> PackedTracks<'c> {
    /// Whether there are no tracks kept as keys (the default: then a frame skips them).
    pub(super) fn is_empty(&self) -> bool {
        self.poly.iter().all(|p| p.0.is_empty()) && self.slerp.0.is_empty()
    }

    pub(super) fn new(packed: &'c Packed, curves: &'c [TrackCurve], offsets: &[usize]) -> Self {
        fn lane<H>(hot: H, offsets: &[usize], track: usize) -> Lane<H> {
            Lane { hot, t1: f64::NEG_INFINITY, seg: NONE, out: offsets.get(track).and_then(|&o| u32::try_from(o).ok()).unwrap_or(NONE) }
        }
        let column = |i: usize| packed.rows.columns.get(i).copied().flatten();
        let poly = std::array::from_fn(|d| {
            let tracks = packed.poly.iter().enumerate().filter(|(_, p)| p.dim == d + 1);
            tracks
                .map(|(i, p)| (lane(&p.keys[..], offsets, p.track), Cold { keys: p, column: column(i), curve: &curves[p.track], cursor: SegmentCursor::new() }))
                .unzip()
        });
        let m = packed.poly.len();
        let slerp = packed
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
        let arcs = Box::new(Arcs { theta: zero, inv_sin: [1.0; ARCS], u: zero, ws: zero, wt: zero, q: [[[0.0; 4]; 2]; ARCS], out: [0; ARCS] });
        Self { rows: &packed.rows, row: None, poly, slerp, arcs }
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
        for (lanes, cold) in &mut self.poly {
            read_row(lanes, cold, t, row);
        }
        read_row(&mut self.slerp.0, &self.slerp.1, t, row);
        for (lanes, cold) in &mut self.poly {
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
            for (l, c) in lanes.iter_mut().zip(cold.iter_mut()) {
                let s = if seek { l.seg } else { l.seg.wrapping_add(u32::from(t >= l.t1)) };
                let k = l.hot;
                let s = s as usize;
                prefetch(k.quats.as_ptr().wrapping_add(s + 4));
                prefetch(k.arcs.as_ptr().wrapping_add(s + 8));
                prefetch(k.times.as_ptr().wrapping_add(s + 16));
                let arc = match arc_at(&k, s, t) {
                    Some(arc) => Some((s, arc)),
                    None => match find(l, c.curve, |s| k.times.get(s).map(|&x| f64::from(x)), t) {
                        Some(s) => arc_at(&k, s, t).map(|arc| (s, arc)).or_else(|| {
                            if let Some(o) = value_of::<4>(out, l.out as usize) {
                                c.curve.segment_value(s, t, o);
                            }
                            None
                        }),
                        None => {
                            if let Some(o) = value_of::<4>(out, l.out as usize) {
                                c.curve.sample(&mut c.cursor, t, o);
                            }
                            None
                        }
                    },
                };
                let Some((s, (t1, theta, inv_sin, u, q0, q1))) = arc else { continue };
                (l.seg, l.t1) = (s as u32, t1);
                // `q₁` negated where the pair flipped it (the sign of `1/sin θ`): exact.
                let flip = inv_sin.to_bits() & SIGN;
                let i = n % ARCS;
                (a.theta[i], a.inv_sin[i], a.u[i], a.out[i]) = (theta, f64::from_bits(inv_sin.to_bits() & !SIGN), u, l.out);
                a.q[i] = [*q0, q1.map(|x| f64::from_bits(x.to_bits() ^ flip))];
                n = i + 1;
            }
            // Whole registers of four: the lanes past `n` hold earlier arcs, weighed and unused.
            let m = n.next_multiple_of(4).min(ARCS);
            arc_weights(&a.theta[..m], &a.inv_sin[..m], &a.u[..m], &mut a.ws[..m], &mut a.wt[..m]);
            for k in 0..n.min(ARCS) {
                if let Some(o) = value_of::<4>(out, a.out[k] as usize) {
                    *o = mix(&a.q[k][0], &a.q[k][1], a.ws[k], a.wt[k]);
                }
            }
        }
    }
}

/// TCB tracks of `D` components at `t`.
///
/// # Safety
/// With `WIDE`, the processor must have AVX2.
#[inline(always)]
unsafe fn play_poly<const D: usize, const WIDE: bool>((lanes, cold): &mut PolyGroup<'_>, t: f64, out: &mut [f64], seek: bool) {
    for (l, c) in lanes.iter_mut().zip(cold.iter_mut()) {
        let Some(o) = value_of::<D>(out, l.out as usize) else { continue };
        let passed = t >= l.t1;
        let s = if seek { l.seg } else { l.seg.wrapping_add(u32::from(passed)) };
        let keys = l.hot;
        let s = s as usize;
        prefetch(keys.as_ptr().wrapping_add(s + 8));
        // Keys `s − 1` to `s + 2`; none for the first and last segments (which the track's
        // `segment_value` evaluates).
        let (s, k, t0, t1) = match window(keys, s, t) {
            Some((k, t0, t1)) => (s, k, t0, t1),
            None => match find(l, c.curve, |s| keys.get(s).map(|k| f64::from(k[0])), t) {
                Some(s) => match window(keys, s, t) {
                    Some((k, t0, t1)) => (s, k, t0, t1),
                    None => {
                        c.curve.segment_value(s, t, o);
                        continue;
                    }
                },
                None => {
                    c.curve.sample(&mut c.cursor, t, o);
                    continue;
                }
            },
        };
        (l.seg, l.t1) = (s as u32, t1);
        // SAFETY: with `WIDE` the processor has AVX2 (this function's contract).
        let v = unsafe { value::<WIDE>(k, t - t0) };
        for (c, o) in o.iter_mut().enumerate() {
            *o = v[c + 1];
        }
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

/// [`value`] in 256-bit registers, a lane per component: the same operations lane by lane as
/// [`poly_coefficients`] and [`horner`], so the same bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn value_avx2(k: &[[f32; 4]; 4], d: f64) -> [f64; 4] {
    use std::arch::x86_64::{_mm256_add_pd, _mm256_cvtps_pd, _mm256_mul_pd, _mm256_set1_pd, _mm256_storeu_pd, _mm256_sub_pd, _mm_loadu_ps};
    // SAFETY: each load reads one key's four f32s, inside `k`.
    let [a, p0, p1, e] = k.map(|x| unsafe { _mm256_cvtps_pd(_mm_loadu_ps(x.as_ptr())) });
    // r₁ = ½(p₁ − a), r₂ = ½(e − p₀), δ = p₁ − p₀, c₃ = (r₁ + r₂) − (δ + δ), c₂ = (δ − r₁) − c₃.
    let half = _mm256_set1_pd(0.5);
    let (r1, r2, dp) = (_mm256_mul_pd(half, _mm256_sub_pd(p1, a)), _mm256_mul_pd(half, _mm256_sub_pd(e, p0)), _mm256_sub_pd(p1, p0));
    let c3 = _mm256_sub_pd(_mm256_add_pd(r1, r2), _mm256_add_pd(dp, dp));
    let c2 = _mm256_sub_pd(_mm256_sub_pd(dp, r1), c3);
    let inv_dt = 1.0 / (f64::from(k[2][0]) - f64::from(k[1][0]));
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
fn window(keys: &[[f32; 4]], s: usize, t: f64) -> Option<(&[[f32; 4]; 4], f64, f64)> {
    let k = keys.get(s.wrapping_sub(1)..s.wrapping_add(3)).and_then(|k| <&[[f32; 4]; 4]>::try_from(k).ok())?;
    let (t0, t1) = (f64::from(k[1][0]), f64::from(k[2][0]));
    ((t0 <= t) & (t < t1)).then_some((k, t0, t1))
}

/// Segment `s` of a Slerp track if it holds `t` and the player weighs its arc at `t`: its end,
/// `θ`, `1/sin θ` (signed), the local time and the two keys.
#[inline(always)]
fn arc_at<'k>(k: &SlerpHot<'k>, s: usize, t: f64) -> Option<(f64, f64, f64, f64, &'k Quat, &'k Quat)> {
    let (&[t0, t1], &[theta, inv_sin], [q0, q1]) = (
        k.times.get(s..s.wrapping_add(2)).and_then(|x| <&[f32; 2]>::try_from(x).ok())?,
        k.arcs.get(s)?,
        k.quats.get(s..s.wrapping_add(2)).and_then(|x| <&[Quat; 2]>::try_from(x).ok())?,
    );
    let (t0, t1) = (f64::from(t0), f64::from(t1));
    let u = (t - t0) * (1.0 / (t1 - t0));
    ((t0 <= t) & (t < t1) & (theta >= 0.0) & (u <= 1.0)).then_some((t1, theta, inv_sin, u, q0, q1))
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
    (l.seg, l.t1) = match s {
        Some(s) => (s as u32, bound(s + 1).unwrap_or(f64::NEG_INFINITY)),
        None => (NONE, f64::NEG_INFINITY),
    };
    s
}
