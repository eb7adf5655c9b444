//! What the clip player ([`crate::player`]) reads of a compiled track directly: the segments
//! of the two forms it evaluates in its own loops (TCB and Cubic polynomials without ease,
//! Slerp pairs; [`TrackCurve::playback_form`]), which it copies into records of its own and
//! evaluates by the operations [`TrackCurve::segment_value`] performs (`poly.rs`'s
//! `Poly::value` without ease; the local time `rotation.rs` gives a Slerp pair, then
//! `SlerpPair::at`), the count of key times a seek's index look-up gives, and prefetch hints for
//! that look-up. Every other form the player hands to `segment_value`; `tests/player.rs` holds
//! every value to `sample`, bit for bit.

pub(crate) use super::poly::PolySegment;
use super::rotation::Rotation;
use super::{Segments, TrackCurve};
use crate::quat::SlerpPair;
use crate::search::prefetch;

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
