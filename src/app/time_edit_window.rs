//! Key > Insert time… and Remove time…: the amount in seconds, and what it would do at the
//! playhead (how many keys move, how many are deleted, on which tracks). Apply sends
//! [`AppCommand::EditTime`]: one undo step (`document/time_edit.rs`), the originals left as
//! the ghost.

use eframe::egui;

use super::commands::AppCommand;
use super::document::time_edit::TimeEdit;
use super::panel::{Panel, PanelContext};
use super::windows::Window;
pub struct TimeEditWindow {
    amount: f64,
}

impl Default for TimeEditWindow {
    fn default() -> Self {
        Self { amount: 0.5 }
    }
}

impl TimeEditWindow {
    fn show(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, edit: TimeEdit, out: &mut Vec<AppCommand>) -> bool {
        let (mut open, mut close) = (true, false);
        let at = cx.playhead();
        open &= super::style::tool_window(ui, edit.label(), cx.view.dock_tools, |ui| {
            ui.label(match edit {
                TimeEdit::Insert => "Every key after the playhead moves later by the amount (a key at the playhead stays).",
                TimeEdit::Remove => "The keys in the span after the playhead are deleted; every later key moves earlier by the amount.",
            });
            ui.horizontal(|ui| {
                ui.label("amount");
                ui.add(egui::DragValue::new(&mut self.amount).range(0.0..=1e6).speed(0.01).suffix(" s")).accessible_name("time edit amount");
                ui.label(format!("at the playhead, {at:.3} s"));
            });
            let valid = self.amount.is_finite() && self.amount > 0.0;
            let plan = cx.doc.time_edit_plan(edit, at, self.amount);
            let (deleted, moved) = plan.counts();
            let what = match edit {
                TimeEdit::Insert => format!("{moved} keys move later"),
                TimeEdit::Remove => format!("{deleted} keys in ({at:.3} s, {:.3} s] deleted, {moved} later keys move earlier", at + self.amount),
            };
            ui.label(format!("{what}, on {} ({})", plan.which, plan.tracks.len()));
            if !valid {
                ui.colored_label(ui.visuals().error_fg_color, "the amount must be more than 0 s");
            }
            let tips = ("One undo step; the originals stay as a ghost", "The amount must be more than 0 s");
            let (apply, closes) = super::style::apply_or_cancel(ui, "Apply", valid, tips);
            if apply {
                out.push(AppCommand::EditTime { edit, amount: self.amount });
            }
            close |= closes;
        });
        !open || close
    }
}

impl Panel for TimeEditWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        for (window, edit) in [(Window::InsertTime, TimeEdit::Insert), (Window::RemoveTime, TimeEdit::Remove)] {
            if cx.ui.windows.is_open(window) && self.show(ui, cx, edit, out) {
                out.push(AppCommand::CloseWindow(window));
            }
        }
    }
}
