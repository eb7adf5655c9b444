//! The models of Blender's glTF import (`tangent::runtime::blender`) against Blender itself:
//! the 3.4 model ([`Version::V3_4`], `--runtime blender-3.4`) against Blender 3.4.1's imports
//! (`tests/reference/blender_gltf_import`), the newest ([`Version::V4_2`], `--runtime
//! blender`) against Blender 5.0.1's of the same GLBs (`blender_gltf_import/5.0.1`; 4.2.23 and
//! 4.5.15 import them alike), both made by `tools/blender/gltf_import_reference.py`. For every
//! animation channel of each GLB, the model is built from the keys the file holds; every
//! F-curve Blender's importer made from that channel has the model's keys (the same number, at
//! the same frames: where 4.2+ merged keys, the model merged the same ones) and is compared
//! with the model's component (through the importer's axis conversion) at each frame Blender
//! evaluated, within 1e-5. The files: the demo exported with `--adaptive 1e-4` (CUBICSPLINE
//! keys fitted for the specification, LINEAR, STEP and a LINEAR rotation) imported at 24 and at
//! 30 fps; the shared sample `bezier_mover.glb` (CUBICSPLINE translation, rotation and scale),
//! as Blender's exporter wrote it and as Tangent exports it back; rotations across hemispheres;
//! `close_keys.ron` (LINEAR, CUBICSPLINE and STEP keys less than 0.01 frames apart, anchored
//! chains, a whole frame) at 24 and 30 fps; the demo and the mover exported with `--adaptive
//! 1e-3 --runtime blender-3.4`, whose keys 5.0.1 merges. The 3.4 model is also measured against
//! 5.0.1's imports: how far today's Blender plays them from it.

mod common;

use common::{json_names, nums, reference_dir};
use serde_json::Value;
use tangent::export::{Form, Target};
use tangent::runtime::blender::{self, Version};
use tangent::runtime::Written;

/// The bound, relative to `1 +` the largest magnitude among the control points of the segment a
/// sample is in ([`scale`]): Blender's F-curves are float32, handles included, and it evaluates
/// them in float32, so its rounding grows with them. Auto handles on crowded keys reach far
/// (`close_keys`' `smooth` in 5.0.1: handles at 55, the curve at 21, the model's handles within
/// float32 steps of Blender's and its values 2.6e-5 off at a value of 0.19).
const BOUND: f64 = 1e-5;

/// `fcurve.evaluate` within this many frames of a key returns the key's value (the threshold of
/// `BKE_fcurve_bezt_binarysearch_index_ex` in `fcurve_eval_keyframes_interpolate`): the
/// samples at whole frames 1e-4 frames or less from a key (a 5.0.1 `bounce` key at frame
/// 72.00009, 1.8e-5 from the segment's value at 72) are compared with the key's value.
const KEY_SNAP: f64 = 1e-4;

/// `1 +` the largest |value| of the keys and handles of the F-curve's segment at `frame` (of
/// the end key beyond the keys).
fn scale(fc: &Value, frame: f64) -> f64 {
    let keys = fc["keys"].as_array().unwrap();
    let v = |k: &Value, what: &str| if what == "co" { k["co"][1].as_f64().unwrap() } else { k[what][1].as_f64().unwrap() };
    let i = keys.partition_point(|k| k["co"][0].as_f64().unwrap() <= frame);
    let largest = match i {
        0 => v(&keys[0], "co").abs(),
        i if i == keys.len() => v(&keys[i - 1], "co").abs(),
        i => [v(&keys[i - 1], "co"), v(&keys[i - 1], "right"), v(&keys[i], "left"), v(&keys[i], "co")].iter().fold(0.0f64, |m, x| m.max(x.abs())),
    };
    1.0 + largest
}

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

/// What comparing a model with one directory of Blender imports found.
struct Compared {
    fcurves: usize,
    samples: usize,
    /// Keys compared with the model's (count and frame per F-curve).
    keys: usize,
    worst: (f64, String),
    /// The largest difference relative to the segment's scale ([`BOUND`]).
    worst_relative: f64,
    failures: Vec<String>,
    /// The largest difference per file.
    per_file: Vec<(String, f64)>,
}

const FILES: [&str; 9] = [
    "close_keys.json",
    "close_keys_30fps.json",
    "demo_adaptive.json",
    "demo_adaptive_30fps.json",
    "demo_blender34.json",
    "hemispheres.json",
    "mover_blender.json",
    "mover_blender34.json",
    "mover_exported.json",
];

/// F-curves per file, in both versions.
const FCURVES: usize = 7 + 7 + 18 + 18 + 18 + 11 + 10 + 10 + 10;

/// `version`'s model against every F-curve Blender made in `dir` (each file's samplers are the
/// keys the GLB held): its keys and its samples, those beyond `BOUND` (and keys elsewhere)
/// listed.
fn compare(dir: &std::path::Path, version: Version) -> Compared {
    let names = json_names(dir);
    assert_eq!(names, FILES);
    let mut out = Compared { fcurves: 0, samples: 0, keys: 0, worst: (0.0, String::new()), worst_relative: 0.0, failures: Vec::new(), per_file: Vec::new() };
    for name in &names {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        let fps = case["fps"].as_f64().unwrap();
        let (mut matched, mut file_worst) = (0, 0.0f64);
        for s in case["samplers"].as_array().unwrap() {
            let t = target(s["path"].as_str().unwrap());
            let w = written(s);
            let played = blender::play(version, &w, fps).unwrap();
            let frames: Vec<f64> = played.curve().times().iter().map(|t| t * fps).collect();
            let mut ev = played.curve().evaluator();
            let node = &s["node"];
            let mine = case["fcurves"].as_array().unwrap().iter().filter(|fc| &fc["node"] == node && is_weights(fc) == (t == Target::Weights));
            let mine: Vec<&Value> = mine.filter(|fc| t == Target::Weights || blender::fcurve_of(t, 0).unwrap().0 == fc["data_path"]).collect();
            assert_eq!(mine.len(), w.width, "{name}: node {node} {t:?}: one F-curve per component");
            for fc in mine {
                let c = component(t, fc);
                let sign = blender::fcurve_of(t, c).unwrap().2;
                let where_ = format!("{name} {node} {}[{}]", fc["data_path"], fc["array_index"]);
                let theirs: Vec<f64> = fc["keys"].as_array().unwrap().iter().map(|k| k["co"][0].as_f64().unwrap()).collect();
                if theirs.len() != frames.len() {
                    out.failures.push(format!("{where_}: Blender has {} keys, the model {}", theirs.len(), frames.len()));
                } else if let Some((a, b)) = theirs.iter().zip(&frames).find(|(a, b)| (*a - *b).abs() > 1e-9 * (1.0 + a.abs())) {
                    out.failures.push(format!("{where_}: a key at frame {a} in Blender, {b} in the model"));
                }
                out.keys += theirs.len();
                for pair in fc["samples"].as_array().unwrap() {
                    let (frame, want) = (pair[0].as_f64().unwrap(), pair[1].as_f64().unwrap());
                    // Within KEY_SNAP frames of a key Blender evaluates to the key's value.
                    let at = theirs.iter().copied().find(|k| (k - frame).abs() < KEY_SNAP).unwrap_or(frame);
                    let got = sign * ev.value_at(at / fps)[c];
                    let d = (got - want).abs();
                    file_worst = file_worst.max(d);
                    if d > out.worst.0 {
                        out.worst = (d, format!("{where_} frame {frame}"));
                    }
                    let relative = d / scale(fc, frame);
                    out.worst_relative = out.worst_relative.max(relative);
                    if relative > BOUND {
                        out.failures.push(format!("{where_} frame {frame}: model {got}, Blender {want}, {relative:e} of the segment's scale"));
                    }
                    out.samples += 1;
                }
                out.fcurves += 1;
                matched += 1;
            }
        }
        assert_eq!(matched, case["fcurves"].as_array().unwrap().len(), "{name}: every F-curve Blender made comes from a channel");
        out.per_file.push((name.clone(), file_worst));
    }
    out
}

fn report(what: &str, c: &Compared) {
    println!(
        "{what}: {} F-curves, {} keys, {} samples, {} beyond; largest difference {:.3e} ({}), {:.3e} of the segment's scale",
        c.fcurves,
        c.keys,
        c.samples,
        c.failures.len(),
        c.worst.0,
        c.worst.1,
        c.worst_relative
    );
    for (name, worst) in &c.per_file {
        println!("  {name}: largest difference {worst:.6e}");
    }
}

/// `--runtime blender-3.4` against Blender 3.4.1: every key kept, AutoClamped handles.
#[test]
fn the_blender_3_4_model_plays_what_blender_3_4_imports() {
    let c = compare(&reference_dir().join("blender_gltf_import"), Version::V3_4);
    report("Blender 3.4.1 against the 3.4 model", &c);
    assert!(
        c.failures.is_empty(),
        "{} of {} samples beyond {BOUND} or keys elsewhere; first: {:#?}",
        c.failures.len(),
        c.samples,
        &c.failures[..c.failures.len().min(10)]
    );
    assert_eq!(c.fcurves, FCURVES);
    assert!(c.samples > 55_000, "{}", c.samples);
}

/// `--runtime blender` against Blender 5.0.1: Auto handles, and keys within 0.01 frames merged
/// (`close_keys` at 24 and 30 fps, the 3.4 exports' crowded keys) as the model merges them.
#[test]
fn the_newest_blender_model_plays_what_blender_5_imports() {
    let c = compare(&reference_dir().join("blender_gltf_import").join("5.0.1"), Version::V4_2);
    report("Blender 5.0.1 against the 4.2+ model", &c);
    assert!(
        c.failures.is_empty(),
        "{} of {} samples beyond {BOUND} or keys elsewhere; first: {:#?}",
        c.failures.len(),
        c.samples,
        &c.failures[..c.failures.len().min(10)]
    );
    assert_eq!(c.fcurves, FCURVES);
    assert!(c.samples > 55_000, "{}", c.samples);
    // 5.0.1 merged keys: fewer than 3.4.1 kept of the same files.
    let old = compare(&reference_dir().join("blender_gltf_import"), Version::V3_4);
    assert!(c.keys < old.keys, "{} keys in 5.0.1, {} in 3.4.1", c.keys, old.keys);
}

/// The same GLBs imported by Blender 5.0.1 against the 3.4 model: how far today's Blender plays
/// them from what `blender-3.4` assumes. 5.0.1 makes the Bezier keys Auto, not Auto Clamped,
/// and merges keys closer than 0.01 frames (docs/blender.md).
#[test]
fn blender_5_imports_differ_from_the_3_4_model_by_this_much() {
    let c = compare(&reference_dir().join("blender_gltf_import").join("5.0.1"), Version::V3_4);
    report("Blender 5.0.1 against the 3.4 model", &c);
    assert_eq!(c.fcurves, FCURVES);
    // Measured: (file, largest difference from the 3.4 model). The demo's CUBICSPLINE keys at
    // `--adaptive 1e-4` were fitted for the specification: few keys, far apart, where Auto
    // handles overshoot and Auto Clamped ones do not (its `path` weights, 2.98 at frame 33.7);
    // the mover's are Blender's own exporter's; `*_blender34` are keys fitted for 3.4's handles
    // (`--runtime blender-3.4 --adaptive 1e-3`), a few of them merged by 5.0.1; `close_keys`'
    // Auto handles on keys 0.012 to 0.025 frames apart reach far (55 where 3.4's are flat).
    let measured = [
        ("close_keys.json", 37.87917),
        ("close_keys_30fps.json", 57.15182),
        ("demo_adaptive.json", 2.975786),
        ("demo_adaptive_30fps.json", 2.975763),
        ("demo_blender34.json", 3.679138e-3),
        ("hemispheres.json", 0.1344089),
        ("mover_blender.json", 0.6753131),
        ("mover_blender34.json", 3.290653e-3),
        ("mover_exported.json", 0.6753131),
    ];
    for ((name, worst), (want_name, want)) in c.per_file.iter().zip(measured) {
        assert_eq!(name, want_name);
        assert!((worst - want).abs() <= 1e-6 * (1.0 + want), "{name}: Blender 5.0.1 is {worst:.6e} from the 3.4 model, measured {want:.6e}");
    }
}
