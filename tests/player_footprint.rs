//! Issue 46: what the clip player reads of issue 33's clip (30 Vec3 TCB and 30 Slerp tracks of
//! 2,000 float32 keys, made as `examples/player_bench.rs` makes it), its float32 keys kept as
//! keys (the default), is at most twice what three.js' `AnimationMixer` reads, its float32
//! times and values: 16 bytes per Vec3 key and 20 per quaternion key, 2.16 MB. Fails if what
//! the player keeps grows again. (With `Clip::with_segment_records` the player keeps a record
//! of 128 bytes per segment and a grid: 8.9 times the mixer's.)

use tangent::player::Clip;
use tangent::{Interpolation, Key, Track, TrackKind};

const M: u64 = 2_147_483_647;

/// One track of the benchmark's clip: times first, then values, rounded to float32.
#[allow(clippy::cast_possible_truncation)]
fn track(seed: u64, kind: TrackKind, mode: Interpolation, n: usize) -> Track {
    let mut s = seed;
    let mut r = move || {
        s = s * 16807 % M;
        s as f64 / M as f64
    };
    let mut t = 0.0f64;
    let times: Vec<f64> = (0..n)
        .map(|k| {
            if k > 0 {
                t += 0.01 + 0.02 * r();
            }
            f64::from(t as f32)
        })
        .collect();
    let dim = kind.dim();
    let keys = times
        .iter()
        .map(|&t| {
            let mut v: Vec<f64> = (0..dim).map(|_| 10.0 * r() - 5.0).collect();
            if dim == 4 {
                v[3] += 3.0;
                let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
                v.iter_mut().for_each(|x| *x /= norm);
            }
            Key::new(t, v.iter().map(|&x| f64::from(x as f32)).collect())
        })
        .collect();
    Track::new(format!("{seed}"), kind, mode).with_keys(keys)
}

#[test]
fn the_benchmark_clip_takes_at_most_twice_the_mixers_bytes() {
    let n = 2000;
    let mut tracks: Vec<Track> = (0..30).map(|i| track(1 + i, TrackKind::Vec3, Interpolation::Tcb, n)).collect();
    tracks.extend((0..30).map(|i| track(1000 + i, TrackKind::Quat, Interpolation::Slerp, n)));
    let records = Clip::from_tracks(&tracks).unwrap().with_segment_records().footprint();
    let clip = Clip::from_tracks(&tracks).unwrap();
    let footprint = clip.footprint();
    // three.js: a float32 time and `dim` float32 values per key.
    let mixer: usize = tracks.iter().map(|t| t.keys.len() * 4 * (1 + t.kind.dim())).sum();
    assert_eq!((footprint.keys, mixer), (60 * n, 2_160_000));
    let per_key = |bytes: usize| bytes as f64 / footprint.keys as f64;
    eprintln!(
        "player {} bytes ({:.2} per key: {} as float32 keys, {} in records, {} in their grid), mixer {} ({:.2} per key): {:.2}x",
        footprint.bytes(),
        per_key(footprint.bytes()),
        footprint.packed,
        footprint.records,
        footprint.grid,
        mixer,
        per_key(mixer),
        footprint.bytes() as f64 / mixer as f64
    );
    eprintln!("by default: {} bytes ({:.2} per key): {:.2}x", records.bytes(), per_key(records.bytes()), records.bytes() as f64 / mixer as f64);
    assert!(footprint.bytes() <= 2 * mixer, "{footprint:?} against the mixer's {mixer} bytes");
}
