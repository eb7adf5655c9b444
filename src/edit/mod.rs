//! Undoable edits of a [`Project`] (the only way the editor changes a document).
//!
//! Every [`Edit`] applied returns its inverse, and a [`Document`] keeps those inverses on an
//! undo stack. An edit that would leave a track invalid (keys out of order, NaN, a mode that
//! does not fit the kind) is refused with the same message loading would give, and the
//! document is left as it was. A *gesture* (one drag, one slider movement) groups all the
//! edits made between [`Document::begin_gesture`] and [`Document::end_gesture`] into one undo
//! step; repeated edits of the same track during it keep only the first inverse, so a long
//! drag costs one snapshot of the track, not one per frame.

use crate::curve::validate;
use crate::error::{ProjectError, TrackError};
use crate::model::{Key, Keys, Project, Track, TrackHeader};
use thiserror::Error;

#[cfg(test)]
mod document_tests;
pub mod intent;
mod settings;
pub use settings::SavePoint;
mod step;
pub use step::Parked;
use step::{drop_steps, Step};
#[cfg(test)]
mod splice_tests;
#[cfg(test)]
mod track_edit_tests;

/// Most undo steps kept; older ones are dropped.
pub const UNDO_LIMIT: usize = 500;

/// Most keys the undo steps may hold together (a key is about 150 bytes): the oldest steps
/// are dropped first, and the newest is always kept. A change to every key of a million-key
/// mocap take holds a million keys, so 500 such steps would need 80 GB; this keeps about five
/// of them (750 MB), and hundreds of steps of ordinary edits.
pub const UNDO_KEY_LIMIT: usize = 5_000_000;

/// One change to a project.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Replace a track's keys (moves, inserts, deletes, TCB and ease changes).
    SetKeys {
        track: usize,
        keys: Keys,
    },
    /// Replace keys `at..at + remove` of a track with `keys` (a drag of a few keys of a long
    /// track, or one key changed): the cost is the keys replaced, not the track.
    SpliceKeys {
        track: usize,
        at: usize,
        remove: usize,
        keys: Vec<Key>,
    },
    /// Replace a whole track (modes, kind, keys and all).
    SetTrack {
        index: usize,
        track: Track,
    },
    /// Rename, recolour, show, hide, lock or unlock a track: its keys are neither copied nor
    /// checked, and its curve is not recompiled.
    SetHeader {
        index: usize,
        header: TrackHeader,
    },
    InsertTrack {
        index: usize,
        track: Track,
    },
    RemoveTrack {
        index: usize,
    },
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum EditError {
    #[error("there is no track {0}")]
    NoTrack(usize),
    #[error("track {track} has no keys {at}..{end}")]
    NoKeys { track: usize, at: usize, end: usize },
    #[error("track \"{0}\" is locked")]
    Locked(String),
    #[error(transparent)]
    Track(#[from] TrackError),
    #[error(transparent)]
    Project(#[from] ProjectError),
}

impl Edit {
    /// The track index this edit changes in place, if any (for gesture coalescing and for
    /// recompiling only what changed).
    #[must_use]
    pub fn track(&self) -> Option<usize> {
        match self {
            Self::SetKeys { track, .. } | Self::SpliceKeys { track, .. } => Some(*track),
            Self::SetTrack { index, .. } | Self::SetHeader { index, .. } => Some(*index),
            _ => None,
        }
    }

    /// Applies the edit and returns its inverse, or leaves `project` unchanged and says why.
    pub fn apply(self, project: &mut Project) -> Result<Edit, EditError> {
        self.apply_inner(project, Check::Full)
    }

    /// `apply`, checking what `check` says.
    fn apply_inner(self, project: &mut Project, check: Check) -> Result<Edit, EditError> {
        let respect_locks = check != Check::Trusted;
        match self {
            Self::SetKeys { track, keys } => {
                let t = project.tracks.get_mut(track).ok_or(EditError::NoTrack(track))?;
                if respect_locks && t.locked {
                    return Err(EditError::Locked(t.name.clone()));
                }
                let mut old = std::mem::replace(&mut t.keys, keys);
                if let Err(e) = if check == Check::Full { validate(t) } else { Ok(()) } {
                    t.keys = old;
                    return Err(e.into());
                }
                // The undo history keeps columns, not what reading them made.
                old.forget_reads();
                Ok(Self::SetKeys { track, keys: old })
            }
            Self::SpliceKeys { track, at, remove, keys } => {
                let t = project.tracks.get_mut(track).ok_or(EditError::NoTrack(track))?;
                if respect_locks && t.locked {
                    return Err(EditError::Locked(t.name.clone()));
                }
                let end = at.checked_add(remove).filter(|&e| e <= t.keys.len()).ok_or(EditError::NoKeys { track, at, end: at.saturating_add(remove) })?;
                let added = keys.len();
                let plain = keys.iter().all(Key::is_plain);
                let old: Vec<Key> = t.keys.splice(at..end, keys);
                // Plain keys in place of the ones that carried per-key data: the track may hold
                // plain keys only now, and go back to columns.
                if plain && t.keys.columns().is_none() && old.iter().any(|k| !k.is_plain()) {
                    t.keys.compact();
                }
                // The rest of the track was valid: the new keys and their order with their
                // neighbours are what can be wrong.
                if let Err(e) = if check == Check::Full { crate::curve::validate_keys(t, at..at + added) } else { Ok(()) } {
                    t.keys.splice(at..at + added, old);
                    t.keys.compact();
                    return Err(e.into());
                }
                Ok(Self::SpliceKeys { track, at, remove: added, keys: old })
            }
            Self::SetTrack { index, track } => {
                let slot = project.tracks.get_mut(index).ok_or(EditError::NoTrack(index))?;
                // A locked track can still be unlocked (or shown/hidden), but nothing else.
                if respect_locks && slot.locked && track.locked && !only_view_flags_differ(slot, &track) {
                    return Err(EditError::Locked(slot.name.clone()));
                }
                let same_curve = slot.same_curve(&track);
                let mut old = std::mem::replace(slot, track);
                if let Err(e) = validate_track_in(project, index, check, !same_curve) {
                    project.tracks[index] = old;
                    return Err(e.into());
                }
                old.keys.forget_reads();
                Ok(Self::SetTrack { index, track: old })
            }
            Self::SetHeader { index, header } => set_header(project, index, header, check),
            Self::InsertTrack { index, track } => {
                if index > project.tracks.len() {
                    return Err(EditError::NoTrack(index));
                }
                project.tracks.insert(index, track);
                if let Err(e) = validate_track_in(project, index, check, true) {
                    project.tracks.remove(index);
                    return Err(e.into());
                }
                Ok(Self::RemoveTrack { index })
            }
            Self::RemoveTrack { index } => {
                if index >= project.tracks.len() {
                    return Err(EditError::NoTrack(index));
                }
                if respect_locks && project.tracks[index].locked {
                    return Err(EditError::Locked(project.tracks[index].name.clone()));
                }
                let track = project.tracks.remove(index);
                Ok(Self::InsertTrack { index, track })
            }
        }
    }
}

impl Edit {
    /// Whether two edits change the same thing of a track: its keys (set or spliced) or the
    /// whole track. A gesture keeps the first inverse of each kind per track.
    fn same_kind(&self, other: &Edit) -> bool {
        let keys = |e: &Edit| matches!(e, Edit::SetKeys { .. } | Edit::SpliceKeys { .. });
        (keys(self) && keys(other)) || std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// [`Edit::SetHeader`] applied: its inverse, or the project unchanged and why. As for
/// `SetTrack`, a locked track can be unlocked, shown or hidden only.
fn set_header(project: &mut Project, index: usize, header: TrackHeader, check: Check) -> Result<Edit, EditError> {
    let slot = project.tracks.get_mut(index).ok_or(EditError::NoTrack(index))?;
    if check != Check::Trusted && slot.locked && header.locked && (header.name != slot.name || header.color != slot.color) {
        return Err(EditError::Locked(slot.name.clone()));
    }
    let renamed = header.name != slot.name;
    let old = slot.replace_header(header);
    if renamed {
        if let Err(e) = validate_track_in(project, index, check, false) {
            project.tracks[index].replace_header(old);
            return Err(e.into());
        }
    }
    Ok(Edit::SetHeader { index, header: old })
}

fn only_view_flags_differ(a: &Track, b: &Track) -> bool {
    a.same_curve(b) && a.name == b.name && a.color == b.color && a.binding == b.binding
}

/// What [`crate::io::validate_project`] says of `project` when only track `index` is new: its name
/// against the others', and the track compiled (validation and overflow) unless it has the
/// same curve as before (a rename, a colour, visibility or lock). The other tracks are not
/// compiled again: that made showing one track of a million-key take cost 100 ms, and hiding
/// 200 of them 16 s; nor can a track already in the project refuse an edit of another one.
/// `Check::Compiled` checks the name only; `Check::Trusted` nothing.
fn validate_track_in(project: &Project, index: usize, check: Check, curve_changed: bool) -> Result<(), ProjectError> {
    if check == Check::Trusted {
        return Ok(());
    }
    let compile = check == Check::Full && curve_changed;
    let track = &project.tracks[index];
    if project.tracks.iter().enumerate().any(|(i, t)| i != index && t.name == track.name) {
        return Err(ProjectError::DuplicateName(track.name.clone()));
    }
    if compile {
        crate::TrackCurve::new(track)?;
    }
    Ok(())
}

/// What applying an edit checks before it keeps the change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    /// A user's edit: locks, keys (order, finite values, dimensions), names, and a new or
    /// changed track compiled (its numbers stay finite).
    Full,
    /// Locks and names only: the caller compiled the new track without error (on a worker,
    /// [`Document::apply_compiled_track`], [`Document::apply_compiled_keys`]), which checks
    /// what `Full` would.
    Compiled,
    /// Nothing, and locks are ignored: an inverse restores a state that was valid (undo, redo,
    /// whatever lock was set since). Checking a whole-document step again cost a pass over
    /// every key per undo.
    Trusted,
}

/// The end of the history a step is reverted from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The step [`Document::undo`] reverts next: the open gesture, else the newest step.
    Undo,
    /// The step [`Document::redo`] reapplies next.
    Redo,
}

/// A project with its undo history. The history is never saved.
///
/// The project is shared copy-on-write: a save, an autosave or an export takes
/// [`Document::shared_project`] (no copy) and writes it on a worker; an edit meanwhile copies
/// the project once (`Arc::make_mut`), and otherwise nothing is copied.
#[derive(Debug)]
pub struct Document {
    project: std::sync::Arc<Project>,
    undo: Vec<Step>,
    redo: Vec<Step>,
    gesture: Option<Step>,
    next_id: u64,
    /// Id of the undo step on top when the project was last saved (0: none).
    saved_at: u64,
    /// Bumped on every change, so views can tell when to recompute.
    revision: u64,
    /// [`UNDO_KEY_LIMIT`] (smaller in tests).
    undo_key_limit: usize,
    /// Changes of what is saved but never undone (the export settings, `settings.rs`),
    /// counted, and the count the file holds.
    settings_changes: u64,
    settings_saved: u64,
}

impl Default for Document {
    fn default() -> Self {
        Self {
            project: std::sync::Arc::default(),
            undo: Vec::new(),
            redo: Vec::new(),
            gesture: None,
            next_id: 0,
            saved_at: 0,
            revision: 0,
            undo_key_limit: UNDO_KEY_LIMIT,
            settings_changes: 0,
            settings_saved: 0,
        }
    }
}

impl Document {
    /// A document whose current state counts as saved.
    #[must_use]
    pub fn new(project: Project) -> Self {
        Self { project: std::sync::Arc::new(project), next_id: 1, ..Self::default() }
    }

    #[must_use]
    pub fn project(&self) -> &Project {
        &self.project
    }

    /// The project as it is now, shared: it stays as it is however the document changes.
    #[must_use]
    pub fn shared_project(&self) -> std::sync::Arc<Project> {
        self.project.clone()
    }

    /// Changes on every edit, undo and redo.
    #[must_use]
    pub fn revision(&self) -> u64 {
        self.revision
    }

    fn top_id(&self) -> u64 {
        self.undo.last().map_or(0, |s| s.id)
    }

    /// Whether the project differs from what was last saved (or opened).
    #[must_use]
    pub fn is_dirty(&self) -> bool {
        self.top_id() != self.saved_at || self.gesture.as_ref().is_some_and(|g| !g.inverse.is_empty()) || self.settings_changes != self.settings_saved
    }

    /// Records that the current state is what is on disk.
    pub fn mark_saved(&mut self) {
        self.mark_saved_at(self.save_point());
    }

    /// The state the project is at now: what [`Self::mark_saved_at`] takes once a snapshot
    /// taken now has been written (a save on another thread, while editing goes on).
    #[must_use]
    pub fn save_point(&self) -> SavePoint {
        SavePoint { step: self.top_id(), settings: self.settings_changes }
    }

    /// Records that the state at `save_point` is what is on disk; edits made since stay unsaved.
    pub fn mark_saved_at(&mut self, save_point: SavePoint) {
        self.saved_at = save_point.step;
        self.settings_saved = save_point.settings;
    }

    /// Applies `edit` as its own undo step (or as part of the open gesture).
    pub fn apply(&mut self, label: &str, edit: Edit) -> Result<(), EditError> {
        self.apply_with(label, edit, Check::Full)
    }

    /// [`Self::apply`] of `Edit::SetTrack { index, track }` for a track the caller compiled
    /// without error (`curve` is `TrackCurve::new(&track)`, made on a worker): the rest is
    /// checked, but the track is not compiled again on this thread.
    pub fn apply_compiled_track(&mut self, label: &str, index: usize, track: Track, curve: &crate::TrackCurve) -> Result<(), EditError> {
        debug_assert!(curve.times().len() == track.keys.len() && crate::curve::validate(&track).is_ok(), "the curve of this track");
        self.apply_with(label, Edit::SetTrack { index, track }, Check::Compiled)
    }

    /// [`Self::apply`] of `Edit::InsertTrack { index, track }` for a track the caller compiled
    /// without error (`curve`, made on a worker): its name is checked, its keys are not.
    pub fn insert_compiled_track(&mut self, label: &str, index: usize, track: Track, curve: &crate::TrackCurve) -> Result<(), EditError> {
        debug_assert!(curve.times().len() == track.keys.len() && crate::curve::validate(&track).is_ok(), "the curve of this track");
        self.apply_with(label, Edit::InsertTrack { index, track }, Check::Compiled)
    }

    /// [`Self::apply`] of `Edit::SetKeys { track, keys }` for keys the caller compiled without
    /// error (`curve` is the track's curve with `keys`, made on a worker): locks are checked,
    /// the keys are not checked again on this thread.
    pub fn apply_compiled_keys(&mut self, label: &str, track: usize, keys: Vec<Key>, curve: &crate::TrackCurve) -> Result<(), EditError> {
        debug_assert!(curve.times().len() == keys.len() && curve.times().iter().zip(&keys).all(|(t, k)| *t == k.time), "the curve of these keys");
        self.apply_with(label, Edit::SetKeys { track, keys: keys.into() }, Check::Compiled)
    }

    fn apply_with(&mut self, label: &str, edit: Edit, check: Check) -> Result<(), EditError> {
        let target = edit.track();
        // The first splice of a track in a gesture keeps the whole track's keys as its undo:
        // later splices of the same drag may touch other keys, and are not recorded.
        let snapshot = match (&self.gesture, &edit) {
            (Some(g), Edit::SpliceKeys { track, .. }) if !g.inverse.iter().any(|e| e.track() == target && e.same_kind(&edit)) => {
                self.project.tracks.get(*track).map(|t| Edit::SetKeys { track: *track, keys: t.keys.clone() })
            }
            _ => None,
        };
        let inverse = edit.apply_inner(std::sync::Arc::make_mut(&mut self.project), check)?;
        let inverse = snapshot.unwrap_or(inverse);
        self.revision += 1;
        drop_steps(std::mem::take(&mut self.redo));
        match &mut self.gesture {
            Some(g) => {
                let covered = target.is_some() && g.inverse.iter().any(|e| e.track() == target && e.same_kind(&inverse));
                if covered {
                    // A drag's later inverses: a frame of a field dragged over a mocap take
                    // leaves a million keys to free.
                    drop_steps(vec![Step { label: String::new(), inverse: vec![inverse], id: 0, parked: None }]);
                } else {
                    g.inverse.push(inverse);
                }
            }
            None => {
                let id = self.fresh_id();
                self.push_undo(Step { label: label.to_owned(), inverse: vec![inverse], id, parked: None });
            }
        }
        Ok(())
    }

    fn fresh_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Pushes an undo step, then drops the oldest while there are more than [`UNDO_LIMIT`] or
    /// they hold more than [`UNDO_KEY_LIMIT`] keys.
    fn push_undo(&mut self, step: Step) {
        self.undo.push(step);
        let mut held: usize = self.undo.iter().map(Step::keys_held).sum();
        let mut dropped = 0;
        while self.undo.len() - dropped > UNDO_LIMIT || (held > self.undo_key_limit && self.undo.len() - dropped > 1) {
            held -= self.undo[dropped].keys_held();
            dropped += 1;
        }
        drop_steps(self.undo.drain(..dropped).collect());
    }

    /// Starts grouping edits into one undo step labelled `label` (ends any open gesture).
    pub fn begin_gesture(&mut self, label: &str) {
        self.end_gesture();
        let id = self.fresh_id();
        self.gesture = Some(Step { label: label.to_owned(), inverse: Vec::new(), id, parked: None });
    }

    /// Closes the open gesture, if any; one that changed nothing leaves no undo step.
    pub fn end_gesture(&mut self) {
        if let Some(g) = self.gesture.take() {
            if !g.inverse.is_empty() {
                self.push_undo(g);
            }
        }
    }

    /// Reverts the open gesture's edits and drops them: neither [`Self::undo`] nor
    /// [`Self::redo`] sees it (a slider's Cancel). The redo history stays as the gesture's
    /// first edit left it. Whether anything was reverted (`false`: no gesture open, or one
    /// that changed nothing).
    pub fn abandon_gesture(&mut self) -> bool {
        let Some(g) = self.gesture.take() else { return false };
        if g.inverse.is_empty() {
            return false;
        }
        let undone = self.revert(g);
        drop_steps(vec![undone]);
        true
    }

    /// [`Self::undo_tracks`] for the open gesture: the tracks [`Self::abandon_gesture`] would
    /// revert in place; `None` if it adds or removes tracks, or no gesture is open.
    #[must_use]
    pub fn gesture_tracks(&self) -> Option<Vec<usize>> {
        self.gesture.as_ref()?.inverse.iter().map(Edit::track).collect()
    }

    /// Whether the open gesture already changed `track`: an edit of it now is not the first
    /// of the step (the state the step's undo restores is from before an earlier edit).
    #[must_use]
    pub fn gesture_touches(&self, track: usize) -> bool {
        self.gesture.as_ref().is_some_and(|g| g.inverse.iter().any(|e| e.track() == Some(track)))
    }

    /// What is parked with the step reverted next from `side`, to read, take or fill in.
    /// Reverting a step drops what was parked with it: take it first.
    pub fn parked_mut(&mut self, side: Side) -> Option<&mut Option<Parked>> {
        let step = match side {
            Side::Undo => self.gesture.as_mut().or(self.undo.last_mut()),
            Side::Redo => self.redo.last_mut(),
        };
        step.map(|s| &mut s.parked)
    }

    /// Whether a gesture is open.
    #[must_use]
    pub fn in_gesture(&self) -> bool {
        self.gesture.is_some()
    }

    /// The tracks the step [`Self::undo`] would revert changes in place; `None` if it adds or
    /// removes tracks (or there is none). Close an open gesture first: undo would.
    #[must_use]
    pub fn undo_tracks(&self) -> Option<Vec<usize>> {
        self.undo.last()?.inverse.iter().map(Edit::track).collect()
    }

    /// [`Self::undo_tracks`] for [`Self::redo`].
    #[must_use]
    pub fn redo_tracks(&self) -> Option<Vec<usize>> {
        self.redo.last()?.inverse.iter().map(Edit::track).collect()
    }

    /// Label of the step [`Self::undo`] would revert.
    #[must_use]
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|s| s.label.as_str())
    }

    /// Label of the step [`Self::redo`] would reapply.
    #[must_use]
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|s| s.label.as_str())
    }

    /// Reverts the last step; returns its label.
    pub fn undo(&mut self) -> Option<String> {
        self.end_gesture();
        let step = self.undo.pop()?;
        let redo = self.revert(step);
        let label = redo.label.clone();
        self.redo.push(redo);
        Some(label)
    }

    /// Reapplies the last undone step; returns its label.
    pub fn redo(&mut self) -> Option<String> {
        self.end_gesture();
        let step = self.redo.pop()?;
        let undo = self.revert(step);
        let label = undo.label.clone();
        self.push_undo(undo);
        Some(label)
    }

    /// Applies a step's inverses backwards and returns the step that undoes that.
    fn revert(&mut self, step: Step) -> Step {
        let mut inverse = Vec::with_capacity(step.inverse.len());
        for edit in step.inverse.into_iter().rev() {
            // Inverses restore states that were valid, so they cannot fail, and are not
            // checked again. (No copy of the edit for the message: a whole-document step
            // holds every key.)
            match edit.apply_inner(std::sync::Arc::make_mut(&mut self.project), Check::Trusted) {
                Ok(inv) => inverse.push(inv),
                Err(e) => debug_assert!(false, "an inverse edit failed: {e}"),
            }
        }
        self.revision += 1;
        // What was parked with the step described the state just restored: it is the caller's
        // now (taken before), or gone.
        Step { label: step.label, inverse, id: step.id, parked: None }
    }
}
