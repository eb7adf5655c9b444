//! Blender 3.4's glTF importer as a runtime (`io_scene_gltf2/blender/imp/
//! gltf2_blender_animation_node.py` and `gltf2_blender_animation_utils.py`, read in Blender
//! 3.4.1's install):
//!
//! - **times**: a key at `time × fps` frames of the scene's frame rate (24 in a factory scene),
//!   not rounded to whole frames; Blender stores the frame as float32. A frame `f` plays at
//!   `f / fps` s, so the rate enters only through that rounding.
//! - **STEP** keys become `CONSTANT` keys, **LINEAR** keys `LINEAR` ones, per component: a
//!   rotation's four components are interpolated one by one and normalised when Blender
//!   builds the object's matrix (not slerped).
//! - **CUBICSPLINE**: `values = values[1::3]` ("TODO manage tangent?"): the in- and
//!   out-tangents are dropped and the keys become `BEZIER` keys. The importer asks for `AUTO`
//!   handles, but measured in Blender 3.4.1 the keys it makes are `AUTO_CLAMPED` (its
//!   `foreach_set` of the handle types does not take), on F-curves with the new-curve default
//!   Auto Handle Smoothing, `CONT_ACCEL`; `fcurve.update()` then computes the handles. The
//!   model is a Tangent Bezier track with those keys and
//!   [`AutoSmoothing::ContinuousAcceleration`], which the engine's handle rules (Blender's,
//!   `crate::bezier`) resolve as Blender does.
//! - **rotations**: before that, each quaternion is turned into the hemisphere of the one
//!   before it (`values[i].dot(values[i-1]) < 0` negates it).
//! - **axes**: glTF's Y-up becomes Z-up: translation `(x, −z, y)`, rotation `(w, x, −z, y)`,
//!   scale `(x, z, y)` ([`fcurve_of`]). Each is a signed permutation of the components, with
//!   which per-component interpolation, AutoClamped's clamping (symmetric in sign), the
//!   smoothing solve (linear) and normalising commute: the model plays in glTF's axes.
//! - Beyond the keys an F-curve holds its end values (`CONSTANT` extrapolation), as glTF does.

use super::{vector_kind, Played, Runtime, RuntimeError, Written};
use crate::curve::TrackCurve;
use crate::export::{Form, Target};
use crate::model::{AutoSmoothing, Interpolation, Key, Track};

/// The frame rate of Blender's factory-settings scene, where the importer puts keys unless
/// the scene was set to another rate before the import.
pub const FACTORY_FPS: f64 = 24.0;

/// A key time as Blender stores it: `f32(time × fps)` frames, back in seconds.
#[must_use]
#[allow(clippy::cast_possible_truncation)]
pub fn key_time(time: f64, fps: f64) -> f64 {
    f64::from((f64::from(time as f32) * fps) as f32) / fps
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

/// The curve Blender 3.4 plays for `written` after importing it into a scene at `fps`.
///
/// # Errors
/// three.js JSON forms (Blender's glTF importer does not read them), a width above 4, keys
/// that are not finite.
pub fn play(w: &Written, fps: f64) -> Result<Played, RuntimeError> {
    played(w, |t| key_time(t, fps))
}

/// [`play`] with the keys at the written times, not rounded to float32 frames: what export
/// measures, as its other reports leave float32 out.
///
/// # Errors
/// As [`play`].
pub fn play_unrounded(w: &Written) -> Result<Played, RuntimeError> {
    played(w, |t| t)
}

fn played(w: &Written, time: impl Fn(f64) -> f64) -> Result<Played, RuntimeError> {
    let interpolation = match w.form {
        Form::Step => Interpolation::Step,
        Form::Linear | Form::Baked => Interpolation::Linear,
        Form::CubicSpline => Interpolation::Bezier,
        Form::Bezier | Form::Smooth => return Err(RuntimeError::Unsupported { runtime: Runtime::Blender, form: w.form }),
    };
    let values = key_values(w);
    let keys = w.times.iter().zip(values).map(|(&t, v)| Key::new(time(t), v)).collect();
    Ok(Played { curve: TrackCurve::new(&bezier_track(vector_kind(w.width)?, interpolation, keys))?, rotation: w.rotation, normalised: w.rotation })
}

/// A track of `keys` as Blender's importer makes its F-curves: Key::new's AutoClamped handles,
/// Continuous Acceleration, Constant extrapolation.
pub(super) fn bezier_track(kind: crate::model::TrackKind, interpolation: Interpolation, keys: Vec<Key>) -> Track {
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
