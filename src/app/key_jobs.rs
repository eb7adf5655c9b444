//! Changes of every selected key made off the UI thread, so a big selection never freezes
//! the window (issue 16).
//!
//! An inspector field set on a whole mocap take (200 tracks × 5,000 keys) changes a million
//! keys: making the new keys, compiling the tracks and building their key ranges took about
//! 220 ms per frame on the UI thread while the slider was dragged, and a key dragged in the
//! graph with every key selected 2.8 s per frame. From [`BACKGROUND_KEYS`] keys in the
//! selection's tracks on, a [`KeyChange`] (a field, or a frame of a graph drag,
//! [`Change::Move`]) and a handle type are made on a worker from the project
//! as it is (shared, not copied) and the window goes on drawing, with a spinner in the status
//! bar. While it runs:
//! - the commands that touch the document wait behind it, in order ([`waits_for_change`]):
//!   an Undo pressed meanwhile undoes the change, a drag's end closes the step after it;
//! - consecutive changes of one drag are merged into the latest ([`KeyJobs::defer`]), so a
//!   slider dragged faster than the changes are made shows the value it is at, not a backlog.
//!
//! Putting the result in place costs swapping the keys and curves in: the worker compiled
//! them, so nothing is checked again on the UI thread (`Document::apply_compiled_keys`). A
//! result made from a project that is no longer the open one (a file opened meanwhile) is
//! dropped, and the status bar says so.

use std::collections::VecDeque;
use std::sync::{mpsc, Arc};

use eframe::egui;

use super::commands::{AppCommand, TrackEdits};
use super::doc_edits::HandleSides;
use super::key_ranges::KeyRanges;
use super::run;
use super::state::KeyRef;
use super::state::{AppState, Status};
use super::Panels;
use crate::edit::intent::{self, KeyEdit};
use crate::error::TrackError;
use crate::{Edit, Interpolation, Key, Project, TrackCurve};

/// Keys of the tracks with selected keys from which a change is made on a worker (each such
/// track is copied and compiled whole): about 50 ms of work on the UI thread here (`benches/ui_frame.rs`: a frame of the tension drag is 42 ms at 120,000 keys).
pub const BACKGROUND_KEYS: usize = 150_000;

/// The function that changes one key.
pub type ChangeFn = Arc<dyn Fn(&mut Key) + Send + Sync>;

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
    /// [`intent::keys_by_track`] gives them) of `project`.
    #[must_use]
    pub fn of_each_key(&self, project: &Project, tracks: &[(usize, Vec<usize>)]) -> ChangeFn {
        match self {
            Self::Each(change) => change.clone(),
            Self::FirstKeyTo(time) => {
                let first = tracks.first().and_then(|(t, keys)| project.tracks.get(*t)?.keys.get(*keys.first()?));
                let dt = first.map_or(0.0, |k| time - k.time);
                Arc::new(move |k: &mut Key| k.time += dt)
            }
            // A drag is made from its origins, not key by key (`move_keys`); never asked.
            Self::Move(_) => Arc::new(|_: &mut Key| {}),
        }
    }
}

impl PartialEq for KeyChange {
    fn eq(&self, other: &Self) -> bool {
        let same = match (&self.change, &other.change) {
            (Change::Each(a), Change::Each(b)) => Arc::ptr_eq(a, b),
            (Change::FirstKeyTo(a), Change::FirstKeyTo(b)) => a == b,
            (Change::Move(a), Change::Move(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        self.label == other.label && self.gesture == other.gesture && same
    }
}

impl std::fmt::Debug for KeyChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyChange").field("label", &self.label).field("gesture", &self.gesture).finish_non_exhaustive()
    }
}

/// A track's new keys, with the curve and key ranges the worker compiled from them.
pub struct Prepared {
    pub track: usize,
    pub keys: Vec<Key>,
    pub curve: Result<TrackCurve, TrackError>,
    pub ranges: KeyRanges,
    /// The track's selected keys once the keys are in place.
    pub selected: Vec<KeyRef>,
}

/// `change` of keys `tracks` (per track, [`intent::keys_by_track`]) of `project`, each changed
/// track compiled, on every core. Tracks the change leaves as they are are left out.
#[must_use]
pub fn prepare(project: &Project, tracks: Vec<(usize, Vec<usize>)>, change: &(dyn Fn(&mut Key) + Sync)) -> Vec<Prepared> {
    use rayon::prelude::*;
    intent::change_keys_of(project, tracks, change).into_par_iter().filter_map(|edit| prepared(project, edit)).collect()
}

/// A track's whole new keys (`SetKeys`) compiled, with its key ranges; `None` when they are
/// the keys `project` has (or the edit is of another kind, or of no track).
fn prepared(project: &Project, KeyEdit { track, edit, selected }: KeyEdit) -> Option<Prepared> {
    let Edit::SetKeys { keys, .. } = edit else { return None };
    let old = project.tracks.get(track).filter(|old| old.keys != keys)?;
    let new = old.with_other_keys(keys);
    let (curve, ranges) = (TrackCurve::new(&new), KeyRanges::new(&new));
    Some(Prepared { track, keys: new.keys, curve, ranges, selected })
}

/// A frame of a key drag ([`KeyMove`]): each track's keys moved and sorted from its origin
/// ([`intent::move_track_whole`]) and compiled, on every core. Tracks whose keys come out as
/// they are in `project` (the drag back where it began, or a frame like the last) are left
/// out.
#[must_use]
pub fn prepare_move(project: &Project, m: &KeyMove) -> Vec<Prepared> {
    use rayon::prelude::*;
    m.origins.par_iter().filter_map(|o| prepared(project, intent::move_track_whole(o, m.dt, m.dv, m.comp, m.snap)?)).collect()
}

/// Delete of keys `tracks` of `project` (per track, [`intent::keys_by_track`]): each track's
/// other keys, compiled, on every core. A track whose every key is selected keeps them (as
/// [`intent::delete_keys`] refuses it) and is left out.
#[must_use]
pub fn prepare_deletion(project: &Project, tracks: Vec<(usize, Vec<usize>)>) -> Vec<Prepared> {
    use rayon::prelude::*;
    tracks
        .into_par_iter()
        .filter_map(|(ti, gone)| {
            let track = project.tracks.get(ti).filter(|t| gone.len() < t.keys.len())?;
            // `gone` is ascending: one pass beside it.
            let mut next = gone.iter().peekable();
            let keys: Vec<Key> = track.keys.iter().enumerate().filter(|(i, _)| next.next_if_eq(&i).is_none()).map(|(_, k)| k.clone()).collect();
            prepared(project, KeyEdit { track: ti, edit: Edit::SetKeys { track: ti, keys }, selected: Vec::new() })
        })
        .collect()
}

/// `Key > Handle type` (`V`) of keys `tracks` of `project`: each Bezier track's handles
/// resolved from its curve (compiled here, from the track as it is) and given type `kind`
/// on both sides ([`crate::handles::set_handle_types`], as the UI thread's
/// `DocState::set_handle_types` does), then the changed tracks compiled, on every core.
#[must_use]
pub fn prepare_handle_types(project: &Project, tracks: Vec<(usize, Vec<usize>)>, sides: HandleSides) -> Vec<Prepared> {
    use rayon::prelude::*;
    tracks
        .into_par_iter()
        .filter_map(|(ti, which)| {
            let track = project.tracks.get(ti).filter(|t| t.interpolation == Interpolation::Bezier)?;
            let curve = TrackCurve::new(track).ok()?;
            let keys = crate::handles::set_handle_types(track, &curve, &which, sides.left, sides.right);
            let selected = which.into_iter().map(|key| KeyRef { track: ti, key }).collect();
            prepared(project, KeyEdit { track: ti, edit: Edit::SetKeys { track: ti, keys }, selected })
        })
        .collect()
}

/// What a job makes on the worker from the project.
type Work = Box<dyn FnOnce(&Project) -> Vec<Prepared> + Send>;

/// The status a finished job leaves, from what it made.
type Describe = Box<dyn Fn(&[Prepared]) -> String + Send>;

/// A change being made on a worker.
pub struct KeyJob {
    pub label: String,
    /// Not part of a gesture: the change is an undo step of its own.
    pub own_step: bool,
    /// The project it is made from: its address and the document's revision then.
    pub of: (usize, u64),
    keys: usize,
    result: mpsc::Receiver<Vec<Prepared>>,
    describe: Option<Describe>,
}

/// The change on a worker, if any, and the commands waiting for it.
pub struct KeyJobs {
    job: Option<KeyJob>,
    deferred: VecDeque<AppCommand>,
    /// [`BACKGROUND_KEYS`]; tests lower it to take the worker's path on small documents.
    pub background_keys: usize,
    /// Changes started on a worker so far (tests: which path a change took, however fast the
    /// worker is).
    pub started: usize,
}

impl Default for KeyJobs {
    fn default() -> Self {
        Self { job: None, deferred: VecDeque::new(), background_keys: BACKGROUND_KEYS, started: 0 }
    }
}

/// Where a project is: with the document's revision, says whether a result is of the open
/// project as it is now.
#[must_use]
pub fn project_id(project: &Project, revision: u64) -> (usize, u64) {
    (std::ptr::from_ref(project) as usize, revision)
}

impl KeyJobs {
    /// A change is being made, or commands wait for one.
    #[must_use]
    pub fn is_busy(&self) -> bool {
        self.job.is_some() || !self.deferred.is_empty()
    }

    /// What the status bar says while a change is made.
    #[must_use]
    pub fn busy_text(&self) -> Option<String> {
        self.job.as_ref().map(|j| format!("{}: {} keys…", j.label, j.keys))
    }

    /// Makes `change` of keys `tracks` of `project` (the open one, of `of`) on a worker, which
    /// asks `ctx` for a frame when it is done.
    pub fn start(&mut self, ctx: &egui::Context, project: Arc<Project>, of: (usize, u64), c: KeyChange, tracks: Vec<(usize, Vec<usize>)>) {
        let keys = tracks.iter().map(|(_, k)| k.len()).sum();
        let change = c.change;
        let work = Box::new(move |p: &Project| {
            let change = change.of_each_key(p, &tracks);
            prepare(p, tracks, &*change)
        });
        self.start_work(ctx, (project, of), (c.label, !c.gesture, keys), work, None);
    }

    /// Makes `work` on a worker from `project` (the open one, of `of`), labelled `label`, of
    /// `keys` keys, an undo step of its own if `own_step`; `describe` says what it did.
    fn start_work(
        &mut self,
        ctx: &egui::Context,
        (project, of): (Arc<Project>, (usize, u64)),
        (label, own_step, keys): (String, bool, usize),
        work: Work,
        describe: Option<Describe>,
    ) {
        debug_assert!(self.job.is_none(), "a change is being made: commands wait for it (run_or_defer)");
        self.started += 1;
        let (tx, rx) = mpsc::channel();
        let ctx = ctx.clone();
        std::thread::spawn(move || {
            let prepared = work(&project);
            // Let go of the project before the result is taken: the document then changes it
            // in place instead of copying it.
            drop(project);
            if tx.send(prepared).is_ok() {
                ctx.request_repaint();
            }
        });
        self.job = Some(KeyJob { label, own_step, of, keys, result: rx, describe });
    }

    /// The finished change, if the worker is done: the job and its tracks.
    pub fn finished(&mut self) -> Option<(KeyJob, Vec<Prepared>)> {
        let prepared = match self.job.as_ref()?.result.try_recv() {
            Ok(p) => p,
            Err(mpsc::TryRecvError::Empty) => return None,
            Err(mpsc::TryRecvError::Disconnected) => Vec::new(),
        };
        self.job.take().map(|j| (j, prepared))
    }

    /// Keeps `command` until the change is in place. A change of the same drag as the last
    /// waiting one replaces it: only the latest value of a drag is worth making.
    pub fn defer(&mut self, command: AppCommand) {
        if let (Some(AppCommand::ChangeKeys(last)), AppCommand::ChangeKeys(new)) = (self.deferred.back_mut(), &command) {
            if last.gesture && new.gesture && last.label == new.label {
                *last = new.clone();
                return;
            }
        }
        self.deferred.push_back(command);
    }

    /// The next waiting command, once no change is being made.
    pub fn next_deferred(&mut self) -> Option<AppCommand> {
        if self.job.is_some() {
            return None;
        }
        self.deferred.pop_front()
    }
}

/// Whether `command` waits for a change being made: everything that reads or changes the
/// document or the selection does; what only moves the view, the playhead or the status does
/// not.
#[must_use]
pub fn waits_for_change(command: &AppCommand) -> bool {
    !matches!(
        command,
        AppCommand::SetView(_)
            | AppCommand::Transport(_)
            | AppCommand::Status(_)
            | AppCommand::SetPreview(_)
            | AppCommand::CloseOpenPath
            | AppCommand::CloseSavePath
            | AppCommand::CancelFileJob
    )
}

// Running the queue while a change is made on a worker (from `TangentApp::ui` and `run.rs`).

/// Runs `command`, or keeps it for later if it has to wait for a change of many keys being
/// made on a worker (`key_jobs.rs`). Returns whether anything on screen changed.
pub fn run_or_defer(ctx: &egui::Context, state: &mut AppState, panels: &mut Panels, command: AppCommand) -> bool {
    if state.ui.key_jobs.is_busy() && waits_for_change(&command) {
        state.ui.key_jobs.defer(command);
        return false;
    }
    run::run_command(ctx, state, panels, command)
}

/// Puts a change the worker finished in place, then runs the commands that waited for it,
/// until one starts another change on the worker. Returns whether anything changed.
pub fn poll_key_job(ctx: &egui::Context, state: &mut AppState, panels: &mut Panels) -> bool {
    let Some((job, prepared)) = state.ui.key_jobs.finished() else {
        return false;
    };
    let now = project_id(state.project(), state.doc.document.revision());
    if job.of == now {
        if job.own_step {
            state.doc.document.begin_gesture(&job.label);
        }
        let done = job.describe.as_ref().map(|d| d(&prepared));
        let result = state.doc.install_key_changes(&job.label, prepared);
        if job.own_step {
            state.doc.document.end_gesture();
        }
        match (result, done) {
            (Err(s), _) => state.set_status(s),
            (Ok(()), Some(text)) => state.set_status(Status::message(text)),
            (Ok(()), None) => {}
        }
    } else {
        state.set_status(Status::error(format!("{}: not applied, the document changed while it was made", job.label)));
    }
    while let Some(command) = state.ui.key_jobs.next_deferred() {
        run::run_command(ctx, state, panels, command);
    }
    state.follow_range();
    true
}

/// The keys of the tracks with selected keys: what a change of the selected keys costs,
/// since each such track is copied and compiled whole (one key selected on each of 200
/// tracks of 5,000 keys is a million keys' work).
fn keys_of_selected_tracks(state: &AppState) -> usize {
    let tracks = &state.project().tracks;
    state.doc.selection.tracks().iter().filter_map(|&t| tracks.get(t)).map(|t| t.keys.len()).sum()
}

/// A field set on every selected key: at once when the selected keys' tracks are small, else
/// on a worker.
pub(super) fn change_keys(ctx: &egui::Context, state: &mut AppState, c: KeyChange) -> bool {
    if !run::join_gesture(state, c.gesture, &c.label) {
        return false;
    }
    if let Change::Move(m) = c.change {
        return move_keys(ctx, state, c.label, c.gesture, m);
    }
    let tracks = crate::edit::intent::keys_by_track(state.project(), &state.doc.selection);
    if keys_of_selected_tracks(state) < state.ui.key_jobs.background_keys {
        let change = c.change.of_each_key(state.project(), &tracks);
        let edits = crate::edit::intent::change_keys_of(state.project(), tracks, |k| change(k));
        return run::edit_tracks(state, TrackEdits { label: c.label, edits, gesture: c.gesture });
    }
    let of = project_id(state.project(), state.doc.document.revision());
    state.ui.key_jobs.start(ctx, state.doc.document.shared_project(), of, c, tracks);
    true
}

/// A frame of a key drag: at once, spliced into each track, for a small selection; else the
/// tracks moved and compiled on a worker, a frame's move waiting behind the one being made
/// (and replaced by the next, [`KeyJobs::defer`]). The status bar says `m.message` once the
/// keys are there.
fn move_keys(ctx: &egui::Context, state: &mut AppState, label: String, gesture: bool, m: Arc<KeyMove>) -> bool {
    let keys = m.keys();
    if keys < state.ui.key_jobs.background_keys {
        let project = state.project();
        let edits = intent::move_keys(&m.origins, m.dt, m.dv, m.comp, m.snap).into_iter().filter(|e| !run::is_noop(project, &e.edit));
        // A splice that reaches a small part of its track is recompiled where it reaches (one
        // key dragged on a 100,000-key track); the others are compiled whole, on every core.
        let local = |e: &KeyEdit| match &e.edit {
            Edit::SpliceKeys { track, remove, keys, .. } => project.tracks.get(*track).is_some_and(|t| 2 * (remove + keys.len()) <= t.keys.len()),
            _ => false,
        };
        let (local, wide): (Vec<KeyEdit>, Vec<KeyEdit>) = edits.partition(local);
        let status = std::mem::replace(&mut state.ui.status, Status::message(m.message.clone()));
        let changed = !local.is_empty();
        if let Err(s) = state.doc.apply_local_splices(&label, local) {
            state.set_status(s);
        }
        let changed = run::edit_tracks(state, TrackEdits { label, edits: wide, gesture }) || changed;
        return changed || state.ui.status != status;
    }
    let of = project_id(state.project(), state.doc.document.revision());
    let message = m.message.clone();
    let work = Box::new(move |p: &Project| prepare_move(p, &m));
    let describe = Box::new(move |_: &[Prepared]| message.clone());
    state.ui.key_jobs.start_work(ctx, (state.doc.document.shared_project(), of), (label, !gesture, keys), work, Some(describe));
    true
}

/// Delete (a track keeps at least one key): at once when the selection's tracks are small,
/// else each track's other keys made and compiled on a worker, one undo step.
pub(super) fn delete_keys(ctx: &egui::Context, state: &mut AppState) {
    let tracks = intent::keys_by_track(state.project(), &state.doc.selection);
    let deleted: usize = tracks.iter().filter(|(t, gone)| gone.len() < state.project().tracks[*t].keys.len()).map(|(_, gone)| gone.len()).sum();
    // Nothing to delete (every key of the tracks selected) is said at once, as the UI thread says it.
    if deleted == 0 || keys_of_selected_tracks(state) < state.ui.key_jobs.background_keys {
        if let Some(s) = state.doc.delete_selected() {
            state.set_status(s);
        }
        return;
    }
    let of = project_id(state.project(), state.doc.document.revision());
    let work = Box::new(move |p: &Project| prepare_deletion(p, tracks));
    let describe = Box::new(move |_: &[Prepared]| format!("Deleted {deleted} keys"));
    state.ui.key_jobs.start_work(ctx, (state.doc.document.shared_project(), of), ("Delete keys".to_owned(), true, deleted), work, Some(describe));
}

/// `Key > Handle type` of every selected key: at once for a small selection, else on a worker.
/// Ends an open gesture first (a handle type is a step of its own); returns `true` (the
/// status changes).
pub(super) fn set_handle_types(ctx: &egui::Context, state: &mut AppState, sides: HandleSides) -> bool {
    run::end_gesture(state);
    if keys_of_selected_tracks(state) < state.ui.key_jobs.background_keys {
        let s = state.doc.set_handle_types(sides);
        state.set_status(s);
        return true;
    }
    let tracks = crate::edit::intent::keys_by_track(state.project(), &state.doc.selection);
    let keys = tracks.iter().map(|(_, k)| k.len()).sum();
    let of = project_id(state.project(), state.doc.document.revision());
    let work = Box::new(move |p: &Project| prepare_handle_types(p, tracks, sides));
    let describe = Box::new(move |made: &[Prepared]| match made.iter().map(|p| p.selected.len()).sum::<usize>() {
        0 => format!("Handle type: nothing changed (the selected keys' {} are {:?} already, or they are not Bézier keys)", sides.which(), sides.kind()),
        n => super::doc_edits::handles_set(n, sides),
    });
    state.ui.key_jobs.start_work(ctx, (state.doc.document.shared_project(), of), ("Set handle type".to_owned(), true, keys), work, Some(describe));
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Interpolation, Track, TrackKind};

    fn change(label: &str, gesture: bool, tension: f64) -> AppCommand {
        AppCommand::ChangeKeys(KeyChange { label: label.to_owned(), gesture, change: Change::Each(Arc::new(move |k: &mut Key| k.tension = tension)) })
    }

    fn tension_of(command: &AppCommand) -> f64 {
        let AppCommand::ChangeKeys(c) = command else { panic!("not a change: {command:?}") };
        let mut k = Key::new(0.0, vec![0.0]);
        let Change::Each(change) = &c.change else { panic!("not a field change") };
        change(&mut k);
        k.tension
    }

    #[test]
    fn a_drag_waits_as_its_latest_value_and_other_commands_keep_their_order() {
        let mut jobs = KeyJobs::default();
        jobs.defer(change("Set tension", true, 0.1));
        jobs.defer(change("Set tension", true, 0.2));
        jobs.defer(AppCommand::EndGesture);
        jobs.defer(change("Set tension", true, 0.3));
        jobs.defer(change("Set bias", true, 0.4));
        jobs.defer(change("Set bias", false, 0.5));
        jobs.defer(change("Set bias", false, 0.6));
        let waiting: Vec<AppCommand> = std::iter::from_fn(|| jobs.next_deferred()).collect();
        assert_eq!(waiting.len(), 6, "{waiting:?}");
        assert_eq!(tension_of(&waiting[0]), 0.2, "the drag's latest value replaced the one before");
        assert_eq!(waiting[1], AppCommand::EndGesture);
        assert_eq!(waiting[2..].iter().map(tension_of).collect::<Vec<_>>(), [0.3, 0.4, 0.5, 0.6], "typed values and other fields are all kept");
        assert!(!jobs.is_busy());
    }

    #[test]
    fn prepare_leaves_unchanged_tracks_out_and_compiles_the_others() {
        let track = |name: &str, tension: f64| {
            Track::new(name, TrackKind::Scalar, Interpolation::Tcb)
                .with_keys((0..4).map(|i| Key::new(f64::from(i), vec![f64::from(i * i)]).with_tcb(tension, 0.0, 0.0)).collect())
        };
        let project = Project { tracks: vec![track("a", 0.5), track("b", 0.0)], ..Project::default() };
        let prepared = prepare(&project, vec![(0, vec![1, 2]), (1, vec![1, 2])], &|k: &mut Key| k.tension = 0.5);
        assert_eq!(prepared.len(), 1, "track a had tension 0.5 already");
        let p = &prepared[0];
        assert_eq!(p.track, 1);
        assert_eq!(p.keys.iter().map(|k| k.tension).collect::<Vec<_>>(), [0.0, 0.5, 0.5, 0.0]);
        assert_eq!(p.selected, [KeyRef { track: 1, key: 1 }, KeyRef { track: 1, key: 2 }]);
        // The compiled curve is the new keys' curve, not the old track's: at key 1 the
        // outgoing tangent is (1 - T)/2 · (v2 - v0) = 0.25 · 4 = 1 with tension 0.5, where
        // the old track's (tension 0) is 2.
        let curve = p.curve.as_ref().unwrap();
        assert_eq!(curve.outgoing_tangent(1).unwrap()[0], 1.0);
        assert_eq!(TrackCurve::new(&project.tracks[1]).unwrap().outgoing_tangent(1).unwrap()[0], 2.0);
        assert_eq!(p.ranges.all(0), (0.0, 9.0), "key ranges of the new keys");
    }
}
