//! Validation of a track against SPEC §1: the checks every compiled curve and every edit
//! pass, so that evaluation never fails and never produces NaN from finite keys.

use crate::error::TrackError;
use crate::model::{Columns, HandleType, Interpolation, Key, Track, TrackKind};

/// The largest `|back|` a key may have: beyond it Back's overshoot (about `0.1·back` of the
/// change) dwarfs any animation, and values could overflow.
pub const MAX_BACK: f64 = 1e6;
/// The largest `|amplitude|` (Elastic's swing, in value units).
pub const MAX_AMPLITUDE: f64 = 1e12;
/// The largest `|period|` in seconds.
pub const MAX_PERIOD: f64 = 1e9;

/// Checks a track against SPEC §1: at least one key, kind and modes compatible, finite
/// numbers, values of the right length, times in order, TCB and ease in range, no zero
/// quaternion; on Bezier tracks, handles of the right length, finite, and present where a
/// side is Free or Aligned.
pub fn validate(track: &Track) -> Result<(), TrackError> {
    let name = || track.name.clone();
    if !track.interpolation.supports(track.kind) {
        return Err(TrackError::KindMismatch { track: name(), kind: track.kind, interpolation: track.interpolation });
    }
    for mode in [track.pre_infinity, track.post_infinity] {
        if !mode.supports(track.kind) {
            return Err(TrackError::InfinityMismatch { track: name(), kind: track.kind, mode });
        }
    }
    validate_keys(track, 0..track.keys.len())
}

/// [`validate`] of keys `range` only, and of their order with the keys on either side: what a
/// splice of a valid track needs checked (`Edit::SpliceKeys`), at the cost of the keys
/// replaced. Also refuses a track left with no keys.
pub fn validate_keys(track: &Track, range: std::ops::Range<usize>) -> Result<(), TrackError> {
    if track.keys.is_empty() {
        return Err(TrackError::NoKeys { track: track.name.clone() });
    }
    let dim = track.kind.dim();
    let end = (range.end + 1).min(track.keys.len());
    if let Some(c) = track.keys.columns() {
        return validate_columns(track, c, range.start..end);
    }
    let mut previous = range.start.checked_sub(1).map_or(f64::NEG_INFINITY, |p| track.keys.time(p));
    for i in range.start..end {
        let key = &track.keys[i];
        validate_key(track, i, key, dim)?;
        if track.interpolation == Interpolation::Bezier {
            validate_handles(track, i, key, dim)?;
        }
        if key.time < previous {
            return Err(TrackError::OutOfOrder { track: track.name.clone(), key: i, time: key.time, previous });
        }
        previous = key.time;
    }
    Ok(())
}

/// [`validate_keys`] of keys `range` held as columns: plain keys, whose TCB, ease, handles
/// and segment settings are the defaults and need no check.
fn validate_columns(track: &Track, c: &Columns, range: std::ops::Range<usize>) -> Result<(), TrackError> {
    let name = || track.name.clone();
    let dim = track.kind.dim();
    if c.dim != dim {
        return Err(TrackError::WrongLength { track: name(), key: range.start, kind: track.kind, expected: dim, got: c.dim });
    }
    let mut previous = range.start.checked_sub(1).map_or(f64::NEG_INFINITY, |p| c.times[p]);
    for i in range {
        let time = c.times[i];
        if !time.is_finite() {
            return Err(TrackError::NonFinite { track: name(), key: i, field: "time", value: time });
        }
        let value = c.value(i);
        if let Some(&v) = value.iter().find(|v| !v.is_finite()) {
            return Err(TrackError::NonFinite { track: name(), key: i, field: "value", value: v });
        }
        if track.kind == TrackKind::Quat && value.iter().map(|x| x * x).sum::<f64>() == 0.0 {
            return Err(TrackError::ZeroQuaternion { track: name(), key: i });
        }
        if time < previous {
            return Err(TrackError::OutOfOrder { track: name(), key: i, time, previous });
        }
        previous = time;
    }
    Ok(())
}

fn validate_key(track: &Track, i: usize, key: &Key, dim: usize) -> Result<(), TrackError> {
    let name = || track.name.clone();
    let finite = |field: &'static str, value: f64| {
        if value.is_finite() {
            Ok(())
        } else {
            Err(TrackError::NonFinite { track: name(), key: i, field, value })
        }
    };
    finite("time", key.time)?;
    if key.value.len() != dim {
        return Err(TrackError::WrongLength { track: name(), key: i, kind: track.kind, expected: dim, got: key.value.len() });
    }
    for &v in &key.value {
        finite("value", v)?;
    }
    let ranges: [(&'static str, f64, f64, f64); 5] = [
        ("tension", key.tension, -1.0, 1.0),
        ("continuity", key.continuity, -1.0, 1.0),
        ("bias", key.bias, -1.0, 1.0),
        ("ease_to", key.ease_to, 0.0, 1.0),
        ("ease_from", key.ease_from, 0.0, 1.0),
    ];
    for (field, value, min, max) in ranges {
        finite(field, value)?;
        if !(min..=max).contains(&value) {
            return Err(TrackError::OutOfRange { track: name(), key: i, field, value, min, max });
        }
    }
    for (field, value, bound) in [("back", key.back, MAX_BACK), ("amplitude", key.amplitude, MAX_AMPLITUDE), ("period", key.period, MAX_PERIOD)] {
        let value = f64::from(value);
        finite(field, value)?;
        if value.abs() > bound {
            return Err(TrackError::OutOfRange { track: name(), key: i, field, value, min: -bound, max: bound });
        }
    }
    if track.kind == TrackKind::Quat {
        let q = &key.value;
        let n2 = q.iter().map(|x| x * x).sum::<f64>();
        if n2 == 0.0 || !n2.is_finite() {
            return Err(TrackError::ZeroQuaternion { track: name(), key: i });
        }
    }
    Ok(())
}

/// A Bezier key's handles: per side, either absent (automatic types only) or one finite
/// `(dt, dv)` per component.
fn validate_handles(track: &Track, i: usize, key: &Key, dim: usize) -> Result<(), TrackError> {
    let sides = [("left", key.handles.0, &key.left), ("right", key.handles.1, &key.right)];
    for (side, kind, handles) in sides {
        if handles.is_empty() {
            if matches!(kind, HandleType::Free | HandleType::Aligned) {
                return Err(TrackError::MissingHandle { track: track.name.clone(), key: i, side, kind });
            }
            continue;
        }
        if handles.len() != dim {
            return Err(TrackError::HandleLength { track: track.name.clone(), key: i, side, expected: dim, got: handles.len() });
        }
        for &(dt, dv) in handles {
            for value in [dt, dv] {
                if !value.is_finite() {
                    return Err(TrackError::NonFinite {
                        track: track.name.clone(),
                        key: i,
                        field: if side == "left" { "left handle" } else { "right handle" },
                        value,
                    });
                }
            }
        }
    }
    Ok(())
}
