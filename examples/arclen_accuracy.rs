//! Arc-length accuracy report: for E from 1e−2 to 1e−6, the table size and the true maximum
//! error of s(t) and of s(t(s)) (10,000 points, against an independent adaptive Gauss–Kronrod
//! integration) for Tangent's `ArcLengthTable` and for the seed's swinging-door table, on the
//! two reference paths and a random 1000-key Vec3 path.
//!
//! `cargo run --release --example arclen_accuracy`

#[path = "../tests/common/mod.rs"]
mod common;

use common::gauss_kronrod::true_errors;
use common::swinging_door::SwingingDoor;
use tangent::arclen::ArcLengthTable;
use tangent::{Interpolation, Key, PathCurve, SegmentCursor, Track, TrackCurve, TrackKind};

fn reference_path(file: &str) -> TrackCurve {
    let (_, case) = common::cases(file).remove(0);
    TrackCurve::new(&common::kb_track(&case)).unwrap()
}

fn random_path() -> TrackCurve {
    let mut r = common::rng::uniform(3);
    let mut t = 0.0;
    let keys = (0..1000)
        .map(|_| {
            let k = Key::new(t, (0..3).map(|_| r() * 10.0 - 5.0).collect()).with_tcb(r() - 0.5, r() - 0.5, r() - 0.5);
            t += 0.2 + r();
            k
        })
        .collect();
    TrackCurve::new(&Track::new("random 1000 keys", TrackKind::Vec3, Interpolation::Tcb).with_keys(keys)).unwrap()
}

fn main() {
    let paths = [
        ("reference 2D (arclen_001)", reference_path("arclen_001")),
        ("reference 3D (arclen_003)", reference_path("arclen_003")),
        ("random 1000-key Vec3", random_path()),
    ];
    println!(
        "| path | E | Tangent samples | seed samples | ratio | Tangent max err s(t) | Tangent max err s(t(s)) | seed max err s(t) | seed max err s(t(s)) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (name, curve) in &paths {
        for e in [1e-2, 1e-3, 1e-4, 1e-5, 1e-6] {
            let table = ArcLengthTable::new(PathCurve::new(curve).unwrap(), e).unwrap();
            let (mut c1, mut c2) = (SegmentCursor::new(), SegmentCursor::new());
            let (es, et) = true_errors(curve, &mut |t| table.s_of_t(&mut c1, t), &mut |s| table.t_of_s(&mut c2, s), table.length());
            let door = SwingingDoor::new(curve, e);
            let (ds, dt) = true_errors(curve, &mut |t| door.s_of_t(t), &mut |s| door.t_of_s(s), table.length());
            println!(
                "| {name} | {e:.0e} | {} | {} | {:.3} | {es:.1e} | {et:.1e} | {ds:.1e} | {dt:.1e} |",
                table.len(),
                door.len(),
                table.len() as f64 / door.len() as f64
            );
        }
    }
}
