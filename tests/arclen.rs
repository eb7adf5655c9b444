//! Arc-length tables: the reference lengths (scipy quad), the true error of `s(t)` and `t(s)`
//! on 10,000 points against an independent Gauss–Kronrod integration for E = 1e−2 … 1e−6,
//! degenerate paths, table size against the seed's swinging-door method, constant speed.

mod common;

use common::gauss_kronrod::{arc_length_between, true_errors};
use common::swinging_door::SwingingDoor;
use common::*;
use tangent::arclen::{ArcLengthTable, ConstantSpeed};
use tangent::{Interpolation, Key, PathCurve, SegmentCursor, TangentMode, Track, TrackCurve, TrackKind};

#[test]
fn reference_lengths_and_inverse() {
    for (name, case) in cases("arclen_0") {
        let curve = TrackCurve::new(&kb_track(&case)).unwrap();
        let table = ArcLengthTable::new(PathCurve::new(&curve).unwrap(), 1e-11).unwrap();
        let tol = tolerance(&case);
        let expected = case["expected"].as_array().unwrap();
        let queries = case["queries"].as_array().unwrap();
        assert!(within(table.length(), num(&expected[0]), tol), "{name}: L = {}", table.length());
        let mut c = SegmentCursor::new();
        for (t, want) in nums(&queries[1]["t"]).iter().zip(nums(&expected[1])) {
            let got = table.s_of_t(&mut c, *t);
            assert!(within(got, want, tol), "{name}: s({t}) = {got}, want {want}");
        }
        // t(s) is unique except at stops; compare lengths at the returned time instead.
        for (s, want_t) in nums(&queries[2]["s"]).iter().zip(nums(&expected[2])) {
            let t = table.t_of_s(&mut c, *s);
            assert!(within(t, want_t, (1e-8, 1e-8)), "{name}: t({s}) = {t}, want {want_t}");
        }
    }
}

fn table_errors(curve: &TrackCurve, table: &ArcLengthTable) -> (f64, f64) {
    let (mut c1, mut c2) = (SegmentCursor::new(), SegmentCursor::new());
    true_errors(curve, &mut |t| table.s_of_t(&mut c1, t), &mut |s| table.t_of_s(&mut c2, s), table.length())
}

/// A deterministic pseudo-random path (xorshift), TCB values in range.
pub fn random_path(seed: u64, kind: TrackKind, keys: usize, scale: f64) -> Track {
    let mut rnd = common::rng::uniform(seed);
    let mut t = 0.0;
    let keys = (0..keys)
        .map(|_| {
            let value = (0..kind.dim()).map(|_| (rnd() * 10.0 - 5.0) * scale).collect();
            let k = Key::new(t, value)
                .with_tcb(rnd() * 1.6 - 0.8, rnd() * 1.6 - 0.8, rnd() * 1.6 - 0.8)
                .with_ease(if rnd() < 0.3 { rnd() } else { 0.0 }, if rnd() < 0.3 { rnd() } else { 0.0 });
            t += 0.3 + rnd() * 2.0;
            k
        })
        .collect();
    let mut track = Track::new("random", kind, Interpolation::Tcb).with_keys(keys);
    if seed % 2 == 1 {
        track.tangents = TangentMode::TimeAdjusted;
    }
    track
}

#[test]
fn true_error_within_bound_on_random_paths() {
    for seed in 0..6 {
        let kind = if seed % 2 == 0 { TrackKind::Vec2 } else { TrackKind::Vec3 };
        let curve = TrackCurve::new(&random_path(seed, kind, 8, 1.0)).unwrap();
        for e in [1e-2, 1e-3, 1e-4, 1e-5, 1e-6] {
            let table = ArcLengthTable::new(PathCurve::new(&curve).unwrap(), e).unwrap();
            let (es, et) = table_errors(&curve, &table);
            assert!(es <= e && et <= e, "seed {seed} E={e}: s err {es:e}, t err {et:e}, {} samples", table.len());
        }
    }
}

#[test]
fn other_interpolations_with_derivatives() {
    for interp in [Interpolation::Linear, Interpolation::Cubic] {
        let mut track = random_path(3, TrackKind::Vec3, 7, 1.0);
        track.interpolation = interp;
        let curve = TrackCurve::new(&track).unwrap();
        let table = ArcLengthTable::new(PathCurve::new(&curve).unwrap(), 1e-5).unwrap();
        let (es, et) = table_errors(&curve, &table);
        assert!(es <= 1e-5 && et <= 1e-5, "{interp:?}: {es:e} {et:e}");
    }
    let step = Track::new("s", TrackKind::Vec2, Interpolation::Step).with_keys(vec![Key::new(0.0, vec![0.0, 0.0])]);
    assert!(PathCurve::new(&TrackCurve::new(&step).unwrap()).is_err());
    let scalar = Track::new("s", TrackKind::Scalar, Interpolation::Linear).with_keys(vec![Key::new(0.0, vec![0.0])]);
    assert!(PathCurve::new(&TrackCurve::new(&scalar).unwrap()).is_err());
}

fn path(keys: &[(f64, [f64; 2])], tcb: (f64, f64, f64)) -> TrackCurve {
    let keys = keys.iter().map(|(t, v)| Key::new(*t, v.to_vec()).with_tcb(tcb.0, tcb.1, tcb.2)).collect();
    TrackCurve::new(&Track::new("p", TrackKind::Vec2, Interpolation::Tcb).with_keys(keys)).unwrap()
}

fn assert_sane(name: &str, curve: &TrackCurve, e: f64) {
    let table = ArcLengthTable::new(PathCurve::new(curve).unwrap(), e).unwrap();
    let mut c = SegmentCursor::new();
    let (t0, t1) = curve.domain();
    let mut last = -1.0;
    for i in 0..=2000 {
        let t = t0 + (t1 - t0) * i as f64 / 2000.0;
        let s = table.s_of_t(&mut c, t);
        assert!(s.is_finite() && s >= last, "{name}: s not monotone at {t}");
        last = s;
    }
    for i in 0..=2000 {
        let t = table.t_of_s(&mut c, table.length() * i as f64 / 2000.0);
        assert!(t.is_finite() && t >= t0 && t <= t1, "{name}: t(s) = {t}");
    }
    if t1 > t0 {
        let (es, et) = table_errors(curve, &table);
        assert!(es <= table.tolerance() && et <= table.tolerance(), "{name}: {es:e} {et:e} (E {})", table.tolerance());
        assert!((table.length() - arc_length_between(curve, t0, t1)).abs() <= table.tolerance());
    }
}

#[test]
fn degenerate_paths() {
    // Coincident keys: a stop in the middle of the path.
    assert_sane("coincident", &path(&[(0.0, [0.0, 0.0]), (1.0, [1.0, 1.0]), (2.0, [1.0, 1.0]), (3.0, [3.0, 0.0])], (0.0, 0.0, 0.0)), 1e-6);
    // A cusp: tension 1 zeroes the tangent, so the speed is zero at the middle key.
    assert_sane("cusp", &path(&[(0.0, [0.0, 0.0]), (1.0, [1.0, 2.0]), (2.0, [2.0, 0.0])], (1.0, 0.0, 0.0)), 1e-6);
    // A cusp inside a segment: a loop that turns back on itself (C = −1 corners, bias).
    assert_sane("turnback", &path(&[(0.0, [0.0, 0.0]), (1.0, [2.0, 0.0]), (2.0, [0.0, 0.0]), (3.0, [2.0, 0.0])], (0.0, -1.0, 0.0)), 1e-6);
    // Zero length: every key at one place.
    let still = path(&[(0.0, [1.0, 1.0]), (1.0, [1.0, 1.0]), (2.0, [1.0, 1.0])], (0.0, 0.0, 0.0));
    let table = ArcLengthTable::new(PathCurve::new(&still).unwrap(), 1e-6).unwrap();
    assert_eq!(table.length(), 0.0);
    // Past the (zero) length: the end of the path.
    assert_eq!(table.t_of_s(&mut SegmentCursor::new(), 0.5), 2.0);
    assert_eq!(table.t_of_s(&mut SegmentCursor::new(), 0.0), 0.0);
    assert_sane("still", &still, 1e-6);
    // One key.
    let one = path(&[(0.5, [1.0, 1.0])], (0.0, 0.0, 0.0));
    let table = ArcLengthTable::new(PathCurve::new(&one).unwrap(), 1e-6).unwrap();
    assert_eq!((table.length(), table.s_of_t(&mut SegmentCursor::new(), 3.0)), (0.0, 0.0));
    assert_sane("one key", &one, 1e-6);
    // A jump (two keys at one time) contributes no length.
    assert_sane("jump", &path(&[(0.0, [0.0, 0.0]), (1.0, [1.0, 0.0]), (1.0, [5.0, 5.0]), (2.0, [6.0, 5.0])], (0.0, 0.0, 0.0)), 1e-6);
    // Huge and tiny coordinate scales.
    let huge = TrackCurve::new(&random_path(11, TrackKind::Vec3, 6, 1e6)).unwrap();
    assert_sane("huge", &huge, 1e-3);
    let tiny = TrackCurve::new(&random_path(12, TrackKind::Vec2, 6, 1e-6)).unwrap();
    assert_sane("tiny", &tiny, 1e-12);
}

#[test]
fn tolerance_below_f64_resolution_is_raised_and_reported() {
    let huge = TrackCurve::new(&random_path(13, TrackKind::Vec2, 5, 1e9)).unwrap();
    let table = ArcLengthTable::new(PathCurve::new(&huge).unwrap(), 1e-9).unwrap();
    assert!(table.tolerance() > 1e-9 && table.tolerance() < table.length() * 1e-12);
    assert!(ArcLengthTable::new(PathCurve::new(&huge).unwrap(), 0.0).is_err());
    assert!(ArcLengthTable::new(PathCurve::new(&huge).unwrap(), f64::NAN).is_err());
}

#[test]
fn baseline_reproduces_reference_sizes_and_ours_is_at_most_a_quarter() {
    let mut rows = Vec::new();
    for (name, case) in cases("arclen_table_") {
        let curve = TrackCurve::new(&kb_track(&case)).unwrap();
        let e = num(&case["settings"]["err"]);
        let want = &case["expected"][0];
        let door = SwingingDoor::new(&curve, e);
        let size_ref = want["table_size"].as_u64().unwrap() as usize;
        // Our re-implementation of the seed's method agrees with the reference generator.
        assert!(door.len().abs_diff(size_ref) <= 1, "{name}: baseline {} vs reference {size_ref}", door.len());
        let ours = ArcLengthTable::new(PathCurve::new(&curve).unwrap(), e).unwrap();
        let (es, et) = table_errors(&curve, &ours);
        assert!(es <= e && et <= e, "{name}: errors {es:e} {et:e}");
        if e <= 1e-3 {
            assert!(ours.len() * 4 <= size_ref, "{name}: {} samples vs baseline {size_ref}", ours.len());
        }
        rows.push((name, e, size_ref, ours.len()));
    }
    for (name, e, base, ours) in rows {
        println!("{name}: E={e:e} baseline {base} samples, ours {ours}");
    }
}

#[test]
fn constant_speed_deviation_at_1000_steps() {
    for seed in 0..4 {
        let curve = TrackCurve::new(&random_path(100 + seed, TrackKind::Vec3, 8, 1.0)).unwrap();
        let table = ArcLengthTable::new(PathCurve::new(&curve).unwrap(), 1e-6).unwrap();
        let (t0, t1) = curve.domain();
        let duration = 2.5;
        let mut motion = ConstantSpeed::new(PathCurve::new(&curve).unwrap(), &table, duration);
        let mean = table.length() / duration;
        let mut worst: f64 = 0.0;
        for i in 0..=1000 {
            let v = motion.speed(duration * i as f64 / 1000.0);
            worst = worst.max((v - mean).abs() / mean);
        }
        assert!(worst <= 1e-4, "seed {seed}: deviation {worst:e}");
        // Positions: equal clip steps cover equal lengths.
        let mut p = vec![0.0; 3];
        motion.sample(duration, &mut p);
        let mut end = vec![0.0; 3];
        curve.evaluator().sample(t1, &mut end);
        assert_eq!(p, end);
        let _ = t0;
    }
}
