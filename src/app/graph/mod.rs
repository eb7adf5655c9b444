//! The value-vs-time graph: curves drawn from the engine beyond the keys (pre/post infinity),
//! keys to click, box-select and drag, TCB tangent arrows (in = ra, out = rb) with handles
//! that set tension and bias, Bézier handles to drag (Blender's rules, `crate::handles`), ease
//! handles on the time axis, and the playhead.
//!
//! Left-drag a key to move the selection; left-drag empty space to box-select; right- or
//! middle-drag to pan; scroll to pan, Ctrl+scroll zooms. Double-click a curve to insert a
//! key. Hold Ctrl while dragging to invert snapping.
//!
//! `hit.rs` finds what is under the pointer, `draw.rs` draws, `interact.rs` turns pointer
//! input into commands.

mod draw;
mod hit;
mod interact;
pub(super) mod lod;
pub(super) mod markers;
mod recent;

use eframe::egui::{self, Pos2, Vec2};
use egui_plot::{Legend, Plot, PlotBounds, PlotPoint, PlotTransform};

use super::commands::AppCommand;
use super::style::AXIS_WIDTH;
use super::{Panel, PanelContext};
use crate::edit::intent::{KeyRef, MoveOrigin};
pub use hit::Target;
pub(crate) use interact::busy_status;

/// A drag in progress.
#[derive(Clone, Debug)]
pub enum GraphDrag {
    Move {
        origin: PlotPoint,
        /// The plot's mapping when the drag began.
        at_start: PlotTransform,
        comp: usize,
        /// Display units per value unit of the grabbed component.
        scale: f64,
        /// Shared with the frames' moves (a worker makes a big selection's).
        origins: std::sync::Arc<Vec<MoveOrigin>>,
        /// The last move sent, `(dt, dv, snap)`: a frame with the pointer held still sends
        /// nothing (on the worker, each would move and compile every track again).
        sent: std::cell::Cell<Option<(f64, f64, Option<crate::edit::intent::Snap>)>>,
    },
    Box {
        origin: PlotPoint,
    },
    Tangent {
        key: KeyRef,
        origin: Pos2,
        dir: Vec2,
        length: f32,
        tension: f64,
        bias: f64,
    },
    Ease {
        key: KeyRef,
        from: bool,
    },
    /// A Bézier handle: the track and its curve as they were when the drag began, so each
    /// frame's edit is computed from the same start (one gesture, one undo step).
    Handle {
        key: KeyRef,
        comp: usize,
        side: crate::handles::Side,
        start: Box<(crate::Track, crate::TrackCurve)>,
        display: Display,
    },
    Scrub,
}

impl GraphDrag {
    /// Whether this drag edits the document (and so is one gesture).
    fn edits(&self) -> bool {
        matches!(self, Self::Move { .. } | Self::Tangent { .. } | Self::Ease { .. } | Self::Handle { .. })
    }
}

/// The value graph and what lives only while the editor runs.
pub struct Graph {
    pub drag: Option<GraphDrag>,
    pub hover: Option<Target>,
    /// The value graph's plot-to-screen mapping in the last frame.
    pub transform: Option<PlotTransform>,
    /// Where the last click was: a double-click counts only on the same spot.
    pub last_click: Option<Pos2>,
    /// Fit every visible curve (or the selection) in the next frame.
    pub frame_all: bool,
    pub frame_selected: bool,
    /// Height of the plot (the speed graph takes the rest).
    pub height: f32,
    /// The most points one curve was drawn with in the last frame.
    pub drawn_points: usize,
    /// Each drawn track's polylines, kept between frames (`lod.rs`).
    pub curves: lod::CurveCache,
    /// Each drawn track's key markers, kept between frames (`markers.rs`).
    pub markers: markers::MarkerCache,
}

impl Default for Graph {
    fn default() -> Self {
        Self {
            drag: None,
            hover: None,
            transform: None,
            last_click: None,
            frame_all: true,
            frame_selected: false,
            height: 400.0,
            drawn_points: 0,
            curves: lod::CurveCache::default(),
            markers: markers::MarkerCache::default(),
        }
    }
}

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

fn component_shown(cx: &PanelContext<'_>, track: usize, comp: usize) -> bool {
    cx.view.component_shown(&cx.project().tracks[track].name, comp)
}

fn pad(lo: [f64; 2], hi: [f64; 2]) -> PlotBounds {
    let pad_x = ((hi[0] - lo[0]) * 0.08).max(0.5);
    let pad_y = ((hi[1] - lo[1]) * 0.15).max(0.5);
    PlotBounds::from_min_max([lo[0] - pad_x, lo[1] - pad_y], [hi[0] + pad_x, hi[1] + pad_y])
}

/// Bounds that hold every key of every visible track, in display units.
fn fit_bounds(cx: &PanelContext<'_>) -> Option<PlotBounds> {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for (ti, track) in cx.project().tracks.iter().enumerate().filter(|(ti, _)| cx.curve_drawn(*ti)) {
        for comp in 0..track.kind.dim() {
            let d = display(cx, ti, comp);
            for k in &track.keys {
                lo[0] = lo[0].min(k.time);
                hi[0] = hi[0].max(k.time);
                lo[1] = lo[1].min(d.show(k.value[comp]));
                hi[1] = hi[1].max(d.show(k.value[comp]));
            }
        }
    }
    lo[0].is_finite().then(|| pad(lo, hi))
}

impl Panel for Graph {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        let frame_all = std::mem::take(&mut self.frame_all);
        let frame_selected = std::mem::take(&mut self.frame_selected);
        let fit = if frame_selected {
            cx.doc.selection_bounds().map(|(lo, hi)| pad(lo, hi))
        } else if frame_all {
            fit_bounds(cx)
        } else {
            None
        };
        let dragging_pan = ui.input(|i| i.pointer.secondary_down() || i.pointer.middle_down());
        let response = Plot::new("value_graph")
            .legend(Legend::default().color_conflict_handling(egui_plot::ColorConflictHandling::PickFirst))
            .x_axis_label("time (s)")
            .y_axis_label("value")
            .y_axis_min_width(AXIS_WIDTH)
            .height(self.height)
            .allow_drag(false)
            .allow_boxed_zoom(false)
            .allow_double_click_reset(false)
            .link_axis(egui::Id::unique("time axis"), [true, false])
            .link_cursor(egui::Id::unique("time axis"), [true, false])
            .show(ui, |plot_ui| {
                if frame_all || frame_selected {
                    if let Some(b) = fit {
                        plot_ui.set_plot_bounds(b);
                    }
                }
                if dragging_pan && plot_ui.response().dragged() {
                    let d = plot_ui.pointer_coordinate_drag_delta();
                    plot_ui.translate_bounds(-d);
                }
                draw::draw(plot_ui, cx, self)
            });
        self.drawn_points = response.inner;
        self.interact(ui, cx, out, &response.response, &response.transform);
        self.transform = Some(response.transform);
    }
}
