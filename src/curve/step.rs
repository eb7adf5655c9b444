//! Step interpolation: each key's value holds until the next key (three.js
//! `DiscreteInterpolant`). Its velocity is zero everywhere.

use super::keys::{copy_value, KeyTable};
use super::modes::{Derivatives, Kinds, Mode, Splice, Written};
use super::Segments;
use crate::model::Interpolation;

/// Step's row of the table of modes.
pub(super) const MODE: Mode = Mode {
    interpolation: Interpolation::Step,
    summary: "Hold each key's value until the next key",
    kinds: Kinds::Any,
    derivatives: Derivatives::None,
    may_overflow: false,
    splice: Splice::Local,
    written: Written::Step,
    compile: |_, _, _| (Segments::Step, None),
};

/// The Step mode (no per-segment data).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step;

impl Step {
    #[inline]
    pub fn value(keys: &KeyTable, seg: usize, out: &mut [f64]) {
        copy_value(out, keys.value(seg));
    }
}
