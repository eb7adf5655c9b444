//! Clips played as an engine plays animation: a [`Clip`] (compiled tracks and the layout of
//! their values) and a [`ClipPlayer`], which advances the playback clock ([`crate::clock`]:
//! time scale, warp, halt, loop modes) once per frame and writes every track's value at that
//! frame's time into one buffer the caller owns. Several players can play one clip.
//!
//! # The output layout
//!
//! A frame is [`Clip::len`] `f64`s: the tracks one after the other, in the order they were
//! given (a project's `tracks`), each track's `dim` components together, no padding. Track
//! `i` is `out[offsets[i]..offsets[i + 1]]` ([`Clip::offsets`], one entry more than there are
//! tracks; the last is the frame's length), and holds exactly what [`TrackCurve::sample`]
//! writes: `[x]`, `[x, y]`, `[x, y, z]`, `[x, y, z, w]` for Scalar to Vec4, a unit quaternion
//! `[x, y, z, w]` for Quat tracks (three.js' order), the three angles in radians for Euler
//! tracks (about X, Y and Z, applied in the track's order). A Vec3, a Quat and a Scalar track
//! give offsets `[0, 3, 7, 8]` and frames `[x, y, z, qx, qy, qz, qw, s]`.
//!
//! # Time
//!
//! A clip spans track times `[start, start + duration]`: by default the tracks' keyed range,
//! from the earliest first key to the latest last key (as the editor's transport plays a
//! project), or the range given to [`Clip::from_curves_in`]. A player's clock is a [`Mixer`]
//! with one [`Action`] for the clip, playing, looping (Repeat) at time scale 1, as three.js'
//! `mixer.clipAction(clip).play()`; [`ClipPlayer::mixer_mut`] and [`ClipPlayer::action_id`]
//! reach all of it, and the common settings have methods here. [`ClipPlayer::advance`] is
//! `mixer.update(dt)` (sequential playback), [`ClipPlayer::seek`] sets the action's time and
//! updates by 0 (scrubbing, as `action.time = t; mixer.update(0)` in three.js), and both write
//! the values at track time `start + action.sample_time()` (ping-pong's backward passes
//! reflected). Each track extends beyond its own keys by its infinity modes, as `sample` does.
//!
//! # Bit for bit `sample`
//!
//! Every value is the track's own [`TrackCurve::sample`] at the frame's time, bit for bit: the
//! player only decides which segment the time is in, by the same rule ([`crate::search`]: a
//! time `t` is inside segment `s` exactly when `times[s] ≤ t < times[s + 1]`, an interval that
//! is then not empty), and evaluates the segment as `sample` does inside the keys: TCB and
//! Cubic tracks without ease of one to three components and Slerp tracks by the operations of
//! their modes on copies of the numbers `sample` reads (`player/compact.rs`, taken through
//! `curve/playback.rs`), every other track by [`TrackCurve::segment_value`]; at or beyond the
//! ends it calls `sample` itself. `tests/player.rs` checks every mode in sequential, random
//! and looping playback.
//!
//! # Speed
//!
//! A [`Clip`] copies what its player reads of its TCB and Cubic tracks without ease (one to
//! three components) and its Slerp tracks into records of its own (`player/compact.rs`): one of
//! 128 bytes (two cache lines) per segment, with the segment's key times and the positions of
//! its track's next two records, the records of all these tracks in **one array ordered by start
//! time**, so that the segments a frame plays lie together (a few pages, one stream ahead of
//! playback) instead of one or two pages per track; and one grid over all of them from time
//! to every track's record (a row of cells per time cell, at most eight cells per key of the
//! longest track; a track whose intervals would make it larger keeps its own index). Several
//! players share them.
//!
//! A player keeps, per track, where its record is, its end, where its value goes and the
//! positions of the track's next two records in a lane of 32 bytes, the rest of a track's
//! state apart (`player/lanes.rs`), the tracks of one form and dimension together. A frame
//! of sequential playback asks the processor for the record after the one it will take (the
//! next, or the next's next if the time passed the record's end: known from the lane, before
//! the record is read), takes the track's record or the next (chosen without a branch; the one
//! after that by a branch rarely taken), reads it and keeps what it says about the next two;
//! TCB and Cubic segments are evaluated in the loop (three components side by side in one
//! 256-bit register where the processor has AVX2), Slerp tracks' arcs weighed together (one lane
//! per track, four to a register, after each chunk of 64 tracks: a record holds the largest
//! local time it is weighed at, so one compare admits it) and mixed. A group of tracks writes
//! into the frame cut once to the part its values take, with no check per track. What bounds
//! a frame is how many instructions, loads and branches each track costs (docs/measured.md):
//! a record's start is read once for the test and the evaluation. A seek reads the grid's
//! row (one row for every track), then every track's record (asked for first, so that the
//! cache misses of different tracks overlap), then evaluates. Whichever way a record was found,
//! it is used only if `t0 ≤ t < t1`, else the track's own `sample`. Every other track is played
//! through its curve (`player/frame.rs`). Nothing allocates after the player is made.
//!
//! The TCB (Seed, no tangent parameters) and Slerp tracks whose key times (TCB: and values)
//! are float32, as three.js and glTF store them, a clip keeps as their keys instead
//! (`player/packed.rs`: 16 and 52 bytes a key, under twice what three.js' mixer reads, issue
//! 46): a frame computes a segment's numbers from its keys (checked bit for bit against the
//! compiled ones when the clip is made), four TCB tracks together, and seeks find segments
//! by rows of key counts (`player/packed_lanes.rs`). [`Clip::with_segment_records`] keeps
//! records for those too (five times the bytes, less work a frame; docs/measured.md).
//! docs/measured.md has the figures against three.js' `AnimationMixer` and what bounds them.

mod compact;
mod frame;
mod lanes;
mod packed;
mod packed_cursor;
mod packed_lanes;
mod packed_poly;

use crate::clock::{Action, ActionId, LoopMode, Mixer, MixerEvent};
use crate::error::TrackError;
use crate::model::{Project, Track};
use crate::TrackCurve;
use compact::Plan;
use frame::Tracks;
use packed::Packed;
use thiserror::Error;

/// Why a clip cannot be made, or a frame not played.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum PlayerError {
    /// A track does not compile (the message names it).
    #[error("{0}")]
    Track(TrackError),
    #[error("a clip needs at least one track")]
    NoTracks,
    #[error("every key of the clip's tracks is at time {0}, so the clip has no duration: give its range")]
    NoDuration(f64),
    #[error("a clip's range must start at a finite time and last a positive, finite time; got start {start}, duration {duration}")]
    BadRange { start: f64, duration: f64 },
    #[error("{what} must be a finite number; got {value}")]
    NotFinite { what: &'static str, value: f64 },
    #[error("the output buffer holds {got} values; a frame of this clip is {expected}")]
    BufferLength { expected: usize, got: usize },
}

impl From<TrackError> for PlayerError {
    fn from(e: TrackError) -> Self {
        Self::Track(e)
    }
}

/// Compiled tracks played together, and where each track's value goes in a frame (see the
/// module docs). Made once; played by any number of [`ClipPlayer`]s.
#[derive(Clone, Debug)]
pub struct Clip {
    curves: Vec<TrackCurve>,
    /// What the player reads of the tracks it evaluates itself ([`compact`]).
    plan: Plan,
    /// The tracks kept as float32 keys ([`packed`]), which the plan leaves out.
    packed: Packed,
    offsets: Vec<usize>,
    start: f64,
    duration: f64,
}

impl Clip {
    /// Compiles every track of `project` ([`TrackCurve::new`]), in the project's order, over
    /// their keyed range.
    pub fn from_project(project: &Project) -> Result<Self, PlayerError> {
        Self::from_tracks(&project.tracks)
    }

    /// Compiles `tracks`, in the order given, over their keyed range.
    pub fn from_tracks<'a>(tracks: impl IntoIterator<Item = &'a Track>) -> Result<Self, PlayerError> {
        let curves = tracks.into_iter().map(TrackCurve::new).collect::<Result<Vec<_>, _>>()?;
        Self::from_curves(curves)
    }

    /// Compiled tracks over their keyed range: from the earliest first key to the latest last
    /// key. Refused when there are no tracks, or when every key is at one time (then give the
    /// range: [`Self::from_curves_in`]).
    pub fn from_curves(curves: Vec<TrackCurve>) -> Result<Self, PlayerError> {
        let (t0, t1) = curves.iter().map(TrackCurve::domain).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (c, d)| (a.min(c), b.max(d)));
        if curves.is_empty() {
            return Err(PlayerError::NoTracks);
        }
        if t1 <= t0 {
            return Err(PlayerError::NoDuration(t0));
        }
        Self::from_curves_in(curves, t0, t1 - t0)
    }

    /// Compiled tracks with clip time 0 at track time `start`, one pass lasting `duration`
    /// (finite and positive, `start + duration` finite).
    pub fn from_curves_in(curves: Vec<TrackCurve>, start: f64, duration: f64) -> Result<Self, PlayerError> {
        if curves.is_empty() {
            return Err(PlayerError::NoTracks);
        }
        if !(start.is_finite() && duration.is_finite() && duration > 0.0 && (start + duration).is_finite()) {
            return Err(PlayerError::BadRange { start, duration });
        }
        let mut offsets = Vec::with_capacity(curves.len() + 1);
        offsets.push(0);
        for c in &curves {
            offsets.push(offsets[offsets.len() - 1] + c.dim());
        }
        let packed = Packed::new(&curves);
        let plan = Plan::new(&curves, &packed.taken(curves.len()));
        Ok(Self { curves, plan, packed, offsets, start, duration })
    }

    /// This clip with every track the player evaluates itself kept as a record per segment
    /// (128 bytes a segment, and a grid for seeks), also the TCB and Slerp tracks whose keys
    /// are float32 numbers, which a clip otherwise keeps as their keys ([`packed`]: 16 bytes a
    /// key of a TCB track, 52 of a Slerp track). A frame then computes no segment's numbers,
    /// and reads about five times the bytes (docs/measured.md, issue 46). The values are the
    /// same, bit for bit.
    #[must_use]
    pub fn with_segment_records(mut self) -> Self {
        self.packed = Packed::default();
        self.plan = Plan::new(&self.curves, &[]);
        self
    }

    /// Values in one frame (the output buffer's length).
    #[must_use]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.offsets[self.offsets.len() - 1]
    }

    /// Where each track's value starts in a frame, and the frame's length last: track `i` is
    /// `out[offsets[i]..offsets[i + 1]]`.
    #[must_use]
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// The compiled tracks, in the order of the frame.
    #[must_use]
    pub fn curves(&self) -> &[TrackCurve] {
        &self.curves
    }

    /// The track time of clip time 0.
    #[must_use]
    pub fn start(&self) -> f64 {
        self.start
    }

    /// One pass of the clip, in clip time.
    #[must_use]
    pub fn duration(&self) -> f64 {
        self.duration
    }

    /// How many bytes the player reads for the tracks it evaluates itself, and how many keys
    /// they have (see [`Footprint`]).
    #[must_use]
    pub fn footprint(&self) -> Footprint {
        let (packed, packed_keys) = self.packed.bytes_and_keys();
        let (records, grid, record_keys) = self.plan.bytes_and_keys();
        Footprint { keys: packed_keys + record_keys, packed, records, grid }
    }

    /// A player of this clip at clip time 0, playing, looping, at time scale 1.
    #[must_use]
    pub fn player(&self) -> ClipPlayer<'_> {
        ClipPlayer::new(self)
    }
}

/// What the player reads of a clip's tracks that it evaluates itself ([`Clip::footprint`]):
/// their keys; the bytes of the tracks kept as float32 keys (keys, and per Slerp segment its
/// arc's `θ` and `1/sin θ`); the bytes of the per-segment records of the others (128 per
/// segment) and of their grid (seeks). Tracks played through their curves are not counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    pub keys: usize,
    pub packed: usize,
    pub records: usize,
    pub grid: usize,
}

impl Footprint {
    /// All the bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.packed + self.records + self.grid
    }
}

/// Plays a [`Clip`] on the playback clock into a caller-owned buffer (see the module docs for
/// the layout and the timing).
///
/// ```
/// use tangent::{io::demo_project, player::Clip};
///
/// let clip = Clip::from_project(&demo_project()).unwrap();
/// let mut player = clip.player();
/// let mut frame = vec![0.0; clip.len()];
/// player.set_time_scale(0.5);
/// for _ in 0..120 {
///     let t = player.advance(1.0 / 60.0, &mut frame).unwrap(); // one frame, every track
///     assert!(t >= clip.start() && frame.iter().all(|v| v.is_finite()));
/// }
/// let at = player.seek(0.25, &mut frame).unwrap(); // scrub to clip time 0.25
/// assert_eq!(at, clip.start() + 0.25);
/// ```
#[derive(Clone, Debug)]
pub struct ClipPlayer<'c> {
    clip: &'c Clip,
    /// Every track's hot state ([`frame`]).
    tracks: Tracks<'c>,
    mixer: Mixer,
    action: ActionId,
    /// The last frame's track time.
    time: f64,
    /// The clock's events of the last frame.
    events: Vec<MixerEvent>,
}

impl<'c> ClipPlayer<'c> {
    /// A player of `clip` at clip time 0, playing, looping, at time scale 1.
    #[must_use]
    pub fn new(clip: &'c Clip) -> Self {
        let mut mixer = Mixer::new();
        // `Clip` made sure that the duration is positive and finite, which is all the clock asks.
        let action = mixer.add_action(clip.duration).expect("a clip's duration is positive and finite");
        mixer.play(action);
        let tracks = Tracks::new(&clip.curves, &clip.plan, &clip.packed, &clip.offsets);
        Self { clip, tracks, mixer, action, time: clip.start, events: Vec::new() }
    }

    /// [`ClipPlayer::new`] that evaluates as on a processor without 256-bit registers (AVX2)
    /// even where there are some: the same values bit for bit, more slowly; for comparing the
    /// two evaluations on one machine.
    #[must_use]
    pub fn portable(clip: &'c Clip) -> Self {
        let mut player = Self::new(clip);
        player.tracks.use_narrow_registers();
        player
    }

    /// A player that evaluates as where the processor has AVX2 but no AVX-512 (the Slerp
    /// weights four to a register instead of eight), so that both wide evaluations are tested
    /// on a machine with AVX-512. The same values, bit for bit.
    #[must_use]
    pub fn without_avx512(clip: &'c Clip) -> Self {
        let mut player = Self::new(clip);
        player.tracks.use_256_bit_registers();
        player
    }

    /// The clip played.
    #[must_use]
    pub fn clip(&self) -> &'c Clip {
        self.clip
    }

    /// The track time of the last frame written (the clip's start before the first).
    #[must_use]
    pub fn time(&self) -> f64 {
        self.time
    }

    /// What the clock reported during the last frame (loops, finishing), oldest first.
    #[must_use]
    pub fn events(&self) -> &[MixerEvent] {
        &self.events
    }

    /// The clock.
    #[must_use]
    pub fn mixer(&self) -> &Mixer {
        &self.mixer
    }

    /// The clock, for what the methods below do not cover (start times, sync, stop/reset);
    /// the clip's action is [`Self::action_id`].
    pub fn mixer_mut(&mut self) -> &mut Mixer {
        &mut self.mixer
    }

    /// The clip's action in [`Self::mixer`].
    #[must_use]
    pub fn action_id(&self) -> ActionId {
        self.action
    }

    /// The clip's action: time, time scale, loop mode, whether it is warping or paused.
    #[must_use]
    pub fn action(&self) -> &Action {
        self.mixer.action(self.action)
    }

    /// Sets the clip's time scale now (negative plays backwards, 0 holds) and cancels a warp.
    pub fn set_time_scale(&mut self, time_scale: f64) {
        self.mixer.set_effective_time_scale(self.action, time_scale);
    }

    /// Sets the loop mode (Once, Repeat, PingPong).
    pub fn set_loop(&mut self, mode: LoopMode) {
        self.mixer.action_mut(self.action).loop_mode = mode;
    }

    /// Ramps the time scale from `start` to `end` over `duration` seconds of mixer time.
    pub fn warp(&mut self, start: f64, end: f64, duration: f64) {
        self.mixer.warp(self.action, start, end, duration);
    }

    /// Slows to a stop over `duration` seconds.
    pub fn halt(&mut self, duration: f64) {
        self.mixer.halt(self.action, duration);
    }

    /// One frame of sequential playback: advances the clock by `dt` seconds
    /// (`mixer.update(dt)`) and writes every track's value at the clip's new time into `out`.
    /// Returns that time, in track time.
    pub fn advance(&mut self, dt: f64, out: &mut [f64]) -> Result<f64, PlayerError> {
        self.check(out)?;
        finite("dt", dt)?;
        self.mixer.update(dt);
        let t = self.clock_time();
        self.tracks.play_on(t, out);
        Ok(t)
    }

    /// Scrubbing: moves the clip to clip time `clip_time` (`action.time = clip_time`, then
    /// `mixer.update(0)`) and writes every track's value there into `out`. Returns the track
    /// time written (`start + clip_time`, or its mirror on a ping-pong backward pass).
    pub fn seek(&mut self, clip_time: f64, out: &mut [f64]) -> Result<f64, PlayerError> {
        self.check(out)?;
        finite("clip time", clip_time)?;
        self.mixer.action_mut(self.action).time = clip_time;
        self.mixer.update(0.0);
        let t = self.clock_time();
        self.tracks.jump_to(t, out);
        Ok(t)
    }

    /// Writes every track's value at track time `t` into `out`, leaving the clock alone (any
    /// order of times; a NaN `t` gives each track's first key, as `sample` does).
    pub fn sample(&mut self, t: f64, out: &mut [f64]) -> Result<(), PlayerError> {
        self.check(out)?;
        self.tracks.jump_to(t, out);
        Ok(())
    }

    fn check(&self, out: &[f64]) -> Result<(), PlayerError> {
        let expected = self.clip.len();
        if out.len() == expected {
            Ok(())
        } else {
            Err(PlayerError::BufferLength { expected, got: out.len() })
        }
    }

    /// The clock's time in track time, with the clock's events of this update kept.
    fn clock_time(&mut self) -> f64 {
        self.events.clear();
        self.events.extend(self.mixer.drain_events());
        self.time = self.clip.start + self.mixer.action(self.action).sample_time();
        self.time
    }
}

fn finite(what: &'static str, value: f64) -> Result<(), PlayerError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(PlayerError::NotFinite { what, value })
    }
}
