//! Recompiling a track after a few of its keys were replaced (a drag of one key of a
//! 100,000-key track): only the segments and tangents the change reaches are rebuilt, so a
//! drag frame costs the keys moved, not the track.
//!
//! A TCB key's tangents depend on the keys up to two away (a run's end tangent uses its
//! neighbour's, and whether a run ends depends on the next gap), a TCB segment on its two
//! keys' tangents, a three.js Cubic segment on the keys one before and after (unless an end
//! wraps around), Step and Linear segments on their keys alone, a Squad segment on the keys
//! one before to two after its start (through its control points). So when keys
//! `at..at + removed` become `at..at + added`, only the tangents of keys
//! `at − 2 .. at + added + 2` and the segments `at − 3 .. at + added + 2` change. They are
//! taken from the keys `at − 5 .. at + added + 5` compiled as a track of their own by
//! [`TrackCurve::new`] — the same code — where they see the same keys as in the whole track,
//! so the result is bit for bit the whole track compiled anew (proptests below). A Squad
//! part's first key is negated first when the whole track's sign alignment turned it; a
//! change that turns the alignment of the keys after it compiles the whole track, reusing
//! the fitted polynomials of its unchanged segments (`crate::quat::SquadPolys::reusing`).
//! Other modes, and anything unusual, compile the whole track.

use super::modes::Splice;
use super::{Segments, TrackCurve};
use crate::error::TrackError;
use crate::model::{Ending, Track, TrackKind};

/// Keys of context taken on each side of the replaced ones.
const CONTEXT: usize = 5;

impl TrackCurve {
    /// The curve of `track`, given `self` compiled from `track` as it was before its keys
    /// `at..at + removed` were replaced by `track.keys[at..at + added]`: bit for bit what
    /// [`TrackCurve::new`]`(track)` returns, at a cost proportional to the keys replaced for
    /// Step, Linear, TCB, Cubic (except with a `WrapAround` end) and Squad tracks (except when
    /// the change turns the sign alignment of the keys after it), and to the track otherwise.
    /// Nothing but the keys may have changed.
    pub fn respliced(mut self, track: &Track, at: usize, removed: usize) -> Result<TrackCurve, TrackError> {
        let (old_n, n) = (self.keys.len(), track.keys.len());
        // How far a change reaches is the mode's to say (its row of the table of modes).
        let splice = track.interpolation.mode().splice;
        let local = match splice {
            Splice::Local => true,
            Splice::LocalUnlessWrapAround => track.ending_start != Ending::WrapAround && track.ending_end != Ending::WrapAround,
            Splice::Whole | Splice::Own => false,
        };
        let Some(added) = (n + removed).checked_sub(old_n) else { return TrackCurve::compile(track, Some(&self)) };
        if splice == Splice::Own && self.interpolation == track.interpolation {
            return match self.squad_spliced(track, at, removed, added) {
                Ok(curve) => Ok(curve),
                Err(old) => TrackCurve::compile(track, Some(&old)),
            };
        }
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
        let part = Track { name: track.name.clone(), binding: track.binding.clone(), keys: track.keys.part(lo..hi), ..*track };
        // A part that fails (overflow) is reported for the whole track, with its key numbers.
        let Ok(part) = TrackCurve::new(&part) else { return TrackCurve::new(track) };
        let dim = self.dim();
        // Not a quaternion track: the values are used as stored, so a track held as columns
        // lends its own (as `TrackCurve::new` would).
        match track.keys.columns() {
            Some(c) if c.dim == dim => (self.keys.times, self.keys.values) = (c.times.clone(), c.values.clone()),
            _ => {
                self.keys.splice(at, removed, (at..at + added).map(|i| track.keys.time(i)), (at..at + added).flat_map(|i| track.keys.value(i).iter().copied()))
            }
        }
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
        self.reindexed(at, removed, added);
        Ok(self)
    }

    /// The index by time updated where keys moved (or built anew when the count changed),
    /// and the end slopes, after keys `at..at + removed` became `at..at + added`.
    fn reindexed(&mut self, at: usize, removed: usize, added: usize) {
        let n = self.keys.len();
        let moved_in_place = removed == added && self.index.respliced(&self.keys.times, at..at + added);
        if !moved_in_place {
            self.index = if n >= super::INDEX_MIN_KEYS { crate::search::BucketIndex::new(&self.keys.times) } else { crate::search::BucketIndex::default() };
        }
        self.extension.start_slope = self.end_slope(false);
        self.extension.end_slope = self.end_slope(true);
    }

    /// [`Self::respliced`] for a Squad track, locally: keys `lo..hi` (the replaced ones and
    /// [`CONTEXT`] on each side) compiled as a track of their own, its first key negated
    /// first when the whole track's sign alignment turned it (negation is exact, so the part
    /// aligns every key as the whole does). A Squad segment `s` depends on keys `s − 1 ..
    /// s + 2` and the control points of keys `s` and `s + 1` on their neighbours, so the
    /// part's segments, control points and aligned values near the change are the whole's,
    /// and are spliced in; its polynomials are appended ([`crate::quat::SquadPolys::splice`]).
    /// Gives `self` back (for a whole compile) when the change turned the alignment of the
    /// keys after it, or anything else is unusual.
    fn squad_spliced(mut self, track: &Track, at: usize, removed: usize, added: usize) -> Result<TrackCurve, TrackCurve> {
        let (old_n, n) = (self.keys.len(), track.keys.len());
        if track.kind != TrackKind::Quat || self.kind != TrackKind::Quat || old_n < 2 * CONTEXT || n < 2 * CONTEXT || at + removed > old_n {
            return Err(self);
        }
        let (lo, hi) = (at.saturating_sub(CONTEXT), (at + added + CONTEXT).min(n));
        let mut part = Track { name: track.name.clone(), binding: track.binding.clone(), keys: track.keys.part(lo..hi), ..*track };
        if lo > 0 {
            // The whole track's aligned key `lo` (unchanged: before the change) is the raw
            // key normalised, or its negation.
            let raw = crate::quat::normalize(&[part.keys.value(0)[0], part.keys.value(0)[1], part.keys.value(0)[2], part.keys.value(0)[3]]);
            let aligned = self.keys.value(lo);
            if aligned == crate::quat::neg(&raw) {
                part.keys[0].value.iter_mut().for_each(|v| *v = -*v);
            } else if aligned != raw {
                return Err(self);
            }
        }
        let Ok(part) = TrackCurve::new(&part) else { return Err(self) };
        // The first key after the change aligned as before, so every later key is too.
        if at + added < n && part.keys.value(hi - 1 - lo) != self.keys.value(hi - 1 - added + removed) {
            return Err(self);
        }
        let (Segments::Rotation(whole), Segments::Rotation(local)) = (&mut self.segments, &part.segments) else { return Err(self) };
        // Control points of keys at − 2 .. at + added + 2 and segments at − 3 .. at + added + 2
        // (clamped; old and new numbering), inside the part's own ends.
        let keys = (at.saturating_sub(2), (at + removed + 2).min(old_n), (at + added + 2).min(n));
        let segments = (at.saturating_sub(3), (at + removed + 2).min(old_n - 1), (at + added + 2).min(n - 1));
        if !whole.squad_splice(local, lo, keys, segments) {
            return Err(self);
        }
        self.keys.splice(at, removed, (at..at + added).map(|i| track.keys.time(i)), part.keys.values[(at - lo) * 4..(at + added - lo) * 4].iter().copied());
        self.reindexed(at, removed, added);
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

    /// Where a random replacement goes: `at` (a fraction of the keys) and `removed`, clamped
    /// to the track, and the time of new key `i` of `count`, spread evenly strictly between
    /// the neighbours' times; `None` when they leave no room.
    fn replaced(old: &Track, at_frac: f64, removed: usize) -> Option<(usize, usize, impl Fn(usize, usize) -> f64)> {
        let n = old.keys.len();
        let at = ((at_frac * n as f64) as usize).min(n);
        let removed = removed.min(n - at);
        let t_lo = if at == 0 { old.keys.time(0) - 1.0 } else { old.keys.time(at - 1) };
        let t_hi = if at + removed == n { old.keys.time(n - 1) + 1.0 } else { old.keys.time(at + removed) };
        (t_hi > t_lo).then_some((at, removed, move |i: usize, count: usize| t_lo + (t_hi - t_lo) * (i + 1) as f64 / (count + 1) as f64))
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

    /// A rotation of a smooth turn, `turn` added to one of its angles; `flip` negates it
    /// (the same rotation, the other hemisphere).
    fn rotation(i: usize, turn: f64, flip: bool) -> Vec<f64> {
        let (a, b) = (0.3 * i as f64 + turn, 0.17 * i as f64);
        let q = crate::quat::normalize(&[a.sin() * 0.4, b.cos() * 0.3, (a + b).sin() * 0.2, 1.0]);
        (if flip { crate::quat::neg(&q) } else { q }).to_vec()
    }

    fn squad_track(flip_odd: bool) -> Track {
        Track::new("r", TrackKind::Quat, Interpolation::Squad)
            .with_keys((0..60).map(|i| Key::new(0.1 * i as f64, rotation(i, 0.0, flip_odd && i % 2 == 1))).collect())
    }

    /// How many segments the curve's last build fitted.
    fn fitted(c: &TrackCurve) -> usize {
        match &c.segments {
            super::Segments::Rotation(super::super::rotation::Rotation::Squad { polys, .. }) => polys.fitted_anew(),
            _ => unreachable!(),
        }
    }

    /// Key 20 turned, a key inserted after key 40, key 10 removed: `(track, at, removed)`.
    fn squad_edits(old: &Track) -> [(Track, usize, usize); 3] {
        let mut turned = old.clone();
        turned.keys[20].value = rotation(20, 0.5, false);
        let mut inserted = old.clone();
        inserted.keys.insert(41, Key::new(4.05, rotation(40, 0.2, false)));
        let mut removed = old.clone();
        removed.keys.remove(10);
        [(turned, 20, 1), (inserted, 41, 0), (removed, 10, 1)]
    }

    /// A Squad track compiled anew from its previous curve refits only the segments whose
    /// keys or control points changed, and is the same curve, bit for bit. A key's control
    /// points depend on its neighbours, and segment `s` on keys `s`, `s + 1` and their
    /// control points: turning key 20 changes segments 18–21 (4); a key inserted as key 41
    /// changes 39–42 (4); removing key 10 changes 8–10 (3).
    #[test]
    fn a_squad_track_compiled_from_its_previous_curve_refits_only_what_changed() {
        let old = squad_track(false);
        let before = TrackCurve::new(&old).unwrap();
        assert_eq!(fitted(&before), 59);
        for ((now, ..), refits) in squad_edits(&old).iter().zip([4, 4, 3]) {
            let again = TrackCurve::compile(now, Some(&before)).unwrap();
            assert_same(&again, &TrackCurve::new(now).unwrap());
            assert_eq!(fitted(&again), refits);
        }
    }

    /// A Squad track respliced locally (the keys around the change compiled as a track of
    /// their own, whose segments are all that is fitted) is the track compiled whole, bit
    /// for bit: keys all in one hemisphere, and every other key stored in the other (so that
    /// the part's first key is negated to align as the whole track aligns it).
    #[test]
    fn a_squad_track_is_respliced_locally_as_compiled_whole() {
        for flip_odd in [false, true] {
            let old = squad_track(flip_odd);
            let before = TrackCurve::new(&old).unwrap();
            for (now, at, gone) in squad_edits(&old) {
                let spliced = before.clone().respliced(&now, at, gone).unwrap();
                assert_same(&spliced, &TrackCurve::new(&now).unwrap());
                // The part's segments: keys at − CONTEXT .. at + added + CONTEXT.
                let added = now.keys.len() + gone - old.keys.len();
                assert_eq!(fitted(&spliced), added + 2 * super::CONTEXT - 1);
            }
        }
    }

    /// A key turned into the other hemisphere of its successor turns the alignment of every
    /// key after it: the track is compiled whole (reusing what it can), the same curve.
    #[test]
    fn a_squad_edit_that_turns_the_alignment_compiles_the_track_whole() {
        let old = squad_track(false);
        let before = TrackCurve::new(&old).unwrap();
        // Rotations on a coarse grid of the unit sphere of quaternions, until one aligns
        // with key 19 but not with key 21.
        let grid = |i: usize| [-0.9, -0.3, 0.3, 0.9][i % 4];
        let flipped = (0..256usize)
            .map(|i| [grid(i), grid(i / 4), grid(i / 16), grid(i / 64)])
            .map(|q| {
                let mut now = old.clone();
                now.keys[20].value = crate::quat::normalize(&q).to_vec();
                now
            })
            .find(|now| TrackCurve::new(now).unwrap().key_value(30) != before.key_value(30))
            .expect("some turn of key 20 turns the alignment of the keys after it");
        let spliced = before.clone().respliced(&flipped, 20, 1).unwrap();
        assert_same(&spliced, &TrackCurve::new(&flipped).unwrap());
        assert!(fitted(&spliced) > 2 * super::CONTEXT + 1, "{} fitted", fitted(&spliced));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]

        /// Random Squad tracks (rotations in either hemisphere, a few keys at one time) with
        /// keys `at..at + removed` replaced by new ones: respliced, the track compiled whole.
        #[test]
        fn a_respliced_squad_track_is_the_track_compiled_anew(
            spec in prop::collection::vec((prop::bool::weighted(0.05), prop::array::uniform4(-1.0f64..1.0)), 10..40),
            at_frac in 0.0f64..1.0,
            removed in 0usize..3,
            new in prop::collection::vec(prop::array::uniform4(-1.0f64..1.0), 0..3),
        ) {
            prop_assume!(spec.iter().map(|s| s.1).chain(new.iter().copied()).all(|q| q.iter().map(|v| v * v).sum::<f64>() > 0.05));
            let mut t = 0.0;
            let keys = spec.iter().map(|&(jump, q)| {
                t += if jump { 0.0 } else { 0.3 };
                Key::new(t, q.to_vec())
            });
            let old = Track::new("r", TrackKind::Quat, Interpolation::Squad).with_keys(keys.collect());
            let place = replaced(&old, at_frac, removed);
            prop_assume!(place.is_some());
            let (at, removed, time) = place.unwrap();
            let added: Vec<Key> = new.iter().enumerate().map(|(i, q)| Key::new(time(i, new.len()), q.to_vec())).collect();
            let mut now = old.clone();
            now.keys.splice(at..at + removed, added);
            prop_assume!(crate::curve::validate(&now).is_ok() && now.keys.len() >= 2);
            let spliced = TrackCurve::new(&old).unwrap().respliced(&now, at, removed).unwrap();
            assert_same(&spliced, &TrackCurve::new(&now).unwrap());
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
            let place = replaced(&old, at_frac, removed);
            prop_assume!(place.is_some());
            let (at, removed, time) = place.unwrap();
            let added: Vec<Key> = new.iter().enumerate().map(|(i, &(v, p))| {
                let t = time(i, new.len());
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
