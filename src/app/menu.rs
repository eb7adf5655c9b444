//! The menu bar (File, Edit, Key, Track, View, Help), built from [`Command`] so every entry
//! shows its shortcut and tooltip.

use eframe::egui;

use super::commands::{AppCommand, Command};
use super::panel::{Panel, PanelContext};
use super::tool::ToolMenu;
use super::tools;

#[derive(Default)]
pub struct MenuBar;

fn entry(ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, command: Command, checked: Option<bool>) {
    let doc = &cx.doc.document;
    let shortcut = command.shortcut().map(|s| ui.ctx().format_shortcut(&s)).unwrap_or_default();
    let enabled = match command {
        Command::Undo => doc.undo_label().is_some(),
        Command::Redo => doc.redo_label().is_some(),
        Command::DeleteKeys
        | Command::Copy
        | Command::FrameSelected
        | Command::HandleTypeMenu
        | Command::SetHandleType(_)
        | Command::InterpolationMenu
        | Command::EasingMenu
        | Command::SetKeyInterpolation(_)
        | Command::SetEasing(_)
        | Command::Blend(_) => !cx.doc.selection.is_empty(),
        Command::Paste => cx.doc.clipboard.is_some(),
        Command::ClearGhost => cx.ui.ghost.is_some(),
        Command::New
        | Command::Open
        | Command::OpenPath
        | Command::Save
        | Command::SaveAs
        | Command::Import
        | Command::Export
        | Command::Quit
        | Command::SelectAll
        | Command::DeselectAll
        | Command::InsertKey
        | Command::Tool(_)
        | Command::EulerFilter
        | Command::FixJumps
        | Command::ToggleProblems
        | Command::FrameAll
        | Command::ToggleNormalize
        | Command::ToggleStacked
        | Command::ToggleFrameAxis
        | Command::ToggleDockTools
        | Command::ToggleTangents
        | Command::ToggleSpeedGraph
        | Command::ToggleAllCurves
        | Command::ToggleSnap
        | Command::ToggleFrameStats
        | Command::PreviewRuntime(_)
        | Command::PlayPause
        | Command::StepFrame => true,
    };
    // Undo and Redo name the step; a toggle shows whether it is on.
    let text = if command == Command::Undo {
        doc.undo_label().map_or_else(|| "Undo".to_owned(), |l| format!("Undo {l}"))
    } else if command == Command::Redo {
        doc.redo_label().map_or_else(|| "Redo".to_owned(), |l| format!("Redo {l}"))
    } else {
        match checked {
            Some(true) => format!("[x] {}", command.text()),
            Some(false) => format!("[ ] {}", command.text()),
            None => command.text().to_owned(),
        }
    };
    let r = ui.add_enabled(enabled, egui::Button::new(text).shortcut_text(shortcut)).on_hover_text(command.tooltip());
    if r.clicked() {
        out.push(AppCommand::Ui(command));
        ui.close();
    }
}

/// The entries of the tools `tools::TOOLS` lists in `menu`.
fn tool_entries(ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, menu: ToolMenu) {
    for tool in tools::in_menu(menu) {
        entry(ui, cx, out, Command::Tool(tool), None);
    }
}

fn file_menu(ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
    for c in Command::FILE {
        entry(ui, cx, out, c, None);
        if c == Command::OpenPath {
            ui.menu_button("Open recent", |ui| {
                if cx.view.recent_files.is_empty() {
                    ui.label("(none yet)");
                }
                for path in &cx.view.recent_files {
                    if ui.button(path.display().to_string()).on_hover_text("Open this project").clicked() {
                        out.push(AppCommand::Open(path.clone()));
                        ui.close();
                    }
                }
            });
        }
    }
}

/// View: the toggles (checked), Preview runtime ▸, frame statistics, autosave.
fn view_menu(ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
    for c in Command::VIEW {
        let mut view = cx.view.clone();
        // A window's toggle is on while it is open; a view setting's while it is set.
        let window = c.toggled_window().map(|w| cx.ui.windows.is_open(w));
        let checked = window.or_else(|| c.view_flag(&mut view).map(|flag| *flag));
        entry(ui, cx, out, c, checked);
        if c == Command::ClearGhost {
            preview_runtime_menu(ui, cx, out);
        }
    }
    ui.separator();
    let mut secs = cx.view.autosave_secs;
    let r = ui
        .add(egui::Slider::new(&mut secs, 5.0..=600.0).logarithmic(true).suffix(" s").text("autosave"))
        .on_hover_text("While there are unsaved changes, a recovery copy is written this often (and after 2 s without edits); it is offered if Tangent stops without saving")
        .accessible_name("autosave seconds");
    if r.changed() {
        out.push(cx.view_change(|v| v.autosave_secs = secs));
    }
}

/// View > Preview runtime ▸: off, or who plays the export.
fn preview_runtime_menu(ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
    let on = cx.ui.runtime_preview.runtime;
    let title = match on {
        Some(r) => format!("Preview runtime: {}", r.label()),
        None => "Preview runtime".to_owned(),
    };
    ui.menu_button(title, |ui| {
        for c in Command::PREVIEW_RUNTIMES {
            let Command::PreviewRuntime(r) = c else { continue };
            entry(ui, cx, out, c, Some(on == r));
        }
    })
    .response
    .on_hover_text("Draw the Export window's export as a runtime plays it, as a ghost, with each track's largest distance from its curve in the track list");
}

impl Panel for MenuBar {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| file_menu(ui, cx, out));
            ui.menu_button("Edit", |ui| {
                for c in Command::EDIT {
                    entry(ui, cx, out, c, None);
                    if c == Command::Paste {
                        tool_entries(ui, cx, out, ToolMenu::Edit);
                    }
                }
            });
            ui.menu_button("Key", |ui| {
                for c in Command::KEY {
                    if c == Command::Blend(crate::blend::BlendTool::ToNeighbor) {
                        tool_entries(ui, cx, out, ToolMenu::Key);
                        ui.separator();
                    }
                    let submenu: Option<(&str, Vec<&[Command]>)> = match c {
                        Command::HandleTypeMenu => Some(("Handle type (V)", vec![&Command::HANDLE_TYPES[..]])),
                        Command::InterpolationMenu => Some(("Interpolation mode (T)", Command::INTERPOLATIONS.to_vec())),
                        Command::EasingMenu => Some(("Easing (Ctrl+E)", vec![&Command::EASINGS[..]])),
                        Command::New
                        | Command::Open
                        | Command::OpenPath
                        | Command::Save
                        | Command::SaveAs
                        | Command::Import
                        | Command::Export
                        | Command::Quit
                        | Command::Undo
                        | Command::Redo
                        | Command::SelectAll
                        | Command::DeselectAll
                        | Command::DeleteKeys
                        | Command::Copy
                        | Command::Paste
                        | Command::InsertKey
                        | Command::Tool(_)
                        | Command::EulerFilter
                        | Command::FixJumps
                        | Command::ToggleProblems
                        | Command::Blend(_)
                        | Command::ClearGhost
                        | Command::SetHandleType(_)
                        | Command::SetKeyInterpolation(_)
                        | Command::SetEasing(_)
                        | Command::FrameAll
                        | Command::FrameSelected
                        | Command::ToggleNormalize
                        | Command::ToggleStacked
                        | Command::ToggleFrameAxis
                        | Command::ToggleDockTools
                        | Command::ToggleTangents
                        | Command::ToggleSpeedGraph
                        | Command::ToggleAllCurves
                        | Command::ToggleSnap
                        | Command::ToggleFrameStats
                        | Command::PreviewRuntime(_)
                        | Command::PlayPause
                        | Command::StepFrame => None,
                    };
                    if let Some((title, groups)) = submenu {
                        ui.menu_button(title, |ui| {
                            for (g, group) in groups.into_iter().enumerate() {
                                if g > 0 {
                                    ui.separator();
                                }
                                for &t in group {
                                    entry(ui, cx, out, t, None);
                                }
                            }
                        })
                        .response
                        .on_hover_text(c.tooltip());
                    } else {
                        entry(ui, cx, out, c, None);
                    }
                }
            });
            ui.menu_button("Track", |ui| {
                for c in Command::TRACK {
                    entry(ui, cx, out, c, None);
                }
                tool_entries(ui, cx, out, ToolMenu::Track);
            });
            ui.menu_button("View", |ui| view_menu(ui, cx, out));
            ui.menu_button("Help", |ui| {
                ui.label("Tangent: what the tangents really are.");
                ui.separator();
                ui.label("Click a key to select it; Shift/Ctrl-click adds.");
                ui.label("Drag keys to move them; drag empty space to box-select.");
                ui.label("Right- or middle-drag pans; Ctrl+scroll zooms.");
                ui.label("Double-click a curve to insert a key; click empty space to move the playhead.");
                ui.label("Drag a round tangent handle: along it sets tension, across it bias.");
                ui.label("Drag a triangle under a key to set its ease.");
                ui.label("Bézier keys: drag a handle dot; V sets the handle type of the selected keys.");
                ui.label("Hold Ctrl while dragging to invert snapping.");
            });
        });
    }
}
