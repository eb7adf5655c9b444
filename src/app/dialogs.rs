//! Modal questions: what to do with unsaved changes, and the typed-path fallback for opening
//! a file where no native dialog can open.

use eframe::egui;

use super::state::{AfterDiscard, AppState};

pub fn ui(ctx: &egui::Context, state: &mut AppState) {
    if let Some(after) = state.confirm_discard.clone() {
        let mut decision = None;
        egui::Modal::new(egui::Id::unique("unsaved changes")).show(ctx, |ui| {
            ui.heading("Unsaved changes");
            let name = state.path.as_ref().map_or_else(|| "The project".to_owned(), |p| p.display().to_string());
            ui.label(format!("{name} has changes that are not saved."));
            ui.horizontal(|ui| {
                if ui.button("Save").on_hover_text("Save, then continue").clicked() {
                    decision = Some(Decision::Save);
                }
                if ui.button("Discard").on_hover_text("Throw the changes away and continue").clicked() {
                    decision = Some(Decision::Discard);
                }
                if ui.button("Cancel").on_hover_text("Go back to editing").clicked() {
                    decision = Some(Decision::Cancel);
                }
            });
        });
        match decision {
            Some(Decision::Save) => {
                state.confirm_discard = None;
                if state.save_interactive() {
                    state.run_after_discard(ctx, after);
                }
            }
            Some(Decision::Discard) => {
                state.confirm_discard = None;
                state.run_after_discard(ctx, after);
            }
            Some(Decision::Cancel) => state.confirm_discard = None,
            None => {}
        }
    }
    if state.show_open_path {
        open_path(ctx, state);
    }
    if state.show_save_path {
        save_path(ctx, state);
    }
}

/// Save as by typed path, for machines where no native dialog can open.
fn save_path(ctx: &egui::Context, state: &mut AppState) {
    let mut open = true;
    egui::Window::new("Save as").collapsible(false).open(&mut open).show(ctx, |ui| {
        ui.label("Save the project to (.ron):");
        let edit = ui
            .add(egui::TextEdit::singleline(&mut state.typed_path).hint_text("path/to/project.ron"))
            .accessible_name("Save to file")
            .on_hover_text("An absolute path, or one relative to where Tangent was started; .ron is added if missing");
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Save").on_hover_text("Write the project to this file").clicked() || enter {
            let mut path = std::path::PathBuf::from(state.typed_path.trim());
            if path.extension().is_none() {
                path.set_extension("ron");
            }
            if state.save_to(&path) {
                state.show_save_path = false;
            }
        }
    });
    if !open {
        state.show_save_path = false;
    }
}

enum Decision {
    Save,
    Discard,
    Cancel,
}

fn open_path(ctx: &egui::Context, state: &mut AppState) {
    let mut open = true;
    egui::Window::new("Open path").collapsible(false).open(&mut open).show(ctx, |ui| {
        ui.label("Project file (.ron):");
        let edit = ui
            .add(egui::TextEdit::singleline(&mut state.typed_path).hint_text("path/to/project.ron"))
            .accessible_name("Project file")
            .on_hover_text("An absolute path, or one relative to where Tangent was started");
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Open").on_hover_text("Open this project").clicked() || enter {
            let path = std::path::PathBuf::from(state.typed_path.trim());
            state.show_open_path = false;
            state.confirm_or_run(AfterDiscard::Open(Some(path)));
        }
    });
    if !open {
        state.show_open_path = false;
    }
}
