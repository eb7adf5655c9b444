//! Opening and saving a big project off the UI thread: a [`FileJob`] is a [`Job`] with the
//! file it reads or writes.
//!
//! A file over [`BACKGROUND_BYTES`] is opened on a worker thread: read in chunks (progress in
//! bytes), then parsed track by track and compiled on every core into a [`CompiledTake`],
//! whose document replaces the open one only once it is complete — a file that fails leaves the
//! open document as it was, and Cancel drops the half-read one. A project of more than
//! [`BACKGROUND_VALUES`] key values is saved on a worker thread from a snapshot (the document
//! stays editable; what was saved is marked saved, later edits stay unsaved). Smaller files
//! are opened and saved at once (`file_commands.rs`): they take a few milliseconds.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use eframe::egui;

use super::basis::Basis;
use super::compiled_track::CompiledTake;
use super::files::{disk_stamp, AfterDiscard, FileOutcome};
use super::jobs::{Job, Worker};
use crate::error::FileError;
use crate::io::{parse_project_compiled, save_project};
use crate::Project;

/// Files larger than this are opened on a worker thread (parsing runs at tens of MB/s).
pub const BACKGROUND_BYTES: u64 = 2 << 20;
/// Projects with more key values than this (keys × components) are saved on a worker thread.
pub const BACKGROUND_VALUES: usize = 250_000;

/// An open or save running on a worker thread.
pub struct FileJob {
    pub path: PathBuf,
    /// Opening (`true`) or saving.
    pub opening: bool,
    pub job: Job<FileOutcome>,
    /// Saving: the undo step the snapshot was taken at, marked saved when it is written.
    pub save_point: crate::edit::SavePoint,
    /// Saving: what runs once the save has succeeded.
    pub then: Option<AfterDiscard>,
}

impl FileJob {
    /// Opens `path` on a worker thread: read, parsed, checked and compiled, a [`CompiledTake`]
    /// the UI thread makes a document of without compiling.
    pub fn open(path: PathBuf, repaint: Option<&egui::Context>) -> Self {
        let file = path.clone();
        let job = Job::spawn(format!("Opening {}", path.display()), repaint, move |w| match read_and_compile(&file, w) {
            Ok(Some(take)) => Some(FileOutcome::Opened(take, disk_stamp(&file))),
            Ok(None) => None,
            Err(e) => Some(FileOutcome::Failed(format!("Could not open: {e}"))),
        });
        Self { path, opening: true, job, save_point: crate::edit::SavePoint::default(), then: None }
    }

    /// Saves `project` (a snapshot of the document of `made_for`, taken at undo step
    /// `save_point`) to `path` on a worker thread.
    pub fn save(path: PathBuf, project: Arc<Project>, save_point: crate::edit::SavePoint, made_for: Basis, repaint: Option<&egui::Context>) -> Self {
        let file = path.clone();
        let job = Job::spawn(format!("Saving {}", path.display()), repaint, move |w| {
            w.progress().set("Writing", 0, 0);
            let project = crate::io::released(project);
            Some(match save_project(&file, &project) {
                Ok(()) => FileOutcome::Saved(disk_stamp(&file)),
                Err(e) => FileOutcome::Failed(format!("Could not save: {e}")),
            })
        });
        Self { path, opening: false, job: job.made_for(made_for), save_point, then: None }
    }
}

/// Reads `path` in chunks, parses and validates it, and compiles every track; `None` if
/// cancelled.
fn read_and_compile(path: &Path, w: &Worker) -> Result<Option<CompiledTake>, FileError> {
    let origin = path.display().to_string();
    let io_error = |error| FileError::Io { path: origin.clone(), error };
    let mut file = std::fs::File::open(path).map_err(io_error)?;
    let size = file.metadata().map_err(io_error)?.len() as usize;
    w.progress().set("Reading", 0, size);
    let mut bytes = Vec::with_capacity(size);
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut chunk).map_err(io_error)?;
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&chunk[..n]);
        w.progress().advance(bytes.len());
        if w.cancelled() {
            return Ok(None);
        }
    }
    let text = String::from_utf8(bytes).map_err(|e| io_error(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?;
    w.progress().set("Parsing and checking", 0, 0);
    let (project, curves) = parse_project_compiled(&text, &origin)?;
    drop(text);
    let take = CompiledTake::from_curves(project, curves);
    Ok((!w.cancelled()).then_some(take))
}

/// Key values (keys × components) of `project`: what saving costs grows with.
#[must_use]
pub fn values(project: &Project) -> usize {
    project.tracks.iter().map(|t| t.keys.len() * t.kind.dim()).sum()
}
