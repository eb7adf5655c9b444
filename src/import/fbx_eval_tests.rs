//! FBX import: every track's curve against ufbx's own evaluation of the FBX curves it came
//! from, the union-of-times conversion on hand-made curves, a hand-written ASCII file, the
//! animation choice, and truncated and garbled files.

use super::*;
use crate::bezier::SegmentComponent;

/// Each track of `name` against `ufbx_evaluate_curve` of the curves it came from (degrees to
/// radians, percent to weights): inside every interval between its key times (25 times an
/// interval), at the key times (but a constant-next key's own instant, where ufbx gives the
/// key's value and Tangent the next one, module docs) and over one key range beyond each end
/// (but a Cycle side's seams, where FBX starts the next cycle and Tangent, as Blender, ends one).
/// Returns how many values were compared and the largest difference inside the keys and
/// beyond them.
fn against_ufbx(name: &str) -> (usize, f64, f64) {
    let imported = import(name, None).unwrap();
    let scene = ufbx::load_memory(&bytes(name), ufbx::LoadOpts::default()).unwrap();
    let (mut compared, mut inside, mut beyond) = (0, 0.0f64, 0.0f64);
    for t in &imported.project.tracks {
        let Some(Binding::Node { animation, node, property, element }) = &t.binding else { panic!("{}: no node binding", t.name) };
        let stack = scene.anim_stacks.iter().find(|s| &*s.element.name == animation.as_str()).unwrap();
        let layer = &stack.layers[0];
        let node = ufbx::find_node(&scene, node).unwrap();
        let (element, prop, scale) = match property {
            GltfProperty::Translation => (&node.element, "Lcl Translation", 1.0),
            GltfProperty::Rotation => (&node.element, "Lcl Rotation", std::f64::consts::PI / 180.0),
            GltfProperty::Scale => (&node.element, "Lcl Scaling", 1.0),
            GltfProperty::Weights => {
                let mesh = node.mesh.as_ref().unwrap();
                let channel = mesh.blend_deformers.iter().flat_map(|d| d.channels.iter()).nth(element.unwrap().index).unwrap();
                (&channel.element, "DeformPercent", 0.01)
            }
        };
        let value = &ufbx::find_anim_prop(layer, element, prop).unwrap().anim_value;
        let held = [value.default_value.x, value.default_value.y, value.default_value.z];
        let fbx = |axis: usize, time: f64| match &value.curves[axis] {
            Some(c) => ufbx::evaluate_curve(c, time, held[axis]) * scale,
            None => held[axis] * scale,
        };
        let instant = |time: f64| {
            value.curves.iter().flatten().any(|c| c.keyframes.iter().any(|k| k.time == time && k.interpolation == ufbx::Interpolation::ConstantNext))
        };
        let mut times: Vec<f64> = t.keys.iter().map(|k| k.time).collect();
        times.dedup();
        let (first, last) = (times[0], times[times.len() - 1]);
        let range = (last - first).max(1.0);
        let mut samples: Vec<f64> = times.iter().copied().filter(|&x| !instant(x)).collect();
        for w in times.windows(2) {
            samples.extend((1..25).map(|i| w[0] + (w[1] - w[0]) * f64::from(i) / 25.0));
        }
        // At a seam of a Cycle side (last + kT, first − kT) ufbx, as FBX, starts the next
        // cycle; Tangent, as Blender's Cycles modifier, plays the key on the keys' side
        // (curve/infinity.rs). The two differ by the jump there: not compared.
        let period = last - first;
        let seam = |x: f64| {
            let (cycle, d) = if x > last { (t.post_infinity, x - last) } else { (t.pre_infinity, first - x) };
            cycle == Infinity::Cycle && period > 0.0 && d > 0.0 && ((d / period) - (d / period).round()).abs() < 1e-9
        };
        samples.extend((1..=40).flat_map(|i| [first - range * f64::from(i) / 40.0, last + range * f64::from(i) / 40.0]).filter(|&x| !seam(x)));
        let curve = TrackCurve::new(t).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        let mut eval = curve.evaluator();
        for &time in &samples {
            let got = eval.value_at(time);
            for (axis, &g) in got.iter().enumerate() {
                let want = fbx(if t.kind == TrackKind::Scalar { 0 } else { axis }, time);
                let worst = if (first..=last).contains(&time) { &mut inside } else { &mut beyond };
                *worst = worst.max((g - want).abs());
                assert!((g - want).abs() <= 1e-6, "{name}: {} [{axis}] at {time}: Tangent {g}, ufbx {want}", t.name);
                compared += 1;
            }
        }
    }
    (compared, inside, beyond)
}

/// Every track of the three files, between and beyond its keys, within 1e-6 of ufbx: the
/// shared sample (Linear), the made one (cubic with user and auto tangents and weights,
/// split at other curves' key times; constant and constant-next jumps; mirror and repeat
/// extrapolation; blend shape weights) and the hand-written ASCII one.
#[test]
fn curves_equal_ufbx_evaluation() {
    for name in ["sample_props.fbx", "curves_orders_shapes.fbx", "hand_ascii.fbx"] {
        let (compared, inside, beyond) = against_ufbx(name);
        eprintln!("{name}: {compared} values, largest difference from ufbx {inside:.1e} inside the keys, {beyond:.1e} beyond");
        assert!(compared > 400, "{name}: {compared}");
    }
    // The made file's Hinge holds what the comparison is for.
    let imported = import("curves_orders_shapes.fbx", None).unwrap();
    let hinge = track(&imported, "Hinge.rotation");
    assert_eq!(hinge.keys.len(), 8, "union of 0, 0.5, 0.75, 1, 1.25, 1.5, 2 with a jump at 1");
    let translation = track(&imported, "Hinge.translation");
    assert_eq!((translation.pre_infinity, translation.post_infinity), (Infinity::PingPong, Infinity::Cycle));
    assert_eq!(track(&imported, "Hinge.scale").interpolation, Interpolation::Step);
}

fn key(time: f64, value: f64, segment: Segment) -> FbxKey {
    FbxKey { time, value, segment, left: (0.0, 0.0), right: (0.0, 0.0) }
}

fn curve(keys: Vec<FbxKey>) -> Curve {
    Curve { keys, held: 0.0, pre: Infinity::Constant, post: Infinity::Constant }
}

fn values(keys: &[Key]) -> Vec<(f64, Vec<f64>)> {
    keys.iter().map(|k| (k.time, k.value.clone())).collect()
}

/// Linear curves at different times make a Linear track with the missing keys on the lines;
/// constant ones a Step track with the held values; an axis without a curve holds its value.
#[test]
fn linear_and_constant_curves_at_other_times() {
    let x = curve(vec![key(0.0, 0.0, Segment::Linear), key(1.0, 10.0, Segment::Linear), key(2.0, 0.0, Segment::Linear)]);
    let y = curve(vec![key(0.0, 4.0, Segment::Linear), key(2.0, 8.0, Segment::Linear)]);
    let z = Curve { held: 3.0, ..curve(Vec::new()) };
    let (interpolation, keys) = track_keys(&[x, y, z.clone()]);
    assert_eq!(interpolation, Interpolation::Linear);
    assert_eq!(values(&keys), [(0.0, vec![0.0, 4.0, 3.0]), (1.0, vec![10.0, 6.0, 3.0]), (2.0, vec![0.0, 8.0, 3.0])]);
    let x = curve(vec![key(0.0, 1.0, Segment::ConstantPrev), key(1.0, 2.0, Segment::ConstantNext), key(3.0, 5.0, Segment::ConstantPrev)]);
    let y = curve(vec![key(0.5, 7.0, Segment::ConstantPrev), key(2.0, 9.0, Segment::ConstantPrev)]);
    let (interpolation, keys) = track_keys(&[x, y, z]);
    assert_eq!(interpolation, Interpolation::Step);
    // Before its first key y holds 7; from 1 x holds the next key's 5 (constant-next).
    assert_eq!(
        values(&keys),
        [(0.0, vec![1.0, 7.0, 3.0]), (0.5, vec![1.0, 7.0, 3.0]), (1.0, vec![5.0, 7.0, 3.0]), (2.0, vec![5.0, 9.0, 3.0]), (3.0, vec![5.0, 9.0, 3.0])]
    );
}

/// A cubic segment split at another curve's key times draws the same curve: the track at 400
/// times equals the original segment (Tangent's own Bézier evaluation of it) within 1e-12,
/// and a constant curve's jump is two keys at one time, the value after it from then on.
#[test]
fn cubic_split_at_other_times_is_the_same_curve() {
    let a = FbxKey { time: 0.0, value: 1.0, segment: Segment::Cubic, left: (0.0, 0.0), right: (0.9, 6.0) };
    let b = FbxKey { time: 3.0, value: -2.0, segment: Segment::Cubic, left: (0.4, -3.0), right: (0.0, 0.0) };
    let x = curve(vec![a, b]);
    let y =
        curve(vec![key(0.0, 0.0, Segment::ConstantPrev), key(0.7, 1.0, Segment::Linear), key(1.9, 2.0, Segment::ConstantPrev), key(3.0, 0.5, Segment::Linear)]);
    let (interpolation, keys) = track_keys(&[x, y]);
    assert_eq!(interpolation, Interpolation::Bezier);
    assert_eq!(keys.iter().map(|k| k.time).collect::<Vec<_>>(), [0.0, 0.7, 0.7, 1.9, 3.0, 3.0]);
    let mut track = Track::new("t", TrackKind::Vec2, Interpolation::Bezier);
    track.keys = keys.into();
    let compiled = TrackCurve::new(&track).unwrap();
    let mut eval = compiled.evaluator();
    let original = SegmentComponent::new((0.0, 1.0), (0.9, 6.0), (-0.4, 3.0), (3.0, -2.0));
    for i in 1..400 {
        let t = 3.0 * f64::from(i) / 400.0;
        let want = original.value(original.parameter_at(t / 3.0));
        let got = eval.value_at(t);
        assert!((got[0] - want).abs() < 1e-12, "x at {t}: {} vs {want}", got[0]);
        let y = if t < 0.7 {
            0.0
        } else if t < 1.9 {
            1.0 + (t - 0.7) / 1.2
        } else {
            2.0
        };
        assert!((got[1] - y).abs() < 1e-12, "y at {t}: {} vs {y}", got[1]);
    }
    assert_eq!(eval.value_at(3.0), vec![-2.0, 0.5]);
}

/// A hand-written ASCII file is found by its content and read: RotationOrder ZYX (with
/// RotationActive), the constant-next jump, the axes without a curve at the node's value,
/// relative repeat and slope extrapolation (checked against ufbx in
/// `curves_equal_ufbx_evaluation`).
#[test]
fn ascii_file() {
    let data = bytes("hand_ascii.fbx");
    assert_eq!(ImportFormat::sniff(&data), ImportFormat::Fbx);
    assert_eq!(ImportFormat::sniff(&bytes("sample_props.fbx")), ImportFormat::Fbx);
    assert_eq!(ImportFormat::sniff(b"\n\n  FBXHeaderExtension:  {\n"), ImportFormat::Fbx);
    assert_eq!(ImportFormat::from_path(std::path::Path::new("take.FBX")), Some(ImportFormat::Fbx));
    let imported = import("hand_ascii.fbx", None).unwrap();
    let t = track(&imported, "Box.rotation");
    assert_eq!((t.order, t.interpolation, t.keys.len()), (EulerOrder::ZYX, Interpolation::Bezier, 5));
    let deg = |d: f64| d.to_radians();
    let compiled = TrackCurve::new(t).unwrap();
    let mut eval = compiled.evaluator();
    assert_eq!(eval.value_at(0.5), vec![deg(10.0), deg(5.0), deg(-7.0)]);
    assert_eq!(eval.value_at(1.5), vec![deg(45.0), deg(5.0), deg(-7.0)]);
    assert!((eval.value_at(2.5)[0] - deg(7.5)).abs() < 1e-15);
    assert_eq!((t.pre_infinity, t.post_infinity), (Infinity::CycleOffset, Infinity::Linear));
    assert_eq!(imported.report.format, ImportFormat::Fbx);
}

/// Several stacks: all, each under `STACK/`; one by `--animation`, without; an unknown name
/// lists the stacks.
#[test]
fn choosing_a_stack() {
    let all = import("sample_props.fbx", None).unwrap();
    assert_eq!((all.project.tracks.len(), all.project.fps), (27, 24.0));
    assert_eq!(import("curves_orders_shapes.fbx", None).unwrap().project.fps, 24.0, "the file's rate, though keys sit at 1/120 s");
    assert_eq!(all.project.tracks[0].name, "Crate|CrateAction/Crate.translation");
    let one = import("sample_props.fbx", Some("Door|LampAction")).unwrap();
    let names: Vec<&str> = one.project.tracks.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Door.translation", "Door.rotation", "Door.scale"]);
    match import("sample_props.fbx", Some("Walk")) {
        Err(ImportError::NoAnimation { available, .. }) => assert_eq!(available.len(), 9),
        other => panic!("{other:?}"),
    }
}

/// Truncated and garbled files: ufbx's reason in an error naming the file, never a panic.
#[test]
fn broken_files_say_why() {
    let good = bytes("sample_props.fbx");
    let error = |data: &[u8]| match import_bytes(data, ImportFormat::Fbx, "cut.fbx", None, &ImportOptions::default()) {
        Err(e) => e.to_string(),
        Ok(i) => format!("ok: {} tracks", i.project.tracks.len()),
    };
    for len in [0, 1, 20, 27, 100, 1000, 5000, good.len() / 2, good.len() - 1000] {
        let message = error(&good[..len]);
        eprintln!("{len} bytes: {message}");
        assert!(message.starts_with("cut.fbx: not a readable FBX file: "), "{len} bytes: {message}");
    }
    // Random bytes, random bytes after the binary magic, and broken ASCII.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut random = |n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state.to_le_bytes()[3]
            })
            .collect()
    };
    for n in [1, 16, 300, 4096, 70_000] {
        let noise = random(n);
        assert!(error(&noise).starts_with("cut.fbx: "));
        let mut magic = good[..27].to_vec();
        magic.extend(&noise);
        assert!(error(&magic).starts_with("cut.fbx: "));
        let mut flipped = good.clone();
        for (i, b) in noise.iter().enumerate().take(64) {
            let at = (usize::from(*b) * 1009 + i * 7919) % flipped.len();
            flipped[at] ^= 0x5a;
        }
        let _ = error(&flipped);
    }
    let ascii = String::from_utf8(bytes("hand_ascii.fbx")).unwrap();
    for cut in [40, 300, 900, ascii.len() - 30] {
        let _ = error(&ascii.as_bytes()[..cut]);
    }
    assert!(error(b"; FBX 7.4.0 project file\nObjects: {\n\tModel: 1, \"Model::A\", \"Null\" {\n").starts_with("cut.fbx: "));
}

/// A tangent weight over 1 is found (and warned about on import); extrapolation becomes the
/// track's when the axes agree over the same keys, else Constant with a warning.
#[test]
fn overlong_tangents_and_extrapolation() {
    let a = FbxKey { time: 0.0, value: 0.0, segment: Segment::Cubic, left: (0.0, 0.0), right: (3.5, 1.0) };
    let b = FbxKey { time: 3.0, value: 1.0, segment: Segment::Cubic, left: (1.0, 0.0), right: (0.0, 0.0) };
    assert!(super::super::overlong(&curve(vec![a, b])));
    assert!(!super::super::overlong(&curve(vec![FbxKey { right: (3.0, 1.0), ..a }, b])));
    let cycled = |end: f64| Curve { post: Infinity::Cycle, ..curve(vec![key(0.0, 0.0, Segment::Linear), key(end, 1.0, Segment::Linear)]) };
    let mut warnings = Vec::new();
    assert_eq!(super::super::extrapolation(&[cycled(2.0), cycled(2.0), curve(Vec::new())], &[], "n", &mut warnings), (Infinity::Constant, Infinity::Cycle));
    assert!(warnings.is_empty());
    assert_eq!(super::super::extrapolation(&[cycled(2.0), cycled(3.0)], &[], "n", &mut warnings), (Infinity::Constant, Infinity::Constant));
    assert!(warnings.len() == 1 && warnings[0].starts_with("n: the axes' curves extrapolate differently post"), "{warnings:?}");
}
