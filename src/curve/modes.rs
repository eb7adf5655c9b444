//! One table of interpolation modes: each mode's own module declares what it can do in a
//! [`Mode`] row, and everything that asks reads the row — [`Interpolation::ALL`] (the editor's
//! combo box, fuzzing), which kinds a mode supports, compiling ([`Mode::compile`]), splicing,
//! the finite checks, arc length and speed (`has_derivative`), and export.
//!
//! Adding a mode: a variant in `model::Interpolation`, a module `curve/NEW.rs` with its
//! formulas and its `MODE` row, and that row in `curve::MODES`. The compiler holds the table
//! to it: `MODES` must have one row per variant, in the enum's order (checked below at compile
//! time), and `tests::every_declared_derivative_is_the_derivative` checks each declared
//! velocity and acceleration against the mode's own values. A mode whose per-segment data is
//! new also adds a `Segments` variant in `curve/mod.rs` and its arms there (the compiler
//! lists them).

use super::keys::KeyTable;
use super::{Segments, TrackCurve};
use crate::model::{Interpolation, Track};
use crate::tcb::KeyTangents;

/// The track kinds a mode interpolates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kinds {
    Any,
    /// Scalar and vectors, not rotations.
    Vectors,
    /// Quaternions only.
    Rotations,
}

/// What a mode gives inside a segment besides its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Derivatives {
    /// Piecewise constant: no derivative worth the name (Step).
    None,
    /// A velocity (`segment_velocity`), but no acceleration: not a path for arc length.
    Velocity,
    /// Velocity and acceleration (`segment_acceleration`), continuous inside a segment: arc
    /// length, speed graphs and constant-speed motion work on it.
    Acceleration,
}

/// How far a change of keys reaches when the curve is compiled again (`curve/splice.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Splice {
    /// The whole track is compiled again.
    Whole,
    /// The keys around the change, `splice::CONTEXT` on each side.
    Local,
    /// [`Splice::Local`] unless an end wraps around (three.js `WrapAround` joins the ends).
    LocalUnlessWrapAround,
    /// The mode splices itself (Squad: its sign alignment and fitted polynomials).
    Own,
}

/// The keyframe form a mode is written as without baking, where the format has one
/// (`export::exact_form` adds each format's conditions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Step keys (glTF STEP, three.js Discrete).
    Step,
    /// Linear keys (glTF LINEAR: slerp for rotations; three.js Linear).
    Linear,
    /// Cubic keys with tangents (glTF CUBICSPLINE, three.js Smooth or InterpolateBezier).
    Cubic,
    /// No keyframe form plays it: baked.
    Baked,
}

/// What a mode compiles to: its per-segment data, and TCB's tangents.
pub(super) type Compiled = (Segments, Option<KeyTangents>);

/// A mode's row: what it is called, what it supports and gives, and how it compiles.
pub struct Mode {
    pub interpolation: Interpolation,
    /// One line for menus and tooltips.
    pub summary: &'static str,
    pub kinds: Kinds,
    pub derivatives: Derivatives,
    /// Whether its compiled coefficients can overflow to ±∞ from finite keys (the compile
    /// then checks them: `curve/finite.rs`).
    pub may_overflow: bool,
    pub splice: Splice,
    pub written: Written,
    /// Compiles `track` (its keys in `keys`, quaternions normalised); `previous` is the curve
    /// before an edit, for what the mode can reuse.
    pub(super) compile: fn(track: &Track, keys: &mut KeyTable, previous: Option<&TrackCurve>) -> Compiled,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Key, TrackKind};
    use crate::SegmentCursor;

    /// A track of `mode` over `kind` with keys at uneven times and varied values.
    fn track(mode: Interpolation, kind: TrackKind) -> Track {
        let keys = (0..7).map(|i| {
            let t = f64::from(i) * 0.4 + 0.1 * f64::from(i * i % 3);
            let v: Vec<f64> = (0..kind.dim()).map(|c| (f64::from(i) * 0.9 + f64::from(c as u8)).sin() + 0.2 * f64::from(c as u8)).collect();
            Key::new(t, v)
        });
        Track::new("m", kind, mode).with_keys(keys.collect())
    }

    /// Every mode's declared derivatives are its value's derivatives: a velocity within 1e-6 of
    /// the central difference of values, an acceleration within 1e-5 of the central difference
    /// of velocities, at interior points of every segment. A mode that declares what it does
    /// not give (an acceleration left at zero, say) fails here.
    #[test]
    fn every_declared_derivative_is_the_derivative() {
        let mut checked = [0usize; 2];
        for mode in Interpolation::ALL {
            for kind in [TrackKind::Scalar, TrackKind::Vec3, TrackKind::Quat] {
                if !mode.supports(kind) || mode.mode().derivatives == Derivatives::None {
                    continue;
                }
                let curve = TrackCurve::new(&track(mode, kind)).unwrap();
                let dim = kind.dim();
                let (mut a, mut b, mut v, mut acc) = (vec![0.0; dim], vec![0.0; dim], vec![0.0; dim], vec![0.0; dim]);
                for seg in 0..curve.segment_count() {
                    let (t0, dt) = curve.keys.span(seg);
                    for u in [0.3, 0.55, 0.8] {
                        let (t, h) = (t0 + u * dt, 1e-6);
                        let mut cursor = SegmentCursor::new();
                        curve.sample(&mut cursor, t + h, &mut a);
                        curve.sample(&mut cursor, t - h, &mut b);
                        curve.segment_velocity(seg, u, &mut v);
                        for c in 0..dim {
                            let d = (a[c] - b[c]) / (2.0 * h);
                            assert!((v[c] - d).abs() <= 1e-6 * (1.0 + d.abs()), "{mode:?} {kind:?} velocity seg {seg} u {u}: {} vs {d}", v[c]);
                        }
                        checked[0] += 1;
                        if mode.mode().derivatives == Derivatives::Acceleration && kind != TrackKind::Quat {
                            let hu = h / dt;
                            curve.segment_velocity(seg, u + hu, &mut a);
                            curve.segment_velocity(seg, u - hu, &mut b);
                            curve.segment_acceleration(seg, u, &mut acc);
                            for c in 0..dim {
                                let d = (a[c] - b[c]) / (2.0 * h);
                                assert!((acc[c] - d).abs() <= 1e-5 * (1.0 + d.abs()), "{mode:?} {kind:?} acceleration seg {seg} u {u}: {} vs {d}", acc[c]);
                            }
                            checked[1] += 1;
                        }
                    }
                }
            }
        }
        // 6 segments × 3 points per (mode, kind): at least the velocities of Linear, Cubic,
        // Tcb, Bezier on Scalar and Vec3, Slerp, Nlerp, Squad and Bezier on Quat, and the
        // accelerations of the four vector modes on two kinds (a new mode adds to them).
        assert!(checked[0] >= 18 * 12 && checked[1] >= 18 * 8, "cases checked (velocity, acceleration): {checked:?}");
    }

    #[test]
    fn the_table_lists_every_mode_once_in_order() {
        assert_eq!(Interpolation::ALL.len(), <Interpolation as strum::EnumCount>::COUNT);
        for (i, m) in Interpolation::ALL.into_iter().enumerate() {
            assert_eq!(m as usize, i);
            assert_eq!(m.mode().interpolation, m);
        }
        // What each mode declared before the table (`supports`, `has_derivative` in model.rs),
        // unchanged: (mode, a path for arc length, interpolates quaternions, vectors).
        use Interpolation::*;
        let before = [
            (Step, false, true, true),
            (Linear, true, false, true),
            (Cubic, true, false, true),
            (Tcb, true, false, true),
            (Slerp, false, true, false),
            (Nlerp, false, true, false),
            (Squad, false, true, false),
            (Bezier, true, true, true),
        ];
        for (m, path, quat, vectors) in before {
            assert_eq!((m.has_derivative(), m.supports(TrackKind::Quat), m.supports(TrackKind::Vec3)), (path, quat, vectors), "{m:?}");
        }
    }
}
