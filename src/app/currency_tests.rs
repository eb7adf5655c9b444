//! A result made off the UI thread, or by a window for what it saw, is applied only while the
//! document, its revision and the selection it was made for still hold (issue 28's three bugs
//! found by reading, each driven as a user meets it).

use super::tool::{made_now, window};
use super::tools::convert_bezier::ConvertToBezier;
use super::tools::simplify::Simplify;
use eframe::egui::Modifiers;
use egui_kittest::kittest::Queryable;

use super::test_steps::step_until;
use super::tests::{app, click_at, harness, key_pos};
use super::TangentApp;
use crate::io::demo_project;
use crate::{Interpolation, Key, Project, Track, TrackKind};

/// A new directory of this test process, named `name`, under the system's temp directory.
fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tangent-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// 60 dense Scalar keys on a track `b0` (Simplify offers fewer).
fn dense_b0() -> Project {
    let keys = (0..60).map(|i| {
        let t = f64::from(i) / 30.0;
        Key::new(t, vec![(3.0 * t).sin()])
    });
    Project { tracks: vec![Track::new("b0", TrackKind::Scalar, Interpolation::Linear).with_keys(keys.collect())], ..Project::default() }
}

/// Bug 1: Simplify's reduction was keyed by (tolerance, angle, revision), and every opened
/// document starts at revision 0: open another project with the window open, press Apply, and
/// the first document's reduced track replaced the new one's first track.
#[test]
fn simplify_apply_after_opening_another_project_leaves_it_as_it_was() {
    let dir = scratch_dir("currency");
    let demo_path = dir.join("demo.ron");
    crate::io::save_project(&demo_path, &demo_project()).unwrap();
    let mut h = harness(dense_b0());
    h.state_mut().state.doc.active_track = Some(0);
    h.state_mut().state.ui.windows.open(window::<Simplify>());
    step_until(&mut h, |h| app(h).ui.previews.of::<Simplify>().is_some_and(|p| p.tracks.len() == 1));
    h.run_ok();
    // Ctrl+Shift+O (File > Open path…), the path typed, Open.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, eframe::egui::Key::O);
    h.run_ok();
    h.get_by_label("Project file").click();
    h.run_ok();
    h.get_by_label("Project file").type_text(&demo_path.display().to_string());
    h.run_ok();
    h.get_by_label("Open").click();
    h.step();
    let opened = app(&h).project().clone();
    assert_eq!(opened, demo_project(), "the demo is open");
    assert!(!app(&h).doc.document.is_dirty());
    // The window is still open: Apply at once, and again once the window has had time to
    // measure the demo. Whatever it applies must be made from the demo, never b0's keys.
    for wait in [0, 50] {
        for _ in 0..wait {
            h.step();
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        h.get_by_label("Apply").click();
        h.step();
        h.step();
        let after = app(&h).project();
        let names: Vec<_> = after.tracks.iter().map(|t| (&t.name, t.kind)).collect();
        let demo: Vec<_> = opened.tracks.iter().map(|t| (&t.name, t.kind)).collect();
        assert_eq!(names, demo, "the other project's track came in");
        if app(&h).doc.document.is_dirty() {
            assert!(app(&h).ui.status.text.starts_with("Simplified"), "{}", app(&h).ui.status.text);
        }
        if h.query_by_label("Apply").is_none() {
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two TCB tracks `a` and `b`.
fn two_tcb() -> Project {
    let track = |name: &str, base: f64| {
        Track::new(name, TrackKind::Scalar, Interpolation::Tcb)
            .with_keys([0.0, 1.0, 3.0, 2.0, 5.0].iter().enumerate().map(|(i, v)| Key::new(i as f64, vec![base + v])).collect())
    };
    Project { tracks: vec![track("a", 0.0), track("b", 8.0)], ..Project::default() }
}

/// Bug 2: Convert to Bézier kept its preview by (bound, revision), not the selection: select a
/// key of `a`, open Convert, click a key of `b` instead, press Convert — `a` was converted.
#[test]
fn convert_converts_the_tracks_selected_when_it_is_pressed() {
    let mut h = harness(two_tcb());
    let a = key_pos(&h, 0, 2);
    click_at(&mut h, a, Modifiers::NONE);
    h.run_ok();
    assert!(app(&h).doc.selection.iter().all(|k| k.track == 0) && !app(&h).doc.selection.is_empty());
    h.state_mut().state.ui.windows.open(window::<ConvertToBezier>());
    h.run_ok();
    let b = key_pos(&h, 1, 2);
    click_at(&mut h, b, Modifiers::NONE);
    h.run_ok();
    assert!(app(&h).doc.selection.iter().all(|k| k.track == 1) && !app(&h).doc.selection.is_empty(), "b's key selected");
    h.get_by_label("Convert").click();
    h.run_ok();
    let p = app(&h).project();
    assert_eq!(p.tracks[0].interpolation, Interpolation::Tcb, "a was not selected when Convert was pressed");
    assert_eq!(p.tracks[1].interpolation, Interpolation::Bezier, "b was: {}", app(&h).ui.status.text);
}

/// Bug 3: a small project opened from the command line (`tangent FILE`) never recorded its
/// disk stamp, so Save overwrote a file another program had changed since.
#[test]
fn a_file_opened_from_the_command_line_knows_when_it_changed_on_disk() {
    let dir = scratch_dir("cli-stamp");
    let path = dir.join("small.ron");
    crate::io::save_project(&path, &two_tcb()).unwrap();
    let state = super::initial_state(Some(path.clone())).unwrap();
    assert!(state.doc.disk_stamp.is_some(), "the opened file's stamp is recorded");
    let mut state = state;
    // Another program writes the file (a different size, so the stamp differs at once).
    let mut other = two_tcb();
    other.tracks.pop();
    crate::io::save_project(&path, &other).unwrap();
    let saving = state.save(&path);
    assert_eq!(saving, super::Saving::Done(false), "Save asks before overwriting");
    assert_eq!(state.ui.confirm_overwrite.as_deref(), Some(path.as_path()));
    assert_eq!(crate::io::load_project(&path).unwrap(), other, "the other program's file is intact");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The dispatcher's own check, without a window in front of it: a Simplify result made for
/// another document is refused and says so; one made for this document, revision and
/// selection is applied.
#[test]
fn the_dispatcher_applies_a_simplify_result_only_for_its_own_document() {
    let ctx = eframe::egui::Context::default();
    let mut first = super::AppState::new(dense_b0(), None);
    first.doc.active_track = Some(0);
    let asked = super::tools::simplify::Asked { tolerance: 1e-3, angle: 1.0, body_bound: None };
    let made = made_now::<Simplify>(&first.doc, asked);
    // Another document at the same revision (0) with the same kind of selection.
    let mut other = super::AppState::new(demo_project(), None);
    assert_eq!(other.doc.document.revision(), first.doc.document.revision());
    let before = other.project().clone();
    super::dispatch::run_command(&ctx, &mut other, super::AppCommand::ToolApply(made.clone()));
    assert_eq!(other.project(), &before, "nothing of b0 came in");
    assert!(other.ui.status.is_error && other.ui.status.text.contains("another document is open"), "{}", other.ui.status.text);
    // The same document, once its selection changed: refused too.
    first.doc.selection.insert(super::KeyRef { track: 0, key: 3 });
    super::dispatch::run_command(&ctx, &mut first, super::AppCommand::ToolApply(made));
    assert_eq!(first.project(), &dense_b0());
    assert!(first.ui.status.text.contains("the document or the selection changed"), "{}", first.ui.status.text);
    // Made for the document as it is: applied.
    let made = made_now::<Simplify>(&first.doc, asked);
    super::dispatch::run_command(&ctx, &mut first, super::AppCommand::ToolApply(made));
    assert!(first.project().tracks[0].keys.len() < 60, "{}", first.ui.status.text);
}

/// A conversion made for another selection is not put in place: made when `a` was selected
/// and applied once `b` is, it changes nothing and the status says why (the window makes its
/// preview again for the selection as it is, so its Convert always sends a current one).
#[test]
fn a_kept_conversion_of_another_selection_is_not_put_in_place() {
    let ctx = eframe::egui::Context::default();
    let mut state = super::AppState::new(two_tcb(), None);
    state.doc.selection = std::collections::BTreeSet::from([super::KeyRef { track: 0, key: 1 }]).into();
    let done = made_now::<ConvertToBezier>(&state.doc, 1e-6);
    state.doc.selection = std::collections::BTreeSet::from([super::KeyRef { track: 1, key: 1 }]).into();
    super::dispatch::run_command(&ctx, &mut state, super::AppCommand::ToolApply(done));
    let p = state.project();
    assert_eq!((p.tracks[0].interpolation, p.tracks[1].interpolation), (Interpolation::Tcb, Interpolation::Tcb), "{}", state.ui.status.text);
    assert!(state.ui.status.text.contains("the document or the selection changed"), "{}", state.ui.status.text);
}

/// `tangent walk.glb`: a file of a kind Tangent imports opens as an untitled imported project,
/// as File > Import does (it printed "stream did not contain valid UTF-8" and exited).
#[test]
fn an_importable_file_from_the_command_line_opens_as_an_untitled_import() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/import-samples/bezier_mover.glb");
    let state = super::initial_state(Some(path.clone())).unwrap();
    let imported = crate::import::import_path(&path, &crate::import::ImportOptions::default()).unwrap();
    assert_eq!(state.project(), &imported.project);
    assert!(!state.project().tracks.is_empty());
    assert_eq!(state.doc.path, None, "untitled: Save asks where");
    // Save as offers the take's name with `.ron`, in its folder (not `untitled.ron`).
    assert_eq!(state.doc.save_as_offer(), (path.parent().map(std::path::Path::to_path_buf), "bezier_mover.ron".to_owned()));
    assert!(state.ui.status.text.starts_with("Imported ") && state.ui.status.text.contains("bezier_mover.glb"), "{}", state.ui.status.text);
    // A file of no kind Tangent reads is refused with the kinds it reads.
    let dir = scratch_dir("cli-kind");
    let fbx = dir.join("take.max");
    std::fs::write(&fbx, [0u8, 159, 146, 150, 0, 1]).unwrap();
    let error = super::initial_state(Some(fbx)).err().expect("refused").to_string();
    assert!(error.contains(".glb") && error.contains(".csv"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tangent BIG.csv` (over the size read before the window is up): the window opens with the
/// Import window importing it on its worker, and the import becomes the untitled project.
#[test]
fn a_big_importable_file_from_the_command_line_is_imported_on_a_worker() {
    let dir = scratch_dir("cli-big");
    let path = dir.join("take.csv");
    let mut text = String::from("time,root.x,root.y\n");
    for i in 0..90_000 {
        text.push_str(&format!("{},{:.6},{:.6}\n", f64::from(i) / 120.0, (f64::from(i) * 0.01).sin(), f64::from(i % 7)));
    }
    std::fs::write(&path, text).unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() > super::file_job::BACKGROUND_BYTES);
    let state = super::initial_state(Some(path.clone())).unwrap();
    assert!(state.project().tracks.is_empty(), "nothing is read before the window is up");
    assert!(state.ui.windows.is_open(super::Window::Import));
    let mut h = egui_kittest::Harness::builder()
        .with_size(eframe::egui::vec2(1300.0, 820.0))
        .build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp::new(state));
    for _ in 0..3000 {
        h.step();
        if !app(&h).project().tracks.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let imported = crate::import::import_path(&path, &crate::import::ImportOptions::default()).unwrap();
    assert_eq!(app(&h).project(), &imported.project);
    assert_eq!(app(&h).doc.path, None);
    assert!(app(&h).ui.status.text.starts_with("Imported "), "{}", app(&h).ui.status.text);
    // Imported through the Import window: Save as offers `take.ron` beside `take.csv`.
    assert_eq!(app(&h).doc.save_as_offer(), (Some(dir.clone()), "take.ron".to_owned()));
    let _ = std::fs::remove_dir_all(&dir);
}
