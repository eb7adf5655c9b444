//! The curve under the pointer, named: hovering the value graph shows which track and
//! component the nearest curve is (within [`HOVER_RADIUS`] points, measured vertically at the
//! pointer's time), its value there in the track's units (degrees for Euler angles, file units
//! otherwise; in a stacked or normalised view the stored value, not the lane's), and the time
//! in seconds and frames. The legend names at most a dozen curves; this names any.

use egui_plot::{PlotPoint, PlotTransform};

use super::display::{component_shown, display};
use crate::app::panel::PanelContext;
use crate::app::units::{shown, unit};

/// How near (in points, vertically) a curve must pass to be named.
pub const HOVER_RADIUS: f32 = 8.0;

/// A curve under the pointer: track, component, time and its stored value there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurveHover {
    pub track: usize,
    pub comp: usize,
    pub time: f64,
    pub value: f64,
}

/// The drawn curve passing nearest `pos` at the pointer's time, if within [`HOVER_RADIUS`].
pub fn curve_under(cx: &PanelContext<'_>, transform: &PlotTransform, pos: eframe::egui::Pos2) -> Option<CurveHover> {
    let t = transform.value_from_position(pos).x;
    let mut best: Option<(f32, CurveHover)> = None;
    for ti in (0..cx.project().tracks.len()).filter(|&ti| cx.curve_drawn(ti)) {
        let Some(values) = cx.doc.sample(ti, t) else { continue };
        for (comp, &value) in values.iter().enumerate() {
            if !component_shown(cx, ti, comp) || !value.is_finite() {
                continue;
            }
            let y = transform.position_from_point(&PlotPoint::new(t, display(cx, ti, comp).show(value))).y;
            let d = (y - pos.y).abs();
            if d <= HOVER_RADIUS && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, CurveHover { track: ti, comp, time: t, value }));
            }
        }
    }
    best.map(|(_, h)| h)
}

/// "hips.rotation.x = 12.500 deg at 1.2500 s (frame 150.0)".
pub fn hover_text(cx: &PanelContext<'_>, h: &CurveHover) -> String {
    let track = &cx.project().tracks[h.track];
    let names = track.kind.component_names();
    let name = if track.kind.dim() == 1 { track.name.clone() } else { format!("{}.{}", track.name, names.get(h.comp).unwrap_or(&"?")) };
    let in_unit = unit(track.kind).unwrap_or("file units");
    let frame = h.time * cx.project().fps;
    format!("{name} = {:.4} {in_unit} at {:.4} s (frame {frame:.1})", shown(track.kind, h.value), h.time)
}
