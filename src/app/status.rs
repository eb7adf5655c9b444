//! The status bar: the last message or error, the selection and the playhead.

use eframe::egui;

use super::state::AppState;

pub fn ui(ui: &mut egui::Ui, state: &mut AppState) {
    ui.horizontal(|ui| {
        let color = if state.status.is_error { ui.visuals().error_fg_color } else { ui.visuals().text_color() };
        ui.colored_label(color, &state.status.text);
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let frame = (state.playhead * state.project().fps).round();
            ui.label(format!("playhead {:.3} s (frame {frame})", state.playhead)).on_hover_text("Click empty graph space to move the playhead");
            ui.separator();
            ui.label(format!("{} keys selected", state.selection.len()));
        });
    });
}
