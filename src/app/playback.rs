//! Playback on the library's clock ([`crate::clock::Mixer`]): play/pause, stop, step a frame,
//! loop mode, time scale (negative plays backwards, 0 holds), warp to a new speed and halt
//! over a duration. One clip spans the project's keyed time range; the playhead every view
//! draws is `start + clip time`. No egui here: the transport bar (`transport.rs`) drives it
//! through commands.

use crate::clock::{ActionId, LoopMode, Mixer};

/// Longest frame step fed to the clock: a stalled frame must not jump the animation.
pub const MAX_FRAME_STEP: f64 = 0.1;

pub struct Transport {
    mixer: Mixer,
    action: ActionId,
    pub playing: bool,
    start: f64,
    duration: f64,
    /// Clip time of the playhead: the clock's sample time after an update, the set time
    /// after a scrub or stop.
    clip_time: f64,
    /// Target speed and duration typed for Warp and Halt.
    pub warp_to: f64,
    pub warp_seconds: f64,
}

impl Transport {
    /// A stopped transport over `[start, start + duration]`.
    pub fn new(start: f64, duration: f64) -> Self {
        let mut mixer = Mixer::new();
        let duration = if duration.is_finite() && duration > 0.0 { duration } else { 1.0 };
        let action = mixer.add_action(duration).expect("a positive duration");
        mixer.action_mut(action).clamp_when_finished = true;
        mixer.play(action);
        Self { mixer, action, playing: false, start, duration, clip_time: 0.0, warp_to: 2.0, warp_seconds: 1.0 }
    }

    /// Follows the project's keyed range, keeping loop mode, speed and position.
    pub fn set_range(&mut self, start: f64, duration: f64) {
        let duration = if duration.is_finite() && duration > 0.0 { duration } else { 1.0 };
        if start == self.start && duration == self.duration {
            return;
        }
        let old = self.mixer.action(self.action).clone();
        let mut fresh = Self::new(start, duration);
        fresh.playing = self.playing;
        let a = fresh.mixer.action_mut(fresh.action);
        a.loop_mode = old.loop_mode;
        a.time_scale = old.time_scale;
        a.time = old.time.clamp(0.0, duration);
        fresh.clip_time = self.clip_time.clamp(0.0, duration);
        fresh.warp_to = self.warp_to;
        fresh.warp_seconds = self.warp_seconds;
        *self = fresh;
    }

    pub fn start(&self) -> f64 {
        self.start
    }

    pub fn duration(&self) -> f64 {
        self.duration
    }

    /// The action's state (time scale, loop mode, effective speed, paused).
    pub fn action(&self) -> &crate::clock::Action {
        self.mixer.action(self.action)
    }

    /// Where the playhead is: the clip time the clock last produced (ping-pong reflected).
    pub fn playhead(&self) -> f64 {
        self.start + self.clip_time
    }

    /// Advances by a frame of `dt` wall seconds while playing; returns the new playhead.
    pub fn tick(&mut self, dt: f64) -> Option<f64> {
        if !self.playing {
            return None;
        }
        self.mixer.update(dt.clamp(0.0, MAX_FRAME_STEP));
        self.clip_time = self.mixer.action(self.action).sample_time();
        let a = self.mixer.action(self.action);
        if a.paused && !a.is_warping() {
            // Finished (Once) or halted: stop playing, stay where it ended.
            self.playing = false;
        }
        Some(self.playhead())
    }

    pub fn toggle_play(&mut self) {
        self.playing = !self.playing;
        if self.playing {
            let a = self.mixer.action_mut(self.action);
            a.paused = false;
            a.enabled = true;
            // Playing a finished Once clip again starts it over.
            if a.loop_mode == LoopMode::Once && (a.time >= self.duration && a.time_scale > 0.0 || a.time <= 0.0 && a.time_scale < 0.0) {
                a.time = if a.time_scale > 0.0 { 0.0 } else { self.duration };
            }
        }
    }

    /// Stops and returns to the start of the clip.
    pub fn stop(&mut self) -> f64 {
        self.playing = false;
        let scale = self.action().time_scale;
        let mode = self.action().loop_mode;
        self.mixer.stop(self.action);
        self.mixer.play(self.action);
        let a = self.mixer.action_mut(self.action);
        a.time_scale = scale;
        a.loop_mode = mode;
        self.mixer.time = 0.0;
        self.clip_time = 0.0;
        self.playhead()
    }

    /// One frame in the playing direction, through the clock (so loop modes apply).
    pub fn step(&mut self, fps: f64) -> f64 {
        let a = self.mixer.action_mut(self.action);
        a.paused = false;
        a.enabled = true;
        self.mixer.update(1.0 / fps);
        self.clip_time = self.mixer.action(self.action).sample_time();
        self.playhead()
    }

    /// Moves the playhead to `t` (clamped to the clip).
    pub fn scrub(&mut self, t: f64) -> f64 {
        let a = self.mixer.action_mut(self.action);
        a.time = (t - self.start).clamp(0.0, self.duration);
        self.clip_time = a.time;
        self.playhead()
    }

    pub fn set_speed(&mut self, speed: f64) {
        self.mixer.set_effective_time_scale(self.action, speed);
    }

    pub fn set_loop(&mut self, mode: LoopMode) {
        self.mixer.action_mut(self.action).loop_mode = mode;
    }

    /// Ramps the speed from what it is now to `warp_to` over `warp_seconds`.
    pub fn warp(&mut self) {
        let from = self.action().effective_time_scale();
        let from = if from == 0.0 { self.action().time_scale } else { from };
        self.mixer.warp(self.action, from, self.warp_to, self.warp_seconds);
        self.playing = true;
    }

    /// Slows to a stop over `warp_seconds`.
    pub fn halt(&mut self) {
        self.mixer.halt(self.action, self.warp_seconds);
    }
}

/// What the transport bar asks of the clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TransportCommand {
    TogglePlay,
    Stop,
    Step,
    SetLoop(LoopMode),
    SetSpeed(f64),
    SetWarpTo(f64),
    SetWarpSeconds(f64),
    Warp,
    Halt,
    Scrub(f64),
}

impl Transport {
    /// Runs `command` (`fps`: the project's, for Step); returns the new playhead if it moved.
    pub fn run(&mut self, command: TransportCommand, fps: f64) -> Option<f64> {
        match command {
            TransportCommand::TogglePlay => self.toggle_play(),
            TransportCommand::Stop => return Some(self.stop()),
            TransportCommand::Step => return Some(self.step(fps)),
            TransportCommand::SetLoop(mode) => self.set_loop(mode),
            TransportCommand::SetSpeed(speed) => self.set_speed(speed),
            TransportCommand::SetWarpTo(v) => self.warp_to = v,
            TransportCommand::SetWarpSeconds(v) => self.warp_seconds = v,
            TransportCommand::Warp => self.warp(),
            TransportCommand::Halt => self.halt(),
            TransportCommand::Scrub(t) => return Some(self.scrub(t)),
        }
        None
    }
}
