//! The commands of Bézier keys' segment settings: the `T` (interpolation mode) and `Ctrl+E`
//! (easing) menus and their entries, which set the selected Bézier keys' interpolation or
//! easing as one undo step (`Change::OnBezier`, on a worker for a big selection).

use std::sync::Arc;

use eframe::egui;

use super::commands::Command;
use super::key_change::{Change, ChangeFn, Gesture, KeyRef, Phase};
use super::message::Status;
use super::state::AppState;
use super::windows::Window;
use crate::model::{Easing, KeyInterpolation};

/// The dispatcher's step of a gesture (`dispatch::gesture`; a `Once` step ends an open
/// gesture first and is an undo step of its own).
pub(super) type ChangeKeys = fn(&egui::Context, &mut AppState, Gesture) -> bool;

/// The `V`, `T` or `Ctrl+E` menu (`window`, named `what` in the status bar) opens at the
/// pointer when keys are selected.
pub(super) fn open_menu(state: &mut AppState, window: Window, what: &str) {
    if state.doc.selection.is_empty() {
        state.set_status(Status::message(format!("{what}: select Bézier keys first")));
    } else {
        state.ui.windows.open(window);
    }
}

/// An entry of the `T` menu: the selected Bézier keys' interpolation set to `mode`.
/// `change_keys` is the dispatcher's (passed in, so this module does not import it back).
pub(super) fn set_interpolation(ctx: &egui::Context, state: &mut AppState, mode: KeyInterpolation, change_keys: ChangeKeys) {
    let text = format!("interpolation {}", Command::SetKeyInterpolation(mode).text());
    set_key_segments((ctx, change_keys), state, "Set interpolation", &text, Arc::new(move |k: &mut crate::Key| k.interpolation = mode));
}

/// An entry of the `Ctrl+E` menu: the selected Bézier keys' easing set to `easing`.
pub(super) fn set_easing(ctx: &egui::Context, state: &mut AppState, easing: Easing, change_keys: ChangeKeys) {
    let text = Command::SetEasing(easing).text().to_lowercase();
    set_key_segments((ctx, change_keys), state, "Set easing", &text, Arc::new(move |k: &mut crate::Key| k.easing = easing));
}

/// Key > Interpolation mode or Easing: `change` on every selected key of a Bezier track (one
/// undo step, on a worker for a big selection), the status saying how many keys got `text`.
fn set_key_segments((ctx, change_keys): (&egui::Context, ChangeKeys), state: &mut AppState, label: &str, text: &str, change: ChangeFn) {
    let project = state.project();
    let on_bezier = |k: &KeyRef| project.tracks.get(k.track).is_some_and(|t| t.interpolation == crate::Interpolation::Bezier);
    let (bezier, other) = state.doc.selection.iter().fold((0, 0), |(b, o), k| if on_bezier(k) { (b + 1, o) } else { (b, o + 1) });
    if bezier == 0 {
        state.set_status(Status::message(format!("{label}: select keys on a Bézier track first (Key > Convert to Bézier)")));
        return;
    }
    change_keys(ctx, state, Gesture { label: label.to_owned(), phase: Phase::Once, change: Some(Change::OnBezier(change)) });
    let note = if other > 0 { format!(" ({other} keys not on Bézier tracks left as they were)") } else { String::new() };
    state.set_status(Status::message(format!("Set {text} on {bezier} keys{note}")));
}
