//! Writes a motion-capture-sized project: `TRACKS` Vec3 TCB tracks of `KEYS` keys at 30 fps,
//! named as glTF import names them (`bone7.translation`), the documents the UI benchmark
//! (`benches/ui_frame.rs`) and the screenshots use.
//!
//! `cargo run --release --example big_doc -- TRACKS KEYS OUT.ron` (e.g. `60 2000 take.ron`).

#[path = "../tests/common/mocap.rs"]
mod mocap;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [tracks, keys, out] = args.as_slice() else {
        anyhow::bail!("usage: big_doc TRACKS KEYS OUT.ron");
    };
    let project = mocap::mocap_project(tracks.parse()?, keys.parse()?);
    tangent::io::save_project(std::path::Path::new(out), &project)?;
    Ok(())
}
