//! Cycles at their seams (issue 45): F-curves under Blender's Cycles modifier, exported with the
//! add-on, evaluate in Tangent as in Blender **at** each seam (`t1 + kT` after the keys,
//! `t0 − kT` before them), 0.01 frames either side of it, and between the seams
//! (`tests/reference/blender_cycles_seam`, made by `tools/blender/cycles_seam_reference.py` in
//! Blender 3.4.1 and 5.0.1).
//!
//! Blender's `fcm_cycles_time` takes the end key on the keys' side of a seam: after the keys a
//! cycle ends on the last key's value (plus k value changes with Repeat with Offset), before
//! them it starts on the first key's; Mirror (Tangent's PingPong) the other end on odd cycles.
//! The curves' first and last values differ, so a plain Repeat jumps at every seam, and the
//! value at the seam is the one side of the jump or the other. Values agree within
//! 2e-5 × (1 + |value|) (Blender evaluates in float32).
//!
//! Blender 5.0.1 departs from its own rule at one Mirror seam (before the keys, k = 1: it plays
//! the first key where 3.4.1 and the rule play the last). The reference marks the rule's value
//! at each seam (`rule`); where Blender's differs, Tangent must give the rule's, and the test
//! says how many such seams there are.

mod common;

use common::reference_dir;
use serde_json::Value;
use tangent::io::load_project;
use tangent::TrackCurve;

const BOUND: f64 = 2e-5;
/// Blender versions with a reference: (version, seams, seams where Blender is off its rule).
const VERSIONS: [(&str, usize, usize); 2] = [("3.4.1", 49, 0), ("5.0.1", 49, 1)];

fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= BOUND * (1.0 + want.abs())
}

#[test]
fn cycles_curves_take_blenders_values_at_their_seams() {
    let dir = reference_dir().join("blender_cycles_seam");
    let mut report = Vec::new();
    for (version, want_seams, want_off_rule) in VERSIONS {
        let project = load_project(&dir.join(format!("seams_{version}.ron"))).unwrap_or_else(|e| panic!("seams_{version}.ron: {e}"));
        let text = std::fs::read_to_string(dir.join(format!("seams_{version}.json"))).unwrap();
        let reference: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(project.fps, reference["fps"].as_f64().unwrap());
        let tracks = reference["tracks"].as_object().unwrap();
        assert_eq!(project.tracks.len(), tracks.len(), "{version}: tracks");
        let (mut seams, mut off_rule, mut checked, mut failures) = (0, 0, 0, Vec::new());
        for (name, record) in tracks {
            let track = project.track(name).unwrap_or_else(|| panic!("{version}: no track \"{name}\""));
            let curve = TrackCurve::new(track).unwrap();
            let mut ev = curve.evaluator();
            let case = record["case"].as_str().unwrap();
            for s in record["samples"].as_array().unwrap() {
                let t = s["t"].as_f64().unwrap();
                let mut want = s["value"].as_f64().unwrap();
                let what = s["what"].as_str().unwrap();
                if what == "seam" {
                    seams += 1;
                    if let Some(rule) = s.get("rule").and_then(Value::as_f64) {
                        if !close(want, rule) {
                            off_rule += 1;
                            assert!(case.starts_with("mirror"), "{version}: Blender off the seam rule on a Repeat curve: {name} {s}");
                            want = rule;
                        }
                    }
                }
                let got = ev.value_at(t)[0];
                checked += 1;
                if !close(got, want) {
                    failures.push(format!(
                        "Blender {version}: {name} ({case}): {what} {} k = {} at t = {t} s (frame {}): Tangent {got}, Blender {want}",
                        s["side"], s["k"], s["frame"]
                    ));
                }
            }
        }
        assert!(failures.is_empty(), "{} of {checked} samples differ:\n{}", failures.len(), failures.join("\n"));
        assert_eq!((seams, off_rule), (want_seams, want_off_rule), "Blender {version}: seams sampled, seams where Blender is off its rule");
        report.push(format!(
            "Blender {version}: {checked} samples of {} Cycles curves ({seams} at seams, {off_rule} where Blender is off its rule) agree",
            tracks.len()
        ));
    }
    println!("{}", report.join("\n"));
}
