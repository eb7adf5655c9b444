//! One snapshot per panel, rendered by wgpu (Mesa's software drivers in CI) exactly as the
//! window renders it: the panel type drawn inside a central panel, on the demo project. The
//! images live in `tests/snapshots/`; a change that alters a panel's picture fails here until
//! the snapshot is regenerated on purpose (`UPDATE_SNAPSHOTS=1 cargo test snapshot`).

use crate::app::tools::convert_rotation::ConvertRotation;
use std::collections::BTreeSet;

use eframe::egui;
use egui_kittest::Harness;

use super::key_change::KeyRef;
use super::{export_window, graph, inspector, path_view, pose_view, rotation_view, speed, tracks, transport};
use super::{AppState, Panel, PanelContext};
use crate::io::demo_project;
use crate::{Interpolation, Key, Project, Track, TrackKind};

/// A panel alone, with the state it reads.
struct Solo<P> {
    app: AppState,
    panel: P,
}

/// The demo project with key 1 of the first track selected, its track active.
fn demo() -> AppState {
    let mut app = AppState::new(demo_project(), None);
    app.doc.selection = BTreeSet::from([KeyRef { track: 0, key: 1 }]).into();
    app.doc.active_track = Some(0);
    app
}

fn track_named(app: &AppState, name: &str) -> usize {
    app.project().tracks.iter().position(|t| t.name == name).unwrap()
}

/// Renders `panel` at `size` and compares it with `tests/snapshots/{name}.png`.
fn snapshot<P: Panel + 'static>(name: &str, size: egui::Vec2, app: AppState, panel: P) {
    let mut h = Harness::builder().with_size(size).wgpu().build_ui_state(
        |ui, s: &mut Solo<P>| {
            let cx = PanelContext { doc: &s.app.doc, view: &s.app.view, ui: &s.app.ui };
            let mut out = Vec::new();
            egui::CentralPanel::default().show(ui, |ui| s.panel.ui(ui, &cx, &mut out));
        },
        Solo { app, panel },
    );
    h.run();
    h.snapshot(name);
}

#[test]
fn track_list_snapshot() {
    snapshot("track_list", egui::vec2(300.0, 520.0), demo(), tracks::TrackList::default());
}

#[test]
fn graph_snapshot() {
    let panel = graph::Graph { height: 440.0, ..Default::default() };
    snapshot("graph", egui::vec2(760.0, 460.0), demo(), panel);
}

/// The speed graph takes its time axis from the value graph it is linked to, so it is drawn
/// under one, as in the window.
#[derive(Default)]
struct UnderTheGraph {
    graph: graph::Graph,
    speed: speed::SpeedGraph,
}

impl Panel for UnderTheGraph {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<super::AppCommand>) {
        self.graph.height = 200.0;
        self.graph.ui(ui, cx, out);
        self.speed.ui(ui, cx, out);
    }
}

#[test]
fn speed_graph_snapshot() {
    snapshot("speed_graph", egui::vec2(760.0, 460.0), demo(), UnderTheGraph::default());
}

#[test]
fn inspector_snapshot() {
    snapshot("inspector", egui::vec2(300.0, 620.0), demo(), inspector::Inspector);
}

#[test]
fn path_view_snapshot() {
    let mut app = demo();
    app.doc.active_track = Some(track_named(&app, "path"));
    app.scrub(1.3);
    snapshot("path_view", egui::vec2(760.0, 620.0), app, path_view::PathView::default());
}

#[test]
fn rotation_view_snapshot() {
    let mut app = demo();
    app.doc.active_track = Some(track_named(&app, "spin"));
    app.scrub(0.9);
    snapshot("rotation_view", egui::vec2(760.0, 620.0), app, rotation_view::RotationView::default());
}

#[test]
fn transport_snapshot() {
    snapshot("transport", egui::vec2(1300.0, 44.0), demo(), transport::TransportBar);
}

#[test]
fn export_window_snapshot() {
    let mut app = demo();
    app.ui.windows.open(crate::app::Window::Export);
    snapshot("export_window", egui::vec2(560.0, 520.0), app, export_window::ExportWindow::default());
}

/// An Euler track whose x angle wraps at ±180° between keys 2 and 3 (what Edit > Euler filter
/// unwraps), drawn in degrees on the "angle (deg)" axis, key 3 selected.
fn wrapped_euler() -> AppState {
    let angles: [[f64; 3]; 6] = [[0.0, 10.0, -30.0], [120.0, 25.0, -20.0], [170.0, 40.0, 0.0], [-170.0, 45.0, 20.0], [-120.0, 30.0, 35.0], [-60.0, 15.0, 40.0]];
    let keys = angles.iter().enumerate().map(|(i, a)| Key::new(0.5 * i as f64, a.map(f64::to_radians).to_vec())).collect();
    let track = Track::new("hips.rotation", TrackKind::Euler, Interpolation::Tcb).with_keys(keys);
    let mut app = AppState::new(Project { tracks: vec![track], ..Project::default() }, None);
    app.doc.selection = BTreeSet::from([KeyRef { track: 0, key: 3 }]).into();
    app.doc.active_track = Some(0);
    app
}

#[test]
fn euler_graph_snapshot() {
    let panel = graph::Graph { height: 440.0, ..Default::default() };
    snapshot("euler_graph", egui::vec2(760.0, 460.0), wrapped_euler(), panel);
}

#[test]
fn rotation_window_snapshot() {
    let mut app = demo();
    app.doc.active_track = Some(track_named(&app, "spin"));
    app.doc.selection = BTreeSet::new().into();
    app.ui.windows.open(crate::app::tool::window::<ConvertRotation>());
    snapshot("rotation_window", egui::vec2(560.0, 320.0), app, crate::app::tool_window::ToolWindow::<ConvertRotation>::default());
}

/// The pose view on a CMU-style take mid-move: two ghost poses on each side (every 4
/// frames), the selected left foot and head with their trails over 0.2 s.
#[test]
fn pose_view_snapshot() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import-samples/bvh/cmu_zyx.bvh");
    let crate::open::Opened::Imported(imported) = crate::open::open_any(&path).unwrap() else { panic!("a BVH take imports") };
    let mut app = AppState::new(imported.project, None);
    let skeleton = app.project().skeleton.clone().unwrap();
    app.ui.joints.joints = ["LeftFoot", "Head"].iter().map(|n| skeleton.joint(n).unwrap()).collect();
    app.ui.playhead = 0.125;
    app.view.pose.onion = 2;
    app.view.pose.onion_step = 4;
    app.view.pose.trail_seconds = 0.2;
    snapshot("pose_view", egui::vec2(760.0, 560.0), app, pose_view::PoseView::default());
}
