//! How a component's values map to the graph's vertical axis: as they are, or normalised
//! to [−1, 1] by its keys' range.

use crate::app::panel::PanelContext;

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
}

/// The display mapping of one component: identity, or [min, max] of its keys onto [−1, 1]
/// when the view is normalised.
pub fn display(cx: &PanelContext<'_>, track: usize, comp: usize) -> Display {
    if !cx.view.normalize {
        return Display::IDENTITY;
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
