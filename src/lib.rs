//! # Tangent — the keyframe engine
//!
//! Everything the editor and the command line compute, with no GUI in it:
//!
//! - [`model`]: projects, tracks and keys as saved in `.ron` files (SPEC §1, §8);
//! - [`curve`]: a validated track compiled for evaluation — Step, Linear, three.js Cubic,
//!   Kochanek–Bartels (TCB) with ease, Slerp, Nlerp and Squad (SPEC §2–5);
//! - [`search`]: the cached segment search that makes playback O(1) per sample;
//! - [`tcb`], [`quat`]: the formulas, each documented where it is defined;
//! - [`io`]: loading (with line/column errors) and atomic saving of project files.

pub mod arclen;
pub mod clock;
pub mod curve;
pub mod error;
pub mod io;
pub mod model;
pub mod quat;
pub mod search;
pub mod tcb;

pub use arclen::{ArcLengthTable, ConstantSpeed};
pub use curve::{Evaluator, SegmentSpeed, TrackCurve};
pub use error::{FileError, ProjectError, TrackError};
pub use model::{Ending, Infinity, Interpolation, Key, Project, TangentMode, Track, TrackKind};
pub use search::SegmentCursor;
