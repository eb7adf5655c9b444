//! Typed errors. Every message names what the user must fix: the track, the key, the field,
//! or the line and column of a file.
//!
//! A message states its cause in full, once: errors that wrap another print it in their own
//! text and do not also report it as `source()`, so a printed chain (`{:#}`) never repeats
//! it.

use crate::model::{HandleType, Infinity, Interpolation, TrackKind};
use thiserror::Error;

/// Why a track cannot be evaluated as it stands.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum TrackError {
    #[error("track \"{track}\" has no keys")]
    NoKeys { track: String },
    #[error("track \"{track}\": {interpolation:?} interpolation does not apply to {kind:?} values")]
    KindMismatch { track: String, kind: TrackKind, interpolation: Interpolation },
    #[error("track \"{track}\": {mode:?} infinity is not allowed on {kind:?} tracks (use Constant, Cycle or PingPong)")]
    InfinityMismatch { track: String, kind: TrackKind, mode: Infinity },
    #[error("track \"{track}\", key {key}: {field} is {value}, which is not a finite number")]
    NonFinite { track: String, key: usize, field: &'static str, value: f64 },
    #[error("track \"{track}\", key {key}: value has {got} components, a {kind:?} track needs {expected}")]
    WrongLength { track: String, key: usize, kind: TrackKind, expected: usize, got: usize },
    #[error("track \"{track}\", key {key}: time {time} is before the previous key's time {previous}; keys must be in time order")]
    OutOfOrder { track: String, key: usize, time: f64, previous: f64 },
    #[error("track \"{track}\", key {key}: {field} is {value}, outside [{min}, {max}]")]
    OutOfRange { track: String, key: usize, field: &'static str, value: f64, min: f64, max: f64 },
    #[error("track \"{track}\", key {key}: the quaternion is zero and has no rotation")]
    ZeroQuaternion { track: String, key: usize },
    #[error("track \"{track}\", key {key}: the {side} handle is {kind:?}, so it needs a stored (dt, dv) per component")]
    MissingHandle { track: String, key: usize, side: &'static str, kind: HandleType },
    #[error("track \"{track}\", key {key}: the {side} handles have {got} components, the track needs {expected}")]
    HandleLength { track: String, key: usize, side: &'static str, expected: usize, got: usize },
    #[error("track \"{track}\", keys {key} and {next}: the curve's {what} would overflow (values too large, or too large for the time between the keys); use smaller values or keys further apart", next = key + 1)]
    Overflow { track: String, key: usize, what: &'static str },
}

/// Why a project file could not be read or written.
#[derive(Debug, Error)]
pub enum FileError {
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{path}:{line}:{column}: {message}")]
    Syntax { path: String, line: usize, column: usize, message: String },
    #[error("{path}: file version {found} is newer than this program understands ({supported})")]
    Version { path: String, found: u32, supported: u32 },
    #[error("{path}: {error}")]
    Invalid { path: String, error: ProjectError },
    #[error("{path}: could not write the project: {message}")]
    Serialize { path: String, message: String },
}

/// Why a project as a whole is not valid.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ProjectError {
    #[error(transparent)]
    Track(#[from] TrackError),
    #[error("two tracks are called \"{0}\"; track names must be unique")]
    DuplicateName(String),
    #[error("fps is {0}; it must be a positive finite number")]
    BadFps(f64),
}
