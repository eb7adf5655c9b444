//! Invariants that must hold for any input, checked with proptest.

use proptest::prelude::*;
use tangent::arclen::ArcLengthTable;
use tangent::clock::{LoopMode, Mixer};
use tangent::quat;
use tangent::search::{upper_bound, Located, SegmentCursor};
use tangent::{Document, Edit, HandleType, Infinity, Interpolation, Key, PathCurve, Project, TangentMode, Track, TrackCurve, TrackKind};

/// A valid track of any kind and compatible mode, with jumps (repeated times) allowed.
fn track_strategy() -> impl Strategy<Value = Track> {
    tracks_of(TrackKind::ALL.to_vec())
}

/// [`track_strategy`] with a kind from `kinds` (so a property of paths does not reject the
/// other kinds' tracks, which proptest counts against it).
fn tracks_of(kinds: Vec<TrackKind>) -> impl Strategy<Value = Track> {
    (prop::sample::select(kinds), 1usize..12, any::<u64>()).prop_flat_map(|(kind, n, seed)| {
        let modes: Vec<Interpolation> = Interpolation::ALL.into_iter().filter(|m| m.supports(kind)).collect();
        let key = (
            0.0f64..3.0,
            prop::bool::weighted(0.1),
            prop::collection::vec(-100.0f64..100.0, kind.dim()),
            (-1.0f64..=1.0, -1.0f64..=1.0, -1.0f64..=1.0),
            (prop::option::weighted(0.3, 0.0f64..=1.0), prop::option::weighted(0.3, 0.0f64..=1.0)),
        );
        (
            prop::sample::select(modes),
            prop::collection::vec(key, n),
            prop::bool::ANY,
            prop::sample::select(Infinity::ALL.to_vec()),
            prop::sample::select(Infinity::ALL.to_vec()),
        )
            .prop_map(move |(mode, raw, adjusted, pre, post)| {
                let mut t = -1.0;
                let keys = raw
                    .into_iter()
                    .map(|(gap, jump, mut value, (tt, c, b), (et, ef))| {
                        t += if jump { 0.0 } else { 0.01 + gap };
                        if kind == TrackKind::Quat && value.iter().all(|v| v.abs() < 1e-3) {
                            value[3] = 1.0;
                        }
                        Key::new(t, value).with_tcb(tt, c, b).with_ease(et.unwrap_or(0.0), ef.unwrap_or(0.0))
                    })
                    .collect();
                let mut track = Track::new("p", kind, mode).with_keys(keys);
                track.tangents = if adjusted { TangentMode::TimeAdjusted } else { TangentMode::Seed };
                track.pre_infinity = if pre.supports(kind) { pre } else { Infinity::Cycle };
                track.post_infinity = if post.supports(kind) { post } else { Infinity::PingPong };
                if mode == Interpolation::Bezier {
                    add_handles(&mut track, seed);
                }
                track
            })
    })
}

/// Random handle types and handles on every key: zero-length, vertical (dt = 0), short, and
/// longer than their segment (overlapping), with values far off the curve.
fn add_handles(track: &mut Track, seed: u64) {
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let dim = track.kind.dim();
    let automatic_only = next() < 0.5;
    for key in &mut track.keys {
        let pick = |x: f64| if automatic_only { HandleType::ALL[2 + ((x * 3.0) as usize).min(2)] } else { HandleType::ALL[((x * 5.0) as usize).min(4)] };
        key.handles = (pick(next()), pick(next()));
        let mut handle = |sign: f64| {
            let dt = match (next() * 4.0) as usize {
                0 => 0.0,
                1 => 0.05,
                2 => 0.4,
                _ => 5.0,
            };
            let dv = if next() < 0.2 { 0.0 } else { next() * 200.0 - 100.0 };
            (sign * dt, dv)
        };
        key.left = (0..dim).map(|_| handle(-1.0)).collect();
        key.right = (0..dim).map(|_| handle(1.0)).collect();
    }
}

/// Whether the curve's speed is finite everywhere. Bezier keys with Free or Aligned sides can
/// have vertical handles (no extent in time) or handles reaching across their segment, where
/// the slope is infinite: arc length and adaptive baking promise their bounds only for
/// finite speed (`src/bezier.rs`). Automatic handles always lie strictly inside their segment.
fn finite_speed(track: &Track) -> bool {
    track.interpolation != Interpolation::Bezier || track.keys.iter().all(|k| k.handles.0.is_automatic() && k.handles.1.is_automatic())
}

/// A Bézier handle's extent in time on a 3-long segment: zero (vertical or zero-length), a
/// third, beyond the segment (corrected to reach the other key), tiny, or anywhere.
fn bezier_handle_time() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(1.0), 3.0f64..9.0, 0.0f64..0.01, 0.0f64..3.0, 0.0f64..3.0]
}

fn sample(curve: &TrackCurve, cursor: &mut SegmentCursor, t: f64) -> Vec<f64> {
    let mut out = vec![0.0; curve.dim()];
    curve.sample(cursor, t, &mut out);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn curve_passes_through_its_keys(track in track_strategy()) {
        let curve = TrackCurve::new(&track).unwrap();
        let mut c = SegmentCursor::new();
        for (i, key) in track.keys.iter().enumerate() {
            // At a jump only the last key of the group is output.
            if track.keys.get(i + 1).is_some_and(|k| k.time == key.time) {
                continue;
            }
            let got = sample(&curve, &mut c, key.time);
            // Against the input key (not the curve's own copy of it). A quaternion key is any
            // length and either sign: the curve passes through the rotation it stands for, the
            // normalised key or its negation (Squad aligns signs).
            let close = |want: &[f64]| got.len() == want.len() && got.iter().zip(want).all(|(g, w)| (g - w).abs() <= 1e-9 * (1.0 + w.abs()));
            let ok = match track.kind {
                TrackKind::Quat => {
                    let q = quat::normalize(&[key.value[0], key.value[1], key.value[2], key.value[3]]);
                    close(&q) || close(&q.map(|x| -x))
                }
                _ => close(&key.value),
            };
            prop_assert!(ok, "key {i}: {got:?} vs {:?}", key.value);
        }
    }

    #[test]
    fn sequential_reversed_and_random_order_agree_bit_for_bit(track in track_strategy(), shuffle in any::<u64>()) {
        let curve = TrackCurve::new(&track).unwrap();
        let (t0, t1) = curve.domain();
        let span = (t1 - t0).max(1.0);
        let times: Vec<f64> = (0..=300).map(|i| t0 - 0.5 * span + 2.0 * span * f64::from(i) / 300.0).chain(track.keys.iter().map(|k| k.time)).collect();
        let fresh: Vec<Vec<f64>> = times.iter().map(|&t| sample(&curve, &mut SegmentCursor::new(), t)).collect();
        let mut c = SegmentCursor::new();
        for (t, want) in times.iter().zip(&fresh) {
            prop_assert_eq!(&sample(&curve, &mut c, *t), want);
        }
        for (t, want) in times.iter().zip(&fresh).rev() {
            prop_assert_eq!(&sample(&curve, &mut c, *t), want);
        }
        let mut order: Vec<usize> = (0..times.len()).collect();
        let mut s = shuffle | 1;
        for i in (1..order.len()).rev() {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            order.swap(i, (s % (i as u64 + 1)) as usize);
        }
        for i in order {
            prop_assert_eq!(&sample(&curve, &mut c, times[i]), &fresh[i]);
        }
    }

    /// The batch API gives `sample`'s bits, on sorted runs (crossing both ends and every key)
    /// and on shuffled ones.
    #[test]
    fn sample_many_agrees_with_sample_bit_for_bit(track in track_strategy(), shuffle in any::<u64>()) {
        let curve = TrackCurve::new(&track).unwrap();
        let (t0, t1) = curve.domain();
        let span = (t1 - t0).max(1.0);
        let mut times: Vec<f64> = (0..=300).map(|i| t0 - 0.5 * span + 2.0 * span * f64::from(i) / 300.0).chain(track.keys.iter().map(|k| k.time)).collect();
        times.sort_by(f64::total_cmp);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for round in 0..2 {
            if round == 1 {
                let mut s = shuffle | 1;
                for i in (1..times.len()).rev() {
                    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
                    times.swap(i, (s % (i as u64 + 1)) as usize);
                }
            }
            let dim = curve.dim();
            let mut many = vec![0.0; times.len() * dim];
            curve.sample_many(&times, &mut many);
            for (i, &t) in times.iter().enumerate() {
                prop_assert_eq!(bits(&many[i * dim..(i + 1) * dim]), bits(&sample(&curve, &mut SegmentCursor::new(), t)), "t = {}", t);
            }
        }
    }

    #[test]
    fn no_nan_and_unit_quaternions(track in track_strategy(), ts in prop::collection::vec(-10.0f64..10.0, 50)) {
        let curve = TrackCurve::new(&track).unwrap();
        let mut ev = curve.evaluator();
        for t in ts.into_iter().chain([f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e300]) {
            let v = ev.value_at(t);
            prop_assert!(v.iter().all(|x| x.is_finite()), "t={t}: {v:?}");
            if track.kind == TrackKind::Quat {
                let n = v.iter().map(|x| x * x).sum::<f64>();
                prop_assert!((n - 1.0).abs() <= 1e-12, "t={t}: |q|² = {n}");
            }
        }
    }

    #[test]
    fn velocity_is_the_derivative_of_position(track in track_strategy(), frac in 0.02f64..0.98) {
        prop_assume!(track.kind != TrackKind::Quat && track.interpolation.has_derivative());
        let curve = TrackCurve::new(&track).unwrap();
        for seg in 0..curve.segment_count() {
            let (a, b) = (curve.times()[seg], curve.times()[seg + 1]);
            if b - a < 0.05 { continue; }
            let breaks = curve.segment_breaks(seg);
            if breaks.iter().any(|&x| (x - frac).abs() < 1e-3) { continue; }
            let mut v = vec![0.0; curve.dim()];
            curve.segment_velocity(seg, frac, &mut v);
            let h = 1e-6;
            let (mut p, mut q) = (vec![0.0; curve.dim()], vec![0.0; curve.dim()]);
            curve.segment_point(seg, frac - h, &mut p);
            curve.segment_point(seg, frac + h, &mut q);
            for c in 0..curve.dim() {
                let fd = (q[c] - p[c]) / (2.0 * h * (b - a));
                prop_assert!((fd - v[c]).abs() <= 1e-4 * (1.0 + v[c].abs()), "seg {seg} c {c}: {fd} vs {}", v[c]);
            }
        }
    }

    /// The fast solve (`TimeSolver`: guess, Halley steps, residual check) meets its contract
    /// on any handles: zero-length, vertical, at thirds, overlapping (then corrected), nearly
    /// vertical, anywhere. Both it and the safeguarded solver it falls back to leave
    /// |x̂(s) − u| ≤ 4ε, and where x̂′ ≥ m they agree within 4·4ε/m.
    #[test]
    fn fast_bezier_solve_meets_its_contract(r in bezier_handle_time(), l in bezier_handle_time(), dv in prop::array::uniform2(-10.0f64..10.0), us in prop::collection::vec(0.0f64..=1.0, 40)) {
        use tangent::bezier::{SegmentComponent, TimeSolver, RESIDUAL_BOUND};
        let seg = SegmentComponent::new((2.0, 1.0), (r, dv[0]), (-l, dv[1]), (5.0, -2.0));
        let solver = TimeSolver::new(&seg);
        let m = (0..=1000).map(|i| seg.time_derivatives(f64::from(i) / 1000.0).0).fold(f64::INFINITY, f64::min);
        for &u in us.iter().chain(&[0.0, 1.0, 1e-300, 1e-9, 0.5, 1.0 - f64::EPSILON]) {
            let (fast, safe) = (solver.parameter_at(&seg, u), seg.parameter_at(u));
            prop_assert!((0.0..=1.0).contains(&fast), "{:?} u = {u}: s = {fast}", solver.path());
            prop_assert!((seg.time(fast) - u).abs() <= RESIDUAL_BOUND, "{:?} u = {u}: x̂(s) − u = {:e}", solver.path(), seg.time(fast) - u);
            prop_assert!((seg.time(safe) - u).abs() <= RESIDUAL_BOUND, "safe u = {u}: x̂(s) − u = {:e}", seg.time(safe) - u);
            if m >= 1e-3 {
                prop_assert!((fast - safe).abs() <= 4.0 * RESIDUAL_BOUND / m, "{:?} u = {u}: {fast} vs {safe}", solver.path());
            }
        }
    }

    /// Every Bézier segment's time function x̂(s) is non-decreasing and the solve inverts it:
    /// for any handles (zero-length, vertical, overlapping), x̂(s(u)) = u within 1e-14.
    #[test]
    fn bezier_segments_are_monotone_in_time_and_solved(handles in prop::array::uniform4(-3.0f64..3.0), us in prop::collection::vec(0.0f64..=1.0, 40)) {
        use tangent::bezier::SegmentComponent;
        let right = (handles[0].abs(), handles[1] * 10.0);
        let left = (-handles[2].abs(), handles[3] * 10.0);
        let seg = SegmentComponent::new((0.5, 1.0), right, left, (1.7, -2.0));
        let mut last = 0.0;
        for i in 0..=1000 {
            let x = seg.time(f64::from(i) / 1000.0);
            prop_assert!(x >= last - 1e-15, "x̂ decreases at s = {}", f64::from(i) / 1000.0);
            last = x;
        }
        for u in us {
            let s = seg.parameter_at(u);
            prop_assert!((0.0..=1.0).contains(&s));
            prop_assert!((seg.time(s) - u).abs() <= 1e-14, "u = {u}: x̂(s) = {}", seg.time(s));
            prop_assert!(seg.value(s).is_finite());
        }
    }

    #[test]
    fn cursor_equals_binary_search(mut pos in prop::collection::vec(-5.0f64..5.0, 1..40), xs in prop::collection::vec(-6.0f64..6.0, 1..60)) {
        pos.sort_by(f64::total_cmp);
        let mut c = SegmentCursor::new();
        for x in xs {
            prop_assert_eq!(c.locate(&pos, x), Located::from_count(upper_bound(&pos, x), pos.len()));
        }
    }

    #[test]
    fn slerp_unit_and_between(a in prop::array::uniform4(-1.0f64..1.0), b in prop::array::uniform4(-1.0f64..1.0), t in 0.0f64..=1.0) {
        prop_assume!(quat::dot(&a, &a) > 1e-6 && quat::dot(&b, &b) > 1e-6);
        let (a, b) = (quat::normalize(&a), quat::normalize(&b));
        for q in [quat::slerp(&a, &b, t), quat::nlerp(&a, &b, t), quat::slerp_exact(&a, &b, t)] {
            prop_assert!((quat::dot(&q, &q) - 1.0).abs() <= 1e-12);
            let total = quat::angle_between(&a, &b);
            prop_assert!(quat::angle_between(&a, &q) <= total + 1e-9);
        }
    }

    #[test]
    fn arc_length_table_is_monotone_and_bounded(track in tracks_of(vec![TrackKind::Vec2, TrackKind::Vec3]), e in prop::sample::select(vec![1e-2, 1e-4, 1e-6])) {
        prop_assume!(track.interpolation.has_derivative() && finite_speed(&track));
        let curve = TrackCurve::new(&track).unwrap();
        let table = ArcLengthTable::new(PathCurve::new(&curve).unwrap(), e).unwrap();
        let (t0, t1) = curve.domain();
        let mut c = SegmentCursor::new();
        let mut last = 0.0;
        for i in 0..=500 {
            let s = table.s_of_t(&mut c, t0 + (t1 - t0) * f64::from(i) / 500.0);
            prop_assert!(s.is_finite() && s >= last && s <= table.length());
            last = s;
        }
        let mut last_t = t0;
        for i in 0..=500 {
            let s = table.length() * f64::from(i) / 500.0;
            let t = table.t_of_s(&mut c, s);
            prop_assert!(t.is_finite() && t >= last_t && t <= t1);
            // The inverse lands where the table says it does, within the E/16 the inverse may use.
            prop_assert!((table.s_of_t(&mut SegmentCursor::new(), t) - s).abs() <= table.tolerance() / 16.0 + 1e-12 * table.length());
            last_t = t;
        }
    }

    #[test]
    fn repeat_keeps_time_in_range(dts in prop::collection::vec(0.0f64..5.0, 1..60), scale in 0.01f64..4.0) {
        let mut m = Mixer::new();
        let a = m.add_action(1.7).unwrap();
        m.action_mut(a).time_scale = scale;
        m.play(a);
        for dt in dts {
            m.update(dt);
            let t = m.action(a).time;
            prop_assert!((0.0..=1.7).contains(&t), "time {t}");
        }
    }

    #[test]
    fn split_updates_add_up(a in 0.0f64..0.5, b in 0.0f64..0.5, mode in prop::sample::select(vec![LoopMode::Once, LoopMode::Repeat, LoopMode::PingPong]), start in 0.0f64..0.9) {
        // Clip of 2 s, starting at `start`: a + b < 1.1 never reaches a loop boundary.
        let run = |steps: &[f64]| {
            let mut m = Mixer::new();
            let id = m.add_action(2.0).unwrap();
            m.action_mut(id).loop_mode = mode;
            m.play(id);
            m.update(start);
            for &dt in steps { m.update(dt); }
            (m.time, m.action(id).time, m.action(id).sample_time())
        };
        let (m1, t1, s1) = run(&[a, b]);
        let (m2, t2, s2) = run(&[a + b]);
        prop_assert!((m1 - m2).abs() < 1e-12 && (t1 - t2).abs() < 1e-12 && (s1 - s2).abs() < 1e-12);
    }
}

/// One random editing action, as the editor could send it (some are invalid on purpose).
#[derive(Clone, Debug)]
enum Action {
    MoveKey { track: usize, key: usize, dt: f64, dv: f64 },
    SetTcb { track: usize, key: usize, t: f64, b: f64 },
    InsertKey { track: usize, at: f64 },
    DeleteKey { track: usize, key: usize },
    Rename { track: usize, to: u8 },
    ToggleLock { track: usize },
    AddTrack,
    RemoveTrack { track: usize },
    Drag { track: usize, key: usize, steps: u8 },
}

fn action() -> impl Strategy<Value = Action> {
    let i = 0usize..6;
    prop_oneof![
        (i.clone(), i.clone(), -2.0f64..2.0, -5.0f64..5.0).prop_map(|(track, key, dt, dv)| Action::MoveKey { track, key, dt, dv }),
        (i.clone(), i.clone(), -1.5f64..1.5, -1.0f64..1.0).prop_map(|(track, key, t, b)| Action::SetTcb { track, key, t, b }),
        (i.clone(), -1.0f64..6.0).prop_map(|(track, at)| Action::InsertKey { track, at }),
        (i.clone(), i.clone()).prop_map(|(track, key)| Action::DeleteKey { track, key }),
        (i.clone(), 0u8..4).prop_map(|(track, to)| Action::Rename { track, to }),
        i.clone().prop_map(|track| Action::ToggleLock { track }),
        Just(Action::AddTrack),
        i.clone().prop_map(|track| Action::RemoveTrack { track }),
        (i.clone(), i, 1u8..6).prop_map(|(track, key, steps)| Action::Drag { track, key, steps }),
    ]
}

fn sorted(mut keys: Vec<Key>) -> Vec<Key> {
    keys.sort_by(|a, b| a.time.total_cmp(&b.time));
    keys
}

/// Applies an action; returns whether it made an undo step.
fn perform(doc: &mut Document, a: &Action, serial: &mut u32) -> bool {
    let p = doc.project().clone();
    let n = p.tracks.len();
    let track_keys = |t: usize| p.tracks.get(t % n.max(1)).map(|t| t.keys.clone()).unwrap_or_default();
    match *a {
        Action::MoveKey { track, key, dt, dv } if n > 0 => {
            let mut keys = track_keys(track);
            let k = key % keys.len().max(1);
            if let Some(key) = keys.get_mut(k) {
                key.time += dt;
                key.value[0] += dv;
            }
            doc.apply("Move key", Edit::SetKeys { track: track % n, keys: sorted(keys.into_vec()).into() }).is_ok()
        }
        Action::Drag { track, key, steps } if n > 0 => {
            doc.begin_gesture("Drag key");
            let mut changed = false;
            for s in 0..steps {
                let mut keys = track_keys(track);
                let k = key % keys.len().max(1);
                keys[k].value[0] += f64::from(s) * 0.25;
                changed |= doc.apply("Drag key", Edit::SetKeys { track: track % n, keys }).is_ok();
            }
            doc.end_gesture();
            changed
        }
        Action::SetTcb { track, key, t, b } if n > 0 => {
            let mut keys = track_keys(track);
            let k = key % keys.len().max(1);
            keys[k].tension = t;
            keys[k].bias = b;
            doc.apply("Set TCB", Edit::SetKeys { track: track % n, keys }).is_ok()
        }
        Action::InsertKey { track, at } if n > 0 => {
            let mut keys = track_keys(track);
            let dim = keys[0].value.len();
            keys.push(Key::new(at, vec![0.5; dim]));
            doc.apply("Insert key", Edit::SetKeys { track: track % n, keys: sorted(keys.into_vec()).into() }).is_ok()
        }
        Action::DeleteKey { track, key } if n > 0 => {
            let mut keys = track_keys(track);
            let k = key % keys.len();
            keys.remove(k);
            doc.apply("Delete key", Edit::SetKeys { track: track % n, keys }).is_ok()
        }
        Action::Rename { track, to } if n > 0 => {
            let mut t = p.tracks[track % n].clone();
            t.name = format!("t{to}");
            doc.apply("Rename", Edit::SetTrack { index: track % n, track: t }).is_ok()
        }
        Action::ToggleLock { track } if n > 0 => {
            let mut t = p.tracks[track % n].clone();
            t.locked = !t.locked;
            doc.apply("Lock", Edit::SetTrack { index: track % n, track: t }).is_ok()
        }
        Action::AddTrack => {
            *serial += 1;
            let t = Track::new(format!("new{serial}"), TrackKind::Scalar, Interpolation::Tcb).with_keys(vec![Key::new(0.0, vec![1.0])]);
            doc.apply("Add track", Edit::InsertTrack { index: n / 2, track: t }).is_ok()
        }
        Action::RemoveTrack { track } if n > 0 => doc.apply("Remove track", Edit::RemoveTrack { index: track % n }).is_ok(),
        _ => false,
    }
}

fn start_project() -> Project {
    let mk = |name: &str, v: f64| {
        Track::new(name, TrackKind::Scalar, Interpolation::Tcb).with_keys(vec![
            Key::new(0.0, vec![v]),
            Key::new(1.0, vec![v + 1.0]),
            Key::new(2.5, vec![v - 1.0]),
        ])
    };
    Project { tracks: vec![mk("a", 0.0), mk("b", 2.0), mk("c", -1.0)], ..Project::default() }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn n_edits_then_n_undos_restore_the_document_exactly(actions in prop::collection::vec(action(), 1..40)) {
        let mut doc = Document::new(start_project());
        let original = doc.project().clone();
        let mut serial = 0;
        let mut steps = 0;
        for a in &actions {
            if perform(&mut doc, a, &mut serial) {
                steps += 1;
            }
            // Every state the document passes through is valid.
            prop_assert!(tangent::io::validate_project(doc.project()).is_ok());
        }
        let edited = doc.project().clone();
        for _ in 0..steps {
            prop_assert!(doc.undo().is_some());
        }
        prop_assert!(doc.undo().is_none());
        prop_assert_eq!(doc.project(), &original);
        prop_assert!(!doc.is_dirty());
        for _ in 0..steps {
            prop_assert!(doc.redo().is_some());
        }
        prop_assert_eq!(doc.project(), &edited);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Adaptive baking stays within its bound: checked here independently, by playing the
    /// baked keys linearly at 2,000 times and comparing with the curve.
    #[test]
    fn adaptive_bake_stays_within_its_bound(track in track_strategy(), e in prop::sample::select(vec![1e-2, 1e-3, 1e-4])) {
        prop_assume!(finite_speed(&track));
        use tangent::bake::{bake, Motion, Rate};
        prop_assume!(track.kind != TrackKind::Quat && track.interpolation != Interpolation::Step);
        prop_assume!(!track.keys.windows(2).any(|w| w[0].time == w[1].time));
        let curve = TrackCurve::new(&track).unwrap();
        let b = bake(&curve, Rate::adaptive(e).unwrap(), Motion::Raw);
        prop_assert!(b.max_error <= e);
        let (t0, t1) = curve.domain();
        let mut c = SegmentCursor::new();
        for i in 0..=2000 {
            // Clamped: rounding must not step past the last key into the post-infinity.
            let t = (t0 + (t1 - t0) * f64::from(i) / 2000.0).min(t1);
            let truth = sample(&curve, &mut c, t);
            let k = b.times.partition_point(|&x| x <= t).clamp(1, b.times.len().max(2) - 1);
            let (ta, tb) = (b.times[k - 1], b.times.get(k).copied().unwrap_or(ta_or(&b)));
            let w = if tb > ta { (t - ta) / (tb - ta) } else { 0.0 };
            for c in 0..b.dim {
                let a = b.values[(k - 1) * b.dim + c];
                let z = b.values.get(k * b.dim + c).copied().unwrap_or(a);
                let lin = a + (z - a) * w;
                prop_assert!((lin - truth[c]).abs() <= e * 1.05 + 1e-12, "t={t}: {lin} vs {} (E={e})", truth[c]);
            }
        }
    }
}

fn ta_or(b: &tangent::bake::Baked) -> f64 {
    *b.times.last().unwrap()
}
