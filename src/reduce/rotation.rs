//! Reducing Quat tracks within an angle (SPEC §12): as Slerp keys kept from the samples, or
//! as component-wise Bezier keys (normalised when evaluated), whichever is fewer.
//!
//! The angle between two rotations `a`, `b` (unit, `b` turned into `a`'s hemisphere) is
//! `4·atan2(|a − b|, |a + b|)` — twice the angle between the quaternions, without `acos`'s loss
//! of precision near 0. For the Bezier fit, a fitted (not unit) `f` within `sin(θ/2)` of a unit
//! sample `q` is within `θ` of it after normalising (`sin φ ≤ |f − q|` for the 4D angle `φ`),
//! so the components are fitted with that distance bound; the result is then measured as
//! angles on the compiled curve like the Slerp result, at every sample (and for smooth
//! originals at [`super::measure::DENSE_POINTS`] points per piece between samples).

use super::fit::{fit_run, Samples};
use super::{bezier_track, ReduceError, Reduced, Tolerance, FIT_FRACTION, SAMPLES_PER_SEGMENT};
use crate::curve::TrackCurve;
use crate::model::{Interpolation, Key, Track};

/// The angle in degrees between rotations `a` and `b`.
#[must_use]
pub fn angle_deg(a: &[f64], b: &[f64]) -> f64 {
    let norm = |q: &[f64]| q.iter().map(|x| x * x).sum::<f64>().sqrt();
    let (na, nb) = (norm(a), norm(b));
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let s = if dot < 0.0 { -1.0 } else { 1.0 };
    let (mut d, mut p) = (0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (x / na, s * y / nb);
        d += (x - y) * (x - y);
        p += (x + y) * (x + y);
    }
    4.0 * d.sqrt().atan2(p.sqrt()).to_degrees()
}

/// Sample times and unit values in one hemisphere (each turned toward the previous).
fn samples(track: &Track, curve: &TrackCurve) -> (Vec<f64>, Vec<f64>) {
    let sampled = matches!(track.interpolation, Interpolation::Slerp | Interpolation::Nlerp);
    let mut times = Vec::new();
    for (i, k) in track.keys.iter().enumerate() {
        if times.last() == Some(&k.time) {
            continue;
        }
        times.push(k.time);
        if let (Some(n), false) = (track.keys.get(i + 1), sampled) {
            times.extend((1..SAMPLES_PER_SEGMENT).map(|j| k.time + (n.time - k.time) * j as f64 / SAMPLES_PER_SEGMENT as f64));
        }
    }
    let mut ev = curve.evaluator();
    let mut values: Vec<f64> = Vec::with_capacity(times.len() * 4);
    for &t in &times {
        let mut q = ev.value_at(t);
        if let Some(prev) = values.len().checked_sub(4).map(|i| &values[i..]) {
            if q.iter().zip(prev).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
                q.iter_mut().for_each(|x| *x = -*x);
            }
        }
        values.extend_from_slice(&q);
    }
    (times, values)
}

/// The largest angle between `reduced` and `original` (Quat or Euler curves, through
/// [`TrackCurve::rotation_at`]) at `times` and, for smooth originals, densely between them.
pub(crate) fn max_angle(original: &TrackCurve, reduced: &TrackCurve, times: &[f64], dense: bool) -> f64 {
    let (mut co, mut cr) = (crate::search::SegmentCursor::new(), crate::search::SegmentCursor::new());
    let (mut so, mut sr) = (vec![0.0; original.dim()], vec![0.0; reduced.dim()]);
    let mut angle = |t: f64| {
        let a = original.rotation_at(&mut co, t, &mut so).unwrap_or(crate::quat::IDENTITY);
        let b = reduced.rotation_at(&mut cr, t, &mut sr).unwrap_or(crate::quat::IDENTITY);
        angle_deg(&a, &b)
    };
    let mut worst: f64 = 0.0;
    for w in times.windows(2) {
        let steps = if dense { super::measure::DENSE_POINTS } else { 1 };
        for i in 0..steps {
            worst = worst.max(angle(w[0] + (w[1] - w[0]) * i as f64 / steps as f64));
        }
    }
    if let Some(&t) = times.last() {
        worst = worst.max(angle(t));
    }
    worst
}

/// The most a kept segment may turn, in degrees: below 180° with a margin, so every runtime's
/// shortest-arc slerp (three.js, glTF LINEAR) turns the same way as the original.
pub const MAX_SEGMENT_TURN_DEG: f64 = 170.0;

/// Whether the turn from `a` to `b` (hemisphere-continuous samples: no sign flip between them)
/// stays below [`MAX_SEGMENT_TURN_DEG`]: `a·b > cos(MAX/2)`.
#[must_use]
pub fn turn_fits(a: &[f64], b: &[f64]) -> bool {
    a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>() > (MAX_SEGMENT_TURN_DEG / 2.0).to_radians().cos()
}

fn quat4(q: &[f64]) -> [f64; 4] {
    [q[0], q[1], q[2], q[3]]
}

/// Greedy Slerp keys kept from the samples (hemisphere-continuous): each segment as long as
/// every sample inside it is within the angle of the slerp between its ends and its ends turn
/// less than [`MAX_SEGMENT_TURN_DEG`] ([`turn_fits`]).
pub(crate) fn slerp_keys(times: &[f64], values: &[f64], angle: f64) -> Vec<Key> {
    let q = |i: usize| &values[i * 4..i * 4 + 4];
    let fits = |a: usize, b: usize| {
        turn_fits(q(a), q(b))
            && (a + 1..b).all(|i| {
                let u = (times[i] - times[a]) / (times[b] - times[a]);
                angle_deg(&crate::quat::slerp(&quat4(q(a)), &quat4(q(b)), u), q(i)) <= angle
            })
    };
    let mut keep = vec![0];
    let mut a = 0;
    while a + 1 < times.len() {
        let good = crate::search::farthest_fitting(a, times.len() - 1, |b| fits(a, b));
        keep.push(good);
        a = good;
    }
    keep.into_iter().map(|i| Key::new(times[i], q(i).to_vec())).collect()
}

/// The fewer of the Slerp and the Bezier reduction that stays within the angle.
pub(super) fn reduce(track: &Track, curve: &TrackCurve, tol: Tolerance) -> Result<Reduced, ReduceError> {
    let dense = !matches!(track.interpolation, Interpolation::Slerp | Interpolation::Nlerp | Interpolation::Step);
    if track.keys.windows(2).any(|w| w[0].time == w[1].time) {
        return Ok(Reduced::kept(track, "rotation tracks with jumps are kept as they are"));
    }
    let (times, values) = samples(track, curve);
    let mut candidates = Vec::new();
    let slerp = Track { interpolation: Interpolation::Slerp, keys: slerp_keys(&times, &values, tol.angle_deg * FIT_FRACTION).into(), ..track.clone() };
    candidates.push(slerp);
    let chord = (tol.angle_deg.to_radians() / 2.0).sin() * FIT_FRACTION;
    let fitted = fit_run(&Samples { times: &times, values: &values, dim: 4 }, chord);
    candidates.push(bezier_track(track, vec![fitted]));
    let mut best: Option<Reduced> = None;
    for c in candidates {
        let rc = TrackCurve::new(&c)?;
        let err = max_angle(curve, &rc, &times, dense);
        if err <= tol.angle_deg && best.as_ref().is_none_or(|b| c.keys.len() < b.keys_after) {
            best = Some(Reduced { keys_before: track.keys.len(), keys_after: c.keys.len(), track: c, max_error: err, kept: None });
        }
    }
    Ok(best.unwrap_or_else(|| Reduced::kept(track, "no reduction stayed within the angle")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rotations about z by 0° and 90°: 90° apart, whichever sign the second quaternion has.
    #[test]
    fn angles_between_rotations() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        assert!((angle_deg(&[0.0, 0.0, 0.0, 1.0], &[0.0, 0.0, h, h]) - 90.0).abs() < 1e-12);
        assert!((angle_deg(&[0.0, 0.0, 0.0, 1.0], &[0.0, 0.0, -h, -h]) - 90.0).abs() < 1e-12);
        // 1e-6 degrees about x: half-angle 0.5e-6° in the quaternion.
        let a = (0.5e-6f64).to_radians();
        assert!((angle_deg(&[0.0, 0.0, 0.0, 1.0], &[a.sin(), 0.0, 0.0, a.cos()]) - 1e-6).abs() < 1e-15);
    }
}
