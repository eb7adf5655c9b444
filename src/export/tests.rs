//! Tests of the export rules: mapping, exact forms, tangents, the GLB container.

use super::*;
use crate::model::Key;

fn project(tracks: Vec<Track>) -> Project {
    Project { tracks, ..Project::default() }
}

fn no_progress(_: usize, _: usize) -> bool {
    true
}

#[test]
fn mapping_rules() {
    assert_eq!(Target::default_for(TrackKind::Vec3, Format::Gltf), Target::Translation);
    assert_eq!(Target::default_for(TrackKind::Quat, Format::Glb), Target::Rotation);
    assert_eq!(Target::default_for(TrackKind::Vec2, Format::Gltf), Target::Weights);
    assert_eq!(Target::default_for(TrackKind::Vec2, Format::ThreeJson), Target::Property);
    assert!(!Target::Rotation.fits(TrackKind::Vec3, Format::Gltf));
    assert!(!Target::Property.fits(TrackKind::Vec2, Format::Glb));
    assert!(Target::Property.fits(TrackKind::Vec2, Format::ThreeJson));
    let v2 = Track::new("v", TrackKind::Vec2, Interpolation::Linear).with_keys(vec![Key::new(0.0, vec![0.0, 0.0])]);
    let mut options = ExportOptions::default();
    options.targets.insert("v".into(), Target::Property);
    let err = export(&project(vec![v2]), Format::Gltf, &options, &no_progress).unwrap_err();
    assert!(err.to_string().contains("cannot go to Property in Gltf"), "{err}");
}

/// Hermite tangents per unit segment time become glTF's per-second tangents: with keys
/// (0, 0), (2, 4), (3, 4), seed TCB gives rb₀ = 1.5·4 − 0.5·ra₁ with ra₁ = ½(4 + 0) = 2,
/// so rb₀ = 5 over a 2 s segment: out-tangent 2.5 per second.
#[test]
fn cubicspline_tangents_are_rescaled_by_segment_duration() {
    let t =
        Track::new("s", TrackKind::Scalar, Interpolation::Tcb).with_keys(vec![Key::new(0.0, vec![0.0]), Key::new(2.0, vec![4.0]), Key::new(3.0, vec![4.0])]);
    let p = prepare(&t, Target::Weights, Format::Gltf, &ExportOptions::default(), (0.0, 3.0), None, false).unwrap();
    assert_eq!(p.form, Form::CubicSpline);
    // key 0: [in, value, out] = [0, 0, 2.5]; key 1: in = ra₁/2 = 1, out = rb₁/1 = 2.
    assert_eq!(&p.values[0..3], &[0.0, 0.0, 2.5]);
    assert_eq!(&p.values[3..6], &[1.0, 4.0, 2.0]);
    // glTF's Hermite with these tangents reproduces the curve mid-segment.
    let c = TrackCurve::new(&t).unwrap();
    let (s, td) = (0.5, 2.0);
    let h = |v0: f64, b0: f64, v1: f64, a1: f64| {
        (2.0 * s * s * s - 3.0 * s * s + 1.0) * v0
            + td * (s * s * s - 2.0 * s * s + s) * b0
            + (-2.0 * s * s * s + 3.0 * s * s) * v1
            + td * (s * s * s - s * s) * a1
    };
    assert!((h(0.0, 2.5, 4.0, 1.0) - c.evaluator().value_at(1.0)[0]).abs() < 1e-12);
}

#[test]
fn exact_forms_and_baking_per_format() {
    let form = |t: &Track, format: Format, options: &ExportOptions| exact_form(t, &TrackCurve::new(t).unwrap(), format, options).map(|f| f.form);
    let (plain_options, constant) = (ExportOptions::default(), ExportOptions { constant_speed: true, ..ExportOptions::default() });
    let legacy = ExportOptions { three_bezier: false, ..ExportOptions::default() };
    let tcb =
        Track::new("a", TrackKind::Vec3, Interpolation::Tcb).with_keys(vec![Key::new(0.0, vec![0.0; 3]), Key::new(1.0, vec![1.0; 3]).with_ease(0.5, 0.0)]);
    assert_eq!(form(&tcb, Format::Gltf, &plain_options), None, "ease needs baking");
    assert_eq!(form(&tcb, Format::ThreeJson, &plain_options), Some(Form::Bezier), "eased segments fitted with Bézier keys");
    let fitted = exact_form(&tcb, &TrackCurve::new(&tcb).unwrap(), Format::ThreeJson, &plain_options).unwrap();
    assert!(
        fitted.times.len() > 2 && fitted.max_error <= crate::DEFAULT_ACCURACY && fitted.max_error > 0.0,
        "{} keys, error {}",
        fitted.times.len(),
        fitted.max_error
    );
    let mut plain = tcb.clone();
    plain.keys[1].ease_to = 0.0;
    assert_eq!(form(&plain, Format::Gltf, &plain_options), Some(Form::CubicSpline));
    assert_eq!(form(&plain, Format::ThreeJson, &plain_options), Some(Form::Bezier));
    assert_eq!(form(&plain, Format::ThreeJson, &legacy), None, "three.js before r187 gets baked keys");
    assert_eq!(form(&plain, Format::Gltf, &constant), None, "constant speed is baked");
    let step = Track::new("b", TrackKind::Scalar, Interpolation::Step).with_keys(vec![Key::new(0.0, vec![1.0])]);
    assert_eq!(form(&step, Format::ThreeJson, &plain_options), Some(Form::Step));
    // Bezier: AutoClamped handles are not at thirds (glTF bakes), Vector handles are.
    let keys = vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![2.0]), Key::new(3.0, vec![1.0])];
    let auto = Track::new("c", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys.clone());
    assert_eq!(form(&auto, Format::Gltf, &plain_options), None);
    assert_eq!(form(&auto, Format::ThreeJson, &plain_options), Some(Form::Bezier));
    let vector = keys.into_iter().map(|k| k.with_handles((crate::model::HandleType::Vector, crate::model::HandleType::Vector), vec![], vec![])).collect();
    assert_eq!(form(&auto.clone().with_keys(vector), Format::Gltf, &plain_options), Some(Form::CubicSpline));
}

/// Keys (0, 0) and (3, 6) with Vector handles: control points a third of the way along,
/// (1, 2) and (2, 4); glTF tangents 3·2/3 = 2 per second at both ends.
#[test]
fn bezier_control_points_hand_values() {
    let keys = vec![Key::new(0.0, vec![0.0]), Key::new(3.0, vec![6.0])]
        .into_iter()
        .map(|k| k.with_handles((crate::model::HandleType::Vector, crate::model::HandleType::Vector), vec![], vec![]))
        .collect();
    let t = Track::new("v", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys);
    let curve = TrackCurve::new(&t).unwrap();
    let (ins, outs) = bezier::three_tangents(&curve);
    assert_eq!(&outs[0..2], &[1.0, 2.0]);
    assert_eq!(&ins[2..4], &[2.0, 4.0]);
    assert_eq!(bezier::cubic_spline_from_handles(&t, &curve).unwrap(), vec![0.0, 0.0, 2.0, 2.0, 6.0, 0.0]);
}

#[test]
fn glb_container_is_well_formed() {
    let p = crate::io::demo_project();
    let mut options = ExportOptions::default();
    options.targets.insert("path".into(), Target::Skip);
    options.targets.insert("path (time-adjusted)".into(), Target::Skip);
    options.targets.insert("tint".into(), Target::Weights);
    let (bytes, report) = export(&p, Format::Glb, &options, &no_progress).unwrap();
    assert_eq!(&bytes[0..4], b"glTF");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize, bytes.len());
    assert_eq!(bytes.len() % 4, 0);
    assert_eq!(report.len(), p.tracks.len() - 2);
    let (bytes, _) = export(&p, Format::Gltf, &options, &no_progress).unwrap();
    let root: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert!(root["buffers"][0]["uri"].as_str().unwrap().starts_with("data:application/octet-stream;base64,"));
}

#[test]
fn cancelling_stops_the_export() {
    let p = crate::io::demo_project();
    let err = export(&p, Format::ThreeJson, &ExportOptions::default(), &|_, _| false).unwrap_err();
    assert!(matches!(err, ExportError::Cancelled));
}
