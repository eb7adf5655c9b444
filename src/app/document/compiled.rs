//! Documents and tracks that arrive compiled: an imported take opened as a new document or
//! added to the open one, a big file opened on a worker and a recovered copy put in place as
//! their workers compiled them (nothing compiled on the UI thread).

use super::DocState;
use crate::app::compiled_track::{CompiledTake, CompiledTrack};
use crate::app::message::Status;
use crate::{Edit, Track};

impl DocState {
    /// Adds the tracks of an imported project to the open one, as one undo step; names that are
    /// taken get a number.
    pub fn add_imported(&mut self, take: CompiledTake, summary: &str) -> Status {
        let n = take.project.tracks.len();
        self.document.begin_gesture("Import");
        // Each track with the curve the import's worker compiled (names made unique).
        let mut refused = None;
        let mut compiled = take.tracks.into_iter();
        for mut track in take.project.tracks {
            track.name = crate::edit::intent::unique_name(self.project(), &track.name);
            if let Err(s) = self.append_compiled("Import", track, compiled.next()) {
                refused = Some(s);
                break;
            }
        }
        self.document.end_gesture();
        refused.unwrap_or_else(|| Status::message(format!("Added {n} tracks from {summary}")))
    }

    /// Replaces every track with the recovered project's, as one undo step; Save then writes
    /// to `origin` if the recovered work had a file. The recovery worker compiled `take`, so
    /// each track goes in with its curve and nothing is compiled here.
    pub fn restore(&mut self, take: CompiledTake, origin: Option<std::path::PathBuf>) -> Status {
        const LABEL: &str = "Restore recovered work";
        let n = take.project.tracks.len();
        self.document.begin_gesture(LABEL);
        let removes = (0..self.project().tracks.len()).rev().map(|index| Edit::RemoveTrack { index });
        let mut refused = removes.into_iter().find_map(|edit| self.document.apply(LABEL, edit).err()).map(|e| Status::error(format!("{LABEL}: {e}")));
        if refused.is_none() {
            let mut compiled = take.tracks.into_iter();
            refused = take.project.tracks.into_iter().find_map(|track| self.append_compiled(LABEL, track, compiled.next()).err());
        }
        self.document.end_gesture();
        self.refresh();
        self.selection.clear();
        if let Some(s) = refused {
            return s;
        }
        self.active_track = (n > 0).then_some(0);
        if origin.is_some() {
            self.path = origin;
        }
        Status::message(format!("Restored {n} tracks of recovered work (Ctrl+Z undoes it); save to keep them"))
    }

    /// A document of `take`, its curves as the worker compiled them.
    #[must_use]
    pub fn with_compiled(take: CompiledTake, path: Option<std::path::PathBuf>) -> Self {
        let CompiledTake { project, tracks } = take;
        if tracks.len() != project.tracks.len() {
            return Self::new(project, path);
        }
        let mut s = Self::empty(path);
        s.compiled = tracks;
        s.document = crate::Document::new(project);
        s.stamp_all();
        s.active_track = s.project().tracks.iter().position(|t| t.visible);
        s
    }

    /// Appends `track`, whose curve a worker compiled, as an edit of the open gesture (or a
    /// step of its own): its keys are not checked again and nothing is compiled, unless the
    /// worker's compile failed, when the edit goes through [`DocState::apply`] to be refused
    /// with its reason.
    pub(super) fn append_compiled(&mut self, label: &str, track: Track, compiled: Option<CompiledTrack>) -> Result<(), Status> {
        self.refresh();
        let index = self.project().tracks.len();
        match compiled {
            Some(CompiledTrack { curve: Ok(curve), ranges, .. }) if self.compiled.len() == index => {
                self.document.insert_compiled_track(label, index, track, &curve).map_err(|e| Status::error(format!("{label}: {e}")))?;
                let stamp = Some(self.stamp());
                self.compiled.push(CompiledTrack { curve: Ok(curve), ranges, stamp });
                self.curves_revision = self.document.revision();
                Ok(())
            }
            _ => self.apply(label, Edit::InsertTrack { index, track }),
        }
    }
}
