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
//! search over the whole array (or a [`BucketIndex`]). Because the rule has exactly one
//! answer, every path returns the same result as a plain binary search: sequential and
//! random-order evaluation agree bit for bit.

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

    /// [`Self::locate`] with a [`BucketIndex`] instead of binary search as the fallback, for
    /// long tables read in random order.
    #[inline]
    pub fn locate_indexed(&mut self, positions: &[f64], index: &BucketIndex, x: f64) -> Located {
        Located::from_count(self.count(positions, x, || index.upper_bound(positions, x)), positions.len())
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
/// are positions, and each bucket remembers how many positions lie at or below its left edge.
/// A query then searches only its bucket's positions. Built for one array; passing another
/// gives wrong answers, which `debug_assert`s catch.
#[derive(Clone, Debug, Default)]
pub struct BucketIndex {
    x0: f64,
    scale: f64,
    /// `starts[k]` = number of positions `≤` the left edge of bucket `k`; one more entry than
    /// buckets.
    starts: Vec<u32>,
}

impl BucketIndex {
    /// Indexes `positions` (sorted, finite).
    #[must_use]
    pub fn new(positions: &[f64]) -> Self {
        let n = positions.len();
        if n < 2 || !(positions[n - 1] > positions[0]) {
            return Self::default();
        }
        let (x0, x1) = (positions[0], positions[n - 1]);
        let scale = n as f64 / (x1 - x0);
        let mut starts = Vec::with_capacity(n + 1);
        let mut j = 0;
        for k in 0..=n {
            let edge = x0 + k as f64 / scale;
            while j < n && positions[j] <= edge {
                j += 1;
            }
            starts.push(j as u32);
        }
        Self { x0, scale, starts }
    }

    /// The number of positions `≤ x`, as [`upper_bound`] computes it.
    #[inline]
    #[must_use]
    pub fn upper_bound(&self, positions: &[f64], x: f64) -> usize {
        let buckets = self.starts.len().saturating_sub(1);
        let k = (x - self.x0) * self.scale;
        if k >= 0.0 && k < buckets as f64 {
            let k = k as usize;
            let (lo, hi) = (self.starts[k] as usize, self.starts[k + 1] as usize);
            let n = positions.len();
            // Rounding at a bucket edge can put x just outside its bucket; check the bracket.
            if (lo == 0 || positions[lo - 1] <= x) && (hi == n || x < positions[hi]) {
                return lo + upper_bound(&positions[lo..hi], x);
            }
        }
        upper_bound(positions, x)
    }
}

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

/// Plain binary search for the number of positions `≤ x`.
#[inline]
#[must_use]
pub fn upper_bound(positions: &[f64], x: f64) -> usize {
    positions.partition_point(|&p| p <= x)
}

#[cfg(test)]
mod tests {
    use super::*;

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
