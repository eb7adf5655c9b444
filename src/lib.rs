//! # Tangent — the keyframe engine
//!
//! Everything the editor and the command line compute, with no GUI in it:
//!
//! - [`model`]: projects, tracks and keys as saved in `.ron` files (SPEC §1, §8);
//! - [`curve`]: a validated track compiled for evaluation — Step, Linear, three.js Cubic,
//!   Kochanek–Bartels (TCB) with ease, Slerp, Nlerp and Squad (SPEC §2–5);
//! - [`search`]: the cached segment search that makes playback O(1) per sample;
//! - [`tcb`], [`quat`]: the formulas, each documented where it is defined;
//! - [`edit`]: undoable edits and the document history the editor works through;
//! - [`io`]: loading (with line/column errors) and atomic saving of project files;
//! - [`arclen`]: arc-length tables and constant-speed motion (SPEC §6);
//! - [`clock`]: the playback mixer with time scale, warp, halt and loops (SPEC §7);
//! - [`analysis`]: what the editor plots (speed series, angular speed, hemisphere flips);
//! - [`body`]: forward kinematics of a project's skeleton and changes measured on the body (SPEC §14).
//!
//! With the `gui` feature (on by default), `app` is the editor itself, built on egui.
//!
//! # Usage
//!
//! ```
//! use tangent::{io::demo_project, SegmentCursor, TrackCurve};
//!
//! let project = demo_project();
//! let curve = TrackCurve::new(project.track("path").unwrap()).unwrap();
//! let mut cursor = SegmentCursor::new(); // one per playhead: O(1) sequential playback
//! let mut value = [0.0; 2];
//! curve.sample(&mut cursor, 0.6, &mut value);
//! assert_eq!(value, [-2.0, 2.0]); // the curve passes through its keys
//!
//! // The incoming (ra) and outgoing (rb) TCB tangents of key 1, per unit of segment time.
//! let (ra, rb) = (curve.incoming_tangent(1).unwrap(), curve.outgoing_tangent(1).unwrap());
//! assert!(ra.iter().chain(rb).all(|x| x.is_finite()));
//! ```

pub mod analysis;
#[cfg(feature = "gui")]
pub mod app;
pub mod arclen;
pub mod bake;
pub mod bezier;
pub mod blend;
pub mod body;
pub mod clock;
pub mod convert;
pub mod curve;
pub mod easing;
pub mod edit;
pub mod error;
pub mod euler;
pub mod euler_tracks;
pub mod export;
pub mod format;
#[doc(hidden)]
pub mod fuzzing;
pub mod handles;
pub mod import;
pub mod model;
pub mod player;
pub mod problems;
pub mod project;
pub mod quat;
pub mod reduce;
pub mod retime;
pub mod runtime;
pub mod search;
pub mod skeleton;
pub mod smooth;
pub mod tcb;
pub mod trig;

pub use arclen::{ArcLengthTable, ConstantSpeed};
pub use curve::{Evaluator, PathCurve, PathError, SegmentSpeed, TrackCurve};
pub use edit::{Document, Edit, EditError};
pub use error::{FileError, ProjectError, TrackError};
pub use model::{Binding, Ending, HandleType, Infinity, Interpolation, Key, Keys, Project, Rgb, TangentMode, Track, TrackHeader, TrackKind};
/// Project files, at the paths every caller uses (`tangent::io`, …); they live in `project/`.
pub use project::{io, open, ron_keys, ron_split, ron_write};
pub use search::{Located, SegmentCursor};

/// The accuracy used where none is given: the error bound of arc-length tables (length
/// units) and of adaptive baking, as kurbo's `DEFAULT_ACCURACY`.
pub const DEFAULT_ACCURACY: f64 = 1e-6;

/// Frames per second of a project that does not say (SPEC §8), and so of snapping and of
/// baking when no rate is given.
pub const DEFAULT_FPS: f64 = 60.0;
