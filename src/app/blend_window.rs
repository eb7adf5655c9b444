//! The blend slider (Key > Blend to Neighbor, Breakdown, Blend to Ease), as Blender's graph
//! editor sliders: a small window over the graph while `UiState::blend` holds a session. Each
//! change of the slider sends [`BlendCommand::Factor`] (the dispatcher puts the original keys
//! blended at that factor in place, one undo step from the first change to OK); OK or Enter
//! keeps the keys, Cancel or Escape puts the originals back and leaves nothing to undo or
//! redo. From the first change the graph draws the originals as a ghost, and the window gives
//! per track the largest difference between the original and the blended curve, measured over
//! the curve (degrees for rotations). When the document changed under the slider (another
//! edit, Undo) it closes.

use eframe::egui;

use super::commands::{AppCommand, BlendCommand};
use super::document::blend::BlendSession;
use super::panel::{Panel, PanelContext};
use crate::blend::BlendTool;

#[derive(Default)]
pub struct BlendWindow;

/// What the slider's ends mean.
fn ends(tool: BlendTool) -> &'static str {
    match tool {
        BlendTool::ToNeighbor => "0: the key before the run · ½: as they are · 1: the key after",
        BlendTool::Breakdown => "0: the key before the run · 1: the key after · between: that far from one to the other",
        BlendTool::ToEase => "−1: toward an ease-in curve · 0: as they are · 1: toward an ease-out curve",
    }
}

impl Panel for BlendWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        let Some(session) = &cx.ui.blend else { return };
        if !cx.doc.blend_holds(session) {
            out.push(AppCommand::Blend(BlendCommand::Close));
            return;
        }
        let tool = session.tool;
        let (mut factor, (min, max)) = (session.factor, tool.neutral_and_range().1);
        let mut done = None;
        let ctx = ui.ctx().clone();
        egui::Window::new(tool.label()).collapsible(false).resizable(false).anchor(egui::Align2::CENTER_TOP, [0.0, 60.0]).show(&ctx, |ui| {
            ui.label(format!("{}, from the keys as they were when the slider opened", session.scope()));
            let r = ui.add(egui::Slider::new(&mut factor, min..=max).text("factor").max_decimals(3)).on_hover_text(ends(tool)).accessible_name("blend factor");
            if r.changed() && factor.is_finite() {
                out.push(AppCommand::Blend(BlendCommand::Factor(factor)));
            }
            ui.small(ends(tool));
            differences(ui, session);
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
        if !ctx.egui_wants_keyboard_input() {
            if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter)) {
                done = done.or(Some(BlendCommand::Keep));
            }
            if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
                done = done.or(Some(BlendCommand::Cancel));
            }
        }
        out.extend(done.map(AppCommand::Blend));
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
            ui.label(format!("{d:.3e}{}", if o.track.kind.is_rotation() { "°" } else { "" }));
            ui.end_row();
        }
    });
}
