//! The editor driven like a user drives it (egui_kittest): pointer presses, moves and
//! releases at the keys' places on screen, sliders, menus and shortcuts; and a real render
//! (wgpu on Mesa in CI) checked for the curves' colours.

use crate::io::demo_project;
use crate::{Interpolation, Key, Project, Track, TrackKind};
use eframe::egui::{self, Key as K, Modifiers, Pos2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use egui_plot::PlotPoint;

use super::key_change::KeyRef;
use super::style::track_color;
use super::{AppState, PanelContext, TangentApp};

pub(super) fn harness(project: Project) -> Harness<'static, TangentApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 820.0))
        .build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp::new(AppState::new(project, None)));
    h.run();
    h
}

/// File > Open path…, the path typed, Open clicked (the frame after the click not yet run).
pub(super) fn open_by_typed_path(h: &mut Harness<'static, TangentApp>, path: &std::path::Path) {
    h.get_by_label("File").click();
    h.run();
    h.get_by_label_contains("Open path").click();
    h.run();
    h.get_by_label("Project file").click();
    h.run();
    h.get_by_label("Project file").type_text(&path.display().to_string());
    h.run();
    h.get_by_label("Open").click();
}

/// Two scalar TCB tracks, "a" and "b" (= a + 4), keys at t = 0..4 with values 0, 1, 3, 2, 5.
pub(super) fn two_tracks() -> Project {
    let track = |name: &str, base: f64| {
        Track::new(name, TrackKind::Scalar, Interpolation::Tcb)
            .with_keys([0.0, 1.0, 3.0, 2.0, 5.0].iter().enumerate().map(|(i, v)| Key::new(i as f64, vec![base + v])).collect())
    };
    Project { tracks: vec![track("a", 0.0), track("b", 4.0)], ..Project::default() }
}

pub(super) fn app<'h>(h: &'h Harness<'_, TangentApp>) -> &'h AppState {
    &h.state().state
}

/// Where key `key` of `track` is drawn.
pub(super) fn key_pos(h: &Harness<'_, TangentApp>, track: usize, key: usize) -> Pos2 {
    let s = app(h);
    let k = &s.project().tracks[track].keys[key];
    h.state().panels.graph.transform.as_ref().unwrap().position_from_point(&PlotPoint::new(k.time, k.value[0]))
}

pub(super) fn plot_to_screen(h: &Harness<'_, TangentApp>, t: f64, v: f64) -> Pos2 {
    h.state().panels.graph.transform.as_ref().unwrap().position_from_point(&PlotPoint::new(t, v))
}

pub(super) fn click_at(h: &mut Harness<'_, TangentApp>, p: Pos2, modifiers: Modifiers) {
    h.hover_at(p);
    h.run();
    h.event_modifiers(egui::Event::PointerButton { pos: p, button: egui::PointerButton::Primary, pressed: true, modifiers }, modifiers);
    h.run();
    h.event_modifiers(egui::Event::PointerButton { pos: p, button: egui::PointerButton::Primary, pressed: false, modifiers }, modifiers);
    h.run();
}

/// Press at `from`, move in steps to `to`, release: a drag as a hand makes it.
pub(super) fn drag(h: &mut Harness<'_, TangentApp>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for i in 1..=6 {
        h.hover_at(from + (to - from) * (i as f32 / 6.0));
        h.run();
    }
    h.drop_at(to);
    h.run();
}

#[test]
fn clicking_a_key_selects_it_and_shift_click_adds() {
    let mut h = harness(two_tracks());
    let p = key_pos(&h, 0, 2);
    click_at(&mut h, p, Modifiers::NONE);
    assert_eq!(app(&h).doc.selection.iter().copied().collect::<Vec<_>>(), vec![KeyRef { track: 0, key: 2 }]);
    let q = key_pos(&h, 1, 3);
    click_at(&mut h, q, Modifiers::SHIFT);
    assert_eq!(app(&h).doc.selection.len(), 2);
    assert_eq!(app(&h).doc.active_track, Some(1));
    // Clicking empty space clears the selection and moves the playhead there.
    let empty = plot_to_screen(&h, 2.5, 4.5);
    click_at(&mut h, empty, Modifiers::NONE);
    assert!(app(&h).doc.selection.is_empty(), "{}", app(&h).ui.status.text);
    assert!((app(&h).ui.playhead - 2.5).abs() < 0.05, "playhead {}", app(&h).ui.playhead);
}

#[test]
fn box_select_takes_the_three_keys_inside() {
    let mut h = harness(two_tracks());
    // Keys 1, 2, 3 of track "a" lie in t ∈ [1, 3], v ∈ [1, 3]; track "b" is at v ≥ 4.
    let from = plot_to_screen(&h, 0.6, 0.5);
    let to = plot_to_screen(&h, 3.4, 3.5);
    drag(&mut h, from, to);
    let sel: Vec<KeyRef> = app(&h).doc.selection.iter().copied().collect();
    assert_eq!(sel, vec![KeyRef { track: 0, key: 1 }, KeyRef { track: 0, key: 2 }, KeyRef { track: 0, key: 3 }]);
}

#[test]
fn dragging_a_key_moves_it_and_one_undo_restores_it() {
    let mut h = harness(two_tracks());
    let before = app(&h).project().clone();
    let from = key_pos(&h, 0, 2);
    let to = plot_to_screen(&h, 2.3, 2.6);
    drag(&mut h, from, to);
    let k = &app(&h).project().tracks[0].keys[2];
    assert!((k.time - 2.3).abs() < 0.03 && (k.value[0] - 2.6).abs() < 0.05, "moved to t={} v={}", k.time, k.value[0]);
    assert_eq!(app(&h).project().tracks[1], before.tracks[1], "the other track is untouched");
    // The whole drag (several frames) is one undo step.
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &before);
    h.key_press_modifiers(Modifiers::COMMAND, K::Y);
    h.run();
    assert!((app(&h).project().tracks[0].keys.time(2) - 2.3).abs() < 0.03);
    // Redo's own shortcut, Ctrl+Shift+Z, redoes: egui also matches it to Undo's Ctrl+Z, and
    // before Redo was asked first it undid instead.
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &before);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, K::Z);
    h.run();
    assert!((app(&h).project().tracks[0].keys.time(2) - 2.3).abs() < 0.03, "Ctrl+Shift+Z redid the drag");
}

#[test]
fn the_tension_slider_changes_the_tangents() {
    let mut h = harness(two_tracks());
    let p = key_pos(&h, 0, 2);
    click_at(&mut h, p, Modifiers::NONE);
    let rb_before = app(&h).doc.curve(0).unwrap().as_ref().unwrap().outgoing_tangent(2).unwrap()[0];
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "tension").set_value_accesskit(1.0);
    h.run();
    let s = app(&h);
    assert_eq!(s.project().tracks[0].keys[2].tension, 1.0);
    let curve = s.doc.curve(0).unwrap().as_ref().unwrap();
    assert_eq!(curve.outgoing_tangent(2).unwrap(), &[0.0], "T = 1 gives zero tangents");
    assert_eq!(curve.incoming_tangent(2).unwrap(), &[0.0]);
    assert_ne!(rb_before, 0.0);
    assert_eq!(s.doc.document.undo_label(), Some("Set tension"));
}

#[test]
fn copy_and_paste_keys_across_tracks() {
    let mut h = harness(two_tracks());
    for (key, m) in [(1, Modifiers::NONE), (2, Modifiers::SHIFT)] {
        let p = key_pos(&h, 0, key);
        click_at(&mut h, p, m);
    }
    h.key_press_modifiers(Modifiers::COMMAND, K::C);
    h.run();
    h.state_mut().state.doc.active_track = Some(1);
    h.state_mut().state.ui.playhead = 5.5;
    h.key_press_modifiers(Modifiers::COMMAND, K::V);
    h.run();
    let b = &app(&h).project().tracks[1];
    assert_eq!(b.keys.len(), 7);
    assert_eq!((b.keys.time(5), b.keys.value(5)[0]), (5.5, 1.0));
    assert_eq!((b.keys.time(6), b.keys.value(6)[0]), (6.5, 3.0));
    assert_eq!(app(&h).doc.selection.iter().copied().collect::<Vec<_>>(), vec![KeyRef { track: 1, key: 5 }, KeyRef { track: 1, key: 6 }]);
}

#[test]
fn clicking_a_tracks_checkbox_shows_and_hides_it() {
    let mut h = harness(demo_project());
    let camera = app(&h).project().tracks.iter().position(|t| t.name == "camera").unwrap();
    assert!(!app(&h).project().tracks[camera].visible);
    let (keys, stamp) = (app(&h).project().tracks[camera].keys.as_ptr(), app(&h).doc.curve_stamp(camera));
    h.get_by_label("show camera").click();
    h.run();
    assert!(app(&h).project().tracks[camera].visible);
    assert!(app(&h).doc.document.is_dirty());
    // A header edit: the keys stay where they were and the curve is not recompiled.
    assert_eq!((app(&h).project().tracks[camera].keys.as_ptr(), app(&h).doc.curve_stamp(camera)), (keys, stamp));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert!(!app(&h).project().tracks[camera].visible);
}

#[test]
fn opening_a_bad_file_by_typed_path_keeps_the_document_and_shows_the_error() {
    let dir = std::env::temp_dir().join(format!("tangent-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "(version: 1, tracks: [(name: \"x\", kind: Vec2, interpolation: Slerp, keys: [])])").unwrap();
    let mut h = harness(demo_project());
    let before = app(&h).project().clone();
    open_by_typed_path(&mut h, &bad);
    h.run();
    let state = app(&h);
    assert_eq!(state.project(), &before, "a failed load leaves the open document untouched");
    assert!(state.ui.status.is_error);
    assert!(state.ui.status.text.contains("Slerp interpolation does not apply to Vec2"), "{}", state.ui.status.text);
    h.get_by_label_contains("Slerp interpolation does not apply");
}

#[test]
fn the_graph_draws_every_visible_track() {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 820.0))
        .wgpu()
        .build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp::new(AppState::new(demo_project(), None)));
    h.run();
    let image = h.render().expect("wgpu renders headless");
    for (i, track) in app(&h).project().tracks.iter().enumerate() {
        if !track.visible {
            continue;
        }
        let c = track_color(track, i);
        let close = |p: &[u8]| (0..3).all(|k| (i32::from(p[k]) - i32::from([c.r(), c.g(), c.b()][k])).abs() <= 12);
        let count = image.pixels().filter(|p| close(&p.0)).count();
        assert!(count > 300, "track {} (colour {c:?}) has only {count} pixels on screen", track.name);
    }
}

#[test]
fn unsaved_marker_and_save_as_by_typed_path() {
    let dir = std::env::temp_dir().join(format!("tangent-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("saved");
    let mut h = harness(two_tracks());
    assert!(!app(&h).title().contains('*'));
    let from = key_pos(&h, 0, 2);
    let to = plot_to_screen(&h, 2.2, 2.5);
    drag(&mut h, from, to);
    assert!(app(&h).title().starts_with("untitled*"), "{}", app(&h).title());
    // No native dialog here (none installed), so Save as offers the typed path.
    h.state_mut().state.ui.show_save_path = true;
    h.run();
    h.get_by_label("Save to file").click();
    h.run();
    h.get_by_label("Save to file").type_text(&target.display().to_string());
    h.run();
    h.get_by_label("Save").click();
    h.run();
    let saved = target.with_extension("ron");
    assert!(saved.exists(), "{}", app(&h).ui.status.text);
    assert_eq!(app(&h).title(), "saved.ron - Tangent");
    assert_eq!(&crate::io::load_project(&saved).unwrap(), app(&h).project());
    assert_eq!(app(&h).view.recent_files.first().and_then(|p| p.file_name()).unwrap(), "saved.ron");
}

fn track_named(h: &Harness<'_, TangentApp>, name: &str) -> usize {
    app(h).project().tracks.iter().position(|t| t.name == name).unwrap()
}

#[test]
fn dragging_a_key_in_the_path_view_moves_it_in_space() {
    let mut h = harness(demo_project());
    h.get_by_label("Path").click();
    h.run();
    let path = track_named(&h, "path");
    let before = app(&h).project().tracks[path].clone();
    let to_screen = |h: &Harness<'_, TangentApp>, x: f64, y: f64| h.state().panels.path.transform.as_ref().unwrap().position_from_point(&PlotPoint::new(x, y));
    // Key 2 of "path" is at (1.5, 1.0).
    let from = to_screen(&h, 1.5, 1.0);
    let to = to_screen(&h, 2.0, 0.4);
    drag(&mut h, from, to);
    let k = &app(&h).project().tracks[path].keys[2];
    assert!((k.value[0] - 2.0).abs() < 0.05 && (k.value[1] - 0.4).abs() < 0.05, "moved to {:?}", k.value);
    assert_eq!(k.time, before.keys.time(2), "dragging in space keeps the time");
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project().tracks[path], before, "one undo step");
}

/// The path view marks the keys in view one by one while there are at most 1,500 of them;
/// a path of 3,000 keys all in view is drawn by its curve and dots (the legend says why).
#[test]
fn the_path_view_marks_keys_only_while_they_can_be_told_apart() {
    let mut h = harness(demo_project());
    h.get_by_label("Path").click();
    h.run();
    let path = track_named(&h, "path");
    assert_eq!(h.state().panels.path.marked_keys(), app(&h).project().tracks[path].keys.len(), "every key of the demo's path");
    for (keys, marked) in [(1000, 1000), (3000, 0)] {
        let spiral = (0..keys).map(|i| {
            let a = f64::from(i) * 0.01;
            Key::new(f64::from(i) * 0.1, vec![a.cos() * (1.0 + a), a.sin() * (1.0 + a)])
        });
        let project = Project { tracks: vec![Track::new("spiral", TrackKind::Vec2, Interpolation::Tcb).with_keys(spiral.collect())], ..Project::default() };
        let mut h = harness(project);
        h.get_by_label("Path").click();
        h.run();
        assert_eq!(h.state().panels.path.marked_keys(), marked, "{keys} keys, all in view");
    }
}

/// A path of more than `TABLE_ON_WORKER_KEYS` keys builds its arc-length table on a worker:
/// the view draws at once (the speed plot says it is measuring), the table arrives by a
/// later frame and is the library's, and a drag of a key (each frame a change) gets the
/// moved curve's table once it stops.
#[test]
fn a_long_paths_arc_length_table_is_built_on_a_worker() {
    use crate::arclen::ArcLengthTable;
    let n = super::path_view::TABLE_ON_WORKER_KEYS + 1000;
    let spiral = (0..n).map(|i| {
        let a = i as f64 * 0.002;
        Key::new(i as f64 * 0.01, vec![a.cos() * (1.0 + a), a.sin() * (1.0 + a)])
    });
    let project = Project { tracks: vec![Track::new("spiral", TrackKind::Vec2, Interpolation::Tcb).with_keys(spiral.collect())], ..Project::default() };
    let mut h = harness(project);
    h.get_by_label("Path").click();
    // The frame that shows the view leaves the table building (only a frame takes it in).
    let started = (0..3).any(|_| {
        h.step();
        h.state().panels.path.building_table()
    });
    assert!(started, "the table is built on a worker");
    h.get_by_label("Measuring the path's length…");
    let settle = |h: &mut Harness<'_, TangentApp>| {
        // (Two frames first: the one that shows a change starts the worker.)
        h.step();
        h.step();
        for _ in 0..3000 {
            if !h.state().panels.path.building_table() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
            h.step();
        }
        h.step();
        assert!(!h.state().panels.path.building_table(), "the table never came");
    };
    let table_length = |h: &mut Harness<'_, TangentApp>| {
        let editor = h.state_mut();
        let cx = PanelContext { doc: &editor.state.doc, view: &editor.state.view, ui: &editor.state.ui };
        editor.panels.path.table(&cx, 0).unwrap().as_ref().unwrap().length()
    };
    let library = |h: &Harness<'_, TangentApp>| {
        let curve = crate::TrackCurve::new(&app(h).project().tracks[0]).unwrap();
        ArcLengthTable::new(crate::PathCurve::new(&curve).unwrap(), app(h).view.arclen_tolerance).unwrap().length()
    };
    settle(&mut h);
    assert_eq!(table_length(&mut h), library(&h));
    // Drag the last key outward in a few frames, then let go.
    let last = app(&h).project().tracks[0].keys[n - 1].value.clone();
    let to_screen = |h: &Harness<'_, TangentApp>, x: f64, y: f64| h.state().panels.path.transform.as_ref().unwrap().position_from_point(&PlotPoint::new(x, y));
    let from = to_screen(&h, last[0], last[1]);
    h.drag_at(from);
    h.step();
    for i in 1..=5u8 {
        h.hover_at(from + egui::vec2(6.0 * f32::from(i), 0.0));
        h.step();
    }
    h.drop_at(from + egui::vec2(30.0, 0.0));
    h.step();
    assert_ne!(app(&h).project().tracks[0].keys[n - 1].value, last, "the key moved");
    for _ in 0..3 {
        settle(&mut h);
    }
    assert_eq!(table_length(&mut h), library(&h), "the moved curve's table");
}

#[test]
fn constant_speed_markers_match_the_library() {
    use crate::arclen::{ArcLengthTable, ConstantSpeed};
    let mut h = harness(demo_project());
    h.get_by_label("Path").click();
    h.run();
    h.get_by_label("constant speed").click();
    h.run();
    assert!(app(&h).view.constant_speed);
    let path = track_named(&h, "path");
    for t in [0.0, 0.7, 1.3, 2.9, 4.0] {
        h.state_mut().state.scrub(t);
        h.run();
        let editor = h.state_mut();
        let cx = PanelContext { doc: &editor.state.doc, view: &editor.state.view, ui: &editor.state.ui };
        let (raw, constant) = editor.panels.path.markers(&cx, path).unwrap();
        let curve = crate::TrackCurve::new(&demo_project().tracks[path]).unwrap();
        let path = crate::PathCurve::new(&curve).unwrap();
        let table = ArcLengthTable::new(path, app(&h).view.arclen_tolerance).unwrap();
        let mut want = vec![0.0; 2];
        ConstantSpeed::new(path, &table, 4.0).sample(t, &mut want);
        assert_eq!(constant, want, "arc-length marker at {t}");
        assert_eq!(raw, curve.evaluator().value_at(t), "raw marker at {t}");
        // Equal clip times cover equal lengths along the arc-length marker's path.
        let s = table.s_of_t(&mut crate::SegmentCursor::new(), table.t_of_s(&mut crate::SegmentCursor::new(), table.length() * t / 4.0));
        assert!((s - table.length() * t / 4.0).abs() <= table.tolerance());
    }
}

#[test]
fn negative_speed_steps_frames_backwards() {
    let mut h = harness(demo_project());
    h.get_by_label("speed").set_value_accesskit(-1.0);
    h.run();
    assert_eq!(app(&h).ui.transport.action().time_scale, -1.0);
    h.state_mut().state.scrub(2.0);
    h.run();
    let fps = app(&h).project().fps;
    for i in 1..=3 {
        h.key_press(K::ArrowRight);
        h.run();
        let want = 2.0 - f64::from(i) / fps;
        assert!((app(&h).ui.playhead - want).abs() < 1e-9, "step {i}: {} vs {want}", app(&h).ui.playhead);
    }
    // Speed 0 holds: a step does not move.
    h.get_by_label("speed").set_value_accesskit(0.0);
    h.run();
    let at = app(&h).ui.playhead;
    h.key_press(K::ArrowRight);
    h.run();
    assert_eq!(app(&h).ui.playhead, at);
}

#[test]
fn euler_entry_round_trips_to_the_same_quaternion() {
    use crate::euler::{from_quat, to_quat, EulerOrder};
    let mut h = harness(demo_project());
    let spin = track_named(&h, "spin");
    h.state_mut().state.doc.selection = std::collections::BTreeSet::from([KeyRef { track: spin, key: 1 }]).into();
    h.run();
    let angles = [30.0, -20.0, 45.0];
    for (name, v) in ["euler x", "euler y", "euler z"].iter().zip(angles) {
        h.get_by_label(name).set_value_accesskit(v);
        h.run();
    }
    let stored = &app(&h).project().tracks[spin].keys[1].value;
    let want = to_quat(&angles.map(f64::to_radians), EulerOrder::XYZ);
    for c in 0..4 {
        assert!((stored[c] - want[c]).abs() < 1e-9, "{stored:?} vs {want:?}");
    }
    let back = from_quat(&[stored[0], stored[1], stored[2], stored[3]], EulerOrder::XYZ).map(f64::to_degrees);
    for c in 0..3 {
        assert!((back[c] - angles[c]).abs() < 1e-9, "{back:?}");
    }
}

#[test]
fn export_window_writes_a_gltf_in_the_background() {
    let dir = std::env::temp_dir().join(format!("tangent-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("demo.glb");
    let mut h = harness(demo_project());
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, K::E);
    h.run();
    assert!(app(&h).ui.windows.is_open(crate::app::Window::Export));
    h.get_by_label("export path").click();
    h.run();
    h.get_by_label("export path").type_text(&out.display().to_string());
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Export").click();
    for _ in 0..400 {
        h.step();
        if !h.state().panels.export.is_running() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(!h.state().panels.export.is_running());
    assert!(app(&h).ui.status.text.starts_with("Exported 8 tracks"), "{}", app(&h).ui.status.text);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[0..4], b"glTF");
    // The window tells how many keys each track got.
    h.run();
    let written = h.state().panels.export.written.clone();
    assert_eq!(written.len(), 8);
    let total: usize = written.iter().map(|w| w.1).sum();
    assert!(app(&h).ui.status.text.contains(&format!("({total} keys")), "{}", app(&h).ui.status.text);
    h.get_by_label_contains("Keys per track of the last export").click();
    h.run();
    let (_, keys, _, error) = &written[0];
    assert!(h.query_all_by_label(&format!("{keys} keys")).next().is_some(), "the table shows {keys} keys");
    assert!(error.ends_with("file units") || error.ends_with("deg"), "{error}");
}

#[test]
fn delete_during_a_drag_is_its_own_undo_step() {
    let mut h = harness(two_tracks());
    let before = app(&h).project().clone();
    let from = key_pos(&h, 0, 2);
    let mid = plot_to_screen(&h, 2.2, 2.5);
    let end = plot_to_screen(&h, 2.4, 2.0);
    // Press on key 2 of "a" and move part of the way: the drag is under way.
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for i in 1..=4 {
        h.hover_at(from + (mid - from) * (i as f32 / 4.0));
        h.run();
    }
    let moved = app(&h).project().clone();
    assert_ne!(moved.tracks[0], before.tracks[0], "the drag moved the key");
    // Delete the dragged key while the button is still held, move on, release.
    h.key_press(K::Delete);
    h.run();
    for i in 1..=4 {
        h.hover_at(mid + (end - mid) * (i as f32 / 4.0));
        h.run();
    }
    h.drop_at(end);
    h.run();
    assert_eq!(app(&h).project().tracks[0].keys.len(), 4, "the later frames of the drag did not bring the deleted key back");
    assert_eq!(app(&h).project().tracks[1], before.tracks[1]);
    assert_eq!(app(&h).doc.document.undo_label(), Some("Delete keys"));
    // Undo once: the key comes back where the drag had put it when Delete was pressed.
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &moved, "one undo restores the deleted key, and only that");
    assert_eq!(app(&h).doc.document.undo_label(), Some("Move keys"));
    // Undo again: the drag's part before Delete, one step.
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &before);
    assert!(app(&h).doc.document.undo_label().is_none(), "two steps in all");
}

#[test]
fn the_status_line_follows_a_dragged_key() {
    let mut h = harness(two_tracks());
    let from = key_pos(&h, 0, 2);
    click_at(&mut h, from, Modifiers::NONE);
    assert_eq!(app(&h).ui.status.text, "Key 2 of \"a\": t = 2.0000 s, value = 3.000");
    let to = plot_to_screen(&h, 2.3, 2.6);
    drag(&mut h, from, to);
    let k = &app(&h).project().tracks[0].keys[2];
    assert_ne!(k.time, 2.0);
    assert_eq!(app(&h).ui.status.text, format!("Key 2 of \"a\": t = {:.4} s, value = {:.3}", k.time, k.value[0]), "not the place it was clicked at");
}

/// A file dropped on the window, as the windowing layer would hand it over.
#[derive(Debug)]
pub(super) struct Dropped(pub std::path::PathBuf);

impl eframe::egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}
