//! The window driven like a user drives it (egui_kittest): clicks on the real panels, and a
//! real render (wgpu, software Vulkan/GL in CI) checked for the curves' colours.

use eframe::egui;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use tangent::io::demo_project;

use super::style::track_color;
use super::{AppState, TangentApp};

fn harness(state: AppState) -> Harness<'static, TangentApp> {
    Harness::builder()
        .with_size(egui::vec2(1200.0, 760.0))
        .build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp { state })
}

fn track_index(app: &TangentApp, name: &str) -> usize {
    app.state
        .project
        .tracks
        .iter()
        .position(|t| t.name == name)
        .unwrap()
}

#[test]
fn clicking_a_track_shows_and_hides_it() {
    let mut h = harness(AppState::new(demo_project(), None));
    h.run();
    let camera = track_index(h.state(), "camera");
    assert!(!h.state().state.project.tracks[camera].visible);
    h.get_by_label("camera").click();
    h.run();
    assert!(h.state().state.project.tracks[camera].visible);
    h.get_by_label("camera").click();
    h.run();
    assert!(!h.state().state.project.tracks[camera].visible);
}

#[test]
fn opening_a_bad_file_by_typed_path_keeps_the_document_and_shows_the_error() {
    let dir = std::env::temp_dir().join(format!("tangent-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(
        &bad,
        "(version: 1, tracks: [(name: \"x\", kind: Vec2, interpolation: Slerp, keys: [])])",
    )
    .unwrap();
    let mut h = harness(AppState::new(demo_project(), None));
    h.run();
    let before = h.state().state.project.clone();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open path…").click();
    h.run();
    h.get_by_label("Project file").click();
    h.run();
    h.get_by_label("Project file")
        .type_text(&bad.display().to_string());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    let state = &h.state().state;
    assert_eq!(
        state.project, before,
        "a failed load leaves the open document untouched"
    );
    assert!(state.status.is_error);
    assert!(
        state
            .status
            .text
            .contains("Slerp interpolation does not apply to Vec2"),
        "{}",
        state.status.text
    );
    h.get_by_label_contains("Slerp interpolation does not apply");
}

#[test]
fn the_graph_draws_every_visible_track() {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1200.0, 760.0))
        .wgpu()
        .build_ui_state(
            |ui, app: &mut TangentApp| app.ui(ui),
            TangentApp {
                state: AppState::new(demo_project(), None),
            },
        );
    h.run();
    let image = h.render().expect("wgpu renders headless");
    let app = h.state();
    for (i, track) in app.state.project.tracks.iter().enumerate() {
        if !track.visible {
            continue;
        }
        let c = track_color(track, i);
        let close = |p: &[u8]| {
            (0..3).all(|k| (i32::from(p[k]) - i32::from([c.r(), c.g(), c.b()][k])).abs() <= 12)
        };
        let count = image.pixels().filter(|p| close(&p.0)).count();
        assert!(
            count > 300,
            "track {} (colour {c:?}) has only {count} pixels on screen",
            track.name
        );
    }
}
