//! Which keys get a marker in the value graph, kept between frames until the track, the
//! selection or the view changes — a select-all on a mocap take puts a million selected keys
//! behind a few hundred marks per track.
//!
//! Where keys are closer than 1.5 pixels one marker stands for them. Where the keys in view are
//! denser than one per [`DENSE_PIXELS`] pixels, markers would merge into a solid band (and cost
//! a shape each): the track's keys are then not marked one by one — the curve's envelope shows
//! them — and its selected keys are marked as white runs along the curve.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use egui_plot::PlotUi;

use super::recent::Recent;
use crate::app::panel::PanelContext;
use crate::edit::intent::{self, KeyRef};
use crate::Track;

/// Below this many pixels per key in view, keys are not marked one by one.
pub const DENSE_PIXELS: f64 = 4.0;

/// The keys to mark, as indices into the track's keys.
#[derive(Default)]
pub struct MarkerSet {
    /// Keys marked one by one (none when dense).
    pub plain: Vec<usize>,
    /// Selected keys marked, at most one per 1.5 pixels.
    pub selected: Vec<usize>,
    /// When dense: the runs of `selected` (index ranges into it) with no unselected key
    /// between neighbours, each drawn as one white line.
    pub runs: Vec<std::ops::Range<usize>>,
}

pub type Markers = Arc<MarkerSet>;

/// What a track's markers were chosen for: (curve stamp, selection generation), the keys in
/// view, and the spacing.
type Chosen = ((u64, u64), std::ops::Range<usize>, u64);

/// Each drawn track's markers.
#[derive(Default)]
pub struct MarkerCache {
    tracks: HashMap<usize, Recent<Chosen, Markers>>,
}

impl MarkerCache {
    /// The markers of track `ti` among `keys` (those in view); `stamp` is the track's curve
    /// stamp and the selection's generation.
    pub fn markers(
        &mut self,
        plot_ui: &PlotUi<'_>,
        cx: &PanelContext<'_>,
        (ti, track): (usize, &Track),
        stamp: (u64, u64),
        keys: std::ops::Range<usize>,
    ) -> Markers {
        let min_dt = marker_spacing(plot_ui);
        let dense = keys.len() as f64 * DENSE_PIXELS > f64::from(plot_ui.transform().frame().width());
        let chosen = (stamp, keys.clone(), min_dt.to_bits());
        let recent = self.tracks.entry(ti).or_default();
        if let Some(m) = recent.get(&chosen) {
            return m.clone();
        }
        recent.insert(chosen, Arc::new(marker_keys(&cx.doc.selection, ti, track, keys, min_dt, dense))).clone()
    }

    /// Forgets tracks not drawn in the last frame.
    pub fn retain(&mut self, drawn: impl Fn(usize) -> bool) {
        self.tracks.retain(|t, _| drawn(*t));
    }
}

/// The time between two key markers for them to be drawn apart: 1.5 pixels.
fn marker_spacing(plot_ui: &PlotUi<'_>) -> f64 {
    let bounds = plot_ui.plot_bounds();
    (bounds.max()[0] - bounds.min()[0]) / f64::from(plot_ui.transform().frame().width().max(1.0)) * 1.5
}

/// The keys to mark among `keys`: from each marked key, the next is the first at least
/// `min_dt` later ([`next_apart`], a galloping search: the cost is the markers). Selected keys
/// in one pass over the selection in view: a marker at least `min_dt` after the last, and when
/// `dense`, a new run wherever a key between two selected ones is not selected (each run ends
/// at its last key).
fn marker_keys(selection: &BTreeSet<KeyRef>, ti: usize, track: &Track, keys: std::ops::Range<usize>, min_dt: f64, dense: bool) -> MarkerSet {
    let mut plain = Vec::new();
    let mut i = keys.start;
    while i < keys.end && !dense {
        plain.push(i);
        i = next_apart(track, i, keys.end, min_dt);
    }
    let mut selected: Vec<usize> = Vec::new();
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    let mut last: Option<(usize, bool)> = None;
    let mut marked_at = f64::NEG_INFINITY;
    for k in intent::in_keys(selection, ti, keys.clone()).map(|k| k.key) {
        let gap = last.is_none_or(|(p, _)| k != p + 1);
        if dense && gap {
            // The run so far ends at its last key.
            if let Some((p, false)) = last {
                selected.push(p);
            }
            if let Some(run) = runs.last_mut() {
                run.end = selected.len();
            }
            runs.push(selected.len()..selected.len());
        }
        let time = track.keys.time(k);
        let mark = gap || time >= marked_at + min_dt;
        if mark {
            selected.push(k);
            marked_at = time;
        }
        last = Some((k, mark));
    }
    if let (true, Some((p, false))) = (dense, last) {
        selected.push(p);
    }
    if let Some(run) = runs.last_mut() {
        run.end = selected.len();
    }
    MarkerSet { plain, selected, runs }
}

/// The first key after key `i` (below `end`) at least `min_dt` later than it. A galloping
/// search: the answer is usually a few keys on, so this reads a few nearby keys instead of
/// binary-searching the whole rest of the track.
pub fn next_apart(track: &Track, i: usize, end: usize, min_dt: f64) -> usize {
    let next = track.keys.time(i) + min_dt;
    let (first, len) = (i + 1, end.saturating_sub(i + 1));
    let mut hi = 1;
    while hi < len && track.keys.time(first + hi - 1) < next {
        hi *= 2;
    }
    let (mut lo, mut hi) = (hi / 2, hi.min(len));
    // The first of `lo..hi` not before `next` (all before `lo` are).
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if track.keys.time(first + mid) < next {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    first + lo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Interpolation, Key, TrackKind};
    use proptest::prelude::*;

    fn track(times: &[f64]) -> Track {
        Track::new("t", TrackKind::Scalar, Interpolation::Linear).with_keys(times.iter().map(|&t| Key::new(t, vec![0.0])).collect())
    }

    /// Hand-checked: keys at 0, 0.1, …, 1.0 with markers 0.25 apart.
    #[test]
    fn next_apart_by_hand() {
        let t = track(&(0..=10).map(|i| f64::from(i) / 10.0).collect::<Vec<_>>());
        assert_eq!(next_apart(&t, 0, 11, 0.25), 3, "0.3 is the first at or past 0.25");
        assert_eq!(next_apart(&t, 3, 11, 0.25), 6, "0.6 ≥ 0.55");
        assert_eq!(next_apart(&t, 9, 11, 0.25), 11, "none left");
        assert_eq!(next_apart(&t, 2, 5, 10.0), 5, "bounded by end");
    }

    fn marks(selected: &[usize], min_dt: f64, dense: bool) -> (Vec<usize>, Vec<std::ops::Range<usize>>) {
        let t = track(&(0..10).map(f64::from).collect::<Vec<_>>());
        let selection: BTreeSet<KeyRef> = selected.iter().map(|&key| KeyRef { track: 0, key }).collect();
        let m = marker_keys(&selection, 0, &t, 0..10, min_dt, dense);
        (m.selected, m.runs)
    }

    /// Hand-checked: keys 1–3 and 6–7 selected of keys at 0, 1, …, 9 s.
    #[test]
    fn selected_runs_by_hand() {
        assert_eq!(marks(&[1, 2, 3, 6, 7], 0.5, true), (vec![1, 2, 3, 6, 7], vec![0..3, 3..5]), "every key apart");
        assert_eq!(marks(&[1, 2, 3, 6, 7], 2.5, true), (vec![1, 3, 6, 7], vec![0..2, 2..4]), "thinned, each run to its last key");
        assert_eq!(marks(&[1, 2, 3, 6, 7], 2.5, false), (vec![1, 6], vec![]), "not dense: markers apart, no runs");
        assert_eq!(marks(&[4], 2.5, true), (vec![4], vec![0..1]));
    }

    proptest! {
        /// In a dense track the runs are exactly the stretches of consecutive selected keys:
        /// each starts at one's first key and ends at its last.
        #[test]
        fn runs_are_the_stretches_of_selected_keys(selected in prop::collection::btree_set(0usize..10, 0..10), min_dt in 0.1f64..4.0) {
            let selected: Vec<usize> = selected.into_iter().collect();
            let (marked, runs) = marks(&selected, min_dt, true);
            let found: Vec<(usize, usize)> = runs.iter().map(|r| (marked[r.start], marked[r.end - 1])).collect();
            let mut stretches: Vec<(usize, usize)> = Vec::new();
            for &k in &selected {
                match stretches.last_mut() {
                    Some((_, end)) if *end + 1 == k => *end = k,
                    _ => stretches.push((k, k)),
                }
            }
            prop_assert_eq!(found, stretches);
        }

        /// The galloping search finds what a plain scan finds.
        #[test]
        fn next_apart_is_the_first_far_enough(gaps in prop::collection::vec(0.0f64..1.0, 1..200), i in any::<prop::sample::Index>(), end in any::<prop::sample::Index>(), min_dt in 0.0f64..5.0) {
            let times: Vec<f64> = gaps.iter().scan(0.0, |t, g| { *t += g; Some(*t) }).collect();
            let t = track(&times);
            let i = i.index(times.len());
            let end = i + 1 + end.index(times.len() - i);
            let scan = (i + 1..end).find(|&j| times[j] >= times[i] + min_dt).unwrap_or(end);
            prop_assert_eq!(next_apart(&t, i, end, min_dt), scan);
        }
    }
}
