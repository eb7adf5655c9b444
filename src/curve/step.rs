//! Step interpolation: each key's value holds until the next key (three.js
//! `DiscreteInterpolant`). Its velocity is zero everywhere.

use super::keys::{copy_value, KeyTable};

/// The Step mode (no per-segment data).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step;

impl Step {
    #[inline]
    pub fn value(keys: &KeyTable, seg: usize, out: &mut [f64]) {
        copy_value(out, keys.value(seg));
    }
}
