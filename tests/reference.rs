//! Tangent against the independent reference programs (three.js r187, numpy,
//! numpy-quaternion): every case in `tests/reference/` must pass within its own tolerance.

mod common;

use common::*;
use serde_json::Value;
use tangent::quat::{self, Quat};
use tangent::{Ending, Interpolation, Track, TrackCurve, TrackKind};

/// Evaluates `queries` in order on one evaluator and compares with `expected`.
fn check_track_case(name: &str, case: &Value, track: &Track, modulo_sign: bool) {
    let curve = TrackCurve::new(track).unwrap_or_else(|e| panic!("{name}: {e}"));
    let tol = tolerance(case);
    let mut ev = curve.evaluator();
    let queries = nums(&case["queries"]);
    let expected = case["expected"].as_array().unwrap();
    assert_eq!(queries.len(), expected.len());
    let mut out = vec![0.0; curve.dim()];
    for (i, (&t, want)) in queries.iter().zip(expected).enumerate() {
        ev.sample(t, &mut out);
        let want = nums(want);
        let ok = |sign: f64| out.iter().zip(&want).all(|(g, w)| within(sign * g, *w, tol));
        assert!(ok(1.0) || (modulo_sign && ok(-1.0)), "{name}: query {i} t={t}: got {out:?}, want {want:?}");
    }
}

#[test]
fn kochanek_bartels_seed_and_time_adjusted() {
    let mut n = 0;
    for prefix in ["kb_seed_", "kb_ta_"] {
        for (name, case) in cases(prefix) {
            let track = kb_track(&case);
            check_track_case(&name, &case, &track, false);
            // The tangents recorded by the generator (aux) match ours where they are used.
            let curve = TrackCurve::new(&track).unwrap();
            if let Some(tg) = case["aux"].get("tangents") {
                let tol = tolerance(&case);
                for (i, (ra, rb)) in tg["ra"].as_array().unwrap().iter().zip(tg["rb"].as_array().unwrap()).enumerate() {
                    for (want, got) in [(nums(ra), curve.incoming_tangent(i)), (nums(rb), curve.outgoing_tangent(i))] {
                        let got = got.unwrap();
                        for (g, w) in got.iter().zip(&want) {
                            assert!(w.is_nan() || within(*g, *w, tol), "{name}: key {i} tangent {got:?} vs {want:?}");
                        }
                    }
                }
            }
            n += 1;
        }
    }
    assert!(n >= 17);
}

fn three_track(case: &Value, interpolation: Interpolation) -> Track {
    let keys = keys(case);
    let dim = keys[0].value.len();
    let kind = if interpolation == Interpolation::Slerp { TrackKind::Quat } else { kind_for_dim(dim) };
    let mut t = Track::new("three", kind, interpolation).with_keys(keys);
    let ending = |s: Option<&str>| match s {
        Some("ZeroSlopeEnding") => Ending::ZeroSlope,
        Some("WrapAroundEnding") => Ending::WrapAround,
        _ => Ending::ZeroCurvature,
    };
    t.ending_start = ending(case["settings"]["endingStart"].as_str());
    t.ending_end = ending(case["settings"]["endingEnd"].as_str());
    t
}

#[test]
fn three_js_interpolants_in_query_order() {
    for (prefix, mode) in [
        ("three_discrete_", Interpolation::Step),
        ("three_linear_", Interpolation::Linear),
        ("three_cubic_", Interpolation::Cubic),
        ("three_quat_", Interpolation::Slerp),
    ] {
        for (name, case) in cases(prefix) {
            check_track_case(&name, &case, &three_track(&case, mode), false);
        }
    }
}

fn q(v: &Value) -> Quat {
    let v = nums(v);
    [v[0], v[1], v[2], v[3]]
}

#[test]
fn slerp_and_nlerp_pairs() {
    for (prefix, f) in [("quat_slerp_", quat::slerp as fn(&Quat, &Quat, f64) -> Quat), ("quat_nlerp_", quat::nlerp)] {
        for (name, case) in cases(prefix) {
            let tol = tolerance(&case);
            for (query, want) in case["queries"].as_array().unwrap().iter().zip(case["expected"].as_array().unwrap()) {
                let got = f(&q(&query["q0"]), &q(&query["q1"]), num(&query["t"]));
                let want = q(want);
                assert!(got.iter().zip(&want).all(|(g, w)| within(*g, *w, tol)), "{name}: {query}: {got:?} vs {want:?}");
                assert!((quat::dot(&got, &got) - 1.0).abs() < 1e-12, "{name}: not unit");
            }
        }
    }
}

#[test]
fn squad_matches_numpy_quaternion() {
    for (name, case) in cases("quat_squad_") {
        let track = Track::new("squad", TrackKind::Quat, Interpolation::Squad).with_keys(keys(&case));
        check_track_case(&name, &case, &track, true);
    }
}

#[test]
fn slerp_and_nlerp_speed_profiles() {
    for (name, case) in cases("quat_speed_profile_") {
        let k = keys(&case);
        let (q0, q1) = ([k[0].value[0], k[0].value[1], k[0].value[2], k[0].value[3]], [k[1].value[0], k[1].value[1], k[1].value[2], k[1].value[3]]);
        let tol = tolerance(&case);
        for (query, want) in case["queries"].as_array().unwrap().iter().zip(case["expected"].as_array().unwrap()) {
            let (ta, tb) = (num(&query["t_prev"]), num(&query["t"]));
            for (f, key) in [(quat::slerp as fn(&Quat, &Quat, f64) -> Quat, "slerp_step_deg"), (quat::nlerp, "nlerp_step_deg")] {
                let step = quat::angle_between(&f(&q0, &q1, ta), &f(&q0, &q1, tb)).to_degrees();
                assert!(within(step, num(&want[key]), tol), "{name} {key} at {tb}: {step} vs {}", want[key]);
            }
        }
    }
}
