//! Bézier editing, Simplify and Import driven like a user drives them (egui_kittest): select a
//! key, drag its handle dot, press `V` and pick a type in the menu at the pointer, undo each;
//! drag the key and its handles follow; Simplify and a dropped `.glb` as one undo step each.

use super::tool::{id, window};
use super::tools::convert_bezier::ConvertToBezier;
use super::tools::simplify::Simplify;
use eframe::egui::{Key as K, Modifiers};
use egui_kittest::kittest::Queryable;

use super::tests::{app, click_at, drag, harness, key_pos, plot_to_screen, Dropped};
use crate::{HandleType, Interpolation, Key, Project, Track, TrackCurve, TrackKind};

/// One Scalar Bezier track with AutoClamped keys (0, 0), (1, 2), (3, 1), (4, 3).
fn bezier_project() -> Project {
    let keys = [(0.0, 0.0), (1.0, 2.0), (3.0, 1.0), (4.0, 3.0)].iter().map(|&(t, v)| Key::new(t, vec![v])).collect();
    Project { tracks: vec![Track::new("b", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys)], ..Project::default() }
}

fn handles_of(project: &Project, key: usize) -> ((f64, f64), (f64, f64)) {
    TrackCurve::new(&project.tracks[0]).unwrap().bezier_handles(key, 0).unwrap()
}

#[test]
fn drag_a_handle_set_a_type_with_v_and_undo_both() {
    let mut h = harness(bezier_project());
    let original = app(&h).project().clone();
    let p = key_pos(&h, 0, 1);
    click_at(&mut h, p, Modifiers::NONE);
    // Key 1 is a maximum: AutoClamped makes it flat, the right handle 2/2.5614 long.
    let (_, right) = handles_of(&original, 1);
    assert!(right.1.abs() < 1e-12 && (right.0 - 2.0 / 2.5614).abs() < 1e-9, "{right:?}");
    let tip = plot_to_screen(&h, 1.0 + right.0, 2.0 + right.1);
    let target = (1.0 + right.0, 2.0 + 0.6);
    let to = plot_to_screen(&h, target.0, target.1);
    drag(&mut h, tip, to);
    let dragged = app(&h).project().clone();
    let k = &dragged.tracks[0].keys[1];
    assert_eq!(k.handles, (HandleType::Aligned, HandleType::Aligned), "dragging an automatic handle makes the key Aligned");
    let (left, right) = handles_of(&dragged, 1);
    assert!((right.0 - (target.0 - 1.0)).abs() < 0.03 && (right.1 - 0.6).abs() < 0.03, "right handle {right:?}");
    // Aligned: the left side turned to stay on the line through the key, its length kept.
    let cross = left.0 * right.1 - left.1 * right.0;
    assert!(cross.abs() < 1e-9 && left.0 < 0.0, "left {left:?} right {right:?}");
    assert!(((left.0 * left.0 + left.1 * left.1).sqrt() - 1.0 / 2.5614).abs() < 1e-9, "left length kept: {left:?}");
    assert_eq!(app(&h).doc.document.undo_label(), Some("Drag handle"));

    // V opens the handle-type menu at the pointer; Vector points each side at its neighbour.
    h.key_press(K::V);
    h.run();
    assert!(app(&h).ui.windows.is_open(crate::app::Window::HandleTypeMenu), "V opens the menu");
    h.get_by_label("Vector").click();
    h.run();
    assert!(!app(&h).ui.windows.is_open(crate::app::Window::HandleTypeMenu), "choosing closes it");
    let vector = app(&h).project().clone();
    assert_eq!(vector.tracks[0].keys[1].handles, (HandleType::Vector, HandleType::Vector));
    let (left, right) = handles_of(&vector, 1);
    assert!((left.0 + 1.0 / 3.0).abs() < 1e-12 && (left.1 + 2.0 / 3.0).abs() < 1e-12, "a third of the way to (0, 0): {left:?}");
    assert!((right.0 - 2.0 / 3.0).abs() < 1e-12 && (right.1 + 1.0 / 3.0).abs() < 1e-12, "a third of the way to (3, 1): {right:?}");

    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &dragged, "one undo takes back the type");
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &original, "a second takes back the whole drag");
}

#[test]
fn dragging_a_key_carries_its_handles() {
    let mut project = bezier_project();
    project.tracks[0].keys[2] = Key::new(3.0, vec![1.0]).with_handles((HandleType::Free, HandleType::Free), vec![(-0.5, 0.7)], vec![(0.4, -0.2)]);
    let mut h = harness(project);
    let from = key_pos(&h, 0, 2);
    let to = plot_to_screen(&h, 2.8, 1.5);
    drag(&mut h, from, to);
    let p = app(&h).project().clone();
    let k = &p.tracks[0].keys[2];
    assert!((k.time - 2.8).abs() < 0.03 && (k.value[0] - 1.5).abs() < 0.05, "moved to {} {}", k.time, k.value[0]);
    assert_eq!((k.left.clone(), k.right.clone()), (vec![(-0.5, 0.7)], vec![(0.4, -0.2)]), "Free handles keep their offsets from the key");
    let (left, right) = handles_of(&p, 2);
    assert!(
        (left.0 + 0.5).abs() < 1e-12 && (left.1 - 0.7).abs() < 1e-12 && (right.0 - 0.4).abs() < 1e-12 && (right.1 + 0.2).abs() < 1e-12,
        "{left:?} {right:?}"
    );
    assert_eq!(p.tracks[0].keys[1], bezier_project().tracks[0].keys[1], "the neighbours' keys are unchanged");
}

/// The inspector sets a handle coordinate on every selected Bézier key at once, as one undo
/// step, and shows the type.
#[test]
fn the_inspector_sets_a_handle_on_many_keys() {
    let mut h = harness(bezier_project());
    let original = app(&h).project().clone();
    h.state_mut().state.doc.selection =
        std::collections::BTreeSet::from([crate::edit::intent::KeyRef { track: 0, key: 1 }, crate::edit::intent::KeyRef { track: 0, key: 2 }]).into();
    h.run();
    h.get_by_label("right handle dv component 0").set_value_accesskit(0.25);
    h.run();
    let p = app(&h).project().clone();
    for key in [1, 2] {
        let k = &p.tracks[0].keys[key];
        assert_eq!(k.handles, (HandleType::Aligned, HandleType::Aligned), "key {key}");
        let (_, right) = handles_of(&p, key);
        assert!((right.1 - 0.25).abs() < 1e-12, "key {key}: {right:?}");
    }
    assert_eq!(p.tracks[0].keys[0], original.tracks[0].keys[0], "unselected keys stay");
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &original, "one undo step");
    // The left type combo box: Vector on the left side of both keys, the right side as it was.
    h.get_all_by_label("left type").next().expect("the left type combo box").click();
    h.run();
    h.get_by_label("Vector").click();
    h.run();
    let p = app(&h).project().clone();
    for key in [1, 2] {
        assert_eq!(p.tracks[0].keys[key].handles, (HandleType::Vector, original.tracks[0].keys[key].handles.1), "key {key}");
    }
    assert_eq!(app(&h).ui.status.text, "Set the left handles of 2 keys to Vector");
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &original, "one undo step");
}

/// Key > Simplify… on a dense Linear track: the preview appears in the graph while the
/// window is open, Apply replaces the keys within the tolerance as one undo step.
#[test]
fn simplify_previews_then_applies_as_one_step() {
    let keys = (0..=300).map(|i| {
        let t = f64::from(i) / 60.0;
        Key::new(t, vec![(2.0 * t).sin()])
    });
    let project = Project { tracks: vec![Track::new("dense", TrackKind::Scalar, Interpolation::Linear).with_keys(keys.collect())], ..Project::default() };
    let mut h = harness(project);
    let original = app(&h).project().clone();
    h.state_mut().state.doc.active_track = Some(0);
    // Open the Key menu (a click the harness loses under load is clicked again).
    for _ in 0..5 {
        if h.query_by_label_contains("Simplify").is_some() {
            break;
        }
        h.get_by_label("Key").click();
        h.run();
    }
    h.get_by_label_contains("Simplify").click();
    // The window starts its first reduction at once and repaints until it is done: on a
    // loaded machine that outlasts `run`'s step limit, so this steps without requiring rest.
    h.run_ok();
    h.get_by_label("simplify tolerance").set_value_accesskit(1e-3);
    // The reduction runs on a worker thread: step frames until its preview arrives.
    for _ in 0..200 {
        h.step();
        if app(&h).ui.previews.of::<Simplify>().is_some_and(|p| p.asked.tolerance == 1e-3) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let made = app(&h).ui.previews.get(id::<Simplify>()).cloned().expect("a preview while the window is open");
    let preview = made.of::<Simplify>().unwrap();
    assert_eq!(preview.tracks.len(), 1);
    h.run();
    h.get_by_label("Apply").click();
    h.run();
    let after = app(&h).project().clone();
    let reduced = &after.tracks[0];
    assert_eq!(reduced.interpolation, Interpolation::Bezier);
    assert!(reduced.keys.len() < 40, "{} keys", reduced.keys.len());
    let curve = TrackCurve::new(reduced).unwrap();
    let mut ev = curve.evaluator();
    for k in &original.tracks[0].keys {
        assert!((ev.value_at(k.time)[0] - k.value[0]).abs() <= 1e-3, "at {}", k.time);
    }
    // The curve in place is the one the reduction's worker compiled with the preview.
    let in_place = app(&h).doc.curve(0).unwrap().as_ref().unwrap().clone();
    assert_eq!(in_place.times(), preview.tracks[0].result.as_ref().unwrap().compiled.as_ref().unwrap().curve.as_ref().unwrap().times());
    let (mut a, mut b) = (in_place.evaluator(), curve.evaluator());
    assert!((0..=100).all(|i| a.value_at(f64::from(i) * 0.05) == b.value_at(f64::from(i) * 0.05)), "the reduced keys' curve");
    assert!(app(&h).ui.status.text.starts_with("Simplified 1 track: 301 ->"), "{}", app(&h).ui.status.text);
    assert!(app(&h).ui.previews.of::<Simplify>().is_none(), "the preview goes with the window");
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &original);
}

/// Dropping a `.glb` on the window opens File > Import… on it; "add to this project" adds
/// its tracks (Bezier keys, from Blender's exporter) as one undo step, with the report shown.
#[test]
fn a_dropped_glb_is_imported_into_the_open_project_as_one_step() {
    let mut h = harness(bezier_project());
    let original = app(&h).project().clone();
    let glb = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import-samples/bezier_mover.glb");
    h.input_mut().dropped_files.push(std::sync::Arc::new(Dropped(glb)));
    h.run();
    assert!(app(&h).ui.windows.is_open(crate::app::Window::Import), "the drop opens the Import window");
    h.get_by_label("add to this project").click();
    h.run();
    h.get_by_label("Import").click();
    for _ in 0..300 {
        h.step();
        if app(&h).project().tracks.len() > original.tracks.len() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    h.run();
    let p = app(&h).project().clone();
    assert_eq!(p.tracks.len(), original.tracks.len() + 3, "{}", app(&h).ui.status.text);
    assert_eq!(p.tracks[1].name, "Mover.translation");
    assert_eq!(p.tracks[1].interpolation, Interpolation::Bezier);
    assert!(app(&h).ui.status.text.starts_with("Added 3 tracks from"), "{}", app(&h).ui.status.text);
    assert!(h.state().panels.import.report.as_deref().is_some_and(|r| r.contains("Mover.translation")));
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &original, "one undo step");
}

/// A large document draws the active track's curve and says in the status bar how many are
/// not drawn; Shift+H draws them all; selecting a key on another track draws that one too.
#[test]
fn a_large_document_draws_the_active_and_selected_tracks() {
    let tracks = (0..40)
        .map(|t| {
            Track::new(format!("bone{t}"), TrackKind::Scalar, Interpolation::Linear)
                .with_keys(vec![Key::new(0.0, vec![f64::from(t)]), Key::new(1.0, vec![0.0])])
        })
        .collect();
    let mut h = harness(Project { tracks, ..Project::default() });
    let cx_hidden = |h: &egui_kittest::Harness<'_, super::TangentApp>| {
        let s = &h.state().state;
        super::PanelContext { doc: &s.doc, view: &s.view, ui: &s.ui }.hidden_curves()
    };
    assert_eq!(cx_hidden(&h), 39, "only the active track is drawn");
    h.get_by_label("39 curves not drawn (Shift+H draws all)");
    h.state_mut().state.doc.selection.insert(crate::edit::intent::KeyRef { track: 7, key: 0 });
    h.run();
    assert_eq!(cx_hidden(&h), 38, "a track with selected keys is drawn");
    h.key_press_modifiers(Modifiers::SHIFT, K::H);
    h.run();
    assert!(app(&h).view.show_all_curves);
    assert_eq!(cx_hidden(&h), 0);
    assert!(h.query_by_label_contains("curves not drawn").is_none());
    // The track list filters by name.
    h.get_by_label("track filter").click();
    h.run();
    h.get_by_label("track filter").type_text("bone1");
    h.run();
    h.get_by_label("11 of 40 tracks");
}

/// However many keys a track has, its curve is drawn with at most three points per pixel
/// column of the plot (the column's edge sample and its keys' min/max envelope, `lod.rs`).
#[test]
fn drawn_points_are_bounded_by_the_plot_width() {
    for keys in [10, 1_000, 100_000] {
        let k = (0..keys).map(|i| Key::new(i as f64 * 0.01, vec![(i as f64 * 0.1).sin()]));
        let mut h =
            harness(Project { tracks: vec![Track::new("dense", TrackKind::Scalar, Interpolation::Linear).with_keys(k.collect())], ..Project::default() });
        h.run();
        let width = h.state().panels.graph.transform.unwrap().frame().width();
        let drawn = h.state().panels.graph.drawn_points;
        let per_column = super::graph::lod::POINTS_PER_COLUMN as f32;
        assert!(drawn > 0 && drawn as f32 <= per_column * width + 1.0, "{keys} keys: {drawn} points in {width} px");
    }
}

/// Tracks named as an import names them are grouped by node, collapsed in a large document;
/// a group's checkbox hides all its tracks as one undo step, and its row opens it.
#[test]
fn a_large_documents_tracks_are_grouped_by_node() {
    let tracks = (0..20)
        .flat_map(|b| {
            ["translation", "scale"].map(|ch| {
                Track::new(format!("bone{b}.{ch}"), TrackKind::Scalar, Interpolation::Linear)
                    .with_keys(vec![Key::new(0.0, vec![f64::from(b)]), Key::new(1.0, vec![0.0])])
            })
        })
        .collect();
    let mut h = harness(Project { tracks, ..Project::default() });
    assert!(h.query_by_label("show bone3.translation").is_none(), "groups start collapsed");
    h.get_by_label("show group bone3").click();
    h.run();
    let hidden: Vec<bool> = app(&h).project().tracks.iter().map(|t| t.visible).collect();
    assert_eq!(hidden.iter().filter(|v| !**v).count(), 2, "both tracks of bone3 hidden");
    assert!(!hidden[6] && !hidden[7]);
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert!(app(&h).project().tracks.iter().all(|t| t.visible), "one undo step shows both again");
    h.get_by_label_contains("+ bone3 (2/2 shown)").click();
    h.run();
    h.get_by_label("show bone3.translation");
    h.get_by_label("show bone3.scale");
}

/// Opening a big file by typed path, as a user does: the progress window shows while it loads
/// on a worker thread, then the document is there, framed in the graph.
#[test]
fn a_big_file_opens_with_a_progress_window() {
    let dir = std::env::temp_dir().join(format!("tangent-ui-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("take.ron");
    let tracks = (0..30)
        .map(|t| {
            let keys = (0..3000).map(|i| Key::new(f64::from(i) / 30.0, vec![f64::from(i + t).sin() * 5.0, 1.0, 2.0])).collect();
            Track::new(format!("bone{t}.translation"), TrackKind::Vec3, Interpolation::Tcb).with_keys(keys)
        })
        .collect();
    crate::io::save_project(&path, &Project { tracks, ..Project::default() }).unwrap();
    let mut h = harness(bezier_project());
    super::tests::open_by_typed_path(&mut h, &path);
    h.step();
    h.step();
    assert!(h.state().is_loading(), "a 5 MB file loads on a worker thread");
    h.step();
    h.get_by_label_contains("The open document stays as it is");
    let start = std::time::Instant::now();
    while h.state().is_loading() {
        assert!(start.elapsed().as_secs() < 60);
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.step();
    }
    h.step();
    h.step();
    assert_eq!(app(&h).project().tracks.len(), 30);
    assert!(app(&h).ui.status.text.starts_with("Opened"), "{}", app(&h).ui.status.text);
    assert!(h.query_by_label_contains("The open document stays as it is").is_none(), "the progress window is gone");
    let b = *h.state().panels.graph.transform.unwrap().bounds();
    assert!(b.min()[0] <= 0.0 && b.max()[0] >= 2999.0 / 30.0, "the new document is framed: {b:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Convert to Bézier on more keys than the window converts at once (24,000 > 20,000): a
/// spinner while a worker converts, then the preview; Convert puts that conversion in place
/// as one undo step, the curves unchanged.
#[test]
fn convert_of_many_keys_previews_on_a_worker_then_converts_as_one_step() {
    let track = |t: usize| {
        let keys = (0..8000).map(|i| Key::new(i as f64 / 30.0, vec![(i as f64 * 0.05 + t as f64).sin()]).with_tcb(0.2, 0.0, 0.0)).collect();
        Track::new(format!("t{t}"), TrackKind::Scalar, Interpolation::Tcb).with_keys(keys)
    };
    let original = Project { tracks: (0..3).map(track).collect(), ..Project::default() };
    let mut h = harness(original.clone());
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    h.state_mut().state.ui.windows.open(window::<ConvertToBezier>());
    h.step();
    assert!(h.state().panels.tools.is_busy(id::<ConvertToBezier>()), "converting on a worker");
    for _ in 0..500 {
        h.step();
        if !h.state().panels.tools.is_busy(id::<ConvertToBezier>()) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    h.run();
    assert!(h.query_by_label("Converting the tracks to measure the difference…").is_none(), "the preview arrived");
    h.get_by_label("Convert").click();
    h.run();
    let p = app(&h).project().clone();
    assert!(p.tracks.iter().all(|t| t.interpolation == Interpolation::Bezier), "{}", app(&h).ui.status.text);
    assert!(app(&h).ui.status.text.starts_with("Converted 3 tracks"), "{}", app(&h).ui.status.text);
    for (i, (a, b)) in original.tracks.iter().zip(&p.tracks).enumerate() {
        let (a, b) = (TrackCurve::new(a).unwrap(), TrackCurve::new(b).unwrap());
        // The curve the worker compiled, which the editor now draws.
        let shown = app(&h).doc.curve(i).unwrap().as_ref().unwrap();
        let (mut ea, mut eb, mut es) = (a.evaluator(), b.evaluator(), shown.evaluator());
        for i in 0..2000 {
            let t = i as f64 * 0.1331;
            let (x, y) = (ea.value_at(t)[0], eb.value_at(t)[0]);
            assert!((x - y).abs() <= 1e-12 * x.abs().max(1.0), "at {t}: {x} vs {y}");
            assert_eq!(es.value_at(t)[0].to_bits(), y.to_bits(), "the installed curve is the track's");
        }
    }
    h.key_press_modifiers(Modifiers::COMMAND, K::Z);
    h.run();
    assert_eq!(app(&h).project(), &original, "one undo step");
}

/// Convert to Bézier on 60 tracks opened from the Key menu: the preview is scrolled and
/// summed up, so the Convert button stays on screen (it was below the window's bottom edge,
/// out of reach, with more than ~35 tracks).
#[test]
fn convert_to_bezier_on_many_tracks_keeps_its_buttons_on_screen() {
    let track = |t: usize| {
        let keys = (0..20).map(|i| Key::new(i as f64, vec![(i as f64 + t as f64).sin()])).collect();
        Track::new(format!("t{t}"), TrackKind::Scalar, Interpolation::Tcb).with_keys(keys)
    };
    let mut h = harness(Project { tracks: (0..60).map(track).collect(), ..Project::default() });
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    h.get_by_label("Key").click();
    h.run();
    h.get_by_label_contains("Convert to B").click();
    h.run();
    h.get_by_label_contains("60 tracks: 1200 -> 1200 keys");
    let convert = h.get_by_label("Convert").rect();
    assert!(convert.max.y <= 820.0, "the Convert button at {convert:?}, the screen 820 px high");
    h.get_by_label("Convert").click();
    h.run();
    assert!(app(&h).project().tracks.iter().all(|t| t.interpolation == Interpolation::Bezier), "{}", app(&h).ui.status.text);
}
