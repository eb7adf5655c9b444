//! First-frame and idle-frame CPU time of the real editor (headless, egui_kittest) on big
//! documents: 1 track × 10,000 keys, 60 Vec3 tracks × 2,000 keys, 200 × 5,000.
//! `cargo run --release --example big_doc_frames`

use std::time::Instant;

use eframe::egui;
use egui_kittest::Harness;
use tangent::app::{AppState, TangentApp};
use tangent::{Interpolation, Key, Project, Track, TrackKind};

fn project(tracks: usize, keys: usize) -> Project {
    let tracks = (0..tracks)
        .map(|t| {
            let k = (0..keys).map(|i| {
                let x = i as f64 * 0.05 + t as f64;
                Key::new(i as f64 / 30.0, vec![x.sin(), (1.3 * x).cos(), (0.7 * x).sin() * 2.0])
            });
            Track::new(format!("bone{t}.translation"), TrackKind::Vec3, Interpolation::Tcb).with_keys(k.collect())
        })
        .collect();
    Project { tracks, ..Project::default() }
}

fn main() {
    for (tracks, keys) in [(1, 10_000), (60, 2_000), (200, 5_000)] {
        let p = project(tracks, keys);
        let t0 = Instant::now();
        let state = AppState::new(p, None);
        let t_state = t0.elapsed();
        let mut h = Harness::builder().with_size(egui::vec2(1400.0, 900.0)).build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp::new(state));
        h.step();
        let first = t0.elapsed();
        let t1 = Instant::now();
        for _ in 0..5 {
            h.step();
        }
        let idle = t1.elapsed() / 5;
        // Drag the active track's middle key (its x component) for 20 frames.
        let key = &h.state().state.project().tracks[0].keys[keys / 2];
        let start = h.state().panels.graph.transform.unwrap().position_from_point(&egui_plot::PlotPoint::new(key.time, key.value[0]));
        h.hover_at(start);
        h.step();
        h.drag_at(start);
        h.step();
        let t2 = Instant::now();
        for i in 0..20 {
            h.hover_at(start + egui::vec2(10.0 + (i % 5) as f32, 5.0));
            h.step();
        }
        let drag = t2.elapsed() / 20;
        assert!(h.state().state.doc.document.in_gesture(), "really dragging");
        println!("{tracks} x {keys}: state {t_state:?}, first frame (incl. state) {first:?}, idle frame {idle:?}, dragging frame {drag:?}");
    }
}
