//! How a component's values map to the graph's vertical axis: in the track's display units
//! (`units.rs`: an Euler track's radians as degrees), normalised to [−1, 1] by its keys'
//! range, or stacked: each drawn curve in its own lane (lane `i` spans
//! `[−2i − LANE_HALF, −2i + LANE_HALF]`, the curve's key range scaled onto it). Every drawing,
//! hit test, drag, box select and snap of the graph goes through [`display`], so each tool
//! works in the units on screen.

use crate::app::panel::PanelContext;
use crate::app::units::{display_scale, unit};

/// Maps a component's values to the screen: `display = (value − offset) · scale + base`
/// (`base`: the centre of the curve's lane when stacked, else 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Display {
    pub offset: f64,
    pub scale: f64,
    pub base: f64,
}

/// Half a lane's height in display units when stacked (lanes are 2 apart: a gap of 0.3
/// between neighbours).
pub const LANE_HALF: f64 = 0.85;

impl Display {
    pub const IDENTITY: Display = Display { offset: 0.0, scale: 1.0, base: 0.0 };
    pub fn show(self, v: f64) -> f64 {
        (v - self.offset) * self.scale + self.base
    }

    /// The stored value shown at `y`.
    pub fn value(self, y: f64) -> f64 {
        (y - self.base) / self.scale + self.offset
    }

    /// A number that changes when the mapping does (caches of drawn curves are kept by it).
    pub fn bits(self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.offset.to_bits(), self.scale.to_bits(), self.base.to_bits()).hash(&mut h);
        h.finish()
    }
}

/// The curves the stacked graph gives a lane, top to bottom: each drawn track's shown
/// components (a quaternion's four too), in track order.
pub fn lanes(cx: &PanelContext<'_>) -> Vec<(usize, usize)> {
    let tracks = &cx.project().tracks;
    (0..tracks.len())
        .filter(|&ti| cx.curve_drawn(ti))
        .flat_map(|ti| (0..tracks[ti].kind.dim()).filter(move |&c| component_shown(cx, ti, c)).map(move |c| (ti, c)))
        .collect()
}

/// The lane of component `comp` of `track` when stacked: its place in [`lanes`], counted
/// without building the list.
fn lane_of(cx: &PanelContext<'_>, track: usize, comp: usize) -> usize {
    let tracks = &cx.project().tracks;
    let before: usize = (0..track.min(tracks.len()))
        .filter(|&ti| cx.curve_drawn(ti))
        .map(|ti| (0..tracks[ti].kind.dim()).filter(|&c| component_shown(cx, ti, c)).count())
        .sum();
    before + (0..comp).filter(|&c| component_shown(cx, track, c)).count()
}

/// The centre of lane `lane` in display units.
pub fn lane_centre(lane: usize) -> f64 {
    -2.0 * lane as f64
}

/// The display mapping of one component: the track's display scale (degrees for Euler
/// angles); [min, max] of its keys onto [−1, 1] when the view is normalised; onto its lane,
/// `[c − LANE_HALF, c + LANE_HALF]` with `c` its [`lane_centre`], when stacked.
pub fn display(cx: &PanelContext<'_>, track: usize, comp: usize) -> Display {
    if !cx.view.normalize && !cx.view.stacked {
        let scale = cx.project().tracks.get(track).map_or(1.0, |t| display_scale(t.kind));
        return Display { offset: 0.0, scale, base: 0.0 };
    }
    let (half_to, base) = if cx.view.stacked { (LANE_HALF, lane_centre(lane_of(cx, track, comp))) } else { (1.0, 0.0) };
    let Some((lo, hi)) = cx.doc.value_range(track, comp) else { return Display { base, ..Display::IDENTITY } };
    let half = 0.5 * (hi - lo);
    if half > 0.0 {
        Display { offset: 0.5 * (hi + lo), scale: half_to / half, base }
    } else {
        Display { offset: lo, scale: 1.0, base }
    }
}

pub(super) fn component_shown(cx: &PanelContext<'_>, track: usize, comp: usize) -> bool {
    cx.view.component_shown(&cx.project().tracks[track].name, comp)
}

/// The value axis' label: "angle (deg)" when every curve drawn is an Euler track's (and the
/// view is not normalised), else "value" (each Euler curve then says "(deg)" in the legend).
pub fn value_axis_label(cx: &PanelContext<'_>) -> &'static str {
    if cx.view.stacked {
        return "lanes (each curve's own range)";
    }
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
