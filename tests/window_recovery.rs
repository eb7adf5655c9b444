//! Issue 14: the real editor binary, in a real window under Xvfb (with openbox, so the window
//! gets keyboard focus), driven with xdotool key presses — no test hook in the editor. An edit
//! (Right: one frame on; I: insert a key on the active track), the autosave's recovery copy,
//! `SIGKILL`, a new start on the same file, Enter on the recovery offer (its Restore button
//! has keyboard focus), Ctrl+S — and the file on disk holds the edit.
//!
//! Needs `Xvfb`, `openbox` and `xdotool` (`.ci/run` installs them); without them the test
//! fails and says so.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tangent::io::load_project;
use tangent::Project;

/// How long anything may take on a loaded two-core machine with a debug build.
const PATIENCE: Duration = Duration::from_secs(60);
/// How long one key press may take to show in the title.
const ATTEMPT: Duration = Duration::from_secs(5);

/// A child process killed (SIGKILL) and reaped when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Fails unless every program is on PATH.
fn require(programs: &[&str]) {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let missing: Vec<&str> = programs.iter().copied().filter(|p| !std::env::split_paths(&path).any(|d| d.join(p).is_file())).collect();
    assert!(
        missing.is_empty(),
        "the real-window recovery test needs {missing:?} on PATH; on Debian: apt-get install xvfb xauth openbox xdotool (.ci/run does)"
    );
}

/// Starts Xvfb on a free display (it picks one and writes its number to `-displayfd`).
fn start_xvfb() -> (Running, String) {
    let mut x = Command::new("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb starts");
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(x.stdout.take().unwrap()), &mut line).unwrap();
    let number = line.trim();
    assert!(!number.is_empty(), "Xvfb did not report a display: {:?}", x.wait());
    (Running(x), format!(":{number}"))
}

/// Runs xdotool (time-limited: `search --sync` waits forever for a window that never comes);
/// its output, or None if it failed.
fn xdotool(display: &str, args: &[&str]) -> Option<String> {
    let out = Command::new("timeout").arg("20").arg("xdotool").args(args).env("DISPLAY", display).output().expect("xdotool runs");
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Polls `f` until it gives a value, or fails after [`PATIENCE`] with `what`.
fn wait_for<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(start.elapsed() < PATIENCE, "waited {PATIENCE:?} for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The editor on `doc`, its window's id once its first frame has set the title.
fn start_editor(display: &str, doc: &Path, work: &Path, log: &str) -> (Running, String) {
    let log = std::fs::File::create(work.join(log)).unwrap();
    let app = Command::new(env!("CARGO_BIN_EXE_tangent"))
        .arg(doc)
        .env("DISPLAY", display)
        .env("HOME", work.join("home"))
        .env("TANGENT_RECOVERY_DIR", work.join("recovery"))
        .env("XDG_RUNTIME_DIR", std::env::var_os("XDG_RUNTIME_DIR").unwrap_or_else(|| "/tmp".into()))
        .env_remove("XDG_STATE_HOME")
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WGPU_BACKEND")
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .expect("the tangent binary starts");
    let pid = app.id().to_string();
    let app = Running(app);
    let window =
        wait_for("the editor's window", || xdotool(display, &["search", "--pid", &pid, "--name", "Tangent"]).and_then(|s| s.lines().next().map(str::to_owned)));
    wait_for("the window title naming the file", || title(display, &window).filter(|t| t.starts_with("doc.ron")));
    wait_for("keyboard focus (from openbox)", || xdotool(display, &["getwindowfocus"]).filter(|w| *w == window));
    (app, window)
}

fn title(display: &str, window: &str) -> Option<String> {
    xdotool(display, &["getwindowname", window])
}

/// Presses each of `keys` in the window, a moment apart.
fn press(display: &str, window: &str, keys: &[&str]) {
    for k in keys {
        xdotool(display, &["key", "--window", window, k]).unwrap_or_else(|| panic!("xdotool key {k} failed"));
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// Presses `keys` until the window's title satisfies `done` (waiting [`ATTEMPT`] each time):
/// keys pressed before the editor draws its first frame are lost.
fn press_until(display: &str, window: &str, keys: &[&str], what: &str, done: impl Fn(&str) -> bool) {
    wait_for(what, || {
        press(display, window, keys);
        let start = Instant::now();
        while start.elapsed() < ATTEMPT {
            if title(display, window).is_some_and(|t| done(&t)) {
                return Some(());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        None
    });
}

/// The recovery copy in `dir`, once it parses.
fn recovery_copy(dir: &Path) -> Option<Project> {
    let file = std::fs::read_dir(dir).ok()?.filter_map(Result::ok).map(|e| e.path()).find(|p| p.extension().is_some_and(|e| e == "ron"))?;
    load_project(&file).ok()
}

/// Whether `project`'s first track has exactly one key more than `original`'s, on a frame
/// after 0 (the playhead is stepped on until the insert lands).
fn has_the_edit(project: &Project, original: &Project) -> bool {
    let (keys, before) = (&project.tracks[0].keys, &original.tracks[0].keys);
    let new: Vec<f64> = keys.iter().map(|k| k.time).filter(|t| !before.iter().any(|b| b.time == *t)).collect();
    let on_a_frame = |t: f64| t > 0.0 && ((t * original.fps).round() - t * original.fps).abs() < 1e-6;
    keys.len() == before.len() + 1 && new.len() == 1 && on_a_frame(new[0])
}

#[test]
fn an_edit_survives_kill_9_through_the_recovery_offer_in_a_real_window() {
    require(&["Xvfb", "openbox", "xdotool"]);
    let work = std::env::temp_dir().join(format!("tangent-window-recovery-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(work.join("home")).unwrap();
    let doc: PathBuf = work.join("doc.ron");
    let original_text = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo.ron")).unwrap();
    std::fs::write(&doc, &original_text).unwrap();
    let original = load_project(&doc).unwrap();

    let (_xvfb, display) = start_xvfb();
    let _openbox = Running(Command::new("openbox").env("DISPLAY", &display).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("openbox starts"));
    // The window manager is up once it answers for the desktops (EWMH).
    wait_for("openbox", || xdotool(&display, &["get_num_desktops"]));

    // First run: the edit, then the autosave's copy, then kill -9.
    let (mut first, window) = start_editor(&display, &doc, &work, "first.log");
    // At frame 0 the track already has a key, so the insert is refused until a Right lands.
    press_until(&display, &window, &["Right", "i"], "the unsaved mark after the edit", |t| t.starts_with("doc.ron*"));
    let copy = wait_for("the recovery copy with the edit", || recovery_copy(&work.join("recovery")).filter(|p| has_the_edit(p, &original)));
    assert!(!has_the_edit(&original, &original));
    assert_eq!(copy.tracks.len(), original.tracks.len());
    first.0.kill().unwrap();
    let status = first.0.wait().unwrap();
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9));
    drop(first);
    assert_eq!(std::fs::read(&doc).unwrap(), original_text, "the user's file was not written by the autosave");

    // Second run: Enter on the offer (its Restore has focus) until the document shows the
    // restored, unsaved edit; then Ctrl+S.
    let (second, window) = start_editor(&display, &doc, &work, "second.log");
    press_until(&display, &window, &["Return"], "the restore (Enter on the offer)", |t| t.starts_with("doc.ron*"));
    press_until(&display, &window, &["ctrl+s"], "the save (no unsaved mark)", |t| t.starts_with("doc.ron -"));
    let saved = load_project(&doc).unwrap();
    assert!(has_the_edit(&saved, &original), "the saved file has the edit made before the kill: {:?}", saved.tracks[0].keys);
    assert_eq!(saved.tracks.len(), original.tracks.len());
    // Restoring took the offer; saving removed this editor's copy.
    wait_for("an empty recovery directory", || std::fs::read_dir(work.join("recovery")).unwrap().next().is_none().then_some(()));
    drop(second);
    let _ = std::fs::remove_dir_all(&work);
}
