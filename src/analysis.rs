//! What the editor's plots show, computed from a compiled curve with no GUI: the speed
//! `|dP/dt|` of a track segment by segment, the angular speed of a rotation track, and the key
//! pairs of a rotation track that lie in opposite hemispheres.
//!
//! Everything here uses only the public API of [`TrackCurve`] (`sample`, `velocity`,
//! `segment_speed`, `times`, `domain`), so it holds whatever the curve does inside.

use crate::curve::TrackCurve;
use crate::error::TrackError;
use crate::model::{Infinity, Interpolation, TangentMode, Track};
use crate::quat;
use crate::search::SegmentCursor;

/// Samples per segment in [`speed_series`], fewer on long tracks.
pub const SAMPLES_PER_SEGMENT: usize = 32;
/// Most points [`speed_series`] returns (about; each segment keeps at least two).
pub const MAX_SPEED_POINTS: usize = 4000;

/// [`speed_series_within`] with at most about [`MAX_SPEED_POINTS`] points.
#[must_use]
pub fn speed_series(curve: &TrackCurve, x0: f64, x1: f64) -> Vec<[f64; 2]> {
    speed_series_within(curve, x0, x1, MAX_SPEED_POINTS)
}

/// `(t, |dP/dt|)` over the keyed range within `[x0, x1]`, each segment from its start (right
/// limit) to its end (left limit), so a speed jump at a key shows as a vertical step.
///
/// Where more than a quarter of `max_points` segments are in view, the speed is sampled
/// evenly instead, `max_points` times (the editor passes its width in pixels: the jumps are
/// then narrower than a pixel).
#[must_use]
pub fn speed_series_within(curve: &TrackCurve, x0: f64, x1: f64, max_points: usize) -> Vec<[f64; 2]> {
    let max_points = max_points.max(8);
    let times = curve.times();
    let first = times.partition_point(|&t| t < x0).saturating_sub(1);
    let last = times.partition_point(|&t| t <= x1).min(curve.segment_count());
    if last.saturating_sub(first) > max_points / 4 {
        let mut cursor = SegmentCursor::new();
        let mut v = vec![0.0; curve.dim()];
        return (0..=max_points)
            .map(|i| {
                let t = x0 + (x1 - x0) * i as f64 / max_points as f64;
                curve.velocity(&mut cursor, t, &mut v);
                [t, v.iter().map(|x| x * x).sum::<f64>().sqrt()]
            })
            .collect();
    }
    let segs: Vec<usize> = (first..last).filter(|&s| times[s + 1] > times[s]).collect();
    let per = (max_points / segs.len().max(1)).clamp(2, SAMPLES_PER_SEGMENT);
    let mut out = Vec::with_capacity(segs.len() * (per + 1));
    for s in segs {
        for i in 0..=per {
            let u = i as f64 / per as f64;
            let t = times[s] + u * (times[s + 1] - times[s]);
            if (x0..=x1).contains(&t) {
                out.push([t, curve.segment_speed(s, u)]);
            }
        }
    }
    out
}

/// The other TCB tangent mode (Seed ↔ TimeAdjusted).
#[must_use]
pub fn other_tangent_mode(mode: TangentMode) -> TangentMode {
    match mode {
        TangentMode::Seed => TangentMode::TimeAdjusted,
        TangentMode::TimeAdjusted => TangentMode::Seed,
    }
}

/// `track` compiled with the other tangent mode, for the speed graph's dashed comparison.
pub fn curve_with_other_tangents(track: &Track) -> Result<TrackCurve, TrackError> {
    let mut t = track.clone();
    t.tangents = other_tangent_mode(t.tangents);
    TrackCurve::new(&t)
}

/// Keys `keys` of `track` compiled with the other tangent mode. A TCB segment depends only on
/// its two keys and their neighbours, so on segments `keys.start + 1 .. keys.end − 2` (of the
/// whole track) this is the same curve as [`curve_with_other_tangents`], at the cost of the
/// keys taken: the speed graph's comparison over what is in view of a long track.
pub fn other_tangents_between(track: &Track, keys: std::ops::Range<usize>) -> Result<TrackCurve, TrackError> {
    let part = Track {
        name: track.name.clone(),
        binding: track.binding.clone(),
        keys: track.keys[keys].to_vec().into(),
        tangents: other_tangent_mode(track.tangents),
        ..*track
    };
    TrackCurve::new(&part)
}

/// `track` compiled with interpolation `mode` and constant ends, for comparing rotation
/// interpolants over the same keys.
pub fn curve_with_interpolation(track: &Track, mode: Interpolation) -> Result<TrackCurve, TrackError> {
    let mut t = track.clone();
    t.interpolation = mode;
    t.pre_infinity = Infinity::Constant;
    t.post_infinity = Infinity::Constant;
    TrackCurve::new(&t)
}

/// Angular speed of a rotation curve (Quat, or Euler through its rotation) in radians per
/// second, at the midpoints of `n` equal steps over its keyed range: the angle between the
/// orientations at both ends of a step, divided by the step. Empty when the range is empty,
/// `n` is 0 or the curve is not a rotation.
#[must_use]
pub fn angular_speed(curve: &TrackCurve, n: usize) -> Vec<[f64; 2]> {
    let (t0, t1) = curve.domain();
    if n == 0 || !curve.kind().is_rotation() {
        return Vec::new();
    }
    let h = (t1 - t0) / n as f64;
    if h.is_nan() || h <= 0.0 {
        return Vec::new();
    }
    let mut cursor = SegmentCursor::new();
    let mut scratch = vec![0.0; curve.dim()];
    let mut at = |t: f64| curve.rotation_at(&mut cursor, t, &mut scratch).unwrap_or(quat::IDENTITY);
    (0..n)
        .map(|i| {
            let (ta, tb) = (t0 + i as f64 * h, t0 + (i + 1) as f64 * h);
            let (a, b) = (at(ta), at(tb));
            [0.5 * (ta + tb), quat::angle_between(&a, &b) / h]
        })
        .collect()
}

/// Indices `i` where keys `i` and `i + 1` lie in opposite hemispheres (`q_i · q_{i+1} < 0`),
/// where slerp and nlerp take the short way by flipping the second key.
#[must_use]
pub fn hemisphere_flips(track: &Track) -> Vec<usize> {
    track.keys.windows(2).enumerate().filter(|(_, w)| w[0].value.iter().zip(&w[1].value).map(|(x, y)| x * y).sum::<f64>() < 0.0).map(|(i, _)| i).collect()
}

/// Largest deviation from the mean of `values`, in percent of the mean (0 when the mean is 0).
#[must_use]
pub fn max_deviation_percent(values: impl Iterator<Item = f64> + Clone) -> f64 {
    let n = values.clone().count();
    if n == 0 {
        return 0.0;
    }
    let mean = values.clone().sum::<f64>() / n as f64;
    if mean > 0.0 {
        100.0 * values.map(|v| (v - mean).abs()).fold(0.0, f64::max) / mean
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Key, TrackKind};

    macro_rules! assert_approx_eq {
        ($a:expr, $b:expr, $eps:expr) => {{
            let (a, b): (f64, f64) = ($a, $b);
            assert!((a - b).abs() <= $eps, "{a} vs {b}: differ by {}", (a - b).abs());
        }};
    }

    #[test]
    fn speed_of_a_linear_segment_is_distance_over_time() {
        // (0, 0) at t = 0 to (3, 4) at t = 2: |Δv| / Δt = 5 / 2.
        let track = Track::new("p", TrackKind::Vec2, Interpolation::Linear).with_keys(vec![Key::new(0.0, vec![0.0, 0.0]), Key::new(2.0, vec![3.0, 4.0])]);
        let curve = TrackCurve::new(&track).unwrap();
        let series = speed_series(&curve, -1.0, 3.0);
        assert_eq!(series.len(), SAMPLES_PER_SEGMENT + 1);
        assert_eq!(series[0][0], 0.0);
        assert_eq!(series.last().unwrap()[0], 2.0);
        for [_, s] in series {
            assert_approx_eq!(s, 2.5, 1e-12);
        }
    }

    #[test]
    fn speed_series_keeps_to_the_window() {
        let keys = (0..5).map(|i| Key::new(f64::from(i), vec![f64::from(i * i)])).collect();
        let curve = TrackCurve::new(&Track::new("s", TrackKind::Scalar, Interpolation::Linear).with_keys(keys)).unwrap();
        let series = speed_series(&curve, 1.5, 2.5);
        assert!(series.iter().all(|p| (1.5..=2.5).contains(&p[0])));
        // Segment 1..2 has speed 3, segment 2..3 speed 5: both appear, with the step at t = 2.
        assert!(series.iter().any(|p| p[0] == 2.0 && p[1] == 3.0) && series.iter().any(|p| p[0] == 2.0 && p[1] == 5.0));
    }

    #[test]
    fn slerp_to_a_quarter_turn_in_one_second_turns_at_half_pi_per_second() {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let track = Track::new("r", TrackKind::Quat, Interpolation::Slerp)
            .with_keys(vec![Key::new(0.0, vec![0.0, 0.0, 0.0, 1.0]), Key::new(1.0, vec![0.0, 0.0, s, s])]);
        let curve = TrackCurve::new(&track).unwrap();
        let w = angular_speed(&curve, 10);
        assert_eq!(w.len(), 10);
        assert_approx_eq!(w[0][0], 0.05, 1e-12);
        for [_, speed] in w {
            assert_approx_eq!(speed, std::f64::consts::FRAC_PI_2, 1e-6);
        }
        assert!(angular_speed(&curve, 0).is_empty());
    }

    #[test]
    fn hemisphere_flip_is_where_the_dot_product_is_negative() {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let keys = vec![
            Key::new(0.0, vec![0.0, 0.0, 0.0, 1.0]),
            Key::new(1.0, vec![0.0, 0.0, s, s]),      // dot with the previous: s > 0
            Key::new(2.0, vec![0.0, 0.0, -s, -s]),    // the same rotation, other sign: dot −1
            Key::new(3.0, vec![0.0, 0.0, -1.0, 0.0]), // dot s > 0
        ];
        let track = Track::new("r", TrackKind::Quat, Interpolation::Slerp).with_keys(keys);
        assert_eq!(hemisphere_flips(&track), vec![1]);
    }

    #[test]
    fn the_other_tangent_mode_compiles_the_same_keys() {
        let track = Track::new("a", TrackKind::Scalar, Interpolation::Tcb).with_keys(vec![
            Key::new(0.0, vec![0.0]),
            Key::new(1.0, vec![1.0]),
            Key::new(3.0, vec![0.0]),
        ]);
        let other = curve_with_other_tangents(&track).unwrap();
        assert_eq!(other.tangent_mode(), other_tangent_mode(track.tangents));
        assert_eq!(other.times(), &[0.0, 1.0, 3.0]);
        assert_eq!(curve_with_interpolation(&track, Interpolation::Linear).unwrap().interpolation(), Interpolation::Linear);
    }

    #[test]
    fn deviation_from_the_mean_in_percent() {
        assert_approx_eq!(max_deviation_percent([1.0, 2.0, 3.0].into_iter()), 50.0, 1e-12);
        assert_eq!(max_deviation_percent([0.0, 0.0].into_iter()), 0.0);
        assert_eq!(max_deviation_percent(std::iter::empty()), 0.0);
    }

    /// The comparison curve of keys 10..30 of an uneven 40-key TCB track agrees with the
    /// whole track's on the segments it vouches for (11..27), value and speed; and at the
    /// ends of the part, where the neighbours are missing, it may not.
    #[test]
    fn the_other_tangents_of_a_part_match_the_whole_inside_it() {
        let mut t = 0.0;
        let keys = (0..40)
            .map(|i| {
                t += 0.3 + f64::from(i % 3) * 0.4;
                Key::new(t, vec![f64::from(i).sin() * 2.0, f64::from(i * i % 7)]).with_tcb(0.3, -0.2, 0.1)
            })
            .collect();
        let track = Track::new("p", TrackKind::Vec2, Interpolation::Tcb).with_keys(keys);
        let whole = curve_with_other_tangents(&track).unwrap();
        let part = other_tangents_between(&track, 10..30).unwrap();
        for seg in 11..27 {
            for u in [0.0, 0.3, 0.77, 1.0] {
                assert_eq!(part.segment_speed(seg - 10, u), whole.segment_speed(seg, u), "segment {seg} at {u}");
            }
        }
        assert_ne!(part.segment_speed(0, 0.0), whole.segment_speed(10, 0.0), "the part's first key has no left neighbour");
    }
}
