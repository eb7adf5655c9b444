//! CPU time of one editor frame (the real UI code, headless through egui_kittest, no GPU)
//! on a 10,000-key track while a key is being dragged: each iteration moves the pointer and
//! runs one frame, which edits the track, recompiles its curve and redraws every panel.
//! The baseline in the same run is an idle frame (nothing changes) on the same project.
//!
//! `cargo bench --bench ui_frame` (the app comes from the library's `gui` feature)

use criterion::{criterion_group, criterion_main, Criterion};
use eframe::egui;
use egui_kittest::Harness;
use egui_plot::PlotPoint;
use tangent::app::{AppState, CentralView, TangentApp};
use tangent::{Interpolation, Key, Project, Track, TrackKind};

const KEYS: usize = 10_000;

fn project() -> Project {
    let keys = (0..KEYS).map(|i| Key::new(i as f64 * 0.1, vec![(i as f64 * 0.37).sin() * 3.0]).with_tcb(0.1, 0.0, 0.0)).collect();
    Project { tracks: vec![Track::new("long", TrackKind::Scalar, Interpolation::Tcb).with_keys(keys)], ..Project::default() }
}

fn harness() -> Harness<'static, TangentApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp::new(AppState::new(project(), None)));
    h.run();
    h
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("editor frame, 10,000-key track");
    g.sample_size(30);
    {
        let mut h = harness();
        g.bench_function("baseline: idle frame", |b| b.iter(|| h.step()));
    }
    let mut h = harness();
    let key = &h.state().state.project().tracks[0].keys[KEYS / 2];
    let transform = h.state().panels.graph.transform.unwrap();
    let start = transform.position_from_point(&PlotPoint::new(key.time, key.value[0]));
    h.hover_at(start);
    h.step();
    h.drag_at(start);
    h.step();
    let mut i = 0u32;
    g.bench_function("dragging a key", |b| {
        b.iter(|| {
            i += 1;
            let wobble = egui::vec2((i % 40) as f32 - 20.0, ((i / 3) % 30) as f32 - 15.0);
            h.hover_at(start + egui::vec2(25.0, 10.0) + wobble);
            h.step();
        })
    });
    assert!(h.state().state.doc.document.in_gesture(), "the benchmark really dragged");
    g.finish();

    // The path view on a 10,000-key Vec2 path while the transport plays.
    let keys = (0..KEYS).map(|i| {
        let a = i as f64 * 0.05;
        Key::new(i as f64 * 0.1, vec![a.cos() * (3.0 + a.sin()), a.sin() * (3.0 + (2.0 * a).cos())])
    });
    let path = Track::new("long path", TrackKind::Vec2, Interpolation::Tcb).with_keys(keys.collect());
    let mut state = AppState::new(Project { tracks: vec![path], ..Project::default() }, None);
    state.view.central = CentralView::Path;
    let mut h = Harness::builder().with_size(egui::vec2(1400.0, 900.0)).build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp::new(state));
    h.run();
    h.state_mut().state.ui.transport.toggle_play();
    let mut g = c.benchmark_group("path view frame, 10,000-key path");
    g.sample_size(30);
    let start = h.state().state.ui.playhead;
    g.bench_function("playing", |b| b.iter(|| h.step()));
    assert!(h.state().state.ui.playhead != start, "the benchmark really played");
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
