//! [`TrackCurve::sample_many`]: a run of times evaluated in one pass. For TCB, Cubic, Linear
//! and Bezier tracks each segment is found once for the consecutive times that fall in it;
//! TCB, Cubic and Linear segments then evaluate those times in one tight loop (`value_run` in
//! `poly.rs` and `linear.rs`, which the compiler vectorizes), Bezier ones one by one. The
//! other modes, whose samples cost far more than the search, sample with one cursor. Every
//! value is bit for bit what [`TrackCurve::sample`] gives at that time.

use super::{Segments, TrackCurve};
use crate::search::{Located, SegmentCursor};

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
