//! What opening, importing and saving carry: how imported tracks arrive ([`ImportMode`],
//! [`ImportResult`]), a file's disk stamp, what runs once unsaved changes are decided
//! ([`AfterDiscard`]), and what a file job's worker made ([`FileDone`]).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::basis::Basis;
use super::compiled_track::CompiledTake;
use crate::import::ImportReport;

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
