//! Export of Bezier tracks with per-key segment settings: Linear segments exactly as glTF
//! CUBICSPLINE, Constant and eased segments fitted within the bound with the measured error.
//! The exported keys are played here by glTF's own Hermite formula (the specification's
//! Appendix C), written out in the test, not by Tangent's curves.

use super::*;
use crate::model::{Easing, HandleType, Key, KeyInterpolation};

/// glTF CUBICSPLINE played at `t` from `[in, value, out]` triples of one component:
/// `p(s) = (2s³−3s²+1)v0 + td(s³−2s²+s)b0 + (−2s³+3s²)v1 + td(s³−s²)a1`.
fn play(times: &[f64], values: &[f64], t: f64) -> f64 {
    let i = times.partition_point(|&x| x <= t).clamp(1, times.len() - 1) - 1;
    let td = times[i + 1] - times[i];
    let s = ((t - times[i]) / td).clamp(0.0, 1.0);
    let (v0, b0, a1, v1) = (values[3 * i + 1], values[3 * i + 2], values[3 * (i + 1)], values[3 * (i + 1) + 1]);
    let (s2, s3) = (s * s, s * s * s);
    (2.0 * s3 - 3.0 * s2 + 1.0) * v0 + td * (s3 - 2.0 * s2 + s) * b0 + (-2.0 * s3 + 3.0 * s2) * v1 + td * (s3 - s2) * a1
}

fn keys(modes: &[KeyInterpolation]) -> Track {
    let values = [0.0, 3.0, -1.0, 2.0, 2.5];
    let keys = values
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let mut k = Key::new(0.4 * i as f64 + if i > 1 { 0.15 } else { 0.0 }, vec![v]);
            // Bézier segments with handles at thirds are what glTF CUBICSPLINE plays exactly.
            k = k.with_handles((HandleType::Vector, HandleType::Vector), vec![], vec![]);
            k.interpolation = modes.get(i).copied().unwrap_or(KeyInterpolation::Bezier);
            k.easing = Easing::Auto;
            k
        })
        .collect();
    Track::new("s", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys)
}

/// Largest difference between the track and the exported keys as glTF plays them, at 4,001
/// times over the keys.
fn largest_difference(track: &Track, p: &Prepared) -> f64 {
    let curve = TrackCurve::new(track).unwrap();
    let mut e = curve.evaluator();
    let (t0, t1) = (track.keys.time(0), track.keys.last().unwrap().time);
    (0..=4000).map(|i| t0 + (t1 - t0) * f64::from(i) / 4000.0).map(|t| (e.value_at(t)[0] - play(&p.times, &p.values, t)).abs()).fold(0.0, f64::max)
}

#[test]
fn linear_segments_export_exactly_as_cubics() {
    use KeyInterpolation::{Bezier, Linear};
    let t = keys(&[Linear, Bezier, Linear, Bezier]);
    let p = prepare(&t, Target::Weights, Format::Gltf, &ExportOptions::default(), (0.0, 1.75), None, false).unwrap();
    assert_eq!(p.form, Form::CubicSpline);
    assert_eq!(p.times.len(), 5, "no keys added");
    assert_eq!(p.max_error, 0.0);
    let d = largest_difference(&t, &p);
    assert!(d < 1e-12, "{d}");
}

#[test]
fn eased_segments_export_fitted_within_the_bound_with_the_measured_error() {
    use KeyInterpolation::{Back, Bezier, Bounce, Sine};
    let t = keys(&[Back, Bezier, Bounce, Sine]);
    for bound in [1e-3, 1e-4] {
        let options = ExportOptions { adaptive: Some(Bound::new(bound).unwrap()), ..ExportOptions::default() };
        let p = prepare(&t, Target::Weights, Format::Gltf, &options, (0.0, 1.75), None, false).unwrap();
        assert_eq!(p.form, Form::CubicSpline);
        assert!(p.times.len() > 5, "keys added inside the eased segments: {}", p.times.len());
        let d = largest_difference(&t, &p);
        assert!(d <= bound, "played {d} from the curve, bound {bound}");
        assert!(p.max_error > 0.0 && p.max_error <= bound, "reported {}", p.max_error);
        // The report is what was measured: within a tenth of what glTF plays.
        assert!((p.max_error - d).abs() <= 0.1 * d, "reported {} against {d} played", p.max_error);
        // three.js' InterpolateBezier gets the same pieces.
        let three = prepare(&t, Target::Property, Format::ThreeJson, &options, (0.0, 1.75), None, false).unwrap();
        assert_eq!((three.form, three.times.len()), (Form::Bezier, p.times.len()));
    }
}
