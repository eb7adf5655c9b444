//! What the document answers about its selection: select all, and the answers
//! that take a pass over every selected key, kept in the selection's memo until the selection
//! or the document changes (`selection.rs`).

use std::collections::BTreeSet;
use std::sync::Arc;

use super::selection::{BezierSelection, MixedFields, Seen, SelectionMemo};
use super::DocState;
use crate::edit::intent::KeyRef;

impl DocState {
    fn memo(&self) -> std::cell::RefMut<'_, SelectionMemo> {
        let of = (self.document.revision(), self.selection.generation());
        let mut memo = self.selection_memo.borrow_mut();
        memo.at(of);
        memo
    }

    /// Selects every key of the visible tracks.
    pub fn select_all(&mut self) {
        self.selection = self
            .project()
            .tracks
            .iter()
            .enumerate()
            .filter(|(_, t)| t.visible)
            .flat_map(|(track, t)| (0..t.keys.len()).map(move |key| KeyRef { track, key }))
            .collect::<BTreeSet<_>>()
            .into();
    }

    /// `answer()` the first time `question` is asked about this selection of this document
    /// revision; the same answer after that, until either changes.
    pub fn about_selection(&self, question: &str, answer: impl FnOnce() -> bool) -> bool {
        if let Some(&known) = self.memo().answers.get(question) {
            return known;
        }
        let value = answer();
        self.memo().answers.insert(question.to_owned(), value);
        value
    }

    /// Which fields of the selected keys differ ([`MixedFields`]), kept like the answers.
    pub fn mixed_fields(&self) -> MixedFields {
        if let Some(known) = self.memo().mixed {
            return known;
        }
        use rayon::prelude::*;
        let (tracks, selection) = (&self.project().tracks, &self.selection);
        // One pass per track, on every core, joined in track order.
        let seen = selection
            .tracks()
            .into_par_iter()
            .map(|t| Seen::of(selection.of_track(t).map(|k| super::selection::key_fields(&tracks[t].keys, k.key))))
            .reduce_with(Seen::then);
        let mixed = seen.map_or_else(MixedFields::default, |s| s.mixed);
        self.memo().mixed = Some(mixed);
        mixed
    }

    /// The selected keys on Bezier tracks, per track, kept like the answers.
    pub fn bezier_selection(&self) -> BezierSelection {
        if let Some(known) = &self.memo().bezier {
            return known.clone();
        }
        let tracks = &self.project().tracks;
        let list: Vec<(usize, Vec<usize>)> = self
            .selection
            .tracks()
            .into_iter()
            .filter(|&t| tracks.get(t).is_some_and(|t| t.interpolation == crate::Interpolation::Bezier))
            .map(|t| (t, self.selection.of_track(t).map(|k| k.key).collect()))
            .collect();
        let list = Arc::new(list);
        self.memo().bezier = Some(list.clone());
        list
    }
}
