//! View > Problems and Edit > Fix jumps driven as a user drives them (egui_kittest), on a
//! take written by `tools/problem_takes.py` with a two-frame spike on LeftForeArm at frame
//! 100 and a lasting flip of Hips at frame 200: the list, a row that goes there, Fix spikes
//! as one undo step, Smooth's warning when its keys cross a jump, and Simplify bounded on
//! the body.

use egui_kittest::kittest::Queryable;

use super::test_steps::{menu, step_until};
use super::tests::{app, harness};
use crate::Project;

fn spiked() -> Project {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/problems/spiked.bvh");
    match crate::open::open_any(&path).unwrap() {
        crate::open::Opened::Imported(i) => i.project,
        crate::open::Opened::Project(p) => p,
    }
}

fn track(p: &Project, name: &str) -> usize {
    p.tracks.iter().position(|t| t.name == name).unwrap()
}

#[test]
fn the_problems_list_goes_there_and_fix_spikes_is_one_undo_step() {
    let project = spiked();
    let arm = track(&project, "LeftForeArm.rotation");
    let mut h = harness(project.clone());
    menu(&mut h, "View", "Problems");
    step_until(&mut h, |h| h.query_by_label_contains("2 jumps: 1 spike, 1 lasting flip").is_some());
    assert!(app(&h).ui.problems.as_ref().is_some_and(|f| f.jumps.len() == 2), "the graph has the jumps to mark");
    h.get_by_label_contains("jump LeftForeArm.rotation at 0.8333 s (frame 100)").click();
    // The window looks again after each change (its spinner asks for frames).
    let _ = h.try_run();
    let s = app(&h);
    assert!((s.ui.playhead - 0.8333).abs() < 1e-3, "the playhead went there: {}", s.ui.playhead);
    assert_eq!(s.doc.active_track, Some(arm));
    let keys: Vec<usize> = s.doc.selection.iter().map(|k| k.key).collect();
    assert_eq!(keys, vec![99, 100, 101, 102], "the key before, the spike, the key it comes back on");
    // Fix spikes: the arm's spike replaced, the flip left, one undo step.
    h.get_by_label("Fix spikes").click();
    // The window looks again after each change (its spinner asks for frames).
    let _ = h.try_run();
    let s = app(&h);
    assert!(
        s.ui.status.text.starts_with("Fix jumps: 1 spike replaced by the interpolation across (2 keys); 1 lasting flip left as it is"),
        "{}",
        s.ui.status.text
    );
    assert!(s.ui.status.text.contains("Body: largest joint displacement"), "{}", s.ui.status.text);
    assert_ne!(s.project().tracks[arm].keys[100], project.tracks[arm].keys[100]);
    assert_eq!(s.project().tracks[arm].keys[90], project.tracks[arm].keys[90]);
    step_until(&mut h, |h| h.query_by_label_contains("1 jump: 0 spikes, 1 lasting flip").is_some());
    h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::Z);
    // The window looks again after each change (its spinner asks for frames).
    let _ = h.try_run();
    assert_eq!(app(&h).project(), &project, "one undo puts every key back");
}

#[test]
fn smooth_warns_when_its_keys_cross_a_jump() {
    let project = spiked();
    let arm = track(&project, "LeftForeArm.rotation");
    let mut h = harness(project);
    h.state_mut().state.doc.active_track = Some(arm);
    menu(&mut h, "Edit", "Smooth…");
    step_until(&mut h, |h| h.query_by_label_contains("the keys cross a jump: jump LeftForeArm.rotation at 0.8333 s (frame 100)").is_some());
    assert!(h.query_by_label_contains("Edit > Fix jumps (tangent filter --jumps) first").is_some());
}

/// Simplify's "Bound on the body": every joint track reduced, the body within E (the
/// reduced take measured again here), Apply one undo step.
#[test]
fn simplify_bounded_on_the_body() {
    let project = spiked();
    let size = crate::body::Rig::new(&project).unwrap().size();
    let mut h = harness(project.clone());
    menu(&mut h, "Key", "Simplify…");
    h.get_by_label("Bound on the body").click();
    let _ = h.try_run();
    step_until(&mut h, |h| h.query_by_label_contains("keys of the skeleton's tracks, within").is_some());
    assert!(h.query_by_label_contains("Body: largest joint displacement").is_some());
    let _ = h.try_run();
    h.get_by_label("Apply").click();
    let _ = h.try_run();
    let after = app(&h).project().clone();
    let keys = |p: &Project| p.tracks.iter().map(|t| t.keys.len()).sum::<usize>();
    assert!(keys(&after) < keys(&project) / 3, "{} -> {} keys; {}", keys(&project), keys(&after), app(&h).ui.status.text);
    let d = crate::body::project_difference(&project, &after).unwrap().unwrap();
    assert!(d.distance <= 1e-3 * size * (1.0 + 1e-9), "{d}");
}

/// The Euler filter on a take whose Spine angles wrap at ±180°: the status says how far the
/// body moved (between keys only: every key keeps its rotation).
#[test]
fn the_euler_filter_says_how_far_the_body_moved() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/problems/wrap.bvh");
    let crate::open::Opened::Imported(take) = crate::open::open_any(&path).unwrap() else { panic!("a BVH take") };
    let spine = track(&take.project, "Spine.rotation");
    let mut h = harness(take.project);
    h.state_mut().state.doc.active_track = Some(spine);
    menu(&mut h, "Edit", "Euler filter");
    let text = app(&h).ui.status.text.clone();
    assert!(text.contains("Body: largest joint displacement") && text.contains("% of the skeleton's size)"), "{text}");
}

/// Key > Insert time on a take: the status says how far the body moved (everything after the
/// playhead now plays later).
#[test]
fn insert_time_says_how_far_the_body_moved() {
    let mut state = super::AppState::new(spiked(), None);
    let asked = crate::app::tools::time_edit::Asked { amount: 0.25, at: 1.0, which: "every track" };
    let made = crate::app::tool::made_now::<crate::app::tools::time_edit::InsertTime>(&state.doc, asked);
    let status = made.0.apply(&mut state.doc);
    assert!(status.text.starts_with("Inserted 0.25 s at 1.000 s") && status.text.contains(". Body: largest joint displacement"), "{}", status.text);
}

/// Convert to Bézier on a take's joint track: the status says how far the body moved.
#[test]
fn convert_to_bezier_says_how_far_the_body_moved() {
    let project = spiked();
    let arm = track(&project, "LeftForeArm.rotation");
    let mut state = super::AppState::new(project, None);
    state.doc.active_track = Some(arm);
    let made = crate::app::tool::made_now::<crate::app::tools::convert_bezier::ConvertToBezier>(&state.doc, 1e-4);
    let status = made.0.apply(&mut state.doc);
    assert!(status.text.starts_with("Converted 1 track to Bézier keys") && status.text.contains(". Body: largest joint displacement"), "{}", status.text);
}

/// The Euler filter made on a worker (a take above the background threshold) says how far
/// the body moved too, measured there with the keys it compiled.
#[test]
fn the_euler_filter_on_a_worker_says_how_far_the_body_moved() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/problems/wrap.bvh");
    let crate::open::Opened::Imported(take) = crate::open::open_any(&path).unwrap() else { panic!("a BVH take") };
    let spine = track(&take.project, "Spine.rotation");
    let mut h = harness(take.project);
    h.state_mut().state.doc.active_track = Some(spine);
    h.state_mut().state.ui.key_queue.background_keys = 1;
    menu(&mut h, "Edit", "Euler filter");
    step_until(&mut h, |h| app(h).ui.status.text.contains("Body: largest joint displacement"));
    assert!(app(&h).ui.status.text.contains("% of the skeleton's size)"), "{}", app(&h).ui.status.text);
}
