//! Reducing Euler tracks within an angle (SPEC §12): the angles fitted as a vector of three
//! (Bezier keys per angle, `reduce_values`' fit), the bound chosen so that the rotation — not
//! each angle — stays within the angle `A` of [`Tolerance::angle_deg`].
//!
//! **The bound on the angles.** For Euler angles `(a, b, c)` in any order the rotation is a
//! product `R = R₁(a)·R₂(b)·R₃(c)` of rotations about fixed axes. The rotation angle between two
//! rotations, `d(P, Q) = angle(P⁻¹Q)`, is a metric invariant under multiplication on either side
//! (the bi-invariant metric of SO(3)). Changing one angle at a time and using the triangle
//! inequality,
//!
//! `d(R(a,b,c), R(a+δa,b+δb,c+δc)) ≤ d(R₁(a), R₁(a+δa)) + d(R₂(b), R₂(b+δb)) + d(R₃(c), R₃(c+δc))
//!  = |δa| + |δb| + |δc| ≤ √3·|δ|`
//!
//! (the last step is Cauchy–Schwarz). The fit keeps the Euclidean distance `|δ|` of the angles
//! within its bound, so a fit within `A/√3` radians turns at most `A` anywhere: the guaranteed
//! start. The sum is rarely reached (it needs the three axes' turns to line up), so the bound
//! is then loosened — `m · A/√3` for `m` up to [`MAX_LOOSEN`] (first `m = √3`, the bound
//! orthogonal axes would allow), bisected [`BISECTIONS`] times — keeping the fit with the
//! fewest keys whose measured angle stays within `A` (times [`FIT_FRACTION`], a margin for
//! what lies between the points measured). The angle is measured
//! on the compiled curves as rotations ([`super::rotation::max_angle`], in the track's own
//! Euler order through [`TrackCurve::rotation_at`]) at every key time of the original and of
//! the reduced track and just before each jump; for a smooth original (Tcb, Cubic, Bezier)
//! also [`super::measure::DENSE_POINTS`] points between each two. A sampled original (Linear
//! keys, a take's frames) is held at its keys, as `reduce_values` holds it.

use super::rotation::max_angle;
use super::{fit_values, ReduceError, Reduced, Tolerance, FIT_FRACTION};
use crate::curve::TrackCurve;
use crate::model::Track;

/// The loosest bound tried, as a multiple of the guaranteed `A/√3`: `3·A/√3 = √3·A`.
pub const MAX_LOOSEN: f64 = 3.0;
/// Halvings of the interval between the loosest bound that held and the tightest that did not.
pub const BISECTIONS: usize = 3;
/// Tightenings of the guaranteed start (each halves it) when its fit measures over `A`: the
/// fit stays within its bound only where its refit rounds sufficed (`fit_values`).
const START_TIGHTENINGS: usize = 4;

/// Where the angle is measured (and densely between): every key time of the original and of
/// the reduced track, and just before each jump of the original (the rotation arriving).
fn measured_times(original: &Track, reduced: &Track) -> Vec<f64> {
    let mut times: Vec<f64> = original.keys.iter().chain(&reduced.keys).map(|k| k.time).collect();
    times.extend(original.keys.windows(2).filter(|w| w[0].time == w[1].time).map(|w| w[0].time.next_down()));
    times.sort_by(f64::total_cmp);
    times.dedup();
    times
}

/// The fewest Bezier keys for an Euler track whose rotation stays within `tol.angle_deg`
/// degrees of the original's (module docs). `max_error` is that angle in degrees.
pub(super) fn reduce(track: &Track, curve: &TrackCurve, tol: Tolerance) -> Result<Reduced, ReduceError> {
    let a = tol.angle_deg;
    let smooth = !super::is_sampled(track.interpolation);
    // One fit of the angles within `bound` radians, its rotation's angle measured.
    let attempt = |bound: f64| -> Result<Reduced, ReduceError> {
        let mut r = fit_values(track, curve, bound, None)?;
        r.max_error = max_angle(curve, &TrackCurve::new(&r.track)?, &measured_times(track, &r.track), smooth);
        Ok(r)
    };
    // Within the angle with a margin for what the dense points miss between them.
    let holds = |r: &Reduced| r.max_error <= a * FIT_FRACTION;
    let start = a.to_radians() / 3f64.sqrt();
    let fewer = |r: Reduced, best: &mut Reduced| {
        if holds(&r) && (r.keys_after, r.max_error) < (best.keys_after, best.max_error) {
            *best = r;
        }
    };
    // First `√3 · A/√3 = A` (what orthogonal axes would allow), then the loosest or the
    // guaranteed start, then bisection between the loosest that held and the tightest that
    // did not.
    let usual = attempt(start * 3f64.sqrt())?;
    let (mut low, mut high, mut best) = if holds(&usual) {
        let loosest = attempt(start * MAX_LOOSEN)?;
        if holds(&loosest) {
            let mut best = usual;
            fewer(loosest, &mut best);
            return Ok(best);
        }
        (start * 3f64.sqrt(), start * MAX_LOOSEN, usual)
    } else {
        let mut low = start;
        let mut found = None;
        for _ in 0..=START_TIGHTENINGS {
            let r = attempt(low)?;
            if holds(&r) {
                found = Some(r);
                break;
            }
            low *= 0.5;
        }
        let Some(found) = found else {
            return Ok(Reduced::kept(track, format!("no fit stayed within {a}° of the rotation")));
        };
        (low, start * 3f64.sqrt(), found)
    };
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (low + high);
        let r = attempt(mid)?;
        if holds(&r) {
            low = mid;
            fewer(r, &mut best);
        } else {
            high = mid;
        }
    }
    Ok(best)
}
