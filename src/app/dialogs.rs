//! Modal questions: what to do with unsaved changes, and the typed-path fallback for opening
//! and saving a file where no native dialog can open; and the progress window of a big file
//! being opened or saved on a worker (with Cancel for opens).

use std::path::PathBuf;

use eframe::egui;

use super::commands::{AppCommand, Decision};
use super::panel::{Panel, PanelContext};

/// The dialogs, and the path typed so far.
#[derive(Default)]
pub struct Dialogs {
    pub typed_path: String,
    /// Whether the Save as prompt was shown last frame (its path is filled in as it opens).
    save_shown: bool,
}

impl Panel for Dialogs {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        let ctx = ui.ctx().clone();
        progress_window(&ctx, cx, out);
        if cx.ui.confirm_discard.is_some() {
            unsaved_changes(&ctx, cx, out);
        }
        if let Some(path) = &cx.ui.confirm_overwrite {
            changed_on_disk(&ctx, path, out);
        }
        if cx.ui.show_open_path {
            match path_prompt(&ctx, &mut self.typed_path, "Open path", "Project file", "Open") {
                Prompt::Chosen(path) => {
                    out.push(AppCommand::CloseOpenPath);
                    out.push(AppCommand::Open(path));
                }
                Prompt::Closed => out.push(AppCommand::CloseOpenPath),
                Prompt::Open => {}
            }
        }
        self.save_shown &= cx.ui.show_save_path;
        if cx.ui.show_save_path {
            // Save as by typed path; `.ron` is added when the name has no extension.
            let named = cx.doc.path.is_some() || cx.doc.imported_from.is_some();
            if !std::mem::replace(&mut self.save_shown, true) && self.typed_path.is_empty() && named {
                // As it opens, what the system dialog would offer: the file's own path, or an
                // imported file's name with `.ron` beside it (nothing for an untitled project).
                let (folder, name) = cx.doc.save_as_offer();
                self.typed_path = folder.map_or_else(|| name.clone(), |f| f.join(&name).display().to_string());
            }
            match path_prompt(&ctx, &mut self.typed_path, "Save as", "Save to file", "Save") {
                Prompt::Chosen(path) => out.push(AppCommand::SaveTo(path)),
                Prompt::Closed => out.push(AppCommand::CloseSavePath),
                Prompt::Open => {}
            }
        }
    }
}

fn unsaved_changes(ctx: &egui::Context, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
    egui::Modal::new(egui::Id::unique("unsaved changes")).show(ctx, |ui| {
        ui.heading("Unsaved changes");
        let name = cx.doc.path.as_ref().map_or_else(|| "The project".to_owned(), |p| p.display().to_string());
        ui.label(format!("{name} has changes that are not saved."));
        ui.horizontal(|ui| {
            for (d, text, tip) in [
                (Decision::Save, "Save", "Save, then continue"),
                (Decision::Discard, "Discard", "Throw the changes away and continue"),
                (Decision::Cancel, "Cancel", "Go back to editing"),
            ] {
                if ui.button(text).on_hover_text(tip).clicked() {
                    out.push(AppCommand::Decide(d));
                }
            }
        });
    });
}

/// Save found the file changed by another program since it was opened or saved.
fn changed_on_disk(ctx: &egui::Context, path: &std::path::Path, out: &mut Vec<AppCommand>) {
    egui::Modal::new(egui::Id::unique("changed on disk")).show(ctx, |ui| {
        ui.heading("Changed on disk");
        ui.label(format!("{} was changed by another program since you opened or saved it.", path.display()));
        ui.horizontal(|ui| {
            if ui.button("Overwrite").on_hover_text("Replace the file on disk with your version").clicked() {
                out.push(AppCommand::Overwrite(Some(path.to_owned())));
            }
            if ui.button("Cancel").on_hover_text("Leave the file on disk as it is (Save as… keeps your version elsewhere)").clicked() {
                out.push(AppCommand::Overwrite(None));
            }
        });
    });
}

/// What the path window did this frame.
enum Prompt {
    Open,
    Closed,
    Chosen(PathBuf),
}

/// A window asking for a path: the fallback wherever no native file dialog can open.
fn path_prompt(ctx: &egui::Context, typed: &mut String, title: &str, field: &str, button: &str) -> Prompt {
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
            chosen = Some(PathBuf::from(typed.trim()));
        }
    });
    match (chosen, open) {
        (Some(path), _) => Prompt::Chosen(path),
        (None, false) => Prompt::Closed,
        (None, true) => Prompt::Open,
    }
}

/// The progress window of a running open or save: phase, amount, time, and Cancel for opens.
fn progress_window(ctx: &egui::Context, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
    let Some(job) = &cx.ui.file_job else { return };
    ctx.request_repaint_after(std::time::Duration::from_millis(50));
    let title = if job.opening { "Opening" } else { "Saving" };
    egui::Window::new(title).collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO).show(ctx, |ui| {
        ui.label(job.path.display().to_string());
        let (phase, fraction) = job.job.progress();
        let bar = match fraction {
            Some(f) => egui::ProgressBar::new(f).show_percentage(),
            None => egui::ProgressBar::new(0.0).animate(true),
        };
        ui.add(bar.text(format!("{phase}… {:.1} s", job.job.elapsed().as_secs_f64())));
        if job.opening {
            ui.label("The open document stays as it is until the file has loaded.");
            if ui.button("Cancel").on_hover_text("Stop reading; keep the open document").clicked() {
                out.push(AppCommand::CancelFileJob);
            }
        } else {
            ui.label("You can keep working: what you change now stays unsaved.");
        }
    });
}
