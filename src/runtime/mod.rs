//! How each runtime plays an exported track (issue 34): a model per runtime that turns the
//! keys a file holds ([`Written`]) into the curve that runtime plays ([`Played`]), built on
//! Tangent's own modes so the engine evaluates it.
//!
//! | runtime | STEP | LINEAR | CUBICSPLINE | three.js JSON Bezier / Smooth |
//! |---|---|---|---|---|
//! | [`Runtime::Spec`], [`Runtime::Three`] (glTF 2.0, three.js r187) | held | lerp, slerp for rotations | Hermite with the written tangents, rotations normalised | Bézier with the written control points (quaternions not normalised) / `CubicInterpolant` |
//! | [`Runtime::Blender`] (the glTF importer of Blender 4.2 LTS and later: 4.2, 4.5, 5.0) | held (`CONSTANT`) | lerp per component, rotations normalised | **tangents ignored**: Auto keys on a Continuous Acceleration F-curve, keys within 0.01 frames merged ([`blender`]) | not read |
//! | [`Runtime::Blender34`] (Blender 3.4's glTF importer) | held (`CONSTANT`) | lerp per component, rotations normalised | **tangents ignored**: AutoClamped keys on a Continuous Acceleration F-curve ([`blender`]) | not read |
//! | [`Runtime::Godot`] (Godot 3.2's glTF importer) | transforms resampled at 15 fps, then linear / slerp; weights held | transforms resampled; weights as written | **tangents misread** (Bézier with the raw tangents; rotations slerped); **weights dropped** ([`godot`]) | not read |
//!
//! The glTF specification and three.js r187 play the same curve (`conformance/check.mjs`
//! checks three.js against Tangent at 1,000 times), so they share one model, checked against
//! three.js itself on every form (`tests/runtime_three_reference.rs`). Blender's are in
//! [`blender`], checked against Blender 5.0.1's and 3.4.1's own imports
//! (`tests/runtime_blender_reference.rs`).
//! [`deviation`] measures how far a played curve is from the curve it was exported from;
//! [`blender_keys`] chooses keys a Blender's playback carries within a bound.

pub mod blender;
mod fit;
pub mod godot;
#[cfg(test)]
mod tests;

pub use fit::{blender_keys, model_track, BlenderKeys, MERGE_SLACK, MERGE_SPACING};

use clap::ValueEnum;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::curve::TrackCurve;
use crate::error::TrackError;
use crate::format::Form;
use crate::model::{Ending, HandleType, Interpolation, Key, Track, TrackKind};

/// Who plays the exported file (on the command line `spec`, `three`, `blender`, `blender-3.4`,
/// `godot`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ValueEnum)]
pub enum Runtime {
    /// The glTF 2.0 specification's interpolation (and Tangent's own).
    #[default]
    Spec,
    /// three.js r187 (`GLTFLoader`, `AnimationClip.parse`): plays as the specification does.
    Three,
    /// The newest Blender's glTF importer and F-curves (Blender 4.2 LTS and later; measured in
    /// 4.2.23, 4.5.15 and 5.0.1): Auto handles, keys within 0.01 frames merged.
    Blender,
    /// Blender 3.4's glTF importer and F-curves (the distribution's Blender).
    #[value(name = "blender-3.4")]
    Blender34,
    /// Godot 3.2's glTF importer (resampled at its import frame rate, 15 fps by default).
    Godot,
}

impl Runtime {
    pub const ALL: [Runtime; 5] = [Self::Spec, Self::Three, Self::Blender, Self::Blender34, Self::Godot];

    /// A name for reports and menus.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Spec => "glTF specification",
            Self::Three => "three.js r187",
            Self::Blender => "Blender 4.2+",
            Self::Blender34 => "Blender 3.4",
            Self::Godot => "Godot 3.2",
        }
    }

    /// Which Blender's glTF importer this runtime is, if it is one.
    #[must_use]
    pub fn blender(self) -> Option<blender::Version> {
        match self {
            Self::Blender => Some(blender::Version::V4_2),
            Self::Blender34 => Some(blender::Version::V3_4),
            Self::Spec | Self::Three | Self::Godot => None,
        }
    }
}

impl std::fmt::Display for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// One exported track as the file holds it: what a runtime reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    pub form: Form,
    /// Quaternions `(x, y, z, w)` (a glTF `rotation`, a three.js `.quaternion`).
    pub rotation: bool,
    /// Components per key (1 to 4).
    pub width: usize,
    /// Key times in seconds, as the file stores them (float32 in glTF).
    pub times: Vec<f64>,
    /// `width` values per key; for [`Form::CubicSpline`] `3 · width` (in-tangent, value,
    /// out-tangent, per second).
    pub values: Vec<f64>,
    /// For [`Form::Bezier`]: three.js' absolute `[t, v]` control points per key and component
    /// (`inTangents`, `outTangents`).
    pub tangents: Option<(Vec<f64>, Vec<f64>)>,
}

/// Why a runtime's curve could not be made.
#[derive(Debug, Error)]
pub enum RuntimeError {
    #[error("{runtime} does not read {form} keys (a three.js JSON form)")]
    Unsupported { runtime: Runtime, form: Form },
    #[error("keys of width {0}: a runtime model takes 1 to 4 components")]
    Width(usize),
    #[error(transparent)]
    Track(#[from] TrackError),
}

/// A track as a runtime plays it: `curve` interpolates the components as the runtime does;
/// for rotations the runtime then normalises them ([`Played::value_at`]), except three.js on
/// a quaternion `InterpolateBezier` track, which it plays per component as they come (the
/// object then also scales by |q|²; measured against three.js r187 in
/// `tests/runtime_three_reference.rs`).
#[derive(Clone, Debug)]
pub struct Played {
    curve: TrackCurve,
    rotation: bool,
    normalised: bool,
}

impl Played {
    /// The components as the runtime interpolates them (for Blender: what each F-curve
    /// evaluates to, in glTF's axes), before any normalising.
    #[must_use]
    pub fn curve(&self) -> &TrackCurve {
        &self.curve
    }

    /// Whether the values are quaternions the runtime normalises.
    #[must_use]
    pub fn rotation(&self) -> bool {
        self.rotation
    }

    /// Whether the runtime normalises the quaternions it interpolates.
    #[must_use]
    pub fn normalised(&self) -> bool {
        self.normalised
    }

    /// The value played at `t` seconds (a unit quaternion for rotations the runtime
    /// normalises).
    #[must_use]
    pub fn value_at(&self, ev: &mut crate::curve::Evaluator<'_>, t: f64) -> Vec<f64> {
        let mut v = ev.value_at(t);
        if self.normalised {
            let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            if n > 0.0 {
                v.iter_mut().for_each(|x| *x /= n);
            }
        }
        v
    }
}

/// The kind of a track of `width` plain components.
fn vector_kind(width: usize) -> Result<TrackKind, RuntimeError> {
    match width {
        1 => Ok(TrackKind::Scalar),
        2 => Ok(TrackKind::Vec2),
        3 => Ok(TrackKind::Vec3),
        4 => Ok(TrackKind::Vec4),
        w => Err(RuntimeError::Width(w)),
    }
}

/// The curve `runtime` plays for `written`; Blender (either) at [`blender::FACTORY_FPS`]; Godot as a
/// node's transform at [`godot::DEFAULT_FPS`] over the written keys' span (a weights channel
/// or another animation length: [`godot::play`]).
///
/// # Errors
/// A three.js JSON form asked of Blender, a width the models do not take, or keys no track
/// can hold (not finite, out of order).
pub fn play(runtime: Runtime, written: &Written) -> Result<Played, RuntimeError> {
    match runtime {
        Runtime::Spec | Runtime::Three => spec(written),
        Runtime::Blender => blender::play(blender::Version::V4_2, written, blender::FACTORY_FPS),
        Runtime::Blender34 => blender::play(blender::Version::V3_4, written, blender::FACTORY_FPS),
        Runtime::Godot => {
            let length = written.times.last().copied().unwrap_or(0.0);
            godot::play(written, godot::Channel::Transform, godot::DEFAULT_FPS, length)
        }
    }
}

/// The glTF specification's (and three.js r187's) curve: STEP held, LINEAR lerped (rotations
/// slerped), CUBICSPLINE as Hermite segments with the written per-second tangents (rotations
/// normalised after), as Free Bézier handles a third of each segment away (exactly the Hermite
/// cubic, as Tangent's glTF import reads them); three.js' Bezier keys with their control points
/// (quaternions per component, not normalised: three.js r187 does not), Smooth keys through
/// three.js' `CubicInterpolant` (zero-curvature ends).
fn spec(w: &Written) -> Result<Played, RuntimeError> {
    // three.js plays a quaternion Bezier track per component, without normalising.
    let normalised = w.rotation && w.form != Form::Bezier;
    let kind = if normalised { TrackKind::Quat } else { vector_kind(w.width)? };
    let d = w.width;
    let n = w.times.len();
    let key = |i: usize, stride: usize, first: usize| Key::new(w.times[i], w.values[i * stride + first..i * stride + first + d].to_vec());
    let track = match w.form {
        Form::Step => Track::new("played", kind, Interpolation::Step).with_keys((0..n).map(|i| key(i, d, 0)).collect::<Vec<Key>>()),
        Form::Linear | Form::Baked => {
            let mode = if w.rotation { Interpolation::Slerp } else { Interpolation::Linear };
            Track::new("played", kind, mode).with_keys((0..n).map(|i| key(i, d, 0)).collect::<Vec<Key>>())
        }
        Form::CubicSpline => {
            let span = |i: usize| if i + 1 < n { w.times[i + 1] - w.times[i] } else { 0.0 };
            let keys: Vec<Key> = (0..n)
                .map(|i| {
                    let (before, after) = (if i > 0 { span(i - 1) } else { 0.0 }, span(i));
                    let a = &w.values[3 * d * i..3 * d * i + d];
                    let b = &w.values[3 * d * i + 2 * d..3 * d * (i + 1)];
                    let left = a.iter().map(|a| (-before / 3.0, -a * before / 3.0)).collect();
                    let right = b.iter().map(|b| (after / 3.0, b * after / 3.0)).collect();
                    key(i, 3 * d, d).with_handles((HandleType::Free, HandleType::Free), left, right)
                })
                .collect();
            Track::new("played", kind, Interpolation::Bezier).with_keys(keys)
        }
        Form::Bezier => {
            let (ins, outs) = w.tangents.as_ref().ok_or(RuntimeError::Unsupported { runtime: Runtime::Spec, form: w.form })?;
            let keys: Vec<Key> = (0..n)
                .map(|i| {
                    let k = key(i, d, 0);
                    let at = |points: &[f64], c: usize| (points[2 * (i * d + c)] - k.time, points[2 * (i * d + c) + 1] - k.value[c]);
                    let (left, right) = ((0..d).map(|c| at(ins, c)).collect(), (0..d).map(|c| at(outs, c)).collect());
                    k.with_handles((HandleType::Free, HandleType::Free), left, right)
                })
                .collect();
            Track::new("played", kind, Interpolation::Bezier).with_keys(keys)
        }
        Form::Smooth => {
            let mut t = Track::new("played", kind, Interpolation::Cubic).with_keys((0..n).map(|i| key(i, d, 0)).collect::<Vec<Key>>());
            (t.ending_start, t.ending_end) = (Ending::ZeroCurvature, Ending::ZeroCurvature);
            t
        }
    };
    Ok(Played { curve: TrackCurve::new(&track)?, rotation: w.rotation, normalised })
}

/// The largest distance between what `played` plays and `original` over the union of both
/// curves' keys (beyond them both hold or extrapolate as compiled): Euclidean over the
/// components, exact per cubic piece where both are cubics in time
/// ([`crate::reduce::measure::max_difference`]); for rotations the angle in radians between
/// the normalised played quaternion and the original's rotation (a Quat or Euler track), at
/// [`crate::reduce::measure::DENSE_POINTS`] points per piece.
#[must_use]
pub fn deviation(original: &TrackCurve, played: &Played) -> f64 {
    if played.rotation {
        rotation_deviation(original, played)
    } else {
        crate::reduce::measure::max_difference(original, &played.curve, f64::MIN_POSITIVE).0
    }
}

fn rotation_deviation(original: &TrackCurve, played: &Played) -> f64 {
    let cuts = original.key_times_with(&played.curve);
    let (mut cursor, mut scratch) = (crate::search::SegmentCursor::new(), vec![0.0; original.dim()]);
    let mut ev = played.curve.evaluator();
    let mut angle = |t: f64| {
        let a = original.rotation_at(&mut cursor, t, &mut scratch).unwrap_or(crate::quat::IDENTITY);
        crate::reduce::rotation::angle_deg(&a, &played.value_at(&mut ev, t)).to_radians()
    };
    let steps = crate::reduce::measure::DENSE_POINTS;
    let mut worst: f64 = 0.0;
    for w in cuts.windows(2) {
        for i in 0..steps {
            worst = worst.max(angle(w[0] + (w[1] - w[0]) * i as f64 / steps as f64));
        }
    }
    cuts.last().map_or(worst, |&t| worst.max(angle(t)))
}
