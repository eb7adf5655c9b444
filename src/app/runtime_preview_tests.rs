//! View > Preview runtime in the editor (kittest): the menu turns it on, the ghost and each
//! track's distance appear, an edit makes it again on the worker, the Export window's settings
//! reach it, Off removes it; and a result made for another revision is not put in place.

use eframe::egui;
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;

use super::commands::{AppCommand, EditCommand};
use super::key_change::KeyRef;
use super::runtime_preview::{ExportSettings, RuntimeMade, RuntimePreview};
use super::test_steps::step_within;
use super::tests::{app, harness};
use super::TangentApp;
use crate::edit::intent;
use crate::export::preview;
use crate::runtime::Runtime;

/// The demo's camera track.
fn camera(h: &Harness<'static, TangentApp>) -> usize {
    app(h).project().tracks.iter().position(|t| t.name == "camera").expect("the demo's camera")
}

/// View, Preview runtime ▸, then the entry `entry`.
fn preview_menu(h: &mut Harness<'static, TangentApp>, entry: &str) {
    h.get_by_label("View").click();
    h.run();
    let button = |h: &Harness<'static, TangentApp>, text: &str| {
        let found = h.get_all_by_label_contains(text).find(|n| n.accesskit_node().role() == egui::accesskit::Role::Button);
        found.unwrap_or_else(|| panic!("no button {text}")).click();
    };
    button(h, "Preview runtime");
    h.run();
    button(h, entry);
    let _ = h.try_run();
}

/// Steps until the preview shown is made for the document, the settings and the runtime as
/// they are.
fn preview_current(h: &mut Harness<'static, TangentApp>) {
    let start = std::time::Instant::now();
    step_within(h, 120, |h| {
        let state = app(h);
        state.ui.runtime_preview.is_current(state.doc.basis())
    });
    eprintln!("preview made in {:.1} s", start.elapsed().as_secs_f64());
    // The frame that put it in place drew the panels before: draw them again.
    h.step();
    let _ = h.try_run();
}

/// Whether the track list shows `text` as the camera's distance (a label's text is its
/// accesskit value, the name its label).
fn lists_camera(h: &Harness<'static, TangentApp>, text: &str) -> bool {
    h.query_all_by_label(text).any(|n| n.accesskit_node().label().as_deref() == Some("runtime deviation of camera"))
}

/// What `export::preview` (tested against Blender in `tests/runtime_blender_reference.rs`)
/// says for the camera of the document as it is, with `settings`, played by `runtime`.
fn expected_camera(h: &Harness<'static, TangentApp>, settings: &ExportSettings, runtime: Runtime) -> f64 {
    let project = app(h).project();
    let played = preview(project, settings.format, &settings.options().unwrap(), runtime, &|_, _| true).unwrap();
    played.iter().find(|p| p.track == camera(h)).unwrap().deviation
}

#[test]
fn the_view_menu_previews_blender_and_follows_edits_settings_and_off() {
    let mut h = harness(crate::io::demo_project());
    assert!(h.query_all_by_label_contains("Δ").next().is_none(), "no distance listed");
    preview_menu(&mut h, "[ ] Blender 4.2+");
    preview_current(&mut h);
    let state = app(&h);
    assert_eq!(state.ui.runtime_preview.runtime, Some(Runtime::Blender));
    let ghost = state.ui.runtime_preview.ghost().expect("the ghost");
    assert_eq!(ghost.label, "Blender 4.2+ playback");
    let exported = ghost.tracks.len();
    assert!(exported >= 5, "{exported} tracks played");
    // The track list: the camera's distance, as export::preview measures it.
    // The project's settings: GLB at its own frame rate (the demo's 30 fps).
    let settings = app(&h).ui.runtime_preview.settings.clone();
    assert_eq!(settings, ExportSettings::at_fps(30.0));
    let before = expected_camera(&h, &settings, Runtime::Blender);
    assert!(lists_camera(&h, &format!("Δ {before:.1e}")), "{before}");
    assert!(before > 1e-5, "the default export (one key per frame) read by Blender: {before}");

    // An edit: the preview is made again on the worker, for the new keys.
    let cam = camera(&h);
    let edit = intent::change_key(app(&h).project(), KeyRef { track: cam, key: 1 }, |k| k.value[1] += 2.0).unwrap();
    let revision = app(&h).doc.basis().revision;
    h.state_mut().queue.push(EditCommand::new("Move key", edit).into());
    h.step();
    assert!(app(&h).doc.basis().revision > revision);
    assert!(!app(&h).ui.runtime_preview.is_current(app(&h).doc.basis()), "the shown preview is of the keys before");
    preview_current(&mut h);
    let after = expected_camera(&h, &settings, Runtime::Blender);
    assert!((after - before).abs() > 1e-6, "the edit changes the camera's distance: {before} → {after}");
    assert!(lists_camera(&h, &format!("Δ {after:.1e}")), "{after}");

    // The Export window's settings reach it: adaptive keys made for Blender within 1e-3.
    let adaptive = ExportSettings { adaptive: true, bound: 1e-3, runtime: Runtime::Blender, ..Default::default() };
    h.state_mut().queue.push(AppCommand::SetExportSettings(Box::new(adaptive.clone())));
    preview_current(&mut h);
    let shown = app(&h).ui.runtime_preview.shown.as_ref().unwrap();
    assert_eq!(shown.asked.settings, adaptive);
    assert!(shown.deviation.values().all(|&d| d <= 1e-3 * (1.0 + 1e-3)), "{:?}", shown.deviation);
    let camera_now = expected_camera(&h, &adaptive, Runtime::Blender);
    assert!(lists_camera(&h, &format!("Δ {camera_now:.1e}")), "{camera_now}");

    // Blender 3.4 is an entry of its own: the same keys as its model plays them.
    preview_menu(&mut h, "[ ] Blender 3.4");
    preview_current(&mut h);
    let state = app(&h);
    assert_eq!(state.ui.runtime_preview.runtime, Some(Runtime::Blender34));
    assert_eq!(state.ui.runtime_preview.ghost().expect("the ghost").label, "Blender 3.4 playback");
    let camera_34 = expected_camera(&h, &adaptive, Runtime::Blender34);
    assert!(camera_34 != camera_now, "{camera_34}");
    assert!(lists_camera(&h, &format!("Δ {camera_34:.1e}")), "{camera_34}");

    preview_menu(&mut h, "[ ] Off");
    let state = app(&h);
    assert!(state.ui.runtime_preview.ghost().is_none() && state.ui.runtime_preview.runtime.is_none());
    assert!(h.query_all_by_label_contains("Δ").next().is_none(), "no distance listed");
}

/// The Export window's "Preview as" turns the preview on with its settings; the window lists
/// the distances.
#[test]
fn preview_as_in_the_export_window_turns_the_preview_on() {
    let mut h = harness(crate::io::demo_project());
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::E);
    h.run();
    h.get_by_label("adaptive").click();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::SpinButton, "export error bound").set_value_accesskit(1e-3);
    h.run();
    h.get_by_label("Preview as").click();
    h.step();
    preview_current(&mut h);
    let state = app(&h);
    assert_eq!(state.ui.runtime_preview.runtime, Some(Runtime::Blender));
    let settings = state.ui.runtime_preview.settings.clone();
    assert!(settings.adaptive && settings.bound == 1e-3 && settings.runtime == Runtime::Spec, "{settings:?}");
    let camera = expected_camera(&h, &settings, Runtime::Blender);
    assert!(camera > 0.1, "the specification's keys read by Blender: {camera}");
    assert!(h.query_by_label_contains("Blender 4.2+ plays each track within").is_some());
    // The camera is a Vec3 track: its distance is in file units, and says so.
    assert!(h.query_by_label(&format!("{camera:.2e} file units")).is_some(), "{camera}");
}

/// A preview made for one revision is not put in place at another, and is at its own.
#[test]
fn a_preview_made_for_another_revision_is_not_put_in_place() {
    let ctx = egui::Context::default();
    let mut state = super::state::AppState::new(crate::io::demo_project(), None);
    let made_for = state.doc.basis();
    let mut rp = RuntimePreview::default();
    rp.set_runtime(Some(Runtime::Blender));
    rp.keep_current(made_for, || state.doc.document.shared_project(), &ctx);
    assert!(rp.is_busy());
    let made = loop {
        if let Some(m) = rp.finished() {
            break m;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let edit = intent::change_key(state.project(), KeyRef { track: 0, key: 0 }, |k| k.value[0] += 1.0).unwrap();
    state.doc.apply("Move key", edit).unwrap();
    let now = state.doc.basis();
    assert_ne!(now.revision, made_for.revision);
    let tracks = made.made.as_ref().expect("made").as_ref().expect("played").clone();
    let again = RuntimeMade { asked: made.asked.clone(), made: Some(Ok(tracks)), body: Default::default() };
    let cancelled = RuntimeMade { asked: made.asked.clone(), made: None, body: Default::default() };
    assert!(rp.install(made, now).is_none());
    assert!(rp.shown.is_none() && rp.ghost().is_none(), "made for the revision before");
    // A cancelled job's (nothing made) changes nothing at its own revision either.
    assert!(rp.install(cancelled, made_for).is_none());
    assert!(rp.shown.is_none());
    // The same result at the revision it was made for is put in place.
    assert!(rp.install(again, made_for).is_none());
    assert!(rp.ghost().is_some_and(|g| g.label == "Blender 4.2+ playback"));
    assert!(rp.is_current(made_for) && !rp.is_current(now));
    // Another selection at the same revision: still current (the keys are what it plays), so
    // clicking keys does not make it again.
    let reselected = super::basis::Basis { selection: made_for.selection + 1, ..made_for };
    assert!(rp.is_current(reselected));
    rp.keep_current(reselected, || state.doc.document.shared_project(), &ctx);
    assert!(!rp.is_busy(), "a selection change started another preview");
}

/// View > Preview runtime ▸ Godot 3.2: the default export (one key per frame) resampled at
/// Godot's 15 fps, its camera listed as `export::preview` measures it (tested against Godot in
/// `tests/runtime_godot_reference.rs`).
#[test]
fn the_godot_preview_lists_what_its_resampling_plays() {
    let mut h = harness(crate::io::demo_project());
    preview_menu(&mut h, "[ ] Godot 3.2");
    preview_current(&mut h);
    assert_eq!(app(&h).ui.runtime_preview.ghost().expect("the ghost").label, "Godot 3.2 playback");
    let camera = expected_camera(&h, &app(&h).ui.runtime_preview.settings.clone(), Runtime::Godot);
    assert!(camera > 1e-3, "15 fps resampling of the camera: {camera}");
    assert!(lists_camera(&h, &format!("Δ {camera:.1e}")), "{camera}");
}

/// A take with a skeleton: the preview measures the body as the runtime plays the export
/// (its played tracks in place of the document's), the same figure as computed here from
/// `export::preview` and `body::replaced_difference`, and the Export window shows it.
#[test]
fn the_preview_measures_the_body_as_the_runtime_plays_it() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/problems/clean.bvh");
    let crate::open::Opened::Imported(take) = crate::open::open_any(&path).unwrap() else { panic!("a BVH take") };
    let project = take.project;
    let mut h = harness(project.clone());
    preview_menu(&mut h, "Blender 4.2+");
    preview_current(&mut h);
    let shown = app(&h).ui.runtime_preview.shown.as_ref().expect("a preview");
    let Some(Ok(d)) = &shown.body.0 else { panic!("the body measured: {:?}", shown.body) };
    let settings = app(&h).ui.runtime_preview.settings.clone();
    let options = settings.options().unwrap();
    let played = preview(&project, settings.format, &options, Runtime::Blender, &|_, _| true).unwrap();
    let curves: Vec<(usize, &crate::TrackCurve)> = played.iter().map(|p| (p.track, &p.played)).collect();
    let want = crate::body::replaced_difference(&project, &curves).unwrap().unwrap();
    assert_eq!(d, &want);
    assert!(d.distance > 0.0 && d.distance < 0.01 * crate::body::Rig::new(&project).unwrap().size(), "{d}");
}
