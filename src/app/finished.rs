//! A job's result come back as a command ([`Finished`]), its value handed over once
//! ([`Handoff`]): a change of many keys ([`MadeKeys`]) or a file opened or saved.

use std::sync::Arc;

use super::basis::Basis;
use super::compiled_track::ChangedKeys;
use super::files::FileDone;
use super::message::Status;

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
