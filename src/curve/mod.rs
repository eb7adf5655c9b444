//! [`TrackCurve`]: a validated track compiled for fast evaluation — the facade over one
//! module per interpolation mode.
//!
//! Compiling checks every invariant of SPEC §1 once ([`validate`], so evaluation never fails
//! and never produces NaN from finite keys) and precomputes what each sample would otherwise
//! redo. The pieces:
//!
//! | file | what |
//! |---|---|
//! | `keys.rs` | key times and values (storage apart from interpolation) |
//! | `infinity.rs` | pre/post infinity: hold, extrapolate, cycle |
//! | `step.rs`, `linear.rs` | Step and Linear |
//! | `poly.rs` | the polynomial segment with exact derivatives through the ease |
//! | `tcb.rs`, `cubic.rs` | TCB and three.js Cubic, compiled to polynomial segments |
//! | `rotation.rs` | Slerp, Nlerp, Squad |
//! | `bezier.rs` | Bezier keys with Blender's handle types (formulas in [`crate::bezier`]) |
//! | `path.rs` | [`PathCurve`]: the Vec2/Vec3 curves arc length works on |
//! | `splice.rs` | recompiling only what a change of a few keys reaches |
//! | `many.rs` | [`TrackCurve::sample_many`]: a run of times in one pass |
//!
//! The facade finds the segment with a [`SegmentCursor`] (O(1) per sample during playback, no
//! allocation; in any other order, tracks of [`INDEX_MIN_KEYS`] keys or more ask their
//! [`BucketIndex`], O(1) for keys spread evenly in time) and hands the segment to its mode.
//! Adding a mode is one module (value and velocity in a segment, and acceleration if it is a
//! position), one variant of `Segments`, and one arm each in [`TrackCurve::new`],
//! `segment_value` and `segment_velocity`.

mod bezier;
mod cubic;
mod finite;
mod infinity;
mod keys;
mod linear;
mod many;
pub mod modes;
mod path;
pub(crate) mod playback;
mod poly;
mod rotation;
mod splice;
mod step;
mod tcb;
mod validate;

#[cfg(test)]
mod segment_tests;
#[cfg(test)]
mod tests;

pub use path::{PathCurve, PathError};
pub use poly::{Derivative, SegmentSpeed};
pub use validate::{validate, validate_keys};

use crate::error::TrackError;
use crate::model::{EulerOrder, Infinity, Interpolation, TangentMode, Track, TrackKind};
use crate::quat;
use crate::search::{BucketIndex, Located, SegmentCursor};
use crate::tcb::KeyTangents;
use bezier::Bezier;
use infinity::{Extension, Mapped};
use keys::KeyTable;
use linear::Linear;
use modes::Mode;
use poly::Poly;
use rotation::Rotation;
use step::Step;
use strum::EnumCount;

/// A validated, compiled track. Build with [`TrackCurve::new`].
#[derive(Clone, Debug)]
pub struct TrackCurve {
    kind: TrackKind,
    /// Euler tracks: the order their angles are applied in.
    order: EulerOrder,
    interpolation: Interpolation,
    tangent_mode: TangentMode,
    keys: KeyTable,
    /// Finds segments by time when the cursor's cached one does not serve (empty below
    /// [`INDEX_MIN_KEYS`] keys: then binary search).
    index: BucketIndex,
    segments: Segments,
    /// The TCB tangents (TCB tracks only).
    tangents: Option<KeyTangents>,
    extension: Extension,
}

/// Tracks with at least this many keys get a [`BucketIndex`]; shorter ones binary-search
/// (a few steps, as cheap as the index).
pub const INDEX_MIN_KEYS: usize = 16;

/// Each mode's per-segment data.
#[derive(Clone, Debug)]
enum Segments {
    Step,
    Linear,
    /// TCB and three.js Cubic.
    Poly(Poly),
    Rotation(Rotation),
    Bezier(Bezier),
}

// The table of modes (`modes.rs`): each mode's row, declared by its own module.

/// Every mode, in the order of `Interpolation`'s variants.
pub const MODES: [&Mode; Interpolation::COUNT] =
    [&step::MODE, &linear::MODE, &cubic::MODE, &tcb::MODE, &rotation::SLERP, &rotation::NLERP, &rotation::SQUAD, &bezier::MODE];

/// The table has each variant's row at the variant's place (with [`Interpolation::COUNT`]
/// rows, a variant without a row does not compile).
const _: () = {
    let mut i = 0;
    while i < MODES.len() {
        assert!(MODES[i].interpolation as usize == i, "MODES must list the modes in Interpolation's order");
        i += 1;
    }
};

const fn all_modes() -> [Interpolation; Interpolation::COUNT] {
    let mut all = [Interpolation::Step; Interpolation::COUNT];
    let mut i = 0;
    while i < MODES.len() {
        all[i] = MODES[i].interpolation;
        i += 1;
    }
    all
}

impl Interpolation {
    /// Every mode, from the table.
    pub const ALL: [Interpolation; Interpolation::COUNT] = all_modes();

    /// This mode's row of the table.
    #[must_use]
    pub const fn mode(self) -> &'static Mode {
        MODES[self as usize]
    }

    /// Whether this mode can interpolate values of `kind`.
    #[must_use]
    pub const fn supports(self, kind: TrackKind) -> bool {
        let quat = matches!(kind, TrackKind::Quat);
        match self.mode().kinds {
            modes::Kinds::Any => true,
            modes::Kinds::Vectors => !quat,
            modes::Kinds::Rotations => quat,
        }
    }

    /// Whether the curve has a continuous derivative inside a segment, with its acceleration
    /// (needed for arc length and speed plots).
    #[must_use]
    pub const fn has_derivative(self) -> bool {
        matches!(self.mode().derivatives, modes::Derivatives::Acceleration)
    }
}

impl TrackCurve {
    /// Validates `track` ([`validate`]) and compiles it. Quaternion keys are normalised,
    /// except on Bezier tracks, which interpolate the stored components with their handles
    /// and normalise the result (SPEC §3, as glTF plays CUBICSPLINE rotations).
    pub fn new(track: &Track) -> Result<Self, TrackError> {
        Self::compile(track, None)
    }

    /// [`Self::new`], reusing what `previous` (the curve of the track before an edit) computed
    /// for parts that did not change, where that is costly: a Squad segment's polynomial.
    /// The result is the same.
    fn compile(track: &Track, previous: Option<&TrackCurve>) -> Result<Self, TrackError> {
        validate(track)?;
        let kind = track.kind;
        let dim = kind.dim();
        let mut keys = KeyTable::of(track);
        let (segments, tangents) = (track.interpolation.mode().compile)(track, &mut keys, previous);
        let extension = Extension { pre: track.pre_infinity, post: track.post_infinity, start_slope: vec![0.0; dim], end_slope: vec![0.0; dim] };
        let index = if keys.len() >= INDEX_MIN_KEYS { BucketIndex::new(&keys.times) } else { BucketIndex::default() };
        let mut curve =
            Self { kind, order: track.order, interpolation: track.interpolation, tangent_mode: track.tangents, keys, index, segments, tangents, extension };
        if let Some((key, what)) = finite::overflow(&curve) {
            return Err(TrackError::Overflow { track: track.name.clone(), key, what });
        }
        curve.extension.start_slope = curve.end_slope(false);
        curve.extension.end_slope = curve.end_slope(true);
        Ok(curve)
    }

    /// Velocity leaving the first non-empty segment, or arriving at the end of the last.
    /// Zero for rotations (no Linear infinity) and one-key tracks.
    fn end_slope(&self, at_end: bool) -> Vec<f64> {
        let mut slope = vec![0.0; self.dim()];
        if let (Segments::Bezier(b), false) = (&self.segments, self.kind == TrackKind::Quat) {
            b.end_slope(&self.keys, at_end, &mut slope);
        } else if self.kind != TrackKind::Quat {
            let nonempty = |s: &usize| self.keys.times[*s + 1] > self.keys.times[*s];
            let mut segs = 0..self.segment_count();
            let found = if at_end { segs.rfind(nonempty) } else { segs.find(nonempty) };
            if let Some(seg) = found {
                self.segment_velocity(seg, if at_end { 1.0 } else { 0.0 }, &mut slope);
            }
        }
        slope
    }

    #[must_use]
    pub fn kind(&self) -> TrackKind {
        self.kind
    }
    /// The order of an Euler track's angles (meaningless for other kinds).
    #[must_use]
    pub fn order(&self) -> EulerOrder {
        self.order
    }

    /// The rotation of a Quat or Euler track at `t` as a unit quaternion (an Euler track's
    /// angles through [`crate::euler::to_quat`], whose sign follows the half angles); `None`
    /// for other kinds. `scratch` holds one value (`dim()` components).
    pub fn rotation_at(&self, cursor: &mut SegmentCursor, t: f64, scratch: &mut [f64]) -> Option<quat::Quat> {
        self.sample(cursor, t, scratch);
        match self.kind {
            TrackKind::Quat => Some(quat::normalize(&[scratch[0], scratch[1], scratch[2], scratch[3]])),
            TrackKind::Euler => Some(crate::euler::to_quat(&[scratch[0], scratch[1], scratch[2]], self.order)),
            _ => None,
        }
    }
    /// Components per value.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.keys.dim
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
        &self.keys.times
    }
    /// The key times of this curve and `other`, sorted, each once: the cuts between which two
    /// curves are each one piece (where their differences are measured).
    #[must_use]
    pub fn key_times_with(&self, other: &TrackCurve) -> Vec<f64> {
        let mut cuts: Vec<f64> = self.times().iter().chain(other.times()).copied().collect();
        cuts.sort_by(f64::total_cmp);
        cuts.dedup();
        cuts
    }
    /// Value of key `i` (normalised for quaternion tracks other than Bezier, sign-aligned for
    /// squad).
    #[must_use]
    pub fn key_value(&self, i: usize) -> &[f64] {
        self.keys.value(i)
    }
    /// Number of segments (keys − 1), including zero-length ones at jumps.
    #[must_use]
    pub fn segment_count(&self) -> usize {
        self.keys.len() - 1
    }
    /// First and last key time.
    #[must_use]
    pub fn domain(&self) -> (f64, f64) {
        (self.keys.times[0], self.keys.times[self.keys.len() - 1])
    }

    /// The times beyond the keys where [`Self::sample`] gives one value whatever the time
    /// (SPEC §1, Constant infinity): `t <` the first key's time if the track holds its first
    /// value before its keys, `t ≥` the last key's if it holds its last after them (at the last
    /// key itself no segment holds `t`, so it is held too). `None` for a side that extrapolates
    /// or repeats.
    #[must_use]
    pub(crate) fn held_ends(&self) -> (Option<f64>, Option<f64>) {
        let (t0, t1) = self.domain();
        let held = |mode: Infinity, at: f64| (mode == Infinity::Constant).then_some(at);
        (held(self.extension.pre, t0), held(self.extension.post, t1))
    }

    /// Incoming tangent `ra` of key `i` (TCB tracks only), per unit of local segment time.
    #[must_use]
    pub fn incoming_tangent(&self, i: usize) -> Option<&[f64]> {
        let dim = self.dim();
        self.tangents.as_ref()?.incoming.get(i * dim..(i + 1) * dim)
    }
    /// Outgoing tangent `rb` of key `i` (TCB tracks only), per unit of local segment time.
    #[must_use]
    pub fn outgoing_tangent(&self, i: usize) -> Option<&[f64]> {
        let dim = self.dim();
        self.tangents.as_ref()?.outgoing.get(i * dim..(i + 1) * dim)
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
        assert_eq!(out.len(), self.dim(), "output buffer must hold one value");
        match self.locate(cursor, t) {
            // Strictly inside the keyed range: the common case during playback.
            Located::Inside(seg) => self.segment_value(seg, t, out),
            _ => self.sample_outside(cursor, t, out),
        }
    }

    /// Where `t` lies among the keys: the cursor, then the index ([`SegmentCursor::locate_indexed`]).
    #[inline]
    pub fn locate(&self, cursor: &mut SegmentCursor, t: f64) -> Located {
        cursor.locate_indexed(&self.keys.times, &self.index, t)
    }

    /// At or beyond the ends: hold, extrapolate or cycle per the infinity modes.
    fn sample_outside(&self, cursor: &mut SegmentCursor, t: f64, out: &mut [f64]) {
        let (t0, t1) = self.domain();
        match self.extension.map(t, t0, t1) {
            Mapped::Plain(t) => self.sample_keyed(cursor, t, out),
            Mapped::Extrapolate { at_end, dt } => {
                let (key, slope) = if at_end { (self.keys.len() - 1, &self.extension.end_slope) } else { (0, &self.extension.start_slope) };
                out.copy_from_slice(self.keys.value(key));
                for (o, s) in out.iter_mut().zip(slope) {
                    // Far out along a steep end (a vertical Bézier handle's slope is ~1e12)
                    // the line leaves f64: it saturates at the largest finite value. A flat end
                    // stays flat however far (no 0 × ∞).
                    if *s != 0.0 {
                        *o = (*o + dt * s).clamp(f64::MIN, f64::MAX);
                    }
                }
            }
            Mapped::Cycled { t, cycles, .. } => {
                self.sample_keyed(cursor, t, out);
                if cycles != 0.0 {
                    let (first, last) = (self.keys.value(0), self.keys.value(self.keys.len() - 1));
                    for c in 0..self.dim() {
                        let change = last[c] - first[c];
                        if change != 0.0 {
                            out[c] = (out[c] + cycles * change).clamp(f64::MIN, f64::MAX);
                        }
                    }
                }
            }
        }
    }

    /// Value inside the keyed range, held at the ends.
    #[inline]
    fn sample_keyed(&self, cursor: &mut SegmentCursor, t: f64, out: &mut [f64]) {
        match self.locate(cursor, t) {
            Located::Before => self.held_key(0, out),
            Located::After => self.held_key(self.keys.len() - 1, out),
            Located::Inside(seg) => self.segment_value(seg, t, out),
        }
    }

    /// Key `i`'s value as the curve holds it beyond the ends (a Bezier quaternion, stored as
    /// it is, normalised like the rest of its curve).
    fn held_key(&self, i: usize, out: &mut [f64]) {
        out.copy_from_slice(self.keys.value(i));
        if self.kind == TrackKind::Quat && self.interpolation == Interpolation::Bezier {
            out.copy_from_slice(&quat::normalize(&[out[0], out[1], out[2], out[3]]));
        }
    }

    /// Velocity `dP/dt` in value units per second at time `t`, infinity modes included.
    /// Zero for Step and outside Constant ends; for quaternion tracks, the derivative of the
    /// components. At a key the segment starting there is used (the right derivative); at the
    /// last key, the derivative arriving there.
    pub fn velocity(&self, cursor: &mut SegmentCursor, t: f64, out: &mut [f64]) {
        assert_eq!(out.len(), self.dim(), "output buffer must hold one value");
        let (t0, t1) = self.domain();
        let (t, reversed) = match self.extension.map(t, t0, t1) {
            Mapped::Plain(t) => (t, false),
            Mapped::Extrapolate { at_end, .. } => {
                out.copy_from_slice(if at_end { &self.extension.end_slope } else { &self.extension.start_slope });
                return;
            }
            Mapped::Cycled { t, reversed, .. } => (t, reversed),
        };
        match self.locate(cursor, t) {
            Located::Inside(seg) => {
                let (s0, dt) = self.keys.span(seg);
                self.segment_velocity(seg, (t - s0) / dt, out);
            }
            Located::After if t == t1 => out.copy_from_slice(&self.extension.end_slope),
            Located::Before | Located::After => out.fill(0.0),
        }
        if reversed {
            out.iter_mut().for_each(|v| *v = -*v);
        }
    }

    /// The value at global time `t` inside segment `seg` (no infinity handling; `t` in
    /// `[t_seg, t_seg+1)` as [`Self::locate`] finds it, or at most its end).
    #[inline(always)]
    pub fn segment_value(&self, seg: usize, t: f64, out: &mut [f64]) {
        let keys = &self.keys;
        match &self.segments {
            Segments::Poly(p) => p.value(keys, seg, t, out),
            Segments::Step => Step::value(keys, seg, out),
            Segments::Linear => Linear::value(keys, seg, t, out),
            Segments::Rotation(r) => r.value(keys, seg, t, out),
            Segments::Bezier(b) => b.value(keys, seg, t, out),
        }
    }

    /// Velocity in value units per second inside segment `seg` at local time `u ∈ [0, 1]`:
    /// exact for polynomial segments ([`poly`]), `Δv/Δt` for Linear, zero for Step and
    /// zero-length segments; a central difference of the components for rotations.
    pub fn segment_velocity(&self, seg: usize, u: f64, out: &mut [f64]) {
        if self.keys.span(seg).1 <= 0.0 {
            out.fill(0.0);
            return;
        }
        match &self.segments {
            Segments::Poly(p) => p.velocity(seg, u, out),
            Segments::Step => out.fill(0.0),
            Segments::Linear => Linear::velocity(&self.keys, seg, out),
            Segments::Rotation(r) => r.velocity(&self.keys, seg, u, out),
            Segments::Bezier(b) if b.is_rotation() => rotation::difference_velocity(&self.keys, seg, u, out, |t, q| b.value(&self.keys, seg, t, q)),
            Segments::Bezier(b) => b.velocity(seg, u, out),
        }
    }

    /// Acceleration `d²P/dt²` inside segment `seg` at local time `u`: exact for polynomial
    /// segments (at an ease switch point the branch that starts there); zero for the others
    /// (Step, Linear; rotations are not positions).
    pub fn segment_acceleration(&self, seg: usize, u: f64, out: &mut [f64]) {
        match &self.segments {
            Segments::Poly(p) => p.acceleration(seg, u, out),
            Segments::Bezier(b) if !b.is_rotation() && self.keys.span(seg).1 > 0.0 => b.acceleration(seg, u, out),
            // Exactly zero: a straight line, a held value, or an empty segment. A mode that
            // declares an acceleration gives it above (`modes.rs` tests each one against its
            // velocity), so a zero here is never a missing one.
            Segments::Linear | Segments::Step => out.fill(0.0),
            Segments::Bezier(_) if self.kind != TrackKind::Quat => out.fill(0.0),
            _ => {
                debug_assert!(
                    self.kind == TrackKind::Quat || !self.interpolation.has_derivative(),
                    "{:?} declares an acceleration it does not give",
                    self.interpolation
                );
                out.fill(0.0);
            }
        }
    }

    /// The speed function of segment `seg`, prepared for many evaluations (quadrature).
    #[must_use]
    pub fn segment_speed_fn(&self, seg: usize) -> SegmentSpeed<'_> {
        match &self.segments {
            Segments::Poly(p) => p.speed_fn(seg),
            _ => SegmentSpeed::Other { curve: self, seg },
        }
    }

    /// Speed `|dP/dt|` inside segment `seg` at local time `u`: the integrand of arc length.
    #[inline]
    pub fn segment_speed(&self, seg: usize, u: f64) -> f64 {
        if let Segments::Poly(p) = &self.segments {
            return p.speed_fn(seg).at(u);
        }
        let mut v = [0.0; 4];
        let v = &mut v[..self.dim()];
        self.segment_velocity(seg, u, v);
        norm(v)
    }

    /// `(|P′|, P′·P″)` in global time inside segment `seg` at local time `u`, in one pass:
    /// what arc length needs for `s′ = |P′|` and `s″ = P′·P″/|P′|`.
    pub fn segment_speed_derivatives(&self, seg: usize, u: f64) -> (f64, f64) {
        if let Segments::Poly(p) = &self.segments {
            return p.speed_derivatives(seg, u, self.dim());
        }
        let mut v = [0.0; 4];
        let mut a = [0.0; 4];
        self.segment_velocity(seg, u, &mut v[..self.dim()]);
        self.segment_acceleration(seg, u, &mut a[..self.dim()]);
        (norm(&v), v.iter().zip(&a).map(|(x, y)| x * y).sum())
    }

    /// `|P″|` inside segment `seg` at local time `u` (the one-sided `s″` at a stop).
    pub fn segment_acceleration_norm(&self, seg: usize, u: f64) -> f64 {
        let mut a = [0.0; 4];
        self.segment_acceleration(seg, u, &mut a[..self.dim()]);
        norm(&a)
    }

    /// Position inside segment `seg` at local time `u` (no infinity handling). Used by the
    /// arc-length integrator, which walks segments itself.
    pub fn segment_point(&self, seg: usize, u: f64, out: &mut [f64]) {
        let (t0, dt) = self.keys.span(seg);
        self.segment_value(seg, t0 + u * dt, out);
    }

    /// The local-time points inside segment `seg` where the curve's second derivative may
    /// jump (ease branch changes), sorted.
    #[must_use]
    pub fn segment_breaks(&self, seg: usize) -> Vec<f64> {
        match &self.segments {
            Segments::Poly(p) => p.breaks(seg).into_iter().flatten().collect(),
            _ => Vec::new(),
        }
    }

    /// The `(left, right)` handles of key `i`, component `c`, of a Bezier track as `(dt, dv)`
    /// from the key, after Blender's rules ([`crate::bezier`]); `None` for other tracks.
    #[must_use]
    pub fn bezier_handles(&self, i: usize, c: usize) -> Option<(crate::bezier::Offset, crate::bezier::Offset)> {
        match &self.segments {
            Segments::Bezier(b) if i < self.keys.len() && c < self.dim() => Some(b.handles(self.dim(), i, c)),
            _ => None,
        }
    }

    /// The infinity mode before the first key and after the last.
    #[must_use]
    pub fn infinity(&self) -> (Infinity, Infinity) {
        (self.extension.pre, self.extension.post)
    }
}

/// Euclidean norm.
#[inline]
fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
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
        let mut out = vec![0.0; self.curve.dim()];
        self.sample(t, &mut out);
        out
    }
}
