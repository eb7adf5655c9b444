//! Documents and tracks that arrive compiled: an imported take opened as a new document or
//! added to the open one, a big file opened on a worker and a recovered copy put in place as
//! their workers compiled them (nothing compiled on the UI thread).

use super::DocState;
use crate::app::compiled_track::{CompiledTake, CompiledTrack};
use crate::app::message::Status;
use crate::{Edit, Track};

impl DocState {
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
