//! One keyframe ([`Key`]): its time and value, TCB and ease, Bézier handles, and on Bezier
//! tracks the segment after it (Blender's per-key interpolation and easing).

use serde::{Deserialize, Serialize};

use super::{is_default, EaseParams, Easing, HandleType, KeyInterpolation};

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// One keyframe.
///
/// # Invariants (checked when a track is compiled or loaded)
/// - `time` and every component of `value` are finite; `value.len()` is the track's dim.
/// - `tension`, `continuity`, `bias` ∈ [−1, 1]; `ease_to`, `ease_from` ∈ [0, 1].
/// - `back`, `amplitude` and `period` are finite.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Key {
    pub time: f64,
    pub value: Vec<f64>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tension: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub continuity: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bias: f64,
    /// Ease into this key: slows the segment that ends here.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ease_to: f64,
    /// Ease out of this key: slows the segment that starts here.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ease_from: f64,
    /// Bezier tracks: the `(left, right)` handle types.
    #[serde(default, skip_serializing_if = "is_default")]
    pub handles: (HandleType, HandleType),
    /// Bezier tracks: per component, the left handle as `(dt, dv)` from the key (`dt ≤ 0`).
    /// Required where the left type is Free or Aligned; recomputed for the others.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left: Vec<(f64, f64)>,
    /// Bezier tracks: per component, the right handle as `(dt, dv)` from the key (`dt ≥ 0`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub right: Vec<(f64, f64)>,
    /// Bezier tracks: the segment after this key, as Blender's keyframe `interpolation`
    /// (file version 4 when not `Bezier`); other tracks ignore it.
    #[serde(default, skip_serializing_if = "is_default")]
    pub interpolation: KeyInterpolation,
    /// Bezier tracks: which end of an easing segment eases (Blender's keyframe `easing`).
    #[serde(default, skip_serializing_if = "is_default")]
    pub easing: Easing,
    /// Back easing's overshoot (Blender's `back`). Stored as float32, as Blender does.
    #[serde(default = "default_back", skip_serializing_if = "is_default_back")]
    pub back: f32,
    /// Elastic easing's amplitude (Blender's `amplitude`).
    #[serde(default = "default_amplitude", skip_serializing_if = "is_default_amplitude")]
    pub amplitude: f32,
    /// Elastic easing's period in seconds (Blender keeps frames: its default 4.1 frames is
    /// 4.1/24 s at its default 24 fps).
    #[serde(default = "default_period", skip_serializing_if = "is_default_period")]
    pub period: f32,
}

/// The per-key easing parameters' defaults, as Blender's (as float32).
#[allow(clippy::cast_possible_truncation)]
pub const KEY_BACK: f32 = crate::easing::DEFAULT_BACK as f32;
#[allow(clippy::cast_possible_truncation)]
pub const KEY_AMPLITUDE: f32 = crate::easing::DEFAULT_AMPLITUDE as f32;
#[allow(clippy::cast_possible_truncation)]
pub const KEY_PERIOD: f32 = crate::easing::DEFAULT_PERIOD as f32;

fn default_back() -> f32 {
    KEY_BACK
}
fn default_amplitude() -> f32 {
    KEY_AMPLITUDE
}
fn default_period() -> f32 {
    KEY_PERIOD
}
#[allow(clippy::trivially_copy_pass_by_ref, clippy::float_cmp)]
fn is_default_back(x: &f32) -> bool {
    *x == KEY_BACK
}
#[allow(clippy::trivially_copy_pass_by_ref, clippy::float_cmp)]
fn is_default_amplitude(x: &f32) -> bool {
    *x == KEY_AMPLITUDE
}
#[allow(clippy::trivially_copy_pass_by_ref, clippy::float_cmp)]
fn is_default_period(x: &f32) -> bool {
    *x == KEY_PERIOD
}

impl Key {
    /// A key with zero TCB and ease.
    #[must_use]
    pub fn new(time: f64, value: Vec<f64>) -> Self {
        Self {
            time,
            value,
            tension: 0.0,
            continuity: 0.0,
            bias: 0.0,
            ease_to: 0.0,
            ease_from: 0.0,
            handles: (HandleType::AutoClamped, HandleType::AutoClamped),
            left: Vec::new(),
            right: Vec::new(),
            interpolation: KeyInterpolation::Bezier,
            easing: Easing::Auto,
            back: KEY_BACK,
            amplitude: KEY_AMPLITUDE,
            period: KEY_PERIOD,
        }
    }

    /// Whether the key's segment settings (interpolation, easing and its parameters) are
    /// Blender's defaults: a plain Bézier segment.
    #[must_use]
    #[allow(clippy::float_cmp)]
    pub fn has_default_segment(&self) -> bool {
        self.interpolation == KeyInterpolation::Bezier
            && self.easing == Easing::Auto
            && self.back == KEY_BACK
            && self.amplitude == KEY_AMPLITUDE
            && self.period == KEY_PERIOD
    }

    /// Whether the key carries nothing but its time and value: zero TCB and ease, automatic
    /// clamped handles without stored offsets, and a default segment ([`Self::has_default_segment`]).
    /// A track of such keys is held as columns ([`super::Keys`]).
    #[must_use]
    pub fn is_plain(&self) -> bool {
        self.tension == 0.0
            && self.continuity == 0.0
            && self.bias == 0.0
            && self.ease_to == 0.0
            && self.ease_from == 0.0
            && self.handles == (HandleType::AutoClamped, HandleType::AutoClamped)
            && self.left.is_empty()
            && self.right.is_empty()
            && self.has_default_segment()
    }

    /// The key's easing parameters, in f64 (period in seconds).
    #[must_use]
    pub fn ease_params(&self) -> EaseParams {
        EaseParams { back: f64::from(self.back), amplitude: f64::from(self.amplitude), period: f64::from(self.period) }
    }

    /// Builder-style setter for Bézier handles: types, and per component `(dt, dv)` offsets
    /// (empty where the types are automatic).
    #[must_use]
    pub fn with_handles(mut self, types: (HandleType, HandleType), left: Vec<(f64, f64)>, right: Vec<(f64, f64)>) -> Self {
        self.handles = types;
        self.left = left;
        self.right = right;
        self
    }

    /// Builder-style setter for tension, continuity and bias.
    #[must_use]
    pub fn with_tcb(mut self, tension: f64, continuity: f64, bias: f64) -> Self {
        self.tension = tension;
        self.continuity = continuity;
        self.bias = bias;
        self
    }

    /// Builder-style setter for ease-to and ease-from.
    #[must_use]
    pub fn with_ease(mut self, ease_to: f64, ease_from: f64) -> Self {
        self.ease_to = ease_to;
        self.ease_from = ease_from;
        self
    }
}
