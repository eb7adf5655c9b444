//! Rotation tracks on the document side, without egui: which tracks Edit > Euler Filter and
//! Track > Convert rotation… act on (those of the selected keys, or the active track). The
//! filter itself is planned like any change of keys (`planner::plan_euler_filter`); the
//! conversion is the tool `tools/convert_rotation.rs`.

use super::DocState;
use crate::TrackKind;

impl DocState {
    /// The tracks of the selected keys (or the active track) that are `kind`.
    fn targets_of(&self, keep: impl Fn(TrackKind) -> bool) -> Vec<usize> {
        self.convert_targets().into_iter().filter(|&t| keep(self.project().tracks[t].kind)).collect()
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
}
