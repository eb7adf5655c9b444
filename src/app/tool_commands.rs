//! The dispatcher's commands that replace tracks or keys (`dispatch.rs` hands them here): a
//! tool's Apply (Smooth, Simplify, Scale time, Insert and Remove time, Convert…: `tool.rs`)
//! and the blend sliders. Each is one undo step, and what it replaced becomes the ghost of the
//! original (`UiState::ghost`) where the tool leaves one.
//!
//! A blend slider is a session (`UiState::blend`, `document/blend.rs`): its window makes each
//! factor's keys on a worker and sends them here; the first that lands closes any other
//! gesture and opens the slider's own, every one puts the original keys blended at its factor
//! in place if the document, revision and selection it was made for still hold, and OK closes
//! the gesture — one undo step however many drags. Cancel abandons that gesture (`DocState::abandon_gesture`): the keys are as they
//! were and neither Undo nor Redo sees it. When another edit, an undo or another document
//! came between, the slider closes and leaves the keys as they are.

use super::basis::Needs;
use super::commands::BlendCommand;
use super::document::DocState;
use super::message::Status;
use super::state::AppState;
use super::tool::ToolMade;
use crate::blend::BlendTool;

/// A tool's Apply (`AppCommand::ToolApply`): put in place by the tool
/// (`AnyToolResult::apply`, one undo step) if what it was made for still holds; the curves it
/// replaced become the ghost if the tool leaves one.
pub fn apply_tool(state: &mut AppState, made: &ToolMade) -> bool {
    state.end_gesture();
    let name = made.0.tool().name();
    if state.current(&made.0.made_for(), Needs::Everything, name) {
        let replaced: Vec<usize> = made.0.new_tracks().iter().map(|t| t.0).collect();
        let tracks = if made.0.ghost() { &replaced[..] } else { &[] };
        with_ghost(state, name, tracks, |doc| made.0.apply(doc));
    }
    true
}

/// Runs `edit` on the document; if it changed it, the curves `tracks` had before become the
/// ghost (none when `tracks` is empty). The status says what `edit` says.
fn with_ghost(state: &mut AppState, label: &str, tracks: &[usize], edit: impl FnOnce(&mut DocState) -> Status) {
    let ghost = state.doc.ghost_of(label, tracks);
    let revision = state.doc.document.revision();
    let s = edit(&mut state.doc);
    if state.doc.document.revision() != revision && ghost.is_some() {
        state.ui.ghost = ghost;
    }
    state.set_status(s);
}

/// Key > Blend to Neighbor, Breakdown or Blend to Ease: the slider opens on the selected keys
/// (or the status says why not: nothing selected, the engine's refusal of a quaternion track).
pub fn open_blend(state: &mut AppState, tool: BlendTool) {
    if state.ui.blend.is_some() {
        blend(state, BlendCommand::Keep);
    }
    match state.doc.start_blend(tool) {
        Ok(session) => {
            let mut text = format!("{}: drag the slider; Enter keeps, Escape restores", session.status_text());
            if !session.refused.is_empty() {
                text = format!("{text}; left out: {}", session.refused.join("; "));
            }
            state.set_status(Status::message(text));
            state.ui.blend = Some(session);
        }
        Err(s) => state.set_status(s),
    }
}

/// The open slider's command (module docs).
pub fn blend(state: &mut AppState, command: BlendCommand) -> bool {
    let Some(mut session) = state.ui.blend.take() else { return false };
    let label = session.tool.label();
    let holds = state.doc.blend_holds(&session);
    match command {
        BlendCommand::Close => {}
        BlendCommand::Blended(_) | BlendCommand::Keep | BlendCommand::Cancel if !holds => {
            state.set_status(Status::message(format!("{label}: closed; another edit or Undo changed the keys since the slider's last change")))
        }
        BlendCommand::Blended(handoff) => {
            // A result made for another session, or for the document or selection as they no
            // longer are, is dropped (the slider asks again).
            let made = handoff.take().filter(|b| b.session == session.id);
            if let Some(blended) = made.filter(|b| state.current(&b.made_for, Needs::Everything, label)) {
                if !session.started {
                    state.end_gesture();
                    state.doc.document.begin_gesture(label);
                }
                let s = state.doc.install_blend(&mut session, blended);
                state.set_status(s);
            }
            state.ui.blend = Some(session);
        }
        BlendCommand::Keep if session.started => {
            state.doc.document.end_gesture();
            state.ui.ghost = session.ghost.take().or(state.ui.ghost.take());
            state.set_status(Status::message(format!("{} (one undo step)", session.status_text())));
        }
        BlendCommand::Cancel if session.started => {
            state.doc.abandon_gesture();
            state.set_status(Status::message(format!("{label}: cancelled, the keys are as they were")));
        }
        BlendCommand::Keep | BlendCommand::Cancel => state.set_status(Status::message(format!("{label}: nothing changed"))),
    }
    true
}
