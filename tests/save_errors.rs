//! Issue 14: saving to a full disk or into a read-only directory fails with a message that
//! names the file and the reason — in the library's error, the editor's status line and the
//! CLI's output — and leaves the previous file byte for byte, with no temporary file beside it.
//!
//! The errors are the kernel's, not simulated: the test runs itself again (`--exact`, with
//! [`CHILD_ENV`] naming a work directory) inside a new user and mount namespace
//! (`unshare --user --map-root-user --mount`, from util-linux), where it may mount a 256 KiB
//! tmpfs, fill it (ENOSPC), empty it and remount it read-only (EROFS). The mount lives only in
//! the child's namespace, so nothing stays mounted if the test dies. (Permission bits would
//! not do: the tests run as root here.) Without `unshare`, or where user namespaces are
//! disabled, the test fails and says so; it never passes without having checked.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use tangent::app::AppState;
use tangent::io::{demo_project, save_project};
use tangent::Project;

/// Set in the child: the work directory.
const CHILD_ENV: &str = "TANGENT_SAVE_ERRORS_CHILD";
/// This test's name, for the child's `--exact`.
const TEST_NAME: &str = "saving_to_a_full_disk_or_read_only_directory_fails_clearly_and_keeps_the_file";
/// What the child prints once every check has run.
const DONE: &str = "save_errors: full disk and read-only directory checked";

#[test]
fn saving_to_a_full_disk_or_read_only_directory_fails_clearly_and_keeps_the_file() {
    if let Some(work) = std::env::var_os(CHILD_ENV) {
        in_namespace(Path::new(&work));
        return;
    }
    let work = std::env::temp_dir().join(format!("tangent-save-errors-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let exe = std::env::current_exe().unwrap();
    let out = Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount"])
        .arg(exe)
        .args(["--exact", TEST_NAME, "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, &work)
        .output()
        .unwrap_or_else(|e| panic!("this test needs util-linux's `unshare` on PATH: {e}"));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success() && stdout.contains(DONE),
        "the checks in a private mount namespace failed or did not run (user namespaces must be allowed: `unshare --user --map-root-user --mount true` must work) — {}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        out.status
    );
    std::fs::remove_dir_all(&work).unwrap();
}

/// Runs `program args`, failing with its output if it fails.
fn run(program: &str, args: &[&str]) {
    let out = Command::new(program).args(args).output().unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(out.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// The child, inside its own namespaces: the full disk, then the read-only directory.
fn in_namespace(work: &Path) {
    let mnt = work.join("mnt");
    std::fs::create_dir_all(&mnt).unwrap();
    let m = mnt.to_str().unwrap();
    run("mount", &["-t", "tmpfs", "-o", "size=256k", "tmpfs", m]);
    let file = mnt.join("p.ron");
    save_project(&file, &demo_project()).unwrap();
    let old = std::fs::read(&file).unwrap();
    assert!(old.len() < 4096, "the old file fits in one page");
    // A new version several pages larger than the old, so that even a save that freed the old
    // file's pages first (writing in place) would run out of space.
    let mut newer = demo_project();
    let copies: Vec<_> = (0..4).flat_map(|i| newer.tracks.iter().map(move |t| tangent::Track { name: format!("{} {i}", t.name), ..t.clone() })).collect();
    newer.tracks.extend(copies);
    // The CLI's input, outside the small disk.
    let input = work.join("input.ron");
    save_project(&input, &newer).unwrap();

    let filler = mnt.join("filler");
    fill(&filler);
    expect_refusal(&file, &newer, &input, &old, "No space left on device", &["filler", "p.ron"]);

    std::fs::remove_file(&filler).unwrap();
    // With the type and source given, mount(8) need not look the mount up, which it cannot do
    // in an unprivileged user's namespace.
    run("mount", &["-t", "tmpfs", "-o", "remount,ro", "tmpfs", m]);
    expect_refusal(&file, &newer, &input, &old, "Read-only file system", &["p.ron"]);
    run("umount", &[m]);
    println!("{DONE}");
}

/// Writes `path` until the disk is full, and checks that it is.
fn fill(path: &Path) {
    let mut f = std::fs::File::create(path).unwrap();
    let chunk = [0u8; 4096];
    let error = loop {
        if let Err(e) = f.write_all(&chunk).and_then(|()| f.sync_all()) {
            break e;
        }
    };
    assert_eq!(error.raw_os_error(), Some(28), "the disk is full (ENOSPC): {error}");
}

/// Saving `project` over `file` fails in the library, the editor and the CLI, each saying
/// which file and `reason`; `file` still holds `old` and the directory only `listing`.
fn expect_refusal(file: &Path, project: &Project, input: &Path, old: &[u8], reason: &str, listing: &[&str]) {
    let path = file.display().to_string();
    let names_both = |msg: &str| msg.contains(&path) && msg.contains(reason);

    let e = save_project(file, project).expect_err("the library's save fails");
    assert!(names_both(&e.to_string()), "library: {e}");

    let mut state = AppState::new(project.clone(), None);
    assert!(!state.save_to(file), "the editor's save fails");
    let status = &state.ui.status;
    assert!(status.is_error && status.text.starts_with("Could not save: ") && names_both(&status.text), "editor: {}", status.text);
    assert_eq!(state.doc.path, None, "the failed save did not become the document's file");

    let out = Command::new(env!("CARGO_BIN_EXE_tangent"))
        .arg("reduce")
        .arg(input)
        .args(["--tolerance", "0.001", "-o"])
        .arg(file)
        .output()
        .expect("the tangent binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && names_both(&stderr), "CLI ({}): {stderr}", out.status);

    let now = std::fs::read(file).unwrap();
    assert!(now == old, "{reason}: the previous file is not intact ({} bytes, was {})", now.len(), old.len());
    let mut names: Vec<String> = std::fs::read_dir(file.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, listing, "{reason}: no temporary file is left");
}
