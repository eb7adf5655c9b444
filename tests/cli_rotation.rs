//! The rotation subcommands as scripts use them (SPEC §13): `tangent filter --euler`,
//! `tangent convert --to-euler / --to-quat`, `eval` of an Euler track, and the errors for a
//! bad order — the real binary, its stdout, stderr and exit code, and the files it writes.

use std::path::PathBuf;
use std::process::{Command, Output};

use tangent::euler::{self, EulerOrder};
use tangent::model::{Interpolation, TrackKind};

fn tangent(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tangent")).args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tangent-cli-rotation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A Linear Euler track in ZYX turning about Z: 0, 3 rad, then −3 rad (really 2π − 3, the
/// same rotation as 3.283 rad), and a Vec3 track that must be left alone.
const WRAPPED: &str = r#"(version: 3, fps: 30.0, tracks: [
    (name: "spin", kind: Euler, interpolation: Linear, order: ZYX, keys: [
        (time: 0.0, value: [0.0, 0.0, 0.0]), (time: 1.0, value: [0.0, 0.0, 3.0]), (time: 2.0, value: [0.0, 0.0, -3.0])]),
    (name: "pos", kind: Vec3, interpolation: Linear, keys: [(time: 0.0, value: [0.0, 0.0, 0.0]), (time: 2.0, value: [1.0, 2.0, 3.0])]),
])"#;

fn write(name: &str, contents: &str) -> String {
    let p = scratch(name);
    std::fs::write(&p, contents).unwrap();
    p.display().to_string()
}

#[test]
fn eval_prints_an_euler_tracks_angles_in_radians() {
    let f = write("eval.ron", WRAPPED);
    let out = tangent(&["eval", &f, "--track", "spin", "--times", "0.5,1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "0.0 0.0 1.5\n0.0 0.0 3.0\n");
}

/// `--degrees`: 1.5 rad and 3 rad as degrees (180/π by hand: 85.94366926962348°,
/// 171.88733853924697°); on a Vec3 track it is refused, naming the kind.
#[test]
fn eval_degrees_prints_an_euler_tracks_angles_in_degrees() {
    let f = write("eval_deg.ron", WRAPPED);
    let out = tangent(&["eval", &f, "--track", "spin", "--times", "0.5,1", "--degrees"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows: Vec<Vec<f64>> = text(&out.stdout).lines().map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect()).collect();
    for (row, want) in rows.iter().zip([85.943_669_269_623_48, 171.887_338_539_246_97]) {
        assert!(row[0] == 0.0 && row[1] == 0.0 && (row[2] - want).abs() < 1e-12, "{row:?} against {want}");
    }
    assert_eq!(rows.len(), 2);
    let bad = tangent(&["eval", &f, "--track", "pos", "--times", "1", "--degrees"]);
    assert!(
        !bad.status.success() && text(&bad.stderr).contains("--degrees is for Euler tracks") && text(&bad.stderr).contains("Vec3"),
        "{}",
        text(&bad.stderr)
    );
}

/// The filter moves key 2 from −3 to 2π − 3 (by hand), says so, keeps the Vec3 track, and
/// writes version 3 with the order.
#[test]
fn filter_euler_fixes_the_wrap_and_says_how_many_keys() {
    let (f, out_path) = (write("wrapped.ron", WRAPPED), scratch("filtered.ron"));
    let out = tangent(&["filter", &f, "--euler", "-o", out_path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("spin\t1 of 3 keys changed\n"), "{stdout}");
    assert!(stdout.contains("total\t1 keys changed"), "{stdout}");
    let p = tangent::io::load_project(&out_path).unwrap();
    assert_eq!(p.tracks[0].keys[2].value, vec![0.0, 0.0, std::f64::consts::TAU - 3.0]);
    assert_eq!((p.tracks[0].order, p.tracks[1].keys[1].value.clone()), (EulerOrder::ZYX, vec![1.0, 2.0, 3.0]));
    let written = std::fs::read_to_string(&out_path).unwrap();
    assert!(written.contains("version: 3") && written.contains("order: ZYX"), "{written}");
    // Naming a track that is not Euler is an error, and nothing is written.
    let none = scratch("none.ron");
    let out = tangent(&["filter", &f, "--euler", "--track", "pos", "-o", none.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("\"pos\" is a Vec3 track, not Euler"), "{}", text(&out.stderr));
    assert!(!none.exists());
}

/// Euler → Quat → Euler: the quaternion keys stay within the angle (measured and printed),
/// and the Euler track made back from them has every key's rotation of the original curve.
#[test]
fn convert_both_ways() {
    let (f, q, e) = (write("c.ron", WRAPPED), scratch("q.ron"), scratch("e.ron"));
    let out = tangent(&["convert", &f, "--to-quat", "--angle", "0.1", "-o", q.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("spin\tEuler ZYX -> Quat "), "{}", text(&out.stdout));
    let pq = tangent::io::load_project(&q).unwrap();
    assert_eq!(pq.tracks[0].kind, TrackKind::Quat);
    let out = tangent(&["convert", q.to_str().unwrap(), "--to-euler", "yxz", "-o", e.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Quat -> Euler YXZ"), "{}", text(&out.stdout));
    let pe = tangent::io::load_project(&e).unwrap();
    let t = &pe.tracks[0];
    assert_eq!((t.kind, t.order, t.interpolation), (TrackKind::Euler, EulerOrder::YXZ, Interpolation::Linear));
    let original = tangent::io::load_project(std::path::Path::new(&f)).unwrap();
    let curve = tangent::TrackCurve::new(&original.tracks[0]).unwrap();
    let mut ev = curve.evaluator();
    for k in &t.keys {
        let v = ev.value_at(k.time);
        let want = euler::to_matrix(&[v[0], v[1], v[2]], EulerOrder::ZYX);
        let got = euler::to_matrix(&[k.value[0], k.value[1], k.value[2]], EulerOrder::YXZ);
        assert!(euler::mat_distance(&want, &got) < 0.1f64.to_radians(), "t = {}", k.time);
    }
}

#[test]
fn a_bad_order_names_the_track_and_the_six_orders() {
    let f = write("bad.ron", &WRAPPED.replace("order: ZYX", "order: ZXX"));
    let out = tangent(&["check", &f]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("track \"spin\": unknown rotation order `ZXX`; the orders are XYZ, XZY, YXZ, YZX, ZXY, ZYX"), "{err}");
    let out = tangent(&["convert", &f, "--to-euler", "XYY", "-o", "x.ron"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown rotation order \"XYY\" (the orders are XYZ, XZY, YXZ, YZX, ZXY, ZYX)"), "{}", text(&out.stderr));
    let f = write("nan.ron", &WRAPPED.replace("[0.0, 0.0, 3.0]", "[0.0, NaN, 3.0]"));
    let out = tangent(&["filter", &f, "--euler", "-o", scratch("n.ron").to_str().unwrap()]);
    assert!(!out.status.success(), "a NaN angle is refused");
}
