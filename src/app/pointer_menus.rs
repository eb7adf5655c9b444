//! The menus of Bézier editing that open at the pointer: `V`, `T` and `Ctrl+E` (Blender's
//! handle type, interpolation mode and easing).

use eframe::egui;

use super::commands::{AppCommand, Command};
use super::panel::{Panel, PanelContext};
use super::windows::Window;
/// The menus Bézier keys open at the pointer, as Blender's graph editor: `V` (handle
/// types), `T` (interpolation mode) and `Ctrl+E` (easing). Each stays open until an entry is
/// chosen, Escape is pressed or the pointer clicks elsewhere.
pub struct PointerMenu {
    window: Window,
    /// The menu's heading and its groups of entries (each group under an optional heading).
    heading: &'static str,
    groups: Vec<(Option<&'static str>, &'static [Command])>,
    at: Option<egui::Pos2>,
}

/// The three pointer menus.
pub struct PointerMenus([PointerMenu; 3]);

impl Default for PointerMenus {
    fn default() -> Self {
        let menu = |window, heading, groups| PointerMenu { window, heading, groups, at: None };
        let interpolations = Command::INTERPOLATION_GROUPS.iter().zip(Command::INTERPOLATIONS).map(|(h, c)| (Some(*h), c)).collect();
        Self([
            menu(Window::HandleTypeMenu, "Set keyframe handle type", vec![(None, &Command::HANDLE_TYPES[..])]),
            menu(Window::InterpolationMenu, "Set keyframe interpolation", interpolations),
            menu(Window::EasingMenu, "Set keyframe easing type", vec![(None, &Command::EASINGS[..])]),
        ])
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
        let (heading, groups) = (self.heading, &self.groups);
        let shown = egui::Area::new(egui::Id::unique(("pointer menu", window))).fixed_pos(at).order(egui::Order::Foreground).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(egui::RichText::new(heading).strong());
                for &(group, commands) in groups {
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
