//! glTF 2.0 import (SPEC §11): `.gltf` (buffers embedded as data URIs or in files beside it)
//! and `.glb`, read with the `gltf` crate's animation reader.
//!
//! Every channel of every animation (or of the one [`ImportOptions::animation`] picks)
//! becomes tracks named after its node (`node<i>` if unnamed, `NAME#i` if two nodes share
//! a name), prefixed `ANIMATION/` when the file has several animations:
//!
//! | channel | track | STEP | LINEAR | CUBICSPLINE |
//! |---|---|---|---|---|
//! | `translation`, `scale` | `NODE.translation`, `NODE.scale` (Vec3) | Step | Linear | Bezier |
//! | `rotation` | `NODE.rotation` (Quat) | Step | Slerp | Bezier (component-wise, then normalised, as glTF) |
//! | `weights` | `NODE.weights[i]`, one Scalar per morph target | Step | Linear | Bezier |
//!
//! CUBICSPLINE keys `(a_k, v_k, b_k)` (in-tangent, value, out-tangent, per second) become
//! Free Bézier handles a third of each segment away in time: for the segment `t_k → t_{k+1}`
//! of length `Δ`, `right_k = (Δ/3, b_k·Δ/3)` and `left_{k+1} = (−Δ/3, −a_{k+1}·Δ/3)`, which is
//! exactly glTF's cubic Hermite segment. The first key's in-tangent and the last key's
//! out-tangent, which glTF plays nowhere, are kept the same way over the neighbouring
//! segment, so export writes them back. Normalized-integer rotations and weights (I8, U8,
//! I16, U16) are read as the glTF specification defines them, `max(c / 127, −1)` and so
//! on, rounded once to f32 (the crate's `into_f32` multiplies by an f32 reciprocal, one f32
//! step off for some values; three.js divides in f64 as the specification does); sparse
//! accessors as their dense
//! values. The clip holds its first value before its first key and its last after its last
//! key (Constant infinity), as glTF players do.
//!
//! The default scene's node hierarchy becomes the project's skeleton when one animation is
//! imported (`gltf_skeleton.rs`): the nodes' rest translation, rotation and scale, joint
//! names the node labels above.
//!
//! Bad data is an error naming the animation and channel (a buffer that points past its
//! end, times that do not increase, an output count that does not match the sampler, NaN);
//! channels the model cannot hold (`KHR_animation_pointer`, unknown paths or
//! interpolations) are skipped with a warning.

use std::borrow::Cow;
use std::collections::HashSet;
use std::path::Path;

use gj::accessor::{ComponentType, Type};
use gj::validation::Checked;
use gltf::animation::util::ReadOutputs;
use gltf::json as gj;
use serde_json::Value;

use super::gltf_check::Allowed;
use super::{animation_labels, choose_animations, json_syntax, unique_labels, unique_name, Ctx, ImportError, ImportOptions, Read};
use crate::model::{Binding, Element, GltfProperty, HandleType, Interpolation, Key, Track, TrackKind};

/// Extensions that do not change how animation data is read.
const HARMLESS_EXTENSIONS: [&str; 4] = ["KHR_mesh_quantization", "KHR_texture_transform", "KHR_materials_", "KHR_lights_punctual"];

/// Reads a `.gltf` or `.glb` file's animations.
/// `binary`: the file is meant to be a GLB (by its name), so a wrong magic is an error.
pub(super) fn read(bytes: &[u8], binary: bool, base: Option<&Path>, options: &ImportOptions, ctx: &Ctx<'_>) -> Result<Read, ImportError> {
    if binary && !bytes.starts_with(b"glTF") {
        let start = String::from_utf8_lossy(&bytes[..bytes.len().min(4)]).into_owned();
        return Err(ctx.invalid(format!("not a GLB file: it starts with {start:?}, not \"glTF\"")));
    }
    let (json, bin) = if bytes.starts_with(b"glTF") { split_glb(bytes, ctx)? } else { (bytes, None) };
    let json = json.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(json);
    let mut value: Value = serde_json::from_slice(json).map_err(|e| json_syntax(&e, ctx.path))?;
    let mut warnings = Vec::new();
    let kept = prune_channels(&mut value, &mut warnings);
    let root: gj::Root = serde_json::from_value(value).map_err(|e| ctx.invalid(format!("not glTF 2.0 JSON: {e}")))?;
    if !root.asset.version.starts_with("2.") {
        return Err(ctx.invalid(format!("glTF version {}; Tangent reads 2.0", root.asset.version)));
    }
    for ext in &root.extensions_required {
        if !HARMLESS_EXTENSIONS.iter().any(|h| ext.starts_with(h)) {
            warnings.push(format!("the file requires the extension {ext}, which Tangent does not read; its animation may differ"));
        }
    }
    let labels = animation_labels(root.animations.iter().map(|a| a.name.as_deref()), "animation");
    let (chosen, prefixed) = choose_animations(&labels, options, ctx)?;
    let mut plans = Vec::new();
    for &a in &chosen {
        plan_animation(&root, a, &labels[a], &kept[a], &mut plans, &mut warnings).map_err(|m| ctx.invalid(m))?;
    }
    let buffers = load_buffers(&root, &plans, bin, base, ctx)?;
    let document = gltf::Document::from_json_without_validation(root);
    let node_labels = node_labels(document.as_json());
    let mut tracks = Vec::new();
    let mut taken = HashSet::new();
    for (done, plan) in plans.iter().enumerate() {
        let data = read_channel(&document, &buffers, plan).map_err(|m| ctx.invalid(format!("{}: {m}", plan.label)))?;
        let prefix = if prefixed { format!("{}/", plan.animation) } else { String::new() };
        let base_name = format!("{prefix}{}", node_labels[plan.node]);
        for mut track in build_tracks(plan, &data, &base_name, document.as_json()) {
            track.name = unique_name(std::mem::take(&mut track.name), &mut taken);
            tracks.push(track);
        }
        ctx.progress(done + 1, plans.len())?;
    }
    if root_has_no_animation(&document) {
        warnings.push("the file has no animations".to_owned());
    }
    // One animation's tracks are `NODE.*`, which bind to the joints by name (gltf_skeleton.rs).
    let skeleton = if prefixed || tracks.is_empty() {
        None
    } else {
        let mut moved = vec![false; node_labels.len()];
        for plan in plans.iter().filter(|p| p.property != GltfProperty::Weights) {
            moved[plan.node] = true;
        }
        super::gltf_skeleton::skeleton(document.as_json(), &node_labels, &moved, &mut warnings)
    };
    Ok(Read { tracks, warnings, skeleton, ..Read::default() })
}

fn root_has_no_animation(document: &gltf::Document) -> bool {
    document.as_json().animations.is_empty()
}

/// The JSON and BIN chunks of a GLB container, checked: magic, version 2, lengths inside the
/// file, a JSON chunk first.
fn split_glb<'a>(bytes: &'a [u8], ctx: &Ctx<'_>) -> Result<(&'a [u8], Option<&'a [u8]>), ImportError> {
    let word = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
    if bytes.len() < 12 {
        return Err(ctx.invalid(format!("truncated GLB: {} bytes, the header alone is 12", bytes.len())));
    }
    let (version, length) = (word(4).unwrap_or(0), word(8).unwrap_or(0));
    if version != 2 {
        return Err(ctx.invalid(format!("GLB version {version}; Tangent reads version 2")));
    }
    if length > bytes.len() {
        return Err(ctx.invalid(format!("truncated GLB: the header says {length} bytes, the file has {}", bytes.len())));
    }
    let (mut at, mut json, mut bin) = (12usize, None, None);
    while at + 8 <= length {
        let (len, kind) = (word(at).unwrap_or(0), &bytes[at + 4..at + 8]);
        let start = at + 8;
        let end = start.checked_add(len).filter(|&e| e <= length).ok_or_else(|| {
            ctx.invalid(format!(
                "GLB chunk at byte {at} ({}) says {len} bytes, past the end of the file ({length} bytes)",
                String::from_utf8_lossy(kind).trim_end_matches('\0')
            ))
        })?;
        match kind {
            b"JSON" if json.is_none() => json = Some(&bytes[start..end]),
            b"BIN\0" if bin.is_none() => bin = Some(&bytes[start..end]),
            _ if json.is_none() => return Err(ctx.invalid("GLB: the first chunk is not JSON")),
            _ => {}
        }
        at = end + (4 - end % 4) % 4;
    }
    let json = json.ok_or_else(|| ctx.invalid("GLB has no JSON chunk"))?;
    Ok((json, bin))
}

/// Removes the channels the model cannot hold from the JSON (so the rest parses as glTF
/// 2.0), with a warning for each; returns, per animation, the original index of each kept
/// channel.
fn prune_channels(value: &mut Value, warnings: &mut Vec<String>) -> Vec<Vec<usize>> {
    let Some(animations) = value.get_mut("animations").and_then(Value::as_array_mut) else { return Vec::new() };
    let mut kept_all = Vec::new();
    for (a, anim) in animations.iter_mut().enumerate() {
        let name = anim.get("name").and_then(Value::as_str).map_or_else(|| format!("animation{a}"), str::to_owned);
        let samplers = anim.get("samplers").cloned().unwrap_or(Value::Null);
        let mut kept = Vec::new();
        if let Some(channels) = anim.get_mut("channels").and_then(Value::as_array_mut) {
            let mut index = 0;
            channels.retain(|ch| {
                let why = unsupported(ch, &samplers);
                let here = index;
                index += 1;
                match why {
                    Some(reason) => {
                        warnings.push(format!("animation \"{name}\", channel {here}: {reason}, which Tangent cannot hold; skipped"));
                        false
                    }
                    None => {
                        for ext in extension_names(ch) {
                            warnings.push(format!("animation \"{name}\", channel {here}: extension {ext} ignored"));
                        }
                        kept.push(here);
                        true
                    }
                }
            });
        }
        kept_all.push(kept);
    }
    kept_all
}

/// Why a channel's JSON cannot become tracks, if it cannot.
fn unsupported(ch: &Value, samplers: &Value) -> Option<String> {
    let target = ch.get("target");
    let path = target.and_then(|t| t.get("path")).and_then(Value::as_str);
    let pointer = target.and_then(|t| t.pointer("/extensions/KHR_animation_pointer/pointer")).and_then(Value::as_str);
    if let Some(pointer) = pointer {
        return Some(format!("it targets KHR_animation_pointer \"{pointer}\""));
    }
    match path {
        Some(p) if gj::animation::VALID_PROPERTIES.contains(&p) => {}
        Some(p) => return Some(format!("it targets the property \"{p}\"")),
        None => return Some("it has no target path".to_owned()),
    }
    if !target.and_then(|t| t.get("node")).is_some_and(Value::is_u64) {
        return Some("it has no target node".to_owned());
    }
    let sampler = ch.get("sampler").and_then(Value::as_u64).and_then(|s| samplers.get(usize::try_from(s).ok()?));
    match sampler.and_then(|s| s.get("interpolation")) {
        Some(Value::String(i)) if !gj::animation::VALID_INTERPOLATIONS.contains(&i.as_str()) => Some(format!("its interpolation is \"{i}\"")),
        _ => None,
    }
}

/// Names of the extensions on a channel, its target and nothing else Tangent reads.
fn extension_names(ch: &Value) -> Vec<String> {
    let names = |v: Option<&Value>| v.and_then(Value::as_object).map(|o| o.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
    let mut out = names(ch.get("extensions"));
    out.extend(names(ch.pointer("/target/extensions")));
    out
}

/// One channel to read: where it is, what it animates, and how it is labelled in messages.
struct Plan {
    animation: String,
    /// `(animation, channel)` indices in the pruned document.
    index: (usize, usize),
    node: usize,
    property: GltfProperty,
    interpolation: gj::animation::Interpolation,
    label: String,
}

/// Checks the indices of one animation's channels and lists them; a second channel for the
/// same node and property is skipped with a warning.
fn plan_animation(root: &gj::Root, a: usize, label: &str, original: &[usize], plans: &mut Vec<Plan>, warnings: &mut Vec<String>) -> Result<(), String> {
    let anim = &root.animations[a];
    let mut seen = HashSet::new();
    for (c, ch) in anim.channels.iter().enumerate() {
        let here = format!("animation \"{label}\", channel {}", original.get(c).copied().unwrap_or(c));
        let sampler = anim.samplers.get(ch.sampler.value()).ok_or_else(|| format!("{here}: sampler {} does not exist", ch.sampler.value()))?;
        let node = ch.target.node.value();
        if node >= root.nodes.len() {
            return Err(format!("{here}: node {node} does not exist"));
        }
        for (role, acc) in [("input", sampler.input.value()), ("output", sampler.output.value())] {
            if acc >= root.accessors.len() {
                return Err(format!("{here}: the {role} accessor {acc} does not exist"));
            }
        }
        let (Checked::Valid(path), Checked::Valid(interpolation)) = (ch.target.path, sampler.interpolation) else {
            return Err(format!("{here}: unknown target path or interpolation"));
        };
        let property = match path {
            gj::animation::Property::Translation => GltfProperty::Translation,
            gj::animation::Property::Rotation => GltfProperty::Rotation,
            gj::animation::Property::Scale => GltfProperty::Scale,
            gj::animation::Property::MorphTargetWeights => GltfProperty::Weights,
        };
        if !seen.insert((node, property)) {
            warnings.push(format!("{here}: a second channel for node {node}'s {property:?}; glTF allows one, so it is skipped"));
            continue;
        }
        plans.push(Plan { animation: label.to_owned(), index: (a, c), node, property, interpolation, label: here });
    }
    Ok(())
}

/// Track names for nodes: the name, `node<i>` if none, `NAME#i` if two nodes share it (and
/// `LABEL#2`, … should a label still repeat one before it: a node named `node1` beside an
/// unnamed node 1), so each node's label is its own, as the skeleton's joint names must be.
fn node_labels(root: &gj::Root) -> Vec<String> {
    unique_labels(animation_labels(root.nodes.iter().map(|n| n.name.as_deref()), "node"))
}

/// The data of every buffer the planned channels read (`None` for the others), each cut to
/// its declared `byteLength`.
fn load_buffers<'a>(
    root: &gj::Root,
    plans: &[Plan],
    bin: Option<&'a [u8]>,
    base: Option<&Path>,
    ctx: &Ctx<'_>,
) -> Result<Vec<Option<Cow<'a, [u8]>>>, ImportError> {
    let mut needed = vec![false; root.buffers.len()];
    for plan in plans {
        let sampler = sampler_of(root, plan);
        for acc in [sampler.input.value(), sampler.output.value()] {
            for view in accessor_views(&root.accessors[acc]) {
                let v = root
                    .buffer_views
                    .get(view)
                    .ok_or_else(|| ctx.invalid(format!("{}: accessor {acc} uses bufferView {view}, which does not exist", plan.label)))?;
                let b = v.buffer.value();
                *needed.get_mut(b).ok_or_else(|| ctx.invalid(format!("{}: bufferView {view} uses buffer {b}, which does not exist", plan.label)))? = true;
            }
        }
    }
    let mut out = Vec::with_capacity(needed.len());
    for (i, buffer) in root.buffers.iter().enumerate() {
        if !needed[i] {
            out.push(None);
            continue;
        }
        let data: Cow<'a, [u8]> = match (&buffer.uri, bin) {
            (None, Some(bin)) if i == 0 => Cow::Borrowed(bin),
            (None, _) => return Err(ctx.invalid(format!("buffer {i} has no uri and there is no GLB binary chunk"))),
            (Some(uri), _) => Cow::Owned(buffer_from_uri(uri, i, base, ctx)?),
        };
        let length = usize::try_from(buffer.byte_length.0).unwrap_or(usize::MAX);
        if data.len() < length {
            return Err(ctx.invalid(format!("buffer {i} has {} bytes, fewer than its byteLength {length}", data.len())));
        }
        out.push(Some(match data {
            Cow::Borrowed(d) => Cow::Borrowed(&d[..length]),
            Cow::Owned(mut d) => {
                d.truncate(length);
                Cow::Owned(d)
            }
        }));
    }
    Ok(out)
}

/// A buffer's bytes from a `data:` URI (base64) or a file beside the `.gltf`.
fn buffer_from_uri(uri: &str, i: usize, base: Option<&Path>, ctx: &Ctx<'_>) -> Result<Vec<u8>, ImportError> {
    use base64::Engine as _;
    if let Some(rest) = uri.strip_prefix("data:") {
        let (_, payload) = rest.split_once(";base64,").ok_or_else(|| ctx.invalid(format!("buffer {i}: a data URI that is not base64")))?;
        return base64::engine::general_purpose::STANDARD
            .decode(payload.trim())
            .map_err(|e| ctx.invalid(format!("buffer {i}: the base64 data is not valid: {e}")));
    }
    let base = base.ok_or_else(|| ctx.invalid(format!("buffer {i} is in the file \"{uri}\", and there is no folder to read it from")))?;
    let file = base.join(percent_decode(uri));
    std::fs::read(&file).map_err(|error| ImportError::Io { path: format!("{} (buffer {i} of {})", file.display(), ctx.path), error })
}

/// `%20` and the like in a relative URI.
fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn sampler_of<'r>(root: &'r gj::Root, plan: &Plan) -> &'r gj::animation::Sampler {
    let anim = &root.animations[plan.index.0];
    &anim.samplers[anim.channels[plan.index.1].sampler.value()]
}

/// The buffer views an accessor reads: its own and its sparse indices' and values'.
fn accessor_views(acc: &gj::Accessor) -> Vec<usize> {
    let mut views: Vec<usize> = acc.buffer_view.iter().map(|v| v.value()).collect();
    if let Some(s) = &acc.sparse {
        views.extend([s.indices.buffer_view.value(), s.values.buffer_view.value()]);
    }
    views
}

/// What a channel holds: f32 times, and f32 outputs `width` to an element.
struct ChannelData {
    times: Vec<f32>,
    values: Vec<f32>,
    width: usize,
}

/// Element types each accessor may have.
const INPUT: Allowed = &[(Type::Scalar, ComponentType::F32, false)];
const VEC3: Allowed = &[(Type::Vec3, ComponentType::F32, false)];
const ROTATION: Allowed = &[
    (Type::Vec4, ComponentType::F32, false),
    (Type::Vec4, ComponentType::I8, true),
    (Type::Vec4, ComponentType::U8, true),
    (Type::Vec4, ComponentType::I16, true),
    (Type::Vec4, ComponentType::U16, true),
];
const WEIGHTS: Allowed = &[
    (Type::Scalar, ComponentType::F32, false),
    (Type::Scalar, ComponentType::I8, true),
    (Type::Scalar, ComponentType::U8, true),
    (Type::Scalar, ComponentType::I16, true),
    (Type::Scalar, ComponentType::U16, true),
];

/// Checks a channel's accessors against its buffers, then reads them with the `gltf` crate's
/// reader, and checks what came out: times finite and increasing, as many outputs as the
/// sampler needs, no NaN.
fn read_channel(document: &gltf::Document, buffers: &[Option<Cow<'_, [u8]>>], plan: &Plan) -> Result<ChannelData, String> {
    let root = document.as_json();
    let sampler = sampler_of(root, plan);
    let allowed = match plan.property {
        GltfProperty::Translation | GltfProperty::Scale => VEC3,
        GltfProperty::Rotation => ROTATION,
        GltfProperty::Weights => WEIGHTS,
    };
    let n = super::gltf_check::accessor(root, buffers, sampler.input.value(), "input", INPUT)?;
    let outputs = super::gltf_check::accessor(root, buffers, sampler.output.value(), "output", allowed)?;
    let channel = document.animations().nth(plan.index.0).and_then(|a| a.channels().nth(plan.index.1)).ok_or("the channel is missing")?;
    let reader = channel.reader(|b: gltf::Buffer<'_>| buffers.get(b.index()).and_then(|d| d.as_deref()));
    let times: Vec<f32> = reader.read_inputs().ok_or("the input accessor has no data")?.collect();
    let values: Vec<f32> = match reader.read_outputs().ok_or("the output accessor has no data")? {
        ReadOutputs::Translations(it) | ReadOutputs::Scales(it) => it.flatten().collect(),
        ReadOutputs::Rotations(it) => rotations(it),
        ReadOutputs::MorphTargetWeights(it) => weights(it),
    };
    if times.len() != n {
        return Err(format!("the input accessor has {} of its {n} times", times.len()));
    }
    super::gltf_check::times(&times)?;
    let per_key = if plan.interpolation == gj::animation::Interpolation::CubicSpline { 3 } else { 1 };
    let width = match plan.property {
        GltfProperty::Translation | GltfProperty::Scale => 3,
        GltfProperty::Rotation => 4,
        GltfProperty::Weights => super::gltf_check::morph_count(root, plan.node, outputs, n * per_key)?,
    };
    let expected = n * per_key * width;
    if values.len() != expected || outputs * allowed[0].0.multiplicity() != expected {
        let what = if per_key == 3 { "CUBICSPLINE needs 3 elements (in-tangent, value, out-tangent) per key" } else { "it needs one element per key" };
        let targets = if plan.property == GltfProperty::Weights { format!(" of {width} morph targets") } else { String::new() };
        return Err(format!("the output accessor has {outputs} elements for {n} keys{targets}; {what}"));
    }
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(format!("output value {i} is {}, not a finite number", values[i]));
    }
    Ok(ChannelData { times, values, width })
}

/// A normalized integer as glTF 2.0 §3.11 defines it: `max(c / (2^(b−1) − 1), −1)` for
/// signed, `c / (2^b − 1)` for unsigned, computed in f64 and rounded once to f32.
fn dequantize(c: f64, max: f64) -> f32 {
    (c / max).max(-1.0) as f32
}

/// Rotation outputs, floats as stored, integers dequantized.
fn rotations(it: gltf::animation::util::Rotations<'_>) -> Vec<f32> {
    use gltf::animation::util::Rotations as R;
    match it {
        R::F32(i) => i.flatten().collect(),
        R::I8(i) => i.flatten().map(|c| dequantize(f64::from(c), 127.0)).collect(),
        R::U8(i) => i.flatten().map(|c| dequantize(f64::from(c), 255.0)).collect(),
        R::I16(i) => i.flatten().map(|c| dequantize(f64::from(c), 32767.0)).collect(),
        R::U16(i) => i.flatten().map(|c| dequantize(f64::from(c), 65535.0)).collect(),
    }
}

/// Morph weight outputs, floats as stored, integers dequantized.
fn weights(it: gltf::animation::util::MorphTargetWeights<'_>) -> Vec<f32> {
    use gltf::animation::util::MorphTargetWeights as W;
    match it {
        W::F32(i) => i.collect(),
        W::I8(i) => i.map(|c| dequantize(f64::from(c), 127.0)).collect(),
        W::U8(i) => i.map(|c| dequantize(f64::from(c), 255.0)).collect(),
        W::I16(i) => i.map(|c| dequantize(f64::from(c), 32767.0)).collect(),
        W::U16(i) => i.map(|c| dequantize(f64::from(c), 65535.0)).collect(),
    }
}

/// The tracks of one channel: one for translation, rotation, scale; one per morph target
/// for weights.
fn build_tracks(plan: &Plan, data: &ChannelData, node_label: &str, root: &gj::Root) -> Vec<Track> {
    use gj::animation::Interpolation as GI;
    let (kind, suffix) = match plan.property {
        GltfProperty::Translation => (TrackKind::Vec3, "translation"),
        GltfProperty::Rotation => (TrackKind::Quat, "rotation"),
        GltfProperty::Scale => (TrackKind::Vec3, "scale"),
        GltfProperty::Weights => (TrackKind::Scalar, "weights"),
    };
    let interpolation = match (plan.interpolation, kind) {
        (GI::Step, _) => Interpolation::Step,
        (GI::Linear, TrackKind::Quat) => Interpolation::Slerp,
        (GI::Linear, _) => Interpolation::Linear,
        (GI::CubicSpline, _) => Interpolation::Bezier,
    };
    let dim = kind.dim();
    let elements: Vec<Option<Element>> =
        if plan.property == GltfProperty::Weights { (0..data.width).map(|index| Some(Element { index, count: data.width })).collect() } else { vec![None] };
    elements
        .into_iter()
        .map(|element| {
            let first = element.map_or(0, |e| e.index);
            let name = match element {
                Some(e) => format!("{node_label}.{suffix}[{}]", e.index),
                None => format!("{node_label}.{suffix}"),
            };
            let mut track = Track::new(name, kind, interpolation);
            track.keys = keys(data, first, dim, interpolation == Interpolation::Bezier).into();
            track.binding = Some(Binding::Gltf {
                animation: plan.animation.clone(),
                node: plan.node,
                node_name: root.nodes[plan.node].name.clone(),
                property: plan.property,
                element,
            });
            track
        })
        .collect()
}

/// Keys of components `first..first + dim` of each output element; for CUBICSPLINE, Free
/// Bézier handles at a third of the neighbouring segment (the module docs give the rule).
fn keys(data: &ChannelData, first: usize, dim: usize, cubic: bool) -> Vec<Key> {
    let (t, w) = (&data.times, data.width);
    let n = t.len();
    let element = |e: usize| -> Vec<f64> { data.values[e * w + first..e * w + first + dim].iter().map(|&v| f64::from(v)).collect() };
    let span = |a: usize, b: usize| f64::from(t[b]) - f64::from(t[a]);
    (0..n)
        .map(|k| {
            let time = f64::from(t[k]);
            if !cubic {
                return Key::new(time, element(k));
            }
            let before = if k > 0 {
                span(k - 1, k)
            } else if n > 1 {
                span(0, 1)
            } else {
                1.0
            };
            let after = if k + 1 < n {
                span(k, k + 1)
            } else if n > 1 {
                span(n - 2, n - 1)
            } else {
                1.0
            };
            let (a, v, b) = (element(3 * k), element(3 * k + 1), element(3 * k + 2));
            let left = a.iter().map(|a| (-before / 3.0, -a * before / 3.0)).collect();
            let right = b.iter().map(|b| (after / 3.0, b * after / 3.0)).collect();
            Key::new(time, v).with_handles((HandleType::Free, HandleType::Free), left, right)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("my%20file.bin"), "my file.bin");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("%41%zz"), "A%zz");
    }

    #[test]
    fn cubic_spline_keys_become_handles_at_thirds() {
        // Keys at 0 and 3 s, values 0 and 6, out-tangent 2/s at the first, in-tangent 4/s at
        // the second: right handle (1, 2), left handle (−1, −4).
        let data = ChannelData { times: vec![0.0, 3.0], values: vec![9.0, 0.0, 2.0, 4.0, 6.0, 7.0], width: 1 };
        let k = keys(&data, 0, 1, true);
        assert_eq!(k[0].right, vec![(1.0, 2.0)]);
        assert_eq!(k[1].left, vec![(-1.0, -4.0)]);
        // The unused end tangents are kept over the neighbouring segment.
        assert_eq!(k[0].left, vec![(-1.0, -9.0)]);
        assert_eq!(k[1].right, vec![(1.0, 7.0)]);
        assert_eq!((k[0].value[0], k[1].value[0]), (0.0, 6.0));
    }
}
