//! Editor state in three parts, apart from every panel:
//!
//! - [`DocState`], the document side: the open [`Document`] and its history, the compiled
//!   curves, the selection, the active track and the clipboard. No egui in it, so it is
//!   tested without a `Context`;
//! - [`ViewSettings`], what persists between runs;
//! - [`UiState`], the runtime UI: status line, playhead and clock, the file dialogs' flags.
//!
//! Panels read all three and change them only through commands (`commands.rs`), which the
//! app runs once per frame.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::key_ranges::KeyRanges;

mod compiled_take;
use super::playback::Transport;
use crate::edit::intent::{self, KeyEdit};
pub use crate::edit::intent::{Clipboard, KeyRef};
use crate::quat::EulerOrder;
use crate::{Document, Edit, Project, SegmentCursor, TrackCurve, TrackError};
pub use compiled_take::CompiledTake;

/// View settings that persist between runs (never the document or its history).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewSettings {
    pub normalize: bool,
    pub show_tangents: bool,
    pub show_speed: bool,
    /// Draw every visible track's curve even in a large document (more than
    /// [`LARGE_DOCUMENT_TRACKS`] tracks), where by default only the active track and the tracks
    /// with selected keys are drawn, as Blender's graph editor shows the selected objects.
    pub show_all_curves: bool,
    /// Seconds between recovery copies while there are unsaved changes (`recovery.rs`).
    pub autosave_secs: f64,
    pub snap: bool,
    /// `(track name, component)` pairs hidden in the graph.
    pub hidden_components: BTreeSet<(String, usize)>,
    pub recent_files: Vec<PathBuf>,
    /// Which view fills the centre.
    pub central: CentralView,
    /// Path view: the plane a Vec3 path is projected on.
    pub plane: Plane,
    /// Playback follows the constant-speed (arc-length) motion.
    pub constant_speed: bool,
    /// Error bound of the path view's arc-length table.
    pub arclen_tolerance: f64,
    /// Order of the Euler angles the inspector shows for rotation keys.
    pub euler_order: EulerOrder,
}

/// The view in the centre of the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CentralView {
    #[default]
    Graph,
    Path,
    Rotation,
}

/// Which two components the path view shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Plane {
    #[default]
    Xy,
    Xz,
    Yz,
}

impl Plane {
    pub fn axes(self) -> (usize, usize) {
        match self {
            Self::Xy => (0, 1),
            Self::Xz => (0, 2),
            Self::Yz => (1, 2),
        }
    }
}

impl Default for ViewSettings {
    fn default() -> Self {
        Self {
            normalize: false,
            show_tangents: true,
            show_speed: true,
            show_all_curves: false,
            autosave_secs: 30.0,
            snap: false,
            hidden_components: BTreeSet::new(),
            recent_files: Vec::new(),
            central: CentralView::Graph,
            plane: Plane::Xy,
            constant_speed: false,
            arclen_tolerance: crate::DEFAULT_ACCURACY,
            euler_order: EulerOrder::Xyz,
        }
    }
}

/// Above this many tracks a document is large: the graph draws the active and selected
/// tracks' curves unless [`ViewSettings::show_all_curves`].
pub const LARGE_DOCUMENT_TRACKS: usize = 16;

impl ViewSettings {
    /// Whether component `comp` of the track named `name` is drawn.
    pub fn component_shown(&self, name: &str, comp: usize) -> bool {
        !self.hidden_components.iter().any(|(n, c)| n == name && *c == comp)
    }

    pub(super) fn remember_recent(&mut self, path: &Path) {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_owned());
        self.recent_files.retain(|p| p != &path);
        self.recent_files.insert(0, path);
        self.recent_files.truncate(RECENT_FILES);
    }
}

/// How many recent files File > Open recent lists.
pub const RECENT_FILES: usize = 8;

/// The status bar's message.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    pub text: String,
    pub is_error: bool,
}

impl Status {
    pub fn message(text: impl Into<String>) -> Self {
        Self { text: text.into(), is_error: false }
    }

    pub fn error(text: impl Into<String>) -> Self {
        Self { text: text.into(), is_error: true }
    }
}

impl From<intent::IntentError> for Status {
    fn from(e: intent::IntentError) -> Self {
        if e.is_notice() {
            Self::message(e.to_string())
        } else {
            Self::error(e.to_string())
        }
    }
}

/// What to do once the user has decided about unsaved changes.
#[derive(Clone, Debug, PartialEq)]
pub enum AfterDiscard {
    New,
    Open(Option<PathBuf>),
    /// An imported project (compiled on the import's worker), and the import's one-line
    /// summary.
    Imported(Box<CompiledTake>, String),
    Quit,
}

/// The document side: what is edited, its compiled curves, and what is selected.
pub struct DocState {
    pub document: Document,
    /// The file the document was opened from or saved to.
    pub path: Option<PathBuf>,
    curves: Vec<Result<TrackCurve, TrackError>>,
    /// Per track, min/max of key values over any run of keys (the envelope, the normalised view).
    pub(super) key_ranges: Vec<KeyRanges>,
    /// Per track, a number that changes whenever its curve is recompiled, so views can cache
    /// what they derive from one track.
    curve_stamps: Vec<u64>,
    /// The document revision the curves were compiled at.
    curves_revision: u64,
    pub selection: super::selection::Selection,
    /// Answers about the selection, kept until it or the document changes (`selection.rs`).
    pub(super) selection_memo: super::selection::MemoCell,
    /// The track Insert, Paste and the speed graph act on.
    pub active_track: Option<usize>,
    pub clipboard: Option<Clipboard>,
    /// Modification time and size of the file when it was opened or last saved: Save asks
    /// before overwriting a file another program changed since.
    pub disk_stamp: Option<super::files::DiskStamp>,
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
        Self::with_compiled(CompiledTake::from_curves(project, curves), path)
    }

    fn empty(path: Option<PathBuf>) -> Self {
        Self {
            document: Document::new(Project::default()),
            path,
            curves: Vec::new(),
            key_ranges: Vec::new(),
            curve_stamps: Vec::new(),
            curves_revision: u64::MAX,
            selection: super::selection::Selection::default(),
            selection_memo: Default::default(),
            active_track: None,
            clipboard: None,
            disk_stamp: None,
        }
    }

    pub fn project(&self) -> &Project {
        self.document.project()
    }

    /// Compiled curve of track `i` (or why it cannot be evaluated).
    pub fn curve(&self, i: usize) -> Option<&Result<TrackCurve, TrackError>> {
        self.curves.get(i)
    }

    /// The smallest and largest key value of component `comp` of track `track`.
    pub fn value_range(&self, track: usize, comp: usize) -> Option<(f64, f64)> {
        Some(self.key_ranges.get(track)?.all(comp))
    }

    /// Min/max of track `track`'s key values over runs of keys.
    pub fn key_ranges(&self, track: usize) -> Option<&KeyRanges> {
        self.key_ranges.get(track)
    }

    /// Changes whenever track `i`'s curve is recompiled.
    pub fn curve_stamp(&self, i: usize) -> Option<u64> {
        self.curve_stamps.get(i).copied()
    }

    /// A stamp no curve of any document of this process has had: caches keyed by (track,
    /// stamp) cannot mistake a newly opened document's curve for the last one's.
    #[allow(clippy::unused_self)]
    fn stamp(&mut self) -> u64 {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether the curves are compiled from the document as it is.
    pub(super) fn curves_revision_is_current(&self) -> bool {
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
        (self.curves, self.key_ranges) = self.document.project().tracks.par_iter().map(|track| (TrackCurve::new(track), KeyRanges::new(track))).unzip();
        self.stamp_all();
    }

    /// New stamps for every curve (all were compiled).
    fn stamp_all(&mut self) {
        self.curve_stamps = (0..self.curves.len()).map(|_| 0).collect();
        for i in 0..self.curve_stamps.len() {
            self.curve_stamps[i] = self.stamp();
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
            Some(i) if self.curves_revision == before && i < self.curves.len() && same_curve => self.curves_revision = self.document.revision(),
            Some(i) if self.curves_revision == before && i < self.curves.len() => {
                let track = &self.document.project().tracks[i];
                match splice {
                    Some((at, removed)) => self.key_ranges[i].update(track, at, removed, track.keys.len() + removed - keys_before),
                    None => self.key_ranges[i] = KeyRanges::new(track),
                }
                // A splice recompiles only what the replaced keys reach (`curve/splice.rs`).
                let old = std::mem::replace(&mut self.curves[i], Err(TrackError::NoKeys { track: String::new() }));
                self.curves[i] = match (splice, old) {
                    (Some((at, removed)), Ok(curve)) => curve.respliced(track, at, removed),
                    _ => TrackCurve::new(track),
                };
                self.curve_stamps[i] = self.stamp();
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
    /// place, with new stamps. Needs the other curves current before the edits.
    /// Returns the curves and key ranges replaced.
    pub(super) fn install_compiled(&mut self, compiled: Vec<super::undo_curves::Compiled>) -> Vec<super::undo_curves::Compiled> {
        let mut replaced = Vec::with_capacity(compiled.len());
        for (i, r) in compiled {
            let stamp = r.stamp.unwrap_or_else(|| self.stamp());
            let curve = std::mem::replace(&mut self.curves[i], r.curve);
            let ranges = std::mem::replace(&mut self.key_ranges[i], r.ranges);
            replaced.push((i, super::undo_curves::Ready { curve, ranges, stamp: Some(std::mem::replace(&mut self.curve_stamps[i], stamp)) }));
        }
        self.curves_revision = self.document.revision();
        self.fix_selection();
        replaced
    }

    /// "name* - Tangent": the file name, and a star while there are unsaved changes.
    pub fn title(&self) -> String {
        let name = self.path.as_deref().and_then(Path::file_name).map_or_else(|| "untitled".to_owned(), |n| n.to_string_lossy().into_owned());
        let star = if self.document.is_dirty() { "*" } else { "" };
        format!("{name}{star} - Tangent")
    }
}

/// The runtime UI state the app keeps between frames (panels keep their own).
pub struct UiState {
    pub status: Status,
    pub playhead: f64,
    pub transport: Transport,
    pub show_open_path: bool,
    /// The typed-path window for Save as, where no native dialog can open.
    pub show_save_path: bool,
    /// Set when unsaved changes need a decision before `AfterDiscard` runs.
    pub confirm_discard: Option<AfterDiscard>,
    /// The user confirmed quitting; the next close request is let through.
    pub quit_confirmed: bool,
    /// An action cleared to run (no unsaved changes, or the user decided).
    pub pending_after: Option<AfterDiscard>,
    /// The open gesture was ended by an edit of its own (Delete during a drag): the rest of
    /// the gesture's edits are dropped until the next gesture begins.
    pub gesture_interrupted: bool,
    /// Save found the file changed on disk: ask before overwriting it.
    pub confirm_overwrite: Option<PathBuf>,
    /// Key > Simplify…'s reduced curves, drawn over the originals while it is open.
    pub preview: Option<std::sync::Arc<super::simplify::Preview>>,
    /// A big file being opened or saved on a worker thread (`files.rs`).
    pub file_job: Option<super::files::FileJob>,
    /// A new document replaced the open one: the views frame it in the next frame.
    pub document_replaced: bool,
    /// A change of many keys being made on a worker, and the commands waiting for it.
    pub key_jobs: super::key_jobs::KeyJobs,
}

/// Everything the editor holds apart from its panels.
pub struct AppState {
    pub doc: DocState,
    pub view: ViewSettings,
    pub ui: UiState,
}

impl AppState {
    pub fn new(project: Project, path: Option<PathBuf>) -> Self {
        let text = match &path {
            Some(p) => format!("Opened {}", p.display()),
            None => "Demo project (built in). Use File > Open… to load your own.".to_owned(),
        };
        let doc = DocState::new(project, path);
        let (t0, t1) = doc.project().time_range().unwrap_or((0.0, 1.0));
        let transport = Transport::new(t0, t1 - t0);
        let ui = UiState {
            status: Status::message(text),
            playhead: transport.playhead(),
            transport,
            show_open_path: false,
            show_save_path: false,
            confirm_discard: None,
            quit_confirmed: false,
            pending_after: None,
            gesture_interrupted: false,
            confirm_overwrite: None,
            preview: None,
            file_job: None,
            document_replaced: false,
            key_jobs: super::key_jobs::KeyJobs::default(),
        };
        Self { doc, view: ViewSettings::default(), ui }
    }

    pub fn project(&self) -> &Project {
        self.doc.project()
    }

    pub fn title(&self) -> String {
        self.doc.title()
    }

    pub fn set_status(&mut self, status: Status) {
        self.ui.status = status;
    }

    /// Moves the playhead (and the clock) to `t`.
    pub fn scrub(&mut self, t: f64) {
        self.ui.playhead = self.ui.transport.scrub(t);
    }

    /// Keeps the transport's clip on the project's keyed range.
    pub fn follow_range(&mut self) {
        let (t0, t1) = self.project().time_range().unwrap_or((0.0, 1.0));
        self.ui.transport.set_range(t0, t1 - t0);
    }

    /// Replaces the document with `project` from `path` (history and selection start anew).
    pub fn replace_document(&mut self, project: Project, path: Option<PathBuf>) {
        self.replace_doc_state(DocState::new(project, path));
    }

    /// Puts `doc` in place of the open document (a file opened on a worker thread).
    pub fn replace_doc_state(&mut self, doc: DocState) {
        self.doc = doc;
        self.ui.document_replaced = true;
        let (t0, t1) = self.project().time_range().unwrap_or((0.0, 1.0));
        self.ui.transport = Transport::new(t0, t1 - t0);
        self.ui.playhead = t0;
    }

    pub fn new_document(&mut self) {
        self.replace_document(intent::new_project(), None);
        self.set_status(Status::message("New project"));
    }

    /// Runs `after` now, or first asks what to do with unsaved changes.
    pub fn confirm_or_run(&mut self, after: AfterDiscard) {
        if self.doc.document.is_dirty() {
            self.ui.confirm_discard = Some(after);
        } else {
            self.ui.pending_after = Some(after);
        }
    }
}
