//! Evaluation throughput on a 1000-key track: sequential playback (the cached cursor's O(1)
//! path) and random order (binary search), per interpolation mode. The baseline in the same
//! run is TCB evaluated with a fresh cursor per sample (plain binary search, no cache).
//!
//! `cargo bench --bench eval`; each figure is for 10,000 samples, so ns/sample = time / 10⁴.

#[path = "../tests/common/rng.rs"]
mod rng;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tangent::{Interpolation, Key, SegmentCursor, TangentMode, Track, TrackCurve, TrackKind};

const KEYS: usize = 1000;
const SAMPLES: usize = 10_000;

fn track(kind: TrackKind, mode: Interpolation, ease: bool) -> TrackCurve {
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
    TrackCurve::new(&tr).unwrap()
}

fn times(curve: &TrackCurve, random: bool) -> Vec<f64> {
    let (t0, t1) = curve.domain();
    let mut r = rng::uniform(99);
    (0..SAMPLES).map(|i| if random { t0 + r() * (t1 - t0) } else { t0 + (t1 - t0) * i as f64 / SAMPLES as f64 }).collect()
}

fn bench(c: &mut Criterion) {
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
        // Baseline: the same TCB track with no cached segment (binary search every sample).
        let curve = &cases[3].1;
        let ts = times(curve, order == "random");
        let mut out = vec![0.0; 3];
        g.bench_function(BenchmarkId::from_parameter("baseline: Tcb Vec3, no cursor cache"), |b| {
            b.iter(|| {
                for &t in &ts {
                    curve.sample(&mut SegmentCursor::new(), black_box(t), &mut out);
                }
                black_box(&out);
            });
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
