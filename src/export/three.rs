//! three.js `AnimationClip` JSON export, bound to objects named after the tracks.

use super::{three_node_name, ExportError, Form, Prepared, Target};
use crate::model::TrackKind;

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
/// interpolation?, settings?}], uuid, blendMode}`; `AnimationClip.parse` reads it back.
pub(super) fn three_json(tracks: &[Prepared]) -> Result<Vec<u8>, ExportError> {
    let duration = tracks.iter().filter_map(|p| p.times.last()).fold(0.0f64, |a, &b| a.max(b));
    let json_tracks: Vec<serde_json::Value> = tracks
        .iter()
        .map(|p| {
            let (name, ty) = three_binding(p);
            let mut t = serde_json::json!({ "name": name, "times": p.times, "values": p.values, "type": ty });
            if p.form == Form::Step {
                t["interpolation"] = serde_json::json!(2300);
            }
            if let (Form::Bezier, Some((ins, outs))) = (p.form, &p.tangents) {
                // three.js r187 InterpolateBezier, with its control points.
                t["interpolation"] = serde_json::json!(2303);
                t["settings"] = serde_json::json!({ "inTangents": ins, "outTangents": outs });
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
