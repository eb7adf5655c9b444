//! The playback transport on the library's clock ([`tangent::clock::Mixer`]): play/pause,
//! stop, step a frame, loop mode, time scale (negative plays backwards, 0 holds), warp to a
//! new speed and halt over a duration. One clip spans the project's keyed time range; the
//! playhead every view draws is `start + clip time`.

use eframe::egui;
use tangent::clock::{ActionId, LoopMode, Mixer};

use super::state::AppState;

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
    pub fn action(&self) -> &tangent::clock::Action {
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

/// The transport bar.
pub fn ui(ui: &mut egui::Ui, state: &mut AppState) {
    let fps = state.project().fps;
    ui.horizontal(|ui| {
        let playing = state.transport.playing;
        if ui.button(if playing { "Pause" } else { "Play" }).on_hover_text("Play or pause (Space)").clicked() {
            state.transport.toggle_play();
        }
        if ui.button("Stop").on_hover_text("Stop and go back to the start").clicked() {
            state.playhead = state.transport.stop();
        }
        if ui.button("Step").on_hover_text("Advance one frame in the playing direction (negative speed steps backwards)").clicked() {
            state.playhead = state.transport.step(fps);
        }
        ui.separator();
        let mut mode = state.transport.action().loop_mode;
        for (m, name, tip) in [
            (LoopMode::Once, "Once", "Play once and stop at the end"),
            (LoopMode::Repeat, "Repeat", "Wrap around at the ends"),
            (LoopMode::PingPong, "Ping-pong", "Reverse at the ends"),
        ] {
            ui.selectable_value(&mut mode, m, name).on_hover_text(tip);
        }
        if mode != state.transport.action().loop_mode {
            state.transport.set_loop(mode);
        }
        ui.separator();
        let mut speed = state.transport.action().time_scale;
        let r = ui.add(egui::DragValue::new(&mut speed).speed(0.02).range(-8.0..=8.0).prefix("speed ").suffix("x")).accessible_name("speed");
        if r.on_hover_text("Time scale: 1 is real time, 0 holds, negative plays backwards").changed() {
            state.transport.set_speed(speed);
        }
        ui.label(format!("(now {:.2}x)", state.transport.action().effective_time_scale()))
            .on_hover_text("The speed applied in the last frame, while warping or halting");
        ui.separator();
        ui.add(egui::DragValue::new(&mut state.transport.warp_to).speed(0.05).range(-8.0..=8.0).prefix("to ").suffix("x"))
            .accessible_name("warp target")
            .on_hover_text("Speed that Warp ramps to");
        ui.add(egui::DragValue::new(&mut state.transport.warp_seconds).speed(0.05).range(0.0..=30.0).prefix("over ").suffix(" s"))
            .accessible_name("warp duration")
            .on_hover_text("How long Warp and Halt take");
        if ui.button("Warp").on_hover_text("Ramp the speed to the target over the duration").clicked() {
            state.transport.warp();
        }
        if ui.button("Halt").on_hover_text("Slow to a stop over the duration").clicked() {
            state.transport.halt();
        }
        ui.separator();
        let mut t = state.playhead;
        let (start, end) = (state.transport.start(), state.transport.start() + state.transport.duration());
        let r = ui.add(egui::Slider::new(&mut t, start..=end).text("time")).on_hover_text("Scrub: drag to move the playhead");
        // Only a hand on the slider scrubs: its own clamping or rounding must not move the clock.
        let touched = r.dragged() || r.drag_stopped() || r.clicked() || r.has_focus();
        if r.changed() && touched {
            state.playhead = state.transport.scrub(t);
        }
    });
}
