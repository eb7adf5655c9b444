//! The glTF node hierarchy as the skeleton, on a small file worked by hand.

use base64::Engine as _;
use serde_json::{json, Value};

use super::decompose;
use crate::body::{Pose, Rig};
use crate::import::{import_bytes, ImportFormat, ImportOptions, Imported};
use crate::model::Joint;
use crate::TrackCurve;

const H: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// Times 0 and 1 s, and Arm's rotation from the identity to 90° about Z (LINEAR: slerp).
fn buffer() -> String {
    let h = H as f32;
    let floats: [f32; 10] = [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, h, h];
    let bytes: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
    format!("data:application/octet-stream;base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// The scene (node 0 its root):
///
/// ```text
/// 0 "Root"  T (1, 0, 0), R 90° about Z, S 2
/// ├─ 1 "Arm"  T (1, 0, 0), its rotation animated 0° → 90° about Z over 1 s
/// │  └─ 2 (unnamed)  matrix: T (0, 1, 0) · R 180° about X · S (1, 1, 3)
/// │     └─ 5 "Tip"  T (0, 0, 1)
/// └─ 3 "Arm"  T (0, 0, 5)
/// 4 "Loose": in no scene
/// ```
fn file(edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let mut gltf = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "Root", "translation": [1, 0, 0], "rotation": [0, 0, H, H], "scale": [2, 2, 2], "children": [1, 3]},
            {"name": "Arm", "translation": [1, 0, 0], "children": [2]},
            {"matrix": [1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -3, 0, 0, 1, 0, 1], "children": [5]},
            {"name": "Arm", "translation": [0, 0, 5]},
            {"name": "Loose"},
            {"name": "Tip", "translation": [0, 0, 1]}
        ],
        "buffers": [{"byteLength": 40, "uri": buffer()}],
        "bufferViews": [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 32}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [1.0]},
            {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC4"}
        ],
        "animations": [{"name": "Wave", "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}], "samplers": [{"input": 0, "output": 1}]}]
    });
    edit(&mut gltf);
    serde_json::to_vec(&gltf).unwrap()
}

fn import(bytes: &[u8], animation: Option<&str>) -> Imported {
    let options = ImportOptions { animation: animation.map(str::to_owned), ..ImportOptions::default() };
    import_bytes(bytes, ImportFormat::Gltf, "hand.gltf", None, &options).unwrap()
}

/// Every joint's world position at `t`.
fn pose(imported: &Imported, t: f64) -> Vec<(String, [f64; 3])> {
    let rig = Rig::new(&imported.project).unwrap();
    let curves: Vec<TrackCurve> = imported.project.tracks.iter().map(|t| TrackCurve::new(t).unwrap()).collect();
    let mut animated = rig.animate(|i| Ok(&curves[i])).unwrap();
    let mut pose = Pose::default();
    animated.pose_at(t, &mut pose).unwrap();
    rig.points().iter().map(|p| p.name.clone()).zip(pose.points).collect()
}

fn close(a: [f64; 3], b: [f64; 3]) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-6)
}

/// The scene's nodes depth first, named as the tracks, with their rest values (the matrix
/// decomposed); the node in no scene left out. World positions worked by hand:
/// Root at (1, 0, 0); Arm at Root · (1, 0, 0) = (1, 0, 0) + Rz90 · 2 · (1, 0, 0) = (1, 2, 0);
/// `node2` at Root · Arm(t) · (0, 1, 0), Tip at Root · Arm(t) · ((0, 1, 0) + Rx180 · (0, 0, 3)) =
/// Root · Arm(t) · (0, 1, −3); Arm#3 at (1, 0, 0) + Rz90 · 2 · (0, 0, 5) = (1, 0, 10).
#[test]
fn a_hierarchy_by_hand() {
    let imported = import(&file(|_| {}), None);
    assert!(imported.report.warnings.is_empty(), "{:?}", imported.report.warnings);
    assert_eq!(imported.project.tracks[0].name, "Arm#1.rotation");
    let skeleton = imported.project.skeleton.as_ref().expect("a skeleton");
    let rest = |name: &str, parent: Option<usize>, offset: [f64; 3], rotation: Option<[f64; 4]>, scale: Option<[f64; 3]>| Joint {
        rotation,
        scale,
        ..Joint::new(name, parent, offset, None)
    };
    let root_rotation = [0.0, 0.0, f64::from(H as f32), f64::from(H as f32)];
    assert_eq!(
        skeleton.joints,
        [
            rest("Root", None, [1.0, 0.0, 0.0], Some(root_rotation), Some([2.0; 3])),
            rest("Arm#1", Some(0), [1.0, 0.0, 0.0], None, None),
            rest("node2", Some(1), [0.0, 1.0, 0.0], Some([1.0, 0.0, 0.0, 0.0]), Some([1.0, 1.0, 3.0])),
            rest("Tip", Some(2), [0.0, 0.0, 1.0], None, None),
            rest("Arm#3", Some(0), [0.0, 0.0, 5.0], None, None),
        ]
    );
    assert_eq!(imported.project.version, 5, "rest rotations and scales");
    // Arm(t) = T(1, 0, 0) · Rz(90° t).
    let s2 = std::f64::consts::SQRT_2;
    for (t, node2, tip) in [
        // Arm(0) · (0, 1, 0) = (1, 1, 0) → (1, 0, 0) + 2 · (−1, 1, 0); (1, 1, −3) → (1, 0, 0) + 2 · (−1, 1, −3).
        (0.0, [-1.0, 2.0, 0.0], [-1.0, 2.0, -6.0]),
        // Rz(45°) · (0, 1, 0) = (−√½, √½, 0): (1 − √½, √½, 0) → (1, 0, 0) + 2 · (−√½, 1 − √½, 0).
        (0.5, [1.0 - s2, 2.0 - s2, 0.0], [1.0 - s2, 2.0 - s2, -6.0]),
        // Rz(90°) · (0, 1, 0) = (−1, 0, 0): (0, 0, 0) → (1, 0, 0); (0, 0, −3) → (1, 0, −6).
        (1.0, [1.0, 0.0, 0.0], [1.0, 0.0, -6.0]),
        // Held after the clip.
        (3.0, [1.0, 0.0, 0.0], [1.0, 0.0, -6.0]),
    ] {
        let want = [("Root", [1.0, 0.0, 0.0]), ("Arm#1", [1.0, 2.0, 0.0]), ("node2", node2), ("Tip", tip), ("Arm#3", [1.0, 0.0, 10.0])];
        let got = pose(&imported, t);
        assert_eq!(got.len(), want.len());
        for ((name, p), (want_name, w)) in got.iter().zip(want) {
            assert_eq!(name, want_name);
            assert!(close(*p, w), "{name} at {t}: {p:?}, by hand {w:?}");
        }
    }
}

/// No body: a scene of loose nodes, several animations at once (their `ANIMATION/` tracks
/// bind to no joint; one picked by `--animation` does), only a morph weights channel.
#[test]
fn when_there_is_no_skeleton() {
    let flat = file(|g| {
        g["nodes"][0]["children"] = json!([]);
        g["scenes"][0]["nodes"] = json!([0, 1]);
        g["nodes"][1]["children"] = json!([]);
    });
    assert_eq!(import(&flat, None).project.skeleton, None);
    let two = file(|g| {
        let second = g["animations"][0].clone();
        g["animations"].as_array_mut().unwrap().push(second);
        g["animations"][1]["name"] = json!("Again");
    });
    assert_eq!(import(&two, None).project.skeleton, None);
    assert_eq!(import(&two, None).project.tracks[0].name, "Wave/Arm#1.rotation");
    assert_eq!(import(&two, Some("Again")).project.skeleton.map(|s| s.joints.len()), Some(5));
    // No scenes: every node that is no node's child, Loose among them.
    let sceneless = file(|g| {
        g.as_object_mut().unwrap().remove("scene");
        g.as_object_mut().unwrap().remove("scenes");
    });
    let names: Vec<String> = import(&sceneless, None).project.skeleton.unwrap().joints.into_iter().map(|j| j.name).collect();
    assert_eq!(names, ["Root", "Arm#1", "node2", "Tip", "Arm#3", "Loose"]);
}

/// A hierarchy that is not a tree, a zero rotation: the tracks import, with a warning and no
/// skeleton.
#[test]
fn a_broken_hierarchy_is_named() {
    for (edit, says) in [
        (Box::new(|g: &mut Value| g["nodes"][3]["children"] = json!([2])) as Box<dyn FnOnce(&mut Value)>, "node 2 is the child of two nodes"),
        (Box::new(|g: &mut Value| g["nodes"][3]["children"] = json!([9])), "lists the child 9, which does not exist"),
        (Box::new(|g: &mut Value| g["scenes"][0]["nodes"] = json!([1])), "root node 1"),
        (Box::new(|g: &mut Value| g["nodes"][3]["rotation"] = json!([0, 0, 0, 0])), "cannot be the skeleton"),
    ] {
        let imported = import(&file(edit), None);
        assert_eq!(imported.project.skeleton, None);
        assert_eq!(imported.project.tracks.len(), 1);
        assert!(imported.report.warnings.len() == 1 && imported.report.warnings[0].contains(says), "{:?}", imported.report.warnings);
    }
}

/// `decompose` undoes T · R · S (a negative determinant as a negative x scale, as three.js).
#[test]
fn matrices_decompose_as_three_js() {
    let q = crate::quat::normalize(&[0.3, -0.5, 0.2, 0.8]);
    for s in [[2.0, 0.5, 1.5], [-2.0, 0.5, 1.5]] {
        let a = crate::body::Affine::trs([4.0, -1.0, 0.25], &q, s);
        let mut te = [0.0; 16];
        for c in 0..3 {
            for r in 0..3 {
                te[c * 4 + r] = a.m[r][c];
            }
            te[12 + c] = a.p[c];
        }
        te[15] = 1.0;
        let (t, r, sc) = decompose(&te);
        assert_eq!(t, [4.0, -1.0, 0.25]);
        assert!(sc.iter().zip(&s).all(|(a, b)| (a - b).abs() < 1e-14), "{sc:?}");
        let same = r.iter().zip(&q).all(|(a, b)| (a - b).abs() < 1e-14) || r.iter().zip(&q).all(|(a, b)| (a + b).abs() < 1e-14);
        assert!(same, "{r:?} vs {q:?}");
    }
}
