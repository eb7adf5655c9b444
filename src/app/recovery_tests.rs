//! The recovery offer driven as a user drives it (egui_kittest): offers listed from the
//! directory without being read, Restore on a broken copy and on a good one, Discard.

use eframe::egui;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use super::tests::{app, two_tracks};
use super::{AppState, TangentApp};
use crate::io::demo_project;

/// The recovery offers as a user meets them: listed without being read (their sizes); Restore
/// on a copy that cannot be read says why and leaves it only to discard; Restore on the other
/// reads it on a worker and restores it.
#[test]
fn recovery_offers_are_read_only_on_restore_and_restored_or_discarded_by_their_buttons() {
    let dir = std::env::temp_dir().join(format!("tangent-offers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let recovered = two_tracks();
    // Dead pids (Linux pids stay below 2^22); the good copy is the newer one, so it is first.
    let good = dir.join("tangent-4000000000-good.ron");
    crate::io::save_project(&good, &recovered).unwrap();
    let broken = dir.join("tangent-4000000001-broken.ron");
    std::fs::write(&broken, "(version: 1, fps: 30, tracks: [").unwrap();
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options().write(true).open(&broken).unwrap().set_modified(an_hour_ago).unwrap();

    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 820.0))
        .build_ui_state(|ui, app: &mut TangentApp| app.ui(ui), TangentApp::with_recovery(AppState::new(demo_project(), None), Some(dir.clone())));
    h.run();
    use super::recovery::Content;
    assert!(h.state().recovery.offers.iter().all(|o| o.content == Content::Unread), "nothing read before Restore");
    // Each offer shows its size, read from the directory.
    #[allow(clippy::cast_precision_loss)]
    let kb = std::fs::metadata(&good).unwrap().len() as f64 / 1e3;
    h.get_by_label_contains(&format!("{kb:.1} kB, saved 0 min ago"));
    use egui_kittest::kittest::NodeT;
    let restores: Vec<_> = h.get_all_by_label("Restore").collect();
    assert_eq!(restores.len(), 2);
    assert!(restores.iter().all(|r| !r.accesskit_node().is_disabled()), "both can be chosen");
    let settle = |h: &mut Harness<'static, TangentApp>| {
        let start = std::time::Instant::now();
        while h.state().recovery.offers.iter().any(|o| o.content == Content::Reading) {
            assert!(start.elapsed().as_secs() < 10, "the worker did not read the copy");
            std::thread::sleep(std::time::Duration::from_millis(10));
            h.step();
        }
        let _ = h.try_run();
    };
    // Restore on the broken copy (the second row): it says why, and only Discard is left.
    h.get_all_by_label("Restore").nth(1).unwrap().click();
    h.step();
    settle(&mut h);
    h.get_by_label_contains("Cannot be restored");
    assert!(h.get_all_by_label("Restore").nth(1).unwrap().accesskit_node().is_disabled());
    assert_eq!(app(&h).project(), &demo_project(), "a copy that fails changes nothing");
    h.get_all_by_label("Discard").nth(1).unwrap().click();
    h.run();
    assert!(!broken.exists());
    assert_eq!(h.state().recovery.offers.len(), 1);
    h.get_by_label("Restore").click();
    h.step();
    settle(&mut h);
    assert_eq!(app(&h).project().tracks, recovered.tracks);
    assert!(app(&h).ui.status.text.starts_with("Restored 2 tracks"), "{}", app(&h).ui.status.text);
    assert!(!good.exists() && h.state().recovery.offers.is_empty());
    assert!(h.query_by_label_contains("Recover unsaved work").is_none(), "the window closes with its last offer");
    let _ = std::fs::remove_dir_all(&dir);
}
