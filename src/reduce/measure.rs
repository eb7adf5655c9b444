//! Measuring a reduced curve against its original, on the compiled curves (so the figure is
//! the engine's, not the fitter's own arithmetic).
//!
//! Between two consecutive breakpoints (the union of both curves' key times) the difference
//! `d(t)` of a fitted curve (cubic in time) and a smooth original that is also a cubic there
//! (Tcb without ease, Cubic, Bézier with handles at thirds) is one cubic per component. It is
//! sampled at `u = 0, 1/3, 2/3, 1` of the piece and the cubic through those four values is
//! checked at `u = 1/2` and `u = 4/5`; if it agrees, each component's largest magnitude on the
//! piece is found exactly (the ends and the roots of its derivative) and the piece's bound is
//! `√(Σ_c max_c²)` — an upper bound of the Euclidean difference, not an estimate. Where the
//! original is not a cubic in time (eased TCB, Bézier with other time handles, Squad) the
//! difference is sampled at [`DENSE_POINTS`] points of the piece instead, and the largest
//! sample refined by a golden-section search between its neighbours ([`golden_max`]: the
//! difference there is a smooth bump, whose peak a grid alone can miss by a fraction).

use crate::curve::TrackCurve;
use crate::model::Track;

/// Points per piece where the difference is not a cubic.
pub const DENSE_POINTS: usize = 64;

/// Golden-section steps refining a sampled peak ([`golden_max`]): its location to
/// 0.618⁴⁰ ≈ 4e-9 of two sample spacings.
pub const GOLDEN_STEPS: usize = 40;

/// The largest value of `f` a golden-section search for its maximum on `[lo, hi]` meets
/// ([`GOLDEN_STEPS`] steps, the interval shrinking by 0.618 each), and where.
pub(crate) fn golden_max(f: &mut impl FnMut(f64) -> f64, mut lo: f64, mut hi: f64) -> (f64, f64) {
    const R: f64 = 0.618_033_988_749_894_8;
    let (mut x1, mut x2) = (hi - R * (hi - lo), lo + R * (hi - lo));
    let (mut f1, mut f2) = (f(x1), f(x2));
    let mut best = if f1 >= f2 { (f1, x1) } else { (f2, x2) };
    for _ in 0..GOLDEN_STEPS {
        if f1 < f2 {
            (lo, x1, f1) = (x1, x2, f2);
            x2 = lo + R * (hi - lo);
            f2 = f(x2);
            if f2 > best.0 {
                best = (f2, x2);
            }
        } else {
            (hi, x2, f2) = (x2, x1, f1);
            x1 = hi - R * (hi - lo);
            f1 = f(x1);
            if f1 > best.0 {
                best = (f1, x1);
            }
        }
    }
    best
}

/// The largest value of `f` at `n + 1` evenly spaced points of `[lo, hi]` (both ends, the
/// first largest kept), then refined by [`golden_max`] between that point's neighbours; the
/// larger of the two, and where. On a smooth bump the sampled peak sits beside the true one.
pub(crate) fn sampled_max(f: &mut impl FnMut(f64) -> f64, lo: f64, hi: f64, n: usize) -> (f64, f64) {
    let h = (hi - lo) / n as f64;
    let mut best = (f(lo), lo);
    for j in 1..=n {
        let x = lo + h * j as f64;
        let v = f(x);
        if v > best.0 {
            best = (v, x);
        }
    }
    let refined = golden_max(f, (best.1 - h).max(lo), (best.1 + h).min(hi));
    if refined.0 > best.0 {
        refined
    } else {
        best
    }
}

/// Euclidean norm of `a − b`.
fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
}

/// The largest distance between `reduced` and each key of `original` (at a jump, the earlier
/// key is compared with the reduced curve just before the jump time).
#[must_use]
pub fn at_keys(original: &Track, reduced: &TrackCurve) -> f64 {
    let mut ev = reduced.evaluator();
    let keys = &original.keys;
    let mut worst: f64 = 0.0;
    for (i, k) in keys.iter().enumerate() {
        let jump = keys.get(i + 1).is_some_and(|n| n.time == k.time);
        let t = if jump { k.time.next_down() } else { k.time };
        worst = worst.max(distance(&ev.value_at(t), &k.value));
    }
    worst
}

/// Largest magnitude of the cubic through `(0, y0), (1/3, y1), (2/3, y2), (1, y3)` on
/// `[0, 1]`, with the `u` where it is reached.
fn cubic_peak(y: [f64; 4]) -> (f64, f64) {
    // Power basis from the four equally spaced values (Newton's forward differences).
    let d1 = y[1] - y[0];
    let d2 = y[2] - 2.0 * y[1] + y[0];
    let d3 = y[3] - 3.0 * y[2] + 3.0 * y[1] - y[0];
    // With x = 3u: p(x) = y0 + d1 x + d2 x(x−1)/2 + d3 x(x−1)(x−2)/6.
    let c3 = d3 / 6.0 * 27.0;
    let c2 = (d2 / 2.0 - d3 / 2.0) * 9.0;
    let c1 = (d1 - d2 / 2.0 + d3 / 3.0) * 3.0;
    let c0 = y[0];
    let p = |u: f64| ((c3 * u + c2) * u + c1) * u + c0;
    let mut best = (y[0].abs(), 0.0);
    let mut consider = |u: f64| {
        if (0.0..=1.0).contains(&u) && p(u).abs() > best.0 {
            best = (p(u).abs(), u);
        }
    };
    consider(1.0);
    // p′(u) = 3c3 u² + 2c2 u + c1.
    let (a, b, c) = (3.0 * c3, 2.0 * c2, c1);
    if a.abs() > 1e-300 {
        let disc = b * b - 4.0 * a * c;
        if disc >= 0.0 {
            let q = -0.5 * (b + b.signum() * disc.sqrt());
            consider(q / a);
            if q != 0.0 {
                consider(c / q);
            }
        }
    } else if b.abs() > 1e-300 {
        consider(-c / b);
    }
    (best.0, best.1)
}

/// The cubic through the four samples, evaluated at `u`.
fn cubic_at(y: [f64; 4], u: f64) -> f64 {
    // Lagrange on nodes 0, 1/3, 2/3, 1.
    let n = [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0];
    (0..4)
        .map(|i| {
            let w: f64 = (0..4).filter(|&j| j != i).map(|j| (u - n[j]) / (n[i] - n[j])).product();
            w * y[i]
        })
        .sum()
}

/// The largest difference between `reduced` and `original` over the whole keyed range, and
/// times inside pieces where it exceeds `bound` (one per such piece, at its worst point).
#[must_use]
pub fn max_difference(original: &TrackCurve, reduced: &TrackCurve, bound: f64) -> (f64, Vec<f64>) {
    let cuts = original.key_times_with(reduced);
    let dim = original.dim();
    let (mut eo, mut er) = (original.evaluator(), reduced.evaluator());
    let mut diff = |t: f64| -> Vec<f64> { er.value_at(t).iter().zip(eo.value_at(t)).map(|(a, b)| a - b).collect() };
    let (mut worst, mut over) = (0.0f64, Vec::new());
    for w in cuts.windows(2) {
        let (p, q) = (w[0], w[1]);
        if !(q > p) {
            continue;
        }
        let at = |u: f64| if u >= 1.0 { q.next_down() } else { p + (q - p) * u };
        let nodes: Vec<Vec<f64>> = [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0].iter().map(|&u| diff(at(u))).collect();
        let checks: Vec<(f64, Vec<f64>)> = [0.5, 0.8].iter().map(|&u| (u, diff(at(u)))).collect();
        let scale = nodes.iter().flatten().fold(bound, |m, v| m.max(v.abs()));
        let is_cubic = (0..dim).all(|c| {
            let y = [nodes[0][c], nodes[1][c], nodes[2][c], nodes[3][c]];
            checks.iter().all(|(u, d)| (cubic_at(y, *u) - d[c]).abs() <= 1e-9 * scale)
        });
        let (peak, u_peak) = if is_cubic {
            let peaks: Vec<(f64, f64)> = (0..dim).map(|c| cubic_peak([nodes[0][c], nodes[1][c], nodes[2][c], nodes[3][c]])).collect();
            let total = peaks.iter().map(|(m, _)| m * m).sum::<f64>().sqrt();
            let u = peaks.iter().fold((0.0, 0.5), |b, &(m, u)| if m > b.0 { (m, u) } else { b }).1;
            (total, u)
        } else {
            let mut norm = |u: f64| diff(at(u)).iter().map(|d| d * d).sum::<f64>().sqrt();
            sampled_max(&mut norm, 0.0, 1.0, DENSE_POINTS)
        };
        worst = worst.max(peak);
        if peak > bound {
            over.push(p + (q - p) * u_peak.clamp(0.02, 0.98));
        }
    }
    (worst, over)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (u − 1/2)² − 1/8 on [0, 1]: values 1/8 at the ends, −1/8 at 1/2 (hand-computed).
    #[test]
    fn the_peak_of_a_quadratic_is_found_between_the_samples() {
        let f = |u: f64| (u - 0.5) * (u - 0.5) - 0.125;
        let (m, u) = cubic_peak([f(0.0), f(1.0 / 3.0), f(2.0 / 3.0), f(1.0)]);
        assert!((m - 0.125).abs() < 1e-15, "{m} at {u}");
        // 4u³ − 6u² + 2u + 0.1 peaks inside, at u = (3 − √3)/6 ≈ 0.2113 (0.2925): against a
        // fine scan.
        let g = |u: f64| 4.0 * u * u * u - 6.0 * u * u + 2.0 * u + 0.1;
        let (m, _) = cubic_peak([g(0.0), g(1.0 / 3.0), g(2.0 / 3.0), g(1.0)]);
        let scan = (0..=100_000).map(|i| g(f64::from(i) / 100_000.0).abs()).fold(0.0, f64::max);
        assert!((m - scan).abs() < 1e-9 && m >= scan, "{m} vs {scan}");
    }
}
