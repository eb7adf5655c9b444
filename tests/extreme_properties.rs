//! No NaN out, no panic in (issue 14): finite values and times across the whole f64 range
//! (1e-300 … 1e300, mixed signs, near-equal times) in every kind and mode. A track either is
//! refused with an error, or evaluates (value, velocity, acceleration, before, inside and after
//! its keys) to finite numbers only; arc length, baking and reduction of it give finite
//! results or an error (an arc-length table is capped at `arclen::MAX_PIECES` pieces).

use proptest::prelude::*;
use tangent::bake::{bake, Motion, Rate};
use tangent::reduce::{reduce_track, Tolerance};
use tangent::{Infinity, Interpolation, Key, SegmentCursor, Track, TrackCurve, TrackKind};

/// A magnitude 10^e with a sign, e across the f64 range.
fn big() -> impl Strategy<Value = f64> {
    (-300i32..300, prop::bool::ANY, 1.0f64..10.0).prop_map(|(e, neg, m)| if neg { -m * 10f64.powi(e) } else { m * 10f64.powi(e) })
}

fn track_strategy() -> impl Strategy<Value = Track> {
    (prop::sample::select(TrackKind::ALL.to_vec()), 2usize..7).prop_flat_map(|(kind, n)| {
        let modes: Vec<Interpolation> = Interpolation::ALL.into_iter().filter(|m| m.supports(kind)).collect();
        let key = (big(), prop::sample::select(vec![0u8, 1, 2]), prop::collection::vec(big(), kind.dim()));
        (prop::sample::select(modes), big(), prop::collection::vec(key, n), prop::sample::select(Infinity::ALL.to_vec())).prop_map(
            move |(mode, start, raw, inf)| {
                let mut t = start;
                let keys = raw
                    .into_iter()
                    .map(|(gap, how, value)| {
                        // A huge or tiny gap, or the next representable time (near-equal).
                        t = match how {
                            0 => t + gap.abs(),
                            1 => t.next_up(),
                            _ => t + gap.abs() * 1e-300,
                        };
                        if !t.is_finite() {
                            t = f64::MAX;
                        }
                        Key::new(t, value)
                    })
                    .collect();
                let mut track = Track::new("x", kind, mode).with_keys(keys);
                if inf.supports(kind) {
                    (track.pre_infinity, track.post_infinity) = (inf, inf);
                }
                track
            },
        )
    })
}

/// The issue's examples: a Scalar Tcb track with keys ±1e308 and a Cubic track whose key
/// times span ±1e308 evaluated to NaN; now they are refused naming the track and keys.
#[test]
fn the_issues_examples_are_refused_with_a_message() {
    let tcb = Track::new("a", TrackKind::Scalar, Interpolation::Tcb).with_keys(vec![
        Key::new(0.0, vec![1e308]),
        Key::new(1.0, vec![-1e308]),
        Key::new(2.0, vec![1e308]),
    ]);
    let e = TrackCurve::new(&tcb).unwrap_err().to_string();
    assert_eq!(e, "track \"a\", keys 0 and 1: the curve's value would overflow (values too large, or too large for the time between the keys); use smaller values or keys further apart");
    let cubic = Track::new("c", TrackKind::Scalar, Interpolation::Cubic).with_keys(vec![
        Key::new(-1e308, vec![1.0]),
        Key::new(0.0, vec![2.0]),
        Key::new(1e308, vec![0.0]),
    ]);
    match TrackCurve::new(&cubic) {
        Err(e) => assert!(e.to_string().starts_with("track \"c\", keys"), "{e}"),
        Ok(curve) => {
            let mut ev = curve.evaluator();
            for t in [-1e308, -1.0, 0.0, 0.5, 1e307, 1e308] {
                assert!(ev.value_at(t)[0].is_finite(), "at {t}");
            }
        }
    }
    // Moderate values next to them still load.
    let fine = Track::new("f", TrackKind::Scalar, Interpolation::Tcb).with_keys(vec![
        Key::new(0.0, vec![1e150]),
        Key::new(1.0, vec![-1e150]),
        Key::new(2.0, vec![1e150]),
    ]);
    assert!(TrackCurve::new(&fine).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn extreme_tracks_are_refused_or_finite(track in track_strategy()) {
        let Ok(curve) = TrackCurve::new(&track) else { return Ok(()) };
        let dim = curve.dim();
        let (t0, t1) = curve.domain();
        let mut times = vec![t0, t1, t0 - (t1 - t0).abs().max(1.0), t1 + (t1 - t0).abs().max(1.0), f64::MAX, -f64::MAX];
        for w in curve.times().windows(2) {
            times.extend([w[0] + (w[1] - w[0]) * 0.5, w[0] + (w[1] - w[0]) * 0.01, w[1] - (w[1] - w[0]) * 0.01]);
        }
        let (mut cursor, mut out) = (SegmentCursor::new(), vec![0.0; dim]);
        for &t in times.iter().filter(|t| t.is_finite()) {
            curve.sample(&mut cursor, t, &mut out);
            prop_assert!(out.iter().all(|v| v.is_finite()), "value at {}: {:?}", t, out);
            if track.interpolation.has_derivative() {
                curve.velocity(&mut cursor, t, &mut out);
                prop_assert!(out.iter().all(|v| v.is_finite()), "velocity at {}: {:?}", t, out);
            }
        }
        for s in 0..curve.segment_count() {
            if curve.times()[s + 1] > curve.times()[s] && track.interpolation.has_derivative() {
                for u in [0.0, 0.3, 1.0] {
                    curve.segment_acceleration(s, u, &mut out);
                    prop_assert!(out.iter().all(|v| v.is_finite()), "acceleration in segment {} at {}: {:?}", s, u, out);
                }
            }
        }
        if t1 > t0 && (t1 - t0).is_finite() {
            if let Ok(rate) = Rate::fixed(200.0 / (t1 - t0)) {
                let b = bake(&curve, rate, Motion::Raw);
                prop_assert!(b.values.iter().chain(&b.times).all(|v| v.is_finite()), "bake");
            }
        }
        let scale = track.keys.iter().flat_map(|k| k.value.iter()).fold(0.0f64, |m, v| m.max(v.abs()));
        if let Ok(path) = tangent::PathCurve::new(&curve) {
            if let Ok(table) = tangent::ArcLengthTable::new(path, (scale * 1e-6).max(1e-300)) {
                prop_assert!(table.length().is_finite(), "arc length {}", table.length());
            }
        }
        if let Ok(tol) = Tolerance::new((scale * 1e-3).max(1e-300), 1.0) {
            if let Ok(r) = reduce_track(&track, tol) {
                prop_assert!(r.track.keys.iter().all(|k| k.value.iter().all(|v| v.is_finite())), "reduce");
                prop_assert!(r.max_error.is_finite());
            }
        }
    }
}
