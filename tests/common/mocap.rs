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

/// A motion-capture take with its skeleton, as `tools/make_big_bvh.py` writes one and the BVH
/// import reads it: `joints` joints in branches of 10 under the root (joint `i`'s parent is
/// `i - 1` unless `i` starts a branch), each with a `JOINT.translation` (Vec3, its offset plus a
/// little motion) and a `JOINT.rotation` (Euler ZXY, degrees of smooth motion in radians) of
/// `frames` Linear keys at 120 fps. The pose view's benchmark uses it (100 joints × 36,000
/// frames: 7.2 million keys, issue 42).
pub fn mocap_take(joints: usize, frames: usize) -> Project {
    use tangent::model::{Joint, Skeleton};
    let parent = |i: usize| (i > 0).then(|| if i % 10 == 1 { 0 } else { i - 1 });
    let skeleton = Skeleton {
        joints: (0..joints)
            .map(|i| {
                Joint::new(format!("joint{i:03}"), parent(i), [0.0, if i == 0 { 90.0 } else { 8.0 }, 0.0], (i % 10 == 0 && i > 0).then_some([0.0, 5.0, 0.0]))
            })
            .collect(),
    };
    let mut tracks = Vec::with_capacity(2 * joints);
    for (j, joint) in skeleton.joints.iter().enumerate() {
        let phase = j as f64 * 0.37;
        let translation = (0..frames).map(|f| {
            let t = f as f64 / 120.0;
            Key::new(t, vec![joint.offset[0] + 0.2 * (t + phase).sin(), joint.offset[1], joint.offset[2] + 0.2 * (1.3 * t + phase).cos()])
        });
        let rotation = (0..frames).map(|f| {
            let t = f as f64 / 120.0;
            Key::new(t, vec![0.4 * (0.9 * t + phase).sin(), 0.3 * (1.1 * t + phase).cos(), 0.5 * (0.7 * t + phase).sin()])
        });
        tracks.push(Track::new(format!("{}.translation", joint.name), TrackKind::Vec3, Interpolation::Linear).with_keys(translation.collect()));
        let mut r = Track::new(format!("{}.rotation", joint.name), TrackKind::Euler, Interpolation::Linear).with_keys(rotation.collect());
        r.order = tangent::euler::EulerOrder::ZXY;
        tracks.push(r);
    }
    Project { fps: 120.0, tracks, skeleton: Some(skeleton), ..Project::default() }
}
