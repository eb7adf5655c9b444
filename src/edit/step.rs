//! An undo step (the inverses of one action's edits, what the editor parks with it) and how
//! steps no longer reachable are freed.

use super::Edit;

/// Steps holding more keys than this are freed on another thread.
const DROP_ELSEWHERE_KEYS: usize = 2_000;

/// Frees undo steps no longer reachable: big ones on a worker thread, since freeing a step
/// of a million keys (a million small allocations) takes tens of milliseconds.
pub(super) fn drop_steps(steps: Vec<Step>) {
    if steps.iter().map(Step::keys_held).sum::<usize>() > DROP_ELSEWHERE_KEYS {
        rayon::spawn(move || drop(steps));
    }
}

impl Step {
    /// The keys this step's inverses hold.
    pub(super) fn keys_held(&self) -> usize {
        self.inverse
            .iter()
            .map(|e| match e {
                Edit::SetKeys { keys, .. } => keys.len(),
                Edit::SpliceKeys { keys, .. } => keys.len(),
                Edit::SetTrack { track, .. } | Edit::InsertTrack { track, .. } => track.keys.len(),
                Edit::RemoveTrack { .. } | Edit::SetHeader { .. } => 0,
            })
            .sum::<usize>()
            + self.parked.as_ref().map_or(0, |p| p.keys)
    }
}

#[derive(Debug)]
pub(super) struct Step {
    pub(super) label: String,
    /// Inverses, in the order the edits were applied; undo applies them backwards.
    pub(super) inverse: Vec<Edit>,
    pub(super) id: u64,
    /// What the editor keeps with the step for the state reverting it restores.
    pub(super) parked: Option<Parked>,
}

/// What the editor keeps with an undo step, made from the state that reverting the step
/// restores: the editor's compiled curves of that state, so undo and redo put them back
/// instead of compiling them again (a million keys take about 100 ms to compile). Opaque to
/// the engine; counted in [`super::UNDO_KEY_LIMIT`] as `keys`.
pub struct Parked {
    pub data: Box<dyn std::any::Any + Send + Sync>,
    /// The keys the data was made from.
    pub keys: usize,
}

impl std::fmt::Debug for Parked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parked").field("keys", &self.keys).finish_non_exhaustive()
    }
}
