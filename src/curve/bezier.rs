//! Bezier tracks compiled to per-segment cubic Bézier components (the formulas and Blender's
//! handle rules are in [`crate::bezier`]). Each component has its own time handles, so each
//! solves `x̂(s) = u` itself, unless all components share them (automatic handles always
//! do), when one solve serves all. Quat tracks interpolate component-wise, then normalise.
//!
//! A segment is packed for one pass per sample: `1/Δt`, its first component's time cubic
//! `x̂` with its [`TimeSolver`] (a first guess and a step count, chosen at compile time), and
//! every component's value cubic `y` in power basis. A sample solves `x̂(s) = u` once and
//! evaluates all components at that `s` by Horner's rule. Segments whose components' `x̂`
//! differ keep the others' time cubics and solvers in a side table. A segment is 256 bytes
//! (the time cubic 24, the solver 88, four value cubics 128, `1/Δt` and the flags 16), plus
//! 112 per further distinct `x̂`: 26 MB for 100,000 keys.
//!
//! Derivatives in global time, with `u = (t − t0)/Δt`:
//!
//! ```text
//! dP/dt   = y′(s) / (x̂′(s) Δt)
//! d²P/dt² = (y″(s) x̂′(s) − y′(s) x̂″(s)) / (x̂′(s)³ Δt²)
//! ```
//!
//! A vertical handle (zero length in time) makes `x̂′ = 0` at its key: the slope there is
//! infinite. `x̂′` is then taken as at least [`MIN_TIME_SLOPE`], so the velocity stays finite
//! (very large) and no NaN leaves the engine.

use super::keys::{copy_value, KeyTable};
use super::modes::{Derivatives, Kinds, Mode, Splice, Written};
use super::Segments;
use crate::bezier::{resolve_handles, Ends, HandleInput, Offset, SegmentComponent, TimeSolver};
use crate::easing::{ease, ease_derivative};
use crate::model::{EaseParams, Easing, Interpolation, Key, KeyInterpolation, Track};
use crate::quat;

/// The least `dx̂/ds` used in derivatives (see the module docs).
pub const MIN_TIME_SLOPE: f64 = 1e-12;

#[derive(Clone, Debug, Default)]
struct Segment {
    inv_dt: f64,
    /// `x̂` of component 0, and of every component when `shared_time`.
    x: [f64; 3],
    /// Solves `x`.
    time: TimeSolver,
    /// The value cubics, lane by lane: `y[i][c]` is component `c`'s coefficient of `sⁱ`
    /// (`y(s) = ((y₃ s + y₂) s + y₁) s + y₀`), so one Horner pass serves the four lanes
    /// together; unused lanes are zero.
    y: [[f64; 4]; 4],
    /// All components have the same `x̂`: solve once.
    shared_time: bool,
    /// Otherwise the time cubics and solvers of components `1..dim` start here in
    /// [`Bezier::solvers`]; for an eased segment, its entry in [`Bezier::eased`].
    others: u32,
    /// The segment follows an easing equation (the key's interpolation is Back … Sine), not
    /// its cubics.
    eased: bool,
}

/// A segment that follows one of Blender's easing equations ([`crate::easing`]): per
/// component the start value and the change, and the start key's mode, easing and
/// parameters.
#[derive(Clone, Debug)]
struct Eased {
    mode: KeyInterpolation,
    easing: Easing,
    params: EaseParams,
    duration: f64,
    begin: [f64; 4],
    change: [f64; 4],
}

impl Eased {
    /// Component `c` at local time `u ∈ [0, 1]`.
    fn value(&self, c: usize, u: f64) -> f64 {
        ease(self.mode, self.easing, self.params, u * self.duration, self.begin[c], self.change[c], self.duration)
    }

    /// `[dP/dt, d²P/dt²]` of component `c` at local time `u`: the first analytic, the second
    /// a central difference of it over `10⁻⁶` of the segment (one-sided at its ends).
    fn derivatives(&self, c: usize, u: f64) -> [f64; 2] {
        let d = |t: f64| ease_derivative(self.mode, self.easing, self.params, t, self.begin[c], self.change[c], self.duration);
        let t = u * self.duration;
        let h = 1e-6 * self.duration;
        let (a, b) = ((t - h).max(0.0), (t + h).min(self.duration));
        let second = if b > a { (d(b) - d(a)) / (b - a) } else { 0.0 };
        [d(t), second]
    }
}

impl Segment {
    /// Component `c`'s value cubic `[y0, y1, y2, y3]`.
    fn cubic(&self, c: usize) -> [f64; 4] {
        self.y.map(|power| power[c])
    }

    /// Every lane's value at `s`, by Horner's rule: bit for bit [`SegmentComponent::value`].
    #[inline(always)]
    fn values(&self, s: f64) -> [f64; 4] {
        let y = &self.y;
        std::array::from_fn(|c| ((y[3][c] * s + y[2][c]) * s + y[1][c]) * s + y[0][c])
    }
}

/// Bezier's row of the table of modes (a Quat track interpolates components, then
/// normalises: its velocity is by differences, and it is no path).
pub(super) const MODE: Mode = Mode {
    interpolation: Interpolation::Bezier,
    summary: "Cubic Bézier segments from per-key handles, Blender's handle types",
    kinds: Kinds::Any,
    derivatives: Derivatives::Acceleration,
    may_overflow: true,
    splice: Splice::Whole,
    written: Written::Cubic,
    compile: |track, keys, _| (Segments::Bezier(Bezier::compile(track, keys)), None),
};

/// The segments of a Bezier track and the handles they were built from.
#[derive(Clone, Debug)]
pub(crate) struct Bezier {
    segs: Vec<Segment>,
    /// Time cubics and solvers of components `1..dim` of segments whose components' `x̂`
    /// differ.
    solvers: Vec<([f64; 3], TimeSolver)>,
    /// Resolved `(left, right)` handles, `key * dim + c`.
    handles: Vec<(Offset, Offset)>,
    /// The eased segments' equations.
    eased: Vec<Eased>,
    /// The first and last keys' interpolation, which decide Linear extrapolation (Blender's
    /// `fcurve_eval_keyframes_extrapolate`).
    end_modes: [KeyInterpolation; 2],
    normalize: bool,
}

impl Bezier {
    /// Resolves every key's handles (Blender's rules) and builds the segments.
    pub fn compile(track: &Track, keys: &KeyTable) -> Self {
        let dim = keys.dim;
        let ends = Ends::of(track.pre_infinity, track.post_infinity);
        let mut handles = vec![((0.0, 0.0), (0.0, 0.0)); keys.values.len()];
        let full = track.keys.as_full();
        for c in 0..dim {
            let inputs: Vec<HandleInput> = full.iter().enumerate().map(|(i, k)| input(k, keys.values[i * dim + c], c)).collect();
            for (i, h) in resolve_handles(&inputs, ends, track.auto_smoothing).into_iter().enumerate() {
                handles[i * dim + c] = h;
            }
        }
        let n = keys.len();
        let mut solvers = Vec::new();
        let mut eased = Vec::new();
        let segs = (0..n.saturating_sub(1)).map(|s| segment(&full[s], keys, &handles, s, &mut solvers, &mut eased)).collect();
        let end_modes = [full.first(), full.last()].map(|k| k.map_or(KeyInterpolation::Bezier, |k| k.interpolation));
        Self { segs, solvers, handles, eased, end_modes, normalize: track.kind == crate::model::TrackKind::Quat }
    }

    /// Component `c` of segment `sg`: its time and value cubics.
    fn component(&self, sg: &Segment, c: usize) -> SegmentComponent {
        let x = if c == 0 || sg.shared_time { sg.x } else { self.solvers[sg.others as usize + c - 1].0 };
        SegmentComponent { x, y: sg.cubic(c) }
    }

    /// `s` for local time `u` in component `c` of segment `sg`.
    #[inline]
    fn parameter(&self, sg: &Segment, c: usize, u: f64) -> f64 {
        if c == 0 || sg.shared_time {
            sg.time.solve(&sg.x, u)
        } else {
            let (x, solver) = &self.solvers[sg.others as usize + c - 1];
            solver.solve(x, u)
        }
    }

    /// Resolved `(left, right)` handles of key `i`, component `c`.
    pub fn handles(&self, dim: usize, i: usize, c: usize) -> (Offset, Offset) {
        self.handles[i * dim + c]
    }

    /// The value at global time `t` inside segment `seg`. Inlined into the sampling loop for
    /// the common case (one time solve, no normalisation); the rest is a call.
    #[inline(always)]
    pub fn value(&self, keys: &KeyTable, seg: usize, t: f64, out: &mut [f64]) {
        let sg = &self.segs[seg];
        let u = (t - keys.times[seg]) * sg.inv_dt;
        if sg.shared_time && !self.normalize {
            copy_value(out, &sg.values(sg.time.solve(&sg.x, u)));
        } else {
            self.value_apart(sg, u, out);
        }
    }

    /// [`Self::value`] where components solve apart or the value is a quaternion.
    #[inline(never)]
    fn value_apart(&self, sg: &Segment, u: f64, out: &mut [f64]) {
        if sg.eased {
            let e = &self.eased[sg.others as usize];
            for (c, o) in out.iter_mut().enumerate() {
                *o = e.value(c, u);
            }
        } else {
            self.cubic_value(sg, u, out);
        }
        if self.normalize {
            let q = quat::normalize(&[out[0], out[1], out[2], out[3]]);
            out.copy_from_slice(&q);
        }
    }

    /// The value of a (not eased) segment from its cubics.
    fn cubic_value(&self, sg: &Segment, u: f64, out: &mut [f64]) {
        let s = sg.time.solve(&sg.x, u);
        if sg.shared_time {
            copy_value(out, &sg.values(s));
        } else {
            for (c, o) in out.iter_mut().enumerate() {
                *o = self.component(sg, c).value(if c == 0 { s } else { self.parameter(sg, c, u) });
            }
        }
    }

    /// `[dP/dt, d²P/dt²]` of component `c` at local time `u` of segment `seg`.
    fn derivatives(&self, seg: usize, c: usize, u: f64) -> [f64; 2] {
        let sg = &self.segs[seg];
        if sg.eased {
            return self.eased[sg.others as usize].derivatives(c, u);
        }
        let k = &self.component(sg, c);
        let s = self.parameter(sg, c, u);
        let (x1, x2) = k.time_derivatives(s);
        let x1 = x1.max(MIN_TIME_SLOPE);
        let (y1, y2) = k.value_derivatives(s);
        [y1 / x1 * sg.inv_dt, (y2 * x1 - y1 * x2) / (x1 * x1 * x1) * sg.inv_dt * sg.inv_dt]
    }

    /// `dP/dt` at local time `u` of segment `seg` (values; Quat tracks difference instead).
    pub fn velocity(&self, seg: usize, u: f64, out: &mut [f64]) {
        for (c, o) in out.iter_mut().enumerate() {
            *o = self.derivatives(seg, c, u)[0];
        }
    }

    /// `d²P/dt²` at local time `u` of segment `seg`.
    pub fn acceleration(&self, seg: usize, u: f64, out: &mut [f64]) {
        for (c, o) in out.iter_mut().enumerate() {
            *o = self.derivatives(seg, c, u)[1];
        }
    }

    /// Per segment `1/Δt` and the value cubics of its first `dim` components (for the
    /// overflow check, `super::finite`).
    pub fn parts(&self, dim: usize) -> impl Iterator<Item = (f64, Vec<[f64; 4]>)> + '_ {
        self.segs.iter().map(move |s| (s.inv_dt, (0..dim).map(|c| s.cubic(c)).collect()))
    }

    /// Linear extrapolation's slope beyond the first (`at_end = false`) or last key, as
    /// Blender's `fcurve_eval_keyframes_extrapolate`: zero when that key's interpolation is
    /// Constant; the secant to its neighbouring key when Linear; otherwise the slope of its
    /// outer handle (the first key's left, the last key's right), zero where that handle has
    /// no extent in time.
    pub fn end_slope(&self, keys: &KeyTable, at_end: bool, out: &mut [f64]) {
        let n = keys.len();
        let dim = keys.dim;
        out.fill(0.0);
        if n == 0 {
            return;
        }
        // A lone key extrapolates along its handles too (Blender never recomputes them).
        let (end, neighbour) = if at_end { (n - 1, n.saturating_sub(2)) } else { (0, 1.min(n - 1)) };
        match self.end_modes[usize::from(at_end)] {
            KeyInterpolation::Constant => {}
            KeyInterpolation::Linear if n < 2 => {}
            KeyInterpolation::Linear => {
                let dt = keys.times[neighbour] - keys.times[end];
                if dt != 0.0 {
                    for (c, o) in out.iter_mut().enumerate() {
                        *o = (keys.values[neighbour * dim + c] - keys.values[end * dim + c]) / dt;
                    }
                }
            }
            _ => {
                for (c, o) in out.iter_mut().enumerate() {
                    let (left, right) = self.handles[end * dim + c];
                    let (dt, dv) = if at_end { right } else { left };
                    // A near-vertical stored handle would give an infinite slope: held instead.
                    if dt != 0.0 && (dv / dt).is_finite() {
                        *o = dv / dt;
                    }
                }
            }
        }
    }

    /// Whether values are normalised (Quat tracks).
    pub fn is_rotation(&self) -> bool {
        self.normalize
    }
}

/// Segment `s` of `track`: by its start key's interpolation, a Bézier from the resolved
/// `handles`, a Constant segment (the start value throughout; the curve jumps at the next
/// key), a Linear one (`x̂(s) = s`, `y` the straight line), or an eased one (an entry in
/// `eased`; its cubics are the straight line, for the overflow check only).
fn segment(key: &Key, keys: &KeyTable, handles: &[(Offset, Offset)], s: usize, solvers: &mut Vec<([f64; 3], TimeSolver)>, eased: &mut Vec<Eased>) -> Segment {
    let dim = keys.dim;
    let (t0, dt) = keys.span(s);
    let inv_dt = if dt > 0.0 { 1.0 / dt } else { 0.0 };
    let mut seg = Segment { inv_dt, shared_time: true, ..Segment::default() };
    if dt <= 0.0 {
        return seg;
    }
    let ends = |c: usize| (keys.values[s * dim + c], keys.values[(s + 1) * dim + c]);
    let line = |c: usize, flat: bool| {
        let (v0, v1) = ends(c);
        SegmentComponent { x: [1.0, 0.0, 0.0], y: [v0, if flat { 0.0 } else { v1 - v0 }, 0.0, 0.0] }
    };
    let comps: Vec<SegmentComponent> = match key.interpolation {
        KeyInterpolation::Bezier => (0..dim)
            .map(|c| {
                let (v0, v1) = ends(c);
                SegmentComponent::new((t0, v0), handles[s * dim + c].1, handles[(s + 1) * dim + c].0, (t0 + dt, v1))
            })
            .collect(),
        KeyInterpolation::Constant => (0..dim).map(|c| line(c, true)).collect(),
        _ => (0..dim).map(|c| line(c, false)).collect(),
    };
    for (c, k) in comps.iter().enumerate() {
        for (power, y) in seg.y.iter_mut().zip(k.y) {
            power[c] = y;
        }
    }
    (seg.x, seg.time) = (comps[0].x, TimeSolver::new(&comps[0]));
    if key.interpolation.is_easing() {
        let mut e = Eased { mode: key.interpolation, easing: key.easing, params: key.ease_params(), duration: dt, begin: [0.0; 4], change: [0.0; 4] };
        for c in 0..dim {
            let (v0, v1) = ends(c);
            (e.begin[c], e.change[c]) = (v0, v1 - v0);
        }
        seg.others = u32::try_from(eased.len()).expect("fewer than 2³² eased segments");
        (seg.eased, seg.shared_time) = (true, false);
        eased.push(e);
        return seg;
    }
    seg.shared_time = comps.iter().all(|k| k.x == seg.x);
    if !seg.shared_time {
        seg.others = u32::try_from(solvers.len()).expect("fewer than 2³² Bézier components");
        solvers.extend(comps[1..].iter().map(|k| (k.x, TimeSolver::new(k))));
    }
    seg
}

/// Component `c` of key `k` for the handle rules.
fn input(k: &Key, value: f64, c: usize) -> HandleInput {
    HandleInput { time: k.time, value, types: k.handles, left: k.left.get(c).copied(), right: k.right.get(c).copied() }
}

#[cfg(test)]
mod tests {
    /// The sizes the module docs quote.
    #[test]
    fn segment_is_256_bytes() {
        assert_eq!(std::mem::size_of::<super::Segment>(), 256);
        assert_eq!(std::mem::size_of::<([f64; 3], crate::bezier::TimeSolver)>(), 112);
        assert_eq!(std::mem::size_of::<crate::bezier::TimeSolver>(), 88);
    }
}
