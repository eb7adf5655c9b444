//! Bezier tracks against Blender 3.4.1 (`tests/reference/blender_bezier`, made by
//! `tools/blender/bezier_reference.py`): the handles Blender stores after `fcurve.update()`
//! and the values of `fcurve.evaluate(t)`, for every handle type, uneven spacing, flat runs,
//! extremes, overshooting neighbours, overlapping and vertical handles, one and two keys.
//!
//! Blender keeps keys and handles in float32 and evaluates in float32, so the bounds are
//! relative to the case's scale: handles within 2e-6, values within 2e-5 (the bound).
//! Samples within 1e-4 of a key time are skipped: there Blender returns the key's value
//! without evaluating the curve (`snapped_sample_indices`).

mod common;

use common::{blender_handle_type, pair, reference_dir};
use serde_json::Value;
use tangent::{Infinity, Interpolation, Key, Track, TrackCurve, TrackKind};

/// The case as a Scalar Bezier track: Blender's stored key positions, and for Free and
/// Aligned sides the handles the script set (what Blender's rules then act on).
fn track(case: &Value) -> Track {
    let keys = case["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            let types = (blender_handle_type(&k["left_type"]), blender_handle_type(&k["right_type"]));
            let stored = |side: &str| k.get(format!("input_handle_{side}_offset")).or_else(|| k.get(format!("handle_{side}_offset"))).map(pair);
            let left = if types.0.is_automatic() { vec![] } else { vec![stored("left").unwrap()] };
            let right = if types.1.is_automatic() { vec![] } else { vec![stored("right").unwrap()] };
            Key::new(k["time"].as_f64().unwrap(), vec![k["value"].as_f64().unwrap()]).with_handles(types, left, right)
        })
        .collect();
    let mut t = Track::new("b", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys);
    if case["extrapolation"] == "LINEAR" {
        t.pre_infinity = Infinity::Linear;
        t.post_infinity = Infinity::Linear;
    }
    t
}

/// Cases where Blender's answer depends on something Tangent does not model: which handle
/// is selected (Tangent's Aligned keys always let the left side lead, as Blender does with
/// its default selection).
const SELECTION_DEPENDENT: &[&str] = &["aligned_not_collinear_left_unselected.json"];

#[test]
fn handles_and_values_match_blender() {
    let dir = reference_dir().join("blender_bezier");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && n != "verification.json")
        .collect();
    names.sort();
    assert!(names.len() >= 39, "{names:?}");
    let (mut checked_handles, mut checked_samples) = (0, 0);
    for name in names.iter().filter(|n| !SELECTION_DEPENDENT.contains(&n.as_str())) {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        let track = track(&case);
        let curve = TrackCurve::new(&track).unwrap_or_else(|e| panic!("{name}: {e}"));
        let scale = track.keys.iter().map(|k| k.value[0].abs()).fold(1.0, f64::max);
        let time_scale = track.keys.iter().map(|k| k.time.abs()).fold(1.0, f64::max);
        if track.keys.len() >= 2 {
            for (i, k) in case["keys"].as_array().unwrap().iter().enumerate() {
                let (left, right) = curve.bezier_handles(i, 0).unwrap();
                for (got, want) in [(left, pair(&k["handle_left_offset"])), (right, pair(&k["handle_right_offset"]))] {
                    let ok = (got.0 - want.0).abs() <= 2e-6 * time_scale && (got.1 - want.1).abs() <= 2e-6 * scale;
                    assert!(ok, "{name}: key {i}: handle {got:?}, Blender {want:?}");
                    checked_handles += 1;
                }
            }
        }
        let snapped: Vec<usize> = case["snapped_sample_indices"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
        let mut ev = curve.evaluator();
        for (j, s) in case["samples"].as_array().unwrap().iter().enumerate() {
            if snapped.contains(&j) {
                continue;
            }
            let (t, want) = pair(s);
            let got = ev.value_at(t)[0];
            assert!((got - want).abs() <= 2e-5 * scale, "{name}: sample {j}: t = {t}: got {got}, Blender {want} (diff {:e})", got - want);
            checked_samples += 1;
        }
    }
    println!("{checked_handles} handles and {checked_samples} samples agree with Blender");
    assert!(checked_handles > 300 && checked_samples > 5000, "{checked_handles} {checked_samples}");
}

/// Per case against the reference in `dir`: the largest handle difference over the case's time or value
/// scale, and the largest sample difference over its value scale, with the counts checked.
fn differences(dir: &std::path::Path) -> Vec<(String, f64, f64, usize, usize)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && n != "verification.json")
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names.iter().filter(|n| !SELECTION_DEPENDENT.contains(&n.as_str())) {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        let track = track(&case);
        let curve = TrackCurve::new(&track).unwrap_or_else(|e| panic!("{name}: {e}"));
        let scale = track.keys.iter().map(|k| k.value[0].abs()).fold(1.0, f64::max);
        let time_scale = track.keys.iter().map(|k| k.time.abs()).fold(1.0, f64::max);
        let (mut handle, mut value, mut handles, mut samples) = (0.0f64, 0.0f64, 0, 0);
        if track.keys.len() >= 2 {
            for (i, k) in case["keys"].as_array().unwrap().iter().enumerate() {
                let (left, right) = curve.bezier_handles(i, 0).unwrap();
                for (got, want) in [(left, pair(&k["handle_left_offset"])), (right, pair(&k["handle_right_offset"]))] {
                    handle = handle.max((got.0 - want.0).abs() / time_scale).max((got.1 - want.1).abs() / scale);
                    handles += 1;
                }
            }
        }
        let snapped: Vec<usize> = case["snapped_sample_indices"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
        let mut ev = curve.evaluator();
        for (j, s) in case["samples"].as_array().unwrap().iter().enumerate() {
            if !snapped.contains(&j) {
                let (t, want) = pair(s);
                value = value.max((ev.value_at(t)[0] - want).abs() / scale);
                samples += 1;
            }
        }
        out.push((name.clone(), handle, value, handles, samples));
    }
    out
}

/// Blender 5.0.1 (`tests/reference/blender_bezier/5.0.1`, the same script under the `bpy` 5.0.1 module)
/// stores and evaluates every case as 3.4.1 does but `free_wrong_side`: since 4.5 a Free handle on the wrong
/// side of its key is moved to 0.001 frames beyond the key, not onto it (4.2.23 as 3.4.1). Tangent follows
/// 3.4.1: every other case is held to the 3.4 bounds, and `free_wrong_side` to its measured difference.
#[test]
fn handles_and_values_against_blender_5_0() {
    let dir = reference_dir().join("blender_bezier/5.0.1");
    let (mut handles, mut samples) = (0, 0);
    let mut wrong_side = None;
    for (name, handle, value, h, s) in differences(&dir) {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(&name)).unwrap()).unwrap();
        assert_eq!(case["blender_version"], "5.0.1", "{name}");
        if name == "free_wrong_side.json" {
            println!("free_wrong_side: Tangent (3.4.1's rule) differs from Blender 5.0.1 by {handle:.3e} in handles (over the time scale) and {value:.3e} in values (over the value scale)");
            wrong_side = Some((handle, value));
            continue;
        }
        assert!(handle <= 2e-6 && value <= 2e-5, "{name}: handles {handle:e}, values {value:e} from Blender 5.0.1");
        (handles, samples) = (handles + h, samples + s);
    }
    println!("{handles} handles and {samples} samples agree with Blender 5.0.1");
    assert!(handles > 300 && samples > 5000, "{handles} {samples}");
    let (handle, value) = wrong_side.expect("free_wrong_side.json");
    // Measured: handles 2.001e-4 (0.001 frames over the time scale 5), values 9.613e-4 (value scale 1).
    assert!(handle > 1e-4 && handle <= WRONG_SIDE_5_0.0, "free_wrong_side handles {handle:e}");
    assert!(value > 1e-5 && value <= WRONG_SIDE_5_0.1, "free_wrong_side values {value:e}");
}

/// How far Tangent is from Blender 5.0.1 on `free_wrong_side` (handles, values; relative as above), measured.
const WRONG_SIDE_5_0: (f64, f64) = (2.01e-4, 9.7e-4);
