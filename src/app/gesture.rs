//! One path for an edit: the one place a widget's response becomes the step of a gesture a
//! panel sends ([`step`]). Every editing drag and widget — keys, tangents, Bézier and ease
//! handles in the graph, keys in the dope sheet, points in the path view, inspector fields,
//! a group's show/hide box — sends `AppCommand::Gesture` made here; the dispatcher applies
//! each step by one function (`dispatch::gesture`), so a drag is one undo step however many
//! frames it has, and no panel opens or closes an undo step itself.

use eframe::egui;

use super::commands::AppCommand;
use super::key_change::{Change, Gesture, Phase};

/// The step of a gesture `r` makes this frame, labelled `label` (the undo step's name), with
/// `change` if the panel made one: `Begin` when its drag starts, `Change` while it is dragged,
/// `End` when it stops, `Once` for a change that is no drag (typed, clicked). `None` when
/// there is nothing to send (no drag under way and no change).
#[must_use]
pub fn step(r: &egui::Response, label: &str, change: Option<Change>) -> Option<AppCommand> {
    let phase = match (r.drag_started(), r.drag_stopped()) {
        (true, true) => Phase::Once,
        (true, false) => Phase::Begin,
        (false, true) => Phase::End,
        (false, false) if r.dragged() => Phase::Change,
        (false, false) => Phase::Once,
    };
    let empty = change.is_none() && matches!(phase, Phase::Change | Phase::Once);
    (!empty).then(|| AppCommand::Gesture(Gesture { label: label.to_owned(), phase, change }))
}
