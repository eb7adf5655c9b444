//! The value-vs-time graph: every visible track's components drawn from the engine, with
//! keys marked.

use eframe::egui;
use egui_plot::{Legend, Line, MarkerShape, Plot, PlotBounds, PlotPoints, Points};

use super::state::AppState;
use super::style::{component_color, track_color};
use tangent::SegmentCursor;

/// Samples drawn across the visible time range.
const CURVE_SAMPLES: usize = 800;

pub fn ui(ui: &mut egui::Ui, state: &mut AppState) {
    if ui.input(|i| i.key_pressed(egui::Key::F) || i.key_pressed(egui::Key::Home))
        && !ui.ctx().egui_wants_keyboard_input()
    {
        state.frame_all = true;
    }
    let frame_all = std::mem::take(&mut state.frame_all);
    let fit = fit_bounds(state);
    Plot::new("value_graph")
        .legend(Legend::default())
        .x_axis_label("time (s)")
        .show(ui, |plot_ui| {
            if frame_all {
                if let Some(b) = fit {
                    plot_ui.set_plot_bounds(b);
                }
            }
            let bounds = plot_ui.plot_bounds();
            let (x0, x1) = (bounds.min()[0], bounds.max()[0]);
            for (i, (track, curve)) in state.project.tracks.iter().zip(&state.curves).enumerate() {
                let Ok(curve) = curve else { continue };
                if !track.visible {
                    continue;
                }
                let base = track_color(track, i);
                let dim = curve.dim();
                let mut cursor = SegmentCursor::new();
                let mut value = vec![0.0; dim];
                let mut series: Vec<Vec<[f64; 2]>> =
                    vec![Vec::with_capacity(CURVE_SAMPLES + 1); dim];
                for k in 0..=CURVE_SAMPLES {
                    let t = x0 + (x1 - x0) * k as f64 / CURVE_SAMPLES as f64;
                    curve.sample(&mut cursor, t, &mut value);
                    for (c, s) in series.iter_mut().enumerate() {
                        s.push([t, value[c]]);
                    }
                }
                let names = track.kind.component_names();
                for (c, points) in series.into_iter().enumerate() {
                    let name = if dim == 1 {
                        track.name.clone()
                    } else {
                        format!("{}.{}", track.name, names[c])
                    };
                    let color = component_color(base, c, dim);
                    plot_ui.line(
                        Line::new(name.clone(), PlotPoints::from(points))
                            .color(color)
                            .width(2.0),
                    );
                    let keys: Vec<[f64; 2]> =
                        track.keys.iter().map(|k| [k.time, k.value[c]]).collect();
                    plot_ui.points(
                        Points::new(name, PlotPoints::from(keys))
                            .shape(MarkerShape::Diamond)
                            .radius(5.0)
                            .color(color)
                            .filled(true),
                    );
                }
            }
        });
}

/// Bounds that hold every key of every visible track, with a margin.
fn fit_bounds(state: &AppState) -> Option<PlotBounds> {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for track in state.project.tracks.iter().filter(|t| t.visible) {
        for k in &track.keys {
            lo[0] = lo[0].min(k.time);
            hi[0] = hi[0].max(k.time);
            for &v in &k.value {
                lo[1] = lo[1].min(v);
                hi[1] = hi[1].max(v);
            }
        }
    }
    if !lo[0].is_finite() {
        return None;
    }
    let pad_x = ((hi[0] - lo[0]) * 0.08).max(0.5);
    let pad_y = ((hi[1] - lo[1]) * 0.15).max(0.5);
    Some(PlotBounds::from_min_max(
        [lo[0] - pad_x, lo[1] - pad_y],
        [hi[0] + pad_x, hi[1] + pad_y],
    ))
}
