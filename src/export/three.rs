//! three.js `AnimationClip` JSON export: each track under the path its destination gives
//! (its imported three.js path, or an object named after the track, `docs/export.md`).

use super::binding::Dest;
use super::{ExportError, Form, Prepared};
use crate::model::ThreeValueType;

/// The track's name and `ValueTypeName`.
fn three_binding(p: &Prepared) -> (String, &'static str) {
    let Dest::Three { path, value_type, .. } = &p.dest else { unreachable!("three.js tracks have three.js destinations (binding::dest)") };
    let ty = match value_type {
        ThreeValueType::Number => "number",
        ThreeValueType::Vector => "vector",
        ThreeValueType::Color => "color",
        ThreeValueType::Quaternion => "quaternion",
        ThreeValueType::Bool => "bool",
    };
    (path.clone(), ty)
}

/// three.js `AnimationClip.toJSON()`: `{name, duration, tracks: [{name, times, values, type,
/// interpolation?, settings?}], uuid, blendMode}`; `AnimationClip.parse` reads it back.
pub(super) fn three_json(tracks: &[Prepared]) -> Result<Vec<u8>, ExportError> {
    let duration = tracks.iter().filter_map(|p| p.times.last()).fold(0.0f64, |a, &b| a.max(b));
    let json_tracks: Vec<serde_json::Value> = tracks
        .iter()
        .map(|p| {
            let (name, ty) = three_binding(p);
            let values = if ty == "bool" { serde_json::json!(p.values.iter().map(|v| *v != 0.0).collect::<Vec<bool>>()) } else { serde_json::json!(p.values) };
            let mut t = serde_json::json!({ "name": name, "times": p.times, "values": values, "type": ty });
            match (p.form, &p.tangents) {
                (Form::Step, _) => t["interpolation"] = serde_json::json!(2300),
                (Form::Smooth, _) => t["interpolation"] = serde_json::json!(2302),
                (Form::Bezier, Some((ins, outs))) => {
                    // three.js r187 InterpolateBezier, with its control points.
                    t["interpolation"] = serde_json::json!(2303);
                    t["settings"] = serde_json::json!({ "inTangents": ins, "outTangents": outs });
                }
                _ => {}
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
