//! The track list: add, remove, rename, show/hide, lock, colour, and per track its kind,
//! interpolation, tangent mode and pre/post infinity. Every change is an undoable edit.

use eframe::egui;

use super::commands::{AppCommand, EditCommand};
use super::style::{component_color, track_color};
use super::{Panel, PanelContext};
use crate::edit::intent;
use crate::{Edit, Infinity, Interpolation, Rgb, TangentMode, Track, TrackKind};

/// The track list and the rename in progress.
#[derive(Default)]
pub struct TrackList {
    /// Track being renamed, and the name typed so far.
    pub renaming: Option<(usize, String)>,
    /// Only tracks whose name contains this (any case) are listed.
    pub filter: String,
}

/// A combo box named for screen readers by its row label.
fn combo(ui: &mut egui::Ui, id: impl egui::AsIdSalt, name: &str, selected: String, add: impl FnOnce(&mut egui::Ui)) {
    let r = egui::ComboBox::from_id_salt(id).selected_text(selected).show_ui(ui, add);
    r.response.accessible_name(name);
}

/// `track` with `change` made, as the edit of track `i`.
fn set_track(label: &str, i: usize, track: &Track, change: impl FnOnce(&mut Track)) -> AppCommand {
    let mut t = track.clone();
    change(&mut t);
    EditCommand::new(label, Edit::SetTrack { index: i, track: t }).into()
}

impl Panel for TrackList {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        ui.horizontal(|ui| {
            ui.heading("Tracks");
            ui.menu_button("+ Add", |ui| {
                for kind in TrackKind::ALL {
                    if ui.button(format!("{kind:?} track")).on_hover_text("Add a track of this kind with two keys").clicked() {
                        out.push(EditCommand::new("Add track", intent::new_track(cx.project(), kind)).into());
                        out.push(AppCommand::SetActiveTrack(cx.project().tracks.len()));
                        ui.close();
                    }
                }
            });
        });
        let tracks = &cx.project().tracks;
        if tracks.len() > super::state::LARGE_DOCUMENT_TRACKS || !self.filter.is_empty() {
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut self.filter).hint_text("filter by name").desired_width(180.0))
                    .on_hover_text("List only the tracks whose name contains this (for example a node name, or ANIMATION/)")
                    .accessible_name("track filter");
                if !self.filter.is_empty() && ui.button("x").on_hover_text("Clear the filter").clicked() {
                    self.filter.clear();
                }
            });
        }
        ui.separator();
        let needle = self.filter.to_lowercase();
        let listed: Vec<usize> = (0..tracks.len()).filter(|&i| needle.is_empty() || tracks[i].name.to_lowercase().contains(&needle)).collect();
        if listed.len() < tracks.len() {
            ui.label(format!("{} of {} tracks", listed.len(), tracks.len()));
        }
        egui::ScrollArea::vertical().show(ui, |ui| {
            for i in listed {
                let track = &tracks[i];
                self.track_row(ui, cx, out, i, track);
                if let Some(Err(e)) = cx.doc.curve(i) {
                    ui.colored_label(ui.visuals().error_fg_color, e.to_string());
                }
            }
        });
    }
}

impl TrackList {
    fn track_row(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, i: usize, track: &Track) {
        let color = track_color(track, i);
        let active = cx.doc.active_track == Some(i);
        ui.horizontal(|ui| {
            let mut rgb = [color.r(), color.g(), color.b()];
            if ui.color_edit_button_srgb(&mut rgb).accessible_name(format!("colour of {}", track.name)).on_hover_text("Track colour").changed() {
                out.push(set_track("Set track colour", i, track, |t| t.color = Some(Rgb(rgb[0], rgb[1], rgb[2]))));
            }
            let mut visible = track.visible;
            let r = ui.checkbox(&mut visible, "").accessible_name(format!("show {}", track.name));
            if r.on_hover_text(format!("Show \"{}\" in the graph", track.name)).changed() {
                out.push(set_track("Show/hide track", i, track, |t| t.visible = visible));
            }
            let mut locked = track.locked;
            let lock = ui
                .toggle_value(&mut locked, if track.locked { "L" } else { "-" })
                .accessible_name(format!("lock {}", track.name))
                .on_hover_text("Lock: a locked track refuses edits (its curve is dashed)");
            if lock.changed() {
                out.push(set_track("Lock track", i, track, |t| t.locked = locked));
            }
            self.name(ui, out, i, track, active);
        });
        if active {
            ui.indent(("track settings", i), |ui| self.settings(ui, cx, out, i, track));
        }
    }

    /// The track's name: a label to click (active track) or double-click (rename), or the
    /// text field of a rename in progress.
    fn name(&mut self, ui: &mut egui::Ui, out: &mut Vec<AppCommand>, i: usize, track: &Track, active: bool) {
        match &mut self.renaming {
            Some((r, text)) if *r == i => {
                let edit = ui.add(egui::TextEdit::singleline(text).desired_width(110.0)).accessible_name("Track name");
                edit.request_focus();
                if edit.lost_focus() {
                    let name = text.trim().to_owned();
                    self.renaming = None;
                    if !name.is_empty() && name != track.name && !ui.input(|inp| inp.key_pressed(egui::Key::Escape)) {
                        out.push(set_track("Rename track", i, track, |t| t.name = name));
                    }
                }
            }
            _ => {
                let label = egui::RichText::new(&track.name).strong().color(if active { ui.visuals().strong_text_color() } else { ui.visuals().text_color() });
                let r = ui.selectable_label(active, label).on_hover_text(format!(
                    "{:?} track, {:?}, {} keys. Click to make it the active track (Insert, Paste, speed graph act on it); double-click to rename.",
                    track.kind,
                    track.interpolation,
                    track.keys.len()
                ));
                if r.clicked() {
                    out.push(AppCommand::SetActiveTrack(i));
                }
                if r.double_clicked() {
                    self.renaming = Some((i, track.name.clone()));
                }
            }
        }
    }

    fn settings(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, i: usize, track: &Track) {
        egui::Grid::new(("track grid", i)).num_columns(2).show(ui, |ui| {
            modes(ui, out, i, track);
            if track.kind.dim() > 1 && track.kind != TrackKind::Quat {
                components(ui, cx, out, i, track);
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Rename").on_hover_text("Rename this track (or double-click its name)").clicked() {
                self.renaming = Some((i, track.name.clone()));
            }
            if ui.button("Remove").on_hover_text("Remove this track (undo brings it back)").clicked() {
                out.push(EditCommand::new("Remove track", Edit::RemoveTrack { index: i }).with_message(format!("Removed \"{}\"", track.name)).into());
            }
        });
    }
}

/// Kind, interpolation, tangent mode, and what happens before and after the keys.
fn modes(ui: &mut egui::Ui, out: &mut Vec<AppCommand>, i: usize, track: &Track) {
    ui.label("kind");
    let mut kind = track.kind;
    combo(ui, ("kind", i), "kind", format!("{kind:?}"), |ui| {
        for k in TrackKind::ALL {
            ui.selectable_value(&mut kind, k, format!("{k:?}"));
        }
    });
    if kind != track.kind {
        out.push(EditCommand::new("Change track kind", Edit::SetTrack { index: i, track: intent::with_kind(track, kind) }).into());
    }
    ui.end_row();

    ui.label("interpolation");
    let mut interp = track.interpolation;
    combo(ui, ("interp", i), "interpolation", format!("{interp:?}"), |ui| {
        for m in Interpolation::ALL.into_iter().filter(|m| m.supports(track.kind)) {
            ui.selectable_value(&mut interp, m, format!("{m:?}"));
        }
    });
    if interp != track.interpolation {
        out.push(set_track("Change interpolation", i, track, |t| t.interpolation = interp));
    }
    ui.end_row();

    if track.interpolation == Interpolation::Tcb {
        ui.label("tangents")
            .on_hover_text("Seed: per unit of segment time (3DS). TimeAdjusted: rescaled for uneven key spacing, so speed is continuous through keys.");
        let mut mode = track.tangents;
        ui.horizontal(|ui| {
            ui.selectable_value(&mut mode, TangentMode::Seed, "Seed")
                .on_hover_text("Tangents per unit of local segment time: speed jumps at unevenly spaced keys");
            ui.selectable_value(&mut mode, TangentMode::TimeAdjusted, "TimeAdjusted")
                .on_hover_text("Kochanek-Bartels 1984 spacing adjustment: C1 in time when continuity is 0");
        });
        if mode != track.tangents {
            out.push(set_track("Change tangent mode", i, track, |t| t.tangents = mode));
        }
        ui.end_row();
    }

    for (label, pre) in [("before keys", true), ("after keys", false)] {
        ui.label(label).on_hover_text("Pre/post infinity: what the track does outside its keys");
        let current = if pre { track.pre_infinity } else { track.post_infinity };
        let mut v = current;
        combo(ui, (label, i), label, format!("{v:?}"), |ui| {
            for m in Infinity::ALL.into_iter().filter(|m| m.supports(track.kind)) {
                ui.selectable_value(&mut v, m, format!("{m:?}"));
            }
        });
        if v != current {
            out.push(set_track("Change infinity", i, track, |t| if pre { t.pre_infinity = v } else { t.post_infinity = v }));
        }
        ui.end_row();
    }
}

/// Which components of a vector track the graph shows (a view setting, not an edit).
fn components(ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, i: usize, track: &Track) {
    ui.label("components");
    ui.horizontal(|ui| {
        for (c, name) in track.kind.component_names().iter().enumerate() {
            let mut shown = cx.view.component_shown(&track.name, c);
            let color = component_color(track_color(track, i), c, track.kind.dim());
            if ui.checkbox(&mut shown, egui::RichText::new(*name).color(color)).on_hover_text("Show this component in the graph (view only)").changed() {
                let key = (track.name.clone(), c);
                out.push(cx.view_change(|v| {
                    if shown {
                        v.hidden_components.remove(&key);
                    } else {
                        v.hidden_components.insert(key);
                    }
                }));
            }
        }
    });
    ui.end_row();
}
