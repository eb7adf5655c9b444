//! The body (SPEC §14, issue 42): forward kinematics of a project's [`Skeleton`] from its
//! tracks, and how far a change moved it.
//!
//! - [`Rig::new`] binds each joint to its tracks: `JOINT.translation` (Vec3), `JOINT.rotation`
//!   (Euler in the track's order, or Quat) and `JOINT.scale` (Vec3), by name or by a node
//!   binding to the joint. A track of the wrong kind is refused, naming the joint.
//! - [`Animated::pose_at`] gives every joint's world transform at a time: world = parent
//!   world · local, local = T · R · S, each of T, R, S from its track where the joint has one
//!   and the rest value elsewhere (the `OFFSET`, the node's rest rotation and scale). A joint
//!   with FBX's pre- or post-rotation, pivots or offsets ([`Pivots`]) has three constant
//!   transforms around them: local = T · A · R · B · S · C, with A = Roff · Rp · Rpre,
//!   B = Rpost⁻¹ · Rp⁻¹ · Soff · Sp and C = Sp⁻¹ (FBX's `T · Roff · Rp · Rpre · R · Rpost⁻¹ ·
//!   Rp⁻¹ · Soff · Sp · S · Sp⁻¹`; Roff, Rp, Soff, Sp translations), so a rotation track
//!   holds FBX's `Lcl Rotation` alone and turns about the pivot. A joint's world position is
//!   its transform's translation; its end site is at world · end-site offset, named
//!   `JOINT_end`. The points of a pose are the joints in skeleton order, each followed by its
//!   end site if it has one ([`Rig::points`]).
//! - [`Rig::size`]: the largest extent over x, y and z of the rest pose's points (no track
//!   applied): what body errors are given as a percentage of.
//! - [`difference`]: the largest distance between the same point of two takes over the
//!   union of both takes' key times and every frame of the take ([`measure_times`]).
//!
//! Checked against Blender 3.4's BVH importer (`tests/body.rs`, `tests/body/`): bone heads at
//! the joints and a leaf bone's tail at its end site, within 2e-5 of the skeleton's size.

use crate::model::{Binding, GltfProperty, Project, Skeleton, TrackKind};
use crate::quat::{self, Quat};
use crate::{SegmentCursor, TrackCurve};

/// A 3×3 matrix (rows) and a translation: `x ↦ m·x + p`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Affine {
    pub m: [[f64; 3]; 3],
    pub p: [f64; 3],
}

impl Affine {
    pub const IDENTITY: Self = Self { m: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], p: [0.0; 3] };

    /// `T(t) · R(q) · S(s)`.
    #[must_use]
    pub fn trs(t: [f64; 3], q: &Quat, s: [f64; 3]) -> Self {
        let r = quat::to_matrix(q);
        Self { m: r.map(|row| [row[0] * s[0], row[1] * s[1], row[2] * s[2]]), p: t }
    }

    /// `self · x` for a point.
    #[must_use]
    pub fn apply(&self, x: [f64; 3]) -> [f64; 3] {
        [0, 1, 2].map(|r| self.m[r][0] * x[0] + self.m[r][1] * x[1] + self.m[r][2] * x[2] + self.p[r])
    }

    /// `self · other`.
    #[must_use]
    pub fn then(&self, other: &Self) -> Self {
        let m = [0, 1, 2].map(|r| [0, 1, 2].map(|c| (0..3).map(|k| self.m[r][k] * other.m[k][c]).sum()));
        Self { m, p: self.apply(other.p) }
    }
}

/// A joint's pre- and post-rotation, pivots and offsets (`Joint::pre_rotation` …) in the
/// form forward kinematics and export use: local = `T(t + before) · (pre · R · post⁻¹) ·
/// T(between) · S · T(after)`, which is `T · A · R · B · S · C` (module docs) because
/// translations commute with each other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pivots {
    /// `Roff + Rp`.
    pub before: [f64; 3],
    /// `Rpre`, normalised.
    pub pre: Quat,
    /// `Rpost⁻¹`, normalised.
    pub post_inverse: Quat,
    /// `−Rp + Soff + Sp`.
    pub between: [f64; 3],
    /// `−Sp`.
    pub after: [f64; 3],
}

impl Pivots {
    /// The joint's, or `None` when it has none.
    #[must_use]
    pub fn of(joint: &crate::model::Joint) -> Option<Self> {
        if !joint.has_pivots() {
            return None;
        }
        let v = |x: Option<[f64; 3]>| x.unwrap_or([0.0; 3]);
        let (rp, roff, sp, soff) = (v(joint.rotation_pivot), v(joint.rotation_offset), v(joint.scaling_pivot), v(joint.scaling_offset));
        let q = |x: Option<[f64; 4]>| x.map_or(quat::IDENTITY, |q| quat::normalize(&q));
        Some(Self {
            before: [0, 1, 2].map(|i| roff[i] + rp[i]),
            pre: q(joint.pre_rotation),
            post_inverse: quat::conj(&q(joint.post_rotation)),
            between: [0, 1, 2].map(|i| soff[i] + sp[i] - rp[i]),
            after: sp.map(|x| -x),
        })
    }

    /// `pre · q · post⁻¹`: the rotation of the joint's local transform with rotation `q`.
    #[must_use]
    pub fn rotation(&self, q: &Quat) -> Quat {
        quat::mul(&quat::mul(&self.pre, q), &self.post_inverse)
    }

    /// The local transform with translation `t`, rotation `q` and scale `s`.
    #[must_use]
    pub fn local(&self, t: [f64; 3], q: &Quat, s: [f64; 3]) -> Affine {
        let turned = Affine::trs([0, 1, 2].map(|i| t[i] + self.before[i]), &self.rotation(q), [1.0; 3]);
        let scaled = Affine::trs(self.between, &quat::IDENTITY, s);
        turned.then(&scaled).then(&Affine::trs(self.after, &quat::IDENTITY, [1.0; 3]))
    }
}

/// What is wrong with a project's body.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BodyError {
    #[error("the project has no skeleton (import a BVH take, or a glTF or FBX file with a node hierarchy)")]
    NoSkeleton,
    #[error("the skeleton: {0}")]
    Skeleton(#[from] crate::skeleton::SkeletonError),
    #[error("joint \"{joint}\": track \"{track}\" is {kind:?}, but a joint's {property} must be {expected}")]
    WrongKind { joint: String, track: String, kind: TrackKind, property: &'static str, expected: &'static str },
    #[error("joint \"{joint}\": track \"{track}\" does not compile: {error}")]
    Track { joint: String, track: String, error: String },
    #[error("joint \"{joint}\" is not finite at {time} s (its tracks or its parent's give NaN or infinity)")]
    NotFinite { joint: String, time: f64 },
}

/// Which tracks animate one joint (indices into the project's tracks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JointTracks {
    pub translation: Option<usize>,
    pub rotation: Option<usize>,
    pub scale: Option<usize>,
}

impl JointTracks {
    /// The bound tracks.
    pub fn iter(&self) -> impl Iterator<Item = usize> {
        [self.translation, self.rotation, self.scale].into_iter().flatten()
    }
}

/// A point of a pose: a joint, or a joint's end site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    /// `JOINT`, or `JOINT_end` for an end site.
    pub name: String,
    pub joint: usize,
    pub end_site: bool,
}

/// A skeleton bound to a project's tracks: what forward kinematics needs, without the curves.
#[derive(Clone, Debug, PartialEq)]
pub struct Rig {
    pub skeleton: Skeleton,
    /// Per joint, in skeleton order.
    pub tracks: Vec<JointTracks>,
    /// The names of the bound tracks (for messages).
    names: std::collections::BTreeMap<usize, String>,
    /// Per joint, its pivots if it has any.
    pivots: Vec<Option<Pivots>>,
    points: Vec<Point>,
    size: f64,
}

/// The property a track animates, if it animates joint `joint` of nothing else: by its name
/// `JOINT.translation` / `.rotation` / `.scale`, or by a node binding.
fn property_of<'a>(track: &'a crate::Track) -> Option<(&'a str, GltfProperty)> {
    if let Some(Binding::Node { node, property, element: None, .. }) = &track.binding {
        return Some((node.as_str(), *property));
    }
    let (joint, property) = track.name.rsplit_once('.')?;
    let property = match property {
        "translation" => GltfProperty::Translation,
        "rotation" => GltfProperty::Rotation,
        "scale" => GltfProperty::Scale,
        _ => return None,
    };
    Some((joint, property))
}

impl Rig {
    /// The project's skeleton bound to its tracks.
    ///
    /// # Errors
    /// No skeleton, a skeleton that fails its check, or a joint's track of the wrong kind.
    pub fn new(project: &Project) -> Result<Self, BodyError> {
        let skeleton = project.skeleton.clone().ok_or(BodyError::NoSkeleton)?;
        skeleton.check()?;
        let mut tracks = vec![JointTracks::default(); skeleton.joints.len()];
        let mut names = std::collections::BTreeMap::new();
        for (ti, track) in project.tracks.iter().enumerate() {
            let Some((name, property)) = property_of(track) else { continue };
            let Some(j) = skeleton.joint(name) else { continue };
            let joint = || skeleton.joints[j].name.clone();
            let wrong = |property, expected| BodyError::WrongKind { joint: joint(), track: track.name.clone(), kind: track.kind, property, expected };
            let slot = match property {
                GltfProperty::Translation if track.kind == TrackKind::Vec3 => &mut tracks[j].translation,
                GltfProperty::Translation => return Err(wrong("translation", "Vec3")),
                GltfProperty::Rotation if track.kind.is_rotation() => &mut tracks[j].rotation,
                GltfProperty::Rotation => return Err(wrong("rotation", "Euler or Quat")),
                GltfProperty::Scale if track.kind == TrackKind::Vec3 => &mut tracks[j].scale,
                GltfProperty::Scale => return Err(wrong("scale", "Vec3")),
                GltfProperty::Weights => continue,
            };
            if slot.is_none() {
                *slot = Some(ti);
                names.insert(ti, track.name.clone());
            }
        }
        let mut points = Vec::new();
        for (j, joint) in skeleton.joints.iter().enumerate() {
            points.push(Point { name: joint.name.clone(), joint: j, end_site: false });
            if joint.end_site.is_some() {
                points.push(Point { name: format!("{}_end", joint.name), joint: j, end_site: true });
            }
        }
        let pivots = skeleton.joints.iter().map(Pivots::of).collect();
        let mut rig = Self { skeleton, tracks, names, pivots, points, size: 0.0 };
        let rest = rig.rest_pose();
        let extent = |axis: usize| {
            let (lo, hi) = rest.points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p[axis]), hi.max(p[axis])));
            if lo.is_finite() {
                hi - lo
            } else {
                0.0
            }
        };
        rig.size = (0..3).map(extent).fold(0.0, f64::max);
        Ok(rig)
    }

    /// The points of a pose: each joint, then its end site if it has one.
    #[must_use]
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The largest extent over x, y and z of the rest pose (file units); 0 for a skeleton
    /// whose points all coincide.
    #[must_use]
    pub fn size(&self) -> f64 {
        self.size
    }

    /// `d` as a percentage of the skeleton's size (0 when the size is 0).
    #[must_use]
    pub fn percent(&self, d: f64) -> f64 {
        if self.size > 0.0 {
            100.0 * d / self.size
        } else {
            0.0
        }
    }

    /// Every track some joint is bound to.
    pub fn bound_tracks(&self) -> impl Iterator<Item = usize> + '_ {
        self.tracks.iter().flat_map(JointTracks::iter)
    }

    /// The joint a track animates, if any.
    #[must_use]
    pub fn joint_of_track(&self, ti: usize) -> Option<usize> {
        self.tracks.iter().position(|t| t.iter().any(|x| x == ti))
    }

    /// The pose with no track applied: offsets, rest rotations and scales.
    #[must_use]
    pub fn rest_pose(&self) -> Pose {
        let mut pose = Pose::default();
        self.fill(&mut pose, |j| self.rest_local(j));
        pose
    }

    fn rest_local(&self, j: usize) -> Affine {
        let joint = &self.skeleton.joints[j];
        self.local(j, joint.offset, &joint.rest_rotation(), joint.rest_scale())
    }

    /// Joint `j`'s local transform with translation `t`, rotation `q` and scale `s`:
    /// `T · R · S`, or `T · A · R · B · S · C` with pivots (module docs).
    fn local(&self, j: usize, t: [f64; 3], q: &Quat, s: [f64; 3]) -> Affine {
        match &self.pivots[j] {
            None => Affine::trs(t, q, s),
            Some(p) => p.local(t, q, s),
        }
    }

    /// World transforms from each joint's local transform, parents first, and the points.
    fn fill(&self, pose: &mut Pose, mut local: impl FnMut(usize) -> Affine) {
        pose.world.clear();
        pose.points.clear();
        for (j, joint) in self.skeleton.joints.iter().enumerate() {
            let l = local(j);
            let world = match joint.parent {
                Some(p) => pose.world[p].then(&l),
                None => l,
            };
            pose.world.push(world);
            pose.points.push(world.p);
            if let Some(end) = joint.end_site {
                pose.points.push(world.apply(end));
            }
        }
    }

    /// The rig with each joint's curves: `curve(track index)` gives a track's compiled curve.
    ///
    /// # Errors
    /// A bound track without a curve (it failed to compile), naming the joint.
    pub fn animate<'c>(&'c self, curve: impl Fn(usize) -> Result<&'c TrackCurve, String>) -> Result<Animated<'c>, BodyError> {
        self.animate_some(|ti| curve(ti).map(Some))
    }

    /// [`Rig::animate`] where `curve` may leave a track out (`Ok(None)`): its joint keeps the
    /// rest value there.
    ///
    /// # Errors
    /// A bound track whose curve is an error, naming the joint.
    pub fn animate_some<'c>(&'c self, curve: impl Fn(usize) -> Result<Option<&'c TrackCurve>, String>) -> Result<Animated<'c>, BodyError> {
        let mut joints = Vec::with_capacity(self.tracks.len());
        for (j, tracks) in self.tracks.iter().enumerate() {
            let get = |ti: Option<usize>| -> Result<Option<&'c TrackCurve>, BodyError> {
                let Some(ti) = ti else { return Ok(None) };
                curve(ti).map_err(|error| BodyError::Track {
                    joint: self.skeleton.joints[j].name.clone(),
                    track: self.names.get(&ti).cloned().unwrap_or_default(),
                    error,
                })
            };
            joints.push([get(tracks.translation)?, get(tracks.rotation)?, get(tracks.scale)?]);
        }
        Ok(Animated { rig: self, cursors: vec![SegmentCursor::new(); joints.len() * 3], joints, scratch: [0.0; 4] })
    }
}

/// World transforms of every joint and the positions of every point ([`Rig::points`]) at one
/// time. Reused from time to time without allocating.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pose {
    pub world: Vec<Affine>,
    pub points: Vec<[f64; 3]>,
}

/// A rig with its curves, ready to pose at any time (one cursor per curve: sequential times
/// find their segments in O(1)).
pub struct Animated<'c> {
    rig: &'c Rig,
    joints: Vec<[Option<&'c TrackCurve>; 3]>,
    cursors: Vec<SegmentCursor>,
    scratch: [f64; 4],
}

impl Animated<'_> {
    #[must_use]
    pub fn rig(&self) -> &Rig {
        self.rig
    }

    /// The pose at `t` into `pose`.
    ///
    /// # Errors
    /// A joint whose world position is not finite (named).
    pub fn pose_at(&mut self, t: f64, pose: &mut Pose) -> Result<(), BodyError> {
        let Self { rig, joints, cursors, scratch } = self;
        rig.fill(pose, |j| {
            let joint = &rig.skeleton.joints[j];
            let [tc, rc, sc] = joints[j];
            let mut vec3 = |c: Option<&TrackCurve>, k: usize, rest: [f64; 3]| {
                c.map_or(rest, |c| {
                    c.sample(&mut cursors[j * 3 + k], t, &mut scratch[..3]);
                    [scratch[0], scratch[1], scratch[2]]
                })
            };
            let translation = vec3(tc, 0, joint.offset);
            let scale = vec3(sc, 2, joint.rest_scale());
            // A rotation track (Euler or Quat), or four components a runtime plays as a
            // quaternion it normalises (`export::preview` gives Vec4 curves for those).
            let rotation = rc
                .and_then(|c| match c.rotation_at(&mut cursors[j * 3 + 1], t, &mut scratch[..c.dim()]) {
                    Some(q) => Some(q),
                    None if c.dim() == 4 => {
                        let q = [scratch[0], scratch[1], scratch[2], scratch[3]];
                        (q.iter().map(|x| x * x).sum::<f64>() > 0.0).then(|| quat::normalize(&q))
                    }
                    None => None,
                })
                .unwrap_or_else(|| joint.rest_rotation());
            rig.local(j, translation, &rotation, scale)
        });
        if let Some(i) = pose.points.iter().position(|p| !p.iter().all(|x| x.is_finite())) {
            let joint = rig.skeleton.joints[rig.points[i].joint].name.clone();
            return Err(BodyError::NotFinite { joint, time: t });
        }
        Ok(())
    }
}

/// The times a take is measured at on the body: every key time of `rig`'s tracks in each
/// take, and every frame at `fps` from the first to the last of them, sorted, each once.
#[must_use]
pub fn measure_times(takes: &[(&Rig, &[Option<&TrackCurve>])], fps: f64) -> Vec<f64> {
    let mut times: Vec<f64> = Vec::new();
    for (rig, curves) in takes {
        for ti in rig.bound_tracks() {
            if let Some(Some(c)) = curves.get(ti) {
                times.extend_from_slice(c.times());
            }
        }
    }
    times.retain(|t| t.is_finite());
    let (lo, hi) = times.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &t| (lo.min(t), hi.max(t)));
    if lo.is_finite() && fps.is_finite() && fps > 0.0 {
        let frames = ((hi - lo) * fps).floor().min(1e8) as usize;
        times.extend((0..=frames).map(|f| lo + f as f64 / fps));
    }
    times.sort_by(f64::total_cmp);
    times.dedup();
    times
}

/// The largest displacement between the same point of two poses of one skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct Displacement {
    /// File units.
    pub distance: f64,
    /// The point's name (`JOINT` or `JOINT_end`).
    pub point: String,
    /// Seconds.
    pub time: f64,
    /// `distance` as a percentage of the skeleton's size (of the first take).
    pub percent: f64,
}

impl std::fmt::Display for Displacement {
    /// `0.52 at LeftFoot_end, 1.008 s (3.1% of the skeleton's size)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at {}, {} s ({:.3}% of the skeleton's size)", self.distance, self.point, self.time, self.percent)
    }
}

/// The largest displacement between the two takes' same points at `times`, or an error if
/// the skeletons' points differ (by name) or a pose is not finite.
///
/// # Errors
/// Points that differ between the skeletons; a non-finite pose.
pub fn difference(before: &mut Animated<'_>, after: &mut Animated<'_>, times: &[f64]) -> Result<Displacement, BodyError> {
    let names = |a: &Animated<'_>| a.rig.points.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
    if names(before) != names(after) {
        return Err(BodyError::Skeleton(crate::skeleton::SkeletonError::Differs));
    }
    let (mut pa, mut pb) = (Pose::default(), Pose::default());
    let mut worst = Displacement {
        distance: 0.0,
        point: before.rig.points.first().map_or_else(String::new, |p| p.name.clone()),
        time: times.first().copied().unwrap_or(0.0),
        percent: 0.0,
    };
    for &t in times {
        before.pose_at(t, &mut pa)?;
        after.pose_at(t, &mut pb)?;
        for (i, (a, b)) in pa.points.iter().zip(&pb.points).enumerate() {
            let d = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
            if d > worst.distance {
                worst = Displacement { distance: d, point: before.rig.points[i].name.clone(), time: t, percent: 0.0 };
            }
        }
    }
    worst.percent = before.rig.percent(worst.distance);
    Ok(worst)
}

/// How far replacing some of `project`'s tracks by the curves `replaced` (track index, new
/// curve) moves the body (`None` when the project has no skeleton or no replaced track
/// animates a joint). Only what the change can move is posed: the joints whose tracks
/// changed, the joints below them and the joints above them (whose unchanged curves carry
/// them); every other joint stays at rest in both poses, so it adds nothing. Measured at every
/// key time of those tracks, before and after, and every frame at the project's fps.
///
/// # Errors
/// A body error (a joint's track of the wrong kind, not compiling, a pose not finite).
pub fn replaced_difference(project: &Project, replaced: &[(usize, &TrackCurve)]) -> Result<Option<Displacement>, BodyError> {
    if project.skeleton.is_none() {
        return Ok(None);
    }
    let rig = Rig::new(project)?;
    let joints = &rig.skeleton.joints;
    let mut changed = vec![false; joints.len()];
    for &(ti, _) in replaced {
        if let Some(j) = rig.joint_of_track(ti) {
            changed[j] = true;
        }
    }
    if !changed.contains(&true) {
        return Ok(None);
    }
    // Below a changed joint (parents come first), then above one.
    let mut needed = changed.clone();
    for j in 0..joints.len() {
        if let Some(p) = joints[j].parent {
            needed[j] |= needed[p];
        }
    }
    for (j, _) in changed.iter().enumerate().filter(|(_, c)| **c) {
        let mut up = joints[j].parent;
        while let Some(p) = up {
            needed[p] = true;
            up = joints[p].parent;
        }
    }
    let tracks: Vec<usize> = (0..joints.len()).filter(|&j| needed[j]).flat_map(|j| rig.tracks[j].iter()).collect();
    let new: std::collections::HashMap<usize, &TrackCurve> = replaced.iter().copied().collect();
    let old: std::collections::HashMap<usize, Result<TrackCurve, String>> =
        tracks.iter().map(|&ti| (ti, TrackCurve::new(&project.tracks[ti]).map_err(|e| e.to_string()))).collect();
    let before_of = |ti: usize| -> Result<Option<&TrackCurve>, String> { old.get(&ti).map(|c| c.as_ref().map_err(Clone::clone)).transpose() };
    let mut before = rig.animate_some(before_of)?;
    let mut after = rig.animate_some(|ti| match new.get(&ti) {
        Some(c) if old.contains_key(&ti) => Ok(Some(*c)),
        _ => before_of(ti),
    })?;
    let fa: Vec<Option<&TrackCurve>> = (0..project.tracks.len()).map(|ti| old.get(&ti).and_then(|c| c.as_ref().ok())).collect();
    let fb: Vec<Option<&TrackCurve>> = (0..project.tracks.len()).map(|ti| new.get(&ti).copied().filter(|_| old.contains_key(&ti)).or(fa[ti])).collect();
    let times = measure_times(&[(&rig, &fa), (&rig, &fb)], project.fps);
    difference(&mut before, &mut after, &times).map(Some)
}

/// What [`replaced_difference`] needs of `project` to measure a change of `changed`: a copy
/// with the skeleton and the tracks of the joints the change can move or that carry them (the
/// changed joints, those below and those above), every other track's keys left out; `None`
/// without a skeleton or when no changed track animates a joint. What a slider keeps while it
/// is open, instead of sharing the whole take.
#[must_use]
pub fn needed_for(project: &Project, changed: &[usize]) -> Option<Project> {
    let rig = Rig::new(project).ok()?;
    let joints = &rig.skeleton.joints;
    let mut needed = vec![false; joints.len()];
    for &ti in changed {
        if let Some(j) = rig.joint_of_track(ti) {
            needed[j] = true;
        }
    }
    if !needed.contains(&true) {
        return None;
    }
    let changed_joints = needed.clone();
    for j in 0..joints.len() {
        if let Some(p) = joints[j].parent {
            needed[j] |= needed[p];
        }
    }
    for j in (0..joints.len()).filter(|&j| changed_joints[j]) {
        let mut up = joints[j].parent;
        while let Some(p) = up {
            needed[p] = true;
            up = joints[p].parent;
        }
    }
    let keep: std::collections::HashSet<usize> = (0..joints.len()).filter(|&j| needed[j]).flat_map(|j| rig.tracks[j].iter()).collect();
    let tracks =
        project.tracks.iter().enumerate().map(|(i, t)| if keep.contains(&i) { t.clone() } else { t.with_other_keys(crate::model::Keys::new()) }).collect();
    Some(Project { version: project.version, fps: project.fps, tracks, skeleton: project.skeleton.clone(), export: None })
}

/// The tracks `rig` binds compiled (or why not); the others left out.
fn compile_bound(project: &Project, rig: &Rig) -> Vec<Result<TrackCurve, String>> {
    let used: std::collections::HashSet<usize> = rig.bound_tracks().collect();
    let unused = || Err("not a joint's track".to_owned());
    project.tracks.iter().enumerate().map(|(i, t)| if used.contains(&i) { TrackCurve::new(t).map_err(|e| e.to_string()) } else { unused() }).collect()
}

/// How far changing `before`'s tracks into `after`'s moved the body: both projects have the
/// same skeleton; every track is compiled (the failures named). `None` when `before` has no
/// skeleton.
///
/// # Errors
/// A body error of either take.
pub fn project_difference(before: &Project, after: &Project) -> Result<Option<Displacement>, BodyError> {
    if before.skeleton.is_none() {
        return Ok(None);
    }
    let (ra, rb) = (Rig::new(before)?, Rig::new(after)?);
    let (ca, cb) = (compile_bound(before, &ra), compile_bound(after, &rb));
    let (fa, fb) = (ca.iter().map(|c| c.as_ref().ok()).collect::<Vec<_>>(), cb.iter().map(|c| c.as_ref().ok()).collect::<Vec<_>>());
    let mut a = ra.animate(|i| ca[i].as_ref().map_err(Clone::clone))?;
    let mut b = rb.animate(|i| cb[i].as_ref().map_err(Clone::clone))?;
    let times = measure_times(&[(&ra, &fa), (&rb, &fb)], before.fps);
    difference(&mut a, &mut b, &times).map(Some)
}

#[cfg(test)]
#[path = "body_tests.rs"]
mod tests;
