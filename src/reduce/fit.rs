//! Fitting the fewest cubic segments to samples within a bound (SPEC §12): the fitter behind
//! key reduction and cubic adaptive export.
//!
//! Every fitted segment is a cubic Hermite piece in time between two sample times `t_a < t_b`
//! (`Δ = t_b − t_a`, `u = (t − t_a)/Δ`):
//!
//! ```text
//! f(u) = v_a·h00(u) + Δm0·h10(u) + v_b·h01(u) + Δm1·h11(u)
//! h00 = 2u³ − 3u² + 1, h10 = u³ − 2u² + u, h01 = −2u³ + 3u², h11 = u³ − u²
//! ```
//!
//! which is exactly a Bézier segment with handles at a third of it in time (`x̂(s) = s`):
//! right handle of the first key `(Δ/3, Δm0/3)`, left handle of the second `(−Δ/3, −Δm1/3)`.
//! So the result is exact in glTF CUBICSPLINE as well as in three.js `InterpolateBezier`.
//!
//! Slopes on either side of a key are independent (Free handles), so segments couple only
//! through the shared key value. The run is fitted greedily from its start: each segment
//! begins at the previous one's end value `v_a` and is made as long as possible, its length
//! found by doubling then bisection (a one-step lookahead — choosing a slightly shorter
//! segment whose successor reaches further — was tried and gained no key on the anchor); for a candidate end `b` the three unknowns per component
//! (`Δm0`, `v_b`, `Δm1`) are fitted by weighted least squares, then Lawson's iteration
//! (weights multiplied by each sample's error) pushes the fit toward the minimax one; the
//! candidate is rejected as soon as the weighted error proves no fit can pass, and accepted as
//! soon as every sample is within the bound (Euclidean distance of
//! the value vector). Unlike Blender's Decimate (which removes keys from the dense curve and
//! keeps the remaining keys on the data), key values move within the bound and a segment's
//! slopes are chosen by the fit: that is where the fewer keys come from.

/// Lawson reweighting steps tried before a candidate segment is given up.
pub const LAWSON_STEPS: usize = 12;

/// Samples: `times[i]` and `values[i * dim .. (i + 1) * dim]`, times strictly increasing.
#[derive(Clone, Copy, Debug)]
pub struct Samples<'a> {
    pub times: &'a [f64],
    pub values: &'a [f64],
    pub dim: usize,
}

impl Samples<'_> {
    pub fn len(&self) -> usize {
        self.times.len()
    }

    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    fn value(&self, i: usize) -> &[f64] {
        &self.values[i * self.dim..(i + 1) * self.dim]
    }
}

/// A fitted key: time, value, and the slopes (per second) arriving and leaving.
#[derive(Clone, Debug, PartialEq)]
pub struct FitKey {
    pub time: f64,
    pub value: Vec<f64>,
    pub slope_in: Vec<f64>,
    pub slope_out: Vec<f64>,
}

/// One candidate segment's fit: end value, the two slopes times Δ, per component.
struct SegmentFit {
    v_end: Vec<f64>,
    dm0: Vec<f64>,
    dm1: Vec<f64>,
}

fn basis(u: f64) -> [f64; 4] {
    let (u2, u3) = (u * u, u * u * u);
    [2.0 * u3 - 3.0 * u2 + 1.0, u3 - 2.0 * u2 + u, -2.0 * u3 + 3.0 * u2, u3 - u2]
}

/// Solves the 3×3 symmetric system `m x = r` (Cramer's rule); `None` if singular.
fn solve3(m: [[f64; 3]; 3], r: [f64; 3]) -> Option<[f64; 3]> {
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(m);
    if !(d.abs() > 1e-300) || !d.is_finite() {
        return None;
    }
    let mut x = [0.0; 3];
    for (k, xk) in x.iter_mut().enumerate() {
        let mut mk = m;
        for row in 0..3 {
            mk[row][k] = r[row];
        }
        *xk = det(mk) / d;
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// Solves the 2×2 system `m x = r`; `None` if singular.
fn solve2(m: [[f64; 2]; 2], r: [f64; 2]) -> Option<[f64; 2]> {
    let d = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    if !(d.abs() > 1e-300) || !d.is_finite() {
        return None;
    }
    let x = [(r[0] * m[1][1] - m[0][1] * r[1]) / d, (m[0][0] * r[1] - m[1][0] * r[0]) / d];
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// Where a segment starts: the key value, and its slope (per second) when the segment must
/// leave the key smoothly (C1, the key's handles Aligned).
#[derive(Clone, Copy)]
struct Start<'v> {
    value: &'v [f64],
    slope: Option<&'v [f64]>,
}

/// Weighted least-squares fit of samples `a..=b` from `start`: unknowns `Δm0, v_b, Δm1` per
/// component, or `v_b, Δm1` when the start slope is given. With too few samples to determine
/// them, a small penalty pulls the slopes toward the chord; otherwise the fit is the data's.
fn fit_segment(s: &Samples<'_>, a: usize, b: usize, start: Start<'_>, weights: &[f64]) -> Option<SegmentFit> {
    let (t_a, dt) = (s.times[a], s.times[b] - s.times[a]);
    let v_a = start.value;
    let mut fit = SegmentFit { v_end: vec![0.0; s.dim], dm0: vec![0.0; s.dim], dm1: vec![0.0; s.dim] };
    let free = if start.slope.is_some() { 2 } else { 3 };
    let lambda = if b - a < free { 1e-9 * weights.iter().sum::<f64>().max(1e-300) } else { 0.0 };
    for c in 0..s.dim {
        let dm0 = start.slope.map(|m| m[c] * dt);
        let mut m = [[0.0; 3]; 3];
        let mut r = [0.0; 3];
        let mut add = |row: [f64; 3], y: f64, w: f64| {
            for p in 0..3 {
                for q in 0..3 {
                    m[p][q] += w * row[p] * row[q];
                }
                r[p] += w * row[p] * y;
            }
        };
        for (i, w) in (a + 1..=b).zip(&weights[1..]) {
            let h = basis((s.times[i] - t_a) / dt);
            match dm0 {
                Some(d) => add([h[2], h[3], 0.0], s.value(i)[c] - v_a[c] * h[0] - d * h[1], *w),
                None => add([h[1], h[2], h[3]], s.value(i)[c] - v_a[c] * h[0], *w),
            }
        }
        // Penalty rows: each free slope toward the chord (Δm − v_b = −v_a).
        match dm0 {
            Some(_) => add([-1.0, 1.0, 0.0], -v_a[c], lambda),
            None => {
                add([1.0, -1.0, 0.0], -v_a[c], lambda);
                add([0.0, -1.0, 1.0], -v_a[c], lambda);
            }
        }
        match dm0 {
            Some(d) => {
                let [v_b, dm1] = solve2([[m[0][0], m[0][1]], [m[1][0], m[1][1]]], [r[0], r[1]])?;
                (fit.dm0[c], fit.v_end[c], fit.dm1[c]) = (d, v_b, dm1);
            }
            None => {
                let [d, v_b, dm1] = solve3(m, r)?;
                (fit.dm0[c], fit.v_end[c], fit.dm1[c]) = (d, v_b, dm1);
            }
        }
    }
    Some(fit)
}

/// Distance of each sample `a..=b` from the fitted segment (index 0 is sample `a`).
fn errors(s: &Samples<'_>, a: usize, b: usize, v_a: &[f64], fit: &SegmentFit, out: &mut Vec<f64>) {
    out.clear();
    let (t_a, dt) = (s.times[a], s.times[b] - s.times[a]);
    for i in a..=b {
        let h = basis((s.times[i] - t_a) / dt);
        let mut sq = 0.0;
        for c in 0..s.dim {
            let f = v_a[c] * h[0] + fit.dm0[c] * h[1] + fit.v_end[c] * h[2] + fit.dm1[c] * h[3];
            let d = s.value(i)[c] - f;
            sq += d * d;
        }
        out.push(sq.sqrt());
    }
}

/// Whether samples `a+1..=b` determine the fit alone (no penalty in [`fit_segment`]), which
/// the lower bound in [`feasible`] needs.
fn lambda_free(span: usize, start: Start<'_>) -> bool {
    span >= if start.slope.is_some() { 2 } else { 3 }
}

/// The fit of samples `a..=b` within `tol`, if least squares and Lawson's reweighting find one.
fn feasible(s: &Samples<'_>, a: usize, b: usize, start: Start<'_>, tol: f64, scratch: &mut (Vec<f64>, Vec<f64>)) -> Option<SegmentFit> {
    let (weights, errs) = scratch;
    weights.clear();
    weights.resize(b - a + 1, 1.0);
    for _ in 0..=LAWSON_STEPS {
        let fit = fit_segment(s, a, b, start, weights)?;
        errors(s, a, b, start.value, &fit, errs);
        let worst = errs.iter().copied().fold(0.0, f64::max);
        if worst <= tol {
            return Some(fit);
        }
        // The weighted least-squares error is a lower bound of the minimax error (for any
        // weights: Σwᵢ|rᵢ|²/Σwᵢ ≤ max|rᵢ|² at the minimax fit, and the weighted fit minimises
        // the left side): once it exceeds the bound, no fit of this segment can pass.
        let (sw, swe): (f64, f64) = weights.iter().zip(errs.iter()).fold((0.0, 0.0), |(a, b), (w, e)| (a + w, b + w * e * e));
        if lambda_free(b - a, start) && swe > tol * tol * sw {
            return None;
        }
        // Lawson: w ← w·|e|, normalised; samples already far inside the bound fade out.
        let total: f64 = weights.iter().zip(errs.iter()).map(|(w, e)| w * e).sum();
        if !(total > 0.0) {
            return None;
        }
        for (w, e) in weights.iter_mut().zip(errs.iter()) {
            *w = (*w * e / total).max(1e-12);
        }
    }
    None
}

/// The longest segment from sample `a` (start value `v_a`) that fits within `tol`: its end and
/// fit. Doubling, then bisection between the last length that fitted and the first that did
/// not. Two samples always fit (a straight segment to the second sample).
fn longest(s: &Samples<'_>, a: usize, start: Start<'_>, tol: f64, scratch: &mut (Vec<f64>, Vec<f64>)) -> (usize, SegmentFit) {
    let n = s.len();
    let straight = || {
        let v_b = s.value(a + 1).to_vec();
        let dm: Vec<f64> = v_b.iter().zip(start.value).map(|(b, a)| b - a).collect();
        SegmentFit { v_end: v_b, dm0: dm.clone(), dm1: dm }
    };
    let (mut good, mut good_fit) = (a + 1, feasible(s, a, a + 1, start, tol, scratch).unwrap_or_else(straight));
    let (mut step, mut bad) = (2, n);
    while good < n - 1 {
        let b = (a + step).min(n - 1);
        match feasible(s, a, b, start, tol, scratch) {
            Some(f) => (good, good_fit) = (b, f),
            None => {
                bad = b;
                break;
            }
        }
        step *= 2;
    }
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        match feasible(s, a, mid, start, tol, scratch) {
            Some(f) => (good, good_fit) = (mid, f),
            None => bad = mid,
        }
    }
    (good, good_fit)
}

/// A key becomes a corner (its two slopes apart, Free handles) only if the segment leaving it
/// reaches this many times further than a smooth (C1) one would.
pub const CORNER_GAIN: f64 = 1.25;

/// The greedy fit of one run of samples (no jumps inside) within `tol`. The first key keeps
/// the first sample's value; every other key's value is fitted. A run of one sample is one key.
#[must_use]
pub fn fit_run(s: &Samples<'_>, tol: f64) -> Vec<FitKey> {
    let n = s.len();
    if n == 0 {
        return Vec::new();
    }
    let dim = s.dim;
    let mut keys = vec![FitKey { time: s.times[0], value: s.value(0).to_vec(), slope_in: vec![0.0; dim], slope_out: vec![0.0; dim] }];
    let mut scratch = (Vec::new(), Vec::new());
    let mut a = 0;
    while a + 1 < n {
        let last = keys.last().expect("a first key").clone();
        let free = Start { value: &last.value, slope: None };
        let (mut end, mut fit) = longest(s, a, free, tol, &mut scratch);
        let mut smooth = false;
        if a > 0 {
            // Leave the key smoothly (its slope as it arrived) unless a corner reaches much
            // further: C1 keys keep the speed continuous.
            let (end_c1, fit_c1) = longest(s, a, Start { slope: Some(&last.slope_in), ..free }, tol, &mut scratch);
            if (end - a) as f64 <= CORNER_GAIN * (end_c1 - a) as f64 {
                (end, fit, smooth) = (end_c1, fit_c1, true);
            }
        }
        let dt = s.times[end] - s.times[a];
        let last = keys.len() - 1;
        keys[last].slope_out = if smooth { keys[last].slope_in.clone() } else { fit.dm0.iter().map(|d| d / dt).collect() };
        keys.push(FitKey { time: s.times[end], value: fit.v_end.clone(), slope_in: fit.dm1.iter().map(|d| d / dt).collect(), slope_out: vec![0.0; dim] });
        a = end;
    }
    if let Some(k) = keys.last_mut() {
        k.slope_out = k.slope_in.clone();
    }
    if let Some(k) = keys.first_mut() {
        k.slope_in = k.slope_out.clone();
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(keys: &[FitKey], t: f64) -> f64 {
        let i = keys.partition_point(|k| k.time <= t).clamp(1, keys.len() - 1) - 1;
        let (a, b) = (&keys[i], &keys[i + 1]);
        let dt = b.time - a.time;
        let h = basis((t - a.time) / dt);
        a.value[0] * h[0] + a.slope_out[0] * dt * h[1] + b.value[0] * h[2] + b.slope_in[0] * dt * h[3]
    }

    /// Samples of a cubic polynomial are one segment, exactly: t³ − 2t on [0, 2] has slopes
    /// −2 at 0 and 10 at 2 (hand-computed: 3t² − 2).
    #[test]
    fn a_cubic_is_one_segment_with_its_own_slopes() {
        let times: Vec<f64> = (0..=40).map(|i| f64::from(i) / 20.0).collect();
        let values: Vec<f64> = times.iter().map(|t| t * t * t - 2.0 * t).collect();
        let keys = fit_run(&Samples { times: &times, values: &values, dim: 1 }, 1e-9);
        assert_eq!(keys.len(), 2, "{keys:?}");
        assert!((keys[0].slope_out[0] + 2.0).abs() < 1e-6 && (keys[1].slope_in[0] - 10.0).abs() < 1e-6, "{keys:?}");
        assert!((keys[1].value[0] - 4.0).abs() < 1e-9);
    }

    /// A corner (|t − 1|) needs a key near the corner; every sample stays within the bound.
    #[test]
    fn every_sample_is_within_the_bound() {
        let times: Vec<f64> = (0..=200).map(|i| f64::from(i) / 100.0).collect();
        let values: Vec<f64> = times.iter().map(|t| (t - 1.0).abs() + 0.1 * (7.0 * t).sin()).collect();
        for tol in [1e-2, 1e-3, 1e-4] {
            let keys = fit_run(&Samples { times: &times, values: &values, dim: 1 }, tol);
            assert!(keys.len() < times.len() / 2, "tol {tol}: {} keys", keys.len());
            for (t, v) in times.iter().zip(&values) {
                assert!((eval(&keys, *t) - v).abs() <= tol * (1.0 + 1e-9), "tol {tol} at {t}");
            }
        }
    }
}
