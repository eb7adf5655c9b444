//! Tracks compiled on a worker thread and put in place as they are: an imported take opened
//! as a new document or added to the open one compiles nothing on the UI thread (a
//! million-key take took 0.2 s there, twice over when added: once to check each track, once
//! for the document).

use super::{DocState, Status};
use crate::app::key_ranges::KeyRanges;
use crate::{Edit, Project, Track, TrackCurve, TrackError};

/// A track's curve and key ranges, as [`CompiledTake::new`] makes them.
pub type CompiledTrack = (Result<TrackCurve, TrackError>, KeyRanges);

/// A project with every track compiled (`compiled[i]` of track `i`).
#[derive(Clone, Debug)]
pub struct CompiledTake {
    pub project: Project,
    pub compiled: Vec<CompiledTrack>,
}

/// Takes are the same when their projects are: the rest is derived from them.
impl PartialEq for CompiledTake {
    fn eq(&self, other: &Self) -> bool {
        self.project == other.project
    }
}

impl CompiledTake {
    /// Compiles every track of `project` on every core: what the worker does.
    #[must_use]
    pub fn new(project: Project) -> Self {
        use rayon::prelude::*;
        let compiled = project.tracks.par_iter().map(|t| (TrackCurve::new(t), KeyRanges::new(t))).collect();
        Self { project, compiled }
    }

    /// `project` with the curves [`crate::io::parse_project_compiled`] made for it
    /// (`curves[i]` of track `i`); only the key ranges are built, on every core.
    #[must_use]
    pub fn from_curves(project: Project, curves: Vec<TrackCurve>) -> Self {
        use rayon::prelude::*;
        let ranges: Vec<KeyRanges> = project.tracks.par_iter().map(KeyRanges::new).collect();
        let compiled = curves.into_iter().map(Ok).zip(ranges).collect();
        Self { project, compiled }
    }
}

impl DocState {
    /// A document of `take`, its curves as the worker compiled them.
    #[must_use]
    pub fn with_compiled(take: CompiledTake, path: Option<std::path::PathBuf>) -> Self {
        let CompiledTake { project, compiled } = take;
        if compiled.len() != project.tracks.len() {
            return Self::new(project, path);
        }
        let mut s = Self::empty(path);
        (s.curves, s.key_ranges) = compiled.into_iter().unzip();
        s.document = crate::Document::new(project);
        s.stamp_all();
        s.active_track = s.project().tracks.iter().position(|t| t.visible);
        s
    }

    /// Appends `track`, whose curve a worker compiled, as an edit of the open gesture (or a
    /// step of its own): its keys are not checked again and nothing is compiled, unless the
    /// worker's compile failed, when the edit goes through [`DocState::apply`] to be refused
    /// with its reason.
    pub(in crate::app) fn append_compiled(&mut self, label: &str, track: Track, compiled: Option<CompiledTrack>) -> Result<(), Status> {
        self.refresh();
        let index = self.project().tracks.len();
        match compiled {
            Some((Ok(curve), ranges)) if self.curves.len() == index => {
                self.document.insert_compiled_track(label, index, track, &curve).map_err(|e| Status::error(format!("{label}: {e}")))?;
                self.curves.push(Ok(curve));
                self.key_ranges.push(ranges);
                let stamp = self.stamp();
                self.curve_stamps.push(stamp);
                self.curves_revision = self.document.revision();
                Ok(())
            }
            _ => self.apply(label, Edit::InsertTrack { index, track }),
        }
    }
}
