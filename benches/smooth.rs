//! Smoothing 100 tracks × 36,000 keys (issue 32's target: under 1 s on this 2-core machine):
//! Butterworth (order 2, 6 Hz) and Gaussian (σ = 0.02 s, 2.4 keys at 120 Hz) through
//! `smooth_tracks` (rayon across tracks), each run including the measured difference.
//! `cargo bench --bench smooth`.

use criterion::{criterion_group, criterion_main, Criterion};
use tangent::model::{Interpolation, Key, Track, TrackKind};
use tangent::smooth::{smooth_tracks, Filter};

/// 100 Linear tracks of 36,000 keys at 120 Hz (five minutes of a mocap take): 70 Vec3, 30
/// Scalar, slow sines plus deterministic jitter.
fn take() -> Vec<Track> {
    (0..100)
        .map(|j| {
            let kind = if j < 70 { TrackKind::Vec3 } else { TrackKind::Scalar };
            let mut t = Track::new(format!("t{j}"), kind, Interpolation::Linear);
            t.keys = (0..36_000)
                .map(|i| {
                    let time = i as f64 / 120.0;
                    let jitter = (((i * 7919 + j * 104_729) % 1000) as f64 / 1000.0 - 0.5) * 0.02;
                    let v = (0..kind.dim()).map(|c| (time * (0.3 + 0.1 * c as f64) + j as f64).sin() + jitter).collect();
                    Key::new(time, v)
                })
                .collect();
            t
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let tracks = take();
    let which: Vec<usize> = (0..tracks.len()).collect();
    let mut g = c.benchmark_group("smooth_100x36000");
    g.sample_size(10);
    for (name, filter) in [("butterworth", Filter::butterworth(6.0, 2).unwrap()), ("gaussian", Filter::gaussian(0.02).unwrap())] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let r = smooth_tracks(&tracks, &which, &filter);
                assert!(r.iter().all(Result::is_ok));
                r
            });
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
