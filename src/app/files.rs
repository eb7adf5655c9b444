//! Opening and saving projects, off the UI thread when the file is big.
//!
//! A file over [`BACKGROUND_BYTES`] is opened on a worker thread: read in chunks (progress in
//! bytes), then parsed track by track and compiled on every core into a whole [`DocState`],
//! which replaces the open document only once it is complete (and is framed in the views) —
//! a file that fails leaves the open document as it was, and Cancel drops the half-read one. A project of more
//! than [`BACKGROUND_VALUES`] key values is saved on a worker thread from a snapshot (the
//! document stays editable; what was saved is marked saved, later edits stay unsaved), and an
//! action waiting on the save (Save, then Quit) runs when it has succeeded. Smaller files are
//! opened and saved at once, as before: they take a few milliseconds.
//!
//! Both show a progress window (`progress_window`) with the phase, the amount done and the
//! time taken; the window keeps painting meanwhile.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Instant, SystemTime};

use eframe::egui;

use super::commands::AppCommand;
use super::state::{AfterDiscard, AppState, DocState, Status};
use super::PanelContext;
use crate::error::FileError;
use crate::io::{load_project, parse_project_compiled, save_project};
use crate::Project;

/// Files larger than this are opened on a worker thread (parsing runs at tens of MB/s).
pub const BACKGROUND_BYTES: u64 = 2 << 20;
/// Projects with more key values than this (keys × components) are saved on a worker thread.
pub const BACKGROUND_VALUES: usize = 250_000;

/// A file's modification time and size: Save asks before overwriting a file another program
/// changed since it was opened or saved.
pub type DiskStamp = (SystemTime, u64);

/// The modification time and size of `path`, if it can be read.
pub fn disk_stamp(path: &Path) -> Option<DiskStamp> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.modified().ok()?, m.len()))
}

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

/// How far a job is: `done` of `total` in the current phase.
#[derive(Default)]
pub struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
    phase: Mutex<&'static str>,
}

impl Progress {
    fn set(&self, phase: &'static str, done: usize, total: usize) {
        if let Ok(mut p) = self.phase.lock() {
            *p = phase;
        }
        self.done.store(done, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
    }

    fn advance(&self, done: usize) {
        self.done.store(done, Ordering::Relaxed);
    }

    /// The phase's name, and the fraction done (`None` while it cannot be told).
    pub fn read(&self) -> (&'static str, Option<f32>) {
        let phase = self.phase.lock().map_or("Working", |p| *p);
        let (done, total) = (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed));
        (phase, (total > 0).then(|| done as f32 / total as f32))
    }
}

/// What a worker sends back.
enum Outcome {
    Opened(Box<DocState>, Option<DiskStamp>),
    Saved(Option<DiskStamp>),
    Failed(String),
}

/// An open or save running on a worker thread.
pub struct FileJob {
    pub path: PathBuf,
    /// Opening (`true`) or saving.
    pub opening: bool,
    pub progress: Arc<Progress>,
    pub started: Instant,
    cancel: Arc<AtomicBool>,
    result: mpsc::Receiver<Outcome>,
    /// Saving: the undo step the snapshot was taken at, marked saved when it is written.
    save_point: u64,
    /// Saving: what runs once the save has succeeded.
    pub then: Option<AfterDiscard>,
}

impl FileJob {
    /// Opens `path` on a worker thread into a complete [`DocState`].
    pub fn open(path: PathBuf) -> Self {
        let (progress, cancel) = (Arc::new(Progress::default()), Arc::new(AtomicBool::new(false)));
        let (tx, rx) = mpsc::channel();
        let (p, c, file) = (progress.clone(), cancel.clone(), path.clone());
        std::thread::spawn(move || {
            let outcome = match read_and_compile(&file, &p, &c) {
                Ok(Some(doc)) => Outcome::Opened(Box::new(doc), disk_stamp(&file)),
                Ok(None) => return,
                Err(e) => Outcome::Failed(format!("Could not open: {e}")),
            };
            let _ = tx.send(outcome);
        });
        Self { path, opening: true, progress, started: Instant::now(), cancel, result: rx, save_point: 0, then: None }
    }

    /// Saves `project` (a snapshot taken at undo step `save_point`) to `path` on a worker thread.
    pub fn save(path: PathBuf, project: Arc<Project>, save_point: u64) -> Self {
        let progress = Arc::new(Progress::default());
        progress.set("Writing", 0, 0);
        let (tx, rx) = mpsc::channel();
        let file = path.clone();
        std::thread::spawn(move || {
            let project = crate::io::released(project);
            let outcome = match save_project(&file, &project) {
                Ok(()) => Outcome::Saved(disk_stamp(&file)),
                Err(e) => Outcome::Failed(format!("Could not save: {e}")),
            };
            let _ = tx.send(outcome);
        });
        let cancel = Arc::new(AtomicBool::new(false));
        Self { path, opening: false, progress, started: Instant::now(), cancel, result: rx, save_point, then: None }
    }

    /// Asks an open to stop; its result is dropped (saves are not cancelled: they are atomic).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// Reads `path` in chunks, parses and validates it, and compiles every track; `None` if
/// cancelled.
fn read_and_compile(path: &Path, progress: &Progress, cancel: &AtomicBool) -> Result<Option<DocState>, FileError> {
    let origin = path.display().to_string();
    let io_error = |error| FileError::Io { path: origin.clone(), error };
    let mut file = std::fs::File::open(path).map_err(io_error)?;
    let size = file.metadata().map_err(io_error)?.len() as usize;
    progress.set("Reading", 0, size);
    let mut bytes = Vec::with_capacity(size);
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut chunk).map_err(io_error)?;
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&chunk[..n]);
        progress.advance(bytes.len());
        if cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
    }
    let text = String::from_utf8(bytes).map_err(|e| io_error(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?;
    progress.set("Parsing and checking", 0, 0);
    let (project, curves) = parse_project_compiled(&text, &origin)?;
    drop(text);
    let doc = DocState::with_curves(project, Some(path.to_owned()), curves);
    Ok((!cancel.load(Ordering::Relaxed)).then_some(doc))
}

/// Key values (keys × components) of `project`: what saving costs grows with.
fn values(project: &Project) -> usize {
    project.tracks.iter().map(|t| t.keys.len() * t.kind.dim()).sum()
}

impl AppState {
    /// An editor that opens `path` on a worker thread at once (the window paints while it
    /// loads), on an empty untitled document until then.
    pub fn opening(path: PathBuf) -> Self {
        let mut state = AppState::new(Project::default(), None);
        state.set_status(Status::message(format!("Opening {}…", path.display())));
        state.ui.file_job = Some(FileJob::open(path));
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
            self.ui.file_job = Some(FileJob::open(path.to_owned()));
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
            let job = FileJob::save(path.to_owned(), self.doc.document.shared_project(), self.doc.document.save_point());
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

    fn saved(&mut self, path: &Path, at: u64, stamp: Option<DiskStamp>) {
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

    /// Takes a finished job's result: the opened document, or the save's outcome (then what
    /// was waiting on it). Returns whether anything changed.
    pub fn poll_file_job(&mut self) -> bool {
        let Some(job) = &self.ui.file_job else { return false };
        let outcome = match job.result.try_recv() {
            Ok(o) => o,
            Err(mpsc::TryRecvError::Empty) => return false,
            Err(mpsc::TryRecvError::Disconnected) => Outcome::Failed(format!("Stopped reading {}", job.path.display())),
        };
        let Some(job) = self.ui.file_job.take() else { return false };
        let secs = job.started.elapsed().as_secs_f64();
        match outcome {
            Outcome::Opened(doc, stamp) => {
                self.replace_doc_state(*doc);
                self.opened(&job.path, stamp);
                self.set_status(Status::message(format!("Opened {} ({secs:.2} s)", job.path.display())));
            }
            Outcome::Saved(stamp) => {
                self.saved(&job.path, job.save_point, stamp);
                self.set_status(Status::message(format!("Saved {} ({secs:.2} s)", job.path.display())));
                self.ui.pending_after = job.then;
            }
            Outcome::Failed(message) => self.set_status(Status::error(message)),
        }
        true
    }

    /// Cancels an open in progress (the open document stays).
    pub fn cancel_file_job(&mut self) {
        if let Some(job) = self.ui.file_job.take_if(|j| j.opening) {
            job.cancel();
            self.set_status(Status::message(format!("Cancelled opening {}", job.path.display())));
        }
    }
}

/// The progress window of a running open or save: phase, amount, time, and Cancel for opens.
pub fn progress_window(ctx: &egui::Context, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
    let Some(job) = &cx.ui.file_job else { return };
    ctx.request_repaint_after(std::time::Duration::from_millis(50));
    let title = if job.opening { "Opening" } else { "Saving" };
    egui::Window::new(title).collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO).show(ctx, |ui| {
        ui.label(job.path.display().to_string());
        let (phase, fraction) = job.progress.read();
        let bar = match fraction {
            Some(f) => egui::ProgressBar::new(f).show_percentage(),
            None => egui::ProgressBar::new(0.0).animate(true),
        };
        ui.add(bar.text(format!("{phase}… {:.1} s", job.started.elapsed().as_secs_f64())));
        if job.opening {
            ui.label("The open document stays as it is until the file has loaded.");
            if ui.button("Cancel").on_hover_text("Stop reading; keep the open document").clicked() {
                out.push(AppCommand::CancelFileJob);
            }
        } else {
            ui.label("You can keep working: what you change now stays unsaved.");
        }
    });
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
        let start = Instant::now();
        while state.file_busy() {
            assert!(start.elapsed().as_secs() < 60, "the job finishes");
            std::thread::sleep(std::time::Duration::from_millis(5));
            state.poll_file_job();
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
}
