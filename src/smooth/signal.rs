//! The three filters on one uniformly sampled signal (a slice of `f64`), each written to
//! compute what scipy computes, in the same order of operations where it matters:
//!
//! - [`butter_lowpass`]: `scipy.signal.butter(N, cutoff, fs=rate)` as `(b, a)`: the analog
//!   prototype's poles (`buttap`), scaled to the prewarped cutoff (`lp2lp_zpk`), mapped by the
//!   bilinear transform (`bilinear_zpk`) and multiplied out (`zpk2tf`);
//! - [`filtfilt`]: `scipy.signal.filtfilt(b, a, x)` with its defaults: odd extension by
//!   `3·max(len(a), len(b))` samples, initial conditions from [`lfilter_zi`] scaled by the
//!   first sample of what is filtered, forward then backward (direct form II transposed);
//! - [`gaussian`]: `scipy.ndimage.gaussian_filter1d(x, sigma, mode='nearest')` (truncate 4);
//! - [`median`]: `scipy.ndimage.median_filter(x, size, mode='nearest')` (odd `size`).
//!
//! The reference file `tests/reference/scipy_smooth.json` (`tools/scipy_smooth_reference.py`)
//! holds scipy's answers; `tests/smooth_reference.rs` checks these functions against them.

use std::f64::consts::PI;

/// A complex number, only as much of one as the filter design needs.
#[derive(Clone, Copy, Debug, PartialEq)]
struct C(f64, f64);

impl C {
    fn add(self, o: C) -> C {
        C(self.0 + o.0, self.1 + o.1)
    }
    fn sub(self, o: C) -> C {
        C(self.0 - o.0, self.1 - o.1)
    }
    fn mul(self, o: C) -> C {
        C(self.0 * o.0 - self.1 * o.1, self.0 * o.1 + self.1 * o.0)
    }
    fn div(self, o: C) -> C {
        let d = o.0 * o.0 + o.1 * o.1;
        C((self.0 * o.0 + self.1 * o.1) / d, (self.1 * o.0 - self.0 * o.1) / d)
    }
}

/// The digital Butterworth low-pass of `order` at `cutoff` Hz for samples at `rate` Hz, as
/// transfer-function coefficients `(b, a)` with `a[0] = 1`, each of length `order + 1`.
///
/// As scipy's `iirfilter`: the cutoff is normalised to `Wn = 2·cutoff/rate` and the design
/// runs at `fs = 2`, so the prewarped analog cutoff is `ω = 4·tan(π·Wn/2)`. The analog poles
/// are `pₘ = −exp(iπm/(2N))` for `m = −N+1, −N+3, …, N−1` (`buttap`), scaled by `ω` with gain
/// `ωᴺ` (`lp2lp_zpk`), then mapped `z = (4 + p)/(4 − p)` with all `N` zeros at `z = −1` and
/// gain `ωᴺ·Re(1/∏(4 − p))` (`bilinear_zpk`); `b` and `a` are the polynomials of the zeros
/// and poles multiplied out one root at a time (`numpy.poly`), `b` times the gain.
///
/// The caller checks `0 < cutoff < rate/2` and `order ≥ 1`.
#[must_use]
pub fn butter_lowpass(order: usize, cutoff: f64, rate: f64) -> (Vec<f64>, Vec<f64>) {
    let n = order;
    let wn = 2.0 * cutoff / rate;
    let fs = 2.0;
    let warped = 2.0 * fs * (PI * wn / fs).tan();
    let fs2 = C(2.0 * fs, 0.0);
    let mut gain = warped.powi(n as i32);
    let mut denominator = C(1.0, 0.0);
    let mut poles = Vec::with_capacity(n);
    for j in 0..n {
        let m = -(n as f64) + 1.0 + 2.0 * j as f64;
        let theta = PI * m / (2.0 * n as f64);
        let p = C(-theta.cos() * warped, -theta.sin() * warped);
        denominator = denominator.mul(fs2.sub(p));
        poles.push(fs2.add(p).div(fs2.sub(p)));
    }
    gain *= C(1.0, 0.0).div(denominator).0;
    // numpy.poly: a = [1]; a = convolve(a, [1, −root]) for each root in turn.
    let mut a = vec![C(1.0, 0.0)];
    let mut b = vec![1.0];
    for p in &poles {
        let mut next = vec![C(0.0, 0.0); a.len() + 1];
        let mut next_b = vec![0.0; b.len() + 1];
        for (i, &c) in a.iter().enumerate() {
            next[i] = next[i].add(c);
            next[i + 1] = next[i + 1].sub(c.mul(*p));
        }
        for (i, &c) in b.iter().enumerate() {
            next_b[i] += c;
            next_b[i + 1] += c; // the root −1
        }
        a = next;
        b = next_b;
    }
    (b.iter().map(|x| gain * x).collect(), a.iter().map(|c| c.0).collect())
}

/// `scipy.signal.lfilter_zi(b, a)` for `a[0] = 1` and `len(a) = len(b) = n`: the state
/// `zi` of the direct form II transposed filter in which a constant input gives a constant
/// output from the first sample: the solution of `(I − Aᵀ)·zi = b[1:] − a[1:]·b[0]` with `A`
/// the companion matrix of `a` (solved by Gaussian elimination with partial pivoting, as
/// LAPACK's `gesv` does).
#[must_use]
pub fn lfilter_zi(b: &[f64], a: &[f64]) -> Vec<f64> {
    let m = a.len() - 1;
    // Row j of I − Aᵀ: [δ(j,0) + a[j+1] in column 0] + 1 on the diagonal − 1 right of it.
    let mut rows: Vec<Vec<f64>> = (0..m)
        .map(|j| {
            let mut r = vec![0.0; m + 1];
            r[0] = a[j + 1];
            r[j] += 1.0;
            if j + 1 < m {
                r[j + 1] -= 1.0;
            }
            r[m] = b[j + 1] - a[j + 1] * b[0];
            r
        })
        .collect();
    for col in 0..m {
        let pivot = (col..m).max_by(|&i, &j| rows[i][col].abs().total_cmp(&rows[j][col].abs())).unwrap_or(col);
        rows.swap(col, pivot);
        for r in col + 1..m {
            let f = rows[r][col] / rows[col][col];
            if f != 0.0 {
                let (top, bottom) = rows.split_at_mut(r);
                for (x, p) in bottom[0][col..].iter_mut().zip(&top[col][col..]) {
                    *x -= f * p;
                }
            }
        }
    }
    let mut x = vec![0.0; m];
    for r in (0..m).rev() {
        let s: f64 = (r + 1..m).map(|c| rows[r][c] * x[c]).sum();
        x[r] = (rows[r][m] - s) / rows[r][r];
    }
    x
}

/// `scipy.signal.lfilter(b, a, x, zi=z)` in place for `a[0] = 1`: direct form II
/// transposed, `y = z₀ + b₀x`, `zₖ = zₖ₊₁ + bₖ₊₁x − aₖ₊₁y`, the last `z = bₙx − aₙy`.
fn lfilter_in_place(b: &[f64], a: &[f64], z: &mut [f64], x: &mut [f64]) {
    let m = z.len();
    for v in x.iter_mut() {
        let xn = *v;
        let y = z[0] + b[0] * xn;
        for k in 0..m - 1 {
            z[k] = z[k + 1] + xn * b[k + 1] - y * a[k + 1];
        }
        z[m - 1] = xn * b[m] - y * a[m];
        *v = y;
    }
}

/// How many samples [`filtfilt`] pads each end with for a filter of `order`: scipy's
/// default `padlen = 3·max(len(a), len(b)) = 3·(order + 1)`. The signal must be longer.
#[must_use]
pub const fn filtfilt_padlen(order: usize) -> usize {
    3 * (order + 1)
}

/// `scipy.signal.filtfilt(b, a, x)` with the defaults (`padtype='odd'`, `padlen =
/// 3·max(len(a), len(b))`, `method='pad'`), for `a[0] = 1` and `len(a) = len(b)`.
///
/// # Panics
/// If `x.len() ≤ padlen` (scipy's `ValueError`); the caller checks.
#[must_use]
pub fn filtfilt(b: &[f64], a: &[f64], x: &[f64]) -> Vec<f64> {
    let edge = 3 * a.len().max(b.len());
    let n = x.len();
    assert!(n > edge, "filtfilt needs more than {edge} samples, got {n}");
    // odd_ext: 2·x[0] − x[edge..0:−1], x, 2·x[−1] − x[−2 … −(edge+1)].
    let mut ext = Vec::with_capacity(n + 2 * edge);
    ext.extend((1..=edge).rev().map(|i| 2.0 * x[0] - x[i]));
    ext.extend_from_slice(x);
    ext.extend((2..edge + 2).map(|i| 2.0 * x[n - 1] - x[n - i]));
    let zi = lfilter_zi(b, a);
    let x0 = ext[0];
    let mut z: Vec<f64> = zi.iter().map(|v| v * x0).collect();
    lfilter_in_place(b, a, &mut z, &mut ext);
    ext.reverse();
    let y0 = ext[0];
    z.iter_mut().zip(&zi).for_each(|(s, v)| *s = v * y0);
    lfilter_in_place(b, a, &mut z, &mut ext);
    ext.reverse();
    ext.truncate(edge + n);
    ext.drain(..edge);
    ext
}

/// The weights of `scipy.ndimage.gaussian_filter1d`'s kernel for `sigma` in samples with
/// `truncate = 4`: radius `r = int(4·σ + 0.5)`, `wₖ = exp(−0.5/σ² · k²)` for `k = −r…r`,
/// divided by their sum.
#[must_use]
pub fn gaussian_kernel(sigma: f64) -> Vec<f64> {
    let radius = (4.0 * sigma + 0.5) as usize;
    let c = -0.5 / (sigma * sigma);
    let phi: Vec<f64> = (-(radius as i64)..=radius as i64).map(|k| (c * (k * k) as f64).exp()).collect();
    let sum: f64 = phi.iter().sum();
    phi.iter().map(|w| w / sum).collect()
}

/// `scipy.ndimage.gaussian_filter1d(x, sigma, mode='nearest')` (`truncate = 4`): each output
/// sample `Σₖ wₖ·x[clamp(i + k)]` over the [`gaussian_kernel`], the signal held at its first
/// and last sample beyond its ends; summed as scipy's symmetric-kernel loop does,
/// `w₀x[i] + Σ_{k=r…1} wₖ(x[i−k] + x[i+k])`.
#[must_use]
pub fn gaussian(x: &[f64], sigma: f64) -> Vec<f64> {
    let w = gaussian_kernel(sigma);
    let r = w.len() / 2;
    let n = x.len();
    if n == 0 {
        return Vec::new();
    }
    // The signal padded by r samples of 'nearest' on each side, so the inner loop has no branches.
    let mut padded = Vec::with_capacity(n + 2 * r);
    padded.extend(std::iter::repeat_n(x[0], r));
    padded.extend_from_slice(x);
    padded.extend(std::iter::repeat_n(x[n - 1], r));
    let centre = &w[r..];
    (0..n)
        .map(|i| {
            let c = i + r;
            let mut acc = padded[c] * centre[0];
            for k in (1..=r).rev() {
                acc += (padded[c - k] + padded[c + k]) * centre[k];
            }
            acc
        })
        .collect()
}

/// `scipy.ndimage.median_filter(x, size, mode='nearest')` for an odd `size`: each output
/// sample the median of `x[i − r … i + r]` (`r = size/2`), the signal held at its first and
/// last sample beyond its ends. A median is one of its inputs, so this equals scipy exactly.
#[must_use]
pub fn median(x: &[f64], size: usize) -> Vec<f64> {
    let r = size / 2;
    let n = x.len();
    if n == 0 {
        return Vec::new();
    }
    let at = |i: isize| x[i.clamp(0, n as isize - 1) as usize];
    let mut window = vec![0.0; 2 * r + 1];
    (0..n as isize)
        .map(|i| {
            for (k, w) in window.iter_mut().enumerate() {
                *w = at(i - r as isize + k as isize);
            }
            *window.select_nth_unstable_by(r, f64::total_cmp).1
        })
        .collect()
}
