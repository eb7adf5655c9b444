//! The checks the fuzz targets run (`fuzz/`, cargo-fuzz), here so that `tests/fuzz_replay.rs`
//! replays the committed corpora through exactly the same code on every `cargo test`. Each
//! takes arbitrary bytes and panics only if an invariant breaks: loading and importing return
//! a project or an error, never panic, and whatever loads evaluates to finite numbers.

use crate::curve::TrackCurve;
use crate::import::{import_bytes, ImportFormat, ImportOptions};
use crate::model::{Interpolation, Key, Project, Track, TrackKind};

/// Every track that compiles evaluates to finite values at its keys, between them and beyond.
fn assert_finite(project: &Project) {
    for track in &project.tracks {
        let Ok(curve) = TrackCurve::new(track) else { continue };
        let (t0, t1) = curve.domain();
        let mut ev = curve.evaluator();
        let mut times: Vec<f64> = curve.times().iter().copied().take(64).collect();
        times.extend([t0 - 1.0, t1 + 1.0, 0.5 * (t0 + t1)]);
        for t in times.into_iter().filter(|t| t.is_finite()) {
            let v = ev.value_at(t);
            assert!(v.iter().all(|x| x.is_finite()), "track {:?} at {t}: {v:?}", track.name);
        }
    }
}

/// A project file: parsed, validated, then evaluated.
pub fn load_ron(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(p) = crate::io::parse_project(&text, "fuzz") {
        assert_finite(&p);
    }
}

/// The format the first byte of an `import` input picks: 0xF0–0xF7 BVH, 0xF8–0xFF FBX, any
/// other byte glTF, GLB, three.js JSON or CSV by its value mod 4 (as before BVH and FBX, so
/// the corpus found then still reads each file as the format it was found for).
#[must_use]
pub fn import_format(first: u8) -> ImportFormat {
    match first {
        0xF0..=0xF7 => ImportFormat::Bvh,
        0xF8..=0xFF => ImportFormat::Fbx,
        _ => [ImportFormat::Gltf, ImportFormat::Glb, ImportFormat::ThreeJson, ImportFormat::Csv][usize::from(first % 4)],
    }
}

/// An import: the first byte picks the format ([`import_format`]), the rest is the file.
pub fn import(data: &[u8]) {
    let Some((&first, bytes)) = data.split_first() else { return };
    let format = import_format(first);
    if let Ok(imported) = import_bytes(bytes, format, "fuzz", None, &ImportOptions::default()) {
        assert_finite(&imported.project);
    }
}

/// A track built from raw numbers: byte 0 the kind, byte 1 the mode (of those the kind
/// supports, from the table of modes), byte 2 the key count, then 8-byte floats for key times
/// and values (non-finite ones skipped); the remaining floats are query times. `None` when
/// there are fewer than three bytes. (`tests/fuzz_replay.rs` counts the tracks that compile.)
#[must_use]
pub fn decode_track(data: &[u8]) -> Option<(Track, Vec<f64>)> {
    if data.len() < 3 {
        return None;
    }
    let kind = TrackKind::ALL[usize::from(data[0]) % TrackKind::ALL.len()];
    let modes: Vec<Interpolation> = Interpolation::ALL.into_iter().filter(|m| m.supports(kind)).collect();
    let mode = modes[usize::from(data[1]) % modes.len()];
    let n = usize::from(data[2] % 8) + 1;
    let mut floats = data[3..].chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))).filter(|x| x.is_finite());
    let mut keys = Vec::new();
    let mut t = 0.0f64;
    for _ in 0..n {
        let Some(dt) = floats.next() else { break };
        t += dt.abs();
        let value: Vec<f64> = (0..kind.dim()).map_while(|_| floats.next()).collect();
        if value.len() < kind.dim() || !t.is_finite() {
            break;
        }
        keys.push(Key::new(t, value));
    }
    Some((Track::new("f", kind, mode).with_keys(keys), floats.collect()))
}

/// [`decode_track`]'s track compiled (if it is valid) and evaluated at the query times: every
/// value finite.
pub fn evaluate(data: &[u8]) {
    let Some((track, queries)) = decode_track(data) else { return };
    let Ok(curve) = TrackCurve::new(&track) else { return };
    let mut ev = curve.evaluator();
    for q in queries {
        let v = ev.value_at(q);
        assert!(v.iter().all(|x| x.is_finite()), "{track:?} at {q}: {v:?}");
    }
}
