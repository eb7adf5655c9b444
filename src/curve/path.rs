//! Paths: the curves that arc length, constant-speed motion and constant-speed baking apply
//! to — Vec2 or Vec3 tracks whose interpolation has a derivative. [`PathCurve`] can only be
//! built from such a curve, so the test is made once, here.

use thiserror::Error;

use super::TrackCurve;
use crate::model::{Interpolation, TrackKind};

/// Why a track is not a path.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PathError {
    #[error("a path must be a Vec2 or Vec3 track, this one is {0:?}")]
    Kind(TrackKind),
    #[error("a path needs an interpolation with a derivative (Linear, Cubic or Tcb), this one is {0:?}")]
    Interpolation(Interpolation),
}

/// A compiled Vec2/Vec3 curve with a derivative.
#[derive(Clone, Copy, Debug)]
pub struct PathCurve<'a> {
    curve: &'a TrackCurve,
}

impl<'a> PathCurve<'a> {
    /// `curve` as a path, or why it is not one.
    pub fn new(curve: &'a TrackCurve) -> Result<Self, PathError> {
        Self::check(curve.kind(), curve.interpolation())?;
        Ok(Self { curve })
    }

    /// Whether a track of this kind and interpolation is a path (for tracks not compiled yet).
    pub fn check(kind: TrackKind, interpolation: Interpolation) -> Result<(), PathError> {
        if !matches!(kind, TrackKind::Vec2 | TrackKind::Vec3) {
            return Err(PathError::Kind(kind));
        }
        if !interpolation.has_derivative() {
            return Err(PathError::Interpolation(interpolation));
        }
        Ok(())
    }

    /// The curve.
    #[must_use]
    pub fn curve(&self) -> &'a TrackCurve {
        self.curve
    }
}

impl std::ops::Deref for PathCurve<'_> {
    type Target = TrackCurve;
    fn deref(&self) -> &TrackCurve {
        self.curve
    }
}
