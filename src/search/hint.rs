//! Prefetch hints for [`BucketIndex`] look-ups made for many indexes at once (the clip
//! player's seeks, [`crate::player`]): first every look-up's bucket entry is asked for, then
//! (the entries arrived meanwhile) every bucket's positions, then the look-ups themselves run
//! ([`BucketIndex::upper_bound`]) on data already in cache, so that the cache misses of
//! different indexes overlap instead of each waiting for the one before. Hints read nothing
//! that decides an answer: a wrong or skipped hint costs time, never a different count.

use super::{BucketIndex, SMALL_BUCKET};

impl BucketIndex {
    /// The bucket a look-up of `x` reads, as [`Self::upper_bound`] computes it; `None` where
    /// it searches the whole array instead.
    #[inline(always)]
    fn bucket_of(&self, x: f64) -> Option<usize> {
        let k = (x - self.x0) * self.scale;
        if k >= 0.0 && k < self.buckets {
            // In range, so exact (as `upper_bound` converts it).
            Some(k as i64 as usize)
        } else {
            None
        }
    }

    /// Asks the processor for the bucket entry a look-up of `x` reads first.
    #[inline(always)]
    pub(crate) fn prefetch_bucket(&self, x: f64) {
        if let Some(k) = self.bucket_of(x) {
            prefetch(self.starts.as_ptr().wrapping_add(k));
        }
    }

    /// Asks the processor for the positions a look-up of `x` counts (reading the bucket entry,
    /// which [`Self::prefetch_bucket`] asked for a while before), and returns the index of the
    /// bucket's first position, near which the caller's own per-position data will be read.
    #[inline(always)]
    pub(crate) fn prefetch_positions(&self, x: f64) -> Option<usize> {
        let lo = *self.starts.get(self.bucket_of(x)?)? as usize;
        let p = self.padded.as_ptr();
        prefetch(p.wrapping_add(lo));
        prefetch(p.wrapping_add(lo + SMALL_BUCKET - 1));
        Some(lo)
    }
}

/// Asks the processor to start loading the cache line at `p` (a hint: it reads nothing and
/// cannot fault, whatever the address).
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and cannot fault.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::super::{upper_bound, BucketIndex};

    /// The hints' bucket is the look-up's: the first position counted lies at the bucket's
    /// start, and the count never falls below it (uneven positions, queries at, between and
    /// outside them).
    #[test]
    fn hints_point_at_the_look_up_s_positions() {
        let p: Vec<f64> = (0..300).map(|i| f64::from(i / 3).powf(1.4) * 0.02).collect();
        let index = BucketIndex::new(&p);
        let mut hinted = 0;
        for k in -20..=2000 {
            let x = f64::from(k) * 0.011;
            index.prefetch_bucket(x);
            if let Some(lo) = index.prefetch_positions(x) {
                let count = index.upper_bound(&p, x);
                assert!(lo <= count && count == upper_bound(&p, x), "x = {x}");
                hinted += 1;
            }
        }
        assert!(hinted > 1000, "{hinted} look-ups hinted");
        assert_eq!(BucketIndex::default().prefetch_positions(1.0), None);
    }
}
