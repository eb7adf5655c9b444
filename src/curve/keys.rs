//! Key storage apart from interpolation: the sorted key times and the key values, flattened.

/// Key times and values of a compiled track.
///
/// # Invariants
/// `times` is sorted and finite with at least one entry; `values.len() == times.len() * dim`.
#[derive(Clone, Debug)]
pub(crate) struct KeyTable {
    pub times: Vec<f64>,
    /// Key values, `key * dim + c`.
    pub values: Vec<f64>,
    pub dim: usize,
}

impl KeyTable {
    /// Value of key `i`.
    #[inline]
    pub fn value(&self, i: usize) -> &[f64] {
        &self.values[i * self.dim..(i + 1) * self.dim]
    }

    /// Values of keys `i` and `i + 1`, one after the other.
    #[inline]
    pub fn pair(&self, i: usize) -> &[f64] {
        &self.values[i * self.dim..(i + 2) * self.dim]
    }

    /// Start time and duration of segment `seg` (keys `seg` and `seg + 1`).
    #[inline]
    pub fn span(&self, seg: usize) -> (f64, f64) {
        let t0 = self.times[seg];
        (t0, self.times[seg + 1] - t0)
    }

    pub fn len(&self) -> usize {
        self.times.len()
    }
}

/// `out.copy_from_slice(&src[..out.len()])`, written out for the 1 to 4 components of a
/// value so that a sample makes no call to `memcpy`.
#[inline(always)]
pub(crate) fn copy_value(out: &mut [f64], src: &[f64]) {
    match out {
        [a] => *a = src[0],
        [a, b] => [*a, *b] = [src[0], src[1]],
        [a, b, c] => [*a, *b, *c] = [src[0], src[1], src[2]],
        [a, b, c, d] => [*a, *b, *c, *d] = [src[0], src[1], src[2], src[3]],
        _ => out.copy_from_slice(&src[..out.len()]),
    }
}
