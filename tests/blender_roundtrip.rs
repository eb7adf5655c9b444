//! Blender 3.4 F-curves exported by the Blender add-on (`tools/blender/tangent_io.py`) evaluate
//! in Tangent as in Blender (`tests/reference/blender_roundtrip`, made by
//! `tools/blender/tangent_roundtrip.py`; docs/blender.md).
//!
//! The files hold every handle type, both auto smoothing modes, every key interpolation
//! (Constant, Linear, Bezier and Blender's ten easing equations) with each easing and random
//! back, amplitude and period (amplitude 0 and period 0 included), Constant and Linear
//! extrapolation with every kind of end key, and Cycles (Repeat, Repeat with Offset, on either
//! side) in both smoothing modes, at 24 and 30 fps. Each track is loaded with Tangent's own
//! loader and evaluated at the times Blender's `fcurve.evaluate` was sampled: before, between
//! and after the keys, never within 2e-3 frames of a key (or its image under Cycles), where
//! Blender returns the key's value without evaluating.
//!
//! Blender keeps keys and handles in float32 and evaluates in float32: values agree within
//! 2e-5 × (1 + |value|).

mod common;

use common::{pair, reference_dir};
use serde_json::Value;
use tangent::io::load_project;
use tangent::TrackCurve;

/// (project, its samples, tracks, samples) of each pair of files.
const FILES: [(&str, &str, usize, usize); 2] = [("roundtrip.ron", "samples.json", 141, 42_300), ("roundtrip_30fps.ron", "samples_30fps.json", 56, 16_800)];
const BOUND: f64 = 2e-5;

/// How one track compares: samples checked, and a message if any differ.
fn compare_track(file: &str, name: &str, case: &str, curve: &TrackCurve, series: &[Value]) -> (usize, Option<String>) {
    let mut ev = curve.evaluator();
    let (mut differ, mut first, mut worst) = (0, None, 0.0_f64);
    for s in series {
        let (t, want) = pair(s);
        let got = ev.value_at(t)[0];
        let err = (got - want).abs() / (1.0 + want.abs());
        if err.is_nan() || err > BOUND {
            differ += 1;
            first.get_or_insert((t, got, want));
            worst = worst.max(err);
        }
    }
    let message = first.map(|(t, got, want)| {
        format!(
            "{file}: \"{name}\" ({case}): {differ} of {} samples differ (largest {worst:.2e}); first at t = {t} s: Tangent {got}, Blender {want}",
            series.len()
        )
    });
    (series.len(), message)
}

#[test]
fn blender_fcurves_evaluate_the_same_in_tangent() {
    let dir = reference_dir().join("blender_roundtrip");
    let (mut checked, mut tracks_checked, mut failures, mut version) = (0, 0, Vec::new(), String::new());
    for (ron, json, tracks, samples) in FILES {
        let project = load_project(&dir.join(ron)).unwrap_or_else(|e| panic!("Tangent does not load the add-on's export: {e}"));
        let text = std::fs::read_to_string(dir.join(json)).unwrap();
        let reference: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(project.fps, reference["fps"].as_f64().unwrap(), "{ron}: fps");
        version = format!("Blender {}", reference["blender"].as_str().unwrap());
        let series = reference["tracks"].as_object().unwrap();
        assert_eq!((project.tracks.len(), series.len()), (tracks, tracks), "{ron}: tracks in the project and in {json}");
        let mut in_file = 0;
        for (name, series) in series {
            let track = project.track(name).unwrap_or_else(|| panic!("{ron}: no track \"{name}\""));
            let curve = TrackCurve::new(track).unwrap_or_else(|e| panic!("{ron}: track \"{name}\": {e}"));
            let case = reference["cases"][name].as_str().unwrap_or("?");
            let (n, message) = compare_track(ron, name, case, &curve, series.as_array().unwrap());
            in_file += n;
            failures.extend(message);
        }
        assert_eq!(in_file, samples, "{json}: samples");
        checked += in_file;
        tracks_checked += tracks;
    }
    assert!(failures.is_empty(), "{} of {tracks_checked} tracks differ from {version}:\n{}", failures.len(), failures.join("\n"));
    println!("{checked} samples of {tracks_checked} tracks agree with {version}");
    assert_eq!(checked, 59_100);
}
