//! What Key > Insert time… and Remove time… do to a track's keys (time inserted or removed at
//! the playhead, as Maya's and After Effects' insert and delete of time), without egui; the
//! tool is `tools/time_edit.rs`. Insert: every key strictly after the
//! playhead `p` moves later by the amount `d` (a key at `p` stays). Remove: the keys in
//! `(p, p + d]` are deleted and every key after `p + d` moves earlier by `d`, so removing what
//! was inserted gives the keys back. On the tracks of the selected keys, or on every track
//! when no key is selected; one undo step. Keys carry their handles and TCB values with them
//! (handles are offsets from their key), so each moved segment keeps its shape.

use crate::Key;

/// Insert or remove time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeEdit {
    Insert,
    Remove,
}

/// What a time edit does to one track's keys: the keys strictly after the playhead start at
/// `after`; `deleted` keys from there are removed (Remove), the rest move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeEditSpan {
    pub after: usize,
    pub deleted: usize,
    pub moved: usize,
}

impl TimeEditSpan {
    /// The span of `keys` (sorted by time) a time edit at `at` by `amount` seconds reaches.
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
