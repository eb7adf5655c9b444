//! An edit as panels send it: a step of a [`Gesture`] (a drag's begin, frames and end, or a
//! widget's one change) carrying a [`Change`] (a field set on every selected key, a key drag's
//! frame [`KeyMove`], or [`Edits`] a panel made itself); and the handle sides a type is given
//! ([`HandleSides`]). `gesture.rs` makes the steps from a widget's response.

use std::sync::Arc;

use crate::edit::intent;
pub use crate::edit::intent::KeyRef;
use crate::{Edit, HandleType, Key, Project};

/// The function that changes one key.
pub type ChangeFn = Arc<dyn Fn(&mut Key) + Send + Sync>;

/// The function that changes one key by a value typed in display units: it is given the
/// display scale of the key's track (`units::display_scale`, shown units per stored unit).
pub type ShownFn = Arc<dyn Fn(&mut Key, f64) + Send + Sync>;

/// One step of a gesture: what a panel sends for a frame of a drag, or for a widget's change
/// that is no drag (a typed value, a checkbox). Every change of a drag, from its `Begin` to its
/// `End`, is one undo step; a `Once` step is one of its own. The changes are absolute (a field
/// set to a value, keys moved from where the drag began), so a later one may replace a waiting
/// one (`KeyQueue::defer`).
#[derive(Clone, Debug, PartialEq)]
pub struct Gesture {
    pub label: String,
    pub phase: Phase,
    /// What this step changes (`None`: the pointer moved but nothing changed, or a drag's end).
    pub change: Option<Change>,
}

/// Where in its gesture a step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A drag starts: its undo step opens, then the change (if any) is made.
    Begin,
    /// A frame of the drag: part of its open step (one is opened if the panel missed the start,
    /// unless Delete or Undo ended it meanwhile: then the change is dropped).
    Change,
    /// The drag stops: its change (if any) is made, then its step closes.
    End,
    /// A change that is no drag (a typed value, a checkbox, a menu entry): an undo step of its
    /// own, closing an open gesture first.
    Once,
}

/// What a step of a [`Gesture`] changes.
#[derive(Clone)]
pub enum Change {
    /// The same change of every key (a field set to a value).
    Each(ChangeFn),
    /// The same change of every key on a Bezier track (a key's segment settings); keys of
    /// other tracks stay as they are.
    OnBezier(ChangeFn),
    /// A value typed in display units set on every key, in each key's track's units (the
    /// inspector's value fields: 45 typed is π/4 on an Euler track's keys, 45 on a Vec3's).
    Shown(ShownFn),
    /// Every key moved by the same time, the one that puts the first selected key (of the
    /// first track) at this time: the inspector's time field. The amount is found from the
    /// keys as they are when the change is made, so this too means the same whatever change
    /// lands before it.
    FirstKeyTo(f64),
    /// The graph's drag of the selected keys: moved from where they were when the drag began
    /// (absolute too).
    Move(Arc<KeyMove>),
    /// Edits the panel made itself, applied as they are: a tangent, handle or ease drag's key,
    /// a point moved in the path view, handle offsets typed, a group's tracks shown or hidden.
    Edits(Arc<Edits>),
}

/// Edits of tracks in place ([`Edit::track`] is `Some`) that are one change, and what the
/// status bar says once they are made. The selection stays (none of them re-sorts keys).
#[derive(Clone, Debug, PartialEq)]
pub struct Edits {
    pub edits: Vec<Edit>,
    pub message: Option<String>,
}

impl Change {
    /// [`Change::Edits`] of `edits`, the status bar then saying `message`.
    #[must_use]
    pub fn edits(edits: Vec<Edit>, message: Option<String>) -> Self {
        Self::Edits(Arc::new(Edits { edits, message }))
    }
}

/// A frame of a key drag: the selected keys of `origins` moved by `dt` in time and `dv` in
/// component `comp`, snapped by `snap` ([`intent::move_keys`]).
#[derive(Debug)]
pub struct KeyMove {
    pub origins: Arc<Vec<intent::MoveOrigin>>,
    pub dt: f64,
    pub dv: f64,
    pub comp: usize,
    pub snap: Option<intent::Snap>,
    /// What the status bar says once the keys are there.
    pub message: String,
}

impl KeyMove {
    /// How many keys the drag moves.
    #[must_use]
    pub fn keys(&self) -> usize {
        self.origins.iter().map(|o| o.selected.len()).sum()
    }
}

impl Change {
    /// The change of each key of `tracks` (per track its keys, ascending, as
    /// [`intent::keys_by_track`] gives them) of `project`, on tracks of display scale `scale`
    /// (which only [`Change::Shown`] reads).
    #[must_use]
    pub fn of_each_key(&self, project: &Project, tracks: &[(usize, Vec<usize>)], scale: f64) -> ChangeFn {
        match self {
            Self::Each(change) | Self::OnBezier(change) => change.clone(),
            Self::Shown(change) => {
                let change = change.clone();
                Arc::new(move |k: &mut Key| change(k, scale))
            }
            Self::FirstKeyTo(time) => {
                let first = tracks.first().and_then(|(t, keys)| {
                    let (track, i) = (project.tracks.get(*t)?, *keys.first()?);
                    (i < track.keys.len()).then(|| track.keys.time(i))
                });
                let dt = first.map_or(0.0, |t0| time - t0);
                Arc::new(move |k: &mut Key| k.time += dt)
            }
            // A drag is made from its origins, not key by key (`intent::move_keys`), and edits
            // are made already; never asked.
            Self::Move(_) | Self::Edits(_) => Arc::new(|_: &mut Key| {}),
        }
    }
}

impl PartialEq for Change {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Each(a), Self::Each(b)) | (Self::OnBezier(a), Self::OnBezier(b)) => Arc::ptr_eq(a, b),
            (Self::Shown(a), Self::Shown(b)) => Arc::ptr_eq(a, b),
            (Self::FirstKeyTo(a), Self::FirstKeyTo(b)) => a == b,
            (Self::Move(a), Self::Move(b)) => Arc::ptr_eq(a, b),
            (Self::Edits(a), Self::Edits(b)) => Arc::ptr_eq(a, b),
            // Changes of different kinds.
            (Self::Each(_) | Self::OnBezier(_) | Self::Shown(_) | Self::FirstKeyTo(_) | Self::Move(_) | Self::Edits(_), _) => false,
        }
    }
}

impl std::fmt::Debug for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self {
            Self::Each(_) => "Each",
            Self::OnBezier(_) => "OnBezier",
            Self::Shown(_) => "Shown",
            Self::FirstKeyTo(_) => "FirstKeyTo",
            Self::Move(_) => "Move",
            Self::Edits(_) => "Edits",
        };
        f.write_str(kind)
    }
}

/// Which handles of the selected keys a handle type is given: both (`V`), or one side (the
/// inspector's combo boxes); `None` leaves a side as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandleSides {
    pub left: Option<HandleType>,
    pub right: Option<HandleType>,
}

impl HandleSides {
    /// Both handles `kind` (`V`).
    #[must_use]
    pub fn both(kind: HandleType) -> Self {
        Self { left: Some(kind), right: Some(kind) }
    }

    /// The `side` handle `kind`, the other as it is.
    #[must_use]
    pub fn one(side: crate::handles::Side, kind: HandleType) -> Self {
        match side {
            crate::handles::Side::Left => Self { left: Some(kind), right: None },
            crate::handles::Side::Right => Self { left: None, right: Some(kind) },
        }
    }

    /// The type given (the left one if both are, which `V` makes the same).
    #[must_use]
    pub fn kind(self) -> HandleType {
        self.left.or(self.right).unwrap_or(HandleType::Free)
    }

    /// "handles", "left handles" or "right handles", for the status bar.
    #[must_use]
    pub fn which(self) -> &'static str {
        match (self.left, self.right) {
            (Some(_), None) => "left handles",
            (None, Some(_)) => "right handles",
            _ => "handles",
        }
    }

    /// What the status bar says once these handles of `changed` keys were set (on the UI
    /// thread or on a worker).
    #[must_use]
    pub fn set_text(self, changed: usize) -> String {
        format!("Set the {} of {changed} keys to {:?}", self.which(), self.kind())
    }
}
