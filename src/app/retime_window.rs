//! Key > Scale time…: the factor S and the pivot (the playhead, or the selection's centre, as
//! Blender's graph editor offers). Apply sends [`AppCommand::ScaleTime`]: the tracks of the
//! selected keys (or the active track), whole, retimed by [`crate::retime::retime_track`] as
//! one undo step, the status bar saying the measured difference and any note. A negative S
//! mirrors; a zero S is refused here, with the valid range.

use eframe::egui;

use super::commands::AppCommand;
use super::document::cleanup::Pivot;
use super::panel::{Panel, PanelContext};
use super::payload::Window;
use crate::retime::RetimeError;

pub struct RetimeWindow {
    scale: f64,
    pivot: Pivot,
}

impl Default for RetimeWindow {
    fn default() -> Self {
        Self { scale: 2.0, pivot: Pivot::Playhead }
    }
}

impl Panel for RetimeWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if !cx.ui.windows.is_open(Window::ScaleTime) {
            return;
        }
        let (mut open, mut close) = (true, false);
        egui::Window::new("Scale time").open(&mut open).collapsible(false).resizable(false).show(ui.ctx(), |ui| {
            ui.label("Stretches the tracks of the selected keys (whole tracks) in time: new(t) = old(pivot + (t − pivot)/S).");
            ui.horizontal(|ui| {
                ui.label("S");
                ui.add(egui::DragValue::new(&mut self.scale).speed(0.01))
                    .on_hover_text("The time factor: 2 doubles durations, 0.5 halves them, a negative factor mirrors time")
                    .accessible_name("scale time factor");
            });
            ui.horizontal(|ui| {
                ui.label("pivot");
                ui.radio_value(&mut self.pivot, Pivot::Playhead, "playhead").on_hover_text("Scale about the playhead");
                ui.radio_value(&mut self.pivot, Pivot::SelectionCentre, "selection's centre")
                    .on_hover_text("Scale about the middle of the selected keys' time range");
            });
            let pivot = cx.doc.pivot_time(self.pivot, cx.playhead());
            ui.label(format!("about {pivot:.3} s"));
            let valid = self.scale.is_finite() && self.scale != 0.0;
            if !valid {
                ui.colored_label(ui.visuals().error_fg_color, RetimeError::Scale(self.scale).to_string());
            }
            ui.horizontal(|ui| {
                let apply =
                    ui.add_enabled(valid, egui::Button::new("Apply")).on_hover_text("Retime these tracks, as one undo step; the originals stay as a ghost");
                if apply.clicked() {
                    out.push(AppCommand::ScaleTime { scale: self.scale, pivot: self.pivot });
                    close = true;
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
        if !open || close {
            out.push(AppCommand::CloseWindow(Window::ScaleTime));
        }
    }
}
