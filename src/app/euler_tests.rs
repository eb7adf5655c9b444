//! Euler tracks in the editor (issue 29), driven as a user drives them: shown and typed in
//! degrees while the file keeps radians (the inspector's fields, a drag in the graph, snapping,
//! Bézier handles), the order selector, Edit > Euler filter as one undo step (at once and on a
//! worker), Track > Convert rotation… both ways, the rotation view, and a stale conversion
//! refused by the one currency rule.

use std::collections::BTreeSet;
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

use eframe::egui::accesskit::Role;
use eframe::egui::{self, Key as K, Modifiers, Pos2};
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use egui_plot::PlotPoint;

use super::commands::{AppCommand, Command};
use super::dispatch::run_command;
use super::key_change::KeyRef;
use super::state::AppState;
use super::test_steps::{menu, step_until};
use super::tests::{app, click_at, drag, harness};
use super::tool::{made_now, window};
use super::tools::convert_rotation::{ConvertRotation, RotationOptions};
use super::TangentApp;
use crate::euler::{self, EulerOrder};
use crate::{HandleType, Interpolation, Key, Project, Track, TrackKind};

fn deg(d: f64) -> f64 {
    d.to_radians()
}

/// An Euler track "rot" (Linear): key 1's x is π/2 (90°).
fn euler_track(name: &str) -> Track {
    let keys = vec![
        Key::new(0.0, vec![0.0, deg(10.0), deg(-20.0)]),
        Key::new(1.0, vec![FRAC_PI_2, deg(30.0), deg(-40.0)]),
        Key::new(2.0, vec![deg(120.0), deg(50.0), deg(-60.0)]),
    ];
    Track::new(name, TrackKind::Euler, Interpolation::Linear).with_keys(keys)
}

fn one_euler_track() -> Project {
    Project { tracks: vec![euler_track("rot")], ..Project::default() }
}

/// Where component `comp` of key `key` of `track` is drawn: at its value in degrees.
fn shown_at(h: &Harness<'_, TangentApp>, track: usize, key: usize, comp: usize) -> Pos2 {
    let k = &app(h).project().tracks[track].keys[key];
    h.state().panels.graph.transform.as_ref().unwrap().position_from_point(&PlotPoint::new(k.time, k.value[comp].to_degrees()))
}

/// The graph's value axis label.
fn axis_label(h: &Harness<'_, TangentApp>) -> &'static str {
    let s = &h.state().state;
    super::graph::value_axis_label(&super::PanelContext { doc: &s.doc, view: &s.view, ui: &s.ui })
}

fn to_screen(h: &Harness<'_, TangentApp>, t: f64, v: f64) -> Pos2 {
    h.state().panels.graph.transform.as_ref().unwrap().position_from_point(&PlotPoint::new(t, v))
}

/// The number a drag-value field (by its accessible name) shows.
fn field(h: &Harness<'_, TangentApp>, name: &str) -> f64 {
    h.get_by_role_and_label(Role::SpinButton, name).accesskit_node().numeric_value().unwrap_or_else(|| panic!("{name} shows no number"))
}

/// Types `v` into the drag-value field named `name`.
fn type_into(h: &mut Harness<'static, TangentApp>, name: &str, v: f64) {
    h.get_by_role_and_label(Role::SpinButton, name).set_value_accesskit(v);
    h.run();
}

fn select(h: &mut Harness<'static, TangentApp>, keys: impl IntoIterator<Item = KeyRef>) {
    h.state_mut().state.doc.selection = keys.into_iter().collect::<BTreeSet<_>>().into();
    h.run();
}

#[test]
fn an_euler_key_is_shown_in_degrees_and_typed_degrees_are_stored_as_radians() {
    let mut h = harness(one_euler_track());
    assert_eq!(axis_label(&h), "angle (deg)", "only Euler curves are drawn");
    h.get_by_label_contains("rot.x (deg)");
    // A click on key 1's x, drawn at 90 on the degree axis, selects it.
    let p = shown_at(&h, 0, 1, 0);
    click_at(&mut h, p, Modifiers::NONE);
    assert_eq!(app(&h).doc.selection.iter().copied().collect::<Vec<_>>(), [KeyRef { track: 0, key: 1 }]);
    assert!(app(&h).ui.status.text.ends_with("value = (90.000, 30.000, -40.000) deg"), "{}", app(&h).ui.status.text);
    assert!((field(&h, "value x") - 90.0).abs() < 1e-9, "the inspector shows {} for π/2 rad", field(&h, "value x"));
    assert!((field(&h, "value z") + 40.0).abs() < 1e-9);
    type_into(&mut h, "value x", 45.0);
    let stored = app(&h).project().tracks[0].keys.value(1)[0];
    assert!((stored - FRAC_PI_4).abs() < 1e-12, "45 typed is stored as π/4 rad, got {stored}");
    assert_eq!(app(&h).doc.document.undo_label(), Some("Set key value"));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks[0].keys.value(1)[0], FRAC_PI_2);
}

/// A value typed with keys of an Euler and a Vec3 track selected: each takes it in its own
/// units (45° on the Euler key, 45 on the Vec3 key), one undo step.
#[test]
fn a_typed_value_means_each_tracks_own_units() {
    let vec3 =
        Track::new("pos", TrackKind::Vec3, Interpolation::Linear).with_keys(vec![Key::new(0.0, vec![1.0, 2.0, 3.0]), Key::new(1.0, vec![4.0, 5.0, 6.0])]);
    let mut h = harness(Project { tracks: vec![euler_track("rot"), vec3], ..Project::default() });
    assert_eq!(axis_label(&h), "value", "an Euler and a Vec3 curve");
    select(&mut h, [KeyRef { track: 0, key: 1 }, KeyRef { track: 1, key: 0 }]);
    type_into(&mut h, "value y", 45.0);
    let tracks = &app(&h).project().tracks;
    assert!((tracks[0].keys.value(1)[1] - FRAC_PI_4).abs() < 1e-12, "{}", tracks[0].keys.value(1)[1]);
    assert_eq!(tracks[1].keys.value(0)[1], 45.0);
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks[1].keys.value(0)[1], 2.0, "one undo step for both");
    assert_eq!(app(&h).project().tracks[0].keys.value(1)[1], deg(30.0));
    // The same made on a worker (a big selection).
    h.state_mut().state.ui.key_queue.background_keys = 1;
    h.get_by_role_and_label(Role::SpinButton, "value y").set_value_accesskit(60.0);
    step_until(&mut h, |h| app(h).project().tracks[1].keys.value(0)[1] == 60.0);
    assert!((app(&h).project().tracks[0].keys.value(1)[1] - PI / 3.0).abs() < 1e-12);
}

/// A drag of key 1's x from 90 to about 60 on the degree axis stores about π/3; with snapping
/// on, exactly 60° (a round number of degrees, not of radians). One undo step each.
#[test]
fn dragging_an_euler_key_moves_it_in_degrees_and_snaps_to_round_degrees() {
    let mut h = harness(one_euler_track());
    let before = app(&h).project().clone();
    let from = shown_at(&h, 0, 1, 0);
    let to = to_screen(&h, 1.0, 61.3);
    drag(&mut h, from, to);
    let x = app(&h).project().tracks[0].keys.value(1)[0];
    assert!((x.to_degrees() - 61.3).abs() < 1.5, "dropped at 61.3° on screen, stored {x} rad = {}°", x.to_degrees());
    assert!(app(&h).ui.status.text.ends_with(" deg"), "{}", app(&h).ui.status.text);
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &before, "one undo step");
    h.state_mut().state.view.snap = true;
    let from = shown_at(&h, 0, 1, 0);
    drag(&mut h, from, to);
    let x = app(&h).project().tracks[0].keys.value(1)[0].to_degrees();
    assert!((x - 60.0).abs() < 1e-9, "snapped to {x}°: the grid is in degrees");
}

/// A Bézier Euler key's handle: the inspector shows its Δv in degrees, and a typed one is
/// stored in radians.
#[test]
fn bezier_handles_of_euler_keys_are_in_degrees() {
    let keys = vec![
        Key::new(0.0, vec![0.0; 3]),
        Key::new(1.0, vec![FRAC_PI_2, 0.0, 0.0]).with_handles((HandleType::Free, HandleType::Free), vec![(-0.3, -PI / 6.0); 3], vec![(0.3, PI / 6.0); 3]),
        Key::new(2.0, vec![PI, 0.0, 0.0]),
    ];
    let mut h = harness(Project { tracks: vec![Track::new("rot", TrackKind::Euler, Interpolation::Bezier).with_keys(keys)], ..Project::default() });
    select(&mut h, [KeyRef { track: 0, key: 1 }]);
    assert!((field(&h, "right handle dv component 0") - 30.0).abs() < 1e-9, "{}", field(&h, "right handle dv component 0"));
    type_into(&mut h, "right handle dv component 0", 45.0);
    let right = app(&h).project().tracks[0].keys[1].right[0];
    assert!((right.1 - FRAC_PI_4).abs() < 1e-12 && (right.0 - 0.3).abs() < 1e-12, "{right:?}");
}

/// The track list's order selector changes the order as one undoable edit; + Add makes an
/// Euler track.
#[test]
fn the_order_selector_and_adding_an_euler_track() {
    let mut h = harness(one_euler_track());
    h.state_mut().state.doc.active_track = Some(0);
    h.run();
    h.get_by_label("rotation order").click();
    h.run();
    h.get_by_label("ZYX").click();
    h.run();
    assert_eq!(app(&h).project().tracks[0].order, EulerOrder::ZYX);
    assert_eq!(app(&h).doc.document.undo_label(), Some("Change rotation order"));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks[0].order, EulerOrder::XYZ);
    h.get_by_label("+ Add").click();
    h.run();
    h.get_by_label("Euler track").click();
    h.run();
    let added = app(&h).project().tracks.last().unwrap();
    assert_eq!((added.kind, added.keys.len()), (TrackKind::Euler, 2));
}

/// Two Euler tracks whose x wraps at ±180°: Edit > Euler filter unwraps both in one undo step,
/// and says how many keys changed; with nothing but a Vec3 selected it says why it did nothing.
#[test]
fn the_euler_filter_from_the_edit_menu_is_one_undo_step() {
    let wrapped = |name: &str| {
        let x = [0.0, 170.0, -170.0, -150.0];
        Track::new(name, TrackKind::Euler, Interpolation::Linear)
            .with_keys(x.iter().enumerate().map(|(i, &x)| Key::new(i as f64, vec![deg(x), 0.0, 0.0])).collect())
    };
    let vec3 = Track::new("pos", TrackKind::Vec3, Interpolation::Linear).with_keys(vec![Key::new(0.0, vec![0.0; 3]), Key::new(1.0, vec![1.0; 3])]);
    let mut h = harness(Project { tracks: vec![wrapped("a"), wrapped("b"), vec3], ..Project::default() });
    let before = app(&h).project().clone();
    select(&mut h, [KeyRef { track: 2, key: 0 }]);
    menu(&mut h, "Edit", "Euler filter");
    assert_eq!(app(&h).project(), &before);
    assert!(app(&h).ui.status.text.contains("no Euler track is selected"), "{}", app(&h).ui.status.text);
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    menu(&mut h, "Edit", "Euler filter");
    assert_eq!(app(&h).ui.status.text, "Euler filter: 4 keys changed in 2 tracks");
    for t in 0..2 {
        let x: Vec<f64> = app(&h).project().tracks[t].keys.iter().map(|k| k.value[0].to_degrees()).collect();
        for (got, want) in x.iter().zip([0.0, 170.0, 190.0, 210.0]) {
            assert!((got - want).abs() < 1e-9, "track {t}: {x:?}");
        }
    }
    assert_eq!(app(&h).project().tracks[2], before.tracks[2]);
    assert_eq!(app(&h).doc.document.undo_label(), Some("Euler filter"));
    assert_eq!(app(&h).doc.selection.len(), 10, "the keys stay selected");
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &before, "one undo brings both tracks back");
    assert!(app(&h).doc.document.undo_label().is_none());
    // The same on a worker (a big selection), by its shortcut: one step too.
    h.state_mut().state.ui.key_queue.background_keys = 1;
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, K::F);
    step_until(&mut h, |h| app(h).ui.status.text.starts_with("Euler filter: 4 keys"));
    assert!((app(&h).project().tracks[1].keys.value(3)[0].to_degrees() - 210.0).abs() < 1e-9);
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &before);
}

/// The rotation of `track` at `t`.
fn rotation(track: &Track, t: f64) -> crate::quat::Quat {
    let curve = crate::TrackCurve::new(track).unwrap();
    let mut scratch = vec![0.0; curve.dim()];
    curve.rotation_at(&mut crate::SegmentCursor::new(), t, &mut scratch).unwrap()
}

/// A Quat track with a hemisphere flip converted to Euler ZYX by Track > Convert rotation…,
/// then back to Quat within 0.01°: each one undo step, the status saying what was found.
#[test]
fn convert_rotation_quat_to_euler_and_back_through_the_menu() {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let keys = vec![
        Key::new(0.0, vec![0.0, 0.0, 0.0, 1.0]),
        Key::new(1.0, vec![0.0, 0.0, s, s]),
        Key::new(2.0, vec![0.0, -s, 0.0, -s]),
        Key::new(3.0, vec![-0.5, -0.5, -0.5, -0.5]),
    ];
    let quat = Track::new("spin", TrackKind::Quat, Interpolation::Slerp).with_keys(keys);
    let mut h = harness(Project { tracks: vec![quat.clone()], ..Project::default() });
    h.state_mut().state.doc.active_track = Some(0);
    menu(&mut h, "Track", "Convert rotation");
    h.get_by_label("convert order").click();
    h.run();
    h.get_by_label("ZYX").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "Convert").click();
    step_until(&mut h, |h| app(h).project().tracks[0].kind == TrackKind::Euler);
    h.run();
    let status = app(&h).ui.status.text.clone();
    assert_eq!(status, "Converted \"spin\" Quat -> Euler ZYX (1 hemisphere flip found: keys 1-2)");
    let euler_track = app(&h).project().tracks[0].clone();
    assert_eq!((euler_track.order, euler_track.keys.len()), (EulerOrder::ZYX, 4));
    for (e, q) in euler_track.keys.iter().zip(&quat.keys) {
        let back = euler::to_quat(&[e.value[0], e.value[1], e.value[2]], EulerOrder::ZYX);
        let dot: f64 = back.iter().zip(&q.value).map(|(a, b)| a * b).sum();
        assert!((dot.abs() - 1.0).abs() < 1e-12, "key at {}: the same rotation", e.time);
    }
    assert!(!app(&h).ui.windows.is_open(window::<ConvertRotation>()), "the window closes with its result");
    assert_eq!(app(&h).doc.document.undo_label(), Some("Convert rotation"));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks[0], quat, "one undo step");
    h.key_press_modifiers(Modifiers::COMMAND, K::Y);
    h.run();
    assert_eq!(app(&h).project().tracks[0], euler_track);
    // Back to Quat within the default 0.01°.
    menu(&mut h, "Track", "Convert rotation");
    assert!((field(&h, "convert angle") - 0.01).abs() < 1e-12);
    h.get_by_role_and_label(Role::Button, "Convert").click();
    step_until(&mut h, |h| app(h).project().tracks[0].kind == TrackKind::Quat);
    let status = &app(&h).ui.status.text;
    assert!(status.starts_with("Converted \"spin\" Euler -> Quat: 4 -> ") && status.contains("keys, max error"), "{status}");
    let back = &app(&h).project().tracks[0];
    for i in 0..=300 {
        let t = f64::from(i) / 100.0;
        let angle = crate::quat::angle_between(&rotation(back, t), &rotation(&euler_track, t)).to_degrees();
        assert!(angle <= 0.01 + 1e-9, "at {t}: {angle}°");
    }
}

/// A conversion made for the document before an edit is not applied (the currency rule), and
/// the status bar says so.
#[test]
fn a_stale_rotation_conversion_is_refused() {
    let ctx = egui::Context::default();
    let mut state = AppState::new(one_euler_track(), None);
    state.doc.active_track = Some(0);
    let rotations = made_now::<ConvertRotation>(&state.doc, RotationOptions::default());
    run_command(&ctx, &mut state, AppCommand::Select(BTreeSet::from([KeyRef { track: 0, key: 0 }])));
    run_command(&ctx, &mut state, AppCommand::Ui(Command::EulerFilter));
    let after_filter = state.project().clone();
    run_command(&ctx, &mut state, AppCommand::ToolApply(rotations));
    assert_eq!(state.project(), &after_filter, "not applied");
    assert!(state.ui.status.is_error && state.ui.status.text.starts_with("Convert rotation: not applied"), "{}", state.ui.status.text);
}

/// The rotation view shows an Euler track: its angular speed in degrees per second (a turn
/// about X at 90°/s), and the orientation through its order.
#[test]
fn the_rotation_view_shows_an_euler_tracks_angular_speed_in_degrees() {
    let keys = vec![Key::new(0.0, vec![0.0, 0.0, 0.0]), Key::new(2.0, vec![PI, 0.0, 0.0])];
    let mut h = harness(Project { tracks: vec![Track::new("turn", TrackKind::Euler, Interpolation::Linear).with_keys(keys)], ..Project::default() });
    h.get_by_label("Rotation").click();
    h.run();
    h.get_by_label_contains("Rotation \"turn\" (Linear)");
    let speeds = h.state().panels.rotation.speeds();
    assert_eq!(speeds.len(), 1, "an Euler track's own speed");
    assert!(speeds[0].len() > 100 && speeds[0].iter().all(|[_, w]| (w - 90.0).abs() < 1e-6), "{:?}", &speeds[0][..3]);
}
