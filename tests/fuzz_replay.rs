//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/`, grown by `cargo +nightly fuzz
//! run <target>`, see fuzz/README.md) through the same checks the fuzz targets run
//! (`tangent::fuzzing`), so an input that once crashed stays fixed on every `cargo test`.

use std::path::PathBuf;

fn replay(target: &str, check: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let result = std::panic::catch_unwind(|| check(&data));
        assert!(result.is_ok(), "{} fails", path.display());
        n += 1;
    }
    assert!(n > 0, "{target}: empty corpus");
}

#[test]
fn load_ron_corpus() {
    replay("load_ron", tangent::fuzzing::load_ron);
}

#[test]
fn import_corpus() {
    replay("import", tangent::fuzzing::import);
}

#[test]
fn evaluate_corpus() {
    replay("evaluate", tangent::fuzzing::evaluate);
}
