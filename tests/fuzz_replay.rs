//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/`, grown by `cargo +nightly fuzz
//! run <target>`, see fuzz/README.md) through the same checks the fuzz targets run
//! (`tangent::fuzzing`), so an input that once crashed stays fixed on every `cargo test`.
//!
//! The checks only panic on a broken invariant, and they look at what loads: a loader that
//! refused every file would pass them all. So each corpus also has a floor on how many of its
//! files load (measured here with the library's own loaders, as the check reads the bytes),
//! and the load_ron target's seed, the demo project, must load.

use std::path::PathBuf;

use tangent::import::{import_bytes, ImportOptions};
use tangent::TrackCurve;

/// Runs `check` on every file of the corpus (none may panic); returns how many files there
/// are and how many of them `loads`.
fn replay(target: &str, check: fn(&[u8]), loads: fn(&[u8]) -> bool) -> (usize, usize) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let (mut n, mut loaded) = (0, 0);
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let result = std::panic::catch_unwind(|| check(&data));
        assert!(result.is_ok(), "{} fails", path.display());
        n += 1;
        loaded += usize::from(loads(&data));
    }
    eprintln!("{target}: {loaded} of {n} files load");
    assert!(n > 0, "{target}: empty corpus");
    (n, loaded)
}

/// What `fuzzing::load_ron` reads: the bytes as (lossy) text, parsed and validated.
fn ron_loads(data: &[u8]) -> bool {
    tangent::io::parse_project(&String::from_utf8_lossy(data), "fuzz").is_ok()
}

/// What `fuzzing::import` reads: the first byte picks the format, the rest is the file.
fn import_loads(data: &[u8]) -> bool {
    let Some((&first, bytes)) = data.split_first() else { return false };
    import_bytes(bytes, tangent::fuzzing::import_format(first), "fuzz", None, &ImportOptions::default()).is_ok()
}

/// The track `fuzzing::evaluate` builds from the bytes (`fuzzing::decode_track`) compiles.
fn track_compiles(data: &[u8]) -> bool {
    tangent::fuzzing::decode_track(data).is_some_and(|(track, _)| TrackCurve::new(&track).is_ok())
}

// The floors. When they were written (each run prints its numbers), 117 of load_ron's 2,311
// files loaded (66 once project files refused unknown fields), 271 of import's 3,040 and 719 of
// evaluate's 845 made a track that compiles. Each floor is under half of that, room for a
// loader made stricter on purpose; a loader that refuses (nearly) everything fails it.
const LOAD_RON_FLOOR: usize = 30;
const IMPORT_FLOOR: usize = 90;
const EVALUATE_FLOOR: usize = 240;

#[test]
fn load_ron_corpus() {
    let (_, loaded) = replay("load_ron", tangent::fuzzing::load_ron, ron_loads);
    assert!(loaded >= LOAD_RON_FLOOR, "load_ron: only {loaded} files load");
    // The target's seed (fuzz/README.md): the demo project, through the same check.
    let demo = std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/demo.ron")).unwrap();
    tangent::fuzzing::load_ron(&demo);
    assert!(ron_loads(&demo), "the demo project, load_ron's seed, loads");
}

#[test]
fn import_corpus() {
    let (_, loaded) = replay("import", tangent::fuzzing::import, import_loads);
    assert!(loaded >= IMPORT_FLOOR, "import: only {loaded} files load");
    // The target's seeds (fuzz/README.md) that need no other file, with the byte that picks
    // their format, through the same check.
    for (byte, name) in [
        (0u8, "mixed_interp.gltf"),
        (1, "bezier_mover.glb"),
        (1, "synthetic_quantized_sparse.glb"),
        (2, "character_clip.json"),
        (2, "three_two_clips.json"),
        (0xF0, "bvh/sample_xzy.bvh"),
        (0xF0, "bvh/cmu_zyx.bvh"),
        (0xF8, "fbx/sample_props.fbx"),
    ] {
        let mut data = vec![byte];
        data.extend(std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import-samples").join(name)).unwrap());
        tangent::fuzzing::import(&data);
        assert!(import_loads(&data), "{name}, an import seed, loads");
    }
}

#[test]
fn evaluate_corpus() {
    let (_, loaded) = replay("evaluate", tangent::fuzzing::evaluate, track_compiles);
    assert!(loaded >= EVALUATE_FLOOR, "evaluate: only {loaded} files make a track that compiles");
}
