//! What the clip player ([`crate::player`]) reads of a compiled track directly: the segments
//! of the two forms it evaluates in its own loops (TCB and Cubic polynomials without ease,
//! Slerp pairs; [`TrackCurve::playback_form`]), evaluated by the operations
//! [`TrackCurve::segment_value`] performs ([`poly_value`] is `poly.rs`'s `Poly::value` without
//! ease, [`slerp_local`] the local time `rotation.rs` gives a Slerp pair), the count of key
//! times a seek's index look-up gives, and prefetch hints for the data of a segment playback
//! will reach soon. Every other form the player hands to `segment_value`; `tests/player.rs`
//! holds every value to `sample`, bit for bit.

pub(crate) use super::poly::PolySegment;
use super::rotation::Rotation;
use super::{Segments, TrackCurve};
use crate::quat::{Quat, SlerpPair};
use crate::search::prefetch;
use std::ops::Range;

/// A track's segments in the forms the player evaluates itself.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Form<'a> {
    /// TCB or Cubic without ease.
    Poly(&'a [PolySegment]),
    /// Slerp: per segment its prepared pair and `1/Δt` (0 where that overflows).
    Slerp(&'a [(SlerpPair, f64)]),
    /// Anything else: [`TrackCurve::segment_value`].
    Other,
}

impl TrackCurve {
    /// The form the player evaluates this track in.
    #[inline(always)]
    pub(crate) fn playback_form(&self) -> Form<'_> {
        match &self.segments {
            Segments::Poly(p) if !p.is_eased() => Form::Poly(p.segments()),
            Segments::Rotation(Rotation::Slerp(pairs)) => Form::Slerp(pairs),
            _ => Form::Other,
        }
    }

    /// The number of key times `≤ t`, found by the track's index alone (no cursor: for a time
    /// anywhere, as a seek asks): [`TrackCurve::locate`]'s answer is
    /// `Located::from_count(count, times.len())`.
    #[inline(always)]
    pub(crate) fn count_anywhere(&self, t: f64) -> usize {
        self.index.upper_bound(&self.keys.times, t)
    }

    /// The first hint of a seek to `t`: the index's bucket entry ([`Self::count_anywhere`]
    /// reads it first).
    #[inline(always)]
    pub(crate) fn prefetch_lookup(&self, t: f64) {
        self.index.prefetch_bucket(t);
    }

    /// The second hint of a seek to `t`, a while after the first: the positions the index
    /// counts, and the key times there (the segment's bounds).
    #[inline(always)]
    pub(crate) fn prefetch_keys(&self, t: f64) {
        if let Some(lo) = self.index.prefetch_positions(t) {
            let p = self.keys.times.as_ptr();
            prefetch(p.wrapping_add(lo.saturating_sub(1)));
            prefetch(p.wrapping_add(lo + 4));
        }
    }
}

/// Asks the processor to start loading `records[seg]` and the key times around `seg + 8`:
/// what sequential playback reads a little later (a hint: it reads nothing, so a segment past
/// the end costs only the hint).
#[inline(always)]
pub(crate) fn prefetch_ahead<T>(times: &[f64], records: &[T], seg: usize, used: Range<usize>) {
    prefetch(times.as_ptr().wrapping_add(seg + 8));
    prefetch_record(records, seg, used);
}

/// [`super::poly::Poly::value`] of a segment without ease starting at `t0`: the same
/// operations, for `D` components.
#[inline(always)]
pub(crate) fn poly_value<const D: usize>(p: &PolySegment, t0: f64, t: f64, out: &mut [f64; D]) {
    let u = (t - t0) * p.inv_dt;
    for (o, k) in out.iter_mut().zip(&p.k) {
        *o = ((k[0] * u + k[1]) * u + k[2]) * u + k[3];
    }
}

/// [`Rotation::value`] of a Slerp segment spanning `[t0, t1]`: the same operations.
#[inline(always)]
pub(crate) fn slerp_value(pair: &(SlerpPair, f64), t0: f64, t1: f64, t: f64) -> Quat {
    pair.0.at(slerp_local(pair, t0, t1, t))
}

/// The local time [`Rotation::value`] gives a Slerp segment spanning `[t0, t1]`'s pair.
#[inline(always)]
pub(crate) fn slerp_local(pair: &(SlerpPair, f64), t0: f64, t1: f64, t: f64) -> f64 {
    let inv_dt = pair.1;
    if inv_dt > 0.0 {
        (t - t0) * inv_dt
    } else {
        (t - t0) / (t1 - t0)
    }
}

/// Asks the processor to start loading every cache line of the bytes `used` of
/// `records[seg]` (which need not exist: a hint reads nothing): one hint per 64 bytes from
/// the first, and one at the last byte where an 8-byte aligned record may reach one line
/// further.
#[inline(always)]
pub(crate) fn prefetch_record<T>(records: &[T], seg: usize, used: Range<usize>) {
    let p = records.as_ptr().wrapping_add(seg).cast::<u8>();
    let len = used.end.saturating_sub(used.start);
    let mut offset = 0;
    while offset < len {
        prefetch(p.wrapping_add(used.start + offset));
        offset += 64;
    }
    if len > 0 && (len - 1) % 64 >= 8 {
        prefetch(p.wrapping_add(used.end - 1));
    }
}

/// The bytes of a [`PolySegment`] a value of `d` components reads.
#[must_use]
pub(crate) const fn poly_bytes(d: usize) -> Range<usize> {
    let (inv, k) = (std::mem::offset_of!(PolySegment, inv_dt), std::mem::offset_of!(PolySegment, k));
    let (a, b) = (inv, inv + 8);
    let (c, e) = (k, k + 32 * d);
    (if a < c { a } else { c })..(if b > e { b } else { e })
}
