//! Arc length of Vec2/Vec3 tracks and constant-speed motion (SPEC §6, seed 003).
//!
//! `s(t) = ∫_{t₀}^{t} |P′(τ)| dτ`. The seed builds a piecewise-*linear* table of `s` from
//! chord sums by "swinging door" sampling, which needs `O(E^−1/2)` samples for an error `E`.
//! Here `P′` and `P″` are known in closed form ([`TrackCurve::segment_velocity`],
//! [`TrackCurve::segment_acceleration`]), so each table piece is the **quintic Hermite**
//! interpolant of `s` matching `s`, `s′ = |P′|` and `s″ = P′·P″/|P′|` at both ends. Its
//! error is `s⁽⁶⁾(ξ)/720 · (t−a)³(t−b)³`, at most `h⁶ max|s⁽⁶⁾| / 46080`, so the sample
//! count grows only like `E^−1/6`.
//!
//! # Accuracy argument
//! Pieces never straddle a key or an ease switch point, where `s″` may jump. A candidate
//! piece `[a, b]` is integrated on its four quarters by 4-point Gauss–Legendre. It is
//! accepted when
//! 1. the quadrature has converged: the parent's integral of the piece and the sum of the
//!    quarters agree within `E/4` (the quarters' own error is smaller by `4⁸` for a smooth
//!    integrand, so they carry almost none of it into the knots);
//! 2. the interpolant is within `E/2` of the true `s` at `¼`, `½` and `¾` of the piece, which
//!    straddle the peak of the error kernel `(t−a)³(t−b)³`;
//! 3. the piece is monotone: its Bernstein control values never decrease (sufficient for a
//!    non-negative derivative). If the quintic fails this, the cubic Hermite (matching `s`
//!    and `s′` only) is tried under the same error tests with the Fritsch–Carlson
//!    monotonicity condition;
//!
//! otherwise it is split, into as many parts as its misfit predicts. Knot values are sums of
//! converged integrals, so `|s_table(t) − s(t)| ≤ E` everywhere; `tests/arclen.rs` measures
//! the true error on 10,000 points against an independent adaptive Gauss–Kronrod
//! integration. `t(s)` solves the monotone polynomial of one piece by safeguarded Newton
//! until `|s_table(t) − s| ≤ E/16`, so `|s(t_table(s)) − s| ≤ E/2 + E/16 + …` stays within
//! `E` by the bound on `s_table`.
//!
//! Where the speed is zero at a knot (a cusp or an eased key), `s″` is taken one-sided:
//! `+|P″|` leaving the knot, `−|P″|` arriving.
//!
//! A requested `E` below what `f64` can resolve for the path's length (`L · 2⁻⁴⁴`) is raised
//! to that floor; [`ArcLengthTable::tolerance`] reports the bound actually met.

use crate::curve::{PathCurve, PathError, SegmentSpeed, TrackCurve};
use crate::search::{BucketIndex, SegmentCursor};
use thiserror::Error;

/// Gauss–Legendre 4-point nodes (the positive half) and weights on [−1, 1]: exact for
/// degree 7, applied to each quarter of a piece.
const GL_NODES: [f64; 2] = [0.339_981_043_584_856_3, 0.861_136_311_594_052_6];
const GL_WEIGHTS: [f64; 2] = [0.652_145_154_862_546_1, 0.347_854_845_137_453_9];

/// Most parts a rejected piece is split into at once.
const MAX_SPLIT: f64 = 64.0;

/// Deepest split of one key segment; `2⁻⁴⁰` of a segment is far below any useful tolerance.
const MAX_DEPTH: u32 = 40;
/// The most pieces a table may have (64 bytes each). A curve that needs more to meet its
/// tolerance (values near the limits of f64, speeds that change by hundreds of orders of
/// magnitude) is refused rather than exhausting memory: [`ArcLengthError::TooComplex`].
pub const MAX_PIECES: usize = 4_000_000;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum ArcLengthError {
    #[error("no arc length: {0}")]
    NotAPath(#[from] PathError),
    #[error("the tolerance must be a positive finite length, got {0}")]
    Tolerance(f64),
    #[error("no arc length: the curve needs more than {MAX_PIECES} table pieces to meet the tolerance (try a larger one)")]
    TooComplex,
    #[error("no arc length: the length is not a finite number (the path's values are too large)")]
    Overflow,
}

/// `s(t)` and `t(s)` for one track, each within [`tolerance`](Self::tolerance) everywhere.
///
/// # Invariants
/// Knot times strictly increase; knot lengths never decrease; every piece is monotone.
#[derive(Clone, Debug)]
pub struct ArcLengthTable {
    /// Knot times; piece `k` spans `[t[k], t[k+1]]`.
    t: Vec<f64>,
    /// Arc length at each knot.
    s: Vec<f64>,
    /// Per piece, `s(x) = Σ c_i xⁱ` (degree ≤ 5) with `x = (t − t_k)/h_k ∈ [0, 1]`.
    coef: Vec<[f64; 6]>,
    tolerance: f64,
    /// O(1) guides for random-order lookups by time and by length.
    t_index: BucketIndex,
    s_index: BucketIndex,
}

/// Gauss–Legendre integral of `|P′|` over local times `[ua, ub]` of a segment lasting `dt`:
/// `∫ |dP/dt| dt = dt ∫ |dP/dt| du`.
#[inline]
fn integrate(speed: &SegmentSpeed<'_>, dt: f64, ua: f64, ub: f64) -> f64 {
    let c = 0.5 * (ua + ub);
    let r = 0.5 * (ub - ua);
    let mut sum = 0.0;
    if let SegmentSpeed::Poly { derivative, ease, inv_dt } = speed {
        if ease.is_identity() {
            // The common case, kept in registers: |dP/du| = |p′(u)| over four lanes.
            for (x, w) in GL_NODES.iter().zip(GL_WEIGHTS) {
                sum += w * (derivative.norm(c - r * x) + derivative.norm(c + r * x));
            }
            return sum * r * dt * inv_dt;
        }
    }
    for (x, w) in GL_NODES.iter().zip(GL_WEIGHTS) {
        sum += w * (speed.at(c - r * x) + speed.at(c + r * x));
    }
    sum * r * dt
}

/// Fritsch–Carlson: the cubic Hermite with end slopes `α·δ`, `β·δ` (δ the secant, α, β ≥ 0)
/// is monotone iff one of these holds.
fn cubic_is_monotone(alpha: f64, beta: f64) -> bool {
    let s = alpha + beta - 2.0;
    s <= 0.0 || 2.0 * alpha + beta - 3.0 <= 0.0 || alpha + 2.0 * beta - 3.0 <= 0.0 || alpha - (2.0 * alpha + beta - 3.0).powi(2) / (3.0 * s) >= 0.0
}

/// `s′` and `s″` at a point of a key segment, with `s″` on both sides: they differ only
/// where the speed is zero (`±|P″|`) or at an ease switch point.
#[derive(Clone, Copy, Debug)]
struct Deriv {
    speed: f64,
    leaving: f64,
    arriving: f64,
}

impl Deriv {
    /// In the unit parameter of a piece lasting `h` that starts (`start`) or ends here.
    fn end(self, h: f64, start: bool) -> End {
        End { d1: self.speed * h, d2: if start { self.leaving } else { self.arriving } * h * h }
    }
}

/// `h·s′` and `h²·s″` at one end of a piece, in the piece's unit parameter.
#[derive(Clone, Copy, Debug)]
struct End {
    d1: f64,
    d2: f64,
}

/// Monomial coefficients (in `x ∈ [0, 1]`) of the quintic Hermite from `s0` to `s0 + ds`, or
/// `None` if its Bernstein control values decrease somewhere.
fn quintic(s0: f64, ds: f64, a: End, b: End) -> Option<[f64; 6]> {
    let bern = [0.0, a.d1 / 5.0, 2.0 * a.d1 / 5.0 + a.d2 / 20.0, ds - 2.0 * b.d1 / 5.0 + b.d2 / 20.0, ds - b.d1 / 5.0, ds];
    if bern.windows(2).any(|w| w[1] < w[0]) {
        return None;
    }
    let (v0, v1, a0, a1) = (a.d1, b.d1, a.d2, b.d2);
    Some([
        s0,
        v0,
        0.5 * a0,
        10.0 * ds - 6.0 * v0 - 4.0 * v1 - 0.5 * (3.0 * a0 - a1),
        -15.0 * ds + 8.0 * v0 + 7.0 * v1 + 0.5 * (3.0 * a0 - 2.0 * a1),
        6.0 * ds - 3.0 * (v0 + v1) - 0.5 * (a0 - a1),
    ])
}

/// The cubic Hermite (matching `s` and `s′`), or `None` if it is not monotone.
fn cubic(s0: f64, ds: f64, a: End, b: End) -> Option<[f64; 6]> {
    let (d0, d1) = (a.d1, b.d1);
    let monotone = if ds > 0.0 { cubic_is_monotone(d0 / ds, d1 / ds) } else { d0 == 0.0 && d1 == 0.0 };
    monotone.then_some([s0, d0, 3.0 * ds - 2.0 * d0 - d1, d0 + d1 - 2.0 * ds, 0.0, 0.0])
}

#[inline]
fn poly(c: &[f64; 6], x: f64) -> f64 {
    c[0] + x * (c[1] + x * (c[2] + x * (c[3] + x * (c[4] + x * c[5]))))
}

#[inline]
fn poly_derivative(c: &[f64; 6], x: f64) -> f64 {
    c[1] + x * (2.0 * c[2] + x * (3.0 * c[3] + x * (4.0 * c[4] + x * 5.0 * c[5])))
}

struct Builder<'a> {
    curve: &'a TrackCurve,
    /// The speed function of the key segment being tabulated.
    speed: SegmentSpeed<'a>,
    tolerance: f64,
    t: Vec<f64>,
    s: Vec<f64>,
    coef: Vec<[f64; 6]>,
    /// Set when [`MAX_PIECES`] is reached: every refinement then stops at once.
    exhausted: bool,
}

/// One key segment being tabulated: its index, start time and duration.
#[derive(Clone, Copy)]
struct Seg {
    index: usize,
    t0: f64,
    dt: f64,
}

impl Builder<'_> {
    /// `s′` and `s″` at local time `at` of `seg`.
    fn deriv(&self, seg: Seg, at: f64) -> Deriv {
        let (speed, dot) = self.curve.segment_speed_derivatives(seg.index, at);
        if speed > 0.0 {
            let along = dot / speed;
            Deriv { speed, leaving: along, arriving: along }
        } else {
            // A stop: |P′| grows like |P″|·|t − t_stop| on both sides.
            let a = self.curve.segment_acceleration_norm(seg.index, at);
            Deriv { speed, leaving: a, arriving: -a }
        }
    }

    /// Adds pieces covering local times `[ua, ub]` of `seg`, whose integral (from the parent)
    /// is `whole`, or NaN when the parent's quadrature check covers this piece. `da`, `db` are
    /// the derivatives at the ends.
    ///
    /// A rejected piece is split into as many equal parts as its measured misfit predicts
    /// (error ∝ h⁶, with a 20% margin), which skips most of the rejected intermediate pieces
    /// plain bisection would try.
    #[allow(clippy::too_many_arguments)]
    fn refine(&mut self, seg: Seg, ua: f64, ub: f64, whole: f64, da: Deriv, db: Deriv, depth: u32) {
        if self.exhausted {
            return;
        }
        let w = ub - ua;
        let q = [ua, ua + 0.25 * w, ua + 0.5 * w, ua + 0.75 * w, ub];
        let mut part = [0.0; 4];
        for i in 0..4 {
            part[i] = integrate(&self.speed, seg.dt, q[i], q[i + 1]);
        }
        let total: f64 = part.iter().sum();
        let s0 = *self.s.last().unwrap();
        let h = w * seg.dt;
        let (ea, eb) = (da.end(h, true), db.end(h, false));
        let inside = [part[0], part[0] + part[1], part[0] + part[1] + part[2]];
        let quad_ok = whole.is_nan() || (whole - total).abs() <= self.tolerance / 4.0;
        let misfit = |c: &[f64; 6]| inside.iter().zip([0.25, 0.5, 0.75]).map(|(s, x)| (poly(c, x) - (s0 + s)).abs()).fold(0.0, f64::max);
        let budget = self.tolerance / 2.0;
        let quintic_fit = quintic(s0, total, ea, eb).map(|c| (misfit(&c), c));
        let candidate = match quintic_fit {
            Some((m, c)) if m <= budget => Some(c),
            _ => cubic(s0, total, ea, eb).filter(|c| misfit(c) <= budget),
        };
        let t_end = seg.t0 + ub * seg.dt;
        let at_limit = depth >= MAX_DEPTH || !(ua < q[2] && q[2] < ub);
        match candidate {
            Some(c) if quad_ok || at_limit => self.push(c, t_end, s0 + total),
            _ if at_limit => self.push([s0, total, 0.0, 0.0, 0.0, 0.0], t_end, s0 + total),
            _ => {
                let parts = match quintic_fit {
                    Some((m, _)) if quad_ok => (1.1 * (m / budget).powf(1.0 / 6.0)).ceil().clamp(2.0, MAX_SPLIT) as usize,
                    _ => 2,
                };
                if parts == 2 {
                    let dm = self.deriv(seg, q[2]);
                    self.refine(seg, ua, q[2], part[0] + part[1], da, dm, depth + 1);
                    self.refine(seg, q[2], ub, part[2] + part[3], dm, db, depth + 1);
                } else {
                    let mut left = (ua, da);
                    for i in 1..=parts {
                        let right = if i == parts {
                            (ub, db)
                        } else {
                            let u = ua + w * i as f64 / parts as f64;
                            (u, self.deriv(seg, u))
                        };
                        // No parent estimate of this part: its quadrature check is inherited
                        // from the parent, which passed it on pieces ≥ 3× longer (GL-4's error
                        // falls like h⁸).
                        self.refine(seg, left.0, right.0, f64::NAN, left.1, right.1, depth + 1);
                        left = right;
                    }
                }
            }
        }
    }

    fn push(&mut self, c: [f64; 6], t: f64, s: f64) {
        if self.coef.len() >= MAX_PIECES || !s.is_finite() {
            self.exhausted = true;
            return;
        }
        self.coef.push(c);
        self.t.push(t);
        self.s.push(s);
    }
}

impl ArcLengthTable {
    /// Builds the table for `path` with absolute error bound `tolerance` (length units;
    /// [`crate::DEFAULT_ACCURACY`] is the usual choice). Compute time grows like
    /// `tolerance^(−1/6)`.
    pub fn new(path: PathCurve<'_>, tolerance: f64) -> Result<Self, ArcLengthError> {
        let curve = path.curve();
        if !(tolerance.is_finite() && tolerance > 0.0) {
            return Err(ArcLengthError::Tolerance(tolerance));
        }
        let times = curve.times();
        // A rough length (chords) fixes the floor below which f64 cannot resolve E.
        let mut rough = 0.0;
        let mut p = vec![0.0; curve.dim()];
        let mut q = vec![0.0; curve.dim()];
        for seg in 0..curve.segment_count() {
            curve.segment_point(seg, 0.0, &mut p);
            for i in 1..=8 {
                curve.segment_point(seg, f64::from(i) / 8.0, &mut q);
                rough += p.iter().zip(&q).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt();
                std::mem::swap(&mut p, &mut q);
            }
        }
        let tolerance = tolerance.max(rough * 2f64.powi(-44));
        let capacity = 8 * curve.segment_count() + 2;
        let mut t = Vec::with_capacity(capacity);
        let mut s = Vec::with_capacity(capacity);
        t.push(times[0]);
        s.push(0.0);
        let mut b = Builder { curve, speed: SegmentSpeed::Other { curve, seg: 0 }, tolerance, t, s, coef: Vec::with_capacity(capacity), exhausted: false };
        for seg in 0..curve.segment_count() {
            let (t0, t1) = (times[seg], times[seg + 1]);
            if t1 <= t0 {
                continue;
            }
            let seg_info = Seg { index: seg, t0, dt: t1 - t0 };
            b.speed = curve.segment_speed_fn(seg);
            let mut edges = vec![0.0];
            edges.extend(curve.segment_breaks(seg));
            edges.push(1.0);
            for w in edges.windows(2) {
                if w[1] > w[0] {
                    let whole = integrate(&b.speed, t1 - t0, w[0], w[1]);
                    let da = b.deriv(seg_info, w[0]);
                    // Arriving at an ease switch point: the branch before it.
                    let db = b.deriv(seg_info, w[1].next_down());
                    b.refine(seg_info, w[0], w[1], whole, da, db, 0);
                }
            }
            if b.exhausted {
                let overflow = b.s.last().is_some_and(|s| !s.is_finite()) || !rough.is_finite();
                return Err(if overflow || b.coef.len() < MAX_PIECES { ArcLengthError::Overflow } else { ArcLengthError::TooComplex });
            }
            // The last knot of a segment is its key time exactly, whatever rounding did.
            *b.t.last_mut().unwrap() = t1;
        }
        if b.coef.is_empty() {
            // One key, or all keys at one time: a point.
            b.t.push(times[0]);
            b.s.push(0.0);
            b.coef.push([0.0; 6]);
        }
        Ok(Self { t_index: BucketIndex::new(&b.t), s_index: BucketIndex::new(&b.s), t: b.t, s: b.s, coef: b.coef, tolerance })
    }

    /// Total length `L`.
    #[must_use]
    pub fn length(&self) -> f64 {
        *self.s.last().unwrap()
    }
    /// Number of samples (knots) in the table.
    #[must_use]
    pub fn len(&self) -> usize {
        self.t.len()
    }
    /// Never true: a table has at least its two end knots.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }
    /// The error bound this table meets (the requested one, or the `f64` floor if larger).
    #[must_use]
    pub fn tolerance(&self) -> f64 {
        self.tolerance
    }
    /// Knot times, for drawing the table.
    #[must_use]
    pub fn knot_times(&self) -> &[f64] {
        &self.t
    }
    /// Time span covered: first to last key.
    #[must_use]
    pub fn domain(&self) -> (f64, f64) {
        (self.t[0], *self.t.last().unwrap())
    }

    fn piece_for_time(&self, cursor: &mut SegmentCursor, t: f64) -> usize {
        cursor.locate_indexed(&self.t, &self.t_index, t).clamped(self.coef.len())
    }

    /// Arc length from the first key to time `t` (clamped to the keyed range).
    #[inline]
    pub fn s_of_t(&self, cursor: &mut SegmentCursor, t: f64) -> f64 {
        let (t0, t1) = self.domain();
        if !(t > t0) {
            return 0.0;
        }
        if t >= t1 {
            return self.length();
        }
        let k = self.piece_for_time(cursor, t);
        let x = (t - self.t[k]) / (self.t[k + 1] - self.t[k]);
        // The clamp keeps rounding at a piece's end from stepping past the next knot, which
        // makes the table exactly monotone.
        poly(&self.coef[k], x).clamp(self.s[k], self.s[k + 1])
    }

    /// `ds/dt` of the table at `t`: the speed the table implies, for constant-speed motion.
    pub fn speed_at(&self, cursor: &mut SegmentCursor, t: f64) -> f64 {
        let (t0, t1) = self.domain();
        let t = t.clamp(t0, t1);
        let k = self.piece_for_time(cursor, t);
        let h = self.t[k + 1] - self.t[k];
        if h <= 0.0 {
            return 0.0;
        }
        let x = (t - self.t[k]) / h;
        poly_derivative(&self.coef[k], x) / h
    }

    /// The time at which the arc length reaches `s` (clamped to `[0, L]`). Where the path
    /// stands still (zero speed), any time of the stop is a correct answer.
    #[inline]
    pub fn t_of_s(&self, cursor: &mut SegmentCursor, s: f64) -> f64 {
        let (t0, t1) = self.domain();
        if !(s > 0.0) {
            return t0;
        }
        if s >= self.length() {
            return t1;
        }
        let k = cursor.locate_indexed(&self.s, &self.s_index, s).clamped(self.coef.len());
        let (sa, sb) = (self.s[k], self.s[k + 1]);
        let h = self.t[k + 1] - self.t[k];
        let c = &self.coef[k];
        let target = s;
        // Safeguarded Newton on the monotone cubic, from the secant guess.
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        let mut x = if sb > sa { ((s - sa) / (sb - sa)).clamp(0.0, 1.0) } else { 0.0 };
        // The residual |s_table(t) − s| may use E/16 of the error budget (see the module docs).
        let good_enough = self.tolerance / 16.0;
        for _ in 0..60 {
            let f = poly(c, x) - target;
            if f.abs() <= good_enough {
                break;
            }
            if f > 0.0 {
                hi = x;
            } else {
                lo = x;
            }
            let df = poly_derivative(c, x);
            let newton = x - f / df;
            let next = if df > 0.0 && newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
            let done = (next - x).abs() <= 1e-15 || hi - lo <= 1e-15;
            x = next;
            if done {
                break;
            }
        }
        self.t[k] + x * h
    }
}

/// Motion along a path at constant speed: at clip time `τ ∈ [0, D]` the position is
/// `P(t(L·τ/D))` (SPEC §6).
#[derive(Clone, Debug)]
pub struct ConstantSpeed<'a> {
    curve: PathCurve<'a>,
    table: &'a ArcLengthTable,
    duration: f64,
    s_cursor: SegmentCursor,
    t_cursor: SegmentCursor,
    cursor: SegmentCursor,
}

impl<'a> ConstantSpeed<'a> {
    /// `duration` is the clip's length in seconds; it defaults to the keyed range in
    /// [`ConstantSpeed::over_keys`].
    #[must_use]
    pub fn new(curve: PathCurve<'a>, table: &'a ArcLengthTable, duration: f64) -> Self {
        Self { curve, table, duration, s_cursor: SegmentCursor::new(), t_cursor: SegmentCursor::new(), cursor: SegmentCursor::new() }
    }

    /// Over the same duration as the keys span.
    #[must_use]
    pub fn over_keys(curve: PathCurve<'a>, table: &'a ArcLengthTable) -> Self {
        let (t0, t1) = curve.domain();
        Self::new(curve, table, t1 - t0)
    }

    /// The path time reached at clip time `tau`.
    pub fn path_time(&mut self, tau: f64) -> f64 {
        let frac = if self.duration > 0.0 { (tau / self.duration).clamp(0.0, 1.0) } else { 1.0 };
        self.table.t_of_s(&mut self.s_cursor, frac * self.table.length())
    }

    /// Position at clip time `tau`.
    pub fn sample(&mut self, tau: f64, out: &mut [f64]) {
        let t = self.path_time(tau);
        self.curve.sample(&mut self.cursor, t, out);
    }

    /// Speed `|dP/dτ| = |P′(t)| · (L/D) / s′_table(t)` at clip time `tau`: `L/D` up to the
    /// table's derivative error.
    pub fn speed(&mut self, tau: f64) -> f64 {
        let t = self.path_time(tau);
        let mut v = [0.0; 4];
        let v = &mut v[..self.curve.dim()];
        self.curve.velocity(&mut self.cursor, t, v);
        let raw = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        let table_speed = self.table.speed_at(&mut self.t_cursor, t);
        let mean = if self.duration > 0.0 { self.table.length() / self.duration } else { 0.0 };
        if table_speed > 0.0 {
            raw * mean / table_speed
        } else {
            // Both speeds vanish together (a stop at a knot, where the table's s′ is exact):
            // the reparametrised motion's speed is the limit, the mean.
            mean
        }
    }
}

/// Speed of the raw motion and of the constant-speed motion at `n + 1` evenly spaced clip
/// times over the keyed range, as `(time, raw, constant)` — for the editor's speed plot.
#[must_use]
pub fn speed_profile(curve: PathCurve<'_>, table: &ArcLengthTable, n: usize) -> Vec<(f64, f64, f64)> {
    let (t0, t1) = curve.domain();
    let mut raw_cursor = SegmentCursor::new();
    let mut cs = ConstantSpeed::over_keys(curve, table);
    let mut v = vec![0.0; curve.dim()];
    (0..=n)
        .map(|i| {
            let tau = if n == 0 { 0.0 } else { (t1 - t0) * i as f64 / n as f64 };
            curve.velocity(&mut raw_cursor, t0 + tau, &mut v);
            let raw = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            (t0 + tau, raw, cs.speed(tau))
        })
        .collect()
}
