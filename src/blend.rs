//! The graph editor's blend sliders (issue 32), as Blender's: on each run of consecutive
//! selected keys (a segment), with its neighbours the key before the run and the key after it
//! (the run's own first or last key where the track ends there). Each key's value moves; its
//! Bézier handles, offsets from the key, move with it (Blender's "move value with handles").
//!
//! - **Blend to Neighbor** (Blender 3.4, `factor` in [0, 1], ½ leaves the keys): toward the
//!   key before the run when `factor < ½`, else the key after, by `|2·factor − 1|`:
//!   `v ← v + (target − v)·|2f − 1|`.
//! - **Breakdown** (Blender 3.4, `factor` in [0, 1]): every key of the run to the point
//!   `factor` of the way from the key before the run to the key after:
//!   `v ← before + (after − before)·f`.
//! - **Blend to Ease** (Blender 3.6 and later; 3.4 has no such slider, `factor` in [−1, 1]):
//!   toward an ease curve between the neighbours, `base = before + (after − before)·s(x)` with
//!   `x` the key's time as a fraction of the neighbours' span and `s` half of Blender's S curve
//!   `s(x) = h·(x−c)³/((x−c)³ + (w−(x−c))³) + c` (w = h = 2, slope 3) on the ease-out side
//!   (`c = −1`) for `f > 0`, the ease-in side (`c = 0`) otherwise; then
//!   `v ← v + (base − v)·f` for `f > 0`, `v ← v + (v − base)·f` otherwise.
//!
//! Checked against Blender 3.4's own operators (`tests/blend_reference.rs`, data from
//! `tools/blender/blend_tools_reference.py`).

use thiserror::Error;

use crate::model::{Track, TrackKind};

/// Which slider.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlendTool {
    ToNeighbor,
    Breakdown,
    ToEase,
}

impl BlendTool {
    pub const ALL: [BlendTool; 3] = [Self::ToNeighbor, Self::Breakdown, Self::ToEase];

    /// The factor that leaves the keys as they are, and the slider's range.
    #[must_use]
    pub const fn neutral_and_range(self) -> (f64, (f64, f64)) {
        match self {
            Self::ToNeighbor => (0.5, (0.0, 1.0)),
            Self::Breakdown => (0.5, (0.0, 1.0)),
            Self::ToEase => (0.0, (-1.0, 1.0)),
        }
    }

    /// What the user calls it.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::ToNeighbor => "Blend to Neighbor",
            Self::Breakdown => "Breakdown",
            Self::ToEase => "Blend to Ease",
        }
    }
}

/// Why the keys cannot be blended.
#[derive(Debug, Error, PartialEq)]
pub enum BlendError {
    #[error("{tool}: the factor must be between {min} and {max}, got {factor}")]
    Factor { tool: &'static str, factor: f64, min: f64, max: f64 },
    #[error("track \"{0}\" is a quaternion track: the blend sliders move values one component at a time (an Euler track works)")]
    Quat(String),
    #[error("track \"{track}\" has no key {key}")]
    NoKey { track: String, key: usize },
}

/// The runs of consecutive indices in `selected` (sorted, deduplicated first).
fn runs(selected: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut keys = selected.to_vec();
    keys.sort_unstable();
    keys.dedup();
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for k in keys {
        match out.last_mut() {
            Some(r) if r.end == k => r.end = k + 1,
            _ => out.push(k..k + 1),
        }
    }
    out
}

/// Half of Blender's S curve (module docs).
fn s_curve(x: f64, shift: f64) -> f64 {
    let (slope, width, height) = (3.0, 2.0, 2.0);
    if x > shift + width {
        return height + shift;
    }
    if x < shift {
        return shift;
    }
    let a = (x - shift).powf(slope);
    height * a / (a + (width - (x - shift)).powf(slope)) + shift
}

/// `track` with the keys `selected` moved by `tool` at `factor` (module docs).
///
/// # Errors
/// A factor outside the tool's range, a quaternion track, or a key the track does not have.
pub fn blend_keys(track: &Track, selected: &[usize], tool: BlendTool, factor: f64) -> Result<Track, BlendError> {
    let (min, max) = tool.neutral_and_range().1;
    if !(factor >= min && factor <= max) {
        return Err(BlendError::Factor { tool: tool.label(), factor, min, max });
    }
    if track.kind == TrackKind::Quat {
        return Err(BlendError::Quat(track.name.clone()));
    }
    if let Some(&key) = selected.iter().find(|&&k| k >= track.keys.len()) {
        return Err(BlendError::NoKey { track: track.name.clone(), key });
    }
    let mut keys = track.keys.clone();
    let old = &track.keys;
    for run in runs(selected) {
        let before = &old[run.start.saturating_sub(1)];
        let after = &old[run.end.min(old.len() - 1)];
        let span = after.time - before.time;
        for i in run {
            for c in 0..track.kind.dim() {
                let (v, b, a) = (old[i].value[c], before.value[c], after.value[c]);
                keys[i].value[c] = match tool {
                    BlendTool::ToNeighbor => {
                        let target = if factor < 0.5 { b } else { a };
                        v + (target - v) * (2.0 * factor - 1.0).abs()
                    }
                    BlendTool::Breakdown => b + (a - b) * factor,
                    BlendTool::ToEase if span == 0.0 => v,
                    BlendTool::ToEase => {
                        let x = (old[i].time - before.time) / span;
                        let base = b + (a - b) * s_curve(x, if factor > 0.0 { -1.0 } else { 0.0 });
                        if factor > 0.0 {
                            v + (base - v) * factor
                        } else {
                            v + (v - base) * factor
                        }
                    }
                };
            }
        }
    }
    Ok(track.with_other_keys(keys))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Interpolation, Key};

    fn scalar(points: &[(f64, f64)]) -> Track {
        Track::new("s", TrackKind::Scalar, Interpolation::Bezier).with_keys(points.iter().map(|&(t, v)| Key::new(t, vec![v])).collect())
    }

    fn values(t: &Track) -> Vec<f64> {
        t.keys.iter().map(|k| k.value[0]).collect()
    }

    /// By hand on keys (0, 0), (0.5, 0.2), (1, 1), the middle one selected: Blend to Neighbor
    /// at 0.2 moves it 60% of the way to 0 (0.08), at 0.5 not at all, at 1 onto 1; Breakdown at
    /// 0.25 puts it at 0.25; Blend to Ease at 1 onto the ease-out curve at x = ½,
    /// 2·1.5³/(1.5³ + 0.5³) − 1 = 13/14, and at −1 onto the ease-in curve, 2·0.5³/(0.5³ + 1.5³)
    /// = 1/14.
    #[test]
    fn by_hand() {
        let t = scalar(&[(0.0, 0.0), (0.5, 0.2), (1.0, 1.0)]);
        let at = |tool, f| values(&blend_keys(&t, &[1], tool, f).unwrap())[1];
        assert!((at(BlendTool::ToNeighbor, 0.2) - 0.08).abs() < 1e-15);
        assert_eq!(at(BlendTool::ToNeighbor, 0.5), 0.2);
        assert_eq!(at(BlendTool::ToNeighbor, 1.0), 1.0);
        assert_eq!(at(BlendTool::Breakdown, 0.25), 0.25);
        assert!((at(BlendTool::ToEase, 1.0) - 13.0 / 14.0).abs() < 1e-15);
        assert!((at(BlendTool::ToEase, -1.0) - 1.0 / 14.0).abs() < 1e-15);
        assert_eq!(at(BlendTool::ToEase, 0.0), 0.2);
        // The neighbours and unselected keys do not move.
        let moved = blend_keys(&t, &[1], BlendTool::Breakdown, 0.9).unwrap();
        assert_eq!((values(&moved)[0], values(&moved)[2]), (0.0, 1.0));
    }

    #[test]
    fn runs_and_bad_input() {
        assert_eq!(runs(&[5, 1, 2, 2, 7, 6]), vec![1..3, 5..8]);
        let t = scalar(&[(0.0, 0.0), (1.0, 1.0)]);
        assert!(matches!(blend_keys(&t, &[0], BlendTool::Breakdown, 1.5), Err(BlendError::Factor { .. })));
        assert!(matches!(blend_keys(&t, &[0], BlendTool::ToEase, f64::NAN), Err(BlendError::Factor { .. })));
        assert!(matches!(blend_keys(&t, &[2], BlendTool::Breakdown, 0.5), Err(BlendError::NoKey { key: 2, .. })));
        let q = Track::new("q", TrackKind::Quat, Interpolation::Slerp).with_keys(vec![Key::new(0.0, vec![0.0, 0.0, 0.0, 1.0])]);
        assert!(matches!(blend_keys(&q, &[0], BlendTool::Breakdown, 0.5), Err(BlendError::Quat(_))));
    }
}
