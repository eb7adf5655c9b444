//! The small windows of Bézier editing: the menus `V`, `T` and `Ctrl+E` open at the pointer
//! (Blender's handle type, interpolation mode and easing), and Convert to Bézier, which asks for the bound eased segments must keep and
//! previews, per track, the keys it will make and the largest difference it measured.

use std::sync::Arc;

use eframe::egui;

use super::commands::{AppCommand, Command};
use super::document::edits::convert_tracks;
use super::jobs::Job;
use super::panel::{Panel, PanelContext};
use super::payload::{Basis, Conversions, ConvertPreview, Window};

/// The menus Bézier keys open at the pointer, as Blender's graph editor: `V` (handle
/// types), `T` (interpolation mode) and `Ctrl+E` (easing). Each stays open until an entry is
/// chosen, Escape is pressed or the pointer clicks elsewhere.
pub struct PointerMenu {
    window: Window,
    at: Option<egui::Pos2>,
}

impl PointerMenu {
    #[must_use]
    pub fn new(window: Window) -> Self {
        Self { window, at: None }
    }

    /// The menu's heading and its groups of entries (each group under an optional heading).
    fn entries(&self) -> (&'static str, Vec<(Option<&'static str>, &'static [Command])>) {
        match self.window {
            Window::InterpolationMenu => {
                ("Set keyframe interpolation", Command::INTERPOLATION_GROUPS.iter().zip(Command::INTERPOLATIONS).map(|(h, c)| (Some(*h), c)).collect())
            }
            Window::EasingMenu => ("Set keyframe easing type", vec![(None, &Command::EASINGS[..])]),
            _ => ("Set keyframe handle type", vec![(None, &Command::HANDLE_TYPES[..])]),
        }
    }
}

/// The three pointer menus.
pub struct PointerMenus([PointerMenu; 3]);

impl Default for PointerMenus {
    fn default() -> Self {
        Self([Window::HandleTypeMenu, Window::InterpolationMenu, Window::EasingMenu].map(PointerMenu::new))
    }
}

impl Panel for PointerMenus {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        for menu in &mut self.0 {
            menu.ui(ui, cx, out);
        }
    }
}

impl Panel for PointerMenu {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        let window = self.window;
        if !cx.ui.windows.is_open(window) {
            self.at = None;
            return;
        }
        let ctx = ui.ctx().clone();
        let at = *self.at.get_or_insert_with(|| ctx.input(|i| i.pointer.latest_pos()).unwrap_or_else(|| ctx.content_rect().center()));
        let (heading, groups) = self.entries();
        let shown = egui::Area::new(egui::Id::unique(("pointer menu", window))).fixed_pos(at).order(egui::Order::Foreground).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(egui::RichText::new(heading).strong());
                for (group, commands) in groups {
                    ui.separator();
                    if let Some(group) = group {
                        ui.label(egui::RichText::new(group).weak());
                    }
                    for &c in commands {
                        if ui.button(c.text()).on_hover_text(c.tooltip()).clicked() {
                            out.push(AppCommand::Ui(c));
                            out.push(AppCommand::CloseWindow(window));
                        }
                    }
                }
            });
        });
        if ctx.input(|i| i.key_pressed(egui::Key::Escape)) || shown.response.clicked_elsewhere() {
            out.push(AppCommand::CloseWindow(window));
        }
    }
}

/// Target keys above which the preview is converted on a worker thread (with a spinner), so
/// the window stays responsive: converting a million keys takes about a second.
const WORKER_KEYS: usize = 20_000;

/// Key > Convert to Bézier…: the bound, a preview computed again whenever the bound, the
/// document or the selection changes (on a worker for many keys), Convert and Cancel. Convert
/// puts the previewed conversion in place without making it again, if what it was made for
/// still holds (`DocState::convert_to_bezier`).
#[derive(Default)]
pub struct ConvertWindow {
    bound: Option<f64>,
    preview: Option<Arc<Conversions>>,
    /// A conversion under way on a worker, and the bound and basis it is for.
    job: Option<((f64, Basis), Job<Conversions>)>,
}

impl ConvertWindow {
    /// Whether a worker is converting for the preview.
    pub fn is_converting(&self) -> bool {
        self.job.is_some()
    }

    /// The preview for `bound` and `basis`: kept, arrived from the worker, or started.
    fn preview(&mut self, cx: &PanelContext<'_>, (bound, basis): (f64, Basis), ctx: &egui::Context) -> Option<Arc<Conversions>> {
        if let Some(made) = self.job.as_mut().and_then(|(_, job)| job.poll()) {
            self.job = None;
            self.preview = made.map(Arc::new);
        }
        if let Some(p) = self.preview.as_ref().filter(|p| p.bound == bound && p.made_for == basis) {
            return Some(p.clone());
        }
        if self.job.as_ref().is_some_and(|(of, _)| *of == (bound, basis)) {
            return None;
        }
        let targets: Vec<usize> = cx.doc.convert_targets().into_iter().collect();
        let keys: usize = targets.iter().filter_map(|&i| cx.project().tracks.get(i)).map(|t| t.keys.len()).sum();
        if keys <= WORKER_KEYS {
            self.preview = Some(Arc::new(convert_tracks(cx.project(), &targets, bound, basis)));
            return self.preview.clone();
        }
        let project = cx.doc.document.shared_project();
        let job = Job::spawn("Convert to Bézier", Some(ctx), move |_| Some(convert_tracks(&project, &targets, bound, basis)));
        if let Some((_, old)) = self.job.replace(((bound, basis), job.made_for(basis))) {
            old.cancel();
        }
        None
    }
}

impl Panel for ConvertWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if !cx.ui.windows.is_open(Window::ConvertToBezier) {
            if let Some((_, job)) = self.job.take() {
                job.cancel();
            }
            self.preview = None;
            return;
        }
        let mut open = true;
        let mut close = false;
        let ctx = ui.ctx().clone();
        let mut bound = self.bound.unwrap_or(crate::DEFAULT_ACCURACY);
        open &= super::style::tool_window(ui, "Convert to Bézier", cx.view.dock_tools, |ui| {
            ui.label("TCB, Cubic and Linear keys become Bezier keys that draw the same curve.");
            ui.label("A TCB segment with ease is not a cubic in time: it gets the fewest extra keys that stay within the bound.");
            ui.horizontal(|ui| {
                ui.label("bound");
                ui.add(egui::Slider::new(&mut bound, 1e-9..=1e-1).logarithmic(true).custom_formatter(|v, _| format!("{v:.0e}")))
                    .on_hover_text("The largest difference allowed between the eased TCB curve and its Bézier keys, in value units (radians for Euler angles)")
                    .accessible_name("bound");
            });
            let preview = self.preview(cx, (bound, cx.doc.basis()), &ctx);
            match &preview {
                Some(p) => preview_table(ui, &p.rows),
                None => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("Converting the tracks to measure the difference…");
                    });
                }
            }
            let convertible = preview.as_ref().is_some_and(|p| p.rows.iter().any(|r| r.result.is_ok()));
            let tips = ("Convert these tracks, as one undo step", "No track here can be converted, or the preview is being made");
            let (convert, closes) = super::style::apply_or_cancel(ui, "Convert", convertible, tips);
            if convert {
                // The window lets go of it, so that Convert can take its tracks as they are.
                self.preview = None;
                out.push(AppCommand::ConvertToBezier { bound, done: preview.clone() });
            }
            close |= closes;
        });
        self.bound = Some(bound);
        if !open || close {
            out.push(AppCommand::CloseWindow(Window::ConvertToBezier));
        }
    }
}

fn preview_table(ui: &mut egui::Ui, rows: &[ConvertPreview]) {
    if rows.is_empty() {
        ui.label("Nothing to convert: select keys on a TCB, Cubic or Linear track, or click one.");
        return;
    }
    let ok = rows.iter().filter_map(|r| r.result.as_ref().ok().map(|&(after, diff)| (r.keys_before, after, diff)));
    let (before, after, worst) = ok.fold((0, 0, 0.0f64), |(b, a, w), (kb, ka, d)| (b + kb, a + ka, w.max(d)));
    ui.label(format!("{} tracks: {before} -> {after} keys, largest difference {worst:.1e}", rows.len()));
    super::style::track_table(ui, "convert preview", |ui| {
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
    });
}
