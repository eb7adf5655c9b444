//! Edit > Smooth…, Key > Scale time… and the ghost they leave, driven through the menus and
//! shortcuts as a user drives them (egui_kittest) — whole tracks, and a selection of keys
//! (only those change) — and a snapshot of the graph with the ghost and the Smooth window.

use std::collections::BTreeSet;

use eframe::egui::accesskit::Role;
use eframe::egui::{self, Key as K, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;

use super::key_change::KeyRef;
use super::test_steps::{menu, step_until};
use super::tests::{app, harness};
use super::tool::{id, window};
use super::tools::scale_time::ScaleTime;
use super::tools::smooth::Smooth;
use super::{AppState, TangentApp};
use crate::smooth::{smooth_keys, smooth_track, Filter};
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
    step_until(h, |h| app(h).ui.previews.of::<ScaleTime>().is_some_and(|p| p.asked.0 == scale));
    h.run();
}

fn type_into(h: &mut Harness<'static, TangentApp>, name: &str, v: f64) {
    h.get_by_role_and_label(Role::SpinButton, name).set_value_accesskit(v);
    let _ = h.try_run();
}

/// Edit > Smooth… on two jittery tracks with every key selected (Ctrl+A): the window shows the
/// difference the engine measured, Apply replaces the keys with the engine's smoothed keys
/// (every key selected: the whole tracks' filtered values) as one undo step that restores them
/// exactly, and the original stays as a ghost until View > Clear ghost.
#[test]
fn smooth_shows_the_measured_difference_applies_as_one_step_and_leaves_a_ghost() {
    let mut second = jittery();
    second.name = "jitter2".into();
    second.keys.iter_mut().for_each(|k| k.value[0] = 1.0 - 0.5 * k.value[0]);
    let originals = vec![jittery(), second];
    let filter = Filter::butterworth(6.0, 2).unwrap();
    let expected: Vec<_> = originals.iter().map(|t| smooth_track(t, &filter).unwrap()).collect();
    let mut h = harness(Project { tracks: originals.clone(), ..Project::default() });
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    assert_eq!(app(&h).doc.selection.len(), 120);
    menu(&mut h, "Edit", "Smooth");
    step_until(&mut h, |h| app(h).ui.previews.of::<Smooth>().is_some());
    let _ = h.try_run();
    for e in &expected {
        h.get_by_label(&format!("{:.3e} file units", e.max_difference));
    }
    assert_eq!(h.get_all_by_label_contains("60 of 60 (uniform at 30.000 Hz)").count(), 2);
    h.get_by_label("Changes 120 selected keys on 2 tracks; the other keys keep their values.");
    assert!(app(&h).ui.ghost.is_none(), "no ghost before Apply");
    h.get_by_role_and_label(Role::Button, "Apply").click();
    h.run();
    h.run();
    let tracks: Vec<Track> = expected.iter().map(|e| e.track.clone()).collect();
    assert_eq!(app(&h).project().tracks, tracks, "the engine's smoothed keys");
    assert_ne!(app(&h).project().tracks[0].keys, originals[0].keys);
    assert_eq!(app(&h).doc.document.undo_label(), Some("Smooth"));
    let worst = expected.iter().map(|e| e.max_difference).fold(0.0, f64::max);
    let status = format!("Smoothed 120 selected keys on 2 tracks: largest difference {worst:.3e} file units");
    assert_eq!(app(&h).ui.status.text, status, "the figure with its unit");
    assert!(app(&h).ui.previews.of::<Smooth>().is_none(), "the preview goes with the window");
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
    step_until(&mut h, |h| app(h).ui.previews.of::<Smooth>().is_some_and(|p| p.asked == Filter::Butterworth { cutoff_hz: 15.0, order: 2 }));
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

/// Key > Scale time… previews before Apply: with every key of two tracks selected and S = −1
/// about the playhead, the graph has the retimed curves over a ghost of the originals while
/// the window is open, and the window lists per track the difference `retime_track` measured
/// ("°" for an Euler track) and its notes (a Cubic ZeroSlope track mirrored is not exact;
/// automatic handles written as Aligned); nothing changes until Apply, and closing the window
/// takes the preview away.
#[test]
fn scale_time_previews_the_measured_difference_before_apply() {
    let mut cubic = Track::new("cubic", TrackKind::Scalar, Interpolation::Cubic)
        .with_keys([(0.0, 0.0), (1.0, 3.0), (1.5, -1.0), (3.0, 2.0)].iter().map(|&(t, v)| Key::new(t, vec![v])).collect());
    cubic.ending_start = crate::model::Ending::ZeroSlope;
    let turn = Track::new("turn", TrackKind::Euler, Interpolation::Bezier)
        .with_keys((0..4).map(|i| Key::new(f64::from(i) * 0.5, vec![0.3 * f64::from(i), -0.2 * f64::from(i * i), 0.1])).collect());
    let originals = vec![cubic, turn];
    let mut h = harness(Project { tracks: originals.clone(), ..Project::default() });
    // Every key of both tracks selected: both retimed whole.
    h.state_mut().state.doc.select_all();
    h.state_mut().state.scrub(1.0);
    h.run();
    open_scale_time(&mut h, -1.0);
    let expected: Vec<_> = originals.iter().map(|t| crate::retime::retime_track(t, -1.0, 1.0).unwrap()).collect();
    assert!(expected[0].max_difference > 1e-3, "the mirrored ZeroSlope moves: {}", expected[0].max_difference);
    h.get_by_label(&format!("{:.3e} file units", expected[0].max_difference));
    h.get_by_label(&format!("{:.3e} deg", expected[1].max_difference));
    h.get_by_label_contains("not exact under this scale");
    h.get_by_label_contains("automatic handles written as Aligned");
    let made = app(&h).ui.previews.get(id::<ScaleTime>()).cloned().unwrap();
    let preview = made.of::<ScaleTime>().unwrap();
    assert_eq!(preview.tracks.iter().map(|t| t.index).collect::<Vec<_>>(), [0, 1], "both tracks drawn over their ghosts");
    assert_eq!(preview.tracks[0].result.as_ref().unwrap().report.retimed.track, expected[0].track);
    assert_eq!(app(&h).project().tracks, originals, "nothing changes before Apply");
    h.get_by_role_and_label(Role::Button, "Cancel").click();
    h.run();
    h.run();
    assert!(app(&h).ui.previews.of::<ScaleTime>().is_none(), "the preview goes with the window");
    assert!(app(&h).ui.ghost.is_none());
}

/// `n` Bézier keys a quarter second apart (times exact in binary, so a scale about a key's time
/// lands exactly where it is computed to).
fn quarters(n: usize) -> Track {
    let keys = (0..n).map(|i| Key::new(i as f64 * 0.25, vec![(i as f64 * 0.7).sin() * 2.0])).collect();
    Track::new("quarters", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys)
}

/// Keys `keys` of track 0 selected (as a box drag selects them), then a frame.
fn select(h: &mut Harness<'static, TangentApp>, keys: &[usize]) {
    h.state_mut().state.doc.selection = keys.iter().map(|&key| KeyRef { track: 0, key }).collect::<BTreeSet<_>>().into();
    h.run();
}

fn apply_enabled(h: &Harness<'static, TangentApp>) -> bool {
    !h.get_by_role_and_label(Role::Button, "Apply").accesskit_node().is_disabled()
}

/// Key > Scale time… opened with Blender's `S` on keys 8–11 of 24 (a quarter second apart), by
/// 1.25 about the playhead at key 9: only those keys move, each to 2.25 + (t − 2.25)·1.25 with
/// its value; every other key is exactly as it was. Before Apply the window says how many keys
/// of how many tracks it scales and the difference `retime_keys` measured (over the curve,
/// against the original at the same times), and the graph's preview is the engine's track;
/// Apply is one undo step that keeps the selection on the same keys and leaves the ghost; one
/// Ctrl+Z restores every key.
#[test]
fn scale_time_of_selected_keys_about_the_playhead_leaves_the_others() {
    let original = quarters(24);
    let mut h = one_track(original.clone());
    let selected = [8, 9, 10, 11];
    select(&mut h, &selected);
    h.state_mut().state.scrub(2.25);
    h.run();
    h.key_press(K::S);
    let _ = h.try_run();
    assert!(app(&h).ui.windows.is_open(window::<ScaleTime>()), "S opens Scale time, as in Blender");
    set_scale(&mut h, 1.25);
    let expected = crate::retime::retime_keys(&original, &selected, 1.25, 2.25).unwrap();
    assert!(expected.max_difference > 0.01);
    h.get_by_label("Scales 4 selected keys on 1 track.");
    h.get_by_label(&format!("{:.3e} file units", expected.max_difference));
    h.get_by_label("4 of 24 keys scaled; measured against the original at the same times");
    let made = app(&h).ui.previews.get(id::<ScaleTime>()).cloned().unwrap();
    let preview = made.of::<ScaleTime>().unwrap();
    assert_eq!(preview.tracks[0].result.as_ref().unwrap().report.retimed.track, expected.track, "the graph draws the engine's keys over the ghost");
    assert_eq!(app(&h).project().tracks[0], original, "nothing changes before Apply");
    h.get_by_role_and_label(Role::Button, "Apply").click();
    h.run();
    let moved = &app(&h).project().tracks[0];
    assert_eq!(*moved, expected.track);
    for (i, (new, old)) in moved.keys.iter().zip(&original.keys).enumerate() {
        if selected.contains(&i) {
            assert_eq!((new.time, &new.value), (2.25 + (old.time - 2.25) * 1.25, &old.value), "selected key {i}");
        } else {
            assert_eq!(new, old, "unselected key {i} stays");
        }
    }
    let status = &app(&h).ui.status.text;
    assert!(status.starts_with("Scaled 4 selected keys on 1 track in time by 1.25 about 2.250 s: largest difference measured"), "{status}");
    assert_eq!(app(&h).doc.selection.iter().map(|k| k.key).collect::<Vec<_>>(), selected, "the selection stays on its keys");
    assert_eq!(app(&h).doc.document.undo_label(), Some("Scale time"));
    assert_eq!(app(&h).ui.ghost.as_ref().map(|g| g.label.as_str()), Some("Scale time"));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks[0], original, "one undo restores every key");
}

/// Keys 8 and 9 selected, the pivot at key 8 (2 s): by 3, key 9 (2.25 s) would pass the
/// unselected key 10 (2.5 s); by 2 it would land on it. The window says which track and which
/// keys, in red, and Apply is off (Blender would merge the keys; nothing is lost here); by 1.5
/// key 9 stays before key 10, and Apply works.
#[test]
fn scale_time_refuses_a_key_landing_on_or_passing_an_unselected_one() {
    let original = quarters(24);
    let mut h = one_track(original.clone());
    select(&mut h, &[8, 9]);
    h.state_mut().state.scrub(2.0);
    h.run();
    open_scale_time(&mut h, 3.0);
    h.get_by_label("Cannot apply: track \"quarters\": key 9 at 2.250 s would move to 2.750 s, past unselected key 10 at 2.500 s (Blender would merge them; Tangent keeps every key): select that key too, or change S or the pivot");
    assert!(!apply_enabled(&h));
    set_scale(&mut h, 2.0);
    h.get_by_label_contains("Cannot apply: track \"quarters\": key 9 at 2.250 s would move to 2.500 s, onto unselected key 10 at 2.500 s");
    assert!(!apply_enabled(&h));
    assert_eq!(app(&h).project().tracks[0], original, "nothing changed");
    set_scale(&mut h, 1.5);
    assert!(h.query_by_label_contains("Cannot apply").is_none());
    assert!(apply_enabled(&h));
    h.get_by_role_and_label(Role::Button, "Apply").click();
    h.run();
    assert_eq!(app(&h).project().tracks[0].keys.time(9), 2.375);
}

/// Edit > Smooth… (Alt+O) with keys 25–35 of a jittery take selected, the spike (key 30) among
/// them: the window says 11 selected keys of 1 track change, with the difference `smooth_keys`
/// measured; Apply gives exactly those keys the engine's values (the whole track filtered, read
/// at them), every other key keeps its value exactly, the selection stays, and one Ctrl+Z
/// restores the track.
#[test]
fn smoothing_a_key_selection_changes_only_those_keys() {
    let original = jittery();
    let mut h = one_track(original.clone());
    let selected: Vec<usize> = (25..=35).collect();
    select(&mut h, &selected);
    h.key_press_modifiers(Modifiers::ALT, K::O);
    let _ = h.try_run();
    step_until(&mut h, |h| app(h).ui.previews.of::<Smooth>().is_some());
    let _ = h.try_run();
    let expected = smooth_keys(&original, &selected, &Filter::butterworth(6.0, 2).unwrap()).unwrap();
    h.get_by_label("Changes 11 selected keys on 1 track; the other keys keep their values.");
    h.get_by_label(&format!("{:.3e} file units", expected.max_difference));
    h.get_by_label("11 of 60 (uniform at 30.000 Hz)");
    h.get_by_role_and_label(Role::Button, "Apply").click();
    h.run();
    h.run();
    let smoothed = &app(&h).project().tracks[0];
    assert_eq!(*smoothed, expected.track, "the engine's keys");
    for (i, (new, old)) in smoothed.keys.iter().zip(&original.keys).enumerate() {
        if selected.contains(&i) {
            assert_ne!(new.value, old.value, "selected key {i} smoothed");
        } else {
            assert_eq!(new, old, "unselected key {i} keeps its value");
        }
    }
    assert!(smoothed.keys.value(30)[0] < 2.0, "the spike smoothed: {}", smoothed.keys.value(30)[0]);
    assert!(app(&h).ui.status.text.starts_with("Smoothed 11 selected keys on 1 track: largest difference"), "{}", app(&h).ui.status.text);
    assert_eq!(app(&h).doc.selection.iter().map(|k| k.key).collect::<Vec<_>>(), selected, "the selection stays");
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks[0], original, "one undo step");
}

/// The whole window rendered (wgpu): the graph with the smoothed preview over the ghost of the
/// original, and the Smooth window with the measured difference.
#[test]
fn smooth_window_snapshot() {
    let state = AppState::new(Project { tracks: vec![jittery()], ..Project::default() }, None);
    let mut h = Harness::builder().with_size(egui::vec2(1300.0, 820.0)).wgpu().build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp::new(state));
    h.run();
    h.state_mut().state.doc.active_track = Some(0);
    h.state_mut().state.ui.windows.open(window::<Smooth>());
    step_until(&mut h, |h| app(h).ui.previews.of::<Smooth>().is_some());
    h.run();
    h.snapshot("smooth_window");
}

/// Escape closes a tool's window (the one frame every tool has): Smooth opened from its menu,
/// previewed, then Escape — the window and its preview are gone and nothing changed.
#[test]
fn escape_closes_a_tool_window_and_its_preview() {
    let mut h = one_track(jittery());
    let before = app(&h).project().clone();
    menu(&mut h, "Edit", "Smooth");
    step_until(&mut h, |h| app(h).ui.previews.of::<Smooth>().is_some());
    assert!(app(&h).ui.windows.is_open(window::<Smooth>()));
    h.key_press(K::Escape);
    let _ = h.try_run();
    assert!(!app(&h).ui.windows.is_open(window::<Smooth>()), "Escape closed the window");
    assert!(app(&h).ui.previews.of::<Smooth>().is_none(), "the preview goes with the window");
    assert_eq!(app(&h).project(), &before, "nothing changed");
}
