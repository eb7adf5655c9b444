//! Per-key interpolation and easing driven like a user drives them (egui_kittest): select a
//! key, `T` and pick Elastic in the menu at the pointer, `Ctrl+E` and pick Ease In and Out,
//! type a period in the inspector, undo each step; and a snapshot of the eased curve.

use eframe::egui::accesskit::Role;
use eframe::egui::{self, Key as K, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use super::tests::{app, click_at, harness, key_pos};
use super::{AppState, TangentApp};
use crate::model::{Easing, KeyInterpolation};
use crate::{Interpolation, Key, Project, Track, TrackCurve, TrackKind};

/// One Scalar Bezier track, keys (0, 0), (1, 2), (3, 1), (4, 3).
fn bezier_project() -> Project {
    let keys = [(0.0, 0.0), (1.0, 2.0), (3.0, 1.0), (4.0, 3.0)].iter().map(|&(t, v)| Key::new(t, vec![v])).collect();
    Project { tracks: vec![Track::new("b", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys)], ..Project::default() }
}

fn value_at(project: &Project, t: f64) -> f64 {
    TrackCurve::new(&project.tracks[0]).unwrap().evaluator().value_at(t)[0]
}

#[test]
fn elastic_by_t_easing_by_ctrl_e_period_typed_each_undone() {
    let mut h = harness(bezier_project());
    let original = app(&h).project().clone();
    let p = key_pos(&h, 0, 1);
    click_at(&mut h, p, Modifiers::NONE);

    h.key_press(K::T);
    h.run();
    assert!(app(&h).ui.windows.is_open(super::Window::InterpolationMenu), "T opens the interpolation menu");
    h.get_by_label("Elastic").click();
    h.run();
    assert!(!app(&h).ui.windows.is_open(super::Window::InterpolationMenu), "choosing closes it");
    let elastic = app(&h).project().clone();
    assert_eq!(elastic.tracks[0].keys[1].interpolation, KeyInterpolation::Elastic);
    assert_eq!(elastic.tracks[0].keys.iter().filter(|k| k.interpolation != KeyInterpolation::Bezier).count(), 1, "only the selected key");
    assert_eq!(elastic.tracks[0].keys.len(), 4, "no keys baked in");
    // Elastic out of key 1 (value 2) into key 2 (value 1) overshoots below 1 near its end.
    let lowest = (0..200).map(|i| value_at(&elastic, 1.0 + 2.0 * f64::from(i) / 200.0)).fold(f64::INFINITY, f64::min);
    assert!(lowest < 0.99, "the elastic swing passes the next key's value: {lowest}");
    assert!(app(&h).ui.status.text.contains("Elastic"), "{}", app(&h).ui.status.text);

    h.key_press_modifiers(Modifiers::COMMAND, K::E);
    h.run();
    assert!(app(&h).ui.windows.is_open(super::Window::EasingMenu), "Ctrl+E opens the easing menu");
    h.get_by_label("Ease in and out").click();
    h.run();
    let in_out = app(&h).project().clone();
    assert_eq!(in_out.tracks[0].keys[1].easing, Easing::InOut);
    assert_ne!(value_at(&in_out, 1.5), value_at(&elastic, 1.5));

    // The inspector shows the key's mode and edits its period (seconds).
    h.get_by_role_and_label(Role::SpinButton, "period").set_value_accesskit(0.5);
    h.run();
    let period = app(&h).project().clone();
    assert!((f64::from(period.tracks[0].keys[1].period) - 0.5).abs() < 1e-7, "{}", period.tracks[0].keys[1].period);
    assert_ne!(value_at(&period, 1.7), value_at(&in_out, 1.7));

    for (expected, what) in [(&in_out, "the period"), (&elastic, "the easing"), (&original, "the interpolation")] {
        h.key_press_modifiers(Modifiers::COMMAND, K::Z);
        h.run();
        assert_eq!(app(&h).project(), expected, "one undo takes back {what}");
    }
}

#[test]
fn t_on_a_tcb_track_says_what_to_do() {
    let keys = vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![1.0])];
    let mut h = harness(Project { tracks: vec![Track::new("t", TrackKind::Scalar, Interpolation::Tcb).with_keys(keys)], ..Project::default() });
    let p = key_pos(&h, 0, 1);
    click_at(&mut h, p, Modifiers::NONE);
    let before = app(&h).project().clone();
    h.key_press(K::T);
    h.run();
    h.get_by_label("Bounce").click();
    h.run();
    assert_eq!(app(&h).project(), &before, "a TCB key has no per-key interpolation");
    assert!(app(&h).ui.status.text.contains("Convert to Bézier"), "{}", app(&h).ui.status.text);
}

/// The whole window rendered (wgpu): a Bounce, an Elastic and a Constant segment, the key
/// of the Elastic one selected with its settings in the inspector.
#[test]
fn eased_segments_snapshot() {
    let mut project = bezier_project();
    let keys = &mut project.tracks[0].keys;
    keys[0].interpolation = KeyInterpolation::Bounce;
    keys[1].interpolation = KeyInterpolation::Elastic;
    keys[2].interpolation = KeyInterpolation::Constant;
    let state = AppState::new(project, None);
    let mut h = Harness::builder().with_size(egui::vec2(1300.0, 820.0)).wgpu().build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp::new(state));
    h.run();
    let p = key_pos(&h, 0, 1);
    click_at(&mut h, p, Modifiers::NONE);
    h.run();
    h.snapshot("eased_segments");
}
