//! Bezier tracks compiled to per-segment cubic Bézier components (the formulas and Blender's
//! handle rules are in [`crate::bezier`]). Each component has its own time handles, so each
//! solves `x̂(s) = u` itself, unless all components share them (automatic handles always
//! do), when one solve serves all. Quat tracks interpolate component-wise, then normalise.
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

use super::keys::KeyTable;
use crate::bezier::{resolve_handles, HandleInput, Offset, SegmentComponent};
use crate::model::{Infinity, Key, Track};
use crate::quat;

/// The least `dx̂/ds` used in derivatives (see the module docs).
pub const MIN_TIME_SLOPE: f64 = 1e-12;

#[derive(Clone, Debug)]
struct Segment {
    inv_dt: f64,
    comps: [SegmentComponent; 4],
    /// All components have the same `x̂`: solve once.
    shared_time: bool,
}

/// The segments of a Bezier track and the handles they were built from.
#[derive(Clone, Debug)]
pub(crate) struct Bezier {
    segs: Vec<Segment>,
    /// Resolved `(left, right)` handles, `key * dim + c`.
    handles: Vec<(Offset, Offset)>,
    normalize: bool,
}

impl Bezier {
    /// Resolves every key's handles (Blender's rules) and builds the segments.
    pub fn compile(track: &Track, keys: &KeyTable) -> Self {
        let dim = keys.dim;
        let held_before = track.pre_infinity != Infinity::Linear;
        let held_after = track.post_infinity != Infinity::Linear;
        let mut handles = vec![((0.0, 0.0), (0.0, 0.0)); keys.values.len()];
        for c in 0..dim {
            let inputs: Vec<HandleInput> = track.keys.iter().enumerate().map(|(i, k)| input(k, keys.values[i * dim + c], c)).collect();
            for (i, h) in resolve_handles(&inputs, held_before, held_after).into_iter().enumerate() {
                handles[i * dim + c] = h;
            }
        }
        let n = keys.len();
        let segs = (0..n.saturating_sub(1))
            .map(|s| {
                let (t0, dt) = keys.span(s);
                let mut seg = Segment { inv_dt: if dt > 0.0 { 1.0 / dt } else { 0.0 }, comps: Default::default(), shared_time: true };
                if dt > 0.0 {
                    for c in 0..dim {
                        let (p0, p3) = ((t0, keys.values[s * dim + c]), (t0 + dt, keys.values[(s + 1) * dim + c]));
                        seg.comps[c] = SegmentComponent::new(p0, handles[s * dim + c].1, handles[(s + 1) * dim + c].0, p3);
                    }
                    seg.shared_time = seg.comps[..dim].iter().all(|k| k.x == seg.comps[0].x);
                }
                seg
            })
            .collect();
        Self { segs, handles, normalize: track.kind == crate::model::TrackKind::Quat }
    }

    /// Resolved `(left, right)` handles of key `i`, component `c`.
    pub fn handles(&self, dim: usize, i: usize, c: usize) -> (Offset, Offset) {
        self.handles[i * dim + c]
    }

    /// The value at global time `t` inside segment `seg`.
    #[inline]
    pub fn value(&self, keys: &KeyTable, seg: usize, t: f64, out: &mut [f64]) {
        let sg = &self.segs[seg];
        let u = (t - keys.times[seg]) * sg.inv_dt;
        let mut s = sg.comps[0].parameter_at(u);
        for (c, o) in out.iter_mut().enumerate() {
            if c > 0 && !sg.shared_time {
                s = sg.comps[c].parameter_at(u);
            }
            *o = sg.comps[c].value(s);
        }
        if self.normalize {
            let q = quat::normalize(&[out[0], out[1], out[2], out[3]]);
            out.copy_from_slice(&q);
        }
    }

    /// `[dP/dt, d²P/dt²]` of component `c` at local time `u` of segment `seg`.
    fn derivatives(&self, seg: usize, c: usize, u: f64) -> [f64; 2] {
        let sg = &self.segs[seg];
        let k = &sg.comps[c];
        let s = k.parameter_at(u);
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

    /// Per segment `1/Δt` and its first `dim` components (for the overflow check,
    /// `super::finite`).
    pub fn parts(&self, dim: usize) -> impl Iterator<Item = (f64, &[SegmentComponent])> + '_ {
        self.segs.iter().map(move |s| (s.inv_dt, &s.comps[..dim]))
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
