//! Cleaning up a take on the document side, without egui: Edit > Smooth… (each target track
//! smoothed by [`crate::smooth`] — only its selected keys' values with keys selected,
//! [`crate::smooth::smooth_keys`] — and compiled, free of the editor's state, so a worker runs
//! it, then put in place as one undo step) and Key > Scale time… (the selected keys scaled in
//! time about a pivot by [`crate::retime::retime_keys`], or, with no key selected, the active
//! track whole by [`crate::retime::retime_track`]: previewed on a worker, [`Retiming`], then
//! what the window showed applied as one undo step). The [`Targets`] say which tracks and
//! keys. The [`Ghost`] of what a cleanup replaced is kept by the UI state (not the document)
//! until dismissed.

use std::sync::Arc;

use super::DocState;
use crate::app::body::BodyChange;
use crate::app::payload::{Basis, CompiledTrack, KeyRef, Status};
use crate::app::units::{Largest, Measured};
use crate::retime::{retime_keys, retime_track, Retimed};
use crate::smooth::{smooth_keys, smooth_track, Filter, Smoothed};
use crate::{Project, Track, TrackCurve};

/// What a cleanup acts on: per track (index), its selected keys (indices, ascending), or
/// `None` for the whole track (no key is selected: the active track).
pub type Targets = Vec<(usize, Option<Vec<usize>>)>;

/// One track smoothed, and compiled.
#[derive(Clone, Debug)]
pub struct SmoothedTrack {
    pub smoothed: Smoothed,
    pub compiled: CompiledTrack,
}

/// Edit > Smooth… made for one filter and one basis: each target track (index, name)
/// smoothed, or why not. Put in place only while its basis holds.
#[derive(Clone, Debug)]
pub struct Smoothing {
    pub filter: Filter,
    pub made_for: Basis,
    pub tracks: Vec<(usize, String, Result<SmoothedTrack, String>)>,
    /// How far the smoothing moves the body.
    pub body: BodyChange,
    /// The jumps inside the smoothed keys ([`jumps_crossed`]): a filter smears them.
    pub crossed: Vec<crate::problems::Jump>,
}

/// Two smoothings are the same if made with the same filter for the same basis.
impl PartialEq for Smoothing {
    fn eq(&self, other: &Self) -> bool {
        (self.filter, self.made_for) == (other.filter, other.made_for)
    }
}

impl Smoothing {
    /// How many keys change on how many tracks: `Some((keys, tracks))` when keys are selected
    /// (only they change), `None` when whole tracks are smoothed.
    #[must_use]
    pub fn selected_keys(&self) -> Option<(usize, usize)> {
        let counts: Vec<usize> = self.tracks.iter().filter_map(|t| t.2.as_ref().ok()?.smoothed.selected).collect();
        (!counts.is_empty()).then(|| (counts.iter().sum(), counts.len()))
    }
}

/// Tracks `targets` of `project` smoothed with `filter` on every core (only the selected keys
/// where given), each compiled; `None` once `cancelled()` says so.
pub fn smooth_targets(project: &Project, targets: &Targets, filter: Filter, made_for: Basis, cancelled: &(dyn Fn() -> bool + Sync)) -> Option<Smoothing> {
    use rayon::prelude::*;
    let tracks = targets
        .par_iter()
        .filter_map(|(i, keys)| project.tracks.get(*i).map(|t| (*i, t, keys.as_deref())))
        .map(|(i, t, keys)| {
            let result = if cancelled() { Err("cancelled".to_owned()) } else { smooth_one(t, keys, &filter) };
            (i, t.name.clone(), result)
        })
        .collect::<Vec<_>>();
    let body = BodyChange::measure(project, tracks.iter().filter_map(|(i, _, r)| Some((*i, &r.as_ref().ok()?.compiled.curve))));
    let crossed = jumps_crossed(project, targets);
    (!cancelled()).then_some(Smoothing { filter, made_for, tracks, body, crossed })
}

/// The jumps ([`crate::problems::find_jumps`]) of `targets`' tracks that lie among the keys
/// they act on (between the first and last selected key, or anywhere on a whole track): a
/// smoothing or blend across one smears a one-frame flip over many frames, so the window
/// warns and says that fixing the jumps first is the fix.
#[must_use]
pub fn jumps_crossed(project: &Project, targets: &Targets) -> Vec<crate::problems::Jump> {
    let tracks: Vec<usize> = targets.iter().map(|(t, _)| *t).collect();
    if tracks.is_empty() {
        return Vec::new();
    }
    let jumps = crate::problems::find_jumps(project, &tracks, &crate::problems::JumpRule::default());
    jumps
        .into_iter()
        .filter(|j| {
            targets.iter().any(|(t, keys)| {
                *t == j.track && keys.as_ref().is_none_or(|k| k.first().is_some_and(|&a| k.last().is_some_and(|&b| a < j.first && j.first <= b)))
            })
        })
        .collect()
}

fn smooth_one(track: &Track, keys: Option<&[usize]>, filter: &Filter) -> Result<SmoothedTrack, String> {
    let smoothed = match keys {
        Some(keys) => smooth_keys(track, keys, filter),
        None => smooth_track(track, filter),
    }
    .map_err(|e| e.to_string())?;
    let compiled = CompiledTrack::of(&smoothed.track);
    if let Err(e) = &compiled.curve {
        return Err(e.to_string());
    }
    Ok(SmoothedTrack { smoothed, compiled })
}

/// One track retimed, and compiled.
#[derive(Clone, Debug)]
pub struct RetimedTrack {
    pub retimed: Retimed,
    pub compiled: CompiledTrack,
    /// `Some((selected, keys))`: the track's `selected` selected keys of its `keys` were scaled
    /// (fewer than all: only they, the difference from the original at the same times; all:
    /// the whole track, exact); `None`: no key was selected, the whole track.
    pub scaled: Option<(usize, usize)>,
}

/// Key > Scale time…'s preview, made for one factor, one pivot time and one basis: each
/// target track (index, name) retimed with the difference measured and the engine's notes, or
/// why not (a selected key that would land on or pass an unselected one). Apply puts it in
/// place if its basis holds and no track was refused.
#[derive(Clone, Debug)]
pub struct Retiming {
    pub scale: f64,
    pub pivot: f64,
    pub made_for: Basis,
    pub tracks: Vec<(usize, String, Result<RetimedTrack, String>)>,
    /// How far the retiming moves the body.
    pub body: BodyChange,
}

/// Two previews are the same if made for the same factor, pivot and basis.
impl PartialEq for Retiming {
    fn eq(&self, other: &Self) -> bool {
        self.asked() == other.asked()
    }
}

impl Retiming {
    /// What it was made for: the factor, the pivot time and the basis.
    #[must_use]
    pub fn asked(&self) -> (f64, f64, Basis) {
        (self.scale, self.pivot, self.made_for)
    }

    /// Whether Apply can put it in place: some track retimed, none refused.
    #[must_use]
    pub fn applicable(&self) -> bool {
        !self.tracks.is_empty() && self.tracks.iter().all(|t| t.2.is_ok())
    }

    /// How many selected keys are scaled on how many tracks (`None`: whole tracks).
    #[must_use]
    pub fn selected_keys(&self) -> Option<(usize, usize)> {
        let counts: Vec<usize> = self.tracks.iter().filter_map(|t| Some(t.2.as_ref().ok()?.scaled?.0)).collect();
        (!counts.is_empty()).then(|| (counts.iter().sum(), counts.len()))
    }
}

/// Tracks `targets` of `project` retimed by `scale` about `pivot` on every core (only the
/// selected keys where given, [`retime_keys`], which retimes a track with every key selected
/// whole), each compiled; `None` once `cancelled()` says so.
pub fn retime_targets(
    project: &Project,
    targets: &Targets,
    (scale, pivot, made_for): (f64, f64, Basis),
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Option<Retiming> {
    use rayon::prelude::*;
    let tracks = targets
        .par_iter()
        .filter_map(|(i, keys)| project.tracks.get(*i).map(|t| (*i, t, keys.as_deref())))
        .map(|(i, t, keys)| {
            let result = if cancelled() { Err("cancelled".to_owned()) } else { retime_one(t, keys, scale, pivot) };
            (i, t.name.clone(), result)
        })
        .collect::<Vec<_>>();
    let body = BodyChange::measure(project, tracks.iter().filter_map(|(i, _, r)| Some((*i, &r.as_ref().ok()?.compiled.curve))));
    (!cancelled()).then_some(Retiming { scale, pivot, made_for, tracks, body })
}

fn retime_one(track: &Track, keys: Option<&[usize]>, scale: f64, pivot: f64) -> Result<RetimedTrack, String> {
    let retimed = match keys {
        Some(keys) => retime_keys(track, keys, scale, pivot),
        None => retime_track(track, scale, pivot),
    }
    .map_err(|e| e.to_string())?;
    Ok(RetimedTrack { compiled: CompiledTrack::of(&retimed.track), retimed, scaled: keys.map(|k| (k.len(), track.keys.len())) })
}

/// The original curves of tracks a cleanup replaced, drawn faint in the graph after Apply
/// until View > Clear ghost (as Blender's ghost curves). Kept by the UI state, not the
/// document: undo does not bring it back or take it away.
#[derive(Clone, Debug)]
pub struct Ghost {
    /// What made it ("Smooth", "Simplify", "Scale time").
    pub label: String,
    pub tracks: Vec<(usize, TrackCurve)>,
}

/// Compared by what made it and which tracks it holds (enough to tell a new ghost apart).
impl PartialEq for Ghost {
    fn eq(&self, other: &Self) -> bool {
        self.label == other.label && self.tracks.iter().map(|t| t.0).eq(other.tracks.iter().map(|t| t.0))
    }
}

/// Where Key > Scale time… scales about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Pivot {
    #[default]
    Playhead,
    /// The middle of the selected keys' time range (of the target tracks' keys without a
    /// selection).
    SelectionCentre,
}

impl DocState {
    /// The current curves of `tracks`, as a ghost labelled `label` (`None` if none compiled).
    #[must_use]
    pub fn ghost_of(&self, label: &str, tracks: &[usize]) -> Option<Arc<Ghost>> {
        let tracks: Vec<(usize, TrackCurve)> = tracks.iter().filter_map(|&i| self.curve(i).and_then(|c| c.as_ref().ok()).map(|c| (i, c.clone()))).collect();
        (!tracks.is_empty()).then(|| Arc::new(Ghost { label: label.to_owned(), tracks }))
    }

    /// What Smooth and Scale time act on: the tracks of the selected keys with those keys, or,
    /// with no key selected, the active track whole.
    #[must_use]
    pub fn cleanup_targets(&self) -> Targets {
        let whole = self.selection.is_empty();
        self.convert_targets().into_iter().map(|t| (t, (!whole).then(|| self.selection.of_track(t).map(|k| k.key).collect()))).collect()
    }

    /// The tracks a [`Smoothing`] would change (those smoothed without an error).
    #[must_use]
    pub fn smoothed_indices(smoothing: &Smoothing) -> Vec<usize> {
        smoothing.tracks.iter().filter(|t| t.2.is_ok()).map(|t| t.0).collect()
    }

    /// Puts the smoothed tracks in place (with the curves their worker compiled), as one undo
    /// step. Tracks smoothed whole leave the selection (resampled tracks have other keys);
    /// where only selected keys changed, they stay selected. The dispatcher applies it only
    /// while its basis holds.
    pub fn apply_smooth(&mut self, smoothing: Arc<Smoothing>) -> Status {
        let keys = smoothing.selected_keys();
        let Smoothing { tracks, .. } = Arc::unwrap_or_clone(smoothing);
        let (mut replace, mut whole, mut worst, mut resampled, mut failed) = (Vec::new(), Vec::new(), Largest::default(), 0, None);
        for (index, name, result) in tracks {
            match result {
                Ok(s) => {
                    worst.add(s.smoothed.max_difference, Measured::of(s.smoothed.track.kind, Measured::Degrees));
                    resampled += usize::from(s.smoothed.resampled.is_some() && s.smoothed.selected.is_none());
                    whole.extend(s.smoothed.selected.is_none().then_some(index));
                    replace.push((index, s.smoothed.track, s.compiled));
                }
                Err(e) => _ = failed.get_or_insert(format!("\"{name}\": {e}")),
            }
        }
        let (applied, refused) = self.replace_tracks("Smooth", replace);
        whole.retain(|t| applied.contains(t));
        self.deselect_tracks(&whole);
        let n = applied.len();
        let what = match keys {
            Some((k, _)) if n > 0 => format!("Smoothed {k} selected key{} on {n} track{}", plural(k), plural(n)),
            _ => format!("Smoothed {n} track{}", plural(n)),
        };
        let text = format!("{what}: largest difference {}{}", worst.text(3), if resampled > 0 { format!(", {resampled} resampled") } else { String::new() });
        match (n, refused.or(failed)) {
            (0, Some(e)) => Status::error(format!("Smooth: {e}")),
            (0, None) => Status::message("Smooth: select keys on a track, or click one"),
            (_, Some(e)) => Status::error(format!("{text}; {e}, left as it was")),
            (_, None) => Status::message(text),
        }
    }

    /// The time Key > Scale time… scales about.
    #[must_use]
    pub fn pivot_time(&self, pivot: Pivot, playhead: f64) -> f64 {
        if pivot == Pivot::Playhead {
            return playhead;
        }
        let tracks = &self.project().tracks;
        let times: Vec<f64> = if self.selection.is_empty() {
            self.convert_targets().into_iter().flat_map(|t| tracks[t].keys.times()).collect()
        } else {
            self.selection.iter().filter_map(|k| tracks.get(k.track).filter(|t| k.key < t.keys.len()).map(|t| t.keys.time(k.key))).collect()
        };
        let (lo, hi) = times.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &t| (lo.min(t), hi.max(t)));
        if lo.is_finite() {
            (lo + hi) / 2.0
        } else {
            playhead
        }
    }

    /// Key > Scale time…'s Apply: the retimed tracks its window showed (compiled on its worker)
    /// put in place as one undo step — only if none was refused (the dispatcher also holds its
    /// basis). The selection follows the keys: unchanged where only selected keys were scaled
    /// (a mirrored run is reversed in place), counted from the other end on a track mirrored
    /// whole. The status says the measured difference and any notes.
    pub fn apply_retime(&mut self, retiming: Arc<Retiming>) -> Status {
        let keys = retiming.selected_keys();
        let Retiming { scale, pivot, tracks, .. } = Arc::unwrap_or_clone(retiming);
        if tracks.is_empty() {
            return Status::message("Scale time: select keys on a track, or click one");
        }
        if let Some((_, _, Err(e))) = tracks.iter().find(|t| t.2.is_err()) {
            return Status::error(format!("Scale time: nothing changed; {e}"));
        }
        let (mut replace, mut before, mut worst, mut notes) = (Vec::new(), Vec::new(), Largest::default(), Vec::new());
        for (i, name, r) in tracks {
            let Ok(r) = r else { continue };
            worst.add(r.retimed.max_difference, Measured::of(r.retimed.track.kind, Measured::Degrees));
            notes.extend(r.retimed.notes.iter().map(|n| format!("\"{name}\": {n}")));
            if r.scaled.is_none_or(|(selected, keys)| selected == keys) {
                before.push((i, self.project().tracks[i].keys.len()));
            }
            replace.push((i, r.retimed.track, r.compiled));
        }
        let selected: Vec<KeyRef> = self.selection.iter().copied().collect();
        let (applied, refused) = self.replace_tracks("Scale time", replace);
        self.follow_retimed(&selected, &before, scale < 0.0);
        let n = applied.len();
        let what = match keys {
            Some((k, _)) => format!("Scaled {k} selected key{} on {n} track{}", plural(k), plural(n)),
            None => format!("Scaled {n} track{}", plural(n)),
        };
        let mut text = format!("{what} in time by {scale} about {pivot:.3} s: largest difference measured {}", worst.text(2));
        if !notes.is_empty() {
            text = format!("{text}; {}", notes.join("; "));
        }
        match refused {
            Some(e) if n == 0 => Status::error(format!("Scale time: {e}")),
            Some(e) => Status::error(format!("{text}; {e}, left as it was")),
            None => Status::message(text),
        }
    }

    /// The selection after a retime: the same keys, counted from the other end where time was
    /// mirrored; a track whose key count changed (a mirrored Step track) leaves it.
    fn follow_retimed(&mut self, selected: &[KeyRef], before: &[(usize, usize)], mirrored: bool) {
        let tracks = &self.project().tracks;
        let moved = |k: &KeyRef| before.iter().find(|b| b.0 == k.track).map(|&(_, n)| (n, tracks[k.track].keys.len()));
        let keys: Vec<KeyRef> = selected
            .iter()
            .filter_map(|k| match moved(k) {
                None => Some(*k),
                Some((n, m)) if n == m => Some(KeyRef { track: k.track, key: if mirrored { n - 1 - k.key } else { k.key } }),
                Some(_) => None,
            })
            .collect();
        if keys != selected {
            self.selection.clear();
            self.selection.extend(keys);
        }
    }
}

/// "s" after a count other than one.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
