//! Evaluation throughput on a 1000-key track: sequential playback (the cached cursor's O(1)
//! path) and random order (the track's bucket index), per interpolation mode, and
//! `sample_many` on the sequential times. The baselines in the same run are each mode found by
//! plain binary search (`search::upper_bound`, then the segment's evaluation: what the
//! cursor and index are measured against), in both orders.
//!
//! `cargo bench --bench eval`; each figure is for 10,000 samples, so ns/sample = time / 10⁴.
//!
//! It also writes the Bezier, Cubic and Linear Vec3 tracks and the Slerp Quat track, their
//! query times and Tangent's values there as JSON (`$TANGENT_BENCH_TRACKS`, default
//! `target/bench-tracks/eval-vec3.json`) for `conformance/bench.mjs`, which times three.js
//! r187's interpolants on the same curves; `tools/bench_vs_three.sh` runs both and prints the
//! ratios.

#[path = "../tests/common/rng.rs"]
mod rng;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tangent::export::{export, ExportOptions, Format};
use tangent::search::upper_bound;
use tangent::{Interpolation, Key, Located, Project, SegmentCursor, TangentMode, Track, TrackCurve, TrackKind};

const KEYS: usize = 1000;
const SAMPLES: usize = 10_000;

fn track(kind: TrackKind, mode: Interpolation, ease: bool) -> TrackCurve {
    TrackCurve::new(&track_def(kind, mode, ease)).unwrap()
}

fn track_def(kind: TrackKind, mode: Interpolation, ease: bool) -> Track {
    let mut r = rng::uniform(7);
    let mut t = 0.0;
    let keys = (0..KEYS)
        .map(|_| {
            let mut v: Vec<f64> = (0..kind.dim()).map(|_| r() * 10.0 - 5.0).collect();
            if kind == TrackKind::Quat {
                v[3] += 3.0;
            }
            let k = Key::new(t, v).with_tcb(r() - 0.5, r() - 0.5, r() - 0.5);
            t += 0.1 + r();
            if ease {
                k.with_ease(r() * 0.5, r() * 0.5)
            } else {
                k
            }
        })
        .collect();
    let mut tr = Track::new("bench", kind, mode).with_keys(keys);
    tr.tangents = TangentMode::TimeAdjusted;
    tr
}

fn times(curve: &TrackCurve, random: bool) -> Vec<f64> {
    let (t0, t1) = curve.domain();
    let mut r = rng::uniform(99);
    (0..SAMPLES).map(|i| if random { t0 + r() * (t1 - t0) } else { t0 + (t1 - t0) * i as f64 / SAMPLES as f64 }).collect()
}

/// Tangent's values at `ts`, flattened.
fn values_at(curve: &TrackCurve, ts: &[f64]) -> Vec<f64> {
    let (mut cursor, mut out) = (SegmentCursor::new(), vec![0.0; curve.dim()]);
    ts.iter()
        .flat_map(|&t| {
            curve.sample(&mut cursor, t, &mut out);
            out.clone()
        })
        .collect()
}

/// The value at `t` found by plain binary search (no cursor, no index): the baseline.
#[inline]
fn sample_by_binary_search(curve: &TrackCurve, t: f64, out: &mut [f64]) {
    match Located::from_count(upper_bound(curve.times(), t), curve.times().len()) {
        Located::Inside(seg) => curve.segment_value(seg, t, out),
        _ => curve.sample(&mut SegmentCursor::new(), t, out),
    }
}

/// A lookup's answer as one number (so that the sum depends on every lookup).
#[inline]
fn located_index(l: Located) -> usize {
    match l {
        Located::Before => 0,
        Located::Inside(i) => i + 1,
        Located::After => usize::MAX >> 1,
    }
}

/// A track's keys for three.js (`times`, `values` as Tangent holds them: quaternions
/// normalised) with its interpolation and kind.
fn three_keys(curve: &TrackCurve, interpolation: &str, kind: &str) -> serde_json::Value {
    let values: Vec<f64> = (0..curve.times().len()).flat_map(|i| curve.key_value(i).to_vec()).collect();
    serde_json::json!({ "times": curve.times(), "values": values, "interpolation": interpolation, "kind": kind })
}

/// Writes what `conformance/bench.mjs` needs to time three.js r187 on the same curves: the
/// Bezier track as Tangent's three.js exporter writes it (an `InterpolateBezier` track with
/// `settings.inTangents/outTangents`), the keys of the Cubic track (three.js
/// `InterpolateSmooth`, zero-curvature endings, as Tangent's Cubic), the Linear Vec3 track
/// (`LinearInterpolant`) and the Slerp Quat track (`QuaternionLinearInterpolant`), the
/// query times of both orders, and Tangent's values there.
fn write_three_tracks() -> std::io::Result<()> {
    let path = std::env::var_os("TANGENT_BENCH_TRACKS").map_or_else(|| "target/bench-tracks/eval-vec3.json".into(), std::path::PathBuf::from);
    let bezier = Track { name: "bezier".into(), ..track_def(TrackKind::Vec3, Interpolation::Bezier, false) };
    let cubic = track_def(TrackKind::Vec3, Interpolation::Cubic, false);
    let project = Project { version: 2, tracks: vec![bezier.clone()], ..Project::default() };
    let (clip, _) = export(&project, Format::ThreeJson, &ExportOptions::default(), &|_, _| true).expect("the bench track exports");
    let clip: serde_json::Value = serde_json::from_slice(&clip).expect("the export is JSON");
    let case = |name: &str, track: &Track, three: serde_json::Value| {
        let curve = TrackCurve::new(track).unwrap();
        let (seq, random) = (times(&curve, false), times(&curve, true));
        serde_json::json!({
            "name": name,
            "three": three,
            "times": { "sequential": seq, "random": random },
            "tangent": { "sequential": values_at(&curve, &seq), "random": values_at(&curve, &random) },
        })
    };
    let linear = track_def(TrackKind::Vec3, Interpolation::Linear, false);
    let slerp = track_def(TrackKind::Quat, Interpolation::Slerp, false);
    let keys_of = |track: &Track, interpolation: &str, kind: &str| three_keys(&TrackCurve::new(track).unwrap(), interpolation, kind);
    let doc = serde_json::json!({
        "keys": KEYS,
        "samples": SAMPLES,
        "cases": [
            case("Bezier Vec3 (AutoClamped)", &bezier, serde_json::json!({ "clip": clip, "track": "bezier.position" })),
            case("Cubic Vec3", &cubic, keys_of(&cubic, "smooth", "vector")),
            case("Linear Vec3", &linear, keys_of(&linear, "linear", "vector")),
            case("Slerp Quat", &slerp, keys_of(&slerp, "linear", "quaternion")),
        ],
    });
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&path, serde_json::to_vec(&doc).expect("JSON"))
}

fn bench(c: &mut Criterion) {
    if let Err(e) = write_three_tracks() {
        eprintln!("could not write the tracks for conformance/bench.mjs: {e}");
    }
    let cases = [
        ("Step Vec3", track(TrackKind::Vec3, Interpolation::Step, false)),
        ("Linear Vec3", track(TrackKind::Vec3, Interpolation::Linear, false)),
        ("Cubic Vec3", track(TrackKind::Vec3, Interpolation::Cubic, false)),
        ("Tcb Vec3", track(TrackKind::Vec3, Interpolation::Tcb, false)),
        ("Tcb+ease Vec3", track(TrackKind::Vec3, Interpolation::Tcb, true)),
        ("Bezier Vec3 (AutoClamped)", track(TrackKind::Vec3, Interpolation::Bezier, false)),
        ("Slerp Quat", track(TrackKind::Quat, Interpolation::Slerp, false)),
        ("Nlerp Quat", track(TrackKind::Quat, Interpolation::Nlerp, false)),
        ("Squad Quat", track(TrackKind::Quat, Interpolation::Squad, false)),
    ];
    for order in ["sequential", "random"] {
        let mut g = c.benchmark_group(format!("eval {order} (10k samples, 1000 keys)"));
        g.throughput(Throughput::Elements(SAMPLES as u64));
        for (name, curve) in &cases {
            let ts = times(curve, order == "random");
            let mut out = vec![0.0; curve.dim()];
            g.bench_function(BenchmarkId::from_parameter(name), |b| {
                let mut cursor = SegmentCursor::new();
                b.iter(|| {
                    for &t in &ts {
                        curve.sample(&mut cursor, black_box(t), &mut out);
                    }
                    black_box(&out);
                });
            });
        }
        // Baselines: each mode with plain binary search for every sample.
        for (name, curve) in &cases {
            let ts = times(curve, order == "random");
            let mut out = vec![0.0; curve.dim()];
            g.bench_function(BenchmarkId::from_parameter(format!("baseline (binary search): {name}")), |b| {
                b.iter(|| {
                    for &t in &ts {
                        sample_by_binary_search(curve, black_box(t), &mut out);
                    }
                    black_box(&out);
                });
            });
        }
        // The lookup alone (no evaluation), on the Tcb track's times: the cursor and the
        // bucket index against plain binary search. What the index saves, apart from what the
        // mode's evaluation costs in both.
        let tcb = &cases[3].1;
        let ts = times(tcb, order == "random");
        g.bench_function(BenchmarkId::from_parameter("lookup only: cursor and index"), |b| {
            let mut cursor = SegmentCursor::new();
            b.iter(|| ts.iter().map(|&t| located_index(tcb.locate(&mut cursor, black_box(t)))).sum::<usize>());
        });
        g.bench_function(BenchmarkId::from_parameter("lookup only: binary search"), |b| {
            b.iter(|| ts.iter().map(|&t| located_index(Located::from_count(upper_bound(tcb.times(), black_box(t)), tcb.times().len()))).sum::<usize>());
        });
        if order == "sequential" {
            for (name, curve) in
                cases.iter().filter(|(name, _)| ["Tcb Vec3", "Cubic Vec3", "Linear Vec3", "Bezier Vec3 (AutoClamped)", "Slerp Quat"].contains(name))
            {
                let ts = times(curve, false);
                let mut out = vec![0.0; ts.len() * curve.dim()];
                g.bench_function(BenchmarkId::from_parameter(format!("sample_many: {name}")), |b| {
                    b.iter(|| {
                        curve.sample_many(black_box(&ts), &mut out);
                        black_box(&out);
                    });
                });
            }
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
