//! Where each track goes in an export. A track imported from glTF or three.js goes back to
//! its [`Binding`] (SPEC §11: its node and property, its animation, or its three.js property
//! path) when the binding fits its kind and the user has not mapped it elsewhere (`--map`,
//! the Export window); any other track goes to an object named after it, as
//! `docs/export.md` describes. The tracks of one source channel (one per morph target, or
//! per value of a three.js number track) are put back together into one channel here.

use std::collections::{HashMap, HashSet};

use super::{three_node_name, Form, Format, Prepared, Target};
use crate::curve::TrackCurve;
use crate::model::{Binding, Element, GltfProperty, Interpolation, Project, Skeleton, ThreeValueType, Track, TrackKind};

/// A node of the exported glTF scene.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum NodeKey {
    /// The node a glTF import came from: its index there, and its name (written back).
    Source { index: usize, name: Option<String> },
    /// A node named after the object of a three.js property path (`Hips` of `Hips.position`).
    Named(String),
    /// The node of one track, named after it.
    Own(String),
}

impl NodeKey {
    /// The name the exported node gets.
    pub(super) fn name(&self) -> Option<String> {
        match self {
            Self::Source { name, .. } => name.clone(),
            Self::Named(n) | Self::Own(n) => Some(n.clone()),
        }
    }
}

/// Where one prepared track is written.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Dest {
    /// CSV writes every track under its own name.
    Csv,
    /// A glTF channel on `node` (its property is the track's [`Target`]), in the animation
    /// called `animation` (`None`: the one called "Tangent").
    Gltf { animation: Option<String>, node: NodeKey, element: Option<Element> },
    /// A three.js track called `path`.
    Three { path: String, value_type: ThreeValueType, element: Option<Element> },
}

impl Dest {
    fn element(&self) -> Option<Element> {
        match self {
            Self::Gltf { element, .. } | Self::Three { element, .. } => *element,
            Self::Csv => None,
        }
    }

    /// The same place without the element: what the tracks of one channel share.
    fn channel(&self, target: Target) -> String {
        match self {
            Self::Gltf { animation, node, .. } => format!("{animation:?}|{node:?}|{target:?}"),
            Self::Three { path, .. } => path.clone(),
            Self::Csv => String::new(),
        }
    }
}

/// The animation of tracks that were not imported from one.
pub(super) const DEFAULT_ANIMATION: &str = "Tangent";

/// The node a track animates.
pub(super) fn node_key(p: &Prepared) -> NodeKey {
    match &p.dest {
        Dest::Gltf { node, .. } => node.clone(),
        _ => NodeKey::Own(p.name.clone()),
    }
}

/// The property at the end of a three.js path, without its index: `position` of
/// `Hips.position`, `morphTargetInfluences` of `Face.morphTargetInfluences[smile]`.
fn three_property(path: &str) -> (&str, &str) {
    let bare = path.split('[').next().unwrap_or(path);
    match bare.rsplit_once('.') {
        Some((node, property)) => (node, property),
        None => ("", bare),
    }
}

/// The target a track's binding implies in `format`, if it has one that fits its kind.
#[must_use]
pub fn bound_target(track: &Track, format: Format) -> Option<Target> {
    let target = match track.binding.as_ref()? {
        Binding::Gltf { property, .. } | Binding::Node { property, .. } => match property {
            GltfProperty::Translation => Target::Translation,
            GltfProperty::Rotation => Target::Rotation,
            GltfProperty::Scale => Target::Scale,
            GltfProperty::Weights => Target::Weights,
        },
        Binding::Three { path, .. } => match three_property(path).1 {
            "position" => Target::Translation,
            "quaternion" => Target::Rotation,
            "scale" => Target::Scale,
            "morphTargetInfluences" => Target::Weights,
            _ => Target::Property,
        },
    };
    Some(target).filter(|t| t.fits(track.kind, format))
}

/// Where a track with `target` goes; `mapped` when the user chose the target (then the
/// binding is not used, nor the joint its name gives). In glTF, a track that animates a joint
/// of `skeleton` with `target` goes to the joint's node (`skeleton.rs`).
pub(super) fn dest(track: &Track, target: Target, format: Format, mapped: bool, skeleton: Option<&Skeleton>) -> Dest {
    let bound = if mapped || bound_target(track, format) != Some(target) { None } else { track.binding.as_ref() };
    match format {
        Format::Csv => Dest::Csv,
        Format::Gltf | Format::Glb => {
            skeleton.filter(|_| !mapped).and_then(|s| joint_dest(s, track, target)).unwrap_or_else(|| gltf_dest(track, target, bound))
        }
        Format::ThreeJson => three_dest(track, target, bound),
    }
}

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

/// The node of the joint `track` animates with `target` ([`joint_of`]), in the animation it
/// was imported from (else the default one).
fn joint_dest(skeleton: &Skeleton, track: &Track, target: Target) -> Option<Dest> {
    let (joint, property) = joint_of(skeleton, track)?;
    let on = match property {
        GltfProperty::Translation => Target::Translation,
        GltfProperty::Rotation => Target::Rotation,
        GltfProperty::Scale => Target::Scale,
        GltfProperty::Weights => Target::Weights,
    };
    if on != target {
        return None;
    }
    let animation = match &track.binding {
        Some(Binding::Gltf { animation, .. } | Binding::Node { animation, .. }) => Some(animation.clone()),
        _ => None,
    };
    let element = track.binding.as_ref().and_then(Binding::element).filter(|_| target == Target::Weights);
    Some(Dest::Gltf { animation, node: NodeKey::Named(joint.to_owned()), element })
}

fn gltf_dest(track: &Track, target: Target, bound: Option<&Binding>) -> Dest {
    let own = || Dest::Gltf { animation: None, node: NodeKey::Own(track.name.clone()), element: None };
    match bound {
        Some(Binding::Gltf { animation, node, node_name, element, .. }) => {
            Dest::Gltf { animation: Some(animation.clone()), node: NodeKey::Source { index: *node, name: node_name.clone() }, element: *element }
        }
        Some(Binding::Node { animation, node, element, .. }) => {
            Dest::Gltf { animation: Some(animation.clone()), node: NodeKey::Named(node.clone()), element: *element }
        }
        Some(Binding::Three { path, element, .. }) if target != Target::Weights || element.is_some() => {
            let node = three_property(path).0;
            if node.is_empty() {
                own()
            } else {
                Dest::Gltf { animation: None, node: NodeKey::Named(node.to_owned()), element: *element }
            }
        }
        _ => own(),
    }
}

fn three_dest(track: &Track, target: Target, bound: Option<&Binding>) -> Dest {
    let typed = |path: String, value_type| Dest::Three { path, value_type, element: None };
    match bound {
        Some(Binding::Three { path, value_type, element }) => Dest::Three { path: path.clone(), value_type: *value_type, element: *element },
        Some(Binding::Gltf { node, node_name, element, .. }) => {
            let name = three_node_name(&node_name.clone().unwrap_or_else(|| format!("node{node}")));
            match (target, element) {
                (Target::Weights, Some(e)) => typed(format!("{name}.morphTargetInfluences[{}]", e.index), ThreeValueType::Number),
                _ => own_three(&name, target, track.kind),
            }
        }
        Some(Binding::Node { node, element, .. }) => {
            let name = three_node_name(node);
            match (target, element) {
                (Target::Weights, Some(e)) => typed(format!("{name}.morphTargetInfluences[{}]", e.index), ThreeValueType::Number),
                _ => own_three(&name, target, track.kind),
            }
        }
        None => own_three(&three_node_name(&track.name), target, track.kind),
    }
}

/// The three.js track of `docs/export.md` for an object called `node`.
fn own_three(node: &str, target: Target, kind: TrackKind) -> Dest {
    let (property, value_type) = match target {
        Target::Translation => ("position", ThreeValueType::Vector),
        Target::Scale => ("scale", ThreeValueType::Vector),
        Target::Rotation => ("quaternion", ThreeValueType::Quaternion),
        Target::Weights => ("morphTargetInfluences", ThreeValueType::Number),
        Target::Property | Target::Skip if kind == TrackKind::Scalar => ("value", ThreeValueType::Number),
        Target::Property | Target::Skip => ("value", ThreeValueType::Vector),
    };
    Dest::Three { path: format!("{node}.{property}"), value_type, element: None }
}

/// Where a track was written, for reports and the Export window: `node "Hips" rotation in
/// animation "Walk"`, `Hips.position (vector)`, or the CSV columns.
pub(super) fn describe(p: &Prepared) -> String {
    let element = |e: Option<Element>| e.map(|e| format!("[{}]", e.index)).unwrap_or_default();
    match &p.dest {
        Dest::Csv => format!("{}.*", p.name),
        Dest::Gltf { animation, node, element: e } => {
            let node = match node {
                NodeKey::Source { index, name } => format!("node {index}{}", name.as_ref().map(|n| format!(" {n:?}")).unwrap_or_default()),
                NodeKey::Named(n) | NodeKey::Own(n) => format!("node {n:?}"),
            };
            let animation = animation.as_deref().unwrap_or(DEFAULT_ANIMATION);
            format!("{node} {}{} in animation {animation:?}", format!("{:?}", p.target).to_lowercase(), element(*e))
        }
        Dest::Three { path, value_type, element: e } => format!("{path}{} ({})", element(*e), format!("{value_type:?}").to_lowercase()),
    }
}

/// Gives a track whose place an earlier track already took its own place instead, so no
/// glTF animation animates a node's property twice and no three.js path repeats.
pub(super) fn separate_collisions(tracks: &mut [Prepared]) {
    let mut taken = HashSet::new();
    for p in tracks.iter_mut() {
        let key = (p.dest.channel(p.target), p.dest.element().map(|e| e.index));
        if matches!(p.dest, Dest::Csv) || taken.insert(key) {
            continue;
        }
        p.dest = match &p.dest {
            Dest::Gltf { .. } => Dest::Gltf { animation: None, node: NodeKey::Own(p.name.clone()), element: None },
            _ => own_three(&three_node_name(&p.name), p.target, p.kind),
        };
    }
}

/// Indices of the tracks of each source channel with elements, in order of first appearance.
fn channel_groups(tracks: &[Prepared]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut by_key: HashMap<String, usize> = HashMap::new();
    for (i, p) in tracks.iter().enumerate() {
        if p.dest.element().is_some() && p.kind == TrackKind::Scalar {
            let g = *by_key.entry(p.dest.channel(p.target)).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(i);
        }
    }
    groups
}

/// Makes the tracks of each source channel writable as one: same times and form. Where they
/// differ, three.js tracks go to their own path (`NAME.morphTargetInfluences[i]`); glTF
/// tracks are sampled at the union of their key times (exact when all are Linear or all
/// Step), plus one time per frame at `fps` otherwise (then LINEAR, reported as baked with the
/// largest difference measured at eight points per interval).
pub(super) fn harmonize(tracks: &mut [Prepared], project: &Project, fps: f64) {
    for group in channel_groups(tracks) {
        let first = &tracks[group[0]];
        let same =
            group.iter().all(|&i| tracks[i].times == first.times && tracks[i].form == first.form && tracks[i].tangents.is_some() == first.tangents.is_some());
        if same {
            continue;
        }
        if let Dest::Three { .. } = first.dest {
            for &i in &group {
                let p = &mut tracks[i];
                if let Dest::Three { path, value_type, element: Some(e) } = &p.dest {
                    p.dest = Dest::Three { path: format!("{path}[{}]", e.index), value_type: *value_type, element: None };
                }
            }
            continue;
        }
        resample(tracks, &group, project, fps);
    }
}

/// Samples the glTF tracks of one channel at common times (see [`harmonize`]).
fn resample(tracks: &mut [Prepared], group: &[usize], project: &Project, fps: f64) {
    let curves: Vec<Option<TrackCurve>> = group.iter().map(|&i| project.track(&tracks[i].name).and_then(|t| TrackCurve::new(t).ok())).collect();
    let linear = |i: &Interpolation| matches!(i, Interpolation::Linear);
    let interps: Vec<Interpolation> = curves.iter().flatten().map(TrackCurve::interpolation).collect();
    let (exact, form) = if interps.iter().all(linear) {
        (true, Form::Linear)
    } else if interps.iter().all(|i| *i == Interpolation::Step) {
        (true, Form::Step)
    } else {
        (false, Form::Baked)
    };
    let mut times: Vec<f64> = curves.iter().flatten().flat_map(|c| c.times().to_vec()).collect();
    times.sort_by(f64::total_cmp);
    if !exact {
        let (t0, t1) = (times[0], times[times.len() - 1]);
        times.extend(crate::bake::Fps::new(fps).map_or_else(|_| Vec::new(), |f| f.frames(t0, t1)));
        times.sort_by(f64::total_cmp);
    }
    times.dedup();
    for (&i, curve) in group.iter().zip(&curves) {
        let Some(curve) = curve else { continue };
        let mut values = vec![0.0; times.len()];
        curve.sample_many(&times, &mut values);
        let mut error: f64 = 0.0;
        if !exact {
            // Seven points inside each interval, all sampled in one pass.
            let between = |w: &[f64], k: u32| w[0] + (w[1] - w[0]) * (f64::from(k) / 8.0);
            let checks: Vec<f64> = times.windows(2).flat_map(|w| (1..8).map(move |k| between(w, k))).collect();
            let mut truth = vec![0.0; checks.len()];
            curve.sample_many(&checks, &mut truth);
            for (v, truth) in values.windows(2).zip(truth.chunks_exact(7)) {
                for (k, t) in (1..8).zip(truth) {
                    error = error.max((t - (v[0] + (v[1] - v[0]) * (f64::from(k) / 8.0))).abs());
                }
            }
        }
        let p = &mut tracks[i];
        (p.form, p.times, p.values, p.tangents, p.max_error) = (form, times.clone(), values, None, error);
    }
}

/// The tracks as written: each channel's tracks (made alike by [`harmonize`]) merged into
/// one, its values interleaved per key (for CUBICSPLINE: every in-tangent, then every value,
/// then every out-tangent, as glTF lays out weights), missing elements held at 0.
pub(super) fn merge(tracks: Vec<Prepared>) -> Vec<Prepared> {
    let groups = channel_groups(&tracks);
    let mut member_of: HashMap<usize, usize> = HashMap::new();
    for (g, group) in groups.iter().enumerate() {
        for &i in group {
            member_of.insert(i, g);
        }
    }
    let mut slots: Vec<Option<Prepared>> = tracks.into_iter().map(Some).collect();
    let mut out = Vec::new();
    for i in 0..slots.len() {
        match member_of.get(&i) {
            None => out.extend(slots[i].take()),
            Some(&g) if groups[g][0] == i => {
                let members: Vec<Prepared> = groups[g].iter().filter_map(|&m| slots[m].take()).collect();
                out.push(merge_group(members));
            }
            Some(_) => {}
        }
    }
    out
}

fn merge_group(members: Vec<Prepared>) -> Prepared {
    let count = members.iter().filter_map(|p| p.dest.element()).map(|e| e.count.max(e.index + 1)).max().unwrap_or(1);
    let first = &members[0];
    let n = first.times.len();
    let per_key = if first.form == Form::CubicSpline { 3 } else { 1 };
    let mut by_index: Vec<Option<&Prepared>> = vec![None; count];
    for p in &members {
        if let Some(e) = p.dest.element() {
            by_index[e.index] = Some(p);
        }
    }
    let mut values = vec![0.0; n * per_key * count];
    let mut tangents = first.tangents.as_ref().map(|_| (vec![0.0; n * count * 2], vec![0.0; n * count * 2]));
    for (e, p) in by_index.iter().enumerate() {
        for k in 0..n {
            for part in 0..per_key {
                values[(k * per_key + part) * count + e] = p.map_or(0.0, |p| p.values[k * per_key + part]);
            }
            if let Some((ins, outs)) = &mut tangents {
                let at = 2 * (k * count + e);
                let pair = |v: Option<&(Vec<f64>, Vec<f64>)>, side: usize| {
                    v.map_or([first.times[k], 0.0], |t| [[&t.0, &t.1][side][2 * k], [&t.0, &t.1][side][2 * k + 1]])
                };
                ins[at..at + 2].copy_from_slice(&pair(p.and_then(|p| p.tangents.as_ref()), 0));
                outs[at..at + 2].copy_from_slice(&pair(p.and_then(|p| p.tangents.as_ref()), 1));
            }
        }
    }
    let max_error = members.iter().map(|p| p.max_error).fold(0.0, f64::max);
    let Prepared { name, kind, target, form, times, dest, .. } = members.into_iter().next().expect("a group has a member");
    let dest = match dest {
        Dest::Gltf { animation, node, .. } => Dest::Gltf { animation, node, element: None },
        Dest::Three { path, value_type, .. } => Dest::Three { path, value_type, element: None },
        Dest::Csv => Dest::Csv,
    };
    Prepared { name, kind, target, form, times, values, tangents, max_error, dest, width: count, note: None, warning: None }
}
