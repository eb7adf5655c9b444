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

/// How close to a seam of a repeating side (`t1 + kT` after the keys, `t0 − kT` before them)
/// a time counts as the seam, relative to `|t0| + |t1| + ` the distance beyond the keys: about
/// one float32 step (2⁻²³ ≈ 1.2e-7). Blender keeps frames in float32 and finds a seam where
/// `fmodf(frame − end key, period)` is 0; such frames lie up to 4.4e-8 of this measure from
/// the exact seam (measured on the round trip's Cycles curves, tools/blender/
/// cycles_seam_reference.py), so a narrower window would put some of Blender's seams in the
/// next cycle. Ten thousand times narrower than the 10⁻⁴ frames within which Blender returns a
/// key's value instead of evaluating.
pub(crate) const SEAM: f64 = 1e-7;

impl Extension {
    /// Maps `t` for keys spanning `[t0, t1]`.
    ///
    /// Repeating, with period `T = t1 − t0`, as Blender's Cycles modifier (`fcm_cycles_time`)
    /// does: the cycle `t` is in is counted outward from the end on its side, `k = ⌈d / T⌉`
    /// with `d = t − t1` after the keys and `d = t0 − t` before them, and `t` is `d − (k − 1)T`
    /// into it. After the keys that is the local time `t0 + d − (k − 1)T`, before them
    /// `t1 − d + (k − 1)T`; PingPong runs odd cycles backwards; CycleOffset adds `±k` times the
    /// value change over the keys. **At a seam** (`d = kT`, within [`SEAM`]) the end key on the
    /// keys' side of it plays: the last key after the keys (a cycle ends there: `t1 + kT` is the
    /// last key's value, plus `k` changes for CycleOffset), the first key before them; mirrored
    /// for PingPong (the first key after an odd cycle, the last before one). Between seams this
    /// is `t0 + (t − t0 − ⌊(t − t0)/T⌋T)`. A zero period or a non-finite `t` holds.
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
                let after = t > t1;
                // How far beyond the keys (> 0; saturating where `t − t1` overflows).
                let d = (if after { t - t1 } else { t0 - t }).min(f64::MAX);
                let mut k = (d / period).ceil().max(1.0);
                let mut into = d - (k - 1.0) * period;
                let tol = (SEAM * (t0.abs() + t1.abs() + d)).min(period * 1e-3);
                if into <= tol {
                    // Just past the seam before cycle k: that seam (k − 1 = 0 is the end key).
                    k -= 1.0;
                    into = period;
                } else if into >= period - tol {
                    into = period;
                }
                // Far beyond the keys (`k` or `k·T` overflowing) the phase is lost to rounding
                // anyway: any local time will do, and no ∞ − ∞ may reach it.
                if !into.is_finite() || !(0.0..=period).contains(&into) {
                    into = period;
                }
                let reversed = mode == Infinity::PingPong && k.rem_euclid(2.0) == 1.0;
                // From the first key: `into` after the keys, `T − into` before them.
                let forward_at_end = after != reversed;
                let t = if into >= period {
                    if forward_at_end {
                        t1
                    } else {
                        t0
                    }
                } else if forward_at_end {
                    t0 + into
                } else {
                    t1 - into
                };
                let cycles = match (mode, after) {
                    (Infinity::CycleOffset, true) => k,
                    (Infinity::CycleOffset, false) => -k,
                    _ => 0.0,
                };
                Mapped::Cycled { t, cycles, reversed }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Hand-checked cycling, at and between the seams (Blender's `fcm_cycles_time`).

    use super::{Extension, Mapped, SEAM};
    use crate::curve::TrackCurve;
    use crate::model::{Infinity, Interpolation, Key, Track, TrackKind};

    fn extension(pre: Infinity, post: Infinity) -> Extension {
        Extension { pre, post, start_slope: vec![0.0], end_slope: vec![0.0] }
    }

    fn cycled(m: Mapped) -> (f64, f64, bool) {
        match m {
            Mapped::Cycled { t, cycles, reversed } => (t, cycles, reversed),
            other => panic!("not cycled: {other:?}"),
        }
    }

    /// Keys at 0 and 2 (period 2): where each time lands, how many changes CycleOffset adds,
    /// and whether PingPong runs backwards there.
    #[test]
    fn map_at_and_between_seams() {
        let map = |pre, post, t| cycled(extension(pre, post).map(t, 0.0, 2.0));
        use Infinity::{Cycle, CycleOffset, PingPong};
        // After the keys a seam is the end of a cycle: the last key (t1 = 2), k changes.
        assert_eq!(map(Cycle, Cycle, 4.0), (2.0, 0.0, false));
        assert_eq!(map(Cycle, Cycle, 6.0), (2.0, 0.0, false));
        assert_eq!(map(Cycle, Cycle, 3.0), (1.0, 0.0, false));
        assert_eq!(map(Cycle, Cycle, 4.5), (0.5, 0.0, false));
        assert_eq!(map(Cycle, CycleOffset, 4.0), (2.0, 1.0, false));
        assert_eq!(map(Cycle, CycleOffset, 6.0), (2.0, 2.0, false));
        assert_eq!(map(Cycle, CycleOffset, 4.5), (0.5, 2.0, false));
        // Before the keys a seam starts a cycle: the first key (t0 = 0), −k changes.
        assert_eq!(map(Cycle, Cycle, -2.0), (0.0, 0.0, false));
        assert_eq!(map(Cycle, Cycle, -4.0), (0.0, 0.0, false));
        assert_eq!(map(Cycle, Cycle, -0.5), (1.5, 0.0, false));
        assert_eq!(map(CycleOffset, Cycle, -2.0), (0.0, -1.0, false));
        assert_eq!(map(CycleOffset, Cycle, -4.0), (0.0, -2.0, false));
        assert_eq!(map(CycleOffset, Cycle, -0.5), (1.5, -1.0, false));
        assert_eq!(map(CycleOffset, Cycle, -2.5), (1.5, -2.0, false));
        // PingPong: the first cycle beyond either end runs backwards, so its seam is the key
        // at the far end: t1 + T plays the first key, t0 − T the last; t1 + 2T the last again.
        assert_eq!(map(PingPong, PingPong, 4.0), (0.0, 0.0, true));
        assert_eq!(map(PingPong, PingPong, 6.0), (2.0, 0.0, false));
        assert_eq!(map(PingPong, PingPong, 2.5), (1.5, 0.0, true));
        assert_eq!(map(PingPong, PingPong, 4.5), (0.5, 0.0, false));
        assert_eq!(map(PingPong, PingPong, -2.0), (2.0, 0.0, true));
        assert_eq!(map(PingPong, PingPong, -4.0), (0.0, 0.0, false));
        assert_eq!(map(PingPong, PingPong, -0.5), (0.5, 0.0, true));
        assert_eq!(map(PingPong, PingPong, -2.5), (1.5, 0.0, false));
        // Within SEAM of a seam, on either side: the seam. Just beyond it the next cycle.
        let near = SEAM * (0.0 + 2.0 + 2.0) * 0.5;
        assert_eq!(map(Cycle, Cycle, 4.0 + near), (2.0, 0.0, false));
        assert_eq!(map(Cycle, Cycle, 4.0 - near), (2.0, 0.0, false));
        assert_eq!(map(Cycle, CycleOffset, 4.0 + near), (2.0, 1.0, false));
        assert_eq!(map(Cycle, Cycle, -2.0 + near), (0.0, 0.0, false));
        assert_eq!(map(Cycle, Cycle, -2.0 - near), (0.0, 0.0, false));
        assert_eq!(map(Cycle, Cycle, 2.0 + near * 0.5), (2.0, 0.0, false), "just after the last key is the last key");
        let (t, cycles, _) = map(Cycle, CycleOffset, 4.0 + 1e-4);
        assert!((t - 1e-4).abs() < 1e-12 && cycles == 2.0, "{t} {cycles}");
        let (t, cycles, _) = map(CycleOffset, Cycle, -2.0 - 1e-4);
        assert!((t - (2.0 - 1e-4)).abs() < 1e-12 && cycles == -2.0, "{t} {cycles}");
    }

    fn linear(keys: &[(f64, f64)], pre: Infinity, post: Infinity) -> TrackCurve {
        let mut track = Track::new("s", TrackKind::Scalar, Interpolation::Linear).with_keys(keys.iter().map(|&(t, v)| Key::new(t, vec![v])).collect());
        track.pre_infinity = pre;
        track.post_infinity = post;
        TrackCurve::new(&track).unwrap()
    }

    /// Keys (0,0),(1,1),(2,3), Linear: the first and last values differ by 3, so a Cycle
    /// jumps 3 at each seam; at the seam it takes the side of the keys (3 after, 0 before).
    #[test]
    fn seam_values_hand_checked() {
        use Infinity::{Cycle, CycleOffset, PingPong};
        let keys = [(0.0, 0.0), (1.0, 1.0), (2.0, 3.0)];
        let value = |pre, post, t: f64| linear(&keys, pre, post).evaluator().value_at(t)[0];
        for k in 1..=3 {
            let k = f64::from(k);
            assert_eq!(value(Cycle, Cycle, 2.0 + 2.0 * k), 3.0, "after, seam {k}: the last key");
            assert_eq!(value(Cycle, Cycle, -2.0 * k), 0.0, "before, seam {k}: the first key");
            assert_eq!(value(CycleOffset, CycleOffset, 2.0 + 2.0 * k), 3.0 + 3.0 * k);
            assert_eq!(value(CycleOffset, CycleOffset, -2.0 * k), -3.0 * k);
        }
        // Just after a seam the next cycle has started (0.5 into it: 0.5), just before it the
        // cycle ends (1.5 into it: 2.0).
        assert_eq!(value(Cycle, Cycle, 4.5), 0.5);
        assert_eq!(value(Cycle, Cycle, 3.5), 2.0);
        assert_eq!(value(Cycle, Cycle, -1.5), 0.5);
        assert_eq!(value(Cycle, Cycle, -2.5), 2.0);
        assert!((value(Cycle, Cycle, 4.0 + 1e-6) - 1e-6).abs() < 1e-12);
        // PingPong: after the keys odd cycles run backwards, so t1 + T is the first key,
        // t1 + 2T the last; before them t0 − T is the last key.
        assert_eq!(value(PingPong, PingPong, 4.0), 0.0);
        assert_eq!(value(PingPong, PingPong, 6.0), 3.0);
        assert_eq!(value(PingPong, PingPong, -2.0), 3.0);
        assert_eq!(value(PingPong, PingPong, -4.0), 0.0);
        assert_eq!(value(PingPong, PingPong, 3.0), 1.0);
        assert_eq!(value(PingPong, PingPong, -1.0), 1.0);
        // Times that are not binary fractions: keys at 0.1 and 0.3 s; the seams computed in
        // f64 (0.3 + 3 × 0.2 = 0.9000000000000001, 0.1 − 3 × 0.2 = −0.5000000000000001) and as
        // decimals (0.9, −0.5) are the seam.
        let odd = [(0.1, 1.0), (0.2, 5.0), (0.3, -2.0)];
        let value = |t: f64| linear(&odd, Cycle, Cycle).evaluator().value_at(t)[0];
        for t in [0.3 + 3.0 * 0.2, 0.9, 0.3 + (0.3 - 0.1), 0.5, 0.7] {
            assert_eq!(value(t), -2.0, "after the keys at {t}");
        }
        for t in [0.1 - 3.0 * 0.2, -0.5, 0.1 - (0.3 - 0.1), -0.1, -0.3] {
            assert_eq!(value(t), 1.0, "before the keys at {t}");
        }
    }
}
