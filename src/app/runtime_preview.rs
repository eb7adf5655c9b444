//! View > Preview runtime ▸: the export the Export window's settings make, played as the
//! chosen runtime plays it (`export::preview`, `runtime/`), drawn as a ghost over the curves,
//! with each track's largest distance from its curve in the track list.
//!
//! The preview follows the document: whenever the keys, the export settings or the runtime
//! differ from what the shown preview was made for, one [`Job`] makes it again (one in flight
//! at a time, so a drag sees it follow rather than a string of cancelled jobs). Its result
//! comes back as `Finished::Runtime` and is put in place only if the document, its revision,
//! the settings and the runtime it was made for still hold (`RuntimePreview::install`).

use std::collections::BTreeMap;
use std::sync::Arc;

use eframe::egui;

use super::basis::{Basis, Needs};
use super::document::targets::Ghost;
use super::jobs::Job;
use super::message::Status;
use crate::bake::{Bound, Fps, RateError};
use crate::export::{preview, ExportError, ExportOptions, PreviewTrack};
use crate::runtime::Runtime;
use crate::Project;

/// The Export window's settings: what File > Export… writes and what the runtime preview
/// plays; kept in the project (`Project::export`, saved with it).
pub use crate::model::ExportSettings;

impl ExportSettings {
    /// The export's options.
    ///
    /// # Errors
    /// A frame rate or bound out of range.
    pub fn options(&self) -> Result<ExportOptions, RateError> {
        Ok(ExportOptions {
            adaptive: self.adaptive.then(|| Bound::new(self.bound)).transpose()?,
            adaptive_angle_deg: self.angle_deg,
            adaptive_linear: self.adaptive_linear,
            constant_speed: self.constant_speed,
            targets: self.targets.clone(),
            runtime: self.runtime,
            ..ExportOptions::new(Fps::new(self.fps)?)
        })
    }

    /// The bound the export keeps, when adaptive.
    #[must_use]
    pub fn bound(&self) -> Option<f64> {
        self.adaptive.then_some(self.bound)
    }
}

/// What a preview is made for: the document at a revision (any selection), the settings and
/// the runtime that plays it.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    pub basis: Basis,
    pub settings: ExportSettings,
    pub runtime: Runtime,
}

/// A preview made: the ghost and each exported track's largest distance from its curve.
pub struct Played {
    pub asked: Asked,
    pub ghost: Arc<Ghost>,
    /// By track index: the largest distance (radians for rotations).
    pub deviation: BTreeMap<usize, f64>,
    /// How far the body as the runtime plays the export is from the document's.
    pub body: super::body::BodyChange,
}

/// What `export::preview` gives: each exported track as the runtime plays it.
pub type PlayedTracks = Result<Vec<PreviewTrack>, ExportError>;

/// What a preview job made, handed to the dispatcher (`None`: cancelled, or the worker
/// stopped).
pub struct RuntimeMade {
    pub asked: Asked,
    pub made: Option<PlayedTracks>,
    /// The body as the runtime plays the export, measured on the worker.
    pub body: super::body::BodyChange,
}

/// The runtime preview's state (in `UiState`).
#[derive(Default)]
pub struct RuntimePreview {
    /// Who plays the preview (`None`: off).
    pub runtime: Option<Runtime>,
    /// The Export window's settings (it sends them when they change).
    pub settings: ExportSettings,
    running: Option<(Asked, Job<(PlayedTracks, super::body::BodyChange)>)>,
    /// The last preview put in place (drawn while the next is made).
    pub shown: Option<Played>,
    /// What the last failed preview was asked (not asked again until something changes) and
    /// why it failed.
    failed: Option<(Asked, String)>,
}

impl RuntimePreview {
    /// Off, with the Export window's `settings` (the document's).
    #[must_use]
    pub fn with_settings(settings: ExportSettings) -> Self {
        Self { settings, ..Self::default() }
    }

    /// What a preview of the document at `basis` would be made for now.
    fn asked(&self, basis: Basis) -> Option<Asked> {
        Some(Asked { basis, settings: self.settings.clone(), runtime: self.runtime? })
    }

    /// Whether `asked` is what a preview of the document at `basis` would be made for now:
    /// the same document and revision (the selection does not matter, `Needs::Revision`),
    /// settings and runtime. Nothing is copied (the track list asks once per row per frame).
    fn holds(&self, asked: &Asked, basis: Basis) -> bool {
        self.runtime == Some(asked.runtime) && asked.basis.holds_at(&basis, Needs::Revision) && asked.settings == self.settings
    }

    /// Whether the shown preview is what would be asked now (not being made again).
    #[must_use]
    pub fn is_current(&self, basis: Basis) -> bool {
        self.shown.as_ref().is_some_and(|p| self.holds(&p.asked, basis))
    }

    /// Whether a preview is being made.
    #[must_use]
    pub fn is_busy(&self) -> bool {
        self.running.is_some()
    }

    /// The job in flight's label and how far it is (`None` when none is).
    #[must_use]
    pub fn progress(&self) -> Option<(&str, Option<f32>)> {
        let (_, job) = self.running.as_ref()?;
        Some((job.label(), job.progress().1))
    }

    /// Why the last preview failed, if it is what would be asked now.
    #[must_use]
    pub fn failure(&self, basis: Basis) -> Option<&str> {
        self.failed.as_ref().filter(|(a, _)| self.holds(a, basis)).map(|(_, why)| why.as_str())
    }

    /// The ghost to draw, while the preview is on.
    #[must_use]
    pub fn ghost(&self) -> Option<&Arc<Ghost>> {
        self.runtime?;
        self.shown.as_ref().map(|p| &p.ghost)
    }

    /// Track `i`'s largest distance in the shown preview, the bound it was made with, and
    /// whether it was made for the document as it is (`basis`).
    #[must_use]
    pub fn deviation(&self, i: usize, basis: Basis) -> Option<(f64, Option<f64>, bool)> {
        self.runtime?;
        let shown = self.shown.as_ref()?;
        let d = *shown.deviation.get(&i)?;
        Some((d, shown.asked.settings.bound(), self.is_current(basis)))
    }

    /// Turns the preview on for `runtime`, or off (`None`: the job in flight cancelled, the
    /// ghost gone).
    pub fn set_runtime(&mut self, runtime: Option<Runtime>) {
        self.runtime = runtime;
        if runtime.is_none() {
            if let Some((_, job)) = self.running.take() {
                job.cancel();
            }
            self.shown = None;
            self.failed = None;
        }
    }

    /// Another document: nothing of the last one's preview is kept.
    pub fn forget_document(&mut self) {
        if let Some((_, job)) = self.running.take() {
            job.cancel();
        }
        self.shown = None;
        self.failed = None;
    }

    /// A finished job's result, if one is there.
    pub fn finished(&mut self) -> Option<RuntimeMade> {
        let made = self.running.as_mut()?.1.poll()?;
        let (asked, _) = self.running.take()?;
        let (made, body) = match made {
            Some((made, body)) => (Some(made), body),
            None => (None, super::body::BodyChange::default()),
        };
        Some(RuntimeMade { asked, made, body })
    }

    /// Puts `made` in place if what it was made for still holds (the document at `basis`, the
    /// settings and runtime unchanged); `project` names the tracks. Returns a status for a
    /// failure (once per asked preview); a stale result is dropped quietly, as the next one
    /// is already due.
    pub fn install(&mut self, made: RuntimeMade, basis: Basis) -> Option<Status> {
        let RuntimeMade { asked, made, body } = made;
        if !self.holds(&asked, basis) {
            return None;
        }
        match made? {
            Ok(tracks) => {
                let label = format!("{} playback", asked.runtime);
                let deviation = tracks.iter().map(|p| (p.track, p.deviation)).collect();
                let ghost = Arc::new(Ghost { label, tracks: tracks.into_iter().map(|p| (p.track, p.played)).collect() });
                self.shown = Some(Played { asked, ghost, deviation, body });
                self.failed = None;
                None
            }
            Err(ExportError::Cancelled) => None,
            Err(e) => {
                let why = e.to_string();
                self.failed = Some((asked, why.clone()));
                Some(Status::error(format!("Preview runtime: {why}")))
            }
        }
    }

    /// Starts making the preview again if the document (at `basis`), the settings or the
    /// runtime changed since the shown one and no job is in flight.
    pub fn keep_current(&mut self, basis: Basis, project: impl FnOnce() -> Arc<Project>, repaint: &egui::Context) {
        let shown = self.is_current(basis);
        let failed = self.failed.as_ref().is_some_and(|(a, _)| self.holds(a, basis));
        if self.runtime.is_none() || self.running.is_some() || shown || failed {
            return;
        }
        let Some(asked) = self.asked(basis) else { return };
        let options = match self.settings.options() {
            Ok(o) => o,
            Err(e) => {
                self.failed = Some((asked, e.to_string()));
                return;
            }
        };
        let (project, format, runtime) = (project(), self.settings.format, asked.runtime);
        let job = Job::spawn(format!("Preview: {runtime} playback"), Some(repaint), move |w| {
            let project = crate::io::released(project);
            w.progress().set("Playing the export", 0, project.tracks.len());
            let played = preview(&project, format, &options, runtime, &|done, total| {
                w.progress().advance_of(done, total);
                !w.cancelled()
            });
            // The body as the runtime plays it: each played track in place of the document's.
            let body = match &played {
                Ok(tracks) if project.skeleton.is_some() => {
                    let curves: Vec<(usize, &crate::TrackCurve)> = tracks.iter().map(|p| (p.track, &p.played)).collect();
                    super::body::BodyChange(crate::body::replaced_difference(&project, &curves).map_err(|e| e.to_string()).transpose())
                }
                _ => super::body::BodyChange::default(),
            };
            Some((played, body))
        });
        self.running = Some((asked.clone(), job.made_for(asked.basis)));
    }
}
