//! The key selection, and the answers about it that take a pass over every selected key
//! ("are the selected keys' tensions mixed?"), kept until the selection or the document
//! changes. A select-all on a motion-capture take selects a million keys, and the inspector
//! asks its questions every frame.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::edit::intent::{self, KeyRef};

/// Generations are unique across every selection of the process, so a memo can never take a
/// new document's selection for the one it answered about.
static NEXT_GENERATION: AtomicU64 = AtomicU64::new(1);

fn next_generation() -> u64 {
    NEXT_GENERATION.fetch_add(1, Ordering::Relaxed)
}

/// The selected keys, ordered by track then key. Read as a `BTreeSet`; every mutable access
/// (`insert`, `clear`, assignment through `*`) takes a new generation.
#[derive(Clone, Debug)]
pub struct Selection {
    keys: BTreeSet<KeyRef>,
    generation: u64,
}

impl Default for Selection {
    fn default() -> Self {
        Self { keys: BTreeSet::new(), generation: next_generation() }
    }
}

impl From<BTreeSet<KeyRef>> for Selection {
    fn from(keys: BTreeSet<KeyRef>) -> Self {
        Self { keys, generation: next_generation() }
    }
}

impl Deref for Selection {
    type Target = BTreeSet<KeyRef>;
    fn deref(&self) -> &BTreeSet<KeyRef> {
        &self.keys
    }
}

impl DerefMut for Selection {
    fn deref_mut(&mut self) -> &mut BTreeSet<KeyRef> {
        self.generation = next_generation();
        &mut self.keys
    }
}

impl<'a> IntoIterator for &'a Selection {
    type Item = &'a KeyRef;
    type IntoIter = std::collections::btree_set::Iter<'a, KeyRef>;
    fn into_iter(self) -> Self::IntoIter {
        self.keys.iter()
    }
}

impl Selection {
    /// Changes whenever the selection may have changed.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The selected keys of track `track`.
    pub fn of_track(&self, track: usize) -> impl DoubleEndedIterator<Item = &KeyRef> {
        intent::in_track(&self.keys, track)
    }

    /// The tracks with selected keys, in order ([`intent::selected_tracks`]).
    #[must_use]
    pub fn tracks(&self) -> Vec<usize> {
        intent::selected_tracks(&self.keys)
    }
}

/// Selected keys on Bezier tracks, per track: `(track, keys)`.
pub type BezierSelection = Arc<Vec<(usize, Vec<usize>)>>;

/// Which fields of the selected keys differ: the inspector's "(mixed)", found in one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MixedFields {
    pub time: bool,
    /// Per value component, among the keys that have it.
    pub value: [bool; 4],
    /// Tension, continuity, bias, ease to, ease from.
    pub tcb: [bool; 5],
}

impl MixedFields {
    /// Every field of `keys` compared with the first key's (one pass, stopping when all differ).
    pub fn of<'a>(keys: impl Iterator<Item = &'a crate::Key>) -> Self {
        Seen::of(keys.map(|k| (k.time, k.value.as_slice(), tcb(k)))).mixed
    }
}

/// A pass over some keys: the first value of each field, and which fields differ from it.
/// Passes over consecutive runs of keys join with [`Seen::then`], so the runs can be read on
/// different cores.
#[derive(Clone, Copy, Debug, Default)]
pub struct Seen {
    time: Option<f64>,
    /// Per component, the first key that has it.
    value: [Option<f64>; 4],
    tcb: Option<[f64; 5]>,
    pub mixed: MixedFields,
}

fn tcb(k: &crate::Key) -> [f64; 5] {
    [k.tension, k.continuity, k.bias, k.ease_to, k.ease_from]
}

/// Key `i`'s time, value, and TCB and ease (zero for keys held as columns), without making a
/// full key: what [`Seen::of`] compares.
pub fn key_fields(keys: &crate::Keys, i: usize) -> (f64, &[f64], [f64; 5]) {
    match keys.full_keys() {
        Some(v) => (v[i].time, &v[i].value, tcb(&v[i])),
        None => (keys.time(i), keys.value(i), [0.0; 5]),
    }
}

impl Seen {
    /// A pass over keys given as `(time, value, TCB and ease)` ([`key_fields`]).
    pub fn of<'a>(mut keys: impl Iterator<Item = (f64, &'a [f64], [f64; 5])>) -> Self {
        let Some((t0, first, tcb0)) = keys.next() else { return Self::default() };
        let mut v0: [Option<f64>; 4] = std::array::from_fn(|c| first.get(c).copied());
        let mut m = MixedFields::default();
        for (time, value, fields) in keys {
            m.time |= time != t0;
            // Values live behind a pointer: read them only while one of this key's components
            // may still be the same.
            if !m.value[..value.len().min(4)].iter().all(|x| *x) {
                for (c, v) in value.iter().take(4).enumerate() {
                    m.value[c] |= *v0[c].get_or_insert(*v) != *v;
                }
            }
            for (f, (a, b)) in fields.into_iter().zip(tcb0).enumerate() {
                m.tcb[f] |= a != b;
            }
            if m.time && m.value.iter().all(|x| *x) && m.tcb.iter().all(|x| *x) {
                break;
            }
        }
        Self { time: Some(t0), value: v0, tcb: Some(tcb0), mixed: m }
    }

    /// This pass followed by `later`'s: a field differs if it differs within either, or if
    /// their first values differ.
    #[must_use]
    pub fn then(self, later: Self) -> Self {
        let differ = |a: Option<f64>, b: Option<f64>| matches!((a, b), (Some(a), Some(b)) if a != b);
        let (a, b) = (self.mixed, later.mixed);
        let mixed = MixedFields {
            time: a.time || b.time || differ(self.time, later.time),
            value: std::array::from_fn(|c| a.value[c] || b.value[c] || differ(self.value[c], later.value[c])),
            tcb: std::array::from_fn(|f| a.tcb[f] || b.tcb[f] || differ(self.tcb.map(|t| t[f]), later.tcb.map(|t| t[f]))),
        };
        Self { time: self.time.or(later.time), value: std::array::from_fn(|c| self.value[c].or(later.value[c])), tcb: self.tcb.or(later.tcb), mixed }
    }
}

/// Answers about one selection of one document revision.
#[derive(Default)]
pub struct SelectionMemo {
    /// (document revision, selection generation) the answers are for.
    of: (u64, u64),
    pub(super) answers: HashMap<String, bool>,
    pub(super) mixed: Option<MixedFields>,
    pub(super) bezier: Option<BezierSelection>,
}

impl SelectionMemo {
    pub(super) fn at(&mut self, of: (u64, u64)) -> &mut Self {
        if self.of != of {
            *self = Self { of, ..Self::default() };
        }
        self
    }
}

/// The memo's cell in `DocState`.
pub type MemoCell = RefCell<SelectionMemo>;

#[cfg(test)]
mod tests {
    use super::super::DocState;
    use super::*;
    use crate::{Interpolation, Key, Project, Track, TrackKind};

    fn doc() -> DocState {
        let keys = |n: usize| (0..n).map(|i| Key::new(i as f64, vec![0.0])).collect();
        let tracks = vec![
            Track::new("a", TrackKind::Scalar, Interpolation::Tcb).with_keys(keys(4)),
            Track::new("b", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys(3)),
            Track::new("c", TrackKind::Scalar, Interpolation::Bezier).with_keys(keys(3)),
        ];
        DocState::new(Project { tracks, ..Project::default() }, None)
    }

    /// Hand-checked: the tracks of a selection, and every mutable access taking a new
    /// generation.
    #[test]
    fn tracks_and_generations() {
        let mut s = Selection::from(BTreeSet::from([KeyRef { track: 0, key: 3 }, KeyRef { track: 0, key: 1 }, KeyRef { track: 2, key: 0 }]));
        assert_eq!(s.tracks(), vec![0, 2]);
        assert_eq!(s.of_track(0).map(|k| k.key).collect::<Vec<_>>(), vec![1, 3]);
        let g = s.generation();
        assert!(s.contains(&KeyRef { track: 2, key: 0 }));
        assert_eq!(s.generation(), g, "reading keeps the generation");
        s.insert(KeyRef { track: 1, key: 0 });
        assert_ne!(s.generation(), g);
        assert_eq!(s.tracks(), vec![0, 1, 2]);
        assert_ne!(Selection::default().generation(), Selection::default().generation());
    }

    /// Hand-checked: which fields differ, a component missing from a key not counting.
    #[test]
    fn mixed_fields_by_hand() {
        let a = Key::new(1.0, vec![0.0, 2.0]).with_tcb(0.5, 0.0, 0.0);
        let b = Key::new(1.0, vec![0.0, 3.0, 7.0]).with_tcb(0.5, 0.25, 0.0);
        let c = Key::new(2.0, vec![0.0]).with_tcb(0.5, 0.0, 0.0);
        let m = MixedFields::of([&a, &b, &c].into_iter());
        assert_eq!(m, MixedFields { time: true, value: [false, true, false, false], tcb: [false, true, false, false, false] });
        assert_eq!(MixedFields::of([&a, &a].into_iter()), MixedFields::default());
        assert_eq!(MixedFields::of(std::iter::empty()), MixedFields::default());
    }

    proptest::proptest! {
        /// Passes over the two parts of a list of keys, joined, say what one pass over the
        /// whole list says, wherever it is cut (and keys with fewer components count as
        /// having none of the others).
        #[test]
        fn passes_joined_agree_with_one_pass(
            keys in proptest::collection::vec((0u8..3, proptest::collection::vec(0u8..3, 1..4), 0u8..2), 0..12),
            cut in 0usize..12,
        ) {
            let keys: Vec<Key> = keys.iter().map(|(t, v, b)| Key::new(f64::from(*t), v.iter().map(|x| f64::from(*x)).collect()).with_tcb(0.0, 0.0, f64::from(*b))).collect();
            let cut = cut.min(keys.len());
            fn fields(k: &Key) -> (f64, &[f64], [f64; 5]) {
                (k.time, k.value.as_slice(), tcb(k))
            }
            let joined = Seen::of(keys[..cut].iter().map(fields)).then(Seen::of(keys[cut..].iter().map(fields))).mixed;
            proptest::prop_assert_eq!(joined, MixedFields::of(keys.iter()));
        }
    }

    /// An answer is kept while neither the selection nor the document changes, and asked
    /// again after either does.
    #[test]
    fn answers_are_kept_until_the_selection_or_the_document_changes() {
        let mut d = doc();
        d.selection.insert(KeyRef { track: 1, key: 2 });
        let asked = std::cell::Cell::new(0);
        let ask = |d: &DocState| {
            d.about_selection("q", || {
                asked.set(asked.get() + 1);
                true
            })
        };
        assert!(ask(&d) && ask(&d));
        assert_eq!(asked.get(), 1, "kept");
        assert_eq!(*d.bezier_selection(), vec![(1, vec![2])]);
        d.selection.insert(KeyRef { track: 2, key: 0 });
        d.selection.insert(KeyRef { track: 0, key: 0 });
        ask(&d);
        assert_eq!(asked.get(), 2, "a new selection is asked again");
        assert_eq!(*d.bezier_selection(), vec![(1, vec![2]), (2, vec![0])], "the TCB track left out");
        d.document.apply("x", crate::Edit::SetKeys { track: 0, keys: vec![Key::new(0.0, vec![1.0])].into() }).unwrap();
        ask(&d);
        assert_eq!(asked.get(), 3, "a new document revision is asked again");
    }
}
