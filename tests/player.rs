//! The clip player (`tangent::player`, issue 33) against each track's own `TrackCurve::sample`:
//! every frame it writes is, bit for bit, every track's `sample` at the clock's time, for every
//! interpolation mode, in sequential, random and looping playback with time scale, warp and
//! halt. The clock's time is checked against a second `Mixer` driven through the same calls,
//! and the values against curves compiled apart from the player's.

use proptest::prelude::*;
use tangent::clock::{ActionId, LoopMode, Mixer};
use tangent::model::EulerOrder;
use tangent::model::{Easing, KeyInterpolation};
use tangent::player::{Clip, ClipPlayer, PlayerError};
use tangent::{HandleType, Infinity, Interpolation, Key, SegmentCursor, TangentMode, Track, TrackCurve, TrackKind};

/// Park–Miller numbers in `[0, 1)`.
fn rng(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed.max(1);
    move || {
        s = s * 16807 % 2_147_483_647;
        s as f64 / 2_147_483_647.0
    }
}

/// `n` keys from `start`, steps 0.02–0.1 s, every ninth step 0 (two keys at one time), values
/// of `kind` (quaternions with a sign flip now and then, so that hemispheres change).
fn keys(seed: u64, kind: TrackKind, n: usize, start: f64) -> Vec<Key> {
    let mut r = rng(seed);
    let mut t = start;
    (0..n)
        .map(|i| {
            if i > 0 && i % 9 != 0 {
                t += 0.02 + 0.08 * r();
            }
            let mut v: Vec<f64> = (0..kind.dim()).map(|_| 4.0 * r() - 2.0).collect();
            if kind == TrackKind::Quat {
                v[3] += 1.5;
                if i % 7 == 3 {
                    v.iter_mut().for_each(|x| *x = -*x);
                }
            }
            Key::new(t, v)
        })
        .collect()
}

/// [`keys`] as three.js stores them: every time and value rounded to float32; without
/// `jumps`, no two keys at one time (steps 0.03–0.07 s), so that TCB tracks in Seed mode are
/// kept as float32 keys by the player too.
fn keys32(seed: u64, kind: TrackKind, n: usize, start: f64, jumps: bool) -> Vec<Key> {
    let mut keys = keys(seed, kind, n, start);
    let mut r = rng(seed + 5);
    for (i, k) in keys.iter_mut().enumerate() {
        if !jumps {
            k.time = start + 0.05 * i as f64 + 0.02 * r();
        }
        k.time = f64::from(k.time as f32);
        k.value.iter_mut().for_each(|v| *v = f64::from(*v as f32));
    }
    keys
}

fn track(name: &str, kind: TrackKind, mode: Interpolation, keys: Vec<Key>) -> Track {
    Track::new(name, kind, mode).with_keys(keys)
}

/// TCB tangents in the time-adjusted mode.
trait Adjusted {
    fn adjusted(self) -> Self;
}

impl Adjusted for Track {
    fn adjusted(mut self) -> Self {
        self.tangents = TangentMode::TimeAdjusted;
        self
    }
}

/// Tracks of every mode: Step, Linear, Cubic, TCB in both tangent modes with and without ease
/// and of 1 to 4 components, Bezier with every handle type and eased, Constant and Linear
/// segments (Vec3 and Quat), Slerp (arcs, the same rotation twice, rotations close enough for
/// the lerp), Nlerp, Squad, Euler tracks; infinities of every kind; lengths from 3 to 200 keys
/// (with and without a bucket index), one interval far shorter than the others (no grid of
/// the player's), ending at different times.
fn every_mode() -> Vec<Track> {
    use Interpolation::*;
    use TrackKind::*;
    let mut tracks = vec![
        track("step", Scalar, Step, keys(1, Scalar, 40, 0.0)),
        track("linear", Vec2, Linear, keys(2, Vec2, 30, 0.3)),
        track("cubic", Vec3, Cubic, keys(3, Vec3, 25, -0.2)),
        track("tcb scalar", Scalar, Tcb, keys(4, Scalar, 20, 0.0)),
        track("tcb vec2", Vec2, Tcb, keys(5, Vec2, 3, 0.5)),
        track("tcb vec4", Vec4, Tcb, keys(6, Vec4, 33, 0.1)).adjusted(),
        track("tcb long", Vec3, Tcb, keys(7, Vec3, 200, 0.0)),
        track("slerp long", Quat, Slerp, keys(8, Quat, 200, 0.0)),
        track("slerp", Quat, Slerp, keys(9, Quat, 50, 0.2)),
        track("nlerp", Quat, Nlerp, keys(10, Quat, 40, 0.0)),
        track("squad", Quat, Squad, keys(11, Quat, 40, 0.1)),
        track("bezier quat", Quat, Bezier, keys(12, Quat, 30, 0.0)),
        track("euler", Euler, Linear, keys(13, Euler, 45, 0.0)),
        track("euler tcb", Euler, Tcb, keys(14, Euler, 45, 0.05)),
    ];
    // TCB with parameters, in both tangent modes, one with ease.
    for (name, mode, ease) in [("tcb seed", TangentMode::Seed, false), ("tcb adjusted eased", TangentMode::TimeAdjusted, true)] {
        let mut r = rng(name.len() as u64 * 31);
        let ks = keys(15 + u64::from(ease), Vec3, 60, 0.0)
            .into_iter()
            .map(|k| {
                let k = k.with_tcb(r() - 0.5, r() - 0.5, r() - 0.5);
                if ease {
                    k.with_ease(r() * 0.6, r() * 0.6)
                } else {
                    k
                }
            })
            .collect();
        let mut t = track(name, Vec3, Tcb, ks);
        t.tangents = mode;
        tracks.push(t);
    }
    // Bezier: every handle type, and segments Constant, Linear and eased by every equation.
    let segment = [
        KeyInterpolation::Bezier,
        KeyInterpolation::Constant,
        KeyInterpolation::Linear,
        KeyInterpolation::Back,
        KeyInterpolation::Bounce,
        KeyInterpolation::Circ,
        KeyInterpolation::Cubic,
        KeyInterpolation::Elastic,
        KeyInterpolation::Expo,
        KeyInterpolation::Quad,
        KeyInterpolation::Quart,
        KeyInterpolation::Quint,
        KeyInterpolation::Sine,
    ];
    let types = [HandleType::Auto, HandleType::AutoClamped, HandleType::Vector, HandleType::Free, HandleType::Aligned];
    let easings = [Easing::Auto, Easing::In, Easing::Out, Easing::InOut];
    for (name, kind) in [("bezier", Vec3), ("euler bezier", Euler)] {
        let ks = keys(20 + kind.dim() as u64, kind, 52, 0.0)
            .into_iter()
            .enumerate()
            .map(|(i, mut k)| {
                let ty = types[i % types.len()];
                let free = matches!(ty, HandleType::Free | HandleType::Aligned);
                let side = |s: f64| if free { vec![(s * 0.01, 0.3 * s); kind.dim()] } else { Vec::new() };
                k = k.with_handles((ty, ty), side(-1.0), side(1.0));
                k.interpolation = segment[i % segment.len()];
                k.easing = easings[i / segment.len() % easings.len()];
                k
            })
            .collect();
        tracks.push(track(name, kind, Bezier, ks));
    }
    // Slerp's other forms: the same rotation twice, and rotations close enough for the lerp.
    let q = [0.1, -0.3, 0.2, 0.9];
    let near = |i: usize, t: f64| Key::new(t, vec![q[0] + 1e-4 * i as f64, q[1], q[2], q[3]]);
    let ks = (0..12).map(|i| if i % 3 == 0 { Key::new(0.1 * i as f64, q.to_vec()) } else { near(i % 2, 0.1 * i as f64) }).collect();
    tracks.push(track("slerp flat", Quat, Slerp, ks));
    // One interval far shorter than the others (the player then finds segments by the track's
    // index, not a grid of its own).
    for (name, kind, mode) in [("tcb uneven", Vec3, Tcb), ("slerp uneven", Quat, Slerp)] {
        let mut ks = keys(30 + kind.dim() as u64, kind, 80, 0.0);
        ks[40].time = ks[39].time + 1e-7;
        tracks.push(track(name, kind, mode, ks));
    }
    // A Slerp interval so short that `1/Δt` overflows (`sample` then divides by `Δt`, and the
    // player must leave it to `sample`): keys at 0 and 1e-310, sampled inside it below.
    let mut ks = keys(40, Quat, 20, 0.0);
    ks[1].time = 1e-310;
    tracks.push(track("slerp subnormal", Quat, Slerp, ks));
    // Infinities.
    let ends = [
        (Infinity::Cycle, Infinity::PingPong),
        (Infinity::Linear, Infinity::CycleOffset),
        (Infinity::PingPong, Infinity::Linear),
        (Infinity::CycleOffset, Infinity::Cycle),
    ];
    for (i, t) in tracks.iter_mut().enumerate() {
        let (pre, post) = ends[i % ends.len()];
        let ok = |m: Infinity| m.supports(t.kind) && !(m == Infinity::Linear && matches!(t.interpolation, Step));
        t.pre_infinity = if ok(pre) { pre } else { Infinity::Cycle };
        t.post_infinity = if ok(post) { post } else { Infinity::PingPong };
        if t.kind == Euler {
            t.order = EulerOrder::ZYX;
        }
    }
    tracks
}

/// What the player is checked against: a second clock driven through the same calls, and
/// the tracks compiled apart.
struct Reference {
    mixer: Mixer,
    action: ActionId,
    start: f64,
    curves: Vec<TrackCurve>,
    cursors: Vec<SegmentCursor>,
    offsets: Vec<usize>,
    frames: usize,
    values: usize,
}

impl Reference {
    fn new(tracks: &[Track], clip: &Clip) -> Self {
        let curves: Vec<TrackCurve> = tracks.iter().map(|t| TrackCurve::new(t).unwrap()).collect();
        let mut mixer = Mixer::new();
        let action = mixer.add_action(clip.duration()).unwrap();
        mixer.play(action);
        let cursors = vec![SegmentCursor::new(); curves.len()];
        Self { mixer, action, start: clip.start(), curves, cursors, offsets: clip.offsets().to_vec(), frames: 0, values: 0 }
    }

    /// The frame `got` written at track time `t` is every track's `sample` there, bit for bit.
    fn check_frame(&mut self, t: f64, got: &[f64], what: &str) {
        for (i, curve) in self.curves.iter().enumerate() {
            let mut want = vec![0.0; curve.dim()];
            curve.sample(&mut self.cursors[i], t, &mut want);
            let have = &got[self.offsets[i]..self.offsets[i + 1]];
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(have), bits(&want), "{what}: track {i} ({:?}) at t = {t}: {have:?} ≠ {want:?}", curve.interpolation());
            self.values += want.len();
        }
        self.frames += 1;
    }

    /// The player's time is the reference clock's, bit for bit; then the frame.
    fn check(&mut self, player_t: f64, got: &[f64], what: &str) {
        let t = self.start + self.mixer.action(self.action).sample_time();
        assert_eq!(player_t.to_bits(), t.to_bits(), "{what}: the player's time {player_t} is not the clock's {t}");
        self.check_frame(t, got, what);
    }

    fn advance(&mut self, player: &mut ClipPlayer, dt: f64, frame: &mut [f64], what: &str) {
        let t = player.advance(dt, frame).unwrap();
        self.mixer.update(dt);
        self.check(t, frame, what);
    }

    fn seek(&mut self, player: &mut ClipPlayer, clip_time: f64, frame: &mut [f64], what: &str) {
        let t = player.seek(clip_time, frame).unwrap();
        self.mixer.action_mut(self.action).time = clip_time;
        self.mixer.update(0.0);
        self.check(t, frame, what);
    }
}

/// Sequential playback at 60 fps through time scale changes, a warp that runs backwards, a
/// hold at time scale 0, a halt, and the loop modes, with the clock's events; then random
/// seeks (across the clip, outside it, at every key), seeks and frames mixed, and `sample` at
/// any time. Counts every frame and value checked.
#[test]
fn every_mode_is_sample_bit_for_bit() {
    every_mode_played_by(|clip| ClipPlayer::new(clip));
}

/// The same where the player evaluates as on a processor without AVX2 (the four-lane
/// evaluation of three-component tracks is otherwise the only one tested on this machine).
#[test]
fn every_mode_is_sample_bit_for_bit_without_avx2() {
    every_mode_played_by(|clip| ClipPlayer::portable(clip));
}

fn every_mode_played_by(make: impl for<'c> Fn(&'c Clip) -> ClipPlayer<'c>) {
    let tracks = every_mode();
    let clip = Clip::from_tracks(&tracks).unwrap();
    let (mut player, mut reference) = (make(&clip), Reference::new(&tracks, &clip));
    let mut frame = vec![0.0; clip.len()];
    let dt = 1.0 / 60.0;
    let id = player.action_id();
    assert_eq!(id, reference.action);
    // Sequential, looping (Repeat), with time scale, warp (through 0 into reverse) and halt.
    let mut loops = 0;
    for f in 0..4000 {
        match f {
            500 => both(&mut player, &mut reference, |m, a| m.set_effective_time_scale(a, 6.0)),
            1000 => both(&mut player, &mut reference, |m, a| m.warp(a, 6.0, -4.0, 3.0)),
            1600 => both(&mut player, &mut reference, |m, a| m.set_effective_time_scale(a, 0.0)),
            1700 => both(&mut player, &mut reference, |m, a| m.set_effective_time_scale(a, 0.7)),
            2000 => both(&mut player, &mut reference, |m, a| m.action_mut(a).loop_mode = LoopMode::PingPong),
            2001 => both(&mut player, &mut reference, |m, a| m.set_effective_time_scale(a, 8.0)),
            2800 => both(&mut player, &mut reference, |m, a| m.halt(a, 2.0)),
            3000 => both(&mut player, &mut reference, |m, a| {
                m.action_mut(a).paused = false;
                m.set_effective_time_scale(a, -1.2);
            }),
            3500 => both(&mut player, &mut reference, |m, a| {
                m.action_mut(a).loop_mode = LoopMode::Once;
                m.action_mut(a).clamp_when_finished = true;
                m.set_effective_time_scale(a, 1.9);
            }),
            _ => {}
        }
        reference.advance(&mut player, dt, &mut frame, "sequential");
        loops += player.events().len();
    }
    assert_eq!(loops, 21, "the clock's loop and finish events");
    assert!(player.action().paused, "Once ended, clamped");
    // Random seeks: across the clip and beyond both ends, at every key, and at the ends.
    both(&mut player, &mut reference, |m, a| {
        m.action_mut(a).loop_mode = LoopMode::Repeat;
        m.action_mut(a).paused = false;
        m.set_effective_time_scale(a, 1.0);
    });
    let d = clip.duration();
    let mut r = rng(99);
    for _ in 0..3000 {
        reference.seek(&mut player, (2.0 * r() - 0.5) * d, &mut frame, "random");
    }
    let key_times: Vec<f64> = tracks.iter().flat_map(|t| t.keys.iter().map(|k| k.time - clip.start())).collect();
    for &kt in &key_times {
        reference.seek(&mut player, kt, &mut frame, "at a key");
    }
    for ct in [0.0, d, -0.0, d.next_down(), 1e-300] {
        reference.seek(&mut player, ct, &mut frame, "at an end");
    }
    // Seeks and frames mixed, in PingPong, playing forwards and backwards.
    both(&mut player, &mut reference, |m, a| m.action_mut(a).loop_mode = LoopMode::PingPong);
    for i in 0..500 {
        reference.seek(&mut player, r() * d, &mut frame, "mixed seek");
        both(&mut player, &mut reference, |m, a| m.set_effective_time_scale(a, if i % 2 == 0 { 1.0 } else { -0.5 }));
        for _ in 0..4 {
            reference.advance(&mut player, dt, &mut frame, "mixed frame");
        }
    }
    // `sample` at any track time, the clock left alone.
    let mut times: Vec<f64> = (0..2000).map(|_| clip.start() + (3.0 * r() - 1.0) * d).collect();
    times.extend(tracks.iter().flat_map(|t| t.keys.iter().map(|k| k.time)));
    times.extend([f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e300, -1e300, 0.0, 5e-324, 1e-311, 9.9e-311]);
    for &t in &times {
        player.sample(t, &mut frame).unwrap();
        reference.check_frame(t, &frame, "sample");
    }
    let frames = 4000 + 3000 + key_times.len() + 5 + 500 * 5 + times.len();
    assert_eq!(key_times.len(), 1217);
    assert_eq!((reference.frames, reference.values), (frames, frames * clip.len()));
    assert_eq!((frames, clip.len()), (13_948, 69));
}

/// The same call on the player's clock and the reference's.
fn both(player: &mut ClipPlayer, reference: &mut Reference, f: impl Fn(&mut Mixer, ActionId)) {
    let id = player.action_id();
    f(player.mixer_mut(), id);
    f(&mut reference.mixer, reference.action);
}

/// A clip whose range is given (clip time 0 at track time −1.5, 4 s long), played at a high
/// time scale for many loops, ping-ponging, and by two players at once.
#[test]
fn a_given_range_loops_bit_for_bit() {
    let tracks = every_mode();
    let curves = tracks.iter().map(|t| TrackCurve::new(t).unwrap()).collect();
    let clip = Clip::from_curves_in(curves, -1.5, 4.0).unwrap();
    let (mut a, mut b) = (clip.player(), ClipPlayer::new(&clip));
    let (mut ra, mut rb) = (Reference::new(&tracks, &clip), Reference::new(&tracks, &clip));
    both(&mut b, &mut rb, |m, id| m.action_mut(id).loop_mode = LoopMode::PingPong);
    both(&mut a, &mut ra, |m, id| m.set_effective_time_scale(id, 7.3));
    both(&mut b, &mut rb, |m, id| m.warp(id, 1.0, 9.0, 5.0));
    let mut frame = vec![0.0; clip.len()];
    for _ in 0..1500 {
        ra.advance(&mut a, 1.0 / 30.0, &mut frame, "given range");
        rb.advance(&mut b, 1.0 / 30.0, &mut frame, "given range, ping-pong");
    }
    assert_eq!((ra.frames + rb.frames, ra.values + rb.values), (3000, 3000 * 69));
}

/// More Slerp tracks than the player weighs at once (64), among polynomial tracks of one to
/// three components, played sequentially and by seeks, with and without AVX2: bit for bit
/// `sample`.
#[test]
fn many_tracks_are_sample_bit_for_bit() {
    many_tracks_played_by(|clip| ClipPlayer::new(clip));
    many_tracks_played_by(|clip| ClipPlayer::portable(clip));
}

fn many_tracks_played_by(make: impl for<'c> Fn(&'c Clip) -> ClipPlayer<'c>) {
    let mut tracks = Vec::new();
    for i in 0..200u64 {
        let (kind, mode) = match i % 5 {
            0 => (TrackKind::Scalar, Interpolation::Tcb),
            1 => (TrackKind::Vec2, Interpolation::Cubic),
            2 => (TrackKind::Vec3, Interpolation::Tcb),
            _ => (TrackKind::Quat, Interpolation::Slerp),
        };
        tracks.push(track(&format!("t{i}"), kind, mode, keys(100 + i, kind, 30 + (i as usize % 40), -0.1 * (i % 7) as f64)));
    }
    let clip = Clip::from_tracks(&tracks).unwrap();
    let (mut player, mut reference) = (make(&clip), Reference::new(&tracks, &clip));
    let mut frame = vec![0.0; clip.len()];
    let mut r = rng(77);
    for k in 0..1500 {
        if k % 50 == 49 {
            reference.seek(&mut player, r() * clip.duration(), &mut frame, "many tracks, seek");
        } else {
            reference.advance(&mut player, 1.0 / 60.0, &mut frame, "many tracks");
        }
    }
    assert_eq!(reference.frames, 1500);
}

/// Nothing panics or leaves NaN: bad clips, ranges, buffers and times are refused with what
/// is wrong.
#[test]
fn bad_input_is_refused() {
    assert_eq!(Clip::from_tracks([]).unwrap_err(), PlayerError::NoTracks);
    let one = track("one", TrackKind::Scalar, Interpolation::Linear, vec![Key::new(2.0, vec![1.0])]);
    assert_eq!(Clip::from_tracks([&one]).unwrap_err(), PlayerError::NoDuration(2.0));
    let curve = || vec![TrackCurve::new(&one).unwrap()];
    for (start, duration) in [(0.0, 0.0), (0.0, -1.0), (f64::NAN, 1.0), (0.0, f64::INFINITY), (f64::MAX, f64::MAX)] {
        let err = Clip::from_curves_in(curve(), start, duration).unwrap_err();
        assert!(matches!(err, PlayerError::BadRange { start: s, duration: d } if s.to_bits() == start.to_bits() && d == duration), "{err}");
    }
    let bad = track("bad", TrackKind::Scalar, Interpolation::Linear, vec![Key::new(1.0, vec![0.0]), Key::new(0.0, vec![1.0])]);
    let err = Clip::from_tracks([&one, &bad]).unwrap_err();
    assert!(err.to_string().contains("\"bad\""), "{err}");
    let clip = Clip::from_curves_in(curve(), 0.0, 1.0).unwrap();
    let mut player = clip.player();
    assert_eq!(player.advance(0.1, &mut [0.0; 2]).unwrap_err(), PlayerError::BufferLength { expected: 1, got: 2 });
    assert!(matches!(player.advance(f64::NAN, &mut [0.0]), Err(PlayerError::NotFinite { what: "dt", .. })));
    assert!(matches!(player.seek(f64::INFINITY, &mut [0.0]), Err(PlayerError::NotFinite { what: "clip time", .. })));
    let mut frame = [f64::NAN];
    player.sample(f64::NAN, &mut frame).unwrap();
    assert_eq!(frame, [1.0]);
}

/// The layout: tracks in the order given, each track's components together.
#[test]
fn the_layout_is_track_by_track() {
    let tracks = [
        track("v", TrackKind::Vec3, Interpolation::Linear, vec![Key::new(0.0, vec![1.0, 2.0, 3.0]), Key::new(1.0, vec![1.0, 2.0, 3.0])]),
        track("q", TrackKind::Quat, Interpolation::Slerp, vec![Key::new(0.0, vec![0.0, 0.0, 0.0, 2.0]), Key::new(1.0, vec![0.0, 0.0, 0.0, 1.0])]),
        track("s", TrackKind::Scalar, Interpolation::Step, vec![Key::new(0.0, vec![7.0]), Key::new(0.5, vec![8.0])]),
    ];
    let clip = Clip::from_tracks(&tracks).unwrap();
    assert_eq!((clip.offsets(), clip.len()), (&[0, 3, 7, 8][..], 8));
    let mut frame = [0.0; 8];
    clip.player().seek(0.75, &mut frame).unwrap();
    assert_eq!(frame, [1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0, 8.0]);
}

/// Float32 keys (as three.js and glTF store them), which the player keeps as keys rather than
/// segments unless asked (`Clip::with_segment_records`): TCB tracks of 1 to 3 components in Seed mode without tangent parameters (their
/// first and last segments by the track's `segment_value`) and Slerp tracks (with flipped
/// hemispheres, a rotation held, keys at one time), among tracks that are not kept so (TCB
/// with two keys at one time, time-adjusted, too short; every other mode rounded to float32); sequential playback forwards, faster, backwards, seeks anywhere and
/// at every key, `sample` anywhere; with AVX-512, with AVX2 alone and without either: bit for bit `sample`.
#[test]
fn float32_keys_are_sample_bit_for_bit() {
    use Interpolation::*;
    use TrackKind::*;
    let mut jump = keys32(21, Vec3, 200, 0.1, false);
    jump[100].time = jump[99].time;
    let mut held = keys32(22, Quat, 120, 0.0, false);
    held[11].value = held[10].value.clone();
    let mut tracks = vec![
        track("tcb vec3", Vec3, Tcb, keys32(11, Vec3, 300, 0.0, false)),
        track("tcb scalar", Scalar, Tcb, keys32(12, Scalar, 80, -0.3, false)),
        track("tcb vec2", Vec2, Tcb, keys32(13, Vec2, 60, 0.4, false)),
        track("tcb jump", Vec3, Tcb, jump),
        track("tcb four keys", Vec3, Tcb, keys32(14, Vec3, 4, 0.2, false)),
        track("tcb adjusted", Vec3, Tcb, keys32(15, Vec3, 90, 0.0, false)).adjusted(),
        track("slerp", Quat, Slerp, keys32(16, Quat, 300, 0.0, false)),
        track("slerp held", Quat, Slerp, held),
        track("slerp jumps", Quat, Slerp, keys32(17, Quat, 100, 0.5, true)),
    ];
    for t in every_mode() {
        let keys =
            t.keys.iter().map(|k| Key { time: f64::from(k.time as f32), value: k.value.iter().map(|&v| f64::from(v as f32)).collect(), ..k.clone() }).collect();
        tracks.push(Track { keys, ..t });
    }
    assert_eq!(Clip::from_tracks(&tracks).unwrap().with_segment_records().footprint().packed, 0, "records asked for, none kept as keys");
    let clip = Clip::from_tracks(&tracks).unwrap();
    let footprint = clip.footprint();
    // At least the first three TCB tracks above (16 bytes a key) and the three Slerp tracks (52).
    assert!(footprint.packed >= 16 * (300 + 80 + 60) + 52 * (300 + 120 + 100), "{footprint:?}");
    // Those six alone: every one kept as keys, none left to records (a track whose numbers
    // computed from its keys differ from the compiled ones would be).
    let kept: Vec<Track> = [0, 1, 2, 6, 7, 8].iter().map(|&i| tracks[i].clone()).collect();
    let alone = Clip::from_tracks(&kept).unwrap().footprint();
    assert_eq!((alone.records, alone.grid, alone.keys), (0, 0, 300 + 80 + 60 + 300 + 120 + 100), "{alone:?}");
    for make in [ClipPlayer::new, ClipPlayer::without_avx512, ClipPlayer::portable] {
        let (mut player, mut reference) = (make(&clip), Reference::new(&tracks, &clip));
        let mut frame = vec![0.0; clip.len()];
        for (f, scale) in [(0, 1.0), (700, 3.0), (900, -0.6), (1300, 0.25)] {
            both(&mut player, &mut reference, |m, a| m.set_effective_time_scale(a, scale));
            for _ in f..f + 300 {
                reference.advance(&mut player, 1.0 / 60.0, &mut frame, "float32 sequential");
            }
        }
        let d = clip.duration();
        let mut r = rng(5);
        for _ in 0..2000 {
            reference.seek(&mut player, (1.4 * r() - 0.2) * d, &mut frame, "float32 seek");
        }
        for kt in tracks.iter().flat_map(|t| t.keys.iter().map(|k| k.time)).collect::<Vec<_>>() {
            reference.seek(&mut player, kt - clip.start(), &mut frame, "float32 at a key");
            reference.advance(&mut player, 1.0 / 60.0, &mut frame, "float32 after a key");
        }
        for t in [f64::NAN, f64::INFINITY, -1e300, clip.start(), clip.start() + d] {
            player.sample(t, &mut frame).unwrap();
            reference.check_frame(t, &frame, "float32 sample");
        }
    }
}

/// Many float32 tracks of one kind, as the player evaluates four TCB lanes (and pairs of Slerp
/// lanes) together: eleven Vec3 TCB tracks, five Vec2 and seven Slerp tracks starting and
/// ending at different times and of different key spacings, so that in a frame some lanes of
/// a group take their fast path and others their first or last segment, pass two keys, or
/// lie outside their keys (held there, or, for the few whose ends extrapolate or repeat, not);
/// sequential playback at three speeds and seeks, with AVX-512, AVX2 alone and neither: bit for bit `sample`.
#[test]
fn float32_lane_groups_are_sample_bit_for_bit() {
    use Interpolation::*;
    use TrackKind::*;
    let spaced = |seed: u64, kind: TrackKind, n: usize, start: f64, scale: f64| {
        let mut k = keys32(seed, kind, n, 0.0, false);
        k.iter_mut().for_each(|k| k.time = f64::from((start + scale * k.time) as f32));
        k
    };
    let mut tracks = Vec::new();
    for i in 0..11u64 {
        tracks.push(track(&format!("vec3 {i}"), Vec3, Tcb, spaced(40 + i, Vec3, 20 + 13 * i as usize, 0.3 * i as f64, 0.6 + 0.1 * i as f64)));
    }
    for i in 0..5u64 {
        tracks.push(track(&format!("vec2 {i}"), Vec2, Tcb, spaced(60 + i, Vec2, 30 + 7 * i as usize, -0.2 * i as f64, 0.5 + 0.2 * i as f64)));
    }
    for i in 0..7u64 {
        tracks.push(track(&format!("slerp {i}"), Quat, Slerp, spaced(80 + i, Quat, 25 + 11 * i as usize, 0.25 * i as f64, 0.7 + 0.15 * i as f64)));
    }
    // Ends that are not held: a frame beyond them is no copy of an end key.
    for (i, pre, post) in [(3, Infinity::Constant, Infinity::Linear), (5, Infinity::CycleOffset, Infinity::Cycle), (7, Infinity::Linear, Infinity::PingPong)] {
        (tracks[i].pre_infinity, tracks[i].post_infinity) = (pre, post);
    }
    (tracks[18].pre_infinity, tracks[18].post_infinity) = (Infinity::Cycle, Infinity::Cycle);
    let clip = Clip::from_tracks(&tracks).unwrap();
    // Every one of them kept as keys: nothing in records.
    let footprint = clip.footprint();
    assert_eq!((footprint.records, footprint.keys), (0, tracks.iter().map(|t| t.keys.len()).sum::<usize>()), "{footprint:?}");
    for make in [ClipPlayer::new, ClipPlayer::without_avx512, ClipPlayer::portable] {
        let (mut player, mut reference) = (make(&clip), Reference::new(&tracks, &clip));
        let mut frame = vec![0.0; clip.len()];
        for (f, scale) in [(0, 1.0), (600, 2.7), (900, -0.8)] {
            both(&mut player, &mut reference, |m, a| m.set_effective_time_scale(a, scale));
            for _ in f..f + 600 {
                reference.advance(&mut player, 1.0 / 60.0, &mut frame, "lane groups sequential");
            }
        }
        let mut r = rng(9);
        for _ in 0..1500 {
            reference.seek(&mut player, (1.2 * r() - 0.1) * clip.duration(), &mut frame, "lane groups seek");
        }
        assert_eq!(reference.frames, 3 * 600 + 1500);
        reference.frames = 0;
    }
}

/// A mode and kind for the property test.
fn mode() -> impl Strategy<Value = (TrackKind, Interpolation)> {
    use Interpolation::*;
    use TrackKind::*;
    prop::sample::select(vec![
        (Scalar, Step),
        (Vec2, Linear),
        (Vec3, Cubic),
        (Vec3, Tcb),
        (Scalar, Tcb),
        (Euler, Bezier),
        (Vec4, Bezier),
        (Quat, Slerp),
        (Quat, Nlerp),
        (Quat, Squad),
        (Quat, Bezier),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random clips of 1 to 8 tracks (keys at one time, short and long tracks), played by
    /// random steps (forwards, backwards, zero, large) and seeks: bit for bit `sample`.
    #[test]
    fn random_clips_and_steps_are_sample(
        modes in prop::collection::vec((mode(), 2usize..80, 0u64..1000, -1.0f64..1.0), 1..8),
        ops in prop::collection::vec((any::<bool>(), -0.3f64..0.5), 1..200),
        loop_mode in prop::sample::select(vec![LoopMode::Repeat, LoopMode::PingPong, LoopMode::Once]),
    ) {
        let tracks: Vec<Track> = modes.iter().enumerate().map(|(i, &((kind, mode), n, seed, start))| {
            let mut t = track(&format!("t{i}"), kind, mode, keys(seed + 1, kind, n, start));
            t.post_infinity = if kind == TrackKind::Quat { Infinity::Cycle } else { Infinity::CycleOffset };
            t
        }).collect();
        let Ok(clip) = Clip::from_tracks(&tracks) else { return Ok(()) };
        let (mut player, mut reference) = (clip.player(), Reference::new(&tracks, &clip));
        both(&mut player, &mut reference, |m, a| m.action_mut(a).loop_mode = loop_mode);
        let mut frame = vec![0.0; clip.len()];
        for &(seek, x) in &ops {
            if seek {
                reference.seek(&mut player, x * 3.0 * clip.duration(), &mut frame, "property seek");
            } else {
                reference.advance(&mut player, x, &mut frame, "property frame");
            }
        }
        prop_assert_eq!(reference.frames, ops.len());
    }

    /// Random clips of float32 keys (with and without keys at one time), played by random
    /// steps and seeks: bit for bit `sample`.
    #[test]
    fn random_float32_clips_are_sample(
        modes in prop::collection::vec((mode(), 2usize..80, 0u64..1000, -1.0f64..1.0, any::<bool>()), 1..8),
        ops in prop::collection::vec((any::<bool>(), -0.3f64..0.5), 1..200),
    ) {
        let tracks: Vec<Track> = modes.iter().enumerate().map(|(i, &((kind, mode), n, seed, start, jumps))| {
            track(&format!("t{i}"), kind, mode, keys32(seed + 1, kind, n, start, jumps))
        }).collect();
        let Ok(keys) = Clip::from_tracks(&tracks) else { return Ok(()) };
        // The default (float32 keys kept as keys) and a record per segment.
        for clip in [keys, Clip::from_tracks(&tracks).unwrap().with_segment_records()] {
            let (mut player, mut reference) = (clip.player(), Reference::new(&tracks, &clip));
            let mut frame = vec![0.0; clip.len()];
            for &(seek, x) in &ops {
                if seek {
                    reference.seek(&mut player, x * 3.0 * clip.duration(), &mut frame, "float32 property seek");
                } else {
                    reference.advance(&mut player, x, &mut frame, "float32 property frame");
                }
            }
            prop_assert_eq!(reference.frames, ops.len());
        }
    }
}
