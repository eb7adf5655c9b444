//! Undo and redo put back the compiled curves of the state they restore instead of compiling
//! them again.
//!
//! Undoing a change of every key of a mocap take (200 tracks × 5,000 keys) compiled the 200
//! tracks again, about 100 ms on this machine's two cores, and redo did the same. Now the
//! curves an edit replaces are kept with its undo step (`Document::parked_mut`, counted in the
//! undo history's key limit), and the curves undo replaces with its redo step: reverting a
//! step swaps curves in place. The rules that keep them right:
//! - an edit parks a track's old curve only when it is the step's first change of that track
//!   (`Document::gesture_touches`), so the parked curve is of the state the undo restores;
//! - only inside a gesture (the step the curves are parked with is the edit's own);
//! - reverting a step drops what was parked with it (`Document::revert`); the reverted
//!   tracks' replaced curves are parked with the step on the other side, all of them current.

use std::collections::HashMap;

use super::DocState;
use crate::app::compiled_track::CompiledTrack;
use crate::app::key_ranges::KeyRanges;
use crate::app::message::Status;
use crate::edit::{Parked, Side};
use crate::TrackCurve;

/// The curves parked with one undo step, by track.
struct ParkedCurves(HashMap<usize, CompiledTrack>);

impl DocState {
    pub fn undo(&mut self) -> Status {
        self.revert(Side::Undo)
    }

    pub fn redo(&mut self) -> Status {
        self.revert(Side::Redo)
    }

    /// Reverts the open gesture and drops it, so neither undo nor redo sees it
    /// (`Document::abandon_gesture`; a slider's Cancel): its tracks' curves come from what is
    /// parked with it, or are compiled. Whether anything was reverted.
    pub fn abandon_gesture(&mut self) -> bool {
        if !self.document.in_gesture() {
            return false;
        }
        let tracks = self.document.gesture_tracks().filter(|_| self.curves_revision_is_current());
        let parked = self.document.parked_mut(Side::Undo).and_then(Option::take);
        if !self.document.abandon_gesture() {
            return false;
        }
        let Some(tracks) = tracks else {
            self.refresh();
            return true;
        };
        let mut parked = parked.and_then(|p| p.data.downcast::<ParkedCurves>().ok()).map_or_else(HashMap::new, |p| p.0);
        let compiled = self.compile_tracks(tracks, &mut parked, |_| true);
        drop(self.install_compiled(compiled));
        true
    }

    /// Reverts the next step from `side`: its tracks' curves come from what is parked with it,
    /// or are compiled; the curves replaced are parked with the step on the other side.
    fn revert(&mut self, side: Side) -> Status {
        self.document.end_gesture();
        let current = self.curves_revision_is_current();
        let tracks = match side {
            Side::Undo => self.document.undo_tracks(),
            Side::Redo => self.document.redo_tracks(),
        }
        .filter(|_| current);
        let parked = self.document.parked_mut(side).and_then(Option::take);
        let done = match side {
            Side::Undo => self.document.undo().map(|l| format!("Undid {l}")),
            Side::Redo => self.document.redo().map(|l| format!("Redid {l}")),
        };
        let Some(done) = done else {
            return Status::message(if side == Side::Undo { "Nothing to undo" } else { "Nothing to redo" });
        };
        let Some(tracks) = tracks else {
            self.refresh();
            return Status::message(done);
        };
        let mut parked = parked.and_then(|p| p.data.downcast::<ParkedCurves>().ok()).map_or_else(HashMap::new, |p| p.0);
        let compiled = self.compile_tracks(tracks, &mut parked, |_| true);
        let replaced = self.install_compiled(compiled);
        let other = if side == Side::Undo { Side::Redo } else { Side::Undo };
        self.park(other, replaced);
        Status::message(done)
    }

    /// Tracks `tracks` compiled from the project as it is, on every core, except those whose
    /// curves `parked` holds, which are taken from it. A compiled track's key ranges are
    /// refreshed from its old ones: in place, unless `keep_old` says they are to be parked.
    pub(super) fn compile_tracks(
        &mut self,
        mut tracks: Vec<usize>,
        parked: &mut HashMap<usize, CompiledTrack>,
        keep_old: impl Fn(usize) -> bool,
    ) -> Vec<(usize, CompiledTrack)> {
        use rayon::prelude::*;
        tracks.sort_unstable();
        tracks.dedup();
        let (ready, jobs): (Vec<usize>, Vec<usize>) = tracks.into_iter().partition(|i| parked.contains_key(i));
        let jobs: Vec<(usize, KeyRanges)> =
            jobs.into_iter().map(|i| (i, if keep_old(i) { self.compiled[i].ranges.clone() } else { std::mem::take(&mut self.compiled[i].ranges) })).collect();
        let project = self.document.project();
        let mut compiled: Vec<(usize, CompiledTrack)> = jobs
            .into_par_iter()
            .map(|(i, mut ranges)| {
                ranges.refresh(&project.tracks[i]);
                (i, CompiledTrack::new(TrackCurve::new(&project.tracks[i]), ranges))
            })
            .collect();
        compiled.extend(ready.into_iter().filter_map(|i| parked.remove(&i).map(|r| (i, r))));
        compiled
    }

    /// Keeps `replaced` (curves an edit, undo or redo just replaced) with the step reverted
    /// next from `side`, adding to what it holds.
    pub(super) fn park(&mut self, side: Side, replaced: Vec<(usize, CompiledTrack)>) {
        if replaced.is_empty() {
            return;
        }
        let Some(slot) = self.document.parked_mut(side) else { return };
        let mut held = slot.take().and_then(|p| p.data.downcast::<ParkedCurves>().ok()).map_or_else(HashMap::new, |p| p.0);
        for (i, r) in replaced {
            held.entry(i).or_insert(r);
        }
        let keys = held.values().map(|r| r.curve.as_ref().map_or(0, |c| c.times().len())).sum();
        *slot = Some(Parked { data: Box::new(ParkedCurves(held)), keys });
    }

    /// [`Self::park`] with the open gesture of the curves replaced by its first change of
    /// each track (`first`: the tracks whose change was the gesture's first).
    pub(super) fn park_first_changes(&mut self, first: &[usize], replaced: Vec<(usize, CompiledTrack)>) {
        if self.document.in_gesture() {
            let replaced = replaced.into_iter().filter(|(i, _)| first.contains(i)).collect();
            self.park(Side::Undo, replaced);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::edit::intent::{change_keys, KeyRef};
    use crate::{Edit, Interpolation, Key, Project, Track, TrackKind};

    fn doc() -> DocState {
        let track = |t: usize| {
            let keys = (0..30).map(|i| Key::new(f64::from(i) * 0.1, vec![(f64::from(i) * 0.7 + t as f64).sin(), f64::from(i)])).collect();
            Track::new(format!("t{t}"), TrackKind::Vec2, Interpolation::Tcb).with_keys(keys)
        };
        let mut d = DocState::new(Project { tracks: (0..3).map(track).collect(), ..Project::default() }, None);
        d.selection = d
            .project()
            .tracks
            .iter()
            .enumerate()
            .flat_map(|(track, t)| (0..t.keys.len()).map(move |key| KeyRef { track, key }))
            .collect::<BTreeSet<_>>()
            .into();
        d
    }

    /// Where track `i`'s curve keeps its times: the same address means the same compiled curve.
    fn curve_at(d: &DocState, i: usize) -> *const f64 {
        d.curve(i).unwrap().as_ref().unwrap().times().as_ptr()
    }

    /// Every track's curve gives what a fresh compile of the track gives, bit for bit.
    fn assert_curves_fresh(d: &DocState) {
        for (i, track) in d.project().tracks.iter().enumerate() {
            let fresh = TrackCurve::new(track).unwrap();
            let ours = d.curve(i).unwrap().as_ref().unwrap();
            let at = |c: &TrackCurve, t: f64| {
                let mut out = vec![0.0; c.dim()];
                c.sample(&mut crate::SegmentCursor::new(), t, &mut out);
                out
            };
            for k in 0..300 {
                let t = f64::from(k) * 0.01;
                assert_eq!(at(ours, t), at(&fresh, t), "track {i} at {t}");
            }
        }
    }

    fn set_tension(d: &mut DocState, tension: f64) {
        let edits = change_keys(d.project(), &d.selection, |k| k.tension = tension);
        d.apply_key_edits("Set tension", edits).unwrap();
    }

    /// A slider dragged over three tracks (three frames, one gesture), then undone and redone
    /// twice: undo puts back the very curves from before the drag, with their stamps (what the
    /// views drew from them is theirs still), redo those after it, and they are what compiling
    /// the tracks gives.
    #[test]
    fn undo_and_redo_put_back_the_curves_of_the_state_they_restore() {
        let mut d = doc();
        let stamps = |d: &DocState| (0..3).map(|i| d.curve_stamp(i)).collect::<Vec<_>>();
        let (before, stamps_before): (Vec<_>, _) = ((0..3).map(|i| curve_at(&d, i)).collect(), stamps(&d));
        d.document.begin_gesture("Set tension");
        for tension in [0.2, 0.4, 0.6] {
            set_tension(&mut d, tension);
        }
        d.document.end_gesture();
        let (after, stamps_after): (Vec<_>, _) = ((0..3).map(|i| curve_at(&d, i)).collect(), stamps(&d));
        assert!(stamps_after.iter().zip(&stamps_before).all(|(a, b)| a != b), "the drag's curves are new");
        assert_curves_fresh(&d);
        for _ in 0..2 {
            assert_eq!(d.undo(), Status::message("Undid Set tension"));
            assert!(d.project().tracks.iter().flat_map(|t| &t.keys).all(|k| k.tension == 0.0));
            assert_eq!((0..3).map(|i| curve_at(&d, i)).collect::<Vec<_>>(), before, "the curves from before the drag, not compiled again");
            assert_eq!(stamps(&d), stamps_before, "with their stamps");
            assert_curves_fresh(&d);
            assert_eq!(d.redo(), Status::message("Redid Set tension"));
            assert!(d.project().tracks.iter().flat_map(|t| &t.keys).all(|k| k.tension == 0.6));
            assert_eq!((0..3).map(|i| curve_at(&d, i)).collect::<Vec<_>>(), after);
            assert_eq!(stamps(&d), stamps_after);
            assert_curves_fresh(&d);
        }
    }

    /// A gesture whose first change of a track did not park its curve (a whole-track edit)
    /// and whose later changes would: undo compiles that track rather than put back a curve
    /// from the middle of the gesture.
    #[test]
    fn a_curve_from_the_middle_of_a_gesture_is_never_put_back() {
        let mut d = doc();
        d.document.begin_gesture("Edit");
        let mut track = d.project().tracks[1].clone();
        track.keys[3].value[0] += 1.0;
        d.apply("Edit", Edit::SetTrack { index: 1, track }).unwrap();
        set_tension(&mut d, 0.5);
        d.document.end_gesture();
        d.undo();
        assert_eq!(d.project().tracks[1].keys.value(3)[0], doc().project().tracks[1].keys.value(3)[0]);
        assert_curves_fresh(&d);
    }
}
