//! A skeleton kept with a project (SPEC §13, issue 30): the joint hierarchy of an imported
//! motion-capture take (BVH: `ROOT`/`JOINT`/`End Site` with their `OFFSET`s), so export can
//! write the joints as a node hierarchy with the offsets as rest translations and the
//! animation on them. Plain data, as the file holds it (`docs/format.md`).

use serde::{Deserialize, Serialize};

/// One joint: its name (unique in the skeleton), its parent (an index before its own, or
/// `None` for a root), its rest translation from the parent in file units (BVH `OFFSET`),
/// its rest rotation (a unit quaternion `[x, y, z, w]`) and scale where the file has them
/// (glTF and FBX nodes; none is the identity), and the offset of its end site if it has one
/// (BVH `End Site`: where the last bone ends).
///
/// An FBX node also has a pre- and post-rotation, a rotation pivot and offset and a scaling
/// pivot and offset (FBX's `PreRotation`, `PostRotation`, `RotationPivot`, `RotationOffset`,
/// `ScalingPivot`, `ScalingOffset`; none is the identity): constant parts of the joint's local
/// transform around its (animated) translation `T`, rotation `R` and scale `S`, FBX's
/// `T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹` (`crate::body`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Joint {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<usize>,
    pub offset: [f64; 3],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<[f64; 4]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<[f64; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_site: Option<[f64; 3]>,
    /// `Rpre`: a unit quaternion `[x, y, z, w]` applied before the rotation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pre_rotation: Option<[f64; 4]>,
    /// `Rpost`: a unit quaternion whose inverse is applied after the rotation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post_rotation: Option<[f64; 4]>,
    /// `Rp`: the point the rotation turns about, in the joint's frame before rotation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation_pivot: Option<[f64; 3]>,
    /// `Roff`: a translation after the rotation pivot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation_offset: Option<[f64; 3]>,
    /// `Sp`: the point the scale scales about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scaling_pivot: Option<[f64; 3]>,
    /// `Soff`: a translation after the scaling pivot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scaling_offset: Option<[f64; 3]>,
}

impl Joint {
    /// A joint with no rest rotation or scale.
    #[must_use]
    pub fn new(name: impl Into<String>, parent: Option<usize>, offset: [f64; 3], end_site: Option<[f64; 3]>) -> Self {
        Self {
            name: name.into(),
            parent,
            offset,
            rotation: None,
            scale: None,
            end_site,
            pre_rotation: None,
            post_rotation: None,
            rotation_pivot: None,
            rotation_offset: None,
            scaling_pivot: None,
            scaling_offset: None,
        }
    }

    /// Whether the joint has a pre- or post-rotation, a pivot or an offset (FBX's).
    #[must_use]
    pub fn has_pivots(&self) -> bool {
        self.pre_rotation.is_some()
            || self.post_rotation.is_some()
            || self.rotation_pivot.is_some()
            || self.rotation_offset.is_some()
            || self.scaling_pivot.is_some()
            || self.scaling_offset.is_some()
    }

    /// Whether the joint has a value of file version 5: a rest rotation or scale, a pre- or
    /// post-rotation, a pivot or an offset.
    #[must_use]
    pub fn has_rest_transform(&self) -> bool {
        self.rotation.is_some() || self.scale.is_some() || self.has_pivots()
    }

    /// The rest rotation, normalised (the identity when there is none).
    #[must_use]
    pub fn rest_rotation(&self) -> crate::quat::Quat {
        self.rotation.map_or(crate::quat::IDENTITY, |q| crate::quat::normalize(&q))
    }

    /// The rest scale (1, 1, 1 when there is none).
    #[must_use]
    pub fn rest_scale(&self) -> [f64; 3] {
        self.scale.unwrap_or([1.0; 3])
    }
}

/// The joints in file order: each parent before its children.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skeleton {
    pub joints: Vec<Joint>,
}

/// What is wrong with a skeleton.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SkeletonError {
    #[error("joint {index} (\"{name}\"): its parent {parent} is not a joint before it")]
    Parent { index: usize, name: String, parent: usize },
    #[error("joint {index}: the name \"{name}\" is used twice")]
    Duplicate { index: usize, name: String },
    #[error(
        "joint {index} (\"{name}\"): its offset, rest rotation, scale, end site, pre- or post-rotation, pivot or offset is not finite (or a rotation is zero)"
    )]
    NotFinite { index: usize, name: String },
    #[error("the two takes' skeletons have different joints or end sites")]
    Differs,
}

impl Skeleton {
    /// Checks that parents come before their children, names are unique and numbers finite.
    ///
    /// # Errors
    /// The first problem found.
    pub fn check(&self) -> Result<(), SkeletonError> {
        let mut seen = std::collections::HashSet::new();
        for (index, j) in self.joints.iter().enumerate() {
            if let Some(parent) = j.parent.filter(|&p| p >= index) {
                return Err(SkeletonError::Parent { index, name: j.name.clone(), parent });
            }
            if !seen.insert(j.name.as_str()) {
                return Err(SkeletonError::Duplicate { index, name: j.name.clone() });
            }
            let quats = [j.rotation, j.pre_rotation, j.post_rotation];
            let vectors = [Some(j.offset), j.scale, j.end_site, j.rotation_pivot, j.rotation_offset, j.scaling_pivot, j.scaling_offset];
            let finite = quats.iter().flatten().flatten().chain(vectors.iter().flatten().flatten()).all(|x| x.is_finite());
            if !finite || quats.iter().flatten().any(|q| q.iter().all(|&x| x == 0.0)) {
                return Err(SkeletonError::NotFinite { index, name: j.name.clone() });
            }
        }
        Ok(())
    }

    /// The joint called `name`.
    #[must_use]
    pub fn joint(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// The children of joint `index`, in file order.
    pub fn children(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        self.joints.iter().enumerate().filter(move |(_, j)| j.parent == Some(index)).map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joint(name: &str, parent: Option<usize>) -> Joint {
        Joint::new(name, parent, [0.0, 1.0, 0.0], None)
    }

    #[test]
    fn checks_parents_names_and_numbers() {
        let ok = Skeleton { joints: vec![joint("Hips", None), joint("Spine", Some(0)), joint("Head", Some(1))] };
        assert_eq!(ok.check(), Ok(()));
        assert_eq!(ok.children(0).collect::<Vec<_>>(), vec![1]);
        assert_eq!(ok.joint("Head"), Some(2));
        let forward = Skeleton { joints: vec![joint("Hips", Some(1)), joint("Spine", None)] };
        assert!(matches!(forward.check(), Err(SkeletonError::Parent { index: 0, .. })));
        let twice = Skeleton { joints: vec![joint("Hips", None), joint("Hips", Some(0))] };
        assert!(matches!(twice.check(), Err(SkeletonError::Duplicate { index: 1, .. })));
        let mut nan = ok.clone();
        nan.joints[2].end_site = Some([0.0, f64::NAN, 0.0]);
        assert!(matches!(nan.check(), Err(SkeletonError::NotFinite { index: 2, .. })));
        let mut pivot = ok.clone();
        pivot.joints[1].scaling_pivot = Some([f64::INFINITY, 0.0, 0.0]);
        assert!(matches!(pivot.check(), Err(SkeletonError::NotFinite { index: 1, .. })));
        let mut zero = ok.clone();
        zero.joints[0].post_rotation = Some([0.0; 4]);
        assert!(matches!(zero.check(), Err(SkeletonError::NotFinite { index: 0, .. })));
        zero.joints[0].post_rotation = Some([0.0, 0.0, 0.0, 2.0]);
        assert_eq!(zero.check(), Ok(()));
        assert!(zero.joints[0].has_pivots() && zero.joints[0].has_rest_transform() && !ok.joints[0].has_rest_transform());
    }
}
