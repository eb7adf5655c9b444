//! Blender 3.4's "Continuous Acceleration" auto handle smoothing: the second pass of
//! `BKE_fcurve_handles_recalc_ex` (`BKE_nurb_handle_smooth_fcurve` and
//! `bezier_handle_calc_smooth_fcurve` in `blenkernel/intern/curve.cc`, the solver
//! `BLI_tridiagonal_solve_cyclic` in `blenlib/intern/math_solvers.c`), written anew from
//! reading them. Computed in `f64` (Blender: `f32`).
//!
//! # Runs
//! A key is a *free automatic point* when both sides are Auto or AutoClamped and the first
//! pass did not lock it. Locked (`HD_AUTOTYPE_LOCKED_FINAL`) are: an end key flattened
//! because the curve is held there; a key an AutoClamped side found an extreme (or equal to
//! a neighbour); both keys of a pair at the same time. A run is a maximal sequence of free
//! points with the non-free key on each side (or the curve's end): positions `0..count`.
//! Its unknowns are `h[i]`, the value offset of the right handle of position `i`; every
//! handle reaches a third of its interval in time, and the left handle is `−h[i]/l[i]`, so
//! that the slope is continuous. With `dx[i]`, `dy[i]` the interval from position `i−1` to `i`
//! and `l[i] = dx[i+1]/dx[i]` (1 at the ends of an open run):
//!
//! ```text
//! continuous acceleration at i:  l[i]²·h[i−1] + 2(l[i]+1)·h[i] + h[i+1]/l[i+1] = dy[i]·l[i]² + dy[i+1]
//! zero acceleration at the start:             2·h[0] + h[1]/l[1]          = dy[1]
//! zero acceleration at the end:   l²·h[n−2] + 2l·h[n−1]                    = dy[n−1]·l²   (l = l[n−1])
//! fixed end handle:                           h[0] = (right − key).v,  h[n−1] = (key − left).v
//! ```
//!
//! An end position is solved (zero acceleration) when its inner side is Vector, or when it is
//! the curve's own first / last key and a free automatic point (extrapolated ends); otherwise
//! its handle is fixed. A fixed handle reaching `hx` in time over an interval `dx` is first
//! scaled by `dx/(hx + dx/3)` when that is below 1, and the neighbouring equation's diagonal
//! gains `l[1]·(1 − 3hx/dx)` (first) or `1 − 3hx/dx` (last) (`bezier_calc_handle_adj`).
//! Only Auto, AutoClamped and Vector sides are written; an Aligned other side is turned to
//! stay opposite, keeping its length; at the curve's ends (and at the seam of a cycle) an
//! automatic or Vector other side is mirrored through the key.
//!
//! # Clamping (AutoClamped)
//! A position with an AutoClamped side limits the handles of both intervals beside it to
//! neither reverse nor overshoot: for an interval rising by `dy > 0`, the right handle of its
//! start `h ∈ [0, dy]`, the left of its end `h ∈ [0, dy·l]` (mirrored for `dy < 0`, zero for a
//! flat interval) (`bezier_clamp`). The system is solved; every handle outside its limits is
//! locked at the limit it passed (at first only those whose limit is not zero, if any), and
//! solved again; when nothing overshoots, a locked handle whose equation would move it back
//! inside is released (at most twice each), and solved again (`tridiagonal_solve_with_limits`).
//!
//! # Cycles
//! With a cycle (see [`super::Ends::Cycle`]) and both end keys free, the last key is the first
//! one a period later. If every key is free the whole curve is one periodic system of `n − 1`
//! unknowns (`l[0] = dx[1]/dx[n−1]`, `dy[0] = dy[n−1]`), solved by Sherman–Morrison; otherwise
//! runs start at the first non-free key and may cross the seam, where the left handle goes to
//! the last key and the right handle to the first.

use super::{is_auto, Point};
use crate::model::HandleType;

/// Whether a side is written by the smoothing (`bezier_output_handle_inner`).
fn written(h: HandleType) -> bool {
    matches!(h, HandleType::Auto | HandleType::AutoClamped | HandleType::Vector)
}

/// The keys of one component, their handles (absolute, updated in place) and which keys the
/// first pass locked.
struct Curve<'a> {
    keys: &'a [super::HandleInput],
    handles: &'a mut [(Point, Point)],
    locked: &'a [bool],
    /// The runs wrap around (Blender's `cyclic`: a cycle and both end keys free).
    cyclic: bool,
}

/// Smooths every run of free automatic keys (`BKE_nurb_handle_smooth_fcurve`).
pub(super) fn smooth(keys: &[super::HandleInput], handles: &mut [(Point, Point)], locked: &[bool], cycle: bool) {
    let n = keys.len();
    let free = |i: usize| is_auto(keys[i].types.0) && is_auto(keys[i].types.1) && !locked[i];
    let cyclic = cycle && free(0) && free(n - 1);
    let mut curve = Curve { keys, handles, locked, cyclic };
    let mut start = 0;
    if cyclic {
        match (1..n - 1).find(|&i| !free(i)) {
            None => return curve.run(0, n, true),
            Some(base) => start = base,
        }
    }
    let mut count = 1;
    let mut j = start;
    for _ in 1..n {
        j += 1;
        if cyclic && j == n - 1 {
            j = 0;
        }
        if free(j) {
            count += 1;
        } else {
            curve.run(start, count + 1, false);
            start = j;
            count = 1;
        }
    }
    if count > 1 {
        curve.run(start, count, false);
    }
}

impl Curve<'_> {
    fn n(&self) -> usize {
        self.keys.len()
    }

    /// The key at position `p` of a run from `start` (a wrapped position is the first key,
    /// except the end of a full cycle, which is the last key).
    fn key_at(&self, start: usize, p: usize, full: bool) -> usize {
        let u = start + p;
        if self.cyclic && !(full && u == self.n() - 1) {
            u % (self.n() - 1)
        } else {
            u
        }
    }

    /// Whether position `p` of a run from `start` is the seam of a cycle (the last key, and the
    /// first one a period earlier).
    fn at_seam(&self, start: usize, p: usize) -> bool {
        self.cyclic && p > 0 && (start + p) % (self.n() - 1) == 0
    }

    /// `(dx, dy)` of the interval arriving at position `p ≥ 1` of a run from `start`.
    fn interval(&self, start: usize, p: usize) -> Point {
        let u = start + p - 1;
        let q = if self.cyclic { u % (self.n() - 1) } else { u };
        let (a, b) = (&self.keys[q], &self.keys[q + 1]);
        (b.time - a.time, b.value - a.value)
    }

    fn clamped(&self, i: usize) -> bool {
        let (l, r) = self.keys[i].types;
        l == HandleType::AutoClamped || r == HandleType::AutoClamped
    }

    /// Whether an end position's inner side is solved for zero acceleration rather than fixed
    /// (`bezier_check_solve_end_handle`): Vector, or automatic and free at the curve's end.
    fn solves(&self, i: usize, side: HandleType, curve_end: bool) -> bool {
        side == HandleType::Vector || (curve_end && is_auto(side) && !self.locked[i])
    }

    /// Solves the run of `count` positions from `start` and writes its handles
    /// (`bezier_handle_calc_smooth_fcurve`). `full`: the whole cycle.
    fn run(&mut self, start: usize, count: usize, full: bool) {
        if count < 2 {
            return;
        }
        let n = self.n();
        let (first, last) = (self.key_at(start, 0, full), self.key_at(start, count - 1, full));
        let mut solve_first = self.solves(first, self.keys[first].types.1, start == 0);
        let mut solve_last = self.solves(last, self.keys[last].types.0, start + count == n);
        if count == 2 && !full && solve_first == solve_last {
            return;
        }
        let Some((dx, dy, l)) = self.intervals(start, count, full) else { return };
        let (hmin, hmax) = self.limits(start, count, full, &dy, &l);
        let mut sys = System::new(count);
        let (mut first_adj, mut last_adj) = (0.0, 0.0);
        let solve_count = if full {
            solve_first = true;
            solve_last = true;
            sys.continuous(0, &dy, &l);
            count - 1
        } else {
            let key = |i: usize| (self.keys[i].time, self.keys[i].value);
            if solve_first {
                sys.set(0, [0.0, 2.0, 1.0 / l[1]], dy[1]);
            } else {
                let (adj, v) = handle_adj(super::sub(self.handles[first].1, key(first)), dx[1]);
                first_adj = adj;
                sys.set(0, [0.0, 1.0, 0.0], v);
            }
            if solve_last {
                let e = l[count - 1];
                sys.set(count - 1, [e * e, 2.0 * e, 0.0], dy[count - 1] * e * e);
            } else {
                let (adj, v) = handle_adj(super::sub(key(last), self.handles[last].0), dx[count - 1]);
                last_adj = adj;
                sys.set(count - 1, [0.0, 1.0, 0.0], v);
            }
            count
        };
        for p in 1..count - 1 {
            sys.continuous(p, &dy, &l);
        }
        if !full {
            if count > 2 || solve_last {
                sys.b[1] += l[1] * first_adj;
            }
            if count > 2 || solve_first {
                sys.b[count - 2] += last_adj;
            }
        }
        sys.truncate(solve_count);
        let Some(mut h) = sys.solve_with_limits(&hmin[..solve_count], &hmax[..solve_count]) else {
            return;
        };
        if full {
            h.push(h[0]);
        }
        if !(0..count).all(|p| (h[p] / l[p]).is_finite()) {
            return;
        }
        for p in 1..count - 1 {
            if self.at_seam(start, p) {
                self.output(n - 1, false, -h[p] / l[p], true);
                self.output(0, true, h[p], true);
            } else {
                let k = self.key_at(start, p, full);
                self.output(k, false, -h[p] / l[p], false);
                self.output(k, true, h[p], false);
            }
        }
        if solve_first {
            self.output(first, true, h[0], start == 0);
        }
        if solve_last {
            self.output(last, false, -h[count - 1] / l[count - 1], start + count == n);
        }
    }

    /// The run's intervals `(dx, dy)` to each position from the one before, and the ratios
    /// `l[p] = dx[p+1]/dx[p]` (on a full cycle, position 0 takes the last interval); `None`
    /// where two keys share a time (Blender divides by these: only ever the two ends of a run
    /// of two, whose handles stay as the first pass left them).
    #[allow(clippy::type_complexity)]
    fn intervals(&self, start: usize, count: usize, full: bool) -> Option<(Vec<f64>, Vec<f64>, Vec<f64>)> {
        let mut dx = vec![0.0; count];
        let mut dy = vec![0.0; count];
        for p in 1..count {
            (dx[p], dy[p]) = self.interval(start, p);
        }
        if !dx[1..].iter().all(|&x| x > 0.0) {
            return None;
        }
        let mut l = vec![1.0; count];
        if full {
            (dx[0], dy[0]) = (dx[count - 1], dy[count - 1]);
            l[0] = dx[1] / dx[0];
            l[count - 1] = l[0];
        }
        for p in 1..count - 1 {
            l[p] = dx[p + 1] / dx[p];
        }
        Some((dx, dy, l))
    }

    /// `[hmin, hmax]` per position (`bezier_clamp` over the run's intervals).
    fn limits(&self, start: usize, count: usize, full: bool, dy: &[f64], l: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let mut hmin = vec![f64::NEG_INFINITY; count];
        let mut hmax = vec![f64::INFINITY; count];
        let mut clamp = |i: usize, dy: f64, on: bool| {
            if !on {
                return;
            }
            if dy > 0.0 {
                hmax[i] = hmax[i].min(dy);
                hmin[i] = 0.0;
            } else if dy < 0.0 {
                hmax[i] = 0.0;
                hmin[i] = hmin[i].max(dy);
            } else {
                hmax[i] = 0.0;
                hmin[i] = 0.0;
            }
        };
        let mut cur = self.clamped(self.key_at(start, 0, full));
        for p in 1..count {
            let prev = cur;
            cur = if self.at_seam(start, p) { self.clamped(self.n() - 1) || self.clamped(0) } else { self.clamped(self.key_at(start, p, full)) };
            clamp(p - 1, dy[p], prev);
            clamp(p, dy[p] * l[p], cur);
        }
        if full {
            let e = count - 1;
            hmin[0] = hmin[0].max(hmin[e]);
            hmax[0] = hmax[0].min(hmax[e]);
        }
        (hmin, hmax)
    }

    /// Sets the value of key `i`'s right (or left) handle to `key + dv`, keeping its time, when
    /// that side is automatic or Vector; an Aligned other side turns to stay opposite with its
    /// length; at an `end`, an automatic or Vector other side is mirrored
    /// (`bezier_output_handle`).
    fn output(&mut self, i: usize, right: bool, dv: f64, end: bool) {
        let k = &self.keys[i];
        let key = (k.time, k.value);
        let (this_type, other_type) = if right { (k.types.1, k.types.0) } else { (k.types.0, k.types.1) };
        if !written(this_type) {
            return;
        }
        let (hl, hr) = &mut self.handles[i];
        let (this, other) = if right { (hr, hl) } else { (hl, hr) };
        this.1 = key.1 + dv;
        if other_type == HandleType::Aligned {
            let (other_len, this_len) = (super::length(super::sub(*other, key)), super::length(super::sub(*this, key)));
            if this_len > 0.0 {
                *other = super::add(key, super::scale_keeping_zeros(super::sub(key, *this), other_len / this_len));
            }
        } else if end && written(other_type) {
            *other = super::sub(super::scale(key, 2.0), *this);
        }
    }
}

/// A fixed end handle `(hx, hv)` (from its key, `hx ≥ 0` away from the run) over an interval
/// `dx`: scaled by `dx/(hx + dx/3)` when that is below 1, then `(1 − 3hx/dx, hv)`
/// (`bezier_calc_handle_adj`).
fn handle_adj((mut hx, mut hv): Point, dx: f64) -> (f64, f64) {
    let fac = dx / (hx + dx / 3.0);
    if fac < 1.0 {
        hx *= fac;
        hv *= fac;
    }
    (1.0 - 3.0 * hx / dx, hv)
}

/// A tridiagonal system, cyclic when `a[0]` or `c[n−1]` is not zero: row `i` reads
/// `a[i]·x[i−1] + b[i]·x[i] + c[i]·x[i+1] = d[i]`, indices modulo `n`.
struct System {
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    d: Vec<f64>,
}

impl System {
    fn new(n: usize) -> Self {
        Self { a: vec![0.0; n], b: vec![0.0; n], c: vec![0.0; n], d: vec![0.0; n] }
    }

    fn set(&mut self, i: usize, [a, b, c]: [f64; 3], d: f64) {
        (self.a[i], self.b[i], self.c[i], self.d[i]) = (a, b, c, d);
    }

    /// Continuous acceleration at position `i` (`bezier_eq_continuous`).
    fn continuous(&mut self, i: usize, dy: &[f64], l: &[f64]) {
        let li = l[i];
        self.set(i, [li * li, 2.0 * (li + 1.0), 1.0 / l[i + 1]], dy[i] * li * li + dy[i + 1]);
    }

    fn truncate(&mut self, n: usize) {
        for v in [&mut self.a, &mut self.b, &mut self.c, &mut self.d] {
            v.truncate(n);
        }
    }

    /// The solution with every `x[i]` kept in `[lo[i], hi[i]]` by Blender's heuristic
    /// (`tridiagonal_solve_with_limits`, see the module docs); `None` when the system has no
    /// finite solution.
    fn solve_with_limits(mut self, lo: &[f64], hi: &[f64]) -> Option<Vec<f64>> {
        let n = self.b.len();
        let original = (self.a.clone(), self.b.clone(), self.c.clone(), self.d.clone());
        let mut locked = vec![false; n];
        let mut unlocks = vec![0u8; n];
        let mut x = vec![0.0; n];
        // Blender's loop ends (each lock is of a handle outside its limits, each handle is
        // released at most twice); the bound only guards against rounding cycling.
        for _ in 0..8 * n + 64 {
            self.solve(&mut x)?;
            for i in (0..n).filter(|&i| locked[i]) {
                x[i] = self.d[i];
            }
            let mut overshoot = false;
            let mut locked_any = false;
            for all in [false, true] {
                for i in 0..n {
                    if x[i] >= lo[i] && x[i] <= hi[i] {
                        continue;
                    }
                    overshoot = true;
                    let target = if x[i] > hi[i] { hi[i] } else { lo[i] };
                    // Lock those that move toward a non-zero limit first, if there are any.
                    if target != 0.0 || all {
                        locked[i] = true;
                        self.set(i, [0.0, 1.0, 0.0], target);
                        locked_any = true;
                    }
                }
                if !overshoot || locked_any {
                    break;
                }
            }
            let mut unlocked = false;
            if !locked_any {
                let (a0, b0, c0, d0) = &original;
                for i in 0..n {
                    if !locked[i] || unlocks[i] >= 2 {
                        continue;
                    }
                    let state = a0[i] * x[(i + n - 1) % n] + b0[i] * x[i] + c0[i] * x[(i + 1) % n] - d0[i];
                    let relax = -state * b0[i];
                    if (relax > 0.0 && x[i] < hi[i]) || (relax < 0.0 && x[i] > lo[i]) {
                        self.set(i, [a0[i], b0[i], c0[i]], d0[i]);
                        locked[i] = false;
                        unlocks[i] += 1;
                        unlocked = true;
                    }
                }
            }
            if !overshoot && !unlocked {
                break;
            }
        }
        Some(x)
    }

    /// `x` solving the (cyclic) system (`BLI_tridiagonal_solve_cyclic`): one unknown directly,
    /// two with the corners folded in, otherwise the Thomas algorithm, with a Sherman–Morrison
    /// correction for the corners (`γ = −b[0]`, which, unlike Blender's `γ = a[0]`, keeps the
    /// modified diagonal away from zero). `None` unless every `x` is finite.
    fn solve(&self, x: &mut [f64]) -> Option<()> {
        let n = self.b.len();
        let (a, b, c, d) = (&self.a, &self.b, &self.c, &self.d);
        match n {
            0 => return None,
            1 => x[0] = d[0] / (a[0] + b[0] + c[0]),
            2 => thomas(&[0.0, a[1] + c[1]], b, &[a[0] + c[0], 0.0], d, x),
            _ if a[0] == 0.0 && c[n - 1] == 0.0 => thomas(a, b, c, d, x),
            _ => {
                let gamma = if b[0] == 0.0 { -1.0 } else { -b[0] };
                let mut b2 = b.clone();
                b2[0] -= gamma;
                b2[n - 1] -= c[n - 1] * a[0] / gamma;
                let mut u = vec![0.0; n];
                (u[0], u[n - 1]) = (gamma, c[n - 1]);
                let mut z = vec![0.0; n];
                thomas(a, &b2, c, d, x);
                thomas(a, &b2, c, &u, &mut z);
                let v_last = a[0] / gamma;
                let factor = (x[0] + v_last * x[n - 1]) / (1.0 + z[0] + v_last * z[n - 1]);
                for (xi, zi) in x.iter_mut().zip(&z) {
                    *xi -= factor * zi;
                }
            }
        }
        x.iter().all(|v| v.is_finite()).then_some(())
    }
}

/// The Thomas algorithm for `a[i]·x[i−1] + b[i]·x[i] + c[i]·x[i+1] = d[i]` (`a[0]` and
/// `c[n−1]` ignored); non-finite results are the caller's to refuse.
fn thomas(a: &[f64], b: &[f64], c: &[f64], d: &[f64], x: &mut [f64]) {
    let n = b.len();
    let mut cp = vec![0.0; n];
    let mut dp = vec![0.0; n];
    cp[0] = c[0] / b[0];
    dp[0] = d[0] / b[0];
    for i in 1..n {
        let denom = b[i] - a[i] * cp[i - 1];
        cp[i] = c[i] / denom;
        dp[i] = (d[i] - a[i] * dp[i - 1]) / denom;
    }
    x[n - 1] = dp[n - 1];
    for i in (0..n - 1).rev() {
        x[i] = dp[i] - cp[i] * x[i + 1];
    }
}
