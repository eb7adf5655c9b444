//! Edit > Smooth…, Key > Scale time… and the ghost they leave, driven through the menus as a
//! user drives them (egui_kittest), and a snapshot of the graph with the ghost and the Smooth
//! window.

use std::collections::BTreeSet;

use eframe::egui::accesskit::Role;
use eframe::egui::{self, Key as K, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;

use super::payload::KeyRef;
use super::test_steps::{menu, step_until};
use super::tests::{app, harness};
use super::{AppState, TangentApp};
use crate::smooth::{smooth_track, Filter};
use crate::{Interpolation, Key, Project, Track, TrackKind};

/// A sine at 30 keys a second with ±0.05 jitter (deterministic) and a spike of 4 at key 30.
fn jittery() -> Track {
    let keys = (0..60).map(|i| {
        let t = f64::from(i) / 30.0;
        let jitter = 0.05 * if (i * 7) % 3 == 0 { 1.0 } else { -1.0 };
        let spike = if i == 30 { 4.0 } else { 0.0 };
        Key::new(t, vec![(3.0 * t).sin() + jitter + spike])
    });
    Track::new("jitter", TrackKind::Scalar, Interpolation::Linear).with_keys(keys.collect())
}

fn one_track(track: Track) -> Harness<'static, TangentApp> {
    let mut h = harness(Project { tracks: vec![track], ..Project::default() });
    h.state_mut().state.doc.active_track = Some(0);
    h.run();
    h
}

/// Key > Scale time…, opened from its menu; then frames until its preview (made on a worker,
/// a spinner meanwhile) is of factor `scale`.
fn open_scale_time(h: &mut Harness<'static, TangentApp>, scale: f64) {
    h.get_by_label("Key").click();
    h.run();
    h.get_all_by_label_contains("Scale time").find(|n| n.accesskit_node().role() == Role::Button).expect("the menu entry").click();
    set_scale(h, scale);
}

/// The Scale time factor set, then frames until the preview is of it.
fn set_scale(h: &mut Harness<'static, TangentApp>, scale: f64) {
    for _ in 0..10 {
        if h.query_by_role_and_label(Role::SpinButton, "scale time factor").is_some() {
            break;
        }
        h.step();
    }
    h.get_by_role_and_label(Role::SpinButton, "scale time factor").set_value_accesskit(scale);
    step_until(h, |h| app(h).ui.retime_preview.as_ref().is_some_and(|p| p.scale == scale));
    h.run();
}

fn type_into(h: &mut Harness<'static, TangentApp>, name: &str, v: f64) {
    h.get_by_role_and_label(Role::SpinButton, name).set_value_accesskit(v);
    let _ = h.try_run();
}

/// Edit > Smooth… on a jittery track: the window shows the difference the engine measured,
/// Apply replaces the keys with the engine's smoothed keys as one undo step that restores
/// them exactly, and the original stays as a ghost until View > Clear ghost.
#[test]
fn smooth_shows_the_measured_difference_applies_as_one_step_and_leaves_a_ghost() {
    let mut second = jittery();
    second.name = "jitter2".into();
    second.keys.iter_mut().for_each(|k| k.value[0] = 1.0 - 0.5 * k.value[0]);
    let originals = vec![jittery(), second];
    let filter = Filter::butterworth(6.0, 2).unwrap();
    let expected: Vec<_> = originals.iter().map(|t| smooth_track(t, &filter).unwrap()).collect();
    let mut h = harness(Project { tracks: originals.clone(), ..Project::default() });
    // A key of each track selected: Smooth acts on both tracks.
    h.state_mut().state.doc.selection = [KeyRef { track: 0, key: 3 }, KeyRef { track: 1, key: 5 }].into_iter().collect::<BTreeSet<_>>().into();
    h.run();
    menu(&mut h, "Edit", "Smooth");
    step_until(&mut h, |h| app(h).ui.smooth_preview.is_some());
    let _ = h.try_run();
    for e in &expected {
        h.get_by_label(&format!("{:.3e}", e.max_difference));
    }
    assert_eq!(h.get_all_by_label_contains("uniform at 30.000 Hz").count(), 2);
    assert!(app(&h).ui.ghost.is_none(), "no ghost before Apply");
    h.get_by_role_and_label(Role::Button, "Apply").click();
    h.run();
    h.run();
    let tracks: Vec<Track> = expected.iter().map(|e| e.track.clone()).collect();
    assert_eq!(app(&h).project().tracks, tracks, "the engine's smoothed keys");
    assert_ne!(app(&h).project().tracks[0].keys, originals[0].keys);
    assert_eq!(app(&h).doc.document.undo_label(), Some("Smooth"));
    assert!(app(&h).ui.status.text.starts_with("Smoothed 2 tracks: largest difference"), "{}", app(&h).ui.status.text);
    assert!(app(&h).ui.smooth_preview.is_none(), "the preview goes with the window");
    let ghost = app(&h).ui.ghost.clone().expect("the original as a ghost");
    assert_eq!(ghost.label, "Smooth");
    assert_eq!(ghost.tracks.iter().map(|t| t.0).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(ghost.tracks[0].1.times().len(), originals[0].keys.len(), "the ghost is the original curve");
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks, originals, "one undo restores both tracks' keys exactly");
    assert!(app(&h).ui.ghost.is_some(), "the ghost stays until dismissed");
    menu(&mut h, "View", "Clear ghost");
    assert!(app(&h).ui.ghost.is_none(), "dismissed");
}

/// A cutoff at the Nyquist rate of the keys is an error shown in the window with the valid
/// range, and nothing can be applied.
#[test]
fn a_cutoff_at_nyquist_is_shown_with_the_valid_range() {
    let mut h = one_track(jittery());
    menu(&mut h, "Edit", "Smooth");
    type_into(&mut h, "smooth cutoff", 15.0);
    step_until(&mut h, |h| app(h).ui.smooth_preview.as_ref().is_some_and(|p| p.filter == Filter::Butterworth { cutoff_hz: 15.0, order: 2 }));
    let _ = h.try_run();
    h.get_by_label_contains("must be below the Nyquist rate 15 Hz (half the keys' rate of 30 Hz)");
    assert!(h.get_by_role_and_label(Role::Button, "Apply").accesskit_node().is_disabled());
}

/// Key > Scale time… by 2 about the playhead: every key time moved to 1 + (t − 1)·2, one undo
/// step, the status saying the measured difference, the original left as a ghost.
#[test]
fn scale_time_by_two_about_the_playhead_is_one_undo_step() {
    let original = jittery();
    let mut h = one_track(original.clone());
    h.state_mut().state.scrub(1.0);
    open_scale_time(&mut h, 2.0);
    h.get_by_role_and_label(Role::Button, "Apply").click();
    h.run();
    let moved = &app(&h).project().tracks[0];
    for (new, old) in moved.keys.iter().zip(&original.keys) {
        assert!((new.time - (1.0 + (old.time - 1.0) * 2.0)).abs() < 1e-12, "{} -> {}", old.time, new.time);
        assert_eq!(new.value, old.value);
    }
    let status = &app(&h).ui.status.text;
    assert!(status.starts_with("Scaled 1 track in time by 2 about 1.000 s: largest difference measured"), "{status}");
    assert_eq!(app(&h).ui.ghost.as_ref().map(|g| g.label.as_str()), Some("Scale time"));
    assert_eq!(app(&h).doc.document.undo_label(), Some("Scale time"));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks[0], original, "one undo step");
}

/// A zero factor says the valid range and cannot be applied; a negative one mirrors.
#[test]
fn scale_time_refuses_zero_and_mirrors_with_a_negative_factor() {
    let original = jittery();
    let mut h = one_track(original.clone());
    h.state_mut().state.scrub(1.0);
    open_scale_time(&mut h, 2.0);
    type_into(&mut h, "scale time factor", 0.0);
    h.get_by_label_contains("the scale must be a finite number other than 0");
    assert!(h.get_by_role_and_label(Role::Button, "Apply").accesskit_node().is_disabled());
    set_scale(&mut h, -1.0);
    h.get_by_role_and_label(Role::Button, "Apply").click();
    h.run();
    let mirrored = &app(&h).project().tracks[0];
    let (first, last) = (&mirrored.keys[0], &original.keys[original.keys.len() - 1]);
    assert!((first.time - (2.0 - last.time)).abs() < 1e-12 && first.value == last.value, "the last key comes first, mirrored about 1 s");
}

/// Key > Scale time… previews before Apply: with S = −1 about the playhead, the graph has the
/// retimed curves over a ghost of the originals while the window is open, and the window lists
/// per track the difference `retime_track` measured ("°" for an Euler track) and its notes (a
/// Cubic ZeroSlope track mirrored is not exact; automatic handles written as Aligned); nothing
/// changes until Apply, and closing the window takes the preview away.
#[test]
fn scale_time_previews_the_measured_difference_before_apply() {
    let mut cubic = Track::new("cubic", TrackKind::Scalar, Interpolation::Cubic)
        .with_keys([(0.0, 0.0), (1.0, 3.0), (1.5, -1.0), (3.0, 2.0)].iter().map(|&(t, v)| Key::new(t, vec![v])).collect());
    cubic.ending_start = crate::model::Ending::ZeroSlope;
    let turn = Track::new("turn", TrackKind::Euler, Interpolation::Bezier)
        .with_keys((0..4).map(|i| Key::new(f64::from(i) * 0.5, vec![0.3 * f64::from(i), -0.2 * f64::from(i * i), 0.1])).collect());
    let originals = vec![cubic, turn];
    let mut h = harness(Project { tracks: originals.clone(), ..Project::default() });
    h.state_mut().state.doc.selection = [KeyRef { track: 0, key: 1 }, KeyRef { track: 1, key: 2 }].into_iter().collect::<BTreeSet<_>>().into();
    h.state_mut().state.scrub(1.0);
    h.run();
    open_scale_time(&mut h, -1.0);
    let expected: Vec<_> = originals.iter().map(|t| crate::retime::retime_track(t, -1.0, 1.0).unwrap()).collect();
    assert!(expected[0].max_difference > 1e-3, "the mirrored ZeroSlope moves: {}", expected[0].max_difference);
    h.get_by_label(&format!("{:.3e}", expected[0].max_difference));
    h.get_by_label(&format!("{:.3e}°", expected[1].max_difference));
    h.get_by_label_contains("not exact under this scale");
    h.get_by_label_contains("automatic handles written as Aligned");
    let preview = app(&h).ui.retime_preview.clone().unwrap();
    assert_eq!(preview.tracks.iter().map(|t| t.0).collect::<Vec<_>>(), [0, 1], "both tracks drawn over their ghosts");
    assert_eq!(preview.tracks[0].2.as_ref().unwrap().retimed.track, expected[0].track);
    assert_eq!(app(&h).project().tracks, originals, "nothing changes before Apply");
    h.get_by_role_and_label(Role::Button, "Cancel").click();
    h.run();
    h.run();
    assert!(app(&h).ui.retime_preview.is_none(), "the preview goes with the window");
    assert!(app(&h).ui.ghost.is_none());
}

/// The whole window rendered (wgpu): the graph with the smoothed preview over the ghost of the
/// original, and the Smooth window with the measured difference.
#[test]
fn smooth_window_snapshot() {
    let state = AppState::new(Project { tracks: vec![jittery()], ..Project::default() }, None);
    let mut h = Harness::builder().with_size(egui::vec2(1300.0, 820.0)).wgpu().build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp::new(state));
    h.run();
    h.state_mut().state.doc.active_track = Some(0);
    h.state_mut().state.ui.windows.open(super::Window::Smooth);
    step_until(&mut h, |h| app(h).ui.smooth_preview.is_some());
    h.run();
    h.snapshot("smooth_window");
}
