//! Convert to Bezier (`tangent::convert::to_bezier`) on a 2,000-key Vec3 TCB track (tension,
//! continuity and bias per key, no ease: one piece a segment) and on the same track with ease
//! on every key (each segment pieced to the bound), the difference to the original measured
//! as the conversion reports it. The baseline in the same run: compiling the track
//! (`TrackCurve::new`), which every conversion does twice.
//!
//! `cargo bench --bench convert`

#[path = "../tests/common/rng.rs"]
mod rng;

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tangent::convert::to_bezier;
use tangent::{Interpolation, Key, Track, TrackCurve, TrackKind};

fn tcb_track(keys: usize, eased: bool) -> Track {
    let mut r = rng::uniform(11);
    let mut t = 0.0;
    let keys = (0..keys)
        .map(|_| {
            t += 0.02 + 0.06 * r();
            let mut k = Key::new(t, (0..3).map(|_| 4.0 * r() - 2.0).collect());
            (k.tension, k.continuity, k.bias) = (r() - 0.5, r() - 0.5, r() - 0.5);
            if eased {
                (k.ease_to, k.ease_from) = (r(), r());
            }
            k
        })
        .collect();
    Track::new("tcb", TrackKind::Vec3, Interpolation::Tcb).with_keys(keys)
}

fn bench(c: &mut Criterion) {
    let (plain, eased) = (tcb_track(2_000, false), tcb_track(2_000, true));
    for (what, track) in [("plain", &plain), ("eased", &eased)] {
        let done = to_bezier(track, 1e-4).unwrap();
        eprintln!("{what}: {} keys added, largest difference {:.3e}", done.added_keys, done.max_difference);
    }
    let mut g = c.benchmark_group("convert");
    g.sample_size(10);
    g.bench_function("2,000-key Vec3 TCB to Bezier", |b| b.iter(|| black_box(to_bezier(&plain, 1e-4).unwrap())));
    g.bench_function("2,000-key Vec3 TCB with ease to Bezier at 1e-4", |b| b.iter(|| black_box(to_bezier(&eased, 1e-4).unwrap())));
    g.bench_function("baseline: compiling the plain track", |b| b.iter(|| black_box(TrackCurve::new(&plain).unwrap())));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
