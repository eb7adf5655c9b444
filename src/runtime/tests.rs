//! The runtime models by hand: the glTF specification's Hermite segment, Blender's dropped
//! tangents, key times and hemisphere turns, the newest Blender's Auto handles and merged keys,
//! and what the measure reports.

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
/// and with two keys the automatic handles of the end keys are flat under Constant
/// extrapolation, Auto as AutoClamped (a smoothstep in time: 0.15625 at s = 1/4 from 0 to 1,
/// 3s² − 2s³), unlike the specification's 0.8125.
#[test]
fn blender_ignores_the_tangents() {
    let a = cubic(&[1.0, 3.0], &[[5.0, 0.0, 2.0], [-1.0, 1.0, 7.0]]);
    let b = cubic(&[1.0, 3.0], &[[0.0, 0.0, -9.0], [4.0, 1.0, 0.0]]);
    for runtime in [Runtime::Blender, Runtime::Blender34] {
        let (pa, pb) = (play(runtime, &a).unwrap(), play(runtime, &b).unwrap());
        for i in 0..=40 {
            let t = 0.5 + 3.0 * f64::from(i) / 40.0;
            assert_eq!(at(&pa, t), at(&pb, t));
        }
        assert!((at(&pa, 1.5)[0] - 0.15625).abs() < 1e-6, "{runtime:?}: {:?}", at(&pa, 1.5));
    }
}

/// The handle types, by hand: keys (0 s, 0), (1 s, 1), (3 s, 0) at whole frames. Continuous
/// Acceleration with handles a third of each segment away is a C² Hermite spline in the key
/// slopes; Constant extrapolation makes the end slopes 0, leaving the middle slope m. The
/// second derivative at the end of the first segment (h = 1: 0 → 1, slopes 0, m) is
/// `(6·(0 − 1) + 2·1·(0 + 2m)) / 1² = 4m − 6`, at the start of the second (h = 2: 1 → 0, slopes
/// m, 0) `(−6·1 + 6·0 − 2·2·(2m + 0)) / 2² = (−6 − 8m) / 4`; equal for m = 3/4. Blender 4.2+'s
/// Auto handles take that slope, so at t = 1.5 (u = 1/4 of the second segment) the curve
/// overshoots the key: `h00·1 + h10·2·m = 0.84375 + 0.140625·1.5 = 1.0546875`. Blender 3.4's
/// AutoClamped handles are flat at the extreme (m = 0): 0.84375, and the peak is the key.
#[test]
fn the_newest_blender_takes_auto_handles_and_3_4_auto_clamped() {
    let w = cubic(&[0.0, 1.0, 3.0], &[[9.0, 0.0, 9.0], [9.0, 1.0, 9.0], [9.0, 0.0, 9.0]]);
    let (newest, old) = (play(Runtime::Blender, &w).unwrap(), play(Runtime::Blender34, &w).unwrap());
    assert!((at(&newest, 1.5)[0] - 1.0546875).abs() < 1e-9, "{:?}", at(&newest, 1.5));
    assert!((at(&old, 1.5)[0] - 0.84375).abs() < 1e-9, "{:?}", at(&old, 1.5));
    let slope = |p: &Played| p.curve().bezier_handles(1, 0).map(|(_, r)| r.1 / r.0).unwrap();
    assert!((slope(&newest) - 0.75).abs() < 1e-9 && slope(&old).abs() < 1e-12, "{} {}", slope(&newest), slope(&old));
    let kinds = |v: blender::Version| model_track(v, TrackKind::Scalar, vec![Key::new(0.0, vec![0.0])]).keys[0].handles;
    assert_eq!(kinds(blender::Version::V4_2), (HandleType::Auto, HandleType::Auto));
    assert_eq!(kinds(blender::Version::V3_4), (HandleType::AutoClamped, HandleType::AutoClamped));
}

/// `BKE_fcurve_deduplicate_keys`, by hand, on frames (kept: (key whose frame, key whose
/// value)): 10.004 and 10.007 are within 0.01 of the kept 10 (the anchor, which stays: 10.007
/// is 0.003 from 10.004 but compared with 10), so 10 holds 10.007's key; 10.02 is 0.02 past it
/// and stays; 12 replaces 11.995 and, being a whole frame, takes its own frame; 12.003 then
/// replaces it at 12 (not whole); 20.006 goes into 20, and 20.012, 0.006 from 20.006 but 0.012
/// from the anchor, stays. Exactly a float32 0.01 apart merges (`<=`), a float32 step more does
/// not; in float32 100.01 is 0.0100021 after 100 (kept), 100.00999 0.0099869 (merged).
#[test]
fn the_newest_blender_merges_keys_within_a_hundredth_of_a_frame() {
    let frames = [0.0, 10.0, 10.004, 10.007, 10.02, 11.995, 12.0, 12.003, 20.0, 20.006, 20.012, 30.0];
    let kept = blender::merged(&frames);
    assert_eq!(kept, vec![(0, 0), (1, 3), (4, 4), (6, 7), (8, 9), (10, 10), (11, 11)]);
    assert_eq!(blender::merged(&[0.0, blender::MERGE_FRAMES]), vec![(0, 1)]);
    let beyond = f32::from_bits(blender::MERGE_FRAMES.to_bits() + 1);
    assert_eq!(blender::merged(&[0.0, beyond]), vec![(0, 0), (1, 1)]);
    assert_eq!(blender::merged(&[100.0, 100.01]), vec![(0, 0), (1, 1)]);
    assert_eq!(blender::merged(&[100.0, 100.009_99]), vec![(0, 1)]);
    // Played: LINEAR keys (0 s, 0), (0.0001 s, 5), (1 s, 10) at 24 fps, frames 0, 0.0024, 24.
    // 4.2+ keeps one key at frame 0 holding 5, then 5 → 10 over the second: 7.5 at 0.5 s. 3.4
    // keeps all three: 5 + 5 · (12 − 0.0024) / (24 − 0.0024) = 7.49975 at 0.5 s, and 0 at 0.
    let w = Written { form: Form::Linear, rotation: false, width: 1, times: vec![0.0, 0.0001, 1.0], values: vec![0.0, 5.0, 10.0], tangents: None };
    let (newest, old) = (play(Runtime::Blender, &w).unwrap(), play(Runtime::Blender34, &w).unwrap());
    assert_eq!(newest.curve().times().len(), 2);
    assert_eq!((at(&newest, 0.0)[0], at(&old, 0.0)[0]), (5.0, 0.0));
    assert!((at(&newest, 0.5)[0] - 7.5).abs() < 1e-12, "{:?}", at(&newest, 0.5));
    assert!((at(&old, 0.5)[0] - 7.49975).abs() < 1e-6, "{:?}", at(&old, 0.5));
    // At 60 fps the frames are 0, 0.006, 60: merged too; at the written times (export's
    // measure) as at 24 fps.
    assert_eq!(blender::play(blender::Version::V4_2, &w, 60.0).unwrap().curve().times().len(), 2);
    assert_eq!(blender::play_unrounded(blender::Version::V4_2, &w).unwrap().curve().times().len(), 2);
    assert_eq!(blender::play_unrounded(blender::Version::V3_4, &w).unwrap().curve().times().len(), 3);
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
    let p = play(Runtime::Blender34, &w).unwrap();
    let q = at(&p, 0.5);
    let half = std::f64::consts::FRAC_PI_8;
    assert!((q[2] - half.sin()).abs() < 1e-7 && (q[3] - half.cos()).abs() < 1e-7, "{q:?}");
    // Its components before normalising are the plain average.
    assert!((p.curve().evaluator().value_at(0.5)[2] - h / 2.0).abs() < 1e-7);
}

#[test]
fn blender_does_not_read_three_js_forms() {
    let w = Written { form: Form::Smooth, rotation: false, width: 1, times: vec![0.0, 1.0], values: vec![0.0, 1.0], tangents: None };
    assert!(matches!(play(Runtime::Blender, &w), Err(RuntimeError::Unsupported { runtime: Runtime::Blender, .. })));
    assert!(matches!(play(Runtime::Blender34, &w), Err(RuntimeError::Unsupported { runtime: Runtime::Blender34, .. })));
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

use crate::format::Target;

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
    for runtime in [Runtime::Blender, Runtime::Blender34] {
        let d = deviation(&line, &play(runtime, &w).unwrap());
        assert!((d - 3f64.sqrt() / 18.0).abs() < 1e-7, "{runtime:?}: {d}");
    }
}

/// The demo's tracks (all but the rotation and the Step track) as keys each Blender carries
/// within the bound: each fit's own measure within the bound, and the file's keys (with zero
/// tangents, which Blender ignores) played by that Blender's model from the curve within the
/// bound too; for 4.2+ no two keys closer than [`MERGE_SPACING`], so it merges none. A Step
/// track's jumps would need keys ever closer together, and the rotation is left to LINEAR keys.
/// 4.2+ at 1e-4 carries only `tint`: Constant extrapolation flattens the end keys' automatic
/// handles, so the curve's slope s at an end costs about 4/27 · s · h over the last segment h,
/// and 4.2+ keeps h above 0.0102 frames (3.4 crowded keys towards the ends instead); a corner
/// (`path`'s continuity −0.6) likewise.
#[test]
fn blender_keys_carry_the_demo_within_the_bound() {
    let project = crate::io::demo_project();
    let cases = [
        (blender::Version::V4_2, 1e-3, &["visible", "spin"][..]),
        (blender::Version::V4_2, 1e-4, &["path", "path (time-adjusted)", "bounce", "height", "camera", "visible", "spin"][..]),
        (blender::Version::V3_4, 1e-4, &["visible", "spin"][..]),
    ];
    for (version, bound, unfitted) in cases {
        let mut none = Vec::new();
        for track in &project.tracks {
            let curve = TrackCurve::new(track).unwrap();
            let Some(keys) = blender_keys(version, track, &curve, curve.domain(), bound, usize::MAX).unwrap() else {
                none.push(track.name.as_str());
                continue;
            };
            assert!(keys.max_error <= bound, "{version:?} {}: {}", track.name, keys.max_error);
            let times: Vec<f64> = keys.track.keys.iter().map(|k| k.time).collect();
            let closest = times.windows(2).map(|w| w[1] - w[0]).fold(f64::INFINITY, f64::min);
            if version.merges() {
                assert!(closest >= MERGE_SPACING, "{}: keys {closest} s apart", track.name);
            }
            let d = curve.dim();
            let values =
                keys.track.keys.iter().flat_map(|k| std::iter::repeat_n(0.0, d).chain(k.value.iter().copied()).chain(std::iter::repeat_n(0.0, d))).collect();
            let w = Written { form: Form::CubicSpline, rotation: false, width: d, times, values, tangents: None };
            // At the written times: float32 frames can push a curve fitted to the bound past it
            // (export checks that and fits tighter, tests/runtime_export.rs).
            let played = blender::play_unrounded(version, &w).unwrap();
            assert_eq!(played.curve().times().len(), w.times.len(), "{version:?} {}: keys merged", track.name);
            let dev = deviation(&curve, &played);
            assert!(dev <= bound * (1.0 + 1e-9), "{version:?} {}: {dev}", track.name);
            println!(
                "{version:?} at {bound:e} {}: {} keys, {} rounds, {:.3e} (played {:.3e}), closest {:.4} frames at 24 fps",
                track.name,
                keys.track.keys.len(),
                keys.rounds,
                keys.max_error,
                dev,
                closest * 24.0
            );
        }
        assert_eq!(none, unfitted, "{version:?} at {bound:e}");
    }
}
