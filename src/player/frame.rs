//! A frame of a [`super::ClipPlayer`]: every track's hot state ([`Tracks`]) and the order of
//! a frame's loops (see the speed section of the module docs of [`crate::player`]). The
//! tracks the player evaluates itself are played by [`super::lanes`]; every other track here,
//! through its own `segment_value`.

use super::compact::{Kind, Plan};
use super::lanes::{ask, play_poly, play_slerp, read, settle, value_of, write_poly, Arcs, Group as Lanes};
use super::packed::Packed;
use super::packed_lanes::PackedTracks;
use crate::search::{within, Located, SegmentCursor};
use crate::TrackCurve;
use std::ops::Range;

/// A track the player does not evaluate itself: the bounds of the segment found last, its
/// cursor, and where its value goes.
#[derive(Clone, Debug)]
struct Slot<'c> {
    /// `times[seg]` and `times[seg + 1]` of the segment found last, or `(+∞, −∞)`, between
    /// which no time lies (before the first frame, and after one outside the keys).
    lo: f64,
    hi: f64,
    seg: usize,
    /// Where the track's value starts in a frame.
    out: usize,
    times: &'c [f64],
    curve: &'c TrackCurve,
    cursor: SegmentCursor,
}

impl<'c> Slot<'c> {
    const NOWHERE: (f64, f64) = (f64::INFINITY, f64::NEG_INFINITY);

    fn new(curve: &'c TrackCurve, out: usize) -> Self {
        let (lo, hi) = Self::NOWHERE;
        Self { lo, hi, seg: 0, out, times: curve.times(), curve, cursor: SegmentCursor::new() }
    }
}

/// Consecutive slots or lanes of one dimension.
#[derive(Clone, Debug)]
struct Group {
    range: Range<usize>,
    dim: usize,
}

/// Groups of consecutive items of one dimension, `dims` sorted.
fn groups(dims: impl Iterator<Item = usize>) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for (k, dim) in dims.enumerate() {
        match groups.last_mut() {
            Some(g) if g.dim == dim => g.range.end = k + 1,
            _ => groups.push(Group { range: k..k + 1, dim }),
        }
    }
    groups
}

/// Runs `$call` on each group of `$items` with its dimension as the constant `D`.
macro_rules! for_each_dim {
    ($items:expr, $groups:expr, |$s:ident, $d:ident| $call:expr) => {
        for g in &$groups {
            let Some($s) = $items.get_mut(g.range.clone()) else { continue };
            match g.dim {
                1 => {
                    const $d: usize = 1;
                    $call
                }
                2 => {
                    const $d: usize = 2;
                    $call
                }
                3 => {
                    const $d: usize = 3;
                    $call
                }
                _ => {
                    const $d: usize = 4;
                    $call
                }
            }
        }
    };
}

/// Runs `$call` on each group of polynomial tracks with its dimension as the constant `D`.
macro_rules! for_each_poly {
    ($groups:expr, |$g:ident, $d:ident| $call:expr) => {
        for $g in $groups.iter_mut() {
            match $g.kind {
                Kind::Poly(1) => {
                    const $d: usize = 1;
                    $call
                }
                Kind::Poly(2) => {
                    const $d: usize = 2;
                    $call
                }
                _ => {
                    const $d: usize = 3;
                    $call
                }
            }
        }
    };
}

/// Every track's hot state, by the form it is evaluated in.
#[derive(Clone, Debug)]
pub(super) struct Tracks<'c> {
    /// Polynomial tracks of one to three components, a group per dimension.
    poly: Vec<Lanes<'c>>,
    slerp: Lanes<'c>,
    /// The tracks kept as float32 keys, and whether there are any.
    packed: PackedTracks<'c>,
    any_packed: bool,
    plan: &'c Plan,
    /// The Slerp tracks' arcs of a frame.
    arcs: Arcs<'c>,
    other: Vec<Slot<'c>>,
    other_groups: Vec<Group>,
    /// Whether to evaluate with 256-bit registers: set only where the processor has AVX2
    /// (and cleared by [`ClipPlayer::portable`](super::ClipPlayer::portable)).
    wide: bool,
}

impl<'c> Tracks<'c> {
    /// The hot state of a clip's `curves` by its `plan`, the values at `offsets`.
    pub(super) fn new(curves: &'c [TrackCurve], plan: &'c Plan, packed: &'c Packed, offsets: &[usize]) -> Self {
        let packed = PackedTracks::new(packed, curves, offsets);
        let poly = (1..=3).map(|d| Lanes::new(plan, Kind::Poly(d), curves, offsets)).filter(|g| g.len() > 0).collect();
        let slerp = Lanes::new(plan, Kind::Slerp, curves, offsets);
        let mut other: Vec<Slot<'c>> =
            curves.iter().zip(offsets).zip(&plan.grouped).filter(|(_, &grouped)| !grouped).map(|((c, &out), _)| Slot::new(c, out)).collect();
        // Within a dimension, by mode, so that a mode's dispatch inside `segment_value` predicts.
        other.sort_by_key(|s| (s.curve.dim(), s.curve.interpolation() as usize, s.out));
        let other_groups = groups(other.iter().map(|s| s.curve.dim()));
        #[cfg(target_arch = "x86_64")]
        let wide = std::arch::is_x86_feature_detected!("avx2");
        #[cfg(not(target_arch = "x86_64"))]
        let wide = false;
        let arcs = Arcs::default();
        let any_packed = !packed.is_empty();
        Self { poly, slerp, packed, any_packed, plan, arcs, other, other_groups, wide }
    }

    /// Evaluate as where the processor has no AVX2 ([`ClipPlayer::portable`]).
    pub(super) fn use_narrow_registers(&mut self) {
        self.wide = false;
    }

    /// Evaluate as where the processor has AVX2 but no AVX-512 ([`ClipPlayer::without_avx512`]).
    pub(super) fn use_256_bit_registers(&mut self) {
        self.packed.use_256_bit_registers();
    }

    /// Every track at `t`, found from where the last frame was.
    pub(super) fn play_on(&mut self, t: f64, out: &mut [f64]) {
        #[cfg(target_arch = "x86_64")]
        if self.wide {
            // SAFETY: `wide` is set only where the processor has AVX2.
            return unsafe { self.play_on_avx2(t, out) };
        }
        // SAFETY: not `WIDE`.
        unsafe { self.play_on_in::<false>(t, out) };
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn play_on_avx2(&mut self, t: f64, out: &mut [f64]) {
        // SAFETY: this function is compiled for AVX2 and called only where it is present.
        unsafe { self.play_on_in::<true>(t, out) };
    }

    /// Sequential playback (`WIDE`: three-component values on four lanes).
    ///
    /// # Safety
    /// With `WIDE`, the processor must have AVX2.
    #[inline(always)]
    unsafe fn play_on_in<const WIDE: bool>(&mut self, t: f64, out: &mut [f64]) {
        // SAFETY: with `WIDE` the processor has AVX2 (this function's contract).
        for_each_poly!(self.poly, |g, D| unsafe { play_poly::<D, WIDE>(g, t, out) });
        play_slerp(&mut self.slerp, &mut self.arcs, t, out, false);
        if self.any_packed {
            // SAFETY: with `WIDE` the processor has AVX2 (this function's contract).
            unsafe { self.packed.play::<WIDE>(t, out, false) };
        }
        for_each_dim!(self.other, self.other_groups, |slots, D| play_other::<D>(slots, t, out));
    }

    /// Every track at `t`, wherever that is: every record found by its group's grid or its
    /// track's index in passes over all tracks that ask for the next pass's data, then every
    /// track evaluated.
    pub(super) fn jump_to(&mut self, t: f64, out: &mut [f64]) {
        let row = ask(self.plan, self.poly.iter().chain([&self.slerp]), t).map_or(&[][..], |k| self.plan.grid.row(k));
        if self.any_packed {
            self.packed.ask(t);
        }
        mark_and_ask(&mut self.other, t);
        self.poly.iter_mut().for_each(|g| read(g, row, t));
        read(&mut self.slerp, row, t);
        ask_keys(&self.other, t);
        if self.any_packed {
            self.packed.find_all(t);
        }
        self.poly.iter_mut().for_each(|g| settle(g, t));
        settle(&mut self.slerp, t);
        find_marked(&mut self.other, t);
        #[cfg(target_arch = "x86_64")]
        if self.wide {
            // SAFETY: `wide` is set only where the processor has AVX2.
            return unsafe { self.write_avx2(t, out) };
        }
        // SAFETY: not `WIDE`.
        unsafe { self.write_in::<false>(t, out) };
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn write_avx2(&mut self, t: f64, out: &mut [f64]) {
        // SAFETY: this function is compiled for AVX2 and called only where it is present.
        unsafe { self.write_in::<true>(t, out) };
    }

    /// A seek's evaluation of every track (`WIDE`: as in [`Tracks::play_on_in`]).
    ///
    /// # Safety
    /// With `WIDE`, the processor must have AVX2.
    #[inline(always)]
    unsafe fn write_in<const WIDE: bool>(&mut self, t: f64, out: &mut [f64]) {
        // SAFETY: with `WIDE` the processor has AVX2 (this function's contract).
        for_each_poly!(self.poly, |g, D| unsafe { write_poly::<D, WIDE>(g, t, out) });
        play_slerp(&mut self.slerp, &mut self.arcs, t, out, true);
        if self.any_packed {
            // SAFETY: with `WIDE` the processor has AVX2 (this function's contract).
            unsafe { self.packed.play::<WIDE>(t, out, true) };
        }
        for_each_dim!(self.other, self.other_groups, |slots, D| write_other::<D>(slots, t, out));
    }
}

/// How many key times past the cached segment sequential playback looks at once.
const LOOK: usize = 4;

/// Sequential playback's step: with `w` the key times from the cached segment `seg` on, when
/// `w[0] ≤ t` the next [`LOOK`] are counted without branches; if `c < LOOK` of them are
/// `≤ t`, then `w[c] ≤ t < w[c + 1]`, so `t` is inside segment `seg + c` (the last of keys
/// sharing a time, as the rule of [`crate::search`] says), which is cached. This holds
/// whatever `seg` is, cached or not. `false` when it does not decide (a jump, playing
/// backwards, the last keys): then [`find`].
#[inline(always)]
fn step(s: &mut Slot<'_>, t: f64) -> bool {
    let seg = s.seg;
    let Some(Ok(w)) = s.times.get(seg..seg + LOOK + 2).map(<&[f64; LOOK + 2]>::try_from) else { return false };
    let c: usize = w[1..=LOOK].iter().map(|&x| usize::from(x <= t)).sum();
    if !(w[0] <= t && c < LOOK) {
        return false;
    }
    (s.lo, s.hi, s.seg) = (w[c], w[c + 1], seg + c);
    true
}

/// Where [`step`] does not decide: the cached segment, else the track's cursor and index.
/// Whether `t` is inside the keys.
#[inline(never)]
fn find(s: &mut Slot<'_>, t: f64) -> bool {
    within(s.lo, t, s.hi) || {
        let found = s.curve.locate(&mut s.cursor, t);
        cache(s, found)
    }
}

/// Caches what a search found in `s`; whether it is a segment (`t` inside the keys).
#[inline(always)]
fn cache(s: &mut Slot<'_>, found: Located) -> bool {
    if let Located::Inside(seg) = found {
        if let (Some(&lo), Some(&hi)) = (s.times.get(seg), s.times.get(seg + 1)) {
            (s.lo, s.hi, s.seg) = (lo, hi, seg);
            return true;
        }
    }
    (s.lo, s.hi) = Slot::NOWHERE;
    false
}

/// Sequential playback of a group of tracks the player does not evaluate itself.
#[inline(never)]
fn play_other<const D: usize>(slots: &mut [Slot<'_>], t: f64, out: &mut [f64]) {
    for s in slots {
        let Some(o) = value_of::<D>(out, s.out) else { continue };
        if step(s, t) || find(s, t) {
            s.curve.segment_value(s.seg, t, o);
        } else {
            s.curve.sample(&mut s.cursor, t, o);
        }
    }
}

/// The first pass of a seek ([`Tracks::jump_to`]): every slot whose cached segment does not
/// hold `t` is marked (a NaN upper bound) and its index's bucket entry asked for.
#[inline(never)]
fn mark_and_ask(slots: &mut [Slot<'_>], t: f64) {
    for s in slots {
        if !within(s.lo, t, s.hi) {
            s.hi = f64::NAN;
            s.curve.prefetch_lookup(t);
        }
    }
}

/// The second pass of a seek: for every marked slot, the positions its index counts and the
/// key times there asked for.
#[inline(never)]
fn ask_keys(slots: &[Slot<'_>], t: f64) {
    for s in slots.iter().filter(|s| s.hi.is_nan()) {
        s.curve.prefetch_keys(t);
    }
}

/// The third pass of a seek: every marked slot's segment looked up by its track's index (no
/// cursor: `t` may be anywhere) and cached.
#[inline(never)]
fn find_marked(slots: &mut [Slot<'_>], t: f64) {
    for s in slots.iter_mut().filter(|s| s.hi.is_nan()) {
        let count = s.curve.count_anywhere(t);
        cache(s, Located::from_count(count, s.times.len()));
    }
}

/// A group of tracks the player does not evaluate itself at `t`, their segments found.
#[inline(never)]
fn write_other<const D: usize>(slots: &mut [Slot<'_>], t: f64, out: &mut [f64]) {
    for s in slots {
        let Some(o) = value_of::<D>(out, s.out) else { continue };
        if within(s.lo, t, s.hi) {
            s.curve.segment_value(s.seg, t, o);
        } else {
            s.curve.sample(&mut s.cursor, t, o);
        }
    }
}
