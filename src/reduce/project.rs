//! Reducing many tracks of a project at once (the `tangent reduce` command and Edit >
//! Simplify…): tracks in parallel (rayon), a progress callback, one report line per track.

use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{reduce_track, ReduceError, Reduced, Tolerance};
use crate::model::Project;

/// One track's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackReport {
    pub index: usize,
    pub name: String,
    pub result: Result<Reduced, ReduceError>,
}

impl std::fmt::Display for TrackReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.result {
            Ok(r) => match &r.kept {
                Some(why) => write!(f, "{}\t{} keys\tkept: {why}", self.name, r.keys_before),
                None if r.is_angle() => write!(f, "{}\t{} -> {} keys\tmax error {:.4}°", self.name, r.keys_before, r.keys_after, r.max_error),
                None => write!(f, "{}\t{} -> {} keys\tmax error {:.3e} value units", self.name, r.keys_before, r.keys_after, r.max_error),
            },
            Err(e) => write!(f, "{}\terror: {e}", self.name),
        }
    }
}

/// Reduces the tracks at `which` (every track when empty) within `tol`, in parallel;
/// `progress(done, total)` is called as tracks finish (from worker threads).
#[must_use]
pub fn reduce_tracks(project: &Project, which: &[usize], tol: Tolerance, progress: &(dyn Fn(usize, usize) + Sync)) -> Vec<TrackReport> {
    let indices: Vec<usize> = if which.is_empty() { (0..project.tracks.len()).collect() } else { which.to_vec() };
    let done = AtomicUsize::new(0);
    let total = indices.len();
    indices
        .par_iter()
        .map(|&index| {
            let track = &project.tracks[index];
            let result = reduce_track(track, tol);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            TrackReport { index, name: track.name.clone(), result }
        })
        .collect()
}

/// `project` with the reduced tracks put in place (tracks that failed or were kept stay).
#[must_use]
pub fn apply(project: &Project, reports: &[TrackReport]) -> Project {
    let mut out = project.clone();
    for r in reports {
        if let Ok(reduced) = &r.result {
            if reduced.kept.is_none() {
                out.tracks[r.index] = reduced.track.clone();
            }
        }
    }
    out
}
