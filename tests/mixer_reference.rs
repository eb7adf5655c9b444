//! The playback clock against three.js r187 AnimationMixer scenarios (`tests/reference/mixer_*`):
//! after every op, mixer time and scale, each action's time, effective time scale, time
//! scale, paused, enabled, running, weight, the events, and the sampled property values.

mod common;

use common::*;
use serde_json::Value;
use std::collections::HashMap;
use tangent::clock::{ActionId, LoopMode, Mixer, MixerEvent};
use tangent::{Interpolation, Key, Track, TrackCurve, TrackKind};

struct Scenario {
    mixer: Mixer,
    ids: HashMap<String, ActionId>,
    /// property name ("value" / "value2") → (action, its clip curve)
    bindings: Vec<(String, ActionId, TrackCurve)>,
    values: HashMap<String, f64>,
}

impl Scenario {
    fn new(case: &Value) -> Self {
        let mut mixer = Mixer::new();
        let mut ids = HashMap::new();
        for a in case["settings"]["actions"].as_array().unwrap() {
            let id = mixer.add_action(num(&a["clipDuration"])).unwrap();
            let act = mixer.action_mut(id);
            act.loop_mode = match a["loop"].as_str().unwrap() {
                "LoopOnce" => LoopMode::Once,
                "LoopPingPong" => LoopMode::PingPong,
                _ => LoopMode::Repeat,
            };
            act.repetitions = num(&a["repetitions"]);
            act.clamp_when_finished = a["clampWhenFinished"].as_bool().unwrap();
            act.time_scale = num(&a["timeScale"]);
            if a["played"].as_bool().unwrap() {
                mixer.play(id);
            }
            ids.insert(a["name"].as_str().unwrap().to_owned(), id);
        }
        let mut bindings = Vec::new();
        for k in case["keys"].as_array().unwrap() {
            assert_eq!(k["interpolation"], "linear");
            let keys = nums(&k["times"]).into_iter().zip(nums(&k["values"])).map(|(t, v)| Key::new(t, vec![v])).collect();
            let track = Track::new("clip", TrackKind::Scalar, Interpolation::Linear).with_keys(keys);
            let prop = k["property"].as_str().unwrap().trim_start_matches('.').to_owned();
            bindings.push((prop, ids[k["action"].as_str().unwrap()], TrackCurve::new(&track).unwrap()));
        }
        let values = [("value".to_owned(), 0.0), ("value2".to_owned(), 0.0)].into();
        Self { mixer, ids, bindings, values }
    }

    /// The property values after an update: each bound action with weight > 0 samples its
    /// clip at its sample time; otherwise the property falls back to its original value 0.
    fn apply(&mut self) {
        for (prop, id, curve) in &self.bindings {
            let a = self.mixer.action(*id);
            let v = if a.effective_weight() > 0.0 { curve.evaluator().value_at(a.sample_time())[0] } else { 0.0 };
            self.values.insert(prop.clone(), v);
        }
    }

    fn run(&mut self, op: &Value, default: ActionId) {
        let id = op.get("action").and_then(Value::as_str).map_or(default, |n| self.ids[n]);
        let value = || num(&op["value"]);
        match op["op"].as_str().unwrap() {
            "update" => {
                self.mixer.update(num(&op["dt"]));
                self.apply();
            }
            "setTime" => {
                self.mixer.set_time(value());
                self.apply();
            }
            "mixer.timeScale" => self.mixer.time_scale = value(),
            "timeScale" => self.mixer.action_mut(id).time_scale = value(),
            "paused" => self.mixer.action_mut(id).paused = op["value"].as_bool().unwrap(),
            "enabled" => self.mixer.action_mut(id).enabled = op["value"].as_bool().unwrap(),
            "setEffectiveTimeScale" => self.mixer.set_effective_time_scale(id, value()),
            "setDuration" => self.mixer.set_duration(id, value()),
            "syncWith" => {
                let other = self.ids[op["other"].as_str().unwrap()];
                self.mixer.sync_with(id, other);
            }
            "warp" => self.mixer.warp(id, num(&op["start"]), num(&op["end"]), num(&op["duration"])),
            "halt" => self.mixer.halt(id, num(&op["duration"])),
            "startAt" => self.mixer.start_at(id, value()),
            other => panic!("unknown op {other}"),
        }
    }
}

fn event_json(e: &MixerEvent, names: &HashMap<ActionId, String>) -> (String, String, f64) {
    match e {
        MixerEvent::Loop { action, loop_delta } => ("loop".into(), names[action].clone(), *loop_delta),
        MixerEvent::Finished { action, direction } => ("finished".into(), names[action].clone(), *direction),
    }
}

#[test]
fn every_mixer_scenario_step_by_step() {
    let mut count = 0;
    for (name, case) in cases("mixer_") {
        let tol = tolerance(&case);
        let mut s = Scenario::new(&case);
        let default = s.ids[case["settings"]["ops_default_action"].as_str().unwrap()];
        let names: HashMap<ActionId, String> = s.ids.iter().map(|(k, v)| (*v, k.clone())).collect();
        for (step, (op, want)) in case["queries"].as_array().unwrap().iter().zip(case["expected"].as_array().unwrap()).enumerate() {
            s.run(op, default);
            let at = format!("{name} step {step} ({op})");
            let close = |what: &str, got: f64, want: &Value| {
                assert!(within(got, num(want), tol), "{at}: {what} = {got}, want {want}");
            };
            close("mixer time", s.mixer.time, &want["mixer_time"]);
            close("mixer time scale", s.mixer.time_scale, &want["mixer_timeScale"]);
            close("value", s.values["value"], &want["value"]);
            close("value2", s.values["value2"], &want["value2"]);
            let events: Vec<_> = s.mixer.drain_events().map(|e| event_json(&e, &names)).collect();
            let want_events = want["events"].as_array().unwrap();
            assert_eq!(events.len(), want_events.len(), "{at}: events {events:?} vs {want_events:?}");
            for ((kind, action, n), w) in events.iter().zip(want_events) {
                assert_eq!(kind, w["type"].as_str().unwrap(), "{at}");
                assert_eq!(action, w["action"].as_str().unwrap(), "{at}");
                let key = if kind == "loop" { "loopDelta" } else { "direction" };
                assert_eq!(*n, num(&w[key]), "{at}: {key}");
            }
            for (aname, aw) in want["actions"].as_object().unwrap() {
                let a = s.mixer.action(s.ids[aname]);
                close("action time", a.time, &aw["time"]);
                close("effective time scale", a.effective_time_scale(), &aw["effectiveTimeScale"]);
                close("time scale", a.time_scale, &aw["timeScale"]);
                close("effective weight", a.effective_weight(), &aw["effectiveWeight"]);
                assert_eq!(a.paused, aw["paused"].as_bool().unwrap(), "{at}: paused");
                assert_eq!(a.enabled, aw["enabled"].as_bool().unwrap(), "{at}: enabled");
                assert_eq!(a.is_running(), aw["isRunning"].as_bool().unwrap(), "{at}: running");
                assert_eq!(a.loop_count() as f64, num(&aw["_loopCount"]), "{at}: loop count");
            }
        }
        count += 1;
    }
    assert_eq!(count, 21);
}
