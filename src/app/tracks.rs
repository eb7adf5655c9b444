//! The track list: add, remove, rename, show/hide, lock, colour, and per track its kind,
//! interpolation, tangent mode and pre/post infinity. Every change is an undoable edit.

use eframe::egui;
use tangent::{Edit, Infinity, Interpolation, Key, Rgb, TangentMode, Track, TrackKind};

use super::state::AppState;
use super::style::{component_color, track_color};

/// `track` converted to `kind`: values truncated or padded (a quaternion pads to identity),
/// and modes that do not fit the new kind replaced by the nearest that does.
pub fn with_kind(track: &Track, kind: TrackKind) -> Track {
    let mut t = track.clone();
    t.kind = kind;
    let zero = kind.zero_value();
    for k in &mut t.keys {
        let mut v = zero.clone();
        for (c, x) in v.iter_mut().enumerate() {
            if let Some(old) = k.value.get(c) {
                *x = *old;
            }
        }
        if kind == TrackKind::Quat && v.iter().all(|x| *x == 0.0) {
            v = zero.clone();
        }
        k.value = v;
    }
    if !t.interpolation.supports(kind) {
        t.interpolation = if kind == TrackKind::Quat { Interpolation::Slerp } else { Interpolation::Tcb };
    }
    for inf in [&mut t.pre_infinity, &mut t.post_infinity] {
        if !inf.supports(kind) {
            *inf = Infinity::Constant;
        }
    }
    t
}

/// A combo box named for screen readers by its row label.
fn combo(ui: &mut egui::Ui, id: impl egui::AsIdSalt, name: &str, selected: String, add: impl FnOnce(&mut egui::Ui)) {
    let r = egui::ComboBox::from_id_salt(id).selected_text(selected).show_ui(ui, add);
    let _ = r.response.accessible_name(name);
}

fn unique_name(state: &AppState, base: &str) -> String {
    let taken = |n: &str| state.project().tracks.iter().any(|t| t.name == n);
    if !taken(base) {
        return base.to_owned();
    }
    (2..).map(|i| format!("{base} {i}")).find(|n| !taken(n)).unwrap()
}

pub fn ui(ui: &mut egui::Ui, state: &mut AppState) {
    let ctx = ui.ctx().clone();
    ui.horizontal(|ui| {
        ui.heading("Tracks");
        ui.menu_button("+ Add", |ui| {
            for kind in TrackKind::ALL {
                if ui.button(format!("{kind:?} track")).on_hover_text("Add a track of this kind with two keys").clicked() {
                    let interpolation = if kind == TrackKind::Quat { Interpolation::Slerp } else { Interpolation::Tcb };
                    let mut t = Track::new(unique_name(state, &format!("{kind:?}").to_lowercase()), kind, interpolation);
                    let mut one = kind.zero_value();
                    if kind != TrackKind::Quat {
                        one.iter_mut().for_each(|x| *x = 1.0);
                    }
                    t.keys = vec![Key::new(0.0, kind.zero_value()), Key::new(1.0, one)];
                    let index = state.project().tracks.len();
                    if state.edit(&ctx, "Add track", Edit::InsertTrack { index, track: t }) {
                        state.active_track = Some(index);
                    }
                    ui.close();
                }
            }
        });
    });
    ui.separator();
    let n = state.project().tracks.len();
    egui::ScrollArea::vertical().show(ui, |ui| {
        for i in 0..n {
            track_row(ui, state, &ctx, i);
            if let Some(Err(e)) = state.curve(i) {
                ui.colored_label(ui.visuals().error_fg_color, e.to_string());
            }
        }
    });
}

fn track_row(ui: &mut egui::Ui, state: &mut AppState, ctx: &egui::Context, i: usize) {
    let Some(track) = state.project().tracks.get(i).cloned() else {
        return;
    };
    let color = track_color(&track, i);
    let active = state.active_track == Some(i);
    let mut changed: Option<(&str, Track)> = None;
    ui.horizontal(|ui| {
        let mut rgb = [color.r(), color.g(), color.b()];
        if ui.color_edit_button_srgb(&mut rgb).accessible_name(format!("colour of {}", track.name)).on_hover_text("Track colour").changed() {
            let mut t = track.clone();
            t.color = Some(Rgb(rgb[0], rgb[1], rgb[2]));
            changed = Some(("Set track colour", t));
        }
        let mut visible = track.visible;
        if ui
            .checkbox(&mut visible, "")
            .accessible_name(format!("show {}", track.name))
            .on_hover_text(format!("Show \"{}\" in the graph", track.name))
            .changed()
        {
            let mut t = track.clone();
            t.visible = visible;
            changed = Some(("Show/hide track", t));
        }
        let mut locked = track.locked;
        let lock = ui
            .toggle_value(&mut locked, if track.locked { "L" } else { "-" })
            .accessible_name(format!("lock {}", track.name))
            .on_hover_text("Lock: a locked track refuses edits (its curve is dashed)");
        if lock.changed() {
            let mut t = track.clone();
            t.locked = locked;
            changed = Some(("Lock track", t));
        }
        match &mut state.renaming {
            Some((r, text)) if *r == i => {
                let edit = ui.add(egui::TextEdit::singleline(text).desired_width(110.0)).accessible_name("Track name");
                edit.request_focus();
                if edit.lost_focus() {
                    let name = text.trim().to_owned();
                    state.renaming = None;
                    if !name.is_empty() && name != track.name && !ui.input(|inp| inp.key_pressed(egui::Key::Escape)) {
                        let mut t = track.clone();
                        t.name = name;
                        changed = Some(("Rename track", t));
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
                    state.active_track = Some(i);
                }
                if r.double_clicked() {
                    state.renaming = Some((i, track.name.clone()));
                }
            }
        }
    });
    if active {
        ui.indent(("track settings", i), |ui| settings(ui, state, &track, i, &mut changed));
    }
    if let Some((label, t)) = changed {
        state.edit(ctx, label, Edit::SetTrack { index: i, track: t });
    }
}

fn settings<'a>(ui: &mut egui::Ui, state: &mut AppState, track: &Track, i: usize, changed: &mut Option<(&'a str, Track)>) {
    egui::Grid::new(("track grid", i)).num_columns(2).show(ui, |ui| {
        ui.label("kind");
        let mut kind = track.kind;
        combo(ui, ("kind", i), "kind", format!("{kind:?}"), |ui| {
            for k in TrackKind::ALL {
                ui.selectable_value(&mut kind, k, format!("{k:?}"));
            }
        });
        if kind != track.kind {
            *changed = Some(("Change track kind", with_kind(track, kind)));
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
            let mut t = track.clone();
            t.interpolation = interp;
            *changed = Some(("Change interpolation", t));
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
                let mut t = track.clone();
                t.tangents = mode;
                *changed = Some(("Change tangent mode", t));
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
                let mut t = track.clone();
                if pre {
                    t.pre_infinity = v;
                } else {
                    t.post_infinity = v;
                }
                *changed = Some(("Change infinity", t));
            }
            ui.end_row();
        }

        if track.kind.dim() > 1 && track.kind != TrackKind::Quat {
            ui.label("components");
            ui.horizontal(|ui| {
                for (c, name) in track.kind.component_names().iter().enumerate() {
                    let key = (track.name.clone(), c);
                    let mut shown = !state.view.hidden_components.contains(&key);
                    let color = component_color(track_color(track, i), c, track.kind.dim());
                    if ui.checkbox(&mut shown, egui::RichText::new(*name).color(color)).on_hover_text("Show this component in the graph (view only)").changed()
                    {
                        if shown {
                            state.view.hidden_components.remove(&key);
                        } else {
                            state.view.hidden_components.insert(key);
                        }
                    }
                }
            });
            ui.end_row();
        }
    });
    ui.horizontal(|ui| {
        if ui.button("Rename").on_hover_text("Rename this track (or double-click its name)").clicked() {
            state.renaming = Some((i, track.name.clone()));
        }
        if ui.button("Remove").on_hover_text("Remove this track (undo brings it back)").clicked() {
            let ctx = ui.ctx().clone();
            if state.edit(&ctx, "Remove track", Edit::RemoveTrack { index: i }) {
                state.selection.clear();
                state.set_message(format!("Removed \"{}\"", track.name));
            }
        }
    });
}
