//! A change of the selected keys as panels send it ([`KeyChange`]: a field set on every key,
//! a drag's frame, [`KeyMove`]) and the handle sides a type is given ([`HandleSides`]).

use std::sync::Arc;

use crate::edit::intent;
pub use crate::edit::intent::KeyRef;
use crate::{HandleType, Key, Project};

/// The function that changes one key.
pub type ChangeFn = Arc<dyn Fn(&mut Key) + Send + Sync>;

/// The function that changes one key by a value typed in display units: it is given the
/// display scale of the key's track (`units::display_scale`, shown units per stored unit).
pub type ShownFn = Arc<dyn Fn(&mut Key, f64) + Send + Sync>;

/// One absolute change of every selected key (a field set to a value), as the inspector
/// sends it. Absolute, so it means the same whatever change lands before it.
#[derive(Clone)]
pub struct KeyChange {
    pub label: String,
    /// Part of the gesture the panel began (a slider drag).
    pub gesture: bool,
    pub change: Change,
}

/// What a [`KeyChange`] does to the selected keys.
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
            // A drag is made from its origins, not key by key (`intent::move_keys`); never asked.
            Self::Move(_) => Arc::new(|_: &mut Key| {}),
        }
    }
}

impl PartialEq for KeyChange {
    fn eq(&self, other: &Self) -> bool {
        let same = match (&self.change, &other.change) {
            (Change::Each(a), Change::Each(b)) | (Change::OnBezier(a), Change::OnBezier(b)) => Arc::ptr_eq(a, b),
            (Change::Shown(a), Change::Shown(b)) => Arc::ptr_eq(a, b),
            (Change::FirstKeyTo(a), Change::FirstKeyTo(b)) => a == b,
            (Change::Move(a), Change::Move(b)) => Arc::ptr_eq(a, b),
            // Changes of different kinds.
            (Change::Each(_) | Change::OnBezier(_) | Change::Shown(_) | Change::FirstKeyTo(_) | Change::Move(_), _) => false,
        };
        self.label == other.label && self.gesture == other.gesture && same
    }
}

impl std::fmt::Debug for KeyChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyChange").field("label", &self.label).field("gesture", &self.gesture).finish_non_exhaustive()
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
