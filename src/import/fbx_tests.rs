//! FBX import: keys against what Blender 3.4's own FBX importer reads from the same files
//! (within float32: Blender keeps keys as float32), the curve between keys against ufbx's own
//! evaluation, the rotation order against ufbx's Euler matrices, the union-of-times
//! conversion by hand, and broken files.

use std::collections::BTreeMap;

use super::super::{import_bytes, ImportError, ImportFormat, ImportOptions, Imported};
use super::{track_keys, Curve, FbxKey, Segment};
use crate::euler::{self, EulerOrder};
use crate::model::{Binding, GltfProperty, Infinity, Interpolation, Key, Track, TrackKind};
use crate::TrackCurve;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/import-samples/fbx/");

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}{name}")).unwrap()
}

fn import(name: &str, animation: Option<&str>) -> Result<Imported, ImportError> {
    let options = ImportOptions { animation: animation.map(str::to_owned), ..ImportOptions::default() };
    import_bytes(&bytes(name), ImportFormat::Fbx, name, None, &options)
}

/// What Blender's importer read: per F-curve label, its keys `(seconds, value)`.
fn blender(name: &str) -> BTreeMap<String, Vec<(f64, f64)>> {
    let text = std::fs::read_to_string(format!("{DIR}{}.blender_import.json", name.trim_end_matches(".fbx"))).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json[name]
        .as_object()
        .unwrap()
        .iter()
        .map(|(label, curve)| {
            let keys = curve["keys"].as_array().unwrap().iter().map(|k| (k[0].as_f64().unwrap(), k[1].as_f64().unwrap())).collect();
            assert_eq!(curve["ipo"], serde_json::json!(["LINEAR"]), "{label}: Blender's importer makes Linear keys");
            (label.clone(), keys)
        })
        .collect()
}

/// Within float32: `n` float32 steps of the larger of `|want|` and 1.
fn f32_close(got: f64, want: f64, n: f64) -> bool {
    (got - want).abs() <= n * f64::from(f32::EPSILON) * want.abs().max(1.0)
}

/// Largest difference in float32 steps, as [`f32_close`] measures it.
fn f32_steps(got: f64, want: f64) -> f64 {
    (got - want).abs() / (f64::from(f32::EPSILON) * want.abs().max(1.0))
}

fn track<'a>(imported: &'a Imported, name: &str) -> &'a Track {
    imported.project.track(name).unwrap_or_else(|| panic!("no track {name}"))
}

/// The shared sample (three empties, 9 stacks of Linear keys at every frame): for each object,
/// its `OBJECT|CrateAction` stack is what Blender's importer left on it. Blender converts the
/// file's centimetres to metres (UnitScaleFactor 1: ×0.01 on location and, for these root
/// objects, on scale); Tangent keeps the file's numbers, so the test scales them. Times, and
/// every location, rotation (radians; Blender's Euler filter kept the 3.5π turn) and scale
/// key, within 8 float32 steps (measured: times exact to 2e-16, values within 2.6 steps).
#[test]
fn shared_sample_keys_equal_blenders_import() {
    let truth = blender("sample_props.fbx");
    let scene = ufbx::load_memory(&bytes("sample_props.fbx"), ufbx::LoadOpts::default()).unwrap();
    let unit = scene.settings.unit_meters;
    assert_eq!(unit, 0.01);
    let (mut compared, mut worst) = (0, 0.0f64);
    for object in ["Crate", "Door", "Lamp"] {
        let imported = import("sample_props.fbx", Some(&format!("{object}|CrateAction"))).unwrap();
        for (suffix, blender_path, scale) in [("translation", "location", unit), ("rotation", "rotation_euler", 1.0), ("scale", "scale", unit)] {
            let t = track(&imported, &format!("{object}.{suffix}"));
            assert_eq!(t.interpolation, Interpolation::Linear);
            assert_eq!((t.kind == TrackKind::Euler, t.order), (suffix == "rotation", EulerOrder::XYZ));
            for axis in 0..3 {
                let want = &truth[&format!("{object}.{blender_path}[{axis}]")];
                assert_eq!(want.len(), t.keys.len(), "{object}.{suffix}");
                for (key, &(time, value)) in t.keys.iter().zip(want) {
                    assert!((key.time - time).abs() < 1e-12, "{object}.{suffix}: time {} vs {time}", key.time);
                    let got = key.value[axis] * scale;
                    worst = worst.max(f32_steps(got, value));
                    assert!(f32_close(got, value, 8.0), "{object}.{suffix}[{axis}] at {time}: {got} vs Blender's {value}");
                    compared += 1;
                }
            }
        }
        assert!(imported.report.warnings.is_empty(), "{:?}", imported.report.warnings);
    }
    assert_eq!(compared, 3 * 9 * 96);
    eprintln!("sample_props: {compared} keys, worst {worst:.2} float32 steps");
}

/// The made sample's rotations: every `Order_*` node (Blender's baked Linear keys, the node's
/// RotationOrder set) has the track order of its name, and its rotation at each of the 49
/// keys is the matrix Blender's importer made (it reads the angles in the node's order and
/// decomposes into XYZ), within 2e-6 (float32 matrices; measured below). Blender's XYZ
/// decomposition of another order is a different triple, so this holds the order itself.
#[test]
fn rotation_orders_as_blender_reads_them() {
    let truth = blender("curves_orders_shapes.fbx");
    let imported = import("curves_orders_shapes.fbx", None).unwrap();
    let mut worst = 0.0f64;
    for order in EulerOrder::ALL {
        let t = track(&imported, &format!("Order_{order}.rotation"));
        assert_eq!((t.kind, t.order, t.keys.len()), (TrackKind::Euler, order, 49));
        for (k, key) in t.keys.iter().enumerate() {
            let b = |axis: usize| truth[&format!("Order_{order}.rotation_euler[{axis}]")][k];
            assert!((b(0).0 - key.time).abs() < 1e-6);
            let want = euler::to_matrix(&[b(0).1, b(1).1, b(2).1], EulerOrder::XYZ);
            let got = euler::to_matrix(&[key.value[0], key.value[1], key.value[2]], order);
            worst = worst.max(euler::mat_distance(&want, &got));
            assert!(euler::mat_distance(&want, &got) < 2e-6, "Order_{order} key {k}");
        }
        // Read as XYZ, the other orders' keys would not be Blender's rotation.
        if order != EulerOrder::XYZ {
            let key = &t.keys[30];
            let b = |axis: usize| truth[&format!("Order_{order}.rotation_euler[{axis}]")][30].1;
            let as_xyz = euler::to_matrix(&[key.value[0], key.value[1], key.value[2]], EulerOrder::XYZ);
            assert!(euler::mat_distance(&euler::to_matrix(&[b(0), b(1), b(2)], EulerOrder::XYZ), &as_xyz) > 1e-2);
        }
    }
    eprintln!("rotation orders: worst matrix difference {worst:.2e}");
}

/// ufbx's own meaning of each `ufbx_rotation_order` (its Euler angles to a quaternion) is the
/// matrix of Tangent's order of the same name (FBX's `eEulerXYZ` applies X first, as
/// Blender's `XYZ`), within 1e-12.
#[test]
fn rotation_order_names_mean_the_same_matrix() {
    use ufbx::RotationOrder as R;
    let angles = [37.0f64, -121.0, 200.0];
    for (fbx, order) in [
        (R::Xyz, EulerOrder::XYZ),
        (R::Xzy, EulerOrder::XZY),
        (R::Yzx, EulerOrder::YZX),
        (R::Yxz, EulerOrder::YXZ),
        (R::Zxy, EulerOrder::ZXY),
        (R::Zyx, EulerOrder::ZYX),
    ] {
        let q = ufbx::euler_to_quat(ufbx::Vec3 { x: angles[0], y: angles[1], z: angles[2] }, fbx);
        let ufbx_matrix = crate::quat::to_matrix(&[q.x, q.y, q.z, q.w]);
        let ours = euler::to_matrix(&angles.map(f64::to_radians), order);
        assert!(euler::mat_distance(&ufbx_matrix, &ours) < 1e-12, "{order}: {ufbx_matrix:?} vs {ours:?}");
    }
}

/// The made sample's other curves, at the times Blender's importer reads exactly: a curve's
/// own keys (Blender keys every curve of an object at the union of their times, interpolating
/// linearly between a curve's keys whatever its interpolation, so elsewhere only on linear
/// segments). Hinge's location and scale, Face's shape key weights (DeformPercent / 100),
/// within 8 float32 steps; Hinge's ZXY rotation as matrices where all three angles are exact.
#[test]
fn made_sample_keys_equal_blenders_import() {
    let truth = blender("curves_orders_shapes.fbx");
    let imported = import("curves_orders_shapes.fbx", None).unwrap();
    let scene = ufbx::load_memory(&bytes("curves_orders_shapes.fbx"), ufbx::LoadOpts::default()).unwrap();
    let layer = &scene.anim_stacks[0].layers[0];
    let hinge = ufbx::find_node(&scene, "Hinge").unwrap();
    // Whether Blender's value of this curve at `t` is exact (a key, or on a linear segment).
    let exact = |curve: &ufbx::AnimCurve, t: f64| {
        let keys = &curve.keyframes;
        keys.iter().any(|k| (k.time - t).abs() < 1e-6 && k.interpolation != ufbx::Interpolation::ConstantNext)
            || keys.windows(2).any(|w| w[0].time < t && t < w[1].time && w[0].interpolation == ufbx::Interpolation::Linear)
    };
    let mut compared = 0;
    for (prop, suffix, path) in [("Lcl Translation", "translation", "location"), ("Lcl Scaling", "scale", "scale")] {
        let anim = ufbx::find_anim_prop(layer, &hinge.element, prop).unwrap();
        let t = track(&imported, &format!("Hinge.{suffix}"));
        let curve = TrackCurve::new(t).unwrap();
        let mut eval = curve.evaluator();
        for axis in 0..3 {
            let fbx = anim.anim_value.curves[axis].as_deref().unwrap();
            for &(time, value) in &truth[&format!("Hinge.{path}[{axis}]")] {
                if exact(fbx, time) {
                    let got = eval.value_at(time)[axis];
                    assert!(f32_close(got, value, 8.0), "Hinge.{suffix}[{axis}] at {time}: {got} vs Blender's {value}");
                    compared += 1;
                }
            }
        }
    }
    let rotation = track(&imported, "Hinge.rotation");
    assert_eq!((rotation.order, rotation.interpolation), (EulerOrder::ZXY, Interpolation::Bezier));
    let anim = ufbx::find_anim_prop(layer, &hinge.element, "Lcl Rotation").unwrap();
    let curve = TrackCurve::new(rotation).unwrap();
    let mut eval = curve.evaluator();
    let mut rotations = 0;
    for (k, &(time, _)) in truth["Hinge.rotation_euler[0]"].iter().enumerate() {
        if (0..3).all(|a| exact(anim.anim_value.curves[a].as_deref().unwrap(), time)) {
            let b: Vec<f64> = (0..3).map(|a| truth[&format!("Hinge.rotation_euler[{a}]")][k].1).collect();
            let v = eval.value_at(time);
            let d = euler::mat_distance(&euler::to_matrix(&[b[0], b[1], b[2]], EulerOrder::XYZ), &euler::to_matrix(&[v[0], v[1], v[2]], EulerOrder::ZXY));
            assert!(d < 2e-6, "Hinge rotation at {time}: {d}");
            rotations += 1;
        }
    }
    assert!(rotations >= 2 && compared >= 24, "{rotations} rotations, {compared} values");
    eprintln!("curves_orders_shapes: {compared} location and scale values, {rotations} rotations");
    // Face's channels in the mesh's order: Smile, Blink.
    for (i, shape) in ["Smile", "Blink"].iter().enumerate() {
        let t = track(&imported, &format!("Face.weights[{i}]"));
        assert!(matches!(t.binding, Some(Binding::Node { property: GltfProperty::Weights, element: Some(e), .. }) if e.index == i && e.count == 2));
        let want = &truth[&format!("Face.key_blocks[\"{shape}\"].value")];
        assert_eq!(t.keys.len(), want.len());
        for (key, &(time, value)) in t.keys.iter().zip(want) {
            assert!((key.time - time).abs() < 1e-6 && f32_close(key.value[0], value, 8.0), "{shape} at {time}: {} vs {value}", key.value[0]);
        }
    }
    assert_eq!(track(&imported, "Face.weights[0]").interpolation, Interpolation::Bezier);
    assert_eq!(track(&imported, "Face.weights[1]").interpolation, Interpolation::Linear);
    // Offset's pre-rotation and pivot are its joint's (one stack: a skeleton), not a warning.
    assert!(!imported.report.warnings.iter().any(|w| w.contains("\"Offset\"")), "{:?}", imported.report.warnings);
    let skeleton = imported.project.skeleton.as_ref().unwrap();
    let offset = &skeleton.joints[skeleton.joint("Offset").unwrap()];
    let pre = euler::to_quat(&[10f64.to_radians(), 20f64.to_radians(), 30f64.to_radians()], EulerOrder::XYZ);
    assert!(crate::quat::angle_between(&offset.pre_rotation.unwrap(), &pre) < 1e-12, "{offset:?}");
    assert_eq!((offset.rotation_pivot, offset.post_rotation, offset.rotation_offset), (Some([1.0, 2.0, 3.0]), None, None), "{offset:?}");
}

/// Several stacks imported at once get no skeleton: an animated node's pre-rotation (Arm of
/// the hierarchy, given a second stack) is named in a warning, since its tracks lose it.
#[test]
fn pivots_without_a_skeleton_are_named() {
    let text = String::from_utf8(bytes("hierarchy_ascii.fbx")).unwrap();
    let text = text
        .replacen(
            "\tAnimationLayer: 300,",
            "\tAnimationStack: 201, \"AnimStack::Take 002\", \"\" {\n\t}\n\tAnimationLayer: 301, \"AnimLayer::Second\", \"\" {\n\t}\n\tAnimationLayer: 300,",
            1,
        )
        .replacen("\tC: \"OO\",300,200\n", "\tC: \"OO\",300,200\n\tC: \"OO\",301,201\n\tC: \"OO\",402,301\n", 1);
    let imported = import_bytes(text.as_bytes(), ImportFormat::Fbx, "two_stacks.fbx", None, &ImportOptions::default()).unwrap();
    assert!(imported.project.skeleton.is_none() && imported.project.tracks.iter().any(|t| t.name == "Take 002/Arm.rotation"), "{:?}", imported.report);
    let arm: Vec<&String> = imported.report.warnings.iter().filter(|w| w.contains("\"Arm\"")).collect();
    assert!(arm.len() == 1 && arm[0].contains("PreRotation (0, 0, 45)"), "{:?}", imported.report.warnings);
}

#[path = "fbx_eval_tests.rs"]
mod eval;
