//! Writes a motion-capture-sized project: `TRACKS` Vec3 TCB tracks of `KEYS` keys at 30 fps,
//! named as glTF import names them (`bone7.translation`), the documents the UI benchmark
//! (`benches/ui_frame.rs`) and the screenshots use.
//!
//! `cargo run --release --example big_doc -- TRACKS KEYS OUT.ron` (e.g. `60 2000 take.ron`).

use tangent::{Interpolation, Key, Project, Track, TrackKind};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [tracks, keys, out] = args.as_slice() else {
        anyhow::bail!("usage: big_doc TRACKS KEYS OUT.ron");
    };
    let (tracks, keys): (usize, usize) = (tracks.parse()?, keys.parse()?);
    let tracks = (0..tracks)
        .map(|t| {
            let k = (0..keys).map(|i| {
                let x = i as f64 * 0.05 + t as f64;
                Key::new(i as f64 / 30.0, vec![x.sin(), (1.3 * x).cos(), (0.7 * x).sin() * 2.0])
            });
            Track::new(format!("bone{t}.translation"), TrackKind::Vec3, Interpolation::Tcb).with_keys(k.collect())
        })
        .collect();
    tangent::io::save_project(std::path::Path::new(out), &Project { tracks, ..Project::default() })?;
    Ok(())
}
