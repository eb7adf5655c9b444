//! The track list: add, remove, rename, show/hide, lock, colour, and for the active track its
//! kind, rotation order (Euler tracks), interpolation, tangent mode and pre/post infinity
//! (above the list). Every change is an undoable edit.
//!
//! Built for hundreds of tracks: a filter by name; tracks that share a prefix (`bone7` of
//! `bone7.translation`, `Walk/Hips` of `Walk/Hips.rotation`, as imports name them) are listed
//! under one collapsible row that can also show or hide them all (one undo step) — collapsed
//! by default in a large document; and only the rows scrolled into view are laid out.
//!
//! A project with a skeleton lists its tracks as the body's tree (issue 42): each joint a row
//! nested under its parent (its `JOINT.*` tracks below it, then its child joints), whose
//! checkbox shows or hides the whole branch; the tracks of no joint follow, grouped as above.

use eframe::egui;

use super::commands::{AppCommand, EditCommand};
use super::gesture;
use super::key_change::Change;
use super::panel::{Panel, PanelContext};
use super::style::{component_color, track_color};
use super::track_rows::{body_rows, rows, Row};
use crate::edit::intent;
use crate::euler::EulerOrder;
use crate::model::AutoSmoothing;
use crate::{Edit, Infinity, Interpolation, Rgb, TangentMode, Track, TrackHeader, TrackKind};

/// The track list and the rename in progress.
#[derive(Default)]
pub struct TrackList {
    /// Track being renamed, and the name typed so far.
    pub renaming: Option<(usize, String)>,
    /// Only tracks whose name contains this (any case) are listed.
    pub filter: String,
    /// Groups opened (in a large document) or closed (otherwise) by the user.
    pub toggled: std::collections::BTreeSet<String>,
}

/// A combo box named for screen readers by its row label.
fn combo(ui: &mut egui::Ui, id: impl egui::AsIdSalt, name: &str, selected: String, add: impl FnOnce(&mut egui::Ui)) {
    let r = egui::ComboBox::from_id_salt(id).selected_text(selected).show_ui(ui, add);
    r.response.accessible_name(name);
}

/// `track` with `change` made, as the edit of track `i`.
fn set_track(label: &str, i: usize, track: &Track, change: impl FnOnce(&mut Track)) -> AppCommand {
    EditCommand::new(label, set_track_edit(i, track, change)).into()
}

fn set_track_edit(i: usize, track: &Track, change: impl FnOnce(&mut Track)) -> Edit {
    let mut t = track.clone();
    change(&mut t);
    Edit::SetTrack { index: i, track: t }
}

/// `track`'s name, colour, visibility or lock changed by `change`, as the edit of track `i`
/// (no copy of its keys).
fn set_header(label: &str, i: usize, track: &Track, change: impl FnOnce(&mut TrackHeader)) -> AppCommand {
    EditCommand::new(label, set_header_edit(i, track, change)).into()
}

fn set_header_edit(i: usize, track: &Track, change: impl FnOnce(&mut TrackHeader)) -> Edit {
    let mut header = track.header();
    change(&mut header);
    Edit::SetHeader { index: i, header }
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
        if tracks.len() > super::settings::LARGE_DOCUMENT_TRACKS || !self.filter.is_empty() {
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut self.filter).hint_text("filter by name").desired_width(180.0))
                    .on_hover_text("List only the tracks whose name contains this (for example a node name, or ANIMATION/)")
                    .accessible_name("track filter");
                if !self.filter.is_empty() && ui.button("x").on_hover_text("Clear the filter").clicked() {
                    self.filter.clear();
                }
            });
        }
        if let Some(i) = cx.doc.active_track.filter(|&i| i < tracks.len()) {
            ui.separator();
            ui.label(egui::RichText::new(format!("Active: {}", tracks[i].name)).strong());
            self.settings(ui, cx, out, i, &tracks[i]);
            if let Some(Err(e)) = cx.doc.curve(i) {
                ui.colored_label(ui.visuals().error_fg_color, e.to_string());
            }
        }
        ui.separator();
        let needle = self.filter.to_lowercase();
        let listed: Vec<usize> = (0..tracks.len()).filter(|&i| needle.is_empty() || tracks[i].name.to_lowercase().contains(&needle)).collect();
        if listed.len() < tracks.len() {
            ui.label(format!("{} of {} tracks", listed.len(), tracks.len()));
        }
        let open_by_default = tracks.len() <= super::settings::LARGE_DOCUMENT_TRACKS;
        let open = |p: &str| !needle.is_empty() || open_by_default != self.toggled.contains(p);
        let rows = match &cx.project().skeleton {
            Some(skeleton) => body_rows(tracks, &listed, skeleton, open),
            None => rows(tracks, &listed, open),
        };
        let height = ui.spacing().interact_size.y;
        egui::ScrollArea::vertical().auto_shrink([false, true]).show_rows(ui, height, rows.len(), |ui, range| {
            for row in &rows[range] {
                match row {
                    Row::Group { prefix, members, open, depth } => self.group_row(ui, out, tracks, (prefix, members), *open, *depth),
                    Row::Track { index, depth } => self.track_row(ui, cx, out, *index, &tracks[*index], *depth),
                }
            }
        });
    }
}

impl TrackList {
    /// A group's row: open or close it, and show or hide all its tracks as one undo step.
    fn group_row(&mut self, ui: &mut egui::Ui, out: &mut Vec<AppCommand>, tracks: &[Track], (prefix, members): (&str, &[usize]), open: bool, depth: usize) {
        ui.horizontal(|ui| {
            ui.add_space(14.0 * depth as f32);
            let shown = members.iter().filter(|&&i| tracks[i].visible).count();
            let mut all = shown == members.len();
            let r = ui.checkbox(&mut all, "").accessible_name(format!("show group {prefix}"));
            let r = r.on_hover_text(format!("Show or hide the {} tracks of {prefix}: one undo step, saved with the project", members.len()));
            let edits = || members.iter().filter(|&&i| tracks[i].visible != all).map(|&i| set_header_edit(i, &tracks[i], |h| h.visible = all)).collect();
            out.extend(gesture::step(&r, "Show/hide tracks", r.changed().then(|| Change::edits(edits(), None))));
            let label = format!("{} {prefix} ({shown}/{} shown)", if open { "-" } else { "+" }, members.len());
            if ui.selectable_label(false, label).on_hover_text(if open { "Collapse this group" } else { "List this group's tracks" }).clicked() {
                if !self.toggled.remove(prefix) {
                    self.toggled.insert(prefix.to_owned());
                }
            }
        });
    }

    fn track_row(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, i: usize, track: &Track, depth: usize) {
        let color = track_color(track, i);
        let active = cx.doc.active_track == Some(i);
        ui.horizontal(|ui| {
            ui.add_space(14.0 * depth as f32);
            let mut rgb = [color.r(), color.g(), color.b()];
            if ui.color_edit_button_srgb(&mut rgb).accessible_name(format!("colour of {}", track.name)).on_hover_text("Track colour").changed() {
                out.push(set_header("Set track colour", i, track, |h| h.color = Some(Rgb(rgb[0], rgb[1], rgb[2]))));
            }
            let mut visible = track.visible;
            let r = ui.checkbox(&mut visible, "").accessible_name(format!("show {}", track.name));
            if r.on_hover_text(format!(
                "Show \"{}\" in the graph. Saved with the project (the track's `visible`): hiding is an edit, undone with Ctrl+Z",
                track.name
            ))
            .changed()
            {
                out.push(set_header("Show/hide track", i, track, |h| h.visible = visible));
            }
            let mut locked = track.locked;
            let lock = ui
                .toggle_value(&mut locked, if track.locked { "L" } else { "-" })
                .accessible_name(format!("lock {}", track.name))
                .on_hover_text("Lock: a locked track refuses edits (its curve is dashed)");
            if lock.changed() {
                out.push(set_header("Lock track", i, track, |h| h.locked = locked));
            }
            self.name(ui, out, i, track, active);
            if let Some(Err(e)) = cx.doc.curve(i) {
                ui.colored_label(ui.visuals().error_fg_color, "!").on_hover_text(e.to_string());
            }
            runtime_deviation(ui, cx, i, track);
        });
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
                        out.push(set_header("Rename track", i, track, |h| h.name = name));
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
/// View > Preview runtime's largest distance of track `i` from its curve: in the warning
/// colour beyond the export's bound, faint while the preview is being made again.
fn runtime_deviation(ui: &mut egui::Ui, cx: &PanelContext<'_>, i: usize, track: &Track) {
    let preview = &cx.ui.runtime_preview;
    let (Some(runtime), Some((d, bound, current))) = (preview.runtime, preview.deviation(i, cx.doc.basis())) else { return };
    let over = bound.is_some_and(|b| d > b);
    let shown = format!("Δ {d:.1e}");
    let mut text = egui::RichText::new(&shown).small();
    if over {
        text = text.color(ui.visuals().warn_fg_color);
    }
    if !current {
        text = text.weak();
    }
    let far = super::units::fmt_measured(d, super::units::Measured::of(track.kind, super::units::Measured::Radians), 3);
    let limit = bound.map_or(String::new(), |b| format!(" (the export's bound is {b:.0e}{})", if over { ", exceeded" } else { "" }));
    let again = if current { "" } else { "; being measured again after your edit" };
    ui.label(text)
        .on_hover_text(format!("{runtime} plays this track's export up to {far} away from its curve{limit}{again}"))
        .accessible_name(format!("runtime deviation of {}", track.name));
}

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
    if track.kind == TrackKind::Euler {
        rotation_order(ui, out, i, track);
    }

    ui.label("interpolation");
    let mut interp = track.interpolation;
    combo(ui, ("interp", i), "interpolation", format!("{interp:?}"), |ui| {
        for m in Interpolation::ALL.into_iter().filter(|m| m.supports(track.kind)) {
            ui.selectable_value(&mut interp, m, format!("{m:?}")).on_hover_text(m.mode().summary);
        }
    });
    if interp != track.interpolation {
        out.push(set_track("Change interpolation", i, track, |t| {
            t.interpolation = interp;
            // A track that becomes Bézier smooths its automatic handles as Blender's new
            // F-curves do.
            if interp == Interpolation::Bezier {
                t.auto_smoothing = AutoSmoothing::ContinuousAcceleration;
            }
        }));
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

    if track.interpolation == Interpolation::Bezier {
        auto_smoothing(ui, out, i, track);
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

/// A Bezier track's auto handle smoothing (Blender's F-curve setting), one undoable edit.
fn auto_smoothing(ui: &mut egui::Ui, out: &mut Vec<AppCommand>, i: usize, track: &Track) {
    const TIPS: [(AutoSmoothing, &str, &str); 2] = [
        (AutoSmoothing::None, "None", "Each automatic key's handles from its two neighbours alone (Blender's \"None\")"),
        (
            AutoSmoothing::ContinuousAcceleration,
            "Continuous Acceleration",
            "Runs of automatic keys solved together so the acceleration is continuous through them (Blender's default for new curves); a change to one key moves the handles of its whole run",
        ),
    ];
    ui.label("auto smoothing").on_hover_text("How Auto and Auto Clamped handles are computed (Blender's Auto Handle Smoothing)");
    let mut v = track.auto_smoothing;
    let name = TIPS.iter().find(|t| t.0 == v).map_or("", |t| t.1);
    combo(ui, ("auto smoothing", i), "auto smoothing", name.to_owned(), |ui| {
        for (mode, name, tip) in TIPS {
            ui.selectable_value(&mut v, mode, name).on_hover_text(tip);
        }
    });
    if v != track.auto_smoothing {
        out.push(set_track("Change auto smoothing", i, track, |t| t.auto_smoothing = v));
    }
    ui.end_row();
}

/// An Euler track's order (the angles stay as they are: the rotation they make changes), one
/// undoable edit.
fn rotation_order(ui: &mut egui::Ui, out: &mut Vec<AppCommand>, i: usize, track: &Track) {
    const TIP: &str = "Blender's meaning: XYZ applies X first (R = Rz·Ry·Rx). Changing it keeps the angles and changes the rotation they make";
    ui.label("order").on_hover_text(TIP);
    let mut order = track.order;
    let r = egui::ComboBox::from_id_salt(("order", i)).selected_text(order.name()).show_ui(ui, |ui| {
        for o in EulerOrder::ALL {
            ui.selectable_value(&mut order, o, o.name()).on_hover_text(TIP);
        }
    });
    r.response.accessible_name("rotation order").on_hover_text(TIP);
    if order != track.order {
        let message = format!("\"{}\" now applies its angles in {} order", track.name, order.name());
        out.push(EditCommand::new("Change rotation order", set_track_edit(i, track, |t| t.order = order)).with_message(message).into());
    }
    ui.end_row();
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
