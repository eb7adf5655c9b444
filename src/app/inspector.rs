//! The key inspector: numeric entry of time, value, tension, continuity, bias, ease-to and
//! ease-from for every selected key at once. A field shows the first selected key's value and
//! "(mixed)" when the selection differs; an edit sets that field on every selected key
//! (time moves all selected keys by the same amount). One slider drag is one undo step.
//! Values are shown and typed in each track's display units (`units.rs`: an Euler track's
//! angles in degrees). Bézier keys add their handle types and offsets (`inspector_handles.rs`).

use eframe::egui;

use super::commands::AppCommand;
use super::gesture;
use super::key_change::Change;
use super::panel::{Panel, PanelContext};
use super::style::{EASE, INCOMING, OUTGOING};
use super::units::{display_scale, fmt_shown, unit};
use crate::edit::intent::KeyRef;
use crate::euler::{self, EulerOrder};
use crate::{Interpolation, Key, TrackKind};

#[derive(Default)]
pub struct Inspector;

/// The names of the first tracks of `on`, then how many more.
fn track_names(cx: &PanelContext<'_>, on: &[usize]) -> String {
    const SHOWN: usize = 3;
    let names: Vec<&str> = on.iter().take(SHOWN).map(|&t| cx.project().tracks[t].name.as_str()).collect();
    match on.len().saturating_sub(SHOWN) {
        0 => names.join(", "),
        more => format!("{} and {more} more tracks", names.join(", ")),
    }
}

/// `change` on every selected key, as this widget's gesture (`gesture::step`: a drag of the
/// widget is one undo step). The change is absolute (a field set to a value), and the app
/// makes it on a worker for a big selection (`planner.rs`).
fn set_on_selected(out: &mut Vec<AppCommand>, r: &egui::Response, label: &str, changed: bool, change: impl Fn(&mut Key) + Send + Sync + 'static) {
    out.extend(gesture::step(r, label, changed.then(|| Change::Each(std::sync::Arc::new(change)))));
}

type Field = (&'static str, &'static str, fn(&Key) -> f64, fn(&mut Key, f64), f64, f64);
const TCB_FIELDS: [Field; 5] = [
    ("tension", "T: 1 flattens the tangents to zero, -1 doubles them", |k| k.tension, |k, v| k.tension = v, -1.0, 1.0),
    ("continuity", "C: -1 makes a sharp corner (box corner), +1 an overshooting one", |k| k.continuity, |k, v| k.continuity = v, -1.0, 1.0),
    ("bias", "B: +1 follows the incoming direction (overshoot), -1 the outgoing one (anticipate)", |k| k.bias, |k, v| k.bias = v, -1.0, 1.0),
    ("ease to", "Slows the segment arriving at this key (0 = none, 1 = all of it)", |k| k.ease_to, |k, v| k.ease_to = v, 0.0, 1.0),
    ("ease from", "Slows the segment leaving this key (0 = none, 1 = all of it)", |k| k.ease_from, |k, v| k.ease_from = v, 0.0, 1.0),
];

impl Panel for Inspector {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        ui.heading("Keys");
        let n = cx.doc.selection.len();
        let Some(&first_ref) = cx.doc.selection.iter().next() else {
            ui.label("No key selected. Click a key, drag a box, or Ctrl+A.");
            return;
        };
        let tracks = &cx.project().tracks;
        let first = tracks[first_ref.track].keys.key(first_ref.key);
        let first = &*first;
        let on = cx.doc.selection.tracks();
        ui.label(format!("{n} selected on {}", track_names(cx, &on)));
        let any_tcb = on.iter().any(|&t| tracks[t].interpolation == Interpolation::Tcb);
        egui::Grid::new("inspector").num_columns(2).spacing([8.0, 6.0]).show(ui, |ui| {
            time_and_value(ui, cx, out, first, first_ref);
            if any_tcb {
                for (f, (name, tip, get, set, lo, hi)) in TCB_FIELDS.into_iter().enumerate() {
                    let mut v = get(first);
                    ui.label(if cx.doc.mixed_fields().tcb[f] { "(mixed)" } else { "" });
                    // Clamped (and rounded to its decimals) only when edited here: a slider that
                    // rounds the value it shows reports a change, which mid-drag of a tangent or
                    // an ease handle in the graph was a step of its own that ended the drag.
                    let slider = egui::Slider::new(&mut v, lo..=hi).text(name).max_decimals(3).clamping(egui::SliderClamping::Edits);
                    let r = ui.add(slider).on_hover_text(tip);
                    set_on_selected(out, &r, &format!("Set {name}"), r.changed(), move |k| set(k, v));
                    ui.end_row();
                }
            }
        });
        super::inspector_handles::bezier_section(ui, cx, out);
        super::inspector_segments::segment_section(ui, cx, out);
        if tracks[first_ref.track].kind == TrackKind::Quat {
            euler_entry(ui, cx, out, first);
        }
        ease_warp(ui, cx, first_ref);
        // The tangents the engine computed for the first selected key.
        if let Some(Ok(curve)) = cx.doc.curve(first_ref.track) {
            if let (Some(ra), Some(rb)) = (curve.incoming_tangent(first_ref.key), curve.outgoing_tangent(first_ref.key)) {
                let kind = tracks[first_ref.track].kind;
                ui.separator();
                ui.label(egui::RichText::new(format!("in  ra = {}", fmt_shown(kind, ra))).color(INCOMING))
                    .on_hover_text("Incoming tangent: the derivative arriving at this key, per unit of the previous segment's time");
                ui.label(egui::RichText::new(format!("out rb = {}", fmt_shown(kind, rb))).color(OUTGOING))
                    .on_hover_text("Outgoing tangent: the derivative leaving this key, per unit of the next segment's time");
            }
        }
    }
}

/// Time (moves every selected key by the change of the first) and the value components of
/// the first key's track.
fn time_and_value(ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, first: &Key, first_ref: KeyRef) {
    let mixed = cx.doc.mixed_fields();
    let mut t = first.time;
    ui.label("time (s)").on_hover_text("Key time. With several keys selected, all move by the same amount.");
    let r = ui.add(egui::DragValue::new(&mut t).speed(0.01).max_decimals(6).suffix(if mixed.time { " (mixed)" } else { "" })).accessible_name("time");
    let r = r.on_hover_text("Drag or type the time of the first selected key");
    // The first key to `t`, the others by as much: made when the change is (on a worker for a
    // big selection), from the keys as they are then.
    out.extend(gesture::step(&r, "Set key time", (r.changed() && t.is_finite()).then_some(Change::FirstKeyTo(t))));
    ui.end_row();
    let kind = cx.project().tracks[first_ref.track].kind;
    // Shown and typed in the first track's display units; each key takes the typed value in
    // its own track's units (`Change::Shown`).
    let scale = display_scale(kind);
    let in_unit = unit(kind).map_or(String::new(), |u| format!(" {u}"));
    for (c, (&value, name)) in first.value.iter().zip(kind.component_names()).enumerate() {
        let mut v = value * scale;
        ui.label(format!("value {name}")).on_hover_text("Set this component on every selected key that has it (an Euler track's angles in degrees)");
        let mixed = if mixed.value.get(c).copied().unwrap_or(false) { " (mixed)" } else { "" };
        let r = ui
            .add(egui::DragValue::new(&mut v).speed(0.01 * scale).max_decimals(6).suffix(format!("{in_unit}{mixed}")))
            .accessible_name(format!("value {name}"));
        let change = Change::Shown(std::sync::Arc::new(move |k: &mut Key, scale: f64| {
            if let Some(x) = k.value.get_mut(c) {
                *x = v / scale;
            }
        }));
        out.extend(gesture::step(&r, "Set key value", (r.changed() && v.is_finite()).then_some(change)));
        ui.end_row();
    }
}

/// Rotation keys as Euler angles in degrees, in a selectable order; typing one sets the
/// quaternion of every selected rotation key.
fn euler_entry(ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>, first: &Key) {
    ui.separator();
    let mut order = cx.view.euler_order;
    ui.horizontal(|ui| {
        ui.label("Euler (deg)").on_hover_text("The first selected key's rotation as Euler angles; edits are stored as a quaternion");
        let r = egui::ComboBox::from_id_salt("euler order").selected_text(order.name()).show_ui(ui, |ui| {
            for o in EulerOrder::ALL {
                ui.selectable_value(&mut order, o, o.name());
            }
        });
        r.response.accessible_name("euler order");
    });
    if order != cx.view.euler_order {
        out.push(cx.view_change(|v| v.euler_order = order));
    }
    let order = cx.view.euler_order;
    let q = [first.value[0], first.value[1], first.value[2], first.value[3]];
    let mut deg = euler::from_quat(&q, order).map(f64::to_degrees);
    ui.horizontal(|ui| {
        for (c, name) in ["x", "y", "z"].iter().enumerate() {
            let r = ui
                .add(egui::DragValue::new(&mut deg[c]).speed(0.5).max_decimals(6).suffix(" deg").prefix(format!("{name} ")))
                .accessible_name(format!("euler {name}"));
            let r = r.on_hover_text(format!("Rotation about {name}, applied in {order:?} order"));
            let q = euler::to_quat(&deg.map(f64::to_radians), order);
            set_on_selected(out, &r, "Set rotation", r.changed() && deg.iter().all(|d| d.is_finite()), move |k| {
                if k.value.len() == 4 {
                    k.value = q.to_vec();
                }
            });
        }
    });
}

/// Ease as a time warp: local time after ease against before, for the segment leaving the
/// first selected key (ease-from of this key, ease-to of the next).
fn ease_warp(ui: &mut egui::Ui, cx: &PanelContext<'_>, kr: KeyRef) {
    let track = &cx.project().tracks[kr.track];
    if track.interpolation != Interpolation::Tcb || kr.key + 1 >= track.keys.len() {
        return;
    }
    let (a, b) = (track.keys.key(kr.key).ease_from, track.keys.key(kr.key + 1).ease_to);
    ui.separator();
    ui.label(format!("Ease of segment {} > {}: from {a:.2}, to {b:.2}", kr.key, kr.key + 1))
        .on_hover_text("Local time after ease (vertical) against before (horizontal): the diagonal is no ease, flat ends are slow starts and stops");
    let curve: Vec<[f64; 2]> = (0..=100).map(|i| f64::from(i) / 100.0).map(|u| [u, crate::tcb::ease(u, a, b)]).collect();
    egui_plot::Plot::new("ease warp")
        .height(140.0)
        .data_aspect(1.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show_axes([true, true])
        .include_x(0.0)
        .include_x(1.0)
        .include_y(0.0)
        .include_y(1.0)
        .show(ui, |plot_ui| {
            plot_ui.line(
                egui_plot::Line::new("no ease", egui_plot::PlotPoints::from(vec![[0.0, 0.0], [1.0, 1.0]]))
                    .color(egui::Color32::GRAY)
                    .style(egui_plot::LineStyle::dashed_dense()),
            );
            plot_ui.line(egui_plot::Line::new("eased", egui_plot::PlotPoints::from(curve)).color(EASE).width(2.0));
        });
}
