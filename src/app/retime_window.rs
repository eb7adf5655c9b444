//! Key > Scale time…: the factor S and the pivot (the playhead, or the selection's centre, as
//! Blender's graph editor offers). While the window is open and S is valid, the tracks of the
//! selected keys (or the active track) are retimed by [`crate::retime::retime_track`] on a
//! worker whenever S, the pivot or the document changes (as Edit > Smooth… does): the graph
//! draws each retimed curve over a ghost of the original ([`AppCommand::SetRetimePreview`])
//! and the table gives, per track, the largest difference measured (degrees for rotations)
//! and the engine's notes. Apply sends [`AppCommand::ScaleTime`]: those tracks, whole,
//! retimed as one undo step, the status bar saying the measured difference and any note. A
//! negative S mirrors; a zero S is refused here, with the valid range.

use eframe::egui;

use super::commands::AppCommand;
use super::document::cleanup::{retime_targets, Pivot, Retiming};
use super::jobs::Job;
use super::panel::{Panel, PanelContext};
use super::payload::{Basis, Window};
use super::preview_job::Previewed;
use crate::retime::RetimeError;

/// What a preview is made for: the factor, the pivot time and the basis.
type Asked = (f64, f64, Basis);

pub struct RetimeWindow {
    scale: f64,
    pivot: Pivot,
    /// The last result made and the one in flight.
    preview: Previewed<Asked, Retiming>,
}

impl Default for RetimeWindow {
    fn default() -> Self {
        Self { scale: 2.0, pivot: Pivot::Playhead, preview: Previewed::default() }
    }
}

impl RetimeWindow {
    /// Starts retiming for `asked` on a worker thread unless it is already running.
    fn start(&mut self, cx: &PanelContext<'_>, asked: Asked, ctx: &egui::Context) {
        if self.preview.is_running(&asked) {
            return;
        }
        let project = cx.doc.document.shared_project();
        let which: Vec<usize> = cx.doc.convert_targets().into_iter().collect();
        let job = Job::spawn("Scale time", Some(ctx), move |w| retime_targets(&project, &which, asked, &|| w.cancelled()));
        self.preview.run(asked, job.made_for(asked.2));
    }

    /// Drops the preview (the window closed, or S is not valid).
    fn clear(&mut self, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if self.preview.clear() || cx.ui.retime_preview.is_some() {
            out.push(AppCommand::SetRetimePreview(None));
        }
    }

    /// S and the pivot.
    fn controls(&mut self, ui: &mut egui::Ui) {
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
    }
}

impl Panel for RetimeWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if !cx.ui.windows.is_open(Window::ScaleTime) {
            self.clear(cx, out);
            return;
        }
        if self.preview.poll() {
            out.push(AppCommand::SetRetimePreview(self.preview.computed.clone()));
        }
        let (mut open, mut close) = (true, false);
        egui::Window::new("Scale time").open(&mut open).collapsible(false).resizable(false).show(&ui.ctx().clone(), |ui| {
            ui.label("Stretches the tracks of the selected keys (whole tracks) in time: new(t) = old(pivot + (t − pivot)/S). The original stays drawn as a ghost; the difference is measured over the curves, not only at keys.");
            self.controls(ui);
            let pivot = cx.doc.pivot_time(self.pivot, cx.playhead());
            ui.label(format!("about {pivot:.3} s"));
            let valid = self.scale.is_finite() && self.scale != 0.0;
            if valid {
                let asked = (self.scale, pivot, cx.doc.basis());
                if self.preview.computed.as_ref().is_none_or(|c| c.asked() != asked) {
                    self.start(cx, asked, ui.ctx());
                }
                let fresh = self.preview.computed.as_ref().is_some_and(|c| c.asked() == asked);
                match &self.preview.computed {
                    None => _ = ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("retiming…");
                    }),
                    Some(c) => report_table(ui, c, fresh),
                }
            } else {
                ui.colored_label(ui.visuals().error_fg_color, RetimeError::Scale(self.scale).to_string());
                self.clear(cx, out);
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

/// Per track: the largest difference measured ("°" for rotations) and the engine's notes, or
/// why the track cannot be retimed.
fn report_table(ui: &mut egui::Ui, retiming: &Retiming, fresh: bool) {
    if retiming.tracks.is_empty() {
        ui.label("Nothing to scale: select keys on a track, or click one.");
        return;
    }
    super::style::track_table(ui, "retime report", |ui| {
        egui::Grid::new("retime report").num_columns(3).striped(true).show(ui, |ui| {
            ui.strong("track");
            ui.strong("max difference");
            ui.strong("notes");
            ui.end_row();
            for (_, name, result) in &retiming.tracks {
                ui.label(name);
                match result {
                    Ok(r) => {
                        let unit = if r.retimed.track.kind.is_rotation() { "°" } else { "" };
                        ui.label(format!("{:.3e}{unit}", r.retimed.max_difference));
                        ui.label(if r.retimed.notes.is_empty() { "exact".to_owned() } else { r.retimed.notes.join("; ") });
                    }
                    Err(e) => {
                        ui.label("");
                        ui.colored_label(ui.visuals().error_fg_color, e);
                    }
                }
                ui.end_row();
            }
        });
    });
    if !fresh {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("retiming again…");
        });
    }
}
