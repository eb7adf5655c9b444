//! The TCB lanes of the tracks kept as float32 keys ([`super::packed`]): a frame of
//! sequential playback steps each lane to its segment (the same, the next or the one after,
//! without a branch: whether `t` passed a key is a coin toss per frame), reads the segment's
//! four keys and computes its value from them ([`super::packed::poly_coefficients`], Horner's
//! rule), four lanes together so that their computations overlap; a lane whose segment does
//! not hold `t`, or is its track's first or last, goes to [`poly_rare`]. A seek evaluates the
//! segment it found the same way.

use super::lanes::value_at;
use super::packed::{horner, poly_coefficients, PolyKeys};
use super::packed_cursor::{find, Cold, Lane, HELD};

/// The TCB tracks of one dimension: lanes, the rest, and the part of a frame their values take
/// (every lane's `out` plus the dimension is at most this).
pub(super) type PolyGroup<'c> = (Vec<Lane<&'c [[f32; 4]]>>, Vec<Cold<'c, PolyKeys>>, usize);

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
pub(super) unsafe fn play_poly<const D: usize, const WIDE: bool>((lanes, cold, span): &mut PolyGroup<'_>, t: f64, out: &mut [f64], seek: bool) {
    let out = &mut out[..*span];
    // Four lanes written out: the same loop over an array of four measured 3% slower.
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
#[cold]
unsafe fn poly_rare<const D: usize, const WIDE: bool>(l: &mut Lane<&[[f32; 4]]>, c: &mut Cold<'_, PolyKeys>, t: f64, o: &mut [f64; D]) {
    if let Some(v) = c.held.at(t) {
        o.copy_from_slice(&v[..D]);
        (l.seg, l.t1, l.t2) = HELD;
        return;
    }
    let keys = l.hot;
    let Some(s) = find(l, c.curve, |s| keys.get(s).map(|k| f64::from(k[0])), t) else {
        c.curve.sample(&mut c.cursor, t, o);
        return;
    };
    // Keys `s − 1` to `s + 2`: none for a track's first and last segments.
    let k = keys.get(s.wrapping_sub(1)..s.wrapping_add(3)).and_then(|k| <&[[f32; 4]; 4]>::try_from(k).ok());
    // SAFETY: with `WIDE` the processor has AVX2 (this function's contract).
    match k.map(|k| unsafe { value_and_bounds::<WIDE>(k, t) }).filter(|&(_, t0, t1, _)| t0 <= t && t < t1) {
        Some((v, ..)) => {
            for (c, o) in o.iter_mut().enumerate() {
                *o = v[c + 1];
            }
        }
        None => c.curve.segment_value(s, t, o),
    }
}

/// The window's segment at `t` (whether or not it holds `t`): its value on every lane (its
/// numbers by [`poly_coefficients`], then Horner's rule at `u = (t − t0)·(1/Δt)`), its start
/// and end, and the end of the segment after (the key times of `k[1]`, `k[2]` and `k[3]`),
/// read from the same loads as the value.
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
    let (c, inv_dt) = poly_coefficients(k);
    (horner(&c, (t - t0) * inv_dt), t0, f64::from(k[2][0]), f64::from(k[3][0]))
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

/// The value `d` past the start of the segment from `p0` to `p1` (keys `[t, x, y, z]` as
/// f64s), `a` and `e` its neighbours: lane by lane the operations of [`poly_coefficients`]
/// and [`horner`], so the same bits.
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
