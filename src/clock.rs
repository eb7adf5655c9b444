//! The playback clock: a [`Mixer`] with global time and time scale driving [`Action`]s, each
//! playing a clip of some duration with its own time scale, warps and loop mode (SPEC §7).
//!
//! Semantics are three.js r187's `AnimationMixer` / `AnimationAction` (`_update`,
//! `_updateTimeScale`, `_updateTime`; seed 002), without weights or cross-fading, and with two
//! deliberate differences: warp ramps are kept in `f64` (three.js rounds them to float32), and
//! a warp started while the time scale is 0 ramps the time scale itself instead of dividing
//! by zero. The clock knows nothing about tracks: an action reports the clip time to sample
//! ([`Action::sample_time`]) and whether it contributes ([`Action::effective_weight`]).

use thiserror::Error;

/// Loop behaviour of an action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum LoopMode {
    /// Play once and finish at an end.
    Once,
    /// Wrap around at the ends.
    #[default]
    Repeat,
    /// Reverse direction at the ends.
    PingPong,
}

/// Handle of an action inside its mixer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActionId(usize);

/// What happened during an update, in order, for a UI to react to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MixerEvent {
    /// The action wrapped around `loop_delta` times (negative when playing backwards).
    Loop { action: ActionId, loop_delta: f64 },
    /// The action reached an end and stopped (`direction` is +1 or −1).
    Finished { action: ActionId, direction: f64 },
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum ClockError {
    #[error("a clip must last a positive, finite time; got {0}")]
    BadDuration(f64),
}

/// A linear time-scale ramp `[t0, t1] ↦ [v0, v1]` (three.js' control interpolant).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Ramp {
    t0: f64,
    t1: f64,
    v0: f64,
    v1: f64,
}

impl Ramp {
    /// three.js `LinearInterpolant` on two keys: hold `v0` before `t0`, `v1` from `t1` on.
    fn at(&self, t: f64) -> f64 {
        if t < self.t0 {
            self.v0
        } else if t >= self.t1 {
            self.v1
        } else {
            let w1 = (t - self.t0) / (self.t1 - self.t0);
            self.v0 * (1.0 - w1) + self.v1 * w1
        }
    }
}

/// A clip being played. Fields that three.js exposes as plain properties are public here too;
/// changes that must also stop a warp go through [`Mixer`] methods.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    duration: f64,
    /// Local time in `[0, duration]` (before ping-pong reflection).
    pub time: f64,
    pub time_scale: f64,
    pub paused: bool,
    /// A disabled action neither advances nor contributes.
    pub enabled: bool,
    pub loop_mode: LoopMode,
    /// How many times to play; `f64::INFINITY` for ever.
    pub repetitions: f64,
    /// On finishing, pause at the end (true) or disable (false).
    pub clamp_when_finished: bool,
    effective_time_scale: f64,
    effective_weight: f64,
    /// −1 before the first update that moves, then the number of completed loops.
    loop_count: i64,
    start_time: Option<f64>,
    ramp: Option<usize>,
    active: bool,
    sample_time: f64,
}

impl Action {
    fn new(duration: f64) -> Self {
        Self {
            duration,
            time: 0.0,
            time_scale: 1.0,
            paused: false,
            enabled: true,
            loop_mode: LoopMode::Repeat,
            repetitions: f64::INFINITY,
            clamp_when_finished: false,
            effective_time_scale: 1.0,
            effective_weight: 1.0,
            loop_count: -1,
            start_time: None,
            ramp: None,
            active: false,
            sample_time: 0.0,
        }
    }

    /// The clip's duration.
    #[must_use]
    pub fn duration(&self) -> f64 {
        self.duration
    }
    /// Time scale applied in the last update: 0 while paused, the warp's value while warping.
    #[must_use]
    pub fn effective_time_scale(&self) -> f64 {
        self.effective_time_scale
    }
    /// 1 while enabled at the last update, else 0.
    #[must_use]
    pub fn effective_weight(&self) -> f64 {
        self.effective_weight
    }
    /// The clip time to sample, as returned by the last update: ping-pong's backward passes
    /// are reflected (`duration − time`).
    #[must_use]
    pub fn sample_time(&self) -> f64 {
        self.sample_time
    }
    /// Completed loops (−1 before the action has moved).
    #[must_use]
    pub fn loop_count(&self) -> i64 {
        self.loop_count
    }
    /// Whether a warp is in progress.
    #[must_use]
    pub fn is_warping(&self) -> bool {
        self.ramp.is_some()
    }
    /// Scheduled and advancing: enabled, not paused, non-zero time scale, not waiting for a
    /// start time (three.js `isRunning`).
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.enabled && !self.paused && self.time_scale != 0.0 && self.start_time.is_none() && self.active
    }
    /// Played and not stopped.
    #[must_use]
    pub fn is_scheduled(&self) -> bool {
        self.active
    }
}

/// Global time and the actions it drives.
#[derive(Clone, Debug, Default)]
pub struct Mixer {
    pub time: f64,
    pub time_scale: f64,
    actions: Vec<Action>,
    ramps: Vec<Ramp>,
    free_ramps: Vec<usize>,
    events: Vec<MixerEvent>,
}

/// JavaScript's `Math.sign`: 0 for ±0 (Rust's `signum` gives ±1 there).
fn js_sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        x
    }
}

impl Mixer {
    /// A mixer at time 0 with time scale 1.
    #[must_use]
    pub fn new() -> Self {
        Self { time_scale: 1.0, ..Self::default() }
    }

    /// Adds an action for a clip of `duration` seconds (not yet playing).
    pub fn add_action(&mut self, duration: f64) -> Result<ActionId, ClockError> {
        if !(duration.is_finite() && duration > 0.0) {
            return Err(ClockError::BadDuration(duration));
        }
        self.actions.push(Action::new(duration));
        Ok(ActionId(self.actions.len() - 1))
    }

    #[must_use]
    pub fn action(&self, id: ActionId) -> &Action {
        &self.actions[id.0]
    }
    /// Direct access to an action's public fields (three.js property assignment).
    pub fn action_mut(&mut self, id: ActionId) -> &mut Action {
        &mut self.actions[id.0]
    }
    pub fn actions(&self) -> impl Iterator<Item = (ActionId, &Action)> {
        self.actions.iter().enumerate().map(|(i, a)| (ActionId(i), a))
    }

    /// Events of the updates since the last call, oldest first.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, MixerEvent> {
        self.events.drain(..)
    }

    /// Schedules the action: it advances with the mixer from now on.
    pub fn play(&mut self, id: ActionId) {
        self.actions[id.0].active = true;
    }

    /// Unschedules and [`reset`](Self::reset)s the action.
    pub fn stop(&mut self, id: ActionId) {
        self.actions[id.0].active = false;
        self.reset(id);
    }

    /// Back to the start: unpaused, enabled, time 0, no loops counted, no start time, no warp.
    pub fn reset(&mut self, id: ActionId) {
        let a = &mut self.actions[id.0];
        a.paused = false;
        a.enabled = true;
        a.time = 0.0;
        a.loop_count = -1;
        a.start_time = None;
        self.stop_warping(id);
    }

    /// Delays the action until mixer time `time`.
    pub fn start_at(&mut self, id: ActionId, time: f64) {
        self.actions[id.0].start_time = Some(time);
    }

    /// Sets the time scale now and cancels any warp (three.js `setEffectiveTimeScale`).
    pub fn set_effective_time_scale(&mut self, id: ActionId, time_scale: f64) {
        let a = &mut self.actions[id.0];
        a.time_scale = time_scale;
        a.effective_time_scale = if a.paused { 0.0 } else { time_scale };
        self.stop_warping(id);
    }

    /// Makes one pass of the clip last `duration` seconds: `time_scale = clip / duration`.
    pub fn set_duration(&mut self, id: ActionId, duration: f64) {
        let a = &mut self.actions[id.0];
        if duration != 0.0 && duration.is_finite() {
            a.time_scale = a.duration / duration;
        }
        self.stop_warping(id);
    }

    /// Copies `other`'s time and time scale into `id`, and cancels `id`'s warp.
    pub fn sync_with(&mut self, id: ActionId, other: ActionId) {
        let (time, scale) = (self.actions[other.0].time, self.actions[other.0].time_scale);
        let a = &mut self.actions[id.0];
        a.time = time;
        a.time_scale = scale;
        self.stop_warping(id);
    }

    /// Ramps the effective time scale linearly from `start` to `end` over `duration` seconds of
    /// mixer time starting now. When the ramp ends the time scale settles at `end`, or the
    /// action pauses if `end` is 0. Ramps come from a pool owned by the mixer, so warping does
    /// not allocate once the pool has grown to the number of simultaneous warps.
    pub fn warp(&mut self, id: ActionId, start: f64, end: f64, duration: f64) {
        let now = self.time;
        let slot = match self.actions[id.0].ramp {
            Some(slot) => slot,
            None => {
                let slot = self.free_ramps.pop().unwrap_or_else(|| {
                    self.ramps.push(Ramp::default());
                    self.ramps.len() - 1
                });
                self.actions[id.0].ramp = Some(slot);
                slot
            }
        };
        let a = &mut self.actions[id.0];
        if a.time_scale == 0.0 {
            a.time_scale = 1.0;
        }
        self.ramps[slot] = Ramp { t0: now, t1: now + duration, v0: start / a.time_scale, v1: end / a.time_scale };
    }

    /// Slows to a stop over `duration` seconds: `warp(effective, 0, duration)`.
    pub fn halt(&mut self, id: ActionId, duration: f64) {
        let from = self.actions[id.0].effective_time_scale;
        self.warp(id, from, 0.0, duration);
    }

    /// Cancels a warp in progress, keeping the current time scale.
    pub fn stop_warping(&mut self, id: ActionId) {
        if let Some(slot) = self.actions[id.0].ramp.take() {
            self.free_ramps.push(slot);
        }
    }

    /// Sets the mixer's time: zeroes mixer and action times, then `update(time)` (so the
    /// mixer's time scale applies, as in three.js).
    pub fn set_time(&mut self, time: f64) {
        self.time = 0.0;
        for a in &mut self.actions {
            a.time = 0.0;
        }
        self.update(time);
    }

    /// Advances by `dt` seconds of wall time (times the mixer's time scale).
    pub fn update(&mut self, dt: f64) {
        let dt = dt * self.time_scale;
        self.time += dt;
        let time = self.time;
        let direction = js_sign(dt);
        for i in 0..self.actions.len() {
            if self.actions[i].active {
                self.update_action(i, time, dt, direction);
            }
        }
    }

    fn update_action(&mut self, i: usize, time: f64, mut dt: f64, direction: f64) {
        if !self.actions[i].enabled {
            self.actions[i].effective_weight = 0.0;
            return;
        }
        if let Some(start) = self.actions[i].start_time {
            let running = (time - start) * direction;
            if running < 0.0 || direction == 0.0 {
                dt = 0.0;
            } else {
                self.actions[i].start_time = None;
                dt = direction * running;
            }
        }
        dt *= self.update_time_scale(i, time);
        let clip_time = self.update_time(i, dt);
        let a = &mut self.actions[i];
        a.sample_time = clip_time;
        a.effective_weight = if a.enabled { 1.0 } else { 0.0 };
    }

    fn update_time_scale(&mut self, i: usize, time: f64) -> f64 {
        let mut scale = 0.0;
        if !self.actions[i].paused {
            scale = self.actions[i].time_scale;
            if let Some(slot) = self.actions[i].ramp {
                let ramp = self.ramps[slot];
                scale *= ramp.at(time);
                if time > ramp.t1 {
                    self.stop_warping(ActionId(i));
                    let a = &mut self.actions[i];
                    if scale == 0.0 {
                        a.paused = true;
                    } else {
                        a.time_scale = scale;
                    }
                }
            }
        }
        self.actions[i].effective_time_scale = scale;
        scale
    }

    /// Advances local time by `dt` and applies the loop mode; returns the clip time to sample.
    fn update_time(&mut self, i: usize, dt: f64) -> f64 {
        let id = ActionId(i);
        let a = &mut self.actions[i];
        let duration = a.duration;
        let mut time = a.time + dt;
        let mut loop_count = a.loop_count;
        let ping_pong = a.loop_mode == LoopMode::PingPong;
        let reflect = |lc: i64, t: f64| {
            if ping_pong && (lc & 1) == 1 {
                duration - t
            } else {
                t
            }
        };
        if dt == 0.0 {
            return if loop_count == -1 { time } else { reflect(loop_count, time) };
        }
        if a.loop_mode == LoopMode::Once {
            if loop_count == -1 {
                a.loop_count = 0;
            }
            let clamped = if time >= duration {
                Some(duration)
            } else if time < 0.0 {
                Some(0.0)
            } else {
                None
            };
            match clamped {
                None => a.time = time,
                Some(end) => {
                    time = end;
                    if a.clamp_when_finished {
                        a.paused = true;
                    } else {
                        a.enabled = false;
                    }
                    a.time = time;
                    let direction = if dt < 0.0 { -1.0 } else { 1.0 };
                    self.events.push(MixerEvent::Finished { action: id, direction });
                }
            }
            return time;
        }
        if loop_count == -1 && dt >= 0.0 {
            // Playing backwards from the start, the first pass through 0 counts as a loop, so
            // the count stays at −1 then.
            loop_count = 0;
            a.loop_count = 0;
        }
        if time >= duration || time < 0.0 {
            let loop_delta = (time / duration).floor();
            time -= duration * loop_delta;
            loop_count = loop_count.saturating_add(loop_delta.abs().min(i64::MAX as f64) as i64);
            let pending = a.repetitions - loop_count as f64;
            if pending <= 0.0 {
                if a.clamp_when_finished {
                    a.paused = true;
                } else {
                    a.enabled = false;
                }
                time = if dt > 0.0 { duration } else { 0.0 };
                a.time = time;
                let direction = if dt > 0.0 { 1.0 } else { -1.0 };
                self.events.push(MixerEvent::Finished { action: id, direction });
            } else {
                a.loop_count = loop_count;
                a.time = time;
                self.events.push(MixerEvent::Loop { action: id, loop_delta });
            }
        } else {
            a.time = time;
        }
        reflect(loop_count, time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLIP: f64 = 2.0;

    fn one(mode: LoopMode) -> (Mixer, ActionId) {
        let mut m = Mixer::new();
        let a = m.add_action(CLIP).unwrap();
        m.action_mut(a).loop_mode = mode;
        m.play(a);
        (m, a)
    }

    #[test]
    fn negative_scale_once_at_time_zero_finishes_backwards() {
        let (mut m, a) = one(LoopMode::Once);
        m.time_scale = -1.0;
        m.update(0.1);
        assert_eq!(m.action(a).time, 0.0);
        assert!(!m.action(a).enabled);
        let ev: Vec<_> = m.drain_events().collect();
        assert_eq!(ev, vec![MixerEvent::Finished { action: a, direction: -1.0 }]);
    }

    #[test]
    fn ping_pong_turns_exactly_at_the_boundary() {
        let (mut m, a) = one(LoopMode::PingPong);
        m.update(CLIP);
        // Exactly at the end: wrapped to local time 0 of the backward pass, sampled at D.
        assert_eq!(m.action(a).time, 0.0);
        assert_eq!(m.action(a).sample_time(), CLIP);
        m.update(0.5);
        assert_eq!(m.action(a).sample_time(), CLIP - 0.5);
    }

    #[test]
    fn warp_to_zero_pauses_with_time_scale_kept() {
        let (mut m, a) = one(LoopMode::Repeat);
        m.warp(a, 1.0, 0.0, 1.0);
        m.update(0.5);
        assert!((m.action(a).effective_time_scale() - 0.5).abs() < 1e-15);
        m.update(0.6);
        assert!(m.action(a).paused);
        assert_eq!(m.action(a).time_scale, 1.0);
        assert_eq!(m.action(a).effective_time_scale(), 0.0);
        assert!(!m.action(a).is_warping());
    }

    #[test]
    fn halt_during_a_warp_ramps_from_the_current_speed() {
        let (mut m, a) = one(LoopMode::Repeat);
        m.warp(a, 1.0, 3.0, 1.0);
        m.update(0.5); // effective 2
        m.halt(a, 1.0);
        m.update(0.5); // halfway from 2 to 0
        assert!((m.action(a).effective_time_scale() - 1.0).abs() < 1e-12);
        m.update(0.6);
        assert!(m.action(a).paused);
        assert_eq!(m.ramps.len(), 1, "the halt reused the warp's ramp");
    }

    #[test]
    fn set_duration_while_warping_cancels_the_warp() {
        let (mut m, a) = one(LoopMode::Repeat);
        m.warp(a, 1.0, 3.0, 1.0);
        m.update(0.2);
        m.set_duration(a, 4.0);
        assert!(!m.action(a).is_warping());
        assert_eq!(m.action(a).time_scale, 0.5);
        m.update(1.0);
        assert_eq!(m.action(a).effective_time_scale(), 0.5);
    }

    #[test]
    fn huge_dt_spans_many_loops() {
        let (mut m, a) = one(LoopMode::Repeat);
        m.update(1e6 + 0.5);
        assert!((m.action(a).time - 0.5).abs() < 1e-9);
        assert_eq!(m.action(a).loop_count(), 500_000);
        let ev: Vec<_> = m.drain_events().collect();
        assert_eq!(ev, vec![MixerEvent::Loop { action: a, loop_delta: 500_000.0 }]);
    }

    #[test]
    fn pool_reuses_ramps_across_warps() {
        let (mut m, a) = one(LoopMode::Repeat);
        for _ in 0..10 {
            m.warp(a, 1.0, 2.0, 0.1);
            m.update(0.2);
        }
        assert_eq!(m.ramps.len(), 1);
    }

    #[test]
    fn zero_length_clips_are_refused() {
        assert!(Mixer::new().add_action(0.0).is_err());
        assert!(Mixer::new().add_action(f64::NAN).is_err());
    }
}
