//! Dense curves drawn from a cached image. Where a track's keys are denser than the pixel
//! columns, its curve (`lod.rs`' envelope) sweeps a band that covers much of the plot; stroked
//! as lines, that band is rasterized again on every frame — on a software renderer most of a
//! frame's cost (measured: `tools/measure_pointer_move.sh`, docs/measured.md). Instead each
//! shown component's band is painted once into an image the size of the plot in pixels, one
//! column at a time (from the lowest to the highest point of the polyline in that column,
//! joined to the column before), and the image is drawn as one textured rectangle. The image
//! is kept until the curve, the view, the plot's size or the colours change; a frame that
//! only moves the pointer draws it as it is. Each image is cut to the pixels its band covers
//! ([`crop`]): a take's 200 bands kept whole would be 200 plot-sized images (216 MB on a
//! 1,000 × 700 plot, and as much again as textures), where most curves cover a strip of it.

use std::collections::HashMap;

use eframe::egui::{self, Color32, ColorImage, TextureHandle, TextureOptions};
use egui_plot::{PlotImage, PlotPoint, PlotUi};

/// What an image was painted for.
#[derive(Clone, Debug, PartialEq)]
struct Painted {
    stamp: u64,
    bounds: [f64; 4],
    size: [usize; 2],
    colors: Vec<Color32>,
}

/// Each dense track's image, kept between frames.
#[derive(Default)]
pub struct BandCache {
    /// Each track's image and the plot area `[x0, x1, y0, y1]` it covers.
    tracks: HashMap<usize, (Painted, (TextureHandle, [f64; 4]))>,
    /// Images painted (not reused) since the cache was made: tests see pointer moves reuse.
    pub paints: usize,
}

impl BandCache {
    /// Draws track `ti`'s `series` (one polyline per shown component, in plot coordinates)
    /// in `colors` as their bands over the whole plot; `stamp` identifies the curve and its
    /// display mapping.
    pub fn draw(&mut self, plot_ui: &mut PlotUi<'_>, ti: usize, stamp: u64, series: &[&[[f64; 2]]], colors: &[Color32]) {
        let b = plot_ui.plot_bounds();
        let frame = plot_ui.transform().frame();
        let ppp = plot_ui.ctx().pixels_per_point();
        let size = [(frame.width() * ppp).round().max(1.0) as usize, (frame.height() * ppp).round().max(1.0) as usize];
        let painted = Painted { stamp, bounds: [b.min()[0], b.max()[0], b.min()[1], b.max()[1]], size, colors: colors.to_vec() };
        let ctx = plot_ui.ctx().clone();
        let reuse = self.tracks.get(&ti).is_some_and(|(p, _)| *p == painted);
        if !reuse {
            self.paints += 1;
            let (image, area) = crop(&paint(series, colors, painted.bounds, size), painted.bounds);
            let texture = ctx.load_texture(format!("band {ti}"), image, TextureOptions::NEAREST);
            self.tracks.insert(ti, (painted, (texture, area)));
        }
        let (_, (texture, [x0, x1, y0, y1])) = &self.tracks[&ti];
        let center = PlotPoint::new(0.5 * (x0 + x1), 0.5 * (y0 + y1));
        let extent = egui::vec2((x1 - x0) as f32, (y1 - y0) as f32);
        plot_ui.image(PlotImage::new("", texture.id(), center, extent));
    }

    /// Forgets tracks not drawn as bands in the last frame.
    pub fn retain(&mut self, drawn: impl Fn(usize) -> bool) {
        self.tracks.retain(|t, _| drawn(*t));
    }
}

/// The bands of `series` painted over `[x0, x1] × [y0, y1]` (`bounds`) into an image of
/// `size` pixels, later components over earlier ones.
pub fn paint(series: &[&[[f64; 2]]], colors: &[Color32], [x0, x1, y0, y1]: [f64; 4], [w, h]: [usize; 2]) -> ColorImage {
    let mut image = ColorImage::filled([w, h], Color32::TRANSPARENT);
    let (sx, sy) = (w as f64 / (x1 - x0), h as f64 / (y1 - y0));
    for (points, &color) in series.iter().zip(colors) {
        let pixels = points.iter().map(|p| ((p[0] - x0) * sx, (y1 - p[1]) * sy));
        for (x, lo, hi) in columns(pixels) {
            if x < 0.0 || x >= w as f64 {
                continue;
            }
            let (top, bottom) = (lo.floor().max(0.0), hi.floor().min(h as f64 - 1.0));
            let col = x as usize;
            let mut row = top;
            while row <= bottom {
                image.pixels[row as usize * w + col] = color;
                row += 1.0;
            }
        }
    }
    image
}

/// `image` (painted over `[x0, x1] × [y0, y1]`, row 0 at `y1`) cut to the smallest rectangle
/// of pixels that holds everything painted, and the plot area that rectangle covers (pixel
/// column `c` covers `x0 + c·Δx .. x0 + (c + 1)·Δx`, row `r` covers `y1 − (r + 1)·Δy .. y1 −
/// r·Δy`). An image with nothing painted becomes one transparent pixel.
pub fn crop(image: &ColorImage, [x0, x1, y0, y1]: [f64; 4]) -> (ColorImage, [f64; 4]) {
    let [w, h] = image.size;
    let (mut c0, mut c1, mut r0, mut r1) = (usize::MAX, 0, usize::MAX, 0);
    for (r, row) in image.pixels.chunks_exact(w.max(1)).enumerate() {
        if let (Some(first), Some(last)) = (row.iter().position(|p| *p != Color32::TRANSPARENT), row.iter().rposition(|p| *p != Color32::TRANSPARENT)) {
            (c0, c1, r0, r1) = (c0.min(first), c1.max(last), r0.min(r), r);
        }
    }
    if c0 == usize::MAX {
        return (ColorImage::filled([1, 1], Color32::TRANSPARENT), [x0, x0, y0, y0]);
    }
    let (cw, ch) = (c1 - c0 + 1, r1 - r0 + 1);
    let pixels = (r0..=r1).flat_map(|r| image.pixels[r * w + c0..=r * w + c1].iter().copied()).collect();
    let (dx, dy) = ((x1 - x0) / w as f64, (y1 - y0) / h as f64);
    let area = [x0 + c0 as f64 * dx, x0 + (c1 + 1) as f64 * dx, y1 - (r1 + 1) as f64 * dy, y1 - r0 as f64 * dy];
    (ColorImage::new([cw, ch], pixels), area)
}

/// Per pixel column `(x, lowest, highest)` of a polyline given in pixels (time-sorted), each
/// column also reaching the last point of the column before it, so consecutive columns join.
/// Columns the polyline crosses without a point of its own in them get the part of the
/// segment that crosses them.
pub fn columns(points: impl Iterator<Item = (f64, f64)>) -> Vec<(f64, f64, f64)> {
    let mut out: Vec<(f64, f64, f64)> = Vec::new();
    let mut last: Option<(f64, f64)> = None;
    for (x, y) in points {
        let column = x.floor();
        match (out.last_mut(), last) {
            (Some(c), _) if c.0 == column => {
                c.1 = c.1.min(y);
                c.2 = c.2.max(y);
            }
            (_, Some((lx, ly))) => {
                // The segment from the last point: its value where it enters each column.
                let at = |cx: f64| if x > lx { ly + (y - ly) * ((cx - lx) / (x - lx)).clamp(0.0, 1.0) } else { y };
                let mut cx = lx.floor() + 1.0;
                while cx < column {
                    let (a, b) = (at(cx), at(cx + 1.0));
                    out.push((cx, a.min(b), a.max(b)));
                    cx += 1.0;
                }
                let from = at(column);
                out.push((column, y.min(from), y.max(from)));
            }
            (_, None) => out.push((column, y, y)),
        }
        last = Some((x, y));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-checked: points at x 0.2, 0.7 (column 0), 1.5 (column 1), 3.5 (column 3). Column 0
    /// spans 5..9; column 1 reaches back to where the segment from (0.7, 9) to (1.5, 2) enters
    /// it, 9 − 7·(0.3/0.8) = 6.375, and has 2; column 2, without a point, gets the segment from
    /// (1.5, 2) to (3.5, 4) between x 2 and 3: 2.5..3.5; column 3 from 3.5 to 4.
    /// Hand-checked: a 4 × 5 image over [0, 4] × [0, 10] with pixels painted at (column 1,
    /// row 1) and (column 2, row 3) is cut to columns 1..=2 and rows 1..=3: x from 1 to 3, y
    /// from 10 − 4·2 = 2 to 10 − 1·2 = 8, the pixels in their places.
    #[test]
    fn crop_keeps_what_is_painted_where_it_was() {
        let red = Color32::RED;
        let mut image = ColorImage::filled([4, 5], Color32::TRANSPARENT);
        image.pixels[4 + 1] = red;
        image.pixels[3 * 4 + 2] = red;
        let (cut, area) = crop(&image, [0.0, 4.0, 0.0, 10.0]);
        assert_eq!(cut.size, [2, 3]);
        assert_eq!(area, [1.0, 3.0, 2.0, 8.0]);
        let t = Color32::TRANSPARENT;
        assert_eq!(cut.pixels, vec![red, t, t, t, t, red]);
        let (empty, _) = crop(&ColorImage::filled([4, 5], t), [0.0, 4.0, 0.0, 10.0]);
        assert_eq!(empty.size, [1, 1]);
    }

    #[test]
    fn each_column_spans_its_points_and_joins_the_last_one() {
        let pts = [(0.2, 5.0), (0.7, 9.0), (1.5, 2.0), (3.5, 4.0)];
        assert_eq!(columns(pts.into_iter()), vec![(0.0, 5.0, 9.0), (1.0, 2.0, 6.375), (2.0, 2.5, 3.5), (3.0, 3.5, 4.0)]);
    }

    /// A zigzag between values 0 and 1 over [0, 4] × [0, 1] painted into 4 × 5 pixels: every
    /// column covered top to bottom; a flat line at 0.5 covers only the middle row.
    #[test]
    fn a_band_covers_the_rows_its_column_sweeps() {
        let zigzag: Vec<[f64; 2]> = (0..=16).map(|i| [f64::from(i) * 0.25, f64::from(i % 2)]).collect();
        let flat = [[0.0, 0.5], [4.0, 0.5]];
        let red = Color32::RED;
        let img = paint(&[&zigzag], &[red], [0.0, 4.0, 0.0, 1.0], [4, 5]);
        assert!(img.pixels.iter().all(|&p| p == red), "the zigzag fills every pixel");
        let img = paint(&[&flat], &[red], [0.0, 4.0, 0.0, 1.0], [4, 5]);
        let rows: Vec<usize> = (0..5).filter(|r| img.pixels[r * 4] == red).collect();
        assert_eq!(rows, vec![2], "the flat line at 0.5 is row 2 of 5");
    }
}

#[cfg(test)]
mod ui_tests {
    use eframe::egui;

    use crate::app::tests::harness;
    use crate::{Interpolation, Key, Project, Track, TrackKind};

    /// A Vec3 track of 20,000 noisy keys: its curve is dense in the graph, so it is drawn from
    /// one image; moving the pointer over the graph paints no image again, and changing the
    /// curve (a key deleted) paints a new one.
    #[test]
    fn a_dense_curve_is_painted_once_and_reused_by_pointer_moves() {
        let keys = (0..20_000).map(|i| Key::new(f64::from(i) * 0.01, vec![f64::from((i * 7919) % 101) / 10.0, 0.0, f64::from(i % 13)])).collect();
        let track = Track::new("dense", TrackKind::Vec3, Interpolation::Linear).with_keys(keys);
        let mut h = harness(Project { tracks: vec![track], ..Project::default() });
        h.run();
        let paints = |h: &egui_kittest::Harness<'_, crate::app::TangentApp>| h.state().panels.graph.bands.paints;
        assert!(paints(&h) >= 1, "the dense curve is drawn as a band image");
        let painted = paints(&h);
        for i in 0..10 {
            h.hover_at(egui::pos2(500.0 + 10.0 * i as f32, 300.0));
            h.run();
        }
        assert_eq!(paints(&h), painted, "pointer moves reuse the image");
        h.state_mut().queue.push(crate::app::commands::AppCommand::Ui(crate::app::commands::Command::SelectAll));
        h.run();
        h.key_press(egui::Key::Delete);
        h.run();
        assert!(paints(&h) > painted, "a changed curve is painted again");
    }
}
