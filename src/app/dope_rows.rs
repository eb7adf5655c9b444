//! What the dope sheet shows, as plain data: its rows (a summary of the whole take, then the
//! track list's rows — the body's tree or name groups, `track_rows.rs` — each group with a
//! summary row of its tracks' keys) and each row's marks in the time range on screen.
//!
//! Drawing costs what is on screen, not the take: a row whose keys in view are fewer than a
//! third of the pixel columns gets one mark per key (shaped by the segment after it: see
//! [`Shape`]); a denser row gets runs — the columns holding keys, found by binary search per
//! column (O(columns · log keys)), split where the selection changes. A row's marks are kept
//! until its keys, the selection, the time range or the width change ([`MarkCache`]).

use std::collections::HashMap;

use super::key_change::KeyRef;
use super::track_rows::Row;
use crate::model::KeyInterpolation;
use crate::{Interpolation, Track};

/// A line of the dope sheet.
#[derive(Clone, Debug, PartialEq)]
pub enum DopeRow {
    /// Every listed track's keys.
    Summary { members: Vec<usize> },
    /// A group's (a joint's branch, or a name prefix's tracks) keys, open or closed.
    Group { name: String, members: Vec<usize>, open: bool, depth: usize },
    /// One track's keys.
    Track { index: usize, depth: usize },
}

/// What a row's kept marks and columns are filed under: cheap to hash (a summary of 200
/// tracks is not hashed by its 200 members every frame).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RowId {
    Summary,
    Group(String),
    Track(usize),
}

impl DopeRow {
    /// The row's key in the caches.
    pub fn id(&self) -> RowId {
        match self {
            Self::Summary { .. } => RowId::Summary,
            Self::Group { name, .. } => RowId::Group(name.clone()),
            Self::Track { index, .. } => RowId::Track(*index),
        }
    }

    /// A number that changes with the row's members and their curves' stamps.
    pub fn stamp(&self, stamps: &dyn Fn(usize) -> u64) -> u64 {
        // Mixed at each step (a plain rotate-and-xor lets two changes cancel).
        self.members().iter().fold(0u64, |h, &ti| (h.rotate_left(5) ^ stamps(ti) ^ (ti as u64).rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    /// The tracks whose keys the row shows.
    pub fn members(&self) -> &[usize] {
        match self {
            Self::Summary { members } | Self::Group { members, .. } => members,
            Self::Track { index, .. } => std::slice::from_ref(index),
        }
    }

    /// The row's name on the value axis, indented by its depth.
    pub fn label(&self, tracks: &[Track]) -> String {
        match self {
            Self::Summary { members } => format!("Summary ({} tracks)", members.len()),
            Self::Group { name, members, open, depth } => format!("{}{} {name} ({})", "  ".repeat(*depth), if *open { "-" } else { "+" }, members.len()),
            Self::Track { index, depth } => {
                let name = &tracks[*index].name;
                // Under its joint or group, a track is named by what follows the prefix.
                let short = super::track_rows::prefix(name).filter(|_| *depth > 0).map_or(name.as_str(), |p| &name[p.len() + 1..]);
                format!("{}{short}", "  ".repeat(*depth))
            }
        }
    }
}

/// The dope sheet's rows: the summary of `listed`, then the track list's rows as dope rows.
pub fn dope_rows(listed: &[usize], rows: Vec<Row>) -> Vec<DopeRow> {
    let mut out = Vec::with_capacity(rows.len() + 1);
    out.push(DopeRow::Summary { members: listed.to_vec() });
    out.extend(rows.into_iter().map(|row| match row {
        Row::Group { prefix, members, open, depth } => DopeRow::Group { name: prefix, members, open, depth },
        Row::Track { index, depth } => DopeRow::Track { index, depth },
    }));
    out
}

/// A key's mark, by the segment that follows it (Blender draws the interpolation between keys;
/// here the mark carries it): Bézier, TCB, Cubic and Squad (smooth) a diamond, as Blender's
/// keyframe; Linear, Slerp and Nlerp a circle; Step and Constant a square; an easing segment
/// (Sine … Elastic) a triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Smooth,
    Linear,
    Constant,
    Eased,
    /// A summary row's key: of several tracks, no one shape.
    Summary,
}

/// The shape of key `k`'s mark on `track`.
pub fn shape(track: &Track, k: usize) -> Shape {
    match track.interpolation {
        Interpolation::Step => Shape::Constant,
        Interpolation::Linear | Interpolation::Slerp | Interpolation::Nlerp => Shape::Linear,
        Interpolation::Tcb | Interpolation::Cubic | Interpolation::Squad => Shape::Smooth,
        Interpolation::Bezier => match track.keys.full_keys().and_then(|v| v.get(k)).map_or(KeyInterpolation::Bezier, |key| key.interpolation) {
            KeyInterpolation::Constant => Shape::Constant,
            KeyInterpolation::Linear => Shape::Linear,
            KeyInterpolation::Bezier => Shape::Smooth,
            _ => Shape::Eased,
        },
    }
}

/// What a row draws in the time range on screen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    /// One per key (or per time, in a summary row): `(time, shape, selected)`.
    pub keys: Vec<(f64, Shape, bool)>,
    /// Denser than the columns: `(from, to, selected)` spans of columns holding keys.
    pub runs: Vec<(f64, f64, bool)>,
}

/// Keys closer in time than this are one time in a summary row (and one click selects them).
pub const SAME_TIME: f64 = 1e-6;

/// A row's marks over `(x0, x1)` in `columns` pixel columns.
/// `held` keeps which columns hold keys per track; `stamps(track)` is its curve's stamp.
pub fn marks(
    tracks: &[Track],
    selection: &Selection<'_>,
    row: &DopeRow,
    ((x0, x1), columns): ((f64, f64), usize),
    held: &mut ColumnCache,
    stamps: &dyn Fn(usize) -> u64,
) -> Marks {
    let columns = columns.max(1);
    let members = row.members();
    let in_view = |t: &Track| super::key_ranges::keys_in_range(&t.keys, x0, x1);
    let dense = members.iter().any(|&ti| in_view(&tracks[ti]).len() * 3 > columns);
    if dense {
        return Marks { keys: Vec::new(), runs: runs(tracks, selection, row, ((x0, x1), columns), held, stamps) };
    }
    let summary = !matches!(row, DopeRow::Track { .. });
    let mut keys: Vec<(f64, Shape, bool)> = Vec::new();
    for &ti in members {
        let track = &tracks[ti];
        for k in in_view(track) {
            let selected = selection.keys.contains(&KeyRef { track: ti, key: k });
            keys.push((track.keys.time(k), if summary { Shape::Summary } else { shape(track, k) }, selected));
        }
    }
    if summary {
        keys.sort_by(|a, b| a.0.total_cmp(&b.0));
        // One mark per time, selected if any of its keys is.
        let mut merged: Vec<(f64, Shape, bool)> = Vec::with_capacity(keys.len());
        for key in keys {
            match merged.last_mut() {
                Some(last) if key.0 - last.0 <= SAME_TIME => last.2 |= key.2,
                _ => merged.push(key),
            }
        }
        keys = merged;
    }
    Marks { keys, runs: Vec::new() }
}

/// The columns of `(x0, x1)` holding a key of any of `members`, as runs split where a column's
/// keys start or stop including a selected one. Which columns hold keys is the union of the
/// members' columns (`held`, kept per row and per track whatever the selection); which hold
/// selected keys is found only for the members in `selected` (the tracks with a selected key),
/// so a selection change costs a row of 200 tracks a copy, not 200 tracks' columns again.
fn runs(
    tracks: &[Track],
    selection: &Selection<'_>,
    row: &DopeRow,
    view: ((f64, f64), usize),
    held: &mut ColumnCache,
    stamps: &dyn Fn(usize) -> u64,
) -> Vec<(f64, f64, bool)> {
    let ((x0, x1), columns) = view;
    let members = row.members();
    let width = (x1 - x0) / columns as f64;
    let mut column: Vec<Option<bool>> = held.union(tracks, row, view, stamps).iter().map(|&has| has.then_some(false)).collect();
    for &ti in members.iter().filter(|ti| selection.tracks.binary_search(ti).is_ok()) {
        for (slot, &selected) in column.iter_mut().zip(held.selected(ti, &tracks[ti].keys, selection, view)) {
            if selected {
                *slot = Some(true);
            }
        }
    }
    let mut out: Vec<(f64, f64, bool)> = Vec::new();
    for (c, slot) in column.into_iter().enumerate() {
        let Some(selected) = slot else { continue };
        let (from, to) = (x0 + c as f64 * width, x0 + (c + 1) as f64 * width);
        match out.last_mut() {
            Some(last) if last.2 == selected && (last.1 - from).abs() < width * 1e-6 => last.1 = to,
            _ => out.push((from, to, selected)),
        }
    }
    out
}

/// The selection as the marks read it: the keys, the tracks holding one (ascending,
/// `intent::selected_tracks`, found once a frame) and its generation (what kept columns of
/// selected keys were made for; a key edit that moves selected keys takes a new one too).
pub struct Selection<'a> {
    pub keys: &'a std::collections::BTreeSet<KeyRef>,
    pub tracks: &'a [usize],
    pub generation: u64,
}

/// What a kept column list was made from: a stamp (the curve's, the row's, or the
/// selection's generation), the time range (as bits) and the number of columns.
type ColumnsId = (u64, (u64, u64), usize);

/// A column list kept with what it was made from.
type Kept = (ColumnsId, Vec<bool>);

/// The kept list under `key` in `map`, made again with `make` when `id` changed.
fn kept_or_made<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Kept>, key: K, id: ColumnsId, make: impl FnOnce() -> Vec<bool>) -> &[bool] {
    let entry = map.entry(key).or_insert_with(|| ((u64::MAX, (0, 0), 0), Vec::new()));
    if entry.0 != id {
        *entry = (id, make());
    }
    &entry.1
}

/// The key indices of `keys` in each of `columns` equal columns of `(x0, x1)`, by binary
/// search per column (O(columns · log keys)), as `f(column's keys)` per column.
fn per_column(keys: &crate::Keys, ((x0, x1), columns): ((f64, f64), usize), mut f: impl FnMut(std::ops::Range<usize>) -> bool) -> Vec<bool> {
    let width = (x1 - x0) / columns as f64;
    let mut a = keys.partition_point(|t| t < x0);
    (0..columns)
        .map(|c| {
            let b = keys.partition_point(|t| t < x0 + (c + 1) as f64 * width).max(a);
            let yes = f(a..b);
            a = b;
            yes
        })
        .collect()
}

/// Which pixel columns hold a key, per track: kept until the track's curve stamp, the time
/// range or the width change (a selection change, which makes every row's marks again, then
/// costs a summary of 200 tracks 200 boolean ORs per column, not 400 binary searches).
#[derive(Default)]
pub struct ColumnCache {
    tracks: HashMap<usize, Kept>,
    /// Per row (its members): the union of their columns, with the members' stamps folded.
    rows: HashMap<RowId, Kept>,
    /// Per track with a selected key: which columns hold one, for the selection's generation
    /// (a track under ten nested groups is looked at once a frame, not once per row).
    selected: HashMap<usize, Kept>,
}

impl ColumnCache {
    /// Whether each column holds one of `keys` (track `ti`'s, whose curve has `stamp`).
    fn occupied(&mut self, ti: usize, keys: &crate::Keys, stamp: u64, view: ((f64, f64), usize)) -> &[bool] {
        let ((x0, x1), columns) = view;
        kept_or_made(&mut self.tracks, ti, (stamp, (x0.to_bits(), x1.to_bits()), columns), || per_column(keys, view, |r| !r.is_empty()))
    }

    /// Which columns hold a selected key of track `ti`.
    fn selected(&mut self, ti: usize, keys: &crate::Keys, selection: &Selection<'_>, view: ((f64, f64), usize)) -> &[bool] {
        let ((x0, x1), columns) = view;
        kept_or_made(&mut self.selected, ti, (selection.generation, (x0.to_bits(), x1.to_bits()), columns), || {
            per_column(keys, view, |r| {
                !r.is_empty() && selection.keys.range(KeyRef { track: ti, key: r.start }..KeyRef { track: ti, key: r.end }).next().is_some()
            })
        })
    }

    /// Which columns hold a key of any of `members` (the union of [`Self::occupied`]).
    fn union(&mut self, tracks: &[Track], row: &DopeRow, view: ((f64, f64), usize), stamps: &dyn Fn(usize) -> u64) -> &[bool] {
        let ((x0, x1), columns) = view;
        let id = (row.stamp(stamps), (x0.to_bits(), x1.to_bits()), columns);
        let key = row.id();
        if self.rows.get(&key).is_none_or(|e| e.0 != id) {
            let mut union = vec![false; columns];
            for &ti in row.members() {
                for (u, &has) in union.iter_mut().zip(self.occupied(ti, &tracks[ti].keys, stamps(ti), view)) {
                    *u |= has;
                }
            }
            self.rows.insert(key.clone(), (id, union));
        }
        &self.rows[&key].1
    }

    /// Forgets tracks past `count` (a document with fewer tracks) and rows not in `shown`.
    pub fn retain(&mut self, count: usize, shown: &[DopeRow]) {
        self.tracks.retain(|&ti, _| ti < count);
        self.selected.retain(|&ti, _| ti < count);
        let ids: std::collections::HashSet<RowId> = shown.iter().map(DopeRow::id).collect();
        self.rows.retain(|id, _| ids.contains(id));
    }
}

/// Each row's marks, kept while what they were made from holds.
#[derive(Default)]
pub struct MarkCache {
    rows: HashMap<RowId, (MarkKey, Marks)>,
}

/// What a row's marks were made from: the members' curve stamps, the selection's generation
/// (`None` while no track of the row holds a selected key), the time range (as bits) and the
/// columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkKey {
    pub stamps: u64,
    pub selection: Option<u64>,
    pub range: (u64, u64),
    pub columns: usize,
}

impl MarkCache {
    /// How many selected marks and runs the kept row `id` shows (tests).
    #[cfg(test)]
    pub fn selected_in(&self, id: &RowId) -> usize {
        self.rows.get(id).map_or(0, |(_, m)| m.keys.iter().filter(|k| k.2).count() + m.runs.iter().filter(|r| r.2).count())
    }

    /// The marks of `row` for `key`, made with `make` unless kept.
    pub fn get(&mut self, row: &DopeRow, key: MarkKey, make: impl FnOnce() -> Marks) -> &Marks {
        let id = row.id();
        let entry = self.rows.entry(id).or_insert_with(|| (MarkKey { stamps: 0, selection: None, range: (0, 0), columns: 0 }, Marks::default()));
        if entry.0 != key {
            entry.1 = make();
            entry.0 = key;
        }
        &entry.1
    }

    /// Forgets rows no longer shown (a closed group's tracks, a new document).
    pub fn retain(&mut self, shown: &[DopeRow]) {
        let ids: std::collections::HashSet<RowId> = shown.iter().map(DopeRow::id).collect();
        self.rows.retain(|id, _| ids.contains(id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Key, TrackKind};

    fn track(times: &[f64]) -> Track {
        Track::new("t", TrackKind::Scalar, Interpolation::Linear).with_keys(times.iter().map(|&t| Key::new(t, vec![0.0])).collect())
    }

    /// Hand-checked: keys at 0, 1, 2, 3 and a view of (0.5, 2.5) in 30 columns: keys 1 and 2,
    /// key 2 selected; a summary of a second track with keys at 2 and 2.2 merges the two 2s.
    #[test]
    fn sparse_rows_mark_each_key_and_summaries_merge_times() {
        let tracks = vec![track(&[0.0, 1.0, 2.0, 3.0]), track(&[2.0, 2.2])];
        let keys = std::collections::BTreeSet::from([KeyRef { track: 0, key: 2 }]);
        let selection = Selection { keys: &keys, tracks: &[0], generation: 1 };
        let row = DopeRow::Track { index: 0, depth: 0 };
        let m = marks(&tracks, &selection, &row, ((0.5, 2.5), 30), &mut ColumnCache::default(), &|_| 0);
        assert_eq!(m.keys, vec![(1.0, Shape::Linear, false), (2.0, Shape::Linear, true)]);
        let summary = DopeRow::Summary { members: vec![0, 1] };
        let m = marks(&tracks, &selection, &summary, ((0.5, 2.5), 30), &mut ColumnCache::default(), &|_| 0);
        assert_eq!(m.keys, vec![(1.0, Shape::Summary, false), (2.0, Shape::Summary, true), (2.2, Shape::Summary, false)]);
    }

    /// Hand-checked: 1,000 keys at 0.001 s steps over (0, 1) in 10 columns are dense: one run
    /// per column merged into runs split at the selection (keys 450..=549: columns 4 and 5).
    #[test]
    fn dense_rows_are_runs_split_at_the_selection() {
        let tracks = vec![track(&(0..1000).map(|i| i as f64 * 0.001).collect::<Vec<_>>())];
        let keys: std::collections::BTreeSet<KeyRef> = (450..550).map(|key| KeyRef { track: 0, key }).collect();
        let selection = Selection { keys: &keys, tracks: &[0], generation: 1 };
        let m = marks(&tracks, &selection, &DopeRow::Track { index: 0, depth: 0 }, ((0.0, 1.0), 10), &mut ColumnCache::default(), &|_| 0);
        assert!(m.keys.is_empty());
        let r: Vec<(i64, i64, bool)> = m.runs.iter().map(|&(a, b, s)| ((a * 10.0).round() as i64, (b * 10.0).round() as i64, s)).collect();
        assert_eq!(r, vec![(0, 4, false), (4, 6, true), (6, 10, false)]);
    }

    /// Hand-checked: two dense tracks, keys of the second (at 0..0.5 s) and the first (at
    /// 0.5..1 s); a summary of both is one run per half, the selected one (keys 700..=799 of
    /// the first track: columns 7 and 8) split out, and a member with no selected key (the
    /// second) adds no selection. The same cache serves the track's own row after.
    #[test]
    fn a_dense_summary_is_the_union_of_its_tracks_with_their_selections() {
        let times = |from: usize, to: usize| (from..to).map(|i| i as f64 * 0.001).collect::<Vec<_>>();
        let tracks = vec![track(&times(500, 1000)), track(&times(0, 500))];
        let keys: std::collections::BTreeSet<KeyRef> = (200..300).map(|key| KeyRef { track: 0, key }).collect();
        let selection = Selection { keys: &keys, tracks: &[0], generation: 1 };
        let mut held = ColumnCache::default();
        let summary = DopeRow::Summary { members: vec![0, 1] };
        let m = marks(&tracks, &selection, &summary, ((0.0, 1.0), 10), &mut held, &|_| 0);
        let r: Vec<(i64, i64, bool)> = m.runs.iter().map(|&(a, b, s)| ((a * 10.0).round() as i64, (b * 10.0).round() as i64, s)).collect();
        assert_eq!(r, vec![(0, 7, false), (7, 8, true), (8, 10, false)]);
        let own = marks(&tracks, &selection, &DopeRow::Track { index: 1, depth: 0 }, ((0.0, 1.0), 10), &mut held, &|_| 0);
        let r: Vec<(i64, i64, bool)> = own.runs.iter().map(|&(a, b, s)| ((a * 10.0).round() as i64, (b * 10.0).round() as i64, s)).collect();
        assert_eq!(r, vec![(0, 5, false)]);
    }

    #[test]
    fn shapes_follow_the_segment_after_the_key() {
        let mut t = track(&[0.0, 1.0]);
        assert_eq!(shape(&t, 0), Shape::Linear);
        t.interpolation = Interpolation::Bezier;
        assert_eq!(shape(&t, 0), Shape::Smooth);
        t.keys[0].interpolation = KeyInterpolation::Constant;
        assert_eq!(shape(&t, 0), Shape::Constant);
        t.keys[0].interpolation = KeyInterpolation::Elastic;
        assert_eq!(shape(&t, 0), Shape::Eased);
        t.interpolation = Interpolation::Step;
        assert_eq!(shape(&t, 1), Shape::Constant);
    }
}
