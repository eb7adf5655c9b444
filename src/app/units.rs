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

#[cfg(test)]
mod tests {
    use super::*;

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
