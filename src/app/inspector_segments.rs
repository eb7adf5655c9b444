//! The inspector's segment section for Bézier keys: the interpolation of the segment after
//! each selected key (Bézier, Constant, Linear or one of Blender's easing equations), its
//! easing, and the equation's parameters — Back's overshoot, Elastic's amplitude and period —
//! for every selected Bézier key at once. A field shows the first selected key's setting and
//! "(mixed)" when the selection differs; a change sets it on every selected key of a Bezier
//! track (`Change::OnBezier`), one undo step per change or drag. The key stays one key: an
//! eased segment is its start key's setting, never keys baked in.

use std::sync::Arc;

use eframe::egui;

use super::commands::{AppCommand, Command};
use super::gesture;
use super::key_change::Change;
use super::panel::PanelContext;
use crate::edit::intent::KeyRef;
use crate::model::{Key, KeyInterpolation};

/// `change` on every selected Bézier key, as the widget's gesture (a drag is one undo step).
fn set_on_bezier(out: &mut Vec<AppCommand>, r: &egui::Response, label: &str, changed: bool, change: impl Fn(&mut Key) + Send + Sync + 'static) {
    out.extend(gesture::step(r, label, changed.then(|| Change::OnBezier(Arc::new(change)))));
}

/// One numeric parameter of the easing equations.
struct Parameter {
    name: &'static str,
    tip: &'static str,
    get: fn(&Key) -> f32,
    set: fn(&mut Key, f32),
    /// The modes it matters to.
    mode: KeyInterpolation,
    speed: f64,
    range: std::ops::RangeInclusive<f64>,
    suffix: &'static str,
}

const PARAMETERS: [Parameter; 3] = [
    Parameter {
        name: "back",
        tip: "Back's overshoot: how far the segment swings past its end (1.70158, Blender's default, overshoots by 10%); 0 is none",
        get: |k| k.back,
        set: |k, v| k.back = v,
        mode: KeyInterpolation::Back,
        speed: 0.01,
        range: 0.0..=1000.0,
        suffix: "",
    },
    Parameter {
        name: "amplitude",
        tip: "Elastic's amplitude in value units: the swing of the oscillation; at or below the segment's change the swing is the change itself (Blender's rule)",
        get: |k| k.amplitude,
        set: |k, v| k.amplitude = v,
        mode: KeyInterpolation::Elastic,
        speed: 0.01,
        range: 0.0..=1e6,
        suffix: "",
    },
    Parameter {
        name: "period",
        tip: "Elastic's period in seconds: the time of one oscillation (Blender keeps frames: its default 4.1 frames is 0.171 s at 24 fps); 0 uses 30% of the segment",
        get: |k| k.period,
        set: |k, v| k.period = v,
        mode: KeyInterpolation::Elastic,
        speed: 0.001,
        range: 0.0..=1e6,
        suffix: " s",
    },
];

/// The section, under the handles (`inspector_handles.rs`), when Bézier keys are selected.
pub fn segment_section(ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
    let selection = cx.doc.bezier_selection();
    let Some((first_track, first_keys)) = selection.first() else { return };
    let tracks = &cx.project().tracks;
    let first = &tracks[*first_track].keys[first_keys[0]];
    let all = || selection.iter().flat_map(|(t, keys)| keys.iter().map(|&key| KeyRef { track: *t, key }));
    let key = |k: KeyRef| &tracks[k.track].keys[k.key];
    ui.separator();
    ui.label("Segment after each key").on_hover_text("How the curve runs from each selected key to the next (Blender's keyframe interpolation and easing)");
    egui::Grid::new("segment settings").num_columns(2).spacing([8.0, 6.0]).show(ui, |ui| {
        let mixed = cx.doc.about_selection("segment interpolation", || all().any(|k| key(k).interpolation != first.interpolation));
        let mut picked = None;
        let text = format!("{}{}", Command::SetKeyInterpolation(first.interpolation).text(), if mixed { " (mixed)" } else { "" });
        let r = egui::ComboBox::from_id_salt("segment interpolation").selected_text(text).show_ui(ui, |ui| {
            for (g, group) in Command::INTERPOLATIONS.into_iter().enumerate() {
                if g > 0 {
                    ui.separator();
                }
                for &c in group {
                    let current = c == Command::SetKeyInterpolation(first.interpolation) && !mixed;
                    if ui.selectable_label(current, c.text()).on_hover_text(c.tooltip()).clicked() {
                        picked = Some(c);
                    }
                }
            }
        });
        r.response.accessible_name("interpolation mode");
        ui.label("interpolation").on_hover_text(Command::InterpolationMenu.tooltip());
        ui.end_row();
        out.extend(picked.map(AppCommand::Ui));

        let mixed = cx.doc.about_selection("segment easing", || all().any(|k| key(k).easing != first.easing));
        let mut picked = None;
        let text = format!("{}{}", Command::SetEasing(first.easing).text(), if mixed { " (mixed)" } else { "" });
        let r = egui::ComboBox::from_id_salt("segment easing").selected_text(text).show_ui(ui, |ui| {
            for c in Command::EASINGS {
                if ui.selectable_label(c == Command::SetEasing(first.easing) && !mixed, c.text()).on_hover_text(c.tooltip()).clicked() {
                    picked = Some(c);
                }
            }
        });
        r.response.accessible_name("easing");
        let hint = if first.interpolation.is_easing() {
            format!(
                " The first key's {} eases: {}",
                Command::SetKeyInterpolation(first.interpolation).text(),
                first.easing.resolved(first.interpolation).label()
            )
        } else {
            " Bézier, Constant and Linear segments ignore it.".to_owned()
        };
        ui.label("easing").on_hover_text(format!("{}.{hint}", Command::EasingMenu.tooltip()));
        ui.end_row();
        out.extend(picked.map(AppCommand::Ui));

        for p in &PARAMETERS {
            if !cx.doc.about_selection(&format!("segment uses {}", p.name), || all().any(|k| key(k).interpolation == p.mode)) {
                continue;
            }
            let shown = (p.get)(first);
            let mixed = cx.doc.about_selection(&format!("segment {}", p.name), || all().any(|k| (p.get)(key(k)) != shown));
            parameter_field(ui, out, p, shown, mixed);
            ui.end_row();
        }
    });
}

/// Parameter `p`'s field, `shown` as the first selected key has it.
fn parameter_field(ui: &mut egui::Ui, out: &mut Vec<AppCommand>, p: &Parameter, shown: f32, mixed: bool) {
    let mut v = f64::from(shown);
    ui.label(p.name).on_hover_text(p.tip);
    let r = ui
        .add(egui::DragValue::new(&mut v).speed(p.speed).range(p.range.clone()).max_decimals(5).suffix(format!(
            "{}{}",
            p.suffix,
            if mixed { " (mixed)" } else { "" }
        )))
        .on_hover_text(p.tip)
        .accessible_name(p.name);
    #[allow(clippy::cast_possible_truncation)]
    let value = v as f32;
    let set = p.set;
    set_on_bezier(out, &r, &format!("Set {}", p.name), r.changed() && v.is_finite(), move |k| set(k, value));
}
