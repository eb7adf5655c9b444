//! The names and tooltips of the Key menu's parametrised entries (interpolation modes and
//! handle types), as Blender's graph editor names them, and of View > Preview runtime ▸;
//! `commands.rs` reads them.

use crate::model::KeyInterpolation;
use crate::runtime::Runtime;

/// The interpolation menu's name of `mode` (Blender's).
pub fn interpolation_text(mode: KeyInterpolation) -> &'static str {
    match mode {
        KeyInterpolation::Bezier => "Bézier",
        KeyInterpolation::Constant => "Constant",
        KeyInterpolation::Linear => "Linear",
        KeyInterpolation::Back => "Back",
        KeyInterpolation::Bounce => "Bounce",
        KeyInterpolation::Circ => "Circular",
        KeyInterpolation::Cubic => "Cubic",
        KeyInterpolation::Elastic => "Elastic",
        KeyInterpolation::Expo => "Exponential",
        KeyInterpolation::Quad => "Quadratic",
        KeyInterpolation::Quart => "Quartic",
        KeyInterpolation::Quint => "Quintic",
        KeyInterpolation::Sine => "Sinusoidal",
    }
}

pub fn interpolation_tooltip(mode: KeyInterpolation) -> &'static str {
    match mode {
        KeyInterpolation::Bezier => "Bézier: the cubic through the keys' handles (the default)",
        KeyInterpolation::Constant => "Constant: hold this key's value until the next key, then jump",
        KeyInterpolation::Linear => "Linear: a straight line to the next key",
        KeyInterpolation::Back => "Back: overshoot then settle (the overshoot is the key's back)",
        KeyInterpolation::Bounce => "Bounce: bounce into the next key",
        KeyInterpolation::Circ => "Circular: a quarter circle",
        KeyInterpolation::Cubic => "Cubic: t³",
        KeyInterpolation::Elastic => "Elastic: a decaying oscillation (the key's amplitude and period)",
        KeyInterpolation::Expo => "Exponential: 2^(10(t−1))",
        KeyInterpolation::Quad => "Quadratic: t²",
        KeyInterpolation::Quart => "Quartic: t⁴",
        KeyInterpolation::Quint => "Quintic: t⁵",
        KeyInterpolation::Sine => "Sinusoidal: a quarter sine",
    }
}

pub fn handle_type_tooltip(t: crate::HandleType) -> &'static str {
    match t {
        crate::HandleType::Free => "Free: each handle moves on its own",
        crate::HandleType::Vector => "Vector: each handle points a third of the way to the neighbouring key (sharp corners, straight runs)",
        crate::HandleType::Aligned => "Aligned: the two handles stay on one line through the key (smooth), lengths free",
        crate::HandleType::Auto => "Automatic: smooth handles computed from the neighbours (may overshoot)",
        crate::HandleType::AutoClamped => "Auto Clamped: automatic, but flat at extremes so the curve never overshoots a key (the default)",
    }
}

/// View > Preview runtime ▸'s entries' tooltips.
pub fn preview_runtime_tooltip(runtime: Option<Runtime>) -> &'static str {
    match runtime {
        None => "Stop previewing how a runtime plays the export",
        Some(Runtime::Spec) => {
            "Draw the export the Export window's settings make as the glTF specification interpolates it (three.js plays the same), as a ghost, with each track's largest distance from its curve in the track list; kept up to date as you edit"
        }
        Some(Runtime::Three) => {
            "Draw the export the Export window's settings make as three.js r187 plays it, as a ghost, with each track's largest distance from its curve in the track list; kept up to date as you edit"
        }
        Some(Runtime::Blender) => {
            "Draw the export the Export window's settings make as Blender 4.2 and later (4.5, 5.0) import and play it (CUBICSPLINE tangents ignored, Auto handles, keys within 0.01 frames merged), as a ghost, with each track's largest distance from its curve in the track list; kept up to date as you edit"
        }
        Some(Runtime::Blender34) => {
            "Draw the export the Export window's settings make as Blender 3.4 imports and plays it (CUBICSPLINE tangents ignored, Auto Clamped handles), as a ghost, with each track's largest distance from its curve in the track list; kept up to date as you edit"
        }
        Some(Runtime::Godot) => {
            "Draw the export the Export window's settings make as Godot 3.2 imports and plays it (resampled at its import's 15 fps, CUBICSPLINE tangents misread, CUBICSPLINE weights dropped), as a ghost, with each track's largest distance in the track list; kept up to date as you edit"
        }
    }
}
