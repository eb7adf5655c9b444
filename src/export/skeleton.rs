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
//! - A joint with FBX's pre- or post-rotation, pivots or offsets (`crate::body::Pivots`):
//!   its local transform `T(t + Roff + Rp) · (Rpre · R · Rpost⁻¹) · T(−Rp + Soff + Sp) · S ·
//!   T(−Sp)` in glTF's `T · R · S` nodes, exactly: the translation channel's values plus
//!   `Roff + Rp` and the rotation channel's `Rpre · q · Rpost⁻¹` (both commute with glTF's
//!   interpolation, tangents included; [`Change`]). Without a pivot or scaling offset
//!   (`−Rp + Soff + Sp` and `Sp` zero) that is the joint's one node; else a node
//!   `JOINT_pivot` (after the end sites' nodes) holds the translation and rotation and the
//!   joint's node below it `T(−Rp + Soff + Sp − S·Sp) · S` — or, when a track scales a joint
//!   with a scaling pivot, a node `JOINT_scaling` `T(−Rp + Soff + Sp) · S(t)` between them
//!   and the joint's node `T(−Sp)`. The joint's node always holds the joint's world transform
//!   (its children and end site hang below it); a helper's name already taken gets a number.
//!
//! A joint's world transform is then its parent's times `T(translation) · R(rotation) ·
//! S(scale)` (and its helper nodes' between them): the body's forward kinematics
//! (`body.rs`). `skeleton_tests.rs` holds it to matrices built from the BVH file's channel
//! lists, to a hand-worked rest rotation and scale and to the body of joints with pivots;
//! `conformance/bvh_check.mjs` plays a BVH take's GLB in three.js r187 and
//! `tools/blender/bvh_gltf_check.py` compares it with Blender 3.4's own BVH importer;
//! `conformance/pose_check.mjs` plays the GLB of glTF and FBX imports in three.js r187 against
//! `tangent pose`.

use std::collections::{HashMap, HashSet};

use super::binding::{joint_of, node_key, NodeKey};
use super::{Prepared, Target};
use crate::bake::Fps;
use crate::body::Pivots;
use crate::model::{Joint, Project, Skeleton, Track};
use crate::quat::{self, Quat};

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
    /// A joint's channel that goes elsewhere than to its node, or with its values changed
    /// (a joint with pivots, module docs): by the joint's node and the channel's target.
    pub moved: HashMap<(usize, Target), Moved>,
}

/// Where a joint's channel goes instead of the joint's node, and how its values change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Moved {
    pub node: usize,
    pub change: Change,
}

/// An exact change of a channel's values, which commutes with glTF's interpolation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Change {
    None,
    /// A translation plus a constant (a CUBICSPLINE's tangents unchanged).
    Add([f64; 3]),
    /// A rotation `q` as `pre · q · post` (linear in `q` and norm-keeping: slerp, STEP and
    /// CUBICSPLINE with its tangents alike).
    Turn {
        pre: Quat,
        post: Quat,
    },
}

impl Change {
    /// `values` (`width` per key, `3 · width` for CUBICSPLINE: in-tangent, value,
    /// out-tangent) changed.
    pub fn apply(&self, values: &[f64], width: usize, cubic: bool) -> Vec<f64> {
        let mut out = values.to_vec();
        let per_key = if cubic { 3 * width } else { width };
        match *self {
            Self::None => {}
            Self::Add(d) if width == 3 => {
                for key in out.chunks_exact_mut(per_key) {
                    let value = if cubic { &mut key[3..6] } else { &mut key[..] };
                    for (v, d) in value.iter_mut().zip(d) {
                        *v += d;
                    }
                }
            }
            Self::Turn { pre, post } if width == 4 => {
                for q in out.chunks_exact_mut(4) {
                    let turned = quat::mul(&quat::mul(&pre, &[q[0], q[1], q[2], q[3]]), &post);
                    q.copy_from_slice(&turned);
                }
            }
            Self::Add(_) | Self::Turn { .. } => unreachable!("a translation has 3 values per key, a rotation 4"),
        }
        out
    }
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
    let mut moved = HashMap::new();
    for (i, j) in joints.iter().enumerate() {
        let Some(pivots) = Pivots::of(j) else { continue };
        let scaled = tracks.iter().any(|p| p.target == Target::Scale && node_key(p) == NodeKey::Named(j.name.clone()));
        let top = pivoted(&mut nodes, &mut moved, &mut taken, i, j, &pivots, scaled);
        // The joint hangs from its parent (or the scene) by its top node, in the same place.
        let siblings = match j.parent {
            Some(parent) => &mut nodes[parent].children,
            None => &mut roots,
        };
        if let Some(slot) = siblings.iter_mut().find(|c| **c == i) {
            *slot = top;
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
    Scene { nodes, roots, index, moved }
}

/// Joint `i` (`j`, with `pivots`) as nodes: its local transform `T(t + before) · (pre · R ·
/// post⁻¹) · T(between) · S · T(after)` (`crate::body::Pivots`) split where glTF's `T · R · S`
/// cannot hold it. `scaled`: a track animates the joint's scale. Returns the top node; the
/// joint's own node `i` (named after it, its children and end site below it) is the last.
fn pivoted(
    nodes: &mut Vec<SceneNode>,
    moved: &mut HashMap<(usize, Target), Moved>,
    taken: &mut HashSet<String>,
    i: usize,
    j: &Joint,
    pivots: &Pivots,
    scaled: bool,
) -> usize {
    let translation = [0, 1, 2].map(|k| j.offset[k] + pivots.before[k]);
    let rotation = Some(pivots.rotation(&j.rest_rotation()));
    let turn = Change::Turn { pre: pivots.pre, post: pivots.post_inverse };
    let add = Change::Add(pivots.before);
    if pivots.between == [0.0; 3] && pivots.after == [0.0; 3] {
        // One node: T(t + before) · (pre · R · post⁻¹) · S.
        nodes[i].translation = Some(translation);
        nodes[i].rotation = rotation;
        moved.insert((i, Target::Translation), Moved { node: i, change: add });
        moved.insert((i, Target::Rotation), Moved { node: i, change: turn });
        return i;
    }
    let mut helper = |nodes: &mut Vec<SceneNode>, suffix: &str, node: SceneNode, child: usize| {
        let name = unique(format!("{}{suffix}", j.name), taken);
        nodes.push(SceneNode { name: Some(name), children: vec![child], ..node });
        nodes.len() - 1
    };
    let s = j.rest_scale();
    let (below, scale_node) = if scaled && pivots.after != [0.0; 3] {
        // T(between) · S(t) on a node of its own, T(after) on the joint's.
        nodes[i].translation = Some(pivots.after);
        nodes[i].scale = None;
        let mid = helper(nodes, "_scaling", SceneNode { scale: j.scale, ..SceneNode::new(None, Some(pivots.between)) }, i);
        (mid, mid)
    } else {
        // T(between) · S · T(after) = T(between + S · after) · S, S at rest when no track scales it.
        nodes[i].translation = Some([0, 1, 2].map(|k| pivots.between[k] + s[k] * pivots.after[k]));
        (i, i)
    };
    nodes[i].rotation = None;
    let top = helper(nodes, "_pivot", SceneNode { rotation, ..SceneNode::new(None, Some(translation)) }, below);
    moved.insert((i, Target::Translation), Moved { node: top, change: add });
    moved.insert((i, Target::Rotation), Moved { node: top, change: turn });
    moved.insert((i, Target::Scale), Moved { node: scale_node, change: Change::None });
    top
}

#[cfg(test)]
#[path = "skeleton_rest_tests.rs"]
mod rest_tests;
#[cfg(test)]
#[path = "skeleton_tests.rs"]
mod tests;
