//! How a component's values map to the graph's vertical axis: in the track's display units
//! (`units.rs`: an Euler track's radians as degrees), or normalised to [−1, 1] by its keys'
//! range. Every drawing, hit test, drag, box select and snap of the graph goes through
//! [`display`], so each tool works in the units on screen.

use crate::app::panel::PanelContext;
use crate::app::units::{display_scale, unit};

/// Maps a component's values to the screen: `display = (value − offset) · scale`.
#[derive(Clone, Copy, Debug)]
pub struct Display {
    pub offset: f64,
    pub scale: f64,
}

impl Display {
    pub const IDENTITY: Display = Display { offset: 0.0, scale: 1.0 };
    pub fn show(self, v: f64) -> f64 {
        (v - self.offset) * self.scale
    }

    /// The stored value shown at `y`.
    pub fn value(self, y: f64) -> f64 {
        y / self.scale + self.offset
    }
}

/// The display mapping of one component: the track's display scale (degrees for Euler
/// angles), or [min, max] of its keys onto [−1, 1] when the view is normalised.
pub fn display(cx: &PanelContext<'_>, track: usize, comp: usize) -> Display {
    if !cx.view.normalize {
        let scale = cx.project().tracks.get(track).map_or(1.0, |t| display_scale(t.kind));
        return Display { offset: 0.0, scale };
    }
    let Some((lo, hi)) = cx.doc.value_range(track, comp) else { return Display::IDENTITY };
    let half = 0.5 * (hi - lo);
    if half > 0.0 {
        Display { offset: 0.5 * (hi + lo), scale: 1.0 / half }
    } else {
        Display { offset: lo, scale: 1.0 }
    }
}

pub(super) fn component_shown(cx: &PanelContext<'_>, track: usize, comp: usize) -> bool {
    cx.view.component_shown(&cx.project().tracks[track].name, comp)
}

/// The value axis' label: "angle (deg)" when every curve drawn is an Euler track's (and the
/// view is not normalised), else "value" (each Euler curve then says "(deg)" in the legend).
pub fn value_axis_label(cx: &PanelContext<'_>) -> &'static str {
    if cx.view.normalize {
        return "value";
    }
    let tracks = &cx.project().tracks;
    let mut drawn = (0..tracks.len()).filter(|&ti| cx.curve_drawn(ti)).peekable();
    let some = drawn.peek().is_some();
    if some && drawn.all(|ti| unit(tracks[ti].kind) == Some("deg")) {
        "angle (deg)"
    } else {
        "value"
    }
}

/// The step snapped values keep in component units: a power of ten of the shown units
/// (degrees for Euler angles) about a twentieth of `span` (the plot's height in display
/// units, of a curve shown at `scale` display units per value unit), as a value step.
pub fn snap_step(span: f64, scale: f64, unit_scale: f64) -> f64 {
    10f64.powf((span / scale * unit_scale / 20.0).log10().floor()) / unit_scale
}
