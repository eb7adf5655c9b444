//! The runtime models by hand: the glTF specification's Hermite segment, Blender's dropped
//! tangents, key times and hemisphere turns, and what the measure reports.

use super::*;

fn cubic(times: &[f64], keys: &[[f64; 3]]) -> Written {
    Written { form: Form::CubicSpline, rotation: false, width: 1, times: times.to_vec(), values: keys.iter().flatten().copied().collect(), tangents: None }
}

fn at(p: &Played, t: f64) -> Vec<f64> {
    p.value_at(&mut p.curve().evaluator(), t)
}

/// glTF's CUBICSPLINE segment (specification, Appendix C): with `s = (t − t_k)/Δ`,
/// `p = (2s³−3s²+1)v_k + (s³−2s²+s)Δ b_k + (−2s³+3s²)v_{k+1} + (s³−s²)Δ a_{k+1}`; here
/// `v = 0, 1`, `b_0 = 2`, `a_1 = −1`, `Δ = 2`, at `s = 1/4`: 0.15625·1 + 0.140625·2·2 −
/// 0.046875·2·(−1) = 0.15625 + 0.5625 + 0.09375 = 0.8125.
#[test]
fn the_specification_plays_the_hermite_segment() {
    let w = cubic(&[1.0, 3.0], &[[5.0, 0.0, 2.0], [-1.0, 1.0, 7.0]]);
    let p = play(Runtime::Spec, &w).unwrap();
    assert!((at(&p, 1.5)[0] - 0.8125).abs() < 1e-12, "{:?}", at(&p, 1.5));
    assert_eq!(at(&p, 3.0)[0], 1.0);
    // three.js plays what the specification says.
    let q = play(Runtime::Three, &w).unwrap();
    assert_eq!(at(&q, 1.5), at(&p, 1.5));
}

/// Blender drops the tangents: two files that differ only in tangents play the same curve,
/// and with two keys AutoClamped handles are flat (a smoothstep in time: 0.15625 at s = 1/4
/// from 0 to 1, 3s² − 2s³), unlike the specification's 0.8125.
#[test]
fn blender_ignores_the_tangents() {
    let a = cubic(&[1.0, 3.0], &[[5.0, 0.0, 2.0], [-1.0, 1.0, 7.0]]);
    let b = cubic(&[1.0, 3.0], &[[0.0, 0.0, -9.0], [4.0, 1.0, 0.0]]);
    let (pa, pb) = (play(Runtime::Blender, &a).unwrap(), play(Runtime::Blender, &b).unwrap());
    for i in 0..=40 {
        let t = 0.5 + 3.0 * f64::from(i) / 40.0;
        assert_eq!(at(&pa, t), at(&pb, t));
    }
    assert!((at(&pa, 1.5)[0] - 0.15625).abs() < 1e-6, "{:?}", at(&pa, 1.5));
}

/// Key times go through float32 frames: 1/3 s at 24 fps is frame 8 exactly, 0.1 s is frame
/// f32(f32(0.1)·24) = 2.4000001 (not rounded to a frame).
#[test]
fn blender_keys_sit_at_float32_frames() {
    assert_eq!(blender::key_time(1.0 / 3.0, 24.0) * 24.0, 8.0);
    let f = blender::key_time(0.1, 24.0) * 24.0;
    assert_eq!(f, f64::from(2.4000001f32));
    assert!((f - 2.4).abs() < 1e-6 && f != 2.0);
}

/// A rotation key in the other hemisphere is negated before the components are
/// interpolated, as the importer does, and the played quaternion is normalised: halfway
/// between the identity and −(90° about z) Blender plays 45° about z.
#[test]
fn blender_turns_rotations_into_one_hemisphere_and_normalises() {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let w = Written { form: Form::Linear, rotation: true, width: 4, times: vec![0.0, 1.0], values: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -h, -h], tangents: None };
    let keys = blender::key_values(&w);
    assert_eq!(keys[1], vec![0.0, 0.0, h, h]);
    let p = play(Runtime::Blender, &w).unwrap();
    let q = at(&p, 0.5);
    let half = std::f64::consts::FRAC_PI_8;
    assert!((q[2] - half.sin()).abs() < 1e-7 && (q[3] - half.cos()).abs() < 1e-7, "{q:?}");
    // Its components before normalising are the plain average.
    assert!((p.curve().evaluator().value_at(0.5)[2] - h / 2.0).abs() < 1e-7);
}

#[test]
fn blender_does_not_read_three_js_forms() {
    let w = Written { form: Form::Smooth, rotation: false, width: 1, times: vec![0.0, 1.0], values: vec![0.0, 1.0], tangents: None };
    assert!(matches!(play(Runtime::Blender, &w), Err(RuntimeError::Unsupported { .. })));
    assert!(play(Runtime::Three, &w).is_ok());
}

/// The axis conversion: glTF y is Blender's location z, glTF z is −y; quaternions
/// `(x, y, z, w)` → `(w, x, −z, y)`; scale `(x, z, y)`.
#[test]
fn the_axes_map_as_the_importer_converts_them() {
    let to = |t: Target| (0..t_len(t)).map(|c| blender::fcurve_of(t, c).unwrap()).collect::<Vec<_>>();
    assert_eq!(to(Target::Translation), vec![("location", 0, 1.0), ("location", 2, 1.0), ("location", 1, -1.0)]);
    assert_eq!(
        to(Target::Rotation),
        vec![("rotation_quaternion", 1, 1.0), ("rotation_quaternion", 3, 1.0), ("rotation_quaternion", 2, -1.0), ("rotation_quaternion", 0, 1.0)]
    );
    assert_eq!(to(Target::Scale), vec![("scale", 0, 1.0), ("scale", 2, 1.0), ("scale", 1, 1.0)]);
    assert_eq!(blender::fcurve_of(Target::Property, 0), None);
}

use crate::export::Target;

fn t_len(t: Target) -> usize {
    if t == Target::Rotation {
        4
    } else {
        3
    }
}

/// The measure: a straight line from 0 to 1 against the flat-handled smoothstep Blender plays
/// for the same two keys differs most at s = (3 − √3)/6 and its mirror, by
/// `|s − (3s² − 2s³)| = √3/18 ≈ 0.0962`.
#[test]
fn deviation_finds_the_largest_difference() {
    let line = Track::new("l", TrackKind::Scalar, Interpolation::Linear).with_keys(vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![1.0])]);
    let line = TrackCurve::new(&line).unwrap();
    let w = cubic(&[0.0, 1.0], &[[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]]);
    assert!(deviation(&line, &play(Runtime::Spec, &w).unwrap()) < 1e-12);
    let d = deviation(&line, &play(Runtime::Blender, &w).unwrap());
    assert!((d - 3f64.sqrt() / 18.0).abs() < 1e-7, "{d}");
}

/// The demo's tracks (all but the rotation and the Step track) as keys Blender carries within
/// 1e-4: each fit's own measure within the bound, and the file's keys (with zero tangents,
/// which Blender ignores) played by the Blender model from the curve within the bound too.
#[test]
fn blender_keys_carry_the_demo_within_the_bound() {
    let project = crate::io::demo_project();
    let mut fitted = 0;
    for track in &project.tracks {
        let curve = TrackCurve::new(track).unwrap();
        let Some(keys) = blender_keys(track, &curve, curve.domain(), 1e-4, usize::MAX).unwrap() else {
            // A Step track's jumps would need keys ever closer together; the rotation is
            // left to LINEAR keys.
            assert!(matches!(track.name.as_str(), "visible" | "spin"), "{}", track.name);
            continue;
        };
        assert!(keys.max_error <= 1e-4, "{}: {}", track.name, keys.max_error);
        let d = curve.dim();
        let values =
            keys.track.keys.iter().flat_map(|k| std::iter::repeat_n(0.0, d).chain(k.value.iter().copied()).chain(std::iter::repeat_n(0.0, d))).collect();
        let w = Written { form: Form::CubicSpline, rotation: false, width: d, times: keys.track.keys.iter().map(|k| k.time).collect(), values, tangents: None };
        // At the written times: float32 frames can push a curve fitted to the bound past it
        // (export checks that and fits tighter, tests/runtime_export.rs).
        let dev = deviation(&curve, &blender::play_unrounded(&w).unwrap());
        assert!(dev <= 1e-4 * (1.0 + 1e-9), "{}: {dev}", track.name);
        println!("{}: {} keys, {} rounds, {:.3e} (played {:.3e})", track.name, keys.track.keys.len(), keys.rounds, keys.max_error, dev);
        fitted += 1;
    }
    assert_eq!(fitted, 6);
}
