//! The blend sliders against Blender 3.4's own operators (`bpy.ops.graph.blend_to_neighbor`,
//! `bpy.ops.graph.breakdown`) on a 9-key curve with runs selected in the middle and at both
//! ends, five factors each (`tests/reference/blender_blend_tools.json`, made by
//! `tools/blender/blend_tools_reference.py`; Blender 3.4 has no Blend to Ease, the file says so).

use tangent::blend::{blend_keys, BlendTool};
use tangent::{Interpolation, Key, Track, TrackKind};

#[test]
fn blend_tools_match_blender() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reference/blender_blend_tools.json");
    let data: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let floats = |v: &serde_json::Value| -> Vec<f64> { v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect() };
    let (frames, before) = (floats(&data["frames"]), floats(&data["before"]));
    let track =
        Track::new("x", TrackKind::Scalar, Interpolation::Bezier).with_keys(frames.iter().zip(&before).map(|(&f, &v)| Key::new(f / 24.0, vec![v])).collect());
    let mut checked = 0;
    for case in data["cases"].as_array().unwrap() {
        let tool = match case["operator"].as_str().unwrap() {
            "blend_to_neighbor" => BlendTool::ToNeighbor,
            "breakdown" => BlendTool::Breakdown,
            other => panic!("{other}"),
        };
        let selected: Vec<usize> = case["selected"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect();
        let factor = case["factor"].as_f64().unwrap();
        let ours = blend_keys(&track, &selected, tool, factor).unwrap();
        for (i, (k, want)) in ours.keys.iter().zip(floats(&case["after"])).enumerate() {
            // Blender computes in float32: within 1e-6.
            assert!((k.value[0] - want).abs() <= 1e-6, "{tool:?} {selected:?} at {factor}: key {i} is {}, Blender {want}", k.value[0]);
        }
        checked += 1;
    }
    assert_eq!(checked, 40);
    assert_eq!(data["missing"][0]["operator"], "blend_to_ease");
}
