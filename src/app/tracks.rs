//! The track list: one row per track with its visibility, name, kind and mode.

use eframe::egui;

use super::state::AppState;
use super::style::track_color;

pub fn ui(ui: &mut egui::Ui, state: &mut AppState) {
    ui.heading("Tracks");
    egui::ScrollArea::vertical().show(ui, |ui| {
        for (i, track) in state.project.tracks.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                ui.painter().rect_filled(rect, 2.0, track_color(track, i));
                ui.checkbox(&mut track.visible, &track.name)
                    .on_hover_text(format!(
                        "{:?} track, {:?} interpolation, {} keys. Tick to show it in the graph.",
                        track.kind,
                        track.interpolation,
                        track.keys.len()
                    ));
            });
            if let Err(e) = &state.curves[i] {
                ui.colored_label(ui.visuals().error_fg_color, e.to_string());
            }
        }
    });
}
