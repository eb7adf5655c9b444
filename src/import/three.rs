//! three.js clip JSON import (SPEC §11): what `AnimationClip.toJSON` writes (one clip, a list
//! of clips, or an object whose `animations` holds them, as `Object3D.toJSON` does), read as
//! three.js r187's `AnimationClip.parse` reads it.
//!
//! | track `type` | values per key | track |
//! |---|---|---|
//! | `number` (`scalar`, `float`, …) | 1 | Scalar |
//! | `vector`, `color` | 1, 2, 3, 4 | Scalar, Vec2, Vec3, Vec4 |
//! | `quaternion` | 4 | Quat |
//! | `bool` | 1 | Scalar 0/1, Step |
//! | `number`, `vector`, `bool` | k > 4 (or > 1 for numbers) | k Scalar tracks `NAME[i]` (morph influences), put back together on export |
//!
//! | `interpolation` | track |
//! |---|---|
//! | 2300 InterpolateDiscrete | Step |
//! | 2301 InterpolateLinear (the default) | Linear, Slerp for quaternions |
//! | 2302 InterpolateSmooth | Cubic, ZeroCurvature ends (three.js' default settings) |
//! | 2303 InterpolateBezier | Bezier, Free handles: per key and component, `settings.inTangents` and `outTangents` hold the absolute `[t, v]` of the handle ends, so `left = (in_t − t_k, in_v − v_k)` and `right = (out_t − t_k, out_v − v_k)` (the inverse of `export::bezier::three_tangents`) |
//!
//! As three.js does: a clip's `fps` divides its times (and tangent times); an
//! interpolation a type cannot use falls back to the type's default (quaternion Smooth →
//! Slerp, bool Linear → Step), with a warning; a Bezier track without tangents plays
//! linearly. `string` tracks cannot be held and are skipped with a warning. three.js'
//! Bezier quaternions are not normalised; Tangent's Bezier Quat tracks are (the same
//! rotation).

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::Value;

use super::{animation_labels, choose_animations, json_syntax, unique_name, Ctx, ImportError, ImportOptions, Read};
use crate::model::{Binding, Element, HandleType, Interpolation, Key, ThreeValueType, Track, TrackKind};

#[derive(Deserialize)]
struct Clip {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    fps: Option<f64>,
    tracks: Vec<Value>,
}

#[derive(Deserialize)]
struct JsonTrack {
    name: String,
    #[serde(rename = "type")]
    value_type: String,
    #[serde(default)]
    times: Option<Vec<f64>>,
    #[serde(default)]
    values: Option<Vec<Value>>,
    #[serde(default)]
    keys: Option<Vec<Value>>,
    #[serde(default)]
    interpolation: Option<Value>,
    #[serde(default)]
    settings: Option<Settings>,
}

#[derive(Deserialize)]
struct Settings {
    #[serde(default, rename = "inTangents")]
    in_tangents: Option<Vec<f64>>,
    #[serde(default, rename = "outTangents")]
    out_tangents: Option<Vec<f64>>,
}

const DISCRETE: i64 = 2300;
const LINEAR: i64 = 2301;
const SMOOTH: i64 = 2302;
const BEZIER: i64 = 2303;

/// Reads a three.js clip JSON file.
pub(super) fn read(bytes: &[u8], options: &ImportOptions, ctx: &Ctx<'_>) -> Result<Read, ImportError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let value: Value = serde_json::from_slice(bytes).map_err(|e| json_syntax(&e, ctx.path))?;
    let clips: Vec<Value> = match value {
        Value::Object(ref o) if o.contains_key("tracks") => vec![value],
        Value::Object(mut o) if o.get("animations").is_some_and(Value::is_array) => match o.remove("animations") {
            Some(Value::Array(a)) => a,
            _ => Vec::new(),
        },
        Value::Array(a) => a,
        _ => {
            return Err(ctx.invalid(
                "not a three.js animation clip: expected AnimationClip.toJSON's object with \"tracks\", a list of them, or an object with \"animations\"",
            ))
        }
    };
    let clips: Vec<Clip> = clips
        .into_iter()
        .enumerate()
        .map(|(i, c)| serde_json::from_value(c).map_err(|e| ctx.invalid(format!("clip {i} is not a three.js animation clip: {e}"))))
        .collect::<Result<_, _>>()?;
    let labels = animation_labels(clips.iter().map(|c| c.name.as_deref()), "clip");
    let (chosen, prefixed) = choose_animations(&labels, options, ctx)?;
    let total: usize = chosen.iter().map(|&c| clips[c].tracks.len()).sum();
    let (mut tracks, mut warnings, mut taken, mut done) = (Vec::new(), Vec::new(), HashSet::new(), 0);
    for &c in &chosen {
        let clip = &clips[c];
        let prefix = if prefixed { format!("{}/", labels[c]) } else { String::new() };
        // AnimationClip.parse: times scale by 1 / (json.fps || 1).
        let time_scale = clip.fps.filter(|f| *f != 0.0 && f.is_finite()).map_or(1.0, |f| 1.0 / f);
        for (i, json) in clip.tracks.iter().enumerate() {
            let here = |name: &str| format!("clip \"{}\", track {i} (\"{name}\")", labels[c]);
            let track: JsonTrack = serde_json::from_value(json.clone()).map_err(|e| ctx.invalid(format!("{}: {e}", here(""))))?;
            let read = read_track(track, time_scale, &mut warnings, &here).map_err(|m| ctx.invalid(m))?;
            for mut t in read {
                t.name = unique_name(format!("{prefix}{}", t.name), &mut taken);
                tracks.push(t);
            }
            done += 1;
            ctx.progress(done, total)?;
        }
    }
    Ok(Read { tracks, warnings, ..Read::default() })
}

/// The track's value type, or why it cannot be held.
fn value_type(name: &str) -> Result<Option<ThreeValueType>, String> {
    Ok(Some(match name.to_lowercase().as_str() {
        "scalar" | "double" | "float" | "number" | "integer" => ThreeValueType::Number,
        "vector" | "vector2" | "vector3" | "vector4" => ThreeValueType::Vector,
        "color" => ThreeValueType::Color,
        "quaternion" => ThreeValueType::Quaternion,
        "bool" | "boolean" => ThreeValueType::Bool,
        "string" => return Ok(None),
        other => return Err(format!("unknown track type \"{other}\"")),
    }))
}

/// One number from a JSON value: numbers as they are, booleans as 0 and 1.
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        _ => None,
    }
}

/// `times` and flat `values` from either form three.js reads: `times` and `values`, or
/// `keys: [{time, value}]` (`AnimationUtils.flattenJSON`).
fn times_and_values(track: &JsonTrack) -> Result<(Vec<f64>, Vec<f64>), String> {
    let flat = |values: &[Value]| -> Result<Vec<f64>, String> {
        values.iter().enumerate().map(|(i, v)| number(v).ok_or_else(|| format!("value {i} is {v}, not a number"))).collect()
    };
    match (&track.times, &track.values, &track.keys) {
        (Some(times), Some(values), _) => Ok((times.clone(), flat(values)?)),
        (Some(_), None, _) => Err("it has times but no values".to_owned()),
        (None, _, Some(keys)) => {
            let (mut times, mut values) = (Vec::new(), Vec::new());
            for (i, key) in keys.iter().enumerate() {
                let Some(value) = key.get("value") else { continue };
                times.push(key.get("time").and_then(Value::as_f64).ok_or_else(|| format!("key {i} has no time"))?);
                match value {
                    Value::Array(a) => values.extend(flat(a)?),
                    v => values.push(number(v).ok_or_else(|| format!("key {i}'s value is {v}, not a number"))?),
                }
            }
            Ok((times, values))
        }
        (None, _, None) => Err("it has neither times nor keys".to_owned()),
    }
}

/// The interpolation three.js plays a track with: its own if the type has it, else the
/// type's default (with a warning).
fn interpolation_of(track: &JsonTrack, ty: ThreeValueType, warn: &mut dyn FnMut(String)) -> i64 {
    let default = if ty == ThreeValueType::Bool { DISCRETE } else { LINEAR };
    let Some(v) = &track.interpolation else { return default };
    let code = v.as_i64().unwrap_or(-1);
    let usable = match code {
        DISCRETE | BEZIER => ty != ThreeValueType::Bool || code == DISCRETE,
        LINEAR => ty != ThreeValueType::Bool,
        SMOOTH => !matches!(ty, ThreeValueType::Bool | ThreeValueType::Quaternion),
        _ => false,
    };
    if usable {
        code
    } else {
        warn(format!("interpolation {v} does not apply to a {ty:?} track; three.js plays it with its default, as Tangent does"));
        default
    }
}

/// One JSON track as one or more tracks (several for a number track with several values
/// per key).
fn read_track(track: JsonTrack, time_scale: f64, warnings: &mut Vec<String>, here: &dyn Fn(&str) -> String) -> Result<Vec<Track>, String> {
    let at = here(&track.name);
    let Some(ty) = value_type(&track.value_type).map_err(|m| format!("{at}: {m}"))? else {
        warnings.push(format!("{at}: string tracks cannot be held; skipped"));
        return Ok(Vec::new());
    };
    let (mut times, values) = times_and_values(&track).map_err(|m| format!("{at}: {m}"))?;
    if times.is_empty() {
        return Err(format!("{at}: no keys"));
    }
    if values.is_empty() || values.len() % times.len() != 0 {
        return Err(format!("{at}: {} values for {} times; each key needs the same number of values", values.len(), times.len()));
    }
    for t in &mut times {
        *t *= time_scale;
    }
    if let Some(i) = (1..times.len()).find(|&i| times[i] < times[i - 1]) {
        return Err(format!("{at}: the times do not increase: time {i} ({}) is before time {} ({})", times[i], i - 1, times[i - 1]));
    }
    let size = values.len() / times.len();
    let mut warn = |m: String| warnings.push(format!("{at}: {m}"));
    let mut code = interpolation_of(&track, ty, &mut warn);
    let tangents = match (code, &track.settings) {
        (BEZIER, Some(Settings { in_tangents: Some(i), out_tangents: Some(o) })) => {
            let want = times.len() * size * 2;
            if i.len() != want || o.len() != want {
                return Err(format!(
                    "{at}: settings has {} inTangents and {} outTangents; {} keys of {size} values need {want} each",
                    i.len(),
                    o.len(),
                    times.len()
                ));
            }
            let scale = |v: &Vec<f64>| v.chunks(2).flat_map(|p| [p[0] * time_scale, p[1]]).collect::<Vec<f64>>();
            Some((scale(i), scale(o)))
        }
        (BEZIER, _) => {
            warn("an InterpolateBezier track without settings.inTangents/outTangents plays linearly in three.js; imported as Linear".to_owned());
            code = LINEAR;
            None
        }
        _ => None,
    };
    let (kind, split) = match (ty, size) {
        (ThreeValueType::Quaternion, 4) => (TrackKind::Quat, false),
        (ThreeValueType::Quaternion, n) => return Err(format!("{at}: a quaternion track needs 4 values per key, not {n}")),
        (ThreeValueType::Vector | ThreeValueType::Color, 2) => (TrackKind::Vec2, false),
        (ThreeValueType::Vector | ThreeValueType::Color, 3) => (TrackKind::Vec3, false),
        (ThreeValueType::Vector | ThreeValueType::Color, 4) => (TrackKind::Vec4, false),
        (_, 1) => (TrackKind::Scalar, false),
        _ => (TrackKind::Scalar, true),
    };
    let interpolation = match (code, kind) {
        (DISCRETE, _) => Interpolation::Step,
        (LINEAR, TrackKind::Quat) => Interpolation::Slerp,
        (LINEAR, _) => Interpolation::Linear,
        (SMOOTH, _) => Interpolation::Cubic,
        _ => Interpolation::Bezier,
    };
    let parts: Vec<(usize, usize, Option<Element>)> =
        if split { (0..size).map(|i| (i, 1, Some(Element { index: i, count: size }))).collect() } else { vec![(0, kind.dim(), None)] };
    let mut out = Vec::with_capacity(parts.len());
    for (first, dim, element) in parts {
        let name = match element {
            Some(e) => format!("{}[{}]", track.name, e.index),
            None => track.name.clone(),
        };
        let mut t = Track::new(name, kind, interpolation);
        t.binding = Some(Binding::Three { path: track.name.clone(), value_type: ty, element });
        t.keys = keys(&times, &values, size, first, dim, tangents.as_ref()).into();
        if tangents.is_some() && handles_reach_past_segment(&t.keys) {
            warn(format!("{}: Bézier handles reach past their segment or key; Tangent shortens them (as Blender does), three.js does not", t.name));
        }
        out.push(t);
    }
    Ok(out)
}

/// Keys of components `first..first + dim` (of `size` per key), with Free Bézier handles from
/// the absolute tangent points when there are some.
fn keys(times: &[f64], values: &[f64], size: usize, first: usize, dim: usize, tangents: Option<&(Vec<f64>, Vec<f64>)>) -> Vec<Key> {
    times
        .iter()
        .enumerate()
        .map(|(k, &t)| {
            let value: Vec<f64> = values[k * size + first..k * size + first + dim].to_vec();
            let Some((ins, outs)) = tangents else { return Key::new(t, value) };
            let handle = |points: &Vec<f64>, c: usize| {
                let at = 2 * (k * size + first + c);
                (points[at] - t, points[at + 1] - value[c])
            };
            let left = (0..dim).map(|c| handle(ins, c)).collect();
            let right = (0..dim).map(|c| handle(outs, c)).collect();
            Key::new(t, value.clone()).with_handles((HandleType::Free, HandleType::Free), left, right)
        })
        .collect()
}

/// Whether a handle points the wrong way in time or reaches past the neighbouring key (where
/// Tangent, like Blender, moves or shortens it and three.js does not).
fn handles_reach_past_segment(keys: &[Key]) -> bool {
    let wrong_side = keys.iter().any(|k| k.left.iter().any(|h| h.0 > 0.0) || k.right.iter().any(|h| h.0 < 0.0));
    let too_long = keys.windows(2).any(|w| {
        let len = w[1].time - w[0].time;
        w[0].right.iter().any(|h| h.0 > len) || w[1].left.iter().any(|h| -h.0 > len)
    });
    wrong_side || too_long
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(json: &str) -> Result<Vec<Track>, String> {
        let t: JsonTrack = serde_json::from_str(json).unwrap();
        read_track(t, 1.0, &mut Vec::new(), &|n: &str| n.to_owned())
    }

    #[test]
    fn bezier_tangents_become_free_handles() {
        let t = track(
            r#"{"name": "a.value", "type": "number", "times": [0, 2], "values": [1, 3], "interpolation": 2303,
                "settings": {"inTangents": [-0.5, 1, 1.5, 2.5], "outTangents": [0.5, 1.5, 2.5, 3]}}"#,
        )
        .unwrap();
        let k = &t[0].keys;
        assert_eq!(t[0].interpolation, Interpolation::Bezier);
        assert_eq!((k[0].left[0], k[0].right[0]), ((-0.5, 0.0), (0.5, 0.5)));
        assert_eq!((k[1].left[0], k[1].right[0]), ((-0.5, -0.5), (0.5, 0.0)));
    }

    #[test]
    fn types_sizes_and_fallbacks() {
        let q = track(r#"{"name": "o.quaternion", "type": "quaternion", "times": [0], "values": [0, 0, 0, 1], "interpolation": 2302}"#).unwrap();
        assert_eq!((q[0].kind, q[0].interpolation), (TrackKind::Quat, Interpolation::Slerp));
        let b = track(r#"{"name": "o.visible", "type": "bool", "times": [0, 1], "values": [true, false]}"#).unwrap();
        assert_eq!((b[0].interpolation, b[0].keys.value(0)[0], b[0].keys.value(1)[0]), (Interpolation::Step, 1.0, 0.0));
        let m = track(r#"{"name": "f.morphTargetInfluences", "type": "number", "times": [0, 1], "values": [0, 1, 2, 3, 4, 5]}"#).unwrap();
        assert_eq!(m.len(), 3);
        assert_eq!((m[2].name.as_str(), m[2].keys.value(1)[0]), ("f.morphTargetInfluences[2]", 5.0));
        let c = track(r#"{"name": "l.color", "type": "color", "keys": [{"time": 0, "value": [1, 0, 0]}]}"#).unwrap();
        assert_eq!(c[0].kind, TrackKind::Vec3);
        assert!(track(r#"{"name": "x", "type": "vector", "times": [0, 1], "values": [0, 1, 2]}"#).unwrap_err().contains("3 values for 2 times"));
        assert!(track(r#"{"name": "x", "type": "number", "times": [1, 0], "values": [0, 1]}"#).unwrap_err().contains("do not increase"));
        assert!(track(r#"{"name": "x", "type": "matrix", "times": [0], "values": [0]}"#).unwrap_err().contains("unknown track type"));
        assert!(track(r#"{"name": "s", "type": "string", "times": [0], "values": ["a"]}"#).unwrap().is_empty());
    }
}
