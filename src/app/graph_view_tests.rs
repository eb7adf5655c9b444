//! The graph's ways of reading curves, driven like a user: the stacked view (each curve in its
//! own lane, a drag moving values in the lane's units, one undo step), the name of the curve
//! under the pointer, and the time axis in frames.

use eframe::egui::{Key as K, Modifiers};
use egui_kittest::kittest::Queryable;

use super::tests::{app, drag, harness, plot_to_screen};
use crate::{Interpolation, Key, Project, Track, TrackKind};

/// `tests::two_tracks` ("a": keys 0, 1, 3, 2, 5 at t = 0..4 s; "b" = a + 4) at 30 fps.
fn two_tracks() -> Project {
    Project { fps: 30.0, ..super::tests::two_tracks() }
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

#[test]
fn an_edit_that_takes_a_curve_out_of_view_frames_the_view() {
    // x = 0°, 170°, −170°, −10°: the Euler filter makes the last two 190° and 350°, above the
    // view framed on ±170° (padded by 15% of 340°: up to 221°).
    let x = [0.0f64, 170.0, -170.0, -10.0];
    let track = Track::new("a", TrackKind::Euler, Interpolation::Linear)
        .with_keys(x.iter().enumerate().map(|(i, &x)| Key::new(i as f64, vec![x.to_radians(), 0.0, 0.0])).collect());
    let mut h = harness(Project { tracks: vec![track], ..Project::default() });
    let top = |h: &egui_kittest::Harness<'_, super::TangentApp>| h.state().panels.graph.transform.as_ref().unwrap().bounds().max()[1];
    assert!(top(&h) < 230.0, "framed on the keys as they are: top {}", top(&h));
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, K::F);
    for _ in 0..4 {
        h.run();
    }
    assert!(app(&h).ui.status.text.starts_with("Euler filter"), "{}", app(&h).ui.status.text);
    assert!(top(&h) >= 350.0, "the view follows the filtered curve without Home: top {}", top(&h));
}
