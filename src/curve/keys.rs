//! Key storage apart from interpolation: the sorted key times and the key values, flattened,
//! shared with the track's columns ([`crate::model::Columns`]) where the values are used as
//! stored, so that a sampled take's curves cost no copy of its keys.

use std::sync::Arc;

use crate::model::{spliced, Track, TrackKind};

/// Key times and values of a compiled track.
///
/// # Invariants
/// `times` is sorted and finite with at least one entry; `values.len() == times.len() * dim`.
#[derive(Clone, Debug)]
pub(crate) struct KeyTable {
    pub times: Arc<[f64]>,
    /// Key values, `key * dim + c`.
    pub values: Arc<[f64]>,
    pub dim: usize,
}

impl KeyTable {
    /// The keys of a validated `track`: its own columns where it has them and the values are
    /// used as stored; a copy where they are not (quaternions are normalised, except on Bezier
    /// tracks, which interpolate the stored components and normalise the result).
    pub fn of(track: &Track) -> Self {
        let dim = track.kind.dim();
        let normalise = track.kind == TrackKind::Quat && track.interpolation != crate::model::Interpolation::Bezier;
        if let (Some(c), false) = (track.keys.columns(), normalise) {
            if c.dim == dim {
                return Self { times: Arc::clone(&c.times), values: Arc::clone(&c.values), dim };
            }
        }
        let n = track.keys.len();
        let times: Arc<[f64]> = track.keys.times().collect();
        let mut values: Vec<f64> = Vec::with_capacity(n * dim);
        for i in 0..n {
            let v = track.keys.value(i);
            if normalise {
                values.extend_from_slice(&crate::quat::normalize(&[v[0], v[1], v[2], v[3]]));
            } else {
                values.extend_from_slice(v);
            }
        }
        Self { times, values: values.into(), dim }
    }

    /// The values to change in place (copied first if they are shared).
    pub fn values_mut(&mut self) -> &mut [f64] {
        if Arc::get_mut(&mut self.values).is_none() {
            self.values = self.values.iter().copied().collect();
        }
        Arc::get_mut(&mut self.values).expect("values made unique above")
    }

    /// Keys `at..at + removed` replaced by `times` and their `values` (`dim` each).
    pub fn splice(&mut self, at: usize, removed: usize, times: impl Iterator<Item = f64>, values: impl Iterator<Item = f64>) {
        let dim = self.dim;
        self.times = spliced(&self.times, at..at + removed, times);
        self.values = spliced(&self.values, at * dim..(at + removed) * dim, values);
    }

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
