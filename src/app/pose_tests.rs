//! The pose view driven as a user drives it (egui_kittest): the Pose tab on a BVH take, a
//! click on a joint's dot (its tracks become the shown and active ones), Shift-click to add,
//! a drag that turns the camera without changing the selection, Home; and a project without a
//! skeleton says so instead of drawing nothing.

use std::collections::BTreeSet;

use eframe::egui::{Modifiers, Pos2};
use egui_kittest::kittest::Queryable;

use super::tests::{app, click_at, drag, harness};
use crate::Project;

fn hand_take() -> Project {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/body/hand_cmu.bvh");
    match crate::open::open_any(&path).unwrap() {
        crate::open::Opened::Imported(i) => i.project,
        crate::open::Opened::Project(p) => p,
    }
}

fn joint(p: &Project, name: &str) -> usize {
    p.skeleton.as_ref().unwrap().joint(name).unwrap()
}

fn track(p: &Project, name: &str) -> usize {
    p.tracks.iter().position(|t| t.name == name).unwrap()
}

/// Where the pose view drew the point called `name`.
fn drawn(h: &egui_kittest::Harness<'_, super::TangentApp>, name: &str) -> Pos2 {
    let rig = crate::body::Rig::new(app(h).project()).unwrap();
    let i = rig.points().iter().position(|p| p.name == name).unwrap();
    h.state().panels.pose.drawn[i]
}

#[test]
fn clicking_a_joint_shows_its_tracks_and_shift_click_adds() {
    let project = hand_take();
    let (foot, head) = (joint(&project, "LeftFoot"), joint(&project, "Head"));
    let mut h = harness(project);
    h.get_by_label("Pose").click();
    h.run();
    h.run();
    assert_eq!(h.state().panels.pose.drawn.len(), 13, "10 joints and 3 end sites drawn");
    let p = drawn(&h, "LeftFoot");
    click_at(&mut h, p, Modifiers::NONE);
    let s = app(&h);
    assert_eq!(s.ui.joints.joints, BTreeSet::from([foot]), "{}", s.ui.status.text);
    let rotation = track(s.project(), "LeftFoot.rotation");
    assert_eq!(s.doc.active_track, Some(rotation));
    assert_eq!(s.ui.joints.tracks, vec![rotation]);
    assert!(s.ui.status.text.contains("1 joint selected"), "{}", s.ui.status.text);
    // Hovering names the joint.
    assert_eq!(h.state().panels.pose.hovered.map(|i| crate::body::Rig::new(app(&h).project()).unwrap().points()[i].name.clone()), Some("LeftFoot".to_owned()));
    // Shift-click adds the head; its tracks are shown too, and it becomes active.
    let q = drawn(&h, "Head");
    click_at(&mut h, q, Modifiers::SHIFT);
    let s = app(&h);
    assert_eq!(s.ui.joints.joints, BTreeSet::from([foot, head]));
    assert_eq!(s.doc.active_track, Some(track(s.project(), "Head.rotation")));
    // A drag in empty space turns the camera and keeps the selection.
    let yaw = h.state().panels.pose.camera.yaw;
    let from = Pos2::new(q.x + 200.0, q.y + 120.0);
    drag(&mut h, from, from + eframe::egui::vec2(80.0, 0.0));
    assert!((h.state().panels.pose.camera.yaw - yaw).abs() > 0.3, "the drag turned the camera");
    assert_eq!(app(&h).ui.joints.joints.len(), 2);
    // A click on nothing clears the selection.
    click_at(&mut h, from, Modifiers::NONE);
    assert!(app(&h).ui.joints.joints.is_empty());
}

#[test]
fn a_project_without_a_skeleton_says_so() {
    let mut h = harness(crate::io::demo_project());
    h.get_by_label("Pose").click();
    h.run();
    assert!(h.query_by_label_contains("No body to show").is_some(), "the view says why it is empty");
}
