//! Blender's glTF importer as a runtime, in two versions ([`Version`]): Blender 3.4's
//! (`io_scene_gltf2/blender/imp/gltf2_blender_animation_node.py` and
//! `gltf2_blender_animation_utils.py`, read in Blender 3.4.1's install), and the newest's
//! (`io_scene_gltf2/blender/imp/animation_node.py`, `animation_utils.py`: 4.2 LTS to 5.0,
//! measured alike in 4.2.23, 4.5.15 and 5.0.1):
//!
//! - **times**: a key at `time × fps` frames of the scene's frame rate (24 in a factory scene),
//!   not rounded to whole frames; Blender stores the frame as float32. A frame `f` plays at
//!   `f / fps` s, so the rate enters only through that rounding (and, in 4.2+, the merge).
//! - **STEP** keys become `CONSTANT` keys, **LINEAR** keys `LINEAR` ones, per component: a
//!   rotation's four components are interpolated one by one and normalised when Blender
//!   builds the object's matrix (not slerped).
//! - **CUBICSPLINE**: `values = values[1::3]` ("TODO manage tangent?"): the in- and
//!   out-tangents are dropped and the keys become `BEZIER` keys. The importer asks for `AUTO`
//!   handles. Measured in Blender 3.4.1 the keys it makes are `AUTO_CLAMPED` (its `foreach_set`
//!   of the handle types does not take); in 4.2+ they are `AUTO`, as asked
//!   ([`Version::handles`]). Both on F-curves with the new-curve default Auto Handle
//!   Smoothing, `CONT_ACCEL`; `fcurve.update()` then computes the handles. The model is a
//!   Tangent Bezier track with those keys and [`AutoSmoothing::ContinuousAcceleration`], which
//!   the engine's handle rules (Blender's, `crate::bezier`) resolve as Blender does. Auto
//!   handles overshoot a key where Auto Clamped ones would be flat.
//! - **merged keys** (4.2+; since 3.6): `fcurve.update()`, which the importer calls on every
//!   F-curve it makes, also deduplicates the keys (`BKE_fcurve_deduplicate_keys`): a key at
//!   most [`MERGE_FRAMES`] (float32) after the kept one before it replaces it, at the kept
//!   key's frame unless its own frame is whole ([`merged`]). Blender 3.4 keeps every key.
//!   Measured in 5.0.1 (`tests/runtime_blender_reference.rs`: `close_keys` at 24 and 30 fps).
//! - **rotations**: before that, each quaternion is turned into the hemisphere of the one
//!   before it (`values[i].dot(values[i-1]) < 0` negates it).
//! - **axes**: glTF's Y-up becomes Z-up: translation `(x, −z, y)`, rotation `(w, x, −z, y)`,
//!   scale `(x, z, y)` ([`fcurve_of`]). Each is a signed permutation of the components, with
//!   which per-component interpolation, Auto and AutoClamped handles (symmetric in sign), the
//!   smoothing solve (linear), the merge (per key, the same for every component) and
//!   normalising commute: the model plays in glTF's axes.
//! - Beyond the keys an F-curve holds its end values (`CONSTANT` extrapolation), as glTF does.

use super::{vector_kind, Played, Runtime, RuntimeError, Written};
use crate::curve::TrackCurve;
use crate::format::{Form, Target};
use crate::model::{AutoSmoothing, HandleType, Interpolation, Key, Track, TrackKind};

/// The frame rate of Blender's factory-settings scene, where the importer puts keys unless
/// the scene was set to another rate before the import.
pub const FACTORY_FPS: f64 = 24.0;

/// Keys this close in frames or closer are merged by Blender 3.6 and later
/// (`BEZT_BINARYSEARCH_THRESH`, a float32 0.01).
pub const MERGE_FRAMES: f32 = 0.01;

/// Which Blender's glTF importer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Version {
    /// Blender 3.4 (the distribution's 3.4.1): AutoClamped handles, every key kept.
    V3_4,
    /// Blender 4.2 LTS and later (4.2.23, 4.5.15, 5.0.1): Auto handles, keys within
    /// [`MERGE_FRAMES`] merged.
    V4_2,
}

impl Version {
    /// The runtime that is this Blender.
    #[must_use]
    pub fn runtime(self) -> Runtime {
        match self {
            Self::V3_4 => Runtime::Blender34,
            Self::V4_2 => Runtime::Blender,
        }
    }

    /// The handle type of the Bezier keys the importer makes of CUBICSPLINE keys.
    #[must_use]
    pub fn handles(self) -> HandleType {
        match self {
            Self::V3_4 => HandleType::AutoClamped,
            Self::V4_2 => HandleType::Auto,
        }
    }

    /// Whether the importer's `fcurve.update()` merges keys within [`MERGE_FRAMES`].
    #[must_use]
    pub fn merges(self) -> bool {
        match self {
            Self::V3_4 => false,
            Self::V4_2 => true,
        }
    }
}

/// A key time as Blender stores it: `f32(time × fps)` frames, back in seconds.
#[must_use]
pub fn key_time(time: f64, fps: f64) -> f64 {
    f64::from(key_frame(time, fps)) / fps
}

/// The float32 frame Blender stores a key at `time` seconds at (`time` read as float32 first,
/// as the GLB holds it).
#[must_use]
#[allow(clippy::cast_possible_truncation)]
pub fn key_frame(time: f64, fps: f64) -> f32 {
    (f64::from(time as f32) * fps) as f32
}

/// The keys `BKE_fcurve_deduplicate_keys` keeps of keys at float32 `frames` (sorted): per kept
/// key the index of the key whose frame it is at and of the key whose value (and everything
/// else) it holds. Walking forward, a key at most [`MERGE_FRAMES`] after the kept key before it
/// replaces that key ("the last one wins"), which stays at its frame — the anchor the next keys
/// are compared with — unless the replacing key's own frame is whole, which it then takes. The
/// difference is taken in float32, as Blender does (100.01 is 0.0100021 frames after 100 in
/// float32: kept).
#[must_use]
pub fn merged(frames: &[f32]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(frames.len());
    for (i, &f) in frames.iter().enumerate() {
        match out.last_mut() {
            Some(kept) if f - frames[kept.0] <= MERGE_FRAMES => {
                *kept = (if f.floor() == f { i } else { kept.0 }, i);
            }
            _ => out.push((i, i)),
        }
    }
    out
}

/// The values of the keys Blender keeps (a CUBICSPLINE key's value, not its tangents), a
/// rotation's turned into the hemisphere of the key before.
#[must_use]
pub fn key_values(w: &Written) -> Vec<Vec<f64>> {
    let d = w.width;
    let stride = if w.form == Form::CubicSpline { 3 * d } else { d };
    let first = if w.form == Form::CubicSpline { d } else { 0 };
    let mut out: Vec<Vec<f64>> = (0..w.times.len()).map(|i| w.values[i * stride + first..i * stride + first + d].to_vec()).collect();
    if w.rotation {
        for i in 1..out.len() {
            if out[i].iter().zip(&out[i - 1]).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
                out[i].iter_mut().for_each(|x| *x = -*x);
            }
        }
    }
    out
}

/// The curve `version` of Blender plays for `written` after importing it into a scene at
/// `fps`.
///
/// # Errors
/// three.js JSON forms (Blender's glTF importer does not read them), a width above 4, keys
/// that are not finite.
pub fn play(version: Version, w: &Written, fps: f64) -> Result<Played, RuntimeError> {
    played(version, w, fps, |t| key_time(t, fps))
}

/// [`play`] with the keys at the written times, not rounded to float32 frames: what export
/// measures, as its other reports leave float32 out. Keys merge as at [`FACTORY_FPS`] (the
/// merged keys at the written time of the key whose frame Blender keeps).
///
/// # Errors
/// As [`play`].
pub fn play_unrounded(version: Version, w: &Written) -> Result<Played, RuntimeError> {
    played(version, w, FACTORY_FPS, |t| t)
}

/// Indices of the keys `version` keeps of `w` in a scene at `fps` ([`merged`]; every key where
/// it does not merge).
#[must_use]
pub fn kept(version: Version, w: &Written, fps: f64) -> Vec<(usize, usize)> {
    if version.merges() {
        merged(&w.times.iter().map(|&t| key_frame(t, fps)).collect::<Vec<_>>())
    } else {
        (0..w.times.len()).map(|i| (i, i)).collect()
    }
}

fn played(version: Version, w: &Written, fps: f64, time: impl Fn(f64) -> f64) -> Result<Played, RuntimeError> {
    let interpolation = match w.form {
        Form::Step => Interpolation::Step,
        Form::Linear | Form::Baked => Interpolation::Linear,
        Form::CubicSpline => Interpolation::Bezier,
        Form::Bezier | Form::Smooth => return Err(RuntimeError::Unsupported { runtime: version.runtime(), form: w.form }),
    };
    let values = key_values(w);
    let keys = kept(version, w, fps).into_iter().map(|(at, of)| Key::new(time(w.times[at]), values[of].clone())).collect();
    Ok(Played { curve: TrackCurve::new(&bezier_track(version, vector_kind(w.width)?, interpolation, keys))?, rotation: w.rotation, normalised: w.rotation })
}

/// A track of `keys` as `version`'s importer makes its F-curves: its automatic handles
/// ([`Version::handles`]), Continuous Acceleration, Constant extrapolation.
pub(super) fn bezier_track(version: Version, kind: TrackKind, interpolation: Interpolation, keys: Vec<Key>) -> Track {
    let handles = version.handles();
    let keys: Vec<Key> = keys.into_iter().map(|k| Key { handles: (handles, handles), ..k }).collect();
    let mut track = Track::new("played", kind, interpolation).with_keys(keys);
    track.auto_smoothing = AutoSmoothing::ContinuousAcceleration;
    track
}

/// The F-curve glTF component `c` of a channel to `target` becomes in Blender: its data path,
/// array index and the sign Blender's axis conversion gives it; `None` for targets the importer
/// does not animate this way. Weights go to shape key `c`'s `value` (path
/// `key_blocks["NAME"].value`, index 0).
#[must_use]
pub fn fcurve_of(target: Target, c: usize) -> Option<(&'static str, usize, f64)> {
    match (target, c) {
        (Target::Translation, 0) => Some(("location", 0, 1.0)),
        (Target::Translation, 1) => Some(("location", 2, 1.0)),
        (Target::Translation, 2) => Some(("location", 1, -1.0)),
        (Target::Rotation, 0) => Some(("rotation_quaternion", 1, 1.0)),
        (Target::Rotation, 1) => Some(("rotation_quaternion", 3, 1.0)),
        (Target::Rotation, 2) => Some(("rotation_quaternion", 2, -1.0)),
        (Target::Rotation, 3) => Some(("rotation_quaternion", 0, 1.0)),
        (Target::Scale, 0) => Some(("scale", 0, 1.0)),
        (Target::Scale, 1) => Some(("scale", 2, 1.0)),
        (Target::Scale, 2) => Some(("scale", 1, 1.0)),
        (Target::Weights, _) => Some(("value", 0, 1.0)),
        _ => None,
    }
}
