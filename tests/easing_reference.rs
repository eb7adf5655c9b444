//! `tangent::easing::ease` against Blender 3.4 itself: every segment of every F-Curve in
//! `tests/reference/blender_easing.json` (made by `tools/blender/easing_reference.py`: Constant,
//! Linear and the ten easing modes × the four easings, seeded back / amplitude / period with the
//! zero and edge cases, at 24 and 30 fps), each sample within 2e-5 × (1 + |value|) of Blender's
//! `fcurve.evaluate` (Blender computes in float32).

use serde::Deserialize;
use tangent::easing::{ease, EaseParams, Easing, KeyInterpolation};

/// Samples in the file: 53 curves, 244 segments, 52 samples each. A smaller count means the
/// file or this test lost cases.
const EXPECTED_SAMPLES: usize = 12_688;
const TOLERANCE: f64 = 2e-5;
/// Samples on segments whose Elastic phase Blender cannot compute to float32 precision (below):
/// grid_ELASTIC_EASE_IN and grid_ELASTIC_EASE_OUT, segment 3 (amplitude = |change| in float32).
const EXPECTED_ILL_CONDITIONED: usize = 104;

/// Where an Elastic amplitude equals |change| to float32 precision but not exactly, Blender's phase shift
/// `s = P / 2π · asin(change / amplitude)` is ill-conditioned: asin's slope 1/√(1 − x²) turns
/// the float32 rounding of `change` and of the quotient (a few 2⁻²⁴; past 1 it also picks the
/// other branch, whose phase shift is P/4 = P/2π · asin(1)) into up to
/// √(2 · 3 · 2⁻²⁴) ≈ 6e-4 radians of phase, so Blender's own value is only within
/// amplitude × 6e-4 of the exact one, which Tangent computes in f64. Those samples are checked
/// against that bound (in addition to the usual one), counted and reported separately.
fn ill_conditioned_bound(m: KeyInterpolation, p: &EaseParams, change: f64) -> Option<f64> {
    let ratio = change.abs() / p.amplitude;
    // Exactly 1 (values float32 holds exactly, as in `elastic_edges_*`) is asin(1) in both.
    let near_one = m == KeyInterpolation::Elastic && p.amplitude != 0.0 && ratio != 1.0 && (1.0 - ratio).abs() < 1e-6;
    near_one.then(|| p.amplitude * (6.0f64 * 2f64.powi(-24)).sqrt())
}

#[derive(Deserialize)]
struct Reference {
    blender_version: String,
    sample_count: usize,
    curves: Vec<Curve>,
}

#[derive(Deserialize)]
struct Curve {
    name: String,
    fps: f64,
    keys: Vec<Key>,
    /// Per segment (key i to key i + 1): [time in seconds, Blender's value].
    segments: Vec<Vec<[f64; 2]>>,
}

/// A key as Blender holds it, times and period in seconds.
#[derive(Deserialize)]
struct Key {
    time: f64,
    value: f64,
    interpolation: String,
    easing: String,
    back: f64,
    amplitude: f64,
    period: f64,
}

fn mode(name: &str) -> KeyInterpolation {
    use KeyInterpolation::*;
    match name {
        "CONSTANT" => Constant,
        "LINEAR" => Linear,
        "BEZIER" => Bezier,
        "BACK" => Back,
        "BOUNCE" => Bounce,
        "CIRC" => Circ,
        "CUBIC" => Cubic,
        "ELASTIC" => Elastic,
        "EXPO" => Expo,
        "QUAD" => Quad,
        "QUART" => Quart,
        "QUINT" => Quint,
        "SINE" => Sine,
        other => panic!("unknown Blender interpolation {other}"),
    }
}

fn easing(name: &str) -> Easing {
    match name {
        "AUTO" => Easing::Auto,
        "EASE_IN" => Easing::In,
        "EASE_OUT" => Easing::Out,
        "EASE_IN_OUT" => Easing::InOut,
        other => panic!("unknown Blender easing {other}"),
    }
}

fn load(name: &str) -> Reference {
    let path = format!("{}/tests/reference/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect(name);
    serde_json::from_str(&text).expect("the easing reference parses")
}

#[test]
fn ease_matches_blender_3_4() {
    let reference = load("blender_easing.json");
    assert!(reference.blender_version.starts_with("3.4"), "made by Blender {}", reference.blender_version);
    check(&reference);
}

/// Blender 5.0.1 evaluates every case as 3.4.1 does (the same 26,915 numbers), so Tangent is held
/// to the same bound against it (`tests/reference/blender_easing_5.0.1.json`, the same script run
/// with the `bpy` 5.0.1 module).
#[test]
fn ease_matches_blender_5_0() {
    let reference = load("blender_easing_5.0.1.json");
    assert_eq!(reference.blender_version, "5.0.1", "made by Blender {}", reference.blender_version);
    check(&reference);
}

fn check(reference: &Reference) {
    let mut checked = 0;
    let mut modes_seen = std::collections::HashSet::new();
    let (mut worst, mut worst_at) = (0.0f64, String::new());
    let (mut ill, mut ill_worst) = (0, 0.0f64);
    let mut failures = Vec::new();
    for curve in &reference.curves {
        assert!(curve.fps == 24.0 || curve.fps == 30.0, "{}: fps {}", curve.name, curve.fps);
        assert_eq!(curve.segments.len() + 1, curve.keys.len(), "{}", curve.name);
        for (i, samples) in curve.segments.iter().enumerate() {
            let (key, next) = (&curve.keys[i], &curve.keys[i + 1]);
            let (m, e) = (mode(&key.interpolation), easing(&key.easing));
            modes_seen.insert((m, e));
            let p = EaseParams { back: key.back, amplitude: key.amplitude, period: key.period };
            let (change, duration) = (next.value - key.value, next.time - key.time);
            for &[time, blender] in samples {
                let t = time - key.time;
                let ours = ease(m, e, p, t, key.value, change, duration);
                let error = (ours - blender).abs() / (1.0 + blender.abs());
                checked += 1;
                let ok = if let Some(bound) = ill_conditioned_bound(m, &p, change) {
                    ill += 1;
                    ill_worst = ill_worst.max((ours - blender).abs());
                    (ours - blender).abs() <= bound + TOLERANCE * (1.0 + blender.abs())
                } else {
                    if error > worst {
                        worst = error;
                        worst_at = format!("{} segment {i} ({m:?} {e:?}) t {t}: {ours} vs {blender}", curve.name);
                    }
                    error <= TOLERANCE
                };
                if !ok {
                    failures.push(format!(
                        "{} segment {i} ({m:?} {e:?}, {p:?}) time {time} (frame {}): ours {ours}, Blender {blender}",
                        curve.name,
                        time * curve.fps
                    ));
                }
            }
        }
    }
    println!(
        "checked {checked} samples against Blender {}; largest error {worst:.3e} × (1 + |value|) at {worst_at}; \
         {ill} samples with amplitude = |change| to float32 precision, largest difference {ill_worst:.3e}",
        reference.blender_version
    );
    assert!(failures.is_empty(), "{} of {checked} samples differ from Blender:\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
    assert_eq!(reference.sample_count, EXPECTED_SAMPLES, "the file's own count");
    assert_eq!(checked, EXPECTED_SAMPLES, "samples checked");
    assert_eq!(ill, EXPECTED_ILL_CONDITIONED, "samples checked against the ill-conditioned bound");
    // Every easing mode with every easing, Constant and Linear were exercised.
    for m in KeyInterpolation::ALL.into_iter().filter(|&m| m != KeyInterpolation::Bezier) {
        for e in Easing::ALL {
            assert!(modes_seen.contains(&(m, e)), "no {m:?} {e:?} segment");
        }
    }
}
