//! Key reduction throughput: a 10,000-sample Vec3 track (motion-capture-like: smooth motion
//! plus noise, 120 fps, Linear keys as samples are) reduced at E = 1e-3; and a project of
//! 100 such tracks × 2,000 samples reduced with every track in parallel. The baseline in the
//! same run is a plain linear adaptive bake of the same track at the same bound.
//!
//! `cargo bench --bench reduce`

#[path = "../tests/common/rng.rs"]
mod rng;

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tangent::bake::{bake, Motion, Rate};
use tangent::reduce::{project::reduce_tracks, reduce_track, Tolerance};
use tangent::{Interpolation, Key, Project, Track, TrackCurve, TrackKind};

fn mocap(name: &str, samples: usize, seed: u64) -> Track {
    let mut r = rng::uniform(seed);
    let phase: Vec<f64> = (0..3).map(|_| r() * 6.0).collect();
    let keys = (0..samples)
        .map(|i| {
            let t = i as f64 / 120.0;
            let v = (0..3).map(|c| (t * (0.7 + c as f64 * 0.3) + phase[c]).sin() * 0.5 + (t * 3.1 + phase[c]).sin() * 0.1 + (r() - 0.5) * 2e-4).collect();
            Key::new(t, v)
        })
        .collect();
    Track::new(name, TrackKind::Vec3, Interpolation::Linear).with_keys(keys)
}

fn bench(c: &mut Criterion) {
    let tol = Tolerance::new(1e-3, tangent::reduce::DEFAULT_ANGLE_DEG).unwrap();
    let track = mocap("hips", 10_000, 5);
    let r = reduce_track(&track, tol).unwrap();
    eprintln!("10,000 samples -> {} keys, max error {:.3e}", r.keys_after, r.max_error);
    let mut g = c.benchmark_group("reduce");
    g.sample_size(10);
    g.bench_function("Vec3 10,000 samples at 1e-3", |b| b.iter(|| black_box(reduce_track(&track, tol).unwrap())));
    let curve = TrackCurve::new(&track).unwrap();
    g.bench_function("baseline: linear adaptive bake, same track", |b| b.iter(|| black_box(bake(&curve, Rate::adaptive(1e-3).unwrap(), Motion::Raw))));
    let project = Project { tracks: (0..100).map(|i| mocap(&format!("bone{i}"), 2_000, i)).collect(), ..Project::default() };
    g.bench_function("100 tracks x 2,000 samples, parallel", |b| b.iter(|| black_box(reduce_tracks(&project, &[], tol, &|_, _| {}))));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
