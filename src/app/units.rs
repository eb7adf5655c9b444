//! The one display-scale rule: how a track's stored values are shown and typed. An Euler
//! track keeps radians in the file (SPEC §13) and is shown in degrees everywhere a user reads
//! or types a value — the graph's curves, keys and handles, box select, snapping, the
//! inspector's fields, the status line — as Blender shows rotation curves; every other kind
//! is shown as stored. Each place that turns a value into something shown (or back) asks
//! [`display_scale`], so no tool converts on its own. Copy, paste and undo work on stored
//! values and need nothing.
//!
//! Below everything that shows values (plain functions of the track kind, no egui).

use super::style::fmt_vec;
use crate::TrackKind;

/// Degrees per radian.
pub const DEG_PER_RAD: f64 = 180.0 / std::f64::consts::PI;

/// Shown units per stored unit of `kind`'s values: `180/π` for Euler angles (shown in
/// degrees), 1 otherwise.
#[must_use]
pub fn display_scale(kind: TrackKind) -> f64 {
    match kind {
        TrackKind::Euler => DEG_PER_RAD,
        _ => 1.0,
    }
}

/// The unit `kind`'s values are shown in, if they have one (`"deg"` for Euler angles).
#[must_use]
pub fn unit(kind: TrackKind) -> Option<&'static str> {
    (kind == TrackKind::Euler).then_some("deg")
}

/// A stored value of `kind` as it is shown.
#[must_use]
pub fn shown(kind: TrackKind, stored: f64) -> f64 {
    stored * display_scale(kind)
}

/// A shown (typed) value of `kind` as it is stored.
#[must_use]
pub fn stored(kind: TrackKind, shown: f64) -> f64 {
    shown / display_scale(kind)
}

/// Stored `values` of `kind` as the status line and the graph's labels show them: `3.000`,
/// `(0.000, 1.000)`, `(90.000, 0.000, 45.000) deg`.
#[must_use]
pub fn fmt_shown(kind: TrackKind, values: &[f64]) -> String {
    let scale = display_scale(kind);
    let text = fmt_vec(&values.iter().map(|v| v * scale).collect::<Vec<f64>>());
    match unit(kind) {
        Some(u) => format!("{text} {u}"),
        None => text,
    }
}

/// What plain values (and a bound on them) are measured in where no unit is known: the file's.
pub const FILE_UNITS: &str = "file units";

/// The unit a measured difference (an error, a distance) comes in from the engine: plain
/// values in the file's units, rotations as an angle in radians (an Euler track's stored
/// angles, export and runtime distances) or in degrees (Quat reduction, smoothing, retiming).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measured {
    FileUnits,
    Radians,
    Degrees,
}

impl Measured {
    /// A difference of a `kind` track whose rotations come as angles in `angle` (radians or
    /// degrees); other kinds are in file units.
    #[must_use]
    pub fn of(kind: TrackKind, angle: Self) -> Self {
        if kind.is_rotation() {
            angle
        } else {
            Self::FileUnits
        }
    }

    /// The figure as shown and its unit: angles in degrees (`deg`), the rest in file units.
    #[must_use]
    pub fn shown(self, value: f64) -> (f64, &'static str) {
        match self {
            Self::FileUnits => (value, FILE_UNITS),
            Self::Radians => (value * DEG_PER_RAD, "deg"),
            Self::Degrees => (value, "deg"),
        }
    }
}

/// The unit of a reduction's error (Simplify, `reduce::ReduceResult::max_error`) on a `kind`
/// track: a rotation's (Quat or Euler) angle in degrees, other values in file units.
#[must_use]
pub fn reduction(kind: TrackKind) -> Measured {
    // Rotations, Quat and Euler alike, are reduced within an angle and measured as one, in
    // degrees (`reduce::Reduced::is_angle`).
    if kind.is_rotation() {
        Measured::Degrees
    } else {
        Measured::FileUnits
    }
}

/// A measured difference with its unit, `digits` after the point in scientific notation:
/// `1.20e-3 file units`, `5.73e-2 deg` (0.001 rad).
#[must_use]
pub fn fmt_measured(value: f64, unit: Measured, digits: usize) -> String {
    let (v, u) = unit.shown(value);
    format!("{v:.digits$e} {u}")
}

/// The largest of several differences, kept per shown unit (values and angles do not
/// compare): `1.20e-3 file units, 5.73e-2 deg`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Largest {
    values: Option<f64>,
    degrees: Option<f64>,
}

impl Largest {
    pub fn add(&mut self, value: f64, unit: Measured) {
        let (v, _) = unit.shown(value);
        let slot = if unit == Measured::FileUnits { &mut self.values } else { &mut self.degrees };
        *slot = Some(slot.map_or(v, |w| w.max(v)));
    }

    /// Each unit's largest, values first (`0 file units` when nothing was added).
    #[must_use]
    pub fn text(&self, digits: usize) -> String {
        let parts: Vec<String> = [(self.values, Measured::FileUnits), (self.degrees, Measured::Degrees)]
            .into_iter()
            .filter_map(|(v, unit)| v.map(|v| fmt_measured(v, unit, digits)))
            .collect();
        if parts.is_empty() {
            format!("0 {FILE_UNITS}")
        } else {
            parts.join(", ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-checked: 0.001 rad is 5.73e-2 deg; a Quat's degrees stay; values are file units;
    /// the largest is kept per unit.
    #[test]
    fn measured_differences_carry_their_unit() {
        assert_eq!(fmt_measured(0.001, Measured::of(TrackKind::Euler, Measured::Radians), 2), "5.73e-2 deg");
        assert_eq!(fmt_measured(0.5, Measured::of(TrackKind::Quat, Measured::Degrees), 2), "5.00e-1 deg");
        assert_eq!(fmt_measured(0.0012, Measured::of(TrackKind::Vec3, Measured::Radians), 2), "1.20e-3 file units");
        let mut largest = Largest::default();
        assert_eq!(largest.text(2), "0 file units");
        largest.add(0.002, Measured::FileUnits);
        largest.add(0.001, Measured::FileUnits);
        largest.add(0.01, Measured::Radians);
        largest.add(0.1, Measured::Degrees);
        assert_eq!(largest.text(2), "2.00e-3 file units, 5.73e-1 deg");
    }

    /// Hand-checked: π/2 rad is shown as 90, 45 typed is π/4 stored; other kinds as they are.
    #[test]
    fn euler_values_are_shown_in_degrees_and_nothing_else_is_scaled() {
        assert_eq!(shown(TrackKind::Euler, std::f64::consts::FRAC_PI_2), 90.0);
        assert!((stored(TrackKind::Euler, 45.0) - std::f64::consts::FRAC_PI_4).abs() < 1e-15);
        for kind in TrackKind::ALL.into_iter().filter(|k| *k != TrackKind::Euler) {
            assert_eq!(display_scale(kind), 1.0, "{kind:?}");
            assert_eq!(unit(kind), None);
        }
        assert_eq!(fmt_shown(TrackKind::Euler, &[std::f64::consts::PI, 0.0, -std::f64::consts::FRAC_PI_2]), "(180.000, 0.000, -90.000) deg");
        assert_eq!(fmt_shown(TrackKind::Scalar, &[3.0]), "3.000");
    }
}
