//! The Export window's settings as a project keeps them (`Project::export`, file version 6):
//! format, frame rate, every frame or adaptive within a bound, linear keys, the runtime the
//! file is made for, constant speed and where each track goes. Plain data; the editor turns
//! them into `export::ExportOptions` (`app/runtime_preview.rs`). A project saved without
//! them has no `export` field and is written as before.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::bake::{Bound, Fps, RateError};
use crate::export::{Format, Target};
use crate::runtime::Runtime;

/// The rotation bound a project's adaptive export starts with, in degrees (`tangent bake
/// --angle`'s default).
pub const DEFAULT_ANGLE_DEG: f64 = 0.01;

/// What File > Export… writes (and View > Preview runtime plays). A field left out of the
/// file takes its default; an unknown one is refused, as everywhere in the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExportSettings {
    pub format: Format,
    /// Frames per second of baked tracks.
    pub fps: f64,
    /// The fewest keys within `bound` instead of one per frame.
    pub adaptive: bool,
    /// Adaptive export's error bound: file units for Scalar and vector tracks (and, where
    /// [`Self::angle_deg`] is not given, radians for rotations, as files written before it
    /// mean).
    pub bound: f64,
    /// Adaptive export's bound on rotation tracks (Quat and Euler): the angle in degrees
    /// between the curve and what is written (`ExportOptions::adaptive_angle_deg`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angle_deg: Option<f64>,
    /// Adaptive: linear keys instead of fitted Bézier keys.
    pub adaptive_linear: bool,
    pub constant_speed: bool,
    /// Who the file is made for (`--runtime`).
    pub runtime: Runtime,
    /// Where a track goes, by name, where the user chose (`--map`); the others go to their
    /// default ([`Target::for_track`]).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub targets: BTreeMap<String, Target>,
}

impl Default for ExportSettings {
    fn default() -> Self {
        Self::at_fps(crate::DEFAULT_FPS)
    }
}

impl ExportSettings {
    /// The settings a project at `fps` starts with: GLB at its own frame rate, every frame,
    /// for the glTF specification.
    #[must_use]
    pub fn at_fps(fps: f64) -> Self {
        Self {
            format: Format::Glb,
            fps,
            adaptive: false,
            bound: crate::DEFAULT_ACCURACY,
            angle_deg: Some(DEFAULT_ANGLE_DEG),
            adaptive_linear: false,
            constant_speed: false,
            runtime: Runtime::Spec,
            targets: BTreeMap::new(),
        }
    }

    /// Refuses a frame rate or bound an export could not use (checked when a file loads).
    ///
    /// # Errors
    /// The frame rate or bound is not a positive finite number.
    pub fn check(&self) -> Result<(), RateError> {
        Fps::new(self.fps)?;
        Bound::new(self.bound)?;
        if let Some(a) = self.angle_deg {
            Bound::new(a)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::{demo_project, parse_project, project_to_string};
    use crate::model::Project;

    /// Kept settings are written with version 6 and read back equal; a project without them
    /// is written as before (no field, its old version); a bad rate or an unknown field is
    /// refused on load, named.
    #[test]
    fn export_settings_are_saved_with_version_6_and_checked_on_load() {
        let plain = demo_project();
        let text = project_to_string(&plain).unwrap();
        assert!(!text.contains("export"), "{text}");
        assert!(plain.required_version() < 6);
        let mut kept = plain.clone();
        let mut settings = ExportSettings::at_fps(120.0);
        settings.runtime = Runtime::Blender34;
        settings.targets.insert("camera".into(), Target::Skip);
        kept.export = Some(settings.clone());
        assert_eq!(kept.required_version(), 6);
        let text = project_to_string(&kept).unwrap();
        assert!(text.contains("version: 6"), "{text}");
        let back = parse_project(&text, "kept").unwrap();
        assert_eq!(back.export, Some(settings));
        // Written back without them, the file is the plain one again.
        assert_eq!(project_to_string(&Project { export: None, ..back }).unwrap(), project_to_string(&plain).unwrap());

        let bad = text.replace("fps: 120.0", "fps: -1.0");
        assert_ne!(bad, text, "the export's fps is in the text: {text}");
        let e = parse_project(&bad, "bad").unwrap_err().to_string();
        assert!(e.contains("export settings: the frame rate must be a positive number"), "{e}");
        let e = parse_project(&text.replace("adaptive_linear:", "adaptive_lineer:"), "typo").unwrap_err().to_string();
        assert!(e.contains("unknown field `adaptive_lineer` in the export settings") && e.contains("adaptive_linear"), "{e}");
    }

    /// The rotation bound is kept as an angle in degrees; settings written without one keep
    /// their meaning (E bounds rotations in radians), and an angle that is not a positive
    /// finite number is refused.
    #[test]
    fn the_rotation_angle_is_kept_and_a_file_without_it_keeps_its_meaning() {
        let mut kept = demo_project();
        let mut settings = ExportSettings::at_fps(30.0);
        settings.adaptive = true;
        settings.angle_deg = Some(0.5);
        kept.export = Some(settings);
        let text = project_to_string(&kept).unwrap();
        assert!(text.contains("angle_deg: Some(0.5)"), "{text}");
        let back = parse_project(&text, "kept").unwrap();
        assert_eq!(back.export.as_ref().unwrap().angle_deg, Some(0.5));
        let without = parse_project(&text.replace("angle_deg: Some(0.5),", ""), "older").unwrap();
        assert_eq!(without.export.as_ref().unwrap().angle_deg, None, "no angle: E in radians, as before");
        let e = parse_project(&text.replace("angle_deg: Some(0.5)", "angle_deg: Some(-2.0)"), "bad").unwrap_err().to_string();
        assert!(e.contains("export settings"), "{e}");
    }
}
