//! The menu bar: File, View, Help, with shortcuts shown.

use eframe::egui;

use super::state::{Action, AppState};

pub fn ui(ui: &mut egui::Ui, state: &mut AppState) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if ui
                .button("Open…")
                .on_hover_text("Open a project file (.ron) with the system's file dialog")
                .clicked()
            {
                match rfd::FileDialog::new()
                    .add_filter("Tangent project", &["ron"])
                    .pick_file()
                {
                    Some(path) => state.request(Action::Open(path)),
                    None => state.show_open_path = true,
                }
            }
            if ui
                .button("Open path…")
                .on_hover_text("Type the path of a project file (works without a file dialog)")
                .clicked()
            {
                state.show_open_path = true;
            }
            ui.separator();
            if ui.button("Quit").clicked() {
                state.request(Action::Quit);
            }
        });
        ui.menu_button("View", |ui| {
            if ui
                .add(egui::Button::new("Frame all").shortcut_text("F"))
                .on_hover_text("Fit every visible curve in the graph")
                .clicked()
            {
                state.request(Action::FrameAll);
            }
        });
        ui.menu_button("Help", |ui| {
            ui.label("Tangent: what the tangents really are.");
            ui.label("Scroll to zoom, drag to pan, F to frame all.");
        });
    });
    if state.show_open_path {
        open_path_window(ui, state);
    }
}

/// A typed-path fallback for machines where no native file dialog can open.
fn open_path_window(ui: &mut egui::Ui, state: &mut AppState) {
    let mut open = true;
    egui::Window::new("Open path")
        .collapsible(false)
        .open(&mut open)
        .show(ui.ctx(), |ui| {
            ui.label("Project file (.ron):");
            let edit = ui
                .add(
                    egui::TextEdit::singleline(&mut state.typed_path)
                        .hint_text("path/to/project.ron"),
                )
                .accessible_name("Project file")
                .on_hover_text("An absolute path, or one relative to where Tangent was started");
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Open").clicked() || enter {
                let path = std::path::PathBuf::from(state.typed_path.trim());
                state.request(Action::Open(path));
                state.show_open_path = false;
            }
        });
    if !open {
        state.show_open_path = false;
    }
}
