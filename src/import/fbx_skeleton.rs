//! An FBX file's node hierarchy as the project's skeleton (SPEC §14, issue 42), so an FBX rig
//! shows its body.
//!
//! - When: one animation stack is imported (the file has one, or `--animation` picks one: the
//!   tracks are `NODE.*` without a `STACK/` prefix and bind to the joints by name) and it
//!   animates some node's `Lcl Translation`, `Lcl Rotation` or `Lcl Scaling`.
//! - Which nodes: every node but ufbx's root, depth first from the root's children (each node
//!   before its children, in the file's order): bones, meshes, cameras, lights and nulls
//!   alike. Names: the import's node labels (the track names' `NODE`).
//! - Rest values: the node's properties (the file's values, not the animation's): `Lcl
//!   Translation` as the offset, `Lcl Rotation` as the rest rotation (a quaternion, from the
//!   Euler angles in the node's rotation order, as its track's), `Lcl Scaling` as the scale,
//!   and `PreRotation` and `PostRotation` (XYZ Euler angles, when `RotationActive`, as FBX and
//!   ufbx apply them), `RotationPivot`, `RotationOffset`, `ScalingPivot` and `ScalingOffset`
//!   as the joint's own fields where they are not zero. The body's local transform is then
//!   FBX's, `T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹` (`body.rs`), and
//!   a node's tracks replace `T`, `R` and `S` alone, as FBX's `Lcl` properties: the body is
//!   ufbx's evaluation wherever every node inherits its parent's transform as a matrix
//!   (ufbx's `UFBX_INHERIT_MODE_NORMAL`, FBX's `eInheritRSrs`).
//! - A node that inherits its parent's scale otherwise (`eInheritRrSs` component-wise, or
//!   `eInheritRrs` not at all: ufbx scales its translation by the parent's scale but keeps the
//!   scale out of its rotation and scale), under a parent that is scaled, is named in a
//!   warning: the body applies the parent's scale as a matrix there, so the node itself is in
//!   place but its children are not.
//!
//! `fbx_body_tests.rs` holds the body to ufbx's own evaluation of the scene
//! (`ufbx_evaluate_scene`, each node's `node_to_world`).

use crate::euler::EulerOrder;
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
        let (joint, scale) = node_joint(node, labels[i].clone(), parent.map(|p| joint_of[p]));
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

/// The joint of `node` (module docs) and its scale (`[1; 3]` for none).
fn node_joint(node: &ufbx::Node, name: String, parent: Option<usize>) -> (Joint, [f64; 3]) {
    let vector = |prop: &str, default: f64| node.element.props.find_prop(prop).map_or([default; 3], |p| [p.value_vec4.x, p.value_vec4.y, p.value_vec4.z]);
    let nonzero = |prop: &str| Some(vector(prop, 0.0)).filter(|v| *v != [0.0; 3]);
    let degrees = |v: [f64; 3]| v.map(f64::to_radians);
    let e = node.euler_rotation;
    let order = euler_order(node).unwrap_or(EulerOrder::XYZ);
    let rotation = crate::euler::to_quat(&degrees([e.x, e.y, e.z]), order);
    let scale = vector("Lcl Scaling", 1.0);
    let mut joint = Joint::new(name, parent, vector("Lcl Translation", 0.0), None);
    joint.rotation = (rotation != crate::quat::IDENTITY).then_some(rotation);
    joint.scale = (scale != [1.0; 3]).then_some(scale);
    // FBX applies the pre- and post-rotation only when RotationActive (ufbx's
    // `use_rotation_space`), always in XYZ order.
    if node.use_rotation_space {
        let turn = |prop: &str| nonzero(prop).map(|v| crate::euler::to_quat(&degrees(v), EulerOrder::XYZ));
        joint.pre_rotation = turn("PreRotation");
        joint.post_rotation = turn("PostRotation");
    }
    joint.rotation_pivot = nonzero("RotationPivot");
    joint.rotation_offset = nonzero("RotationOffset");
    joint.scaling_pivot = nonzero("ScalingPivot");
    joint.scaling_offset = nonzero("ScalingOffset");
    (joint, scale)
}

#[cfg(test)]
#[path = "fbx_body_tests.rs"]
mod tests;

/// The node's rotation order as an Euler order (`fbx.rs`'s `rotation_order` without its warning): `None` for the spheric order.
pub(super) fn euler_order(node: &ufbx::Node) -> Option<EulerOrder> {
    use ufbx::RotationOrder as R;
    if !node.use_rotation_space {
        return Some(EulerOrder::XYZ);
    }
    match node.rotation_order {
        R::Xyz => Some(EulerOrder::XYZ),
        R::Xzy => Some(EulerOrder::XZY),
        R::Yzx => Some(EulerOrder::YZX),
        R::Yxz => Some(EulerOrder::YXZ),
        R::Zxy => Some(EulerOrder::ZXY),
        R::Zyx => Some(EulerOrder::ZYX),
        R::Spheric => None,
    }
}
