//! Issue 14's kill test: 1,000 saves of a large project, each killed with `SIGKILL` at a
//! random moment, leave either the old or the new file byte for byte, and the next completed
//! save leaves no temporary file behind.
//!
//! How: the test runs its own binary again as a child (`--exact` this test, with
//! [`CHILD_ENV`] naming the work directory). The child saves two versions of the project over
//! the same file, one after the other, until it is killed. The editor and the CLI save with
//! [`tangent::io::save_project`], which validates, serialises
//! ([`tangent::io::project_to_string`]) and then hands the bytes to
//! [`tangent::io::write_atomically`]; the child calls `write_atomically` with bytes serialised
//! once beforehand (the test checks they are exactly what `save_project` writes), so that kills
//! land in the writing, not in a debug build's slow serialising. Kill delays are spread
//! uniformly over two save times, measured first; the test checks that a good share of kills
//! caught a temporary file on disk, i.e. landed mid-save.

mod common;

use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tangent::io::{project_to_string, save_project, write_atomically};
use tangent::{Interpolation, Key, Project, Track, TrackKind};

/// Set in the child: the work directory (holding `a.ron`, `b.ron` and `save/`).
const CHILD_ENV: &str = "TANGENT_KILL_SAVE_CHILD";
/// This test's name, for the child's `--exact`.
const TEST_NAME: &str = "killed_saves_leave_the_old_or_new_file_and_no_temporaries";
const KILLS: usize = 1000;
const SEED: u64 = 14;
/// The file's name in `save/`.
const FILE: &str = "project.ron";

/// 40 Vec3 Cubic tracks of 600 keys each (about 2 MB of text), values drawn from `seed`.
fn large_project(seed: u64) -> Project {
    let mut rnd = common::rng::uniform(seed);
    let tracks = (0..40)
        .map(|t| {
            let keys = (0..600).map(|k| Key::new(k as f64 * 0.04, (0..3).map(|_| rnd() * 200.0 - 100.0).collect())).collect();
            Track::new(format!("bone{t}.position"), TrackKind::Vec3, Interpolation::Cubic).with_keys(keys)
        })
        .collect();
    Project { tracks, ..Project::default() }
}

/// The child: saves `a.ron`'s and `b.ron`'s bytes over `save/project.ron` in turn, forever.
fn child(work: &Path) -> ! {
    let a = std::fs::read(work.join("a.ron")).unwrap();
    let b = std::fs::read(work.join("b.ron")).unwrap();
    let target = work.join("save").join(FILE);
    println!("READY");
    loop {
        for bytes in [&a, &b] {
            write_atomically(&target, bytes).expect("the child's save");
        }
    }
}

/// Starts a child and waits until it is about to save.
fn start_child(work: &Path) -> Child {
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new(exe)
        .args(["--exact", TEST_NAME, "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, work)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the test binary starts again");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    loop {
        match lines.next() {
            // With one test thread libtest writes "test NAME ... " before the test's own output.
            Some(Ok(line)) if line.ends_with("READY") => break,
            Some(Ok(_)) => {}
            _ => panic!("the child ended before it was ready: {:?}", child.wait()),
        }
    }
    child
}

/// Names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// The mean time of one save of `bytes` over `target` (after one warm-up save).
fn save_time(target: &Path, bytes: &[u8]) -> Duration {
    write_atomically(target, bytes).unwrap();
    let start = Instant::now();
    for _ in 0..5 {
        write_atomically(target, bytes).unwrap();
    }
    start.elapsed() / 5
}

#[test]
fn killed_saves_leave_the_old_or_new_file_and_no_temporaries() {
    if let Some(work) = std::env::var_os(CHILD_ENV) {
        child(Path::new(&work));
    }
    let work = std::env::temp_dir().join(format!("tangent-kill-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    let save_dir = work.join("save");
    std::fs::create_dir_all(&save_dir).unwrap();
    let target: PathBuf = save_dir.join(FILE);

    let (pa, pb) = (large_project(SEED), large_project(SEED + 1));
    let (a, b) = (project_to_string(&pa).unwrap().into_bytes(), project_to_string(&pb).unwrap().into_bytes());
    assert!(a.len() > 1_500_000 && a != b, "a large project, two different versions ({} bytes)", a.len());
    // The bytes the child saves are exactly what the real save path writes.
    save_project(&target, &pb).unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), b);
    save_project(&target, &pa).unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), a);
    std::fs::write(work.join("a.ron"), &a).unwrap();
    std::fs::write(work.join("b.ron"), &b).unwrap();

    let one_save = save_time(&target, &a);
    let mut rnd = common::rng::uniform(SEED);
    let (mut saw_a, mut saw_b, mut mid_save) = (0, 0, 0);
    let started = Instant::now();
    for i in 0..KILLS {
        let mut child = start_child(&work);
        std::thread::sleep(one_save.mul_f64(2.0 * rnd()));
        child.kill().unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(9), "kill {i}: the child was killed, it did not stop by itself ({status})");
        let left = std::fs::read(&target).unwrap();
        match () {
            () if left == a => saw_a += 1,
            () if left == b => saw_b += 1,
            () => panic!("kill {i}: {FILE} is neither the old nor the new file ({} bytes; they have {} and {})", left.len(), a.len(), b.len()),
        }
        if names(&save_dir).len() > 1 {
            mid_save += 1;
        }
        // The next save, here in the parent, removes what the killed save left.
        write_atomically(&target, if i % 2 == 0 { &b } else { &a }).unwrap();
        assert_eq!(names(&save_dir), [FILE], "kill {i}: temporary files remain after the next save");
    }
    eprintln!(
        "{KILLS} kills in {:.1} s (one save {:.1} ms, {} bytes): old/new {saw_a}/{saw_b}, {mid_save} with a temporary on disk",
        started.elapsed().as_secs_f64(),
        one_save.as_secs_f64() * 1e3,
        a.len()
    );
    // The kills must land during saves, and saves must complete between them too, or the
    // test proves little.
    assert!(mid_save >= KILLS / 5, "only {mid_save} of {KILLS} kills caught a save in progress");
    assert!(saw_a >= KILLS / 10 && saw_b >= KILLS / 10, "old/new {saw_a}/{saw_b}: kills should leave both");
    std::fs::remove_dir_all(&work).unwrap();
}
