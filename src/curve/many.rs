//! [`TrackCurve::sample_many`]: a run of times evaluated in one pass. For TCB, Cubic, Linear
//! and Bezier tracks each segment is found once for the consecutive times that fall in it.
//! TCB and Cubic tracks without ease go through [`poly_steps`]: two times per step while
//! both lie in the segment (one branch per step, which mispredicts once per segment), each
//! Horner step one packed operation on both; eased ones, and Linear segments, evaluate
//! their times in one loop per segment (`value_run` in `poly.rs` and `linear.rs`), Bezier
//! ones one by one. The other modes, whose samples cost far more than the search, sample
//! with one cursor. Every value is bit for bit what [`TrackCurve::sample`] gives at that
//! time.

use super::poly::PolySegment;
use super::{Segments, TrackCurve};
use crate::search::{within, Located, SegmentCursor};

impl TrackCurve {
    /// Writes the value at each of `times` into `out` (`times.len() · dim` values, value `i`
    /// at `out[i·dim..(i+1)·dim]`), with pre/post infinity, exactly as [`Self::sample`]
    /// would. Any order is allowed; sorted times (a playback run, a bake's frames) are the
    /// fast case.
    ///
    /// # Panics
    /// If `out.len() != times.len() * self.dim()`.
    pub fn sample_many(&self, times: &[f64], out: &mut [f64]) {
        let dim = self.dim();
        assert_eq!(out.len(), times.len() * dim, "the output must hold one value per time");
        let (keys, n) = (&self.keys.times, self.keys.len());
        if let Segments::Poly(p) = &self.segments {
            if !p.is_eased() {
                match dim {
                    1 => poly_steps::<1>(self, p.segments(), times, out),
                    2 => poly_steps::<2>(self, p.segments(), times, out),
                    3 => poly_steps::<3>(self, p.segments(), times, out),
                    _ => poly_steps::<4>(self, p.segments(), times, out),
                }
                return;
            }
        }
        let mut cursor = SegmentCursor::new();
        if !matches!(self.segments, Segments::Poly(_) | Segments::Linear | Segments::Bezier(_)) {
            for (o, &t) in out.chunks_exact_mut(dim).zip(times) {
                self.sample(&mut cursor, t, o);
            }
            return;
        }
        let mut i = 0;
        // The segment after the last run: where a sorted run goes on.
        let mut next = usize::MAX;
        while i < times.len() {
            let t = times[i];
            let seg = if next < n - 1 && keys[next] <= t && t < keys[next + 1] {
                next
            } else if let Located::Inside(seg) = self.locate(&mut cursor, t) {
                seg
            } else {
                self.sample(&mut cursor, t, &mut out[i * dim..(i + 1) * dim]);
                i += 1;
                continue;
            };
            let (lo, hi) = (keys[seg], keys[seg + 1]);
            // Two tests per time, which predict well on sorted runs.
            let run = 1 + times[i + 1..].iter().take_while(|&&t| lo <= t && t < hi).count();
            self.segment_run(seg, &times[i..i + run], &mut out[i * dim..(i + run) * dim]);
            i += run;
            next = seg + 1;
        }
    }

    /// The values at `times`, all inside segment `seg`, into `out`.
    fn segment_run(&self, seg: usize, times: &[f64], out: &mut [f64]) {
        match &self.segments {
            Segments::Poly(p) => p.value_run(&self.keys, seg, times, out),
            Segments::Linear => super::linear::Linear::value_run(&self.keys, seg, times, out),
            _ => {
                for (o, &t) in out.chunks_exact_mut(self.dim()).zip(times) {
                    self.segment_value(seg, t, o);
                }
            }
        }
    }
}

/// [`TrackCurve::sample_many`] of a TCB or Cubic track without ease, `D` components: per
/// segment its cubics `p(u) = ((c₃u + c₂)u + c₁)u + c₀`, `u = (t − t₀)/Δt`, at two times per
/// step while both lie in it, then at the next time, written whether or not it lies in the
/// segment and kept only if it does (so no branch decides it; a time outside is written again
/// by its own segment). Bit for bit [`super::poly::Poly::value`], the same operations.
fn poly_steps<const D: usize>(curve: &TrackCurve, segs: &[PolySegment], times: &[f64], out: &mut [f64]) {
    let keys = curve.times();
    let (out, _) = out.as_chunks_mut::<D>();
    let mut cursor = SegmentCursor::new();
    let (mut i, mut next) = (0, usize::MAX);
    while let Some(&t) = times.get(i) {
        let seg = if next < keys.len() - 1 && within(keys[next], t, keys[next + 1]) {
            next
        } else if let Located::Inside(seg) = curve.locate(&mut cursor, t) {
            seg
        } else {
            curve.sample(&mut cursor, t, &mut out[i]);
            i += 1;
            continue;
        };
        let (lo, hi, p) = (keys[seg], keys[seg + 1], &segs[seg]);
        let k: [[f64; 4]; D] = std::array::from_fn(|c| p.k[c]);
        let cubic = |c: usize, e: f64| ((k[c][0] * e + k[c][1]) * e + k[c][2]) * e + k[c][3];
        while let (Some(&a), Some(&b)) = (times.get(i), times.get(i + 1)) {
            // `lo ≤ a ≤ b < hi` as one branch (a pair out of order takes the single path).
            if !((lo <= a) & (a <= b) & (b < hi)) {
                break;
            }
            let e = [(a - lo) * p.inv_dt, (b - lo) * p.inv_dt];
            for c in 0..D {
                let v = e.map(|e| cubic(c, e));
                (out[i][c], out[i + 1][c]) = (v[0], v[1]);
            }
            i += 2;
        }
        if let Some(&t) = times.get(i) {
            let e = (t - lo) * p.inv_dt;
            out[i] = std::array::from_fn(|c| cubic(c, e));
            i += usize::from((lo <= t) & (t < hi));
        }
        next = seg + 1;
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Infinity, Interpolation, Key, Track, TrackKind};
    use crate::{SegmentCursor, TrackCurve};

    /// Every mode, with ease, a jump (two keys at one time) and cycling ends, sampled over a
    /// sorted run that crosses both ends, then a shuffled one: bit for bit `sample`.
    #[test]
    fn agrees_with_sample_bit_for_bit() {
        let modes = [
            (TrackKind::Vec3, Interpolation::Tcb),
            (TrackKind::Vec3, Interpolation::Cubic),
            (TrackKind::Vec2, Interpolation::Linear),
            (TrackKind::Scalar, Interpolation::Step),
            (TrackKind::Vec3, Interpolation::Bezier),
            (TrackKind::Quat, Interpolation::Slerp),
            (TrackKind::Quat, Interpolation::Squad),
        ];
        for (kind, mode) in modes {
            let keys = (0..40)
                .map(|i| {
                    let time = f64::from(i / 2 * 2 + i % 2 * (i % 5).min(1)) * 0.37;
                    let value = (0..kind.dim()).map(|c| (f64::from(i) * 0.7 + c as f64).sin() + if c == 3 { 2.0 } else { 0.0 }).collect();
                    Key::new(time, value).with_ease(0.3 * f64::from(i % 2), 0.2)
                })
                .collect();
            let mut track = Track::new("t", kind, mode).with_keys(keys);
            track.pre_infinity = Infinity::Cycle;
            track.post_infinity = if kind == TrackKind::Quat { Infinity::Constant } else { Infinity::Linear };
            let curve = TrackCurve::new(&track).unwrap();
            let (t0, t1) = curve.domain();
            let mut times: Vec<f64> = (0..=997).map(|i| t0 - 1.0 + (t1 - t0 + 2.0) * f64::from(i) / 997.0).collect();
            times.extend(curve.times());
            for shuffle in [false, true] {
                if shuffle {
                    times = (0..times.len()).map(|i| times[(i * 389) % times.len()]).collect();
                } else {
                    times.sort_by(f64::total_cmp);
                }
                let dim = curve.dim();
                let mut many = vec![0.0; times.len() * dim];
                curve.sample_many(&times, &mut many);
                let (mut cursor, mut one) = (SegmentCursor::new(), vec![0.0; dim]);
                for (i, &t) in times.iter().enumerate() {
                    curve.sample(&mut cursor, t, &mut one);
                    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&many[i * dim..(i + 1) * dim]), bits(&one), "{mode:?} at {t}");
                }
            }
        }
    }
}

#[cfg(test)]
mod poly_steps_tests {
    use crate::model::{Infinity, Interpolation, Key, Track, TrackKind};
    use crate::{SegmentCursor, TrackCurve};
    use proptest::prelude::*;

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// `sample_many` against `sample` one time at a time, bit for bit.
    fn check(curve: &TrackCurve, times: &[f64]) -> Result<(), TestCaseError> {
        let dim = curve.dim();
        let mut many = vec![0.0; times.len() * dim];
        curve.sample_many(times, &mut many);
        let (mut cursor, mut one) = (SegmentCursor::new(), vec![0.0; dim]);
        for (i, &t) in times.iter().enumerate() {
            curve.sample(&mut cursor, t, &mut one);
            prop_assert_eq!(bits(&many[i * dim..(i + 1) * dim]), bits(&one), "at {}", t);
        }
        Ok(())
    }

    /// By hand: three.js Cubic through collinear keys (0, 0), (1, 1), (2, 2) with zero-curvature
    /// ends is the line `v = t`, so the steps give `t` at 0.25, 0.5, 1.5 (pairs and the single
    /// after them, across the key at 1) and hold the ends outside.
    #[test]
    fn collinear_cubic_is_the_line() {
        let keys = (0..3).map(|i| Key::new(f64::from(i), vec![f64::from(i)])).collect();
        let curve = TrackCurve::new(&Track::new("c", TrackKind::Scalar, Interpolation::Cubic).with_keys(keys)).unwrap();
        let times = [-1.0, 0.25, 0.5, 0.75, 1.5, 1.75, 3.0];
        let mut out = [0.0; 7];
        curve.sample_many(&times, &mut out);
        let want = [0.0, 0.25, 0.5, 0.75, 1.5, 1.75, 2.0];
        assert!(out.iter().zip(&want).all(|(o, w)| (o - w).abs() <= 4.0 * f64::EPSILON), "{out:?}");
        check(&curve, &times).unwrap();
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// TCB and Cubic tracks without ease, 1 to 4 components, keys with jumps, times sorted
        /// (dense and sparse, across both ends) and shuffled: bit for bit `sample`.
        #[test]
        fn poly_steps_agree_with_sample(
            gaps in prop::collection::vec(prop_oneof![Just(0.0), 0.01f64..2.0], 2..30),
            dim in 1usize..=4,
            cubic in any::<bool>(),
            density in 1usize..40,
            seed in any::<u64>(),
        ) {
            let mut t = -3.0;
            let keys: Vec<Key> = gaps.iter().enumerate().map(|(i, g)| {
                t += g;
                Key::new(t, (0..dim).map(|c| ((i * 7 + c) as f64 * 0.9).sin() * 3.0).collect())
            }).collect();
            let kind = [TrackKind::Scalar, TrackKind::Vec2, TrackKind::Vec3, TrackKind::Vec4][dim - 1];
            let mut track = Track::new("p", kind, if cubic { Interpolation::Cubic } else { Interpolation::Tcb }).with_keys(keys);
            track.post_infinity = Infinity::Linear;
            let curve = TrackCurve::new(&track).unwrap();
            let (t0, t1) = curve.domain();
            let n = density * gaps.len();
            let mut times: Vec<f64> = (0..=n).map(|i| t0 - 0.5 + (t1 - t0 + 1.0) * i as f64 / n as f64).collect();
            times.extend(curve.times());
            times.sort_by(f64::total_cmp);
            check(&curve, &times)?;
            let len = times.len();
            let shuffled: Vec<f64> = (0..len).map(|i| times[(i * 389 + seed as usize % len) % len]).collect();
            check(&curve, &shuffled)?;
        }
    }
}
