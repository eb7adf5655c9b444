//! A BVH take to glTF: the node hierarchy of the exported sample (names, parents, rest
//! translations, end sites, the channels on them), and forward kinematics: joint and end site
//! world positions from the exported nodes and animation equal those built directly from the
//! BVH file's channels (a matrix per joint from its channel list, read here without Tangent's
//! importer), within 1e-9 on the export's f64 keys and within float32 rounding on the GLB.

use std::collections::HashMap;

use super::super::binding::merge;
use super::super::gltf::node_key;
use super::super::{export, prepare_all, ExportOptions, Form, Format, Prepared, Target};
use super::{scene, take_frames};
use crate::bake::Fps;
use crate::euler::{self, Matrix};
use crate::import::{import_bytes, ImportFormat, ImportOptions};
use crate::model::{Joint, Project, Skeleton};
use crate::quat;

const IDENTITY: Matrix = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

fn no_progress(_: usize, _: usize) -> bool {
    true
}

fn sample(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/import-samples/bvh/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn import(text: &str, name: &str) -> Project {
    import_bytes(text.as_bytes(), ImportFormat::Bvh, name, None, &ImportOptions::default()).unwrap().project
}

/// A rigid transform: rotation, then translation.
#[derive(Clone, Copy, Debug)]
struct Rigid {
    r: Matrix,
    t: [f64; 3],
}

impl Rigid {
    fn apply(&self, p: &[f64; 3]) -> [f64; 3] {
        let mut out = self.t;
        for (i, o) in out.iter_mut().enumerate() {
            *o += self.r[i][0] * p[0] + self.r[i][1] * p[1] + self.r[i][2] * p[2];
        }
        out
    }

    fn then(&self, local: &Rigid) -> Rigid {
        Rigid { r: euler::mat_mul(&self.r, &local.r), t: self.apply(&local.t) }
    }
}

/// A joint as the file has it.
struct BvhJoint {
    name: String,
    parent: Option<usize>,
    offset: [f64; 3],
    /// `Xposition` … `Zrotation`, as listed.
    channels: Vec<String>,
    end: Option<[f64; 3]>,
}

/// The truth: a BVH file read here, token by token (no Tangent code).
struct Bvh {
    joints: Vec<BvhJoint>,
    frame_time: f64,
    rows: Vec<Vec<f64>>,
}

impl Bvh {
    fn parse(text: &str) -> Self {
        let (head, motion) = text.split_once("MOTION").unwrap();
        let words: Vec<&str> = head.split_whitespace().collect();
        let num = |w: &str| w.parse::<f64>().unwrap();
        let (mut joints, mut open, mut i) = (Vec::new(), Vec::<Option<usize>>::new(), 1);
        while i < words.len() {
            match words[i] {
                "ROOT" | "JOINT" => {
                    let parent = open.last().copied().flatten();
                    let offset = [num(words[i + 4]), num(words[i + 5]), num(words[i + 6])];
                    let n: usize = words[i + 8].parse().unwrap();
                    let channels = words[i + 9..i + 9 + n].iter().map(|w| (*w).to_owned()).collect();
                    joints.push(BvhJoint { name: words[i + 1].to_owned(), parent, offset, channels, end: None });
                    open.push(Some(joints.len() - 1));
                    i += 9 + n;
                }
                "End" => {
                    let end = [num(words[i + 4]), num(words[i + 5]), num(words[i + 6])];
                    let j = open.last().copied().flatten().unwrap();
                    joints[j].end = Some(end);
                    i += 8;
                }
                "}" => {
                    open.pop();
                    i += 1;
                }
                other => panic!("unexpected {other}"),
            }
        }
        let mut lines = motion.lines().filter(|l| !l.trim().is_empty());
        let frames: usize = lines.next().unwrap().split_whitespace().nth(1).unwrap().parse().unwrap();
        let frame_time = num(lines.next().unwrap().split_whitespace().nth(2).unwrap());
        let rows: Vec<Vec<f64>> = lines.map(|l| l.split_whitespace().map(num).collect()).collect();
        assert_eq!(rows.len(), frames);
        Self { joints, frame_time, rows }
    }

    /// World transforms of every joint at `frame`: each joint's local transform is the
    /// translation of its position channels (its offset where it has none) and the product of
    /// its rotation channels' matrices in the listed order (`Zrotation Xrotation Yrotation` is
    /// Rz·Rx·Ry), degrees.
    fn world(&self, frame: usize) -> Vec<Rigid> {
        let row = &self.rows[frame];
        let mut at = 0;
        let mut world: Vec<Rigid> = Vec::new();
        for BvhJoint { parent, offset, channels, .. } in &self.joints {
            let mut local = Rigid { r: IDENTITY, t: *offset };
            for c in channels {
                let axis = "XYZ".find(&c[..1]).unwrap();
                if c.ends_with("position") {
                    local.t[axis] = row[at];
                } else {
                    local.r = euler::mat_mul(&local.r, &euler::axis_matrix(axis, row[at].to_radians()));
                }
                at += 1;
            }
            world.push(parent.map_or(local, |p| world[p].then(&local)));
        }
        world
    }

    /// World positions of every joint, then of every end site (in joint order).
    fn positions(&self, frame: usize) -> Vec<[f64; 3]> {
        let world = self.world(frame);
        let mut out: Vec<[f64; 3]> = world.iter().map(|w| w.t).collect();
        out.extend(self.joints.iter().zip(&world).filter_map(|(j, w)| j.end.map(|e| w.apply(&e))));
        out
    }
}

/// One animation channel as played: times, values (4 per key for rotations, 3 otherwise),
/// LINEAR (slerp for rotations) or STEP.
struct Channel {
    node: usize,
    rotation: bool,
    step: bool,
    times: Vec<f64>,
    values: Vec<f64>,
}

impl Channel {
    fn at(&self, t: f64) -> Vec<f64> {
        let w = if self.rotation { 4 } else { 3 };
        let key = |k: usize| self.values[k * w..(k + 1) * w].to_vec();
        let n = self.times.len();
        let k = self.times.partition_point(|&x| x <= t);
        if k == 0 {
            return key(0);
        }
        if k == n || self.step || self.times[k - 1] == t {
            return key(k - 1);
        }
        let u = (t - self.times[k - 1]) / (self.times[k] - self.times[k - 1]);
        let (a, b) = (key(k - 1), key(k));
        if self.rotation {
            quat::slerp(&[a[0], a[1], a[2], a[3]], &[b[0], b[1], b[2], b[3]], u).to_vec()
        } else {
            (0..3).map(|c| a[c] + (b[c] - a[c]) * u).collect()
        }
    }
}

/// An exported scene as a player sees it: each node's name, parent, rest translation, and
/// the channels on the nodes.
struct Played {
    names: Vec<String>,
    parents: Vec<Option<usize>>,
    rest: Vec<[f64; 3]>,
    channels: Vec<Channel>,
}

impl Played {
    /// World positions of the named nodes at `t`: each node `T(translation) · R(rotation)`,
    /// its animated values replacing its rest ones.
    fn positions(&self, t: f64, names: &[String]) -> Vec<[f64; 3]> {
        let mut local: Vec<Rigid> = self.rest.iter().map(|&t| Rigid { r: IDENTITY, t }).collect();
        for c in &self.channels {
            let v = c.at(t);
            if c.rotation {
                local[c.node].r = quat::to_matrix(&quat::normalize(&[v[0], v[1], v[2], v[3]]));
            } else {
                local[c.node].t = [v[0], v[1], v[2]];
            }
        }
        let world = |mut n: usize| {
            let mut w = local[n];
            while let Some(p) = self.parents[n] {
                w = local[p].then(&w);
                n = p;
            }
            w.t
        };
        names.iter().map(|name| world(self.names.iter().position(|n| n == name).unwrap_or_else(|| panic!("no node {name}")))).collect()
    }

    fn parents_of(count: usize, children: impl Fn(usize) -> Vec<usize>) -> Vec<Option<usize>> {
        let mut parents = vec![None; count];
        for n in 0..count {
            for c in children(n) {
                assert!(parents[c].replace(n).is_none(), "node {c} has two parents");
            }
        }
        parents
    }

    /// What the export wrote, before glTF's float32: the scene and the merged tracks.
    fn from_prepared(project: &Project) -> Self {
        let tracks: Vec<Prepared> = merge(prepare_all(project, Format::Glb, &ExportOptions::new(Fps::new(project.fps).unwrap()), &no_progress).unwrap());
        let s = scene(&tracks, project.skeleton.as_ref());
        let channels = tracks
            .iter()
            .map(|p| {
                assert!(matches!(p.form, Form::Linear | Form::Baked | Form::Step), "{}: {:?}", p.name, p.form);
                assert!(matches!(p.target, Target::Translation | Target::Rotation));
                let node = s.index[&node_key(p)];
                Channel { node, rotation: p.target == Target::Rotation, step: p.form == Form::Step, times: p.times.clone(), values: p.values.clone() }
            })
            .collect();
        Self {
            names: s.nodes.iter().map(|n| n.name.clone().unwrap()).collect(),
            parents: Self::parents_of(s.nodes.len(), |n| s.nodes[n].children.clone()),
            rest: s.nodes.iter().map(|n| n.translation.unwrap_or([0.0; 3])).collect(),
            channels,
        }
    }

    /// The GLB as written: read back with the `gltf` crate (float32 widened).
    fn from_glb(bytes: &[u8]) -> (Self, gltf::Gltf) {
        let g = gltf::Gltf::from_slice(bytes).unwrap();
        let blob = g.blob.clone().unwrap();
        let nodes: Vec<gltf::Node> = g.nodes().collect();
        let mut channels = Vec::new();
        for a in g.animations() {
            for c in a.channels() {
                let reader = c.reader(|_| Some(&blob[..]));
                let times: Vec<f64> = reader.read_inputs().unwrap().map(f64::from).collect();
                let (rotation, values): (bool, Vec<f64>) = match reader.read_outputs().unwrap() {
                    gltf::animation::util::ReadOutputs::Translations(v) => (false, v.flatten().map(f64::from).collect()),
                    gltf::animation::util::ReadOutputs::Rotations(r) => (true, r.into_f32().flatten().map(f64::from).collect()),
                    _ => panic!("only translations and rotations"),
                };
                let step = c.sampler().interpolation() == gltf::animation::Interpolation::Step;
                channels.push(Channel { node: c.target().node().index(), rotation, step, times, values });
            }
        }
        let played = Self {
            names: nodes.iter().map(|n| n.name().unwrap().to_owned()).collect(),
            parents: Self::parents_of(nodes.len(), |n| nodes[n].children().map(|c| c.index()).collect()),
            rest: nodes.iter().map(|n| n.transform().decomposed().0.map(f64::from)).collect(),
            channels,
        };
        (played, g)
    }
}

/// Joint names, then each end site's node name (`JOINT_end`).
fn point_names(bvh: &Bvh) -> Vec<String> {
    let mut names: Vec<String> = bvh.joints.iter().map(|j| j.name.clone()).collect();
    names.extend(bvh.joints.iter().filter(|j| j.end.is_some()).map(|j| format!("{}_end", j.name)));
    names
}

/// The largest distance between two lists of points.
fn farthest(a: &[[f64; 3]], b: &[[f64; 3]]) -> f64 {
    a.iter().zip(b).map(|(p, q)| (0..3).map(|c| (p[c] - q[c]).powi(2)).sum::<f64>().sqrt()).fold(0.0, f64::max)
}

/// The rest pose's largest extent (joints at their offsets, and end sites).
fn height(bvh: &Bvh) -> f64 {
    let mut joints: Vec<[f64; 3]> = Vec::new();
    let mut points = Vec::new();
    for BvhJoint { parent, offset, end, .. } in &bvh.joints {
        let base = parent.map_or([0.0; 3], |p| joints[p]);
        joints.push([base[0] + offset[0], base[1] + offset[1], base[2] + offset[2]]);
        points.push(joints[joints.len() - 1]);
        if let Some(e) = end {
            let j = joints[joints.len() - 1];
            points.push([j[0] + e[0], j[1] + e[1], j[2] + e[2]]);
        }
    }
    (0..3).map(|c| points.iter().map(|p| p[c]).fold(f64::MIN, f64::max) - points.iter().map(|p| p[c]).fold(f64::MAX, f64::min)).fold(0.0, f64::max)
}

/// Forward kinematics of the export against the file at `frames`: the f64 keys within 1e-9,
/// the GLB within `glb_tolerance × height`. Returns the largest differences.
fn check_forward_kinematics(name: &str, frames: &[usize], glb_tolerance: f64) -> (f64, f64) {
    let text = sample(name);
    let (bvh, project) = (Bvh::parse(&text), import(&text, name));
    let names = point_names(&bvh);
    let prepared = Played::from_prepared(&project);
    let (bytes, _) = export(&project, Format::Glb, &ExportOptions::new(Fps::new(project.fps).unwrap()), &no_progress).unwrap();
    let (glb, _) = Played::from_glb(&bytes);
    let (mut worst64, mut worst32) = (0.0f64, 0.0f64);
    for &f in frames {
        let t = f as f64 * bvh.frame_time;
        let truth = bvh.positions(f);
        let d64 = farthest(&truth, &prepared.positions(t, &names));
        let d32 = farthest(&truth, &glb.positions(t, &names));
        assert!(d64 < 1e-9, "{name} frame {f}: the export's keys are {d64:e} from the file");
        assert!(d32 < glb_tolerance * height(&bvh), "{name} frame {f}: the GLB is {d32:e} from the file");
        (worst64, worst32) = (worst64.max(d64), worst32.max(d32));
    }
    println!("{name}: {} points at {} frames: f64 keys {worst64:e}, GLB {worst32:e} (height {})", names.len(), frames.len(), height(&bvh));
    (worst64, worst32)
}

/// Blender 3.4's export (6 channels on every joint, the hips turning 450°): at eight frames,
/// the first, the last and where the hips pass 180° and 360°.
#[test]
fn blender_sample_forward_kinematics() {
    let (d64, d32) = check_forward_kinematics("sample_xzy.bvh", &[0, 7, 23, 38, 45, 61, 76, 89], 1e-6);
    assert!(d64 < 1e-9 && d32 < 1e-5, "{d64:e} {d32:e}");
}

/// The hand-written CMU-style file: rotations only below the root, listed `Zrotation
/// Yrotation Xrotation`, the root's heading turning 300° and the spine −200°.
#[test]
fn cmu_style_forward_kinematics() {
    let frames: Vec<usize> = (0..30).step_by(3).chain([29]).collect();
    check_forward_kinematics("cmu_zyx.bvh", &frames, 1e-6);
}

/// The exported sample's nodes: the joints in file order with their offsets as rest
/// translations, each the child of its parent, the end site a leaf `Head_end` under `Head`,
/// only the root in the scene; the take's eight tracks on the joints in one animation named
/// after the file, the rotations with a key at every frame of the take.
#[test]
fn blender_sample_hierarchy() {
    let project = import(&sample("sample_xzy.bvh"), "sample_xzy.bvh");
    let (bytes, report) = export(&project, Format::Glb, &ExportOptions::new(Fps::new(30.0).unwrap()), &no_progress).unwrap();
    let (played, g) = Played::from_glb(&bytes);
    assert_eq!(played.names, ["Hips", "Spine", "Neck", "Head", "Head_end"]);
    assert_eq!(played.parents, [None, Some(0), Some(1), Some(2), Some(3)]);
    let rest: Vec<[f64; 3]> = [[0.0, 0.0, 1.0], [0.0, 0.0, 0.3], [0.0, 0.05, 0.3], [0.1, 0.0, 0.3], [0.1, 0.0, 0.3]].to_vec();
    let f32s = |v: &[[f64; 3]]| v.iter().map(|p| p.map(|x| f64::from(x as f32))).collect::<Vec<_>>();
    assert_eq!(played.rest, f32s(&rest));
    assert_eq!(g.default_scene().unwrap().nodes().map(|n| n.index()).collect::<Vec<_>>(), [0]);
    let animations: Vec<gltf::Animation> = g.animations().collect();
    assert_eq!(animations.len(), 1);
    assert_eq!(animations[0].name(), Some("sample_xzy"));
    let mut on: Vec<(usize, bool)> = played.channels.iter().map(|c| (c.node, c.rotation)).collect();
    on.sort_unstable();
    assert_eq!(on, [(0, false), (0, true), (1, false), (1, true), (2, false), (2, true), (3, false), (3, true)]);
    let keys: Vec<f64> = project.track("Hips.rotation").unwrap().keys.iter().map(|k| k.time).collect();
    let hips = played.channels.iter().find(|c| c.node == 0 && c.rotation).unwrap();
    assert_eq!(hips.times, keys.iter().map(|&t| f64::from(t as f32)).collect::<Vec<_>>(), "a key at every frame of the take");
    let note = report.iter().find(|r| r.name == "Hips.rotation").unwrap().note.clone().unwrap();
    assert!(note.ends_with("baked at the take's frames (its key times)"), "{note}");
}

/// The CMU-style file's joints below the root have no position channels: no translation
/// channel, and their nodes keep their offsets (a zero offset is no translation at all).
#[test]
fn joints_without_positions_keep_their_offsets() {
    let project = import(&sample("cmu_zyx.bvh"), "cmu_zyx.bvh");
    let (bytes, _) = export(&project, Format::Glb, &ExportOptions::new(Fps::new(120.0).unwrap()), &no_progress).unwrap();
    let (played, g) = Played::from_glb(&bytes);
    let skeleton = project.skeleton.as_ref().unwrap();
    let translated: Vec<usize> = played.channels.iter().filter(|c| !c.rotation).map(|c| c.node).collect();
    assert_eq!(translated, [0], "only the root has position channels");
    for (i, j) in skeleton.joints.iter().enumerate() {
        assert_eq!(played.names[i], j.name);
        assert_eq!(played.parents[i], j.parent);
        assert_eq!(played.rest[i], j.offset.map(|x| f64::from(x as f32)), "{}", j.name);
    }
    assert_eq!(g.nodes().nth(1).unwrap().name(), Some("LHipJoint"));
    assert!(g.document.as_json().nodes[1].translation.is_none());
    let ends: Vec<&str> = played.names[skeleton.joints.len()..].iter().map(String::as_str).collect();
    assert_eq!(ends, ["LeftFoot_end", "RightFoot_end", "Head_end"]);
}

/// A take's rotation is baked at its key times; a gap longer than a frame (an edited take)
/// is cut into equal pieces no longer than a frame; a BVH frame of 0.033333 s at 30 fps is
/// one frame.
#[test]
fn take_frames_are_the_key_times() {
    let fps = Fps::new(30.0).unwrap();
    let keys: Vec<f64> = (0..5).map(|f| f64::from(f) * 0.033333).collect();
    assert_eq!(take_frames(&keys, fps, (0.0, keys[4])), keys);
    let sparse = take_frames(&[0.0, 0.1, 0.2], fps, (0.0, 0.2));
    let want = [0.0, 0.1 / 3.0, 0.2 / 3.0, 0.1, 0.1 + 0.1 / 3.0, 0.1 + 0.2 / 3.0, 0.2];
    assert_eq!(sparse.len(), want.len());
    assert!(sparse.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-15), "{sparse:?}");
    assert_eq!(take_frames(&[1.0], fps, (1.0, 1.0)), [1.0]);
}

/// An end site's node name is `JOINT_end`, or `JOINT_end2` where a joint (or a track's
/// node) already has that name.
#[test]
fn end_site_names_are_unique() {
    let joint = |name: &str, parent, end_site| Joint::new(name, parent, [0.0, 1.0, 0.0], end_site);
    let skeleton = Skeleton { joints: vec![joint("A", None, Some([0.0, 1.0, 0.0])), joint("A_end", Some(0), Some([1.0, 0.0, 0.0]))] };
    let s = scene(&[], Some(&skeleton));
    let names: Vec<&str> = s.nodes.iter().map(|n| n.name.as_deref().unwrap()).collect();
    assert_eq!(names, ["A", "A_end", "A_end2", "A_end_end"]);
    assert_eq!((s.nodes[0].children.clone(), s.nodes[1].children.clone(), s.roots.clone()), (vec![1, 2], vec![3], vec![0]));
    let by_name: HashMap<&str, Option<[f64; 3]>> = names.iter().zip(&s.nodes).map(|(n, node)| (*n, node.translation)).collect();
    assert_eq!(by_name["A_end2"], Some([0.0, 1.0, 0.0]));
}

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
