//! Mutated import files (GLB, glTF, three.js JSON, CSV, BVH, FBX) from the samples: every importer
//! returns a project or an error, never panics (issue 12). Mutations flip bytes to values
//! chosen to reach past the parsers (digits, signs, brackets, NaN bit patterns), cut the
//! file short, or duplicate a stretch of it.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use tangent::import::{import_bytes, ImportFormat, ImportOptions};

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import-samples").join(name)).unwrap()
}

const CSV: &str = "time,pos.x,pos.y,pos.z,speed,tint.v\n0,1,2,3,4,5\n0.5,1.5,2,3,4,5\n1,2,2.5,3,4.5,5\n1.5,2,2,2,2,2\n";

/// Bytes a mutation writes: the ones that matter to JSON, CSV and little-endian floats.
const INTERESTING: &[u8] = b"0123456789-+.eE,:\"[]{}\n\0\xff\x7f\x80\xc0";

#[derive(Clone, Debug)]
enum Mutation {
    Set(usize, u8),
    Truncate(usize),
    Repeat(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        6 => (any::<usize>(), prop::sample::select(INTERESTING.to_vec())).prop_map(|(i, b)| Mutation::Set(i, b)),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Set(i, b)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        1 => (any::<usize>(), 1usize..64).prop_map(|(i, n)| Mutation::Repeat(i, n)),
    ]
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        if bytes.is_empty() {
            break;
        }
        match *m {
            Mutation::Set(i, b) => {
                let i = i % bytes.len();
                bytes[i] = b;
            }
            Mutation::Truncate(i) => bytes.truncate(i % bytes.len()),
            Mutation::Repeat(i, n) => {
                let i = i % bytes.len();
                let stretch: Vec<u8> = bytes[i..(i + n).min(bytes.len())].to_vec();
                bytes.splice(i..i, stretch);
            }
        }
    }
    bytes
}

/// Imports `bytes`; returns whether it imported (either way, no panic). A successful import
/// must hold only finite numbers: the fps, and every key's time, value, TCB and ease fields and
/// stored handles (panics naming the track and key otherwise).
fn survives(bytes: &[u8], format: ImportFormat) -> bool {
    let base = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import-samples");
    let Ok(imported) = import_bytes(bytes, format, "fuzz", Some(&base), &ImportOptions::default()) else { return false };
    let project = &imported.project;
    assert!(project.fps.is_finite(), "fps {}", project.fps);
    for track in &project.tracks {
        for (i, k) in track.keys.iter().enumerate() {
            let fields = [k.time, k.tension, k.continuity, k.bias, k.ease_to, k.ease_from];
            let handles = k.left.iter().chain(&k.right).flat_map(|&(dt, dv)| [dt, dv]);
            let all: Vec<f64> = fields.into_iter().chain(k.value.iter().copied()).chain(handles).collect();
            assert!(all.iter().all(|v| v.is_finite()), "track {:?}, key {i}: {k:?}", track.name);
        }
    }
    true
}

/// Cases per proptest below, and how many of them imported (each counter is its test's own):
/// a build whose importers refused every (mutated) file would otherwise pass, as nothing is
/// left to panic.
///
/// Most mutations break the file: over 7 runs of 400 cases, 2.6% of mutated glTF files
/// imported, 4.9% of CSV, 5.0% of three.js JSON, 6.4% of GLB and 82% of GLB binary-chunk
/// flips; of 1,000, 5.2% of BVH and 5.3% of FBX (the floor for both is CASES / 100). At 1,000 cases (a second for all five) the floors below, about a fifth of those
/// means (CASES / 200 for glTF, CASES / 100 for CSV, JSON and GLB, CASES / 2 for the binary
/// chunk), fail a correct build with a probability under 2e-7 (binomial); an importer that
/// refuses everything imports none.
const CASES: u32 = 1000;
static GLB: AtomicUsize = AtomicUsize::new(0);
static GLTF: AtomicUsize = AtomicUsize::new(0);
static THREE_JSON: AtomicUsize = AtomicUsize::new(0);
static CSV_IMPORTED: AtomicUsize = AtomicUsize::new(0);
static GLB_BINARY: AtomicUsize = AtomicUsize::new(0);
static BVH: AtomicUsize = AtomicUsize::new(0);
static FBX: AtomicUsize = AtomicUsize::new(0);

fn count_if(imported: bool, counter: &AtomicUsize) {
    if imported {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// After `run` (a proptest of CASES cases), at least `floor` of them imported.
fn imported_at_least(run: fn(), counter: &AtomicUsize, floor: usize, what: &str) {
    run();
    let n = counter.load(Ordering::Relaxed);
    eprintln!("{what}: {n} of {CASES} mutated files imported");
    assert!(n >= floor, "{what}: only {n} of {CASES} mutated files imported");
}

// The proptests are not `#[test]`s themselves: the tests after them run each and check its
// count.
proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

    fn mutated_glb(which in 0usize..2, mutations in prop::collection::vec(mutation(), 1..8)) {
        let name = ["bezier_mover.glb", "synthetic_quantized_sparse.glb"][which];
        count_if(survives(&mutate(sample(name), &mutations), ImportFormat::Glb), &GLB);
    }

    fn mutated_gltf(which in 0usize..2, mutations in prop::collection::vec(mutation(), 1..8)) {
        let name = ["mixed_interp.gltf", "blender_weights_separate.gltf"][which];
        count_if(survives(&mutate(sample(name), &mutations), ImportFormat::Gltf), &GLTF);
    }

    fn mutated_three_json(which in 0usize..4, mutations in prop::collection::vec(mutation(), 1..8)) {
        let name = ["character_clip.json", "three_all_interpolations.json", "three_two_clips.json", "three_legacy_fps_keys.json"][which];
        count_if(survives(&mutate(sample(name), &mutations), ImportFormat::ThreeJson), &THREE_JSON);
    }

    fn mutated_csv(mutations in prop::collection::vec(mutation(), 1..8)) {
        count_if(survives(&mutate(CSV.as_bytes().to_vec(), &mutations), ImportFormat::Csv), &CSV_IMPORTED);
    }

    fn mutated_bvh(which in 0usize..2, mutations in prop::collection::vec(mutation(), 1..8)) {
        let name = ["bvh/sample_xzy.bvh", "bvh/cmu_zyx.bvh"][which];
        count_if(survives(&mutate(sample(name), &mutations), ImportFormat::Bvh), &BVH);
    }

    fn mutated_fbx(which in 0usize..2, mutations in prop::collection::vec(mutation(), 1..8)) {
        let name = ["fbx/sample_props.fbx", "fbx/hand_ascii.fbx"][which];
        count_if(survives(&mutate(sample(name), &mutations), ImportFormat::Fbx), &FBX);
    }

    /// The binary chunk alone: the JSON stays valid, so the accessor checks and the reader
    /// see bad offsets, NaN and out-of-order times.
    fn mutated_glb_binary(flips in prop::collection::vec((any::<usize>(), any::<u8>()), 1..16)) {
        let mut bytes = sample("synthetic_quantized_sparse.glb");
        let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let bin = 20 + json_len + 8;
        for (i, b) in flips {
            let i = bin + i % (bytes.len() - bin);
            bytes[i] = b;
        }
        count_if(survives(&bytes, ImportFormat::Glb), &GLB_BINARY);
    }
}

#[test]
fn mutated_glb_never_panics() {
    imported_at_least(mutated_glb, &GLB, CASES as usize / 100, "glb");
}

#[test]
fn mutated_gltf_never_panics() {
    imported_at_least(mutated_gltf, &GLTF, CASES as usize / 200, "gltf");
}

#[test]
fn mutated_three_json_never_panics() {
    imported_at_least(mutated_three_json, &THREE_JSON, CASES as usize / 100, "three.js json");
}

#[test]
fn mutated_csv_never_panics() {
    imported_at_least(mutated_csv, &CSV_IMPORTED, CASES as usize / 100, "csv");
}

#[test]
fn mutated_bvh_never_panics() {
    imported_at_least(mutated_bvh, &BVH, CASES as usize / 100, "bvh");
}

#[test]
fn mutated_fbx_never_panics() {
    imported_at_least(mutated_fbx, &FBX, CASES as usize / 100, "fbx");
}

#[test]
fn mutated_glb_binary_never_panics() {
    imported_at_least(mutated_glb_binary, &GLB_BINARY, CASES as usize / 2, "glb binary chunk");
}

/// Numbers in the glTF JSON replaced by extremes: indices, counts, offsets and strides far
/// out of range reach the accessor checks.
#[test]
fn extreme_numbers_in_gltf_json_never_panic() {
    let text = String::from_utf8(sample("mixed_interp.gltf")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let extremes = [
        serde_json::json!(0),
        serde_json::json!(1),
        serde_json::json!(4294967295u64),
        serde_json::json!(18446744073709551615u64),
        serde_json::json!(-1),
        serde_json::json!(3),
    ];
    let mut paths = Vec::new();
    collect_numbers(&json, String::new(), &mut paths);
    let mut imported = 0;
    for path in &paths {
        if path.starts_with("/buffers/0/uri") {
            continue;
        }
        for x in &extremes {
            let mut j = json.clone();
            *j.pointer_mut(path).unwrap() = x.clone();
            imported += usize::from(survives(&serde_json::to_vec(&j).unwrap(), ImportFormat::Gltf));
        }
    }
    assert!(paths.len() > 100 && imported > 0, "{} paths, {imported} imported", paths.len());
}

fn collect_numbers(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Number(_) => out.push(at),
        serde_json::Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| collect_numbers(x, format!("{at}/{i}"), out)),
        serde_json::Value::Object(o) => o.iter().for_each(|(k, x)| collect_numbers(x, format!("{at}/{k}"), out)),
        _ => {}
    }
}
