//! One type for work off the UI thread: [`Job`], used by every worker of the editor (a change
//! of many keys, open and save, autosave and reading recovery copies, import, export,
//! Simplify, Convert, the path view's arc-length tables).
//!
//! The idea is egui's own (the `poll-promise` crate): the UI owns a handle and asks it once a
//! frame whether the result is there; the worker asks for a frame when it finishes. Ours adds
//! what the editor needs: a label, [`Progress`] the worker reports and the UI draws, a cancel
//! flag the worker honours ([`Worker::cancelled`]), the time taken, and the [`Basis`] the
//! result was made for, which the dispatcher holds against the document before applying it
//! (`DocState::holds`, one rule for every result).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use eframe::egui;

use super::basis::Basis;
/// How far a job is: `done` of `total` in its current phase, shared by the worker (which
/// writes it) and the UI (which draws it).
#[derive(Default)]
pub struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
    phase: Mutex<&'static str>,
}

impl Progress {
    /// Enters `phase`, `done` of `total` (a `total` of 0: how far cannot be told).
    pub fn set(&self, phase: &'static str, done: usize, total: usize) {
        if let Ok(mut p) = self.phase.lock() {
            *p = phase;
        }
        self.done.store(done, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
    }

    /// `done` of the phase's total.
    pub fn advance(&self, done: usize) {
        self.done.store(done, Ordering::Relaxed);
    }

    /// One more done (workers on several cores count together).
    pub fn step(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    /// `done` of `total` in the phase as it is.
    pub fn advance_of(&self, done: usize, total: usize) {
        self.done.store(done, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
    }

    /// `done` and `total` as the worker last reported.
    pub fn counts(&self) -> (usize, usize) {
        (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed))
    }

    /// The phase's name, and the fraction done (`None` while it cannot be told).
    pub fn read(&self) -> (&'static str, Option<f32>) {
        let phase = self.phase.lock().map_or("Working", |p| *p);
        let (done, total) = (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed));
        (phase, (total > 0).then(|| done as f32 / total as f32))
    }
}

/// What the work sees of its job: where to report progress, and whether it was cancelled.
#[derive(Clone)]
pub struct Worker {
    progress: Arc<Progress>,
    cancel: Arc<AtomicBool>,
    repaint: Option<egui::Context>,
}

impl Worker {
    /// A worker of no job: for work done at once on the UI thread (never cancelled).
    #[must_use]
    pub fn unattached() -> Self {
        Self { progress: Arc::default(), cancel: Arc::default(), repaint: None }
    }

    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// Whether the UI asked the job to stop: the work should return `None` soon.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Asks the UI for a frame (progress worth drawing).
    pub fn repaint(&self) {
        if let Some(ctx) = &self.repaint {
            ctx.request_repaint();
        }
    }
}

/// Work running on a worker thread, and its result once it is made.
pub struct Job<T> {
    label: String,
    made_for: Option<Basis>,
    worker: Worker,
    started: Instant,
    result: mpsc::Receiver<Option<T>>,
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on a new thread. It returns its result, or `None` when cancelled; the
    /// worker then asks `repaint` (if any) for a frame, in which the UI takes the result.
    pub fn spawn(label: impl Into<String>, repaint: Option<&egui::Context>, work: impl FnOnce(&Worker) -> Option<T> + Send + 'static) -> Self {
        let worker = Worker { progress: Arc::default(), cancel: Arc::default(), repaint: repaint.cloned() };
        let (tx, rx) = mpsc::channel();
        let w = worker.clone();
        std::thread::spawn(move || {
            let made = work(&w);
            if tx.send(made).is_ok() {
                w.repaint();
            }
        });
        Self { label: label.into(), made_for: None, worker, started: Instant::now(), result: rx }
    }
}

impl<T> Job<T> {
    /// The job's result is made for `basis` (the document as it was when it started).
    #[must_use]
    pub fn made_for(mut self, basis: Basis) -> Self {
        self.made_for = Some(basis);
        self
    }

    /// The basis the result is made for, if it depends on the document.
    pub fn basis(&self) -> Option<Basis> {
        self.made_for
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    /// The phase and fraction done, as the worker last reported.
    pub fn progress(&self) -> (&'static str, Option<f32>) {
        self.worker.progress.read()
    }

    /// `done` of `total`, as the worker last reported.
    pub fn counts(&self) -> (usize, usize) {
        self.worker.progress.counts()
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Asks the worker to stop; its result, if it still makes one, is dropped.
    pub fn cancel(&self) {
        self.worker.cancel.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.worker.cancelled()
    }

    /// The result once the worker has finished: `Some(made)`, where `made` is `None` for a job
    /// that was cancelled or whose worker ended without a result (a panic); `None` while it
    /// runs. The result is handed over once: asked again, the job says it ended without one.
    pub fn poll(&mut self) -> Option<Option<T>> {
        let made = match self.result.try_recv() {
            Ok(made) => made,
            Err(mpsc::TryRecvError::Empty) => return None,
            Err(mpsc::TryRecvError::Disconnected) => None,
        };
        Some(made.filter(|_| !self.is_cancelled()))
    }

    /// Takes the job out of `slot` once its worker has finished ([`Self::poll`]): the job (its
    /// label, basis and time) with the result. `None` while it runs, or when `slot` is empty.
    pub fn finished(slot: &mut Option<Self>) -> Option<(Self, Option<T>)> {
        let made = slot.as_mut()?.poll()?;
        slot.take().map(|job| (job, made))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait<T>(slot: &mut Option<Job<T>>) -> (Job<T>, Option<T>) {
        for _ in 0..500 {
            if let Some(done) = Job::finished(slot) {
                return done;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        panic!("the job did not finish");
    }

    /// A job's result arrives once, with its label and basis; the slot is empty afterwards.
    #[test]
    fn a_result_is_taken_once_with_its_job() {
        let basis = Basis { document: 7, revision: 3, selection: 9 };
        let mut slot = Some(
            Job::spawn("sum", None, |w| {
                w.progress().set("Adding", 2, 4);
                Some(2 + 2)
            })
            .made_for(basis),
        );
        let (job, made) = wait(&mut slot);
        assert_eq!((job.label(), job.basis(), made), ("sum", Some(basis), Some(4)));
        assert_eq!(job.progress(), ("Adding", Some(0.5)));
        assert!(slot.is_none() && Job::finished(&mut slot).is_none());
    }

    /// Cancel reaches the worker, and a result it makes anyway is dropped.
    #[test]
    fn a_cancelled_job_gives_no_result() {
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let mut slot = Some(Job::spawn("wait", None, move |w| {
            go_rx.recv().unwrap();
            Some(w.cancelled())
        }));
        slot.as_ref().unwrap().cancel();
        go_tx.send(()).unwrap();
        let (_, made) = wait(&mut slot);
        assert_eq!(made, None);
    }

    /// A worker that panics ends its job without a result instead of leaving it running.
    #[test]
    fn a_worker_that_panics_ends_its_job() {
        let mut slot: Option<Job<u8>> = Some(Job::spawn("panics", None, |_| panic!("on purpose")));
        let (_, made) = wait(&mut slot);
        assert_eq!(made, None);
    }
}
