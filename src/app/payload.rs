//! What commands carry, below everything that sends or handles them: plain data of the
//! editor's vocabulary, with no egui, no worker threads and no document in it (rerun keeps
//! its command types in low crates for the same reason: the thing everyone sends must not
//! depend on the things that handle it).
//!
//! - [`Status`]: the status bar's message;
//! - [`Basis`]: what a result was made for (document identity, revision, selection), and
//!   [`Needs`]: which of it must still hold for the result to be applied;
//! - [`CompiledTrack`]: a track's compiled curve with its key ranges — the one name for "a
//!   track with its compiled curve", whoever compiled it (a worker, undo, a conversion);
//!   [`CompiledTake`] is a whole project of them, [`ChangedKeys`] a track's new keys with one;
//! - the payloads of particular commands: [`KeyChange`], [`HandleSides`], [`ImportResult`],
//!   [`AfterDiscard`], and a job's result come back as a command, [`Finished`] (handed over
//!   once: [`Handoff`]); which window is open ([`Window`], a tool's by its `ToolId`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use super::key_ranges::KeyRanges;
use super::tool_info::ToolId;
pub use crate::edit::intent::KeyRef;
use crate::edit::intent::{self, IntentError};
use crate::error::TrackError;
use crate::import::ImportReport;
use crate::{HandleType, Key, Project, Track, TrackCurve};

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

impl From<IntentError> for Status {
    fn from(e: IntentError) -> Self {
        if e.is_notice() {
            Self::message(e.to_string())
        } else {
            Self::error(e.to_string())
        }
    }
}

/// What a result was made for: the open document (an identity unique in the process, so a
/// newly opened document never passes for the last one, though both start at revision 0), its
/// revision, and the selection's generation (unique in the process too). A result made off
/// the UI thread, or kept by a window for what it showed, is applied only while the parts of
/// its basis it [`Needs`] still hold: `DocState::holds`, asked in one place, the dispatcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Basis {
    pub document: u64,
    pub revision: u64,
    pub selection: u64,
}

/// Which parts of its [`Basis`] a result needs to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// The same document, however edited since (a save marks the document saved at its step).
    Document,
    /// The same document at the same revision, whatever is selected (made from the keys
    /// alone: the runtime preview).
    Revision,
    /// The same document at the same revision with the same selection (anything made from the
    /// keys or from which keys are selected).
    Everything,
}

impl Basis {
    /// Whether a result made for `self` may be applied when the document is at `now`.
    #[must_use]
    pub fn holds_at(&self, now: &Basis, needs: Needs) -> bool {
        match needs {
            Needs::Document => self.document == now.document,
            Needs::Revision => (self.document, self.revision) == (now.document, now.revision),
            Needs::Everything => self == now,
        }
    }
}

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

/// The function that changes one key.
pub type ChangeFn = Arc<dyn Fn(&mut Key) + Send + Sync>;

/// The function that changes one key by a value typed in display units: it is given the
/// display scale of the key's track (`units::display_scale`, shown units per stored unit).
pub type ShownFn = Arc<dyn Fn(&mut Key, f64) + Send + Sync>;

/// One absolute change of every selected key (a field set to a value), as the inspector
/// sends it. Absolute, so it means the same whatever change lands before it.
#[derive(Clone)]
pub struct KeyChange {
    pub label: String,
    /// Part of the gesture the panel began (a slider drag).
    pub gesture: bool,
    pub change: Change,
}

/// What a [`KeyChange`] does to the selected keys.
#[derive(Clone)]
pub enum Change {
    /// The same change of every key (a field set to a value).
    Each(ChangeFn),
    /// The same change of every key on a Bezier track (a key's segment settings); keys of
    /// other tracks stay as they are.
    OnBezier(ChangeFn),
    /// A value typed in display units set on every key, in each key's track's units (the
    /// inspector's value fields: 45 typed is π/4 on an Euler track's keys, 45 on a Vec3's).
    Shown(ShownFn),
    /// Every key moved by the same time, the one that puts the first selected key (of the
    /// first track) at this time: the inspector's time field. The amount is found from the
    /// keys as they are when the change is made, so this too means the same whatever change
    /// lands before it.
    FirstKeyTo(f64),
    /// The graph's drag of the selected keys: moved from where they were when the drag began
    /// (absolute too).
    Move(Arc<KeyMove>),
}

/// A frame of a key drag: the selected keys of `origins` moved by `dt` in time and `dv` in
/// component `comp`, snapped by `snap` ([`intent::move_keys`]).
#[derive(Debug)]
pub struct KeyMove {
    pub origins: Arc<Vec<intent::MoveOrigin>>,
    pub dt: f64,
    pub dv: f64,
    pub comp: usize,
    pub snap: Option<intent::Snap>,
    /// What the status bar says once the keys are there.
    pub message: String,
}

impl KeyMove {
    /// How many keys the drag moves.
    #[must_use]
    pub fn keys(&self) -> usize {
        self.origins.iter().map(|o| o.selected.len()).sum()
    }
}

impl Change {
    /// The change of each key of `tracks` (per track its keys, ascending, as
    /// [`intent::keys_by_track`] gives them) of `project`, on tracks of display scale `scale`
    /// (which only [`Change::Shown`] reads).
    #[must_use]
    pub fn of_each_key(&self, project: &Project, tracks: &[(usize, Vec<usize>)], scale: f64) -> ChangeFn {
        match self {
            Self::Each(change) | Self::OnBezier(change) => change.clone(),
            Self::Shown(change) => {
                let change = change.clone();
                Arc::new(move |k: &mut Key| change(k, scale))
            }
            Self::FirstKeyTo(time) => {
                let first = tracks.first().and_then(|(t, keys)| project.tracks.get(*t)?.keys.get(*keys.first()?));
                let dt = first.map_or(0.0, |k| time - k.time);
                Arc::new(move |k: &mut Key| k.time += dt)
            }
            // A drag is made from its origins, not key by key (`intent::move_keys`); never asked.
            Self::Move(_) => Arc::new(|_: &mut Key| {}),
        }
    }
}

impl PartialEq for KeyChange {
    fn eq(&self, other: &Self) -> bool {
        let same = match (&self.change, &other.change) {
            (Change::Each(a), Change::Each(b)) | (Change::OnBezier(a), Change::OnBezier(b)) => Arc::ptr_eq(a, b),
            (Change::Shown(a), Change::Shown(b)) => Arc::ptr_eq(a, b),
            (Change::FirstKeyTo(a), Change::FirstKeyTo(b)) => a == b,
            (Change::Move(a), Change::Move(b)) => Arc::ptr_eq(a, b),
            // Changes of different kinds.
            (Change::Each(_) | Change::OnBezier(_) | Change::Shown(_) | Change::FirstKeyTo(_) | Change::Move(_), _) => false,
        };
        self.label == other.label && self.gesture == other.gesture && same
    }
}

impl std::fmt::Debug for KeyChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyChange").field("label", &self.label).field("gesture", &self.gesture).finish_non_exhaustive()
    }
}

/// Which handles of the selected keys a handle type is given: both (`V`), or one side (the
/// inspector's combo boxes); `None` leaves a side as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandleSides {
    pub left: Option<HandleType>,
    pub right: Option<HandleType>,
}

impl HandleSides {
    /// Both handles `kind` (`V`).
    #[must_use]
    pub fn both(kind: HandleType) -> Self {
        Self { left: Some(kind), right: Some(kind) }
    }

    /// The `side` handle `kind`, the other as it is.
    #[must_use]
    pub fn one(side: crate::handles::Side, kind: HandleType) -> Self {
        match side {
            crate::handles::Side::Left => Self { left: Some(kind), right: None },
            crate::handles::Side::Right => Self { left: None, right: Some(kind) },
        }
    }

    /// The type given (the left one if both are, which `V` makes the same).
    #[must_use]
    pub fn kind(self) -> HandleType {
        self.left.or(self.right).unwrap_or(HandleType::Free)
    }

    /// "handles", "left handles" or "right handles", for the status bar.
    #[must_use]
    pub fn which(self) -> &'static str {
        match (self.left, self.right) {
            (Some(_), None) => "left handles",
            (None, Some(_)) => "right handles",
            _ => "handles",
        }
    }

    /// What the status bar says once these handles of `changed` keys were set (on the UI
    /// thread or on a worker).
    #[must_use]
    pub fn set_text(self, changed: usize) -> String {
        format!("Set the {} of {changed} keys to {:?}", self.which(), self.kind())
    }
}

/// How imported tracks arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportMode {
    /// A new, untitled project (asks first about unsaved changes).
    NewProject,
    /// Added to the open project as one undo step (names made unique).
    AddTracks,
}

/// A finished import, its tracks compiled on the worker (the UI thread only puts them in
/// place).
#[derive(Clone, Debug, PartialEq)]
pub struct ImportResult {
    pub report: ImportReport,
    pub take: CompiledTake,
}

/// A file's modification time and size: Save asks before overwriting a file another program
/// changed since it was opened or saved.
pub type DiskStamp = (SystemTime, u64);

/// The modification time and size of `path`, if it can be read.
#[must_use]
pub fn disk_stamp(path: &Path) -> Option<DiskStamp> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// What to do once the user has decided about unsaved changes.
#[derive(Clone, Debug, PartialEq)]
pub enum AfterDiscard {
    New,
    Open(Option<PathBuf>),
    /// An imported project (compiled on the import's worker), the import's one-line
    /// summary, and the file it was imported from (Save as offers its name).
    Imported(Box<CompiledTake>, String, PathBuf),
    Quit,
}

/// A window that opens over the editor (its open flag kept in one container, [`Windows`], as
/// egui's demo app keeps its windows', so menus, shortcuts and tests open them the same way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Window {
    Export,
    Import,
    /// A tool's window (`tool_window.rs`), opened from its menu entry.
    Tool(ToolId),
    /// Blender's `V` menu.
    HandleTypeMenu,
    /// Blender's `T` menu.
    InterpolationMenu,
    /// Blender's `Ctrl+E` menu.
    EasingMenu,
    /// Key > Insert time….
    InsertTime,
    /// Key > Remove time….
    RemoveTime,
    /// View > Frame statistics.
    FrameStats,
    /// View > Problems.
    Problems,
}

/// Which windows are open.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Windows(std::collections::BTreeSet<Window>);

impl Windows {
    #[must_use]
    pub fn is_open(&self, w: Window) -> bool {
        self.0.contains(&w)
    }

    pub fn open(&mut self, w: Window) {
        self.0.insert(w);
    }

    /// Closes `w`; whether it was open.
    pub fn close(&mut self, w: Window) -> bool {
        self.0.remove(&w)
    }

    /// Opens `w` if it is closed, closes it if it is open (a View menu toggle).
    pub fn toggle(&mut self, w: Window) {
        if !self.close(w) {
            self.open(w);
        }
    }
}

/// What the dispatcher asks of a panel's own state, handed over by the app after the frame's
/// commands (the dispatcher knows no panel).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PanelRequest {
    /// Fit every visible curve in the graph (and the body in the pose view: Home).
    FrameAll,
    /// Fit the curves in the graph only (the shown tracks changed).
    FrameGraph,
    /// Fit the selected keys in the graph.
    FrameSelected,
    /// Show the Import window on this file, or ask for one (the system's dialog) if none is
    /// chosen yet.
    Import(Option<PathBuf>),
    /// Import this file as a new project at once, with the window's progress bar and Cancel
    /// (`tangent BIG.glb`: a big file is not read before the window is up).
    ImportNow(PathBuf),
}

/// A value handed from a finished job to the dispatcher inside a command, taken once (a
/// command is plain data that may be cloned; what it hands over is not copied).
pub struct Handoff<T>(Arc<std::sync::Mutex<Option<T>>>);

impl<T> Handoff<T> {
    pub fn new(value: T) -> Self {
        Self(Arc::new(std::sync::Mutex::new(Some(value))))
    }

    /// The value, the first time it is asked for.
    pub fn take(&self) -> Option<T> {
        self.0.lock().ok()?.take()
    }
}

impl<T> Clone for Handoff<T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<T> std::fmt::Debug for Handoff<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Handoff(..)")
    }
}

/// Two handoffs are the same if they hand over the same value.
impl<T> PartialEq for Handoff<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A job's result, come back as a command: the dispatcher applies it if its basis holds
/// (`AppState::current`).
#[derive(Clone, Debug, PartialEq)]
pub enum Finished {
    /// A change of many keys a worker made.
    Keys(Handoff<MadeKeys>),
    /// A big file opened or saved on a worker.
    File(Handoff<FileDone>),
}

/// A change of keys a worker made, with what it was made for.
pub struct MadeKeys {
    pub label: String,
    /// Not part of a gesture: the change is an undo step of its own.
    pub own_step: bool,
    pub made_for: Option<Basis>,
    pub keys: Vec<ChangedKeys>,
    /// What the status bar says once the keys are in place.
    pub status: Option<Status>,
}

/// What a file job's worker made.
pub enum FileOutcome {
    /// The project read and compiled, and the file's disk stamp.
    Opened(CompiledTake, Option<DiskStamp>),
    Saved(Option<DiskStamp>),
    Failed(String),
}

/// A finished file job: the file, what it was, and what it made.
pub struct FileDone {
    pub path: PathBuf,
    /// Saving: the document it saved a snapshot of, and the undo step the snapshot was
    /// taken at (marked saved).
    pub made_for: Option<Basis>,
    pub save_point: crate::edit::SavePoint,
    /// Saving: what runs once the save has succeeded.
    pub then: Option<AfterDiscard>,
    pub seconds: f64,
    pub outcome: FileOutcome,
}
