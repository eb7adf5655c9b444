//! A window's preview made on a worker (Simplify, Smooth, Scale time, the blend slider): the
//! job in flight with what it was asked, and the last result made, which the window shows (and
//! applies) while it is what is asked. A new request cancels the one in flight; closing drops
//! both. A window that must see results while its input keeps changing (a slider being
//! dragged) asks again only once the job in flight is done ([`Previewed::is_busy`]), so a
//! fast drag is not a string of cancelled jobs.

use std::sync::Arc;

use super::jobs::Job;

pub struct Previewed<A, T> {
    /// The last result made.
    pub computed: Option<Arc<T>>,
    /// The job in flight, and what it was asked.
    running: Option<(A, Job<T>)>,
}

impl<A, T> Default for Previewed<A, T> {
    fn default() -> Self {
        Self { computed: None, running: None }
    }
}

impl<A: PartialEq, T> Previewed<A, T> {
    /// Whether a job for `asked` is already in flight.
    pub fn is_running(&self, asked: &A) -> bool {
        self.running.as_ref().is_some_and(|(of, _)| of == asked)
    }

    /// Whether a job is in flight, whatever it was asked.
    pub fn is_busy(&self) -> bool {
        self.running.is_some()
    }

    /// The job in flight's label and `done` of `total`, as its worker last reported.
    pub fn progress(&self) -> Option<(&str, (usize, usize))> {
        self.running.as_ref().map(|(_, job)| (job.label(), job.counts()))
    }

    /// `job`, made for `asked`, in flight in place of any other (which is cancelled).
    pub fn run(&mut self, asked: A, job: Job<T>) {
        if let Some((_, old)) = self.running.replace((asked, job)) {
            old.cancel();
        }
    }

    /// `made` (worked at once) as the last result, the job in flight cancelled.
    pub fn set(&mut self, made: T) {
        if let Some((_, old)) = self.running.take() {
            old.cancel();
        }
        self.computed = Some(Arc::new(made));
    }

    /// Takes a finished result, if any; whether one arrived.
    pub fn poll(&mut self) -> bool {
        let Some(made) = self.running.as_mut().and_then(|(_, job)| job.poll()) else { return false };
        self.running = None;
        let Some(made) = made else { return false };
        self.computed = Some(Arc::new(made));
        true
    }

    /// Drops the result and cancels the job in flight; whether there was a result.
    pub fn clear(&mut self) -> bool {
        if let Some((_, job)) = self.running.take() {
            job.cancel();
        }
        self.computed.take().is_some()
    }
}
