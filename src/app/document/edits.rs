//! Document-side commands of the inspector, the Key menu and File > Import, without egui,
//! each one undo step: a change of several tracks' keys applied together, which tracks the
//! tools act on, the handle types of the selected keys (the `V` menu), and an import's tracks
//! added to the open project. The rules themselves are the engine's ([`crate::handles`],
//! [`crate::import`]).

use std::collections::BTreeSet;

use super::DocState;
use crate::app::compiled_track::{ChangedKeys, CompiledTake, CompiledTrack};
use crate::app::key_change::HandleSides;
use crate::app::message::Status;
use crate::edit::intent::{self, KeyEdit, KeyRef};
use crate::{Edit, Interpolation, TrackCurve};

impl DocState {
    /// Copies the selected keys of the first track with a selection ([`intent::copy_keys`]).
    pub fn copy(&mut self) -> Status {
        match intent::copy_keys(self.project(), &self.selection) {
            Some((clip, name)) => {
                let n = clip.keys.len();
                self.clipboard = Some(clip);
                Status::message(format!("Copied {n} keys from \"{name}\""))
            }
            None => Status::message("Copy: select keys first"),
        }
    }

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

    /// The tracks of the selected keys, or the active track: what the tools act on (Convert
    /// to Bézier, Simplify and Convert rotation whole; Smooth and Scale time
    /// [`Self::key_targets`]).
    #[must_use]
    pub fn convert_targets(&self) -> BTreeSet<usize> {
        let mut tracks: BTreeSet<usize> = self.selection.tracks().into_iter().collect();
        tracks.extend(self.active_track.filter(|_| tracks.is_empty()));
        tracks.retain(|&t| t < self.project().tracks.len());
        tracks
    }

    /// Adds the tracks of an imported project to the open one, as one undo step; names that are
    /// taken get a number.
    pub fn add_imported(&mut self, take: CompiledTake, summary: &str) -> Status {
        let n = take.project.tracks.len();
        self.document.begin_gesture("Import");
        // Each track with the curve the import's worker compiled (names made unique).
        let mut refused = None;
        let mut compiled = take.tracks.into_iter();
        for mut track in take.project.tracks {
            track.name = crate::edit::intent::unique_name(self.project(), &track.name);
            if let Err(s) = self.append_compiled("Import", track, compiled.next()) {
                refused = Some(s);
                break;
            }
        }
        self.document.end_gesture();
        refused.unwrap_or_else(|| Status::message(format!("Added {n} tracks from {summary}")))
    }

    /// Replaces every track with the recovered project's, as one undo step; Save then writes
    /// to `origin` if the recovered work had a file. The recovery worker compiled `take`, so
    /// each track goes in with its curve and nothing is compiled here.
    pub fn restore(&mut self, take: CompiledTake, origin: Option<std::path::PathBuf>) -> Status {
        const LABEL: &str = "Restore recovered work";
        let n = take.project.tracks.len();
        self.document.begin_gesture(LABEL);
        let removes = (0..self.project().tracks.len()).rev().map(|index| Edit::RemoveTrack { index });
        let mut refused = removes.into_iter().find_map(|edit| self.document.apply(LABEL, edit).err()).map(|e| Status::error(format!("{LABEL}: {e}")));
        if refused.is_none() {
            let mut compiled = take.tracks.into_iter();
            refused = take.project.tracks.into_iter().find_map(|track| self.append_compiled(LABEL, track, compiled.next()).err());
        }
        self.document.end_gesture();
        self.refresh();
        self.selection.clear();
        if let Some(s) = refused {
            return s;
        }
        self.active_track = (n > 0).then_some(0);
        if origin.is_some() {
            self.path = origin;
        }
        Status::message(format!("Restored {n} tracks of recovered work (Ctrl+Z undoes it); save to keep them"))
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
                (keys != track.keys).then(|| (which.len(), KeyEdit { track: ti, edit: Edit::SetKeys { track: ti, keys }, selected }))
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
