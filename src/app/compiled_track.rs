//! A track with its compiled curve, the one name wherever it is ([`CompiledTrack`]: each
//! track's cache in `DocState`, what undo parks, what a worker compiled); a whole project of
//! them ([`CompiledTake`]); a track's new keys with one ([`ChangedKeys`]).

use super::key_change::KeyRef;
use super::key_ranges::KeyRanges;
use crate::error::TrackError;
use crate::{Key, Project, Track, TrackCurve};

/// A track's compiled curve (or why it cannot be evaluated) and its key ranges, and the stamp
/// the curve had when it was in place before (a curve undo parked keeps its stamp, so what the
/// views drew from it is still theirs; `None`: compiled now, a new stamp when put in place).
#[derive(Clone, Debug)]
pub struct CompiledTrack {
    pub curve: Result<TrackCurve, TrackError>,
    pub ranges: KeyRanges,
    pub stamp: Option<u64>,
}

impl CompiledTrack {
    /// `track` compiled now, with its key ranges.
    #[must_use]
    pub fn of(track: &Track) -> Self {
        Self::new(TrackCurve::new(track), KeyRanges::new(track))
    }

    /// A curve compiled now: a new stamp when it is put in place.
    #[must_use]
    pub fn new(curve: Result<TrackCurve, TrackError>, ranges: KeyRanges) -> Self {
        Self { curve, ranges, stamp: None }
    }
}

/// A project with every track compiled (`tracks[i]` of track `i`): an imported take, a
/// recovered copy or a big file opened on a worker, put in place with nothing compiled on the
/// UI thread (a million-key take took 0.2 s there, twice over when added).
#[derive(Clone, Debug)]
pub struct CompiledTake {
    pub project: Project,
    pub tracks: Vec<CompiledTrack>,
}

/// Takes are the same when their projects are: the rest is derived from them.
impl PartialEq for CompiledTake {
    fn eq(&self, other: &Self) -> bool {
        self.project == other.project
    }
}

impl CompiledTake {
    /// Compiles every track of `project` on every core: what the workers do.
    #[must_use]
    pub fn new(project: Project) -> Self {
        use rayon::prelude::*;
        let tracks = project.tracks.par_iter().map(CompiledTrack::of).collect();
        Self { project, tracks }
    }

    /// `project` with the curves [`crate::io::parse_project_compiled`] made for it
    /// (`curves[i]` of track `i`); only the key ranges are built, on every core.
    #[must_use]
    pub fn from_curves(project: Project, curves: Vec<TrackCurve>) -> Self {
        use rayon::prelude::*;
        let ranges: Vec<KeyRanges> = project.tracks.par_iter().map(KeyRanges::new).collect();
        let tracks = curves.into_iter().zip(ranges).map(|(c, r)| CompiledTrack::new(Ok(c), r)).collect();
        Self { project, tracks }
    }
}

/// A track's new keys, compiled (on a worker): what a change of many keys installs.
pub struct ChangedKeys {
    pub track: usize,
    pub keys: Vec<Key>,
    pub compiled: CompiledTrack,
    /// The track's selected keys once the keys are in place.
    pub selected: Vec<KeyRef>,
}
