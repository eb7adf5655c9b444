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
use crate::model::{Interpolation, Key, Track};
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
    /// [`Bezier::solvers`].
    others: u32,
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
    normalize: bool,
}

impl Bezier {
    /// Resolves every key's handles (Blender's rules) and builds the segments.
    pub fn compile(track: &Track, keys: &KeyTable) -> Self {
        let dim = keys.dim;
        let ends = Ends::of(track.pre_infinity, track.post_infinity);
        let mut handles = vec![((0.0, 0.0), (0.0, 0.0)); keys.values.len()];
        for c in 0..dim {
            let inputs: Vec<HandleInput> = track.keys.iter().enumerate().map(|(i, k)| input(k, keys.values[i * dim + c], c)).collect();
            for (i, h) in resolve_handles(&inputs, ends, track.auto_smoothing).into_iter().enumerate() {
                handles[i * dim + c] = h;
            }
        }
        let n = keys.len();
        let mut solvers = Vec::new();
        let segs = (0..n.saturating_sub(1))
            .map(|s| {
                let (t0, dt) = keys.span(s);
                let inv_dt = if dt > 0.0 { 1.0 / dt } else { 0.0 };
                let mut seg = Segment { inv_dt, shared_time: true, ..Segment::default() };
                if dt > 0.0 {
                    let comps: Vec<SegmentComponent> = (0..dim)
                        .map(|c| {
                            let (p0, p3) = ((t0, keys.values[s * dim + c]), (t0 + dt, keys.values[(s + 1) * dim + c]));
                            SegmentComponent::new(p0, handles[s * dim + c].1, handles[(s + 1) * dim + c].0, p3)
                        })
                        .collect();
                    for (c, k) in comps.iter().enumerate() {
                        for (power, y) in seg.y.iter_mut().zip(k.y) {
                            power[c] = y;
                        }
                    }
                    (seg.x, seg.time) = (comps[0].x, TimeSolver::new(&comps[0]));
                    seg.shared_time = comps.iter().all(|k| k.x == seg.x);
                    if !seg.shared_time {
                        seg.others = u32::try_from(solvers.len()).expect("fewer than 2³² Bézier components");
                        solvers.extend(comps[1..].iter().map(|k| (k.x, TimeSolver::new(k))));
                    }
                }
                seg
            })
            .collect();
        Self { segs, solvers, handles, normalize: track.kind == crate::model::TrackKind::Quat }
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
        let s = sg.time.solve(&sg.x, u);
        if sg.shared_time {
            copy_value(out, &sg.values(s));
        } else {
            for (c, o) in out.iter_mut().enumerate() {
                *o = self.component(sg, c).value(if c == 0 { s } else { self.parameter(sg, c, u) });
            }
        }
        if self.normalize {
            let q = quat::normalize(&[out[0], out[1], out[2], out[3]]);
            out.copy_from_slice(&q);
        }
    }

    /// `[dP/dt, d²P/dt²]` of component `c` at local time `u` of segment `seg`.
    fn derivatives(&self, seg: usize, c: usize, u: f64) -> [f64; 2] {
        let sg = &self.segs[seg];
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

    /// Whether values are normalised (Quat tracks).
    pub fn is_rotation(&self) -> bool {
        self.normalize
    }
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
