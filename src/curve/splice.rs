//! Recompiling a track after a few of its keys were replaced (a drag of one key of a
//! 100,000-key track): only the segments and tangents the change reaches are rebuilt, so a
//! drag frame costs the keys moved, not the track.
//!
//! A TCB key's tangents depend on the keys up to two away (a run's end tangent uses its
//! neighbour's, and whether a run ends depends on the next gap), a TCB segment on its two
//! keys' tangents, a three.js Cubic segment on the keys one before and after (unless an end
//! wraps around), Step and Linear segments on their keys alone. So when keys
//! `at..at + removed` become `at..at + added`, only the tangents of keys
//! `at − 2 .. at + added + 2` and the segments `at − 3 .. at + added + 2` change. They are
//! taken from the keys `at − 5 .. at + added + 5` compiled as a track of their own by
//! [`TrackCurve::new`] — the same code — where they see the same keys as in the whole track,
//! so the result is bit for bit the whole track compiled anew (proptest below). Other modes,
//! and anything unusual, compile the whole track (a Squad track reusing the fitted
//! polynomials of its unchanged segments, `crate::quat::SquadPolys::reusing`).

use super::{Segments, TrackCurve};
use crate::error::TrackError;
use crate::model::{Ending, Interpolation, Track, TrackKind};

/// Keys of context taken on each side of the replaced ones.
const CONTEXT: usize = 5;

impl TrackCurve {
    /// The curve of `track`, given `self` compiled from `track` as it was before its keys
    /// `at..at + removed` were replaced by `track.keys[at..at + added]`: bit for bit what
    /// [`TrackCurve::new`]`(track)` returns, at a cost proportional to the keys replaced for
    /// Step, Linear, TCB and Cubic tracks (except Cubic with a `WrapAround` end), and to the
    /// track otherwise. Nothing but the keys may have changed.
    pub fn respliced(mut self, track: &Track, at: usize, removed: usize) -> Result<TrackCurve, TrackError> {
        let (old_n, n) = (self.keys.len(), track.keys.len());
        let local = match track.interpolation {
            Interpolation::Step | Interpolation::Linear | Interpolation::Tcb => true,
            Interpolation::Cubic => track.ending_start != Ending::WrapAround && track.ending_end != Ending::WrapAround,
            _ => false,
        };
        let Some(added) = (n + removed).checked_sub(old_n) else { return TrackCurve::compile(track, Some(&self)) };
        if !local
            || track.kind == TrackKind::Quat
            || track.kind != self.kind
            || track.interpolation != self.interpolation
            || old_n < 2 * CONTEXT
            || n < 2 * CONTEXT
            || at + removed > old_n
        {
            return TrackCurve::compile(track, Some(&self));
        }
        let lo = at.saturating_sub(CONTEXT);
        let hi = (at + added + CONTEXT).min(n);
        let part = Track { name: track.name.clone(), binding: track.binding.clone(), keys: track.keys[lo..hi].to_vec(), ..*track };
        // A part that fails (overflow) is reported for the whole track, with its key numbers.
        let Ok(part) = TrackCurve::new(&part) else { return TrackCurve::new(track) };
        let dim = self.dim();
        let new_keys = &track.keys[at..at + added];
        self.keys.times.splice(at..at + removed, new_keys.iter().map(|k| k.time));
        self.keys.values.splice(at * dim..(at + removed) * dim, new_keys.iter().flat_map(|k| k.value.iter().copied()));
        // Segments at − 3 .. at + added + 2 (clamped), old and new numbering.
        let from = at.saturating_sub(3);
        let (to_old, to_new) = ((at + removed + 2).min(old_n - 1), (at + added + 2).min(n - 1));
        if let (Segments::Poly(poly), Segments::Poly(p)) = (&mut self.segments, &part.segments) {
            poly.splice(from..to_old, &p.segments()[from - lo..to_new - lo]);
        }
        // Tangents of keys at − 2 .. at + added + 2.
        if let (Some(tg), Some(p)) = (&mut self.tangents, &part.tangents) {
            let (from, to_old, to_new) = (at.saturating_sub(2), (at + removed + 2).min(old_n), (at + added + 2).min(n));
            let range = (from - lo) * dim..(to_new - lo) * dim;
            tg.incoming.splice(from * dim..to_old * dim, p.incoming[range.clone()].iter().copied());
            tg.outgoing.splice(from * dim..to_old * dim, p.outgoing[range].iter().copied());
        }
        // The index by time: updated where keys moved, or built anew when the count changed.
        let moved_in_place = removed == added && self.index.respliced(&self.keys.times, at..at + added);
        if !moved_in_place {
            self.index = if n >= super::INDEX_MIN_KEYS { crate::search::BucketIndex::new(&self.keys.times) } else { crate::search::BucketIndex::default() };
        }
        self.extension.start_slope = self.end_slope(false);
        self.extension.end_slope = self.end_slope(true);
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::model::{Ending, Infinity, Interpolation, Key, TangentMode, Track, TrackKind};
    use crate::{SegmentCursor, TrackCurve};

    /// Every sample, velocity and key tangent of two curves, bit for bit.
    fn assert_same(a: &TrackCurve, b: &TrackCurve) {
        let (t0, t1) = b.domain();
        let (mut ca, mut cb) = (SegmentCursor::new(), SegmentCursor::new());
        let dim = b.dim();
        let (mut va, mut vb) = (vec![0.0; dim], vec![0.0; dim]);
        let times = (0..=600).map(|i| t0 - 1.0 + (t1 - t0 + 2.0) * f64::from(i) / 600.0).chain(b.times().iter().copied());
        for t in times.clone() {
            // A fresh cursor: the index by time answers.
            a.sample(&mut SegmentCursor::new(), t, &mut va);
            b.sample(&mut SegmentCursor::new(), t, &mut vb);
            assert_eq!(va, vb, "value at {t}, random access");
        }
        for t in times {
            a.sample(&mut ca, t, &mut va);
            b.sample(&mut cb, t, &mut vb);
            assert_eq!(va, vb, "value at {t}");
            a.velocity(&mut ca, t, &mut va);
            b.velocity(&mut cb, t, &mut vb);
            assert_eq!(va, vb, "velocity at {t}");
        }
        assert_eq!(a.times(), b.times());
        for i in 0..b.times().len() {
            assert_eq!(a.key_value(i), b.key_value(i));
            assert_eq!(a.incoming_tangent(i), b.incoming_tangent(i), "key {i}");
            assert_eq!(a.outgoing_tangent(i), b.outgoing_tangent(i), "key {i}");
        }
    }

    fn track(mode: usize, keys: Vec<Key>) -> Track {
        let (interp, tangents, ending) = [
            (Interpolation::Tcb, TangentMode::Seed, Ending::ZeroCurvature),
            (Interpolation::Tcb, TangentMode::TimeAdjusted, Ending::ZeroCurvature),
            (Interpolation::Cubic, TangentMode::Seed, Ending::ZeroSlope),
            (Interpolation::Cubic, TangentMode::Seed, Ending::ZeroCurvature),
            (Interpolation::Linear, TangentMode::Seed, Ending::ZeroCurvature),
            (Interpolation::Step, TangentMode::Seed, Ending::ZeroCurvature),
        ][mode];
        let mut t = Track::new("t", TrackKind::Vec2, interp).with_keys(keys);
        (t.tangents, t.ending_start, t.ending_end) = (tangents, ending, ending);
        (t.pre_infinity, t.post_infinity) = (Infinity::Linear, Infinity::Linear);
        t
    }

    /// Keys 0.5 s (or, with `jump`, 0 s) apart from `t`, with TCB parameters and ease.
    fn keys(start: f64, spec: &[(bool, f64, f64)]) -> Vec<Key> {
        let mut t = start;
        spec.iter()
            .map(|&(jump, v, p)| {
                t += if jump { 0.0 } else { 0.25 + p.abs() };
                Key::new(t, vec![v, v * p]).with_tcb(p * 0.9, -p * 0.5, p * 0.3).with_ease(p.abs() * 0.4, (1.0 - p.abs()) * 0.3)
            })
            .collect()
    }

    /// A Squad track respliced is compiled whole, but refits only the segments whose keys
    /// or control points changed, and is the same curve, bit for bit. A key's control points
    /// depend on its neighbours, and segment `s` on keys `s`, `s + 1` and their control
    /// points: turning key 20 changes segments 18–21 (4); a key inserted as key 41 changes
    /// 39–42 (4); removing key 10 changes 8–10 (3).
    #[test]
    fn a_respliced_squad_track_refits_only_what_changed() {
        let rotation = |i: usize, turn: f64| {
            let (a, b) = (0.3 * i as f64 + turn, 0.17 * i as f64);
            crate::quat::normalize(&[a.sin() * 0.4, b.cos() * 0.3, (a + b).sin() * 0.2, 1.0]).to_vec()
        };
        let old = Track::new("r", TrackKind::Quat, Interpolation::Squad).with_keys((0..60).map(|i| Key::new(0.1 * i as f64, rotation(i, 0.0))).collect());
        let fitted = |c: &TrackCurve| match &c.segments {
            super::Segments::Rotation(super::super::rotation::Rotation::Squad { polys, .. }) => polys.fitted_anew(),
            _ => unreachable!(),
        };
        let before = TrackCurve::new(&old).unwrap();
        assert_eq!(fitted(&before), 59);
        // Key 20 turned; then a key inserted after key 40; then key 10 removed.
        let mut turned = old.clone();
        turned.keys[20].value = rotation(20, 0.5);
        let mut inserted = old.clone();
        inserted.keys.insert(41, Key::new(4.05, rotation(40, 0.2)));
        let mut removed = old.clone();
        removed.keys.remove(10);
        for (now, at, gone, refits) in [(&turned, 20, 1, 4), (&inserted, 41, 0, 4), (&removed, 10, 1, 3)] {
            let spliced = before.clone().respliced(now, at, gone).unwrap();
            assert_same(&spliced, &TrackCurve::new(now).unwrap());
            assert_eq!(fitted(&spliced), refits);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Keys `at..at + removed` of a random track replaced by `added` new keys fitting in
        /// their time span: the respliced curve is the new track compiled whole.
        #[test]
        fn a_respliced_curve_is_the_track_compiled_anew(
            mode in 0usize..6,
            spec in prop::collection::vec((prop::bool::weighted(0.05), -3.0f64..3.0, -1.0f64..1.0), 8..40),
            at_frac in 0.0f64..1.0,
            removed in 0usize..4,
            new in prop::collection::vec((-3.0f64..3.0, -1.0f64..1.0), 0..4),
        ) {
            let old = track(mode, keys(0.0, &spec));
            let n = old.keys.len();
            let at = ((at_frac * n as f64) as usize).min(n);
            let removed = removed.min(n - at);
            // New keys spread evenly strictly between the neighbours' times.
            let t_lo = if at == 0 { old.keys[0].time - 1.0 } else { old.keys[at - 1].time };
            let t_hi = if at + removed == n { old.keys[n - 1].time + 1.0 } else { old.keys[at + removed].time };
            prop_assume!(t_hi > t_lo);
            let added: Vec<Key> = new.iter().enumerate().map(|(i, &(v, p))| {
                let t = t_lo + (t_hi - t_lo) * (i + 1) as f64 / (new.len() + 1) as f64;
                Key::new(t, vec![v, p]).with_tcb(p, 0.2 * p, -0.3 * p).with_ease(0.1, 0.2)
            }).collect();
            let mut now = old.clone();
            now.keys.splice(at..at + removed, added);
            prop_assume!(crate::curve::validate(&now).is_ok() && now.keys.len() >= 2);
            let whole = TrackCurve::new(&now).unwrap();
            let spliced = TrackCurve::new(&old).unwrap().respliced(&now, at, removed).unwrap();
            assert_same(&spliced, &whole);
        }
    }
}
