//! Motion-capture artefacts (issue 43): jumps found in a take's sampled tracks, and spikes
//! fixed exactly where they are.
//!
//! **The rule** ([`JumpRule`], defaults in brackets). For a rotation track (Euler in its order,
//! or Quat) the step at key `i` is the angle between the rotations of keys `i − 1` and `i`
//! (`quat::angle_between`: a 360° wrap of an Euler angle is no step at all), per frame (divided
//! by the frames between the keys at the project's fps, at least 1). For a Vec3 position
//! track (`JOINT.translation`, or any `*.translation`/`*.position` track) it is the distance
//! between the keys' values. A step is a **jump** when it is at least `min_turn_deg` [20°] (a
//! position: `min_move` of the skeleton's size [5%], or of the track's extent without one)
//! and at least `ratio` [8] times the median step of the `window` [15] keys on each side,
//! leaving out the `spike_keys` [5] keys on each side (the way back of a spike is not its own
//! neighbourhood).
//!
//! A jump out followed within `spike_keys` keys by a key back near where it left (within half
//! the jump threshold, a third of the jump, or three times the median motion over those
//! keys) is a **spike**: one
//! problem, at its first key, and [`fix_spikes`] replaces the keys between by the
//! interpolation across them (slerp for rotations, written back in the track's kind and
//! order, the Euler triple nearest the key before; a straight line for positions). A jump
//! that does not come back is a **step** (a flip that lasts): reported, never changed.
//! Problems are sorted most severe first: by the jump's size over its threshold.

use rayon::prelude::*;

use crate::euler::{self, EulerOrder};
use crate::model::{Project, Track, TrackKind};
use crate::quat::{self, Quat};

/// The thresholds of the rule (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JumpRule {
    pub min_turn_deg: f64,
    /// A fraction of the skeleton's size (of the track's extent without a skeleton).
    pub min_move: f64,
    pub ratio: f64,
    pub window: usize,
    pub spike_keys: usize,
}

impl Default for JumpRule {
    fn default() -> Self {
        Self { min_turn_deg: 20.0, min_move: 0.05, ratio: 8.0, window: 15, spike_keys: 5 }
    }
}

/// A spike that comes back, or a step that lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JumpShape {
    /// Keys `first..back` are off; key `back` is where the track came back.
    Spike {
        back: usize,
    },
    Step,
}

/// One jump of one track.
#[derive(Clone, Debug, PartialEq)]
pub struct Jump {
    pub track: usize,
    pub name: String,
    /// The first key the jump lands on.
    pub first: usize,
    pub time: f64,
    /// `time` in frames at the project's fps, rounded.
    pub frame: i64,
    /// The step per frame: degrees (rotations) or file units (positions).
    pub size: f64,
    /// The median step per frame around it, same unit.
    pub around: f64,
    pub rotation: bool,
    pub shape: JumpShape,
    /// How far over its threshold: what problems are sorted by.
    pub severity: f64,
}

impl std::fmt::Display for Jump {
    /// `jump TRACK at T s (frame F): turns A° in one frame (around it: M°/frame)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (t, frame, size, around) = (self.time, self.frame, self.size, self.around);
        if self.rotation {
            write!(f, "jump {} at {t:.4} s (frame {frame}): turns {size:.1}° in one frame (around it: {around:.2}°/frame)", self.name)
        } else {
            write!(f, "jump {} at {t:.4} s (frame {frame}): moves {size:.4} file units in one frame (around it: {around:.4} file units/frame)", self.name)
        }
    }
}

/// What a track's values are, for the rule.
enum Samples {
    Rotations(Vec<Quat>),
    Positions(Vec<[f64; 3]>),
}

/// Whether a Vec3 track holds a position (checked for jumps).
fn is_position(track: &Track) -> bool {
    track.kind == TrackKind::Vec3 && (track.name.ends_with(".translation") || track.name.ends_with(".position") || track.name.ends_with("translation"))
}

fn samples(track: &Track) -> Option<Samples> {
    let v = |k: &crate::Key| [k.value[0], k.value[1], k.value[2]];
    match track.kind {
        TrackKind::Euler => Some(Samples::Rotations(track.keys.iter().map(|k| euler::to_quat(&v(k), track.order)).collect())),
        TrackKind::Quat => Some(Samples::Rotations(track.keys.iter().map(|k| quat::normalize(&[k.value[0], k.value[1], k.value[2], k.value[3]])).collect())),
        _ if is_position(track) => Some(Samples::Positions(track.keys.iter().map(v).collect())),
        _ => None,
    }
}

fn distance(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

impl Samples {
    /// The difference between keys `a` and `b`: degrees or file units.
    fn between(&self, a: usize, b: usize) -> f64 {
        match self {
            Self::Rotations(q) => quat::angle_between(&q[a], &q[b]).to_degrees(),
            Self::Positions(p) => distance(&p[a], &p[b]),
        }
    }

    fn len(&self) -> usize {
        match self {
            Self::Rotations(q) => q.len(),
            Self::Positions(p) => p.len(),
        }
    }
}

/// The median of `values` (reordered); 0 for none.
fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mid = values.len() / 2;
    *values.select_nth_unstable_by(mid, f64::total_cmp).1
}

/// The jumps of one track (in key order).
fn track_jumps(index: usize, track: &Track, fps: f64, size: Option<f64>, rule: &JumpRule) -> Vec<Jump> {
    let Some(samples) = samples(track) else { return Vec::new() };
    let n = samples.len();
    if n < 3 {
        return Vec::new();
    }
    let times: Vec<f64> = track.keys.iter().map(|k| k.time).collect();
    let frames = |i: usize| ((times[i] - times[i - 1]) * fps).max(1.0);
    // Per-frame steps; step[i] goes from key i - 1 to key i (step[0] = 0).
    let mut step = vec![0.0; n];
    for i in 1..n {
        step[i] = samples.between(i - 1, i) / frames(i);
    }
    let rotation = matches!(samples, Samples::Rotations(_));
    let threshold = if rotation {
        rule.min_turn_deg
    } else {
        let extent = || {
            let Samples::Positions(p) = &samples else { return 0.0 };
            (0..3).map(|a| p.iter().map(|x| x[a]).fold(f64::NEG_INFINITY, f64::max) - p.iter().map(|x| x[a]).fold(f64::INFINITY, f64::min)).fold(0.0, f64::max)
        };
        rule.min_move * size.unwrap_or_else(extent)
    };
    if !(threshold > 0.0) {
        return Vec::new();
    }
    let around = |i: usize| -> f64 {
        let lo = i.saturating_sub(rule.window + rule.spike_keys).max(1);
        let hi = (i + rule.window + rule.spike_keys).min(n - 1);
        let mut near: Vec<f64> = (lo..=hi).filter(|&k| k + rule.spike_keys < i || k > i + rule.spike_keys).map(|k| step[k]).collect();
        median(&mut near)
    };
    let mut out = Vec::new();
    let mut i = 1;
    while i < n {
        if step[i] < threshold {
            i += 1;
            continue;
        }
        let m = around(i);
        if step[i] < rule.ratio * m {
            i += 1;
            continue;
        }
        // Back within spike_keys keys: near where it left, allowing for the motion around.
        let back = (i + 1..=(i + rule.spike_keys).min(n - 1))
            .find(|&j| samples.between(i - 1, j) <= (threshold / 2.0).max(3.0 * m * (times[j] - times[i - 1]) * fps).max(step[i] / 3.0));
        let shape = back.map_or(JumpShape::Step, |back| JumpShape::Spike { back });
        out.push(Jump {
            track: index,
            name: track.name.clone(),
            first: i,
            time: times[i],
            frame: (times[i] * fps).round() as i64,
            size: step[i],
            around: m,
            rotation,
            shape,
            severity: step[i] / threshold.max(rule.ratio * m),
        });
        i = back.map_or(i + 1, |b| b + 1);
    }
    out
}

/// Every jump of `project`'s rotation and position tracks (`only`: these tracks; empty: all),
/// most severe first. Tracks are examined in parallel.
#[must_use]
pub fn find_jumps(project: &Project, only: &[usize], rule: &JumpRule) -> Vec<Jump> {
    let size = crate::body::Rig::new(project).ok().map(|r| r.size()).filter(|s| *s > 0.0);
    let which: Vec<usize> = if only.is_empty() { (0..project.tracks.len()).collect() } else { only.to_vec() };
    let fps = if project.fps.is_finite() && project.fps > 0.0 { project.fps } else { crate::DEFAULT_FPS };
    let mut jumps: Vec<Jump> = which.par_iter().flat_map_iter(|&i| track_jumps(i, &project.tracks[i], fps, size, rule)).collect();
    jumps.sort_by(|a, b| b.severity.total_cmp(&a.severity).then(a.track.cmp(&b.track)).then(a.first.cmp(&b.first)));
    jumps
}

/// `track` with each spike of `jumps` (those of this track) replaced by the interpolation
/// across it; every other key exactly as it was. Returns the new track and how many keys
/// changed.
#[must_use]
pub fn fix_spikes(track: &Track, jumps: &[&Jump]) -> (Track, usize) {
    let mut out = track.clone();
    let mut changed = 0;
    for jump in jumps {
        let JumpShape::Spike { back } = jump.shape else { continue };
        let (a, b) = (jump.first - 1, back);
        let (t0, t1) = (track.keys.time(a), track.keys.time(b));
        for k in jump.first..back {
            let u = if t1 > t0 { (track.keys.time(k) - t0) / (t1 - t0) } else { 0.5 };
            let before = out.keys[k - 1].value.clone();
            let value = across(track, &track.keys[a].value, &track.keys[b].value, u, &before);
            if value != out.keys[k].value {
                changed += 1;
            }
            out.keys[k].value = value;
        }
    }
    (out, changed)
}

/// The value a fraction `u` of the way from `from` to `to` in `track`'s kind: slerp for
/// rotations (an Euler triple nearest `before`, a quaternion on `before`'s side), a straight
/// line otherwise.
fn across(track: &Track, from: &[f64], to: &[f64], u: f64, before: &[f64]) -> Vec<f64> {
    let triple = |v: &[f64]| [v[0], v[1], v[2]];
    match track.kind {
        TrackKind::Euler => {
            let order: EulerOrder = track.order;
            let q = quat::slerp_exact(&euler::to_quat(&triple(from), order), &euler::to_quat(&triple(to), order), u);
            euler::nearest_equivalent(&euler::from_quat(&q, order), &triple(before), order).to_vec()
        }
        TrackKind::Quat => {
            let quad = |v: &[f64]| quat::normalize(&[v[0], v[1], v[2], v[3]]);
            let q = quat::slerp_exact(&quad(from), &quad(to), u);
            let q = if quat::dot(&q, &quad(before)) < 0.0 { quat::neg(&q) } else { q };
            q.to_vec()
        }
        _ => from.iter().zip(to).map(|(a, b)| a + (b - a) * u).collect(),
    }
}

#[cfg(test)]
#[path = "problems_tests.rs"]
mod tests;
