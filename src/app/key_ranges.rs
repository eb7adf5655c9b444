//! The smallest and largest key value of each component over any run of keys, in O(log n):
//! what the graph's min/max envelope asks per pixel column (`graph/lod.rs`) and the
//! normalised view asks for a whole track, kept per track and updated in place when a drag
//! moves a few keys, so neither costs in proportion to the track.
//!
//! A segment tree over blocks of [`BLOCK`] keys: leaf `size + b` holds block `b`'s min and
//! max, node `k` the min and max of its two children `2k`, `2k + 1`; unused leaves hold
//! (+∞, −∞), which no min/max picks. A query takes whole blocks from the tree and reads the
//! keys of the (at most two) partial blocks at its ends from the curve, so the tree costs
//! `2·⌈n/BLOCK⌉·dim` pairs instead of a leaf per key: a 36,000-key Vec3 track's tree is 196 kB,
//! not 6.3 MB (a 200-track motion-capture take: 39 MB instead of 1.26 GB).

use crate::Track;

/// Keys per leaf of the tree.
pub const BLOCK: usize = 32;

/// Per component, min/max over key ranges of one track.
#[derive(Clone, Debug, Default)]
pub struct KeyRanges {
    dim: usize,
    /// Leaves: a power of two ≥ the number of blocks (at least 1).
    size: usize,
    /// `(min, max)` of node `k`, component `c` at `k * dim + c`; node 0 unused.
    nodes: Vec<(f64, f64)>,
}

const EMPTY: (f64, f64) = (f64::INFINITY, f64::NEG_INFINITY);

fn join(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    (a.0.min(b.0), a.1.max(b.1))
}

/// The leaves a track of `keys` keys needs.
fn leaves(keys: usize) -> usize {
    keys.div_ceil(BLOCK).max(1).next_power_of_two()
}

impl KeyRanges {
    /// The tree of `track`'s key values.
    pub fn new(track: &Track) -> Self {
        let dim = track.kind.dim();
        let size = leaves(track.keys.len());
        let mut r = Self { dim, size, nodes: vec![EMPTY; 2 * size * dim] };
        for b in 0..track.keys.len().div_ceil(BLOCK) {
            r.set_leaf(track, b);
        }
        for k in (1..size).rev() {
            r.pull(k);
        }
        r
    }

    /// Block `b`'s min and max from the track's keys; whether the leaf changed (bitwise, so
    /// that −0.0 and 0.0, or two NaN, are not taken for each other).
    fn set_leaf(&mut self, track: &Track, b: usize) -> bool {
        let keys = b * BLOCK..((b + 1) * BLOCK).min(track.keys.len());
        let mut changed = false;
        for c in 0..self.dim {
            let v = keys.clone().filter_map(|i| track.keys.value(i).get(c)).fold(EMPTY, |acc, &v| join(acc, (v, v)));
            let node = &mut self.nodes[(self.size + b) * self.dim + c];
            if (node.0.to_bits(), node.1.to_bits()) != (v.0.to_bits(), v.1.to_bits()) {
                *node = v;
                changed = true;
            }
        }
        changed
    }

    fn pull(&mut self, k: usize) {
        for c in 0..self.dim {
            self.nodes[k * self.dim + c] = join(self.nodes[2 * k * self.dim + c], self.nodes[(2 * k + 1) * self.dim + c]);
        }
    }

    /// After keys `at..at + removed` of the track were replaced by `added` keys (`track` as it
    /// is now): the replaced keys' blocks and their ancestors when the count is the same (a
    /// drag), else the whole tree.
    pub fn update(&mut self, track: &Track, at: usize, removed: usize, added: usize) {
        if removed != added || track.kind.dim() != self.dim || leaves(track.keys.len()) != self.size || added == 0 {
            *self = Self::new(track);
            return;
        }
        let (first, end) = (at / BLOCK, (at + added).div_ceil(BLOCK));
        for b in first..end {
            self.set_leaf(track, b);
        }
        self.pull_ancestors(first, end);
    }

    /// Recomputes the ancestors of leaves `first..end`, level by level.
    fn pull_ancestors(&mut self, first: usize, end: usize) {
        let (mut lo, mut hi) = (self.size + first, self.size + end);
        while lo > 1 && hi > lo {
            (lo, hi) = (lo / 2, (hi - 1) / 2 + 1);
            for k in lo..hi {
                self.pull(k);
            }
        }
    }

    /// The tree of `track` as it is now, rebuilt in place: only the leaves whose block
    /// changed and their ancestors are written, and nothing is allocated while the track's
    /// dimension and leaf count are the same (an undo, or a tension set on every key, leaves
    /// a mocap take's trees as they were).
    pub fn refresh(&mut self, track: &Track) {
        if track.kind.dim() != self.dim || leaves(track.keys.len()) != self.size {
            *self = Self::new(track);
            return;
        }
        let (mut first, mut end) = (usize::MAX, 0);
        for b in 0..self.size {
            if self.set_leaf(track, b) {
                first = first.min(b);
                end = b + 1;
            }
        }
        if first < end {
            self.pull_ancestors(first, end);
        }
    }

    /// `(min, max)` of component `c` over keys `keys` ((+∞, −∞) if empty); `value(i)` is
    /// key `i`'s value of that component, read for the keys of partial blocks at the ends.
    pub fn range(&self, c: usize, keys: std::ops::Range<usize>, value: impl Fn(usize) -> f64) -> (f64, f64) {
        let scan = |r: std::ops::Range<usize>| r.map(&value).fold(EMPTY, |acc, v| join(acc, (v, v)));
        if keys.start >= keys.end {
            return EMPTY;
        }
        let (first_full, end_full) = (keys.start.div_ceil(BLOCK), keys.end / BLOCK);
        if first_full >= end_full {
            return scan(keys);
        }
        let mut out = join(scan(keys.start..first_full * BLOCK), scan(end_full * BLOCK..keys.end));
        let (mut lo, mut hi) = (first_full.min(self.size) + self.size, end_full.min(self.size) + self.size);
        while lo < hi {
            if lo % 2 == 1 {
                out = join(out, self.nodes[lo * self.dim + c]);
                lo += 1;
            }
            if hi % 2 == 1 {
                hi -= 1;
                out = join(out, self.nodes[hi * self.dim + c]);
            }
            (lo, hi) = (lo / 2, hi / 2);
        }
        out
    }

    /// `(min, max)` of component `c` over every key.
    pub fn all(&self, c: usize) -> (f64, f64) {
        self.nodes.get(self.dim + c).copied().unwrap_or(EMPTY)
    }

    /// Bytes the tree holds (for the size measurements of docs/measured.md).
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<(f64, f64)>()
    }
}

/// Indices of keys whose time lies in `[t0, t1]`.
pub fn keys_in_range(keys: &crate::Keys, t0: f64, t1: f64) -> std::ops::Range<usize> {
    let a = keys.partition_point(|t| t < t0);
    let b = keys.partition_point(|t| t <= t1);
    a..b.max(a)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::{Interpolation, Key, TrackKind};

    fn track(values: &[(f64, f64)]) -> Track {
        let keys = values.iter().enumerate().map(|(i, &(a, b))| Key::new(i as f64, vec![a, b])).collect();
        Track::new("t", TrackKind::Vec2, Interpolation::Linear).with_keys(keys)
    }

    /// The plain scan the tree must agree with.
    fn scan(t: &Track, c: usize, keys: std::ops::Range<usize>) -> (f64, f64) {
        t.keys[keys].iter().map(|k| k.value[c]).fold(EMPTY, |acc, v| join(acc, (v, v)))
    }

    /// Hand-checked: values 3, −1, 4, 1, 5 (component 0).
    #[test]
    fn ranges_of_five_keys() {
        let t = track(&[(3.0, 0.0), (-1.0, 0.0), (4.0, 0.0), (1.0, 0.0), (5.0, 9.0)]);
        let r = KeyRanges::new(&t);
        assert_eq!(r.range(0, 0..5, |i| t.keys.value(i)[0]), (-1.0, 5.0));
        assert_eq!(r.range(0, 2..4, |i| t.keys.value(i)[0]), (1.0, 4.0));
        assert_eq!(r.range(0, 3..3, |i| t.keys.value(i)[0]), EMPTY);
        assert_eq!(r.all(1), (0.0, 9.0));
        // Refreshed after the 4 became −7 and the last key was removed (still one leaf).
        let mut r = r;
        let t = track(&[(3.0, 0.0), (-1.0, 0.0), (-7.0, 0.0), (1.0, 0.0)]);
        r.refresh(&t);
        assert_eq!(r.range(0, 0..4, |i| t.keys.value(i)[0]), (-7.0, 3.0));
        assert_eq!(r.range(0, 3..4, |i| t.keys.value(i)[0]), (1.0, 1.0));
        assert_eq!(r.all(1), (0.0, 0.0));
    }

    proptest! {
        /// Any range of any track, before and after random in-place updates and splices that
        /// change the count, agrees with a plain scan.
        #[test]
        fn the_tree_agrees_with_a_scan(
            values in prop::collection::vec((-1e3f64..1e3, -5.0f64..5.0), 1..300),
            edits in prop::collection::vec((0usize..300, 0usize..4, prop::collection::vec((-2e3f64..2e3, -9.0f64..9.0), 0..4)), 1..6),
            queries in prop::collection::vec((0usize..310, 0usize..310), 10),
        ) {
            let mut t = track(&values);
            let mut r = KeyRanges::new(&t);
            // A tree refreshed to the edited track at each step, and one kept from the start.
            let (mut refreshed, first) = (r.clone(), r.clone());
            for (at, removed, new) in edits {
                let at = at.min(t.keys.len());
                let removed = removed.min(t.keys.len() - at);
                let keys: Vec<Key> = new.iter().map(|&(a, b)| Key::new(0.0, vec![a, b])).collect();
                let added = keys.len();
                if t.keys.len() - removed + added == 0 {
                    continue;
                }
                t.keys.splice(at..at + removed, keys);
                r.update(&t, at, removed, added);
                refreshed.refresh(&t);
                let mut from_first = first.clone();
                from_first.refresh(&t);
                for &(a, b) in &queries {
                    let (a, b) = (a.min(t.keys.len()), b.min(t.keys.len()));
                    let (a, b) = (a.min(b), a.max(b));
                    for c in 0..2 {
                        let value = |i: usize| t.keys.value(i)[c];
                        prop_assert_eq!(r.range(c, a..b, value), scan(&t, c, a..b));
                        prop_assert_eq!(refreshed.range(c, a..b, value), scan(&t, c, a..b));
                        prop_assert_eq!(from_first.range(c, a..b, value), scan(&t, c, a..b));
                    }
                }
                prop_assert_eq!(r.all(0), scan(&t, 0, 0..t.keys.len()));
            }
        }
    }
}
