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
/// none, so that a frame takes segment 0 and checks it) and where its value goes.
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
}

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
