//! What the tools and the blend slider act on and leave behind, on the document side without
//! egui: the target tracks (those of the selected keys, or the active track; the rotation
//! tracks Edit > Euler Filter and Track > Convert rotation… act on), the [`Targets`] (per
//! track its selected keys, or the active track whole), the jumps
//! a smoothing or blend would cross ([`jumps_crossed`]), Scale time's [`Pivot`], and the
//! [`Ghost`] of what a tool replaced, kept by the UI state (not the document) until dismissed.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::DocState;
use crate::{Project, TrackCurve, TrackKind};

/// What a tool acts on: per track (index), its selected keys (indices, ascending), or
/// `None` for the whole track (no key is selected: the active track).
pub type Targets = Vec<(usize, Option<Vec<usize>>)>;

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

/// The original curves of tracks a tool replaced, drawn faint in the graph after Apply
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
    /// The tracks of the selected keys, or the active track: what the tools act on (Convert
    /// to Bézier, Simplify and Convert rotation whole; Smooth and Scale time
    /// [`Self::key_targets`]).
    #[must_use]
    pub fn target_tracks(&self) -> BTreeSet<usize> {
        let mut tracks: BTreeSet<usize> = self.selection.tracks().into_iter().collect();
        tracks.extend(self.active_track.filter(|_| tracks.is_empty()));
        tracks.retain(|&t| t < self.project().tracks.len());
        tracks
    }

    /// The tracks of the selected keys (or the active track) that are `kind`.
    fn targets_of(&self, keep: impl Fn(TrackKind) -> bool) -> Vec<usize> {
        self.target_tracks().into_iter().filter(|&t| keep(self.project().tracks[t].kind)).collect()
    }

    /// What Track > Convert Rotation… acts on: the Quat and Euler tracks of the selected keys,
    /// or the active track.
    #[must_use]
    pub fn rotation_targets(&self) -> Vec<usize> {
        self.targets_of(TrackKind::is_rotation)
    }

    /// What Edit > Euler Filter acts on: the Euler tracks of the selected keys, or the active
    /// track.
    #[must_use]
    pub fn euler_targets(&self) -> Vec<usize> {
        self.targets_of(|k| k == TrackKind::Euler)
    }

    /// The current curves of `tracks`, as a ghost labelled `label` (`None` if none compiled).
    #[must_use]
    pub fn ghost_of(&self, label: &str, tracks: &[usize]) -> Option<Arc<Ghost>> {
        let tracks: Vec<(usize, TrackCurve)> = tracks.iter().filter_map(|&i| self.curve(i).and_then(|c| c.as_ref().ok()).map(|c| (i, c.clone()))).collect();
        (!tracks.is_empty()).then(|| Arc::new(Ghost { label: label.to_owned(), tracks }))
    }

    /// What Smooth and Scale time act on (a tool's targets unless it says otherwise): the
    /// tracks of the selected keys with those keys, or, with no key selected, the active
    /// track whole.
    #[must_use]
    pub fn key_targets(&self) -> Targets {
        let whole = self.selection.is_empty();
        self.target_tracks().into_iter().map(|t| (t, (!whole).then(|| self.selection.of_track(t).map(|k| k.key).collect()))).collect()
    }

    /// The time Key > Scale time… scales about.
    #[must_use]
    pub fn pivot_time(&self, pivot: Pivot, playhead: f64) -> f64 {
        if pivot == Pivot::Playhead {
            return playhead;
        }
        let tracks = &self.project().tracks;
        let times: Vec<f64> = if self.selection.is_empty() {
            self.target_tracks().into_iter().flat_map(|t| tracks[t].keys.times()).collect()
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
}

/// "s" after a count other than one.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
