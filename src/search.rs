//! Finding the segment that holds a query time (SPEC §2, seed 000).
//!
//! The rule is three.js' interval rule, stated without reference to any cache: for sorted
//! positions `p[0] ≤ … ≤ p[n−1]`, the answer for `x` is the unique `i` with
//! `p[i−1] ≤ x < p[i]`, i.e. the number of positions `≤ x` (an *upper bound*). `0` means
//! "before the first", `n` means "at or after the last". A zero-length interval can never be
//! selected, so at a time shared by several keys the last of them wins.
//!
//! [`SegmentCursor`] remembers the last answer and tries it first, then walks at most two
//! intervals forward or backward, and only then binary-searches. Because the rule has exactly
//! one answer, every path returns the same `i` as a plain binary search: sequential and
//! random-order evaluation agree bit for bit.

/// How far the cursor walks from its last answer before giving up and binary-searching.
pub const LINEAR_SCAN_STEPS: usize = 2;

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

    /// The number of positions `≤ x` (see the module docs). NaN counts as before everything.
    #[inline]
    pub fn upper_bound(&mut self, positions: &[f64], x: f64) -> usize {
        let n = positions.len();
        let i = self.upper.min(n);
        let above_lower = i == 0 || positions[i - 1] <= x;
        // A NaN never passes both tests (for n ≥ 1), so it costs nothing on this path.
        if above_lower && (i == n || x < positions[i]) {
            return i;
        }
        let found = if x.is_nan() {
            0
        } else if above_lower {
            forward(positions, x, i)
        } else {
            backward(positions, x, i)
        };
        self.upper = found;
        found
    }
}

/// `positions[i] ≤ x` with `i < n`: walk up to [`LINEAR_SCAN_STEPS`] intervals forward, then
/// binary-search.
#[inline]
fn forward(positions: &[f64], x: f64, i: usize) -> usize {
    let n = positions.len();
    for j in i + 1..=(i + LINEAR_SCAN_STEPS).min(n) {
        if j == n || x < positions[j] {
            return j;
        }
    }
    // A full-array search has a constant trip count, which predicts better than searching
    // only the remaining part.
    upper_bound(positions, x)
}

/// `x < positions[i − 1]` with `i > 0`: walk back up to [`LINEAR_SCAN_STEPS`] intervals, then
/// binary-search.
#[inline]
fn backward(positions: &[f64], x: f64, i: usize) -> usize {
    for j in (i.saturating_sub(LINEAR_SCAN_STEPS)..i).rev() {
        if j == 0 || positions[j - 1] <= x {
            return j;
        }
    }
    upper_bound(positions, x)
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
    }

    #[test]
    fn cursor_agrees_with_binary_search_in_any_order() {
        let p: Vec<f64> = (0..50).map(|i| (i / 3) as f64 * 0.5).collect();
        let mut c = SegmentCursor::new();
        let queries = [
            3.0, 3.1, 3.6, 1.0, 25.0, -1.0, 12.2, 12.1, 11.9, 0.0, 4.5, 4.49,
        ];
        for &x in queries.iter().chain(queries.iter().rev()) {
            assert_eq!(c.upper_bound(&p, x), upper_bound(&p, x), "x = {x}");
        }
    }
}
