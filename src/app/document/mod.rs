//! The document side of the editor, with no egui and no threads in it: the open
//! [`Document`] and its history, one cache per track ([`CompiledTrack`]: compiled curve, key
//! ranges, stamp), the selection, the active track, the clipboard and the file's disk stamp.
//! Every `impl DocState` is in this folder:
//!
//! - `mod.rs`: the state, its caches, [`DocState::apply`] and the one transaction that puts
//!   compiled tracks in place ([`DocState::install_compiled`]: new stamps, the selection
//!   fixed);
//! - `key_edits.rs`: changes of many keys as one undo step (key edits, a drag's splices, keys
//!   a worker compiled, handle types), the selection following them;
//! - `undo.rs`: undo and redo putting back parked curves instead of compiling;
//! - `selection.rs`: the selection and the memo of answers about it; `answers.rs` asks them;
//! - `compiled.rs`: documents and tracks that arrive compiled (a worker's take, an import's
//!   tracks added, a recovered copy restored);
//! - `targets.rs`: what a tool acts on (the target tracks, with their selected keys or
//!   whole; the rotation tracks Euler Filter and Convert rotation act on), Scale time's
//!   pivot, and the ghost of what a tool replaced; a tool's tracks are put in place by
//!   [`DocState::replace_tracks`], one undo step;
//! - `blend.rs`: the blend sliders' sessions (the originals, each factor put in place);
//!   `time_edit.rs`: Insert time… and Remove time… at the playhead.

mod answers;
pub mod blend;
mod compiled;
pub mod key_edits;
pub mod selection;
pub mod targets;
#[cfg(test)]
mod tests;
pub mod time_edit;
mod undo;

use std::path::{Path, PathBuf};

use super::basis::{Basis, Needs};
use super::compiled_track::CompiledTrack;
use super::files::DiskStamp;
use super::key_ranges::KeyRanges;
use super::message::Status;
use crate::edit::intent::{self, Clipboard, KeyEdit};
use crate::{Document, Edit, Project, SegmentCursor, TrackCurve, TrackError};

/// The document side: what is edited, its compiled curves, and what is selected.
pub struct DocState {
    pub document: Document,
    /// This document's identity, unique in the process (a newly opened document never has an
    /// old one's, though every document's revision starts at 0).
    id: u64,
    /// The file the document was opened from or saved to.
    pub path: Option<PathBuf>,
    /// The file an untitled document was imported from (`take.bvh`): Save as offers
    /// `take.ron` beside it.
    pub imported_from: Option<PathBuf>,
    /// Per track its cache: the compiled curve, the min/max of key values over any run of
    /// keys (the envelope, the normalised view), and a stamp that changes whenever the curve
    /// is recompiled, so views can cache what they derive from one track (always `Some` here).
    compiled: Vec<CompiledTrack>,
    /// The document revision the curves were compiled at.
    curves_revision: u64,
    pub selection: selection::Selection,
    /// Answers about the selection, kept until it or the document changes (`selection.rs`).
    selection_memo: selection::MemoCell,
    /// The track Insert, Paste and the speed graph act on.
    pub active_track: Option<usize>,
    pub clipboard: Option<Clipboard>,
    /// Modification time and size of the file when it was opened or last saved: Save asks
    /// before overwriting a file another program changed since.
    pub disk_stamp: Option<DiskStamp>,
}

impl DocState {
    pub fn new(project: Project, path: Option<PathBuf>) -> Self {
        let mut s = Self::empty(path);
        s.document = Document::new(project);
        s.compile_all();
        s.active_track = s.project().tracks.iter().position(|t| t.visible);
        s
    }

    /// A document of `project` with its curves already compiled (`curves[i]` of track `i`, as
    /// [`crate::io::parse_project_compiled`] gives them): opening a big file compiles once.
    pub fn with_curves(project: Project, path: Option<PathBuf>, curves: Vec<TrackCurve>) -> Self {
        Self::with_compiled(super::compiled_track::CompiledTake::from_curves(project, curves), path)
    }

    fn empty(path: Option<PathBuf>) -> Self {
        Self {
            document: Document::new(Project::default()),
            id: Self::next_id(),
            path,
            imported_from: None,
            compiled: Vec::new(),
            curves_revision: u64::MAX,
            selection: selection::Selection::default(),
            selection_memo: Default::default(),
            active_track: None,
            clipboard: None,
            disk_stamp: None,
        }
    }

    pub fn project(&self) -> &Project {
        self.document.project()
    }

    /// The Export window's settings: the project's own, else GLB at the project's frame rate
    /// (`ExportSettings::at_fps`).
    #[must_use]
    pub fn export_settings(&self) -> crate::model::ExportSettings {
        let project = self.project();
        project.export.clone().unwrap_or_else(|| crate::model::ExportSettings::at_fps(project.fps))
    }

    /// Keeps `settings` in the project (none when they are what it starts with), marking it
    /// unsaved if they changed; not an undo step (`edit/settings.rs`).
    pub fn set_export_settings(&mut self, settings: &crate::model::ExportSettings) {
        let kept = (*settings != crate::model::ExportSettings::at_fps(self.project().fps)).then(|| settings.clone());
        self.document.set_export_settings(kept);
    }

    /// The folder Save as starts in and the name it offers ([`save_as_offer_for`]).
    #[must_use]
    pub fn save_as_offer(&self) -> (Option<PathBuf>, String) {
        save_as_offer_for(self.path.as_deref(), self.imported_from.as_deref())
    }

    /// A number no other document of this process has.
    fn next_id() -> u64 {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    /// What a result made now is made for: this document, its revision, the selection.
    #[must_use]
    pub fn basis(&self) -> Basis {
        Basis { document: self.id, revision: self.document.revision(), selection: self.selection.generation() }
    }

    /// Whether a result made for `made_for` may be applied now: the one rule, asked by the
    /// dispatcher for every result (`Basis::holds_at`).
    #[must_use]
    pub fn holds(&self, made_for: &Basis, needs: Needs) -> bool {
        made_for.holds_at(&self.basis(), needs)
    }

    /// Compiled curve of track `i` (or why it cannot be evaluated).
    pub fn curve(&self, i: usize) -> Option<&Result<TrackCurve, TrackError>> {
        self.compiled.get(i).map(|c| &c.curve)
    }

    /// The smallest and largest key value of component `comp` of track `track`.
    pub fn value_range(&self, track: usize, comp: usize) -> Option<(f64, f64)> {
        Some(self.compiled.get(track)?.ranges.all(comp))
    }

    /// Min/max of track `track`'s key values over runs of keys.
    pub fn key_ranges(&self, track: usize) -> Option<&KeyRanges> {
        self.compiled.get(track).map(|c| &c.ranges)
    }

    /// Changes whenever track `i`'s curve is recompiled.
    pub fn curve_stamp(&self, i: usize) -> Option<u64> {
        self.compiled.get(i).and_then(|c| c.stamp)
    }

    /// A stamp no curve of any document of this process has had: caches keyed by (track,
    /// stamp) cannot mistake a newly opened document's curve for the last one's.
    #[allow(clippy::unused_self)]
    fn stamp(&mut self) -> u64 {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether the curves are compiled from the document as it is.
    fn curves_revision_is_current(&self) -> bool {
        self.curves_revision == self.document.revision()
    }

    /// Recompiles every curve if the document changed (after undo, redo, a new document).
    pub fn refresh(&mut self) {
        if self.curves_revision_is_current() {
            return;
        }
        self.compile_all();
    }

    /// Compiles every track's curve (on every core).
    fn compile_all(&mut self) {
        use rayon::prelude::*;
        self.compiled = self.document.project().tracks.par_iter().map(CompiledTrack::of).collect();
        self.stamp_all();
    }

    /// New stamps for every curve (all were compiled).
    fn stamp_all(&mut self) {
        for i in 0..self.compiled.len() {
            self.compiled[i].stamp = Some(self.stamp());
        }
        self.curves_revision = self.document.revision();
        self.fix_selection();
    }

    /// Drops selected keys and an active track that no longer exist. The selection is only
    /// touched (a new generation) when it holds such keys: one range lookup per track.
    fn fix_selection(&mut self) {
        let tracks = &self.document.project().tracks;
        let n = tracks.len();
        let stale =
            self.selection.tracks().into_iter().any(|t| t >= n || self.selection.of_track(t).next_back().is_some_and(|k| k.key >= tracks[t].keys.len()));
        if stale {
            self.selection.retain(|k| k.track < n && k.key < tracks[k.track].keys.len());
        }
        if self.active_track.is_some_and(|a| a >= n) {
            self.active_track = n.checked_sub(1);
        }
    }

    /// Applies `edit` (as its own step, or into the open gesture); on success recompiles only
    /// what changed. A refused edit changes nothing and says why.
    pub fn apply(&mut self, label: &str, edit: Edit) -> Result<(), Status> {
        let in_place = edit.track();
        let removes = matches!(edit, Edit::RemoveTrack { .. });
        let splice = match &edit {
            Edit::SpliceKeys { at, remove, .. } => Some((*at, *remove)),
            _ => None,
        };
        let before = self.document.revision();
        let keys_before = in_place.and_then(|i| self.project().tracks.get(i)).map_or(0, |t| t.keys.len());
        // Shown, hidden, locked, renamed or recoloured: the curve stays as it is.
        let same_curve = match &edit {
            Edit::SetTrack { index, track } => self.project().tracks.get(*index).is_some_and(|t| t.same_curve(track)),
            Edit::SetHeader { .. } => true,
            _ => false,
        };
        self.document.apply(label, edit).map_err(|e| Status::error(format!("{label}: {e}")))?;
        match in_place {
            Some(i) if self.curves_revision == before && i < self.compiled.len() && same_curve => self.curves_revision = self.document.revision(),
            Some(i) if self.curves_revision == before && i < self.compiled.len() => {
                let stamp = self.stamp();
                let track = &self.document.project().tracks[i];
                let cache = &mut self.compiled[i];
                match splice {
                    Some((at, removed)) => cache.ranges.update(track, at, removed, track.keys.len() + removed - keys_before),
                    None => cache.ranges = KeyRanges::new(track),
                }
                // A splice recompiles only what the replaced keys reach (`curve/splice.rs`).
                let old = std::mem::replace(&mut cache.curve, Err(TrackError::NoKeys { track: String::new() }));
                cache.curve = match (splice, old) {
                    (Some((at, removed)), Ok(curve)) => curve.respliced(track, at, removed),
                    _ => TrackCurve::new(track),
                };
                cache.stamp = Some(stamp);
                self.curves_revision = self.document.revision();
                self.fix_selection();
            }
            _ => self.refresh(),
        }
        if removes {
            self.selection.clear();
        }
        Ok(())
    }

    /// Applies a key edit and moves the track's selection with its keys.
    pub fn apply_key_edit(&mut self, label: &str, edit: KeyEdit) -> Result<(), Status> {
        self.apply(label, edit.edit)?;
        self.selection.retain(|k| k.track != edit.track);
        self.selection.extend(edit.selected);
        Ok(())
    }

    /// Value of track `track` at `t`.
    pub fn sample(&self, track: usize, t: f64) -> Option<Vec<f64>> {
        let curve = self.curve(track)?.as_ref().ok()?;
        let mut v = vec![0.0; curve.dim()];
        curve.sample(&mut SegmentCursor::new(), t, &mut v);
        Some(v)
    }

    /// Inserts a key on `track` at `t` with the curve's value there, selected alone.
    pub fn insert_key(&mut self, track: usize, t: f64) -> Status {
        let Some(value) = self.sample(track, t) else {
            return Status::error("Insert key: the track has no curve to insert on");
        };
        let edit = match intent::insert_key(self.project(), track, t, value) {
            Ok(e) => e,
            Err(e) => return e.into(),
        };
        self.selection.clear();
        match self.apply_key_edit("Insert key", edit) {
            Ok(()) => Status::message(format!("Inserted a key on \"{}\" at {t:.3} s", self.project().tracks[track].name)),
            Err(s) => s,
        }
    }

    /// Deletes the selected keys (a track keeps at least one).
    pub fn delete_selected(&mut self) -> Option<Status> {
        let (deletions, refused) = intent::delete_keys(self.project(), &self.selection);
        let mut status = refused.into_iter().last().map(Status::from);
        let tracks: Vec<usize> = deletions.iter().map(|d| d.track).collect();
        let count = |d: &Self| tracks.iter().map(|&t| d.project().tracks[t].keys.len()).sum::<usize>();
        let before = count(self);
        // One undo step for every track, applied together (`apply_key_edits`).
        let edits = deletions.into_iter().map(|d| KeyEdit { track: d.track, edit: d.edit, selected: Vec::new() }).collect();
        self.document.begin_gesture("Delete keys");
        let result = self.apply_key_edits("Delete keys", edits);
        self.document.end_gesture();
        status = result.err().or(status);
        let deleted = before - count(self);
        if deleted > 0 {
            status = Some(Status::message(format!("Deleted {deleted} keys")));
        }
        status
    }

    /// Copies the selected keys of the first track with a selection ([`intent::copy_keys`]).
    pub fn copy(&mut self) -> Status {
        match intent::copy_keys(self.project(), &self.selection) {
            Some((clip, name)) => {
                let n = clip.keys.len();
                self.clipboard = Some(clip);
                Status::message(format!("Copied {n} keys from \"{name}\""))
            }
            None => Status::message("Copy: select keys first"),
        }
    }

    /// Pastes the clipboard into the active track, the first key at `at`.
    pub fn paste(&mut self, at: f64) -> Status {
        let Some(clip) = &self.clipboard else {
            return Status::message("Paste: nothing copied");
        };
        let Some(track) = self.active_track else {
            return Status::message("Paste: choose a track first (click one in the list)");
        };
        let edit = match intent::paste_keys(self.project(), clip, track, at) {
            Ok(e) => e,
            Err(e) => return e.into(),
        };
        let n = edit.selected.len();
        self.selection.clear();
        match self.apply_key_edit("Paste keys", edit) {
            Ok(()) => Status::message(format!("Pasted {n} keys into \"{}\" at {at:.3} s", self.project().tracks[track].name)),
            Err(s) => s,
        }
    }

    /// After edits that changed only the tracks of `compiled`, each given with its curve and
    /// key ranges compiled from the track as it now is (here, or on a worker): puts them in
    /// place, with new stamps (a parked curve keeps its own), and fixes the selection: the one
    /// transaction every compiled track goes in by. Needs the other curves current before the
    /// edits. Returns the caches replaced.
    pub(super) fn install_compiled(&mut self, compiled: Vec<(usize, CompiledTrack)>) -> Vec<(usize, CompiledTrack)> {
        let mut replaced = Vec::with_capacity(compiled.len());
        for (i, mut c) in compiled {
            c.stamp = c.stamp.or_else(|| Some(self.stamp()));
            replaced.push((i, std::mem::replace(&mut self.compiled[i], c)));
        }
        self.curves_revision = self.document.revision();
        self.fix_selection();
        replaced
    }

    /// Replaces tracks with new ones compiled elsewhere (a tool's worker, its preview), as one
    /// undo step labelled `label`: the one way every tool (Smooth, Scale time, Simplify,
    /// Convert to Bézier, Convert rotation) puts its result in. The compiled curves go in as
    /// they are and the replaced ones are parked with the step, so undo compiles nothing.
    /// Returns the indices replaced and the first refusal (a locked track, or one whose new
    /// keys do not compile, stays as it was).
    pub fn replace_tracks(&mut self, label: &str, tracks: Vec<(usize, crate::Track, CompiledTrack)>) -> (Vec<usize>, Option<String>) {
        let compiled_now = self.curves_revision_is_current();
        let (mut installed, mut applied, mut refused) = (Vec::new(), Vec::new(), None);
        self.document.begin_gesture(label);
        for (index, track, compiled) in tracks {
            let outcome = match compiled.curve.as_ref() {
                Ok(curve) => self.document.apply_compiled_track(label, index, track, curve).map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            match outcome {
                Ok(()) => {
                    installed.push((index, compiled));
                    applied.push(index);
                }
                Err(e) => _ = refused.get_or_insert(e),
            }
        }
        self.document.end_gesture();
        if compiled_now && !installed.is_empty() {
            // The step is the newest now, and made of these tracks' only changes.
            let replaced = self.install_compiled(installed);
            self.park(crate::edit::Side::Undo, replaced);
        } else if !compiled_now {
            self.refresh();
        }
        (applied, refused)
    }

    /// "name* - Tangent": the file name, and a star while there are unsaved changes.
    pub fn title(&self) -> String {
        let name = self.path.as_deref().and_then(Path::file_name).map_or_else(|| "untitled".to_owned(), |n| n.to_string_lossy().into_owned());
        let star = if self.document.is_dirty() { "*" } else { "" };
        format!("{name}{star} - Tangent")
    }
}

/// The folder Save as starts in and the name it offers: the project's own file; else, for a
/// take imported from `take.bvh`, `take.ron` in the import's folder; else `untitled.ron`
/// (the dialog's own folder).
#[must_use]
pub fn save_as_offer_for(path: Option<&Path>, imported_from: Option<&Path>) -> (Option<PathBuf>, String) {
    let folder = |p: &Path| p.parent().filter(|d| !d.as_os_str().is_empty()).map(Path::to_path_buf);
    if let Some(name) = path.and_then(Path::file_name) {
        return (path.and_then(folder), name.to_string_lossy().into_owned());
    }
    match imported_from.and_then(|p| Some((p, p.file_stem()?))) {
        Some((from, stem)) => (folder(from), format!("{}.ron", stem.to_string_lossy())),
        None => (None, "untitled.ron".to_owned()),
    }
}
