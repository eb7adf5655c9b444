//! What a panel is: a part of the window behind the one small [`Panel`] trait, which reads a
//! [`PanelContext`] (the document side, the view settings and the UI state, read-only) and
//! pushes [`AppCommand`]s; the dispatcher runs them once per frame.

use eframe::egui;

use super::commands::AppCommand;
use super::document::DocState;
use super::message::Status;
use super::settings::{ViewSettings, LARGE_DOCUMENT_TRACKS};
use super::state::UiState;

/// What every panel sees: the document side, the view settings and the UI state, read-only.
#[derive(Clone, Copy)]
pub struct PanelContext<'a> {
    pub doc: &'a DocState,
    pub view: &'a ViewSettings,
    pub ui: &'a UiState,
}

impl PanelContext<'_> {
    pub fn project(&self) -> &crate::Project {
        self.doc.project()
    }

    /// Whether track `ti`'s curve and keys are drawn (and can be picked) in the graph: visible,
    /// and in a large document also active or holding selected keys (or all curves asked for).
    pub fn curve_drawn(&self, ti: usize) -> bool {
        let tracks = &self.project().tracks;
        tracks.get(ti).is_some_and(|t| t.visible)
            && (self.view.show_all_curves
                || tracks.len() <= LARGE_DOCUMENT_TRACKS
                || self.doc.active_track == Some(ti)
                || self.ui.joints.tracks.contains(&ti)
                || self.doc.selection.of_track(ti).next().is_some())
    }

    /// How many visible tracks' curves a large document is not drawing.
    pub fn hidden_curves(&self) -> usize {
        let tracks = &self.project().tracks;
        (0..tracks.len()).filter(|&ti| tracks[ti].visible && !self.curve_drawn(ti)).count()
    }

    pub fn playhead(&self) -> f64 {
        self.ui.playhead
    }

    /// A copy of the view settings with `change` made, as a command (view settings are not
    /// part of the document, so this is no undo step).
    pub fn view_change(&self, change: impl FnOnce(&mut ViewSettings)) -> AppCommand {
        let mut v = self.view.clone();
        change(&mut v);
        AppCommand::SetView(Box::new(v))
    }
}

/// A part of the window: draws from the context, asks for changes through `out`.
pub trait Panel {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>);
}

/// What an edit made from the keys on screen (a drag, a handle offset field) says when it is
/// refused because a change of them is being made on a worker (its edits would be built
/// from keys the change being made replaces).
impl PanelContext<'_> {
    pub fn busy_status(&self) -> Status {
        let what = self.ui.key_queue.busy_text().unwrap_or_else(|| "a change".to_owned());
        Status::message(format!("Try again once it is in place: {what}"))
    }
}
