//! Baking throughput: 1,000 tracks × 10,000 samples (a fixed rate over each track), in
//! parallel through the export path, written as GLB in memory. The baseline in the same run
//! is the same work on one thread (tracks baked one after another).
//!
//! `cargo bench --bench bake`

#[path = "../tests/common/rng.rs"]
mod rng;

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tangent::bake::{bake, Fps, Motion, Rate};
use tangent::export::{export, ExportOptions, Format};
use tangent::{Interpolation, Key, Project, Track, TrackCurve, TrackKind};

const TRACKS: usize = 1000;
const SAMPLES: usize = 10_000;

fn project() -> Project {
    let mut r = rng::uniform(11);
    let tracks = (0..TRACKS)
        .map(|i| {
            let keys = (0..20)
                .map(|k| Key::new(k as f64 * 10.0, (0..3).map(|_| r() * 10.0 - 5.0).collect()).with_tcb(r() - 0.5, 0.0, 0.0).with_ease(0.2, 0.0))
                .collect();
            Track::new(format!("t{i}"), TrackKind::Vec3, Interpolation::Tcb).with_keys(keys)
        })
        .collect();
    Project { tracks, ..Project::default() }
}

fn bench(c: &mut Criterion) {
    let p = project();
    // 190 s of keys at this rate gives 10,000 samples per track.
    let fps = (SAMPLES - 1) as f64 / 190.0;
    let options = ExportOptions::new(Fps::new(fps).unwrap());
    let mut g = c.benchmark_group("bake 1,000 tracks x 10,000 samples");
    g.sample_size(10);
    g.bench_function("export GLB, tracks in parallel", |b| b.iter(|| black_box(export(&p, Format::Glb, &options, &|_, _| true).unwrap())));
    let curves: Vec<TrackCurve> = p.tracks.iter().map(|t| TrackCurve::new(t).unwrap()).collect();
    g.bench_function("baseline: bake one track after another", |b| {
        b.iter(|| {
            for c in &curves {
                black_box(bake(c, Rate::fixed(fps).unwrap(), Motion::Raw));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
