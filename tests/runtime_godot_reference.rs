//! The model of Godot 3.2's glTF import (`tangent::runtime::godot`) against Godot 3.2.3 itself
//! (`tests/reference/godot_gltf_import`, made by `tools/godot/godot_import_reference.sh` with the
//! distribution's `godot3-server`: each file imported with Godot's defaults but the lossy
//! optimizer off, every track of the imported animation played at 601 times): every
//! translation, rotation and scale channel through the node's transform track, every morph
//! target weight through its value track. The files: the demo exported every frame, with
//! `--adaptive 1e-4` (CUBICSPLINE, LINEAR, STEP, a LINEAR rotation) and with
//! `--adaptive 1e-3 --adaptive-linear`, and the samples `bezier_mover.glb` (CUBICSPLINE
//! translation, rotation and scale, from Blender) and `mixed_interp.gltf`.
//!
//! Godot computes in float32, the model in float64 from the same float32 keys, and Godot's
//! JSON prints 6 significant digits: the bound is 1e-5 × (1 + |v|). Rotations are compared with the sign that brings them closest.

mod common;

use common::{nums, reference_dir};
use serde_json::Value;
use tangent::export::Form;
use tangent::runtime::godot::{self, Channel};
use tangent::runtime::Written;

const BOUND: f64 = 1e-5;

/// A node or track name with only its letters and digits (Godot drops some characters).
fn plain(name: &str) -> String {
    name.chars().filter(char::is_ascii_alphanumeric).collect()
}

fn written(c: &Value) -> Written {
    let form = match c["interpolation"].as_str().unwrap() {
        "STEP" => Form::Step,
        "LINEAR" => Form::Linear,
        "CUBICSPLINE" => Form::CubicSpline,
        other => panic!("interpolation {other}"),
    };
    let (times, values) = (nums(&c["times"]), nums(&c["values"]));
    let per_key = if form == Form::CubicSpline { 3 } else { 1 };
    let width = values.len() / (times.len() * per_key);
    Written { form, rotation: c["path"] == "rotation", width, times, values, tangents: None }
}

/// Where a channel's components are in Godot's transform sample `[loc, rot (x y z w), scale]`.
fn offset(path: &str) -> usize {
    match path {
        "translation" => 0,
        "rotation" => 3,
        "scale" => 7,
        other => panic!("path {other}"),
    }
}

#[test]
fn the_godot_model_plays_what_godot_imports() {
    // .ci/run points this at what Godot wrote in the same run.
    let dir = std::env::var_os("TANGENT_GODOT_REFERENCE").map_or_else(|| reference_dir().join("godot_gltf_import"), std::path::PathBuf::from);
    let names = ["bezier_mover", "demo", "demo_adaptive", "demo_linear", "mixed_interp"];
    let (mut channels, mut samples, mut dropped) = (0usize, 0usize, 0usize);
    let mut worst = (0.0f64, String::new());
    let mut failures = Vec::new();
    for name in names {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap()).unwrap();
        assert!(case["godot"].as_str().unwrap().starts_with("3.2.3"), "{name}: made by Godot 3.2.3");
        let tracks = case["tracks"].as_array().unwrap();
        // The animation's length: the largest key time of the file's channels (float32), and
        // the times sample_import.gd asked Godot for, `length · s / 600` in GDScript's float64,
        // which Godot's API takes as float32 (the file prints them to 7 digits only).
        let length = case["channels"].as_array().unwrap().iter().flat_map(|c| nums(&c["times"])).fold(0.0, f64::max);
        #[allow(clippy::cast_possible_truncation)]
        let at: Vec<f64> = (0..=600).map(|s| f64::from((length * f64::from(s) / 600.0) as f32)).collect();
        for c in case["channels"].as_array().unwrap() {
            let w = written(c);
            let (node, path) = (c["name"].as_str().unwrap(), c["path"].as_str().unwrap());
            let weights = path == "weights";
            for component in 0..if weights { w.width } else { 1 } {
                let wanted = if weights { format!("{}:blend_shapes/morph_{component}", plain(node)) } else { plain(node) };
                let track = tracks
                    .iter()
                    .find(|t| {
                        let p = t["path"].as_str().unwrap();
                        if weights {
                            p.split_once(':').is_some_and(|(n, rest)| format!("{}:{rest}", plain(n)) == wanted)
                        } else {
                            plain(p) == wanted
                        }
                    })
                    .unwrap_or_else(|| panic!("{name}: no Godot track for {node} {path}"));
                assert!((track["length"].as_f64().unwrap() - length).abs() < 1e-5, "{name}: length {length}");
                let channel = if weights { Channel::Weights } else { Channel::Transform };
                let played = godot::play(&w, channel, godot::DEFAULT_FPS, length).unwrap();
                if weights && w.form == Form::CubicSpline {
                    assert_eq!(track["key_times"].as_array().unwrap().len(), 0, "{name} {node}: Godot dropped the CUBICSPLINE weights");
                    dropped += 1;
                }
                let mut ev = played.curve().evaluator();
                let printed = nums(&track["times"]);
                assert_eq!(printed.len(), at.len(), "{name} {node}");
                for ((t, godot_value), p) in at.iter().zip(track["values"].as_array().unwrap()).zip(printed) {
                    assert!((t - p).abs() <= 1e-6 * (1.0 + p), "{name} {node}: sample time {t} printed {p}");
                    let godot_value = nums(godot_value);
                    let model = played.value_at(&mut ev, *t);
                    let (got, want): (Vec<f64>, Vec<f64>) = if weights {
                        (vec![model[component]], vec![godot_value[0]])
                    } else {
                        let at = offset(path);
                        let mut want = godot_value[at..at + w.width].to_vec();
                        if w.rotation && want.iter().zip(&model).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
                            want.iter_mut().for_each(|x| *x = -*x);
                        }
                        (model, want)
                    };
                    for (k, (g, v)) in got.iter().zip(&want).enumerate() {
                        let err = (g - v).abs() / (1.0 + v.abs());
                        if err > worst.0 {
                            worst = (err, format!("{name} {node} {path}[{}] at t = {t}: model {g}, Godot {v}", if weights { component } else { k }));
                        }
                        if err > BOUND && failures.len() < 20 {
                            failures.push(format!("{name} {node} {path}[{k}] at t = {t}: model {g}, Godot {v}"));
                        }
                    }
                    samples += 1;
                }
                channels += 1;
            }
        }
    }
    println!("Godot 3.2.3 against the model: {channels} channels (weights per target), {samples} samples, {dropped} CUBICSPLINE weights dropped; largest {:.3e} × (1 + |v|): {}", worst.0, worst.1);
    assert!(failures.is_empty(), "{} beyond {BOUND}:\n{}", failures.len(), failures.join("\n"));
    assert!(channels >= 40 && samples >= 24_000 && dropped >= 6, "{channels} channels, {samples} samples, {dropped} dropped");
}
