"""Reference numbers for Tangent's Bezier keys (SPEC.md section 10), produced by Blender.

Run headless (Blender 3.4, Debian package):

    blender -b --factory-startup --python tools/blender/bezier_reference.py -- OUT_DIR

OUT_DIR defaults to tests/reference/blender_bezier (relative to the current
directory).  One JSON file per case is written there, plus `verification.json`
(this script's own float32 re-implementation of Blender's handle and evaluation
rules, compared with what Blender reported).

Units: Blender's frame number is used directly as Tangent's time (1 frame =
1 time unit, i.e. 1 second in Tangent).  Nothing here depends on the scene fps:
F-Curves are built and evaluated in frames, never through the scene clock.

Blender keeps F-Curve keys, handles and evaluation results in float32.  Every
number written is the float32 value Blender holds, widened to a double and
printed with repr() (shortest string that parses back to the same double).
Sample times are rounded to float32 *before* being handed to Blender, so the
recorded time is exactly the one Blender evaluated at.
"""

import json
import math
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import tangent_io  # noqa: E402  (F-curves and arguments in every Blender version)
import numpy as np

F32 = np.float32
# fcurve_eval_keyframes_interpolate() treats a time within 1e-4 of a key as
# that key (binarysearch_bezt_index_ex threshold) and returns the key's value.
KEY_SNAP = float(np.float32(0.0001))

# ---------------------------------------------------------------------------
# Cases.  A key is (time, value, left_type, right_type, left_offset, right_offset)
# with offsets (dt, dv) relative to the key, used only for FREE / ALIGNED sides
# (for other types they are ignored by Blender's recalculation, we still set
# them to a recognisable value so that "was it recomputed?" is visible).
# ---------------------------------------------------------------------------

A, AC, V, FR, AL = "AUTO", "AUTO_CLAMPED", "VECTOR", "FREE", "ALIGNED"


def K(t, v, lt=AC, rt=None, hl=None, hr=None):
    return {"t": t, "v": v, "lt": lt, "rt": rt if rt is not None else lt, "hl": hl, "hr": hr}


def all_type(times, values, typ):
    return [K(t, v, typ) for t, v in zip(times, values)]


UNEVEN_T = [0.0, 1.0, 1.3, 4.0, 4.2, 9.0]
UNEVEN_V = [0.0, 1.0, 3.0, 2.0, 5.0, 4.0]
BASIC_T = [0.0, 1.0, 2.0, 3.0, 4.0]
BASIC_V = [0.0, 2.0, 1.0, 3.0, 0.0]

CASES = [
    # --- the five handle types, even spacing ------------------------------
    dict(name="auto_basic", desc="5 keys, even spacing, all AUTO.",
         keys=all_type(BASIC_T, BASIC_V, A)),
    dict(name="auto_clamped_basic", desc="5 keys, even spacing, all AUTO_CLAMPED (Blender's and Tangent's default).",
         keys=all_type(BASIC_T, BASIC_V, AC)),
    dict(name="vector_basic", desc="5 keys, even spacing, all VECTOR.",
         keys=all_type(BASIC_T, BASIC_V, V)),
    dict(name="free_basic", desc="4 keys, FREE handles of unequal, non-1/3 lengths, not collinear.",
         keys=[K(0.0, 0.0, FR, FR, (-0.5, -0.25), (0.25, 1.0)),
               K(1.0, 2.0, FR, FR, (-0.5, 0.5), (0.125, -0.5)),
               K(2.5, 1.0, FR, FR, (-0.75, 0.0), (0.5, 1.5)),
               K(4.0, 3.0, FR, FR, (-1.0, 1.0), (0.5, 0.0))]),
    dict(name="aligned_basic", desc="4 keys, ALIGNED handles set collinear with unequal lengths on each side.",
         keys=[K(0.0, 0.0, AL, AL, (-0.25, -0.5), (0.5, 1.0)),
               K(1.0, 2.0, AL, AL, (-0.5, -0.25), (0.25, 0.125)),
               K(2.5, 1.0, AL, AL, (-0.25, 0.5), (0.75, -1.5)),
               K(4.0, 3.0, AL, AL, (-0.5, 0.0), (0.25, 0.0))]),
    # --- uneven spacing -----------------------------------------------------
    dict(name="auto_uneven_spacing", desc="Times 0,1,1.3,4,4.2,9 (neighbour ratios up to 24), all AUTO. Exercises the 5x clamp of neighbour distances.",
         keys=all_type(UNEVEN_T, UNEVEN_V, A)),
    dict(name="auto_clamped_uneven_spacing", desc="Times 0,1,1.3,4,4.2,9, all AUTO_CLAMPED.",
         keys=all_type(UNEVEN_T, UNEVEN_V, AC)),
    dict(name="vector_uneven_spacing", desc="Times 0,1,1.3,4,4.2,9, all VECTOR.",
         keys=all_type(UNEVEN_T, UNEVEN_V, V)),
    dict(name="auto_uneven_monotone", desc="Monotone rising values with uneven spacing 0,0.5,2,2.25,4, AUTO: the interior formula without extremes and without the 5x clamp.",
         keys=all_type([0.0, 0.5, 2.0, 2.25, 4.0], [0.0, 1.0, 2.0, 4.0, 5.0], A)),
    # --- flat runs ------------------------------------------------------------
    dict(name="auto_flat_run", desc="Equal neighbouring values (0,1,1,1,0,0), AUTO.",
         keys=all_type([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 1.0, 1.0, 1.0, 0.0, 0.0], A)),
    dict(name="auto_clamped_flat_run", desc="Equal neighbouring values (0,1,1,1,0,0), AUTO_CLAMPED.",
         keys=all_type([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 1.0, 1.0, 1.0, 0.0, 0.0], AC)),
    # --- extremes ---------------------------------------------------------------
    dict(name="auto_extreme", desc="Local max at key 1 and local min at key 3 with asymmetric neighbours, AUTO (handles not flat, curve overshoots the keys).",
         keys=all_type([0.0, 1.0, 3.0, 4.0, 6.0], [0.0, 4.0, 3.0, -1.0, 0.5], A)),
    dict(name="auto_clamped_extreme", desc="Same keys as auto_extreme, AUTO_CLAMPED (handles flat at the extremes).",
         keys=all_type([0.0, 1.0, 3.0, 4.0, 6.0], [0.0, 4.0, 3.0, -1.0, 0.5], AC)),
    # --- overshooting neighbours ----------------------------------------------
    dict(name="auto_overshoot", desc="Monotone keys 0,0.1,10,10.1 where the AUTO handles pass beyond the neighbouring keys' values (curve overshoots).",
         keys=all_type([0.0, 1.0, 2.0, 3.0], [0.0, 0.1, 10.0, 10.1], A)),
    dict(name="auto_clamped_overshoot", desc="Same keys as auto_overshoot, AUTO_CLAMPED: the handle that passes a neighbour's value is clamped to it and the other side re-aligned.",
         keys=all_type([0.0, 1.0, 2.0, 3.0], [0.0, 0.1, 10.0, 10.1], AC)),
    dict(name="auto_clamped_overshoot_uneven", desc="Monotone keys with uneven spacing where AUTO_CLAMPED clamps on the right side of one key and the left side of another.",
         keys=all_type([0.0, 3.0, 3.5, 6.0, 6.25], [0.0, 1.0, 4.0, 4.5, 8.0], AC)),
    # --- mixed types ------------------------------------------------------------
    dict(name="mixed_types", desc="Per-key mixed handle types: (VECTOR,AUTO), (AUTO,VECTOR), (VECTOR,AUTO_CLAMPED), (AUTO_CLAMPED,FREE), (FREE,VECTOR), (AUTO,AUTO) at the end.",
         keys=[K(0.0, 1.0, V, A),
               K(1.0, 3.0, A, V),
               K(2.0, 0.0, V, AC),
               K(3.5, 2.0, AC, FR, None, (0.5, 1.0)),
               K(4.5, 1.0, FR, V, (-0.25, 0.75), None),
               K(6.0, 2.0, A, A)]),
    dict(name="mixed_aligned_auto", desc="ALIGNED on one side, AUTO/AUTO_CLAMPED/VECTOR on the other: Blender computes the automatic side and turns the aligned side to be collinear with it (keeping the aligned side's length).",
         keys=[K(0.0, 0.0, AC, AC),
               K(1.0, 2.0, A, AL, None, (0.5, -1.0)),
               K(2.0, 1.0, AL, AC, (-0.25, -1.0), None),
               K(3.0, 3.0, V, AL, None, (0.25, 0.5)),
               K(4.0, 0.0, AC, AC)]),
    dict(name="auto_end_mixed", desc="End keys with one non-auto side (first: left VECTOR, right AUTO; last: left AUTO_CLAMPED, right VECTOR): the end flattening does not apply.",
         keys=[K(0.0, 0.0, V, A), K(1.0, 2.0, AC, AC), K(2.5, 1.0, AC, AC), K(4.0, 3.0, AC, V)]),
    # --- correction of overlapping handles -----------------------------------
    dict(name="free_overlap_within_segment", desc="FREE handles in segment [0,2]: key 0 right handle reaches t=1.6, key 1 left handle reaches back to t=0.4 (each shorter than the segment, together 1.5x its length). Segment [2,3] is normal.",
         keys=[K(0.0, 0.0, FR, FR, (-0.5, 0.0), (1.6, 3.0)),
               K(2.0, 1.0, FR, FR, (-1.6, -2.0), (0.25, 0.0)),
               K(3.0, 0.5, FR, FR, (-0.25, 0.25), (0.5, 0.0))]),
    dict(name="free_handle_beyond_segment", desc="FREE handles longer than their segment: key 0 right handle dt=3 over a segment of 2; key 1 left handle dt=-1.5 over a segment of 1 (segment [2,3]), key 2 right handle and key 3 left handle both 0.9 of a segment of 1.",
         keys=[K(0.0, 0.0, FR, FR, (-0.5, 0.0), (3.0, 2.0)),
               K(2.0, 1.0, FR, FR, (-0.5, 0.0), (0.5, 0.5)),
               K(3.0, 0.0, FR, FR, (-1.5, 1.5), (0.9, 1.0)),
               K(4.0, 2.0, FR, FR, (-0.9, 0.5), (0.5, 0.0))]),
    dict(name="free_wrong_side", desc="FREE handles set on the wrong side of their key (left dt>0, right dt<0 on different keys): update() clamps the handle's time to the key's time.",
         keys=[K(0.0, 0.0, FR, FR, (-0.5, 0.0), (0.5, 1.0)),
               K(2.0, 1.0, FR, FR, (0.5, 0.5), (0.5, 0.0)),
               K(4.0, 0.0, FR, FR, (-0.5, 0.0), (-0.5, 0.5)),
               K(5.0, 1.0, FR, FR, (-0.25, 0.0), (0.5, 0.0))]),
    # --- aligned not collinear -----------------------------------------------
    dict(name="aligned_not_collinear", desc="ALIGNED keys whose stored handles are not collinear before update(); all handles selected (Blender's default after keyframe_points.add): Blender keeps the LEFT handle and turns the right one to be collinear, keeping the right handle's length.",
         keys=[K(0.0, 0.0, AL, AL, (-0.5, 0.0), (0.5, 0.5)),
               K(1.0, 2.0, AL, AL, (-0.25, -0.5), (0.5, -0.25)),
               K(2.5, 1.0, AL, AL, (-0.5, 1.0), (0.25, 1.0)),
               K(4.0, 3.0, AL, AL, (-0.5, -0.5), (0.5, 0.0))]),
    dict(name="aligned_not_collinear_left_unselected", desc="Same keys as aligned_not_collinear but with the left handles deselected (select_left_handle=False): now Blender keeps the RIGHT handle and turns the left one.",
         select_left=False,
         keys=[K(0.0, 0.0, AL, AL, (-0.5, 0.0), (0.5, 0.5)),
               K(1.0, 2.0, AL, AL, (-0.25, -0.5), (0.5, -0.25)),
               K(2.5, 1.0, AL, AL, (-0.5, 1.0), (0.25, 1.0)),
               K(4.0, 3.0, AL, AL, (-0.5, -0.5), (0.5, 0.0))]),
    dict(name="aligned_free_mix", desc="ALIGNED on one side and FREE on the other: Blender does not align at all (a FREE side disables alignment of the key).",
         keys=[K(0.0, 0.0, FR, FR, (-0.5, 0.0), (0.5, 0.0)),
               K(1.0, 2.0, AL, FR, (-0.25, -0.5), (0.5, 0.5)),
               K(2.0, 0.0, FR, AL, (-0.5, 0.5), (0.25, 1.0)),
               K(3.0, 1.0, FR, FR, (-0.5, 0.0), (0.5, 0.0))]),
    # --- small counts ---------------------------------------------------------
    dict(name="single_key", desc="One AUTO_CLAMPED key inserted with keyframe_points.insert(): handles are not recomputed for fewer than 2 keys; evaluation is constant.",
         method="insert", keys=[K(2.0, 1.5, AC)]),
    dict(name="single_key_added", desc="One AUTO key created with keyframe_points.add(), co and handles (-0.5,0)/(+0.5,0) set by the script: update() leaves the handles exactly as set, because handle recalculation needs at least 2 keys.",
         keys=[K(2.0, 1.5, A)]),
    dict(name="two_keys_auto_clamped", desc="Two AUTO_CLAMPED keys.",
         keys=all_type([0.0, 3.0], [1.0, 4.0], AC)),
    dict(name="two_keys_auto", desc="Two AUTO keys.",
         keys=all_type([1.0, 2.5], [2.0, -1.0], A)),
    dict(name="two_keys_vector", desc="Two VECTOR keys (a straight line).",
         keys=all_type([0.0, 2.0], [0.0, 1.0], V)),
    dict(name="two_keys_insert", desc="Two keys added with keyframe_points.insert() (default AUTO_CLAMPED), uneven values.",
         method="insert", keys=[K(1.0, 0.0, AC), K(4.0, 2.0, AC)]),
    # --- ranges -------------------------------------------------------------
    dict(name="negative_times", desc="Negative times -5,-2.5,-1,0.5,2, AUTO_CLAMPED.",
         keys=all_type([-5.0, -2.5, -1.0, 0.5, 2.0], [1.0, -2.0, 0.5, 1.0, -1.0], AC)),
    dict(name="negative_times_auto", desc="Negative times -5,-2.5,-1,0.5,2, AUTO.",
         keys=all_type([-5.0, -2.5, -1.0, 0.5, 2.0], [1.0, -2.0, 0.5, 1.0, -1.0], A)),
    dict(name="large_values", desc="Values around 1e3, uneven spacing, AUTO_CLAMPED interior and AUTO ends.",
         keys=[K(0.0, 1000.0, A), K(2.0, 1500.0, AC), K(3.0, -750.0, AC), K(7.0, 2000.0, AC), K(8.0, 1999.0, A)]),
    dict(name="small_values", desc="Values around 1e-3, AUTO.",
         keys=all_type([0.0, 1.0, 1.5, 3.0], [0.001, 0.002, 0.0005, 0.0015], A)),
    dict(name="small_values_clamped", desc="Values around 1e-3, AUTO_CLAMPED.",
         keys=all_type([0.0, 1.0, 1.5, 3.0], [0.001, 0.002, 0.0005, 0.0015], AC)),
    dict(name="large_times", desc="Key times near 1e3 (float32 time resolution ~6e-5 there), AUTO_CLAMPED.",
         keys=all_type([1000.0, 1010.0, 1012.5, 1030.0], [0.0, 1.0, -1.0, 0.5], AC)),
    # --- extrapolation ------------------------------------------------------------
    dict(name="auto_extrapolation_linear", desc="AUTO keys with fcurve.extrapolation='LINEAR': end keys are NOT flattened and values outside the range follow the end handle's slope.",
         extrapolation="LINEAR", keys=all_type([0.0, 1.0, 2.5, 4.0], [0.0, 2.0, 1.0, 3.0], A)),
    dict(name="auto_clamped_extrapolation_linear", desc="Same keys as auto_extrapolation_linear, AUTO_CLAMPED, extrapolation='LINEAR': end keys are not flattened (the clamping needs both neighbours).",
         extrapolation="LINEAR", keys=all_type([0.0, 1.0, 2.5, 4.0], [0.0, 2.0, 1.0, 3.0], AC)),
]


# ---------------------------------------------------------------------------
# float32 re-implementation of Blender 3.4's rules (for verification.json)
# ---------------------------------------------------------------------------

def f32(x):
    return F32(x)


def calc_handle(h, prev, nxt, is_first_or_last, extrap_const):
    """Blender's calchandleNurb_intern (curve.cc) for F-Curves with auto_smoothing NONE,
    followed by the end-key flattening of BKE_fcurve_handles_recalc_ex (fcurve.cc).
    h: dict with 'co', 'hl', 'hr' (np.float32 arrays of 2) and 'lt','rt' types.
    prev/nxt: np.float32 key coordinates or None.  Modifies h['hl'], h['hr']."""
    lt, rt = h["lt"], h["rt"]
    p2 = h["co"]
    if prev is None:
        p3 = nxt
        p1 = F32(2.0) * p2 - p3
    else:
        p1 = prev
    if nxt is None:
        p3 = F32(2.0) * p2 - p1
    else:
        p3 = nxt
    dva = p2 - p1
    dvb = p3 - p2
    len_a = dva[0]
    len_b = dvb[0]
    if len_a == 0:
        len_a = F32(1.0)
    if len_b == 0:
        len_b = F32(1.0)
    autos = (A, AC)
    if lt in autos or rt in autos:
        tvec = dvb / len_b + dva / len_a
        ln = tvec[0] * F32(2.5614)
        if ln != 0:
            leftviolate = rightviolate = False
            if len_a > F32(5.0) * len_b:
                len_a = F32(5.0) * len_b
            if len_b > F32(5.0) * len_a:
                len_b = F32(5.0) * len_a
            if lt in autos:
                la = len_a / ln
                h["hl"] = p2 + tvec * (-la)
                if lt == AC and prev is not None and nxt is not None:
                    yd1 = prev[1] - p2[1]
                    yd2 = nxt[1] - p2[1]
                    if (yd1 <= 0 and yd2 <= 0) or (yd1 >= 0 and yd2 >= 0):
                        h["hl"][1] = p2[1]
                    else:
                        if yd1 <= 0:
                            if prev[1] > h["hl"][1]:
                                h["hl"][1] = prev[1]
                                leftviolate = True
                        else:
                            if prev[1] < h["hl"][1]:
                                h["hl"][1] = prev[1]
                                leftviolate = True
            if rt in autos:
                lb = len_b / ln
                h["hr"] = p2 + tvec * lb
                if rt == AC and prev is not None and nxt is not None:
                    yd1 = prev[1] - p2[1]
                    yd2 = nxt[1] - p2[1]
                    if (yd1 <= 0 and yd2 <= 0) or (yd1 >= 0 and yd2 >= 0):
                        h["hr"][1] = p2[1]
                    else:
                        if yd1 <= 0:
                            if nxt[1] < h["hr"][1]:
                                h["hr"][1] = nxt[1]
                                rightviolate = True
                        else:
                            if nxt[1] > h["hr"][1]:
                                h["hr"][1] = nxt[1]
                                rightviolate = True
            if leftviolate or rightviolate:
                h1x = h["hl"][0] - p2[0]
                h2x = p2[0] - h["hr"][0]
                if leftviolate:
                    h["hr"][1] = p2[1] + ((p2[1] - h["hl"][1]) / h1x) * h2x
                else:
                    h["hl"][1] = p2[1] + ((p2[1] - h["hr"][1]) / h2x) * h1x
    if lt == V:
        h["hl"] = p2 + dva * F32(-1.0 / 3.0)
    if rt == V:
        h["hr"] = p2 + dvb * F32(1.0 / 3.0)
    if FR not in (lt, rt) and AL in (lt, rt):
        la = np.float32(math.sqrt(float(np.sum((p2 - h["hl"]).astype(np.float64) ** 2))))
        lb = np.float32(math.sqrt(float(np.sum((p2 - h["hr"]).astype(np.float64) ** 2))))
        if la == 0:
            la = F32(1.0)
        if lb == 0:
            lb = F32(1.0)
        ratio = la / lb
        eps = F32(1e-5)
        if h.get("sel_left", True):
            if rt == AL and la > eps:
                h["hr"] = p2 + (F32(1.0) / ratio) * (p2 - h["hl"])
            if lt == AL and lb > eps:
                h["hl"] = p2 + ratio * (p2 - h["hr"])
        else:
            if lt == AL and lb > eps:
                h["hl"] = p2 + ratio * (p2 - h["hr"])
            if rt == AL and la > eps:
                h["hr"] = p2 + (F32(1.0) / ratio) * (p2 - h["hl"])
    # end keys: both sides automatic and constant extrapolation -> flat
    if lt in autos and rt in autos and is_first_or_last and extrap_const:
        h["hl"][1] = p2[1]
        h["hr"][1] = p2[1]


def predict_handles(keys, extrap_const):
    """keys: list of dicts with co/hl/hr (float32) and types, as stored before update()."""
    out = [dict(k, co=k["co"].copy(), hl=k["hl"].copy(), hr=k["hr"].copy()) for k in keys]
    n = len(out)
    if n < 2:
        return out
    for i, h in enumerate(out):
        if h["hl"][0] > h["co"][0]:
            h["hl"][0] = h["co"][0]
        if h["hr"][0] < h["co"][0]:
            h["hr"][0] = h["co"][0]
        prev = out[i - 1]["co"] if i > 0 else None
        nxt = out[i + 1]["co"] if i < n - 1 else None
        calc_handle(h, prev, nxt, i in (0, n - 1), extrap_const)
    return out


def correct_overlap_proportional(p0, p1, p2, p3):
    """Candidate A, NOT what Blender 3.4 does (it is the rule of older Blender's
    fcurve.c `correct_bezpart`): if the two handles' time extents add up to more
    than the segment, scale BOTH towards their keys by len/(len1+len2)."""
    p1 = np.array(p1, dtype=np.float64)
    p2 = np.array(p2, dtype=np.float64)
    ln = p3[0] - p0[0]
    l1 = abs(p0[0] - p1[0])
    l2 = abs(p3[0] - p2[0])
    if l1 + l2 == 0:
        return p1, p2
    if l1 + l2 > ln:
        fac = ln / (l1 + l2)
        p1 = np.asarray(p0) - fac * (np.asarray(p0) - p1)
        p2 = np.asarray(p3) - fac * (np.asarray(p3) - p2)
    return p1, p2


def correct_overlap_per_handle(p0, p1, p2, p3, dtype=np.float64):
    """Candidate B, what Blender 3.4.1 does (BKE_fcurve_correct_bezpart): each handle
    is scaled towards its key, keeping its direction, only if its own time extent is
    longer than the segment; then it reaches exactly the other key's time.  Handles
    that merely overlap each other are left alone.  With dtype=np.float32 the
    arithmetic is done in float32 in Blender's order."""
    T = dtype
    p0 = np.array(p0, dtype=T)
    p1 = np.array(p1, dtype=T)
    p2 = np.array(p2, dtype=T)
    p3 = np.array(p3, dtype=T)
    h1 = p0 - p1
    h2 = p3 - p2
    ln = p3[0] - p0[0]
    l1 = abs(h1[0])
    l2 = abs(h2[0])
    if l1 + l2 == 0:
        return p1, p2
    if l1 > ln:
        fac = ln / l1
        p1 = p0 - fac * h1
    if l2 > ln:
        fac = ln / l2
        p2 = p3 - fac * h2
    return p1, p2


def bez_eval(p0, p1, p2, p3, t):
    """Solve x(s)=t by bisection (x monotone after correction), return y(s). float64."""
    def x(s):
        u = 1 - s
        return u * u * u * p0[0] + 3 * u * u * s * p1[0] + 3 * u * s * s * p2[0] + s * s * s * p3[0]
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if x(mid) < t:
            lo = mid
        else:
            hi = mid
    s = 0.5 * (lo + hi)
    u = 1 - s
    return u * u * u * p0[1] + 3 * u * u * s * p1[1] + 3 * u * s * s * p2[1] + s * s * s * p3[1]


def predict_eval(keys, t, correct, extrapolation="CONSTANT"):
    """keys: list of dicts with co/hl/hr as Blender stores them after update()."""
    co = [k["co"] for k in keys]
    if extrapolation == "LINEAR" and len(keys) > 1 and (t < co[0][0] or t > co[-1][0]):
        # fcurve_eval_keyframes_extrapolate for BEZIER ends: slope of the end key's
        # OUTER handle (left handle of the first key, right handle of the last key)
        end = keys[0] if t < co[0][0] else keys[-1]
        hd = end["hl"] if t < co[0][0] else end["hr"]
        c = end["co"]
        dx = c[0] - F32(t)
        fac = c[0] - hd[0]
        if fac == 0:
            return float(c[1])
        fac = (c[1] - hd[1]) / fac
        return float(c[1] - fac * dx)
    # fcurve_eval_keyframes_interpolate: binarysearch_bezt_index_ex(..., threshold 0.0001)
    # reports an "exact" hit within 1e-4 of a key and returns that key's value
    for c in co:
        if abs(float(t) - float(c[0])) <= KEY_SNAP:
            return float(c[1])
    if t <= co[0][0]:
        return float(co[0][1])
    if t >= co[-1][0]:
        return float(co[-1][1])
    for i in range(len(keys) - 1):
        if co[i][0] <= t <= co[i + 1][0]:
            p0 = co[i].astype(np.float64)
            p3 = co[i + 1].astype(np.float64)
            p1, p2 = correct(p0, keys[i]["hr"].astype(np.float64), keys[i + 1]["hl"].astype(np.float64), p3)
            return bez_eval(p0, p1, p2, p3, t)
    raise ValueError(t)


# ---------------------------------------------------------------------------
# Blender side
# ---------------------------------------------------------------------------

def f(x):
    """float32 value (as Blender holds it) as a Python float (exact double)."""
    return float(F32(x))


def sample_times(case_keys):
    ts = [f(k["t"]) for k in case_keys]
    t0, t1 = ts[0], ts[-1]
    span = t1 - t0 if t1 > t0 else 1.0
    out = set()
    if t1 > t0:
        for x in np.linspace(t0, t1, 200):
            out.add(f(x))
    for t in ts:
        out.add(t)
    for a, b in zip(ts[:-1], ts[1:]):
        for d in (1e-6, 1e-3):
            out.add(f(a + d))
            out.add(f(b - d))
    for d in (0.5, 0.1 * span, span, 10.0 * span):
        out.add(f(t0 - d))
        out.add(f(t1 + d))
    return sorted(out)


def build_case(action, idx, case):
    fc = tangent_io.action_fcurves(action).new("location", index=idx)
    fc.auto_smoothing = "NONE"
    fc.extrapolation = case.get("extrapolation", "CONSTANT")
    keys = case["keys"]
    method = case.get("method", "add")
    if method == "insert":
        for k in keys:
            fc.keyframe_points.insert(k["t"], k["v"], options={"FAST"})
        pts = list(fc.keyframe_points)
        # insert() already set types (default AUTO_CLAMPED); set what the case asks
        for kp, k in zip(pts, keys):
            kp.interpolation = "BEZIER"
            kp.handle_left_type = k["lt"]
            kp.handle_right_type = k["rt"]
    else:
        fc.keyframe_points.add(len(keys))
        for kp, k in zip(fc.keyframe_points, keys):
            kp.co = (k["t"], k["v"])
            kp.interpolation = "BEZIER"
            kp.handle_left_type = k["lt"]
            kp.handle_right_type = k["rt"]
            hl = k["hl"] if k["hl"] is not None else (-0.5, 0.0)
            hr = k["hr"] if k["hr"] is not None else (0.5, 0.0)
            if method == "add":
                kp.handle_left = (k["t"] + hl[0], k["v"] + hl[1])
                kp.handle_right = (k["t"] + hr[0], k["v"] + hr[1])
            if not case.get("select_left", True):
                kp.select_left_handle = False
    # state before update (for the verification replica)
    before = []
    for kp in fc.keyframe_points:
        before.append(dict(co=np.array(kp.co, dtype=F32), hl=np.array(kp.handle_left, dtype=F32),
                           hr=np.array(kp.handle_right, dtype=F32), lt=kp.handle_left_type,
                           rt=kp.handle_right_type, sel_left=kp.select_left_handle))
    fc.update()
    return fc, before


def key_record(kp, k, method):
    co = kp.co
    hl = kp.handle_left
    hr = kp.handle_right
    rec = {
        "time": float(co[0]),
        "value": float(co[1]),
        "handle_left": [float(hl[0]), float(hl[1])],
        "handle_right": [float(hr[0]), float(hr[1])],
        "handle_left_offset": [float(F32(hl[0]) - F32(co[0])), float(F32(hl[1]) - F32(co[1]))],
        "handle_right_offset": [float(F32(hr[0]) - F32(co[0])), float(F32(hr[1]) - F32(co[1]))],
        "left_type": kp.handle_left_type,
        "right_type": kp.handle_right_type,
        "input_time": k["t"],
        "input_value": k["v"],
    }
    if method == "add":
        if k["lt"] in (FR, AL) and k["hl"] is not None:
            rec["input_handle_left"] = [f(k["t"] + k["hl"][0]), f(k["v"] + k["hl"][1])]
            rec["input_handle_left_offset"] = list(k["hl"])
        if k["rt"] in (FR, AL) and k["hr"] is not None:
            rec["input_handle_right"] = [f(k["t"] + k["hr"][0]), f(k["v"] + k["hr"][1])]
            rec["input_handle_right_offset"] = list(k["hr"])
    rec["select_left_handle"] = kp.select_left_handle
    rec["select_right_handle"] = kp.select_right_handle
    return rec


def snapshot(fc):
    return [(tuple(kp.co), tuple(kp.handle_left), tuple(kp.handle_right)) for kp in fc.keyframe_points]


def main():
    argv = tangent_io.script_args()
    out_dir = argv[0] if argv else os.path.join("tests", "reference", "blender_bezier")
    os.makedirs(out_dir, exist_ok=True)

    scene = bpy.context.scene
    scene.render.fps = 1
    scene.render.fps_base = 1.0

    action = bpy.data.actions.new("tangent_bezier_reference")
    verification = {"blender_version": bpy.app.version_string, "cases": {}}
    names = set()
    for idx, case in enumerate(CASES):
        assert case["name"] not in names
        names.add(case["name"])
        fc, before = build_case(action, idx, case)
        method = case.get("method", "add")
        after_update = snapshot(fc)
        times = sample_times(case["keys"])
        samples = [[t, float(fc.evaluate(t))] for t in times]
        after_eval = snapshot(fc)
        unchanged = after_update == after_eval

        stored = [dict(co=np.array(kp.co, dtype=F32), hl=np.array(kp.handle_left, dtype=F32),
                       hr=np.array(kp.handle_right, dtype=F32)) for kp in fc.keyframe_points]
        # segments: stored control points and the ones after each correction candidate
        segments = []
        for i in range(len(stored) - 1):
            p0 = stored[i]["co"].astype(np.float64)
            p1 = stored[i]["hr"].astype(np.float64)
            p2 = stored[i + 1]["hl"].astype(np.float64)
            p3 = stored[i + 1]["co"].astype(np.float64)
            # the corrected points, computed the way Blender does it (float32)
            c1, c2 = correct_overlap_per_handle(p0, p1, p2, p3, dtype=F32)
            c1f = [float(c1[0]), float(c1[1])]
            c2f = [float(c2[0]), float(c2[1])]
            segments.append({
                "stored": [[float(v) for v in p] for p in (p0, p1, p2, p3)],
                "evaluated": [[float(v) for v in p0], c1f, c2f, [float(v) for v in p3]],
                "corrected": bool(c1f != [float(v) for v in p1] or c2f != [float(v) for v in p2]),
            })

        # verification: handles
        pred = predict_handles(before, fc.extrapolation == "CONSTANT")
        hmax = 0.0
        for p, s in zip(pred, stored):
            for a_, b_ in ((p["hl"], s["hl"]), (p["hr"], s["hr"])):
                hmax = max(hmax, float(np.max(np.abs(a_.astype(np.float64) - b_.astype(np.float64)))))
        # verification: evaluation under both correction candidates
        evmax = {}
        scale = max([1.0] + [abs(float(s_["co"][1])) for s_ in stored])
        for label, rule in (("per_handle_clamp_to_segment", correct_overlap_per_handle),
                            ("proportional_if_sum_exceeds", correct_overlap_proportional)):
            m = 0.0
            for t, v in samples:
                ref = predict_eval(stored, t, rule, fc.extrapolation)
                m = max(m, abs(ref - v) / scale)
            evmax[label] = m
        verification["cases"][case["name"]] = {
            "handles_max_abs_diff_vs_replica": hmax,
            "eval_max_abs_diff_vs_replica_over_max_abs_key_value": evmax,
            "stored_handles_unchanged_by_evaluate": unchanged,
        }

        data = {
            "case": case["name"],
            "description": case["desc"],
            "blender_version": bpy.app.version_string,
            "time_unit": "Blender frame number used directly as Tangent time (1 frame = 1 unit)",
            "precision": "Blender stores keys/handles and evaluates in float32; numbers are those float32 values as doubles",
            "key_creation": "keyframe_points.insert" if method == "insert" else "keyframe_points.add + co/handles set",
            "auto_smoothing": fc.auto_smoothing,
            "extrapolation": fc.extrapolation,
            "keys": [key_record(kp, k, method) for kp, k in zip(fc.keyframe_points, case["keys"])],
            "segments": segments,
            "stored_handles_unchanged_by_evaluate": unchanged,
            "key_snap_threshold": KEY_SNAP,
            "snapped_sample_indices": [i for i, (t, _) in enumerate(samples)
                                       if any(abs(t - float(s_["co"][0])) <= KEY_SNAP for s_ in stored)],
            "samples": samples,
        }
        with open(os.path.join(out_dir, case["name"] + ".json"), "w") as fh:
            json.dump(data, fh, indent=None, separators=(",", ":"))
            fh.write("\n")
        print("case %-40s keys=%d samples=%d handle_diff=%.3g eval_diff=%s" % (
            case["name"], len(case["keys"]), len(samples), hmax,
            {k: "%.3g" % v for k, v in evmax.items()}))

    with open(os.path.join(out_dir, "verification.json"), "w") as fh:
        json.dump(verification, fh, indent=1)
        fh.write("\n")


main()
