//! Everything the editor holds apart from its panels: [`AppState`] = the document side
//! ([`DocState`], `document/`), the persisted view settings ([`ViewSettings`]) and the
//! runtime UI state ([`UiState`]: status line, playhead and clock, which windows are open, the
//! jobs running off the UI thread and the commands waiting for one).
//!
//! Panels read it through a `PanelContext` and change it only through commands, which the
//! dispatcher (`dispatch.rs`) runs once per frame.

use std::path::PathBuf;
use std::sync::Arc;

use super::basis::{Basis, Needs};
use super::document::blend::BlendSession;
use super::document::targets::Ghost;
use super::document::DocState;
use super::file_job::FileJob;
use super::files::AfterDiscard;
use super::key_queue::KeyQueue;
use super::message::Status;
use super::playback::Transport;
use super::settings::ViewSettings;
use super::tool::Previews;
use super::windows::{PanelRequest, Windows};
use crate::edit::intent;
use crate::Project;

/// The runtime UI state the app keeps between frames (panels keep their own).
pub struct UiState {
    pub status: Status,
    pub playhead: f64,
    pub transport: Transport,
    pub show_open_path: bool,
    /// The typed-path window for Save as, where no native dialog can open.
    pub show_save_path: bool,
    /// Set when unsaved changes need a decision before `AfterDiscard` runs.
    pub confirm_discard: Option<AfterDiscard>,
    /// The user confirmed quitting; the next close request is let through.
    pub quit_confirmed: bool,
    /// An action cleared to run (no unsaved changes, or the user decided).
    pub pending_after: Option<AfterDiscard>,
    /// The open gesture was ended by an edit of its own (Delete during a drag): the rest of
    /// the gesture's edits are dropped until the next gesture begins.
    pub gesture_interrupted: bool,
    /// Save found the file changed on disk: ask before overwriting it.
    pub confirm_overwrite: Option<PathBuf>,
    /// The open tools' previews (Simplify's reduced curves, Smooth's and Scale time's new
    /// curves…), drawn as each tool says (`tool::Drawn`) while its window is open.
    pub previews: Previews,
    /// The original curves of the last Smooth, Simplify or Scale time applied, drawn faint
    /// until View > Clear ghost (or another document opens).
    pub ghost: Option<Arc<Ghost>>,
    /// The open blend slider (Key > Blend to Neighbor, Breakdown, Blend to Ease): its window
    /// shows while this is `Some`.
    pub blend: Option<BlendSession>,
    /// A big file being opened or saved on a worker thread (`file_job.rs`).
    pub file_job: Option<FileJob>,
    /// A new document replaced the open one: the views frame it in the next frame.
    pub document_replaced: bool,
    /// A change of many keys being made on a worker, and the commands waiting for it.
    pub key_queue: KeyQueue,
    /// Which windows are open (the export, import, Convert, Simplify and handle-type windows).
    pub windows: Windows,
    /// What the dispatcher asks of the panels' own state (frame the graph, show a file in
    /// the Import window); the app hands them over after the frame's commands.
    pub requests: Vec<PanelRequest>,
    /// The last frames' CPU times and causes (View > Frame statistics).
    pub frame_stats: super::frame_stats::FrameStats,
    /// View > Preview runtime: the export as a runtime plays it, and the Export window's
    /// settings it is made with.
    pub runtime_preview: super::runtime_preview::RuntimePreview,
    /// What View > Problems found, marked on the graph's time axis.
    pub problems: Option<std::sync::Arc<super::body::FoundProblems>>,
    /// The joints picked in the pose view and their tracks (shown in the graph).
    pub joints: super::body::JointSelection,
}

/// Everything the editor holds apart from its panels.
pub struct AppState {
    pub doc: DocState,
    pub view: ViewSettings,
    pub ui: UiState,
}

impl UiState {
    /// The ghost the graph draws: the open blend slider's originals once it changed the keys
    /// (from its first change, not only after OK), else the last tool's.
    #[must_use]
    pub fn shown_ghost(&self) -> Option<&Arc<Ghost>> {
        self.blend.as_ref().filter(|b| b.started).and_then(|b| b.ghost.as_ref()).or(self.ghost.as_ref())
    }
}

impl AppState {
    pub fn new(project: Project, path: Option<PathBuf>) -> Self {
        let text = match &path {
            Some(p) => format!("Opened {}", p.display()),
            None => "Demo project (built in). Use File > Open… to load your own.".to_owned(),
        };
        let doc = DocState::new(project, path);
        let (t0, t1) = doc.project().time_range().unwrap_or((0.0, 1.0));
        let transport = Transport::new(t0, t1 - t0);
        let ui = UiState {
            status: Status::message(text),
            playhead: transport.playhead(),
            transport,
            show_open_path: false,
            show_save_path: false,
            confirm_discard: None,
            quit_confirmed: false,
            pending_after: None,
            gesture_interrupted: false,
            confirm_overwrite: None,
            previews: Previews::default(),
            ghost: None,
            blend: None,
            file_job: None,
            document_replaced: false,
            key_queue: KeyQueue::default(),
            windows: Windows::default(),
            requests: Vec::new(),
            frame_stats: super::frame_stats::FrameStats::default(),
            runtime_preview: super::runtime_preview::RuntimePreview::with_settings(doc.export_settings()),
            joints: super::body::JointSelection::default(),
            problems: None,
        };
        Self { doc, view: ViewSettings::default(), ui }
    }

    pub fn project(&self) -> &Project {
        self.doc.project()
    }

    pub fn title(&self) -> String {
        self.doc.title()
    }

    pub fn set_status(&mut self, status: Status) {
        self.ui.status = status;
    }

    /// Whether a result made for `made_for` may be applied now (the parts of its basis it
    /// `needs` hold: `DocState::holds`). The one place every result made off the UI thread,
    /// or kept by a window, is checked; a stale one is dropped, and the status bar says so.
    pub fn current(&mut self, made_for: &Basis, needs: Needs, label: &str) -> bool {
        if self.doc.holds(made_for, needs) {
            return true;
        }
        let what = if made_for.document == self.doc.basis().document { "the document or the selection changed" } else { "another document is open" };
        self.set_status(Status::error(format!("{label}: not applied, {what} since it was made")));
        false
    }

    /// Closes an open gesture before an edit of its own; the rest of that gesture is dropped.
    pub fn end_gesture(&mut self) {
        if self.doc.document.in_gesture() {
            self.doc.document.end_gesture();
            self.ui.gesture_interrupted = true;
        }
    }

    /// Moves the playhead (and the clock) to `t`.
    pub fn scrub(&mut self, t: f64) {
        self.ui.playhead = self.ui.transport.scrub(t);
    }

    /// Keeps the transport's clip on the project's keyed range.
    pub fn follow_range(&mut self) {
        let (t0, t1) = self.project().time_range().unwrap_or((0.0, 1.0));
        self.ui.transport.set_range(t0, t1 - t0);
    }

    /// Replaces the document with `project` from `path` (history and selection start anew).
    pub fn replace_document(&mut self, project: Project, path: Option<PathBuf>) {
        self.replace_doc_state(DocState::new(project, path));
    }

    /// Puts `doc` in place of the open document (a file opened on a worker thread). What was
    /// made for the old one is now stale: its basis names another document.
    pub fn replace_doc_state(&mut self, doc: DocState) {
        self.doc = doc;
        self.ui.document_replaced = true;
        self.ui.ghost = None;
        self.ui.blend = None;
        self.ui.runtime_preview.forget_document();
        self.ui.runtime_preview.settings = self.doc.export_settings();
        self.ui.joints = super::body::JointSelection::default();
        let (t0, t1) = self.project().time_range().unwrap_or((0.0, 1.0));
        self.ui.transport = Transport::new(t0, t1 - t0);
        self.ui.playhead = t0;
    }

    /// Joints picked in the pose view: their tracks become the shown ones (the graph frames
    /// them), the primary one active; the status says how many. Returns whether anything
    /// changed.
    pub fn select_joints(&mut self, joints: super::body::JointSelection) -> bool {
        if let Some(t) = joints.primary.filter(|&t| t < self.project().tracks.len()) {
            self.doc.active_track = Some(t);
        }
        if self.ui.joints == joints {
            return false;
        }
        let text = match joints.joints.len() {
            0 => "No joint selected".to_owned(),
            1 => "1 joint selected: its tracks are shown in the graph".to_owned(),
            n => format!("{n} joints selected: their tracks are shown in the graph"),
        };
        self.ui.joints = joints;
        self.ui.requests.push(super::windows::PanelRequest::FrameGraph);
        self.set_status(Status::message(text));
        true
    }

    pub fn new_document(&mut self) {
        self.replace_document(intent::new_project(), None);
        self.set_status(Status::message("New project"));
    }

    /// Runs `after` now, or first asks what to do with unsaved changes.
    pub fn confirm_or_run(&mut self, after: AfterDiscard) {
        if self.doc.document.is_dirty() {
            self.ui.confirm_discard = Some(after);
        } else {
            self.ui.pending_after = Some(after);
        }
    }
}
