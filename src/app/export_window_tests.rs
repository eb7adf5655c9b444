//! The Export window in the editor (kittest): it opens at the project's frame rate, its
//! settings are kept in the project (unsaved until saved, no undo step) and come back when the
//! saved file is opened; and the figures the editor's messages show carry their units
//! (Export's largest error, Simplify's table and status).

use crate::app::tools::simplify::Simplify;
use eframe::egui::accesskit::Role;
use eframe::egui::{Key as K, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;

use super::commands::AppCommand;
use super::test_steps::{step_until, step_within};
use super::tests::{app, harness};
use super::TangentApp;
use crate::io::demo_project;
use crate::runtime::Runtime;
use crate::{Interpolation, Key, Project, Track, TrackKind};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tangent-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// File > Export… (Ctrl+Shift+E).
fn open_export(h: &mut Harness<'static, TangentApp>) {
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, K::E);
    h.run();
}

/// The number the drag-value field `name` shows.
fn field(h: &Harness<'static, TangentApp>, name: &str) -> f64 {
    h.get_by_role_and_label(Role::SpinButton, name).accesskit_node().numeric_value().unwrap_or_else(|| panic!("{name} shows no number"))
}

/// A 120 fps take: the window opens at 120 fps (it opened at 60); opening it changes nothing.
/// A setting changed marks the project unsaved without an undo step; saved, the file keeps
/// it (version 6), and a new editor on the saved file shows it again.
#[test]
fn the_export_window_opens_at_the_projects_fps_and_its_settings_are_saved_with_it() {
    let dir = scratch("export-settings");
    let mut project = demo_project();
    project.fps = 120.0;
    let mut h = harness(project);
    open_export(&mut h);
    assert_eq!(field(&h, "export fps"), 120.0);
    assert!(!app(&h).doc.document.is_dirty(), "opening the window changes nothing");
    assert_eq!(app(&h).project().export, None);

    h.get_by_role_and_label(Role::SpinButton, "export fps").set_value_accesskit(48.0);
    h.run();
    h.get_by_label("adaptive").click();
    h.run();
    h.get_by_label(Runtime::Blender34.label()).click();
    h.run();
    let kept = app(&h).project().export.clone().expect("kept in the project");
    assert!(kept.fps == 48.0 && kept.adaptive && kept.runtime == Runtime::Blender34, "{kept:?}");
    assert_eq!(app(&h).ui.runtime_preview.settings, kept, "the runtime preview plays them");
    assert!(app(&h).doc.document.is_dirty() && app(&h).title().contains('*'), "unsaved");
    assert_eq!(app(&h).doc.document.undo_label(), None, "not an undo step");

    let path = dir.join("take.ron");
    h.state_mut().queue.push(AppCommand::SaveTo(path.clone()));
    h.run();
    assert!(!app(&h).doc.document.is_dirty(), "{}", app(&h).ui.status.text);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("version: 6") && text.contains("export: Some(("), "{text}");

    let loaded = crate::io::load_project(&path).unwrap();
    assert_eq!(loaded.export.as_ref(), Some(&kept));
    let mut again = harness(loaded);
    open_export(&mut again);
    assert_eq!(field(&again, "export fps"), 48.0);
    assert_eq!(app(&again).ui.runtime_preview.settings, kept);
    assert!(!app(&again).doc.document.is_dirty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Export's status gives the largest error per unit: the demo's values in file units and its
/// rotations in degrees (the export measures them in radians).
#[test]
fn the_export_status_gives_its_error_with_units() {
    let dir = scratch("export-units");
    let mut h = harness(demo_project());
    open_export(&mut h);
    h.state_mut().panels.export.path = dir.join("demo.glb").display().to_string();
    h.get_by_role_and_label(Role::Button, "Export").click();
    step_within(&mut h, 120, |h| app(h).ui.status.text.starts_with("Exported") || app(h).ui.status.is_error);
    let text = app(&h).ui.status.text.clone();
    let error = text.split("largest error ").nth(1).unwrap_or_else(|| panic!("{text}"));
    assert!(error.contains(" file units") && error.contains(" deg)"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// 60 dense keys of a sine, on a Scalar track and on an Euler track's x angle (radians).
fn dense(name: &str, kind: TrackKind) -> Track {
    let keys = (0..60).map(|i| {
        let t = f64::from(i) / 30.0;
        let mut value = kind.zero_value();
        value[0] = (3.0 * t).sin();
        Key::new(t, value)
    });
    Track::new(name, kind, Interpolation::Linear).with_keys(keys.collect())
}

/// Simplify's table gives each track's error with its unit (the Euler track's is the angle
/// between the rotations, in degrees, as `reduce` measures every rotation), and so does the
/// status after Apply.
#[test]
fn simplify_shows_its_errors_with_units() {
    let project = Project { tracks: vec![dense("b0", TrackKind::Scalar), dense("spin", TrackKind::Euler)], ..Project::default() };
    let mut h = harness(project);
    h.key_press_modifiers(Modifiers::COMMAND, K::A);
    h.run();
    h.state_mut().state.ui.windows.open(crate::app::tool::window::<Simplify>());
    step_until(&mut h, |h| app(h).ui.previews.of::<Simplify>().is_some_and(|p| p.tracks.len() == 2));
    let _ = h.try_run();
    let made = app(&h).ui.previews.get(crate::app::tool::id::<Simplify>()).cloned().expect("the reduction");
    let preview = made.of::<Simplify>().unwrap();
    let reduced = |i: usize| &preview.tracks[i].result.as_ref().expect("reduced").report;
    let error = |i: usize| reduced(i).max_error;
    h.get_by_label(&format!("{:.2e} file units", error(0)));
    assert!(reduced(1).is_angle(), "an Euler track is measured as an angle");
    h.get_by_label(&format!("{:.2e} deg", error(1)));
    h.get_by_label("Apply").click();
    h.run();
    let status = app(&h).ui.status.text.clone();
    assert!(status.starts_with("Simplified 2 tracks"), "{status}");
    assert!(status.contains(&format!("largest error {:.2e} file units, {:.2e} deg", error(0), error(1))), "{status}");
}
