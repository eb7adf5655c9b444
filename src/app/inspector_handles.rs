//! The inspector's Bézier section: the left and right handle types and, per component, the
//! handle offsets `(Δt, Δv)` of every selected Bezier key at once. A field shows the first
//! selected Bezier key's handle (as the curve resolved it, automatic ones too) and "(mixed)"
//! when the selection differs. Typing or dragging a coordinate sets it on every selected Bezier
//! key by the rules of a handle drag (`crate::handles::set_handles`: automatic handles become
//! Aligned); a type sets that side (`crate::handles::set_handle_types`). Each change of a
//! field, or one drag of it, is one undo step. Δv is shown and typed in the display units of
//! each track (`units.rs`: degrees on Euler tracks).

use eframe::egui;

use super::commands::AppCommand;
use super::gesture;
use super::key_change::{Change, HandleSides};
use super::panel::PanelContext;
use super::style::handle_color;
use super::units::{display_scale, stored, unit};
use crate::edit::intent::{KeyEdit, KeyRef};
use crate::handles::{self, Side};
use crate::{Edit, HandleType};

/// The tracks' edits as one change (applied together, compiled on every core), as the
/// widget's gesture (`gesture::step`): a drag of it is one undo step, a single change one too.
fn push_edits(out: &mut Vec<AppCommand>, r: &egui::Response, label: &str, edits: Vec<KeyEdit>) {
    let change = (!edits.is_empty()).then(|| Change::edits(edits.into_iter().map(|e| e.edit).collect(), None));
    out.extend(gesture::step(r, label, change));
}

pub fn bezier_section(ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
    // Kept per selection and document revision (`selection.rs`), as is every "mixed" below.
    let selection = cx.doc.bezier_selection();
    let Some((first_track, first_keys)) = selection.first() else { return };
    let (first_track, first_key) = (*first_track, first_keys[0]);
    let tracks = &cx.project().tracks;
    let all = || selection.iter().flat_map(|(t, keys)| keys.iter().map(|&key| KeyRef { track: *t, key }));
    ui.separator();
    ui.label(format!("Bézier handles of {} keys", selection.iter().map(|(_, keys)| keys.len()).sum::<usize>()));
    egui::Grid::new("handle types").num_columns(2).spacing([8.0, 6.0]).show(ui, |ui| {
        for side in [Side::Left, Side::Right] {
            let get = |k: KeyRef| {
                let key = &tracks[k.track].keys[k.key];
                if side == Side::Left {
                    key.handles.0
                } else {
                    key.handles.1
                }
            };
            let first = get(KeyRef { track: first_track, key: first_key });
            let name = if side == Side::Left { "left type" } else { "right type" };
            let mixed = cx.doc.about_selection(name, || all().any(|k| get(k) != first));
            let mut picked = None;
            let combo = egui::ComboBox::from_id_salt(name)
                .selected_text(egui::RichText::new(format!("{first:?}{}", if mixed { " (mixed)" } else { "" })).color(handle_color(first)))
                .show_ui(ui, |ui| {
                    for t in [HandleType::Free, HandleType::Vector, HandleType::Aligned, HandleType::Auto, HandleType::AutoClamped] {
                        if ui.selectable_label(t == first && !mixed, format!("{t:?}")).clicked() {
                            picked = Some(t);
                        }
                    }
                });
            combo.response.accessible_name(name);
            ui.label(name).on_hover_text("The handle type of this side of every selected Bézier key (V sets both sides)");
            ui.end_row();
            if let Some(chosen) = picked {
                // As `V` does it (on a worker for big tracks), for this side only.
                out.push(AppCommand::SetHandleSides(HandleSides::one(side, chosen)));
            }
        }
    });
    let Some(Ok(curve)) = cx.doc.curve(first_track) else { return };
    let names = tracks[first_track].kind.component_names();
    let scale = display_scale(tracks[first_track].kind);
    egui::Grid::new("handle offsets").num_columns(3).spacing([6.0, 6.0]).show(ui, |ui| {
        ui.label("handle");
        ui.label("Δt (s)");
        ui.label(unit(tracks[first_track].kind).map_or_else(|| "Δv".to_owned(), |u| format!("Δv ({u})")));
        ui.end_row();
        let dim = tracks[first_track].kind.dim();
        for (c, name) in names.iter().enumerate().take(dim) {
            let Some((l, r)) = curve.bezier_handles(first_key, c) else { continue };
            for (side, h) in [(Side::Left, l), (Side::Right, r)] {
                let side_name = if side == Side::Left { "left" } else { "right" };
                ui.label(if dim == 1 { side_name.to_owned() } else { format!("{name} {side_name}") });
                for coord in 0..2 {
                    offset_field(ui, cx, out, &selection, (side, c, coord), if coord == 0 { h.0 } else { h.1 * scale });
                }
                ui.end_row();
            }
        }
    });
}

/// One coordinate (`coord` 0 = Δt, 1 = Δv in display units) of the `side` handle of
/// component `c`, `shown` as the first selected key has it.
fn offset_field(
    ui: &mut egui::Ui,
    cx: &PanelContext<'_>,
    out: &mut Vec<AppCommand>,
    selection: &[(usize, Vec<usize>)],
    (side, c, coord): (Side, usize, usize),
    shown: f64,
) {
    let mut v = shown;
    let question = format!("handle {side:?} {c} {coord}");
    let mixed = cx.doc.about_selection(&question, || {
        selection.iter().any(|(t, keys)| {
            let Some(Ok(curve)) = cx.doc.curve(*t) else { return false };
            let scale = display_scale(curve.kind());
            keys.iter().any(|&k| {
                curve.bezier_handles(k, c).is_some_and(|(l, r)| {
                    let h = if side == Side::Left { l } else { r };
                    (if coord == 0 { h.0 } else { h.1 * scale }) != shown
                })
            })
        })
    });
    let side_name = if side == Side::Left { "left" } else { "right" };
    let what = if coord == 0 { "time offset Δt (seconds; left handles ≤ 0, right ≥ 0)" } else { "value offset Δv" };
    let r = ui
        .add(egui::DragValue::new(&mut v).speed(0.01).max_decimals(4).suffix(if mixed { " *" } else { "" }))
        .on_hover_text(format!(
            "The {side_name} handle's {what}, on every selected Bézier key; automatic handles become Aligned, as in Blender (* means the selected keys differ)"
        ))
        .accessible_name(format!("{side_name} handle {} component {c}", if coord == 0 { "dt" } else { "dv" }));
    if r.changed() && v.is_finite() && cx.ui.key_queue.is_busy() {
        // Its edits would be made from the keys on screen, which the change being made
        // replaces (as a drag in the graph, `graph::busy_status`).
        out.push(AppCommand::Status(cx.busy_status()));
    } else if r.changed() && v.is_finite() {
        let edits = per_track(cx, selection, |track, curve, which| {
            let dv = stored(track.kind, v);
            handles::set_handles(track, curve, which, side, c, |h| if coord == 0 { (v, h.1) } else { (h.0, dv) })
        });
        push_edits(out, &r, "Set handle", edits);
    } else if r.drag_started() || r.drag_stopped() {
        push_edits(out, &r, "Set handle", Vec::new());
    }
}

/// `keys_for(track, curve, selected keys)` on every track of the selection, as edits of the
/// tracks whose keys it changes (the keys stay where they are, and so does the selection).
fn per_track(
    cx: &PanelContext<'_>,
    selection: &[(usize, Vec<usize>)],
    keys_for: impl Fn(&crate::Track, &crate::TrackCurve, &[usize]) -> Vec<crate::Key>,
) -> Vec<KeyEdit> {
    selection
        .iter()
        .filter_map(|(t, which)| {
            let track = &cx.project().tracks[*t];
            let Some(Ok(curve)) = cx.doc.curve(*t) else { return None };
            let keys = keys_for(track, curve, which);
            let selected = which.iter().map(|&key| KeyRef { track: *t, key }).collect();
            (keys != track.keys).then_some(KeyEdit { track: *t, edit: Edit::SetKeys { track: *t, keys: keys.into() }, selected })
        })
        .collect()
}
