//! The blend sliders on the document side, without egui (Key > Blend to Neighbor, Breakdown,
//! Blend to Ease, as Blender's graph editor sliders): a [`BlendSession`] holds the selected
//! keys' tracks as they were when the slider opened, and every change of the factor puts
//! [`crate::blend::blend_keys`] of those originals in place — never of the keys the last
//! change left, so dragging back and forth ends where the factor ends.
//!
//! Each change is made off the UI thread: [`blend_on_worker`] (run by the slider's `Job`)
//! blends the original keys at the factor, compiles each track and measures the largest
//! difference between its original curve and the blended one — what a huge take makes slow —
//! and returns them as a [`Blended`] made for the document's [`Basis`]. The dispatcher keeps
//! the session in `UiState::blend`, opens its gesture (one undo step from the first change to
//! OK) and puts a result in place with [`DocState::install_blend`] only if its basis still
//! holds; [`DocState::blend_holds`] says whether the document is still as the slider's last
//! change left it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::targets::{plural, Ghost};
use super::DocState;
use crate::app::basis::Basis;
use crate::app::compiled_track::{ChangedKeys, CompiledTrack};
use crate::app::message::Status;
use crate::blend::{blend_keys, BlendTool};
use crate::edit::intent::KeyRef;
use crate::{Track, TrackCurve};

/// Sessions are told apart by a number no other session had.
static SESSIONS: AtomicU64 = AtomicU64::new(1);

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
    /// Which session this is (a new slider is a new session, whatever its tool).
    pub id: u64,
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
    /// The jumps among the selected keys when the slider opened (`targets::jumps_crossed`).
    pub crossed: Vec<crate::problems::Jump>,
    /// What measuring the body needs of the project as the slider found it
    /// (`body::needed_for`: the tracks the change can move or that carry them); `None`
    /// without a skeleton.
    pub original: Option<Arc<crate::Project>>,
    /// How far the current factor moves the body from where it was.
    pub body: crate::app::body::BodyChange,
}

/// The original keys blended at one factor on a worker ([`blend_on_worker`]), made for one
/// basis: each track's keys compiled, how many selected keys moved, and each track's largest
/// difference from its original curve. Put in place only while its basis holds.
pub struct Blended {
    /// The session it was made for ([`BlendSession::id`]).
    pub session: u64,
    pub factor: f64,
    pub made_for: Basis,
    pub tracks: Vec<ChangedKeys>,
    pub moved: usize,
    pub differences: Vec<(usize, f64)>,
    /// How far this factor moves the body from the original.
    pub body: crate::app::body::BodyChange,
    /// The engine's refusal, if any (then nothing is put in place).
    pub error: Option<String>,
}

/// What a slider's job needs of its session, shared with the worker.
#[derive(Clone)]
pub struct BlendWork {
    pub session: u64,
    pub tool: BlendTool,
    pub origins: Arc<Vec<BlendOrigin>>,
    pub ghost: Option<Arc<Ghost>>,
    pub original: Option<Arc<crate::Project>>,
}

impl BlendSession {
    /// What its worker needs.
    #[must_use]
    pub fn work(&self) -> BlendWork {
        BlendWork { session: self.id, tool: self.tool, origins: self.origins.clone(), ghost: self.ghost.clone(), original: self.original.clone() }
    }
}

/// The original keys of `work` blended at `factor` (on every core): each track compiled and
/// measured against its original curve (the ghost's, compiled here where there is none).
/// `None` once `cancelled()` says so.
pub fn blend_on_worker(work: &BlendWork, factor: f64, made_for: Basis, cancelled: &(dyn Fn() -> bool + Sync)) -> Option<Blended> {
    use rayon::prelude::*;
    let original = |i: usize| work.ghost.as_ref().and_then(|g| g.tracks.iter().find(|t| t.0 == i)).map(|t| &t.1);
    let made: Vec<Result<(ChangedKeys, usize, f64), String>> = work
        .origins
        .par_iter()
        .map(|o| {
            if cancelled() {
                return Err("cancelled".to_owned());
            }
            let new = blend_keys(&o.track, &o.keys, work.tool, factor).map_err(|e| e.to_string())?;
            let moved = o.keys.iter().filter(|&&k| new.keys[k].value != o.track.keys[k].value).count();
            let compiled = CompiledTrack::of(&new);
            let curve = compiled.curve.as_ref().map_err(|e| format!("\"{}\": {e}", o.track.name))?;
            let difference = match original(o.index) {
                Some(old) => crate::smooth::max_difference(old, curve),
                None => TrackCurve::new(&o.track).map_or(0.0, |old| crate::smooth::max_difference(&old, curve)),
            };
            let selected = o.keys.iter().map(|&key| KeyRef { track: o.index, key }).collect();
            Ok((ChangedKeys { track: o.index, keys: new.keys.into_vec(), compiled, selected }, moved, difference))
        })
        .collect();
    if cancelled() {
        return None;
    }
    let mut blended =
        Blended { session: work.session, factor, made_for, tracks: Vec::new(), moved: 0, differences: Vec::new(), body: Default::default(), error: None };
    for m in made {
        match m {
            Ok((changed, moved, difference)) => {
                blended.differences.push((changed.track, difference));
                blended.moved += moved;
                blended.tracks.push(changed);
            }
            Err(e) => _ = blended.error.get_or_insert(format!("{}: {e}", work.tool.label())),
        }
    }
    if let Some(original) = &work.original {
        blended.body = crate::app::body::BodyChange::measure(original, blended.tracks.iter().map(|c| (c.track, &c.compiled.curve)));
    }
    Some(blended)
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
        let targets: super::targets::Targets = origins.iter().map(|o| (o.index, Some(o.keys.clone()))).collect();
        let crossed = super::targets::jumps_crossed(self.project(), &targets);
        Ok(BlendSession {
            id: SESSIONS.fetch_add(1, Ordering::Relaxed),
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
            crossed,
            original: crate::body::needed_for(self.project(), &indices).map(Arc::new),
            body: Default::default(),
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

    /// Puts a [`Blended`] made on a worker in place (into the open gesture, which the caller
    /// began, and only while its basis holds: the caller checks), each track's keys with the
    /// curve compiled there; the session takes its factor, count and differences. Returns what
    /// the status bar says.
    pub fn install_blend(&mut self, session: &mut BlendSession, blended: Blended) -> Status {
        let Blended { factor, tracks, moved, differences, body, error, .. } = blended;
        if let Some(e) = error {
            return Status::error(e);
        }
        let result = self.install_key_changes(session.tool.label(), tracks);
        session.factor = factor;
        session.moved = moved;
        session.revision = self.document.revision();
        session.started = true;
        session.differences = differences;
        session.body = body;
        result.err().unwrap_or_else(|| Status::message(session.status_text()))
    }
}
