//! The model of three.js r187's playback (`tangent::runtime::play(Runtime::Three, …)`) against
//! three.js itself (`tests/reference/three_runtime`, made by `tools/three_runtime_reference.sh`:
//! each file loaded by `AnimationClip.parse` or `GLTFLoader`, each track's interpolant evaluated
//! into a Float64Array). For every track the model is built from the keys three.js holds and
//! compared with three.js at every time it evaluated (keys, thirds and midpoints between
//! keys, a grid, and outside the keys): the demo exported as three.js JSON (InterpolateBezier,
//! linear, discrete; adaptive; baked for three.js before r187) and as GLB (CUBICSPLINE, LINEAR,
//! STEP, rotations; adaptive; made for Blender), and the import samples (InterpolateSmooth
//! and every other three.js interpolation, glTF files Blender and others wrote).
//!
//! The bound is 1e-9 × (1 + |v|) (three.js and the model compute in float64 from the same
//! float32 keys), except for `InterpolateBezier`, where three.js stops its Newton solve for
//! the curve parameter once the time is within 1e-10: there the bound is 1e-10 times the
//! segment's steepest |dv/dt| bound (the control polygon's largest slope), plus 1e-9. Rotations
//! are compared as unit quaternions (three.js' slerp of float32 keys is not exactly unit; its
//! CUBICSPLINE interpolant normalises; the model normalises) — except a quaternion
//! `InterpolateBezier` track, which three.js plays per component without normalising (3.3% off
//! unit length in `three_all_interpolations.json`'s `Bend`): its components are compared
//! before the model normalises them — with the keys' own distance from
//! unit length added to the bound: three.js' `slerpFlat` takes float32 keys as they are (up to
//! 2.2e-8 off unit length in `character_clip.json`), the model's Slerp normalises them.

mod common;

use common::{json_names, nums, reference_dir};
use serde_json::Value;
use tangent::export::Form;
use tangent::runtime::{play, Runtime, Written};

fn form(name: &str) -> Form {
    match name {
        "Step" => Form::Step,
        "Linear" => Form::Linear,
        "CubicSpline" => Form::CubicSpline,
        "Bezier" => Form::Bezier,
        "Smooth" => Form::Smooth,
        other => panic!("unknown form {other}"),
    }
}

fn written(t: &Value) -> Written {
    let tangents = (!t["in_tangents"].is_null()).then(|| (nums(&t["in_tangents"]), nums(&t["out_tangents"])));
    Written {
        form: form(t["form"].as_str().unwrap()),
        rotation: t["rotation"].as_bool().unwrap(),
        width: t["width"].as_u64().unwrap() as usize,
        times: nums(&t["times"]),
        values: nums(&t["values"]),
        tangents,
    }
}

fn unit(q: &[f64]) -> Vec<f64> {
    let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
    q.iter().map(|x| x / n).collect()
}

/// For a Bezier track, the steepest slope of the control polygon (|Δv / Δt| between
/// consecutive control points, over every component) of the segment around `t`.
fn bezier_slope(w: &Written, t: f64) -> f64 {
    let Some((ins, outs)) = &w.tangents else { return 0.0 };
    let n = w.times.len();
    let Some(i) = (0..n.saturating_sub(1)).find(|&i| t >= w.times[i] && t <= w.times[i + 1]) else { return 0.0 };
    let d = w.width;
    let mut steepest: f64 = 0.0;
    for c in 0..d {
        let p = [
            (w.times[i], w.values[i * d + c]),
            (outs[2 * (i * d + c)], outs[2 * (i * d + c) + 1]),
            (ins[2 * ((i + 1) * d + c)], ins[2 * ((i + 1) * d + c) + 1]),
            (w.times[i + 1], w.values[(i + 1) * d + c]),
        ];
        for k in 0..3 {
            let dt = (p[k + 1].0 - p[k].0).abs().max(1e-12);
            steepest = steepest.max((p[k + 1].1 - p[k].1).abs() / dt);
        }
    }
    steepest
}

#[test]
fn the_three_model_plays_what_three_js_plays() {
    let dir = reference_dir().join("three_runtime");
    let names = json_names(&dir);
    assert_eq!(names.len(), 10, "{names:?}");
    let (mut tracks, mut samples) = (0usize, 0usize);
    let mut forms = std::collections::BTreeMap::<String, usize>::new();
    let mut worst = (0.0f64, String::new());
    let mut worst_of = std::collections::BTreeMap::<String, f64>::new();
    let mut failures = Vec::new();
    for name in &names {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        assert_eq!(case["three"], "187", "{name}: made by three.js r187");
        for t in case["tracks"].as_array().unwrap() {
            let w = written(t);
            let label = format!("{name} {} ({:?})", t["name"].as_str().unwrap(), w.form);
            let played = play(Runtime::Three, &w).unwrap_or_else(|e| panic!("{label}: {e}"));
            let mut ev = played.curve().evaluator();
            let (at, want) = (nums(&t["sample_times"]), nums(&t["samples"]));
            let d = w.width;
            // Rotations: how far the float32 keys are from unit length, which three.js' slerp
            // takes as they are and the model normalises.
            let off_unit =
                if w.rotation { w.values.chunks(d).map(|q| (q.iter().map(|x| x * x).sum::<f64>().sqrt() - 1.0).abs()).fold(0.0, f64::max) } else { 0.0 };
            assert_eq!(want.len(), at.len() * d, "{label}");
            for (i, &time) in at.iter().enumerate() {
                let mut three = want[i * d..(i + 1) * d].to_vec();
                // three.js does not normalise a quaternion InterpolateBezier track (the object
                // then also scales by |q|²), and neither does the model's value: its components
                // are compared as they are.
                let mut got = played.value_at(&mut ev, time);
                assert_eq!(played.normalised(), w.rotation && w.form != Form::Bezier, "{label}");
                if played.normalised() {
                    three = unit(&three);
                    got = unit(&got);
                }
                let slack = if w.form == Form::Bezier { 1e-10 * bezier_slope(&w, time) } else { 0.0 } + off_unit;
                for c in 0..d {
                    let err = (got[c] - three[c]).abs() / (1.0 + three[c].abs());
                    let of = worst_of.entry(format!("{:?}{}", w.form, if w.rotation { " rotation" } else { "" })).or_default();
                    *of = of.max(err);
                    if err > worst.0 {
                        worst = (err, format!("{label} at t = {time}, component {c}: {} against three.js {}", got[c], three[c]));
                    }
                    if (got[c] - three[c]).abs() > 1e-9 * (1.0 + three[c].abs()) + slack && failures.len() < 20 {
                        failures.push(format!("{label} at t = {time}, component {c}: model {} three.js {}", got[c], three[c]));
                    }
                }
                samples += 1;
            }
            tracks += 1;
            *forms.entry(format!("{:?}", w.form)).or_default() += 1;
        }
    }
    println!("three.js r187 against the model: {tracks} tracks ({forms:?}), {samples} samples; largest {:.3e} × (1 + |v|): {}", worst.0, worst.1);
    for (form, err) in &worst_of {
        println!("  {form}: largest {err:.3e} × (1 + |v|)");
    }
    assert!(failures.is_empty(), "{} beyond the bound:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(tracks, 69, "every track of the ten files");
    for (f, least) in [("Step", 2), ("Linear", 2), ("CubicSpline", 2), ("Bezier", 2), ("Smooth", 1)] {
        assert!(forms.get(f).is_some_and(|&n| n >= least), "{f}: {forms:?}");
    }
    assert!(samples > 20_000, "{samples}");
}
