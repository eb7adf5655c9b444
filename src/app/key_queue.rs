//! The change of many keys being made on a worker, and the commands that wait for it.
//!
//! From [`BACKGROUND_KEYS`] keys in the selection's tracks on, a change of the selected keys
//! (a field, a frame of a graph drag, a handle type, Delete) is made on a worker from the
//! project as it is (shared, not copied) and the window goes on drawing, with a spinner in
//! the status bar (the planner, `planner.rs`, decides). While it runs, the dispatcher keeps
//! the commands that touch the document or the selection here, in order
//! (`dispatch::waits_for_change`): an Undo pressed meanwhile undoes the change, a drag's end
//! closes the step after it; consecutive changes of one drag are merged into the latest
//! ([`KeyQueue::defer`]), so a slider dragged faster than the changes are made shows the value
//! it is at, not a backlog.

use std::collections::VecDeque;

use super::commands::AppCommand;
use super::compiled_track::ChangedKeys;
use super::jobs::Job;
use super::key_change::Phase;
/// Keys of the tracks with selected keys from which a change is made on a worker (each such
/// track is copied and compiled whole): about 50 ms of work on the UI thread here
/// (`benches/ui_frame.rs`: a frame of the tension drag is 42 ms at 120,000 keys).
pub const BACKGROUND_KEYS: usize = 150_000;

/// The status a finished change leaves, from what it made.
pub type Describe = Box<dyn Fn(&[ChangedKeys]) -> String + Send>;

/// A change being made on a worker.
pub struct KeyJob {
    /// Not part of a gesture: the change is an undo step of its own.
    pub own_step: bool,
    /// How many keys it changes (the status bar says so while it runs).
    pub keys: usize,
    pub job: Job<Vec<ChangedKeys>>,
    pub describe: Option<Describe>,
}

/// The change on a worker, if any, and the commands waiting for it.
pub struct KeyQueue {
    pub running: Option<KeyJob>,
    deferred: VecDeque<AppCommand>,
    /// [`BACKGROUND_KEYS`]; tests lower it to take the worker's path on small documents.
    pub background_keys: usize,
    /// Changes started on a worker so far (tests: which path a change took, however fast the
    /// worker is).
    pub started: usize,
}

impl Default for KeyQueue {
    fn default() -> Self {
        Self { running: None, deferred: VecDeque::new(), background_keys: BACKGROUND_KEYS, started: 0 }
    }
}

impl KeyQueue {
    /// A change is being made, or commands wait for one.
    #[must_use]
    pub fn is_busy(&self) -> bool {
        self.running.is_some() || !self.deferred.is_empty()
    }

    /// What the status bar says while a change is made.
    #[must_use]
    pub fn busy_text(&self) -> Option<String> {
        self.running.as_ref().map(|j| format!("{}: {} keys…", j.job.label(), j.keys))
    }

    /// Takes `job` as the change being made.
    pub fn start(&mut self, job: KeyJob) {
        debug_assert!(self.running.is_none(), "a change is being made: commands wait for it (dispatch::run_or_defer)");
        self.started += 1;
        self.running = Some(job);
    }

    /// The finished change, if the worker is done: the job and the tracks it made (`None`
    /// if its worker ended without them).
    pub fn finished(&mut self) -> Option<(KeyJob, Option<Vec<ChangedKeys>>)> {
        let made = self.running.as_mut()?.job.poll()?;
        self.running.take().map(|j| (j, made))
    }

    /// Keeps `command` until the change is in place. A change of the same drag as the last
    /// waiting step (its begin or a change) replaces that step's change: only the latest value
    /// of a drag is worth making.
    pub fn defer(&mut self, command: AppCommand) {
        if let (Some(AppCommand::Gesture(last)), AppCommand::Gesture(new)) = (self.deferred.back_mut(), &command) {
            let open = matches!(last.phase, Phase::Begin | Phase::Change);
            if open && new.phase == Phase::Change && new.change.is_some() && last.label == new.label {
                last.change.clone_from(&new.change);
                return;
            }
        }
        self.deferred.push_back(command);
    }

    /// Keeps `command` to run first once the change is in place (a drag's end, after the
    /// drag's last change that is being made).
    pub fn defer_next(&mut self, command: AppCommand) {
        self.deferred.push_front(command);
    }

    /// The next waiting command, once no change is being made.
    pub fn next_deferred(&mut self) -> Option<AppCommand> {
        if self.running.is_some() {
            return None;
        }
        self.deferred.pop_front()
    }
}
