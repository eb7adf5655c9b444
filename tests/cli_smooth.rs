//! `tangent filter --butterworth / --gaussian / --median` as scripts use it (issue 32): the
//! real binary, its stdout, stderr and exit code, and the file it writes (or does not).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tangent::model::{Interpolation, Key, Project, Track, TrackKind};
use tangent::smooth::{smooth_track, Filter};

fn tangent(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tangent")).args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tangent-cli-smooth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn track(name: &str, kind: TrackKind, mode: Interpolation, times: &[f64], value: impl Fn(usize, f64) -> Vec<f64>) -> Track {
    let mut t = Track::new(name, kind, mode);
    t.keys = times.iter().enumerate().map(|(i, &x)| Key::new(x, value(i, x))).collect();
    t
}

/// "jitter": Vec3 at 30 Hz, 60 keys, a sine with alternating ±0.05 and a spike at key 20;
/// "uneven": Scalar with spacings 0.1 and 0.2 alternating; "held": a Step track; "short": 12
/// Scalar keys at 30 Hz.
fn project() -> Project {
    let uniform: Vec<f64> = (0..60).map(|i| i as f64 / 30.0).collect();
    let jitter = track("jitter", TrackKind::Vec3, Interpolation::Linear, &uniform, |i, t| {
        let noise = if i % 2 == 0 { 0.05 } else { -0.05 };
        let spike = if i == 20 { 4.0 } else { 0.0 };
        vec![t.sin() + noise + spike, 2.0 * t, 1.0]
    });
    let mut uneven_times = vec![0.0];
    for i in 0..40 {
        uneven_times.push(uneven_times[i] + if i % 2 == 0 { 0.1 } else { 0.2 });
    }
    let uneven = track("uneven", TrackKind::Scalar, Interpolation::Linear, &uneven_times, |_, t| vec![t * t]);
    let held = track("held", TrackKind::Scalar, Interpolation::Step, &uniform[..5], |i, _| vec![i as f64]);
    let short = track("short", TrackKind::Scalar, Interpolation::Linear, &uniform[..12], |i, _| vec![(i % 3) as f64]);
    Project { tracks: vec![jitter, uneven, held, short], ..Project::default() }
}

fn input(name: &str) -> String {
    let p = scratch(name);
    tangent::io::save_project(&p, &project()).unwrap();
    p.display().to_string()
}

/// One line per track (the Step track skipped), the file written, the values the library's.
#[test]
fn butterworth_prints_a_line_per_track_and_writes() {
    let (f, out_path) = (input("a.ron"), scratch("butter.ron"));
    let out = tangent(&["filter", &f, "--butterworth", "2", "-o", out_path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0], "held\tskipped: Step track");
    assert!(lines[1].starts_with("jitter\tbutterworth 2 Hz order 2\t60 keys\tuniform at 30.000000 Hz\tmax difference "), "{}", lines[1]);
    assert!(lines[2].starts_with("uneven\tbutterworth 2 Hz order 2\t31 keys\tresampled at 0.200000 s (5.000000 Hz): keys were not uniform"), "{}", lines[2]);
    assert!(lines[3].starts_with("short\tbutterworth 2 Hz order 2\t12 keys\tuniform at 30.000000 Hz"), "{}", lines[3]);
    assert!(lines[4].starts_with("wrote "));
    let written = tangent::io::load_project(&out_path).unwrap();
    let want = smooth_track(&project().tracks[0], &Filter::butterworth(2.0, 2).unwrap()).unwrap();
    assert_eq!(written.tracks[0].keys, want.track.keys);
    assert_eq!(written.tracks[2], project().tracks[2], "the Step track is left alone");
    assert!(lines[1].ends_with(&format!("max difference {:.6} value units", want.max_difference)));
    // --order.
    let out = tangent(&["filter", &f, "--butterworth", "4", "--order", "4", "--track", "jitter", "-o", out_path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("jitter\tbutterworth 4 Hz order 4\t60 keys"), "{}", text(&out.stdout));
}

/// The median removes the spike: key 20's x is back near the sine.
#[test]
fn median_removes_the_spike_and_gaussian_runs() {
    let (f, out_path) = (input("b.ron"), scratch("median.ron"));
    let out = tangent(&["filter", &f, "--median", "0.1", "--track", "jitter", "-o", out_path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("jitter\tmedian 0.1 s\t60 keys"), "{}", text(&out.stdout));
    let p = tangent::io::load_project(&out_path).unwrap();
    let x = p.tracks[0].keys[20].value[0];
    assert!((x - (20.0f64 / 30.0).sin()).abs() <= 0.1, "{x}");
    let out = tangent(&["filter", &f, "--gaussian", "0.05", "--track", "jitter", "--track", "uneven", "-o", out_path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 3);
}

fn fails(args: &[&str], out_path: &Path, needle: &str) {
    let out = tangent(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(text(&out.stderr).contains(needle), "{args:?}: {}", text(&out.stderr));
    assert!(text(&out.stdout).is_empty(), "{args:?}: {}", text(&out.stdout));
    assert!(!out_path.exists(), "{args:?} wrote its output");
}

/// Bad input says the valid range, and nothing is written.
#[test]
fn bad_input_says_the_range_and_writes_nothing() {
    let f = input("c.ron");
    let o = scratch("never.ron");
    let os = o.to_str().unwrap();
    fails(
        &["filter", &f, "--butterworth", "15", "--track", "jitter", "-o", os],
        &o,
        "track \"jitter\": the cutoff 15 Hz must be below the Nyquist rate 15 Hz (half the keys' rate of 30 Hz)",
    );
    fails(&["filter", &f, "--butterworth", "0", "-o", os], &o, "the cutoff must be above 0 Hz, got 0 Hz");
    fails(&["filter", &f, "--butterworth", "-2", "-o", os], &o, "the cutoff must be above 0 Hz, got -2 Hz");
    fails(&["filter", &f, "--butterworth", "4", "--order", "9", "-o", os], &o, "the order must be 1 to 8, got 9");
    fails(&["filter", &f, "--gaussian", "0", "-o", os], &o, "sigma must be above 0 seconds, got 0");
    fails(&["filter", &f, "--median", "-0.5", "-o", os], &o, "the median window must be above 0 seconds, got -0.5");
    fails(&["filter", &f, "--median", "0.01", "--track", "jitter", "-o", os], &o, "must be at least 0.05 s");
    // Both tracks fail at a cutoff of 2.6 Hz (uneven is resampled at 5 Hz): both are named.
    let out = tangent(&["filter", &f, "--butterworth", "2.6", "-o", os]);
    assert!(!out.status.success() && !o.exists());
    let err = text(&out.stderr);
    assert!(err.contains("track \"uneven\": the cutoff 2.6 Hz must be below the Nyquist rate 2.5 Hz") && err.contains("nothing written"), "{err}");
    fails(&["filter", &f, "--gaussian", "0.1", "--track", "held", "-o", os], &o, "Step tracks are not smoothed");
    fails(&["filter", &f, "--gaussian", "0.1", "--track", "nope", "-o", os], &o, "no track named \"nope\"");
    // Too few keys for filtfilt's padding: order 3 pads 12 keys each end; "short" has 12.
    fails(
        &["filter", &f, "--butterworth", "1", "--order", "3", "--track", "short", "-o", os],
        &o,
        "track \"short\": 12 keys: the Butterworth filter of order 3 (filtfilt pads each end with 3·(order + 1) = 12 keys and needs more) needs at least 13",
    );
}

/// Exactly one filter: none, two, or --order without --butterworth are usage errors.
#[test]
fn exactly_one_filter() {
    let f = input("d.ron");
    let o = scratch("never2.ron");
    let os = o.to_str().unwrap();
    fails(&["filter", &f, "-o", os], &o, "the following required arguments were not provided");
    fails(&["filter", &f, "--gaussian", "0.1", "--median", "0.1", "-o", os], &o, "cannot be used with");
    fails(&["filter", &f, "--euler", "--butterworth", "3", "-o", os], &o, "cannot be used with");
    fails(&["filter", &f, "--gaussian", "0.1", "--order", "3", "-o", os], &o, "--order goes with --butterworth only");
}
