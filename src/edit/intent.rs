//! Edits built from what the user means: move, change, insert, delete, copy and paste keys,
//! change a track's kind, add a track. Each is a pure function of the project, a selection
//! (plain [`KeyRef`]s) and the gesture's numbers, returning [`Edit`]s and where the selected
//! keys end up; nothing here knows of a GUI, so every one is tested by applying its edits to a
//! [`Document`](super::Document) and undoing them.

use std::collections::BTreeSet;

use thiserror::Error;

use super::Edit;
use crate::model::{Infinity, Interpolation, Key, Keys, Project, Track, TrackKind};

/// A key of a track.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KeyRef {
    pub track: usize,
    pub key: usize,
}

/// Keys copied with Copy: times relative to the first.
#[derive(Clone, Debug, PartialEq)]
pub struct Clipboard {
    pub kind: TrackKind,
    pub keys: Vec<Key>,
}

/// An edit of one track's keys, and where the selected keys are once it is applied.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyEdit {
    pub track: usize,
    pub edit: Edit,
    /// The track's selected keys after the edit (the selection of other tracks is untouched).
    pub selected: Vec<KeyRef>,
}

/// Why an intent makes no edit. The messages are what the editor's status line shows.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum IntentError {
    #[error("A key already sits at {0:.3} s")]
    KeyExists(f64),
    #[error("Paste: copied {copied:?} keys do not fit the {target:?} track \"{name}\"")]
    KindMismatch { copied: TrackKind, target: TrackKind, name: String },
    #[error("Delete keys: \"{0}\" must keep at least one key")]
    MustKeepOneKey(String),
    #[error("there is no track {0}")]
    NoTrack(usize),
}

impl IntentError {
    /// Whether this is a notice rather than an error (nothing was wrong, nothing to do).
    #[must_use]
    pub fn is_notice(&self) -> bool {
        matches!(self, Self::KeyExists(_))
    }
}

/// Sorts `(original index, key)` pairs by time (stable) into the track's new keys, and maps
/// the `selected` original indices to their new places.
#[must_use]
pub fn retag(track: usize, mut tagged: Vec<(usize, Key)>, selected: &BTreeSet<usize>) -> KeyEdit {
    tagged.sort_by(|a, b| a.1.time.total_cmp(&b.1.time));
    let selected = tagged.iter().enumerate().filter(|(_, (orig, _))| selected.contains(orig)).map(|(key, _)| KeyRef { track, key }).collect();
    let keys = tagged.into_iter().map(|(_, k)| k).collect();
    KeyEdit { track, edit: Edit::SetKeys { track, keys }, selected }
}

/// The selected key indices of `track`.
fn selected_on(selection: &BTreeSet<KeyRef>, track: usize) -> BTreeSet<usize> {
    in_track(selection, track).map(|k| k.key).collect()
}

fn tracks_of(selection: &BTreeSet<KeyRef>) -> BTreeSet<usize> {
    selected_tracks(selection).into_iter().collect()
}

/// The selected keys of `track`: a range of the selection, not a pass over it.
pub fn in_track(selection: &BTreeSet<KeyRef>, track: usize) -> impl DoubleEndedIterator<Item = &KeyRef> {
    selection.range(KeyRef { track, key: 0 }..=KeyRef { track, key: usize::MAX })
}

/// The selected keys of `track` among keys `keys` (those in view, say): a range of the
/// selection.
pub fn in_keys(selection: &BTreeSet<KeyRef>, track: usize, keys: std::ops::Range<usize>) -> impl DoubleEndedIterator<Item = &KeyRef> {
    selection.range(KeyRef { track, key: keys.start }..KeyRef { track, key: keys.end })
}

/// The tracks with selected keys, in order: one range lookup per track, not a pass over the
/// keys (a select-all on a mocap take is a million of them).
#[must_use]
pub fn selected_tracks(selection: &BTreeSet<KeyRef>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut next = selection.first();
    while let Some(k) = next {
        out.push(k.track);
        next = k.track.checked_add(1).and_then(|t| selection.range(KeyRef { track: t, key: 0 }..).next());
    }
    out
}

/// `change` applied to every selected key, one edit per track, keys re-sorted by time.
/// Tracks are changed on every core (a field set on a whole mocap take changes a million keys).
pub fn change_keys(project: &Project, selection: &BTreeSet<KeyRef>, change: impl Fn(&mut Key) + Sync) -> Vec<KeyEdit> {
    change_keys_of(project, keys_by_track(project, selection), change)
}

/// The selected keys of each track of `project` that has some: (track, its keys ascending).
#[must_use]
pub fn keys_by_track(project: &Project, selection: &BTreeSet<KeyRef>) -> Vec<(usize, Vec<usize>)> {
    selected_tracks(selection).into_iter().filter(|&t| t < project.tracks.len()).map(|t| (t, in_track(selection, t).map(|k| k.key).collect())).collect()
}

/// [`change_keys`] of keys given per track ([`keys_by_track`]), on every core.
pub fn change_keys_of(project: &Project, tracks: Vec<(usize, Vec<usize>)>, change: impl Fn(&mut Key) + Sync) -> Vec<KeyEdit> {
    use rayon::prelude::*;
    tracks
        .into_par_iter()
        .filter(|(t, _)| *t < project.tracks.len())
        .map(|(track, selected)| change_track(&project.tracks[track], track, &selected, &change))
        .collect()
}

/// `change` applied to keys `selected` (ascending) of `t`, the keys re-sorted by time; the
/// sort and the new places of the selected keys are skipped when no key moved past another.
fn change_track(t: &crate::Track, track: usize, selected: &[usize], change: &impl Fn(&mut Key)) -> KeyEdit {
    let mut keys = t.keys.clone();
    for &i in selected {
        if let Some(k) = keys.get_mut(i) {
            change(k);
        }
    }
    if keys.windows(2).all(|w| w[0].time.total_cmp(&w[1].time).is_le()) {
        let selected = selected.iter().filter(|&&key| key < keys.len()).map(|&key| KeyRef { track, key }).collect();
        return KeyEdit { track, edit: Edit::SetKeys { track, keys }, selected };
    }
    let selected: BTreeSet<usize> = selected.iter().copied().collect();
    retag(track, keys.into_iter().enumerate().collect(), &selected)
}

/// One key changed in place (a tangent or ease handle): no re-sorting, and only that key in
/// the edit.
pub fn change_key(project: &Project, key: KeyRef, change: impl FnOnce(&mut Key)) -> Option<Edit> {
    let keys = &project.tracks.get(key.track)?.keys;
    let mut k = (key.key < keys.len()).then(|| keys.key(key.key).into_owned())?;
    change(&mut k);
    Some(Edit::SpliceKeys { track: key.track, at: key.key, remove: 1, keys: vec![k] })
}

/// What a key drag moves: each unlocked track's keys when the drag began, and which of them
/// are selected.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveOrigin {
    pub track: usize,
    /// The track's keys (shared with the document's, not copied, when held as columns).
    pub keys: Keys,
    pub selected: BTreeSet<usize>,
    /// The keys the drag has rearranged so far (`start..end` of `keys`): each frame's splice
    /// covers them too, so keys a frame moved past and the next does not are put back.
    pub touched: TouchedRange,
}

/// The `(start, end)` range of [`MoveOrigin::touched`]. Atomic, so that the origins of a drag
/// can be shared with the worker that makes a big selection's moves
/// ([`move_track_whole`]), which does not read it.
#[derive(Debug, Default)]
pub struct TouchedRange(std::sync::atomic::AtomicUsize, std::sync::atomic::AtomicUsize);

impl TouchedRange {
    #[must_use]
    pub fn get(&self) -> (usize, usize) {
        use std::sync::atomic::Ordering::Relaxed;
        (self.0.load(Relaxed), self.1.load(Relaxed))
    }
    pub fn set(&self, (start, end): (usize, usize)) {
        use std::sync::atomic::Ordering::Relaxed;
        self.0.store(start, Relaxed);
        self.1.store(end, Relaxed);
    }
}

impl Clone for TouchedRange {
    fn clone(&self) -> Self {
        let (start, end) = self.get();
        Self(start.into(), end.into())
    }
}

impl PartialEq for TouchedRange {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

/// The starting point of a drag of the selected keys (locked tracks stay put).
#[must_use]
pub fn move_origins(project: &Project, selection: &BTreeSet<KeyRef>) -> Vec<MoveOrigin> {
    tracks_of(selection)
        .into_iter()
        .filter(|&t| project.tracks.get(t).is_some_and(|t| !t.locked))
        .map(|t| MoveOrigin { track: t, keys: project.tracks[t].keys.clone(), selected: selected_on(selection, t), touched: TouchedRange::default() })
        .collect()
}

/// Snapping of moved keys: times to frames, values to multiples of `value_step`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snap {
    pub fps: f64,
    pub value_step: f64,
}

/// The selected keys moved by `dt` in time and `dv` in component `comp`, from where they were
/// when the drag began (so every frame of a drag replaces the last, and errors do not add up).
///
/// Each track's edit is a splice of the keys between the first and last selected key and
/// wherever the moved keys now fall (and what earlier frames of the drag rearranged), sorted
/// by time with ties in their original order — the same keys a sort of the whole track gives,
/// at a cost proportional to that range, not to the track.
#[must_use]
pub fn move_keys(origins: &[MoveOrigin], dt: f64, dv: f64, comp: usize, snap: Option<Snap>) -> Vec<KeyEdit> {
    origins.iter().filter_map(|o| move_track(o, dt, dv, comp, snap)).collect()
}

fn move_track(o: &MoveOrigin, dt: f64, dv: f64, comp: usize, snap: Option<Snap>) -> Option<KeyEdit> {
    let (&first, &last) = (o.selected.first()?, o.selected.last()?);
    let moved: Vec<(usize, Key)> = o
        .selected
        .iter()
        .filter_map(|&i| {
            let mut k = (i < o.keys.len()).then(|| o.keys.key(i).into_owned())?;
            move_key(&mut k, dt, dv, comp, snap);
            Some((i, k))
        })
        .collect();
    let (lo, hi) = moved.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, k)| (a.min(k.time), b.max(k.time)));
    let (done_from, done_to) = o.touched.get();
    let mut from = first.min(o.keys.partition_point(|t| t < lo));
    let mut to = (last + 1).max(o.keys.partition_point(|t| t <= hi)).min(o.keys.len());
    if done_to > done_from {
        (from, to) = (from.min(done_from), to.max(done_to));
    }
    o.touched.set((from, to));
    let mut moved = moved.into_iter().peekable();
    let tagged: Vec<(usize, Key)> = (from..to)
        .map(|i| match moved.next_if(|(j, _)| *j == i) {
            Some(m) => m,
            None => (i, o.keys.key(i).into_owned()),
        })
        .collect();
    let mut edit = retag(o.track, tagged, &o.selected);
    let Edit::SetKeys { keys, .. } = edit.edit else { return None };
    edit.selected.iter_mut().for_each(|k| k.key += from);
    edit.edit = Edit::SpliceKeys { track: o.track, at: from, remove: to - from, keys: keys.into_vec() };
    Some(edit)
}

/// The whole of `o`'s track with its selected keys moved by `dt` and `dv` (as [`move_keys`]
/// moves them, from where they were when the drag began), as one `SetKeys`: what a worker
/// makes for a selection too big to move on the UI thread. The keys are those a splice of
/// [`move_keys`] leaves (keys outside its range are in order already, so sorting the whole
/// track puts them where they were), whatever frames came before. `None` when nothing of the
/// track is selected.
#[must_use]
pub fn move_track_whole(o: &MoveOrigin, dt: f64, dv: f64, comp: usize, snap: Option<Snap>) -> Option<KeyEdit> {
    if o.selected.is_empty() {
        return None;
    }
    let tagged = (0..o.keys.len())
        .map(|i| {
            let mut k = o.keys.key(i).into_owned();
            if o.selected.contains(&i) {
                move_key(&mut k, dt, dv, comp, snap);
            }
            (i, k)
        })
        .collect();
    Some(retag(o.track, tagged, &o.selected))
}

fn move_key(k: &mut Key, dt: f64, dv: f64, comp: usize, snap: Option<Snap>) {
    k.time += dt;
    if comp < k.value.len() {
        k.value[comp] += dv;
    }
    if let Some(Snap { fps, value_step: step }) = snap {
        k.time = (k.time * fps).round() / fps;
        if comp < k.value.len() && step.is_finite() && step > 0.0 {
            k.value[comp] = (k.value[comp] / step).round() * step;
        }
    }
}

/// A key at time `t` with `value` (the curve's value there, so the shape stays) on `track`,
/// selected alone.
pub fn insert_key(project: &Project, track: usize, t: f64, value: Vec<f64>) -> Result<KeyEdit, IntentError> {
    let tr = project.tracks.get(track).ok_or(IntentError::NoTrack(track))?;
    if tr.keys.iter().any(|k| k.time == t) {
        return Err(IntentError::KeyExists(t));
    }
    if tr.interpolation == Interpolation::Bezier {
        // Blender's insertion: the segment is split so the curve keeps its shape.
        if let Ok(curve) = crate::TrackCurve::new(tr) {
            let (keys, at) = crate::handles::insert_key(tr, &curve, t, value);
            return Ok(KeyEdit { track, edit: Edit::SetKeys { track, keys: keys.into() }, selected: vec![KeyRef { track, key: at }] });
        }
    }
    let mut tagged: Vec<(usize, Key)> = tr.keys.iter().cloned().enumerate().collect();
    let new = tagged.len();
    tagged.push((new, Key::new(t, value)));
    Ok(retag(track, tagged, &BTreeSet::from([new])))
}

/// A deletion of the selected keys of one track.
#[derive(Clone, Debug, PartialEq)]
pub struct Deletion {
    pub track: usize,
    pub deleted: usize,
    pub edit: Edit,
}

/// One edit per track deleting its selected keys (last track first), and the tracks that would
/// be left with no key, which keep theirs.
#[must_use]
pub fn delete_keys(project: &Project, selection: &BTreeSet<KeyRef>) -> (Vec<Deletion>, Vec<IntentError>) {
    let mut out = Vec::new();
    let mut refused = Vec::new();
    for track in tracks_of(selection).into_iter().rev() {
        let Some(t) = project.tracks.get(track) else { continue };
        let selected = selected_on(selection, track);
        let kept: Vec<Key> = t.keys.iter().enumerate().filter(|(i, _)| !selected.contains(i)).map(|(_, k)| k.clone()).collect();
        if kept.is_empty() {
            refused.push(IntentError::MustKeepOneKey(t.name.clone()));
            continue;
        }
        out.push(Deletion { track, deleted: t.keys.len() - kept.len(), edit: Edit::SetKeys { track, keys: kept.into() } });
    }
    (out, refused)
}

/// The selected keys of the first track with a selection, times relative to the first, and
/// that track's name.
#[must_use]
pub fn copy_keys(project: &Project, selection: &BTreeSet<KeyRef>) -> Option<(Clipboard, String)> {
    let track = selection.iter().next()?.track;
    let t = project.tracks.get(track)?;
    let mut keys: Vec<Key> = in_track(selection, track).filter(|k| k.key < t.keys.len()).map(|k| t.keys.key(k.key).into_owned()).collect();
    let t0 = keys.first()?.time;
    for k in &mut keys {
        k.time -= t0;
    }
    Some((Clipboard { kind: t.kind, keys }, t.name.clone()))
}

/// The clipboard pasted into `track`, its first key at `at`; pasted keys replace keys at the
/// same times and end up selected.
pub fn paste_keys(project: &Project, clip: &Clipboard, track: usize, at: f64) -> Result<KeyEdit, IntentError> {
    let target = project.tracks.get(track).ok_or(IntentError::NoTrack(track))?;
    if target.kind.dim() != clip.kind.dim() {
        return Err(IntentError::KindMismatch { copied: clip.kind, target: target.kind, name: target.name.clone() });
    }
    let pasted: Vec<Key> = clip.keys.iter().map(|k| Key { time: k.time + at, ..k.clone() }).collect();
    // The pasted times sorted, so each key of the target looks for its time by binary search
    // (a search per pair made pasting a take's keys into a long track quadratic).
    let mut times: Vec<f64> = pasted.iter().map(|k| k.time).collect();
    times.sort_by(f64::total_cmp);
    let replaced = |t: f64| times.get(times.partition_point(|&p| p < t)).is_some_and(|&p| p == t);
    let mut tagged: Vec<(usize, Key)> = target.keys.iter().filter(|k| !replaced(k.time)).cloned().map(|k| (usize::MAX, k)).collect();
    let base = target.keys.len();
    let selected: BTreeSet<usize> = (base..base + pasted.len()).collect();
    tagged.extend(pasted.into_iter().enumerate().map(|(i, k)| (base + i, k)));
    Ok(retag(track, tagged, &selected))
}

/// `track` converted to `kind`: values truncated or padded (a quaternion pads to identity),
/// and modes that do not fit the new kind replaced by the nearest that does.
#[must_use]
pub fn with_kind(track: &Track, kind: TrackKind) -> Track {
    let mut t = track.clone();
    t.kind = kind;
    let zero = kind.zero_value();
    for k in &mut t.keys {
        let mut v = zero.clone();
        for (c, x) in v.iter_mut().enumerate() {
            if let Some(old) = k.value.get(c) {
                *x = *old;
            }
        }
        if kind == TrackKind::Quat && v.iter().all(|x| *x == 0.0) {
            v = zero.clone();
        }
        k.value = v;
    }
    if !t.interpolation.supports(kind) {
        t.interpolation = default_interpolation(kind);
    }
    for inf in [&mut t.pre_infinity, &mut t.post_infinity] {
        if !inf.supports(kind) {
            *inf = Infinity::Constant;
        }
    }
    t
}

/// Track `index` changed to `kind`.
pub fn change_kind(project: &Project, index: usize, kind: TrackKind) -> Option<Edit> {
    Some(Edit::SetTrack { index, track: with_kind(project.tracks.get(index)?, kind) })
}

/// The interpolation a new track of `kind` gets.
#[must_use]
pub fn default_interpolation(kind: TrackKind) -> Interpolation {
    if kind == TrackKind::Quat {
        Interpolation::Slerp
    } else {
        Interpolation::Tcb
    }
}

/// `base`, or `base 2`, `base 3`… whichever no track has.
#[must_use]
pub fn unique_name(project: &Project, base: &str) -> String {
    let taken = |n: &str| project.tracks.iter().any(|t| t.name == n);
    if !taken(base) {
        return base.to_owned();
    }
    (2..).map(|i| format!("{base} {i}")).find(|n| !taken(n)).expect("some name is free")
}

/// A new track of `kind` after the others: named after its kind, two keys from zero (or the
/// identity) at t = 0 to ones (or the identity) at t = 1.
#[must_use]
pub fn new_track(project: &Project, kind: TrackKind) -> Edit {
    let mut t = Track::new(unique_name(project, &format!("{kind:?}").to_lowercase()), kind, default_interpolation(kind));
    let mut one = kind.zero_value();
    if kind != TrackKind::Quat {
        one.iter_mut().for_each(|x| *x = 1.0);
    }
    t.keys = vec![Key::new(0.0, kind.zero_value()), Key::new(1.0, one)].into();
    Edit::InsertTrack { index: project.tracks.len(), track: t }
}

/// The project File > New starts from: one scalar track from 0 to 1.
#[must_use]
pub fn new_project() -> Project {
    let track = Track::new("value", TrackKind::Scalar, Interpolation::Tcb).with_keys(vec![Key::new(0.0, vec![0.0]), Key::new(1.0, vec![1.0])]);
    Project { tracks: vec![track], ..Project::default() }
}

#[cfg(test)]
#[path = "intent_tests.rs"]
mod tests;
