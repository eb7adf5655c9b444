//! Typed errors. Every message names what the user must fix: the track, the key, the field,
//! or the line and column of a file.
//!
//! A message states its cause in full, once: errors that wrap another print it in their own
//! text and do not also report it as `source()`, so a printed chain (`{:#}`) never repeats
//! it.
//!
//! A name the file format does not know (a field, or a mode) is answered with the nearest one
//! it does ([`nearest_name`]), when one is close.

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
    /// A field the file format does not have (a misspelling would otherwise load silently as
    /// the field's default): where it is, in what (`a key`, `a track`, `the project`, …), the
    /// known field nearest to it if one is close, else the fields there are.
    #[error("{path}:{line}:{column}: unknown field `{field}` in {place}; {}", unknown_hint(*suggestion, expected))]
    UnknownField {
        path: String,
        line: usize,
        column: usize,
        field: String,
        place: &'static str,
        suggestion: Option<&'static str>,
        expected: &'static [&'static str],
    },
}

/// `did you mean `tension`?`, or the list of the fields there are.
fn unknown_hint(suggestion: Option<&str>, expected: &[&str]) -> String {
    match suggestion {
        Some(s) => format!("did you mean `{s}`?"),
        None if expected.is_empty() => "it has no fields".to_owned(),
        None => format!("the fields there are {}", expected.iter().map(|e| format!("`{e}`")).collect::<Vec<_>>().join(", ")),
    }
}

/// The name in `known` nearest to `found` if it is close enough to be what was meant: at most
/// two edits (a transposition is one, case is ignored) and at most one per three characters of
/// `found`, one edit always allowed. The first of equally near names wins.
#[must_use]
pub fn nearest_name<'a>(found: &str, known: &[&'a str]) -> Option<&'a str> {
    let limit = (found.chars().count() / 3).clamp(1, 2);
    let found = found.to_lowercase();
    known.iter().map(|k| (edit_distance(&found, &k.to_lowercase()), *k)).filter(|(d, _)| *d <= limit).min_by_key(|(d, _)| *d).map(|(_, k)| k)
}

/// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`: the
/// Levenshtein distance with transpositions (optimal string alignment), by characters.
#[must_use]
pub fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rows of the table: i - 2, i - 1 and i.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (previous[j] + 1).min(row[j - 1] + 1).min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut previous, row);
    }
    previous[b.len()]
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
    #[error("skeleton: {0}")]
    Skeleton(#[from] crate::skeleton::SkeletonError),
    /// The export settings' frame rate or bound (`bake::RateError`'s message: this module
    /// names no module above it).
    #[error("export settings: {0}")]
    Export(String),
}
