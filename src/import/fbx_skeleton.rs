//! An FBX file's node hierarchy as the project's skeleton (SPEC §14, issue 42), so an FBX rig
//! shows its body.
//!
//! - When: one animation stack is imported (the file has one, or `--animation` picks one: the
//!   tracks are `NODE.*` without a `STACK/` prefix and bind to the joints by name) and it
//!   animates some node's `Lcl Translation`, `Lcl Rotation` or `Lcl Scaling`.
//! - Which nodes: every node but ufbx's root, depth first from the root's children (each node
//!   before its children, in the file's order): bones, meshes, cameras, lights and nulls
//!   alike. Names: the import's node labels (the track names' `NODE`).
//! - Rest values: ufbx's `local_transform` of the node (the file's property values, not the
//!   animation's): the translation, rotation (a quaternion) and scale of the node's whole
//!   local transform, `T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹`, so a
//!   node no track animates sits where ufbx puts it, pre- and post-rotation, pivots and
//!   offsets included (they only move the translation and turn the rotation).
//! - A node's tracks replace the rest values they animate, as FBX's `Lcl` properties: the
//!   body is exactly ufbx's evaluation where every animated node has no pre- or
//!   post-rotation, pivot or offset (`fbx.rs` warns, naming the node, where one has), and
//!   inherits its parent's transform as a matrix (ufbx's `UFBX_INHERIT_MODE_NORMAL`, FBX's
//!   `eInheritRSrs`). A node that inherits its parent's scale otherwise (`eInheritRrSs`
//!   component-wise, or `eInheritRrs` not at all: ufbx scales its translation by the
//!   parent's scale but keeps the scale out of its rotation and scale), under a parent that
//!   is scaled, is named in a warning: the body applies the parent's scale as a matrix there,
//!   so the node itself is in place but its children are not.
//!
//! `fbx_body_tests.rs` holds the body to ufbx's own evaluation of the scene
//! (`ufbx_evaluate_scene`, each node's `node_to_world`).

use crate::model::{Joint, Skeleton};

/// What the import read of one node.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Animated {
    /// A translation, rotation or scale track.
    pub transform: bool,
    /// A scale track.
    pub scale: bool,
}

/// The skeleton of `nodes` (the scene's nodes but the root, labelled `labels`; module docs),
/// or `None` when no node's transform is animated.
pub(super) fn skeleton(scene: &ufbx::Scene, nodes: &[&ufbx::Node], labels: &[String], animated: &[Animated], warnings: &mut Vec<String>) -> Option<Skeleton> {
    if !animated.iter().any(|a| a.transform) {
        return None;
    }
    let index: std::collections::HashMap<u32, usize> = nodes.iter().enumerate().map(|(i, n)| (n.element.typed_id, i)).collect();
    let of = |n: &ufbx::Node| index.get(&n.element.typed_id).copied();
    // Depth first from the root's children, each node once.
    let mut order = Vec::with_capacity(nodes.len());
    let mut seen = vec![false; nodes.len()];
    let mut stack: Vec<usize> = scene.root_node.children.iter().rev().filter_map(|c| of(c)).collect();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        order.push(i);
        stack.extend(nodes[i].children.iter().rev().filter_map(|c| of(c)));
    }
    // A node ufbx did not hang under the root (none should be) is a root of its own.
    order.extend((0..nodes.len()).filter(|&i| !seen[i]));
    let mut joint_of = vec![usize::MAX; nodes.len()];
    let mut joints = Vec::with_capacity(order.len());
    // Whether the node's world transform carries a scale: its own (rest or animated) or an
    // ancestor's; and whether that scale is uniform throughout.
    let mut scaled = vec![(false, true); nodes.len()];
    for (j, &i) in order.iter().enumerate() {
        joint_of[i] = j;
        let node = nodes[i];
        let parent = node.parent.as_ref().and_then(|p| of(p)).filter(|&p| seen[p] && joint_of[p] != usize::MAX);
        let l = &node.local_transform;
        let offset = [l.translation.x, l.translation.y, l.translation.z];
        let rotation = [l.rotation.x, l.rotation.y, l.rotation.z, l.rotation.w];
        let scale = [l.scale.x, l.scale.y, l.scale.z];
        let mut joint = Joint::new(labels[i].clone(), parent.map(|p| joint_of[p]), offset, None);
        joint.rotation = (rotation != crate::quat::IDENTITY).then_some(rotation);
        joint.scale = (scale != [1.0; 3]).then_some(scale);
        joints.push(joint);
        let (above, above_uniform) = parent.map_or((false, true), |p| scaled[p]);
        if above {
            let why = match node.inherit_mode {
                ufbx::InheritMode::Normal => None,
                ufbx::InheritMode::IgnoreParentScale => Some("does not inherit its parent's scale (FBX InheritType eInheritRrs)"),
                ufbx::InheritMode::ComponentwiseScale if !above_uniform => {
                    Some("inherits its parent's scale component by component (FBX InheritType eInheritRrSs)")
                }
                ufbx::InheritMode::ComponentwiseScale => None,
            };
            if let Some(why) = why {
                warnings.push(format!(
                    "node \"{}\" {why} under a scaled parent; the body applies the parent's scale to the node's own rotation and scale too, so what hangs below it is placed differently",
                    labels[i]
                ));
            }
        }
        let own = animated[i].scale || scale != [1.0; 3];
        let uniform = !animated[i].scale && scale[0] == scale[1] && scale[1] == scale[2];
        scaled[i] = (above || own, above_uniform && uniform);
    }
    let skeleton = Skeleton { joints };
    if let Err(e) = skeleton.check() {
        warnings.push(format!("the node hierarchy cannot be the skeleton ({e}): no skeleton"));
        return None;
    }
    Some(skeleton)
}

#[cfg(test)]
#[path = "fbx_body_tests.rs"]
mod tests;
