//! Changes of many keys on the document side, without egui, each one undo step (or part of
//! the open gesture): several tracks' key edits applied together, a key drag's local splices,
//! the keys a worker changed and compiled, and the handle types of the selected keys (the `V`
//! menu); the selection follows the keys. The rules themselves are the engine's
//! ([`crate::edit::intent`], [`crate::handles`]).

use super::DocState;
use crate::app::compiled_track::{ChangedKeys, CompiledTrack};
use crate::app::key_change::HandleSides;
use crate::app::message::Status;
use crate::edit::intent::{KeyEdit, KeyRef};
use crate::{Edit, Interpolation, TrackCurve};

impl DocState {
    /// Applies edits of several tracks' keys (into the open gesture, or each as a step), then
    /// recompiles the changed tracks on every core and moves each one's selected keys. An edit
    /// that is refused leaves its track as it was; the others still apply, and the first
    /// refusal is returned.
    pub fn apply_key_edits(&mut self, label: &str, edits: Vec<KeyEdit>) -> Result<(), Status> {
        self.put_keys(label, edits.into_iter().map(|KeyEdit { track, edit, selected }| (track, NewKeys::Edit(edit), selected)))
    }

    /// Applies splices that each reach a small part of their track (a key drag's frame), one
    /// at a time, each track's curve recompiled where the splice reaches
    /// ([`Self::apply`], `TrackCurve::respliced`, bit for bit a full compile) and its selected
    /// keys moved. A refused one leaves its track as it was; the others still apply, and the
    /// first refusal is returned.
    pub fn apply_local_splices(&mut self, label: &str, edits: Vec<KeyEdit>) -> Result<(), Status> {
        let mut refused = None;
        for KeyEdit { track, edit, selected } in edits {
            match self.apply(label, edit) {
                Ok(()) => self.reselect_track(track, selected),
                Err(s) => _ = refused.get_or_insert(s),
            }
        }
        refused.map_or(Ok(()), Err)
    }

    /// Puts in place keys a worker changed and compiled (`planner.rs`), as
    /// [`Self::apply_key_edits`] does, but nothing is checked or compiled again here. A track
    /// whose new keys did not compile is left as it was.
    pub fn install_key_changes(&mut self, label: &str, changed: Vec<ChangedKeys>) -> Result<(), Status> {
        self.put_keys(label, changed.into_iter().map(|c| (c.track, NewKeys::Compiled(c.keys, c.compiled), c.selected)))
    }

    /// What [`Self::apply_key_edits`] and [`Self::install_key_changes`] share: each track's
    /// new keys applied, the changed tracks compiled (those compiled already taken as they
    /// are), the curves replaced by a track's first change in the gesture parked for undo, and
    /// the selection moved.
    fn put_keys(&mut self, label: &str, changes: impl Iterator<Item = (usize, NewKeys, Vec<KeyRef>)>) -> Result<(), Status> {
        let compiled_now = self.curves_revision_is_current();
        let (mut changed, mut first, mut ready) = (Vec::new(), Vec::new(), std::collections::HashMap::new());
        let mut refused = None;
        for (track, new, selected) in changes {
            let untouched = !self.document.gesture_touches(track);
            let result = match new {
                NewKeys::Edit(edit) => self.document.apply(label, edit),
                NewKeys::Compiled(keys, CompiledTrack { curve: Ok(curve), ranges, .. }) => {
                    self.document.apply_compiled_keys(label, track, keys, &curve).map(|()| _ = ready.insert(track, CompiledTrack::new(Ok(curve), ranges)))
                }
                NewKeys::Compiled(_, CompiledTrack { curve: Err(e), .. }) => Err(e.into()),
            };
            match result {
                Ok(()) => {
                    changed.push((track, selected));
                    first.extend(untouched.then_some(track));
                }
                Err(e) => _ = refused.get_or_insert_with(|| Status::error(format!("{label}: {e}"))),
            }
        }
        if compiled_now {
            let in_gesture = self.document.in_gesture();
            let compiled = self.compile_tracks(changed.iter().map(|(t, _)| *t).collect(), &mut ready, |t| in_gesture && first.contains(&t));
            let replaced = self.install_compiled(compiled);
            self.park_first_changes(&first, replaced);
        } else {
            self.refresh();
        }
        for (track, selected) in changed {
            self.reselect_track(track, selected);
        }
        refused.map_or(Ok(()), Err)
    }

    /// Takes the keys of `tracks` out of the selection, in one pass over it.
    pub fn deselect_tracks(&mut self, tracks: &[usize]) {
        let mut gone = vec![false; self.project().tracks.len()];
        tracks.iter().for_each(|&t| gone[t] = true);
        self.selection.retain(|k| !gone.get(k.track).copied().unwrap_or(false));
    }

    /// Makes `selected` the selected keys of `track`, leaving the selection (and its
    /// generation) as it is when they already are.
    fn reselect_track(&mut self, track: usize, selected: Vec<KeyRef>) {
        if self.selection.of_track(track).eq(selected.iter()) {
            return;
        }
        let old: Vec<KeyRef> = self.selection.of_track(track).copied().collect();
        for k in &old {
            self.selection.remove(k);
        }
        self.selection.extend(selected);
    }

    /// Sets the handles `sides` names of every selected key on a Bezier track
    /// ([`crate::handles::set_handle_types`]), as one undo step.
    pub fn set_handle_types(&mut self, sides: HandleSides) -> Status {
        let kind = sides.kind();
        use rayon::prelude::*;
        let tracks = self.selection.tracks();
        // Each track's new handles on its own core, from its curve as compiled now.
        let jobs: Vec<(usize, Vec<usize>, Option<&TrackCurve>)> =
            tracks.iter().map(|&ti| (ti, self.selection.of_track(ti).map(|k| k.key).collect(), self.curve(ti).and_then(|c| c.as_ref().ok()))).collect();
        let project = self.project();
        let skipped: usize =
            jobs.iter().filter(|(ti, _, _)| project.tracks.get(*ti).is_some_and(|t| t.interpolation != Interpolation::Bezier)).map(|(_, w, _)| w.len()).sum();
        let edits: Vec<(usize, KeyEdit)> = jobs
            .into_par_iter()
            .filter_map(|(ti, which, curve)| {
                let (track, curve) = (project.tracks.get(ti)?, curve?);
                if track.interpolation != Interpolation::Bezier {
                    return None;
                }
                let keys = crate::handles::set_handle_types(track, curve, &which, sides.left, sides.right);
                let selected = which.iter().map(|&key| KeyRef { track: ti, key }).collect();
                (keys != track.keys).then(|| (which.len(), KeyEdit { track: ti, edit: Edit::SetKeys { track: ti, keys: keys.into() }, selected }))
            })
            .collect();
        if edits.is_empty() {
            return Status::message(match (skipped, tracks.is_empty()) {
                (_, true) => "Handle type: select keys on a Bezier track first".to_owned(),
                (0, false) => format!("The selected keys' {} are {kind:?} already", sides.which()),
                _ => "Handle type: the selected keys are not Bézier keys (Key > Convert to Bézier first)".to_owned(),
            });
        }
        let changed = edits.iter().map(|(n, _)| n).sum::<usize>();
        self.document.begin_gesture("Set handle type");
        let result = self.apply_key_edits("Set handle type", edits.into_iter().map(|(_, e)| e).collect());
        self.document.end_gesture();
        if let Err(s) = result {
            return s;
        }
        let note = if skipped > 0 { format!(" ({skipped} keys not on Bezier tracks left as they were)") } else { String::new() };
        Status::message(format!("{}{note}", sides.set_text(changed)))
    }
}

/// A track's new keys for `DocState::put_keys`: an edit to check and compile here, or keys a
/// worker compiled.
enum NewKeys {
    Edit(crate::Edit),
    Compiled(Vec<crate::Key>, CompiledTrack),
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::{HandleType, Key, Project, Track, TrackKind};

    fn doc() -> DocState {
        let keys = vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![1.0]), Key::new(2.0, vec![0.0])];
        let bezier = Track::new("b", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys.clone());
        let linear = Track::new("l", TrackKind::Scalar, Interpolation::Linear).with_keys(keys);
        DocState::new(Project { tracks: vec![bezier, linear], ..Project::default() }, None)
    }

    #[test]
    fn setting_handle_types_is_one_undo_step_and_skips_other_tracks() {
        let mut d = doc();
        let before = d.project().clone();
        d.selection = BTreeSet::from([KeyRef { track: 0, key: 0 }, KeyRef { track: 0, key: 1 }, KeyRef { track: 1, key: 1 }]).into();
        let s = d.set_handle_types(HandleSides::both(HandleType::Vector));
        assert_eq!(s.text, "Set the handles of 2 keys to Vector (1 keys not on Bezier tracks left as they were)");
        let keys = &d.project().tracks[0].keys;
        assert_eq!(
            (keys[0].handles, keys[1].handles, keys[2].handles.0),
            ((HandleType::Vector, HandleType::Vector), (HandleType::Vector, HandleType::Vector), HandleType::AutoClamped)
        );
        // Key 1 now points at its neighbours: left handle (−1/3, −1/3), a third of the way to (0, 0).
        let (left, _) = d.curve(0).unwrap().as_ref().unwrap().bezier_handles(1, 0).unwrap();
        assert!((left.0 + 1.0 / 3.0).abs() < 1e-12 && (left.1 + 1.0 / 3.0).abs() < 1e-12, "{left:?}");
        assert_eq!(d.project().tracks[1], before.tracks[1]);
        assert_eq!(d.undo().text, "Undid Set handle type");
        assert_eq!(d.project(), &before);
    }

    #[test]
    fn handle_types_on_no_bezier_keys_say_what_to_do() {
        let mut d = doc();
        assert_eq!(d.set_handle_types(HandleSides::both(HandleType::Free)).text, "Handle type: select keys on a Bezier track first");
        d.selection = BTreeSet::from([KeyRef { track: 1, key: 0 }]).into();
        assert!(d.set_handle_types(HandleSides::both(HandleType::Free)).text.contains("Convert to Bézier first"));
        assert!(d.document.undo_label().is_none());
    }
}
