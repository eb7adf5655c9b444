//! An independent high-accuracy arc-length integrator for tests and benches: adaptive
//! Gauss–Kronrod (G7/K15) of `|P′|`, split at keys and ease switch points.

use tangent::TrackCurve;

const XGK: [f64; 8] = [
    0.991_455_371_120_812_6,
    0.949_107_912_342_758_5,
    0.864_864_423_359_769_1,
    0.741_531_185_599_394_4,
    0.586_087_235_467_691_1,
    0.405_845_151_377_397_2,
    0.207_784_955_007_898_5,
    0.0,
];
const WGK: [f64; 8] = [
    0.022_935_322_010_529_22,
    0.063_092_092_629_978_55,
    0.104_790_010_322_250_18,
    0.140_653_259_715_525_92,
    0.169_004_726_639_267_9,
    0.190_350_578_064_785_4,
    0.204_432_940_075_298_9,
    0.209_482_141_084_727_83,
];
const WG: [f64; 4] = [0.129_484_966_168_869_7, 0.279_705_391_489_276_7, 0.381_830_050_505_118_9, 0.417_959_183_673_469_4];

fn speed(curve: &TrackCurve, seg: usize, t: f64) -> f64 {
    let times = curve.times();
    let u = ((t - times[seg]) / (times[seg + 1] - times[seg])).clamp(0.0, 1.0);
    let mut v = vec![0.0; curve.dim()];
    curve.segment_velocity(seg, u, &mut v);
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

fn gk(curve: &TrackCurve, seg: usize, a: f64, b: f64, tol: f64, depth: u32) -> f64 {
    let c = 0.5 * (a + b);
    let r = 0.5 * (b - a);
    let fc = speed(curve, seg, c);
    let (mut k, mut g) = (WGK[7] * fc, WG[3] * fc);
    for j in 0..7 {
        let f = speed(curve, seg, c - r * XGK[j]) + speed(curve, seg, c + r * XGK[j]);
        k += WGK[j] * f;
        if j % 2 == 1 {
            g += WG[j / 2] * f;
        }
    }
    let (k, g) = (k * r, g * r);
    // tol is per unit of time, so the pieces' allowances add up to the segment's.
    if (k - g).abs() <= tol * (b - a) || depth > 30 {
        k
    } else {
        gk(curve, seg, a, c, tol, depth + 1) + gk(curve, seg, c, b, tol, depth + 1)
    }
}

/// `∫_a^b |P′|` with `a ≤ b` inside the keyed range, to about `1e−14` relative to each
/// segment's length.
pub fn arc_length_between(curve: &TrackCurve, a: f64, b: f64) -> f64 {
    let times = curve.times();
    let mut total = 0.0;
    for seg in 0..curve.segment_count() {
        let (t0, t1) = (times[seg], times[seg + 1]);
        let (lo, hi) = (a.max(t0), b.min(t1));
        if hi <= lo || t1 <= t0 {
            continue;
        }
        let mut edges = vec![lo];
        edges.extend(curve.segment_breaks(seg).into_iter().map(|u| t0 + u * (t1 - t0)).filter(|&x| x > lo && x < hi));
        edges.push(hi);
        // 1e−14 relative to the segment's speed scale (chord / duration), and at least 1e−16.
        let (mut p, mut q) = (vec![0.0; curve.dim()], vec![0.0; curve.dim()]);
        curve.segment_point(seg, 0.0, &mut p);
        curve.segment_point(seg, 1.0, &mut q);
        let chord = p.iter().zip(&q).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt();
        let tol = (1e-14 * chord / (t1 - t0)).max(1e-16);
        for w in edges.windows(2) {
            total += gk(curve, seg, w[0], w[1], tol, 0);
        }
    }
    total
}

/// `s(t)` at each of the sorted times `ts`, integrating between consecutive ones.
pub fn arc_lengths_at(curve: &TrackCurve, ts: &[f64]) -> Vec<f64> {
    let (t0, _) = curve.domain();
    let mut prev = t0;
    let mut s = 0.0;
    ts.iter()
        .map(|&t| {
            let t = t.max(t0);
            if t > prev {
                s += arc_length_between(curve, prev, t);
                prev = t;
            }
            s
        })
        .collect()
}

/// Largest true error of a table's `s(t)` and of `s(t(s))`, over 10,001 evenly spaced times
/// and 10,001 evenly spaced lengths, against this integrator.
pub fn true_errors(curve: &TrackCurve, s_of_t: &mut dyn FnMut(f64) -> f64, t_of_s: &mut dyn FnMut(f64) -> f64, length: f64) -> (f64, f64) {
    let (t0, t1) = curve.domain();
    let n = 10_000;
    let ts: Vec<f64> = (0..=n).map(|i| t0 + (t1 - t0) * i as f64 / n as f64).collect();
    let truth = arc_lengths_at(curve, &ts);
    let err_s = ts.iter().zip(&truth).map(|(t, s)| (s_of_t(*t) - s).abs()).fold(0.0, f64::max);
    // t(s) at evenly spaced lengths, then the true length at each returned time (sorted, so
    // the integration runs forward once).
    let mut back: Vec<(f64, f64)> = (0..=n).map(|i| length * i as f64 / n as f64).map(|s| (t_of_s(s), s)).collect();
    back.sort_by(|a, b| a.0.total_cmp(&b.0));
    let s_at = arc_lengths_at(curve, &back.iter().map(|b| b.0).collect::<Vec<_>>());
    let err_t = back.iter().zip(&s_at).map(|((_, want), got)| (got - want).abs()).fold(0.0, f64::max);
    (err_s, err_t)
}
