//! The status bar: the last message or error.

use eframe::egui;

use super::state::AppState;

pub fn ui(ui: &mut egui::Ui, state: &mut AppState) {
    ui.horizontal(|ui| {
        let color = if state.status.is_error {
            ui.visuals().error_fg_color
        } else {
            ui.visuals().text_color()
        };
        ui.colored_label(color, &state.status.text);
    });
}
