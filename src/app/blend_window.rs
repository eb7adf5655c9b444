//! The blend slider (Key > Blend to Neighbor, Breakdown, Blend to Ease), as Blender's graph
//! editor sliders: a small window over the graph while `UiState::blend` holds a session.
//!
//! Nothing heavy runs on the UI thread while the slider moves: each factor the slider asks is
//! made on a worker ([`blend_on_worker`] on the one `Job` type, kept in a [`Previewed`]) — the
//! original keys blended at that factor, each track compiled, and the largest difference
//! between the original and the blended curve measured over the curve (degrees for
//! rotations). A result is sent to the dispatcher ([`BlendCommand::Blended`]), which puts it in
//! place only if the document, its revision and the selection are those it was made for (one
//! undo step from the first change to OK). While a job runs the slider keeps moving; the next
//! job starts, for the factor the slider shows then, once that one is done, so a fast drag sees
//! the keys follow instead of a string of cancelled jobs. OK or Enter keeps the keys (once the
//! factor the slider shows has landed), Cancel or Escape puts the originals back and leaves
//! nothing to undo or redo. From the first change the graph draws the originals as a ghost, and
//! the window gives per track the measured difference. When the document changed under the
//! slider (another edit, Undo) it closes.

use std::sync::Arc;

use eframe::egui;

use super::basis::Basis;
use super::commands::{AppCommand, BlendCommand};
use super::document::blend::{blend_on_worker, BlendSession, Blended};
use super::finished::Handoff;
use super::jobs::Job;
use super::panel::{Panel, PanelContext};
use super::preview_job::Previewed;
use crate::blend::BlendTool;

#[derive(Default)]
pub struct BlendWindow {
    /// The session ([`BlendSession::id`]) the rest is about.
    session: Option<u64>,
    /// The factor the slider shows: the keys reach it once its job has landed.
    asked: f64,
    /// OK (or Enter) came while the keys had not reached the factor asked: keep them once
    /// they have.
    keep_when_done: bool,
    /// The job in flight with the factor and basis it was asked for.
    job: Previewed<(f64, Basis), Blended>,
}

/// What the slider's ends mean.
fn ends(tool: BlendTool) -> &'static str {
    match tool {
        BlendTool::ToNeighbor => "0: the key before the run · ½: as they are · 1: the key after",
        BlendTool::Breakdown => "0: the key before the run · 1: the key after · between: that far from one to the other",
        BlendTool::ToEase => "−1: toward an ease-in curve · 0: as they are · 1: toward an ease-out curve",
    }
}

impl BlendWindow {
    /// Whether a change is still being made for `session`: a job in flight, or the keys not
    /// yet at the factor the slider shows (what the UI tests wait on).
    #[must_use]
    pub fn waiting(&self, session: &BlendSession) -> bool {
        self.job.is_busy() || self.session != Some(session.id) || self.asked != session.factor
    }

    /// Forgets the session: the job in flight is cancelled.
    fn reset(&mut self) {
        self.job.clear();
        self.session = None;
        self.keep_when_done = false;
    }

    /// Sends a result that landed to the dispatcher; its factor, if one did.
    fn land(&mut self, out: &mut Vec<AppCommand>) -> Option<f64> {
        if !self.job.poll() {
            return None;
        }
        let blended = Arc::try_unwrap(self.job.computed.take()?).ok()?;
        let factor = blended.factor;
        out.push(AppCommand::Blend(BlendCommand::Blended(Handoff::new(blended))));
        Some(factor)
    }

    /// Starts the job for the factor the slider shows, made for the document as it is.
    fn start(&mut self, cx: &PanelContext<'_>, session: &BlendSession, ctx: &egui::Context) {
        let (work, factor, basis) = (session.work(), self.asked, cx.doc.basis());
        let job = Job::spawn(session.tool.label(), Some(ctx), move |w| blend_on_worker(&work, factor, basis, &|| w.cancelled()));
        self.job.run((factor, basis), job.made_for(basis));
    }
}

impl Panel for BlendWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        let Some(session) = &cx.ui.blend else {
            self.reset();
            return;
        };
        if !cx.doc.blend_holds(session) {
            self.reset();
            out.push(AppCommand::Blend(BlendCommand::Close));
            return;
        }
        if self.session != Some(session.id) {
            self.reset();
            (self.session, self.asked) = (Some(session.id), session.factor);
        }
        let landed = self.land(out);
        let tool = session.tool;
        let (min, max) = tool.neutral_and_range().1;
        let (mut done, mut reached) = (None, true);
        let ctx = ui.ctx().clone();
        // Docked below the graph (or floating), as every tool: its close button is Cancel.
        let open = super::style::tool_window(ui, tool.label(), cx.view.dock_tools, |ui| {
            ui.label(format!("{}, from the keys as they were when the slider opened", session.scope()));
            let mut factor = self.asked;
            let r = ui.add(egui::Slider::new(&mut factor, min..=max).text("factor").max_decimals(3)).on_hover_text(ends(tool)).accessible_name("blend factor");
            if r.changed() && factor.is_finite() {
                self.asked = factor;
            }
            ui.small(ends(tool));
            // The keys reach the factor asked with this frame's result, or have already.
            reached = landed.unwrap_or(session.factor) == self.asked && !self.job.is_busy();
            if !reached {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("blending and measuring…");
                });
            }
            differences(ui, session);
            super::style::body_line(ui, &session.body);
            super::style::jumps_warning(ui, &session.crossed);
            for refused in &session.refused {
                ui.colored_label(ui.visuals().error_fg_color, format!("left out: {refused}"));
            }
            ui.horizontal(|ui| {
                if ui.button("OK").on_hover_text("Keep the keys (Enter): one undo step; the originals stay as a ghost").clicked() {
                    done = Some(BlendCommand::Keep);
                }
                if ui.button("Cancel").on_hover_text("Put the original keys back (Escape)").clicked() {
                    done = Some(BlendCommand::Cancel);
                }
            });
        });
        if !open {
            done = done.or(Some(BlendCommand::Cancel));
        }
        if !ctx.egui_wants_keyboard_input() {
            if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter)) {
                done = done.or(Some(BlendCommand::Keep));
            }
            if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
                done = done.or(Some(BlendCommand::Cancel));
            }
        }
        if landed.is_none() && !self.job.is_busy() && self.asked != session.factor {
            self.start(cx, session, &ctx);
        }
        match done {
            Some(BlendCommand::Keep) if !reached => self.keep_when_done = true,
            Some(BlendCommand::Cancel) => {
                self.job.clear();
                out.push(AppCommand::Blend(BlendCommand::Cancel));
            }
            Some(d) => out.push(AppCommand::Blend(d)),
            None if self.keep_when_done && reached => out.push(AppCommand::Blend(BlendCommand::Keep)),
            None => {}
        }
    }
}

/// Per track the slider changed, the largest difference from the original measured over the
/// curve ("°" for rotations).
fn differences(ui: &mut egui::Ui, session: &BlendSession) {
    if session.differences.is_empty() {
        return;
    }
    egui::Grid::new("blend differences").num_columns(2).striped(true).show(ui, |ui| {
        ui.strong("track");
        ui.strong("max difference");
        ui.end_row();
        for (i, d) in &session.differences {
            let Some(o) = session.origins.iter().find(|o| o.index == *i) else { continue };
            ui.label(&o.track.name);
            let unit = if o.track.kind.is_rotation() { super::units::Measured::Degrees } else { super::units::Measured::FileUnits };
            ui.label(super::units::fmt_measured(*d, unit, 3));
            ui.end_row();
        }
    });
}
