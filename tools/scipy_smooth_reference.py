#!/usr/bin/env python3
"""Reference numbers for Tangent's smoothing filters (issue 32), from scipy.

What: noisy signals with spikes (seeded), Scalar and Vec3, at uniform rates of 30, 60 and
120 Hz, each filtered by
  - scipy.signal.butter(N, cutoff, fs=rate) (orders 1-4, three cutoffs) then
    scipy.signal.filtfilt(b, a, x) with its defaults (padtype='odd', padlen=3*max(len(a), len(b))),
  - scipy.ndimage.gaussian_filter1d(x, sigma_s * rate, mode='nearest') (truncate=4.0),
  - scipy.ndimage.median_filter(x, size, mode='nearest'), size = floor(window_s*rate + 0.5),
    plus one if even (Tangent's rule, `Filter::median_size`),
per component (axis 0). Written to tests/reference/scipy_smooth.json with the scipy and
numpy versions; tests/smooth_reference.rs reads it.

How to run (from the repository root):
    python3 tools/scipy_smooth_reference.py
"""

import json
import math
import os

import numpy as np
import scipy
from scipy import ndimage, signal

RATES = [30.0, 60.0, 120.0]
SECONDS = 2.0
ORDERS = [1, 2, 3, 4]
SIGMAS_S = [0.01, 0.04, 0.15]
WINDOWS_S = [0.05, 0.1, 0.25]


def cutoffs(rate):
    return [1.0, 4.0, 0.35 * rate]


def noisy(rng, n, rate, dim):
    """Slow motion (two sines and a drift per component), Gaussian noise, and spikes: about
    one sample in 25 pushed by 3 to 8 units, up or down."""
    t = np.arange(n) / rate
    cols = []
    for c in range(dim):
        f1, f2 = rng.uniform(0.2, 1.5), rng.uniform(2.0, 6.0)
        x = 2.0 * np.sin(2 * np.pi * f1 * t + c) + 0.4 * np.sin(2 * np.pi * f2 * t) + 0.3 * t
        x += rng.normal(0.0, 0.08, n)
        spikes = rng.random(n) < 0.04
        x[spikes] += rng.choice([-1.0, 1.0], spikes.sum()) * rng.uniform(3.0, 8.0, spikes.sum())
        cols.append(x)
    return np.stack(cols, axis=1)


def median_size(window_s, rate):
    n = int(math.floor(window_s * rate + 0.5))
    return n | 1


def main():
    rng = np.random.default_rng(20240532)
    signals, cases = [], []
    for rate in RATES:
        n = int(SECONDS * rate)
        for kind, dim in [("Scalar", 1), ("Vec3", 3)]:
            x = noisy(rng, n, rate, dim)
            sid = len(signals)
            signals.append({"id": sid, "kind": kind, "rate": rate, "values": x.tolist()})
            for order in ORDERS:
                for cutoff in cutoffs(rate):
                    b, a = signal.butter(order, cutoff, fs=rate)
                    y = signal.filtfilt(b, a, x, axis=0)
                    cases.append({"signal": sid, "filter": "butterworth", "order": order, "cutoff": cutoff,
                                  "b": b.tolist(), "a": a.tolist(), "output": y.tolist()})
            for sigma_s in SIGMAS_S:
                y = ndimage.gaussian_filter1d(x, sigma_s * rate, axis=0, mode="nearest")
                cases.append({"signal": sid, "filter": "gaussian", "sigma_s": sigma_s,
                              "sigma_samples": sigma_s * rate, "output": y.tolist()})
            for window_s in WINDOWS_S:
                size = median_size(window_s, rate)
                y = ndimage.median_filter(x, size=(size, 1), mode="nearest")
                cases.append({"signal": sid, "filter": "median", "window_s": window_s, "size": size,
                              "output": y.tolist()})
    out = {
        "generator": "tools/scipy_smooth_reference.py",
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "signals": signals,
        "cases": cases,
    }
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "reference", "scipy_smooth.json")
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(cases)} cases on {len(signals)} signals to {os.path.normpath(path)} "
          f"(scipy {scipy.__version__}, numpy {np.__version__})")


if __name__ == "__main__":
    main()
