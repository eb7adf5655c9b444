//! The planner: where a change of the selected keys is made — spliced in on the UI thread
//! and recompiled where it reaches, compiled whole on every core, or on a worker — and the
//! work a worker does for it (a field set on every key, in each track's display units; a
//! drag; Delete; handle types; the Euler filter). It decides from the document alone
//! ([`Plan`]); the dispatcher carries the plan out, so every drag and widget edit is one path:
//! panel → `gesture::step` → `AppCommand::Gesture` → `dispatch::gesture` → [`plan_change`] →
//! applied now, or a [`KeyJob`] whose result the dispatcher installs
//! (`DocState::install_key_changes`) if its basis holds.
//!
//! An inspector field set on a whole mocap take (200 tracks × 5,000 keys) changes a million
//! keys: making the new keys, compiling the tracks and building their key ranges took about
//! 220 ms per frame on the UI thread while the slider was dragged, and a key dragged in the
//! graph with every key selected 2.8 s per frame. From `background_keys` keys in the
//! selection's tracks on ([`super::key_queue::BACKGROUND_KEYS`]), such a change is made on a
//! worker from the project as it is (shared, not copied); putting the result in place costs
//! swapping the keys and curves in (nothing is checked again on the UI thread:
//! `Document::apply_compiled_keys`).

use std::sync::Arc;

use super::compiled_track::{ChangedKeys, CompiledTrack};
use super::document::DocState;
use super::key_change::{Change, ChangeFn, Edits, HandleSides, KeyMove, KeyRef};
use super::key_queue::Describe;
use super::message::Status;
use super::units::display_scale;
use crate::edit::intent::{self, KeyEdit};
use crate::{Edit, Interpolation, Key, Project, TrackCurve};

/// What a worker makes from the project.
pub type Work = Box<dyn FnOnce(&Project) -> Vec<ChangedKeys> + Send>;

/// Where a change of keys is made.
pub enum Plan {
    /// At once, on the UI thread, as one change: `local` splices each recompiled where it
    /// reaches (one key dragged on a 100,000-key track), then `wide` edits compiled whole on
    /// every core; the status bar then says `message`, if any.
    Edits { local: Vec<KeyEdit>, wide: Vec<KeyEdit>, message: Option<String> },
    /// At once, by the document's own method (Delete and handle types say what they did).
    Document,
    /// On a worker, from the project as it is.
    Worker(WorkerPlan),
}

/// A change made on a worker: what it is called, whether it is an undo step of its own, how
/// many keys it changes, the work, and what the status bar says once it is in place.
pub struct WorkerPlan {
    pub label: String,
    pub own_step: bool,
    pub keys: usize,
    pub work: Work,
    pub describe: Option<Describe>,
}

/// The keys of the tracks with selected keys: what a change of the selected keys costs,
/// since each such track is copied and compiled whole (one key selected on each of 200
/// tracks of 5,000 keys is a million keys' work).
fn keys_of_selected_tracks(doc: &DocState) -> usize {
    let tracks = &doc.project().tracks;
    doc.selection.tracks().iter().filter_map(|&t| tracks.get(t)).map(|t| t.keys.len()).sum()
}

/// A gesture step's `change` (labelled `label`, an undo step of its own if `own_step`): a
/// frame of a key drag ([`plan_move`]), edits the panel made ([`plan_edits`]), else a field set
/// on every selected key, at once when the selected keys' tracks have fewer than
/// `background_keys` keys, else on a worker.
#[must_use]
pub fn plan_change(doc: &DocState, label: &str, change: Change, own_step: bool, background_keys: usize) -> Plan {
    match change {
        Change::Move(m) => plan_move(doc, label, own_step, &m, background_keys),
        Change::Edits(e) => plan_edits(doc, Arc::unwrap_or_clone(e)),
        change @ (Change::Each(_) | Change::OnBezier(_) | Change::Shown(_) | Change::FirstKeyTo(_)) => {
            let tracks = intent::keys_by_track(doc.project(), &doc.selection);
            if keys_of_selected_tracks(doc) < background_keys {
                let wide = change_each(doc.project(), tracks, &change);
                return Plan::Edits { local: Vec::new(), wide, message: None };
            }
            let keys = tracks.iter().map(|(_, k)| k.len()).sum();
            let work = Box::new(move |p: &Project| prepare(p, tracks, &change));
            Plan::Worker(WorkerPlan { label: label.to_owned(), own_step, keys, work, describe: None })
        }
    }
}

/// Whether `edit` is made on the UI thread where it reaches: a splice that reaches a small part
/// of its track (recompiled there), or a track's header (nothing to compile).
fn is_local(project: &Project, edit: &Edit) -> bool {
    match edit {
        Edit::SpliceKeys { track, remove, keys, .. } => project.tracks.get(*track).is_some_and(|t| 2 * (remove + keys.len()) <= t.keys.len()),
        Edit::SetHeader { .. } => true,
        Edit::SetKeys { .. } | Edit::SetTrack { .. } | Edit::InsertTrack { .. } | Edit::RemoveTrack { .. } => false,
    }
}

/// Edits a panel made (`Change::Edits`): at once, as they are, but those that change nothing;
/// each track's selected keys stay.
fn plan_edits(doc: &DocState, e: Edits) -> Plan {
    let project = doc.project();
    let (local, wide) = e
        .edits
        .into_iter()
        .filter(|edit| !is_noop(project, edit))
        .filter_map(|edit| {
            let track = edit.track()?;
            Some(KeyEdit { track, selected: doc.selection.of_track(track).copied().collect(), edit })
        })
        .partition(|k| is_local(project, &k.edit));
    Plan::Edits { local, wide, message: e.message }
}

/// `change` of keys `tracks` (per track, [`intent::keys_by_track`]) of `project`, each
/// track's keys given it in that track's display units (`units.rs`): the tracks are changed
/// in groups of one display scale, each group on every core.
fn change_each(project: &Project, mut tracks: Vec<(usize, Vec<usize>)>, change: &Change) -> Vec<KeyEdit> {
    if matches!(change, Change::OnBezier(_)) {
        tracks.retain(|(t, _)| project.tracks.get(*t).is_some_and(|t| t.interpolation == Interpolation::Bezier));
    }
    let scale_of = |t: usize| project.tracks.get(t).map_or(1.0, |t| display_scale(t.kind));
    let mut scales: Vec<f64> = Vec::new();
    for (t, _) in &tracks {
        let s = scale_of(*t);
        if !scales.contains(&s) {
            scales.push(s);
        }
    }
    // Made from the whole selection's tracks, so that the time field finds the first key of all.
    let changes: Vec<ChangeFn> = scales.iter().map(|&s| change.of_each_key(project, &tracks, s)).collect();
    let mut groups: Vec<Vec<(usize, Vec<usize>)>> = vec![Vec::new(); scales.len()];
    for (t, keys) in tracks {
        let i = scales.iter().position(|&s| s == scale_of(t)).unwrap_or(0);
        groups[i].push((t, keys));
    }
    groups.into_iter().zip(changes).flat_map(|(group, each)| intent::change_keys_of(project, group, |k| each(k))).collect()
}

/// A frame of a key drag: at once, spliced into each track, for a small selection (a splice
/// that reaches a small part of its track is recompiled where it reaches, the others compiled
/// whole); else the tracks moved and compiled on a worker. The status bar says `m.message`
/// once the keys are there.
fn plan_move(doc: &DocState, label: &str, own_step: bool, m: &Arc<KeyMove>, background_keys: usize) -> Plan {
    let keys = m.keys();
    if keys < background_keys {
        let project = doc.project();
        let edits = intent::move_keys(&m.origins, m.dt, m.dv, m.comp, m.snap).into_iter().filter(|e| !is_noop(project, &e.edit));
        let (local, wide) = edits.partition(|e| matches!(e.edit, Edit::SpliceKeys { .. }) && is_local(project, &e.edit));
        return Plan::Edits { local, wide, message: Some(m.message.clone()) };
    }
    let (message, m) = (m.message.clone(), m.clone());
    let work = Box::new(move |p: &Project| prepare_move(p, &m));
    let describe: Describe = Box::new(move |_: &[ChangedKeys]| message.clone());
    Plan::Worker(WorkerPlan { label: label.to_owned(), own_step, keys, work, describe: Some(describe) })
}

/// Delete (a track keeps at least one key): by the document at once when the selection's
/// tracks are small (or nothing can be deleted, which it says), else each track's other keys
/// made and compiled on a worker, one undo step.
#[must_use]
pub fn plan_delete(doc: &DocState, background_keys: usize) -> Plan {
    let tracks = intent::keys_by_track(doc.project(), &doc.selection);
    let deleted: usize = tracks.iter().filter(|(t, gone)| gone.len() < doc.project().tracks[*t].keys.len()).map(|(_, gone)| gone.len()).sum();
    if deleted == 0 || keys_of_selected_tracks(doc) < background_keys {
        return Plan::Document;
    }
    let work = Box::new(move |p: &Project| prepare_deletion(p, tracks));
    let describe: Describe = Box::new(move |_: &[ChangedKeys]| format!("Deleted {deleted} keys"));
    Plan::Worker(WorkerPlan { label: "Delete keys".to_owned(), own_step: true, keys: deleted, work, describe: Some(describe) })
}

/// `Key > Handle type` of every selected key: by the document at once for a small selection,
/// else on a worker (a step of its own either way).
#[must_use]
pub fn plan_handle_types(doc: &DocState, sides: HandleSides, background_keys: usize) -> Plan {
    if keys_of_selected_tracks(doc) < background_keys {
        return Plan::Document;
    }
    let tracks = intent::keys_by_track(doc.project(), &doc.selection);
    let keys = tracks.iter().map(|(_, k)| k.len()).sum();
    let work = Box::new(move |p: &Project| prepare_handle_types(p, tracks, sides));
    let describe: Describe = Box::new(move |made: &[ChangedKeys]| match made.iter().map(|p| p.selected.len()).sum::<usize>() {
        0 => format!("Handle type: nothing changed (the selected keys' {} are {:?} already, or they are not Bézier keys)", sides.which(), sides.kind()),
        n => sides.set_text(n),
    });
    Plan::Worker(WorkerPlan { label: "Set handle type".to_owned(), own_step: true, keys, work, describe: Some(describe) })
}

/// What the status bar says after Edit > Euler Filter changed `keys` keys in `tracks` of the
/// `of` Euler tracks it filtered, leaving `locked` locked ones as they were.
fn euler_filter_text(keys: usize, tracks: usize, of: usize, locked: usize) -> String {
    let text = match (keys, of) {
        (0, 1) => "Euler filter: no key changed (the track's angles are continuous already)".to_owned(),
        (0, _) => format!("Euler filter: no key changed in the {of} Euler tracks (their angles are continuous already)"),
        _ => format!("Euler filter: {keys} keys changed in {tracks} {}", if tracks == 1 { "track" } else { "tracks" }),
    };
    match locked {
        0 => text,
        n => format!("{text}; {n} locked {} left as {}", if n == 1 { "track" } else { "tracks" }, if n == 1 { "it was" } else { "they were" }),
    }
}

/// Edit > Euler Filter on the Euler tracks of the selection (or the active one): each key's
/// angles the equivalent triple nearest the key before ([`crate::euler_tracks::filter_track`]),
/// one undo step for all of them. Made at once, as edits of the whole tracks compiled on every
/// core, when the tracks have fewer than `background_keys` keys; else on a worker. `Err`: what
/// the status bar says when there is nothing to filter.
///
/// # Errors
/// When no Euler track is selected (or they are all locked).
pub fn plan_euler_filter(doc: &DocState, background_keys: usize) -> Result<Plan, Status> {
    let project = doc.project();
    let (locked, targets): (Vec<usize>, Vec<usize>) = doc.euler_targets().into_iter().partition(|&t| project.tracks[t].locked);
    if targets.is_empty() {
        let why =
            if locked.is_empty() { "select keys on an Euler track, or click one (no Euler track is selected)" } else { "the selected Euler tracks are locked" };
        return Err(Status::message(format!("Euler filter: {why}")));
    }
    let (of, locked) = (targets.len(), locked.len());
    let with_selection: Vec<(usize, Vec<KeyRef>)> = targets.iter().map(|&t| (t, doc.selection.of_track(t).copied().collect())).collect();
    let keys: usize = targets.iter().map(|&t| project.tracks[t].keys.len()).sum();
    if keys < background_keys {
        let (wide, changed) = filter_edits(project, with_selection);
        let mut message = euler_filter_text(changed, wide.len(), of, locked);
        if let Some(body) = body_of_edits(project, &wide).text() {
            message = format!("{message}. {body}");
        }
        return Ok(Plan::Edits { local: Vec::new(), wide, message: Some(message) });
    }
    // How many keys the worker's filter changed, for the status bar once they are in place.
    let counted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = counted.clone();
    // And how far the body moved, measured on the worker with the keys it compiled.
    let measured = Arc::new(std::sync::Mutex::new(String::new()));
    let measure = measured.clone();
    let work = Box::new(move |p: &Project| {
        use rayon::prelude::*;
        let (edits, n) = filter_edits(p, with_selection);
        count.store(n, std::sync::atomic::Ordering::Relaxed);
        let made: Vec<ChangedKeys> = edits.into_par_iter().filter_map(|edit| changed(p, edit)).collect();
        if let Some(body) = super::body::BodyChange::measure(p, made.iter().map(|c| (c.track, &c.compiled.curve))).text() {
            *measure.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = format!(". {body}");
        }
        made
    });
    let describe: Describe = Box::new(move |made: &[ChangedKeys]| {
        let body = measured.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        format!("{}{body}", euler_filter_text(counted.load(std::sync::atomic::Ordering::Relaxed), made.len(), of, locked))
    });
    Ok(Plan::Worker(WorkerPlan { label: "Euler filter".to_owned(), own_step: true, keys, work, describe: Some(describe) }))
}

/// The Euler filter of each of `tracks` (with its selected keys, which stay selected) as an
/// edit of its keys, on every core, leaving out tracks it does not change (or cannot
/// filter); and how many keys it changed.
fn filter_edits(project: &Project, tracks: Vec<(usize, Vec<KeyRef>)>) -> (Vec<KeyEdit>, usize) {
    use rayon::prelude::*;
    let filtered: Vec<(KeyEdit, usize)> = tracks
        .into_par_iter()
        .filter_map(|(t, selected)| {
            let (track, n) = crate::euler_tracks::filter_track(project.tracks.get(t)?).ok()?;
            (n > 0).then_some((KeyEdit { track: t, edit: Edit::SetKeys { track: t, keys: track.keys }, selected }, n))
        })
        .collect();
    let n = filtered.iter().map(|(_, n)| n).sum();
    (filtered.into_iter().map(|(e, _)| e).collect(), n)
}

/// How far edits that set whole tracks' keys move the body (a project without a skeleton:
/// nothing to say). The Euler filter keeps every key's rotation, so this is what its new
/// interpolation between keys moves.
fn body_of_edits(project: &Project, edits: &[KeyEdit]) -> super::body::BodyChange {
    super::body::BodyChange::of_new_keys(
        project,
        edits.iter().filter_map(|e| match &e.edit {
            Edit::SetKeys { track, keys } => Some((*track, keys.as_slice())),
            _ => None,
        }),
    )
}

/// Whether `edit` would leave the project as it is.
#[must_use]
pub fn is_noop(project: &Project, edit: &Edit) -> bool {
    match edit {
        Edit::SetKeys { track, keys } => project.tracks.get(*track).is_some_and(|t| &t.keys == keys),
        Edit::SpliceKeys { track, at, remove, keys } => {
            // Key by key (a track held as columns makes only these keys).
            project.tracks.get(*track).is_some_and(|t| {
                *remove == keys.len()
                    && at.checked_add(*remove).is_some_and(|end| end <= t.keys.len())
                    && keys.iter().enumerate().all(|(i, k)| *t.keys.key(at + i) == *k)
            })
        }
        Edit::SetTrack { index, track } => project.tracks.get(*index).is_some_and(|t| t == track),
        Edit::SetHeader { index, header } => project.tracks.get(*index).is_some_and(|t| t.header() == *header),
        _ => false,
    }
}

/// `change` of keys `tracks` (per track, [`intent::keys_by_track`]) of `project` (in each
/// track's display units, as [`change_each`] makes it), each changed track compiled, on every
/// core. Tracks the change leaves as they are are left out.
#[must_use]
pub fn prepare(project: &Project, tracks: Vec<(usize, Vec<usize>)>, change: &Change) -> Vec<ChangedKeys> {
    use rayon::prelude::*;
    change_each(project, tracks, change).into_par_iter().filter_map(|edit| changed(project, edit)).collect()
}

/// A track's whole new keys (`SetKeys`) compiled, with its key ranges; `None` when they are
/// the keys `project` has (or the edit is of another kind, or of no track).
fn changed(project: &Project, KeyEdit { track, edit, selected }: KeyEdit) -> Option<ChangedKeys> {
    let Edit::SetKeys { keys, .. } = edit else { return None };
    let old = project.tracks.get(track).filter(|old| old.keys != keys)?;
    let new = old.with_other_keys(keys);
    let compiled = CompiledTrack::of(&new);
    Some(ChangedKeys { track, keys: new.keys.into_vec(), compiled, selected })
}

/// A frame of a key drag ([`KeyMove`]): each track's keys moved and sorted from its origin
/// ([`intent::move_track_whole`]) and compiled, on every core. Tracks whose keys come out as
/// they are in `project` (the drag back where it began, or a frame like the last) are left
/// out.
#[must_use]
pub fn prepare_move(project: &Project, m: &KeyMove) -> Vec<ChangedKeys> {
    use rayon::prelude::*;
    m.origins.par_iter().filter_map(|o| changed(project, intent::move_track_whole(o, m.dt, m.dv, m.comp, m.snap)?)).collect()
}

/// Delete of keys `tracks` of `project` (per track, [`intent::keys_by_track`]): each track's
/// other keys, compiled, on every core. A track whose every key is selected keeps them (as
/// [`intent::delete_keys`] refuses it) and is left out.
#[must_use]
pub fn prepare_deletion(project: &Project, tracks: Vec<(usize, Vec<usize>)>) -> Vec<ChangedKeys> {
    use rayon::prelude::*;
    tracks
        .into_par_iter()
        .filter_map(|(ti, gone)| {
            let track = project.tracks.get(ti).filter(|t| gone.len() < t.keys.len())?;
            // `gone` is ascending: one pass beside it.
            let mut next = gone.iter().peekable();
            let keys: Vec<Key> = track.keys.iter().enumerate().filter(|(i, _)| next.next_if_eq(&i).is_none()).map(|(_, k)| k.clone()).collect();
            changed(project, KeyEdit { track: ti, edit: Edit::SetKeys { track: ti, keys: keys.into() }, selected: Vec::new() })
        })
        .collect()
}

/// `Key > Handle type` (`V`) of keys `tracks` of `project`: each Bezier track's handles
/// resolved from its curve (compiled here, from the track as it is) and given type `kind`
/// on both sides ([`crate::handles::set_handle_types`], as the UI thread's
/// `DocState::set_handle_types` does), then the changed tracks compiled, on every core.
#[must_use]
pub fn prepare_handle_types(project: &Project, tracks: Vec<(usize, Vec<usize>)>, sides: HandleSides) -> Vec<ChangedKeys> {
    use rayon::prelude::*;
    tracks
        .into_par_iter()
        .filter_map(|(ti, which)| {
            let track = project.tracks.get(ti).filter(|t| t.interpolation == Interpolation::Bezier)?;
            let curve = TrackCurve::new(track).ok()?;
            let keys = crate::handles::set_handle_types(track, &curve, &which, sides.left, sides.right);
            let selected = which.into_iter().map(|key| KeyRef { track: ti, key }).collect();
            changed(project, KeyEdit { track: ti, edit: Edit::SetKeys { track: ti, keys: keys.into() }, selected })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::commands::AppCommand;
    use crate::app::key_change::{Change, Gesture, Phase};
    use crate::{Interpolation, Track, TrackKind};

    fn change(label: &str, phase: Phase, tension: f64) -> AppCommand {
        AppCommand::Gesture(Gesture { label: label.to_owned(), phase, change: Some(Change::Each(Arc::new(move |k: &mut Key| k.tension = tension))) })
    }

    fn tension_of(command: &AppCommand) -> f64 {
        let AppCommand::Gesture(c) = command else { panic!("not a change: {command:?}") };
        let mut k = Key::new(0.0, vec![0.0]);
        let Some(Change::Each(change)) = &c.change else { panic!("not a field change") };
        change(&mut k);
        k.tension
    }

    #[test]
    fn a_drag_waits_as_its_latest_value_and_other_commands_keep_their_order() {
        let mut jobs = crate::app::key_queue::KeyQueue::default();
        let end = AppCommand::Gesture(Gesture { label: "Set tension".to_owned(), phase: Phase::End, change: None });
        jobs.defer(change("Set tension", Phase::Begin, 0.1));
        jobs.defer(change("Set tension", Phase::Change, 0.2));
        jobs.defer(end.clone());
        jobs.defer(change("Set tension", Phase::Change, 0.3));
        jobs.defer(change("Set bias", Phase::Change, 0.4));
        jobs.defer(change("Set bias", Phase::Once, 0.5));
        jobs.defer(change("Set bias", Phase::Once, 0.6));
        let waiting: Vec<AppCommand> = std::iter::from_fn(|| jobs.next_deferred()).collect();
        assert_eq!(waiting.len(), 6, "{waiting:?}");
        assert_eq!(tension_of(&waiting[0]), 0.2, "the drag's latest value replaced the one before");
        assert!(matches!(&waiting[0], AppCommand::Gesture(g) if g.phase == Phase::Begin), "and the drag still begins");
        assert_eq!(waiting[1], end);
        assert_eq!(waiting[2..].iter().map(tension_of).collect::<Vec<_>>(), [0.3, 0.4, 0.5, 0.6], "typed values and other fields are all kept");
        assert!(!jobs.is_busy());
    }

    #[test]
    fn prepare_leaves_unchanged_tracks_out_and_compiles_the_others() {
        let track = |name: &str, tension: f64| {
            Track::new(name, TrackKind::Scalar, Interpolation::Tcb)
                .with_keys((0..4).map(|i| Key::new(f64::from(i), vec![f64::from(i * i)]).with_tcb(tension, 0.0, 0.0)).collect())
        };
        let project = Project { tracks: vec![track("a", 0.5), track("b", 0.0)], ..Project::default() };
        let prepared = prepare(&project, vec![(0, vec![1, 2]), (1, vec![1, 2])], &Change::Each(Arc::new(|k: &mut Key| k.tension = 0.5)));
        assert_eq!(prepared.len(), 1, "track a had tension 0.5 already");
        let p = &prepared[0];
        assert_eq!(p.track, 1);
        assert_eq!(p.keys.iter().map(|k| k.tension).collect::<Vec<_>>(), [0.0, 0.5, 0.5, 0.0]);
        assert_eq!(p.selected, [KeyRef { track: 1, key: 1 }, KeyRef { track: 1, key: 2 }]);
        // The compiled curve is the new keys' curve, not the old track's: at key 1 the
        // outgoing tangent is (1 - T)/2 · (v2 - v0) = 0.25 · 4 = 1 with tension 0.5, where
        // the old track's (tension 0) is 2.
        let curve = p.compiled.curve.as_ref().unwrap();
        assert_eq!(curve.outgoing_tangent(1).unwrap()[0], 1.0);
        assert_eq!(TrackCurve::new(&project.tracks[1]).unwrap().outgoing_tangent(1).unwrap()[0], 2.0);
        assert_eq!(p.compiled.ranges.all(0), (0.0, 9.0), "key ranges of the new keys");
    }
}

/// Edit > Fix jumps: the spikes of the selected keys' tracks (every track with no key
/// selected; locked tracks left) replaced by the interpolation across them
/// ([`crate::problems::fix_spikes`]), as one change of whole tracks made now (finding jumps
/// costs a pass over the keys); the status says what was fixed, what was left, and how far
/// the body moved.
pub fn plan_fix_jumps(doc: &DocState) -> Result<Plan, Status> {
    use crate::problems::{find_jumps, fix_spikes, JumpRule, JumpShape};
    let project = doc.project();
    let mut tracks: Vec<usize> = doc.selection.iter().map(|k| k.track).collect();
    tracks.dedup();
    if tracks.is_empty() {
        tracks = (0..project.tracks.len()).collect();
    }
    tracks.retain(|&t| !project.tracks[t].locked);
    let jumps = find_jumps(project, &tracks, &JumpRule::default());
    if jumps.is_empty() {
        return Err(Status::message("Fix jumps: no jump found (View > Problems lists them; docs/problems.md says the rule)"));
    }
    let (mut wide, mut fixed, mut keys, mut replaced) = (Vec::new(), 0, 0, Vec::new());
    let mut touched: Vec<usize> = jumps.iter().map(|j| j.track).collect();
    touched.sort_unstable();
    touched.dedup();
    for t in touched {
        let mine: Vec<_> = jumps.iter().filter(|j| j.track == t).collect();
        let (track, n) = fix_spikes(&project.tracks[t], &mine);
        if n > 0 {
            fixed += mine.iter().filter(|j| j.shape != JumpShape::Step).count();
            keys += n;
            if let Ok(c) = crate::TrackCurve::new(&track) {
                replaced.push((t, c));
            }
            wide.push(KeyEdit { track: t, edit: Edit::SetKeys { track: t, keys: track.keys }, selected: doc.selection.of_track(t).copied().collect() });
        }
    }
    let steps: Vec<String> = jumps.iter().filter(|j| j.shape == JumpShape::Step).map(|j| format!("{} at {:.3} s", j.name, j.time)).collect();
    let mut message = format!("Fix jumps: {fixed} spike{} replaced by the interpolation across ({keys} keys)", if fixed == 1 { "" } else { "s" });
    if !steps.is_empty() {
        message += &format!(
            "; {} lasting flip{} left as {} (not a spike): {}",
            steps.len(),
            if steps.len() == 1 { "" } else { "s" },
            if steps.len() == 1 { "it is" } else { "they are" },
            steps.join(", ")
        );
    }
    let curves: Vec<(usize, &crate::TrackCurve)> = replaced.iter().map(|(t, c)| (*t, c)).collect();
    if let Ok(Some(d)) = crate::body::replaced_difference(project, &curves) {
        message += &format!(
            ". Body: largest joint displacement {:.4} file units at {}, {:.3} s ({:.2}% of the skeleton's size)",
            d.distance, d.point, d.time, d.percent
        );
    }
    if wide.is_empty() {
        return Err(Status::message(message));
    }
    Ok(Plan::Edits { local: Vec::new(), wide, message: Some(message) })
}
