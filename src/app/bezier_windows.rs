//! The two small windows of Bézier editing: the handle-type menu that `V` opens at the pointer
//! (Blender's), and Convert to Bézier, which asks for the bound eased segments must keep and
//! previews, per track, the keys it will make and the largest difference it measured.

use eframe::egui;

use super::commands::{AppCommand, Command};
use super::doc_edits::ConvertPreview;
use super::{Panel, PanelContext};

/// The `V` menu: open until a type is chosen, Escape is pressed or the pointer clicks
/// elsewhere.
#[derive(Default)]
pub struct HandleMenu {
    pub open: bool,
    at: Option<egui::Pos2>,
}

impl Panel for HandleMenu {
    fn ui(&mut self, ui: &mut egui::Ui, _cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if !self.open {
            self.at = None;
            return;
        }
        let ctx = ui.ctx().clone();
        let at = *self.at.get_or_insert_with(|| ctx.input(|i| i.pointer.latest_pos()).unwrap_or_else(|| ctx.content_rect().center()));
        let shown = egui::Area::new(egui::Id::unique("handle type menu")).fixed_pos(at).order(egui::Order::Foreground).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(egui::RichText::new("Set keyframe handle type").strong());
                ui.separator();
                for c in Command::HANDLE_TYPES {
                    if ui.button(c.text()).on_hover_text(c.tooltip()).clicked() {
                        out.push(AppCommand::Ui(c));
                        self.open = false;
                    }
                }
            });
        });
        if ctx.input(|i| i.key_pressed(egui::Key::Escape)) || shown.response.clicked_elsewhere() {
            self.open = false;
        }
    }
}

/// Key > Convert to Bézier…: the bound, a preview computed again whenever the bound or the
/// document changes, Convert and Cancel.
pub struct ConvertWindow {
    pub open: bool,
    bound: f64,
    /// The preview, and the bound and document revision it was made for.
    preview: Option<(f64, u64, Vec<ConvertPreview>)>,
}

impl Default for ConvertWindow {
    fn default() -> Self {
        Self { open: false, bound: crate::DEFAULT_ACCURACY, preview: None }
    }
}

impl Panel for ConvertWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if !self.open {
            self.preview = None;
            return;
        }
        let mut open = true;
        let mut close = false;
        egui::Window::new("Convert to Bézier").open(&mut open).collapsible(false).resizable(false).show(ui.ctx(), |ui| {
            ui.label("TCB, Cubic and Linear keys become Bezier keys that draw the same curve.");
            ui.label("A TCB segment with ease is not a cubic in time: it gets the fewest extra keys that stay within the bound.");
            ui.horizontal(|ui| {
                ui.label("bound");
                ui.add(egui::Slider::new(&mut self.bound, 1e-9..=1e-1).logarithmic(true).custom_formatter(|v, _| format!("{v:.0e}")))
                    .on_hover_text("The largest difference allowed between the eased TCB curve and its Bézier keys, in value units")
                    .accessible_name("bound");
            });
            let revision = cx.doc.document.revision();
            let stale = self.preview.as_ref().is_none_or(|(b, r, _)| *b != self.bound || *r != revision);
            if stale {
                self.preview = Some((self.bound, revision, cx.doc.convert_preview(self.bound)));
            }
            let rows = self.preview.as_ref().map(|p| p.2.as_slice()).unwrap_or_default();
            preview_table(ui, rows);
            ui.horizontal(|ui| {
                let convertible = rows.iter().any(|r| r.result.is_ok());
                if ui.add_enabled(convertible, egui::Button::new("Convert")).on_hover_text("Convert these tracks, as one undo step").clicked() {
                    out.push(AppCommand::ConvertToBezier { bound: self.bound });
                    close = true;
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
        if !open || close {
            self.open = false;
        }
    }
}

fn preview_table(ui: &mut egui::Ui, rows: &[ConvertPreview]) {
    if rows.is_empty() {
        ui.label("Nothing to convert: select keys on a TCB, Cubic or Linear track, or click one.");
        return;
    }
    egui::Grid::new("convert preview").num_columns(3).striped(true).show(ui, |ui| {
        ui.strong("track");
        ui.strong("keys");
        ui.strong("largest difference");
        ui.end_row();
        for r in rows {
            ui.label(&r.name);
            match &r.result {
                Ok((after, diff)) => {
                    ui.label(format!("{} -> {after}", r.keys_before));
                    ui.label(format!("{diff:.1e}"));
                }
                Err(e) => {
                    ui.label(format!("{}", r.keys_before));
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
            }
            ui.end_row();
        }
    });
}
