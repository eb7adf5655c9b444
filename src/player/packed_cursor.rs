//! Where each track kept as float32 keys is ([`super::packed`]): a lane per track, read by
//! every frame (the segment it was in, that segment's end and the next's, where its value
//! goes), what else its track needs (its keys, its column in the seek rows, the track for
//! `sample`), and [`find`], the rare way to a segment when a frame's step does not decide.
//! The loops are in `packed_lanes.rs` (seeks, Slerp) and `packed_poly.rs` (TCB).

use crate::search::{Located, SegmentCursor};
use crate::TrackCurve;

/// No segment.
pub(super) const NONE: u32 = u32::MAX;

/// What a frame reads of a track: its segment (or [`NONE`]), that segment's end (`−∞` for
/// none, so that a frame steps past both ends, wrapping to segment 1, and checks it) and where
/// its value goes.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(super) struct Lane<H> {
    /// The track's keys (read every frame: here rather than behind a pointer).
    pub(super) hot: H,
    pub(super) t1: f64,
    /// The end of the segment after (`+∞` for none): a frame that passed two keys takes the
    /// segment after next without a branch.
    pub(super) t2: f64,
    pub(super) seg: u32,
    pub(super) out: usize,
}

/// What a lane's track needs beyond the lane: its keys, the track, its cursor for `sample`.
#[derive(Clone, Debug)]
pub(super) struct Cold<'c, K> {
    pub(super) keys: &'c K,
    /// Its column in the seek rows (`packed::Rows`).
    pub(super) column: Option<usize>,
    pub(super) curve: &'c TrackCurve,
    pub(super) cursor: SegmentCursor,
    pub(super) held: Held,
}

impl<'c, K> Cold<'c, K> {
    pub(super) fn new(keys: &'c K, column: Option<usize>, curve: &'c TrackCurve) -> Self {
        Self { keys, column, curve, cursor: SegmentCursor::new(), held: Held::new(curve) }
    }
}

/// A track's values where `sample` gives one whatever the time
/// ([`TrackCurve::held_ends`]): before its first key and from its last on. A track that has
/// ended while others play on costs a frame a copy, not a search.
#[derive(Clone, Copy, Debug)]
pub(super) struct Held {
    /// `t` before this holds `first` (NaN, which no time is before: not held).
    before: f64,
    first: [f64; 4],
    /// `t` from this on holds `last` (NaN: not held).
    after: f64,
    last: [f64; 4],
}

impl Held {
    fn new(curve: &TrackCurve) -> Self {
        let (before, after) = curve.held_ends();
        let mut cursor = SegmentCursor::new();
        // `sample`'s own values: at −∞ (before every key, as any earlier time) and at the last key.
        let mut value = |t: f64| {
            let mut v = [0.0; 4];
            curve.sample(&mut cursor, t, &mut v[..curve.dim().min(4)]);
            v
        };
        Self {
            before: before.unwrap_or(f64::NAN),
            first: before.map_or([0.0; 4], |_| value(f64::NEG_INFINITY)),
            after: after.unwrap_or(f64::NAN),
            last: after.map_or([0.0; 4], value),
        }
    }

    /// The value `sample` gives at `t`, if `t` is where the track holds one.
    #[inline(always)]
    pub(super) fn at(&self, t: f64) -> Option<&[f64; 4]> {
        if t >= self.after {
            Some(&self.last)
        } else if t < self.before {
            Some(&self.first)
        } else {
            None
        }
    }
}

/// The state of a lane whose track holds a value at this frame's time: no segment, and ends at
/// `+∞`, so the next frame comes back to the rare path (and [`Held::at`]) at once (at `t = +∞`
/// the step wraps to segment 1, whose check then fails: the rare path too).
pub(super) const HELD: (u32, f64, f64) = (NONE, f64::INFINITY, f64::INFINITY);

/// The segment of `t` by the track's own index, if `t` is inside its keys.
#[inline(always)]
pub(super) fn index(curve: &TrackCurve, t: f64) -> Option<usize> {
    match Located::from_count(curve.count_anywhere(t), curve.times().len()) {
        Located::Inside(s) => Some(s),
        _ => None,
    }
}

/// Where the step does not decide: the segment after the one the step tried (`t` passed two
/// keys in a frame), else the track's index; kept in the lane. `None` outside the keys.
#[inline(never)]
#[cold]
pub(super) fn find<H>(l: &mut Lane<H>, curve: &TrackCurve, bound: impl Fn(usize) -> Option<f64>, t: f64) -> Option<usize> {
    let next = l.seg.wrapping_add(2) as usize;
    let s = match (bound(next), bound(next + 1)) {
        (Some(t0), Some(t1)) if l.seg != NONE && t0 <= t && t < t1 => Some(next),
        _ => index(curve, t),
    };
    (l.seg, l.t1, l.t2) = match s {
        Some(s) => (s as u32, bound(s + 1).unwrap_or(f64::NEG_INFINITY), bound(s + 2).unwrap_or(f64::INFINITY)),
        None => (NONE, f64::NEG_INFINITY, f64::NEG_INFINITY),
    };
    s
}
