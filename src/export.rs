//! Export for engines: CSV, three.js `AnimationClip` JSON, and glTF 2.0 (`.gltf` with an
//! embedded buffer, `.glb`). How tracks map to targets is in `docs/export.md`.
//!
//! A track is written **exactly** where the format can express its interpolation and
//! **baked** ([`crate::bake`]) otherwise:
//!
//! | track | three.js JSON | glTF |
//! |---|---|---|
//! | Step | discrete (2300), the keys | STEP, the keys |
//! | Linear | linear (2301), the keys | LINEAR, the keys |
//! | Slerp | quaternion linear, the keys | LINEAR rotation (slerp), the keys |
//! | Tcb without ease or jumps | baked | CUBICSPLINE: tangents `ra/Δt`, `rb/Δt` per second |
//! | anything else, or constant-speed motion | baked | baked, LINEAR |
//!
//! glTF stores FLOAT (f32): times that f32 rounding would make equal (a jump) are nudged
//! one f32 step apart so they stay strictly increasing, as glTF requires.

use std::collections::BTreeMap;
use std::io::Write;

use base64::Engine as _;
use gj::validation::{Checked::Valid, USize64};
use gltf_json as gj;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::arclen::{ArcLengthError, ArcLengthTable};
use crate::bake::{bake_range, Baked, Motion, Rate};
use crate::curve::TrackCurve;
use crate::error::TrackError;
use crate::model::{Interpolation, Project, Track, TrackKind};

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    Csv,
    /// three.js `AnimationClip.toJSON`.
    ThreeJson,
    /// glTF 2.0 JSON with the buffer embedded as a data URI.
    Gltf,
    /// Binary glTF.
    Glb,
}

impl Format {
    pub const ALL: [Format; 4] = [Self::Csv, Self::ThreeJson, Self::Gltf, Self::Glb];

    /// The usual file extension.
    #[must_use]
    pub fn extension(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::ThreeJson => "json",
            Self::Gltf => "gltf",
            Self::Glb => "glb",
        }
    }
}

/// Where a track goes in the exported scene (see `docs/export.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    /// Position: three.js `.position`, glTF `translation` (Vec3).
    Translation,
    /// Orientation: three.js `.quaternion`, glTF `rotation` (Quat).
    Rotation,
    /// Scale: three.js `.scale`, glTF `scale` (Vec3).
    Scale,
    /// Morph target weights, one per component: three.js `.morphTargetInfluences`, glTF
    /// `weights` of a node whose mesh has that many morph targets.
    Weights,
    /// A plain property named `value` on an object named after the track (three.js only).
    Property,
    /// Left out of the export.
    Skip,
}

impl Target {
    pub const ALL: [Target; 6] = [Self::Translation, Self::Rotation, Self::Scale, Self::Weights, Self::Property, Self::Skip];

    /// The mapping used unless the user chooses another: Vec3 → translation, Quat →
    /// rotation; Scalar, Vec2 and Vec4 → a property in three.js JSON and CSV, morph weights
    /// (one per component) in glTF, which has no free properties.
    #[must_use]
    pub fn default_for(kind: TrackKind, format: Format) -> Self {
        match kind {
            TrackKind::Vec3 => Self::Translation,
            TrackKind::Quat => Self::Rotation,
            _ if matches!(format, Format::Gltf | Format::Glb) => Self::Weights,
            _ => Self::Property,
        }
    }

    /// Whether a track of `kind` can go to this target in `format`.
    #[must_use]
    pub fn fits(self, kind: TrackKind, format: Format) -> bool {
        match self {
            Self::Skip => true,
            Self::Translation | Self::Scale => kind == TrackKind::Vec3,
            Self::Rotation => kind == TrackKind::Quat,
            Self::Weights => kind != TrackKind::Quat,
            Self::Property => !matches!(format, Format::Gltf | Format::Glb),
        }
    }
}

/// What to export and how.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportOptions {
    /// Fixed rate or adaptive bound for baked tracks (CSV always samples at a fixed rate:
    /// the adaptive bound's value is then ignored and 30 fps used unless fixed is given).
    pub rate: Rate,
    /// Bake Vec2/Vec3 paths moved at constant speed (arc length) over their duration.
    pub constant_speed: bool,
    /// Error bound of the arc-length tables used for constant speed.
    pub arclen_tolerance: f64,
    /// Target per track name; tracks not listed use [`Target::default_for`].
    pub targets: BTreeMap<String, Target>,
}

impl Default for ExportOptions {
    fn default() -> Self {
        Self { rate: Rate::Fixed(30.0), constant_speed: false, arclen_tolerance: 1e-6, targets: BTreeMap::new() }
    }
}

/// How one track was written.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackReport {
    pub name: String,
    pub target: Target,
    /// "STEP", "LINEAR", "CUBICSPLINE", or "baked".
    pub form: &'static str,
    pub keys: usize,
    /// Largest error against the curve of what was written (0 for exact forms).
    pub max_error: f64,
}

#[derive(Debug, Error)]
pub enum ExportError {
    #[error("track \"{track}\": a {kind:?} track cannot go to {target:?} in {format:?} (choose another target or Skip)")]
    Mapping { track: String, kind: TrackKind, target: Target, format: Format },
    #[error(transparent)]
    Track(#[from] TrackError),
    #[error(transparent)]
    ArcLength(#[from] ArcLengthError),
    #[error("nothing to export: every track is skipped")]
    Empty,
    #[error("export cancelled")]
    Cancelled,
    #[error("could not write the export: {0}")]
    Encode(String),
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
}

/// One track ready to write: its keys and interpolation in the output's terms.
struct Prepared {
    name: String,
    kind: TrackKind,
    target: Target,
    form: &'static str,
    times: Vec<f64>,
    /// Per key `dim` values; for CUBICSPLINE `3 · dim` (in-tangent, value, out-tangent).
    values: Vec<f64>,
    max_error: f64,
}

fn target_of(options: &ExportOptions, track: &Track, format: Format) -> Target {
    options.targets.get(&track.name).copied().unwrap_or_else(|| Target::default_for(track.kind, format))
}

/// The form a track takes in `format` without baking, if it has one.
fn exact_form(track: &Track, format: Format, constant_speed: bool) -> Option<&'static str> {
    let jumps = track.keys.windows(2).any(|w| w[0].time == w[1].time);
    let path = matches!(track.kind, TrackKind::Vec2 | TrackKind::Vec3);
    if constant_speed && path && track.interpolation.has_derivative() {
        return None;
    }
    match (format, track.interpolation) {
        (Format::Csv, _) => None,
        (_, Interpolation::Step) => Some("STEP"),
        (_, Interpolation::Linear) => Some("LINEAR"),
        (_, Interpolation::Slerp) => Some("LINEAR"),
        (Format::Gltf | Format::Glb, Interpolation::Tcb)
            if !jumps && track.keys.len() > 1 && track.keys.iter().all(|k| k.ease_to == 0.0 && k.ease_from == 0.0) =>
        {
            Some("CUBICSPLINE")
        }
        _ => None,
    }
}

/// Glues what the bake produced, or the keys, into a [`Prepared`] track.
fn prepare(track: &Track, target: Target, format: Format, options: &ExportOptions, range: (f64, f64)) -> Result<Prepared, ExportError> {
    let curve = TrackCurve::new(track)?;
    let dim = curve.dim();
    let mut p = Prepared { name: track.name.clone(), kind: track.kind, target, form: "baked", times: Vec::new(), values: Vec::new(), max_error: 0.0 };
    // Pre/post infinity other than Constant is baked over the whole clip, so engines play
    // what the editor shows beyond the keys.
    let (k0, k1) = curve.domain();
    let beyond =
        (track.pre_infinity != crate::model::Infinity::Constant && range.0 < k0) || (track.post_infinity != crate::model::Infinity::Constant && range.1 > k1);
    let form = if beyond { None } else { exact_form(track, format, options.constant_speed) };
    let (b0, b1) = if beyond { range } else { (k0, k1) };
    match form {
        Some("CUBICSPLINE") => {
            let n = track.keys.len();
            p.form = "CUBICSPLINE";
            for (i, k) in track.keys.iter().enumerate() {
                p.times.push(k.time);
                // glTF tangents are per second: the per-segment-time Hermite tangents divided by
                // the duration of the segment they belong to.
                let a_dt = if i > 0 { k.time - track.keys[i - 1].time } else { 0.0 };
                let b_dt = if i + 1 < n { track.keys[i + 1].time - k.time } else { 0.0 };
                let ra = curve.incoming_tangent(i).unwrap_or(&[]);
                let rb = curve.outgoing_tangent(i).unwrap_or(&[]);
                for c in 0..dim {
                    p.values.push(if i > 0 { ra[c] / a_dt } else { 0.0 });
                }
                p.values.extend_from_slice(curve.key_value(i));
                for c in 0..dim {
                    p.values.push(if i + 1 < n { rb[c] / b_dt } else { 0.0 });
                }
            }
        }
        Some(form) => {
            p.form = form;
            for (i, k) in track.keys.iter().enumerate() {
                p.times.push(k.time);
                p.values.extend_from_slice(curve.key_value(i));
            }
        }
        None => {
            let rate = match (format, options.rate) {
                (Format::Csv, Rate::Adaptive(_)) => Rate::Fixed(30.0),
                (_, r) => r,
            };
            let table;
            let motion = if options.constant_speed && matches!(track.kind, TrackKind::Vec2 | TrackKind::Vec3) && track.interpolation.has_derivative() {
                table = ArcLengthTable::new(&curve, options.arclen_tolerance)?;
                Motion::ConstantSpeed(&table)
            } else {
                Motion::Raw
            };
            let Baked { times, values, max_error, .. } = bake_range(&curve, rate, motion, b0, b1);
            p.times = times;
            p.values = values;
            p.max_error = max_error;
        }
    }
    Ok(p)
}

/// Prepares every exported track, in parallel; `progress(done, total)` is called as tracks
/// finish and returning `false` cancels.
fn prepare_all(
    project: &Project,
    format: Format,
    options: &ExportOptions,
    progress: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Result<Vec<Prepared>, ExportError> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let chosen: Vec<(&Track, Target)> = project.tracks.iter().map(|t| (t, target_of(options, t, format))).filter(|(_, g)| *g != Target::Skip).collect();
    if chosen.is_empty() {
        return Err(ExportError::Empty);
    }
    for (t, g) in &chosen {
        if !g.fits(t.kind, format) {
            return Err(ExportError::Mapping { track: t.name.clone(), kind: t.kind, target: *g, format });
        }
    }
    let range = project.time_range().unwrap_or((0.0, 0.0));
    let done = AtomicUsize::new(0);
    let cancelled = AtomicBool::new(false);
    let total = chosen.len();
    let out: Vec<Result<Prepared, ExportError>> = chosen
        .par_iter()
        .map(|(t, g)| {
            if cancelled.load(Ordering::Relaxed) {
                return Err(ExportError::Cancelled);
            }
            let p = prepare(t, *g, format, options, range);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if !progress(n, total) {
                cancelled.store(true, Ordering::Relaxed);
            }
            p
        })
        .collect();
    if cancelled.load(Ordering::Relaxed) {
        return Err(ExportError::Cancelled);
    }
    out.into_iter().collect()
}

/// Exports `project` to bytes in `format`, with a report per track.
pub fn export(
    project: &Project,
    format: Format,
    options: &ExportOptions,
    progress: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Result<(Vec<u8>, Vec<TrackReport>), ExportError> {
    let tracks = prepare_all(project, format, options, progress)?;
    let bytes = match format {
        Format::Csv => csv(project, &tracks, options),
        Format::ThreeJson => three_json(&tracks)?,
        Format::Gltf => {
            let (root, bin) = gltf_root(&tracks, true);
            root.to_vec_pretty().map_err(|e| ExportError::Encode(e.to_string())).map(|mut v| {
                v.push(b'\n');
                drop(bin);
                v
            })?
        }
        Format::Glb => {
            let (root, bin) = gltf_root(&tracks, false);
            glb(&root.to_vec().map_err(|e| ExportError::Encode(e.to_string()))?, &bin)
        }
    };
    let report =
        tracks.iter().map(|p| TrackReport { name: p.name.clone(), target: p.target, form: p.form, keys: p.times.len(), max_error: p.max_error }).collect();
    Ok((bytes, report))
}

/// [`export`] to a file, written atomically: a failure leaves no partial file.
pub fn export_to_file(
    path: &std::path::Path,
    project: &Project,
    format: Format,
    options: &ExportOptions,
    progress: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Result<Vec<TrackReport>, ExportError> {
    let (bytes, report) = export(project, format, options, progress)?;
    crate::io::write_atomically(path, &bytes).map_err(|source| ExportError::Io { path: path.display().to_string(), source })?;
    Ok(report)
}

/// CSV: a `time` column, then one column per component (`track.x`, …), sampled at the
/// fixed rate over the union of the tracks' key ranges.
fn csv(project: &Project, tracks: &[Prepared], options: &ExportOptions) -> Vec<u8> {
    let fps = match options.rate {
        Rate::Fixed(f) if f.is_finite() && f > 0.0 => f,
        _ => 30.0,
    };
    let (t0, t1) = project.time_range().unwrap_or((0.0, 0.0));
    let n = ((t1 - t0) * fps).ceil().max(0.0) as usize;
    let mut out = Vec::new();
    let mut header = vec!["time".to_owned()];
    let curves: Vec<(TrackCurve, &Prepared)> =
        tracks.iter().filter_map(|p| project.track(&p.name).and_then(|t| TrackCurve::new(t).ok()).map(|c| (c, p))).collect();
    for (c, p) in &curves {
        for name in c.kind().component_names() {
            header.push(format!("{}.{name}", p.name));
        }
    }
    let _ = writeln!(out, "{}", header.join(","));
    let mut value = Vec::new();
    for k in 0..=n {
        let t = (t0 + k as f64 / fps).min(t1);
        let _ = write!(out, "{t:?}");
        for (c, p) in &curves {
            // Baked tracks are sampled from what was baked; others from the curve.
            value.resize(c.dim(), 0.0);
            if p.form == "baked" && !p.times.is_empty() {
                let i = p.times.partition_point(|&x| x <= t).clamp(1, p.times.len()) - 1;
                value.copy_from_slice(&p.values[i * c.dim()..(i + 1) * c.dim()]);
                if let (Some(&ta), Some(&tb)) = (p.times.get(i), p.times.get(i + 1)) {
                    if tb > ta && t > ta {
                        let w = (t - ta) / (tb - ta);
                        for (j, v) in value.iter_mut().enumerate() {
                            *v += (p.values[(i + 1) * c.dim() + j] - *v) * w;
                        }
                    }
                }
            } else {
                c.evaluator().sample(t, &mut value);
            }
            for v in &value {
                let _ = write!(out, ",{v:?}");
            }
        }
        let _ = writeln!(out);
    }
    out
}

/// A track name as three.js names the object: `PropertyBinding.sanitizeNodeName` (spaces
/// become `_`; `[ ] . : /` are dropped), so the track can bind to it.
#[must_use]
pub fn three_node_name(name: &str) -> String {
    name.chars().filter(|c| !"[].:/".contains(*c)).map(|c| if c.is_whitespace() { '_' } else { c }).collect()
}

fn three_binding(p: &Prepared) -> (String, &'static str) {
    let kind_type = |k: TrackKind| if k == TrackKind::Scalar { "number" } else { "vector" };
    let node = three_node_name(&p.name);
    match p.target {
        Target::Translation => (format!("{node}.position"), "vector"),
        Target::Scale => (format!("{node}.scale"), "vector"),
        Target::Rotation => (format!("{node}.quaternion"), "quaternion"),
        Target::Weights => (format!("{node}.morphTargetInfluences"), "number"),
        Target::Property | Target::Skip => (format!("{node}.value"), kind_type(p.kind)),
    }
}

/// three.js `AnimationClip.toJSON()`: `{name, duration, tracks: [{name, times, values, type,
/// interpolation?}], uuid, blendMode}`; `AnimationClip.parse` reads it back.
fn three_json(tracks: &[Prepared]) -> Result<Vec<u8>, ExportError> {
    let duration = tracks.iter().filter_map(|p| p.times.last()).fold(0.0f64, |a, &b| a.max(b));
    let json_tracks: Vec<serde_json::Value> = tracks
        .iter()
        .map(|p| {
            let (name, ty) = three_binding(p);
            let mut t = serde_json::json!({ "name": name, "times": p.times, "values": p.values, "type": ty });
            if p.form == "STEP" {
                t["interpolation"] = serde_json::json!(2300);
            }
            t
        })
        .collect();
    let clip = serde_json::json!({
        "name": "Tangent",
        "duration": duration,
        "tracks": json_tracks,
        "uuid": "00000000-0000-4000-8000-000000000000",
        "blendMode": 2500,
    });
    serde_json::to_vec_pretty(&clip).map_err(|e| ExportError::Encode(e.to_string()))
}

/// Appends little-endian f32s, returning (offset, length in bytes).
fn push_f32(bin: &mut Vec<u8>, values: impl IntoIterator<Item = f32>) -> (usize, usize) {
    let start = bin.len();
    for v in values {
        bin.extend_from_slice(&v.to_le_bytes());
    }
    (start, bin.len() - start)
}

/// f32 times, strictly increasing (a jump's second time moves up one f32 step).
fn f32_times(times: &[f64]) -> Vec<f32> {
    let mut out: Vec<f32> = Vec::with_capacity(times.len());
    for &t in times {
        let mut v = t as f32;
        if let Some(&last) = out.last() {
            if v <= last {
                v = last.next_up();
            }
        }
        out.push(v);
    }
    out
}

/// The glTF document and its binary buffer; `embed` puts the buffer in a data URI.
fn gltf_root(tracks: &[Prepared], embed: bool) -> (gj::Root, Vec<u8>) {
    use gj::accessor::{ComponentType, GenericComponentType, Type};
    use gj::animation::{Channel, Interpolation as GI, Property, Sampler, Target as GT};
    let mut root = gj::Root { asset: gj::Asset { generator: Some("Tangent".into()), ..Default::default() }, ..Default::default() };
    let mut bin = Vec::new();
    let accessor = |root: &mut gj::Root, bin: &mut Vec<u8>, data: Vec<f32>, ty: Type, comps: usize, min_max: bool| {
        let count = data.len() / comps;
        let (min, max) = if min_max {
            let mut lo = vec![f32::INFINITY; comps];
            let mut hi = vec![f32::NEG_INFINITY; comps];
            for (i, v) in data.iter().enumerate() {
                lo[i % comps] = lo[i % comps].min(*v);
                hi[i % comps] = hi[i % comps].max(*v);
            }
            (Some(serde_json::json!(lo)), Some(serde_json::json!(hi)))
        } else {
            (None, None)
        };
        let (offset, length) = push_f32(bin, data);
        let view = root.push(gj::buffer::View {
            buffer: gj::Index::new(0),
            byte_length: USize64::from(length),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: None,
            extensions: None,
            extras: Default::default(),
        });
        root.push(gj::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(count),
            component_type: Valid(GenericComponentType(ComponentType::F32)),
            extensions: None,
            extras: Default::default(),
            type_: Valid(ty),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        })
    };
    let mut nodes = Vec::new();
    let mut channels = Vec::new();
    let mut samplers = Vec::new();
    for p in tracks {
        let dim = p.kind.dim();
        let mut node = gj::Node { name: Some(p.name.clone()), ..Default::default() };
        if p.target == Target::Weights {
            // A one-triangle mesh with one morph target per component, so weights can animate.
            let triangle = vec![0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
            let position = accessor(&mut root, &mut bin, triangle, Type::Vec3, 3, true);
            let targets = (0..dim)
                .map(|c| {
                    let mut d = vec![0.0f32; 9];
                    d[3 + (c % 3)] = 1.0;
                    gj::mesh::MorphTarget { positions: Some(accessor(&mut root, &mut bin, d, Type::Vec3, 3, true)), normals: None, tangents: None }
                })
                .collect();
            let mut attributes = BTreeMap::new();
            attributes.insert(Valid(gj::mesh::Semantic::Positions), position);
            let mesh = root.push(gj::Mesh {
                extensions: None,
                extras: Default::default(),
                name: Some(p.name.clone()),
                primitives: vec![gj::mesh::Primitive {
                    attributes,
                    extensions: None,
                    extras: Default::default(),
                    indices: None,
                    material: None,
                    mode: Valid(gj::mesh::Mode::Triangles),
                    targets: Some(targets),
                }],
                weights: Some(vec![0.0; dim]),
            });
            node.mesh = Some(mesh);
        }
        let node_index = root.push(node);
        nodes.push(node_index);
        let input = accessor(&mut root, &mut bin, f32_times(&p.times), Type::Scalar, 1, true);
        let ty = match (p.target, dim) {
            (Target::Weights, _) => Type::Scalar,
            (_, 3) => Type::Vec3,
            _ => Type::Vec4,
        };
        let comps = if p.target == Target::Weights { 1 } else { dim };
        let output = accessor(&mut root, &mut bin, p.values.iter().map(|v| *v as f32).collect(), ty, comps, false);
        let interpolation = match p.form {
            "STEP" => GI::Step,
            "CUBICSPLINE" => GI::CubicSpline,
            _ => GI::Linear,
        };
        let sampler = gj::Index::new(samplers.len() as u32);
        samplers.push(Sampler { extensions: None, extras: Default::default(), input, interpolation: Valid(interpolation), output });
        let path = match p.target {
            Target::Translation => Property::Translation,
            Target::Rotation => Property::Rotation,
            Target::Scale => Property::Scale,
            _ => Property::MorphTargetWeights,
        };
        channels.push(Channel {
            sampler,
            target: GT { extensions: None, extras: Default::default(), node: node_index, path: Valid(path) },
            extensions: None,
            extras: Default::default(),
        });
    }
    root.push(gj::Animation { extensions: None, extras: Default::default(), channels, name: Some("Tangent".into()), samplers });
    let scene = root.push(gj::Scene { extensions: None, extras: Default::default(), name: None, nodes });
    root.scene = Some(scene);
    let uri = embed.then(|| format!("data:application/octet-stream;base64,{}", base64::engine::general_purpose::STANDARD.encode(&bin)));
    root.push(gj::Buffer { byte_length: USize64::from(bin.len()), name: None, uri, extensions: None, extras: Default::default() });
    (root, bin)
}

/// The GLB container: header, JSON chunk (space-padded), BIN chunk (zero-padded).
fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let pad = |n: usize| (4 - n % 4) % 4;
    let (jp, bp) = (pad(json.len()), pad(bin.len()));
    let total = 12 + 8 + json.len() + jp + 8 + bin.len() + bp;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&((json.len() + jp) as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(json);
    out.extend(std::iter::repeat_n(b' ', jp));
    out.extend_from_slice(&((bin.len() + bp) as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out.extend(std::iter::repeat_n(0u8, bp));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Key;

    fn project(tracks: Vec<Track>) -> Project {
        Project { tracks, ..Project::default() }
    }

    fn no_progress(_: usize, _: usize) -> bool {
        true
    }

    #[test]
    fn mapping_rules() {
        assert_eq!(Target::default_for(TrackKind::Vec3, Format::Gltf), Target::Translation);
        assert_eq!(Target::default_for(TrackKind::Quat, Format::Glb), Target::Rotation);
        assert_eq!(Target::default_for(TrackKind::Vec2, Format::Gltf), Target::Weights);
        assert_eq!(Target::default_for(TrackKind::Vec2, Format::ThreeJson), Target::Property);
        assert!(!Target::Rotation.fits(TrackKind::Vec3, Format::Gltf));
        assert!(!Target::Property.fits(TrackKind::Vec2, Format::Glb));
        assert!(Target::Property.fits(TrackKind::Vec2, Format::ThreeJson));
        let v2 = Track::new("v", TrackKind::Vec2, Interpolation::Linear).with_keys(vec![Key::new(0.0, vec![0.0, 0.0])]);
        let mut options = ExportOptions::default();
        options.targets.insert("v".into(), Target::Property);
        let err = export(&project(vec![v2]), Format::Gltf, &options, &no_progress).unwrap_err();
        assert!(err.to_string().contains("cannot go to Property in Gltf"), "{err}");
    }

    /// Hermite tangents per unit segment time become glTF's per-second tangents: with keys
    /// (0, 0), (2, 4), (3, 4), seed TCB gives rb₀ = 1.5·4 − 0.5·ra₁ with ra₁ = ½(4 + 0) = 2,
    /// so rb₀ = 5 over a 2 s segment: out-tangent 2.5 per second.
    #[test]
    fn cubicspline_tangents_are_rescaled_by_segment_duration() {
        let t = Track::new("s", TrackKind::Scalar, Interpolation::Tcb).with_keys(vec![
            Key::new(0.0, vec![0.0]),
            Key::new(2.0, vec![4.0]),
            Key::new(3.0, vec![4.0]),
        ]);
        let p = prepare(&t, Target::Weights, Format::Gltf, &ExportOptions::default(), (0.0, 3.0)).unwrap();
        assert_eq!(p.form, "CUBICSPLINE");
        // key 0: [in, value, out] = [0, 0, 2.5]; key 1: in = ra₁/2 = 1, out = rb₁/1 = 2.
        assert_eq!(&p.values[0..3], &[0.0, 0.0, 2.5]);
        assert_eq!(&p.values[3..6], &[1.0, 4.0, 2.0]);
        // glTF's Hermite with these tangents reproduces the curve mid-segment.
        let c = TrackCurve::new(&t).unwrap();
        let (s, td) = (0.5, 2.0);
        let h = |v0: f64, b0: f64, v1: f64, a1: f64| {
            (2.0 * s * s * s - 3.0 * s * s + 1.0) * v0
                + td * (s * s * s - 2.0 * s * s + s) * b0
                + (-2.0 * s * s * s + 3.0 * s * s) * v1
                + td * (s * s * s - s * s) * a1
        };
        assert!((h(0.0, 2.5, 4.0, 1.0) - c.evaluator().value_at(1.0)[0]).abs() < 1e-12);
    }

    #[test]
    fn exact_forms_and_baking_per_format() {
        let tcb =
            Track::new("a", TrackKind::Vec3, Interpolation::Tcb).with_keys(vec![Key::new(0.0, vec![0.0; 3]), Key::new(1.0, vec![1.0; 3]).with_ease(0.5, 0.0)]);
        assert_eq!(exact_form(&tcb, Format::Gltf, false), None, "ease needs baking");
        let mut plain = tcb.clone();
        plain.keys[1].ease_to = 0.0;
        assert_eq!(exact_form(&plain, Format::Gltf, false), Some("CUBICSPLINE"));
        assert_eq!(exact_form(&plain, Format::ThreeJson, false), None);
        assert_eq!(exact_form(&plain, Format::Gltf, true), None, "constant speed is baked");
        let step = Track::new("b", TrackKind::Scalar, Interpolation::Step).with_keys(vec![Key::new(0.0, vec![1.0])]);
        assert_eq!(exact_form(&step, Format::ThreeJson, false), Some("STEP"));
    }

    #[test]
    fn glb_container_is_well_formed() {
        let p = crate::io::demo_project();
        let mut options = ExportOptions::default();
        options.targets.insert("path".into(), Target::Skip);
        options.targets.insert("path (time-adjusted)".into(), Target::Skip);
        options.targets.insert("tint".into(), Target::Weights);
        let (bytes, report) = export(&p, Format::Glb, &options, &no_progress).unwrap();
        assert_eq!(&bytes[0..4], b"glTF");
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize, bytes.len());
        assert_eq!(bytes.len() % 4, 0);
        assert_eq!(report.len(), p.tracks.len() - 2);
        let (bytes, _) = export(&p, Format::Gltf, &options, &no_progress).unwrap();
        let root: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert!(root["buffers"][0]["uri"].as_str().unwrap().starts_with("data:application/octet-stream;base64,"));
    }

    #[test]
    fn cancelling_stops_the_export() {
        let p = crate::io::demo_project();
        let err = export(&p, Format::ThreeJson, &ExportOptions::default(), &|_, _| false).unwrap_err();
        assert!(matches!(err, ExportError::Cancelled));
    }
}
