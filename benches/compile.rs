//! Compiling rotation tracks: `TrackCurve::new` on a 100,000-key Quat track of half-degree
//! steps at 120 fps (a motion-capture take), Slerp (the baseline in the same run) and Squad,
//! whose segments are fitted as polynomials (`quat::SquadPolys`); and `respliced` after one key
//! turned, which for Squad reuses the fits of the segments that did not change.
//!
//! `cargo bench --bench compile`

#[path = "../tests/common/rng.rs"]
mod rng;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;
use tangent::{quat, Interpolation, Key, Track, TrackCurve, TrackKind};

const KEYS: usize = 100_000;

/// Each key the previous turned by up to about half a degree about a random axis.
fn take(mode: Interpolation) -> Track {
    let mut r = rng::uniform(5);
    let mut q = quat::normalize(&[0.1, 0.2, 0.3, 0.9]);
    let keys = (0..KEYS)
        .map(|i| {
            let step = quat::normalize(&[(r() - 0.5) * 0.02, (r() - 0.5) * 0.02, (r() - 0.5) * 0.02, 1.0]);
            q = quat::normalize(&quat::mul(&step, &q));
            Key::new(i as f64 / 120.0, q.to_vec())
        })
        .collect();
    Track::new("take", TrackKind::Quat, mode).with_keys(keys)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("compile a 100,000-key rotation track");
    g.sample_size(10);
    for mode in [Interpolation::Slerp, Interpolation::Squad] {
        let track = take(mode);
        g.bench_function(BenchmarkId::new("new", format!("{mode:?}")), |b| b.iter(|| TrackCurve::new(black_box(&track)).unwrap()));
        let curve = TrackCurve::new(&track).unwrap();
        let mut turned = track.clone();
        turned.keys[KEYS / 2].value = quat::normalize(&[0.3, 0.1, 0.0, 1.0]).to_vec();
        g.bench_function(BenchmarkId::new("respliced, one key turned", format!("{mode:?}")), |b| {
            b.iter_batched(|| curve.clone(), |c| c.respliced(black_box(&turned), KEYS / 2, 1).unwrap(), criterion::BatchSize::LargeInput);
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
