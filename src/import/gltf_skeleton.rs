//! A glTF file's node hierarchy as the project's skeleton (SPEC §14, issue 42), so a glTF
//! character shows its body.
//!
//! - When: one animation is imported (the file has one, or `--animation` picks one: the
//!   tracks then carry no `ANIMATION/` prefix, so `NODE.translation` binds to the joint
//!   `NODE` by name), the default scene has a hierarchy (some node of it has a child), and a
//!   node of it is animated (a translation, rotation or scale channel). A scene of unrelated
//!   nodes (every node a root, as a Blender export of loose objects) is no body and gets no
//!   skeleton; nor does an import of several animations at once, whose `ANIMATION/NODE.*`
//!   tracks no joint name could bind.
//! - Which nodes: every node of the default scene (`scene`, else the first; a file without
//!   scenes: every node that is no node's child), depth first from the scene's roots in their
//!   order, each node before its children, children in the file's order. Mesh, camera and
//!   empty nodes alike: they are transforms.
//! - Names: the import's node labels, the same as the track names' (`NODE`, `node<i>` for an
//!   unnamed node, `NAME#i` where names repeat), so each joint's tracks bind to it by name.
//! - Rest values: the node's `translation`, `rotation` and `scale` (a rotation or scale equal
//!   to the identity is left out, so the project stays at its version), or its `matrix`
//!   decomposed as three.js does (`Matrix4.decompose`: the scale the columns' lengths, the
//!   first negated when the determinant is negative, the rotation from the normalised
//!   columns); a `matrix` wins over T, R, S, as in three.js' `GLTFLoader`. No end sites.
//! - A hierarchy that is not a tree (a node listed as the child of two, a child that does not
//!   exist, a scene root that is some node's child) or a rest value the skeleton cannot hold
//!   (not finite, a zero rotation) gives no skeleton and a warning; the tracks import as
//!   before.
//!
//! Checked against three.js r187: `conformance/pose_check.mjs` plays each sample's clip with
//! the `AnimationMixer` and compares every node's `matrixWorld` position with `tangent pose`.

use gltf::json as gj;

use crate::model::{Joint, Skeleton};

/// The skeleton of the default scene's nodes (module docs), or `None` (with a warning when
/// the hierarchy is broken). `labels`: every node's label; `moved`: whether an imported
/// translation, rotation or scale channel animates the node.
pub(super) fn skeleton(root: &gj::Root, labels: &[String], moved: &[bool], warnings: &mut Vec<String>) -> Option<Skeleton> {
    let n = root.nodes.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    for (i, node) in root.nodes.iter().enumerate() {
        for c in node.children.iter().flatten().map(|c| c.value()) {
            let why = if c >= n {
                Some(format!("node {i} lists the child {c}, which does not exist"))
            } else if c == i || parent[c].is_some() {
                Some(format!("node {c} is the child of two nodes (or of itself)"))
            } else {
                None
            };
            if let Some(why) = why {
                warnings.push(format!("the node hierarchy is not a tree ({why}): no skeleton"));
                return None;
            }
            parent[c] = Some(i);
        }
    }
    let roots: Vec<usize> = match root.scene.map(|s| s.value()).or((!root.scenes.is_empty()).then_some(0)) {
        Some(s) => {
            let Some(scene) = root.scenes.get(s) else {
                warnings.push(format!("the default scene {s} does not exist: no skeleton"));
                return None;
            };
            scene.nodes.iter().map(|i| i.value()).collect()
        }
        None => (0..n).filter(|&i| parent[i].is_none()).collect(),
    };
    if let Some(&r) = roots.iter().find(|&&r| r >= n || parent[r].is_some()) {
        warnings.push(format!("the scene's root node {r} does not exist or is another node's child: no skeleton"));
        return None;
    }
    // Depth first, each node before its children (a node reached twice is a scene root
    // listed twice: once is enough).
    let mut order = Vec::new();
    let mut seen = vec![false; n];
    let mut stack: Vec<usize> = roots.iter().rev().copied().collect();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        order.push(i);
        stack.extend(root.nodes[i].children.iter().flatten().rev().map(|c| c.value()));
    }
    let hierarchy = order.iter().any(|&i| parent[i].is_some());
    if !hierarchy || !order.iter().any(|&i| moved[i]) {
        return None;
    }
    let mut joint_of = vec![usize::MAX; n];
    let mut joints = Vec::with_capacity(order.len());
    for (j, &i) in order.iter().enumerate() {
        joint_of[i] = j;
        let (offset, rotation, scale) = rest(&root.nodes[i]);
        let mut joint = Joint::new(labels[i].clone(), parent[i].map(|p| joint_of[p]), offset, None);
        joint.rotation = (rotation != crate::quat::IDENTITY).then_some(rotation);
        joint.scale = (scale != [1.0; 3]).then_some(scale);
        joints.push(joint);
    }
    let skeleton = Skeleton { joints };
    if let Err(e) = skeleton.check() {
        warnings.push(format!("the node hierarchy cannot be the skeleton ({e}): no skeleton"));
        return None;
    }
    Some(skeleton)
}

/// A node's rest translation, rotation `[x, y, z, w]` and scale: its `matrix` decomposed if
/// it has one, else its T, R, S (identity where absent).
fn rest(node: &gj::Node) -> ([f64; 3], [f64; 4], [f64; 3]) {
    if let Some(m) = node.matrix {
        return decompose(&m.map(f64::from));
    }
    let t = node.translation.map_or([0.0; 3], |t| t.map(f64::from));
    let r = node.rotation.map_or(crate::quat::IDENTITY, |r| r.0.map(f64::from));
    let s = node.scale.map_or([1.0; 3], |s| s.map(f64::from));
    (t, r, s)
}

/// A column-major 4×4 matrix as translation, rotation and scale, as three.js'
/// `Matrix4.decompose` (and `Quaternion.setFromRotationMatrix`) computes them.
pub(super) fn decompose(te: &[f64; 16]) -> ([f64; 3], [f64; 4], [f64; 3]) {
    let length = |c: usize| (te[c] * te[c] + te[c + 1] * te[c + 1] + te[c + 2] * te[c + 2]).sqrt();
    let (mut sx, sy, sz) = (length(0), length(4), length(8));
    // The determinant of the upper 3×3 (the last row of an affine matrix is 0 0 0 1).
    let det = te[0] * (te[5] * te[10] - te[9] * te[6]) - te[4] * (te[1] * te[10] - te[9] * te[2]) + te[8] * (te[1] * te[6] - te[5] * te[2]);
    if det < 0.0 {
        sx = -sx;
    }
    let (m11, m21, m31) = (te[0] / sx, te[1] / sx, te[2] / sx);
    let (m12, m22, m32) = (te[4] / sy, te[5] / sy, te[6] / sy);
    let (m13, m23, m33) = (te[8] / sz, te[9] / sz, te[10] / sz);
    let trace = m11 + m22 + m33;
    let q = if trace > 0.0 {
        let s = 0.5 / (trace + 1.0).sqrt();
        [(m32 - m23) * s, (m13 - m31) * s, (m21 - m12) * s, 0.25 / s]
    } else if m11 > m22 && m11 > m33 {
        let s = 2.0 * (1.0 + m11 - m22 - m33).sqrt();
        [0.25 * s, (m12 + m21) / s, (m13 + m31) / s, (m32 - m23) / s]
    } else if m22 > m33 {
        let s = 2.0 * (1.0 + m22 - m11 - m33).sqrt();
        [(m12 + m21) / s, 0.25 * s, (m23 + m32) / s, (m13 - m31) / s]
    } else {
        let s = 2.0 * (1.0 + m33 - m11 - m22).sqrt();
        [(m13 + m31) / s, (m23 + m32) / s, 0.25 * s, (m21 - m12) / s]
    };
    ([te[12], te[13], te[14]], q, [sx, sy, sz])
}

#[cfg(test)]
#[path = "gltf_skeleton_tests.rs"]
mod tests;
