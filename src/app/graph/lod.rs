//! Level of detail for the value graph: each curve drawn with a few points per pixel column
//! whatever its number of keys, as waveform editors draw audio, and kept between frames.
//!
//! Column `k` of `n` covers times `[x0 + k·w, x0 + (k+1)·w)`, `w = (x1 − x0)/n`. It gets the
//! curve's value at its left edge; a key inside it adds its own point, and two or more keys
//! add instead the smallest and largest of their values (the min/max envelope): a dense stretch draws as the band the curve
//! sweeps through in that column rather than as whichever values the column edges happen to
//! hit. So a column adds at most [`POINTS_PER_COLUMN`] points, and the cost of building a
//! polyline is the keys in view plus `n` samples — nothing off screen.
//!
//! [`CurveCache`] keeps each track's polylines until the curve is recompiled (its stamp
//! changes), the visible range or width changes, or the display mapping changes: an idle
//! repaint samples nothing.

use std::collections::HashMap;

use egui_plot::PlotUi;

use super::display::Display;
use super::recent::Recent;
use crate::app::key_ranges::KeyRanges;
use crate::{SegmentCursor, TrackCurve};

/// Pixel columns a curve is drawn in (a few points each, `lod.rs`), within these bounds.
pub(super) const CURVE_COLUMNS: (usize, usize) = (64, 4096);

/// The visible time range and the number of pixel columns to draw curves in.
pub(super) fn columns(plot_ui: &PlotUi<'_>) -> ((f64, f64), usize) {
    let bounds = plot_ui.plot_bounds();
    let n = (plot_ui.transform().frame().width().max(0.0) as usize).clamp(CURVE_COLUMNS.0, CURVE_COLUMNS.1);
    ((bounds.min()[0], bounds.max()[0]), n)
}

/// Points a column adds at most: the edge sample and the two ends of the envelope.
pub const POINTS_PER_COLUMN: usize = 3;

/// What a track's polylines were built for.
#[derive(Clone, Debug, PartialEq)]
struct Built {
    stamp: u64,
    x0: f64,
    x1: f64,
    columns: usize,
    /// Each component's `(offset, scale)`.
    displays: Vec<u64>,
}

/// One polyline per component of a track's curve, in display units.
pub type Series = Vec<Vec<[f64; 2]>>;

/// Each track's polylines, rebuilt only when what they were built for changes (the last two
/// kept per track: undo and redo swap between them).
#[derive(Default)]
pub struct CurveCache {
    tracks: HashMap<usize, Recent<Built, Series>>,
    /// Polylines built (not reused) since the cache was made: tests see idle frames reuse.
    pub builds: usize,
}

impl CurveCache {
    /// Track `track`'s polylines over `[x0, x1]` in `columns` columns.
    #[allow(clippy::too_many_arguments)]
    pub fn series(
        &mut self,
        track: usize,
        stamp: u64,
        curve: &TrackCurve,
        ranges: Option<&KeyRanges>,
        (x0, x1): (f64, f64),
        columns: usize,
        displays: &[Display],
    ) -> &Series {
        let built = Built { stamp, x0, x1, columns, displays: displays.iter().map(|d| d.bits()).collect() };
        let recent = self.tracks.entry(track).or_default();
        if recent.get(&built).is_none() {
            self.builds += 1;
            recent.insert(built.clone(), envelope_series(curve, ranges, (x0, x1), columns, displays));
        }
        recent.get(&built).expect("just built")
    }

    /// Forgets tracks not drawn in the last frame (removed, hidden, or not shown).
    pub fn retain(&mut self, drawn: impl Fn(usize) -> bool) {
        self.tracks.retain(|t, _| drawn(*t));
    }
}

/// The polylines of `curve` over `[x0, x1]` in `columns` columns (see the module docs). With
/// the track's [`KeyRanges`] a column costs O(log keys) whatever it holds; without, a scan of
/// its keys.
pub fn envelope_series(curve: &TrackCurve, ranges: Option<&KeyRanges>, (x0, x1): (f64, f64), columns: usize, displays: &[Display]) -> Series {
    let dim = curve.dim();
    let times = curve.times();
    let n = columns.max(1);
    let mut cursor = SegmentCursor::new();
    let mut value = vec![0.0; dim];
    let mut series: Series = vec![Vec::with_capacity(POINTS_PER_COLUMN * n + 1); dim];
    let width = (x1 - x0) / n as f64;
    // Keys strictly after the previous column's left edge are counted from here.
    let mut next_key = times.partition_point(|&t| t <= x0);
    for k in 0..=n {
        let t = x0 + width * k as f64;
        curve.sample(&mut cursor, t, &mut value);
        for c in 0..dim {
            series[c].push([t, displays[c].show(value[c])]);
        }
        if k == n {
            break;
        }
        let end = x0 + width * (k + 1) as f64;
        let first = next_key;
        next_key += times[first..].partition_point(|&t| t < end);
        match next_key - first {
            0 => {}
            // One key: its own point, so the line turns where the curve does.
            1 => {
                let key = curve.key_value(first);
                for c in 0..dim {
                    series[c].push([times[first], displays[c].show(key[c])]);
                }
            }
            _ => push_envelope(curve, ranges, first..next_key, t + 0.5 * width, displays, &mut series),
        }
    }
    series
}

/// The smallest and largest key value of `keys`, per component, at time `t`: first the one
/// nearer the polyline's last point, so the line goes down then up (or up then down) once.
fn push_envelope(curve: &TrackCurve, ranges: Option<&KeyRanges>, keys: std::ops::Range<usize>, t: f64, displays: &[Display], series: &mut Series) {
    for (c, line) in series.iter_mut().enumerate() {
        let (lo, hi) = match ranges {
            Some(r) => r.range(c, keys.clone(), |i| curve.key_value(i)[c]),
            None => keys.clone().map(|i| curve.key_value(i)[c]).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v))),
        };
        let (lo, hi) = (displays[c].show(lo), displays[c].show(hi));
        let last = line.last().map_or(lo, |p| p[1]);
        let (a, b) = if (last - lo).abs() <= (last - hi).abs() { (lo, hi) } else { (hi, lo) };
        line.push([t, a]);
        line.push([t, b]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Interpolation, Key, Track, TrackKind};

    fn linear(values: &[f64], dt: f64) -> TrackCurve {
        let keys = values.iter().enumerate().map(|(i, &v)| Key::new(i as f64 * dt, vec![v])).collect();
        TrackCurve::new(&Track::new("t", TrackKind::Scalar, Interpolation::Linear).with_keys(keys)).unwrap()
    }

    /// Hand-checked: keys 0, 5, −3, 2 at t = 0, 0.1, 0.2, 0.3 in 2 columns over [0, 0.4].
    /// Column 0 = [0, 0.2): the key at 0 is its edge sample; inside it only t = 0.1 (value 5),
    /// which adds its own point. Column 1 = [0.2, 0.4) holds 0.2 and 0.3: values −3 and 2.
    #[test]
    fn a_column_with_two_keys_adds_their_range() {
        let curve = linear(&[0.0, 5.0, -3.0, 2.0], 0.1);
        let s = envelope_series(&curve, None, (0.0, 0.4), 2, &[Display::IDENTITY]);
        let ys: Vec<f64> = s[0].iter().map(|p| p[1]).collect();
        // Edge samples: v(0) = 0, v(0.2) = −3, v(0.4) = 2 (held after the last key); the key
        // (0.1, 5); column 1's envelope after v(0.2) = −3: −3 is nearer, so −3 then 2, at 0.3.
        assert_eq!(ys, vec![0.0, 5.0, -3.0, -3.0, 2.0, 2.0]);
        assert_eq!(s[0][1][0], 0.1);
        assert!((s[0][3][0] - 0.3).abs() < 1e-15);
    }

    /// 100,000 keys of a fast sine in 500 columns: at most 3 points per column, and every
    /// column's drawn range covers the key values inside it (nothing aliased away).
    #[test]
    fn the_envelope_covers_every_key_and_stays_small() {
        let values: Vec<f64> = (0..100_000).map(|i| (i as f64 * 0.1).sin()).collect();
        let curve = linear(&values, 0.01);
        let keys = values.iter().enumerate().map(|(i, &v)| crate::Key::new(i as f64 * 0.01, vec![v])).collect();
        let ranges = KeyRanges::new(&crate::Track::new("t", crate::TrackKind::Scalar, crate::Interpolation::Linear).with_keys(keys));
        let (x0, x1, n) = (0.0, 1000.0, 500);
        let s = &envelope_series(&curve, Some(&ranges), (x0, x1), n, &[Display::IDENTITY])[0];
        assert!(s.len() <= POINTS_PER_COLUMN * n + 1, "{} points", s.len());
        let w = (x1 - x0) / n as f64;
        for k in 0..n {
            let (a, b) = (x0 + w * k as f64, x0 + w * (k + 1) as f64);
            let keys = values.iter().enumerate().filter(|(i, _)| (a..=b).contains(&(*i as f64 * 0.01)));
            let (klo, khi) = keys.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), (_, &v)| (l.min(v), h.max(v)));
            let drawn = s.iter().filter(|p| (a..=b).contains(&p[0]));
            let (dlo, dhi) = drawn.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p[1]), h.max(p[1])));
            assert!(dlo <= klo + 1e-12 && dhi >= khi - 1e-12, "column {k}: keys {klo}..{khi}, drawn {dlo}..{dhi}");
        }
    }

    #[test]
    fn the_cache_rebuilds_only_when_something_changed() {
        let curve = linear(&[0.0, 1.0, 0.5], 1.0);
        let mut cache = CurveCache::default();
        let d = [Display::IDENTITY];
        cache.series(0, 1, &curve, None, (0.0, 2.0), 100, &d);
        cache.series(0, 1, &curve, None, (0.0, 2.0), 100, &d);
        assert_eq!(cache.builds, 1, "same stamp, range, width and display: reused");
        cache.series(0, 2, &curve, None, (0.0, 2.0), 100, &d);
        cache.series(0, 2, &curve, None, (0.0, 2.5), 100, &d);
        cache.series(0, 2, &curve, None, (0.0, 2.5), 120, &d);
        cache.series(0, 2, &curve, None, (0.0, 2.5), 120, &[Display { offset: 1.0, scale: 2.0, base: 0.0 }]);
        assert_eq!(cache.builds, 5, "a new stamp, range, width or display rebuilds");
    }
}
