//! No NaN leaves the engine: a compiled track whose numbers would overflow `f64` is refused
//! ([`crate::TrackError::Overflow`], naming the segment's first key) instead of evaluating to
//! infinities and NaN. Values of ±1e308 in a TCB track, or key times ±1e308 apart in a Cubic
//! one, are valid `f64`s whose cubic coefficients are not.
//!
//! Bounds, per segment, with [`MARGIN`] to spare (so sums of a few such terms stay finite):
//!
//! - polynomial (TCB, Cubic), `p(e) = c3 e³ + c2 e² + c1 e + c0`, `e ∈ [0, 1]`:
//!   value `≤ Σ|cₖ|`; velocity `≤ (3|c3| + 2|c2| + |c1|)·max e′/Δt`; acceleration
//!   `≤ ((6|c3| + 2|c2|)·max e′² + (3|c3| + 2|c2| + |c1|)·max |e″|)/Δt²`;
//! - Linear: the value `v0·(1 − w) + v1·w` cannot overflow; velocity `|v1 − v0|/Δt`;
//! - Bézier: the value cubic's coefficients as above, and the derivatives with `x̂′` at its
//!   floor ([`super::bezier::MIN_TIME_SLOPE`]);
//! - Squad: its control points must be finite (they scale by ratios of key spans);
//! - Step, Slerp and Nlerp (unit quaternions) cannot overflow (their rows in the table of
//!   modes say so: `may_overflow: false`).
//!
//! Beyond the keys, Linear infinity and CycleOffset saturate at the largest finite value
//! (`infinity.rs`).

use super::{Segments, TrackCurve};

/// Factor every bound must stay finite under.
pub const MARGIN: f64 = 16.0;

fn ok(x: f64) -> bool {
    (x * MARGIN).is_finite()
}

/// The first segment (its first key) whose arithmetic would overflow, and what would.
pub(super) fn overflow(curve: &TrackCurve) -> Option<(usize, &'static str)> {
    // Whether its arithmetic can overflow is the mode's to declare (the table of modes).
    if !curve.interpolation.mode().may_overflow {
        return None;
    }
    let dim = curve.dim();
    match &curve.segments {
        Segments::Step | Segments::Rotation(super::rotation::Rotation::Slerp(_) | super::rotation::Rotation::Nlerp) => None,
        // Squad's control points scale tangents by ratios of neighbouring key spans: keys
        // 1 s and 1e155 s apart make them overflow.
        Segments::Rotation(super::rotation::Rotation::Squad { a, b, .. }) => a
            .iter()
            .zip(b)
            .position(|(qa, qb)| !qa.iter().chain(qb).all(|x| ok(*x)))
            .map(|i| (i.saturating_sub(1).min(curve.segment_count().saturating_sub(1)), "tangent")),
        Segments::Linear => (0..curve.segment_count()).find_map(|s| {
            let (_, dt) = curve.keys.span(s);
            let v = curve.keys.pair(s);
            let worst = (0..dim).map(|c| (v[dim + c] - v[c]).abs()).fold(0.0, f64::max);
            (dt > 0.0 && !(ok(worst) && ok(worst / dt))).then_some((s, "speed"))
        }),
        Segments::Poly(poly) => poly.segments().iter().enumerate().find_map(|(s, seg)| {
            // No ease: e′ = 1 and e″ = 0 everywhere (what the jets below give), known at once.
            let (mut e1, mut e2) = (1.0f64, 0.0f64);
            if !seg.ease.is_identity() {
                let [b0, b1] = seg.ease.breaks();
                for u in [0.0, 0.5, 1.0].into_iter().chain(b0).chain(b1).chain(b0.map(|a| a / 2.0)).chain(b1.map(|b| (1.0 + b) / 2.0)) {
                    let j = seg.ease.jet(u);
                    (e1, e2) = (e1.max(j.first.abs()), e2.max(j.second.abs()));
                }
            }
            for k in &seg.k[..dim] {
                let value = k.iter().map(|x| x.abs()).sum::<f64>();
                let d1 = 3.0 * k[0].abs() + 2.0 * k[1].abs() + k[2].abs();
                let d2 = 6.0 * k[0].abs() + 2.0 * k[1].abs();
                if !ok(value) {
                    return Some((s, "value"));
                }
                if !(ok(d1 * e1) && ok(d1 * e1 * seg.inv_dt)) {
                    return Some((s, "speed"));
                }
                let acc = (d2 * e1 * e1 + d1 * e2) * seg.inv_dt;
                if !(ok(acc) && ok(acc * seg.inv_dt)) {
                    return Some((s, "acceleration"));
                }
            }
            None
        }),
        Segments::Bezier(b) => b.parts(dim).enumerate().find_map(|(s, (inv_dt, comps))| {
            let floor = super::bezier::MIN_TIME_SLOPE;
            for y in &comps {
                let value = y.iter().map(|x| x.abs()).sum::<f64>();
                let d1 = y[1].abs() + 2.0 * y[2].abs() + 3.0 * y[3].abs();
                let d2 = 2.0 * y[2].abs() + 6.0 * y[3].abs();
                if !ok(value) {
                    return Some((s, "value"));
                }
                let speed = d1 / floor * inv_dt;
                if !(ok(d1 / floor) && ok(speed)) {
                    return Some((s, "speed"));
                }
                // (y″x̂′ − y′x̂″)/x̂′³ with x̂′ ≤ 3, |x̂″| ≤ 6.
                let acc = (3.0 * d2 + 6.0 * d1) / (floor * floor * floor);
                if !(ok(acc) && ok(acc * inv_dt) && ok(acc * inv_dt * inv_dt)) {
                    return Some((s, "acceleration"));
                }
            }
            None
        }),
    }
}
