//! A project with a [`Skeleton`] (a BVH take, or a glTF or FBX import's node hierarchy) is
//! written to glTF as a node hierarchy with the take's animation on it.
//!
//! - Every joint is a node named after it (node `i` is joint `i`), its rest `translation` its
//!   offset, its rest `rotation` and `scale` the joint's where it has them (glTF and FBX
//!   imports; the rotation normalised, as the body uses it; an identity left out), its
//!   `children` its child joints; the skeleton's roots are roots of the scene. A joint no track
//!   animates is written all the same, so its children hang from it and it keeps its rest pose.
//! - An end site is a leaf node under its joint, right after the joints, named `JOINT_end`
//!   (`JOINT_end2`, … where that name is taken), with the end site's offset: where the last
//!   bone ends.
//! - A track goes to the joint it animates as [`crate::body::Rig::new`] binds it
//!   ([`joint_of`]): a node binding to the joint (`Binding::Node`: BVH, FBX), else its name
//!   `JOINT.translation`, `.rotation` or `.scale` (a glTF import's `Binding::Gltf` tracks, whose
//!   node labels are the joints' names), when the track's target is that property; a glTF
//!   track's morph weights (`JOINT.weights[i]`) go to the joint too. It stays in the animation
//!   it was imported from. So each node of the source appears once, as its joint.
//! - `JOINT.translation` replaces the offset while it plays (BVH position channels hold the
//!   translation from the parent, as Blender's BVH importer reads them: a root's channels are
//!   its position); a joint without one keeps its offset, and likewise its rest rotation and
//!   scale. `JOINT.rotation` (Euler) goes as quaternions that keep every turn (`rotation.rs`),
//!   sampled by default at the take's own frames, its key times, rather than at `--fps`
//!   ([`take_frames`]), so every frame's pose is a key: a BVH's `Frame Time: 0.033333` is not
//!   1/30 s, and frames at 30 fps would drift from the file's by up to a thousandth of a frame
//!   over three seconds.
//! - Other tracks get a node each as before, roots of the scene after the skeleton's.
//!
//! A joint's world transform is then its parent's times `T(translation) · R(rotation) ·
//! S(scale)`: the body's forward kinematics (`body.rs`). `skeleton_tests.rs` holds it to
//! matrices built from the BVH file's channel lists and to a hand-worked rest rotation and
//! scale; `conformance/bvh_check.mjs` plays a BVH take's GLB in three.js r187 and
//! `tools/blender/bvh_gltf_check.py` compares it with Blender 3.4's own BVH importer;
//! `conformance/pose_check.mjs` plays the GLB of glTF and FBX imports in three.js r187 against
//! `tangent pose`.

use std::collections::{HashMap, HashSet};

use super::binding::NodeKey;
use super::gltf::node_key;
use super::{Prepared, Target};
use crate::bake::Fps;
use crate::model::{Binding, GltfProperty, Project, Skeleton, Track};

/// The joint `track` animates in `skeleton` and the property, as [`crate::body::Rig::new`]
/// binds it: a node binding (`Binding::Node`) naming a joint, whatever its property (a morph
/// weights track included); else the track's name `JOINT.translation`, `JOINT.rotation` or
/// `JOINT.scale`, or for a track imported from glTF `JOINT.weights[i]` (its element `i`).
pub(super) fn joint_of<'s>(skeleton: &'s Skeleton, track: &Track) -> Option<(&'s str, GltfProperty)> {
    let found = |name: &str| skeleton.joint(name).map(|j| skeleton.joints[j].name.as_str());
    if let Some(Binding::Node { node, property, .. }) = &track.binding {
        return found(node).map(|j| (j, *property));
    }
    let (joint, suffix) = track.name.rsplit_once('.')?;
    let property = match (suffix, &track.binding) {
        ("translation", _) => GltfProperty::Translation,
        ("rotation", _) => GltfProperty::Rotation,
        ("scale", _) => GltfProperty::Scale,
        (_, Some(Binding::Gltf { property: GltfProperty::Weights, element: Some(e), .. })) if suffix == format!("weights[{}]", e.index) => {
            GltfProperty::Weights
        }
        _ => return None,
    };
    found(joint).map(|j| (j, property))
}

/// Whether `track` animates a joint of the project's skeleton ([`joint_of`]).
pub(super) fn joint_track(project: &Project, track: &Track) -> bool {
    project.skeleton.as_ref().is_some_and(|s| joint_of(s, track).is_some())
}

/// The times a take's rotation is baked at over `span`: the key times (the take's frames)
/// and both ends, with any gap longer than a frame at `fps` cut into equal pieces no longer
/// than a frame (so an edited take with sparse keys is still sampled every frame).
pub(super) fn take_frames(keys: &[f64], fps: Fps, span: (f64, f64)) -> Vec<f64> {
    let mut points = vec![span.0];
    points.extend(keys.iter().copied().filter(|&t| span.0 < t && t < span.1));
    points.push(span.1);
    points.dedup();
    let mut out = vec![points[0]];
    for w in points.windows(2) {
        // A gap of 0.033333 s at 30 fps is one frame, not two: a relative slack of 1e-9.
        let pieces = ((w[1] - w[0]) * fps.get() * (1.0 - 1e-9)).ceil().max(1.0) as usize;
        out.extend((1..pieces).map(|k| w[0] + (w[1] - w[0]) * k as f64 / pieces as f64));
        out.push(w[1]);
    }
    out
}

/// A node of the exported scene, in f64 until glTF writes it as f32.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SceneNode {
    pub name: Option<String>,
    /// The rest translation (a joint's offset, an end site's); `None` is none.
    pub translation: Option<[f64; 3]>,
    /// The rest rotation `[x, y, z, w]`, unit length (a joint's); `None` is none.
    pub rotation: Option<[f64; 4]>,
    /// The rest scale (a joint's); `None` is none.
    pub scale: Option<[f64; 3]>,
    pub children: Vec<usize>,
    /// Morph targets of the node's one-triangle mesh (0: no mesh), for weights channels.
    pub morph: usize,
}

/// The nodes of the exported scene.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Scene {
    pub nodes: Vec<SceneNode>,
    /// The nodes of the glTF scene: the skeleton's roots, then every node of a track that is
    /// not a joint.
    pub roots: Vec<usize>,
    /// The node of each track's [`NodeKey`].
    pub index: HashMap<NodeKey, usize>,
}

impl SceneNode {
    fn new(name: Option<String>, translation: Option<[f64; 3]>) -> Self {
        Self { name, translation, rotation: None, scale: None, children: Vec::new(), morph: 0 }
    }
}

/// `base`, or `base2`, `base3`, … : the first not in `taken`, which then takes it.
fn unique(base: String, taken: &mut HashSet<String>) -> String {
    let name = (1..).map(|k| if k == 1 { base.clone() } else { format!("{base}{k}") }).find(|n| !taken.contains(n)).expect("an unused name");
    taken.insert(name.clone());
    name
}

/// The scene for `tracks` (module docs): the skeleton's joints, their end sites, then the
/// other tracks' nodes in order of first use. A node some track's weights animate gets a
/// morph mesh with as many targets as its widest weights channel.
pub(super) fn scene(tracks: &[Prepared], skeleton: Option<&Skeleton>) -> Scene {
    let joints = skeleton.map_or(&[][..], |s| &s.joints[..]);
    let mut nodes: Vec<SceneNode> = joints
        .iter()
        .map(|j| SceneNode { rotation: j.rotation.map(|_| j.rest_rotation()), scale: j.scale, ..SceneNode::new(Some(j.name.clone()), Some(j.offset)) })
        .collect();
    let mut index: HashMap<NodeKey, usize> = joints.iter().enumerate().map(|(i, j)| (NodeKey::Named(j.name.clone()), i)).collect();
    let mut roots = Vec::new();
    for (i, j) in joints.iter().enumerate() {
        match j.parent {
            Some(parent) => nodes[parent].children.push(i),
            None => roots.push(i),
        }
    }
    let mut taken: HashSet<String> = joints.iter().map(|j| j.name.clone()).chain(tracks.iter().filter_map(|p| node_key(p).name())).collect();
    for (i, j) in joints.iter().enumerate() {
        if let Some(end) = j.end_site {
            let name = unique(format!("{}_end", j.name), &mut taken);
            nodes.push(SceneNode::new(Some(name), Some(end)));
            let end_node = nodes.len() - 1;
            nodes[i].children.push(end_node);
        }
    }
    for p in tracks {
        let key = node_key(p);
        let i = *index.entry(key.clone()).or_insert_with(|| {
            nodes.push(SceneNode::new(key.name(), None));
            roots.push(nodes.len() - 1);
            nodes.len() - 1
        });
        if p.target == Target::Weights {
            nodes[i].morph = nodes[i].morph.max(p.width);
        }
    }
    Scene { nodes, roots, index }
}

#[cfg(test)]
#[path = "skeleton_tests.rs"]
mod tests;
