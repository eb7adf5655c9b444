//! Tracks whose key times (and TCB values) are all float32 numbers (as three.js stores them in
//! `Float32Array`s, and glTF): the clip keeps their **keys**, 16 bytes per key of a TCB track
//! of up to three components (float32 time and values), 52 per key of a Slerp track (float32
//! time, the normalised quaternion in float64, which a float32 key seldom is after
//! normalising, and 16 bytes per segment for the arc), instead of a record of 128 bytes per
//! segment ([`super::compact`]). The player
//! computes a segment's numbers from its keys every frame, numbers that are the compiled
//! track's bit for bit:
//!
//! - a TCB track whose tangents are those of its neighbours with tension, continuity and
//!   bias 0 in [`crate::TangentMode::Seed`] (`r = g₁ + ½(g₂ − g₁)`, `g₁ = p − p₋`,
//!   `g₂ = p₊ − p`, `crate::tcb`): a segment's coefficients from the keys before, at, after
//!   and after the next, in fewer operations than the compile's, equal where every operation
//!   is exact ([`poly_coefficients`]), and `1/Δt`;
//! - a Slerp track: `q₀` and `q₁` from the keys (`q₁` negated where the segment's pair flipped
//!   it), `θ` and `1/sin θ` kept per segment (an `acos` and a sine, too dear for a frame), and
//!   `1/Δt` from the key times.
//!
//! Each segment is checked when the clip is made: its numbers computed this way are compared,
//! bit for bit, with the ones the track compiled ([`TrackCurve::playback_form`]). A TCB
//! track's first and last segments (whose end tangents follow another rule) are evaluated by
//! the track's own `segment_value`, and so is a Slerp segment that is no arc (marked); a TCB
//! track where any other segment differs (other tangent parameters, two keys at one time),
//! a Slerp track where more than a quarter do, a Cubic track, or one whose key times (TCB:
//! and values) are not float32, stays with the records of [`super::compact`].
//!
//! Seeks find a track's segment by [`Rows`]: per row of time (about two keys of the longest
//! track each) and track, the number of keys before the row, as a u16; the keys in the row
//! (at most [`WINDOW`]) are then counted from the keys themselves.

use crate::curve::playback::Form;
use crate::quat::{neg, Quat};
use crate::TrackCurve;

/// The float32 that is exactly `x`, if there is one.
fn exact(x: f64) -> Option<f32> {
    // Rounding to the nearest float32 and back gives `x` exactly when `x` is one.
    #[allow(clippy::cast_possible_truncation)]
    let y = x as f32;
    (f64::from(y).to_bits() == x.to_bits()).then_some(y)
}

/// Four float32s as f64s (exact).
#[inline(always)]
pub(super) fn widen(k: &[f32; 4]) -> [f64; 4] {
    // Written out: `k.map(f64::from)` is not always inlined (the portable frame called it).
    [f64::from(k[0]), f64::from(k[1]), f64::from(k[2]), f64::from(k[3])]
}

/// A polynomial segment's numbers: per lane `[c₃, c₂, c₁, c₀]` (lane 0 is the key time's,
/// meaningless; lanes 1 to 3 the components), and `1/Δt`.
pub(super) type Coefficients = ([[f64; 4]; 4], f64);

/// The numbers of the segment from `k[1]` to `k[2]` (keys `[t, x, y, z]`), `k[0]` and `k[3]`
/// its neighbours, for a TCB track with tension, continuity and bias 0 in Seed mode.
///
/// `curve/tcb.rs` computes the tangent at a key as `(1 − T)(g₁ + ½g₃(1 ± C))·1`
/// (`crate::tcb::run_tangents`), here `g₁ + ½g₃` with `g₁ = cur − prev`, `g₂ = next − cur`,
/// `g₃ = g₂ − g₁`, and then `c₃ = 2p₀ + r₁ − 2p₁ + r₂`, `c₂ = −3p₀ − 2r₁ + 3p₁ − r₂`,
/// `c₁ = r₁`, `c₀ = p₀`. With float32 keys each of those operations is exact in float64
/// (differences and small multiples of float32 numbers of similar size), so the same numbers
/// come from fewer operations (Catmull–Rom's form): `r₁ = ½(p₁ − a)`, `r₂ = ½(e − p₀)`,
/// `δ = p₁ − p₀`, `c₃ = (r₁ + r₂) − (δ + δ)`, `c₂ = (δ − r₁) − c₃`. Where an operation of
/// either is not exact the numbers may differ: the clip compares every segment's, bit for bit,
/// with the compiled ones before it keeps a track as keys ([`Packed::new`]).
#[inline(always)]
pub(super) fn poly_coefficients(k: &[[f32; 4]; 4]) -> Coefficients {
    let [a, p0, p1, e] = [widen(&k[0]), widen(&k[1]), widen(&k[2]), widen(&k[3])];
    let r1: [f64; 4] = std::array::from_fn(|i| 0.5 * (p1[i] - a[i]));
    let r2: [f64; 4] = std::array::from_fn(|i| 0.5 * (e[i] - p0[i]));
    let d: [f64; 4] = std::array::from_fn(|i| p1[i] - p0[i]);
    let c3: [f64; 4] = std::array::from_fn(|i| (r1[i] + r2[i]) - (d[i] + d[i]));
    let c2 = std::array::from_fn(|i| (d[i] - r1[i]) - c3[i]);
    ([c3, c2, r1, p0], 1.0 / (p1[0] - p0[0]))
}

/// Horner's rule at local time `u` on every lane, as `sample` evaluates each component:
/// `((c₃u + c₂)u + c₁)u + c₀`.
#[inline(always)]
pub(super) fn horner(k: &[[f64; 4]; 4], u: f64) -> [f64; 4] {
    std::array::from_fn(|i| ((k[0][i] * u + k[1][i]) * u + k[2][i]) * u + k[3][i])
}

/// A TCB track (1 to 3 components) kept as its keys.
#[derive(Clone, Debug)]
pub(super) struct PolyKeys {
    /// The track's index in the clip.
    pub(super) track: usize,
    pub(super) dim: usize,
    /// `[t, x, y, z]` per key (components past `dim` 0). Every segment but the first and the
    /// last (which the track's `segment_value` evaluates) has the numbers computed from them.
    pub(super) keys: Vec<[f32; 4]>,
}

/// A Slerp track kept as its keys.
#[derive(Clone, Debug)]
pub(super) struct SlerpKeys {
    pub(super) track: usize,
    pub(super) times: Vec<f32>,
    /// The keys as the track holds them (normalised, so float64).
    pub(super) quats: Vec<Quat>,
    /// Per segment `θ` and `1/sin θ`, the latter negative where the pair negated `q₁`; `θ`
    /// negative (−1) where the player does not weigh the arc itself (no arc, or `1/Δt` not the
    /// track's): then the track's `segment_value`.
    pub(super) arcs: Vec<[f64; 2]>,
}

/// The tracks of a clip kept as their keys, and their rows for seeks.
#[derive(Clone, Debug, Default)]
pub(super) struct Packed {
    pub(super) poly: Vec<PolyKeys>,
    pub(super) slerp: Vec<SlerpKeys>,
    pub(super) rows: Rows,
}

/// At most this many keys of a track lie in one row of [`Rows`].
pub(super) const WINDOW: usize = 8;

/// Rows of equal length in time from `x0`, row `⌊(t − x0)·scale⌋`; per row, for each track
/// with a column, the number of its keys in earlier rows (a u16). As the row never decreases
/// when `t` grows, those keys are `≤ t` and the keys in later rows `> t`, so the number of
/// keys `≤ t` is the row's number plus those of the row's keys (at most [`WINDOW`]) that are
/// `≤ t`. Columns: the TCB tracks, then the Slerp tracks, in the order of [`Packed`]; a track
/// of 65,535 keys or more, or with more than [`WINDOW`] keys in a row, has none (its index
/// serves).
#[derive(Clone, Debug, Default)]
pub(super) struct Rows {
    x0: f64,
    scale: f64,
    len: f64,
    pub(super) width: usize,
    cells: Vec<u16>,
    pub(super) columns: Vec<Option<usize>>,
}

impl Rows {
    /// Rows over every track's key times (each sorted): about two keys of the longest track a row.
    fn new(tracks: &[Vec<f64>]) -> Self {
        let x0 = tracks.iter().filter_map(|t| t.first()).fold(f64::INFINITY, |a, &b| a.min(b));
        let last = tracks.iter().filter_map(|t| t.last()).fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        let most = tracks.iter().map(Vec::len).max().unwrap_or(0);
        if !(x0.is_finite() && last.is_finite() && last > x0 && most >= 2) {
            return Self { columns: vec![None; tracks.len()], ..Self::default() };
        }
        let count = (most / 2).max(1);
        let scale = count as f64 / (last - x0);
        let mut rows = Self { x0, scale, len: count as f64, width: 0, cells: Vec::new(), columns: vec![None; tracks.len()] };
        if !scale.is_finite() {
            return rows;
        }
        // Each track's column: per row the number of keys in earlier rows.
        let mut filled: Vec<Vec<u16>> = Vec::new();
        for (i, times) in tracks.iter().enumerate() {
            if times.len() >= usize::from(u16::MAX) {
                continue;
            }
            let mut column = vec![0u16; count];
            let (mut k, mut in_row) = (0usize, 0usize);
            for (r, cell) in column.iter_mut().enumerate() {
                let before = k;
                while k < times.len() && rows.row_of(times[k]).is_some_and(|x| x <= r) {
                    k += 1;
                }
                // In range: fewer than u16::MAX keys.
                *cell = before as u16;
                in_row = in_row.max(k - before);
            }
            if in_row <= WINDOW {
                rows.columns[i] = Some(filled.len());
                filled.push(column);
            }
        }
        rows.width = filled.len();
        rows.cells = (0..count).flat_map(|r| filled.iter().map(move |c| c[r])).collect();
        rows
    }

    /// The row of `t`; `None` outside the rows (or NaN).
    #[inline(always)]
    pub(super) fn row_of(&self, t: f64) -> Option<usize> {
        let k = (t - self.x0) * self.scale;
        // In range, so exact.
        (k >= 0.0 && k < self.len).then_some(k as usize)
    }

    /// Row `k`: per column the number of keys in earlier rows.
    #[inline(always)]
    pub(super) fn row(&self, k: usize) -> &[u16] {
        self.cells.get(k * self.width..(k + 1) * self.width).unwrap_or(&[])
    }

    /// The bytes of its cells.
    pub(super) fn bytes(&self) -> usize {
        std::mem::size_of_val(&self.cells[..])
    }
}

impl Packed {
    /// The clip's tracks that can be kept as float32 keys (see the module docs).
    pub(super) fn new(curves: &[TrackCurve]) -> Self {
        let mut packed = Self::default();
        for (track, curve) in curves.iter().enumerate() {
            match curve.playback_form() {
                Form::Poly(segs) if (1..=3).contains(&curve.dim()) && segs.len() >= 3 => {
                    if let Some(p) = poly_keys(track, curve, segs) {
                        packed.poly.push(p);
                    }
                }
                Form::Slerp(pairs) if pairs.len() >= 2 => {
                    if let Some(s) = slerp_keys(track, curve, pairs) {
                        packed.slerp.push(s);
                    }
                }
                _ => {}
            }
        }
        let times: Vec<Vec<f64>> =
            packed.poly.iter().map(|p| curves[p.track].times().to_vec()).chain(packed.slerp.iter().map(|s| curves[s.track].times().to_vec())).collect();
        packed.rows = Rows::new(&times);
        packed
    }

    /// Whether each of `n` tracks is kept here.
    pub(super) fn taken(&self, n: usize) -> Vec<bool> {
        let mut taken = vec![false; n];
        for t in self.poly.iter().map(|p| p.track).chain(self.slerp.iter().map(|s| s.track)) {
            taken[t] = true;
        }
        taken
    }

    /// The bytes its keys, per-segment numbers and rows take, and how many keys.
    #[must_use]
    pub(super) fn bytes_and_keys(&self) -> (usize, usize) {
        let size = std::mem::size_of_val::<[f32; 4]>;
        let mut bytes = 0;
        let mut keys = 0;
        for p in &self.poly {
            bytes += p.keys.iter().map(size).sum::<usize>();
            keys += p.keys.len();
        }
        for s in &self.slerp {
            bytes += std::mem::size_of_val(&s.times[..]) + std::mem::size_of_val(&s.quats[..]) + std::mem::size_of_val(&s.arcs[..]);
            keys += s.times.len();
        }
        (bytes + self.rows.bytes(), keys)
    }
}

/// At most this share of a track's segments may be evaluated by `segment_value`.
fn few(slow: usize, segments: usize) -> bool {
    4 * slow <= segments
}

fn poly_keys(track: usize, curve: &TrackCurve, segs: &[crate::curve::playback::PolySegment]) -> Option<PolyKeys> {
    let (times, dim) = (curve.times(), curve.dim());
    if times.len() != segs.len() + 1 || times.len() >= u32::MAX as usize {
        return None;
    }
    let keys = times
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let mut k = [exact(t)?, 0.0, 0.0, 0.0];
            for (c, &v) in curve.key_value(i).iter().enumerate().take(dim) {
                k[c + 1] = exact(v)?;
            }
            Some(k)
        })
        .collect::<Option<Vec<[f32; 4]>>>()?;
    // Every segment but the first and the last, whose end tangents follow another rule.
    let n = keys.len();
    let same = (1..n - 2).all(|s| {
        let (k, inv_dt) = poly_coefficients(&[keys[s - 1], keys[s], keys[s + 1], keys[s + 2]]);
        let bits = |x: f64| x.to_bits();
        times[s] < times[s + 1] && bits(inv_dt) == bits(segs[s].inv_dt) && (0..dim).all(|c| (0..4).all(|j| bits(k[j][c + 1]) == bits(segs[s].k[c][j])))
    });
    same.then_some(PolyKeys { track, dim, keys })
}

fn slerp_keys(track: usize, curve: &TrackCurve, pairs: &[(crate::quat::SlerpPair, f64)]) -> Option<SlerpKeys> {
    let times = curve.times();
    if times.len() != pairs.len() + 1 || times.len() >= u32::MAX as usize {
        return None;
    }
    let t32 = times.iter().map(|&t| exact(t)).collect::<Option<Vec<f32>>>()?;
    // The track's own (normalised) keys, which are seldom float32.
    let quats = (0..times.len())
        .map(|i| {
            let v = curve.key_value(i);
            Some([*v.first()?, *v.get(1)?, *v.get(2)?, *v.get(3)?])
        })
        .collect::<Option<Vec<Quat>>>()?;
    let mut count = 0;
    let arcs = pairs
        .iter()
        .enumerate()
        .map(|(s, (pair, inv_dt))| {
            let (q0, q1, arc) = pair.parts();
            let (k0, k1) = (quats[s], quats[s + 1]);
            let same = |a: &Quat, b: &Quat| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
            let ours = 1.0 / (times[s + 1] - times[s]);
            match arc {
                Some((theta, inv_sin))
                    if same(&q0, &k0)
                        && (same(&q1, &k1) || same(&q1, &neg(&k1)))
                        && *inv_dt > 0.0
                        && inv_dt.is_finite()
                        && ours.to_bits() == inv_dt.to_bits() =>
                {
                    // θ ∈ (0, π/2] and 1/sin θ > 0 for an arc, so the sign is free for the flip.
                    [theta, if same(&q1, &k1) { inv_sin } else { -inv_sin }]
                }
                _ => {
                    count += 1;
                    [-1.0, 0.0]
                }
            }
        })
        .collect();
    few(count, pairs.len()).then_some(SlerpKeys { track, times: t32, quats, arcs })
}
