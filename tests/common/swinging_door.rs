//! The seed's arc-length table (seed 003, SEMANTICS.md E): a "swinging door" piecewise-linear
//! table of `s` against the normalised parameter `x`, built from chord sums. This is the
//! baseline Tangent's `ArcLengthTable` is measured against, not part of the product.

use tangent::TrackCurve;

pub struct SwingingDoor {
    pub x: Vec<f64>,
    pub s: Vec<f64>,
    t0: f64,
    t1: f64,
}

fn point(curve: &TrackCurve, t: f64, out: &mut [f64]) {
    curve.evaluator().sample(t, out);
}

impl SwingingDoor {
    pub fn new(curve: &TrackCurve, err: f64) -> Self {
        let (t0, t1) = curve.domain();
        let dim = curve.dim();
        let at = |x: f64| t0 + x * (t1 - t0);
        let mut ev = curve.evaluator();
        let (mut p, mut q) = (vec![0.0; dim], vec![0.0; dim]);
        let dist = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt();
        ev.sample(at(0.0), &mut p);
        let mut len = 0.0;
        for i in 1..=256 {
            ev.sample(at(i as f64 / 256.0), &mut q);
            len += dist(&p, &q);
            std::mem::swap(&mut p, &mut q);
        }
        let n = ((len * 4.0 / err).ceil()).clamp(64.0, 1e6) as usize;
        let (mut xb, mut sb) = (0.0, 0.0);
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut xs = vec![0.0];
        let mut ss = vec![0.0];
        ev.sample(at(0.0), &mut p);
        let (mut x_prev, mut s_prev, mut s) = (0.0, 0.0, 0.0);
        for i in 1..=n {
            let x = i as f64 / n as f64;
            ev.sample(at(x), &mut q);
            s += dist(&p, &q);
            std::mem::swap(&mut p, &mut q);
            let (l, h) = ((s - err - sb) / (x - xb), (s + err - sb) / (x - xb));
            let (nl, nh) = (lo.max(l), hi.min(h));
            if nl > nh {
                let mid = 0.5 * (lo + hi);
                let emitted = sb + (x_prev - xb) * mid;
                xs.push(x_prev);
                ss.push(emitted);
                xb = x_prev;
                sb = emitted;
                lo = (s - err - sb) / (x - xb);
                hi = (s + err - sb) / (x - xb);
            } else {
                lo = nl;
                hi = nh;
            }
            x_prev = x;
            s_prev = s;
        }
        xs.push(x_prev);
        ss.push(s_prev);
        let _ = point;
        Self { x: xs, s: ss, t0, t1 }
    }

    pub fn len(&self) -> usize {
        self.x.len()
    }

    /// `s(t)` by linear interpolation.
    pub fn s_of_t(&self, t: f64) -> f64 {
        let x = ((t - self.t0) / (self.t1 - self.t0)).clamp(0.0, 1.0);
        let i = self.x.partition_point(|&v| v <= x).clamp(1, self.x.len() - 1);
        let (x0, x1, s0, s1) = (self.x[i - 1], self.x[i], self.s[i - 1], self.s[i]);
        if x1 > x0 {
            s0 + (s1 - s0) * (x - x0) / (x1 - x0)
        } else {
            s1
        }
    }

    /// `t(s)` by linear interpolation at the first crossing; past the table's end, the end.
    pub fn t_of_s(&self, s: f64) -> f64 {
        let i = self.s.iter().position(|&v| v >= s);
        let x = match i {
            None => 1.0,
            Some(0) => 0.0,
            Some(i) => {
                let (x0, x1, s0, s1) = (self.x[i - 1], self.x[i], self.s[i - 1], self.s[i]);
                if s1 > s0 {
                    x0 + (x1 - x0) * (s - s0) / (s1 - s0)
                } else {
                    x1
                }
            }
        };
        self.t0 + x * (self.t1 - self.t0)
    }
}
