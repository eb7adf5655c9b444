//! A motion-capture-sized project: `tracks` Vec3 TCB tracks of `keys` keys at 30 fps, named
//! as glTF import names them (`bone7.translation`). The UI benchmark and `examples/big_doc.rs`
//! use it.

use tangent::{Interpolation, Key, Project, Track, TrackKind};

pub fn mocap_project(tracks: usize, keys: usize) -> Project {
    let tracks = (0..tracks)
        .map(|t| {
            let k = (0..keys).map(|i| {
                let x = i as f64 * 0.05 + t as f64;
                Key::new(i as f64 / 30.0, vec![x.sin(), (1.3 * x).cos(), (0.7 * x).sin() * 2.0])
            });
            Track::new(format!("bone{t}.translation"), TrackKind::Vec3, Interpolation::Tcb).with_keys(k.collect())
        })
        .collect();
    Project { tracks, ..Project::default() }
}
