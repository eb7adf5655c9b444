//! The key inspector: numeric entry of time, value, tension, continuity, bias, ease-to and
//! ease-from for every selected key at once. A field shows the first selected key's value and
//! "(mixed)" when the selection differs; an edit sets that field on every selected key
//! (time moves all selected keys by the same amount). One slider drag is one undo step.

use eframe::egui;
use tangent::{Interpolation, Key};

use super::state::AppState;

fn mixed(values: &[f64]) -> bool {
    values.windows(2).any(|w| w[0] != w[1])
}

pub fn ui(ui: &mut egui::Ui, state: &mut AppState) {
    ui.heading("Keys");
    let n = state.selection.len();
    if n == 0 {
        ui.label("No key selected. Click a key, drag a box, or Ctrl+A.");
        return;
    }
    let keys: Vec<(usize, Key)> = state.selection.iter().map(|k| (k.track, state.project().tracks[k.track].keys[k.key].clone())).collect();
    let tracks: std::collections::BTreeSet<usize> = keys.iter().map(|k| k.0).collect();
    let names: Vec<&str> = tracks.iter().map(|&t| state.project().tracks[t].name.as_str()).collect();
    ui.label(format!("{n} selected on {}", names.join(", ")));
    let any_tcb = tracks.iter().any(|&t| state.project().tracks[t].interpolation == Interpolation::Tcb);
    let ctx = ui.ctx().clone();
    let first = keys[0].1.clone();
    egui::Grid::new("inspector").num_columns(2).spacing([8.0, 6.0]).show(ui, |ui| {
        // Time: moves every selected key by the change of the first.
        let times: Vec<f64> = keys.iter().map(|k| k.1.time).collect();
        let mut t = first.time;
        ui.label("time (s)").on_hover_text("Key time. With several keys selected, all move by the same amount.");
        let r = ui.add(egui::DragValue::new(&mut t).speed(0.01).max_decimals(6).suffix(if mixed(&times) { " (mixed)" } else { "" })).accessible_name("time");
        let r = r.on_hover_text("Drag or type the time of the first selected key");
        if r.changed() && t.is_finite() {
            let dt = t - first.time;
            state.change_selected_keys(&ctx, "Set key time", |k| k.time += dt);
        }
        ui.end_row();
        // Value components of the first key's track.
        let dim = first.value.len();
        let comp_names = state.project().tracks[keys[0].0].kind.component_names();
        for c in 0..dim {
            let values: Vec<f64> = keys.iter().filter_map(|k| k.1.value.get(c).copied()).collect();
            let mut v = first.value[c];
            ui.label(format!("value {}", comp_names[c])).on_hover_text("Set this component on every selected key that has it");
            let r = ui
                .add(egui::DragValue::new(&mut v).speed(0.01).max_decimals(6).suffix(if mixed(&values) { " (mixed)" } else { "" }))
                .accessible_name(format!("value {}", comp_names[c]));
            if r.changed() && v.is_finite() {
                state.change_selected_keys(&ctx, "Set key value", |k| {
                    if let Some(x) = k.value.get_mut(c) {
                        *x = v;
                    }
                });
            }
            ui.end_row();
        }
        if !any_tcb {
            return;
        }
        type Field = (&'static str, &'static str, fn(&Key) -> f64, fn(&mut Key, f64), f64, f64);
        let fields: [Field; 5] = [
            ("tension", "T: 1 flattens the tangents to zero, -1 doubles them", |k| k.tension, |k, v| k.tension = v, -1.0, 1.0),
            ("continuity", "C: -1 makes a sharp corner (box corner), +1 an overshooting one", |k| k.continuity, |k, v| k.continuity = v, -1.0, 1.0),
            ("bias", "B: +1 follows the incoming direction (overshoot), -1 the outgoing one (anticipate)", |k| k.bias, |k, v| k.bias = v, -1.0, 1.0),
            ("ease to", "Slows the segment arriving at this key (0 = none, 1 = all of it)", |k| k.ease_to, |k, v| k.ease_to = v, 0.0, 1.0),
            ("ease from", "Slows the segment leaving this key (0 = none, 1 = all of it)", |k| k.ease_from, |k, v| k.ease_from = v, 0.0, 1.0),
        ];
        for (name, tip, get, set, lo, hi) in fields {
            let values: Vec<f64> = keys.iter().map(|k| get(&k.1)).collect();
            let mut v = get(&first);
            ui.label(if mixed(&values) { "(mixed)" } else { "" });
            let r = ui.add(egui::Slider::new(&mut v, lo..=hi).text(name).max_decimals(3)).on_hover_text(tip);
            if r.changed() {
                state.change_selected_keys(&ctx, &format!("Set {name}"), |k| set(k, v));
            }
            ui.end_row();
        }
    });
    if state.project().tracks[keys[0].0].kind == tangent::TrackKind::Quat {
        euler_entry(ui, state, &first);
    }
    ease_warp(ui, state);
    // The tangents the engine computed for the first selected key.
    let kr = *state.selection.iter().next().unwrap();
    if let Some(Ok(curve)) = state.curve(kr.track) {
        if let (Some(ra), Some(rb)) = (curve.incoming_tangent(kr.key), curve.outgoing_tangent(kr.key)) {
            ui.separator();
            ui.label(egui::RichText::new(format!("in  ra = {}", super::graph::fmt_vec(ra))).color(super::style::INCOMING))
                .on_hover_text("Incoming tangent: the derivative arriving at this key, per unit of the previous segment's time");
            ui.label(egui::RichText::new(format!("out rb = {}", super::graph::fmt_vec(rb))).color(super::style::OUTGOING))
                .on_hover_text("Outgoing tangent: the derivative leaving this key, per unit of the next segment's time");
        }
    }
}

/// Rotation keys as Euler angles in degrees, in a selectable order; typing one sets the
/// quaternion of every selected rotation key.
fn euler_entry(ui: &mut egui::Ui, state: &mut AppState, first: &Key) {
    use tangent::quat::{self, EulerOrder};
    ui.separator();
    ui.horizontal(|ui| {
        ui.label("Euler (deg)").on_hover_text("The first selected key's rotation as Euler angles; edits are stored as a quaternion");
        let r = egui::ComboBox::from_id_salt("euler order").selected_text(format!("{:?}", state.view.euler_order)).show_ui(ui, |ui| {
            for o in EulerOrder::ALL {
                ui.selectable_value(&mut state.view.euler_order, o, format!("{o:?}"));
            }
        });
        let _ = r.response.accessible_name("euler order");
    });
    let order = state.view.euler_order;
    let q = [first.value[0], first.value[1], first.value[2], first.value[3]];
    let mut deg = quat::to_euler(&q, order).map(f64::to_degrees);
    let mut changed = false;
    ui.horizontal(|ui| {
        for (c, name) in ["x", "y", "z"].iter().enumerate() {
            let r = ui
                .add(egui::DragValue::new(&mut deg[c]).speed(0.5).max_decimals(6).suffix(" deg").prefix(format!("{name} ")))
                .accessible_name(format!("euler {name}"));
            changed |= r.on_hover_text(format!("Rotation about {name}, applied in {order:?} order")).changed();
        }
    });
    if changed && deg.iter().all(|d| d.is_finite()) {
        let q = quat::from_euler(deg.map(f64::to_radians), order);
        let ctx = ui.ctx().clone();
        state.change_selected_keys(&ctx, "Set rotation", |k| {
            if k.value.len() == 4 {
                k.value = q.to_vec();
            }
        });
    }
}

/// Ease as a time warp: local time after ease against before, for the segment leaving the
/// first selected key (ease-from of this key, ease-to of the next).
fn ease_warp(ui: &mut egui::Ui, state: &AppState) {
    let Some(kr) = state.selection.iter().next() else { return };
    let track = &state.project().tracks[kr.track];
    let (Some(next), true) = (track.keys.get(kr.key + 1), track.interpolation == Interpolation::Tcb) else { return };
    let (a, b) = (track.keys[kr.key].ease_from, next.ease_to);
    ui.separator();
    ui.label(format!("Ease of segment {} > {}: from {a:.2}, to {b:.2}", kr.key, kr.key + 1))
        .on_hover_text("Local time after ease (vertical) against before (horizontal): the diagonal is no ease, flat ends are slow starts and stops");
    let curve: Vec<[f64; 2]> = (0..=100).map(|i| f64::from(i) / 100.0).map(|u| [u, tangent::tcb::ease(u, a, b)]).collect();
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
            plot_ui.line(egui_plot::Line::new("eased", egui_plot::PlotPoints::from(curve)).color(super::style::EASE).width(2.0));
        });
}
