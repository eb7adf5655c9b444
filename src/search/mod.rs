//! Finding the segment that holds a query time (SPEC §2, seed 000).
//!
//! The rule is three.js' interval rule, stated without reference to any cache: for sorted
//! positions `p[0] ≤ … ≤ p[n−1]`, the answer for `x` is the unique `i` with
//! `p[i−1] ≤ x < p[i]`, i.e. the number of positions `≤ x` (an *upper bound*, [`upper_bound`]).
//! What that count means is said by [`Located`]: before the first position, inside the
//! interval `[p[i], p[i+1])`, or at or after the last. A zero-length interval can never be
//! selected, so at a time shared by several keys the last of them wins.
//!
//! [`SegmentCursor`] remembers the last answer and tries it first, then walks at most
//! [`LINEAR_SCAN_STEPS`] intervals forward or backward, and only then falls back to a binary
//! search over the whole array. With a [`BucketIndex`] it asks the index straight away, which
//! is cheaper than the scans' branches, which random access mispredicts. Because the rule has exactly one
//! answer, every path returns the same result as a plain binary search: sequential and
//! random-order evaluation agree bit for bit.

mod hint;

pub(crate) use hint::prefetch;

/// How far the cursor walks from its last answer before giving up and binary-searching.
pub const LINEAR_SCAN_STEPS: usize = 2;

/// Where a query lies among sorted positions `p[0] ≤ … ≤ p[n−1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Located {
    /// `x < p[0]` (or `x` is NaN).
    Before,
    /// `p[i] ≤ x < p[i+1]`: inside interval (segment) `i`, which has non-zero length.
    Inside(usize),
    /// `x ≥ p[n−1]`.
    After,
}

impl Located {
    /// Decodes the number of positions `≤ x` (what [`upper_bound`] returns) for `n` positions.
    #[must_use]
    #[inline]
    pub fn from_count(count: usize, n: usize) -> Self {
        if count == 0 {
            Self::Before
        } else if count >= n {
            Self::After
        } else {
            Self::Inside(count - 1)
        }
    }

    /// The interval to use when the ends count as the first and last of `intervals`
    /// (`intervals ≥ 1`): what a piecewise table reads outside its range.
    #[must_use]
    #[inline]
    pub fn clamped(self, intervals: usize) -> usize {
        match self {
            Self::Before => 0,
            Self::Inside(i) => i.min(intervals - 1),
            Self::After => intervals - 1,
        }
    }
}

/// The cached index of the last interval found. Cheap to copy; one per playhead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SegmentCursor {
    upper: usize,
}

impl SegmentCursor {
    /// A cursor with nothing cached yet.
    #[must_use]
    pub const fn new() -> Self {
        Self { upper: 0 }
    }

    /// Where `x` lies among `positions` (see the module docs). NaN counts as before everything.
    #[inline]
    pub fn locate(&mut self, positions: &[f64], x: f64) -> Located {
        Located::from_count(self.count(positions, x, || upper_bound(positions, x)), positions.len())
    }

    /// [`Self::locate`] for long tables read in any order: the cached interval, else the
    /// [`BucketIndex`] of `positions` (which also serves playback moving on to the next
    /// interval, and NaN). The interval test is one branch ([`within`]): in random order it is
    /// almost always "no", which predicts, where testing one bound at a time would mispredict
    /// half the queries.
    #[inline]
    pub fn locate_indexed(&mut self, positions: &[f64], index: &BucketIndex, x: f64) -> Located {
        let n = positions.len();
        let i = self.upper.min(n);
        let lower = if i == 0 { f64::NEG_INFINITY } else { positions[i - 1] };
        let upper = if i < n { positions[i] } else { f64::INFINITY };
        let count = if within(lower, x, upper) { i } else { index.upper_bound(positions, x) };
        self.upper = count;
        Located::from_count(count, n)
    }

    /// The number of positions `≤ x`: the cached interval, then the short scans, then
    /// `fallback`.
    #[inline]
    fn count(&mut self, positions: &[f64], x: f64, fallback: impl FnOnce() -> usize) -> usize {
        let n = positions.len();
        let i = self.upper.min(n);
        let above_lower = i == 0 || positions[i - 1] <= x;
        // A NaN never passes both tests (for n ≥ 1), so it costs nothing on this path.
        if above_lower && (i == n || x < positions[i]) {
            return i;
        }
        let scanned = if x.is_nan() {
            Some(0)
        } else if above_lower {
            forward(positions, x, i)
        } else {
            backward(positions, x, i)
        };
        let found = scanned.unwrap_or_else(fallback);
        self.upper = found;
        found
    }
}

/// An O(1) guide into sorted positions: the range is cut into as many equal buckets as there
/// are positions, and each bucket remembers how many positions lie in the buckets before it.
/// A query then counts only its own bucket's positions.
///
/// Positions are put in buckets by the same arithmetic as queries, `⌊(x − x₀)·scale⌋`, which
/// is monotone in `x` (a subtraction, a multiplication by a positive number and a floor each
/// are), so every position in an earlier bucket than `x`'s is `< x` and every one in a later
/// bucket is `> x`: the count is exact, with no bracket to check. Built for one array (the
/// index keeps its own copy, followed by [`SMALL_BUCKET`] infinities so that counting a
/// small bucket reads four entries with no bounds to test).
#[derive(Clone, Debug, Default)]
pub struct BucketIndex {
    x0: f64,
    scale: f64,
    /// The number of buckets, as `f64` for the range test.
    buckets: f64,
    /// `starts[k]` = number of positions in buckets before `k`; one more entry than buckets.
    starts: Vec<u32>,
    /// The positions, then `SMALL_BUCKET` times `+∞`.
    padded: Vec<f64>,
}

impl BucketIndex {
    /// Indexes `positions` (sorted, finite). Fewer than 2 distinct positions give an empty
    /// index, which answers by binary search.
    #[must_use]
    pub fn new(positions: &[f64]) -> Self {
        let n = positions.len();
        if n < 2 || !(positions[n - 1] > positions[0]) {
            return Self::default();
        }
        let x0 = positions[0];
        let scale = n as f64 / (positions[n - 1] - x0);
        let mut starts = vec![0u32; n + 1];
        for &p in positions {
            // The bucket of p, as a query computes it (the last position may land in `n`,
            // past every bucket).
            let k = ((p - x0) * scale) as usize;
            if k < n {
                starts[k + 1] += 1;
            }
        }
        for k in 1..=n {
            starts[k] += starts[k - 1];
        }
        let padded = positions.iter().copied().chain([f64::INFINITY; SMALL_BUCKET]).collect();
        Self { x0, scale, buckets: n as f64, starts, padded }
    }

    /// The number of positions `≤ x`, as [`upper_bound`] computes it: the positions of the
    /// buckets before `x`'s, plus those of its own bucket that are `≤ x`, counted without
    /// branches when the bucket holds at most [`SMALL_BUCKET`] (the common case, which
    /// random queries would otherwise mispredict) and by binary search when it holds more.
    /// Queries outside the range (or NaN) binary-search `positions`.
    #[inline]
    #[must_use]
    pub fn upper_bound(&self, positions: &[f64], x: f64) -> usize {
        let k = (x - self.x0) * self.scale;
        if k >= 0.0 && k < self.buckets {
            // In range, so the signed conversion is exact: one instruction, where `as usize`
            // (saturating to u64) compiles to ten.
            let k = k as i64 as usize;
            if let (Some(&lo), Some(&hi)) = (self.starts.get(k), self.starts.get(k + 1)) {
                let (lo, hi) = (lo as usize, hi as usize);
                if hi - lo <= SMALL_BUCKET {
                    if let Some(four) = self.padded.get(lo..lo + SMALL_BUCKET) {
                        return lo + four.iter().map(|&p| usize::from(p <= x)).sum::<usize>();
                    }
                }
                return lo + upper_bound(&self.padded[lo..hi], x);
            }
        }
        debug_assert!(self.padded.is_empty() || self.padded.len() == positions.len() + SMALL_BUCKET, "an index of another array");
        upper_bound(positions, x)
    }

    /// After `positions[range]` changed in place (as many positions as before, the first and
    /// the last unchanged: a key dragged inside a track), the index [`Self::new`] would build,
    /// at a cost of the positions changed and the buckets they moved across. Returns `false`,
    /// leaving the index as it was, when that does not hold; then build it anew.
    pub fn respliced(&mut self, positions: &[f64], range: std::ops::Range<usize>) -> bool {
        let n = positions.len();
        if self.padded.len() != n + SMALL_BUCKET || n < 2 || positions[0] != self.x0 || positions[n - 1] != self.padded[n - 1] || range.end > n {
            return false;
        }
        let buckets = self.starts.len() - 1;
        // As `new` computes it; the last position may land in `buckets`, counted nowhere.
        let bucket = |p: f64| ((p - self.x0) * self.scale) as usize;
        for i in range {
            let (old, new) = (self.padded[i], positions[i]);
            let (a, b) = (bucket(old), bucket(new));
            // `starts[j]` counts the positions in buckets before `j`.
            if a < b {
                self.starts[a + 1..=b.min(buckets)].iter_mut().for_each(|s| *s -= 1);
            } else if b < a {
                self.starts[b + 1..=a.min(buckets)].iter_mut().for_each(|s| *s += 1);
            }
            self.padded[i] = new;
        }
        true
    }
}

/// Whether `lo ≤ x < hi` (bounds finite or infinite), as one comparison so that it compiles
/// to one branch: `lo − x ≤ 0` iff `lo ≤ x`, and `x − hi < 0` iff `x − hi + δ ≤ 0` with `δ`
/// the least positive `f64` (a difference of floats has the sign of the exact one, and a
/// negative one is at most `−δ`), so both hold iff `max(lo − x, x − hi + δ) ≤ 0`. A NaN `x`
/// fails; an infinite `x` passes only in the unbounded interval at its end (where
/// `∞ − ∞ = NaN` is ignored by `max`), which is where it belongs. (Written with `f64::max`:
/// a hand-written `maxsd` form measured the same alone but was compiled to a branch in the
/// benchmark, which random queries mispredict.)
#[inline(always)]
#[must_use]
pub fn within(lo: f64, x: f64, hi: f64) -> bool {
    (lo - x).max(x - hi + f64::from_bits(1)) <= 0.0
}

/// Buckets of a [`BucketIndex`] holding at most this many positions are counted without
/// branches.
pub const SMALL_BUCKET: usize = 4;

/// `positions[i] ≤ x` with `i < n`: walk up to [`LINEAR_SCAN_STEPS`] intervals forward;
/// `None` when the answer lies further away. (The caller's full-array search afterwards has a
/// constant trip count, which predicts better than searching only the remaining part.)
#[inline]
fn forward(positions: &[f64], x: f64, i: usize) -> Option<usize> {
    let n = positions.len();
    (i + 1..=(i + LINEAR_SCAN_STEPS).min(n)).find(|&j| j == n || x < positions[j])
}

/// `x < positions[i − 1]` with `i > 0`: walk back up to [`LINEAR_SCAN_STEPS`] intervals;
/// `None` when the answer lies further away.
#[inline]
fn backward(positions: &[f64], x: f64, i: usize) -> Option<usize> {
    (i.saturating_sub(LINEAR_SCAN_STEPS)..i).rev().find(|&j| j == 0 || positions[j - 1] <= x)
}

/// The largest `j` in `from + 1 ..= limit` for which `fits(j)` holds, `fits` being true up to
/// some point and false after (and `from + 1` taken as fitting): probes at growing strides
/// (1, 2, 4, … past the last fit), then bisects between the last fit and the first miss, so
/// a reach of `r` costs about `2 log₂ r` probes. The greedy key choice of adaptive baking and
/// of rotation reduction.
pub fn farthest_fitting(from: usize, limit: usize, mut fits: impl FnMut(usize) -> bool) -> usize {
    let mut good = from + 1;
    let mut step = 1;
    let mut miss = None;
    while good < limit {
        let probe = (good + step).min(limit);
        if fits(probe) {
            good = probe;
            step *= 2;
        } else {
            miss = Some(probe);
            break;
        }
    }
    if let Some(mut hi) = miss {
        while hi - good > 1 {
            let mid = good + (hi - good) / 2;
            if fits(mid) {
                good = mid;
            } else {
                hi = mid;
            }
        }
    }
    good
}

/// Plain binary search for the number of positions `≤ x`.
#[inline]
#[must_use]
pub fn upper_bound(positions: &[f64], x: f64) -> usize {
    positions.partition_point(|&p| p <= x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-checked: fits up to 13 from 0 with limit 20 probes 2, 4, 8, 16 (miss), then 12,
    /// 14 (miss), 13; every answer is the last fit, clamped to the limit.
    #[test]
    fn the_farthest_fit_gallops_then_bisects() {
        let mut probes = Vec::new();
        assert_eq!(
            farthest_fitting(0, 20, |j| {
                probes.push(j);
                j <= 13
            }),
            13
        );
        assert_eq!(probes, vec![2, 4, 8, 16, 12, 14, 13]);
        for last in 1..30 {
            for limit in 1..25 {
                assert_eq!(farthest_fitting(0, limit, |j| j <= last), last.min(limit).max(1), "last {last}, limit {limit}");
            }
        }
        assert_eq!(farthest_fitting(5, 6, |_| false), 6, "from + 1 is taken as fitting");
    }

    #[test]
    fn interval_rule_with_duplicates() {
        let p = [0.0, 1.0, 1.0, 1.0, 2.0];
        assert_eq!(upper_bound(&p, -1.0), 0);
        assert_eq!(upper_bound(&p, 0.0), 1);
        assert_eq!(upper_bound(&p, 0.999), 1);
        // At the shared time the last of the group (index 3) is the left key.
        assert_eq!(upper_bound(&p, 1.0), 4);
        assert_eq!(upper_bound(&p, 2.0), 5);
        assert_eq!(upper_bound(&p, f64::NAN), 0);
        // Decoded: before, inside segment 0, inside segment 3 (the last key of the group),
        // and at the last key.
        let at = |x| Located::from_count(upper_bound(&p, x), p.len());
        assert_eq!(
            [at(-1.0), at(0.5), at(1.0), at(2.0), at(f64::NAN)],
            [Located::Before, Located::Inside(0), Located::Inside(3), Located::After, Located::Before]
        );
        assert_eq!([Located::Before.clamped(4), Located::Inside(2).clamped(4), Located::After.clamped(4)], [0, 2, 3]);
    }

    #[test]
    fn bucket_index_agrees_with_binary_search() {
        let p: Vec<f64> = (0..200).map(|i| ((i / 2) as f64).powf(1.7) * 0.01).collect();
        let index = BucketIndex::new(&p);
        let mut c = SegmentCursor::new();
        for k in -50..=2500 {
            let x = f64::from(k) * 0.013;
            assert_eq!(index.upper_bound(&p, x), upper_bound(&p, x), "x = {x}");
            assert_eq!(c.locate_indexed(&p, &index, x), Located::from_count(upper_bound(&p, x), p.len()));
        }
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, p[199], p[0]] {
            assert_eq!(index.upper_bound(&p, x), upper_bound(&p, x));
        }
        // Clustered: 100 positions in the first bucket (counted by binary search), one far
        // out; queries at, between and next to every position.
        let mut p: Vec<f64> = (0..100).map(|i| f64::from(i) * 1e-5).collect();
        p.push(1000.0);
        let index = BucketIndex::new(&p);
        for &q in &p {
            for x in [q, q.next_up(), q.next_down(), q + 5e-6] {
                assert_eq!(index.upper_bound(&p, x), upper_bound(&p, x), "x = {x}");
            }
        }
    }

    /// `within` against the two comparisons it replaces, at and next to the bounds, with
    /// infinite bounds and queries, subnormal gaps and NaN.
    #[test]
    fn within_is_the_half_open_interval() {
        let (inf, tiny) = (f64::INFINITY, f64::from_bits(1));
        let values = [-inf, -1.0, -tiny, 0.0, tiny, 2.0 * tiny, 0.5, 1.0 - f64::EPSILON / 2.0, 1.0, 1.0 + f64::EPSILON, 1e308, inf, f64::NAN];
        // Bounds as the cursor forms them: −∞ or a position below, a position or +∞ above.
        for &lo in &values[..11] {
            for &hi in &values[1..12] {
                if lo > hi {
                    continue;
                }
                for &x in &values {
                    let end = x == inf && hi == inf;
                    assert_eq!(within(lo, x, hi), lo <= x && (x < hi || end), "{lo} ≤ {x} < {hi}");
                }
            }
        }
    }

    #[test]
    fn cursor_agrees_with_binary_search_in_any_order() {
        let p: Vec<f64> = (0..50).map(|i| (i / 3) as f64 * 0.5).collect();
        let mut c = SegmentCursor::new();
        let queries = [3.0, 3.1, 3.6, 1.0, 25.0, -1.0, 12.2, 12.1, 11.9, 0.0, 4.5, 4.49];
        for &x in queries.iter().chain(queries.iter().rev()) {
            assert_eq!(c.locate(&p, x), Located::from_count(upper_bound(&p, x), p.len()), "x = {x}");
        }
    }
}
