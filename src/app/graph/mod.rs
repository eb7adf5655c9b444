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

mod band;
mod display;
mod draw;
mod ghost;
mod hit;
mod hover;
mod interact;
mod lanes;
pub(super) mod lod;
pub(super) mod markers;
mod recent;
mod view;

use eframe::egui;
use egui_plot::{Legend, Plot, PlotBounds};

use super::commands::AppCommand;
use super::panel::{Panel, PanelContext};
use super::style::AXIS_WIDTH;
use display::display;

pub use display::value_axis_label;
pub use view::Graph;

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
            for i in 0..track.keys.len() {
                let (t, v) = (track.keys.time(i), d.show(track.keys.value(i)[comp]));
                lo[0] = lo[0].min(t);
                hi[0] = hi[0].max(t);
                lo[1] = lo[1].min(v);
                hi[1] = hi[1].max(v);
            }
        }
    }
    lo[0].is_finite().then(|| pad(lo, hi))
}

/// Bounds that hold the selected keys, in display units (Frame selected).
fn selection_bounds(cx: &PanelContext<'_>) -> Option<PlotBounds> {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    // Each component's mapping once (stacked, a mapping counts the lanes before it).
    let mut displays: std::collections::HashMap<(usize, usize), display::Display> = std::collections::HashMap::new();
    for k in cx.doc.selection.iter() {
        let Some(keys) = cx.project().tracks.get(k.track).map(|t| &t.keys).filter(|keys| k.key < keys.len()) else { continue };
        let time = keys.time(k.key);
        lo[0] = lo[0].min(time);
        hi[0] = hi[0].max(time);
        for (comp, &v) in keys.value(k.key).iter().enumerate() {
            let y = displays.entry((k.track, comp)).or_insert_with(|| display(cx, k.track, comp)).show(v);
            lo[1] = lo[1].min(y);
            hi[1] = hi[1].max(y);
        }
    }
    lo[0].is_finite().then(|| pad(lo, hi))
}

impl Graph {
    /// Whether a drawn curve changed since the last frame (a new stamp, no drag in progress)
    /// from lying within the view's value range to leaving it. Each drawn curve's extent
    /// (its keys' range in display units) is kept with its stamp in [`Graph::extents`].
    fn moved_out_of_view(&mut self, cx: &PanelContext<'_>, transform: &egui_plot::PlotTransform) -> bool {
        let (y0, y1) = (transform.bounds().min()[1], transform.bounds().max()[1]);
        let inside = |(lo, hi): (f64, f64)| lo >= y0 && hi <= y1;
        let mut out = false;
        let mut kept = std::collections::HashMap::new();
        for ti in (0..cx.project().tracks.len()).filter(|&ti| cx.curve_drawn(ti)) {
            let stamp = cx.doc.curve_stamp(ti).unwrap_or(0);
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for c in (0..cx.project().tracks[ti].kind.dim()).filter(|&c| display::component_shown(cx, ti, c)) {
                let Some((a, b)) = cx.doc.value_range(ti, c) else { continue };
                let d = display(cx, ti, c);
                lo = lo.min(d.show(a).min(d.show(b)));
                hi = hi.max(d.show(a).max(d.show(b)));
            }
            if let Some(&(was, a, b)) = self.extents.get(&ti) {
                let edited = was != stamp && self.drag.is_none();
                out |= edited && lo.is_finite() && inside((a, b)) && !inside((lo, hi));
            }
            kept.insert(ti, (stamp, lo, hi));
        }
        self.extents = kept;
        out
    }
}

impl Panel for Graph {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        let frame_all = std::mem::take(&mut self.frame_all);
        let frame_selected = std::mem::take(&mut self.frame_selected);
        let fit = if frame_selected {
            selection_bounds(cx)
        } else if frame_all {
            fit_bounds(cx)
        } else {
            None
        };
        let dragging_pan = ui.input(|i| i.pointer.secondary_down() || i.pointer.middle_down());
        let mut plot = crate::app::time_axis::time_axis(Plot::new("value_graph"), cx.view.frame_axis, cx.project().fps);
        if cx.view.stacked {
            // Every lane has its own scale: the lanes' labels give the values (`lanes.rs`).
            plot = plot.y_axis_formatter(|_, _| String::new());
        }
        let response = plot
            .legend(Legend::default().color_conflict_handling(egui_plot::ColorConflictHandling::PickFirst))
            // The curve under the pointer is named by `hover.rs`, in the track's units.
            .show_x(false)
            .show_y(false)
            .y_axis_label(value_axis_label(cx))
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
                if cx.view.stacked {
                    lanes::draw_lanes(plot_ui, cx);
                }
                draw::draw(plot_ui, cx, self)
            });
        self.drawn_points = response.inner;
        self.interact(ui, cx, out, &response.response, &response.transform);
        self.transform = Some(response.transform);
        if self.moved_out_of_view(cx, &response.transform) {
            // An edit (Euler filter, a tool's Apply, undo…) took a curve out of the view: frame
            // every drawn curve in the next frame, as Home would.
            self.frame_all = true;
            ui.ctx().request_repaint();
        }
        // Not under a window over the graph: only while the plot itself is hovered.
        let pointer = ui.input(|i| i.pointer.hover_pos()).filter(|p| response.transform.frame().contains(*p) && response.response.hovered());
        self.curve_hover = match (&self.drag, pointer) {
            (None, Some(p)) => hover::curve_under(cx, &response.transform, p),
            _ => None,
        };
        if let Some(h) = &self.curve_hover {
            let text = hover::hover_text(cx, h);
            egui::Popup::from_response(&response.response).kind(egui::PopupKind::Tooltip).at_pointer().show(|ui| {
                ui.label(text);
            });
        }
    }
}
