//! Pre- and post-infinity (SPEC §1): what a track does before its first key and after its
//! last — hold, extrapolate along the end slope, or repeat (Cycle, CycleOffset, PingPong).

use crate::model::Infinity;

/// A query time mapped into the keyed range, or what to do instead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Mapped {
    /// Evaluate the keys at this time (inside the range, or held at an end).
    Plain(f64),
    /// Extrapolate linearly from the first (`at_end = false`) or last key by `dt` seconds.
    Extrapolate { at_end: bool, dt: f64 },
    /// Evaluate at `t` inside the range, add `cycles ×` the key range's value change
    /// (CycleOffset), and run backwards when `reversed` (PingPong).
    Cycled { t: f64, cycles: f64, reversed: bool },
}

/// How a track extends beyond its keys, with the end slopes Linear extrapolation needs.
#[derive(Clone, Debug)]
pub(crate) struct Extension {
    pub pre: Infinity,
    pub post: Infinity,
    /// Global-time velocity leaving the first key and arriving at the last.
    pub start_slope: Vec<f64>,
    pub end_slope: Vec<f64>,
}

impl Extension {
    /// Maps `t` for keys spanning `[t0, t1]`.
    ///
    /// Cycling: with period `T = t1 − t0` and `k = ⌊(t − t0)/T⌋`, the local time is
    /// `t0 + (t − t0 − kT)` (mirrored, `T − …`, on odd `k` for PingPong), and CycleOffset adds
    /// `k` times the value change over the keys. A zero period or a non-finite `t` holds.
    #[inline]
    pub fn map(&self, t: f64, t0: f64, t1: f64) -> Mapped {
        let mode = if t < t0 {
            self.pre
        } else if t > t1 {
            self.post
        } else {
            return Mapped::Plain(t);
        };
        let period = t1 - t0;
        if !t.is_finite() || (period <= 0.0 && mode != Infinity::Linear) {
            return Mapped::Plain(t);
        }
        match mode {
            Infinity::Constant => Mapped::Plain(t),
            // `t − t0` can overflow when both are near ±f64::MAX: the distance saturates.
            Infinity::Linear => Mapped::Extrapolate { at_end: t > t1, dt: (if t > t1 { t - t1 } else { t - t0 }).clamp(f64::MIN, f64::MAX) },
            Infinity::Cycle | Infinity::CycleOffset | Infinity::PingPong => {
                let k = ((t - t0) / period).floor();
                // Far beyond the keys (`t − t0` or `k` overflowing) the phase is lost to
                // rounding anyway: any finite local time will do, and no ∞ − ∞ may reach it.
                let mut local = (t - t0 - k * period).clamp(0.0, period);
                if local.is_nan() {
                    local = 0.0;
                }
                let reversed = mode == Infinity::PingPong && k.rem_euclid(2.0) == 1.0;
                if reversed {
                    local = period - local;
                }
                Mapped::Cycled { t: t0 + local, cycles: if mode == Infinity::CycleOffset { k } else { 0.0 }, reversed }
            }
        }
    }
}
