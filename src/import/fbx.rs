//! FBX import (binary and ASCII, read by the ufbx C library): every animation stack is an
//! animation (all under `STACK/`, or the one [`ImportOptions::animation`] names), and each
//! node's curves on its base layer become tracks, in the file's own axes and units:
//!
//! | FBX property | track | kind |
//! |---|---|---|
//! | `Lcl Translation` | `NODE.translation` | Vec3, file units |
//! | `Lcl Rotation` | `NODE.rotation` | Euler, radians from the file's degrees, `order` from the node's `RotationOrder` (FBX's `eEulerXYZ` applies X first: Tangent's `XYZ`) |
//! | `Lcl Scaling` | `NODE.scale` | Vec3 |
//! | a blend shape channel's `DeformPercent` | `NODE.weights[i]` (`i` of the mesh's channels) | Scalar, percent / 100 |
//!
//! Keys are FBX's as ufbx reads them (`ufbx_keyframe`: time in seconds, value, the segment's
//! interpolation, and per side a tangent `(dx, dy)`: the Bézier control point's offset from
//! its key in time and value, FBX's slope and weight already applied, `dx = weight × Δt`,
//! `dy = slope × dx`). A track whose segments are all constant is Step, all linear is
//! Linear, anything else (cubic, or mixed) Bezier with Free handles: a cubic segment's
//! `right = (right.dx, right.dy)` and `left = (−left.dx, −left.dy)`, exactly the curve ufbx
//! evaluates; a linear segment handles at thirds on its line; a constant segment flat handles
//! at thirds, and its jump two keys at one time. The three curves of a property share one key
//! list: when their key times differ, every curve gets a key at the union of the times — on a
//! cubic segment by de Casteljau's split ([`crate::handles::split_segment`], Blender's key
//! insertion), on a linear one on its line, on a constant one the held value — so the
//! track's curve is each FBX curve's, not an approximation. A property without a curve for
//! an axis holds the node's value for it. FBX's constant-next segments (the next key's value
//! held from the key on) differ at one instant: the key's own time gives the next value.
//!
//! The node hierarchy becomes the project's skeleton when one stack is imported
//! (`fbx_skeleton.rs`): every node's `Lcl Translation`, `Lcl Rotation` and `Lcl Scaling` as
//! its rest translation, rotation and scale, and its pre- and post-rotation, pivots and
//! offsets as the joint's.
//!
//! Only the base layer of a stack is read; other layers, other animated properties, the
//! pre- and post-rotation, pivots and offsets of an animated node when there is no skeleton
//! to hold them (several stacks imported at once), the spheric rotation order and
//! extrapolation Tangent cannot hold are named in warnings. ufbx's reason for a file it cannot
//! read is the error. The project's frame rate is the file's.

use std::collections::HashSet;

use super::fbx_skeleton::Animated;
use super::{animation_labels, choose_animations, unique_labels, unique_name, Ctx, ImportError, ImportOptions, Read};
use crate::euler::EulerOrder;
use crate::handles::split_segment;
use crate::model::{Binding, Element, GltfProperty, HandleType, Infinity, Interpolation, Key, Track, TrackKind};

/// How one FBX segment (from a key to the next) interpolates, as ufbx reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Segment {
    ConstantPrev,
    ConstantNext,
    Linear,
    Cubic,
}

/// One FBX key: time in seconds, value, the interpolation of the segment after it, and its
/// tangents as ufbx gives them (`(dx, dy)`, `dx ≥ 0` on both sides), values and `dy` already
/// in Tangent's units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct FbxKey {
    pub time: f64,
    pub value: f64,
    pub segment: Segment,
    /// `ufbx_keyframe.left`: the previous control point is at `(time − dx, value − dy)`.
    pub left: (f64, f64),
    /// `ufbx_keyframe.right`: the next control point is at `(time + dx, value + dy)`.
    pub right: (f64, f64),
}

/// One axis of a property: its curve's keys (empty: no curve, the value is held), and what the
/// curve does before and after its keys.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Curve {
    pub keys: Vec<FbxKey>,
    pub held: f64,
    pub pre: Infinity,
    pub post: Infinity,
}

impl Curve {
    /// Indices of the first and last key of each run of keys at one time.
    fn groups(&self) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for (i, k) in self.keys.iter().enumerate() {
            match out.last_mut() {
                Some(g) if self.keys[g.1].time == k.time => g.1 = i,
                _ => out.push((i, i)),
            }
        }
        out
    }
}

/// How a piece of curve between two neighbouring union times can be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Constant, and equal to both ends: fits every interpolation.
    Flat,
    /// Holds the value of its start (a jump at its end, if any).
    Held,
    Linear,
    Cubic,
}

/// One axis over one interval of the union times: its handles (offsets from the interval's
/// start and end points) and how it can be written.
#[derive(Clone, Copy, Debug)]
struct Piece {
    right: (f64, f64),
    left: (f64, f64),
    class: Class,
}

/// One axis on the union times: at each time the value arriving (`before`) and leaving
/// (`after`), and the pieces between.
struct OnUnion {
    before: Vec<f64>,
    after: Vec<f64>,
    pieces: Vec<Piece>,
}

/// Flat handles at thirds of an interval `[a, b]`.
fn flat(a: f64, b: f64) -> Piece {
    let h = (b - a) / 3.0;
    Piece { right: (h, 0.0), left: (-h, 0.0), class: Class::Flat }
}

/// `curve` at every time of `union` (sorted, distinct, holding every key time of `curve`).
fn on_union(curve: &Curve, union: &[f64]) -> OnUnion {
    let m = union.len();
    let mut out = OnUnion { before: vec![curve.held; m], after: vec![curve.held; m], pieces: Vec::with_capacity(m.saturating_sub(1)) };
    for j in 0..m.saturating_sub(1) {
        out.pieces.push(flat(union[j], union[j + 1]));
    }
    let groups = curve.groups();
    let (Some(&(first, _)), Some(&(_, last))) = (groups.first(), groups.last()) else { return out };
    let keys = &curve.keys;
    let (t_first, t_last) = (keys[first].time, keys[last].time);
    // Held before the first key and after the last (other extrapolation is the track's).
    for (j, &t) in union.iter().enumerate() {
        if t < t_first {
            (out.before[j], out.after[j]) = (keys[first].value, keys[first].value);
        } else if t > t_last {
            (out.before[j], out.after[j]) = (keys[last].value, keys[last].value);
        }
    }
    let mut j = union.partition_point(|&t| t < t_first);
    for (g, &(g_first, g_last)) in groups.iter().enumerate() {
        // The key's time: arriving at its first key's value (or the held one), leaving its last.
        let arriving = match g.checked_sub(1).map(|p| keys[groups[p].1].segment) {
            Some(Segment::ConstantPrev) => keys[groups[g - 1].1].value,
            _ => keys[g_first].value,
        };
        let Some(&(n_first, _)) = groups.get(g + 1) else {
            (out.before[j], out.after[j]) = (arriving, keys[g_last].value);
            break;
        };
        let (a, b) = (&keys[g_last], &keys[n_first]);
        let leaving = if a.segment == Segment::ConstantNext { b.value } else { a.value };
        (out.before[j], out.after[j]) = (arriving, leaving);
        // The union times inside this segment, then its end.
        let end = j + union[j..].partition_point(|&t| t < b.time);
        match a.segment {
            Segment::ConstantPrev | Segment::ConstantNext => held_pieces(&mut out, j..end, leaving, b.value),
            Segment::Linear => linear_pieces(&mut out, union, j..end, a, b),
            Segment::Cubic => cubic_pieces(&mut out, union, j..end, a, b),
        }
        j = end;
    }
    out
}

/// The union times `range` inside a constant segment: the value held (`leaving`), a jump to
/// `next` at the segment's end.
fn held_pieces(out: &mut OnUnion, range: std::ops::Range<usize>, leaving: f64, next: f64) {
    let (j, end) = (range.start, range.end);
    for i in range {
        if i > j {
            (out.before[i], out.after[i]) = (leaving, leaving);
        }
        out.pieces[i].class = if i + 1 == end && next != leaving { Class::Held } else { Class::Flat };
    }
}

/// The union times `range` inside the linear segment from `a` to `b`, with ufbx's own
/// arithmetic: pieces on the line, handles at thirds.
fn linear_pieces(out: &mut OnUnion, union: &[f64], range: std::ops::Range<usize>, a: &FbxKey, b: &FbxKey) {
    let (j, end) = (range.start, range.end);
    let rcp = 1.0 / (b.time - a.time);
    let at = |t: f64| {
        let u = (t - a.time) * rcp;
        a.value * (1.0 - u) + b.value * u
    };
    for i in range {
        let v0 = if i == j { a.value } else { at(union[i]) };
        let v1 = if i + 1 == end { b.value } else { at(union[i + 1]) };
        if i > j {
            (out.before[i], out.after[i]) = (v0, v0);
        }
        let (h, dv) = ((union[i + 1] - union[i]) / 3.0, (v1 - v0) / 3.0);
        out.pieces[i] = Piece { right: (h, dv), left: (-h, -dv), class: if v0 == v1 { Class::Flat } else { Class::Linear } };
    }
}

/// The union times `range` inside the cubic segment from `a` to `b`: split at each time inside,
/// left to right; each split's start handle and new left handle close a piece, the rest goes
/// on from the split point.
fn cubic_pieces(out: &mut OnUnion, union: &[f64], range: std::ops::Range<usize>, a: &FbxKey, b: &FbxKey) {
    let end = range.end;
    let (mut p0, mut right, mut left, p3) = ((a.time, a.value), a.right, (-b.left.0, -b.left.1), (b.time, b.value));
    for i in range {
        let split = if i + 1 < end { split_segment(p0, right, left, p3, union[i + 1]) } else { None };
        match split {
            Some(s) => {
                out.pieces[i] = Piece { right: s.start_right, left: s.left, class: Class::Cubic };
                (out.before[i + 1], out.after[i + 1]) = (s.point.1, s.point.1);
                (p0, right, left) = (s.point, s.right, s.end_left);
            }
            None => out.pieces[i] = Piece { right, left, class: Class::Cubic },
        }
    }
}

/// The keys of a track whose axes are `curves`, and its interpolation: Step when every piece
/// holds a value, Linear when every piece is a line and nothing jumps, else Bezier with Free
/// handles (module docs). No keys when no curve has any.
pub(super) fn track_keys(curves: &[Curve]) -> (Interpolation, Vec<Key>) {
    let mut union: Vec<f64> = curves.iter().flat_map(|c| c.keys.iter().map(|k| k.time)).collect();
    union.sort_by(f64::total_cmp);
    union.dedup();
    let axes: Vec<OnUnion> = curves.iter().map(|c| on_union(c, &union)).collect();
    let m = union.len();
    let classes = || axes.iter().flat_map(|a| a.pieces.iter().map(|p| p.class));
    let continuous = (0..m).all(|j| axes.iter().all(|a| a.before[j] == a.after[j]));
    let interpolation = if classes().all(|c| matches!(c, Class::Flat | Class::Held)) {
        Interpolation::Step
    } else if continuous && classes().all(|c| matches!(c, Class::Flat | Class::Linear)) {
        Interpolation::Linear
    } else {
        Interpolation::Bezier
    };
    let values = |j: usize, before: bool| -> Vec<f64> { axes.iter().map(|a| if before { a.before[j] } else { a.after[j] }).collect() };
    if interpolation != Interpolation::Bezier {
        return (interpolation, (0..m).map(|j| Key::new(union[j], values(j, false))).collect());
    }
    let free = (HandleType::Free, HandleType::Free);
    let mirror = |(dt, dv): (f64, f64)| (-dt, -dv);
    let mut keys = Vec::with_capacity(m + 8);
    for (j, &time) in union.iter().enumerate() {
        // The first key's left handle and the last's right continue the curve's end tangent.
        let left: Vec<(f64, f64)> = axes.iter().map(|a| if j > 0 { a.pieces[j - 1].left } else { mirror(a.pieces[0].right) }).collect();
        let right: Vec<(f64, f64)> = axes.iter().map(|a| if j + 1 < m { a.pieces[j].right } else { mirror(a.pieces[j - 1].left) }).collect();
        if axes.iter().any(|a| a.before[j] != a.after[j]) {
            // A jump: the arriving values, then the leaving ones, at one time.
            let none = vec![(0.0, 0.0); axes.len()];
            keys.push(Key::new(time, values(j, true)).with_handles(free, left, none.clone()));
            keys.push(Key::new(time, values(j, false)).with_handles(free, none, right));
        } else {
            keys.push(Key::new(time, values(j, false)).with_handles(free, left, right));
        }
    }
    (interpolation, keys)
}

/// Whether a cubic segment of `curve` has a tangent longer in time than its segment (an FBX
/// weight over 1): ufbx draws it as it is, Tangent (as Blender) shortens it to the segment.
fn overlong(curve: &Curve) -> bool {
    curve.keys.windows(2).any(|w| {
        let span = (w[1].time - w[0].time) * (1.0 + 1e-6);
        w[0].segment == Segment::Cubic && (w[0].right.0 > span || w[1].left.0 > span)
    })
}

/// FBX's extrapolation as a track's infinity: `None` where Tangent has no such mode (a
/// repetition count).
fn infinity(e: &ufbx::Extrapolation) -> Option<Infinity> {
    use ufbx::ExtrapolationMode as M;
    match (e.mode, e.repeat_count) {
        (M::Constant, _) | (_, 0) => Some(Infinity::Constant),
        (_, n) if n > 0 => None,
        (M::Repeat, _) => Some(Infinity::Cycle),
        (M::Mirror, _) => Some(Infinity::PingPong),
        (M::Slope, _) => Some(Infinity::Linear),
        (M::RepeatRelative, _) => Some(Infinity::CycleOffset),
    }
}

/// One axis's curve as Tangent's units: values and `dy` times `scale` (π/180 for degrees,
/// 1/100 for percent), `held` where the axis has no curve.
fn read_curve(curve: Option<&ufbx::AnimCurve>, held: f64, scale: f64) -> Curve {
    let Some(curve) = curve else { return Curve { keys: Vec::new(), held: held * scale, pre: Infinity::Constant, post: Infinity::Constant } };
    let keys = curve
        .keyframes
        .iter()
        .map(|k| FbxKey {
            time: k.time,
            value: k.value * scale,
            segment: match k.interpolation {
                ufbx::Interpolation::ConstantPrev => Segment::ConstantPrev,
                ufbx::Interpolation::ConstantNext => Segment::ConstantNext,
                ufbx::Interpolation::Linear => Segment::Linear,
                ufbx::Interpolation::Cubic => Segment::Cubic,
            },
            left: (f64::from(k.left.dx), f64::from(k.left.dy) * scale),
            right: (f64::from(k.right.dx), f64::from(k.right.dy) * scale),
        })
        .collect();
    // A repetition count Tangent cannot hold reads as constant; `extrapolation` warns.
    let pre = infinity(&curve.pre_extrapolation).unwrap_or(Infinity::Constant);
    let post = infinity(&curve.post_extrapolation).unwrap_or(Infinity::Constant);
    Curve { keys, held: held * scale, pre, post }
}

/// The track's pre and post infinity from its axes' curves: the curves' own when every axis
/// with keys at two times agrees and they span the same times; else Constant, with a warning.
fn extrapolation(curves: &[Curve], raw: &[Option<&ufbx::AnimCurve>], what: &str, warnings: &mut Vec<String>) -> (Infinity, Infinity) {
    let keyed: Vec<&Curve> = curves.iter().filter(|c| c.keys.first().zip(c.keys.last()).is_some_and(|(a, b)| a.time < b.time)).collect();
    let span = |c: &Curve| (c.keys[0].time, c.keys[c.keys.len() - 1].time);
    let same_span = keyed.windows(2).all(|w| span(w[0]) == span(w[1]));
    let mut pick = |side: &str, of: fn(&Curve) -> Infinity, ext: fn(&ufbx::AnimCurve) -> &ufbx::Extrapolation| {
        let counted = raw.iter().flatten().any(|c| infinity(ext(c)).is_none());
        let modes: HashSet<Infinity> = keyed.iter().map(|c| of(c)).collect();
        if counted {
            warnings.push(format!("{what}: the {side}-extrapolation repeats a set number of times, which Tangent cannot hold; held instead"));
            return Infinity::Constant;
        }
        match (modes.len(), modes.iter().next()) {
            (1, Some(&m)) if same_span || m == Infinity::Constant => m,
            (0, _) => Infinity::Constant,
            _ => {
                warnings.push(format!("{what}: the axes' curves extrapolate differently {side} their keys ({modes:?}), which one track cannot; held instead"));
                Infinity::Constant
            }
        }
    };
    let pre = pick("pre", |c| c.pre, |c| &c.pre_extrapolation);
    let post = pick("post", |c| c.post, |c| &c.post_extrapolation);
    (pre, post)
}

/// What a track animates: a node's property, or one blend shape channel of a mesh node.
struct Target<'s> {
    /// Index into the labels of the scene's nodes.
    node: usize,
    element: &'s ufbx::Element,
    prop: &'static str,
    property: GltfProperty,
    /// The channel's place among its mesh's (weights only).
    channel: Option<Element>,
}

/// The FBX properties read as a node's transform, with their track suffix and kind.
const TRANSFORM: [(&str, GltfProperty); 3] =
    [("Lcl Translation", GltfProperty::Translation), ("Lcl Rotation", GltfProperty::Rotation), ("Lcl Scaling", GltfProperty::Scale)];

/// Loads the scene as the file has it: no axis or unit conversion (ufbx's defaults), geometry
/// and embedded files skipped; progress is the bytes read.
fn load(bytes: &[u8], ctx: &Ctx<'_>) -> Result<ufbx::SceneRoot, ImportError> {
    let cancelled = std::cell::Cell::new(false);
    let on_progress = |p: &ufbx::Progress| {
        let go = ctx.progress(usize::try_from(p.bytes_read).unwrap_or(usize::MAX), usize::try_from(p.bytes_total).unwrap_or(usize::MAX)).is_ok();
        cancelled.set(!go);
        if go {
            ufbx::ProgressResult::Continue
        } else {
            ufbx::ProgressResult::Cancel
        }
    };
    let opts = ufbx::LoadOpts {
        ignore_geometry: true,
        ignore_embedded: true,
        file_format: ufbx::FileFormat::Fbx,
        progress_cb: ufbx::ProgressCb::Ref(&on_progress),
        ..Default::default()
    };
    ufbx::load_memory(bytes, opts).map_err(|e| {
        if cancelled.get() {
            ImportError::Cancelled
        } else {
            ctx.invalid(format!("not a readable FBX file: {}", reason(&e)))
        }
    })
}

/// ufbx's message for an error: its description, and the detail when there is one (what
/// `ufbx_format_error` prints first, without the version and the call stack).
fn reason(e: &ufbx::Error) -> String {
    let mut buf = vec![0u8; 1024];
    let n = ufbx::format_error(&mut buf, e).min(buf.len());
    let text = String::from_utf8_lossy(&buf[..n]);
    let first = text.lines().next().unwrap_or_default();
    let message = first.split_once("error: ").map_or(first, |(_, m)| m).trim();
    if message.is_empty() {
        e.description.to_string()
    } else {
        message.to_owned()
    }
}

/// The rotation order a node's `Lcl Rotation` is applied in: its `RotationOrder` when
/// `RotationActive` (ufbx's `use_rotation_space`), else XYZ, as FBX and Blender read it.
fn rotation_order(node: &ufbx::Node, warnings: &mut Vec<String>, label: &str) -> EulerOrder {
    super::fbx_skeleton::euler_order(node).unwrap_or_else(|| {
        warnings.push(format!("node \"{label}\": the spheric rotation order, which Tangent does not have; read as XYZ"));
        EulerOrder::XYZ
    })
}

/// A warning naming what of the node's transform is not identity besides `Lcl Translation`,
/// `Lcl Rotation` and `Lcl Scaling`, if anything.
fn transform_warning(node: &ufbx::Node, label: &str) -> Option<String> {
    let mut names: Vec<&str> = vec!["RotationOffset", "RotationPivot", "ScalingOffset", "ScalingPivot"];
    if node.use_rotation_space {
        names.splice(0..0, ["PreRotation", "PostRotation"]);
    }
    let found: Vec<String> = names
        .iter()
        .filter_map(|&name| {
            let v = node.element.props.find_prop(name)?.value_vec4;
            (v.x != 0.0 || v.y != 0.0 || v.z != 0.0).then(|| format!("{name} ({}, {}, {})", v.x, v.y, v.z))
        })
        .collect();
    (!found.is_empty())
        .then(|| format!("node \"{label}\" has {}; its tracks are Lcl Translation, Rotation and Scaling alone, which place it differently", found.join(", ")))
}

/// What is read of each node: its transform properties, and its meshes' blend shape channels.
fn targets<'s>(nodes: &[&'s ufbx::Node]) -> Vec<Target<'s>> {
    let mut targets = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        for (prop, property) in TRANSFORM {
            targets.push(Target { node: i, element: &node.element, prop, property, channel: None });
        }
    }
    for (i, node) in nodes.iter().enumerate() {
        let Some(mesh) = &node.mesh else { continue };
        let channels: Vec<&ufbx::BlendChannel> = mesh.blend_deformers.iter().flat_map(|d| d.channels.iter().map(|c| &**c)).collect();
        for (index, channel) in channels.iter().enumerate() {
            let element = Some(Element { index, count: channels.len() });
            targets.push(Target { node: i, element: &channel.element, prop: "DeformPercent", property: GltfProperty::Weights, channel: element });
        }
    }
    targets
}

/// The track of one animated property (named `NODE.suffix`, before any stack prefix; an Euler
/// track's order is set by the caller), or `None` when none of its curves has a key.
fn target_track(target: &Target<'_>, value: &ufbx::AnimValue, stack: &str, node_label: &str, warnings: &mut Vec<String>) -> Option<Track> {
    let raw: Vec<Option<&ufbx::AnimCurve>> = value.curves.iter().map(|c| c.as_deref()).collect();
    let held = [value.default_value.x, value.default_value.y, value.default_value.z];
    let (kind, scale, suffix, axes) = match target.property {
        GltfProperty::Translation => (TrackKind::Vec3, 1.0, "translation".to_owned(), 3),
        GltfProperty::Rotation => (TrackKind::Euler, std::f64::consts::PI / 180.0, "rotation".to_owned(), 3),
        GltfProperty::Scale => (TrackKind::Vec3, 1.0, "scale".to_owned(), 3),
        GltfProperty::Weights => (TrackKind::Scalar, 0.01, format!("weights[{}]", target.channel.map_or(0, |e| e.index)), 1),
    };
    let curves: Vec<Curve> = (0..axes).map(|a| read_curve(raw[a], held[a], scale)).collect();
    if curves.iter().all(|c| c.keys.is_empty()) {
        return None;
    }
    let what = format!("animation stack \"{stack}\", node \"{node_label}\" {}", target.prop);
    let (interpolation, keys) = track_keys(&curves);
    if curves.iter().any(overlong) {
        warnings.push(format!("{what}: a tangent weight over 1 reaches past its segment; Tangent shortens it to the segment, as Blender does"));
    }
    let (pre_infinity, post_infinity) = extrapolation(&curves, &raw[..axes], &what, warnings);
    let mut track = Track::new(format!("{node_label}.{suffix}"), kind, interpolation);
    track.keys = keys.into();
    track.pre_infinity = pre_infinity;
    track.post_infinity = post_infinity;
    track.binding = Some(Binding::Node { animation: stack.to_owned(), node: node_label.to_owned(), property: target.property, element: target.channel });
    Some(track)
}

/// Reads an FBX file's animation stacks (module docs).
pub(super) fn read(bytes: &[u8], options: &ImportOptions, ctx: &Ctx<'_>) -> Result<Read, ImportError> {
    let scene = load(bytes, ctx)?;
    let mut warnings = Vec::new();
    if scene.anim_stacks.is_empty() {
        warnings.push("the file has no animation stacks".to_owned());
        return Ok(Read { warnings, ..Read::default() });
    }
    let labels = animation_labels(scene.anim_stacks.iter().map(|s| Some(&*s.element.name)), "stack");
    let (chosen, prefixed) = choose_animations(&labels, options, ctx)?;
    let nodes: Vec<&ufbx::Node> = scene.nodes.iter().map(|n| &**n).filter(|n| !n.is_root).collect();
    let node_labels = unique_labels(animation_labels(nodes.iter().map(|n| Some(&*n.element.name)), "node"));
    let targets = targets(&nodes);
    let mut orders: Vec<Option<EulerOrder>> = vec![None; nodes.len()];
    let mut imported = vec![false; nodes.len()];
    let mut animated = vec![Animated::default(); nodes.len()];
    let mut tracks = Vec::new();
    let mut taken = HashSet::new();
    let total = chosen.len() * targets.len();
    for (done_stacks, &s) in chosen.iter().enumerate() {
        let stack = &scene.anim_stacks[s];
        let label = &labels[s];
        let Some(layer) = stack.layers.iter().next() else {
            warnings.push(format!("animation stack \"{label}\" has no layer"));
            continue;
        };
        for other in stack.layers.iter().skip(1).filter(|l| !l.anim_props.is_empty()) {
            warnings.push(format!(
                "animation stack \"{label}\": layer \"{}\" ({} animated properties) is not read; Tangent reads the base layer \"{}\"",
                &*other.element.name,
                other.anim_props.len(),
                &*layer.element.name
            ));
        }
        let prefix = if prefixed { format!("{label}/") } else { String::new() };
        // The animated values read (ufbx may list one under several properties).
        let mut used: HashSet<u32> = HashSet::new();
        for (t, target) in targets.iter().enumerate() {
            if t % 64 == 0 {
                ctx.progress(done_stacks * targets.len() + t, total)?;
            }
            let Some(anim) = ufbx::find_anim_prop(layer, target.element, target.prop) else { continue };
            used.insert(anim.anim_value.element.element_id);
            let node_label = &node_labels[target.node];
            let Some(mut track) = target_track(target, &anim.anim_value, label, node_label, &mut warnings) else { continue };
            if track.kind == TrackKind::Euler {
                track.order = *orders[target.node].get_or_insert_with(|| rotation_order(nodes[target.node], &mut warnings, node_label));
            }
            imported[target.node] = true;
            if target.property != GltfProperty::Weights {
                animated[target.node].transform = true;
                animated[target.node].scale |= target.property == GltfProperty::Scale;
            }
            track.name = unique_name(format!("{prefix}{}", track.name), &mut taken);
            tracks.push(track);
        }
        let skipped: Vec<String> = layer
            .anim_props
            .iter()
            .filter(|p| !used.contains(&p.anim_value.element.element_id))
            .map(|p| format!("{}.{}", &*p.element.name, &*p.prop_name))
            .collect();
        if !skipped.is_empty() {
            warnings.push(format!(
                "animation stack \"{label}\": {} animated properties Tangent does not import (it reads Lcl Translation, Lcl Rotation, Lcl Scaling and blend shape weights): {}",
                skipped.len(),
                skipped.join(", ")
            ));
        }
    }
    ctx.progress(total, total)?;
    // One stack's tracks are `NODE.*`, which bind to the joints by name (fbx_skeleton.rs).
    let skeleton = if prefixed { None } else { super::fbx_skeleton::skeleton(&scene, &nodes, &node_labels, &animated, &mut warnings) };
    // The skeleton's joints hold the pre- and post-rotations, pivots and offsets; without one
    // the tracks alone lose them.
    if skeleton.is_none() {
        for (i, node) in nodes.iter().enumerate() {
            if imported[i] {
                warnings.extend(transform_warning(node, &node_labels[i]));
            }
        }
    }
    // The project's rate: the file's own (`FrameRate`, or its time mode's).
    Ok(Read { tracks, warnings, skeleton, fps: Some(scene.settings.frames_per_second) })
}

#[cfg(test)]
#[path = "fbx_tests.rs"]
mod tests;
