//! Where the time of importing a big file goes (issue 30's 7.2-million-key BVH take): the
//! import (read, parse, tracks, validation), one more validation (what saving does), the
//! project's text, and writing it; then the bytes a key costs in the project as held (keys
//! held as columns: their values, and each distinct list of times once).
//!
//! `cargo run --release --example import_phases -- FILE.bvh` (make FILE with
//! `python3 tools/make_big_bvh.py FILE.bvh`).

use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let path = std::env::args().nth(1).ok_or_else(|| anyhow::anyhow!("usage: import_phases FILE"))?;
    let t = Instant::now();
    let imported = tangent::import::import_path(std::path::Path::new(&path), &tangent::import::ImportOptions::default())?;
    println!("import (read, parse, tracks, validate)\t{:.2} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    tangent::io::validate_project(&imported.project)?;
    println!("validate again (as save does)\t{:.2} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let text = tangent::io::project_to_string(&imported.project)?;
    println!("project text ({} MB)\t{:.2} s", text.len() >> 20, t.elapsed().as_secs_f64());
    let tracks = &imported.project.tracks;
    let keys: usize = tracks.iter().map(|t| t.keys.len()).sum();
    let (mut values, mut times, mut full) = (0usize, 0usize, 0usize);
    let mut seen = std::collections::HashSet::new();
    for t in tracks {
        match t.keys.columns() {
            Some(c) => {
                values += c.values.len() * 8;
                if seen.insert(std::sync::Arc::as_ptr(&c.times).cast::<f64>()) {
                    times += c.times.len() * 8;
                }
            }
            None => full += t.keys.iter().map(|k| std::mem::size_of::<tangent::Key>() + k.value.len() * 8).sum::<usize>(),
        }
    }
    let columns = tracks.iter().filter(|t| t.keys.columns().is_some()).count();
    #[allow(clippy::cast_precision_loss)]
    let per_key = (values + times + full) as f64 / keys.max(1) as f64;
    println!(
        "keys {keys} in {} tracks ({columns} as columns, {} distinct lists of times): values {} MB, times {} MB, full keys {} MB; {per_key:.2} bytes a key (a full key: {} bytes + its values)",
        tracks.len(),
        seen.len(),
        values >> 20,
        times >> 20,
        full >> 20,
        std::mem::size_of::<tangent::Key>()
    );
    Ok(())
}
