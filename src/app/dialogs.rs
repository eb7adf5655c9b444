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

enum Decision {
    Save,
    Discard,
    Cancel,
}

/// A window asking for a path: the fallback wherever no native file dialog can open.
/// Returns the path when the user confirms; `shown` is cleared when the window is closed.
fn path_prompt(ctx: &egui::Context, typed: &mut String, shown: &mut bool, title: &str, field: &str, button: &str) -> Option<std::path::PathBuf> {
    let mut open = true;
    let mut chosen = None;
    egui::Window::new(title).collapsible(false).open(&mut open).show(ctx, |ui| {
        ui.label("Project file (.ron):");
        let edit = ui
            .add(egui::TextEdit::singleline(typed).hint_text("path/to/project.ron"))
            .accessible_name(field)
            .on_hover_text("An absolute path, or one relative to where Tangent was started");
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button(button).on_hover_text(format!("{button} this project")).clicked() || enter {
            chosen = Some(std::path::PathBuf::from(typed.trim()));
        }
    });
    if !open {
        *shown = false;
    }
    chosen
}

fn open_path(ctx: &egui::Context, state: &mut AppState) {
    if let Some(path) = path_prompt(ctx, &mut state.typed_path, &mut state.show_open_path, "Open path", "Project file", "Open") {
        state.show_open_path = false;
        state.confirm_or_run(AfterDiscard::Open(Some(path)));
    }
}

/// Save as by typed path; `.ron` is added when the name has no extension.
fn save_path(ctx: &egui::Context, state: &mut AppState) {
    if let Some(mut path) = path_prompt(ctx, &mut state.typed_path, &mut state.show_save_path, "Save as", "Save to file", "Save") {
        if path.extension().is_none() {
            path.set_extension("ron");
        }
        if state.save_to(&path) {
            state.show_save_path = false;
        }
    }
}
