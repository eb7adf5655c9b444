//! Where the time of importing a big file goes (issue 30's 7.2-million-key BVH take): the
//! import (read, parse, tracks, validation), one more validation (what saving does), the
//! project's text, and writing it; then the bytes a key costs in the project as held.
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
    let keys: usize = imported.project.tracks.iter().map(|t| t.keys.len()).sum();
    let key_bytes = std::mem::size_of::<tangent::Key>() + imported.project.tracks.first().map_or(0, |t| t.kind.dim() * 8);
    println!(
        "keys {keys}; a key: {} bytes inline + {} of values on the heap",
        std::mem::size_of::<tangent::Key>(),
        key_bytes - std::mem::size_of::<tangent::Key>()
    );
    Ok(())
}
