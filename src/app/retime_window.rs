//! Key > Scale time… (`S`): the factor S and the pivot (the playhead, or the selection's
//! centre, as Blender's graph editor offers). With keys selected, only they are scaled in time
//! ([`crate::retime::retime_keys`]: their handles' time extents with them, the unselected keys
//! where they are); with none, the active track whole ([`crate::retime::retime_track`]). While
//! the window is open and S is valid, this is computed on a worker whenever S, the pivot or the
//! document changes (as Edit > Smooth… does): the graph draws each retimed curve over a ghost
//! of the original ([`AppCommand::SetRetimePreview`]) and the table gives, per track, the
//! largest difference measured (degrees for rotations) and the engine's notes — or, where a
//! selected key would land on or pass an unselected key, which one, in red, and Apply is off
//! (Blender would merge the keys; Tangent refuses rather than lose one). Apply sends what the
//! window shows ([`AppCommand::ScaleTime`]), put in place as one undo step if the document and
//! selection are still those it was made for. A negative S mirrors; a zero S is refused here,
//! with the valid range.

use eframe::egui;

use super::commands::AppCommand;
use super::document::cleanup::{plural, retime_targets, Pivot, Retiming};
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
        let which = cx.doc.cleanup_targets();
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
        open &= super::style::tool_window(ui, "Scale time", cx.view.dock_tools, |ui| {
            ui.label(if cx.doc.selection.is_empty() {
                "Stretches the active track in time (no key is selected): new(t) = old(pivot + (t − pivot)/S)."
            } else {
                "Scales the selected keys in time about the pivot, their handles with them; the other keys stay where they are."
            });
            ui.label("The original stays drawn as a ghost; the difference is measured over the curves, not only at keys.");
            self.controls(ui);
            let pivot = cx.doc.pivot_time(self.pivot, cx.playhead());
            ui.label(format!("about {pivot:.3} s"));
            let valid = self.scale.is_finite() && self.scale != 0.0;
            let mut applicable = None;
            if valid {
                let asked = (self.scale, pivot, cx.doc.basis());
                if self.preview.computed.as_ref().is_none_or(|c| c.asked() != asked) {
                    self.start(cx, asked, ui.ctx());
                }
                let fresh = self.preview.computed.as_ref().filter(|c| c.asked() == asked);
                applicable = fresh.filter(|c| c.applicable()).cloned();
                match &self.preview.computed {
                    None => {
                        _ = ui.horizontal(|ui| {
                            ui.spinner();
                            ui.label("retiming…");
                        })
                    }
                    Some(c) => report(ui, c, fresh.is_some()),
                }
            } else {
                ui.colored_label(ui.visuals().error_fg_color, RetimeError::Scale(self.scale).to_string());
                self.clear(cx, out);
            }
            let tips = (
                "Retime these keys, as one undo step; the originals stay as a ghost",
                "Not while a key would land on or pass an unselected key, S is not valid, or the preview is being made",
            );
            let (apply, closes) = super::style::apply_or_cancel(ui, "Apply", applicable.is_some(), tips);
            if let (true, Some(retiming)) = (apply, applicable) {
                out.push(AppCommand::ScaleTime(retiming));
            }
            close |= closes;
        });
        if !open || close {
            out.push(AppCommand::CloseWindow(Window::ScaleTime));
        }
    }
}

/// What will change (how many selected keys on how many tracks, or whole tracks), the first
/// track refused in full, then the table.
fn report(ui: &mut egui::Ui, retiming: &Retiming, fresh: bool) {
    match retiming.selected_keys() {
        Some((keys, tracks)) => ui.label(format!("Scales {keys} selected key{} on {tracks} track{}.", plural(keys), plural(tracks))),
        None if retiming.tracks.is_empty() => ui.label(""),
        None => ui.label(format!("Scales {} whole track{}.", retiming.tracks.len(), plural(retiming.tracks.len()))),
    };
    if let Some((_, _, Err(e))) = retiming.tracks.iter().find(|t| t.2.is_err()) {
        ui.colored_label(ui.visuals().error_fg_color, format!("Cannot apply: {e}"));
    }
    super::style::body_line(ui, &retiming.body);
    report_table(ui, retiming, fresh);
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
                        let unit = super::units::Measured::of(r.retimed.track.kind, super::units::Measured::Degrees);
                        ui.label(super::units::fmt_measured(r.retimed.max_difference, unit, 3));
                        let mut notes = r.retimed.notes.clone();
                        if let Some((scaled, keys)) = r.scaled.filter(|(scaled, keys)| scaled < keys) {
                            notes.insert(0, format!("{scaled} of {keys} keys scaled; measured against the original at the same times"));
                        }
                        ui.label(if notes.is_empty() { "exact".to_owned() } else { notes.join("; ") });
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
