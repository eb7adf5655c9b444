//! The commands of Bézier keys' segment settings: the `T` (interpolation mode) and `Ctrl+E`
//! (easing) menus and their entries, which set the selected Bézier keys' interpolation or
//! easing as one undo step (`Change::OnBezier`, on a worker for a big selection).

use std::sync::Arc;

use eframe::egui;

use super::commands::Command;
use super::payload::{Change, ChangeFn, KeyChange, KeyRef, Status, Window};
use super::state::AppState;

/// The dispatcher's change of the selected keys (it ends an open gesture first).
pub(super) type ChangeKeys = fn(&egui::Context, &mut AppState, KeyChange) -> bool;

/// The `V`, `T` and `Ctrl+E` menus and the entries of the last two: a menu opens at the
/// pointer when keys are selected; an entry sets the selected Bézier keys' interpolation or easing.
/// `change_keys` is the dispatcher's (passed in, so this module does not import it back).
pub(super) fn segment_command(ctx: &egui::Context, state: &mut AppState, command: Command, change_keys: ChangeKeys) {
    match command {
        Command::HandleTypeMenu | Command::InterpolationMenu | Command::EasingMenu => {
            let (window, what) = match command {
                Command::HandleTypeMenu => (Window::HandleTypeMenu, "Handle type"),
                Command::InterpolationMenu => (Window::InterpolationMenu, "Interpolation mode"),
                _ => (Window::EasingMenu, "Easing"),
            };
            if state.doc.selection.is_empty() {
                state.set_status(Status::message(format!("{what}: select Bézier keys first")));
            } else {
                state.ui.windows.open(window);
            }
        }
        Command::SetKeyInterpolation(mode) => {
            let text = format!("interpolation {}", command.text());
            set_key_segments((ctx, change_keys), state, "Set interpolation", &text, Arc::new(move |k: &mut crate::Key| k.interpolation = mode));
        }
        Command::SetEasing(easing) => {
            let text = command.text().to_lowercase();
            set_key_segments((ctx, change_keys), state, "Set easing", &text, Arc::new(move |k: &mut crate::Key| k.easing = easing));
        }
        _ => {}
    }
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
    change_keys(ctx, state, KeyChange { label: label.to_owned(), gesture: false, change: Change::OnBezier(change) });
    let note = if other > 0 { format!(" ({other} keys not on Bézier tracks left as they were)") } else { String::new() };
    state.set_status(Status::message(format!("Set {text} on {bezier} keys{note}")));
}
