//! The status bar: the last message or error, the selection and the playhead.

use eframe::egui;

use super::commands::AppCommand;
use super::panel::{Panel, PanelContext};

#[derive(Default)]
pub struct StatusBar;

impl Panel for StatusBar {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, _out: &mut Vec<AppCommand>) {
        ui.horizontal(|ui| {
            let status = &cx.ui.status;
            let color = if status.is_error { ui.visuals().error_fg_color } else { ui.visuals().text_color() };
            if let Some(busy) = cx.ui.key_queue.busy_text() {
                ui.spinner();
                ui.label(busy).on_hover_text("Changing the selected keys on a worker: the window stays usable, and edits wait until it is done");
                ui.separator();
            }
            if let Some((label, done)) = cx.ui.runtime_preview.progress() {
                ui.spinner();
                let done = done.map_or(String::new(), |f| format!(" {:.0}%", 100.0 * f));
                ui.label(format!("{label}{done}")).on_hover_text("View > Preview runtime is playing the export again on a worker after a change; the ghost shown is the last one made");
                ui.separator();
                ui.ctx().request_repaint_after(std::time::Duration::from_millis(200));
            }
            ui.colored_label(color, &status.text);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let playhead = cx.playhead();
                let frame = (playhead * cx.project().fps).round();
                ui.label(format!("playhead {playhead:.3} s (frame {frame})")).on_hover_text("Click empty graph space to move the playhead");
                ui.separator();
                ui.label(format!("{} keys selected", cx.doc.selection.len()));
                let hidden = cx.hidden_curves();
                if hidden > 0 {
                    ui.separator();
                    ui.label(format!("{hidden} curves not drawn (Shift+H draws all)"))
                        .on_hover_text("A large document draws the active track and the tracks with selected keys: click tracks in the list, or View > Show every track's curve (Shift+H)");
                }
            });
        });
    }
}
