//! Arc-length tables on a 1000-key Vec3 TCB path: building at E = 1e−6, and lookups in both
//! directions, sequential (cached cursor) and random. The seed's swinging-door table
//! (`tests/common/swinging_door.rs`) is built and read in the same run as the baseline.
//!
//! `cargo bench --bench arclen`. Lookup figures are for 10,000 queries (ns/query = time/10⁴).

#[path = "../tests/common/swinging_door.rs"]
#[allow(dead_code)]
mod swinging_door;

#[path = "../tests/common/rng.rs"]
mod rng;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use swinging_door::SwingingDoor;
use tangent::arclen::ArcLengthTable;
use tangent::{Interpolation, Key, PathCurve, SegmentCursor, TangentMode, Track, TrackCurve, TrackKind};

fn path(keys: usize) -> TrackCurve {
    let mut r = rng::uniform(3);
    let mut t = 0.0;
    let keys = (0..keys)
        .map(|_| {
            let k = Key::new(t, (0..3).map(|_| r() * 10.0 - 5.0).collect()).with_tcb(r() - 0.5, r() - 0.5, r() - 0.5);
            t += 0.2 + r();
            k
        })
        .collect();
    let mut tr = Track::new("path", TrackKind::Vec3, Interpolation::Tcb).with_keys(keys);
    tr.tangents = TangentMode::TimeAdjusted;
    TrackCurve::new(&tr).unwrap()
}

fn bench(c: &mut Criterion) {
    let curve = path(1000);
    let mut g = c.benchmark_group("arclen build, 1000-key Vec3 TCB");
    g.sample_size(10);
    for e in [1e-3, 1e-6] {
        g.bench_function(BenchmarkId::new("ArcLengthTable", e), |b| b.iter(|| black_box(ArcLengthTable::new(PathCurve::new(&curve).unwrap(), e).unwrap())));
    }
    g.bench_function(BenchmarkId::new("baseline: swinging door", 1e-3), |b| b.iter(|| black_box(SwingingDoor::new(&curve, 1e-3))));
    g.finish();

    let table = ArcLengthTable::new(PathCurve::new(&curve).unwrap(), 1e-6).unwrap();
    let door = SwingingDoor::new(&curve, 1e-6);
    println!("table sizes at E = 1e-6: ArcLengthTable {}, swinging door {}", table.len(), door.len());
    let (t0, t1) = curve.domain();
    let n = 10_000;
    let mut r = rng::uniform(5);
    let seq_t: Vec<f64> = (0..n).map(|i| t0 + (t1 - t0) * i as f64 / n as f64).collect();
    let rnd_t: Vec<f64> = (0..n).map(|_| t0 + (t1 - t0) * r()).collect();
    let seq_s: Vec<f64> = (0..n).map(|i| table.length() * i as f64 / n as f64).collect();
    let rnd_s: Vec<f64> = (0..n).map(|_| table.length() * r()).collect();
    let mut g = c.benchmark_group("arclen lookups (10k queries, E = 1e-6)");
    g.throughput(Throughput::Elements(n as u64));
    for (name, ts, ss) in [("sequential", &seq_t, &seq_s), ("random", &rnd_t, &rnd_s)] {
        g.bench_function(BenchmarkId::new("s(t)", name), |b| {
            let mut cur = SegmentCursor::new();
            b.iter(|| ts.iter().map(|&t| table.s_of_t(&mut cur, black_box(t))).sum::<f64>())
        });
        g.bench_function(BenchmarkId::new("t(s)", name), |b| {
            let mut cur = SegmentCursor::new();
            b.iter(|| ss.iter().map(|&s| table.t_of_s(&mut cur, black_box(s))).sum::<f64>())
        });
        g.bench_function(BenchmarkId::new("baseline: swinging door s(t)", name), |b| b.iter(|| ts.iter().map(|&t| door.s_of_t(black_box(t))).sum::<f64>()));
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
