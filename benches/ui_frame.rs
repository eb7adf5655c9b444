//! CPU time of editor frames (the real UI code, headless through egui_kittest, no GPU) on the
//! documents issues 15 and 16 name:
//!
//! - one Scalar TCB track of 1,000, 10,000 and 100,000 keys (issue 15: idle and dragging
//!   frames must not grow with the keys);
//! - 1 Vec3 track × 10,000 keys, 60 × 2,000 and 200 × 5,000 (1 M keys; issue 16): the first
//!   frame *including loading the file* (read, parse, validate, compile, one frame), saving
//!   (the snapshot on the UI thread, the write on the worker), an idle frame, and frames
//!   while dragging a key of the active track;
//! - on the same three documents, select all, an idle frame with every key selected, a
//!   field set on every key in the inspector, undo and redo of that, and a key dragged in the
//!   graph with every key selected (every key moves); an imported take's
//!   tracks added to an open project, and every track hidden and shown;
//! - the path view on a 10,000-key Vec2 path while the transport plays;
//! - the pose view against the graph view playing a 7.2-million-key take with its skeleton
//!   (`-- 'pose view'`);
//! - the dope sheet against the graph view on the same take, playing and with the selection
//!   changing every frame (`-- 'dope sheet'`).
//!
//! A dragging iteration moves the pointer and runs one frame, which edits the track,
//! recompiles its curve and redraws every panel. `cargo bench --bench ui_frame`
//! (`-- 'editor frame'`, `-- 'big document'`, `-- 'whole document'` or `-- 'path view'` for one group).

#[path = "../tests/common/mocap.rs"]
mod mocap;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use eframe::egui;
use egui_kittest::Harness;
use egui_plot::PlotPoint;
use tangent::app::{AppState, CentralView, TangentApp};
use tangent::{Interpolation, Key, Project, Track, TrackKind};

/// One Scalar TCB track of `keys` keys, 0.1 s apart.
fn scalar_project(keys: usize) -> Project {
    let keys = (0..keys).map(|i| Key::new(i as f64 * 0.1, vec![(i as f64 * 0.37).sin() * 3.0]).with_tcb(0.1, 0.0, 0.0)).collect();
    Project { tracks: vec![Track::new("long", TrackKind::Scalar, Interpolation::Tcb).with_keys(keys)], ..Project::default() }
}

fn harness(state: AppState) -> Harness<'static, TangentApp> {
    Harness::builder().with_size(egui::vec2(1400.0, 900.0)).build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp::new(state))
}

/// The pointer pressed on the middle key of the first track (hovered, then pressed, a frame
/// each): where it is on screen.
fn press_middle_key(h: &mut Harness<'static, TangentApp>, project: &Project) -> egui::Pos2 {
    let track = &project.tracks[0];
    let key = &track.keys[track.keys.len() / 2];
    let start = h.state().panels.graph.transform.unwrap().position_from_point(&PlotPoint::new(key.time, key.value[0]));
    h.hover_at(start);
    h.step();
    h.drag_at(start);
    h.step();
    start
}

/// Benchmarks an idle frame, and frames dragging the middle key of the first track: in value
/// only (up and down), and in time and value (the key passes the keys within 5–45 pixels, so
/// that drag reorders more keys on a denser track).
fn idle_and_drag(c: &mut Criterion, group: &str, name: &str, project: &Project) {
    let mut g = c.benchmark_group(group);
    g.sample_size(20);
    let mut h = harness(AppState::new(project.clone(), None));
    h.run();
    g.bench_function(BenchmarkId::new("idle", name), |b| b.iter(|| h.step()));
    for (case, across) in [("dragging a key up and down", 0.0), ("dragging a key across keys", 1.0)] {
        let mut h = harness(AppState::new(project.clone(), None));
        h.run();
        let start = press_middle_key(&mut h, project);
        let mut i = 0u32;
        g.bench_function(BenchmarkId::new(case, name), |b| {
            b.iter(|| {
                i += 1;
                let wobble = egui::vec2(across * ((i % 40) as f32 + 5.0), ((i / 3) % 30) as f32 - 15.0);
                h.hover_at(start + egui::vec2(0.0, 10.0) + wobble);
                h.step();
            })
        });
        if i > 0 {
            // (Not when a filter skipped the drag.)
            assert!(h.state().state.doc.document.in_gesture(), "the benchmark really dragged");
            assert!(h.state().state.doc.document.is_dirty(), "the drag really edited the track");
        }
    }
    g.finish();
}

/// First frame including loading the saved file, as `tangent FILE` starts.
fn first_frame(c: &mut Criterion, name: &str, project: &Project) {
    let dir = std::env::temp_dir().join(format!("tangent-ui-frame-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.ron", name.replace(' ', "")));
    tangent::io::save_project(&path, project).unwrap();
    let mut g = c.benchmark_group("big document");
    g.sample_size(10);
    g.bench_function(BenchmarkId::new("first frame incl. load", name), |b| {
        b.iter(|| {
            let mut h = harness(AppState::opening(path.clone()));
            h.step();
            while h.state().is_loading() {
                std::thread::sleep(std::time::Duration::from_millis(1));
                h.step();
            }
            assert_eq!(h.state().state.project().tracks.len(), project.tracks.len(), "the file was loaded");
        })
    });
    // Saving: the snapshot the editor takes on the UI thread, and the write on the worker.
    // (Before the document was shared copy-on-write, saving took this copy on the UI thread.)
    g.bench_function(BenchmarkId::new("save: baseline, a copy of the project", name), |b| b.iter(|| project.clone()));
    let document = tangent::Document::new(project.clone());
    g.bench_function(BenchmarkId::new("save: snapshot on the UI thread", name), |b| b.iter(|| document.shared_project()));
    g.bench_function(BenchmarkId::new("save: write on the worker", name), |b| b.iter(|| tangent::io::save_project(&path, project).unwrap()));
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whole-document actions on `project`: select all (Ctrl+A and its frame, then Alt+A and its
/// frame), an idle frame with every key selected, a frame of dragging the inspector's tension
/// slider (every key changed) and one move of it until the change is in place, and undo then
/// redo of that drag, one step (each with its frame).
fn whole_document(c: &mut Criterion, name: &str, project: &Project) {
    use egui::{Key as K, Modifiers as M};
    use egui_kittest::kittest::Queryable;
    let mut g = c.benchmark_group("whole document");
    g.sample_size(10);
    let mut h = harness(AppState::new(project.clone(), None));
    h.run();
    let press = |h: &mut Harness<'static, TangentApp>, m: M, k: K| {
        h.key_press_modifiers(m, k);
        h.step();
    };
    g.bench_function(BenchmarkId::new("select all, then none", name), |b| {
        b.iter(|| {
            press(&mut h, M::COMMAND, K::A);
            press(&mut h, M::ALT, K::A);
        })
    });
    press(&mut h, M::COMMAND, K::A);
    let keys = project.tracks.iter().map(|t| t.keys.len()).sum::<usize>();
    assert_eq!(h.state().state.doc.selection.len(), keys);
    g.bench_function(BenchmarkId::new("idle frame, every key selected", name), |b| b.iter(|| h.step()));
    // The inspector's tension slider dragged: each frame of the drag sets every key.
    let slider = h.get_all_by_label("tension").next().expect("the inspector's tension slider").rect();
    let at = |f: f32| egui::pos2(slider.left() + slider.width() * f, slider.center().y);
    h.hover_at(at(0.5));
    h.step();
    h.drag_at(at(0.5));
    h.step();
    // From 150,000 selected keys the change is made on a worker (`planner.rs`): a frame then
    // costs the UI thread what drawing and putting finished changes in place cost, and the
    // change lands a few frames later.
    let settle = |h: &mut Harness<'static, TangentApp>| {
        while h.state().state.ui.key_queue.is_busy() {
            std::thread::sleep(std::time::Duration::from_micros(200));
            h.step();
        }
    };
    let mut i = 0u32;
    g.bench_function(BenchmarkId::new("tension dragged on every key (a frame)", name), |b| {
        b.iter(|| {
            i += 1;
            h.hover_at(at(if i % 2 == 0 { 0.6 } else { 0.8 }));
            h.step();
        })
    });
    g.bench_function(BenchmarkId::new("tension dragged on every key (until in place)", name), |b| {
        b.iter(|| {
            i += 1;
            h.hover_at(at(if i % 2 == 0 { 0.6 } else { 0.8 }));
            h.step();
            settle(&mut h);
        })
    });
    h.drop_at(at(0.7));
    h.step();
    settle(&mut h);
    let tension = |h: &Harness<'static, TangentApp>| h.state().state.project().tracks.iter().flat_map(|t| &t.keys).filter(|k| k.tension > 0.0).count();
    assert_eq!(tension(&h), keys, "the slider really set every key's tension");
    g.bench_function(BenchmarkId::new("undo and redo, every track changed", name), |b| {
        b.iter(|| {
            press(&mut h, M::COMMAND, K::Z);
            press(&mut h, M::COMMAND | M::SHIFT, K::Z);
        })
    });
    press(&mut h, M::COMMAND, K::Z);
    assert!(tension(&h) < keys, "undo really reverted the step");
    // A key of the first track dragged in the graph with every key still selected: each frame
    // moves every key (from 150,000 selected keys on a worker, `planner::plan_change`).
    let start = press_middle_key(&mut h, project);
    // Every iteration a move past egui's drag threshold, to one of two places.
    let wobble = |i: u32| start + egui::vec2(0.0, 20.0 + 10.0 * (i % 2) as f32);
    g.bench_function(BenchmarkId::new("dragging a key, every key selected (a frame)", name), |b| {
        b.iter(|| {
            i += 1;
            h.hover_at(wobble(i));
            h.step();
        })
    });
    g.bench_function(BenchmarkId::new("dragging a key, every key selected (until in place)", name), |b| {
        b.iter(|| {
            i += 1;
            h.hover_at(wobble(i));
            h.step();
            settle(&mut h);
        })
    });
    // (A move past egui's drag threshold first, so that a filter that skipped both leaves a
    // drag, not a click.)
    let end = start + egui::vec2(0.0, 25.0);
    h.hover_at(end);
    h.step();
    h.drop_at(end);
    h.step();
    settle(&mut h);
    assert_eq!(h.state().state.doc.selection.len(), keys, "every key stayed selected");
    g.finish();
}

/// Whole-track edits of the document side (no frame): the tracks of an imported take added
/// to an open one-track project (File > Import…, Add: the UI thread's part, the take compiled
/// beforehand as the import's worker does), and every track hidden then shown, each
/// one undo step of one `SetHeader` per track, as the track list's checkboxes make them.
fn track_edits(c: &mut Criterion, name: &str, project: &Project) {
    use tangent::app::DocState;
    use tangent::Edit;
    let mut g = c.benchmark_group("whole document");
    g.sample_size(10);
    let small = mocap::mocap_project(1, 100);
    g.bench_function(BenchmarkId::new("add an imported take's tracks", name), |b| {
        b.iter_batched(
            || (DocState::new(small.clone(), None), tangent::app::CompiledTake::new(project.clone())),
            |(mut d, imported)| {
                let status = d.add_imported(imported, "the take");
                assert!(!status.is_error && d.curve(project.tracks.len()).is_some_and(|c| c.is_ok()), "{}", status.text);
                d
            },
            criterion::BatchSize::LargeInput,
        )
    });
    let mut d = DocState::new(project.clone(), None);
    let show = |d: &mut DocState, visible: bool| {
        d.document.begin_gesture("Show/hide tracks");
        for i in 0..d.project().tracks.len() {
            let header = tangent::TrackHeader { visible, ..d.project().tracks[i].header() };
            d.apply("Show/hide tracks", Edit::SetHeader { index: i, header }).unwrap();
        }
        d.document.end_gesture();
    };
    g.bench_function(BenchmarkId::new("hide, then show, every track", name), |b| {
        b.iter(|| {
            show(&mut d, false);
            show(&mut d, true);
        })
    });
    assert!(d.project().tracks.iter().all(|t| t.visible));
    g.finish();
}

fn bench(c: &mut Criterion) {
    for keys in [1_000, 10_000, 100_000] {
        idle_and_drag(c, "editor frame, one track", &format!("{keys} keys"), &scalar_project(keys));
    }
    for (tracks, keys) in [(1, 10_000), (60, 2_000), (200, 5_000)] {
        let name = format!("{tracks} x {keys}");
        let project = mocap::mocap_project(tracks, keys);
        first_frame(c, &name, &project);
        idle_and_drag(c, "big document", &name, &project);
        whole_document(c, &name, &project);
        track_edits(c, &name, &project);
    }

    // The path view on a 10,000-key Vec2 path while the transport plays.
    let keys = (0..10_000).map(|i| {
        let a = i as f64 * 0.05;
        Key::new(i as f64 * 0.1, vec![a.cos() * (3.0 + a.sin()), a.sin() * (3.0 + (2.0 * a).cos())])
    });
    let path = Track::new("long path", TrackKind::Vec2, Interpolation::Tcb).with_keys(keys.collect());
    let mut state = AppState::new(Project { tracks: vec![path], ..Project::default() }, None);
    state.view.central = CentralView::Path;
    let mut h = harness(state);
    h.run();
    h.state_mut().state.ui.transport.toggle_play();
    let mut g = c.benchmark_group("path view frame, 10,000-key path");
    g.sample_size(30);
    let start = h.state().state.ui.playhead;
    let mut frames = 0u64;
    g.bench_function("playing", |b| {
        b.iter(|| {
            frames += 1;
            h.step()
        })
    });
    assert!(frames == 0 || h.state().state.ui.playhead != start, "the benchmark really played");
    g.finish();
    pose_view(c);
    dope_sheet(c);
}

/// Issue 44: the dope sheet on the 7.2-million-key take, every group open (301 rows, about 30
/// on screen), against the graph view of the same take with the same 10 joints' tracks shown,
/// in the same run: playing (the playhead one 120 fps frame on), and with the selection
/// changing every frame (one track's keys in a 1 s window, alternately two windows: every
/// row's marks and the graph's markers made again).
fn dope_sheet(c: &mut Criterion) {
    let take = mocap::mocap_take(100, 36_000);
    let mut g = c.benchmark_group("dope sheet, 100 joints x 36,000 frames");
    g.sample_size(30);
    let rig = tangent::body::Rig::new(&take).unwrap();
    let shown: std::collections::BTreeSet<usize> = (0..100).step_by(10).flat_map(|j| rig.tracks[j].iter()).collect();
    for view in [CentralView::Graph, CentralView::DopeSheet] {
        for case in ["playing", "selection changing"] {
            let mut state = AppState::new(take.clone(), None);
            state.view.central = view;
            state.ui.joints.tracks = shown.iter().copied().collect();
            state.ui.playhead = 60.0;
            let mut h = harness(state);
            h.state_mut().panels.dope.open_all(&take);
            h.run();
            let start = h.state().state.ui.playhead;
            let first = *shown.first().unwrap();
            let window = |from: usize| (from..from + 120).map(|key| tangent::app::KeyRef { track: first, key }).collect::<std::collections::BTreeSet<_>>();
            let (a, b) = (window(7_200), window(7_320));
            let mut frames = 0u64;
            g.bench_function(format!("{view:?} view, {case}"), |bench| {
                bench.iter(|| {
                    frames += 1;
                    let state = &mut h.state_mut().state;
                    if case == "playing" {
                        state.ui.playhead += 1.0 / 120.0;
                    } else {
                        state.doc.selection = if frames % 2 == 0 { a.clone() } else { b.clone() }.into();
                    }
                    h.step()
                })
            });
            assert!(frames == 0 || case != "playing" || h.state().state.ui.playhead > start, "the benchmark really played");
        }
    }
    g.finish();
}

/// Issue 42: the pose view playing a 7.2-million-key take (100 joints × 36,000 frames at
/// 120 fps, `mocap::mocap_take`) with onion skin (2 poses each side) and the trails of 10
/// selected joints over 10 s, against the graph view playing the same take in the same run
/// (the joints' tracks shown). A frame advances the playhead by one 120 fps frame.
fn pose_view(c: &mut Criterion) {
    let take = mocap::mocap_take(100, 36_000);
    let mut g = c.benchmark_group("pose view, 100 joints x 36,000 frames");
    g.sample_size(30);
    for (view, extras) in [(CentralView::Graph, true), (CentralView::Pose, true), (CentralView::Pose, false)] {
        let mut state = AppState::new(take.clone(), None);
        state.view.central = view;
        if extras {
            state.view.pose.onion = 2;
            state.view.pose.trail_seconds = 10.0;
        }
        let rig = tangent::body::Rig::new(&take).unwrap();
        state.ui.joints.joints = (0..100).step_by(10).collect();
        state.ui.joints.tracks = state.ui.joints.joints.iter().flat_map(|&j| rig.tracks[j].iter()).collect();
        state.ui.playhead = 60.0;
        let mut h = harness(state);
        h.run();
        let start = h.state().state.ui.playhead;
        let name = if extras { format!("{view:?} view, playing") } else { format!("{view:?} view, playing, no onion skin or trails") };
        let mut frames = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                frames += 1;
                h.state_mut().state.ui.playhead += 1.0 / 120.0;
                h.step()
            })
        });
        // A run filtered to another benchmark makes no frames here.
        assert!(frames == 0 || h.state().state.ui.playhead > start, "the benchmark really moved the playhead");
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
