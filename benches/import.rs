//! Import throughput (issue 12): an 11.1 MB GLB with 200 channels × 5,000 keys (100
//! translations, 50 rotations, 50 morph weights; one input accessor shared by every
//! sampler, as Blender writes them) and a 100,000-row CSV (a Vec3, a Vec4 and a Scalar
//! column group, 15.7 MB); and (issue 30) a BVH take of 100 joints × 3,600 frames at 120 fps
//! (6 channels a joint, 720,000 keys, 21 MB: a tenth of the 5-minute take of docs/measured.md).
//! All are generated here and imported from memory; the import checks every accessor or
//! line, and validates every track.
//!
//! `cargo bench --bench import`; with `TANGENT_BENCH_GLB=FILE` the GLB is also written to
//! FILE (to time another importer on it).

#[path = "../tests/common/rng.rs"]
mod rng;

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use tangent::import::{import_bytes, ImportFormat, ImportOptions};

const CHANNELS: usize = 200;
const KEYS: usize = 5_000;
const ROWS: usize = 100_000;

/// The GLB: nodes `n0`…`n199`; channels 0–99 translation, 100–149 rotation, 150–199
/// weights of a one-target morph mesh; LINEAR, 30 keys per second.
fn glb() -> Vec<u8> {
    let mut r = rng::uniform(12);
    let mut bin: Vec<u8> = Vec::new();
    let (mut views, mut accessors) = (Vec::new(), Vec::new());
    let mut push = |bin: &mut Vec<u8>, data: &[f32], ty: &str| {
        views.push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": data.len() * 4}));
        let comps = match ty {
            "SCALAR" => 1,
            "VEC3" => 3,
            _ => 4,
        };
        accessors.push(json!({"bufferView": views.len() - 1, "componentType": 5126, "count": data.len() / comps, "type": ty}));
        for x in data {
            bin.extend_from_slice(&x.to_le_bytes());
        }
        accessors.len() - 1
    };
    let times: Vec<f32> = (0..KEYS).map(|k| k as f32 / 30.0).collect();
    let input = push(&mut bin, &times, "SCALAR");
    let (mut samplers, mut channels, mut nodes) = (Vec::new(), Vec::new(), Vec::new());
    let position = push(&mut bin, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let target = push(&mut bin, &[0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0], "VEC3");
    let mesh = json!({"primitives": [{"attributes": {"POSITION": position}, "targets": [{"POSITION": target}]}], "weights": [0.0]});
    for c in 0..CHANNELS {
        let (path, ty, data): (&str, &str, Vec<f32>) = match c {
            0..100 => ("translation", "VEC3", (0..KEYS * 3).map(|_| r() as f32 * 10.0).collect()),
            100..150 => (
                "rotation",
                "VEC4",
                (0..KEYS)
                    .flat_map(|_| {
                        let q = [r() - 0.5, r() - 0.5, r() - 0.5, r() + 0.5];
                        let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
                        q.map(|x| (x / n) as f32)
                    })
                    .collect(),
            ),
            _ => ("weights", "SCALAR", (0..KEYS).map(|_| r() as f32).collect()),
        };
        let output = push(&mut bin, &data, ty);
        samplers.push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
        channels.push(json!({"sampler": c, "target": {"node": c, "path": path}}));
        nodes.push(if path == "weights" { json!({"name": format!("n{c}"), "mesh": 0}) } else { json!({"name": format!("n{c}")}) });
    }
    accessors[input]["min"] = json!([times[0]]);
    accessors[input]["max"] = json!([times[KEYS - 1]]);
    accessors[position]["min"] = json!([0.0, 0.0, 0.0]);
    accessors[position]["max"] = json!([1.0, 1.0, 0.0]);
    accessors[target]["min"] = json!([0.0, 0.0, 0.0]);
    accessors[target]["max"] = json!([0.0, 0.0, 0.5]);
    let root = json!({
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": views,
        "accessors": accessors,
        "meshes": [mesh],
        "nodes": nodes,
        "animations": [{"name": "Big", "channels": channels, "samplers": samplers}],
    });
    let mut text = serde_json::to_vec(&root).unwrap();
    text.resize(text.len().next_multiple_of(4), b' ');
    bin.resize(bin.len().next_multiple_of(4), 0);
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&((12 + 8 + text.len() + 8 + bin.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}

/// The CSV: `time,pos.x,pos.y,pos.z,tint.x,tint.y,tint.z,tint.w,speed`, 100 rows per second.
fn csv() -> Vec<u8> {
    let mut r = rng::uniform(13);
    let mut s = String::from("time,pos.x,pos.y,pos.z,tint.x,tint.y,tint.z,tint.w,speed\n");
    for row in 0..ROWS {
        let _ = write!(s, "{:?}", row as f64 / 100.0);
        for _ in 0..8 {
            let _ = write!(s, ",{:?}", r() * 20.0 - 10.0);
        }
        s.push('\n');
    }
    s.into_bytes()
}

const JOINTS: usize = 100;
const FRAMES: usize = 3_600;

/// The BVH: a root and 99 joints in branches of ten, each `Xposition Yposition Zposition
/// Zrotation Xrotation Yrotation`, six decimals as capture suites write.
fn bvh() -> Vec<u8> {
    let mut r = rng::uniform(30);
    let mut s = String::from("HIERARCHY\n");
    for j in 0..JOINTS {
        let kind = if j == 0 { "ROOT" } else { "JOINT" };
        let _ = write!(s, "{kind} j{j}\n{{\nOFFSET 0.1 0.2 0.0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n");
        if j % 10 == 0 && j > 0 || j == JOINTS - 1 {
            s.push_str("End Site\n{\nOFFSET 0 0.1 0\n}\n");
            // Close back to the root (joint 0 stays open until the end).
            for _ in 0..(if j == JOINTS - 1 { (j - 1) % 10 + 2 } else { 10 }) {
                s.push_str("}\n");
            }
        }
    }
    let _ = write!(s, "MOTION\nFrames: {FRAMES}\nFrame Time: 0.008333\n");
    for _ in 0..FRAMES {
        for j in 0..JOINTS * 6 {
            let _ = write!(s, "{}{:.6}", if j == 0 { "" } else { " " }, r() * 360.0 - 180.0);
        }
        s.push('\n');
    }
    s.into_bytes()
}

fn bench(c: &mut Criterion) {
    let (glb, csv, bvh) = (glb(), csv(), bvh());
    let keys: usize =
        import_bytes(&bvh, ImportFormat::Bvh, "take.bvh", None, &ImportOptions::default()).unwrap().project.tracks.iter().map(|t| t.keys.len()).sum();
    assert_eq!(keys, JOINTS * 2 * FRAMES);
    if let Some(path) = std::env::var_os("TANGENT_BENCH_GLB") {
        std::fs::write(path, &glb).unwrap();
    }
    let options = ImportOptions::default();
    let n = import_bytes(&glb, ImportFormat::Glb, "big.glb", None, &options).unwrap().project.tracks.len();
    assert_eq!(n, CHANNELS);
    let mut g = c.benchmark_group("import");
    g.sample_size(10);
    g.bench_function(format!("GLB {:.1} MB, {CHANNELS} channels x {KEYS} keys", glb.len() as f64 / 1e6), |b| {
        b.iter(|| black_box(import_bytes(&glb, ImportFormat::Glb, "big.glb", None, &options).unwrap()))
    });
    g.bench_function(format!("CSV {:.1} MB, {ROWS} rows", csv.len() as f64 / 1e6), |b| {
        b.iter(|| black_box(import_bytes(&csv, ImportFormat::Csv, "big.csv", None, &options).unwrap()))
    });
    g.bench_function(format!("BVH {:.1} MB, {JOINTS} joints x {FRAMES} frames ({keys} keys)", bvh.len() as f64 / 1e6), |b| {
        b.iter(|| black_box(import_bytes(&bvh, ImportFormat::Bvh, "take.bvh", None, &options).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
