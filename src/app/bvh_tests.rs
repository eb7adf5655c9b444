//! A motion-capture take in the editor, driven as a user drives it (egui_kittest): a BVH file
//! dropped on the window opens in the Import window and comes in as a new project whose joints
//! are the body's tree in the track list (`Hips (8/8 shown)` holding its branch), with its skeleton, and the
//! rotation tracks shown in degrees.

use egui_kittest::kittest::{By, Queryable};

use super::tests::{app, harness, Dropped};
use crate::TrackKind;

fn sample() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import-samples/bvh/sample_xzy.bvh")
}

#[test]
fn a_dropped_bvh_opens_its_joints_as_grouped_tracks() {
    let mut h = harness(crate::io::demo_project());
    h.input_mut().dropped_files.push(std::sync::Arc::new(Dropped(sample())));
    h.run();
    assert!(app(&h).ui.windows.is_open(crate::app::Window::Import), "the drop opens the Import window");
    h.get_by_label("Import").click();
    for _ in 0..300 {
        h.step();
        if app(&h).project().skeleton.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    h.run();
    let p = app(&h).project().clone();
    let names: Vec<&str> = p.tracks.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["Hips.translation", "Hips.rotation", "Spine.translation", "Spine.rotation", "Neck.translation", "Neck.rotation", "Head.translation", "Head.rotation"],
        "{}",
        app(&h).ui.status.text
    );
    assert_eq!(p.tracks[1].kind, TrackKind::Euler);
    assert_eq!(p.skeleton.as_ref().map(|s| s.joints.len()), Some(4));
    assert!(app(&h).ui.status.text.contains("sample_xzy.bvh (BVH): 8 tracks"), "{}", app(&h).ui.status.text);
    // One row per joint in the track list, nested as the body's tree: each holds its branch
    // (its two tracks and every joint's below it).
    for (joint, branch) in [("Hips", 8), ("Spine", 6), ("Neck", 4), ("Head", 2)] {
        let label = format!(" {joint} ({branch}/{branch} shown)");
        assert_eq!(h.query_all(By::new().label_contains(&label)).count(), 1, "{joint}");
    }
}
