//! The blend sliders on the document side, without egui (Key > Blend to Neighbor, Breakdown,
//! Blend to Ease, as Blender's graph editor sliders): a [`BlendSession`] holds the selected
//! keys' tracks as they were when the slider opened, and every change of the factor puts
//! [`crate::blend::blend_keys`] of those originals in place — never of the keys the last
//! change left, so dragging back and forth ends where the factor ends. The dispatcher keeps
//! the session in `UiState::blend` and opens its gesture (one undo step from the first change
//! to OK), and the largest difference each change made to each track's curve is measured
//! against the original; [`DocState::blend_holds`] says whether the document is still as the slider's last
//! change left it.

use std::sync::Arc;

use super::cleanup::{plural, Ghost};
use super::DocState;
use crate::app::payload::Status;
use crate::blend::{blend_keys, BlendTool};
use crate::edit::intent::{KeyEdit, KeyRef};
use crate::{Edit, Track, TrackCurve};

/// One track a blend slider moves: its keys when the slider opened, and which are selected.
#[derive(Clone, Debug, PartialEq)]
pub struct BlendOrigin {
    pub index: usize,
    pub track: Track,
    /// The selected keys' indices, ascending.
    pub keys: Vec<usize>,
}

/// A blend slider while it is open: the tool, the factor, the original tracks, and the
/// document state its last change left.
#[derive(Clone, Debug)]
pub struct BlendSession {
    pub tool: BlendTool,
    pub factor: f64,
    pub origins: Arc<Vec<BlendOrigin>>,
    /// Tracks of the selection left out, each with the engine's reason (a quaternion track)
    /// or the editor's (a locked track).
    pub refused: Vec<String>,
    /// How many selected keys the factor moved from their original values.
    pub moved: usize,
    /// The document (identity) and revision the slider found, or its last change left.
    document: u64,
    revision: u64,
    /// Whether the slider changed the keys: its gesture, begun by the dispatcher, is open.
    pub started: bool,
    /// The original curves: the ghost drawn from the first change, and left by OK.
    pub ghost: Option<Arc<Ghost>>,
    /// Per track (index), the largest difference between the original curve and the curve at
    /// the current factor, measured over the curve ([`crate::smooth::max_difference`]:
    /// Euclidean over components, degrees for rotations).
    pub differences: Vec<(usize, f64)>,
}

impl BlendSession {
    /// How many selected keys the slider acts on.
    #[must_use]
    pub fn keys(&self) -> usize {
        self.origins.iter().map(|o| o.keys.len()).sum()
    }

    /// "3 selected keys on 2 tracks".
    #[must_use]
    pub fn scope(&self) -> String {
        let (keys, tracks) = (self.keys(), self.origins.len());
        format!("{keys} selected key{} on {tracks} track{}", plural(keys), plural(tracks))
    }

    /// What the status bar says at the current factor.
    #[must_use]
    pub fn status_text(&self) -> String {
        let tracks = self.origins.len();
        format!(
            "{} {:.3}: {} of {} key{} moved on {tracks} track{}",
            self.tool.label(),
            self.factor,
            self.moved,
            self.keys(),
            plural(self.keys()),
            plural(tracks)
        )
    }
}

impl DocState {
    /// Opens a slider of `tool` on the selected keys: each track's keys as they are, the
    /// tracks the engine refuses (quaternion tracks, with its message) and locked tracks left
    /// out and listed. `Err`: nothing selected, or every track refused (the engine's message).
    pub fn start_blend(&self, tool: BlendTool) -> Result<BlendSession, Status> {
        let label = tool.label();
        if self.selection.is_empty() {
            return Err(Status::message(format!("{label}: select keys first")));
        }
        let (neutral, _) = tool.neutral_and_range();
        let (mut origins, mut refused) = (Vec::new(), Vec::new());
        for index in self.selection.tracks() {
            let Some(track) = self.project().tracks.get(index) else { continue };
            let keys: Vec<usize> = self.selection.of_track(index).map(|k| k.key).collect();
            if track.locked {
                refused.push(format!("track \"{}\" is locked", track.name));
            } else if let Err(e) = blend_keys(track, &keys, tool, neutral) {
                refused.push(e.to_string());
            } else {
                origins.push(BlendOrigin { index, track: track.clone(), keys });
            }
        }
        if origins.is_empty() {
            return Err(Status::error(format!("{label}: {}", refused.join("; "))));
        }
        let indices: Vec<usize> = origins.iter().map(|o| o.index).collect();
        Ok(BlendSession {
            tool,
            factor: neutral,
            origins: Arc::new(origins),
            refused,
            moved: 0,
            document: self.id,
            revision: self.document.revision(),
            started: false,
            ghost: self.ghost_of(label, &indices),
            differences: Vec::new(),
        })
    }

    /// Whether the document is as `session` found it or its last change left it (the same
    /// document and revision, and, once the slider changed keys, its gesture still open):
    /// otherwise another edit, an undo or another document came between, and the slider's
    /// originals no longer describe the keys.
    #[must_use]
    pub fn blend_holds(&self, session: &BlendSession) -> bool {
        self.id == session.document && self.document.revision() == session.revision && (!session.started || self.document.in_gesture())
    }

    /// Puts the original keys blended at `factor` in place (into the open gesture, which the
    /// caller began), each track's selected run spliced; returns what the status bar says.
    pub fn blend_to(&mut self, session: &mut BlendSession, factor: f64) -> Status {
        let label = session.tool.label();
        let (mut edits, mut moved) = (Vec::new(), 0);
        for o in session.origins.iter() {
            let new = match blend_keys(&o.track, &o.keys, session.tool, factor) {
                Ok(t) => t,
                Err(e) => return Status::error(format!("{label}: {e}")),
            };
            moved += o.keys.iter().filter(|&&k| new.keys[k].value != o.track.keys[k].value).count();
            let (Some(&lo), Some(&hi)) = (o.keys.first(), o.keys.last()) else { continue };
            let edit = Edit::SpliceKeys { track: o.index, at: lo, remove: hi - lo + 1, keys: new.keys[lo..=hi].to_vec() };
            let selected: Vec<KeyRef> = self.selection.of_track(o.index).copied().collect();
            edits.push(KeyEdit { track: o.index, edit, selected });
        }
        let result = self.apply_key_edits(label, edits);
        session.factor = factor;
        session.moved = moved;
        session.revision = self.document.revision();
        session.started = true;
        session.differences = self.blend_differences(session);
        result.err().unwrap_or_else(|| Status::message(session.status_text()))
    }

    /// Per track of `session`, the largest difference between its original curve (the
    /// ghost) and its curve as it is now, measured over the whole curve.
    fn blend_differences(&self, session: &BlendSession) -> Vec<(usize, f64)> {
        let Some(ghost) = &session.ghost else { return Vec::new() };
        ghost
            .tracks
            .iter()
            .filter_map(|(i, original)| {
                let measured = |now: &TrackCurve| crate::smooth::max_difference(original, now);
                match self.curve(*i) {
                    Some(Ok(now)) if self.curves_revision_is_current() => Some((*i, measured(now))),
                    _ => TrackCurve::new(self.project().tracks.get(*i)?).ok().map(|now| (*i, measured(&now))),
                }
            })
            .collect()
    }
}
