//! The names and tooltips of the Key menu's parametrised entries (interpolation modes and
//! handle types), as Blender's graph editor names them; `commands.rs` reads them.

use crate::model::KeyInterpolation;

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
