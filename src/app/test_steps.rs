//! Steps the kittest UI tests share: waiting for a worker's result (the blend slider's among
//! them), and clicking a menu entry.

use eframe::egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;

use super::tests::app;
use super::TangentApp;

/// Steps frames until `done` holds (a worker's result arrives), at most about 10 s.
pub(super) fn step_until(h: &mut Harness<'static, TangentApp>, done: impl Fn(&Harness<'static, TangentApp>) -> bool) {
    step_within(h, 10, done);
}

/// Steps frames until `done` holds, at most about `seconds` (a worker whose work is long in
/// a debug build: an adaptive export).
pub(super) fn step_within(h: &mut Harness<'static, TangentApp>, seconds: u32, done: impl Fn(&Harness<'static, TangentApp>) -> bool) {
    for _ in 0..seconds * 100 {
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

/// Steps frames until the open blend slider's keys are at the factor it shows (its worker's
/// result has landed and no other is being made; at once when no slider is open), then until
/// the UI settles, so what is on screen shows them.
pub(super) fn blend_settled(h: &mut Harness<'static, TangentApp>) {
    step_until(h, |h| app(h).ui.blend.as_ref().is_none_or(|s| !h.state().panels.blend.waiting(s)));
    let _ = h.try_run();
}
