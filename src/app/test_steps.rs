//! Steps the kittest UI tests share: waiting for a worker's result, and clicking a menu entry.

use eframe::egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;

use super::tests::app;
use super::TangentApp;

/// Steps frames until `done` holds (a worker's result arrives), at most about 10 s.
pub(super) fn step_until(h: &mut Harness<'static, TangentApp>, done: impl Fn(&Harness<'static, TangentApp>) -> bool) {
    for _ in 0..1000 {
        h.step();
        if done(h) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the worker's result did not arrive: {}", app(h).ui.status.text);
}

/// Menu `menu`, then its entry whose label begins with `entry`. An entry may start a worker
/// whose window shows a spinner, asking for frames until it is done: the frames after the
/// click are run until the UI settles or kittest's step limit, whichever comes first (a busy
/// machine can keep a worker past the limit; the tests wait for results with [`step_until`]).
pub(super) fn menu(h: &mut Harness<'static, TangentApp>, menu: &str, entry: &str) {
    h.get_by_label(menu).click();
    h.run();
    h.get_all_by_label_contains(entry).find(|n| n.accesskit_node().role() == Role::Button).unwrap_or_else(|| panic!("no menu entry {entry}")).click();
    let _ = h.try_run();
}
