//! Hand-checked forward kinematics (the numbers worked out on paper in each test's comment);
//! `tests/body.rs` holds the same against Blender 3.4's BVH importer.

use super::*;
use crate::euler::EulerOrder;
use crate::model::{Interpolation, Joint, Key, Track};

fn track(name: &str, kind: TrackKind, keys: &[(f64, Vec<f64>)]) -> Track {
    let mut t = Track::new(name, kind, Interpolation::Linear).with_keys(keys.iter().map(|(t, v)| Key::new(*t, v.clone())).collect());
    t.order = EulerOrder::XYZ;
    t
}

/// Hips at (0, 1, 0) rest, Arm 1 along x with an end site 2 along x.
fn arm() -> Project {
    let skeleton =
        Skeleton { joints: vec![Joint::new("Hips", None, [0.0, 1.0, 0.0], None), Joint::new("Arm", Some(0), [1.0, 0.0, 0.0], Some([2.0, 0.0, 0.0]))] };
    Project { skeleton: Some(skeleton), ..Project::default() }
}

fn pose(project: &Project, t: f64) -> Result<Vec<[f64; 3]>, BodyError> {
    let rig = Rig::new(project)?;
    let curves: Vec<TrackCurve> = project.tracks.iter().map(|t| TrackCurve::new(t).unwrap()).collect();
    let mut animated = rig.animate(|i| Ok(&curves[i]))?;
    let mut pose = Pose::default();
    animated.pose_at(t, &mut pose)?;
    Ok(pose.points)
}

fn close(a: &[[f64; 3]], b: &[[f64; 3]]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(p, q)| p.iter().zip(q).all(|(x, y)| (x - y).abs() < 1e-12))
}

#[test]
fn rest_pose_points_and_size() {
    let project = arm();
    let rig = Rig::new(&project).unwrap();
    let names: Vec<&str> = rig.points().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Hips", "Arm", "Arm_end"]);
    // (0,1,0), (1,1,0), (3,1,0): x spans 3, y and z nothing.
    assert!(close(&pose(&project, 0.0).unwrap(), &[[0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [3.0, 1.0, 0.0]]));
    assert_eq!(rig.size(), 3.0);
    assert!((rig.percent(0.3) - 10.0).abs() < 1e-12);
}

#[test]
fn rotation_of_a_parent_turns_its_children() {
    let mut project = arm();
    // 90° about z on the hips: x goes to y. Arm at (0,1,0) + (0,1,0) = (0,2,0), its end at
    // (0,4,0).
    let quarter = std::f64::consts::FRAC_PI_2;
    project.tracks.push(track("Hips.rotation", TrackKind::Euler, &[(0.0, vec![0.0, 0.0, 0.0]), (1.0, vec![0.0, 0.0, 2.0 * quarter])]));
    assert!(close(&pose(&project, 0.5).unwrap(), &[[0.0, 1.0, 0.0], [0.0, 2.0, 0.0], [0.0, 4.0, 0.0]]));
    // At 1 s, 180°: the arm points along -x.
    assert!(close(&pose(&project, 1.0).unwrap(), &[[0.0, 1.0, 0.0], [-1.0, 1.0, 0.0], [-3.0, 1.0, 0.0]]));
}

#[test]
fn euler_order_matters_and_quat_tracks_work() {
    // Arm rotated x 90° then z 90° (order XYZ: R = Rz·Rx): the end site offset (2,0,0) goes
    // to Rx: (2,0,0), then Rz: (0,2,0). In ZYX (R = Rx·Rz): Rz gives (0,2,0), Rx gives (0,0,2).
    let mut project = arm();
    let q = std::f64::consts::FRAC_PI_2;
    project.tracks.push(track("Arm.rotation", TrackKind::Euler, &[(0.0, vec![q, 0.0, q])]));
    assert!(close(&pose(&project, 0.0).unwrap()[2..], &[[1.0, 3.0, 0.0]]));
    project.tracks[0].order = EulerOrder::ZYX;
    assert!(close(&pose(&project, 0.0).unwrap()[2..], &[[1.0, 1.0, 2.0]]));
    // The same as a quaternion: 90° about x, [sin 45°, 0, 0, cos 45°]: (2,0,0) stays.
    let h = std::f64::consts::FRAC_1_SQRT_2;
    project.tracks[0] = track("Arm.rotation", TrackKind::Quat, &[(0.0, vec![h, 0.0, 0.0, h])]);
    project.tracks[0].interpolation = Interpolation::Slerp;
    assert!(close(&pose(&project, 0.0).unwrap()[2..], &[[3.0, 1.0, 0.0]]));
}

#[test]
fn translation_replaces_the_offset_and_scale_scales_children() {
    let mut project = arm();
    // The hips moved to (5,0,0); the arm's offset scaled by 2 on the hips: (5,0,0)+(2,0,0).
    project.tracks.push(track("Hips.translation", TrackKind::Vec3, &[(0.0, vec![5.0, 0.0, 0.0])]));
    project.tracks.push(track("Hips.scale", TrackKind::Vec3, &[(0.0, vec![2.0, 1.0, 1.0])]));
    // The end site: hips world (scale 2 on x) · arm local (translate (1,0,0)) · (2,0,0):
    // x = 5 + 2·(1 + 2) = 11.
    assert!(close(&pose(&project, 0.0).unwrap(), &[[5.0, 0.0, 0.0], [7.0, 0.0, 0.0], [11.0, 0.0, 0.0]]));
}

#[test]
fn rest_rotation_and_scale_apply_without_tracks() {
    let mut project = arm();
    let skeleton = project.skeleton.as_mut().unwrap();
    // The hips' rest rotation 180° about y: x goes to -x. Scale 3 on the arm: its end site 6.
    skeleton.joints[0].rotation = Some([0.0, 1.0, 0.0, 0.0]);
    skeleton.joints[1].scale = Some([3.0, 1.0, 1.0]);
    assert!(close(&pose(&project, 0.0).unwrap(), &[[0.0, 1.0, 0.0], [-1.0, 1.0, 0.0], [-7.0, 1.0, 0.0]]));
    assert_eq!(project.required_version(), 5);
    // A rotation track replaces the rest rotation.
    project.tracks.push(track("Hips.rotation", TrackKind::Euler, &[(0.0, vec![0.0, 0.0, 0.0])]));
    assert!(close(&pose(&project, 0.0).unwrap(), &[[0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [7.0, 1.0, 0.0]]));
}

#[test]
fn bad_input_names_the_joint() {
    let mut project = arm();
    project.tracks.push(track("Arm.rotation", TrackKind::Vec2, &[(0.0, vec![0.0, 0.0])]));
    let e = Rig::new(&project).unwrap_err();
    assert!(matches!(&e, BodyError::WrongKind { joint, .. } if joint == "Arm"), "{e}");
    assert!(e.to_string().contains("\"Arm\"") && e.to_string().contains("Euler or Quat"), "{e}");
    assert_eq!(Rig::new(&Project::default()).unwrap_err(), BodyError::NoSkeleton);
    // Finite keys whose world position overflows: NotFinite, naming the joint.
    let mut project = arm();
    project.tracks.push(track("Hips.translation", TrackKind::Vec3, &[(0.0, vec![1e308, 0.0, 0.0])]));
    project.tracks.push(track("Hips.scale", TrackKind::Vec3, &[(0.0, vec![1e308, 1.0, 1.0])]));
    let e = pose(&project, 0.0).unwrap_err();
    assert!(matches!(&e, BodyError::NotFinite { joint, .. } if joint == "Arm"), "{e}");
}

#[test]
fn difference_finds_the_largest_displacement() {
    let before = arm();
    let mut after = arm();
    // The arm turns 90° about z at 1 s only: the end site moves from (3,1,0) to (1,3,0),
    // 2·√2 away; the arm's joint itself does not move.
    let q = std::f64::consts::FRAC_PI_2;
    after.tracks.push(track("Arm.rotation", TrackKind::Euler, &[(0.0, vec![0.0; 3]), (1.0, vec![0.0, 0.0, q]), (2.0, vec![0.0; 3])]));
    let d = project_difference(&before, &after).unwrap().unwrap();
    assert_eq!(d.point, "Arm_end");
    assert_eq!(d.time, 1.0);
    assert!((d.distance - 8f64.sqrt()).abs() < 1e-12, "{d}");
    assert!((d.percent - 100.0 * 8f64.sqrt() / 3.0).abs() < 1e-9, "{d}");
    // Measured at every frame (60 fps default) between the keys, not only at keys.
    let rig = Rig::new(&after).unwrap();
    let curves: Vec<TrackCurve> = after.tracks.iter().map(|t| TrackCurve::new(t).unwrap()).collect();
    let refs: Vec<Option<&TrackCurve>> = curves.iter().map(Some).collect();
    assert_eq!(measure_times(&[(&rig, &refs)], 10.0).len(), 21);
    assert_eq!(project_difference(&Project::default(), &after).unwrap(), None);
}

#[test]
fn needed_for_keeps_the_changed_joints_those_below_and_above() {
    // Hips (tracks 0) with Arm (1) and a second arm Other (2), each rotated.
    let mut project = arm();
    project.skeleton.as_mut().unwrap().joints.push(Joint::new("Other", Some(0), [-1.0, 0.0, 0.0], None));
    for name in ["Hips.rotation", "Arm.rotation", "Other.rotation"] {
        project.tracks.push(track(name, TrackKind::Euler, &[(0.0, vec![0.0; 3]), (1.0, vec![0.0, 0.0, 0.5])]));
    }
    // A change of Arm: Arm and the Hips above it; Other's keys left out.
    let light = needed_for(&project, &[1]).unwrap();
    let kept: Vec<usize> = light.tracks.iter().map(|t| t.keys.len()).collect();
    assert_eq!(kept, vec![2, 2, 0]);
    // Measured on the light copy, a change of Arm moves the body exactly as on the whole take.
    let new = TrackCurve::new(&track("Arm.rotation", TrackKind::Euler, &[(0.0, vec![0.0; 3]), (1.0, vec![0.0, 0.0, 1.0])])).unwrap();
    assert_eq!(replaced_difference(&light, &[(1, &new)]).unwrap(), replaced_difference(&project, &[(1, &new)]).unwrap());
    // A change of the Hips needs everything; a track of no joint, nothing.
    assert_eq!(needed_for(&project, &[0]).unwrap().tracks.iter().map(|t| t.keys.len()).collect::<Vec<_>>(), vec![2, 2, 2]);
    project.tracks.push(track("camera.translation", TrackKind::Vec3, &[(0.0, vec![0.0; 3])]));
    assert_eq!(needed_for(&project, &[3]), None);
}

#[test]
fn pivots_pre_and_post_rotation_wrap_the_rotation_and_scale() {
    // The arm with FBX's parts: Rpre = Rpost = 90° about z, Rp = (1,0,0), Roff = (0,0,1),
    // Sp = (0,1,0), Soff = (0,0,2), rest scale (2,3,1). Local = T·Roff·Rp·Rpre·R·Rpost⁻¹·Rp⁻¹·
    // Soff·Sp·S·Sp⁻¹, applied right to left to the arm's origin: Sp⁻¹ (0,−1,0), S (0,−3,0),
    // Sp (0,−2,0), Soff (0,−2,2), Rp⁻¹ (−1,−2,2), Rpost⁻¹ = Rz(−90°) (−2,1,2), R = 1,
    // Rpre = Rz(90°) (−1,−2,2), Rp (0,−2,2), Roff (0,−2,3), T (1,−2,3); the hips at (0,1,0):
    // (1,−1,3). The end site (2,0,0): (2,−1,0), (4,−3,0), (4,−2,0), (4,−2,2), (3,−2,2),
    // (−2,−3,2), (3,−2,2), (4,−2,2), (4,−2,3), (5,−2,3): (5,−1,3).
    let mut project = arm();
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let joint = &mut project.skeleton.as_mut().unwrap().joints[1];
    joint.pre_rotation = Some([0.0, 0.0, h, h]);
    joint.post_rotation = Some([0.0, 0.0, h, h]);
    joint.rotation_pivot = Some([1.0, 0.0, 0.0]);
    joint.rotation_offset = Some([0.0, 0.0, 1.0]);
    joint.scaling_pivot = Some([0.0, 1.0, 0.0]);
    joint.scaling_offset = Some([0.0, 0.0, 2.0]);
    joint.scale = Some([2.0, 3.0, 1.0]);
    assert!(close(&pose(&project, 0.0).unwrap(), &[[0.0, 1.0, 0.0], [1.0, -1.0, 3.0], [5.0, -1.0, 3.0]]));
    assert_eq!(project.required_version(), 5);
    // A rotation track turns between Rpre and Rpost⁻¹, about the pivot: Rx(90°) takes
    // (x,y,z) to (x,−z,y). The origin after Rpost⁻¹ (−2,1,2), Rx (−2,−2,1), Rpre (2,−2,1), Rp
    // (3,−2,1), Roff (3,−2,2), T (4,−2,2): (4,−1,2). The end site after Rpost⁻¹ (−2,−3,2), Rx
    // (−2,−2,−3), Rpre (2,−2,−3), Rp (3,−2,−3), Roff (3,−2,−2), T (4,−2,−2): (4,−1,−2).
    let q = std::f64::consts::FRAC_PI_2;
    project.tracks.push(track("Arm.rotation", TrackKind::Euler, &[(0.0, vec![q, 0.0, 0.0])]));
    assert!(close(&pose(&project, 0.0).unwrap(), &[[0.0, 1.0, 0.0], [4.0, -1.0, 2.0], [4.0, -1.0, -2.0]]));
    // The same as T · A · R · B · S · C from the eleven factors, at other values.
    let joint = &mut project.skeleton.as_mut().unwrap().joints[1];
    joint.pre_rotation = Some(crate::euler::to_quat(&[0.3, -0.2, 0.7], EulerOrder::XYZ));
    joint.post_rotation = Some(crate::euler::to_quat(&[-0.5, 0.4, 0.1], EulerOrder::ZXY));
    joint.rotation_pivot = Some([0.2, -0.7, 0.4]);
    joint.scaling_pivot = Some([-0.3, 0.5, 0.9]);
    let (j, r, s, t) = (joint.clone(), crate::euler::to_quat(&[0.9, 0.1, -0.4], EulerOrder::XYZ), [0.5, 2.0, 1.5], [0.1, 0.2, -0.3]);
    let at = |v: Option<[f64; 3]>| Affine::trs(v.unwrap(), &crate::quat::IDENTITY, [1.0; 3]);
    let minus = |v: Option<[f64; 3]>| Affine::trs(v.unwrap().map(|x| -x), &crate::quat::IDENTITY, [1.0; 3]);
    let turn = |q: &crate::quat::Quat| Affine::trs([0.0; 3], q, [1.0; 3]);
    let a = at(j.rotation_offset).then(&at(j.rotation_pivot)).then(&turn(&j.pre_rotation.unwrap()));
    let b = turn(&crate::quat::conj(&j.post_rotation.unwrap())).then(&minus(j.rotation_pivot)).then(&at(j.scaling_offset)).then(&at(j.scaling_pivot));
    let c = minus(j.scaling_pivot);
    let want = at(Some(t)).then(&a).then(&turn(&r)).then(&b).then(&Affine::trs([0.0; 3], &crate::quat::IDENTITY, s)).then(&c);
    let got = Pivots::of(&j).unwrap().local(t, &r, s);
    for row in 0..3 {
        for col in 0..3 {
            assert!((got.m[row][col] - want.m[row][col]).abs() < 1e-14, "{got:?} vs {want:?}");
        }
        assert!((got.p[row] - want.p[row]).abs() < 1e-14, "{got:?} vs {want:?}");
    }
    assert_eq!(Pivots::of(&Joint::new("Plain", None, [0.0; 3], None)), None);
}
