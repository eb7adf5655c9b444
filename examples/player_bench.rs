//! Tangent's side of issue 33's clip benchmark: the clip player ([`tangent::player`]) on the
//! clip that `conformance/player_bench.mjs` plays with three.js r187's `AnimationMixer`.
//! `tools/bench_vs_three.sh` runs this, then the Node script, which prints the four lines
//! of both sides.
//!
//! The clip, exactly as the Node script makes it: 30 Vec3 Tcb tracks and 30 Quat Slerp tracks
//! of 2,000 keys; Park–Miller `seed = seed·16807 mod (2³¹−1)`, `r = seed/(2³¹−1)`, seeded
//! 1+i (Vec3 track i) and 1000+i (Quat track i); per track its times first (key 0 at 0, then
//! each key `0.01 + 0.02·r` after the one before, summed in f64), then its values key by key
//! (`10·r − 5` per component, 3 added to w, a quaternion normalised in f64); every time and
//! value rounded to f32, as three.js stores them, and given to Tangent as those f64s. The data
//! checksum is 32-bit FNV-1a over the f32 bit patterns, track by track, times then values.
//!
//! Timing, as the Node script times the mixer: sequential, rounds of 1,000
//! `advance(1/60)` frames (the clock runs on, looping); random, rounds of 1,000
//! `seek(r·duration)`, the next 1,000 of 100,000 times drawn once from Park–Miller seed 4242.
//! Median ns per frame of the rounds timed after 100 untimed ones: at least 200 rounds and at
//! least one second of them, as the Node script times the mixer (`PLAYER_BENCH_MIN_SECONDS`
//! sets the time; `PLAYER_BENCH_QUANTILE=0.1` gives the 10th percentile instead, for comparing
//! builds on a busy machine).
//!
//! `cargo run --release --example player_bench -- OUT.json [--breakdown]` writes the figures,
//! the checksum and the values of 120 sequential frames and 120 seeks (which the Node script
//! compares with the mixer's) to OUT.json; `--breakdown` also prints to stderr what a frame's
//! parts cost (the clock alone, each half of the clip alone, the bytes a frame touches, the
//! whole clip evaluated as on a processor without AVX2, the bytes per key the player reads
//! against the mixer's, and the parts again with a record per segment, issue 46).
//! `PLAYER_BENCH_RECORDS=1` times the main figures with a record per segment
//! (`Clip::with_segment_records`) instead of the float32 keys kept as keys.

use std::hint::black_box;
use std::time::Instant;
use tangent::player::{Clip, ClipPlayer};
use tangent::{Interpolation, Key, Track, TrackKind};

const M: u64 = 2_147_483_647;
const TRACKS: usize = 30;
const KEYS: usize = 2000;
const FRAMES: usize = 1000;
const WARMUP: usize = 100;
const ROUNDS: usize = 200;
const RANDOM_TIMES: usize = 100_000;
const COMPARED: usize = 120;

fn park_miller(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed;
    move || {
        s = s * 16807 % M;
        s as f64 / M as f64
    }
}

/// Times and values of one track, rounded to f32 (the Node script's `generate`).
#[allow(clippy::cast_possible_truncation)]
fn generate(seed: u64, dim: usize) -> (Vec<f32>, Vec<f32>) {
    let mut r = park_miller(seed);
    let mut t = 0.0f64;
    let times = (0..KEYS)
        .map(|k| {
            if k > 0 {
                t += 0.01 + 0.02 * r();
            }
            t as f32
        })
        .collect();
    let mut values = Vec::with_capacity(KEYS * dim);
    for _ in 0..KEYS {
        let mut v: Vec<f64> = (0..dim).map(|_| 10.0 * r() - 5.0).collect();
        if dim == 4 {
            v[3] += 3.0;
            let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]).sqrt();
            v.iter_mut().for_each(|x| *x /= n);
        }
        values.extend(v.iter().map(|&x| x as f32));
    }
    (times, values)
}

fn fnv1a(mut hash: u32, data: &[f32]) -> u32 {
    for x in data {
        for b in x.to_le_bytes() {
            hash = (hash ^ u32::from(b)).wrapping_mul(16_777_619);
        }
    }
    hash
}

/// Median ns per frame of `frame` over rounds of `FRAMES` calls: at least [`ROUNDS`] rounds
/// and at least [`min_seconds`] of them, after [`WARMUP`] untimed ones.
fn time(mut frame: impl FnMut(usize)) -> f64 {
    let mut next = 0;
    let mut round = || {
        for _ in 0..FRAMES {
            frame(next);
            next += 1;
        }
    };
    for _ in 0..WARMUP {
        round();
    }
    let (begin, min) = (Instant::now(), min_seconds());
    let mut ns = Vec::with_capacity(ROUNDS);
    while ns.len() < ROUNDS || begin.elapsed().as_secs_f64() < min {
        let start = Instant::now();
        round();
        ns.push(start.elapsed().as_nanos() as f64 / FRAMES as f64);
    }
    ns.sort_by(f64::total_cmp);
    ns[((ns.len() as f64 * quantile()) as usize).min(ns.len() - 1)]
}

/// How long [`time`] times at least, in seconds: 1, or `PLAYER_BENCH_MIN_SECONDS` (0 gives
/// exactly [`ROUNDS`] rounds). Both sides time at least this long (the Node script too), so
/// that a burst of other work on the host, which comes and goes within a fraction of a second
/// (seen here: 20 rounds of 1,000 frames at 523–588 ns among rounds of 400), weighs on both
/// medians alike. 200 rounds of the player took 80 ms, of the mixer 1.8 s.
fn min_seconds() -> f64 {
    std::env::var("PLAYER_BENCH_MIN_SECONDS").ok().and_then(|q| q.parse().ok()).filter(|q: &f64| q.is_finite() && *q >= 0.0).unwrap_or(1.0)
}

/// Which round's figure [`time`] gives, in `[0, 1]`: the median (0.5), or, to compare builds on
/// a busy machine, a lower quantile from `PLAYER_BENCH_QUANTILE` (rounds slowed by other work
/// then count less).
fn quantile() -> f64 {
    std::env::var("PLAYER_BENCH_QUANTILE").ok().and_then(|q| q.parse().ok()).filter(|q| (0.0..=1.0).contains(q)).unwrap_or(0.5)
}

/// The clip as `PLAYER_BENCH_RECORDS=1` asks: a record per segment
/// (`Clip::with_segment_records`), else the default (float32 keys kept as keys, issue 46).
fn keys_or_records(clip: Clip) -> Clip {
    if std::env::var("PLAYER_BENCH_RECORDS").is_ok_and(|v| v == "1") {
        clip.with_segment_records()
    } else {
        clip
    }
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let breakdown = args.iter().any(|a| a == "--breakdown");
    let Some(out_path) = args.iter().find(|a| !a.starts_with("--")) else {
        anyhow::bail!("usage: player_bench OUT.json [--breakdown]");
    };

    let mut checksum = 2_166_136_261u32;
    let mut tracks = Vec::new();
    for (prefix, kind, mode, seed) in [("v", TrackKind::Vec3, Interpolation::Tcb, 1), ("q", TrackKind::Quat, Interpolation::Slerp, 1000)] {
        for i in 0..TRACKS {
            let dim = kind.dim();
            let (times, values) = generate(seed + i as u64, dim);
            checksum = fnv1a(fnv1a(checksum, &times), &values);
            let keys = times.iter().zip(values.chunks_exact(dim)).map(|(&t, v)| Key::new(f64::from(t), v.iter().map(|&x| f64::from(x)).collect())).collect();
            tracks.push(Track::new(format!("{prefix}{i}"), kind, mode).with_keys(keys));
        }
    }
    let clip = keys_or_records(Clip::from_tracks(&tracks)?);
    let fresh = || clip.player();
    let mut player = fresh();
    let duration = clip.duration();
    let mut draw = park_miller(4242);
    let random_times: Vec<f64> = (0..RANDOM_TIMES).map(|_| draw() * duration).collect();
    let mut frame = vec![0.0; clip.len()];

    // The values the Node script compares: frames 1..=COMPARED from the start, then seeks.
    let mut sequential_values = Vec::new();
    for _ in 0..COMPARED {
        player.advance(1.0 / 60.0, &mut frame)?;
        sequential_values.push(frame.clone());
    }
    let mut random_values = Vec::new();
    for &t in &random_times[..COMPARED] {
        player.seek(t, &mut frame)?;
        random_values.push(frame.clone());
    }

    let mut player = fresh();
    let sequential_ns = time(|_| {
        let _ = player.advance(black_box(1.0 / 60.0), black_box(&mut frame));
    });
    let random_ns = time(|k| {
        let _ = player.seek(black_box(random_times[k % RANDOM_TIMES]), black_box(&mut frame));
    });
    black_box(&frame);

    let quat_offsets: Vec<usize> = clip.offsets()[TRACKS..2 * TRACKS].to_vec();
    let per_track = |ns: f64| ns / (2 * TRACKS) as f64;
    let notes = vec![format!("tangent player: {:.2} ns per track per frame sequential, {:.2} random", per_track(sequential_ns), per_track(random_ns))];
    let json = serde_json::json!({
        "checksum": format!("{checksum:08x}"),
        "duration": duration,
        "sequential_ns": sequential_ns,
        "random_ns": random_ns,
        "quat_offsets": quat_offsets,
        "sequential_values": sequential_values,
        "random_values": random_values,
        "notes": notes,
    });
    std::fs::write(out_path, serde_json::to_string(&json)?)?;
    eprintln!("tangent player: sequential {sequential_ns:.1} ns/frame, random {random_ns:.1} ns/frame, data checksum {checksum:08x}");
    if breakdown {
        print_breakdown(&tracks, &random_times)?;
    }
    Ok(())
}

/// What a frame's parts cost: the clock alone, each half of the clip alone, the whole clip
/// cut to its first 100 keys per track (every segment then in the processor's caches, so the
/// difference to the full clip is what reaching memory costs), and the whole clip evaluated
/// as on a processor without AVX2.
fn print_breakdown(tracks: &[Track], random_times: &[f64]) -> anyhow::Result<()> {
    let clip = Clip::from_tracks(tracks)?;
    let mut player = clip.player();
    let clock = time(|_| player.mixer_mut().update(black_box(1.0 / 60.0)));
    eprintln!("clock alone (mixer.update): {clock:.1} ns/frame");
    // Issue 46: what the player reads against what the mixer reads (a float32 time and `dim`
    // float32 values per key).
    let mixer: usize = tracks.iter().map(|t| t.keys.len() * 4 * (1 + t.kind.dim())).sum();
    for (what, f) in [("float32 keys kept (default)", clip.footprint()), ("records", Clip::from_tracks(tracks)?.with_segment_records().footprint())] {
        let per_key = |bytes: usize| bytes as f64 / f.keys as f64;
        eprintln!(
            "bytes per key, {what}: player {:.2} ({} bytes: {} as float32 keys, {} in records, {} in their grid), three mixer {:.2} ({} bytes): {:.2}x",
            per_key(f.bytes()),
            f.bytes(),
            f.packed,
            f.records,
            f.grid,
            per_key(mixer),
            mixer,
            f.bytes() as f64 / mixer as f64
        );
    }
    let short: Vec<Track> = tracks.iter().map(|t| t.clone().with_keys(t.keys[..100].to_vec())).collect();
    let parts: [(&str, &[Track], bool, bool); 9] = [
        ("30 Vec3 Tcb", &tracks[..TRACKS], false, false),
        ("30 Quat Slerp", &tracks[TRACKS..], false, false),
        ("all 60", tracks, false, false),
        ("all 60 cut to 100 keys", &short, false, false),
        ("all 60, evaluated as without AVX2 (ClipPlayer::portable)", tracks, true, false),
        ("records: 30 Vec3 Tcb", &tracks[..TRACKS], false, true),
        ("records: 30 Quat Slerp", &tracks[TRACKS..], false, true),
        ("records: all 60", tracks, false, true),
        ("records: all 60 cut to 100 keys", &short, false, true),
    ];
    for (what, part, portable, records) in parts {
        let clip = Clip::from_tracks(part)?;
        let clip = if records { clip.with_segment_records() } else { clip };
        let duration = clip.duration();
        let mut player = if portable { ClipPlayer::portable(&clip) } else { clip.player() };
        let mut frame = vec![0.0; clip.len()];
        let seq = time(|_| {
            let _ = player.advance(black_box(1.0 / 60.0), black_box(&mut frame));
        });
        let rnd = time(|k| {
            let _ = player.seek(black_box(random_times[k % random_times.len()] % duration), black_box(&mut frame));
        });
        let n = part.len() as f64;
        eprintln!("{what}: sequential {seq:.1} ns/frame ({:.2} per track), random {rnd:.1} ({:.2} per track)", seq / n, rnd / n);
    }
    Ok(())
}
