//! The model of Blender 3.4's glTF import (`tangent::runtime::blender`) against Blender 3.4.1
//! itself (`tests/reference/blender_gltf_import`, made by
//! `tools/blender/gltf_import_reference.py`): for every animation channel of each GLB, the
//! model is built from the keys the file holds, and every F-curve Blender's importer made from
//! that channel is compared with the model's component (through the importer's axis
//! conversion) at each frame Blender evaluated, within 1e-5. The files: the demo exported with
//! `--adaptive 1e-4` (CUBICSPLINE keys fitted for the specification, LINEAR, STEP and a LINEAR
//! rotation) imported at 24 and at 30 fps, and the shared sample `bezier_mover.glb` (CUBICSPLINE
//! translation, rotation and scale), as Blender's exporter wrote it and as Tangent exports it
//! back.

mod common;

use common::{json_names, nums, reference_dir};
use serde_json::Value;
use tangent::export::{Form, Target};
use tangent::runtime::{blender, Written};

const BOUND: f64 = 1e-5;

fn target(path: &str) -> Target {
    match path {
        "translation" => Target::Translation,
        "rotation" => Target::Rotation,
        "scale" => Target::Scale,
        "weights" => Target::Weights,
        other => panic!("unknown path {other}"),
    }
}

fn form(interpolation: &str) -> Form {
    match interpolation {
        "STEP" => Form::Step,
        "LINEAR" => Form::Linear,
        "CUBICSPLINE" => Form::CubicSpline,
        other => panic!("unknown interpolation {other}"),
    }
}

fn written(s: &Value) -> Written {
    let (times, values) = (nums(&s["times"]), nums(&s["values"]));
    let form = form(s["interpolation"].as_str().unwrap());
    let per_key = if form == Form::CubicSpline { 3 } else { 1 };
    let width = values.len() / (times.len() * per_key);
    Written { form, rotation: s["path"] == "rotation", width, times, values, tangents: None }
}

/// Which component of a channel to `target` an F-curve is (a shape key `target_i` is weight i).
fn component(target: Target, fc: &Value) -> usize {
    let (path, index) = (fc["data_path"].as_str().unwrap(), fc["array_index"].as_u64().unwrap() as usize);
    if target == Target::Weights {
        let digits: String = path.trim_start_matches("key_blocks[\"target_").chars().take_while(char::is_ascii_digit).collect();
        return digits.parse().unwrap_or_else(|_| panic!("shape key of {path}"));
    }
    (0..4)
        .find(|&c| blender::fcurve_of(target, c).is_some_and(|(p, i, _)| p == path && i == index))
        .unwrap_or_else(|| panic!("no component for {path}[{index}]"))
}

fn is_weights(fc: &Value) -> bool {
    fc["data_path"].as_str().unwrap().starts_with("key_blocks[")
}

#[test]
fn the_blender_model_plays_what_blender_imports() {
    let dir = reference_dir().join("blender_gltf_import");
    let names = json_names(&dir);
    assert_eq!(names, ["demo_adaptive.json", "demo_adaptive_30fps.json", "hemispheres.json", "mover_blender.json", "mover_exported.json"]);
    let (mut fcurves, mut samples, mut worst) = (0usize, 0usize, (0.0f64, String::new()));
    let mut failures = Vec::new();
    for name in &names {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        let fps = case["fps"].as_f64().unwrap();
        let mut matched = 0;
        for s in case["samplers"].as_array().unwrap() {
            let t = target(s["path"].as_str().unwrap());
            let w = written(s);
            let played = blender::play(&w, fps).unwrap();
            let mut ev = played.curve().evaluator();
            let node = &s["node"];
            let mine = case["fcurves"].as_array().unwrap().iter().filter(|fc| &fc["node"] == node && is_weights(fc) == (t == Target::Weights));
            let mine: Vec<&Value> = mine.filter(|fc| t == Target::Weights || blender::fcurve_of(t, 0).unwrap().0 == fc["data_path"]).collect();
            assert_eq!(mine.len(), w.width, "{name}: node {node} {t:?}: one F-curve per component");
            for fc in mine {
                let c = component(t, fc);
                let sign = blender::fcurve_of(t, c).unwrap().2;
                for pair in fc["samples"].as_array().unwrap() {
                    let (frame, want) = (pair[0].as_f64().unwrap(), pair[1].as_f64().unwrap());
                    let got = sign * ev.value_at(frame / fps)[c];
                    let d = (got - want).abs();
                    if d > worst.0 {
                        worst = (d, format!("{name} {node} {}[{}] frame {frame}", fc["data_path"], fc["array_index"]));
                    }
                    if d > BOUND {
                        failures.push(format!("{name} {node} {}[{}] frame {frame}: model {got}, Blender {want}", fc["data_path"], fc["array_index"]));
                    }
                    samples += 1;
                }
                fcurves += 1;
                matched += 1;
            }
        }
        assert_eq!(matched, case["fcurves"].as_array().unwrap().len(), "{name}: every F-curve Blender made comes from a channel");
    }
    println!("{fcurves} F-curves, {samples} samples: largest difference {:.3e} ({})", worst.0, worst.1);
    assert!(failures.is_empty(), "{} of {samples} samples beyond {BOUND}; first: {:#?}", failures.len(), &failures[..failures.len().min(10)]);
    assert_eq!(fcurves, 18 + 18 + 11 + 10 + 10);
    assert!(samples > 30_000, "{samples}");
}
