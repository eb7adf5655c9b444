//! What an export writes, in the words both `export` and `runtime` use: the file's
//! [`Format`], where a track goes in it ([`Target`]) and how its keys are written ([`Form`]).
//! Below both, so the runtime models (which read a file's keys by their form) do not import
//! the export that uses them; `export` re-exports all three, and [`Target::for_track`] (the
//! target of an imported track's binding) stays in `export`.

use clap::ValueEnum;
use serde::{Deserialize, Serialize};

use crate::model::TrackKind;

/// An output format (on the command line: `csv`, `json`, `gltf`, `glb`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ValueEnum)]
pub enum Format {
    Csv,
    /// three.js `AnimationClip.toJSON`.
    #[value(name = "json")]
    ThreeJson,
    /// glTF 2.0 JSON with the buffer embedded as a data URI.
    Gltf,
    /// Binary glTF.
    Glb,
}

impl Format {
    pub const ALL: [Format; 4] = [Self::Csv, Self::ThreeJson, Self::Gltf, Self::Glb];

    /// The usual file extension.
    #[must_use]
    pub fn extension(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::ThreeJson => "json",
            Self::Gltf => "gltf",
            Self::Glb => "glb",
        }
    }
}

/// Where a track goes in the exported scene (see `docs/export.md`); on the command line
/// `translation`, `rotation`, `scale`, `weights`, `property` or `skip`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ValueEnum)]
pub enum Target {
    /// Position: three.js `.position`, glTF `translation` (Vec3).
    Translation,
    /// Orientation: three.js `.quaternion`, glTF `rotation` (Quat).
    Rotation,
    /// Scale: three.js `.scale`, glTF `scale` (Vec3).
    Scale,
    /// Morph target weights, one per component: three.js `.morphTargetInfluences`, glTF
    /// `weights` of a node whose mesh has that many morph targets.
    Weights,
    /// A plain property named `value` on an object named after the track (three.js only).
    Property,
    /// Left out of the export.
    Skip,
}

impl Target {
    pub const ALL: [Target; 6] = [Self::Translation, Self::Rotation, Self::Scale, Self::Weights, Self::Property, Self::Skip];

    /// The mapping used unless the user chooses another: Vec3 → translation, Quat and Euler →
    /// rotation (an Euler track as quaternions, `rotation.rs`); Scalar, Vec2 and Vec4 → a
    /// property in three.js JSON and CSV, morph weights (one per component) in glTF, which has
    /// no free properties.
    #[must_use]
    pub fn default_for(kind: TrackKind, format: Format) -> Self {
        match kind {
            TrackKind::Vec3 => Self::Translation,
            TrackKind::Quat | TrackKind::Euler => Self::Rotation,
            _ if matches!(format, Format::Gltf | Format::Glb) => Self::Weights,
            _ => Self::Property,
        }
    }

    /// Whether a track of `kind` can go to this target in `format`. Rotations (Quat, Euler)
    /// are not morph weights; an Euler track's angles can be a three.js property (a vector of
    /// radians) or CSV columns.
    #[must_use]
    pub fn fits(self, kind: TrackKind, format: Format) -> bool {
        match self {
            Self::Skip => true,
            Self::Translation | Self::Scale => kind == TrackKind::Vec3,
            Self::Rotation => kind.is_rotation(),
            Self::Weights => !kind.is_rotation(),
            Self::Property => !matches!(format, Format::Gltf | Format::Glb),
        }
    }
}

impl std::str::FromStr for Target {
    type Err = String;
    /// The command-line name, any case.
    fn from_str(s: &str) -> Result<Self, String> {
        <Self as ValueEnum>::from_str(s, true).map_err(|_| {
            let names: Vec<String> = Self::ALL.iter().filter_map(|t| t.to_possible_value()).map(|v| v.get_name().to_owned()).collect();
            format!("unknown target \"{s}\" ({})", names.join(", "))
        })
    }
}

/// How a track is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// The keys, held (three.js discrete, glTF STEP).
    Step,
    /// The keys, interpolated linearly (slerp for rotations).
    Linear,
    /// The keys with per-second Hermite tangents (glTF CUBICSPLINE).
    CubicSpline,
    /// The keys with Bézier control points (three.js r187 `InterpolateBezier`).
    Bezier,
    /// The keys, played by three.js' `CubicInterpolant` (`InterpolateSmooth`): Cubic tracks
    /// imported from three.js, written back as they came.
    Smooth,
    /// Keys baked from the curve, played linearly.
    Baked,
}

impl std::fmt::Display for Form {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Step => "STEP",
            Self::Linear => "LINEAR",
            Self::CubicSpline => "CUBICSPLINE",
            Self::Bezier => "BEZIER",
            Self::Smooth => "SMOOTH",
            Self::Baked => "baked",
        })
    }
}
