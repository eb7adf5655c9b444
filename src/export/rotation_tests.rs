//! Tests of Euler tracks in exports (`rotation.rs`): every turn kept at the frame rate, with
//! `--adaptive` and in the exact Step form; CSV angles; targets; import back.

use std::f64::consts::PI;

use super::super::*;
use super::AS_EDITED_DEG;
use crate::bake::Bound;
use crate::model::{EulerOrder, Key};
use crate::quat::{self, Quat};

fn no_progress(_: usize, _: usize) -> bool {
    true
}

fn euler(name: &str, order: EulerOrder, interpolation: Interpolation, keys: &[(f64, [f64; 3])]) -> Track {
    let track = Track::new(name, TrackKind::Euler, interpolation).with_keys(keys.iter().map(|(t, v)| Key::new(*t, v.to_vec())).collect());
    Track { order, ..track }
}

/// 720° about Z over 2 s: Euler XYZ, Linear, [0, 0, 0] at 0 and [0, 0, 4π] at 2.
fn spin720() -> Track {
    euler("spin", EulerOrder::XYZ, Interpolation::Linear, &[(0.0, [0.0; 3]), (2.0, [0.0, 0.0, 4.0 * PI])])
}

/// 450° about the tilted Z axis: Euler ZYX (Z applied first: R = Rx(0.4)·Rz(z)), x held at
/// 0.4 rad, z from 0 to 2.5π over 2 s. The rotation from one time to another is Rz(Δz) in
/// the body's frame, so the quaternion path turns exactly 450° about local Z.
fn tilted450(interpolation: Interpolation) -> Track {
    euler("tilted", EulerOrder::ZYX, interpolation, &[(0.0, [0.4, 0.0, 0.0]), (2.0, [0.4, 0.0, 2.5 * PI])])
}

fn at_fps(fps: f64) -> ExportOptions {
    ExportOptions::new(crate::bake::Fps::new(fps).unwrap())
}

fn adaptive(fps: f64, bound: f64) -> ExportOptions {
    ExportOptions { adaptive: Some(Bound::new(bound).unwrap()), ..at_fps(fps) }
}

fn q(values: &[f64], i: usize) -> Quat {
    [values[4 * i], values[4 * i + 1], values[4 * i + 2], values[4 * i + 3]]
}

/// The signed angle in degrees the rotation turns from `a` to `b` about the body's local Z:
/// `conj(a)·b = (0, 0, sin(θ/2), cos(θ/2))` for a turn θ about it.
fn local_z_turn(a: &Quat, b: &Quat) -> f64 {
    let r = quat::mul(&quat::conj(a), b);
    assert!(r[0].abs() < 1e-6 && r[1].abs() < 1e-6, "a turn about another axis: {r:?}");
    2.0 * r[2].atan2(r[3]).to_degrees()
}

/// Per consecutive pair of keys of positive length: (unsigned angle in degrees, signed turn
/// about local Z).
fn key_turns(times: &[f64], values: &[f64]) -> Vec<(f64, f64)> {
    (0..times.len() - 1)
        .filter(|&i| times[i + 1] > times[i])
        .map(|i| (quat::angle_between(&q(values, i), &q(values, i + 1)).to_degrees(), local_z_turn(&q(values, i), &q(values, i + 1))))
        .collect()
}

/// Every segment under 170°, and the key path turns `total` degrees about local Z (each step
/// forward: the signed sum and the unsigned sum agree).
fn assert_turns(label: &str, times: &[f64], values: &[f64], total: f64, tolerance: f64) {
    let turns = key_turns(times, values);
    let widest = turns.iter().map(|t| t.0).fold(0.0, f64::max);
    assert!(widest < 170.0, "{label}: a segment turns {widest}°");
    let unsigned: f64 = turns.iter().map(|t| t.0).sum();
    let signed: f64 = turns.iter().map(|t| t.1).sum();
    assert!((signed - total).abs() <= tolerance, "{label}: turns {signed}° about local Z, not {total}° (±{tolerance})");
    assert!((unsigned - total).abs() <= tolerance, "{label}: the keys' angles add up to {unsigned}°, not {total}°");
}

fn prepared(track: &Track, format: Format, options: &ExportOptions) -> Prepared {
    let range = TrackCurve::new(track).unwrap().domain();
    prepare(track, Target::Rotation, format, options, range, None, false).unwrap()
}

/// The one glTF channel's sampler, as stored: interpolation, f32 times and values widened.
fn gltf_sampler(bytes: &[u8]) -> (String, Vec<f64>, Vec<f64>) {
    use base64::Engine as _;
    let root: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    let uri = root["buffers"][0]["uri"].as_str().unwrap();
    let bin = base64::engine::general_purpose::STANDARD.decode(uri.split_once(',').unwrap().1).unwrap();
    let read = |accessor: usize| -> Vec<f64> {
        let a = &root["accessors"][accessor];
        let view = &root["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        let (offset, length) = (view["byteOffset"].as_u64().unwrap_or(0) as usize, view["byteLength"].as_u64().unwrap() as usize);
        bin[offset..offset + length].chunks_exact(4).map(|b| f64::from(f32::from_le_bytes(b.try_into().unwrap()))).collect()
    };
    let channel = &root["animations"][0]["channels"][0];
    assert_eq!(channel["target"]["path"], "rotation");
    let sampler = &root["animations"][0]["samplers"][channel["sampler"].as_u64().unwrap() as usize];
    let interpolation = sampler["interpolation"].as_str().unwrap_or("LINEAR").to_owned();
    (interpolation, read(sampler["input"].as_u64().unwrap() as usize), read(sampler["output"].as_u64().unwrap() as usize))
}

/// What a glTF player shows at `t`: STEP holds, LINEAR slerps (the short way), CUBICSPLINE is
/// the Hermite cubic of the components, normalised.
fn play(interpolation: &str, times: &[f64], values: &[f64], t: f64) -> Quat {
    let n = times.len();
    let key = |i: usize, part: usize| if interpolation == "CUBICSPLINE" { q(values, 3 * i + part) } else { q(values, i) };
    let i = times.partition_point(|&k| k <= t).clamp(1, n - 1) - 1;
    if t <= times[0] || t >= times[n - 1] || interpolation == "STEP" {
        return quat::normalize(&key(if t >= times[n - 1] { n - 1 } else { i }, 1));
    }
    let (dt, s) = (times[i + 1] - times[i], (t - times[i]) / (times[i + 1] - times[i]));
    if interpolation == "LINEAR" {
        return quat::slerp(&key(i, 1), &key(i + 1, 1), s);
    }
    let (s2, s3) = (s * s, s * s * s);
    let (p0, m0, p1, m1) = (key(i, 1), key(i, 2), key(i + 1, 1), key(i + 1, 0));
    let h = [2.0 * s3 - 3.0 * s2 + 1.0, dt * (s3 - 2.0 * s2 + s), -2.0 * s3 + 3.0 * s2, dt * (s3 - s2)];
    quat::normalize(&[0, 1, 2, 3].map(|c| h[0] * p0[c] + h[1] * m0[c] + h[2] * p1[c] + h[3] * m1[c]))
}

/// The turn about local Z of the glTF as played (each step's relative rotation's Z part),
/// integrated over 4,000 steps, and the
/// largest angle in radians from the Euler curve at those times.
fn played_turn(bytes: &[u8], track: &Track) -> (f64, f64) {
    let (interpolation, times, values) = gltf_sampler(bytes);
    let curve = TrackCurve::new(track).unwrap();
    let (mut cursor, mut scratch) = (crate::search::SegmentCursor::new(), [0.0; 3]);
    let (t0, t1) = curve.domain();
    let (mut total, mut worst, mut last) = (0.0, 0.0f64, play(&interpolation, &times, &values, t0));
    for k in 0..=4000 {
        let t = t0 + (t1 - t0) * f64::from(k) / 4000.0;
        let now = play(&interpolation, &times, &values, t);
        let truth = curve.rotation_at(&mut cursor, t, &mut scratch).unwrap();
        worst = worst.max(quat::angle_between(&now, &truth));
        let r = quat::mul(&quat::conj(&last), &now);
        total += 2.0 * r[2].atan2(r[3]).to_degrees();
        last = now;
    }
    (total, worst)
}

#[test]
fn euler_targets() {
    assert_eq!(Target::default_for(TrackKind::Euler, Format::Gltf), Target::Rotation);
    assert_eq!(Target::default_for(TrackKind::Euler, Format::ThreeJson), Target::Rotation);
    assert!(Target::Rotation.fits(TrackKind::Euler, Format::Glb));
    assert!(Target::Rotation.fits(TrackKind::Euler, Format::Csv));
    assert!(!Target::Weights.fits(TrackKind::Euler, Format::Gltf), "angles are not morph weights");
    assert!(!Target::Translation.fits(TrackKind::Euler, Format::Gltf));
    assert!(Target::Property.fits(TrackKind::Euler, Format::ThreeJson));
    // As a three.js property the angles go as they are: a vector of radians, Linear exact.
    let mut options = at_fps(30.0);
    options.targets.insert("spin".into(), Target::Property);
    let project = Project { tracks: vec![spin720()], ..Project::default() };
    let (bytes, report) = export(&project, Format::ThreeJson, &options, &no_progress).unwrap();
    assert_eq!((report[0].form, report[0].keys), (Form::Linear, 2));
    let clip: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(clip["tracks"][0]["name"], "spin.value");
    assert_eq!(clip["tracks"][0]["values"], serde_json::json!([0.0, 0.0, 0.0, 0.0, 0.0, 4.0 * PI]));
}

/// At 30 fps the 720° spin is one key per frame, 12° apart: 61 keys turning 720° in all.
#[test]
fn spin_720_at_30_fps_turns_720_degrees() {
    let p = prepared(&spin720(), Format::Gltf, &at_fps(30.0));
    assert_eq!((p.form, p.times.len(), p.width), (Form::Baked, 61, 4));
    assert_turns("prepared", &p.times, &p.values, 720.0, 1e-9);
    // Frame 15 (0.5 s, 180°): z = π, the quaternion (0, 0, sin 90°, cos 90°) = (0, 0, 1, 0).
    assert!(quat::angle_between(&q(&p.values, 15), &[0.0, 0.0, 1.0, 0.0]) < 1e-12);
    // A slerp between frames of a spin about one axis is the spin itself.
    assert!(p.max_error < 1e-12, "{}", p.max_error);
    let project = Project { tracks: vec![spin720()], ..Project::default() };
    let (bytes, report) = export(&project, Format::Gltf, &at_fps(30.0), &no_progress).unwrap();
    assert!(report[0].note.as_deref().unwrap().contains("no exact quaternion form"), "{:?}", report[0].note);
    let (interpolation, times, values) = gltf_sampler(&bytes);
    assert_eq!((interpolation.as_str(), times.len()), ("LINEAR", 61));
    // float32: each stored angle θᵢ = 2·atan2(z, w) is within 1e-7 rad of its own; the turns
    // between keys about one axis add up to θ₆₀ − θ₀, so 1e-5° covers the file.
    assert_turns("glTF", &times, &values, 720.0, 1e-5);
}

/// 960° in 1 s at 4 fps: 240° a frame, which slerp would play as 120° backwards. Each frame's
/// eight 30° steps: keys added where the next step would reach 170° (after 150°), so each
/// frame is 150° then 90°: 5 frames + 4 added keys.
#[test]
fn a_spin_faster_than_170_degrees_a_frame_gets_keys_added() {
    let fast = euler("fast", EulerOrder::XYZ, Interpolation::Linear, &[(0.0, [0.0; 3]), (1.0, [0.0, 0.0, 960f64.to_radians()])]);
    let p = prepared(&fast, Format::Gltf, &at_fps(4.0));
    assert_eq!(p.times.len(), 9, "{:?}", p.times);
    assert!((p.times[1] - 0.25 * 5.0 / 8.0).abs() < 1e-15 && p.times[2] == 0.25, "{:?}", p.times);
    let turns: Vec<f64> = key_turns(&p.times, &p.values).iter().map(|t| t.1).collect();
    for (i, t) in turns.iter().enumerate() {
        let want = if i % 2 == 0 { 150.0 } else { 90.0 };
        assert!((t - want).abs() < 1e-9, "segment {i}: {t}°, not {want}° ({turns:?})");
    }
    assert_turns("fast", &p.times, &p.values, 960.0, 1e-9);
    assert!(p.note.as_deref().unwrap().contains("4 keys added"), "{:?}", p.note);
}

#[test]
fn spin_720_adaptive_keeps_every_turn() {
    let track = spin720();
    for format in [Format::Gltf, Format::ThreeJson] {
        let p = prepared(&track, format, &adaptive(30.0, 0.1));
        // Slerp is exact on a spin about one axis: the fewest keys under 170° each, 5 segments
        // of 144°.
        assert_eq!((p.form, p.times.len()), (Form::Baked, 6), "{format:?}: {:?}", p.times);
        assert!(p.max_error <= 0.1, "{}", p.max_error);
        assert_turns(&format!("{format:?}"), &p.times, &p.values, 720.0, 1e-9);
    }
    let project = Project { tracks: vec![track.clone()], ..Project::default() };
    let (bytes, _) = export(&project, Format::Gltf, &adaptive(30.0, 0.1), &no_progress).unwrap();
    let (total, worst) = played_turn(&bytes, &track);
    assert!((total - 720.0).abs() < 1e-3 && worst <= 0.1, "played {total}°, {worst} rad off");
}

#[test]
fn tilted_450_spin_keeps_every_turn() {
    for interpolation in [Interpolation::Linear, Interpolation::Bezier] {
        let track = tilted450(interpolation);
        let p = prepared(&track, Format::Gltf, &at_fps(30.0));
        if interpolation == Interpolation::Linear {
            assert_eq!((p.form, p.times.len()), (Form::Baked, 61));
            assert_turns(&format!("{interpolation:?} at 30 fps"), &p.times, &p.values, 450.0, 1e-9);
        } else {
            // As edited: not a key per frame but the fewest keys within AS_EDITED_DEG, played.
            let bound = AS_EDITED_DEG.to_radians();
            assert!(p.times.len() < 61 && p.max_error <= bound, "{} keys, {} rad", p.times.len(), p.max_error);
            assert!(p.note.as_deref().unwrap().contains("as edited"), "{:?}", p.note);
            let project = Project { tracks: vec![track.clone()], ..Project::default() };
            let (bytes, _) = export(&project, Format::Gltf, &at_fps(30.0), &no_progress).unwrap();
            let (total, worst) = played_turn(&bytes, &track);
            assert!((total - 450.0).abs() < 1e-2 && worst <= bound + 1e-5, "as edited: played {total}°, {worst} rad off");
        }
        for bound in [0.1, 1e-3] {
            let label = format!("{interpolation:?} --adaptive {bound}");
            let json = prepared(&track, Format::ThreeJson, &adaptive(30.0, bound));
            assert_eq!(json.form, Form::Baked, "{label}: three.js gets slerp keys");
            assert!(json.max_error <= bound, "{label}: {}", json.max_error);
            assert_turns(&label, &json.times, &json.values, 450.0, 1e-9);
            let project = Project { tracks: vec![track.clone()], ..Project::default() };
            let (bytes, report) = export(&project, Format::Gltf, &adaptive(30.0, bound), &no_progress).unwrap();
            assert!(report[0].max_error <= bound, "{label}: {report:?}");
            let (total, worst) = played_turn(&bytes, &track);
            // float32 values: 1e-5 rad on top of the bound.
            assert!((total - 450.0).abs() < 1e-2 && worst <= bound + 1e-5, "{label}: played {total}°, {worst} rad off ({report:?})");
        }
    }
}

/// Step keys at 0°, 270° and 540° about Z: quaternions (0, 0, 0, 1), (0, 0, sin 135°,
/// cos 135°) turned into the first's hemisphere = (0, 0, −√½, √½), and (0, 0, sin 270°,
/// cos 270°) = (0, 0, −1, 0), already in the second's.
#[test]
fn step_euler_is_exact() {
    let step = euler("step", EulerOrder::XYZ, Interpolation::Step, &[(0.0, [0.0; 3]), (1.0, [0.0, 0.0, 1.5 * PI]), (2.0, [0.0, 0.0, 3.0 * PI])]);
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let want = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -h, h, 0.0, 0.0, -1.0, 0.0];
    for format in [Format::Gltf, Format::ThreeJson] {
        for options in [at_fps(30.0), adaptive(30.0, 0.1)] {
            let p = prepared(&step, format, &options);
            assert_eq!((p.form, p.times.clone(), p.max_error), (Form::Step, vec![0.0, 1.0, 2.0], 0.0));
            assert!(p.values.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-15), "{:?}", p.values);
        }
    }
    let project = Project { tracks: vec![step], ..Project::default() };
    let (bytes, _) = export(&project, Format::Gltf, &at_fps(30.0), &no_progress).unwrap();
    assert_eq!(gltf_sampler(&bytes).0, "STEP");
}

/// CSV writes the angles in radians: at 1 s the spin's z is 2π.
#[test]
fn csv_writes_radians() {
    let project = Project { tracks: vec![spin720()], ..Project::default() };
    let (bytes, _) = export(&project, Format::Csv, &at_fps(30.0), &no_progress).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    assert_eq!(text.lines().next(), Some("time,spin.x,spin.y,spin.z"));
    assert!(text.lines().any(|l| l == format!("1.0,0.0,0.0,{:?}", 2.0 * PI)), "{text}");
    assert_eq!(text.lines().last(), Some(format!("2.0,0.0,0.0,{:?}", 4.0 * PI).as_str()));
}

/// Tangent's own glTF import reads the exported rotation back as a Quat track with the keys.
#[test]
fn gltf_import_gives_a_quat_track() {
    let project = Project { tracks: vec![spin720()], ..Project::default() };
    let (bytes, _) = export(&project, Format::Gltf, &at_fps(30.0), &no_progress).unwrap();
    let imported = crate::import::import_bytes(&bytes, crate::import::ImportFormat::Gltf, "spin.gltf", None, &Default::default()).unwrap();
    let track = &imported.project.tracks[0];
    assert_eq!((track.kind, track.keys.len()), (TrackKind::Quat, 61));
    let values: Vec<f64> = track.keys.iter().flat_map(|k| k.value.iter().copied()).collect();
    let times: Vec<f64> = track.keys.iter().map(|k| k.time).collect();
    assert_turns("imported", &times, &values, 720.0, 1e-5);
}

/// A jump at 1 s from 90° to 180° about Z, on a frame at 4 fps: the key arriving,
/// (0, 0, sin 45°, cos 45°), then the one after, (0, 0, 1, 0), both at 1 s; the same with
/// `--adaptive`, where slerp keys are exact on this track (one run each side of the jump).
#[test]
fn jumps_keep_both_rotations() {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let jump = euler(
        "jump",
        EulerOrder::XYZ,
        Interpolation::Linear,
        &[(0.0, [0.0; 3]), (1.0, [0.0, 0.0, 0.5 * PI]), (1.0, [0.0, 0.0, PI]), (2.0, [0.0, 0.0, 1.5 * PI])],
    );
    for (label, options) in [("4 fps", at_fps(4.0)), ("adaptive", adaptive(4.0, 1e-3))] {
        let p = prepared(&jump, Format::Gltf, &options);
        let at = p.times.iter().position(|&t| t == 1.0).unwrap();
        assert_eq!(p.times[at + 1], 1.0, "{label}: {:?}", p.times);
        let (arriving, after) = (q(&p.values, at), q(&p.values, at + 1));
        assert!(quat::angle_between(&arriving, &[0.0, 0.0, h, h]) < 1e-9, "{label}: arriving {arriving:?}");
        assert!(quat::angle_between(&after, &[0.0, 0.0, 1.0, 0.0]) < 1e-9, "{label}: after {after:?}");
        assert!(p.max_error < 1e-9, "{label}: {}", p.max_error);
        // 90° before the jump, 90° after: the jump itself is not a segment.
        assert_turns(label, &p.times, &p.values, 180.0, 1e-9);
    }
}

/// Past its keys with CycleOffset, a quarter turn a second keeps turning: over a 3 s clip,
/// 270° about Z, at the frame rate and with `--adaptive` (slerp keys over the clip).
#[test]
fn cycles_beyond_the_keys_keep_turning() {
    let mut quarter = euler("quarter", EulerOrder::XYZ, Interpolation::Linear, &[(0.0, [0.0; 3]), (1.0, [0.0, 0.0, 0.5 * PI])]);
    quarter.post_infinity = Infinity::CycleOffset;
    for (label, options) in [("30 fps", at_fps(30.0)), ("adaptive", adaptive(30.0, 1e-3))] {
        let p = prepare(&quarter, Target::Rotation, Format::ThreeJson, &options, (0.0, 3.0), None, false).unwrap();
        assert_eq!(*p.times.last().unwrap(), 3.0, "{label}");
        assert!(p.max_error < 1e-3, "{label}: {}", p.max_error);
        assert_turns(label, &p.times, &p.values, 270.0, 1e-9);
    }
}
