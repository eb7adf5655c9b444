//! Cleaning up a take on the document side, without egui: Edit > Smooth… (each target track
//! smoothed by [`crate::smooth`] and compiled — free of the editor's state, so a worker runs
//! it — then put in place as one undo step) and Key > Scale time… (whole tracks retimed by
//! [`crate::retime::retime_track`] about a pivot: previewed on a worker, [`Retiming`], then
//! applied as one undo step). The [`Ghost`] of what a
//! cleanup replaced is kept by the UI state (not the document) until dismissed.

use std::sync::Arc;

use super::DocState;
use crate::app::payload::{Basis, CompiledTrack, KeyRef, Status};
use crate::retime::{retime_track, Retimed};
use crate::smooth::{smooth_track, Filter, Smoothed};
use crate::{Project, Track, TrackCurve};

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
}

/// Two smoothings are the same if made with the same filter for the same basis.
impl PartialEq for Smoothing {
    fn eq(&self, other: &Self) -> bool {
        (self.filter, self.made_for) == (other.filter, other.made_for)
    }
}

/// Tracks `targets` of `project` smoothed with `filter` on every core, each compiled; `None`
/// once `cancelled()` says so.
pub fn smooth_targets(project: &Project, targets: &[usize], filter: Filter, made_for: Basis, cancelled: &(dyn Fn() -> bool + Sync)) -> Option<Smoothing> {
    use rayon::prelude::*;
    let tracks = targets
        .par_iter()
        .filter_map(|&i| project.tracks.get(i).map(|t| (i, t)))
        .map(|(i, t)| {
            let result = if cancelled() { Err("cancelled".to_owned()) } else { smooth_one(t, &filter) };
            (i, t.name.clone(), result)
        })
        .collect();
    (!cancelled()).then_some(Smoothing { filter, made_for, tracks })
}

fn smooth_one(track: &Track, filter: &Filter) -> Result<SmoothedTrack, String> {
    let smoothed = smooth_track(track, filter).map_err(|e| e.to_string())?;
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
}

/// Key > Scale time…'s preview, made for one factor, one pivot time and one basis: each
/// target track (index, name) retimed with the difference [`retime_track`] measured and its
/// notes, or why not.
#[derive(Clone, Debug)]
pub struct Retiming {
    pub scale: f64,
    pub pivot: f64,
    pub made_for: Basis,
    pub tracks: Vec<(usize, String, Result<RetimedTrack, String>)>,
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
}

/// Tracks `targets` of `project` retimed by `scale` about `pivot` on every core, each
/// compiled; `None` once `cancelled()` says so.
pub fn retime_targets(
    project: &Project,
    targets: &[usize],
    (scale, pivot, made_for): (f64, f64, Basis),
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Option<Retiming> {
    use rayon::prelude::*;
    let tracks = targets
        .par_iter()
        .filter_map(|&i| project.tracks.get(i).map(|t| (i, t)))
        .map(|(i, t)| {
            let result = if cancelled() {
                Err("cancelled".to_owned())
            } else {
                retime_track(t, scale, pivot).map_err(|e| e.to_string()).map(|retimed| RetimedTrack { compiled: CompiledTrack::of(&retimed.track), retimed })
            };
            (i, t.name.clone(), result)
        })
        .collect();
    (!cancelled()).then_some(Retiming { scale, pivot, made_for, tracks })
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

    /// The tracks a [`Smoothing`] would change (those smoothed without an error).
    #[must_use]
    pub fn smoothed_indices(smoothing: &Smoothing) -> Vec<usize> {
        smoothing.tracks.iter().filter(|t| t.2.is_ok()).map(|t| t.0).collect()
    }

    /// Puts the smoothed tracks in place (with the curves their worker compiled), as one undo
    /// step; their keys leave the selection (resampled tracks have other keys). The dispatcher
    /// applies it only while its basis holds.
    pub fn apply_smooth(&mut self, smoothing: Arc<Smoothing>) -> Status {
        let Smoothing { tracks, .. } = Arc::unwrap_or_clone(smoothing);
        let (mut replace, mut worst, mut resampled, mut failed) = (Vec::new(), 0.0f64, 0, None);
        for (index, name, result) in tracks {
            match result {
                Ok(s) => {
                    worst = worst.max(s.smoothed.max_difference);
                    resampled += usize::from(s.smoothed.resampled.is_some());
                    replace.push((index, s.smoothed.track, s.compiled));
                }
                Err(e) => _ = failed.get_or_insert(format!("\"{name}\": {e}")),
            }
        }
        let (applied, refused) = self.install_tracks("Smooth", replace);
        self.deselect_tracks(&applied);
        let n = applied.len();
        let text = format!(
            "Smoothed {n} track{}: largest difference {worst:.3e}{}",
            plural(n),
            if resampled > 0 { format!(", {resampled} resampled") } else { String::new() }
        );
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
            self.convert_targets().into_iter().flat_map(|t| tracks[t].keys.iter().map(|k| k.time)).collect()
        } else {
            self.selection.iter().filter_map(|k| tracks.get(k.track).and_then(|t| t.keys.get(k.key))).map(|k| k.time).collect()
        };
        let (lo, hi) = times.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &t| (lo.min(t), hi.max(t)));
        if lo.is_finite() {
            (lo + hi) / 2.0
        } else {
            playhead
        }
    }

    /// Key > Scale time…: the tracks of the selected keys (or the active track), whole, scaled
    /// in time by `scale` about `pivot` ([`retime_track`]), as one undo step; the selection
    /// follows the keys (reversed by a mirror). The status says the measured difference and
    /// any notes (automatic handles written as Aligned).
    pub fn scale_time(&mut self, scale: f64, pivot: f64) -> Status {
        let targets: Vec<usize> = self.convert_targets().into_iter().collect();
        if targets.is_empty() {
            return Status::message("Scale time: select keys on a track, or click one");
        }
        let (mut replace, mut worst, mut notes) = (Vec::new(), 0.0f64, Vec::new());
        for &i in &targets {
            let track = &self.project().tracks[i];
            match retime_track(track, scale, pivot) {
                Ok(r) => {
                    worst = worst.max(r.max_difference);
                    notes.extend(r.notes.iter().map(|n| format!("\"{}\": {n}", track.name)));
                    let compiled = CompiledTrack::of(&r.track);
                    replace.push((i, r.track, compiled));
                }
                Err(e) => return Status::error(format!("Scale time: \"{}\": {e}", track.name)),
            }
        }
        let before: Vec<(usize, usize)> = targets.iter().map(|&i| (i, self.project().tracks[i].keys.len())).collect();
        let selected: Vec<KeyRef> = self.selection.iter().copied().collect();
        let (applied, refused) = self.install_tracks("Scale time", replace);
        self.follow_retimed(&selected, &before, scale < 0.0);
        let n = applied.len();
        let mut text = format!("Scaled {n} track{} in time by {scale} about {pivot:.3} s: largest difference measured {worst:.2e}", plural(n));
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

    /// Replaces tracks with new ones compiled elsewhere, as one undo step labelled `label`;
    /// returns the indices replaced and the first refusal (a locked track stays as it was).
    fn install_tracks(&mut self, label: &str, tracks: Vec<(usize, Track, CompiledTrack)>) -> (Vec<usize>, Option<String>) {
        let compiled_now = self.curves_revision_is_current();
        let (mut installed, mut applied, mut refused) = (Vec::new(), Vec::new(), None);
        self.document.begin_gesture(label);
        for (index, track, compiled) in tracks {
            let Ok(curve) = compiled.curve.as_ref() else { continue };
            match self.document.apply_compiled_track(label, index, track, curve) {
                Ok(()) => {
                    installed.push((index, compiled));
                    applied.push(index);
                }
                Err(e) => _ = refused.get_or_insert(e.to_string()),
            }
        }
        self.document.end_gesture();
        if compiled_now && !installed.is_empty() {
            let replaced = self.install_compiled(installed);
            self.park(crate::edit::Side::Undo, replaced);
        } else if !compiled_now {
            self.refresh();
        }
        (applied, refused)
    }
}

/// "s" after a count other than one.
pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
