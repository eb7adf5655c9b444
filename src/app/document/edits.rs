//! Document-side commands of the inspector, the Key and File windows, without egui, each one
//! undo step: a change of several tracks' keys applied together, which tracks Convert to Bézier acts on and converting them, the handle types of the
//! selected keys (the `V` menu), Simplify's reduced tracks, and an import's tracks added to the
//! open project. The rules themselves are the engine's ([`crate::convert`],
//! [`crate::handles`], [`crate::reduce`], [`crate::import`]).

use std::collections::BTreeSet;

use super::DocState;
use crate::app::payload::{ChangedKeys, CompiledTake, CompiledTrack, Conversions, ConvertPreview, ConvertedTrack, HandleSides, Needs, Simplified, Status};
use crate::edit::intent::{self, KeyEdit, KeyRef};
use crate::{Edit, Interpolation, TrackCurve};

/// Converts tracks `targets` of `project` (Bezier ones are skipped) and compiles them, on every
/// core. Free of the editor's state, so the dialog runs it on a worker for a big document.
pub fn convert_tracks(project: &crate::Project, targets: &[usize], bound: f64, made_for: crate::app::payload::Basis) -> Conversions {
    use rayon::prelude::*;
    let convert = |t: &crate::Track| -> Result<ConvertedTrack, String> {
        let conversion = crate::convert::to_bezier(t, bound).map_err(|e| e.to_string())?;
        let compiled = CompiledTrack::of(&conversion.track);
        if let Err(e) = &compiled.curve {
            return Err(e.to_string());
        }
        Ok(ConvertedTrack { conversion, compiled })
    };
    let tracks: Vec<_> = targets
        .par_iter()
        .filter(|&&i| project.tracks.get(i).is_some_and(|t| t.interpolation != Interpolation::Bezier))
        .map(|&i| (i, convert(&project.tracks[i])))
        .collect();
    let rows = tracks
        .iter()
        .map(|(i, r)| ConvertPreview {
            name: project.tracks[*i].name.clone(),
            keys_before: project.tracks[*i].keys.len(),
            result: r.as_ref().map(|c| (c.conversion.track.keys.len(), c.conversion.max_difference)).map_err(Clone::clone),
        })
        .collect();
    Conversions { bound, made_for, rows, tracks }
}

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
    pub(super) fn deselect_tracks(&mut self, tracks: &[usize]) {
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

    /// The tracks Convert to Bézier acts on: those of the selected keys, or the active track.
    #[must_use]
    pub fn convert_targets(&self) -> BTreeSet<usize> {
        let mut tracks: BTreeSet<usize> = self.selection.tracks().into_iter().collect();
        tracks.extend(self.active_track.filter(|_| tracks.is_empty()));
        tracks.retain(|&t| t < self.project().tracks.len());
        tracks
    }

    /// What Convert to Bézier would do to each target track, for the dialog's preview.
    pub fn convert_preview(&self, bound: f64) -> Vec<ConvertPreview> {
        convert_tracks(self.project(), &Vec::from_iter(self.convert_targets()), bound, self.basis()).rows
    }

    /// Converts the target tracks to Bezier keys ([`crate::convert::to_bezier`], eased
    /// segments within `bound`), as one undo step. `done` is the conversion the dialog already
    /// made: if its basis holds (this document, revision and selection) and it is of `bound`,
    /// its tracks and curves are put in place as they are (nothing converted or compiled
    /// here); else the conversion of the tracks selected now is made here.
    pub fn convert_to_bezier(&mut self, bound: f64, done: Option<std::sync::Arc<Conversions>>) -> Status {
        let targets = Vec::from_iter(self.convert_targets());
        if targets.is_empty() {
            return Status::message("Convert to Bézier: select keys or click a track first");
        }
        let made_for = self.basis();
        let conversions = match done.filter(|c| c.bound == bound && self.holds(&c.made_for, Needs::Everything)) {
            Some(c) => std::sync::Arc::try_unwrap(c).unwrap_or_else(|shared| Conversions { bound, made_for, rows: Vec::new(), tracks: shared.tracks.clone() }),
            None => convert_tracks(self.project(), &targets, bound, made_for),
        };
        // How far the conversion moves the body (a conversion is exact within its bound).
        let body =
            crate::app::body::BodyChange::measure(self.project(), conversions.tracks.iter().filter_map(|(i, r)| Some((*i, &r.as_ref().ok()?.compiled.curve))));
        let body = body.text().map(|t| format!(". {t}")).unwrap_or_default();
        let (mut replace, mut made, mut refused) = (Vec::new(), std::collections::HashMap::new(), None);
        for (index, result) in conversions.tracks {
            match result {
                Ok(ConvertedTrack { conversion, compiled }) => {
                    made.insert(index, (conversion.added_keys, conversion.max_difference));
                    replace.push((index, conversion.track, compiled));
                }
                Err(e) => refused = Some(Status::error(format!("Convert to Bézier: {e}"))),
            }
        }
        let (converted, refusal) = self.replace_tracks("Convert to Bézier", replace);
        refused = refused.or(refusal.map(|e| Status::error(format!("Convert to Bézier: {e}"))));
        let added: usize = converted.iter().map(|i| made[i].0).sum();
        let worst = converted.iter().map(|i| made[i].1).fold(0.0f64, f64::max);
        // The converted tracks' keys leave the selection.
        self.deselect_tracks(&converted);
        match (converted.len(), refused) {
            (0, Some(s)) => s,
            (0, None) => Status::message("Convert to Bézier: the tracks are Bezier already"),
            (done, _) => {
                let tracks = if done == 1 { "track" } else { "tracks" };
                Status::message(format!(
                    "Converted {done} {tracks} to Bézier keys ({added} keys added in eased segments; largest difference {worst:.1e}){body}"
                ))
            }
        }
    }

    /// Puts the reduced tracks of Key > Simplify… in place, as one undo step (tracks kept as
    /// they were, or that failed, stay), with the curves and key ranges the reduction's worker
    /// compiled ([`Simplified::new`]): nothing is compiled here, and the reduced tracks' keys
    /// leave the selection in one pass. The dispatcher applies it only while its basis holds.
    pub fn apply_simplify(&mut self, simplified: std::sync::Arc<Simplified>) -> Status {
        let (mut done, mut before, mut after) = (0, 0, 0);
        let Simplified { reports, tracks, .. } = std::sync::Arc::unwrap_or_clone(simplified);
        let mut curves: std::collections::HashMap<usize, CompiledTrack> = tracks.into_iter().map(|(i, _, c)| (i, c)).collect();
        // The reduced tracks (not those kept as they were), each with the curve the worker
        // compiled (compiled here only if it is missing).
        let reduced: Vec<(usize, crate::Track, CompiledTrack)> = reports
            .iter()
            .filter_map(|r| Some((r.index, r.result.as_ref().ok().filter(|x| x.kept.is_none())?)))
            .map(|(i, x)| (i, x.track.clone(), curves.remove(&i).unwrap_or_else(|| CompiledTrack::of(&x.track))))
            .collect();
        let (applied, refused) = self.replace_tracks("Simplify", reduced);
        let refused = refused.map(|e| format!("{e}, left as it was"));
        for r in reports.iter().filter(|r| applied.contains(&r.index)) {
            if let Ok(x) = &r.result {
                (done, before, after) = (done + 1, before + x.keys_before, after + x.keys_after);
            }
        }
        self.deselect_tracks(&applied);
        if done == 0 {
            return refused
                .map_or_else(|| Status::message("Simplify: no track could be made smaller within the tolerance"), |e| Status::error(format!("Simplify: {e}")));
        }
        let mut worst = crate::app::units::Largest::default();
        for x in reports.iter().filter_map(|r| r.result.as_ref().ok()).filter(|x| x.kept.is_none()) {
            worst.add(x.max_error, crate::app::units::reduction(x.track.kind));
        }
        let tracks = if done == 1 { "track" } else { "tracks" };
        let text = format!("Simplified {done} {tracks}: {before} -> {after} keys, largest error {}", worst.text(2));
        refused.map_or_else(|| Status::message(text.clone()), |e| Status::error(format!("{text}; {e}")))
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

    /// Simplify of two dense tracks, the second locked: the first is reduced with the curve
    /// the worker compiled, the locked one stays and says so, only the reduced track's keys
    /// leave the selection, and one undo brings the first back.
    #[test]
    fn simplify_skips_a_locked_track_and_applies_the_rest() {
        let dense = |name: &str| {
            Track::new(name, TrackKind::Scalar, Interpolation::Linear)
                .with_keys((0..=120).map(|i| Key::new(f64::from(i) / 60.0, vec![f64::from(i) / 60.0])).collect())
        };
        let mut locked = dense("locked");
        locked.locked = true;
        let mut d = DocState::new(Project { tracks: vec![dense("free"), locked], ..Project::default() }, None);
        let before = d.project().clone();
        d.selection = BTreeSet::from([KeyRef { track: 0, key: 100 }, KeyRef { track: 1, key: 100 }]).into();
        let tol = crate::reduce::Tolerance::new(1e-6, 1.0).unwrap();
        let reports = crate::reduce::project::reduce_tracks(d.project(), &[0, 1], tol, &|_, _| {});
        let simplified = std::sync::Arc::new(Simplified::new(1e-6, 1.0, d.basis(), reports));
        let s = d.apply_simplify(simplified);
        assert!(s.text.starts_with("Simplified 1 track: 121 -> 2 keys") && s.text.ends_with("track \"locked\" is locked, left as it was"), "{}", s.text);
        assert_eq!(d.project().tracks[0].keys.len(), 2, "a line needs two keys");
        assert_eq!(d.project().tracks[1], before.tracks[1]);
        assert_eq!(d.selection.iter().copied().collect::<Vec<_>>(), [KeyRef { track: 1, key: 100 }]);
        assert!((d.curve(0).unwrap().as_ref().unwrap().evaluator().value_at(1.5)[0] - 1.5).abs() <= 1e-6, "the reduced line's curve is in place");
        d.undo();
        assert_eq!(d.project(), &before);
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

    #[test]
    fn the_preview_counts_keys_and_leaves_bezier_tracks_out() {
        let mut d = doc();
        d.selection = BTreeSet::from([KeyRef { track: 0, key: 0 }, KeyRef { track: 1, key: 0 }]).into();
        let p = d.convert_preview(1e-6);
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].name.as_str(), p[0].keys_before), ("l", 3));
        let (after, diff) = p[0].result.clone().unwrap();
        assert_eq!(after, 3, "linear keys convert one to one");
        assert!(diff <= 1e-12, "{diff}");
    }
}
