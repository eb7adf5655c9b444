//! Opening and saving projects, as the dispatcher asks: small files at once, big ones on a
//! worker thread ([`FileJob`], `file_job.rs`) with a progress window (`dialogs.rs`); the
//! finished job's result put in place here (an opened document, or a save marked done, only
//! if the document it was made for is still open: `AppState::current`).

use std::path::{Path, PathBuf};

use eframe::egui;

use super::basis::Needs;
use super::commands::Decision;
use super::document::DocState;
use super::file_job::{values, FileJob, BACKGROUND_BYTES, BACKGROUND_VALUES};
use super::files::{disk_stamp, AfterDiscard, DiskStamp, FileDone, FileOutcome};
use super::message::Status;
use super::state::AppState;
use crate::io::{load_project, save_project};
use crate::Project;

/// What a save did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saving {
    /// Written (or refused: the status says why and nothing was written).
    Done(bool),
    /// Writing on a worker thread; the result arrives in a later frame.
    Started,
}

impl Saving {
    /// Saved, or on its way to being saved.
    pub fn ok(self) -> bool {
        self != Saving::Done(false)
    }
}

/// The big open or save that finished on its worker, if one did, taken out of the UI state
/// with what it made (the dispatcher hands it back as a command).
pub fn finished_file(state: &mut AppState) -> Option<FileDone> {
    let made = state.ui.file_job.as_mut()?.job.poll()?;
    let FileJob { path, job, save_point, then, .. } = state.ui.file_job.take()?;
    // (A cancelled open is taken out of the slot when it is cancelled.)
    let outcome = made.unwrap_or_else(|| FileOutcome::Failed(format!("Stopped reading or writing {}", path.display())));
    Some(FileDone { path, made_for: job.basis(), save_point, then, seconds: job.elapsed().as_secs_f64(), outcome })
}

impl AppState {
    /// An editor that opens `path` on a worker thread at once (the window paints while it
    /// loads), on an empty untitled document until then.
    pub fn opening(path: PathBuf) -> Self {
        let mut state = AppState::new(Project::default(), None);
        state.set_status(Status::message(format!("Opening {}…", path.display())));
        state.ui.file_job = Some(FileJob::open(path, None));
        state
    }

    /// Loads `path` (on a worker thread when it is big); on failure the open document stays as
    /// it was and the error is shown.
    pub fn open(&mut self, path: &Path) {
        if self.file_busy() {
            self.set_status(Status::error(format!("Not opened {}: wait for the file being read or written", path.display())));
            return;
        }
        if std::fs::metadata(path).is_ok_and(|m| m.len() > BACKGROUND_BYTES) {
            self.set_status(Status::message(format!("Opening {}…", path.display())));
            self.ui.file_job = Some(FileJob::open(path.to_owned(), None));
            return;
        }
        match load_project(path) {
            Ok(project) => {
                self.replace_document(project, Some(path.to_owned()));
                self.opened(path, disk_stamp(path));
            }
            Err(e) => self.set_status(Status::error(format!("Could not open: {e}"))),
        }
    }

    fn opened(&mut self, path: &Path, stamp: Option<DiskStamp>) {
        self.doc.disk_stamp = stamp;
        self.view.remember_recent(path);
        self.set_status(Status::message(format!("Opened {}", path.display())));
    }

    /// [`Self::save`]; whether it was saved or is being saved.
    pub fn save_to(&mut self, path: &Path) -> bool {
        self.save(path).ok()
    }

    /// Saves to `path` (atomically) unless another program changed the file since it was
    /// opened or saved (then asks: [`super::state::UiState::confirm_overwrite`]).
    pub fn save(&mut self, path: &Path) -> Saving {
        let own_file = self.doc.path.as_deref() == Some(path);
        if own_file && self.doc.disk_stamp.is_some() && path.exists() && disk_stamp(path) != self.doc.disk_stamp {
            self.ui.confirm_overwrite = Some(path.to_owned());
            self.set_status(Status::error(format!("{} was changed by another program since it was opened; not saved", path.display())));
            return Saving::Done(false);
        }
        self.save_over(path)
    }

    /// Saves to `path` without asking about changes on disk (the user chose to overwrite).
    pub fn save_over(&mut self, path: &Path) -> Saving {
        if self.ui.file_job.is_some() {
            self.set_status(Status::error(format!("Not saved to {}: wait for the file being read or written", path.display())));
            return Saving::Done(false);
        }
        if values(self.project()) > BACKGROUND_VALUES {
            let job = FileJob::save(path.to_owned(), self.doc.document.shared_project(), self.doc.document.save_point(), self.doc.basis(), None);
            self.set_status(Status::message(format!("Saving {}…", path.display())));
            self.ui.file_job = Some(job);
            return Saving::Started;
        }
        match save_project(path, self.project()) {
            Ok(()) => {
                let at = self.doc.document.save_point();
                self.saved(path, at, disk_stamp(path));
                Saving::Done(true)
            }
            Err(e) => {
                self.set_status(Status::error(format!("Could not save: {e}")));
                Saving::Done(false)
            }
        }
    }

    fn saved(&mut self, path: &Path, at: crate::edit::SavePoint, stamp: Option<DiskStamp>) {
        self.doc.disk_stamp = stamp;
        self.doc.document.mark_saved_at(at);
        self.doc.path = Some(path.to_owned());
        self.view.remember_recent(path);
        self.set_status(Status::message(format!("Saved {}", path.display())));
    }

    /// Whether a file is being read or written on a worker thread.
    pub fn file_busy(&self) -> bool {
        self.ui.file_job.is_some()
    }

    /// Puts a finished file job's result in place (the dispatcher runs it as
    /// `AppCommand::Finished`): the opened document, or the save marked done if the document
    /// it saved is still the open one (`AppState::current`), then what was waiting on it.
    pub fn file_done(&mut self, done: FileDone) {
        let FileDone { path, made_for, save_point, then, seconds, outcome } = done;
        match outcome {
            FileOutcome::Opened(take, stamp) => {
                self.replace_doc_state(DocState::with_compiled(take, Some(path.clone())));
                self.opened(&path, stamp);
                self.set_status(Status::message(format!("Opened {} ({seconds:.2} s)", path.display())));
            }
            // A save is of a snapshot: edits since stay unsaved, the step it was taken at is
            // marked saved.
            FileOutcome::Saved(stamp) if made_for.is_none_or(|b| self.current(&b, Needs::Document, "Save")) => {
                self.saved(&path, save_point, stamp);
                self.set_status(Status::message(format!("Saved {} ({seconds:.2} s)", path.display())));
                self.ui.pending_after = then;
            }
            FileOutcome::Saved(_) => {}
            FileOutcome::Failed(message) => self.set_status(Status::error(message)),
        }
    }

    /// Cancels an open in progress (the open document stays).
    pub fn cancel_file_job(&mut self) {
        if let Some(job) = self.ui.file_job.take_if(|j| j.opening) {
            job.job.cancel();
            self.set_status(Status::message(format!("Cancelled opening {}", job.path.display())));
        }
    }
}

/// The answer to "changed on disk": write over it, or leave it.
pub(super) fn overwrite(state: &mut AppState, path: Option<PathBuf>) -> bool {
    state.ui.confirm_overwrite = None;
    match path {
        Some(p) => {
            state.save_over(&p);
        }
        None => state.set_status(Status::message("Not saved: the file on disk was left as it is (Save as… keeps your version elsewhere)")),
    }
    true
}

/// The answer to "Unsaved changes": save then continue, continue, or go back.
pub(super) fn decide(ctx: &egui::Context, state: &mut AppState, d: Decision) {
    let Some(after) = state.ui.confirm_discard.take() else { return };
    match d {
        Decision::Save => match save_interactive(state) {
            Saving::Done(true) => run_after_discard(ctx, state, after),
            Saving::Done(false) => {}
            // Runs once the save on the worker thread has succeeded.
            Saving::Started => {
                if let Some(job) = &mut state.ui.file_job {
                    job.then = Some(after);
                }
            }
        },
        Decision::Discard => run_after_discard(ctx, state, after),
        Decision::Cancel => {}
    }
}

/// Does what was waiting for the unsaved-changes decision.
pub fn run_after_discard(ctx: &egui::Context, state: &mut AppState, after: AfterDiscard) {
    match after {
        AfterDiscard::New => state.new_document(),
        AfterDiscard::Imported(take, summary, from) => {
            let mut doc = DocState::with_compiled(*take, None);
            doc.imported_from = Some(from);
            state.replace_doc_state(doc);
            state.set_status(Status::message(format!("Imported {summary}; File > Save as… to keep it")));
        }
        AfterDiscard::Open(Some(path)) => state.open(&path),
        AfterDiscard::Open(None) => match rfd::FileDialog::new().add_filter("Tangent project", &["ron"]).pick_file() {
            Some(path) => state.open(&path),
            None => {
                state.ui.show_open_path = true;
                state.set_status(Status::message("No file chosen (type a path if no file dialog appeared)"));
            }
        },
        AfterDiscard::Quit => {
            state.ui.quit_confirmed = true;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

/// Save: to the project's file, or ask where. Returns whether it was saved.
pub(super) fn save_interactive(state: &mut AppState) -> Saving {
    match state.doc.path.clone() {
        Some(path) => state.save(&path),
        None => save_as_interactive(state),
    }
}

/// Save as: the system dialog, or the typed-path window where none can open.
pub(super) fn save_as_interactive(state: &mut AppState) -> Saving {
    let (folder, name) = state.doc.save_as_offer();
    let dialog = rfd::FileDialog::new().add_filter("Tangent project", &["ron"]).set_file_name(name);
    let dialog = match folder {
        Some(folder) => dialog.set_directory(folder),
        None => dialog,
    };
    match dialog.save_file() {
        Some(path) => state.save(&path),
        None => {
            state.ui.show_save_path = true;
            state.set_status(Status::message("No file chosen (type a path if no file dialog appeared)"));
            Saving::Done(false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Interpolation, Key, Track, TrackKind};

    /// 40 Vec3 tracks of 2,500 keys: a 4 MB file, opened and saved on a worker thread.
    fn big() -> Project {
        let tracks = (0..40)
            .map(|t| {
                let keys = (0..2500).map(|i| Key::new(f64::from(i) / 30.0, vec![f64::from(i + t).sin(), 1.0, f64::from(t)])).collect();
                Track::new(format!("bone{t}.translation"), TrackKind::Vec3, Interpolation::Tcb).with_keys(keys)
            })
            .collect();
        Project { tracks, ..Project::default() }
    }

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tangent-files-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn finish(state: &mut AppState) {
        let start = std::time::Instant::now();
        while state.file_busy() {
            assert!(start.elapsed().as_secs() < 60, "the job finishes");
            std::thread::sleep(std::time::Duration::from_millis(5));
            if let Some(done) = finished_file(state) {
                state.file_done(done);
            }
        }
    }

    #[test]
    fn a_big_file_opens_on_a_worker_and_a_bad_one_changes_nothing() {
        let d = dir("open");
        let (good, bad) = (d.join("good.ron"), d.join("bad.ron"));
        crate::io::save_project(&good, &big()).unwrap();
        assert!(std::fs::metadata(&good).unwrap().len() > BACKGROUND_BYTES);
        let mut state = AppState::new(crate::io::demo_project(), None);
        state.open(&good);
        assert!(state.file_busy(), "a big file is read on a worker thread");
        assert_eq!(state.project(), &crate::io::demo_project(), "the open document stays until it has loaded");
        finish(&mut state);
        assert_eq!(state.project(), &crate::io::load_project(&good).unwrap());
        assert_eq!(state.doc.path.as_deref(), Some(good.as_path()));
        assert!(state.doc.curve(39).unwrap().is_ok() && !state.doc.document.is_dirty());
        assert!(std::mem::take(&mut state.ui.document_replaced), "the views frame the new document");
        // A big file with an error: reported, and the open document kept.
        let text = std::fs::read_to_string(&good).unwrap().replacen("time: 1.0,", "time: nope,", 1);
        std::fs::write(&bad, text).unwrap();
        let before = state.project().clone();
        state.open(&bad);
        finish(&mut state);
        assert_eq!(state.project(), &before);
        assert!(state.ui.status.is_error && state.ui.status.text.contains("bad.ron"), "{}", state.ui.status.text);
        // Cancelled: nothing changes.
        state.open(&good);
        state.cancel_file_job();
        assert!(!state.file_busy());
        assert_eq!(state.project(), &before);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_big_project_saves_on_a_worker_and_later_edits_stay_unsaved() {
        let d = dir("save");
        let path = d.join("take.ron");
        let mut state = AppState::new(big(), None);
        let snapshot = state.project().clone();
        assert_eq!(state.save(&path), Saving::Started);
        // An edit while it writes: not in the file, and still unsaved afterwards.
        let edit = crate::Edit::SpliceKeys { track: 0, at: 0, remove: 1, keys: vec![Key::new(0.0, vec![9.0, 9.0, 9.0])] };
        state.doc.apply("Edit", edit).unwrap();
        assert_eq!(state.save(&path), Saving::Done(false), "one file job at a time");
        finish(&mut state);
        assert_eq!(crate::io::load_project(&path).unwrap(), snapshot);
        assert!(state.doc.document.is_dirty(), "the edit made during the save is not saved");
        assert_eq!(state.doc.path.as_deref(), Some(path.as_path()));
        state.doc.document.undo();
        assert!(!state.doc.document.is_dirty(), "undoing it returns to what was saved");
        let _ = std::fs::remove_dir_all(&d);
    }
    /// A big save that finishes after another document replaced the saved one marks nothing
    /// of the new document saved and gives it no path (the save's basis names the old one).
    #[test]
    fn a_save_finishing_after_a_new_document_leaves_the_new_one_as_it_is() {
        let d = dir("save-new");
        let path = d.join("take.ron");
        let mut state = AppState::new(big(), None);
        assert_eq!(state.save(&path), Saving::Started);
        state.new_document();
        let edit =
            crate::Edit::InsertTrack { index: 0, track: Track::new("x", TrackKind::Scalar, Interpolation::Linear).with_keys(vec![Key::new(0.0, vec![1.0])]) };
        state.doc.apply("Add", edit).unwrap();
        finish(&mut state);
        assert_eq!(crate::io::load_project(&path).unwrap(), big(), "the old document was written");
        assert_eq!(state.doc.path, None, "the new document is still untitled");
        assert!(state.doc.document.is_dirty(), "and still unsaved");
        assert!(state.ui.status.text.contains("another document is open"), "{}", state.ui.status.text);
        let _ = std::fs::remove_dir_all(&d);
    }
}

#[cfg(test)]
mod disk_tests {
    use super::*;
    use crate::app::commands::{AppCommand, Command};
    use crate::app::dispatch::run_command;
    use crate::edit::intent::{self, KeyRef};
    use crate::io::demo_project;

    /// Save does not overwrite a file another program changed since it was opened: it asks;
    /// Cancel leaves the file, Overwrite writes it.
    #[test]
    fn save_asks_before_overwriting_a_file_changed_on_disk() {
        let dir = std::env::temp_dir().join(format!("tangent-disk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.ron");
        crate::io::save_project(&path, &demo_project()).unwrap();
        let ctx = egui::Context::default();
        let mut state = AppState::new(demo_project(), None);
        state.open(&path);
        let edit = intent::change_key(state.project(), KeyRef { track: 0, key: 1 }, |k| k.tension = 0.5).unwrap();
        state.doc.apply("Set tension", edit).unwrap();
        let theirs = "(version: 1, fps: 24.0, tracks: [(name: \"x\", kind: Scalar, interpolation: Linear, keys: [(time: 0.0, value: [1.0])])])";
        std::fs::write(&path, theirs).unwrap();
        run_command(&ctx, &mut state, AppCommand::Ui(Command::Save));
        assert_eq!(state.ui.confirm_overwrite.as_deref(), Some(path.as_path()));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs, "not overwritten");
        assert!(state.doc.document.is_dirty());
        run_command(&ctx, &mut state, AppCommand::Overwrite(None));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs, "Cancel leaves it");
        run_command(&ctx, &mut state, AppCommand::Ui(Command::Save));
        run_command(&ctx, &mut state, AppCommand::Overwrite(Some(path.clone())));
        assert_eq!(crate::io::load_project(&path).unwrap(), *state.project(), "Overwrite writes ours");
        assert!(!state.doc.document.is_dirty() && state.ui.confirm_overwrite.is_none());
        // Saved by us: the next save needs no question.
        let edit = intent::change_key(state.project(), KeyRef { track: 0, key: 1 }, |k| k.tension = 0.25).unwrap();
        state.doc.apply("Set tension", edit).unwrap();
        run_command(&ctx, &mut state, AppCommand::Ui(Command::Save));
        assert!(state.ui.confirm_overwrite.is_none() && !state.doc.document.is_dirty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
