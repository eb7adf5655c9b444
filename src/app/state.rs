//! Editor state: the open [`Document`], its compiled curves, the selection, view settings
//! and the status line. Panels read it and call its methods; every change to the project goes
//! through [`AppState::edit`], so it can be undone.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use eframe::egui;
use serde::{Deserialize, Serialize};
use tangent::io::{load_project, save_project};
use tangent::{Document, Edit, Key, Project, SegmentCursor, Track, TrackCurve, TrackError, TrackKind};

use super::commands::Command;

/// A key of a track.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KeyRef {
    pub track: usize,
    pub key: usize,
}

/// View settings that persist between runs (never the document or its history).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewSettings {
    pub normalize: bool,
    pub show_tangents: bool,
    pub show_speed: bool,
    pub snap: bool,
    /// `(track name, component)` pairs hidden in the graph.
    pub hidden_components: BTreeSet<(String, usize)>,
    pub recent_files: Vec<PathBuf>,
    /// Which view fills the centre.
    pub central: CentralView,
    /// Path view: the plane a Vec3 path is projected on.
    pub plane: super::path_view::Plane,
    /// Playback follows the constant-speed (arc-length) motion.
    pub constant_speed: bool,
    /// Error bound of the path view's arc-length table.
    pub arclen_tolerance: f64,
    /// Order of the Euler angles the inspector shows for rotation keys.
    pub euler_order: tangent::quat::EulerOrder,
}

/// The view in the centre of the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CentralView {
    #[default]
    Graph,
    Path,
    Rotation,
}

impl Default for ViewSettings {
    fn default() -> Self {
        Self {
            normalize: false,
            show_tangents: true,
            show_speed: true,
            snap: false,
            hidden_components: BTreeSet::new(),
            recent_files: Vec::new(),
            central: CentralView::Graph,
            plane: super::path_view::Plane::Xy,
            constant_speed: false,
            arclen_tolerance: 1e-4,
            euler_order: tangent::quat::EulerOrder::Xyz,
        }
    }
}

/// How many recent files File > Open recent lists.
pub const RECENT_FILES: usize = 8;

/// The status bar's message.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    pub text: String,
    pub is_error: bool,
}

/// Keys copied with Copy: times relative to the first.
#[derive(Clone, Debug, PartialEq)]
pub struct Clipboard {
    pub kind: TrackKind,
    pub keys: Vec<Key>,
}

/// What to do once the user has decided about unsaved changes.
#[derive(Clone, Debug, PartialEq)]
pub enum AfterDiscard {
    New,
    Open(Option<PathBuf>),
    Quit,
}

pub struct AppState {
    pub doc: Document,
    pub path: Option<PathBuf>,
    curves: Vec<Result<TrackCurve, TrackError>>,
    curves_revision: u64,
    pub selection: BTreeSet<KeyRef>,
    /// The track Insert, Paste and the speed graph act on.
    pub active_track: Option<usize>,
    pub view: ViewSettings,
    pub status: Status,
    pub clipboard: Option<Clipboard>,
    pub playhead: f64,
    pub frame_all: bool,
    pub frame_selected: bool,
    pub typed_path: String,
    pub show_open_path: bool,
    /// Set when unsaved changes need a decision before `AfterDiscard` runs.
    pub confirm_discard: Option<AfterDiscard>,
    /// Track being renamed, and the name typed so far.
    pub renaming: Option<(usize, String)>,
    /// The user confirmed quitting; the next close request is let through.
    pub quit_confirmed: bool,
    /// The typed-path window for Save as, where no native dialog can open.
    pub show_save_path: bool,
    pub graph: super::graph::GraphState,
    pub transport: super::transport::Transport,
    pub path_view: super::path_view::PathState,
    pub export: super::export_window::ExportWindow,
    /// An action cleared to run (no unsaved changes, or the user decided).
    pub pending_after: Option<AfterDiscard>,
    pending: Vec<Command>,
}

impl AppState {
    pub fn new(project: Project, path: Option<PathBuf>) -> Self {
        let mut s = Self {
            doc: Document::new(project),
            path,
            curves: Vec::new(),
            curves_revision: u64::MAX,
            selection: BTreeSet::new(),
            active_track: None,
            view: ViewSettings::default(),
            status: Status::default(),
            clipboard: None,
            playhead: 0.0,
            frame_all: true,
            frame_selected: false,
            typed_path: String::new(),
            show_open_path: false,
            confirm_discard: None,
            renaming: None,
            quit_confirmed: false,
            show_save_path: false,
            graph: super::graph::GraphState::default(),
            transport: super::transport::Transport::new(0.0, 1.0),
            path_view: super::path_view::PathState::default(),
            export: super::export_window::ExportWindow::default(),
            pending_after: None,
            pending: Vec::new(),
        };
        s.refresh();
        s.playhead = s.transport.playhead();
        s.active_track = s.project().tracks.iter().position(|t| t.visible);
        s.status.text = match &s.path {
            Some(p) => format!("Opened {}", p.display()),
            None => "Demo project (built in). Use File > Open… to load your own.".to_owned(),
        };
        s
    }

    pub fn project(&self) -> &Project {
        self.doc.project()
    }

    /// Compiled curve of track `i` (or why it cannot be evaluated).
    pub fn curve(&self, i: usize) -> Option<&Result<TrackCurve, TrackError>> {
        self.curves.get(i)
    }

    /// Recompiles curves after the document changed.
    pub fn refresh(&mut self) {
        if self.curves_revision != self.doc.revision() {
            self.curves = self.doc.project().tracks.iter().map(TrackCurve::new).collect();
            self.curves_revision = self.doc.revision();
            let n = self.project().tracks.len();
            self.selection.retain(|k| k.track < n && k.key < self.doc.project().tracks[k.track].keys.len());
            if self.active_track.is_some_and(|a| a >= n) {
                self.active_track = n.checked_sub(1);
            }
            let (t0, t1) = self.doc.project().time_range().unwrap_or((0.0, 1.0));
            self.transport.set_range(t0, t1 - t0);
        }
    }

    /// Moves the playhead (and the clock) to `t`.
    pub fn scrub(&mut self, t: f64) {
        self.playhead = self.transport.scrub(t);
    }

    /// "name* — Tangent": the file name, and a star while there are unsaved changes.
    pub fn title(&self) -> String {
        let name = self.path.as_deref().and_then(Path::file_name).map_or_else(|| "untitled".to_owned(), |n| n.to_string_lossy().into_owned());
        let star = if self.doc.is_dirty() { "*" } else { "" };
        format!("{name}{star} - Tangent")
    }

    pub fn request(&mut self, command: Command) {
        self.pending.push(command);
    }

    pub fn take_pending(&mut self) -> Vec<Command> {
        std::mem::take(&mut self.pending)
    }

    pub fn set_error(&mut self, text: impl Into<String>) {
        self.status = Status { text: text.into(), is_error: true };
    }

    pub fn set_message(&mut self, text: impl Into<String>) {
        self.status = Status { text: text.into(), is_error: false };
    }

    /// Applies an edit. While a pointer button is held the edit joins the current gesture,
    /// so a whole drag or slider movement is one undo step; otherwise it is its own step.
    /// A refused edit changes nothing and shows why.
    pub fn edit(&mut self, ctx: &egui::Context, label: &str, edit: Edit) -> bool {
        let held = ctx.input(|i| i.pointer.any_down());
        if held && !self.doc.in_gesture() {
            self.doc.begin_gesture(label);
        }
        let result = self.doc.apply(label, edit);
        self.refresh();
        match result {
            Ok(()) => true,
            Err(e) => {
                self.set_error(format!("{label}: {e}"));
                false
            }
        }
    }

    /// Ends the gesture once every button is up. Called at the end of each frame.
    pub fn end_frame(&mut self, ctx: &egui::Context) {
        if self.doc.in_gesture() && !ctx.input(|i| i.pointer.any_down()) {
            self.doc.end_gesture();
        }
    }

    /// Keys of track `track` with `change` applied to each selected key, re-sorted by time,
    /// and the selection moved along with its keys.
    pub fn change_selected_keys(&mut self, ctx: &egui::Context, label: &str, mut change: impl FnMut(&mut Key)) {
        let tracks: BTreeSet<usize> = self.selection.iter().map(|k| k.track).collect();
        for track in tracks {
            let keys = self.project().tracks[track].keys.clone();
            let selected: BTreeSet<usize> = self.selection.iter().filter(|k| k.track == track).map(|k| k.key).collect();
            let mut tagged: Vec<(usize, Key)> = keys.into_iter().enumerate().collect();
            for (i, k) in &mut tagged {
                if selected.contains(i) {
                    change(k);
                }
            }
            self.apply_tagged(ctx, label, track, tagged, &selected);
        }
    }

    /// Sorts `(original index, key)` pairs by time (stable), applies them as the track's
    /// keys, and remaps the selected original indices to their new places.
    pub fn apply_tagged(&mut self, ctx: &egui::Context, label: &str, track: usize, mut tagged: Vec<(usize, Key)>, selected: &BTreeSet<usize>) -> bool {
        tagged.sort_by(|a, b| a.1.time.total_cmp(&b.1.time));
        let new_selection: Vec<KeyRef> =
            tagged.iter().enumerate().filter(|(_, (orig, _))| selected.contains(orig)).map(|(key, _)| KeyRef { track, key }).collect();
        let keys = tagged.into_iter().map(|(_, k)| k).collect();
        if self.edit(ctx, label, Edit::SetKeys { track, keys }) {
            self.selection.retain(|k| k.track != track);
            self.selection.extend(new_selection);
            true
        } else {
            false
        }
    }

    /// Value of track `track` at `t`.
    pub fn sample(&self, track: usize, t: f64) -> Option<Vec<f64>> {
        let curve = self.curve(track)?.as_ref().ok()?;
        let mut v = vec![0.0; curve.dim()];
        curve.sample(&mut SegmentCursor::new(), t, &mut v);
        Some(v)
    }

    /// Inserts a key on `track` at time `t` with the curve's value there.
    pub fn insert_key(&mut self, ctx: &egui::Context, track: usize, t: f64) {
        let Some(value) = self.sample(track, t) else {
            return self.set_error("Insert key: the track has no curve to insert on");
        };
        let mut keys: Vec<(usize, Key)> = self.project().tracks[track].keys.iter().cloned().enumerate().collect();
        if keys.iter().any(|(_, k)| k.time == t) {
            return self.set_message(format!("A key already sits at {t:.3} s"));
        }
        let new = keys.len();
        keys.push((new, Key::new(t, value)));
        let selected = BTreeSet::from([new]);
        self.selection.clear();
        if self.apply_tagged(ctx, "Insert key", track, keys, &selected) {
            self.set_message(format!("Inserted a key on \"{}\" at {t:.3} s", self.project().tracks[track].name));
        }
    }

    pub fn delete_selected(&mut self, ctx: &egui::Context) {
        let tracks: BTreeSet<usize> = self.selection.iter().map(|k| k.track).collect();
        let mut deleted = 0;
        for track in tracks.into_iter().rev() {
            let keys = &self.project().tracks[track].keys;
            let kept: Vec<Key> =
                keys.iter().enumerate().filter(|(i, _)| !self.selection.contains(&KeyRef { track, key: *i })).map(|(_, k)| k.clone()).collect();
            if kept.is_empty() {
                self.set_error(format!("Delete keys: \"{}\" must keep at least one key", self.project().tracks[track].name));
                continue;
            }
            let n = keys.len() - kept.len();
            if self.edit(ctx, "Delete keys", Edit::SetKeys { track, keys: kept }) {
                deleted += n;
                self.selection.retain(|k| k.track != track);
            }
        }
        if deleted > 0 {
            self.set_message(format!("Deleted {deleted} keys"));
        }
    }

    pub fn copy(&mut self) {
        let Some(track) = self.selection.iter().next().map(|k| k.track) else {
            return self.set_message("Copy: select keys first");
        };
        let t = &self.doc.project().tracks[track];
        let mut keys: Vec<Key> = self.selection.iter().filter(|k| k.track == track).map(|k| t.keys[k.key].clone()).collect();
        let t0 = keys[0].time;
        for k in &mut keys {
            k.time -= t0;
        }
        let (n, kind, name) = (keys.len(), t.kind, t.name.clone());
        self.clipboard = Some(Clipboard { kind, keys });
        self.set_message(format!("Copied {n} keys from \"{name}\""));
    }

    /// Pastes the clipboard into the active track, the first key at the playhead; pasted
    /// keys replace keys at the same times.
    pub fn paste(&mut self, ctx: &egui::Context) {
        let Some(clip) = self.clipboard.clone() else {
            return self.set_message("Paste: nothing copied");
        };
        let Some(track) = self.active_track else {
            return self.set_message("Paste: choose a track first (click one in the list)");
        };
        let target = self.project().tracks[track].clone();
        if target.kind.dim() != clip.kind.dim() {
            return self.set_error(format!("Paste: copied {:?} keys do not fit the {:?} track \"{}\"", clip.kind, target.kind, target.name));
        }
        let pasted: Vec<Key> = clip.keys.iter().map(|k| Key { time: k.time + self.playhead, ..k.clone() }).collect();
        let mut tagged: Vec<(usize, Key)> = target.keys.iter().filter(|k| !pasted.iter().any(|p| p.time == k.time)).cloned().map(|k| (usize::MAX, k)).collect();
        let base = target.keys.len();
        let selected: BTreeSet<usize> = (base..base + pasted.len()).collect();
        tagged.extend(pasted.into_iter().enumerate().map(|(i, k)| (base + i, k)));
        self.selection.clear();
        let name = target.name.clone();
        if self.apply_tagged(ctx, "Paste keys", track, tagged, &selected) {
            self.set_message(format!("Pasted {} keys into \"{name}\" at {:.3} s", selected.len(), self.playhead));
        }
    }

    pub fn select_all(&mut self) {
        self.selection = self
            .project()
            .tracks
            .iter()
            .enumerate()
            .filter(|(_, t)| t.visible)
            .flat_map(|(track, t)| (0..t.keys.len()).map(move |key| KeyRef { track, key }))
            .collect();
    }

    pub fn undo(&mut self) {
        match self.doc.undo() {
            Some(label) => self.set_message(format!("Undid {label}")),
            None => self.set_message("Nothing to undo"),
        }
        self.refresh();
    }

    pub fn redo(&mut self) {
        match self.doc.redo() {
            Some(label) => self.set_message(format!("Redid {label}")),
            None => self.set_message("Nothing to redo"),
        }
        self.refresh();
    }

    /// Replaces the document with `project` from `path` (history and selection start anew).
    pub fn replace_document(&mut self, project: Project, path: Option<PathBuf>) {
        self.doc = Document::new(project);
        self.path = path;
        self.selection.clear();
        self.curves_revision = u64::MAX;
        self.refresh();
        self.active_track = self.project().tracks.iter().position(|t| t.visible);
        self.frame_all = true;
        let (t0, t1) = self.project().time_range().unwrap_or((0.0, 1.0));
        self.transport = super::transport::Transport::new(t0, t1 - t0);
        self.playhead = t0;
    }

    /// Loads `path`; on failure the open document stays as it was and the error is shown.
    pub fn open(&mut self, path: &Path) {
        match load_project(path) {
            Ok(project) => {
                self.replace_document(project, Some(path.to_owned()));
                self.remember_recent(path);
                self.set_message(format!("Opened {}", path.display()));
            }
            Err(e) => self.set_error(format!("Could not open: {e}")),
        }
    }

    pub fn new_document(&mut self) {
        let mut track = Track::new("value", TrackKind::Scalar, tangent::Interpolation::Tcb);
        track.keys = vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![1.0])];
        let project = Project { tracks: vec![track], ..Project::default() };
        self.replace_document(project, None);
        self.set_message("New project");
    }

    /// Saves to `path` (atomically); returns whether it worked.
    pub fn save_to(&mut self, path: &Path) -> bool {
        match save_project(path, self.project()) {
            Ok(()) => {
                self.doc.mark_saved();
                self.path = Some(path.to_owned());
                self.remember_recent(path);
                self.set_message(format!("Saved {}", path.display()));
                true
            }
            Err(e) => {
                self.set_error(format!("Could not save: {e}"));
                false
            }
        }
    }

    /// Runs `after` now, or first asks what to do with unsaved changes.
    pub fn confirm_or_run(&mut self, after: AfterDiscard) {
        if self.doc.is_dirty() {
            self.confirm_discard = Some(after);
        } else {
            self.pending_after = Some(after);
        }
    }

    /// Does what was waiting for the unsaved-changes decision.
    pub fn run_after_discard(&mut self, ctx: &egui::Context, after: AfterDiscard) {
        match after {
            AfterDiscard::New => self.new_document(),
            AfterDiscard::Open(Some(path)) => self.open(&path),
            AfterDiscard::Open(None) => match rfd::FileDialog::new().add_filter("Tangent project", &["ron"]).pick_file() {
                Some(path) => self.open(&path),
                None => {
                    self.show_open_path = true;
                    self.set_message("No file chosen (type a path if no file dialog appeared)");
                }
            },
            AfterDiscard::Quit => {
                self.quit_confirmed = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Save: to the project's file, or ask where. Returns whether it was saved.
    pub fn save_interactive(&mut self) -> bool {
        match self.path.clone() {
            Some(path) => self.save_to(&path),
            None => self.save_as_interactive(),
        }
    }

    /// Save as: the system dialog, or the typed-path window where none can open.
    pub fn save_as_interactive(&mut self) -> bool {
        let name = self.path.as_deref().and_then(Path::file_name).map_or_else(|| "untitled.ron".to_owned(), |n| n.to_string_lossy().into_owned());
        match rfd::FileDialog::new().add_filter("Tangent project", &["ron"]).set_file_name(name).save_file() {
            Some(path) => self.save_to(&path),
            None => {
                self.show_save_path = true;
                self.set_message("No file chosen (type a path if no file dialog appeared)");
                false
            }
        }
    }

    fn remember_recent(&mut self, path: &Path) {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_owned());
        self.view.recent_files.retain(|p| p != &path);
        self.view.recent_files.insert(0, path);
        self.view.recent_files.truncate(RECENT_FILES);
    }

    /// The selected keys' time and value range, for Frame selected.
    pub fn selection_bounds(&self) -> Option<([f64; 2], [f64; 2])> {
        let mut lo = [f64::INFINITY; 2];
        let mut hi = [f64::NEG_INFINITY; 2];
        for k in &self.selection {
            let key = &self.project().tracks[k.track].keys[k.key];
            lo[0] = lo[0].min(key.time);
            hi[0] = hi[0].max(key.time);
            for &v in &key.value {
                lo[1] = lo[1].min(v);
                hi[1] = hi[1].max(v);
            }
        }
        lo[0].is_finite().then_some((lo, hi))
    }
}
