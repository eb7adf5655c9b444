//! Key > Insert time… and Remove time… (time inserted or removed at the playhead, as Maya's and After
//! Effects' insert and delete of time), without egui. Insert: every key strictly after the
//! playhead `p` moves later by the amount `d` (a key at `p` stays). Remove: the keys in
//! `(p, p + d]` are deleted and every key after `p + d` moves earlier by `d`, so removing what
//! was inserted gives the keys back. On the tracks of the selected keys, or on every track
//! when no key is selected; one undo step. Keys carry their handles and TCB values with them
//! (handles are offsets from their key), so each moved segment keeps its shape.

use super::targets::plural;
use super::DocState;
use crate::app::message::Status;
use crate::edit::intent::{KeyEdit, KeyRef};
use crate::{Edit, Key};

/// Insert or remove time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeEdit {
    Insert,
    Remove,
}

impl TimeEdit {
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::Insert => "Insert time",
            Self::Remove => "Remove time",
        }
    }
}

/// What a edit does to one track's keys: the keys strictly after the playhead start at
/// `after`; `deleted` keys from there are removed (Remove), the rest move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeEditSpan {
    pub after: usize,
    pub deleted: usize,
    pub moved: usize,
}

impl TimeEditSpan {
    /// The span of `keys` (sorted by time) a edit at `at` by `amount` seconds reaches.
    #[must_use]
    pub fn of(keys: &[Key], edit: TimeEdit, at: f64, amount: f64) -> Self {
        let after = keys.partition_point(|k| k.time <= at);
        let end = match edit {
            TimeEdit::Insert => after,
            TimeEdit::Remove => keys.partition_point(|k| k.time <= at + amount),
        };
        Self { after, deleted: end - after, moved: keys.len() - end }
    }

    /// `keys` with time inserted or removed: those in the removed span gone, the later ones moved by `shift`.
    #[must_use]
    pub fn apply(self, keys: &[Key], shift: f64) -> Vec<Key> {
        let mut out = keys[..self.after].to_vec();
        out.extend(keys[self.after + self.deleted..].iter().map(|k| Key { time: k.time + shift, ..k.clone() }));
        out
    }

    /// Where key `key` is afterwards (`None`: deleted).
    #[must_use]
    pub fn follow(self, key: usize) -> Option<usize> {
        match key {
            k if k < self.after => Some(k),
            k if k < self.after + self.deleted => None,
            k => Some(k - self.deleted),
        }
    }
}

/// What a edit would do: per track its span, the tracks it acts on and how they were chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeEditPlan {
    pub tracks: Vec<(usize, TimeEditSpan)>,
    /// "the selected keys' tracks" or "every track".
    pub which: &'static str,
}

impl TimeEditPlan {
    /// Keys deleted and keys moved, over every track.
    #[must_use]
    pub fn counts(&self) -> (usize, usize) {
        self.tracks.iter().fold((0, 0), |(d, m), (_, s)| (d + s.deleted, m + s.moved))
    }
}

impl DocState {
    /// The tracks a edit acts on (those of the selected keys, or every track) and what it
    /// does to each: a binary search per track, cheap enough for the window to ask every frame.
    #[must_use]
    pub fn time_edit_plan(&self, edit: TimeEdit, at: f64, amount: f64) -> TimeEditPlan {
        let selected = self.selection.tracks();
        let (targets, which) =
            if selected.is_empty() { ((0..self.project().tracks.len()).collect(), "every track") } else { (selected, "the selected keys' tracks") };
        let tracks =
            targets.into_iter().filter_map(|t| self.project().tracks.get(t).map(|track| (t, TimeEditSpan::of(&track.keys, edit, at, amount)))).collect();
        TimeEditPlan { tracks, which }
    }

    /// Key > Insert time… or Remove time… of `amount` seconds at `at` (module docs), as one
    /// undo step; the selection follows the keys. A locked track, or one that would lose every
    /// key, is left as it was and the status says so.
    pub fn edit_time(&mut self, edit: TimeEdit, at: f64, amount: f64) -> Status {
        let label = edit.label();
        if !(amount.is_finite() && amount > 0.0) {
            return Status::error(format!("{label}: the amount must be a positive number of seconds, got {amount}"));
        }
        let plan = self.time_edit_plan(edit, at, amount);
        let shift = if edit == TimeEdit::Insert { amount } else { -amount };
        let (mut edits, mut notes, mut deleted, mut moved) = (Vec::new(), Vec::new(), 0, 0);
        for &(t, span) in &plan.tracks {
            let track = &self.project().tracks[t];
            if span.deleted + span.moved == 0 {
                continue;
            }
            if track.locked || span.deleted == track.keys.len() {
                notes.push(format!("\"{}\" {}", track.name, if track.locked { "is locked" } else { "would lose every key" }));
                continue;
            }
            let selected: Vec<KeyRef> = self.selection.of_track(t).filter_map(|k| span.follow(k.key)).map(|key| KeyRef { track: t, key }).collect();
            edits.push(KeyEdit { track: t, edit: Edit::SetKeys { track: t, keys: span.apply(&track.keys, shift) }, selected });
            (deleted, moved) = (deleted + span.deleted, moved + span.moved);
        }
        let n = edits.len();
        let left = if notes.is_empty() { String::new() } else { format!("; left as they were: {}", notes.join(", ")) };
        if n == 0 {
            return Status::message(format!("{label}: no key after {at:.3} s on {}{left}", plan.which));
        }
        let body = crate::app::body::BodyChange::of_new_keys(
            self.project(),
            edits.iter().filter_map(|e| match &e.edit {
                Edit::SetKeys { track, keys } => Some((*track, keys.as_slice())),
                _ => None,
            }),
        );
        let body = body.text().map(|t| format!(". {t}")).unwrap_or_default();
        self.document.begin_gesture(label);
        let result = self.apply_key_edits(label, edits);
        self.document.end_gesture();
        let what = match edit {
            TimeEdit::Insert => format!("Inserted {amount} s at {at:.3} s: {moved} key{} moved later", plural(moved)),
            TimeEdit::Remove => format!("Removed {amount} s after {at:.3} s: {deleted} key{} deleted, {moved} moved earlier", plural(deleted)),
        };
        match result {
            Err(s) => s,
            Ok(()) => Status::message(format!("{what} on {n} track{} ({}){left}{body}", plural(n), plan.which)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(times: &[f64]) -> Vec<Key> {
        times.iter().map(|&t| Key::new(t, vec![t * 10.0])).collect()
    }

    fn times(keys: &[Key]) -> Vec<f64> {
        keys.iter().map(|k| k.time).collect()
    }

    #[test]
    fn insert_moves_only_keys_strictly_after_the_playhead() {
        let k = keys(&[0.0, 1.0, 1.5, 2.0]);
        let span = TimeEditSpan::of(&k, TimeEdit::Insert, 1.0, 0.5);
        assert_eq!(span, TimeEditSpan { after: 2, deleted: 0, moved: 2 });
        let out = span.apply(&k, 0.5);
        assert_eq!(times(&out), [0.0, 1.0, 2.0, 2.5]);
        assert_eq!(out[3].value, [20.0], "values move with their keys");
    }

    #[test]
    fn remove_deletes_the_span_after_the_playhead_and_undoes_an_insert() {
        let k = keys(&[0.0, 1.0, 1.25, 1.5, 2.0]);
        let span = TimeEditSpan::of(&k, TimeEdit::Remove, 1.0, 0.5);
        assert_eq!(span, TimeEditSpan { after: 2, deleted: 2, moved: 1 }, "1.25 and 1.5 are in (1, 1.5]");
        assert_eq!(times(&span.apply(&k, -0.5)), [0.0, 1.0, 1.5]);
        assert_eq!((span.follow(1), span.follow(2), span.follow(3), span.follow(4)), (Some(1), None, None, Some(2)));
        let inserted = TimeEditSpan::of(&k, TimeEdit::Insert, 1.1, 0.3).apply(&k, 0.3);
        let back = TimeEditSpan::of(&inserted, TimeEdit::Remove, 1.1, 0.3);
        assert_eq!(back.deleted, 0);
        let back = back.apply(&inserted, -0.3);
        assert!(times(&back).iter().zip(times(&k)).all(|(a, b)| (a - b).abs() < 1e-12));
    }
}
