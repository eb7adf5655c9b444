//! Skeletons with rest rotations, scales and FBX pivots exported to glTF: the rest values on
//! the joints' nodes, every track on its joint's node, and pivots as helper nodes, held to
//! positions worked out by hand and to the body's forward kinematics.

use super::super::{export, ExportOptions, Format};
use super::tests::{farthest, no_progress, Played};
use crate::bake::Fps;
use crate::model::{Joint, Project, Skeleton};
use crate::quat;

/// A glTF import's skeleton, worked by hand: `Root` at (1, 0, 0) turned 90° about z and
/// scaled (2, 1, 1) at rest, `Tip` 1 along its x with a rest rotation of 90° about y, `End` 1
/// along Tip's y. The tracks are bound as the glTF import binds them (`Binding::Gltf`, named
/// `NODE.property`): Root's translation (0 s: (1, 0, 0), 1 s: (1, 0, 4), linear), Tip's
/// rotation (identity, then 90° about x, slerped; it replaces Tip's rest rotation) and Tip's
/// one morph weight. Root's rotation and scale are not animated: it keeps them.
///
/// Root's local matrix R·S takes (x, y, z) to (−y, 2x, z). Tip's world position is Root's
/// translation plus R·S·(1, 0, 0) = (0, 2, 0); End's is Root's translation plus R·S·(1 +
/// Rx(θ)·(0, 1, 0)): θ = 0: (1, 1, 0) → (−1, 2, 0); 45°: (1, cos 45°, sin 45°) → (−cos 45°, 2,
/// sin 45°); 90°: (1, 0, 1) → (0, 2, 1). So at 0, ½ and 1 s (Root at z 0, 2, 4):
/// Tip (1, 2, 0), (1, 2, 2), (1, 2, 4); End (0, 2, 0), (1 − cos 45°, 2, 2 + sin 45°), (1, 2, 5).
#[test]
fn rest_rotation_and_scale_by_hand() {
    use crate::body::{Affine, Pose, Rig};
    use crate::model::{Binding, Element, GltfProperty, Interpolation, Key, Track, TrackKind};
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let mut root = Joint::new("Root", None, [1.0, 0.0, 0.0], None);
    (root.rotation, root.scale) = (Some([0.0, 0.0, h, h]), Some([2.0, 1.0, 1.0]));
    let mut tip = Joint::new("Tip", Some(0), [1.0, 0.0, 0.0], None);
    tip.rotation = Some([0.0, h, 0.0, h]);
    let end = Joint::new("End", Some(1), [0.0, 1.0, 0.0], None);
    let bound = |node: usize, name: &str, property, element| Binding::Gltf { animation: "Walk".into(), node, node_name: Some(name.into()), property, element };
    let mut translation = Track::new("Root.translation", TrackKind::Vec3, Interpolation::Linear)
        .with_keys(vec![Key::new(0.0, vec![1.0, 0.0, 0.0]), Key::new(1.0, vec![1.0, 0.0, 4.0])]);
    translation.binding = Some(bound(0, "Root", GltfProperty::Translation, None));
    let mut rotation = Track::new("Tip.rotation", TrackKind::Quat, Interpolation::Slerp)
        .with_keys(vec![Key::new(0.0, vec![0.0, 0.0, 0.0, 1.0]), Key::new(1.0, vec![h, 0.0, 0.0, h])]);
    rotation.binding = Some(bound(1, "Tip", GltfProperty::Rotation, None));
    let mut weight = Track::new("Tip.weights[0]", TrackKind::Scalar, Interpolation::Linear).with_keys(vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![1.0])]);
    weight.binding = Some(bound(1, "Tip", GltfProperty::Weights, Some(Element { index: 0, count: 1 })));
    let project = Project { tracks: vec![translation, rotation, weight], skeleton: Some(Skeleton { joints: vec![root, tip, end] }), ..Project::default() };
    let c45 = h;
    let truth = [
        (0.0, [[1.0, 0.0, 0.0], [1.0, 2.0, 0.0], [0.0, 2.0, 0.0]]),
        (0.5, [[1.0, 0.0, 2.0], [1.0, 2.0, 2.0], [1.0 - c45, 2.0, 2.0 + c45]]),
        (1.0, [[1.0, 0.0, 4.0], [1.0, 2.0, 4.0], [1.0, 2.0, 5.0]]),
    ];

    // The GLB: one node per joint (no node of the source beside it), the rest rotation and
    // scale on Root and Tip, every channel on the joints in the animation "Walk".
    let (bytes, report) = export(&project, Format::Glb, &ExportOptions::new(Fps::new(24.0).unwrap()), &no_progress).unwrap();
    let g = gltf::Gltf::from_slice(&bytes).unwrap();
    let json = g.document.as_json();
    let names: Vec<&str> = json.nodes.iter().map(|n| n.name.as_deref().unwrap()).collect();
    assert_eq!(names, ["Root", "Tip", "End"]);
    let f = |v: f64| v as f32;
    assert_eq!(json.nodes[0].rotation.map(|q| q.0), Some([0.0, 0.0, f(h), f(h)]));
    assert_eq!(json.nodes[0].scale, Some([2.0, 1.0, 1.0]));
    assert_eq!(json.nodes[1].rotation.map(|q| q.0), Some([0.0, f(h), 0.0, f(h)]));
    assert_eq!((json.nodes[1].scale, json.nodes[2].rotation.map(|q| q.0), json.nodes[2].scale), (None, None, None));
    assert_eq!(json.nodes[1].mesh.map(|m| m.value()), Some(0), "Tip's morph weight on Tip");
    let animations: Vec<gltf::Animation> = g.animations().collect();
    assert_eq!(animations.len(), 1);
    assert_eq!(animations[0].name(), Some("Walk"));
    let on: Vec<(usize, gltf::animation::Property)> = animations[0].channels().map(|c| (c.target().node().index(), c.target().property())).collect();
    use gltf::animation::Property as P;
    assert_eq!(on, [(0, P::Translation), (1, P::Rotation), (1, P::MorphTargetWeights)]);
    let destinations: Vec<&str> = report.iter().map(|r| r.destination.as_str()).collect();
    assert_eq!(
        destinations,
        ["node \"Root\" translation in animation \"Walk\"", "node \"Tip\" rotation in animation \"Walk\"", "node \"Tip\" weights[0] in animation \"Walk\""]
    );

    // Played as glTF plays it: each node T·R·S from its rest values, its channels replacing
    // them (both channels here are linear with keys at 0 and 1 s).
    let blob = g.blob.clone().unwrap();
    let rest: Vec<([f64; 3], [f64; 4], [f64; 3])> =
        g.nodes().map(|n| n.transform().decomposed()).map(|(t, r, s)| (t.map(f64::from), r.map(f64::from), s.map(f64::from))).collect();
    let played = |t: f64| -> Vec<[f64; 3]> {
        let mut local = rest.clone();
        for c in animations[0].channels() {
            let reader = c.reader(|_| Some(&blob[..]));
            let node = c.target().node().index();
            match reader.read_outputs().unwrap() {
                gltf::animation::util::ReadOutputs::Translations(v) => {
                    let v: Vec<[f64; 3]> = v.map(|x| x.map(f64::from)).collect();
                    local[node].0 = [0, 1, 2].map(|k| v[0][k] + (v[1][k] - v[0][k]) * t);
                }
                gltf::animation::util::ReadOutputs::Rotations(r) => {
                    let q: Vec<[f64; 4]> = r.into_f32().map(|x| x.map(f64::from)).collect();
                    local[node].1 = quat::slerp(&q[0], &q[1], t);
                }
                _ => {}
            }
        }
        let mut world: Vec<Affine> = Vec::new();
        for (i, (t, r, s)) in local.iter().enumerate() {
            let l = Affine::trs(*t, &quat::normalize(r), *s);
            let parent = (0..i).find(|&p| json.nodes[p].children.iter().flatten().any(|c| c.value() == i));
            world.push(parent.map_or(l, |p| world[p].then(&l)));
        }
        world.iter().map(|w| w.p).collect()
    };
    let mut rig_pose = Pose::default();
    let rig = Rig::new(&project).unwrap();
    let curves: Vec<crate::TrackCurve> = project.tracks.iter().map(|t| crate::TrackCurve::new(t).unwrap()).collect();
    let mut body = rig.animate(|i| Ok(&curves[i])).unwrap();
    for (t, points) in truth {
        let glb = played(t);
        body.pose_at(t, &mut rig_pose).unwrap();
        for (j, p) in points.iter().enumerate() {
            assert!(farthest(&[*p], &[glb[j]]) < 1e-6, "{} at {t} s: the GLB plays {:?}, by hand {p:?}", names[j], glb[j]);
            assert!(farthest(&[*p], &[rig_pose.points[j]]) < 1e-12, "{} at {t} s: the body is at {:?}, by hand {p:?}", names[j], rig_pose.points[j]);
        }
    }
}

/// A track goes to the joint the body binds it to: by node binding (BVH, FBX) or by name
/// (`JOINT.translation`, `.rotation`, `.scale`; a glTF import's `JOINT.weights[i]`), and only
/// for the property it animates; other tracks keep their own nodes.
#[test]
fn tracks_go_to_their_joints() {
    use super::joint_of;
    use crate::model::{Binding, Element, GltfProperty, Interpolation, Track, TrackKind};
    let skeleton = Skeleton { joints: vec![Joint::new("Hips", None, [0.0; 3], None), Joint::new("Arm.L", Some(0), [1.0, 0.0, 0.0], None)] };
    let track = |name: &str, binding: Option<Binding>| Track { binding, ..Track::new(name, TrackKind::Vec3, Interpolation::Linear) };
    let gltf = |node_name: &str, property, element| Binding::Gltf { animation: "A".into(), node: 7, node_name: Some(node_name.into()), property, element };
    let node = |node: &str, property| Binding::Node { animation: "A".into(), node: node.into(), property, element: None };
    let one = Some(Element { index: 1, count: 2 });
    let cases = [
        (track("Hips.translation", Some(gltf("Hips", GltfProperty::Translation, None))), Some(("Hips", GltfProperty::Translation))),
        (track("Arm.L.scale", Some(gltf("Arm.L", GltfProperty::Scale, None))), Some(("Arm.L", GltfProperty::Scale))),
        (track("Arm.L.rotation", None), Some(("Arm.L", GltfProperty::Rotation))),
        (track("Hips.weights[1]", Some(gltf("Hips", GltfProperty::Weights, one))), Some(("Hips", GltfProperty::Weights))),
        (track("Hips.weights[0]", Some(gltf("Hips", GltfProperty::Weights, one))), None),
        (track("Hips.weights[1]", None), None),
        (track("anything", Some(node("Hips", GltfProperty::Rotation))), Some(("Hips", GltfProperty::Rotation))),
        (track("Hips.translation", Some(node("Elsewhere", GltfProperty::Translation))), None),
        (track("Head.translation", None), None),
        (track("Hips.position", None), None),
    ];
    for (t, want) in cases {
        assert_eq!(joint_of(&skeleton, &t), want, "{}", t.name);
    }
}

/// A joint with FBX's pre- and post-rotation, pivots and offsets (`crate::body::Pivots`) is
/// written as glTF's `T · R · S` nodes that hold its local transform exactly, played here as a
/// glTF player plays them (every node from its rest values, linear translation and scale,
/// slerped rotation) against the body at and between the keys:
/// - Turn (pre- and post-rotation only): one node, its rotation channel `Rpre · R · Rpost⁻¹`.
/// - Pivot (a rotation pivot and offset, a scaling pivot, a rest scale not animated): a node
///   `Pivot_pivot2` (a joint is called `Pivot_pivot`) with the translation and rotation
///   channels, then the joint's own node.
/// - Grow (a scaling pivot and an animated scale): `Grow_pivot` with the rotation (none
///   animated), `Grow_scaling` with the scale channel, then the joint's node.
#[test]
fn pivots_as_nodes() {
    use crate::body::{Pose, Rig};
    use crate::model::{Binding, GltfProperty, Interpolation, Key, Track, TrackKind};
    let (h, c30, s30) = (std::f64::consts::FRAC_1_SQRT_2, 15f64.to_radians().cos(), 15f64.to_radians().sin());
    let hips = Joint::new("Hips", None, [0.0, 1.0, 0.0], None);
    let mut turn = Joint::new("Turn", Some(0), [1.0, 0.0, 0.0], Some([0.0, 1.0, 0.0]));
    (turn.pre_rotation, turn.post_rotation) = (Some([0.0, 0.0, h, h]), Some([s30, 0.0, 0.0, c30]));
    let mut pivot = Joint::new("Pivot", Some(1), [0.0, 0.0, 1.0], Some([1.0, 0.0, 0.0]));
    (pivot.rotation_pivot, pivot.rotation_offset, pivot.scaling_pivot) = (Some([1.0, 0.0, 0.0]), Some([0.0, 1.0, 0.0]), Some([0.0, 0.5, 0.0]));
    (pivot.pre_rotation, pivot.scale) = (Some([s30, 0.0, 0.0, c30]), Some([2.0, 1.0, 1.0]));
    let mut grow = Joint::new("Grow", Some(2), [0.0, 1.0, 0.0], Some([1.0, 1.0, 0.0]));
    (grow.scaling_pivot, grow.scaling_offset, grow.rotation_pivot) = (Some([0.5, 0.0, 0.0]), Some([0.0, 0.0, 0.25]), Some([0.0, 0.0, 0.5]));
    grow.rotation = Some([0.0, s30, 0.0, c30]);
    let clash = Joint::new("Pivot_pivot", Some(0), [0.0, 0.0, -1.0], None);
    // Bound as an FBX import binds them (node and property).
    let linear = |name: &str, kind, interpolation, a: Vec<f64>, b: Vec<f64>| {
        let (node, property) = name.split_once('.').unwrap();
        let property = match property {
            "rotation" => GltfProperty::Rotation,
            "translation" => GltfProperty::Translation,
            _ => GltfProperty::Scale,
        };
        let binding = Binding::Node { animation: "Take".into(), node: node.into(), property, element: None };
        Track { binding: Some(binding), ..Track::new(name, kind, interpolation).with_keys(vec![Key::new(0.0, a), Key::new(1.0, b)]) }
    };
    let tracks = vec![
        linear("Turn.rotation", TrackKind::Quat, Interpolation::Slerp, vec![0.0, 0.0, 0.0, 1.0], vec![0.0, h, 0.0, h]),
        linear("Pivot.rotation", TrackKind::Quat, Interpolation::Slerp, vec![0.0, 0.0, 0.0, 1.0], vec![0.0, 0.0, h, h]),
        linear("Pivot.translation", TrackKind::Vec3, Interpolation::Linear, vec![0.0, 0.0, 1.0], vec![0.0, 1.0, 1.0]),
        linear("Grow.scale", TrackKind::Vec3, Interpolation::Linear, vec![1.0, 1.0, 1.0], vec![3.0, 1.0, 2.0]),
    ];
    let project = Project { tracks, skeleton: Some(Skeleton { joints: vec![hips, turn, pivot, grow, clash] }), ..Project::default() };
    let (bytes, _) = export(&project, Format::Glb, &ExportOptions::new(Fps::new(24.0).unwrap()), &no_progress).unwrap();
    let g = gltf::Gltf::from_slice(&bytes).unwrap();
    let nodes: Vec<gltf::Node> = g.nodes().collect();
    let names: Vec<&str> = nodes.iter().map(|n| n.name().unwrap()).collect();
    let node = |name: &str| names.iter().position(|n| *n == name).unwrap_or_else(|| panic!("no node {name} in {names:?}"));
    let parents = Played::parents_of(nodes.len(), |n| nodes[n].children().map(|c| c.index()).collect());
    let parent = |name: &str| parents[node(name)].map(|p| names[p]);
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ["Grow", "Grow_end", "Grow_pivot", "Grow_scaling", "Hips", "Pivot", "Pivot_end", "Pivot_pivot", "Pivot_pivot2", "Turn", "Turn_end"]);
    assert_eq!(
        ["Turn", "Pivot_pivot2", "Pivot", "Grow_pivot", "Grow_scaling", "Grow", "Pivot_pivot"].map(parent),
        [Some("Hips"), Some("Turn"), Some("Pivot_pivot2"), Some("Pivot"), Some("Grow_pivot"), Some("Grow_scaling"), Some("Hips")]
    );
    let scene_roots: Vec<usize> = g.default_scene().unwrap().nodes().map(|n| n.index()).collect();
    assert_eq!(scene_roots, [node("Hips")]);
    let on: Vec<(&str, gltf::animation::Property)> =
        g.animations().flat_map(|a| a.channels().map(|c| (names[c.target().node().index()], c.target().property())).collect::<Vec<_>>()).collect();
    use gltf::animation::Property as P;
    assert_eq!(on, [("Turn", P::Rotation), ("Pivot_pivot2", P::Rotation), ("Pivot_pivot2", P::Translation), ("Grow_scaling", P::Scale)]);

    // Played: rest T·R·S per node, each channel (two keys, at 0 and 1 s) replacing its part.
    let blob = g.blob.clone().unwrap();
    let rest: Vec<([f64; 3], [f64; 4], [f64; 3])> =
        nodes.iter().map(|n| n.transform().decomposed()).map(|(t, r, s)| (t.map(f64::from), r.map(f64::from), s.map(f64::from))).collect();
    let played = |t: f64| -> Vec<crate::body::Affine> {
        let u = t.clamp(0.0, 1.0);
        let mut local = rest.clone();
        for a in g.animations() {
            for c in a.channels() {
                let reader = c.reader(|_| Some(&blob[..]));
                assert_eq!(reader.read_inputs().unwrap().collect::<Vec<f32>>(), [0.0, 1.0]);
                let n = c.target().node().index();
                let lerp = |v: Vec<[f64; 3]>| [0, 1, 2].map(|k| v[0][k] + (v[1][k] - v[0][k]) * u);
                match reader.read_outputs().unwrap() {
                    gltf::animation::util::ReadOutputs::Translations(v) => local[n].0 = lerp(v.map(|x| x.map(f64::from)).collect()),
                    gltf::animation::util::ReadOutputs::Scales(v) => local[n].2 = lerp(v.map(|x| x.map(f64::from)).collect()),
                    gltf::animation::util::ReadOutputs::Rotations(r) => {
                        let q: Vec<[f64; 4]> = r.into_f32().map(|x| x.map(f64::from)).collect();
                        local[n].1 = quat::slerp(&q[0], &q[1], u);
                    }
                    gltf::animation::util::ReadOutputs::MorphTargetWeights(_) => unreachable!(),
                }
            }
        }
        let world = |mut n: usize| {
            let (t, r, s) = local[n];
            let mut w = crate::body::Affine::trs(t, &quat::normalize(&r), s);
            while let Some(p) = parents[n] {
                let (t, r, s) = local[p];
                w = crate::body::Affine::trs(t, &quat::normalize(&r), s).then(&w);
                n = p;
            }
            w
        };
        (0..nodes.len()).map(world).collect()
    };
    let rig = Rig::new(&project).unwrap();
    let curves: Vec<crate::TrackCurve> = project.tracks.iter().map(|t| crate::TrackCurve::new(t).unwrap()).collect();
    let mut body = rig.animate(|i| Ok(&curves[i])).unwrap();
    let mut pose = Pose::default();
    let mut worst = 0.0f64;
    for t in [0.0, 0.25, 0.5, 0.8, 1.0, 1.5] {
        body.pose_at(t, &mut pose).unwrap();
        let glb = played(t);
        for (point, p) in rig.points().iter().zip(&pose.points) {
            let d = farthest(&[*p], &[glb[node(&point.name)].p]);
            assert!(d < 1e-5, "{} at {t} s: the GLB plays {:?}, the body {p:?}", point.name, glb[node(&point.name)].p);
            worst = worst.max(d);
        }
    }
    // The pivots move the points: without them the body differs (the test can tell).
    let mut plain = project.clone();
    for j in &mut plain.skeleton.as_mut().unwrap().joints {
        *j = Joint { rotation: j.rotation, scale: j.scale, ..Joint::new(j.name.clone(), j.parent, j.offset, j.end_site) };
    }
    let plain_rig = Rig::new(&plain).unwrap();
    let mut plain_body = plain_rig.animate(|i| Ok(&curves[i])).unwrap();
    let mut plain_pose = Pose::default();
    plain_body.pose_at(0.5, &mut plain_pose).unwrap();
    body.pose_at(0.5, &mut pose).unwrap();
    assert!(farthest(&pose.points, &plain_pose.points) > 0.5);
    eprintln!("pivots as nodes: the GLB within {worst:.1e} of the body");
}

/// A channel's values changed for a joint's pivots: a translation's values plus the constant,
/// a CUBICSPLINE's tangents unchanged; a rotation's values and tangents alike `pre · q · post`.
#[test]
fn pivot_changes_of_cubic_splines() {
    use super::Change;
    let add = Change::Add([1.0, 2.0, 3.0]);
    assert_eq!(add.apply(&[0.0, 0.0, 0.0, 5.0, 5.0, 5.0], 3, false), [1.0, 2.0, 3.0, 6.0, 7.0, 8.0]);
    let cubic = [0.5, 0.5, 0.5, 5.0, 5.0, 5.0, -0.5, -0.5, -0.5];
    assert_eq!(add.apply(&cubic, 3, true), [0.5, 0.5, 0.5, 6.0, 7.0, 8.0, -0.5, -0.5, -0.5]);
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let turn = Change::Turn { pre: [0.0, 0.0, h, h], post: [h, 0.0, 0.0, h] };
    let (a, b, c) = ([0.1, 0.2, 0.3, 0.4], [0.0, 0.0, 0.0, 1.0], [0.4, -0.3, 0.2, -0.1]);
    let want: Vec<f64> = [a, b, c].iter().flat_map(|q| quat::mul(&quat::mul(&[0.0, 0.0, h, h], q), &[h, 0.0, 0.0, h])).collect();
    assert_eq!(turn.apply(&[a, b, c].concat(), 4, true), want);
    assert_eq!(Change::None.apply(&cubic, 3, true), cubic);
}
