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
//! | Euler (to Rotation) | quaternions: Step exact, else baked with every turn kept (`rotation.rs`) | the same |
//!
//! A project with a skeleton (a BVH take, a glTF or FBX import's nodes) is written to glTF as a
//! node hierarchy of its joints with their offsets, rest rotations and scales as the nodes'
//! rest transforms and end sites as leaf nodes, the joints' tracks on those nodes, each joint
//! once (`skeleton.rs`).
//!
//! glTF stores FLOAT (f32): times that f32 rounding would make equal (a jump) are nudged
//! one f32 step apart so they stay strictly increasing, as glTF requires.

mod bezier;
mod binding;
mod csv;
mod gltf;
mod rotation;
mod runtime;
mod skeleton;
mod three;

pub use crate::format::{Form, Format, Target};
pub use binding::bound_target;
pub use runtime::{preview, PreviewTrack};

use std::collections::BTreeMap;

use thiserror::Error;

use crate::arclen::{ArcLengthError, ArcLengthTable};
use crate::bake::{bake_range, Baked, Bound, Fps, Motion, Rate};
use crate::curve::modes::Written;
use crate::curve::{PathCurve, TrackCurve};
use crate::error::TrackError;
use crate::model::{Binding, Ending, Infinity, Interpolation, Project, Skeleton, ThreeValueType, Track, TrackKind};
use crate::runtime::Runtime;
use binding::Dest;

/// What to export and how.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportOptions {
    /// Frame rate of baked tracks (one key per frame) and of the CSV's rows.
    pub fps: Fps,
    /// Instead of one key per frame, bake the fewest keys within this bound. (CSV rows stay
    /// one per frame at `fps`; they then sample the adaptively baked keys.)
    pub adaptive: Option<Bound>,
    /// Bake Vec2/Vec3 paths moved at constant speed (arc length) over their duration.
    pub constant_speed: bool,
    /// Error bound of the arc-length tables used for constant speed.
    pub arclen_tolerance: f64,
    /// three.js JSON: write Bezier, TCB (without ease) and Cubic tracks as r187's
    /// `InterpolateBezier` tracks; `false` bakes them, for three.js before r187.
    pub three_bezier: bool,
    /// With [`Self::adaptive`]: bake linear keys (for engines without cubic curves) instead of
    /// fitting Bezier keys ([`crate::reduce::fit_range`]) written as glTF CUBICSPLINE or
    /// three.js `InterpolateBezier`.
    pub adaptive_linear: bool,
    /// With [`Self::adaptive`]: the bound for rotation (Quat, Euler) tracks, degrees (`--angle`);
    /// `None` keeps the old meaning, [`Self::adaptive`] read as radians (`rotation.rs`).
    pub adaptive_angle_deg: Option<f64>,
    /// Target per track name; tracks not listed use [`Target::default_for`].
    pub targets: BTreeMap<String, Target>,
    /// Who plays the file (`runtime.rs`): with Blender, keys Blender's importer plays within
    /// the bound instead of CUBICSPLINE keys it would play differently.
    pub runtime: Runtime,
}

impl ExportOptions {
    /// One key per frame at `fps`, default targets, no constant speed.
    #[must_use]
    pub fn new(fps: Fps) -> Self {
        Self {
            fps,
            adaptive: None,
            constant_speed: false,
            arclen_tolerance: crate::DEFAULT_ACCURACY,
            three_bezier: true,
            adaptive_linear: false,
            adaptive_angle_deg: None,
            targets: BTreeMap::new(),
            runtime: Runtime::Spec,
        }
    }

    /// How baked tracks are sampled.
    #[must_use]
    pub fn rate(&self) -> Rate {
        self.adaptive.map_or(Rate::Fixed(self.fps), Rate::Adaptive)
    }
}

impl Default for ExportOptions {
    /// At [`Fps::DEFAULT`].
    fn default() -> Self {
        Self::new(Fps::DEFAULT)
    }
}

/// How one track was written.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackReport {
    pub name: String,
    pub target: Target,
    pub form: Form,
    pub keys: usize,
    /// Largest error against the curve of what was written (0 for exact forms).
    pub max_error: f64,
    /// Where it went: `node 2 "Hips" rotation in animation "Walk"`, `Hips.position (vector)`.
    pub destination: String,
    /// How a track the format cannot hold as keyed was written instead: for an Euler track,
    /// that it went as quaternions, and why baked (`rotation.rs`); for a runtime, its keys.
    pub note: Option<String>,
    /// The runtime the keys were chosen for; `max_error` is measured as it plays them.
    pub runtime: Runtime,
    /// Where the runtime (or, for the specification's glTF, Blender 4.2+) plays the track
    /// beyond the bound, how far (`runtime.rs`).
    pub warning: Option<String>,
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
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{runtime} reads glTF: choose --format gltf or glb for it, not {format:?}")]
    Runtime { runtime: Runtime, format: Format },
}

/// One track ready to write: its keys and interpolation in the output's terms.
struct Prepared {
    name: String,
    kind: TrackKind,
    target: Target,
    form: Form,
    times: Vec<f64>,
    /// Per key `dim` values; for CUBICSPLINE `3 · dim` (in-tangent, value, out-tangent).
    values: Vec<f64>,
    /// For [`Form::Bezier`]: three.js' `(inTangents, outTangents)`.
    tangents: Option<(Vec<f64>, Vec<f64>)>,
    max_error: f64,
    /// Where it is written.
    dest: Dest,
    /// Values per key (not counting CUBICSPLINE tangents): the kind's dim, 4 for an Euler
    /// track written as quaternions, or the number of morph targets of a merged weights channel.
    width: usize,
    /// [`TrackReport::note`].
    note: Option<String>,
    /// [`TrackReport::warning`].
    warning: Option<String>,
}

impl Target {
    /// The target a track goes to unless the user maps it: where it was imported from
    /// ([`bound_target`]) if that fits, else [`Target::default_for`].
    #[must_use]
    pub fn for_track(track: &Track, format: Format) -> Self {
        bound_target(track, format).unwrap_or_else(|| Self::default_for(track.kind, format))
    }
}

fn target_of(options: &ExportOptions, track: &Track, format: Format) -> Target {
    options.targets.get(&track.name).copied().unwrap_or_else(|| Target::for_track(track, format))
}

/// Where `track` of `project` will be written in `format` with `options`, for the Export
/// window: the same text as [`TrackReport::destination`].
#[must_use]
pub fn destination(project: &Project, track: &Track, format: Format, options: &ExportOptions) -> String {
    let target = target_of(options, track, format);
    binding::describe(&Prepared::empty(track, target, format, options, project.skeleton.as_ref()))
}

/// A track in a form the output plays as is.
struct Exact {
    form: Form,
    times: Vec<f64>,
    values: Vec<f64>,
    tangents: Option<(Vec<f64>, Vec<f64>)>,
    /// Non-zero only where eased TCB segments were fitted with extra Bézier keys.
    max_error: f64,
}

/// The form a track takes in `format` without baking, if it has one. In three.js JSON, TCB
/// tracks with ease become Bezier keys with keys added inside eased segments, within the
/// adaptive bound (or [`crate::DEFAULT_ACCURACY`]), and report the measured difference.
fn exact_form(track: &Track, curve: &TrackCurve, format: Format, options: &ExportOptions) -> Option<Exact> {
    let jumps = track.keys.windows(2).any(|w| w[0].time == w[1].time);
    if options.constant_speed && PathCurve::check(track.kind, track.interpolation).is_ok() {
        return None;
    }
    let of = |form: Form, curve: &TrackCurve, values: Option<Vec<f64>>| Exact {
        form,
        times: curve.times().to_vec(),
        values: values.unwrap_or_else(|| (0..curve.times().len()).flat_map(|i| curve.key_value(i).iter().copied()).collect()),
        tangents: None,
        max_error: 0.0,
    };
    // An imported track's keys go back as they were read (a quaternion is not normalised).
    let stored = || track.binding.is_some().then(|| track.keys.iter().flat_map(|k| k.value.iter().copied()).collect());
    let smooth = !jumps && track.keys.len() > 1;
    let no_ease = track.keys.iter().all(|k| k.ease_to == 0.0 && k.ease_from == 0.0);
    // Tracks imported from three.js go back as they came: Smooth stays Smooth, Bezier
    // quaternions stay Bezier (three.js does not normalise them; Tangent does).
    let three_bound = matches!(track.binding, Some(Binding::Three { .. }));
    let three_quat = matches!(track.binding, Some(Binding::Three { value_type: ThreeValueType::Quaternion, .. }));
    let zero_curvature = track.ending_start == Ending::ZeroCurvature && track.ending_end == Ending::ZeroCurvature;
    // The keyframe form is the mode's to declare (its row of the table of modes); the cubic
    // forms then need each format's conditions and converters.
    match (format, track.interpolation.mode().written) {
        (Format::Csv, _) | (_, Written::Baked) => return None,
        (_, Written::Step) => return Some(of(Form::Step, curve, stored())),
        (_, Written::Linear) => return Some(of(Form::Linear, curve, stored())),
        (_, Written::Cubic) => {}
    }
    // Bezier tracks with Linear segments go out as the same curve in Bézier segments; with
    // Constant or eased segments they are fitted (`bezier::fitted_form`).
    let all_bezier;
    let (track, curve) = match (track.interpolation, bezier::segments(track)) {
        (Interpolation::Bezier, bezier::Segments::Fitted) => return None,
        (Interpolation::Bezier, bezier::Segments::WithLinear) => {
            let t = bezier::as_bezier_segments(track, curve);
            all_bezier = (TrackCurve::new(&t).ok()?, t);
            (&all_bezier.1, &all_bezier.0)
        }
        _ => (track, curve),
    };
    match (format, track.interpolation) {
        (Format::Gltf | Format::Glb, Interpolation::Tcb) if smooth && no_ease => Some(of(Form::CubicSpline, curve, Some(cubic_spline_values(curve)))),
        (Format::Gltf | Format::Glb, Interpolation::Bezier) if !jumps => {
            bezier::cubic_spline_from_handles(track, curve).map(|v| of(Form::CubicSpline, curve, Some(v)))
        }
        (Format::ThreeJson, Interpolation::Cubic) if three_bound && zero_curvature && !jumps => Some(of(Form::Smooth, curve, None)),
        (Format::ThreeJson, Interpolation::Bezier) if options.three_bezier && !jumps && (track.kind != TrackKind::Quat || three_quat) => {
            let (b, max_error) = bezier::bezier_curve(track, curve, crate::DEFAULT_ACCURACY)?;
            Some(Exact { tangents: Some(bezier::three_tangents(&b)), max_error, ..of(Form::Bezier, &b, None) })
        }
        (Format::ThreeJson, Interpolation::Tcb | Interpolation::Cubic) if options.three_bezier && smooth && track.kind != TrackKind::Quat => {
            let bound = options.adaptive.map_or(crate::DEFAULT_ACCURACY, Bound::get);
            let (b, max_error) = bezier::bezier_curve(track, curve, bound)?;
            Some(Exact { tangents: Some(bezier::three_tangents(&b)), max_error, ..of(Form::Bezier, &b, None) })
        }
        _ => None,
    }
}

/// Per key `[in-tangent, value, out-tangent]` for glTF CUBICSPLINE. glTF tangents are per
/// second: the per-segment-time Hermite tangents `ra`, `rb` divided by the duration of the
/// segment they belong to (zero at the open ends).
fn cubic_spline_values(curve: &TrackCurve) -> Vec<f64> {
    let (times, dim) = (curve.times(), curve.dim());
    let n = times.len();
    let mut values = Vec::with_capacity(3 * n * dim);
    for i in 0..n {
        let ra = curve.incoming_tangent(i).unwrap_or(&[]);
        let rb = curve.outgoing_tangent(i).unwrap_or(&[]);
        for c in 0..dim {
            values.push(if i > 0 { ra[c] / (times[i] - times[i - 1]) } else { 0.0 });
        }
        values.extend_from_slice(curve.key_value(i));
        for c in 0..dim {
            values.push(if i + 1 < n { rb[c] / (times[i + 1] - times[i]) } else { 0.0 });
        }
    }
    values
}

impl Prepared {
    /// `track` bound for `target`, with no keys yet; a joint's track of `skeleton` on its joint.
    fn empty(track: &Track, target: Target, format: Format, options: &ExportOptions, skeleton: Option<&Skeleton>) -> Self {
        Self {
            name: track.name.clone(),
            kind: track.kind,
            target,
            form: Form::Baked,
            times: Vec::new(),
            values: Vec::new(),
            tangents: None,
            max_error: 0.0,
            dest: binding::dest(track, target, format, options.targets.contains_key(&track.name), skeleton),
            width: track.kind.dim(),
            note: None,
            warning: None,
        }
    }
}

/// Glues what the bake produced, or the keys, into a [`Prepared`] track of a project with
/// `skeleton`. `take`: the track animates a joint of the skeleton ([`skeleton::joint_track`]).
fn prepare(
    track: &Track,
    target: Target,
    format: Format,
    options: &ExportOptions,
    range: (f64, f64),
    skeleton: Option<&Skeleton>,
    take: bool,
) -> Result<Prepared, ExportError> {
    let curve = TrackCurve::new(track)?;
    let mut p = Prepared::empty(track, target, format, options, skeleton);
    // Pre/post infinity other than Constant is baked over the whole clip, so engines play
    // what the editor shows beyond the keys.
    let (k0, k1) = curve.domain();
    let beyond = (track.pre_infinity != Infinity::Constant && range.0 < k0) || (track.post_infinity != Infinity::Constant && range.1 > k1);
    if track.kind == TrackKind::Euler && target == Target::Rotation && format != Format::Csv {
        let span = if beyond { range } else { (k0, k1) };
        let (exact, note) = rotation::euler_as_quaternions(track, &curve, format, options, span, take)?;
        (p.form, p.times, p.values, p.tangents, p.max_error) = (exact.form, exact.times, exact.values, exact.tangents, exact.max_error);
        (p.width, p.note) = (4, Some(note));
        return Ok(p);
    }
    let form = if beyond { None } else { exact_form(track, &curve, format, options) };
    match form {
        Some(exact) => {
            p.form = exact.form;
            p.times = exact.times;
            p.values = exact.values;
            p.tangents = exact.tangents;
            p.max_error = exact.max_error;
        }
        None => {
            let (b0, b1) = if beyond { range } else { (k0, k1) };
            if let Some(fitted) = bezier::fitted_form(track, &curve, format, options, (b0, b1))? {
                (p.form, p.times, p.values, p.tangents, p.max_error) = (fitted.form, fitted.times, fitted.values, fitted.tangents, fitted.max_error);
                return Ok(p);
            }
            let path = PathCurve::new(&curve).ok().filter(|_| options.constant_speed);
            let table = path.map(|path| ArcLengthTable::new(path, options.arclen_tolerance)).transpose()?;
            let motion = match (path, &table) {
                (Some(path), Some(table)) => Motion::ConstantSpeed { path, table },
                _ => Motion::Raw,
            };
            let Baked { times, values, max_error, .. } = bake_range(&curve, options.rate(), motion, b0, b1);
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
    runtime::check(options.runtime, format)?;

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
            let options = &options.for_track(t);
            let p = prepare(t, *g, format, options, range, project.skeleton.as_ref(), skeleton::joint_track(project, t))
                .and_then(|mut p| runtime::for_runtime(&mut p, t, format, options).map(|()| p));
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
    let mut prepared: Vec<Prepared> = out.into_iter().collect::<Result<_, _>>()?;
    binding::separate_collisions(&mut prepared);
    binding::harmonize(&mut prepared, project, options.fps.get());
    Ok(prepared)
}

/// Exports `project` to bytes in `format`, with a report per track.
pub fn export(
    project: &Project,
    format: Format,
    options: &ExportOptions,
    progress: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Result<(Vec<u8>, Vec<TrackReport>), ExportError> {
    let tracks = prepare_all(project, format, options, progress)?;
    let report = tracks
        .iter()
        .map(|p| TrackReport {
            name: p.name.clone(),
            target: p.target,
            form: p.form,
            keys: p.times.len(),
            max_error: p.max_error,
            destination: binding::describe(p),
            note: p.note.clone(),
            runtime: options.runtime,
            warning: p.warning.clone(),
        })
        .collect();
    let tracks = binding::merge(tracks);
    let bytes = match format {
        Format::Csv => csv::csv(project, &tracks, options.fps),
        Format::ThreeJson => three::three_json(&tracks)?,
        Format::Gltf => {
            let (root, bin) = gltf::gltf_root(&tracks, project.skeleton.as_ref(), true);
            root.to_vec_pretty().map_err(|e| ExportError::Encode(e.to_string())).map(|mut v| {
                v.push(b'\n');
                drop(bin);
                v
            })?
        }
        Format::Glb => {
            let (root, bin) = gltf::gltf_root(&tracks, project.skeleton.as_ref(), false);
            gltf::glb(&root.to_vec().map_err(|e| ExportError::Encode(e.to_string()))?, &bin)
        }
    };
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
    crate::io::write_atomically(path, &bytes).map_err(|error| ExportError::Io { path: path.display().to_string(), error })?;
    Ok(report)
}

/// A track name as three.js names the object: `PropertyBinding.sanitizeNodeName` (spaces
/// become `_`; `[ ] . : /` are dropped), so the track can bind to it.
#[must_use]
pub fn three_node_name(name: &str) -> String {
    name.chars().filter(|c| !"[].:/".contains(*c)).map(|c| if c.is_whitespace() { '_' } else { c }).collect()
}

#[cfg(test)]
mod segment_tests;
#[cfg(test)]
mod tests;
