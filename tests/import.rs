//! Import (SPEC §11) on the files in `tests/import-samples/` (Blender 3.4's glTF exporter,
//! three.js r187, and generated files, see its README): every sample imports, a few keys
//! checked by hand against the raw file, import → export → compare the samplers (times bit
//! for bit, values as float32) and the three.js tracks, and the errors bad input gets.
//! Evaluation against three.js itself is `conformance/import_check.mjs`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde_json::{json, Value};
use tangent::export::{export, ExportOptions, Format};
use tangent::import::{import_bytes, import_path, ImportError, ImportFormat, ImportOptions, Imported};
use tangent::{Binding, HandleType, Interpolation, TrackCurve, TrackKind};

fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import-samples").join(name)
}

fn import(name: &str) -> Imported {
    import_path(&sample(name), &ImportOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn no_progress(_: usize, _: usize) -> bool {
    true
}

// ---------------------------------------------------------------------------------------
// An independent reader of glTF animation samplers (JSON and bytes by hand), for the
// hand-checked values and the round trips.

/// One sampler as stored: interpolation, the f32 times' bits, the outputs as f32.
#[derive(Debug, PartialEq)]
struct RawChannel {
    interpolation: String,
    times: Vec<u32>,
    values: Vec<f32>,
}

/// The JSON and the buffers of a `.gltf` or `.glb`.
fn gltf_parts(bytes: &[u8], base: Option<&Path>) -> (Value, Vec<Vec<u8>>) {
    let (json, bin): (Value, Option<Vec<u8>>) = if bytes.starts_with(b"glTF") {
        let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let json = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
        let at = 20 + len;
        let bin = (bytes.len() > at + 8).then(|| {
            let bl = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            bytes[at + 8..at + 8 + bl].to_vec()
        });
        (json, bin)
    } else {
        (serde_json::from_slice(bytes).unwrap(), None)
    };
    let buffers = json["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| match b["uri"].as_str() {
            None => bin.clone().unwrap(),
            Some(uri) if uri.starts_with("data:") => base64::engine::general_purpose::STANDARD.decode(uri.split_once(',').unwrap().1).unwrap(),
            Some(uri) => std::fs::read(base.unwrap().join(uri)).unwrap(),
        })
        .collect();
    (json, buffers)
}

/// An accessor's elements as f32 (normalized integers as glTF defines them), sparse
/// values applied.
fn read_accessor(json: &Value, buffers: &[Vec<u8>], index: usize) -> Vec<f32> {
    let acc = &json["accessors"][index];
    let comps = match acc["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC3" => 3,
        "VEC4" => 4,
        t => panic!("{t}"),
    };
    let ct = acc["componentType"].as_u64().unwrap();
    let count = acc["count"].as_u64().unwrap() as usize;
    let size = match ct {
        5120 | 5121 => 1,
        5122 | 5123 => 2,
        _ => 4,
    };
    let decode = |b: &[u8]| -> f32 {
        match ct {
            5126 => f32::from_le_bytes(b[..4].try_into().unwrap()),
            // glTF 2.0 §3.11: max(c / 127, −1) and so on (in f64, rounded once, as three.js).
            5120 => (f64::from(b[0] as i8) / 127.0).max(-1.0) as f32,
            5121 => (f64::from(b[0]) / 255.0) as f32,
            5122 => (f64::from(i16::from_le_bytes(b[..2].try_into().unwrap())) / 32767.0).max(-1.0) as f32,
            5123 => (f64::from(u16::from_le_bytes(b[..2].try_into().unwrap())) / 65535.0) as f32,
            _ => panic!("{ct}"),
        }
    };
    let view_bytes = |view: &Value| -> (&[u8], usize) {
        let off = view["byteOffset"].as_u64().unwrap_or(0) as usize;
        let len = view["byteLength"].as_u64().unwrap() as usize;
        let data = &buffers[view["buffer"].as_u64().unwrap() as usize][off..off + len];
        (data, view["byteStride"].as_u64().unwrap_or(0) as usize)
    };
    let elements = |view: &Value, offset: usize, n: usize| -> Vec<f32> {
        let (data, stride) = view_bytes(view);
        let stride = if stride == 0 { comps * size } else { stride };
        (0..n).flat_map(|i| (0..comps).map(move |c| (i, c))).map(|(i, c)| decode(&data[offset + i * stride + c * size..])).collect()
    };
    let mut out = match acc["bufferView"].as_u64() {
        Some(v) => elements(&json["bufferViews"][v as usize], acc["byteOffset"].as_u64().unwrap_or(0) as usize, count),
        None => vec![0.0; count * comps],
    };
    if let Some(sparse) = acc.get("sparse") {
        let n = sparse["count"].as_u64().unwrap() as usize;
        let (idata, _) = view_bytes(&json["bufferViews"][sparse["indices"]["bufferView"].as_u64().unwrap() as usize]);
        let ioff = sparse["indices"]["byteOffset"].as_u64().unwrap_or(0) as usize;
        let isize = match sparse["indices"]["componentType"].as_u64().unwrap() {
            5121 => 1,
            5123 => 2,
            _ => 4,
        };
        let values = elements(
            &json["bufferViews"][sparse["values"]["bufferView"].as_u64().unwrap() as usize],
            sparse["values"]["byteOffset"].as_u64().unwrap_or(0) as usize,
            n,
        );
        for k in 0..n {
            let b = &idata[ioff + k * isize..];
            let i = match isize {
                1 => b[0] as usize,
                2 => u16::from_le_bytes([b[0], b[1]]) as usize,
                _ => u32::from_le_bytes(b[..4].try_into().unwrap()) as usize,
            };
            out[i * comps..(i + 1) * comps].copy_from_slice(&values[k * comps..(k + 1) * comps]);
        }
    }
    out
}

/// Every node channel by (animation label, node name, rank among nodes of that name, path).
fn raw_channels(bytes: &[u8], base: Option<&Path>) -> BTreeMap<(String, Option<String>, usize, String), RawChannel> {
    let (json, buffers) = gltf_parts(bytes, base);
    let nodes = json["nodes"].as_array().unwrap();
    let name = |n: usize| nodes[n]["name"].as_str().map(str::to_owned);
    let rank = |n: usize| (0..n).filter(|&m| name(m) == name(n)).count();
    let mut out = BTreeMap::new();
    for (a, anim) in json["animations"].as_array().unwrap().iter().enumerate() {
        let label = anim["name"].as_str().map_or_else(|| format!("animation{a}"), str::to_owned);
        for ch in anim["channels"].as_array().unwrap() {
            let Some(node) = ch["target"]["node"].as_u64() else { continue };
            let sampler = &anim["samplers"][ch["sampler"].as_u64().unwrap() as usize];
            let raw = RawChannel {
                interpolation: sampler["interpolation"].as_str().unwrap_or("LINEAR").to_owned(),
                times: read_accessor(&json, &buffers, sampler["input"].as_u64().unwrap() as usize).iter().map(|t| t.to_bits()).collect(),
                values: read_accessor(&json, &buffers, sampler["output"].as_u64().unwrap() as usize),
            };
            let node = node as usize;
            out.insert((label.clone(), name(node), rank(node), ch["target"]["path"].as_str().unwrap().to_owned()), raw);
        }
    }
    out
}

const GLTF_SAMPLES: [&str; 4] = ["bezier_mover.glb", "mixed_interp.gltf", "blender_weights_separate.gltf", "synthetic_quantized_sparse.glb"];
const JSON_SAMPLES: [&str; 4] = ["character_clip.json", "three_all_interpolations.json", "three_two_clips.json", "three_legacy_fps_keys.json"];

// ---------------------------------------------------------------------------------------

#[test]
fn every_sample_imports_with_its_tracks_and_warnings() {
    let expected = [
        ("bezier_mover.glb", 3, 0),
        ("mixed_interp.gltf", 3, 0),
        ("blender_weights_separate.gltf", 6, 0),
        ("synthetic_quantized_sparse.glb", 14, 1),
        ("character_clip.json", 5, 0),
        ("three_all_interpolations.json", 13, 1),
        ("three_two_clips.json", 3, 0),
        ("three_legacy_fps_keys.json", 2, 0),
    ];
    for (file, tracks, warnings) in expected {
        let imported = import(file);
        assert_eq!(imported.project.tracks.len(), tracks, "{file}: {}", imported.report);
        assert_eq!(imported.report.warnings.len(), warnings, "{file}: {:?}", imported.report.warnings);
        assert_eq!(imported.report.tracks.len(), tracks);
        for t in &imported.project.tracks {
            let curve = TrackCurve::new(t).unwrap();
            let (t0, t1) = curve.domain();
            for time in [t0 - 1.0, t0, 0.5 * (t0 + t1), t1, t1 + 1.0] {
                assert!(curve.evaluator().value_at(time).iter().all(|v| v.is_finite()), "{file}: {}", t.name);
            }
        }
    }
    let pointer = &import("synthetic_quantized_sparse.glb").report.warnings[0];
    assert!(pointer.contains("channel 4") && pointer.contains("KHR_animation_pointer"), "{pointer}");
    assert!(import("three_all_interpolations.json").report.warnings[0].contains("string tracks cannot be held"));
}

#[test]
fn cubicspline_keys_become_free_handles_at_thirds() {
    let imported = import("bezier_mover.glb");
    let raw = &raw_channels(&std::fs::read(sample("bezier_mover.glb")).unwrap(), None)[&("MoverAction".into(), Some("Mover".into()), 0, "translation".into())];
    let t = imported.project.track("Mover.translation").unwrap();
    assert_eq!((t.kind, t.interpolation), (TrackKind::Vec3, Interpolation::Bezier));
    // Key 1 as the file has it: time 0.5416666865348816 (f32 of 13/24), value, tangents.
    let k = &t.keys[1];
    assert_eq!(k.time, 0.5416666865348816);
    assert_eq!(k.value, [-2.7602217197418213, 1.2047730684280396, 3.467879295349121]);
    let (t0, t1, t2) = (f32::from_bits(raw.times[0]) as f64, f32::from_bits(raw.times[1]) as f64, f32::from_bits(raw.times[2]) as f64);
    for c in 0..3 {
        let (a, v, b) = (raw.values[9 + c] as f64, raw.values[12 + c] as f64, raw.values[15 + c] as f64);
        assert_eq!(k.value[c], v);
        assert_eq!(k.left[c], (-(t1 - t0) / 3.0, -a * (t1 - t0) / 3.0));
        assert_eq!(k.right[c], ((t2 - t1) / 3.0, b * (t2 - t1) / 3.0));
    }
    assert_eq!(k.handles, (HandleType::Free, HandleType::Free));
    let Some(Binding::Gltf { animation, node, node_name, .. }) = &t.binding else { panic!("{:?}", t.binding) };
    assert_eq!((animation.as_str(), *node, node_name.as_deref()), ("MoverAction", 0, Some("Mover")));
    // Blender's keys start at 1/24 s: the first value is held before them, the last after.
    let curve = TrackCurve::new(t).unwrap();
    assert_eq!(curve.evaluator().value_at(0.0), t.keys[0].value);
    assert_eq!(curve.evaluator().value_at(100.0), t.keys.last().unwrap().value);
}

#[test]
fn quantized_and_sparse_values_by_hand() {
    let p = import("synthetic_quantized_sparse.glb").project;
    let unit = |q: [f64; 4]| {
        let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        q.map(|x| x / n)
    };
    // Byte Spin key 1: normalize(0.3, −0.2, 0.1, 0.9) stored as round(127·q), read as i/127.
    let q = unit([0.3, -0.2, 0.1, 0.9]).map(|x| f64::from(((x * 127.0).round() / 127.0) as f32));
    assert_eq!(p.track("animation0/Byte Spin.rotation").unwrap().keys[1].value, q);
    // Weights: 0.5 stored as the byte 128 → 128/255.
    let w = p.track("animation0/Morph.weights[1]").unwrap();
    assert_eq!(w.keys[0].value, [f64::from((128.0f64 / 255.0) as f32)]);
    assert_eq!(w.binding.as_ref().unwrap().element().map(|e| (e.index, e.count)), Some((1, 3)));
    // The sparse translation: keys 1 and 3 replaced, 0 and 2 from the base view.
    let s = p.track("animation0/Sparse.translation").unwrap();
    let values: Vec<Vec<f64>> = s.keys.iter().map(|k| k.value.clone()).collect();
    assert_eq!(values, [vec![0.0, 0.0, 0.0], vec![5.0, -2.0, 0.5], vec![2.0, 0.0, -1.0], vec![-4.0, 4.0, 2.5]]);
    // A sparse CUBICSPLINE scale with no base view: values set, tangents zero.
    let sc = p.track("Second/Sparse.scale").unwrap();
    assert_eq!(sc.keys[1].value, [2.0, 0.5, 1.5]);
    assert!(sc.keys.iter().all(|k| k.left.iter().chain(&k.right).all(|h| h.1 == 0.0)));
    // The unnamed node, the two "Twin"s sharing a sampler, key times from 0.25.
    let unnamed = p.track("animation0/node0.rotation").unwrap();
    assert_eq!((unnamed.interpolation, unnamed.keys[0].time), (Interpolation::Slerp, 0.25));
    assert_eq!(p.track("animation0/Twin#4.translation").unwrap().keys, p.track("animation0/Twin#5.translation").unwrap().keys);
}

#[test]
fn three_js_tracks_by_hand() {
    let text = std::fs::read_to_string(sample("three_all_interpolations.json")).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let p = import("three_all_interpolations.json").project;
    let opacity = p.track("Box.material.opacity").unwrap();
    let src = json["tracks"].as_array().unwrap().iter().find(|t| t["name"] == "Box.material.opacity").unwrap();
    for (k, key) in opacity.keys.iter().enumerate() {
        let (t, v) = (src["times"][k].as_f64().unwrap(), src["values"][k].as_f64().unwrap());
        let point = |side: &str, i: usize| src["settings"][side][2 * k + i].as_f64().unwrap();
        assert_eq!(key.left[0], (point("inTangents", 0) - t, point("inTangents", 1) - v));
        assert_eq!(key.right[0], (point("outTangents", 0) - t, point("outTangents", 1) - v));
    }
    let kinds: Vec<(&str, TrackKind, Interpolation)> = p.tracks.iter().map(|t| (t.name.as_str(), t.kind, t.interpolation)).collect();
    assert!(kinds.contains(&("Box.position", TrackKind::Vec3, Interpolation::Cubic)));
    assert!(kinds.contains(&("Box.scale", TrackKind::Vec3, Interpolation::Step)));
    assert!(kinds.contains(&("Spin.quaternion", TrackKind::Quat, Interpolation::Step)));
    assert!(kinds.contains(&("Box.material.map.offset", TrackKind::Vec2, Interpolation::Bezier)));
    assert!(kinds.contains(&("Lamp.color", TrackKind::Vec3, Interpolation::Linear)));
    let visible: Vec<f64> = p.track("Box.visible").unwrap().keys.iter().map(|k| k.value[0]).collect();
    assert_eq!(visible, [1.0, 0.0, 1.0]);
    // fps 24: frame 12 is 0.5 s; a `keys` entry without a value is left out, as three.js does.
    let legacy = import("three_legacy_fps_keys.json").project;
    let door: Vec<f64> = legacy.track("Door.rotation[y]").unwrap().keys.iter().map(|k| k.time).collect();
    assert_eq!(door, [0.0, 0.5, 1.25]);
    assert_eq!(legacy.track("Door.position").unwrap().keys.len(), 3);
}

#[test]
fn animation_option_picks_one_without_prefix() {
    let options = ImportOptions { animation: Some("Second".into()), format: None };
    let one = import_path(&sample("synthetic_quantized_sparse.glb"), &options).unwrap();
    assert!(one.project.tracks.iter().all(|t| !t.name.contains('/')), "{}", one.report);
    assert_eq!(one.project.tracks.len(), 6);
    let wave = import_path(&sample("three_two_clips.json"), &ImportOptions { animation: Some("Wave".into()), format: None }).unwrap();
    assert_eq!(wave.project.tracks.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["Arm.rotation[z]", "Hips.position"]);
    let err = import_path(&sample("mixed_interp.gltf"), &ImportOptions { animation: Some("Nope".into()), format: None }).unwrap_err();
    assert!(err.to_string().contains("no animation named \"Nope\" (the file has: StepperAction, LinearAction, EasedAction)"), "{err}");
}

#[test]
fn csv_groups_components_and_stays_linear() {
    let csv = "time,pos.x,pos.y,speed,tint.x,tint.y,tint.z,tint.w\n0,1,2,3,0,0,0,1\n0.5,4,5,6,1,1,1,1\n";
    let p = import_bytes(csv.as_bytes(), ImportFormat::Csv, "mem.csv", None, &ImportOptions::default()).unwrap().project;
    let pos = p.track("pos").unwrap();
    assert_eq!((pos.kind, pos.interpolation, pos.keys[1].value.clone()), (TrackKind::Vec2, Interpolation::Linear, vec![4.0, 5.0]));
    assert_eq!(p.track("speed").unwrap().kind, TrackKind::Scalar);
    assert_eq!(p.track("tint").unwrap().kind, TrackKind::Vec4);
    assert!(p.tracks.iter().all(|t| t.binding.is_none()));
}

// ---------------------------------------------------------------------------------------
// Round trips.

#[test]
fn gltf_round_trip_keeps_every_sampler() {
    for file in GLTF_SAMPLES {
        let bytes = std::fs::read(sample(file)).unwrap();
        let original = raw_channels(&bytes, Some(&sample("")));
        let imported = import(file);
        for format in [Format::Glb, Format::Gltf] {
            let (out, report) = export(&imported.project, format, &ExportOptions::default(), &no_progress).unwrap();
            assert!(report.iter().all(|r| r.max_error == 0.0 && r.form.to_string() != "baked"), "{file}: {report:?}");
            let back = raw_channels(&out, None);
            assert_eq!(back.len(), original.len(), "{file}: {:?} vs {:?}", back.keys(), original.keys());
            for (key, raw) in &original {
                let b = back.get(key).unwrap_or_else(|| panic!("{file}: {key:?} not exported; has {:?}", back.keys()));
                assert_eq!(b.interpolation, raw.interpolation, "{file} {key:?}");
                assert_eq!(b.times, raw.times, "{file} {key:?}: times bit for bit");
                assert_eq!(b.values, raw.values, "{file} {key:?}: values as float32");
            }
            // Read back by the same importer: the same tracks.
            let again =
                import_bytes(&out, if format == Format::Glb { ImportFormat::Glb } else { ImportFormat::Gltf }, file, None, &ImportOptions::default()).unwrap();
            let strip = |p: &tangent::Project| p.tracks.iter().map(|t| (t.name.clone(), t.interpolation, t.keys.clone())).collect::<Vec<_>>();
            if !file.starts_with("synthetic") {
                assert_eq!(strip(&again.project), strip(&imported.project), "{file}");
            }
        }
    }
}

/// A three.js JSON file's tracks as three.js reads them: name → (times in seconds, values,
/// interpolation, tangents).
fn three_tracks(json: &Value) -> BTreeMap<String, (Vec<f64>, Vec<f64>, i64, Option<Value>)> {
    let scale = 1.0 / json["fps"].as_f64().filter(|f| *f != 0.0).unwrap_or(1.0);
    let num = |v: &Value| v.as_f64().unwrap_or_else(|| f64::from(u8::from(v.as_bool().unwrap())));
    let mut out = BTreeMap::new();
    for t in json["tracks"].as_array().unwrap() {
        if t["type"] == "string" {
            continue;
        }
        let (times, values): (Vec<f64>, Vec<f64>) = match t.get("times") {
            Some(times) => {
                (times.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() * scale).collect(), t["values"].as_array().unwrap().iter().map(num).collect())
            }
            None => {
                let keys: Vec<&Value> = t["keys"].as_array().unwrap().iter().filter(|k| k.get("value").is_some()).collect();
                let times = keys.iter().map(|k| k["time"].as_f64().unwrap() * scale).collect();
                let values = keys.iter().flat_map(|k| k["value"].as_array().unwrap().iter().map(num).collect::<Vec<_>>()).collect();
                (times, values)
            }
        };
        let default = if t["type"] == "bool" { 2300 } else { 2301 };
        let settings = t.get("settings").map(|s| {
            let scaled = |a: &Value| {
                json!(a.as_array().unwrap().iter().enumerate().map(|(i, x)| x.as_f64().unwrap() * if i % 2 == 0 { scale } else { 1.0 }).collect::<Vec<_>>())
            };
            json!({"in": scaled(&s["inTangents"]), "out": scaled(&s["outTangents"])})
        });
        out.insert(t["name"].as_str().unwrap().to_owned(), (times, values, t["interpolation"].as_i64().unwrap_or(default), settings));
    }
    out
}

#[test]
fn three_js_round_trip_keeps_names_interpolation_and_values() {
    for file in JSON_SAMPLES.into_iter().filter(|f| *f != "three_two_clips.json") {
        let original = three_tracks(&serde_json::from_slice(&std::fs::read(sample(file)).unwrap()).unwrap());
        let imported = import(file);
        let (out, _) = export(&imported.project, Format::ThreeJson, &ExportOptions::default(), &no_progress).unwrap();
        let back = three_tracks(&serde_json::from_slice(&out).unwrap());
        assert_eq!(back.keys().collect::<Vec<_>>(), original.keys().collect::<Vec<_>>(), "{file}");
        for (name, (times, values, interpolation, settings)) in &original {
            let b = &back[name];
            assert_eq!((&b.0, &b.1, b.2), (times, values, *interpolation), "{file}: {name}");
            // Tangent points come back within rounding of (t + dt) − t.
            if let (Some(s), Some(bs)) = (settings, &b.3) {
                for side in ["in", "out"] {
                    for (x, y) in s[side].as_array().unwrap().iter().zip(bs[side].as_array().unwrap()) {
                        let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
                        assert!((x - y).abs() <= 1e-15 * (1.0 + x.abs()), "{file}: {name} {side} {x} vs {y}");
                    }
                }
            } else {
                assert_eq!(settings.is_some(), b.3.is_some(), "{file}: {name}");
            }
        }
    }
}

#[test]
fn mapped_tracks_leave_their_binding() {
    let p = import("bezier_mover.glb").project;
    let mut options = ExportOptions::default();
    options.targets.insert("Mover.scale".into(), tangent::export::Target::Skip);
    let (_, report) = export(&p, Format::Glb, &options, &no_progress).unwrap();
    assert_eq!(report.len(), 2);
    assert!(report[0].destination.contains("node 0 \"Mover\" translation in animation \"MoverAction\""), "{}", report[0].destination);
    let (_, report) = export(&p, Format::ThreeJson, &ExportOptions::default(), &no_progress).unwrap();
    assert_eq!(report[1].destination, "Mover.quaternion (quaternion)");
}

// ---------------------------------------------------------------------------------------
// Bad input: an error naming the file and what is wrong.

/// A one-channel glTF (translation of node "N") with its buffer as a data URI; `patch`
/// edits the JSON first.
fn tiny_gltf(times: &[f32], values: &[f32], patch: impl Fn(&mut Value)) -> Vec<u8> {
    let mut bin = Vec::new();
    for x in times.iter().chain(values) {
        bin.extend_from_slice(&x.to_le_bytes());
    }
    let mut json = json!({
        "asset": {"version": "2.0"},
        "nodes": [{"name": "N"}],
        "buffers": [{"byteLength": bin.len(), "uri": format!("data:application/octet-stream;base64,{}", base64::engine::general_purpose::STANDARD.encode(&bin))}],
        "bufferViews": [{"buffer": 0, "byteLength": times.len() * 4}, {"buffer": 0, "byteOffset": times.len() * 4, "byteLength": values.len() * 4}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": times.len(), "type": "SCALAR"},
            {"bufferView": 1, "componentType": 5126, "count": values.len() / 3, "type": "VEC3"}
        ],
        "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}], "samplers": [{"input": 0, "output": 1}]}]
    });
    patch(&mut json);
    serde_json::to_vec(&json).unwrap()
}

fn gltf_error(bytes: &[u8]) -> String {
    match import_bytes(bytes, ImportFormat::Gltf, "bad.gltf", None, &ImportOptions::default()) {
        Ok(i) => panic!("imported: {}", i.report),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_gltf_is_an_error_that_says_where() {
    let (t, v) = ([0.0, 1.0, 2.0], [0.0; 9]);
    assert!(
        !tiny_gltf(&t, &v, |_| {}).is_empty() && import_bytes(&tiny_gltf(&t, &v, |_| {}), ImportFormat::Gltf, "ok", None, &ImportOptions::default()).is_ok()
    );
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (tiny_gltf(&t, &v, |j| j["bufferViews"][1]["byteLength"] = json!(4000)), "bufferView 1 (bytes 12..4012) points past the end of buffer 0 (48 bytes)"),
        (tiny_gltf(&[0.0, 1.0, 1.0], &v, |_| {}), "animation \"animation0\", channel 0: the times do not increase: time 2 (1) is not after time 1 (1)"),
        (tiny_gltf(&t, &[0.0; 6], |_| {}), "the output accessor has 2 elements for 3 keys; it needs one element per key"),
        (tiny_gltf(&t, &[0.0, f32::NAN, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], |_| {}), "output value 1 is NaN, not a finite number"),
        (tiny_gltf(&t, &v, |j| j["accessors"][0]["count"] = json!(0)), "the input accessor 0 has no elements"),
        (tiny_gltf(&t, &v, |j| j["accessors"][1]["type"] = json!("VEC4")), "the output accessor 1 is VEC4 of FLOAT; it must be VEC3 of FLOAT"),
        (tiny_gltf(&t, &v, |j| j["bufferViews"][1]["byteStride"] = json!(4)), "byteStride 4, less than the 12 bytes"),
        (tiny_gltf(&t, &v, |j| j["animations"][0]["channels"][0]["target"]["node"] = json!(7)), "node 7 does not exist"),
        (tiny_gltf(&t, &v, |j| j["asset"]["version"] = json!("1.0")), "glTF version 1.0"),
        (tiny_gltf(&t, &v, |j| j["animations"] = json!([])), "nothing to import: the file has no animations"),
        (b"{\"asset\": ".to_vec(), "bad.gltf:1:10: EOF while parsing"),
    ];
    for (bytes, want) in cases {
        let got = gltf_error(&bytes);
        assert!(got.starts_with("bad.gltf") && got.contains(want), "{got}\n  wanted: {want}");
    }
    // Sparse indices must increase.
    let sparse = tiny_gltf(&t, &[0.0; 9], |j| {
        j["accessors"][1]["sparse"] = json!({"count": 2, "indices": {"bufferView": 0, "componentType": 5125}, "values": {"bufferView": 1}});
    });
    // Indices 0 (the bits of 0.0) and 1065353216 (the bits of 1.0): past the count.
    assert!(gltf_error(&sparse).contains("sparse index 1 is 1065353216; indices must increase and stay below 3"), "{}", gltf_error(&sparse));
}

#[test]
fn bad_glb_json_and_csv_are_errors_that_say_where() {
    let glb = std::fs::read(sample("bezier_mover.glb")).unwrap();
    let err = |bytes: &[u8], format: ImportFormat| import_bytes(bytes, format, "in", None, &ImportOptions::default()).unwrap_err().to_string();
    assert!(err(&glb[..100], ImportFormat::Glb).contains("truncated GLB: the header says 3828 bytes, the file has 100"));
    assert!(err(&glb[..8], ImportFormat::Glb).contains("truncated GLB: 8 bytes"));
    let mut magic = glb.clone();
    magic[3] = b'X';
    assert!(err(&magic, ImportFormat::Glb).contains("not a GLB file: it starts with \"glTX\""));
    let mut chunk = glb.clone();
    chunk[12..16].copy_from_slice(&100_000u32.to_le_bytes());
    assert!(err(&chunk, ImportFormat::Glb).contains("GLB chunk at byte 12 (JSON) says 100000 bytes, past the end of the file"));
    assert!(err(b"{\"foo\": 1}", ImportFormat::ThreeJson).contains("not a three.js animation clip"));
    assert!(err(br#"{"tracks": [{"name": "a", "type": "number", "times": [0, 1], "values": [0]}]}"#, ImportFormat::ThreeJson)
        .contains("clip \"clip0\", track 0 (\"a\"): 1 values for 2 times"));
    assert_eq!(err(b"time,a,b\n0,1,2\n1,3\n", ImportFormat::Csv), "in: row 3, column 3 (\"b\"): the row has 2 cells, the header 3");
    assert_eq!(err(b"time,a\n0,1\n1,x\n", ImportFormat::Csv), "in: row 3, column 2 (\"a\"): \"x\" is not a number");
    assert_eq!(err(b"time,a\n0,1\n1,\n", ImportFormat::Csv), "in: row 3, column 2 (\"a\"): empty cell");
    assert_eq!(err(b"time,a\n1,1\n0,2\n", ImportFormat::Csv), "in: row 3, column 1 (\"time\"): time 0 is before the previous row's time 1");
    assert!(err(b"t,a\n0,1\n", ImportFormat::Csv).contains("the header must start with \"time\""));
    let missing = import_path(Path::new("/nonexistent/walk.glb"), &ImportOptions::default()).unwrap_err();
    assert!(matches!(missing, ImportError::Io { .. }) && missing.to_string().starts_with("/nonexistent/walk.glb: "));
    // A .gltf whose .bin is missing names the .bin.
    let gltf = std::fs::read(sample("blender_weights_separate.gltf")).unwrap();
    let no_bin = import_bytes(&gltf, ImportFormat::Gltf, "w.gltf", Some(Path::new("/nonexistent")), &ImportOptions::default()).unwrap_err();
    assert!(no_bin.to_string().contains("/nonexistent/blender_weights_separate.bin (buffer 0 of w.gltf)"), "{no_bin}");
}

#[test]
fn progress_is_reported_and_can_cancel() {
    let calls = std::cell::Cell::new(0);
    let path = sample("blender_weights_separate.gltf");
    tangent::import::import_path_with_progress(&path, &ImportOptions::default(), &|done, total| {
        assert!(done <= total);
        calls.set(calls.get() + 1);
        true
    })
    .unwrap();
    assert_eq!(calls.get(), 5, "one call per channel");
    let cancelled = tangent::import::import_path_with_progress(&path, &ImportOptions::default(), &|_, _| false);
    assert!(matches!(cancelled, Err(ImportError::Cancelled)));
}

#[test]
fn edited_channel_members_are_written_together_or_apart() {
    // glTF: a key added to one morph weight; the channel is sampled at the union of the key
    // times (both Linear: exact), so it stays one weights channel on the node.
    let mut p = import("blender_weights_separate.gltf").project;
    let w0 = p.tracks.iter().position(|t| t.name == "KeyAction/Blob.weights[0]").unwrap();
    p.tracks[w0].keys.insert(1, tangent::Key::new(0.25, vec![0.9]));
    let (out, report) = export(&p, Format::Glb, &ExportOptions::default(), &no_progress).unwrap();
    let weights: Vec<_> = report.iter().filter(|r| r.name.contains("weights")).collect();
    assert!(weights.iter().all(|r| r.keys == 5 && r.max_error == 0.0 && r.form.to_string() == "LINEAR"), "{weights:?}");
    let back = raw_channels(&out, None);
    let ch = &back[&("KeyAction".into(), Some("Blob".into()), 0, "weights".into())];
    assert_eq!((ch.times.len(), ch.values.len(), ch.interpolation.as_str()), (5, 10, "LINEAR"));
    assert_eq!(ch.values[2], 0.9, "the new key of weight 0, interleaved");
    let w1 = TrackCurve::new(p.track("KeyAction/Blob.weights[1]").unwrap()).unwrap();
    assert!((f64::from(ch.values[3]) - w1.evaluator().value_at(0.25)[0]).abs() < 1e-7, "weight 1 sampled on its line");
    // three.js: members that no longer share keys go to their own paths.
    let mut p = import("three_all_interpolations.json").project;
    let f1 = p.tracks.iter().position(|t| t.name == "Face.morphTargetInfluences[1]").unwrap();
    p.tracks[f1].keys.pop();
    let (out, _) = export(&p, Format::ThreeJson, &ExportOptions::default(), &no_progress).unwrap();
    let names: Vec<String> = three_tracks(&serde_json::from_slice(&out).unwrap()).into_keys().collect();
    assert!(names.contains(&"Face.morphTargetInfluences[1]".to_owned()) && !names.contains(&"Face.morphTargetInfluences".to_owned()), "{names:?}");
    // Two clips' tracks for one path: the second goes to an object named after its track.
    let (out, _) = export(&import("three_two_clips.json").project, Format::ThreeJson, &ExportOptions::default(), &no_progress).unwrap();
    let names: Vec<String> = three_tracks(&serde_json::from_slice(&out).unwrap()).into_keys().collect();
    assert_eq!(names, ["Arm.rotation[z]", "Hips.position", "WaveHipsposition.position"]);
}
