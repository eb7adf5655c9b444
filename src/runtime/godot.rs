//! Godot 3.2's glTF importer as a runtime (`editor/import/editor_scene_importer_gltf.cpp` of
//! Godot 3.2, `_interpolate_track` and `_import_animation`; checked against Godot 3.2.3 itself,
//! the distribution's `godot3-server`, in `tests/runtime_godot_reference.rs`):
//!
//! - **translation, rotation and scale are resampled**: every node's channels are evaluated
//!   at the import's frame rate (Import > Animation > FPS, 15 by default) from time 0, the
//!   time accumulated in float32 (`time += 1/fps`) up to the animation's length, where a last
//!   key is put; Godot then plays those keys linearly (rotations slerped).
//! - the channels are evaluated by Godot's own rules: STEP holds, LINEAR lerps (rotations:
//!   `slerp(…).normalized()`); **CUBICSPLINE** is a Bézier curve with control points
//!   `v₀ + b₀` and `v₁ + a₁` — the tangents neither scaled by the segment's length nor the
//!   in-tangent's sign turned, so Godot 3.2 plays CUBICSPLINE translations and scales off the
//!   specification — and for rotations a slerp between the keys (tangents ignored). Before
//!   the first key the first value, after the last the last.
//! - **morph target weights**: LINEAR and STEP keys are kept as they are (a value track, linear
//!   or nearest); **CUBICSPLINE weights are dropped**: Godot 3.2 computes the baked values and
//!   inserts no key, so the weights stay at the mesh's (0).
//! - The import's animation optimizer (on by default, lossy: 0.05 linear error) then removes
//!   keys; the model is of an import with it turned off (docs/export.md).
//!
//! Godot computes in float32; the model computes in float64 from the file's float32 numbers.

use super::{vector_kind, Played, Runtime, RuntimeError, Written};
use crate::curve::TrackCurve;
use crate::format::Form;
use crate::model::{Interpolation, Key, Track, TrackKind};
use crate::quat::Quat;

/// Godot 3.2's default import frame rate (Import > Animation > FPS).
pub const DEFAULT_FPS: f64 = 15.0;

/// What a channel drives in Godot: a node's transform (resampled) or a mesh's morph target
/// weights (value tracks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Transform,
    Weights,
}

/// The times Godot's import bakes a transform at: `0, 1/fps, …` accumulated in float32, and
/// `length` last (`_import_animation`).
#[must_use]
#[allow(clippy::cast_possible_truncation)]
pub fn bake_times(fps: f64, length: f64) -> Vec<f64> {
    let increment = 1.0f32 / fps as f32;
    let length = length as f32;
    let (mut time, mut out) = (0.0f32, Vec::new());
    loop {
        out.push(f64::from(time));
        if time >= length || out.len() > 10_000_000 {
            break;
        }
        time += increment;
        if time >= length {
            time = length;
        }
    }
    out
}

/// Godot's `Quat::slerp` followed by `normalized()`: the shorter arc, sine weights, a plain
/// lerp when the quaternions are within `CMP_EPSILON` (1e-5) of each other.
fn slerp(a: &[f64], b: &[f64], c: f64) -> Vec<f64> {
    let mut cos: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let sign = if cos < 0.0 { -1.0 } else { 1.0 };
    cos *= sign;
    let (s0, s1) = if 1.0 - cos > 1e-5 {
        let omega = cos.acos();
        let sin = omega.sin();
        (((1.0 - c) * omega).sin() / sin, (c * omega).sin() / sin)
    } else {
        (1.0 - c, c)
    };
    let q: Quat = std::array::from_fn(|i| s0 * a[i] + s1 * sign * b[i]);
    crate::quat::normalize(&q).to_vec()
}

/// The value of `w` at `t` by Godot 3.2's `_interpolate_track`.
fn interpolate(w: &Written, t: f64) -> Result<Vec<f64>, RuntimeError> {
    let (n, d) = (w.times.len(), w.width);
    let cubic = w.form == Form::CubicSpline;
    let value = |i: usize| if cubic { &w.values[(3 * i + 1) * d..(3 * i + 2) * d] } else { &w.values[i * d..(i + 1) * d] };
    // The last key at or before `t` (Godot's linear scan).
    let after = w.times.partition_point(|&k| k <= t);
    if after == 0 {
        return Ok(value(0).to_vec());
    }
    let i = after - 1;
    if i >= n - 1 {
        return Ok(value(n - 1).to_vec());
    }
    let c = (t - w.times[i]) / (w.times[i + 1] - w.times[i]);
    let (from, to) = (value(i), value(i + 1));
    Ok(match w.form {
        Form::Step => from.to_vec(),
        Form::Linear | Form::Baked if w.rotation => slerp(from, to, c),
        Form::Linear | Form::Baked => from.iter().zip(to).map(|(a, b)| a + (b - a) * c).collect(),
        Form::CubicSpline if w.rotation => slerp(from, to, c),
        Form::CubicSpline => {
            let out_tangent = &w.values[(3 * i + 2) * d..(3 * i + 3) * d];
            let in_tangent = &w.values[(3 * i + 3) * d..(3 * i + 4) * d];
            let (omt, t2) = (1.0 - c, c * c);
            (0..d)
                .map(|k| {
                    let (c1, c2) = (from[k] + out_tangent[k], to[k] + in_tangent[k]);
                    from[k] * omt * omt * omt + c1 * omt * omt * c * 3.0 + c2 * omt * t2 * 3.0 + to[k] * t2 * c
                })
                .collect()
        }
        Form::Bezier | Form::Smooth => return Err(RuntimeError::Unsupported { runtime: Runtime::Godot, form: w.form }),
    })
}

/// What Godot 3.2 plays of `w` driving `channel`, imported at `fps` in an animation `length`
/// seconds long (the largest key time of the channels the importer has read by then: the
/// file's largest when the longest channel's node comes first or all end together).
///
/// # Errors
/// A three.js JSON form, a width the model does not take, or keys no track can hold.
pub fn play(w: &Written, channel: Channel, fps: f64, length: f64) -> Result<Played, RuntimeError> {
    if w.times.is_empty() {
        return Err(RuntimeError::Width(0));
    }
    let track = match channel {
        Channel::Transform => {
            let (kind, mode) = if w.rotation { (TrackKind::Quat, Interpolation::Slerp) } else { (vector_kind(w.width)?, Interpolation::Linear) };
            let keys = bake_times(fps, length).into_iter().map(|t| Ok(Key::new(t, interpolate(w, t)?))).collect::<Result<Vec<_>, RuntimeError>>()?;
            Track::new("played", kind, mode).with_keys(keys)
        }
        Channel::Weights => {
            let kind = vector_kind(w.width)?;
            let keys = |w: &Written| (0..w.times.len()).map(|i| Key::new(w.times[i], w.values[i * w.width..(i + 1) * w.width].to_vec())).collect::<Vec<Key>>();
            match w.form {
                Form::Step => Track::new("played", kind, Interpolation::Step).with_keys(keys(w)),
                Form::Linear | Form::Baked => Track::new("played", kind, Interpolation::Linear).with_keys(keys(w)),
                // Baked and thrown away: the weights stay at the mesh's.
                _ => Track::new("played", kind, Interpolation::Step).with_keys(vec![Key::new(0.0, vec![0.0; w.width])]),
            }
        }
    };
    Ok(Played { curve: TrackCurve::new(&track)?, rotation: w.rotation, normalised: w.rotation })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cubic(values: Vec<f64>) -> Written {
        Written { form: Form::CubicSpline, rotation: false, width: 1, times: vec![0.0, 2.0], values, tangents: None }
    }

    /// By hand: keys 0 → 1 over 2 s with tangents (a, b) = (3, 5) out and (7, 11) in:
    /// Godot's control points are 0 + 3 = 3 and 1 + 7 = 8 (the specification's would be
    /// 0 + 3·2/3 = 2 and 1 − 7·2/3 = −11/3); at the middle (3·3 + 3·8 + 1)/8 = 34/8.
    #[test]
    fn cubicspline_is_a_bezier_with_the_raw_tangents() {
        let w = cubic(vec![0.0, 0.0, 3.0, 7.0, 1.0, 11.0]);
        assert_eq!(interpolate(&w, 1.0).unwrap(), vec![34.0 / 8.0]);
        assert_eq!(interpolate(&w, -1.0).unwrap(), vec![0.0]);
        assert_eq!(interpolate(&w, 5.0).unwrap(), vec![1.0]);
    }

    /// 15 fps up to 0.2 s in float32: 0, 1/15, 2/15 (≈ 0.1333), then 0.2 (3/15 in float32
    /// lands just above or on 0.2: the length itself is the last key).
    #[test]
    fn bake_times_accumulate_in_float32_and_end_at_the_length() {
        let t = bake_times(15.0, 0.2);
        assert_eq!(t.len(), 4, "{t:?}");
        assert_eq!(t[1], f64::from(1.0f32 / 15.0));
        assert_eq!(t[2], f64::from(1.0f32 / 15.0 + 1.0f32 / 15.0));
        assert_eq!(t[3], f64::from(0.2f32));
    }

    /// A CUBICSPLINE weight is dropped (0 everywhere); a LINEAR one kept as written.
    #[test]
    fn cubicspline_weights_are_dropped() {
        let played = play(&cubic(vec![0.0, 0.5, 0.0, 0.0, 1.0, 0.0]), Channel::Weights, 15.0, 2.0).unwrap();
        let mut ev = played.curve().evaluator();
        assert_eq!(played.value_at(&mut ev, 1.0), vec![0.0]);
        let linear = Written { form: Form::Linear, rotation: false, width: 1, times: vec![0.0, 2.0], values: vec![0.0, 1.0], tangents: None };
        let played = play(&linear, Channel::Weights, 15.0, 2.0).unwrap();
        let mut ev = played.curve().evaluator();
        assert_eq!(played.value_at(&mut ev, 0.5), vec![0.25]);
    }
}
