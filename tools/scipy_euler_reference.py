"""Euler-angle reference data from scipy, for the Euler rotation tests.

Writes tests/reference/euler_scipy.json (or the path given as the first argument):

- "orders": for each of the six orders XYZ XZY YXZ YZX ZXY ZYX, a list of "cases", each with
  "angles" [x, y, z] (radians about X, Y, Z, whatever the order), "matrix" (3x3, row-major,
  scipy's as_matrix) and "quat" [x, y, z, w] (scipy's as_quat(canonical=True), so w >= 0),
  plus "kind" (random / hand / gimbal). Random angles lie in [-7, 7] (seeded); hand-picked
  ones are zeros, single-axis 90°, -90°, 180°, 450° and a few mixes; gimbal cases have the
  middle-applied angle exactly ±π/2, or ±π/2 ± 1e-9.
- "from_quat": for each order, random unit quaternions (and a few at or near the gimbal-lock
  pose, "gimbal": true) with scipy's as_euler decomposition, given as [x, y, z] about X/Y/Z
  (scipy returns the angles in sequence order; they are reordered here), the matrix of the
  quaternion, and "scipy_warned" (scipy printed its gimbal-lock warning).

Conventions (Blender's, SPEC §13): the order names the axis applied first first; "XYZ" is
R = Rz(z)·Ry(y)·Rx(x) on column vectors, which is scipy's Rotation.from_euler("xyz", [x, y, z])
(lowercase = extrinsic). For order "YXZ" scipy gets from_euler("yxz", [y, x, z]).

Run: python3 tools/scipy_euler_reference.py [OUT.json]   (needs numpy and scipy)
"""
import json
import math
import os
import sys
import warnings

import numpy as np
import scipy
from scipy.spatial.transform import Rotation

ORDERS = ["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"]
AXIS = {"X": 0, "Y": 1, "Z": 2}
HALF_PI = math.pi / 2

here = os.path.dirname(os.path.abspath(__file__))
out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "tests", "reference", "euler_scipy.json")
rng = np.random.default_rng(20240613)


def seq_angles(order, xyz):
    """[x, y, z] -> angles in the order's sequence (first-applied first)."""
    return [xyz[AXIS[c]] for c in order]


def xyz_angles(order, seq):
    """Angles in sequence order -> [x, y, z]."""
    out = [0.0, 0.0, 0.0]
    for c, a in zip(order, seq):
        out[AXIS[c]] = float(a)
    return out


def rot(order, xyz):
    return Rotation.from_euler(order.lower(), seq_angles(order, xyz))


def mat(r):
    return [[float(v) for v in row] for row in r.as_matrix()]


def quat(r):
    return [float(v) for v in r.as_quat(canonical=True)]


def decompose(order, r):
    """scipy's as_euler, reordered to [x, y, z]; also whether scipy warned of gimbal lock."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seq = r.as_euler(order.lower())
    warned = any("Gimbal lock" in str(w.message) for w in caught)
    return xyz_angles(order, seq), warned


def hand_cases(order):
    cases = [[0.0, 0.0, 0.0]]
    for axis in range(3):
        for a in (HALF_PI, -HALF_PI, math.pi, 2.5 * math.pi):
            v = [0.0, 0.0, 0.0]
            v[axis] = a
            cases.append(v)
    cases += [[HALF_PI, HALF_PI, 0.0], [0.0, HALF_PI, HALF_PI], [math.pi, math.pi, math.pi],
              [0.1, 0.2, 0.3], [-1.0, 2.0, -3.0], [4 * math.pi, -2 * math.pi, 6.0]]
    return cases


def gimbal_cases(order):
    mid = AXIS[order[1]]
    cases = []
    for m in (HALF_PI, -HALF_PI, HALF_PI + 1e-9, HALF_PI - 1e-9, -HALF_PI + 1e-9, -HALF_PI - 1e-9):
        v = [float(a) for a in rng.uniform(-3.0, 3.0, 3)]
        v[mid] = m
        cases.append(v)
    # Both outer angles zero, and equal outer angles, at the exact pole.
    v = [0.0, 0.0, 0.0]
    v[mid] = HALF_PI
    cases.append(v)
    v = [0.7, 0.7, 0.7]
    v[mid] = -HALF_PI
    cases.append(v)
    return cases


def gimbal_threshold(order):
    """Smallest d (to ~1%) with middle angle π/2 - d that scipy does NOT call gimbal lock."""
    mid = AXIS[order[1]]

    def warned(d):
        v = [0.3, 0.3, 0.3]
        v[mid] = HALF_PI - d
        return decompose(order, rot(order, v))[1]

    lo, hi = 0.0, 1e-2
    assert not warned(hi)
    for _ in range(80):
        m = (lo + hi) / 2
        lo, hi = (m, hi) if warned(m) else (lo, m)
    return hi


def random_quat():
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    if q[3] < 0:
        q = -q
    return [float(v) for v in q]


result = {
    "generator": "tools/scipy_euler_reference.py",
    "scipy": scipy.__version__,
    "numpy": np.__version__,
    "conventions": (
        "angles are [x, y, z] radians about X, Y, Z whatever the order; order names the axis applied first "
        "first: XYZ is R = Rz(z)*Ry(y)*Rx(x) on column vectors = scipy Rotation.from_euler('xyz', [x, y, z]); "
        "matrix is 3x3 row-major; quat is [x, y, z, w] from scipy as_quat(canonical=True), so w >= 0 "
        "(when w == 0 the first nonzero of x, y, z is positive)."
    ),
    "note": None,
    "gimbal_threshold": {},
    "orders": {},
    "from_quat": {},
}

for order in ORDERS:
    cases = []
    for v in hand_cases(order):
        cases.append(("hand", v))
    for v in gimbal_cases(order):
        cases.append(("gimbal", v))
    while len(cases) < 44:
        cases.append(("random", [float(a) for a in rng.uniform(-7.0, 7.0, 3)]))
    result["orders"][order] = [
        {"kind": kind, "angles": v, "matrix": mat(rot(order, v)), "quat": quat(rot(order, v))} for kind, v in cases
    ]

    fq = []
    for _ in range(40):
        q = random_quat()
        r = Rotation.from_quat(q)
        angles, warned = decompose(order, r)
        fq.append({"gimbal": False, "quat": q, "angles": angles, "matrix": mat(r), "scipy_warned": warned})
    # Quaternions at and near the gimbal-lock pose: here scipy's angles are not unique; compare matrices.
    mid = AXIS[order[1]]
    for m in (HALF_PI, -HALF_PI, HALF_PI - 1e-9, -HALF_PI + 1e-9, HALF_PI - 1e-4):
        v = [float(a) for a in rng.uniform(-3.0, 3.0, 3)]
        v[mid] = m
        r = rot(order, v)
        angles, warned = decompose(order, r)
        fq.append({"gimbal": True, "quat": quat(r), "angles": angles, "matrix": mat(r), "scipy_warned": warned,
                   "source_angles": v})
    for e in fq:
        back = rot(order, e["angles"]).as_matrix()
        e["angles_matrix_error"] = float(np.abs(back - np.array(e["matrix"])).max())
    result["from_quat"][order] = fq
    result["gimbal_threshold"][order] = gimbal_threshold(order)

worst_warned = max(e["angles_matrix_error"] for fq in result["from_quat"].values() for e in fq if e["scipy_warned"])
worst_plain = max(e["angles_matrix_error"] for fq in result["from_quat"].values() for e in fq if not e["scipy_warned"])
result["note"] = (
    "from_quat angles are scipy's as_euler(order.lower()) reordered to [x, y, z]: the first- and last-applied "
    "angles lie in [-pi, pi], the middle-applied one in [-pi/2, pi/2]. At gimbal lock (middle-applied angle "
    "within about gimbal_threshold[order] of +-pi/2; +-pi/2 +- 1e-9 counts) scipy warns 'Gimbal lock detected. "
    "Setting third angle to zero' and sets the LAST-applied angle (order[2], third in its extrinsic sequence) to "
    "exactly 0 (possibly -0.0), putting the whole outer rotation into the first-applied angle; the middle angle "
    "is kept as computed (pi/2 - 1e-9 stays pi/2 - 1e-9, not snapped to the pole). Those angles are not unique: compare matrices "
    "there, not angles (scipy_warned = true marks them). Max |R(angles) - matrix| over from_quat: "
    f"{worst_plain:.3g} without the warning, {worst_warned:.3g} with it (1e-9 off the pole, zeroing the last angle "
    "costs a matrix error of order 1e-9; tolerance 1e-8 is safe)."
)

os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
with open(out_path, "w") as fh:
    json.dump(result, fh, indent=1)
print("wrote", out_path, {o: len(result["orders"][o]) for o in ORDERS}, {o: len(result["from_quat"][o]) for o in ORDERS})
print("gimbal thresholds", result["gimbal_threshold"])
print(result["note"])
