//! The graph's ways of reading curves, driven like a user: the stacked view (each curve in its
//! own lane, a drag moving values in the lane's units, one undo step), the name of the curve
//! under the pointer, and the time axis in frames.

use eframe::egui::{Key as K, Modifiers};
use egui_kittest::kittest::Queryable;

use super::tests::{app, drag, harness, plot_to_screen};
use crate::{Interpolation, Key, Project, Track, TrackKind};

/// Two scalar tracks, "a" (keys 0, 1, 3, 2, 5 at t = 0..4) and "b" (= a + 4).
fn two_tracks() -> Project {
    let track = |name: &str, base: f64| {
        Track::new(name, TrackKind::Scalar, Interpolation::Tcb)
            .with_keys([0.0, 1.0, 3.0, 2.0, 5.0].iter().enumerate().map(|(i, v)| Key::new(i as f64, vec![base + v])).collect())
    };
    Project { tracks: vec![track("a", 0.0), track("b", 4.0)], fps: 30.0, ..Project::default() }
}

#[test]
fn stacked_view_drag_moves_a_value_in_its_lanes_units_as_one_undo_step() {
    let mut h = harness(two_tracks());
    h.key_press_modifiers(Modifiers::SHIFT, K::N);
    h.run();
    h.run();
    assert!(app(&h).view.stacked, "Shift+N stacks the curves");
    let before = app(&h).project().clone();
    // By hand: lane 1 (track "b", keys 4..9) is centred at −2 and spans ±0.85 for its range of
    // 5, so a value v is drawn at (v − 6.5)·0.34 − 2: key 2 (7) at −1.83, and 6 at −2.17.
    let from = plot_to_screen(&h, 2.0, -1.83);
    let to = plot_to_screen(&h, 2.0, -2.17);
    drag(&mut h, from, to);
    let k = &app(&h).project().tracks[1].keys[2];
    assert!((k.value[0] - 6.0).abs() < 0.05 && (k.time - 2.0).abs() < 0.02, "moved to t = {} s, v = {}", k.time, k.value[0]);
    assert_eq!(app(&h).project().tracks[0], before.tracks[0], "lane 0's track is untouched");
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &before, "the drag was one undo step");
}

#[test]
fn hovering_a_curve_names_it_with_its_value_and_unit() {
    let mut h = harness(two_tracks());
    // On track "b" at its key at t = 1 s (value 5).
    h.hover_at(plot_to_screen(&h, 1.0, 5.0));
    h.run();
    h.run();
    let hover = h.state().panels.graph.curve_hover.expect("a curve is under the pointer");
    assert_eq!(hover.track, 1);
    assert!((hover.value - 5.0).abs() < 0.1, "{}", hover.value);
    let label = h.get_by_label_contains("b = ");
    let text = format!("{label:?}");
    assert!(text.contains("file units") && text.contains(" s (frame 30"), "{text}");
    // Far from both curves: nothing is named.
    h.hover_at(plot_to_screen(&h, 1.0, 20.0));
    h.run();
    h.run();
    assert!(h.state().panels.graph.curve_hover.is_none());
    assert!(h.query_by_label_contains("b = ").is_none());
}

#[test]
fn ctrl_t_counts_the_time_axis_in_frames() {
    let mut h = harness(two_tracks());
    assert!(!app(&h).view.frame_axis);
    h.key_press_modifiers(Modifiers::COMMAND, K::T);
    h.run();
    assert!(app(&h).view.frame_axis, "Ctrl+T: frames (the marks: time_axis.rs' tests)");
    h.key_press_modifiers(Modifiers::COMMAND, K::T);
    h.run();
    assert!(!app(&h).view.frame_axis, "and back to seconds");
}
