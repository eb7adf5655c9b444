//! A BVH take to glTF: the node hierarchy of the exported sample (names, parents, rest
//! translations, end sites, the channels on them), and forward kinematics: joint and end site
//! world positions from the exported nodes and animation equal those built directly from the
//! BVH file's channels (a matrix per joint from its channel list, read here without Tangent's
//! importer), within 1e-9 on the export's f64 keys and within float32 rounding on the GLB.

use std::collections::HashMap;

use super::super::binding::{merge, node_key};
use super::super::{export, prepare_all, ExportOptions, Form, Format, Prepared, Target};
use super::{scene, take_frames};
use crate::bake::Fps;
use crate::euler::{self, Matrix};
use crate::import::{import_bytes, ImportFormat, ImportOptions};
use crate::model::{Joint, Project, Skeleton};
use crate::quat;

const IDENTITY: Matrix = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

pub(super) fn no_progress(_: usize, _: usize) -> bool {
    true
}

fn sample(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/import-samples/bvh/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

pub(super) fn import(text: &str, name: &str) -> Project {
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
pub(super) struct Played {
    names: Vec<String>,
    parents: Vec<Option<usize>>,
    rest: Vec<[f64; 3]>,
    channels: Vec<Channel>,
}

impl Played {
    /// World positions of the named nodes at `t`: each node `T(translation) · R(rotation)`,
    /// its animated values replacing its rest ones.
    pub(super) fn positions(&self, t: f64, names: &[String]) -> Vec<[f64; 3]> {
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

    pub(super) fn parents_of(count: usize, children: impl Fn(usize) -> Vec<usize>) -> Vec<Option<usize>> {
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
pub(super) fn farthest(a: &[[f64; 3]], b: &[[f64; 3]]) -> f64 {
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
