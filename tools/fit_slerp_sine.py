#!/usr/bin/env python3
"""The coefficients of Slerp's sine (src/trig.rs, `sin2`): sin x = x + x·y·P(y), y = x²,
P of degree 7 closest to (sin x / x − 1)/y in relative error of sin x over x ∈ [0, π/2],
by the Remez exchange in 50-digit arithmetic (mpmath). Prints the largest relative error of
the fit, the coefficients as f64 (from y⁰ up, what `SLERP_SINE` holds) and the largest
relative error of the polynomial with those rounded coefficients (evaluated exactly) on
20,001 points.

usage: python3 tools/fit_slerp_sine.py   (needs mpmath)
"""
import mpmath as mp

mp.mp.dps = 50
DEGREE = 7
TOP = (mp.pi / 2) ** 2  # y = x² up to (π/2)²


def target(y):
    """(sin x / x − 1)/y, with its limit −1/6 at 0."""
    if y == 0:
        return mp.mpf(-1) / 6
    x = mp.sqrt(y)
    return (mp.sin(x) / x - 1) / y


def weight(y):
    """What an error in P costs relative to sin x: x·y / sin x."""
    if y == 0:
        return mp.mpf(0)
    x = mp.sqrt(y)
    return x * y / mp.sin(x)


def remez(n, iterations=30, grid_points=2000):
    m = n + 2
    points = [TOP * (1 - mp.cos(mp.pi * i / (m - 1))) / 2 for i in range(m)]
    grid = [TOP * i / grid_points for i in range(grid_points + 1)]
    for _ in range(iterations):
        # P(y_i) − f(y_i) = (−1)^i E / w(y_i) at the reference points.
        rows = [[y**k for k in range(n + 1)] + [(-1) ** i / (weight(y) or mp.mpf("1e-30"))] for i, y in enumerate(points)]
        solution = mp.lu_solve(mp.matrix(rows), mp.matrix([target(y) for y in points]))
        coefficients = [solution[k] for k in range(n + 1)]
        errors = [weight(y) * (sum(c * y**k for k, c in enumerate(coefficients)) - target(y)) for y in grid]
        # The new reference: the grid's local extrema, alternating in sign, m of them.
        extrema = [i for i in range(len(grid)) if all(abs(errors[i]) >= abs(errors[j]) for j in (i - 1, i + 1) if 0 <= j < len(grid))]
        chosen = []
        for i in extrema:
            if chosen and mp.sign(errors[i]) == mp.sign(errors[chosen[-1]]):
                if abs(errors[i]) > abs(errors[chosen[-1]]):
                    chosen[-1] = i
            else:
                chosen.append(i)
        while len(chosen) > m:
            chosen.pop(0 if abs(errors[chosen[0]]) < abs(errors[chosen[-1]]) else -1)
        if len(chosen) < m:
            break
        points = [grid[i] for i in chosen]
    return coefficients, max(abs(e) for e in errors)


coefficients, fit_error = remez(DEGREE)
print(f"fit: largest relative error {float(fit_error):.3e}")
rounded = [float(c) for c in coefficients]
print("SLERP_SINE =", rounded)
worst = mp.mpf(0)
for i in range(1, 20001):
    x = (mp.pi / 2) * i / 20000
    y = x * x
    p = sum(mp.mpf(c) * y**k for k, c in enumerate(rounded))
    worst = max(worst, abs((x + x * y * p - mp.sin(x)) / mp.sin(x)))
print(f"rounded to f64: largest relative error {float(worst):.3e}")
