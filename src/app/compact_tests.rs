//! A motion-capture take stays held as columns in the editor ([`crate::Keys`]): opening it,
//! the graph, the dope sheet, the pose view, playing, selecting every key and an edit with its
//! undo read no track's keys whole (which would cost a full key per key beside the columns).

use eframe::egui::{Key as K, Modifiers};
use egui_kittest::kittest::Queryable;

use super::tests::{app, harness};
use crate::Project;

fn take() -> Project {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/body/hand_cmu.bvh");
    match crate::open::open_any(&path).unwrap() {
        crate::open::Opened::Imported(i) => i.project,
        crate::open::Opened::Project(p) => p,
    }
}

/// The tracks whose keys are full keys or were read whole.
fn read_whole(p: &Project) -> Vec<String> {
    p.tracks.iter().filter(|t| t.keys.is_read_whole()).map(|t| t.name.clone()).collect()
}

#[test]
fn a_take_is_never_read_whole_by_the_views() {
    let project = take();
    let n = project.tracks.len();
    assert!(n > 5, "{n} tracks");
    assert_eq!(read_whole(&project), Vec::<String>::new(), "imported as columns");
    let mut h = harness(project);
    for _ in 0..3 {
        h.run();
    }
    assert_eq!(read_whole(app(&h).project()), Vec::<String>::new(), "the graph");
    // The pointer across the graph: hover hit-tests the keys near it.
    for x in (300..1100).step_by(40) {
        h.input_mut().events.push(eframe::egui::Event::PointerMoved(eframe::egui::pos2(x as f32, 380.0)));
        h.run();
    }
    assert_eq!(read_whole(app(&h).project()), Vec::<String>::new(), "hovering the graph");
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    assert_eq!(read_whole(app(&h).project()), Vec::<String>::new(), "every key selected");
    for tab in ["Dope sheet", "Pose", "Graph"] {
        h.get_by_label(tab).click();
        for _ in 0..3 {
            h.run();
        }
        assert_eq!(read_whole(app(&h).project()), Vec::<String>::new(), "{tab}");
    }
    // Frame selected (every key), then a time drag of every key in the dope sheet's summary row
    // (one undo step).
    h.key_press(K::Period);
    h.run();
    assert_eq!(read_whole(app(&h).project()), Vec::<String>::new(), "framing the selection");
    let before_drag = app(&h).project().clone();
    h.get_by_label("Dope sheet").click();
    h.run();
    h.run();
    let at = |h: &egui_kittest::Harness<'_, super::TangentApp>, t: f64| {
        h.state().panels.dope.transform.as_ref().expect("the dope sheet was drawn").position_from_point(&egui_plot::PlotPoint::new(t, 0.0))
    };
    let (from, to) = (at(&h, 0.0), at(&h, 0.1));
    super::tests::drag(&mut h, from, to);
    for _ in 0..50 {
        let _ = h.try_run();
        if app(&h).project() != &before_drag {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_ne!(app(&h).project(), &before_drag, "the drag moved the keys: {}", app(&h).ui.status.text);
    assert_eq!(read_whole(app(&h).project()), Vec::<String>::new(), "a drag of every key");
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &before_drag, "the drag was one undo step");
    h.get_by_label("Graph").click();
    h.run();
    h.key_press(K::Space);
    for _ in 0..5 {
        let _ = h.try_run();
    }
    h.key_press(K::Space);
    h.run();
    assert_eq!(read_whole(app(&h).project()), Vec::<String>::new(), "playing");
    // Every key selected: the Euler filter changes what it changes, and every track is
    // columns again after the edit and after its undo.
    let before = app(&h).project().clone();
    // As a big take's edits are made: on a worker.
    h.state_mut().state.ui.key_queue.background_keys = 1;
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    super::test_steps::menu(&mut h, "Edit", "Euler filter");
    for _ in 0..100 {
        let _ = h.try_run();
        if app(&h).ui.status.text.starts_with("Euler filter") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(app(&h).ui.status.text.starts_with("Euler filter"), "{}", app(&h).ui.status.text);
    assert_eq!(read_whole(app(&h).project()), Vec::<String>::new(), "after the Euler filter");
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &before, "undone");
    assert_eq!(read_whole(app(&h).project()), Vec::<String>::new(), "after its undo");
}
