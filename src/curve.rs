//! [`TrackCurve`]: a validated track compiled for fast evaluation.
//!
//! Compiling checks every invariant of SPEC §1 once (so evaluation never fails and never
//! produces NaN from finite keys) and precomputes what each sample would otherwise redo:
//! TCB tangents, three.js cubic weights and squad control points. Cubic and TCB segments are
//! stored as per-component cubic polynomials in local time `u`, evaluated by Horner's rule.
//!
//! Evaluation writes into a caller's buffer and takes a [`SegmentCursor`], so playback costs
//! O(1) per sample with no allocation, and one curve can serve many playheads.

use crate::error::TrackError;
use crate::model::{Ending, Infinity, Interpolation, Key, TangentMode, Track, TrackKind};
use crate::quat::{self, Quat};
use crate::search::SegmentCursor;
use crate::tcb::{self, KeyTangents};

/// A validated, compiled track. Build with [`TrackCurve::new`].
#[derive(Clone, Debug)]
pub struct TrackCurve {
    kind: TrackKind,
    dim: usize,
    interpolation: Interpolation,
    tangent_mode: TangentMode,
    pre: Infinity,
    post: Infinity,
    times: Vec<f64>,
    /// Key values, `key * dim + c`.
    values: Vec<f64>,
    segments: Segments,
    tangents: Option<KeyTangents>,
    /// Global-time velocity at the first and last key, for [`Infinity::Linear`].
    start_slope: Vec<f64>,
    end_slope: Vec<f64>,
}

#[derive(Clone, Debug)]
enum Segments {
    Step,
    Linear,
    /// Cubic and TCB segments as polynomials in local time.
    Poly {
        segs: Vec<PolySegment>,
        /// Whether any segment has ease (else the remap is skipped).
        eased: bool,
    },
    Slerp,
    Nlerp,
    Squad {
        a: Vec<Quat>,
        b: Vec<Quat>,
    },
}

/// Checks a track against SPEC §1: at least one key, kind and modes compatible, finite
/// numbers, values of the right length, times in order, TCB and ease in range, no zero
/// quaternion.
pub fn validate(track: &Track) -> Result<(), TrackError> {
    let name = || track.name.clone();
    if !track.interpolation.supports(track.kind) {
        return Err(TrackError::KindMismatch { track: name(), kind: track.kind, interpolation: track.interpolation });
    }
    for mode in [track.pre_infinity, track.post_infinity] {
        if !mode.supports(track.kind) {
            return Err(TrackError::InfinityMismatch { track: name(), kind: track.kind, mode });
        }
    }
    if track.keys.is_empty() {
        return Err(TrackError::NoKeys { track: name() });
    }
    let dim = track.kind.dim();
    let mut previous = f64::NEG_INFINITY;
    for (i, key) in track.keys.iter().enumerate() {
        validate_key(track, i, key, dim)?;
        if key.time < previous {
            return Err(TrackError::OutOfOrder { track: name(), key: i, time: key.time, previous });
        }
        previous = key.time;
    }
    Ok(())
}

fn validate_key(track: &Track, i: usize, key: &Key, dim: usize) -> Result<(), TrackError> {
    let name = || track.name.clone();
    let finite = |field: &'static str, value: f64| {
        if value.is_finite() {
            Ok(())
        } else {
            Err(TrackError::NonFinite { track: name(), key: i, field, value })
        }
    };
    finite("time", key.time)?;
    if key.value.len() != dim {
        return Err(TrackError::WrongLength { track: name(), key: i, kind: track.kind, expected: dim, got: key.value.len() });
    }
    for &v in &key.value {
        finite("value", v)?;
    }
    let ranges: [(&'static str, f64, f64, f64); 5] = [
        ("tension", key.tension, -1.0, 1.0),
        ("continuity", key.continuity, -1.0, 1.0),
        ("bias", key.bias, -1.0, 1.0),
        ("ease_to", key.ease_to, 0.0, 1.0),
        ("ease_from", key.ease_from, 0.0, 1.0),
    ];
    for (field, value, min, max) in ranges {
        finite(field, value)?;
        if !(min..=max).contains(&value) {
            return Err(TrackError::OutOfRange { track: name(), key: i, field, value, min, max });
        }
    }
    if track.kind == TrackKind::Quat {
        let q = &key.value;
        let n2 = q.iter().map(|x| x * x).sum::<f64>();
        if n2 == 0.0 || !n2.is_finite() {
            return Err(TrackError::ZeroQuaternion { track: name(), key: i });
        }
    }
    Ok(())
}

impl TrackCurve {
    /// Validates `track` ([`validate`]) and compiles it. Quaternion keys are normalised.
    pub fn new(track: &Track) -> Result<Self, TrackError> {
        validate(track)?;
        let kind = track.kind;
        let dim = kind.dim();
        let times: Vec<f64> = track.keys.iter().map(|k| k.time).collect();
        let mut values: Vec<f64> = Vec::with_capacity(times.len() * dim);
        for key in &track.keys {
            if kind == TrackKind::Quat {
                let q = [key.value[0], key.value[1], key.value[2], key.value[3]];
                values.extend_from_slice(&quat::normalize(&q));
            } else {
                values.extend_from_slice(&key.value);
            }
        }
        let mut tangents = None;
        let segments = match track.interpolation {
            Interpolation::Step => Segments::Step,
            Interpolation::Linear => Segments::Linear,
            Interpolation::Slerp => Segments::Slerp,
            Interpolation::Nlerp => Segments::Nlerp,
            Interpolation::Cubic => three_cubic_segments(&times, &values, dim, track.ending_start, track.ending_end),
            Interpolation::Tcb => {
                let tg = tcb::key_tangents(&track.keys, dim, track.tangents);
                let seg = tcb_segments(&track.keys, &times, &values, dim, &tg);
                tangents = Some(tg);
                seg
            }
            Interpolation::Squad => squad_segments(&times, &mut values),
        };
        let mut curve = Self {
            kind,
            dim,
            interpolation: track.interpolation,
            tangent_mode: track.tangents,
            pre: track.pre_infinity,
            post: track.post_infinity,
            times,
            values,
            segments,
            tangents,
            start_slope: vec![0.0; dim],
            end_slope: vec![0.0; dim],
        };
        curve.compute_end_slopes();
        Ok(curve)
    }

    fn compute_end_slopes(&mut self) {
        if self.kind == TrackKind::Quat {
            return;
        }
        let n = self.times.len();
        let nonempty = |s: &usize| self.times[*s + 1] > self.times[*s];
        let mut start = vec![0.0; self.dim];
        let mut end = vec![0.0; self.dim];
        if let Some(first) = (0..n.saturating_sub(1)).find(nonempty) {
            self.segment_velocity(first, 0.0, &mut start);
        }
        if let Some(last) = (0..n.saturating_sub(1)).rev().find(nonempty) {
            self.segment_velocity(last, 1.0, &mut end);
        }
        self.start_slope = start;
        self.end_slope = end;
    }

    #[must_use]
    pub fn kind(&self) -> TrackKind {
        self.kind
    }
    /// Components per value.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.dim
    }
    #[must_use]
    pub fn interpolation(&self) -> Interpolation {
        self.interpolation
    }
    #[must_use]
    pub fn tangent_mode(&self) -> TangentMode {
        self.tangent_mode
    }
    /// Key times, sorted.
    #[must_use]
    pub fn times(&self) -> &[f64] {
        &self.times
    }
    /// Value of key `i` (normalised for quaternion tracks, sign-aligned for squad).
    #[must_use]
    pub fn key_value(&self, i: usize) -> &[f64] {
        &self.values[i * self.dim..(i + 1) * self.dim]
    }
    /// Number of segments (keys − 1), including zero-length ones at jumps.
    #[must_use]
    pub fn segment_count(&self) -> usize {
        self.times.len() - 1
    }
    /// First and last key time.
    #[must_use]
    pub fn domain(&self) -> (f64, f64) {
        (self.times[0], self.times[self.times.len() - 1])
    }

    /// Incoming tangent `ra` of key `i` (TCB tracks only), per unit of local segment time.
    #[must_use]
    pub fn incoming_tangent(&self, i: usize) -> Option<&[f64]> {
        let tg = self.tangents.as_ref()?;
        tg.incoming.get(i * self.dim..(i + 1) * self.dim)
    }
    /// Outgoing tangent `rb` of key `i` (TCB tracks only), per unit of local segment time.
    #[must_use]
    pub fn outgoing_tangent(&self, i: usize) -> Option<&[f64]> {
        let tg = self.tangents.as_ref()?;
        tg.outgoing.get(i * self.dim..(i + 1) * self.dim)
    }

    /// A one-playhead evaluator borrowing this curve.
    #[must_use]
    pub fn evaluator(&self) -> Evaluator<'_> {
        Evaluator { curve: self, cursor: SegmentCursor::new() }
    }

    /// Writes the value at time `t` into `out`, applying pre/post infinity.
    ///
    /// Never fails: a NaN `t` yields the first key's value.
    ///
    /// # Panics
    /// If `out.len() != self.dim()` (a programming error, not a data error).
    #[inline]
    pub fn sample(&self, cursor: &mut SegmentCursor, t: f64, out: &mut [f64]) {
        assert_eq!(out.len(), self.dim, "output buffer must hold one value");
        let i = cursor.upper_bound(&self.times, t);
        if i > 0 && i < self.times.len() {
            // Strictly inside the keyed range: the common case during playback.
            return self.sample_segment(i - 1, t, out);
        }
        self.sample_outside(cursor, t, out);
    }

    /// At or beyond the ends: hold, extrapolate or cycle per the infinity modes.
    fn sample_outside(&self, cursor: &mut SegmentCursor, t: f64, out: &mut [f64]) {
        match self.map_time(t) {
            Mapped::Plain(t) => self.sample_keyed(cursor, t, out),
            Mapped::Extrapolate { at_end, dt } => {
                let (key, slope) = if at_end { (self.times.len() - 1, &self.end_slope) } else { (0, &self.start_slope) };
                out.copy_from_slice(self.key_value(key));
                for (o, s) in out.iter_mut().zip(slope) {
                    *o += dt * s;
                }
            }
            Mapped::Cycled { t, cycles, .. } => {
                self.sample_keyed(cursor, t, out);
                if cycles != 0.0 {
                    let last = self.times.len() - 1;
                    for c in 0..self.dim {
                        out[c] += cycles * (self.values[last * self.dim + c] - self.values[c]);
                    }
                }
            }
        }
    }

    /// Velocity `dP/dt` in value units per second at time `t`, infinity modes included.
    /// Zero for Step and outside Constant ends; for quaternion tracks, the derivative of the
    /// components. At a key the segment starting there is used (the right derivative).
    pub fn velocity(&self, cursor: &mut SegmentCursor, t: f64, out: &mut [f64]) {
        assert_eq!(out.len(), self.dim, "output buffer must hold one value");
        match self.map_time(t) {
            Mapped::Plain(t) => self.velocity_keyed(cursor, t, out),
            Mapped::Extrapolate { at_end, .. } => {
                out.copy_from_slice(if at_end { &self.end_slope } else { &self.start_slope });
            }
            Mapped::Cycled { t, reversed, .. } => {
                self.velocity_keyed(cursor, t, out);
                if reversed {
                    out.iter_mut().for_each(|v| *v = -*v);
                }
            }
        }
    }

    fn velocity_keyed(&self, cursor: &mut SegmentCursor, t: f64, out: &mut [f64]) {
        let n = self.times.len();
        let i = cursor.upper_bound(&self.times, t);
        if i == n && t == self.times[n - 1] {
            // At the last key: the derivative arriving there.
            out.copy_from_slice(&self.end_slope);
            return;
        }
        if i == 0 || i == n {
            out.fill(0.0);
            return;
        }
        let seg = i - 1;
        let u = (t - self.times[seg]) / (self.times[seg + 1] - self.times[seg]);
        self.segment_velocity(seg, u, out);
    }

    /// Velocity in value units per second inside segment `seg` at local time `u ∈ [0, 1]`.
    ///
    /// For polynomial segments `dP/dt = p′(ease(u)) · ease′(u) / Δt`, exact. Quaternion
    /// segments use a central difference of step 1e-6 in `u`.
    pub fn segment_velocity(&self, seg: usize, u: f64, out: &mut [f64]) {
        let dim = self.dim;
        let t0 = self.times[seg];
        let dt = self.times[seg + 1] - t0;
        if dt <= 0.0 {
            out.fill(0.0);
            return;
        }
        match &self.segments {
            Segments::Step => out.fill(0.0),
            Segments::Linear => {
                for c in 0..dim {
                    out[c] = (self.values[(seg + 1) * dim + c] - self.values[seg * dim + c]) / dt;
                }
            }
            Segments::Poly { segs, .. } => {
                let p = &segs[seg];
                let [a, b] = p.ease;
                let (e, de) = (tcb::ease(u, a, b), tcb::ease_derivative(u, a, b));
                for (o, k) in out.iter_mut().zip(&p.k) {
                    *o = ((3.0 * k[0] * e + 2.0 * k[1]) * e + k[2]) * de * p.inv_dt;
                }
            }
            Segments::Slerp | Segments::Nlerp | Segments::Squad { .. } => {
                let h = 1e-6;
                let (ua, ub) = ((u - h).max(0.0), (u + h).min(1.0));
                let mut a = [0.0; 4];
                let mut b = [0.0; 4];
                self.sample_segment(seg, t0 + ua * dt, &mut a);
                self.sample_segment(seg, t0 + ub * dt, &mut b);
                for c in 0..4 {
                    out[c] = (b[c] - a[c]) / ((ub - ua) * dt);
                }
            }
        }
    }

    /// The speed function of segment `seg`, prepared for many evaluations (quadrature).
    #[must_use]
    pub fn segment_speed_fn(&self, seg: usize) -> SegmentSpeed<'_> {
        match &self.segments {
            Segments::Poly { segs, .. } => {
                let p = &segs[seg];
                let mut d = [[0.0; 4]; 3];
                for (c, k) in p.k[..self.dim].iter().enumerate() {
                    d[0][c] = 3.0 * k[0];
                    d[1][c] = 2.0 * k[1];
                    d[2][c] = k[2];
                }
                SegmentSpeed::Poly { d, ease: (p.ease != [0.0, 0.0]).then_some(p.ease), inv_dt: p.inv_dt }
            }
            _ => SegmentSpeed::Other { curve: self, seg },
        }
    }

    /// Speed `|dP/dt|` inside segment `seg` at local time `u`: the integrand of arc length,
    /// computed without a buffer (the same value as the norm of [`Self::segment_velocity`]).
    #[inline]
    pub fn segment_speed(&self, seg: usize, u: f64) -> f64 {
        if let Segments::Poly { segs, eased } = &self.segments {
            let p = &segs[seg];
            let (e, de) = if *eased && p.ease != [0.0, 0.0] {
                let [a, b] = p.ease;
                (tcb::ease(u, a, b), tcb::ease_derivative(u, a, b))
            } else {
                (u, 1.0)
            };
            let mut sum = 0.0;
            for k in &p.k[..self.dim] {
                let d = (3.0 * k[0] * e + 2.0 * k[1]) * e + k[2];
                sum += d * d;
            }
            return sum.sqrt() * de * p.inv_dt;
        }
        let mut v = [0.0; 4];
        let v = &mut v[..self.dim];
        self.segment_velocity(seg, u, v);
        v.iter().map(|x| x * x).sum::<f64>().sqrt()
    }

    /// `(|P′|, P′·P″)` in global time inside segment `seg` at local time `u`, in one pass:
    /// what arc length needs for `s′ = |P′|` and `s″ = P′·P″/|P′|`.
    pub fn segment_speed_derivatives(&self, seg: usize, u: f64) -> (f64, f64) {
        if let Segments::Poly { segs, .. } = &self.segments {
            let p = &segs[seg];
            let [a, b] = p.ease;
            let (e, de, dde) =
                if p.ease == [0.0, 0.0] { (u, 1.0, 0.0) } else { (tcb::ease(u, a, b), tcb::ease_derivative(u, a, b), tcb::ease_second_derivative(u, a, b)) };
            let (mut vv, mut va) = (0.0, 0.0);
            for k in &p.k[..self.dim] {
                let d1 = (3.0 * k[0] * e + 2.0 * k[1]) * e + k[2];
                let d2 = 6.0 * k[0] * e + 2.0 * k[1];
                let vel = d1 * de * p.inv_dt;
                let acc = (d2 * de * de + d1 * dde) * p.inv_dt * p.inv_dt;
                vv += vel * vel;
                va += vel * acc;
            }
            return (vv.sqrt(), va);
        }
        let mut v = [0.0; 4];
        let mut a = [0.0; 4];
        self.segment_velocity(seg, u, &mut v[..self.dim]);
        self.segment_acceleration(seg, u, &mut a[..self.dim]);
        let speed = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        (speed, v.iter().zip(&a).map(|(x, y)| x * y).sum())
    }

    /// `|P″|` inside segment `seg` at local time `u` (the one-sided `s″` at a stop).
    pub fn segment_acceleration_norm(&self, seg: usize, u: f64) -> f64 {
        let mut a = [0.0; 4];
        self.segment_acceleration(seg, u, &mut a[..self.dim]);
        a.iter().map(|x| x * x).sum::<f64>().sqrt()
    }

    /// Acceleration `d²P/dt²` inside segment `seg` at local time `u`, for polynomial
    /// segments: `(p″(e)·e′² + p′(e)·e″) / Δt²` with `e = ease(u)`. Zero for the others (Step,
    /// Linear; rotations are not positions). At an ease switch point the branch that starts
    /// there is used.
    pub fn segment_acceleration(&self, seg: usize, u: f64, out: &mut [f64]) {
        match &self.segments {
            Segments::Poly { segs, .. } => {
                let p = &segs[seg];
                let [a, b] = p.ease;
                let (e, de, dde) = (tcb::ease(u, a, b), tcb::ease_derivative(u, a, b), tcb::ease_second_derivative(u, a, b));
                let s = p.inv_dt * p.inv_dt;
                for (o, k) in out.iter_mut().zip(&p.k) {
                    let d1 = (3.0 * k[0] * e + 2.0 * k[1]) * e + k[2];
                    let d2 = 6.0 * k[0] * e + 2.0 * k[1];
                    *o = (d2 * de * de + d1 * dde) * s;
                }
            }
            _ => out.fill(0.0),
        }
    }

    /// Position inside segment `seg` at local time `u` (no infinity handling). Used by the
    /// arc-length integrator, which walks segments itself.
    pub fn segment_point(&self, seg: usize, u: f64, out: &mut [f64]) {
        let t = self.times[seg] + u * (self.times[seg + 1] - self.times[seg]);
        self.sample_segment(seg, t, out);
    }

    /// The local-time points inside segment `seg` where the curve's second derivative may
    /// jump (ease branch changes), sorted.
    #[must_use]
    pub fn segment_breaks(&self, seg: usize) -> Vec<f64> {
        match &self.segments {
            Segments::Poly { segs, .. } => {
                let [a, b] = segs[seg].ease;
                tcb::ease_breaks(a, b).into_iter().flatten().collect()
            }
            _ => Vec::new(),
        }
    }

    #[inline]
    fn map_time(&self, t: f64) -> Mapped {
        let n = self.times.len();
        let (t0, t1) = (self.times[0], self.times[n - 1]);
        let mode = if t < t0 {
            self.pre
        } else if t > t1 {
            self.post
        } else {
            return Mapped::Plain(t);
        };
        let period = t1 - t0;
        if !t.is_finite() || period <= 0.0 {
            return Mapped::Plain(t);
        }
        match mode {
            Infinity::Constant => Mapped::Plain(t),
            Infinity::Linear => Mapped::Extrapolate { at_end: t > t1, dt: if t > t1 { t - t1 } else { t - t0 } },
            Infinity::Cycle | Infinity::CycleOffset | Infinity::PingPong => {
                let k = ((t - t0) / period).floor();
                let mut local = (t - t0 - k * period).clamp(0.0, period);
                let reversed = mode == Infinity::PingPong && k.rem_euclid(2.0) == 1.0;
                if reversed {
                    local = period - local;
                }
                Mapped::Cycled { t: t0 + local, cycles: if mode == Infinity::CycleOffset { k } else { 0.0 }, reversed }
            }
        }
    }

    /// Value inside the keyed range (Constant ends), through the cursor.
    #[inline]
    fn sample_keyed(&self, cursor: &mut SegmentCursor, t: f64, out: &mut [f64]) {
        let n = self.times.len();
        let i = cursor.upper_bound(&self.times, t);
        if i == 0 {
            out.copy_from_slice(&self.values[..self.dim]);
        } else if i == n {
            out.copy_from_slice(&self.values[(n - 1) * self.dim..]);
        } else {
            self.sample_segment(i - 1, t, out);
        }
    }

    #[inline]
    fn sample_segment(&self, seg: usize, t: f64, out: &mut [f64]) {
        let dim = self.dim;
        let t0 = self.times[seg];
        match &self.segments {
            Segments::Poly { segs, eased } => {
                let p = &segs[seg];
                let u = p.local_time(t, t0, *eased);
                for (o, k) in out.iter_mut().zip(&p.k) {
                    *o = ((k[0] * u + k[1]) * u + k[2]) * u + k[3];
                }
            }
            Segments::Step => out.copy_from_slice(&self.values[seg * dim..][..dim]),
            Segments::Linear => {
                // three.js LinearInterpolant, same operation order.
                let w1 = (t - t0) / (self.times[seg + 1] - t0);
                let w0 = 1.0 - w1;
                let v = &self.values[seg * dim..][..2 * dim];
                for c in 0..dim {
                    out[c] = v[c] * w0 + v[dim + c] * w1;
                }
            }
            Segments::Slerp | Segments::Nlerp | Segments::Squad { .. } => {
                let w = (t - t0) / (self.times[seg + 1] - t0);
                let q0 = as_quat(&self.values[seg * 4..]);
                let q1 = as_quat(&self.values[(seg + 1) * 4..]);
                let q = match &self.segments {
                    Segments::Slerp => quat::slerp(&q0, &q1, w),
                    Segments::Nlerp => quat::nlerp(&q0, &q1, w),
                    Segments::Squad { a, b } => quat::squad(&q0, &q1, &a[seg], &b[seg], w),
                    _ => unreachable!("matched above"),
                };
                out.copy_from_slice(&q);
            }
        }
    }
}

/// `|dP/dt|` of one segment as a function of local time, from
/// [`TrackCurve::segment_speed_fn`].
#[derive(Clone, Copy, Debug)]
pub enum SegmentSpeed<'a> {
    /// `dP/du = (d0 e² + d1 e + d2) · ease′(u)` with `e = ease(u)`, components in four lanes
    /// (unused ones zero) so the evaluation has no branches.
    Poly {
        d: [[f64; 4]; 3],
        ease: Option<[f64; 2]>,
        inv_dt: f64,
    },
    Other {
        curve: &'a TrackCurve,
        seg: usize,
    },
}

impl SegmentSpeed<'_> {
    /// `|dP/dt|` at local time `u`.
    #[inline]
    #[must_use]
    pub fn at(&self, u: f64) -> f64 {
        match self {
            Self::Poly { d, ease, inv_dt } => {
                let (e, de) = match ease {
                    Some([a, b]) => (tcb::ease(u, *a, *b), tcb::ease_derivative(u, *a, *b)),
                    None => (u, 1.0),
                };
                let mut sum = 0.0;
                for c in 0..4 {
                    let v = (d[0][c] * e + d[1][c]) * e + d[2][c];
                    sum += v * v;
                }
                sum.sqrt() * de * inv_dt
            }
            Self::Other { curve, seg } => curve.segment_speed(*seg, u),
        }
    }
}

/// One cubic segment, packed so that evaluation touches one record.
#[derive(Clone, Copy, Debug, Default)]
struct PolySegment {
    /// `1 / (t_{s+1} − t_s)`; 0 for zero-length segments, which are never selected.
    inv_dt: f64,
    /// `(ease_from of the start key, ease_to of the end key)`.
    ease: [f64; 2],
    /// Per component `[c3, c2, c1, c0]`: `f(u) = ((c3 u + c2) u + c1) u + c0`.
    k: [[f64; 4]; 4],
}

impl PolySegment {
    #[inline]
    fn local_time(&self, t: f64, t0: f64, eased: bool) -> f64 {
        let u = (t - t0) * self.inv_dt;
        if eased {
            tcb::ease(u, self.ease[0], self.ease[1])
        } else {
            u
        }
    }
}

fn as_quat(v: &[f64]) -> Quat {
    [v[0], v[1], v[2], v[3]]
}

enum Mapped {
    Plain(f64),
    Extrapolate { at_end: bool, dt: f64 },
    Cycled { t: f64, cycles: f64, reversed: bool },
}

/// A curve and its own cursor: the convenient form for one playhead.
#[derive(Clone, Debug)]
pub struct Evaluator<'a> {
    curve: &'a TrackCurve,
    cursor: SegmentCursor,
}

impl Evaluator<'_> {
    /// See [`TrackCurve::sample`].
    #[inline]
    pub fn sample(&mut self, t: f64, out: &mut [f64]) {
        self.curve.sample(&mut self.cursor, t, out);
    }
    /// See [`TrackCurve::velocity`].
    pub fn velocity(&mut self, t: f64, out: &mut [f64]) {
        self.curve.velocity(&mut self.cursor, t, out);
    }
    /// Samples into a new vector (allocates; for scripts and tests).
    #[must_use]
    pub fn value_at(&mut self, t: f64) -> Vec<f64> {
        let mut out = vec![0.0; self.curve.dim];
        self.sample(t, &mut out);
        out
    }
}

fn inv_dt(t0: f64, t1: f64) -> f64 {
    if t1 > t0 {
        1.0 / (t1 - t0)
    } else {
        0.0
    }
}

/// TCB segments as Hermite polynomials:
/// `f(u) = u³(2p₀ + r₁ − 2p₁ + r₂) + u²(−3p₀ − 2r₁ + 3p₁ − r₂) + u r₁ + p₀`
/// with `r₁ = rb` of the start key and `r₂ = ra` of the end key.
fn tcb_segments(keys: &[Key], times: &[f64], values: &[f64], dim: usize, tg: &KeyTangents) -> Segments {
    let n = times.len();
    let mut segs = vec![PolySegment::default(); n.saturating_sub(1)];
    for (s, seg) in segs.iter_mut().enumerate() {
        seg.inv_dt = inv_dt(times[s], times[s + 1]);
        seg.ease = [keys[s].ease_from, keys[s + 1].ease_to];
        let empty = times[s + 1] <= times[s];
        for c in 0..dim {
            let p0 = values[s * dim + c];
            if empty {
                seg.k[c] = [0.0, 0.0, 0.0, p0];
                continue;
            }
            let p1 = values[(s + 1) * dim + c];
            let r1 = tg.outgoing[s * dim + c];
            let r2 = tg.incoming[(s + 1) * dim + c];
            seg.k[c] = [2.0 * p0 + r1 - 2.0 * p1 + r2, -3.0 * p0 - 2.0 * r1 + 3.0 * p1 - r2, r1, p0];
        }
    }
    let eased = segs.iter().any(|s| s.ease != [0.0, 0.0]);
    Segments::Poly { segs, eased }
}

/// three.js `CubicInterpolant` per segment, expanded into a polynomial in `p`:
/// `sP·vP + s0·v0 + s1·v1 + sN·vN` with `wP = ½Δt/(t0 − tPrev)`, `wN = ½Δt/(tNext − t1)` and
/// the neighbours chosen by the [`Ending`]s at the ends (SEMANTICS.md B). A jump (two keys at
/// one time) is treated as an end with `ZeroCurvature`, where three.js would divide by zero.
fn three_cubic_segments(times: &[f64], values: &[f64], dim: usize, start: Ending, end: Ending) -> Segments {
    let n = times.len();
    let mut segs = vec![PolySegment::default(); n.saturating_sub(1)];
    for s in 0..n.saturating_sub(1) {
        let (i0, i1) = (s, s + 1);
        let (t0, t1) = (times[i0], times[i1]);
        if t1 <= t0 {
            for c in 0..dim {
                segs[s].k[c][3] = values[i0 * dim + c];
            }
            continue;
        }
        segs[s].inv_dt = inv_dt(t0, t1);
        let whole = |e: Ending, gap: f64| {
            if e == Ending::WrapAround && !(gap > 0.0) {
                Ending::ZeroCurvature
            } else {
                e
            }
        };
        let (i_prev, t_prev) = if i0 > 0 && times[i0 - 1] < t0 {
            (i0 - 1, times[i0 - 1])
        } else {
            let e = if i0 == 0 { whole(start, times[n - 1] - times[n.saturating_sub(2)]) } else { Ending::ZeroCurvature };
            match e {
                Ending::ZeroSlope => (i1, 2.0 * t0 - t1),
                Ending::WrapAround => (n - 2, t0 + times[n - 2] - times[n - 1]),
                Ending::ZeroCurvature => (i1, t1),
            }
        };
        let (i_next, t_next) = if i1 + 1 < n && times[i1 + 1] > t1 {
            (i1 + 1, times[i1 + 1])
        } else {
            let e = if i1 == n - 1 { whole(end, times[1] - times[0]) } else { Ending::ZeroCurvature };
            match e {
                Ending::ZeroSlope => (i1, 2.0 * t1 - t0),
                Ending::WrapAround => (1, t1 + times[1] - times[0]),
                Ending::ZeroCurvature => (i0, t0),
            }
        };
        let half_dt = (t1 - t0) * 0.5;
        let wp = half_dt / (t0 - t_prev);
        let wn = half_dt / (t_next - t1);
        for c in 0..dim {
            let vp = values[i_prev * dim + c];
            let v0 = values[i0 * dim + c];
            let v1 = values[i1 * dim + c];
            let vn = values[i_next * dim + c];
            segs[s].k[c] = [
                -wp * vp + (1.0 + wp) * v0 + (-1.0 - wn) * v1 + wn * vn,
                2.0 * wp * vp + (-1.5 - 2.0 * wp) * v0 + (1.5 + wn) * v1 - wn * vn,
                -wp * vp + (-0.5 + wp) * v0 + 0.5 * v1,
                v0,
            ];
        }
    }
    Segments::Poly { segs, eased: false }
}

/// Squad: sign-align the keys to one hemisphere (each key flipped to have a non-negative dot
/// with the previous one), then compute control points per strictly increasing run.
fn squad_segments(times: &[f64], values: &mut [f64]) -> Segments {
    let n = times.len();
    let mut keys: Vec<Quat> = values.chunks_exact(4).map(as_quat).collect();
    for i in 1..n {
        if quat::dot(&keys[i - 1], &keys[i]) < 0.0 {
            keys[i] = quat::neg(&keys[i]);
        }
    }
    for (dst, q) in values.chunks_exact_mut(4).zip(&keys) {
        dst.copy_from_slice(q);
    }
    let mut a = keys.clone();
    let mut b = keys.clone();
    let mut lo = 0;
    while lo < n {
        let mut hi = lo;
        while hi + 1 < n && times[hi + 1] > times[hi] {
            hi += 1;
        }
        let (ra, rb) = quat::squad_controls(&keys[lo..=hi], &times[lo..=hi]);
        a[lo..=hi].copy_from_slice(&ra);
        b[lo..=hi].copy_from_slice(&rb);
        lo = hi + 1;
    }
    Segments::Squad { a, b }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(mode: Interpolation, keys: &[(f64, f64)]) -> Track {
        Track::new("s", TrackKind::Scalar, mode).with_keys(keys.iter().map(|&(t, v)| Key::new(t, vec![v])).collect())
    }

    fn at(track: &Track, t: f64) -> f64 {
        TrackCurve::new(track).unwrap().evaluator().value_at(t)[0]
    }

    /// three.js cubic, segment 0 of keys (0,0),(1,1),(2,2),(3,0) at p = 0.5, where
    /// sP·vP + s0·v0 + s1·v1 + sN·v2 with wN = 0.5 gives s1 = 0.5625, sN = −0.0625, and
    /// ZeroCurvature: wP = −0.5, vP = v1 → sP = 0.0625: 0.0625 + 0.5625 − 0.125 = 0.5;
    /// ZeroSlope: wP = 0.5, vP = v1 → sP = −0.0625: −0.0625 + 0.5625 − 0.125 = 0.375;
    /// WrapAround: wP = 0.5, vP = v[n−2] = 2: −0.125 + 0.5625 − 0.125 = 0.3125.
    #[test]
    fn three_cubic_start_endings_hand_values() {
        let mut t = scalar(Interpolation::Cubic, &[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (3.0, 0.0)]);
        for (ending, want) in [(Ending::ZeroCurvature, 0.5), (Ending::ZeroSlope, 0.375), (Ending::WrapAround, 0.3125)] {
            t.ending_start = ending;
            assert!((at(&t, 0.5) - want).abs() < 1e-15, "{ending:?}: {}", at(&t, 0.5));
        }
    }

    /// The mirror image at the end: segment 2 of keys (0,0),(1,2),(2,1),(3,3) at p = 0.5, with
    /// wP = 0.5 (sP = −0.0625 on v1 = 2, s0 = 0.5625 on v2 = 1) and the end conditions below.
    #[test]
    fn three_cubic_end_endings_hand_values() {
        let mut t = scalar(Interpolation::Cubic, &[(0.0, 0.0), (1.0, 2.0), (2.0, 1.0), (3.0, 3.0)]);
        // ZeroCurvature: −0.0625·2 + 0.5625·1 + 0.4375·3 + 0.0625·1 = 1.8125
        // ZeroSlope:     −0.0625·2 + 0.5625·1 + 0.5625·3 − 0.0625·3 = 1.9375
        // WrapAround: vN = v1 = 2, tNext = t1 + t1 − t0 → wN = 0.5:
        //                −0.0625·2 + 0.5625·1 + 0.5625·3 − 0.0625·2 = 2.0
        for (ending, want) in [(Ending::ZeroCurvature, 1.8125), (Ending::ZeroSlope, 1.9375), (Ending::WrapAround, 2.0)] {
            t.ending_end = ending;
            assert!((at(&t, 2.5) - want).abs() < 1e-15, "{ending:?}: {}", at(&t, 2.5));
        }
    }

    #[test]
    fn one_key_is_constant_in_every_mode_and_infinity() {
        for mode in [Interpolation::Step, Interpolation::Linear, Interpolation::Cubic, Interpolation::Tcb] {
            let mut t = scalar(mode, &[(1.0, 7.0)]);
            t.pre_infinity = Infinity::Linear;
            t.post_infinity = Infinity::CycleOffset;
            for x in [-5.0, 1.0, 1.5, 100.0] {
                assert_eq!(at(&t, x), 7.0, "{mode:?} at {x}");
            }
        }
        assert!(matches!(TrackCurve::new(&scalar(Interpolation::Tcb, &[])), Err(TrackError::NoKeys { .. })));
    }

    /// TCB natural ends: keys (0,0),(1,1),(2,0), T=C=B=0 give ra₁ = 0, so rb₀ = 1.5·1 − 0 = 1.5
    /// and the second derivative at the first key is 0.
    #[test]
    fn tcb_natural_end_has_zero_curvature() {
        let t = scalar(Interpolation::Tcb, &[(0.0, 0.0), (1.0, 1.0), (2.0, 0.0)]);
        let c = TrackCurve::new(&t).unwrap();
        assert_eq!(c.outgoing_tangent(0).unwrap(), &[1.5]);
        assert_eq!(c.incoming_tangent(1).unwrap(), &[0.0]);
        let mut acc = [1.0];
        c.segment_acceleration(0, 0.0, &mut acc);
        assert_eq!(acc, [0.0]);
        c.segment_acceleration(1, 1.0, &mut acc);
        assert_eq!(acc, [0.0]);
    }

    /// Keys (0,0),(1,1),(2,3) linear, so the end slopes are 1 and 2 per second.
    #[test]
    fn infinity_modes_hand_values() {
        let mut t = scalar(Interpolation::Linear, &[(0.0, 0.0), (1.0, 1.0), (2.0, 3.0)]);
        t.post_infinity = Infinity::Linear;
        t.pre_infinity = Infinity::Linear;
        assert_eq!(at(&t, 3.0), 5.0);
        assert_eq!(at(&t, -1.0), -1.0);
        t.post_infinity = Infinity::Cycle;
        t.pre_infinity = Infinity::Cycle;
        assert_eq!(at(&t, 2.5), 0.5);
        assert_eq!(at(&t, -0.5), 2.0); // −0.5 ≡ 1.5
        t.post_infinity = Infinity::CycleOffset;
        assert_eq!(at(&t, 3.5), 3.0 + 2.0); // one cycle on (+3), 1.5 into it (2.0)
        t.post_infinity = Infinity::PingPong;
        assert_eq!(at(&t, 2.5), 2.0); // reversed: 2.5 ≡ 1.5
        assert_eq!(at(&t, 4.5), 0.5); // forward again
        let mut v = [0.0];
        let c = TrackCurve::new(&t).unwrap();
        c.velocity(&mut SegmentCursor::new(), 2.5, &mut v);
        assert_eq!(v, [-2.0], "ping-pong runs the curve backwards");
        let mut q = Track::new("q", TrackKind::Quat, Interpolation::Slerp).with_keys(vec![Key::new(0.0, vec![0.0, 0.0, 0.0, 1.0])]);
        q.post_infinity = Infinity::Linear;
        assert!(matches!(TrackCurve::new(&q), Err(TrackError::InfinityMismatch { .. })));
    }

    /// At a jump (two keys at t = 1) the value is the second key's; just before, the segment
    /// heads to the first; no mode divides by the zero gap.
    #[test]
    fn jumps_take_the_last_key_and_never_nan() {
        for mode in [Interpolation::Step, Interpolation::Linear, Interpolation::Cubic, Interpolation::Tcb] {
            let t = scalar(mode, &[(0.0, 0.0), (1.0, 1.0), (1.0, 5.0), (1.0, 9.0), (2.0, 10.0)]);
            assert_eq!(at(&t, 1.0), 9.0, "{mode:?}");
            let before = at(&t, 1.0 - 1e-9);
            assert!(before.is_finite() && (mode == Interpolation::Step || (before - 1.0).abs() < 1e-6), "{mode:?}: {before}");
            assert!(at(&t, 1.5).is_finite());
        }
    }
}
