//! Smoothing a track's keys (issue 32): a zero-phase Butterworth low-pass, a Gaussian and a
//! median filter, each on the keys as a signal sampled at a uniform rate, computing exactly
//! what scipy computes (`smooth/signal.rs`; tests against scipy's numbers in
//! `tests/smooth_reference.rs`). What the command line (`tangent filter --butterworth /
//! --gaussian / --median`) and the editor (Edit > Smooth…) call.
//!
//! - **Rate.** A track's keys are a signal at `rate = (n − 1)/(t_last − t_first)` when their
//!   spacing is uniform: the largest and smallest spacing differ by at most [`UNIFORM_SPREAD`]
//!   of the mean. Otherwise the track is first **resampled** at its median key spacing (of
//!   the spacings above zero), adjusted so a whole number of steps spans the keys (the first
//!   and last key times stay), as Linear keys (Slerp for quaternions) sampled from its curve;
//!   [`Smoothed::resampled`] says so.
//! - **Keys.** With the times unchanged, the result has the same key times, the same
//!   interpolation and the same per-key TCB and ease; Bézier keys get automatic (AutoClamped)
//!   handles, since handles stored as offsets belonged to the old values. Resampled tracks are
//!   Linear (Slerp for Quat). **Step tracks are refused** ([`SmoothError::Step`]): their jumps
//!   are meant, and a low-pass of a staircase is not what a user holding one wants.
//! - **Selected keys** ([`smooth_keys`], the editor with keys selected): the whole track is
//!   filtered as above, and only the selected keys take the filtered values at their times;
//!   every other key and every key time stays (docs/smoothing.md says why, against Blender).
//! - **Components.** Scalar, Vec and Euler tracks are filtered per component (Euler angles as
//!   they are: run the Euler filter first if they wrap). Quaternion keys are first made
//!   hemisphere-continuous (each key negated where its dot product with the key before is
//!   negative, the first key kept), then filtered per component, then normalised: the result
//!   is unit length and keeps the hemisphere of the keys it came from.
//! - **Measured.** [`Smoothed::max_difference`] is the largest difference between the old
//!   and the new curve over the keyed range — the Euclidean distance of the values (value
//!   units), or the angle between the rotations in degrees for Quat and Euler tracks — at the
//!   union of both curves' key times and at [`MEASURE_POINTS`] points between each two of
//!   them (only at the key times where both curves are Linear on a vector kind: the
//!   difference of two piecewise-linear curves is largest at a breakpoint).

pub mod signal;

use rayon::prelude::*;
use thiserror::Error;

use crate::curve::TrackCurve;
use crate::error::TrackError;
use crate::model::{HandleType, Interpolation, Key, Track, TrackKind};
use crate::search::SegmentCursor;

/// The Butterworth order when none is given.
pub const DEFAULT_ORDER: usize = 2;
/// The highest Butterworth order accepted.
pub const MAX_ORDER: usize = 8;
/// Key spacings whose spread (largest − smallest) is at most this fraction of their mean
/// count as uniform.
pub const UNIFORM_SPREAD: f64 = 1e-9;
/// Points per interval between breakpoints where the difference is measured (see the module
/// doc).
pub const MEASURE_POINTS: usize = 16;
/// The fewest keys a median window covers.
pub const MIN_MEDIAN_KEYS: usize = 3;

/// Why a track cannot be smoothed, with the valid range where a number is out of it.
#[derive(Debug, Error, PartialEq)]
pub enum SmoothError {
    #[error("the cutoff must be above 0 Hz, got {0} Hz")]
    CutoffNotPositive(f64),
    #[error("the cutoff {cutoff} Hz must be below the Nyquist rate {} Hz (half the keys' rate of {} Hz)", short(rate / 2.0), short(*rate))]
    CutoffAboveNyquist { cutoff: f64, rate: f64 },
    #[error("the order must be 1 to {MAX_ORDER}, got {0}")]
    Order(usize),
    #[error("sigma must be above 0 seconds, got {0}")]
    Sigma(f64),
    #[error("the median window must be above 0 seconds, got {0}")]
    Window(f64),
    #[error("the median window {window} s covers fewer than {MIN_MEDIAN_KEYS} keys at {} Hz: it must be at least {} s", short(*rate), short(1.5 / rate))]
    WindowTooShort { window: f64, rate: f64 },
    #[error("{keys} keys: {filter} needs at least {needed}")]
    TooFewKeys { keys: usize, needed: usize, filter: String },
    #[error("all {0} keys are at the same time: there is no rate to filter at")]
    NoSpan(usize),
    #[error("Step tracks are not smoothed (their jumps are meant); set the interpolation to Linear first to smooth it")]
    Step,
    #[error("the smoothed quaternion at {time} s is of length {length:e}: neighbouring keys turn too far to be averaged")]
    Degenerate { time: f64, length: f64 },
    #[error("there is no key {key}: the track has {keys}")]
    NoKey { key: usize, keys: usize },
    #[error(transparent)]
    Track(#[from] TrackError),
}

/// `x` to 10 significant digits, for messages: a rate of 4.999999999999999 Hz measured from
/// key times reads 5.
fn short(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(9 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

/// A smoothing filter with its parameters (built through the constructors, which check them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Filter {
    /// Zero-phase Butterworth low-pass: `scipy.signal.butter(order, cutoff_hz, fs=rate)`,
    /// then `scipy.signal.filtfilt` with its defaults.
    Butterworth { cutoff_hz: f64, order: usize },
    /// `scipy.ndimage.gaussian_filter1d(x, sigma_s·rate, mode='nearest')`.
    Gaussian { sigma_s: f64 },
    /// `scipy.ndimage.median_filter(x, size, mode='nearest')`, `size` = `window_s·rate`
    /// rounded, plus one if even ([`Filter::median_size`]).
    Median { window_s: f64 },
}

impl Filter {
    /// # Errors
    /// A cutoff that is not above 0 (or not finite), an order outside 1 to [`MAX_ORDER`].
    pub fn butterworth(cutoff_hz: f64, order: usize) -> Result<Self, SmoothError> {
        let f = Self::Butterworth { cutoff_hz, order };
        f.check()?;
        Ok(f)
    }

    /// # Errors
    /// A sigma that is not above 0 (or not finite).
    pub fn gaussian(sigma_s: f64) -> Result<Self, SmoothError> {
        let f = Self::Gaussian { sigma_s };
        f.check()?;
        Ok(f)
    }

    /// # Errors
    /// A window that is not above 0 (or not finite).
    pub fn median(window_s: f64) -> Result<Self, SmoothError> {
        let f = Self::Median { window_s };
        f.check()?;
        Ok(f)
    }

    /// The checks that do not depend on the keys' rate.
    ///
    /// # Errors
    /// As the constructors.
    pub fn check(&self) -> Result<(), SmoothError> {
        let positive = |x: f64| x > 0.0 && x.is_finite();
        match *self {
            Self::Butterworth { cutoff_hz, .. } if !positive(cutoff_hz) => Err(SmoothError::CutoffNotPositive(cutoff_hz)),
            Self::Butterworth { order, .. } if !(1..=MAX_ORDER).contains(&order) => Err(SmoothError::Order(order)),
            Self::Gaussian { sigma_s } if !positive(sigma_s) => Err(SmoothError::Sigma(sigma_s)),
            Self::Median { window_s } if !positive(window_s) => Err(SmoothError::Window(window_s)),
            _ => Ok(()),
        }
    }

    /// The fewest keys a track needs: more than filtfilt's padding `3·(order + 1)` for
    /// Butterworth, 2 (for a rate) otherwise.
    #[must_use]
    pub fn min_keys(&self) -> usize {
        match *self {
            Self::Butterworth { order, .. } => signal::filtfilt_padlen(order) + 1,
            _ => 2,
        }
    }

    /// The median window in samples at `rate`: `round(window·rate)`, plus one if even.
    #[must_use]
    pub fn median_size(window_s: f64, rate: f64) -> usize {
        let n = (window_s * rate).round() as usize;
        n | 1
    }

    /// A short description for reports: "butterworth 6 Hz order 2", "gaussian 0.02 s",
    /// "median 0.1 s".
    #[must_use]
    pub fn describe(&self) -> String {
        match *self {
            Self::Butterworth { cutoff_hz, order } => format!("butterworth {cutoff_hz} Hz order {order}"),
            Self::Gaussian { sigma_s } => format!("gaussian {sigma_s} s"),
            Self::Median { window_s } => format!("median {window_s} s"),
        }
    }

    /// What the filter needs of a signal at `rate` with `keys` samples, checked before any
    /// work.
    fn check_at(&self, rate: f64, keys: usize) -> Result<(), SmoothError> {
        self.check()?;
        self.check_keys(keys)?;
        match *self {
            Self::Butterworth { cutoff_hz, .. } if cutoff_hz >= rate / 2.0 => Err(SmoothError::CutoffAboveNyquist { cutoff: cutoff_hz, rate }),
            Self::Median { window_s } if Self::median_size(window_s, rate) < MIN_MEDIAN_KEYS => Err(SmoothError::WindowTooShort { window: window_s, rate }),
            _ => Ok(()),
        }
    }

    /// At least [`Filter::min_keys`] keys.
    fn check_keys(&self, keys: usize) -> Result<(), SmoothError> {
        if keys < self.min_keys() {
            let filter = match *self {
                Self::Butterworth { order, .. } => format!(
                    "the Butterworth filter of order {order} (filtfilt pads each end with 3·(order + 1) = {} keys and needs more)",
                    signal::filtfilt_padlen(order)
                ),
                _ => "smoothing".to_owned(),
            };
            return Err(SmoothError::TooFewKeys { keys, needed: self.min_keys(), filter });
        }
        Ok(())
    }

    /// The filter on one signal `x` sampled at `rate` Hz.
    ///
    /// # Errors
    /// A cutoff at or above `rate/2`, a median window under [`MIN_MEDIAN_KEYS`] samples, fewer
    /// samples than [`Filter::min_keys`], or parameters out of range.
    pub fn apply(&self, x: &[f64], rate: f64) -> Result<Vec<f64>, SmoothError> {
        self.check_at(rate, x.len())?;
        let mut out = x.to_vec();
        Runner::new(self, rate).run(&mut out);
        Ok(out)
    }
}

/// A filter prepared for one rate (the Butterworth coefficients designed once per track).
enum Runner {
    Butterworth(Vec<f64>, Vec<f64>),
    Gaussian(f64),
    Median(usize),
}

impl Runner {
    fn new(filter: &Filter, rate: f64) -> Self {
        match *filter {
            Filter::Butterworth { cutoff_hz, order } => {
                let (b, a) = signal::butter_lowpass(order, cutoff_hz, rate);
                Self::Butterworth(b, a)
            }
            Filter::Gaussian { sigma_s } => Self::Gaussian(sigma_s * rate),
            Filter::Median { window_s } => Self::Median(Filter::median_size(window_s, rate)),
        }
    }

    fn run(&self, x: &mut Vec<f64>) {
        *x = match self {
            Self::Butterworth(b, a) => signal::filtfilt(b, a, x),
            Self::Gaussian(sigma) => signal::gaussian(x, *sigma),
            Self::Median(size) => signal::median(x, *size),
        };
    }
}

/// A smoothed track and what smoothing did to it.
#[derive(Clone, Debug)]
pub struct Smoothed {
    pub track: Track,
    /// Keys of the result.
    pub keys: usize,
    /// The rate the keys were filtered at, in Hz.
    pub rate: f64,
    /// `Some(spacing)` in seconds when the keys were not uniform and were resampled first.
    pub resampled: Option<f64>,
    /// The largest difference between the old and new curves over the keyed range: value
    /// units, or degrees for Quat and Euler tracks ([`Smoothed::unit`]).
    pub max_difference: f64,
    /// `Some(n)`: only `n` selected keys took the filtered values ([`smooth_keys`]); the
    /// other keys, and the key times, are as they were.
    pub selected: Option<usize>,
}

impl Smoothed {
    /// The unit of [`Smoothed::max_difference`]: "deg" for rotations, "" for values.
    #[must_use]
    pub fn unit(&self) -> &'static str {
        if self.track.kind.is_rotation() {
            "deg"
        } else {
            ""
        }
    }
}

/// The key times as a uniform rate, or `None` if they are not uniform.
fn uniform_rate(times: &[f64]) -> Option<f64> {
    let n = times.len();
    let span = times[n - 1] - times[0];
    let (lo, hi) = times.windows(2).map(|w| w[1] - w[0]).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), d| (lo.min(d), hi.max(d)));
    let mean = span / (n - 1) as f64;
    (lo > 0.0 && (hi - lo) <= UNIFORM_SPREAD * mean).then(|| (n - 1) as f64 / span)
}

/// Key times at the median spacing (of those above zero), a whole number of steps from the
/// first key time to the last.
fn resampled_times(times: &[f64]) -> Vec<f64> {
    let mut gaps: Vec<f64> = times.windows(2).map(|w| w[1] - w[0]).filter(|&d| d > 0.0).collect();
    gaps.sort_by(f64::total_cmp);
    let median = gaps[gaps.len() / 2];
    let (t0, t1) = (times[0], times[times.len() - 1]);
    let steps = ((t1 - t0) / median).round().max(1.0) as usize;
    (0..=steps).map(|i| if i == steps { t1 } else { t0 + (t1 - t0) * i as f64 / steps as f64 }).collect()
}

/// A track's keys as a signal (resampled where they are not uniform), filtered: the times and
/// values (`dim` per time) of the filtered signal, its rate, the resampling, and the track's
/// curve.
struct Filtered {
    curve: TrackCurve,
    times: Vec<f64>,
    values: Vec<f64>,
    rate: f64,
    resampled: Option<f64>,
}

/// The filter on `track`'s keys as a signal (the module doc: the rate, resampling, quaternions
/// made continuous, filtered per component and normalised).
fn filtered(track: &Track, filter: &Filter) -> Result<Filtered, SmoothError> {
    filter.check()?;
    if track.interpolation == Interpolation::Step {
        return Err(SmoothError::Step);
    }
    let curve = TrackCurve::new(track)?;
    let n = track.keys.len();
    filter.check_keys(n)?;
    let times: Vec<f64> = track.keys.iter().map(|k| k.time).collect();
    if times[n - 1] <= times[0] {
        return Err(SmoothError::NoSpan(n));
    }
    let dim = track.kind.dim();
    let (new_times, mut values, rate, resampled) = match uniform_rate(&times) {
        Some(rate) => (times, track.keys.iter().flat_map(|k| k.value.iter().copied()).collect::<Vec<f64>>(), rate, None),
        None => {
            let t = resampled_times(&times);
            let mut ev = curve.evaluator();
            let mut values = vec![0.0; t.len() * dim];
            for (i, &ti) in t.iter().enumerate() {
                ev.sample(ti, &mut values[i * dim..(i + 1) * dim]);
            }
            let rate = (t.len() - 1) as f64 / (t[t.len() - 1] - t[0]);
            let spacing = 1.0 / rate;
            (t, values, rate, Some(spacing))
        }
    };
    filter.check_at(rate, new_times.len())?;
    if track.kind == TrackKind::Quat {
        hemisphere_continuous(&mut values);
    }
    let runner = Runner::new(filter, rate);
    let m = new_times.len();
    let mut column = vec![0.0; m];
    for c in 0..dim {
        for (i, x) in column.iter_mut().enumerate() {
            *x = values[i * dim + c];
        }
        runner.run(&mut column);
        for (i, x) in column.iter().enumerate() {
            values[i * dim + c] = *x;
        }
    }
    if track.kind == TrackKind::Quat {
        for (q, &time) in values.chunks_exact_mut(4).zip(&new_times) {
            let length = q.iter().map(|x| x * x).sum::<f64>().sqrt();
            if length.is_nan() || length <= 1e-6 {
                return Err(SmoothError::Degenerate { time, length });
            }
            q.iter_mut().for_each(|x| *x /= length);
        }
    }
    Ok(Filtered { curve, times: new_times, values, rate, resampled })
}

/// Smooths one track's keys with `filter` (see the module doc for what changes).
///
/// # Errors
/// A Step or invalid track, too few keys, all keys at one time, parameters out of range
/// (the cutoff against this track's rate), or a quaternion that averages to nearly zero.
pub fn smooth_track(track: &Track, filter: &Filter) -> Result<Smoothed, SmoothError> {
    let Filtered { curve, times: new_times, values, rate, resampled } = filtered(track, filter)?;
    let dim = track.kind.dim();
    let keys: Vec<Key> = if resampled.is_none() {
        track
            .keys
            .iter()
            .zip(values.chunks_exact(dim))
            .map(|(k, v)| {
                let mut key = Key { value: v.to_vec(), ..k.clone() };
                if track.interpolation == Interpolation::Bezier {
                    key.handles = (HandleType::AutoClamped, HandleType::AutoClamped);
                    key.left.clear();
                    key.right.clear();
                }
                key
            })
            .collect()
    } else {
        new_times.iter().zip(values.chunks_exact(dim)).map(|(&t, v)| Key::new(t, v.to_vec())).collect()
    };
    let mut result = track.with_other_keys(keys);
    if resampled.is_some() {
        result.interpolation = resampled_mode(track.kind);
    }
    let new_curve = TrackCurve::new(&result)?;
    let max_difference = max_difference(&curve, &new_curve);
    Ok(Smoothed { keys: result.keys.len(), track: result, rate, resampled, max_difference, selected: None })
}

/// The interpolation of a resampled signal: Slerp for quaternions, Linear otherwise.
fn resampled_mode(kind: TrackKind) -> Interpolation {
    if kind == TrackKind::Quat {
        Interpolation::Slerp
    } else {
        Interpolation::Linear
    }
}

/// Smooths only the keys `selected` (indices) of `track`: the whole track's keys are filtered
/// as a signal as [`smooth_track`] filters them (resampled if they are not uniform), and each
/// selected key takes the filtered signal's value at its time (the filtered sample itself for
/// uniform keys; the resampled signal as Linear, or Slerp, keys otherwise). Every other key,
/// the key times, the interpolation and each key's TCB, ease and Bézier handles (offsets, so
/// they move with the key, as Blender's smoothing moves them) stay as they are. A selected
/// quaternion key keeps the hemisphere it was stored in.
///
/// # Errors
/// As [`smooth_track`], and a key index the track does not have.
pub fn smooth_keys(track: &Track, selected: &[usize], filter: &Filter) -> Result<Smoothed, SmoothError> {
    if let Some(&key) = selected.iter().find(|&&k| k >= track.keys.len()) {
        return Err(SmoothError::NoKey { key, keys: track.keys.len() });
    }
    let Filtered { curve, times, values, rate, resampled } = filtered(track, filter)?;
    let dim = track.kind.dim();
    let mut keys = track.keys.clone();
    let mut chosen: Vec<usize> = selected.to_vec();
    chosen.sort_unstable();
    chosen.dedup();
    if resampled.is_none() {
        for &k in &chosen {
            keys[k].value.copy_from_slice(&values[k * dim..(k + 1) * dim]);
        }
    } else {
        let signal = Track::new(track.name.clone(), track.kind, resampled_mode(track.kind))
            .with_keys(times.iter().zip(values.chunks_exact(dim)).map(|(&t, v)| Key::new(t, v.to_vec())).collect::<Vec<Key>>());
        let signal = TrackCurve::new(&signal)?;
        let mut ev = signal.evaluator();
        for &k in &chosen {
            let t = keys[k].time;
            ev.sample(t, &mut keys[k].value);
        }
    }
    if track.kind == TrackKind::Quat {
        for &k in &chosen {
            let old = &track.keys[k].value;
            let q = &mut keys[k].value;
            if q.iter().zip(old).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
                q.iter_mut().for_each(|x| *x = -*x);
            }
        }
    }
    let result = track.with_other_keys(keys);
    let new_curve = TrackCurve::new(&result)?;
    let max_difference = max_difference(&curve, &new_curve);
    Ok(Smoothed { keys: result.keys.len(), track: result, rate, resampled, max_difference, selected: Some(chosen.len()) })
}

/// Each quaternion (4 components at a time) negated where its dot product with the one
/// before (as left by this pass) is negative.
fn hemisphere_continuous(values: &mut [f64]) {
    for i in 1..values.len() / 4 {
        let (before, after) = values.split_at_mut(i * 4);
        let prev = &before[(i - 1) * 4..];
        let q = &mut after[..4];
        if prev.iter().zip(q.iter()).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
            q.iter_mut().for_each(|x| *x = -*x);
        }
    }
}

/// The largest difference between two curves over the keyed range (see the module doc):
/// Euclidean distance of values, or degrees between rotations for Quat and Euler curves.
#[must_use]
pub fn max_difference(old: &TrackCurve, new: &TrackCurve) -> f64 {
    let cuts = old.key_times_with(new);
    let rotation = old.kind().is_rotation();
    let linear = !rotation && old.interpolation() == Interpolation::Linear && new.interpolation() == Interpolation::Linear;
    let points = if linear { 1 } else { MEASURE_POINTS };
    let (mut co, mut cn) = (SegmentCursor::new(), SegmentCursor::new());
    let (mut a, mut b) = (vec![0.0; old.dim()], vec![0.0; new.dim()]);
    let mut difference = |t: f64| -> f64 {
        if rotation {
            let qa = old.rotation_at(&mut co, t, &mut a).unwrap_or(crate::quat::IDENTITY);
            let qb = new.rotation_at(&mut cn, t, &mut b).unwrap_or(crate::quat::IDENTITY);
            crate::reduce::rotation::angle_deg(&qa, &qb)
        } else {
            old.sample(&mut co, t, &mut a);
            new.sample(&mut cn, t, &mut b);
            a.iter().zip(&b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
        }
    };
    let mut worst: f64 = 0.0;
    for w in cuts.windows(2) {
        for i in 0..points {
            worst = worst.max(difference(w[0] + (w[1] - w[0]) * i as f64 / points as f64));
        }
    }
    if let Some(&t) = cuts.last() {
        worst = worst.max(difference(t));
    }
    worst
}

/// [`smooth_track`] on the tracks `which` of `tracks`, in parallel (rayon), in that order.
#[must_use]
pub fn smooth_tracks(tracks: &[Track], which: &[usize], filter: &Filter) -> Vec<Result<Smoothed, SmoothError>> {
    which.par_iter().map(|&i| smooth_track(&tracks[i], filter)).collect()
}

#[cfg(test)]
#[path = "smooth_tests.rs"]
mod tests;
