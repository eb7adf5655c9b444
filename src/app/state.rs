//! Editor state: the open document, its compiled curves, view settings and the status line.
//! Panels read it and queue [`Action`]s; [`AppState::apply_pending`] runs them once per frame.

use std::path::{Path, PathBuf};

use eframe::egui;
use tangent::io::load_project;
use tangent::{Project, TrackCurve, TrackError};

/// Something the user asked for that changes more than one panel's view.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Open(PathBuf),
    FrameAll,
    Quit,
}

/// The status bar's message.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    pub text: String,
    pub is_error: bool,
}

pub struct AppState {
    pub project: Project,
    pub path: Option<PathBuf>,
    /// One compiled curve (or the reason it cannot be evaluated) per track, rebuilt whenever
    /// the project changes.
    pub curves: Vec<Result<TrackCurve, TrackError>>,
    pub status: Status,
    /// Set when the graph should fit every visible curve on its next frame.
    pub frame_all: bool,
    /// The typed path in File > Open path…, used when no native dialog can open.
    pub typed_path: String,
    pub show_open_path: bool,
    pending: Vec<Action>,
}

impl AppState {
    pub fn new(project: Project, path: Option<PathBuf>) -> Self {
        let mut s = Self {
            curves: Vec::new(),
            project,
            path,
            status: Status::default(),
            frame_all: true,
            typed_path: String::new(),
            show_open_path: false,
            pending: Vec::new(),
        };
        s.rebuild_curves();
        s.status.text = match &s.path {
            Some(p) => format!("Opened {}", p.display()),
            None => "Demo project (built in). Use File > Open… to load your own.".to_owned(),
        };
        s
    }

    pub fn rebuild_curves(&mut self) {
        self.curves = self.project.tracks.iter().map(TrackCurve::new).collect();
    }

    /// "name — Tangent", from the file name or "demo".
    pub fn title(&self) -> String {
        let name = self
            .path
            .as_deref()
            .and_then(Path::file_name)
            .map_or_else(|| "demo".to_owned(), |n| n.to_string_lossy().into_owned());
        format!("{name} — Tangent")
    }

    pub fn request(&mut self, action: Action) {
        self.pending.push(action);
    }

    pub fn set_error(&mut self, text: impl Into<String>) {
        self.status = Status {
            text: text.into(),
            is_error: true,
        };
    }

    pub fn set_message(&mut self, text: impl Into<String>) {
        self.status = Status {
            text: text.into(),
            is_error: false,
        };
    }

    /// Loads `path`; on failure the open document stays as it was and the error is shown.
    pub fn open(&mut self, path: &Path) {
        match load_project(path) {
            Ok(project) => {
                self.project = project;
                self.path = Some(path.to_owned());
                self.rebuild_curves();
                self.frame_all = true;
                self.set_message(format!("Opened {}", path.display()));
            }
            Err(e) => self.set_error(format!("Could not open: {e}")),
        }
    }

    /// Runs the actions the panels queued this frame.
    pub fn apply_pending(&mut self, ctx: &egui::Context) {
        for action in std::mem::take(&mut self.pending) {
            match action {
                Action::Open(path) => {
                    self.open(&path);
                    ctx.send_viewport_cmd(egui::ViewportCommand::Title(self.title()));
                }
                Action::FrameAll => self.frame_all = true,
                Action::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            }
        }
    }
}
