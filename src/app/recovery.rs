//! Autosave and recovery. While the document has unsaved changes the editor writes a recovery
//! copy — never over the user's file — into the recovery directory (`$TANGENT_RECOVERY_DIR`,
//! else `$XDG_STATE_HOME/tangent/recovery`, else `~/.local/state/tangent/recovery`): every
//! [`ViewSettings::autosave_secs`](super::ViewSettings) seconds and after
//! [`IDLE_PAUSE`] without edits, atomically ([`crate::io::save_project`]) on a worker thread.
//! Each editor process writes its own file, `tangent-PID-NAME.ron`, with the document's own
//! path (or "untitled") in `tangent-PID-NAME.origin` beside it, so two editors on two projects
//! never share one, and an unsaved new document is kept too. Saving, or a clean quit, removes
//! it. A file left by a process that no longer runs (a crash, a `kill -9`) is offered at the
//! next start: its time, where it came from and what it holds, Restore (one undo step) or
//! Discard. The offers are listed at once from the directory alone (file names, pids, sizes,
//! times): nothing is read until Restore is chosen, so a copy of a 7-million-key take costs no
//! memory while the user decides. Restore reads the copy and compiles its tracks on a worker
//! thread (a spinner with the file's size meanwhile) and puts in the curves the worker compiled
//! as one undo step. A copy that cannot be read is shown with its error, to discard. The newest
//! offer's Restore button gets keyboard focus at once, so Enter restores it
//! (`tests/window_recovery.rs` drives the real window so).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use eframe::egui;

use super::commands::AppCommand;
use super::compiled_track::CompiledTake;
use super::jobs::Job;
use super::panel::{Panel, PanelContext};
use super::state::AppState;

/// Without edits for this long, unsaved changes are written at once.
pub const IDLE_PAUSE: Duration = Duration::from_secs(2);

/// A recovery file left by an editor that no longer runs.
#[derive(Debug)]
pub struct Offer {
    pub file: PathBuf,
    /// The document's own path, or "untitled".
    pub origin: String,
    pub saved: Option<SystemTime>,
    /// The file's size in bytes (shown while it is read).
    pub bytes: u64,
    pub content: Content,
}

/// How far an offer has been read.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// Listed from the directory only: nothing read (it costs nothing until Restore).
    Unread,
    /// Restore was chosen: the worker reads and compiles it, then it is restored.
    Reading,
    /// It could not be read or does not hold a valid project (the reason); it can only be
    /// discarded.
    Failed(String),
}

/// This editor's autosave, and the offers found at start.
pub struct Recovery {
    dir: Option<PathBuf>,
    /// The revision last written (or found clean), and when.
    written: Option<(u64, Instant)>,
    /// The revision seen last frame and since when it has not changed.
    seen: Option<(u64, Instant)>,
    writing: Option<Job<Result<(), String>>>,
    /// The file last written (the name follows the document's, so Save as changes it).
    last_file: Option<PathBuf>,
    pub offers: Vec<Offer>,
    /// The worker reading an offer whose Restore was chosen (one at a time), and the offers
    /// chosen after it.
    reading: Option<(PathBuf, Job<Result<Box<CompiledTake>, String>>)>,
    to_read: VecDeque<PathBuf>,
    /// The last write's failure, shown in the offer window's place.
    pub error: Option<String>,
    /// Whether the newest offer's Restore button has been given keyboard focus yet (it is,
    /// once, when the offers first show, so Enter restores and Tab moves on).
    focused: bool,
}

/// The recovery directory (see the module docs).
#[must_use]
pub fn default_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("TANGENT_RECOVERY_DIR") {
        return Some(PathBuf::from(d));
    }
    let state = std::env::var_os("XDG_STATE_HOME").map(PathBuf::from).or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")));
    state.map(|s| s.join("tangent/recovery"))
}

/// Whether an editor with this pid still runs: the process exists, is not a zombie (a killed
/// process whose parent has not reaped it yet), and runs the same program as this one (a pid
/// reused by another program does not hide a recovery copy).
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
    // "PID (COMM) STATE …": the state follows the last ')'.
    let state = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next()).unwrap_or("");
    if matches!(state, "Z" | "X" | "x") {
        return false;
    }
    let comm = |p: &str| std::fs::read_to_string(format!("/proc/{p}/comm")).map(|c| c.trim().to_owned()).ok();
    comm(&pid.to_string()) == comm("self")
}

/// Recovery files in `dir` whose writer no longer runs, newest first, not read
/// ([`Content::Unread`]; [`read_offer`] reads one).
#[must_use]
pub fn orphans(dir: &Path) -> Vec<Offer> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<Offer> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .filter_map(|file| {
            let name = file.file_stem()?.to_string_lossy().into_owned();
            let pid: u32 = name.strip_prefix("tangent-")?.split('-').next()?.parse().ok()?;
            if process_alive(pid) {
                return None;
            }
            let origin = std::fs::read_to_string(file.with_extension("origin")).unwrap_or_else(|_| "untitled".to_owned());
            let meta = std::fs::metadata(&file).ok();
            let saved = meta.as_ref().and_then(|m| m.modified().ok());
            let bytes = meta.map_or(0, |m| m.len());
            Some(Offer { file, origin, saved, bytes, content: Content::Unread })
        })
        .collect();
    out.sort_by_key(|o| std::cmp::Reverse(o.saved));
    out
}

/// Reads a recovery copy, checks it and compiles its tracks (once, on every core: the check
/// is the compile): what the worker does when Restore is chosen.
///
/// # Errors
/// The file's or the project's error, naming the file.
pub fn read_offer(file: &Path) -> Result<Box<CompiledTake>, String> {
    let origin = file.display().to_string();
    let text = std::fs::read_to_string(file).map_err(|e| format!("{origin}: {e}"))?;
    let (project, curves) = crate::io::parse_project_compiled(&text, &origin).map_err(|e| e.to_string())?;
    Ok(Box::new(CompiledTake::from_curves(project, curves)))
}

/// Removes a recovery file and its origin note.
pub fn discard(file: &Path) {
    let _ = std::fs::remove_file(file);
    let _ = std::fs::remove_file(file.with_extension("origin"));
}

impl Recovery {
    /// Autosave into `dir` (none: disabled), with the orphans found there to offer, listed
    /// from the directory alone (nothing is read until [`Recovery::restore`]).
    #[must_use]
    pub fn new(dir: Option<PathBuf>) -> Self {
        let offers = dir.as_deref().map(orphans).unwrap_or_default();
        Self { dir, written: None, seen: None, writing: None, last_file: None, offers, reading: None, to_read: VecDeque::new(), error: None, focused: false }
    }

    /// Restore chosen for offer `i`: it is read and compiled on a worker, and restored when
    /// [`Recovery::poll`] finds it read (a copy that fails stays offered with its reason).
    pub fn restore(&mut self, i: usize) {
        let Some(o) = self.offers.get_mut(i) else { return };
        if o.content != Content::Unread {
            return;
        }
        o.content = Content::Reading;
        self.to_read.push_back(o.file.clone());
        if self.reading.is_none() {
            self.read_next();
        }
    }

    /// Starts reading the next chosen offer on a worker.
    fn read_next(&mut self) {
        self.reading = self.to_read.pop_front().map(|file| {
            let f = file.clone();
            (file, Job::spawn(format!("Reading {}", f.display()), None, move |_| Some(read_offer(&f))))
        });
    }

    /// Takes what the worker has read since the last call: a copy read and compiled leaves the
    /// offers (its file is removed) as a Restore command in `out`; one that failed stays, with
    /// its reason. Returns whether an offer is still being read.
    pub fn poll(&mut self, out: &mut Vec<AppCommand>) -> bool {
        while let Some((file, job)) = &mut self.reading {
            let Some(made) = job.poll() else { return true };
            let made = made.unwrap_or_else(|| Err(format!("{}: the reader stopped", file.display())));
            let file = file.clone();
            if let Some(i) = self.offers.iter().position(|o| o.file == file) {
                match made {
                    Ok(take) => {
                        let offer = self.offers.remove(i);
                        discard(&offer.file);
                        let origin = (offer.origin != "untitled").then(|| PathBuf::from(&offer.origin));
                        out.push(AppCommand::Restore { take, origin });
                    }
                    Err(reason) => self.offers[i].content = Content::Failed(reason),
                }
            }
            self.read_next();
        }
        false
    }

    /// This editor's recovery file for the open document.
    fn file(&self, state: &AppState) -> Option<PathBuf> {
        let name = state.doc.path.as_deref().and_then(Path::file_stem).map_or_else(|| "untitled".to_owned(), |s| s.to_string_lossy().into_owned());
        let safe: String = name.chars().map(|c| if c.is_alphanumeric() || c == '_' { c } else { '_' }).collect();
        Some(self.dir.as_ref()?.join(format!("tangent-{}-{safe}.ron", std::process::id())))
    }

    /// Called once a frame: writes the recovery copy when it is due, removes it once the
    /// document is clean.
    pub fn tick(&mut self, state: &AppState, now: Instant, ctx: &egui::Context) {
        if self.writing.is_some() {
            match Job::finished(&mut self.writing) {
                Some((_, made)) => self.error = made.and_then(Result::err),
                None => return,
            }
        }
        let Some(file) = self.file(state) else { return };
        if let Some(old) = self.last_file.take_if(|old| *old != file) {
            discard(&old);
        }
        let revision = state.doc.document.revision();
        if self.seen.is_none_or(|(r, _)| r != revision) {
            self.seen = Some((revision, now));
        }
        if !state.doc.document.is_dirty() {
            if self.written.is_some_and(|(r, _)| r != revision) || self.written.is_none() {
                discard(&file);
                self.written = Some((revision, now));
            }
            return;
        }
        if self.written.is_some_and(|(r, _)| r == revision) {
            return;
        }
        let idle = self.seen.is_some_and(|(_, since)| now.duration_since(since) >= IDLE_PAUSE);
        let interval = Duration::from_secs_f64(state.view.autosave_secs.max(1.0));
        let overdue = self.written.is_none_or(|(_, at)| now.duration_since(at) >= interval);
        if !(idle || overdue) {
            // Come back when the idle pause is over.
            ctx.request_repaint_after(IDLE_PAUSE);
            return;
        }
        let project = state.doc.document.shared_project();
        let origin = state.doc.path.as_ref().map_or_else(|| "untitled".to_owned(), |p| p.display().to_string());
        let job = Job::spawn("Autosave", None, move |_| {
            let project = crate::io::released(project);
            Some((|| {
                if let Some(dir) = file.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                }
                crate::io::save_project(&file, &project).map_err(|e| e.to_string())?;
                std::fs::write(file.with_extension("origin"), origin).map_err(|e| e.to_string())
            })())
        });
        self.writing = Some(job);
        self.written = Some((revision, now));
        self.last_file = self.file(state);
    }

    /// A clean quit: this editor's recovery file goes.
    pub fn on_exit(&self, state: &AppState) {
        for file in self.file(state).iter().chain(&self.last_file) {
            discard(file);
        }
    }
}

/// "8.1 MB" ("31.4 kB" below 100 kB): a file size as the offer shows it.
fn megabytes(bytes: u64) -> String {
    #[allow(clippy::cast_precision_loss)]
    let (kb, mb) = (bytes as f64 / 1e3, bytes as f64 / 1e6);
    if kb < 100.0 {
        format!("{kb:.1} kB")
    } else {
        format!("{mb:.1} MB")
    }
}

impl Panel for Recovery {
    fn ui(&mut self, ui: &mut egui::Ui, _cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if self.poll(out) {
            ui.ctx().request_repaint_after(Duration::from_millis(50));
        }
        if self.offers.is_empty() {
            return;
        }
        let mut chosen = None;
        egui::Window::new("Recover unsaved work").collapsible(false).resizable(false).show(ui.ctx(), |ui| {
            ui.label("Tangent stopped without saving these. Restore one (you can undo it) or discard it.");
            for (i, o) in self.offers.iter().enumerate() {
                ui.separator();
                let age = o.saved.and_then(|s| s.elapsed().ok()).map_or_else(|| "at an unknown time".to_owned(), |d| format!("{} min ago", d.as_secs() / 60));
                match &o.content {
                    Content::Unread => {
                        ui.label(format!("{} — {}, saved {age}", o.origin, megabytes(o.bytes)));
                    }
                    Content::Reading => {
                        ui.horizontal(|ui| {
                            ui.spinner();
                            ui.label(format!("{} — reading {} to restore it, saved {age}…", o.origin, megabytes(o.bytes)));
                        });
                    }
                    Content::Failed(e) => {
                        ui.label(format!("{} — saved {age}", o.origin));
                        ui.colored_label(ui.visuals().error_fg_color, format!("Cannot be restored: {e}"));
                    }
                }
                ui.horizontal(|ui| {
                    let unread = o.content == Content::Unread;
                    let restore = ui
                        .add_enabled(unread, egui::Button::new("Restore"))
                        .on_hover_text(format!(
                            "Read this copy ({}) and replace the open document's tracks with it, as one undo step (Enter)",
                            megabytes(o.bytes)
                        ))
                        .on_disabled_hover_text(if o.content == Content::Reading { "Reading this copy" } else { "This copy cannot be read" });
                    if i == 0 && unread && !self.focused {
                        restore.request_focus();
                        self.focused = true;
                    }
                    if restore.clicked() {
                        chosen = Some((i, true));
                    }
                    if ui.button("Discard").on_hover_text(format!("Delete this recovery copy ({})", o.file.display())).clicked() {
                        chosen = Some((i, false));
                    }
                });
            }
        });
        match chosen {
            Some((i, true)) => {
                self.restore(i);
                ui.ctx().request_repaint();
            }
            Some((i, false)) => {
                let offer = self.offers.remove(i);
                discard(&offer.file);
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::intent::{self, KeyRef};
    use crate::io::demo_project;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tangent-recovery-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Waits for the worker's write to land (at most 5 s).
    fn settle(r: &mut Recovery, state: &AppState, now: Instant, ctx: &egui::Context) {
        for _ in 0..500 {
            r.tick(state, now, ctx);
            if r.writing.is_none() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the recovery write did not finish");
    }

    #[test]
    fn unsaved_changes_are_written_after_an_idle_pause_and_removed_when_saved() {
        let dir = temp_dir("write");
        let ctx = egui::Context::default();
        let mut state = AppState::new(demo_project(), None);
        let mut r = Recovery::new(Some(dir.clone()));
        let t0 = Instant::now();
        r.tick(&state, t0, &ctx);
        let file = dir.join(format!("tangent-{}-untitled.ron", std::process::id()));
        assert!(!file.exists(), "a clean document writes nothing");
        let edit = intent::change_key(state.project(), KeyRef { track: 0, key: 1 }, |k| k.tension = 0.5).unwrap();
        state.doc.apply("Set tension", edit).unwrap();
        r.tick(&state, t0 + Duration::from_millis(100), &ctx);
        assert!(r.writing.is_none() && !file.exists(), "not while editing: neither idle nor overdue");
        settle(&mut r, &state, t0 + Duration::from_millis(100) + IDLE_PAUSE, &ctx);
        assert_eq!(crate::io::load_project(&file).unwrap(), *state.project());
        assert_eq!(std::fs::read_to_string(file.with_extension("origin")).unwrap(), "untitled");
        // A second change within the interval waits for the idle pause.
        let edit = intent::change_key(state.project(), KeyRef { track: 0, key: 1 }, |k| k.tension = -0.5).unwrap();
        state.doc.apply("Set tension", edit).unwrap();
        let t1 = t0 + Duration::from_millis(100) + IDLE_PAUSE + Duration::from_millis(100);
        r.tick(&state, t1, &ctx);
        assert!(r.writing.is_none(), "not yet: neither idle nor overdue");
        // Edits without a pause are still written once the interval has passed.
        settle(&mut r, &state, t0 + Duration::from_secs_f64(state.view.autosave_secs) + Duration::from_millis(10), &ctx);
        assert_eq!(crate::io::load_project(&file).unwrap(), *state.project());
        // Saved: the copy goes.
        let saved = dir.join("mine.ron");
        assert!(state.save_to(&saved));
        let own = dir.join(format!("tangent-{}-mine.ron", std::process::id()));
        r.tick(&state, t0 + Duration::from_secs(10), &ctx);
        assert!(!file.exists() && !file.with_extension("origin").exists(), "the untitled copy goes when the document gets a name");
        assert!(!own.exists() && !std::fs::read_dir(&dir).unwrap().any(|e| e.unwrap().file_name().to_string_lossy().contains("-mine.origin")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Polls until the worker has read every offer chosen (at most 10 s); the commands made.
    fn read_all(r: &mut Recovery) -> Vec<AppCommand> {
        let mut out = Vec::new();
        for _ in 0..1000 {
            if !r.poll(&mut out) {
                return out;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the recovery copies were not read");
    }

    /// A copy left by a process that no longer runs is offered; Restore replaces the tracks as
    /// one undo step and Save goes to the file it came from.
    #[test]
    fn a_crashed_editors_copy_is_offered_and_restored_as_one_step() {
        let dir = temp_dir("offer");
        let mut recovered = demo_project();
        recovered.tracks.truncate(2);
        recovered.tracks[0].keys[0].value[0] = 42.0;
        // pid 4,000,000,000 does not run (Linux pids stay below 2^22).
        let file = dir.join("tangent-4000000000-walk.ron");
        crate::io::save_project(&file, &recovered).unwrap();
        std::fs::write(file.with_extension("origin"), "/tmp/walk.ron").unwrap();
        crate::io::save_project(&dir.join(format!("tangent-{}-mine.ron", std::process::id())), &recovered).unwrap();
        let mut r = Recovery::new(Some(dir.clone()));
        assert_eq!(r.offers.len(), 1, "only the dead process's copy");
        assert_eq!(r.offers[0].origin, "/tmp/walk.ron");
        assert_eq!(r.offers[0].bytes, std::fs::metadata(&file).unwrap().len());
        assert!(read_all(&mut r).is_empty() && r.offers[0].content == Content::Unread, "nothing is read before Restore");
        r.restore(0);
        let mut made = read_all(&mut r);
        assert!(r.offers.is_empty() && !file.exists(), "restored: no longer offered, its file gone");
        let Some(AppCommand::Restore { take, origin }) = made.pop() else { panic!("no Restore command") };
        assert_eq!(origin.as_deref(), Some(Path::new("/tmp/walk.ron")));
        assert_eq!(take.project, recovered);
        // The worker's curves sample as a fresh compile of the recovered tracks does.
        for (track, compiled) in recovered.tracks.iter().zip(&take.tracks) {
            let fresh = crate::TrackCurve::new(track).unwrap();
            let (mut got, mut want) = (compiled.curve.as_ref().unwrap().evaluator(), fresh.evaluator());
            for i in 0..=40 {
                let t = f64::from(i) * 0.1;
                assert_eq!(got.value_at(t), want.value_at(t), "{} at {t}", track.name);
            }
        }

        let ctx = egui::Context::default();
        let mut state = AppState::new(demo_project(), None);
        let before = state.project().clone();
        crate::app::dispatch::run_command(&ctx, &mut state, AppCommand::Restore { take, origin });
        assert_eq!(state.project().tracks, recovered.tracks);
        assert_eq!(state.doc.path.as_deref(), Some(Path::new("/tmp/walk.ron")));
        assert!(state.ui.status.text.starts_with("Restored 2 tracks"), "{}", state.ui.status.text);
        crate::app::dispatch::run_command(&ctx, &mut state, AppCommand::Ui(crate::app::Command::Undo));
        assert_eq!(state.project(), &before, "one undo step");
        assert!(!file.with_extension("origin").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A copy that does not parse, or whose keys are invalid, is offered with its reason and
    /// cannot be restored (it was silently skipped, and stayed in the directory for ever).
    #[test]
    fn a_copy_that_cannot_be_read_is_offered_with_its_reason() {
        let dir = temp_dir("broken");
        let truncated = dir.join("tangent-4000000001-cut.ron");
        let text = crate::io::project_to_string(&demo_project()).unwrap();
        std::fs::write(&truncated, &text[..text.len() / 2]).unwrap();
        let mut bad = demo_project();
        bad.tracks[0].keys[1].time = bad.tracks[0].keys[2].time + 1.0;
        let invalid = dir.join("tangent-4000000002-bad.ron");
        std::fs::write(&invalid, crate::io::project_to_string(&bad).unwrap()).unwrap();
        let mut r = Recovery::new(Some(dir.clone()));
        assert_eq!(r.offers.len(), 2);
        r.restore(0);
        r.restore(1);
        assert!(read_all(&mut r).is_empty(), "nothing to restore");
        assert_eq!(r.offers.len(), 2, "both stay offered, to discard");
        for o in &r.offers {
            let Content::Failed(reason) = &o.content else { panic!("{} was read: {:?}", o.file.display(), o.content) };
            if o.file == invalid {
                assert!(reason.contains(&bad.tracks[0].name), "names the track: {reason}");
            } else {
                assert!(reason.contains("tangent-4000000001-cut.ron"), "names the file: {reason}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
