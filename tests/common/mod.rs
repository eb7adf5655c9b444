//! Helpers shared by the integration tests: reading the reference cases in
//! `tests/reference/` (format: `tests/reference/SEMANTICS.md`).
#![allow(dead_code)]

pub mod gauss_kronrod;
pub mod rng;
pub mod swinging_door;

use serde_json::Value;
use std::path::PathBuf;
use tangent::{Interpolation, Key, TangentMode, Track, TrackKind};

pub fn reference_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}

/// The names of the `.json` files in `dir`, sorted.
pub fn json_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    names
}

/// Every case whose file name starts with `prefix`, parsed.
pub fn cases(prefix: &str) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = std::fs::read_dir(reference_dir())
        .expect("tests/reference exists")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix) && n.ends_with(".json"))
        .map(|n| {
            let text = std::fs::read_to_string(reference_dir().join(&n)).unwrap();
            (n, serde_json::from_str(&text).unwrap())
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty(), "no reference cases start with {prefix}");
    out
}

/// A JSON number, or one of the strings "NaN", "Infinity", "-Infinity".
pub fn num(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) if s == "NaN" => f64::NAN,
        Value::String(s) if s == "Infinity" => f64::INFINITY,
        Value::String(s) if s == "-Infinity" => f64::NEG_INFINITY,
        other => panic!("not a number: {other}"),
    }
}

pub fn nums(v: &Value) -> Vec<f64> {
    v.as_array().expect("array").iter().map(num).collect()
}

/// `(abs, rel)` of a case's tolerance.
pub fn tolerance(case: &Value) -> (f64, f64) {
    let t = &case["tolerance"];
    (num(&t["abs"]), num(&t["rel"]))
}

pub fn within(got: f64, want: f64, (abs, rel): (f64, f64)) -> bool {
    (got - want).abs() <= abs + rel * want.abs() || (got.is_nan() && want.is_nan())
}

pub fn kind_for_dim(dim: usize) -> TrackKind {
    match dim {
        1 => TrackKind::Scalar,
        2 => TrackKind::Vec2,
        3 => TrackKind::Vec3,
        4 => TrackKind::Vec4,
        _ => panic!("dim {dim}"),
    }
}

/// Keys of a case, with TCB and ease when present.
pub fn keys(case: &Value) -> Vec<Key> {
    case["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            let f = |name: &str| k.get(name).map(num).unwrap_or(0.0);
            Key::new(num(&k["time"]), nums(&k["value"])).with_tcb(f("tension"), f("continuity"), f("bias")).with_ease(f("ease_to"), f("ease_from"))
        })
        .collect()
}

/// A TCB track from a `kb_*` or `arclen*` case.
pub fn kb_track(case: &Value) -> Track {
    let keys = keys(case);
    let dim = keys[0].value.len();
    let mode = match case["settings"]["mode"].as_str() {
        Some("time_adjusted") => TangentMode::TimeAdjusted,
        _ => TangentMode::Seed,
    };
    let mut t = Track::new("reference", kind_for_dim(dim), Interpolation::Tcb).with_keys(keys);
    t.tangents = mode;
    t
}

/// A Blender handle type name (`FREE`, `ALIGNED`, …) as Tangent's.
pub fn blender_handle_type(v: &Value) -> tangent::HandleType {
    match v.as_str().unwrap() {
        "FREE" => tangent::HandleType::Free,
        "ALIGNED" => tangent::HandleType::Aligned,
        "VECTOR" => tangent::HandleType::Vector,
        "AUTO" => tangent::HandleType::Auto,
        "AUTO_CLAMPED" => tangent::HandleType::AutoClamped,
        other => panic!("unknown handle type {other}"),
    }
}

/// A JSON `[x, y]` pair.
pub fn pair(v: &Value) -> (f64, f64) {
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}
