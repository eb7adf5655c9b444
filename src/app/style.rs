//! Colours: one per track, a shade per component of a vector track, and the fixed colours of
//! the tangent arrows (in = ra, out = rb) and ease handles.

use eframe::egui::Color32;
use tangent::Track;

const PALETTE: [Color32; 8] = [
    Color32::from_rgb(86, 156, 214),
    Color32::from_rgb(220, 120, 80),
    Color32::from_rgb(120, 190, 100),
    Color32::from_rgb(200, 110, 200),
    Color32::from_rgb(230, 190, 70),
    Color32::from_rgb(90, 200, 190),
    Color32::from_rgb(230, 100, 130),
    Color32::from_rgb(160, 160, 230),
];

/// Incoming tangent (ra) arrows and handles.
pub const INCOMING: Color32 = Color32::from_rgb(255, 170, 40);
/// Outgoing tangent (rb) arrows and handles.
pub const OUTGOING: Color32 = Color32::from_rgb(60, 220, 255);
/// Ease handles.
pub const EASE: Color32 = Color32::from_rgb(250, 250, 120);

/// The track's own colour, or one from the palette by position.
pub fn track_color(track: &Track, index: usize) -> Color32 {
    match track.color {
        Some(c) => Color32::from_rgb(c.0, c.1, c.2),
        None => PALETTE[index % PALETTE.len()],
    }
}

/// Component `c` of `n`: the track colour for the first, then lighter and darker shades, so
/// x, y, z of one track read as one family.
pub fn component_color(base: Color32, c: usize, n: usize) -> Color32 {
    if n <= 1 {
        return base;
    }
    let f = [1.0, 0.65, 1.35, 0.45][c % 4];
    let ch = |v: u8| (f32::from(v) * f).clamp(0.0, 255.0) as u8;
    Color32::from_rgb(ch(base.r()), ch(base.g()), ch(base.b()))
}
