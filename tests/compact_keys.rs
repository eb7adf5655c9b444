//! Keys held as columns ([`tangent::Keys`]) against the same keys held as full keys: random
//! edits of random tracks — splicing plain keys, a key with tension (which turns the track into
//! full keys), changing a value in place, removing keys, compacting back — give the same keys,
//! the same validation and the same curves, bit for bit, in both forms. The full form is the
//! reference: it is what every track was before columns.

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use tangent::{Document, Edit, Interpolation, Key, Keys, Project, Track, TrackCurve, TrackKind};

#[derive(Clone, Debug)]
enum Op {
    /// Replace keys `at..at + remove` with keys at these times (value from the seed); with
    /// tension when `tense`.
    Splice { at: usize, remove: usize, times: Vec<f64>, seed: f64, tense: bool },
    /// Change component 0 of key `at` in place.
    SetValue { at: usize, v: f64 },
    /// Back to columns where the keys allow it.
    Compact,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0usize..40, 0usize..3, prop::collection::vec(-1.0f64..12.0, 0..3), -5.0f64..5.0, prop::bool::weighted(0.2))
            .prop_map(|(at, remove, times, seed, tense)| Op::Splice { at, remove, times, seed, tense }),
        (0usize..40, -5.0f64..5.0).prop_map(|(at, v)| Op::SetValue { at, v }),
        Just(Op::Compact),
    ]
}

fn value(kind: TrackKind, seed: f64) -> Vec<f64> {
    match kind {
        TrackKind::Quat => {
            let (s, c) = (seed * 0.3).sin_cos();
            vec![s * 0.6, 0.0, s * 0.8, c]
        }
        k => (0..k.dim()).map(|c| seed + c as f64 * 0.5).collect(),
    }
}

/// Applies `op` to both forms; the keys read the same after.
fn apply(kind: TrackKind, compact: &mut Keys, full: &mut Vec<Key>, op: &Op) {
    match op {
        Op::Splice { at, remove, times, seed, tense } => {
            let at = (*at).min(full.len());
            let remove = (*remove).min(full.len() - at);
            let mut sorted = times.clone();
            sorted.sort_by(f64::total_cmp);
            let keys: Vec<Key> =
                sorted.iter().map(|&t| Key::new(t, value(kind, seed + t))).map(|k| if *tense { k.with_tcb(0.5, 0.0, 0.0) } else { k }).collect();
            let a = compact.splice(at..at + remove, keys.clone());
            let b: Vec<Key> = full.splice(at..at + remove, keys).collect();
            assert_eq!(a, b, "the keys replaced");
        }
        Op::SetValue { at, v } => {
            if let (Some(a), Some(b)) = (compact.get_mut(*at), full.get_mut(*at)) {
                a.value[0] = *v;
                b.value[0] = *v;
            }
        }
        Op::Compact => compact.compact(),
    }
}

fn samples(curve: &TrackCurve, t0: f64, t1: f64) -> Vec<u64> {
    let mut ev = curve.evaluator();
    (0..=64).flat_map(|i| ev.value_at(t0 - 1.0 + (t1 - t0 + 2.0) * f64::from(i) / 64.0)).map(f64::to_bits).collect()
}

static CASES: AtomicUsize = AtomicUsize::new(0);
static COMPACT_SEEN: AtomicUsize = AtomicUsize::new(0);
static FULL_SEEN: AtomicUsize = AtomicUsize::new(0);

const MODES: [(TrackKind, Interpolation); 8] = [
    (TrackKind::Scalar, Interpolation::Step),
    (TrackKind::Vec3, Interpolation::Linear),
    (TrackKind::Vec2, Interpolation::Cubic),
    (TrackKind::Scalar, Interpolation::Tcb),
    (TrackKind::Vec3, Interpolation::Bezier),
    (TrackKind::Euler, Interpolation::Linear),
    (TrackKind::Quat, Interpolation::Slerp),
    (TrackKind::Quat, Interpolation::Squad),
];

fn one_case(mode: usize, n: usize, ops: &[Op]) {
    let (kind, interpolation) = MODES[mode];
    let start: Vec<Key> = (0..n).map(|i| Key::new(i as f64 * 0.25, value(kind, i as f64))).collect();
    let mut compact = Keys::from(start.clone());
    assert!(compact.columns().is_some(), "plain keys are held as columns");
    let mut full = start;
    for op in ops {
        apply(kind, &mut compact, &mut full, op);
        assert_eq!(compact, full, "after {op:?}");
        let a = Track::new("t", kind, interpolation).with_other_keys(compact.clone());
        let b = Track::new("t", kind, interpolation).with_other_keys(Keys::full(full.clone()));
        if a.keys.columns().is_some() {
            COMPACT_SEEN.fetch_add(1, Ordering::Relaxed);
        } else {
            FULL_SEEN.fetch_add(1, Ordering::Relaxed);
        }
        match (TrackCurve::new(&a), TrackCurve::new(&b)) {
            (Ok(ca), Ok(cb)) => {
                let (t0, t1) = b.time_range().unwrap();
                assert_eq!(samples(&ca, t0, t1), samples(&cb, t0, t1), "{kind:?} {interpolation:?} after {op:?}");
            }
            (Err(ea), Err(eb)) => assert_eq!(ea.to_string(), eb.to_string()),
            (a, b) => panic!("one form compiles, the other not: {:?} / {:?}", a.err(), b.err()),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    #[test]
    fn edits_of_compact_tracks_give_the_full_forms_keys_and_curves(mode in 0usize..MODES.len(), n in 2usize..40, ops in prop::collection::vec(op(), 1..12)) {
        one_case(mode, n, &ops);
        CASES.fetch_add(1, Ordering::Relaxed);
    }
}

/// The property ran its cases, and they met both forms (run after it: the test names sort).
#[test]
fn zz_the_property_ran_its_cases_in_both_forms() {
    // Tests run in parallel: run the property here too, so this does not depend on the order.
    edits_of_compact_tracks_give_the_full_forms_keys_and_curves();
    let cases = CASES.load(Ordering::Relaxed);
    assert!(cases >= 400, "{cases} cases");
    let (c, f) = (COMPACT_SEEN.load(Ordering::Relaxed), FULL_SEEN.load(Ordering::Relaxed));
    assert!(c > 500 && f > 100, "states checked: {c} as columns, {f} as full keys");
}

/// An edit through the document (a splice of one plain key into a take-like track, and its
/// undo) keeps the track as columns, and the curve the document recompiles in place is a
/// fresh compile's, bit for bit.
#[test]
fn a_document_edit_of_a_compact_track_keeps_it_compact_and_its_curve_exact() {
    let keys: Vec<Key> = (0..3000).map(|i| Key::new(f64::from(i) / 120.0, vec![(f64::from(i) * 0.01).sin(), 1.0, f64::from(i % 7)])).collect();
    let track = Track::new("hips", TrackKind::Vec3, Interpolation::Linear).with_keys(keys);
    let before = TrackCurve::new(&track).unwrap();
    let mut doc = Document::new(Project { tracks: vec![track], ..Project::default() });
    let moved = Key::new(1000.0 / 120.0, vec![9.0, 9.0, 9.0]);
    doc.apply("Move", Edit::SpliceKeys { track: 0, at: 1000, remove: 1, keys: vec![moved] }).unwrap();
    let t = &doc.project().tracks[0];
    assert!(t.keys.columns().is_some() && !t.keys.is_read_whole(), "still columns");
    let fresh = TrackCurve::new(t).unwrap();
    let spliced = before.respliced(t, 1000, 1).unwrap();
    let near = |c: &TrackCurve| {
        let mut ev = c.evaluator();
        (990..1010).flat_map(|i| ev.value_at((f64::from(i) + 0.3) / 120.0)).map(f64::to_bits).collect::<Vec<_>>()
    };
    assert_eq!(near(&spliced), near(&fresh), "around the key moved");
    assert_eq!(samples(&spliced, 0.0, 25.0), samples(&fresh, 0.0, 25.0));
    assert!(!doc.project().tracks[0].keys.is_read_whole(), "the splice read only the keys it needs");
    doc.undo().unwrap();
    assert!(doc.project().tracks[0].keys.columns().is_some(), "columns after the undo");
}

/// A drag of every key of a take-like project (what Ctrl+A then a drag does): the drag's
/// origins share the tracks' columns instead of copying them as full keys, each frame's move
/// is the full form's, and the tracks are columns again after it.
#[test]
fn a_drag_of_every_key_shares_the_columns_and_moves_as_the_full_form() {
    use tangent::edit::intent::{move_keys, move_origins, KeyRef};
    let make = |full: bool| {
        let tracks = (0..3)
            .map(|j| {
                let keys: Vec<Key> = (0..500).map(|i| Key::new(f64::from(i) / 120.0, vec![f64::from(i * j), 1.0, 2.0])).collect();
                let keys = if full { Keys::full(keys) } else { Keys::from(keys) };
                Track::new(format!("j{j}"), TrackKind::Vec3, Interpolation::Linear).with_other_keys(keys)
            })
            .collect();
        Project { tracks, ..Project::default() }
    };
    let (compact, full) = (make(false), make(true));
    let selection: std::collections::BTreeSet<KeyRef> = (0..3).flat_map(|track| (100..400).map(move |key| KeyRef { track, key })).collect();
    let (oc, of) = (move_origins(&compact, &selection), move_origins(&full, &selection));
    assert!(oc.iter().all(|o| o.keys.columns().is_some_and(|c| std::sync::Arc::ptr_eq(&c.values, &compact.tracks[o.track].keys.columns().unwrap().values))));
    assert!(compact.tracks.iter().all(|t| !t.keys.is_read_whole()), "the origins read no track whole");
    let mut doc = Document::new(compact);
    let mut reference = Document::new(full);
    doc.begin_gesture("Move keys");
    reference.begin_gesture("Move keys");
    for frame in 1..=5 {
        let dt = f64::from(frame) * 0.013;
        for (a, b) in move_keys(&oc, dt, 0.5, 1, None).into_iter().zip(move_keys(&of, dt, 0.5, 1, None)) {
            assert_eq!(a, b, "frame {frame}");
            doc.apply("Move keys", a.edit).unwrap();
            reference.apply("Move keys", b.edit).unwrap();
        }
    }
    doc.end_gesture();
    reference.end_gesture();
    for (a, b) in doc.project().tracks.iter().zip(&reference.project().tracks) {
        assert_eq!(a.keys, b.keys);
        assert!(a.keys.columns().is_some(), "{} is columns after the drag", a.name);
    }
}

/// A key given tension through the document turns its track into full keys; setting the
/// tension back (a splice of the plain key) brings it back to columns, and undo and redo
/// follow.
#[test]
fn a_track_goes_back_to_columns_when_its_last_key_with_per_key_data_does() {
    let keys: Vec<Key> = (0..100).map(|i| Key::new(f64::from(i), vec![f64::from(i)])).collect();
    let plain = keys[40].clone();
    let mut doc = Document::new(Project { tracks: vec![Track::new("t", TrackKind::Scalar, Interpolation::Tcb).with_keys(keys)], ..Project::default() });
    let is_columns = |d: &Document| d.project().tracks[0].keys.columns().is_some();
    assert!(is_columns(&doc));
    doc.apply("Tension", Edit::SpliceKeys { track: 0, at: 40, remove: 1, keys: vec![plain.clone().with_tcb(0.5, 0.0, 0.0)] }).unwrap();
    assert!(!is_columns(&doc), "a key with tension: full keys");
    doc.apply("No tension", Edit::SpliceKeys { track: 0, at: 40, remove: 1, keys: vec![plain] }).unwrap();
    assert!(is_columns(&doc), "plain again: columns");
    doc.undo().unwrap();
    assert!(!is_columns(&doc) && doc.project().tracks[0].keys[40].tension == 0.5);
    doc.undo().unwrap();
    assert!(is_columns(&doc), "undone to the start: columns");
}

/// The undo history keeps columns only: a track read whole (as a tool that reads `Vec<Key>`
/// does) and then replaced leaves its inverse without the full keys the read made.
#[test]
fn the_undo_history_keeps_no_keys_read_whole() {
    let keys: Vec<Key> = (0..100).map(|i| Key::new(f64::from(i), vec![f64::from(i), 0.0, 1.0])).collect();
    let mut doc =
        Document::new(Project { tracks: vec![Track::new("t", TrackKind::Vec3, Interpolation::Linear).with_keys(keys.clone())], ..Project::default() });
    assert_eq!(doc.project().tracks[0].keys.iter().count(), 100, "read whole");
    assert!(doc.project().tracks[0].keys.is_read_whole());
    let moved: Vec<Key> = keys.iter().map(|k| Key::new(k.time + 1.0, k.value.clone())).collect();
    doc.apply("Shift", Edit::SetKeys { track: 0, keys: moved.into() }).unwrap();
    doc.undo().unwrap();
    let t = &doc.project().tracks[0];
    assert!(t.keys.columns().is_some() && !t.keys.is_read_whole(), "the undone keys come back as columns only");
}
