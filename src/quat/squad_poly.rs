//! Squad segments as polynomials in local time ([`SquadPolys`]): what a Squad track samples,
//! a polynomial on four lanes instead of [`SquadSegment::at`]'s angle and three sines.
//!
//! **Pieces.** A segment's rotation is an analytic function of `τ` while its outer slerp stays
//! in one hemisphere (`P·Q`, its endpoints' dot product, keeps its sign: the outer slerp
//! aimed at `sign·Q`, [`SquadSegment::at_signed`]). Where `P·Q` changes sign, squad jumps
//! (it turns to `−Q`); that point is found on a grid of up to [`SIGN_GRID`] points and by bisection, and
//! the segment is fitted in two pieces, one per side. `P·Q` changing sign twice, or coming so
//! near 0 between grid points that it might, leaves the segment exact.
//!
//! **Fit.** Each piece, mapped onto `x ∈ [−1, 1]`, is interpolated at the Chebyshev–Lobatto
//! points `x_j = cos(πj/N)` for `N = 8`, then 16, then 32 (each level's points are the next
//! level's even ones), cut after its last Chebyshev coefficient above a sixteenth of
//! [`SQUAD_FIT_TOLERANCE`] (they fall geometrically), and kept when that leaves three to spare
//! and it is within the tolerance at the `N` points between the nodes, where interpolation
//! errs most — which are also the next level's new points, so a refusal costs nothing extra.
//! A piece that no level fits leaves its segment exact.
//!
//! The coefficients: `c_k = (2/N) Σ″_j f(x_j) cos(πjk/N)` (first and last terms of the sum
//! halved, and `c_0`, `c_N` halved: the interpolant `Σ c_k T_k(x)` at those points, Trefethen,
//! *Approximation Theory and Approximation Practice*, ch. 3), turned into powers of `x` by
//! `T_{k+1} = 2x·T_k − T_{k−1}`.
//!
//! **Evaluation.** The powers are summed in four independent chains, `C₀(z) + x·C₁(z) +
//! x²·(C₂(z) + x·C₃(z))` with `z = x⁴`, a quarter of Horner's latency; with fused multiply-adds
//! on 256-bit lanes where the processor has them (AVX2 and FMA, detected once). Every piece
//! of a track is padded with zeros to one length when that costs at most a quarter more, so
//! that samples in random order all run the same loop (its end then predicts).
//!
//! **Accuracy contract**: a fitted piece, evaluated as samples evaluate it on this processor,
//! is within [`SQUAD_FIT_TOLERANCE`] per component of [`SquadSegment::at_signed`] at every
//! check point, which is [`SquadSegment::at`] there (within rounding, tested); at `τ = 0` a
//! sample is the exact form, so a key is itself bit for bit. The last bits of a sample
//! differ between processors with and without FMA (tested within 16 ulps of each other). The tests check random points against the log/exp form
//! ([`super::squad`]) at the tolerance plus [`super::SQUAD_TOLERANCE`], and
//! `tests/reference.rs` against numpy-quaternion at 1e-12.

use super::{Quat, SquadSegment};
use rayon::prelude::*;

/// The largest difference per component between a fitted piece and the segment at its check
/// points.
pub const SQUAD_FIT_TOLERANCE: f64 = 1e-14;

/// Interpolation levels tried in turn, each the previous doubled.
const LEVELS: [usize; 3] = [8, 16, 32];

/// One polynomial piece of a segment: coefficients `coeffs[start..start + len]` in
/// `x = τ·k1 − k0` (the piece's `τ` range mapped onto `[−1, 1]`); `len == 0`: not fitted,
/// sampled exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Piece {
    start: u32,
    len: u32,
    k0: f64,
    k1: f64,
}

impl Piece {
    /// Copies this piece's coefficients from the pool `from` to the end of the pool `to`, and
    /// points it there (a piece not fitted stays as it is).
    fn move_to(&mut self, from: &[Quat], to: &mut Vec<Quat>) {
        if self.len > 0 {
            let start = to.len();
            to.extend_from_slice(&from[self.start as usize..(self.start + self.len) as usize]);
            self.start = start as u32;
        }
    }
}

/// A segment's pieces: the first before `split`, the second from it (where the outer slerp
/// changes hemisphere; `+∞` for a segment in one piece).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Span {
    split: f64,
    pieces: [Piece; 2],
}

impl Default for Span {
    fn default() -> Self {
        Self { split: f64::INFINITY, pieces: [Piece::default(); 2] }
    }
}

/// The fitted polynomials of a track's Squad segments, by segment.
#[derive(Clone, Debug, Default)]
pub struct SquadPolys {
    spans: Vec<Span>,
    /// Per fitted piece, the coefficients of `x⁰, x¹, …` (a multiple of 4: zeros on top).
    coeffs: Vec<Quat>,
    /// Whether the processor has AVX2 and FMA, for [`evaluate_fma`].
    fma: bool,
    /// How many segments this build tried to fit (the others reused a previous fit).
    fitted_anew: usize,
    /// Coefficients no span uses any more ([`Self::splice`]).
    unused: usize,
}

/// A fitted segment: its split and, per piece, its `τ` range and coefficients.
#[derive(Clone, Debug, PartialEq)]
pub struct SegmentFit {
    pub split: f64,
    pub pieces: Vec<(f64, f64, Vec<Quat>)>,
}

/// A segment's fit and its pieces, `(split, [(from, to, coefficients)])`, the second piece
/// `None` for a segment in one piece.
type Stored<'a> = (f64, [Option<(f64, f64, &'a [Quat])>; 2]);

/// Where a segment's fit comes from: made now (`None`: it has none), or an old segment's.
enum Source {
    New(Option<SegmentFit>),
    Old(usize),
}

impl Source {
    fn view<'a>(&'a self, old: Option<&'a SquadPolys>) -> Option<Stored<'a>> {
        match self {
            Self::New(f) => {
                let f = f.as_ref()?;
                let mut pieces = [None, None];
                for (out, (a, b, c)) in pieces.iter_mut().zip(&f.pieces) {
                    *out = Some((*a, *b, c.as_slice()));
                }
                Some((f.split, pieces))
            }
            Self::Old(o) => old?.stored(*o),
        }
    }
}

/// The coefficients up to the last that is not zero in every lane: a fit's own, without
/// padding (a fit ends at a coefficient above the floor, [`truncation`]).
fn used(c: &[Quat]) -> usize {
    c.iter().rposition(|q| *q != [0.0; 4]).map_or(1, |i| i + 1)
}

/// The length [`fit`] gives coefficients `c` (padded or not): [`used`] to a multiple of 4.
fn fit_length(c: &[Quat]) -> usize {
    used(c).next_multiple_of(4)
}

impl SquadPolys {
    /// Fits every segment (on all cores: a few microseconds each).
    #[must_use]
    pub fn new(segments: &[SquadSegment]) -> Self {
        Self::reusing(segments, None)
    }

    /// [`Self::new`], taking the fit of a segment equal to one of `previous` (the segments and
    /// polynomials of the track before an edit) at the same index or as far from the end,
    /// instead of fitting it again: the same result, at the cost of the segments the edit
    /// changed (a fit is deterministic, and a reused one is read back as it was made).
    #[must_use]
    pub fn reusing(segments: &[SquadSegment], previous: Option<(&[SquadSegment], &SquadPolys)>) -> Self {
        let old_index = |s: usize, seg: &SquadSegment| -> Option<usize> {
            let (old, _) = previous?;
            let from_end = (s + old.len()).checked_sub(segments.len());
            [Some(s), from_end].into_iter().flatten().find(|&o| old.get(o) == Some(seg))
        };
        let sources: Vec<Source> = segments
            .par_iter()
            .enumerate()
            .with_min_len(64)
            .map(|(s, seg)| old_index(s, seg).map_or_else(|| Source::New(fit(seg, SQUAD_FIT_TOLERANCE)), Source::Old))
            .collect();
        let old = previous.map(|p| p.1);
        let views: Vec<Option<Stored>> = sources.iter().map(|src| src.view(old)).collect();
        let fma = has_fma();
        let fitted_anew = sources.iter().filter(|s| matches!(s, Source::New(_))).count();
        let mut polys = Self { spans: Vec::with_capacity(views.len()), coeffs: Vec::new(), fma, fitted_anew, unused: 0 };
        let lengths = || views.iter().flatten().flat_map(|v| v.1.iter().flatten().map(|p| fit_length(p.2)));
        let (count, total, longest) = lengths().fold((0, 0, 0), |(n, sum, max), l| (n + 1, sum + l, max.max(l)));
        // Pieces padded to one length (zeros on top change no result), so that the loop of
        // `evaluate` runs as many times for every sample and random order predicts its end:
        // when that costs at most a quarter more; else to a multiple of 4.
        let padded = |c: &[Quat]| if 4 * longest * count <= 5 * total { longest } else { fit_length(c) };
        for view in views {
            let mut span = Span::default();
            let room = |c: &Vec<Quat>, v: &Stored| c.len() + v.1.iter().flatten().map(|p| padded(p.2)).sum::<usize>() <= u32::MAX as usize;
            if let Some((split, pieces)) = view.filter(|v| room(&polys.coeffs, v)) {
                span.split = split;
                for (piece, (a, b, c)) in span.pieces.iter_mut().zip(pieces.into_iter().flatten()) {
                    let (start, width) = (polys.coeffs.len(), b - a);
                    polys.coeffs.extend_from_slice(&c[..used(c)]);
                    polys.coeffs.resize(start + padded(c), [0.0; 4]);
                    *piece = Piece { start: start as u32, len: (polys.coeffs.len() - start) as u32, k0: (a + b) / width, k1: 2.0 / width };
                }
            }
            polys.spans.push(span);
        }
        polys
    }

    /// Segments `range` replaced by `part`'s segments `from` (a drag's local recompile): their
    /// coefficients are appended, and the pool is compacted when more than half of it is
    /// no longer used. Padding aside (which changes no value), the same as fitting the
    /// spliced segments anew. `false`, changing nothing, when the pool would overflow.
    pub fn splice(&mut self, range: std::ops::Range<usize>, part: &SquadPolys, from: std::ops::Range<usize>) -> bool {
        let (Some(old), Some(new)) = (self.spans.get(range.clone()), part.spans.get(from)) else { return false };
        let lengths = |spans: &[Span]| spans.iter().flat_map(|s| s.pieces.iter().map(|p| p.len as usize)).sum::<usize>();
        if self.coeffs.len() + lengths(new) > u32::MAX as usize {
            return false;
        }
        self.unused += lengths(old);
        let mut spans = new.to_vec();
        for piece in spans.iter_mut().flat_map(|s| s.pieces.iter_mut()) {
            piece.move_to(&part.coeffs, &mut self.coeffs);
        }
        self.spans.splice(range, spans);
        self.fitted_anew = part.fitted_anew;
        if 2 * self.unused > self.coeffs.len() {
            let coeffs = std::mem::take(&mut self.coeffs);
            for piece in self.spans.iter_mut().flat_map(|s| s.pieces.iter_mut()) {
                piece.move_to(&coeffs, &mut self.coeffs);
            }
            self.unused = 0;
        }
        true
    }

    /// How many segments this build tried to fit, the others reusing a previous fit
    /// ([`Self::reusing`]).
    #[must_use]
    pub fn fitted_anew(&self) -> usize {
        self.fitted_anew
    }

    /// Segment `seg`'s fit as stored: its split and its pieces' ranges (which follow from the
    /// split) and coefficients (padded).
    fn stored(&self, seg: usize) -> Option<Stored<'_>> {
        let span = self.spans.get(seg)?;
        let ranges = if span.split.is_finite() { [Some((0.0, span.split)), Some((span.split, 1.0))] } else { [Some((0.0, 1.0)), None] };
        let mut pieces = [None, None];
        for ((out, range), p) in pieces.iter_mut().zip(ranges).zip(&span.pieces) {
            if let Some((a, b)) = range {
                let c = self.coeffs.get(p.start as usize..(p.start + p.len) as usize).filter(|c| !c.is_empty())?;
                *out = Some((a, b, c));
            }
        }
        Some((span.split, pieces))
    }

    /// Segment `seg` at `τ ∈ [0, 1]`: its polynomial, or `exact` (the segment itself) where it
    /// has none and at `τ = 0`.
    #[inline]
    #[must_use]
    pub fn at(&self, seg: usize, exact: &SquadSegment, tau: f64) -> Quat {
        // At the key the exact form is the key itself, bit for bit.
        if let Some(span) = self.spans.get(seg).filter(|_| tau != 0.0) {
            let piece = &span.pieces[usize::from(tau >= span.split)];
            if let Some(c) = self.coeffs.get(piece.start as usize..(piece.start + piece.len) as usize) {
                if !c.is_empty() {
                    let x = tau * piece.k1 - piece.k0;
                    #[cfg(target_arch = "x86_64")]
                    if self.fma {
                        // SAFETY: `fma` says the processor has AVX2 and FMA (`Self::new`).
                        return unsafe { evaluate_fma(c, x) };
                    }
                    return evaluate(c, x);
                }
            }
        }
        exact.at(tau)
    }

    /// The highest degree of segment `seg`'s pieces as stored (padded: one less than a
    /// multiple of 4) and how many pieces it has, `None` where it is sampled exactly.
    #[must_use]
    pub fn degree(&self, seg: usize) -> Option<(usize, usize)> {
        let span = self.spans.get(seg)?;
        let fitted: Vec<usize> = span.pieces.iter().filter(|p| p.len > 0).map(|p| p.len as usize - 1).collect();
        Some((*fitted.iter().max()?, fitted.len()))
    }
}

/// `Σ c_k x^k` on four lanes as `C₀(z) + x·C₁(z) + x²·(C₂(z) + x·C₃(z))`, `z = x⁴`, `C_r`
/// holding the powers `≡ r (mod 4)`: four independent chains, a quarter of Horner's latency
/// (`c.len()` a multiple of 4).
#[inline(always)]
fn evaluate(c: &[Quat], x: f64) -> Quat {
    let (x2, mut acc) = (x * x, [[0.0f64; 4]; 4]);
    let z = x2 * x2;
    for four in c.chunks_exact(4).rev() {
        for (a, k) in acc.iter_mut().zip(four) {
            *a = std::array::from_fn(|i| a[i] * z + k[i]);
        }
    }
    std::array::from_fn(|i| (acc[0][i] + x * acc[1][i]) + x2 * (acc[2][i] + x * acc[3][i]))
}

/// Whether this processor has AVX2 and FMA, for [`evaluate_fma`].
fn has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    return is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The evaluation samples use on this processor ([`SquadPolys::at`]): what a fit is checked
/// with.
fn evaluate_here(c: &[Quat], x: f64) -> Quat {
    #[cfg(target_arch = "x86_64")]
    if has_fma() {
        // SAFETY: the processor has AVX2 and FMA.
        return unsafe { evaluate_fma(c, x) };
    }
    evaluate(c, x)
}

/// [`evaluate`] with fused multiply-adds on 256-bit lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn evaluate_fma(c: &[Quat], x: f64) -> Quat {
    let (x2, mut acc) = (x * x, [[0.0f64; 4]; 4]);
    let z = x2 * x2;
    for four in c.chunks_exact(4).rev() {
        for r in 0..4 {
            for i in 0..4 {
                acc[r][i] = acc[r][i].mul_add(z, four[r][i]);
            }
        }
    }
    let mut out = [0.0; 4];
    for i in 0..4 {
        out[i] = x2.mul_add(acc[3][i].mul_add(x, acc[2][i]), acc[1][i].mul_add(x, acc[0][i]));
    }
    out
}

/// Points per segment at which `P·Q` is looked at for a change of sign, at the largest
/// angular speeds.
const SIGN_GRID: usize = 64;

/// `seg` in one or two pieces, each within `tol` of it at its check points, or `None` when a
/// piece fits at no level or the hemisphere changes more than once (module docs).
#[must_use]
pub fn fit(seg: &SquadSegment, tol: f64) -> Option<SegmentFit> {
    let (split, signs) = hemispheres(seg)?;
    if split.is_finite() && (!(2.0 / split).is_finite() || !(2.0 / (1.0 - split)).is_finite()) {
        return None;
    }
    let ranges: Vec<(f64, f64)> = if split.is_finite() { vec![(0.0, split), (split, 1.0)] } else { vec![(0.0, 1.0)] };
    let pieces = ranges
        .into_iter()
        .zip(signs)
        .map(|((a, b), sign)| {
            let tau = |x: f64| (a + 0.5 * (x + 1.0) * (b - a)).clamp(a, b);
            fit_piece(|x| seg.at_signed(tau(x), sign), tol).map(|c| (a, b, c))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(SegmentFit { split, pieces })
}

/// Where `P·Q` changes sign (`+∞`: nowhere) and its sign before and after, or `None` when it
/// changes more than once or comes too near 0 at a grid point to tell: between points `δ`
/// apart it can dip at most `Mδ²/8` below their chord, `M` the curvature bound
/// ([`SquadSegment::outer_cos_curvature`]), and the margin is twice that.
fn hemispheres(seg: &SquadSegment) -> Option<(f64, [f64; 2])> {
    // Points in proportion to the angular speeds `a + b ≤ π` (at least 4), so that the
    // margin is at most what the full grid gives at `a + b = π`: small steps look at few.
    let curvature = seg.outer_cos_curvature();
    let grid = ((SIGN_GRID as f64 * curvature.sqrt() / std::f64::consts::PI).ceil() as usize).clamp(4, SIGN_GRID);
    let at = |i: usize| i as f64 / grid as f64;
    let d: Vec<f64> = (0..=grid).map(|i| seg.outer_cos(at(i))).collect();
    if !d.iter().all(|v| v.is_finite()) {
        return None;
    }
    // Every grid value at least the margin from 0: between two of one sign `P·Q` then keeps
    // it, and between two of opposite signs it is monotone (its chord's slope, above `Mδ/2`,
    // exceeds what its derivative can change by there), so it changes sign exactly once, and
    // not at an end (where a piece would be too narrow to map).
    let margin = 2.0 * curvature / (8.0 * (grid * grid) as f64);
    if !d.iter().all(|v| v.abs() > margin) {
        return None;
    }
    let sign = |v: f64| if v < 0.0 { -1.0 } else { 1.0 };
    let mut change = None;
    for i in 0..grid {
        if sign(d[i]) != sign(d[i + 1]) && change.replace(i).is_some() {
            return None;
        }
    }
    let Some(i) = change else { return Some((f64::INFINITY, [sign(d[0]); 2])) };
    let (mut lo, mut hi) = (at(i), at(i + 1));
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if sign(seg.outer_cos(mid)) == sign(d[i]) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((hi, [sign(d[0]), sign(d[grid])]))
}

/// The coefficients (powers of `x`, a multiple of 4) of `f` on `[−1, 1]`, within `tol` of it
/// at the points between the nodes, by the levels of the module docs.
fn fit_piece(f: impl Fn(f64) -> Quat, tol: f64) -> Option<Vec<Quat>> {
    let mut values: Vec<Quat> = (0..=LEVELS[0]).map(|j| f(lobatto(j, LEVELS[0]))).collect();
    for n in LEVELS {
        // The first-kind points between the nodes: where to check, and the next level's new nodes.
        let between: Vec<(f64, Quat)> = (0..n).map(|j| midpoint(j, n)).map(|x| (x, f(x))).collect();
        let cheb = chebyshev(&values);
        let degree = truncation(&cheb, tol / 16.0);
        if degree + 3 <= n {
            let mut mono = monomial(&cheb[..=degree]);
            mono.resize(mono.len().next_multiple_of(4), [0.0; 4]);
            let fits = between.iter().all(|(x, want)| {
                let got = evaluate_here(&mono, *x);
                (0..4).all(|i| (got[i] - want[i]).abs() <= tol)
            });
            if fits {
                return Some(mono);
            }
        }
        values = values.iter().zip(&between).flat_map(|(v, (_, b))| [*v, *b]).chain(values.last().copied()).collect();
    }
    None
}

/// `cos(πm/64)` for `m < 128`: every node, check point and cosine of the levels (which
/// divide 64).
static COSINES: std::sync::LazyLock<Vec<f64>> = std::sync::LazyLock::new(|| (0..128).map(|m| (std::f64::consts::PI * f64::from(m) / 64.0).cos()).collect());

/// `cos(πm/n)` for `n` dividing 64.
fn cos_pi(m: usize, n: usize) -> f64 {
    COSINES[(m * (64 / n)) % 128]
}

/// Node `j` of `n + 1` Chebyshev–Lobatto points, `cos(πj/n)`.
fn lobatto(j: usize, n: usize) -> f64 {
    cos_pi(j, n)
}

/// The point between nodes `j` and `j + 1`, `cos(π(2j + 1)/(2n))`.
fn midpoint(j: usize, n: usize) -> f64 {
    cos_pi(2 * j + 1, 2 * n)
}

/// Chebyshev coefficients of the interpolant through `values` at the `n + 1` Lobatto points.
fn chebyshev(values: &[Quat]) -> Vec<Quat> {
    let n = values.len() - 1;
    (0..=n)
        .map(|k| {
            let mut sum = [0.0; 4];
            for (j, v) in values.iter().enumerate() {
                let w = if j == 0 || j == n { 0.5 } else { 1.0 } * cos_pi(j * k, n);
                sum = std::array::from_fn(|i| sum[i] + w * v[i]);
            }
            let scale = if k == 0 || k == n { 1.0 } else { 2.0 } / n as f64;
            sum.map(|s| s * scale)
        })
        .collect()
}

/// The degree to keep: the last coefficient with a lane above `floor` (0 if none). With
/// coefficients falling geometrically, the rest add up to about the first left out.
fn truncation(cheb: &[Quat], floor: f64) -> usize {
    cheb.iter().rposition(|c| c.iter().any(|v| !(v.abs() <= floor))).unwrap_or(0)
}

/// `Σ c_k T_k(x)` as powers of `x` (`T_k`'s coefficients are integers, exact in `f64` here).
fn monomial(cheb: &[Quat]) -> Vec<Quat> {
    let n = cheb.len();
    let mut out = vec![[0.0; 4]; n];
    let (mut prev, mut cur) = (vec![0.0; n], vec![0.0; n]);
    cur[0] = 1.0;
    for (k, c) in cheb.iter().enumerate() {
        if k == 1 {
            prev = std::mem::replace(&mut cur, vec![0.0; n]);
            cur[1] = 1.0;
        } else if k > 1 {
            let next: Vec<f64> = (0..n).map(|m| if m > 0 { 2.0 * cur[m - 1] } else { 0.0 } - prev[m]).collect();
            prev = std::mem::replace(&mut cur, next);
        }
        for (o, t) in out.iter_mut().zip(&cur) {
            *o = std::array::from_fn(|i| o[i] + c[i] * t);
        }
    }
    out
}

#[cfg(test)]
#[path = "squad_poly_tests.rs"]
mod tests;
