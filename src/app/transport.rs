//! The transport bar: play/pause, stop, step a frame, loop mode, time scale, warp and halt,
//! and a time slider, all on the library's clock (`playback.rs`) through commands.

use eframe::egui;

use super::commands::AppCommand;
use super::panel::{Panel, PanelContext};
use super::playback::TransportCommand as T;
use crate::clock::LoopMode;

#[derive(Default)]
pub struct TransportBar;

impl Panel for TransportBar {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        let transport = &cx.ui.transport;
        let mut send = |c: T| out.push(AppCommand::Transport(c));
        ui.horizontal(|ui| {
            if ui.button(if transport.playing { "Pause" } else { "Play" }).on_hover_text("Play or pause (Space)").clicked() {
                send(T::TogglePlay);
            }
            if ui.button("Stop").on_hover_text("Stop and go back to the start").clicked() {
                send(T::Stop);
            }
            if ui.button("Step").on_hover_text("Advance one frame in the playing direction (negative speed steps backwards)").clicked() {
                send(T::Step);
            }
            ui.separator();
            let mut mode = transport.action().loop_mode;
            for (m, name, tip) in [
                (LoopMode::Once, "Once", "Play once and stop at the end"),
                (LoopMode::Repeat, "Repeat", "Wrap around at the ends"),
                (LoopMode::PingPong, "Ping-pong", "Reverse at the ends"),
            ] {
                ui.selectable_value(&mut mode, m, name).on_hover_text(tip);
            }
            if mode != transport.action().loop_mode {
                send(T::SetLoop(mode));
            }
            ui.separator();
            let mut speed = transport.action().time_scale;
            let r = ui.add(egui::DragValue::new(&mut speed).speed(0.02).range(-8.0..=8.0).prefix("speed ").suffix("x")).accessible_name("speed");
            if r.on_hover_text("Time scale: 1 is real time, 0 holds, negative plays backwards").changed() {
                send(T::SetSpeed(speed));
            }
            ui.label(format!("(now {:.2}x)", transport.action().effective_time_scale()))
                .on_hover_text("The speed applied in the last frame, while warping or halting");
            ui.separator();
            let mut warp_to = transport.warp_to;
            let r = ui.add(egui::DragValue::new(&mut warp_to).speed(0.05).range(-8.0..=8.0).prefix("to ").suffix("x")).accessible_name("warp target");
            if r.on_hover_text("Speed that Warp ramps to").changed() {
                send(T::SetWarpTo(warp_to));
            }
            let mut seconds = transport.warp_seconds;
            let r = ui.add(egui::DragValue::new(&mut seconds).speed(0.05).range(0.0..=30.0).prefix("over ").suffix(" s")).accessible_name("warp duration");
            if r.on_hover_text("How long Warp and Halt take").changed() {
                send(T::SetWarpSeconds(seconds));
            }
            if ui.button("Warp").on_hover_text("Ramp the speed to the target over the duration").clicked() {
                send(T::Warp);
            }
            if ui.button("Halt").on_hover_text("Slow to a stop over the duration").clicked() {
                send(T::Halt);
            }
            ui.separator();
            let mut t = cx.playhead();
            let (start, end) = (transport.start(), transport.start() + transport.duration());
            let r = ui.add(egui::Slider::new(&mut t, start..=end).text("time")).on_hover_text("Scrub: drag to move the playhead");
            // Only a hand on the slider scrubs: its own clamping or rounding must not move the clock.
            let touched = r.dragged() || r.drag_stopped() || r.clicked() || r.has_focus();
            if r.changed() && touched {
                send(T::Scrub(t));
            }
        });
    }
}
