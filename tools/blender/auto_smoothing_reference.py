"""Reference numbers for Tangent's Bezier auto smoothing and cycle-aware handles, produced by
Blender 3.4: F-Curves in both "Auto Handle Smoothing" modes (NONE and CONT_ACCEL), with
Auto, AutoClamped, Vector, Free and Aligned keys, constant and linear extrapolation, and
Cycles modifiers (Repeat, Repeat with Offset, mixed, Mirror, one-sided).

Run headless (Blender 3.4, Debian package):

    blender -b --factory-startup --python tools/blender/auto_smoothing_reference.py -- OUT_DIR

OUT_DIR defaults to tests/reference/blender_auto_smoothing.  One JSON file per curve is
written there (`<case>__<smoothing>.json`), read by tests/bezier_smoothing_reference.rs.

Units: each case has its own fps; a key at frame f is at Tangent time f / fps seconds, and
handle offsets are divided by fps the same way (values are unchanged).  Blender builds and
evaluates F-Curves in frames; `fcurve.evaluate(frame)` is called with float32 frames, and the
recorded time is that float32 frame / fps.  Cases whose result depends on the unit of time
(Aligned handles: lengths are Euclidean in (frame, value); duplicate key times: a zero
interval is taken as one frame) use 1 fps, so that Tangent's seconds are Blender's frames.

Blender keeps keys, handles and evaluated values in float32: every number written is that
float32 value widened to a double (divided by fps for times).

Mapping to a Tangent track (what the test does):
  - keys: time, value, (left_type, right_type); Free and Aligned sides take the handle the
    script set (`input_handle_left_offset` / `input_handle_right_offset`, seconds).
  - `auto_smoothing`: NONE -> AutoSmoothing::None, CONT_ACCEL -> ContinuousAcceleration.
  - infinity per side: a Cycles modifier side REPEAT -> Cycle, REPEAT_OFFSET -> CycleOffset,
    MIRROR -> PingPong; NONE (or no modifier) -> the F-Curve's extrapolation (CONSTANT ->
    Constant, LINEAR -> Linear).
Samples within 1e-3 frames of a key time (modulo the cycle period) are not taken: there
Blender returns the key's own value without evaluating the curve.
"""

import json
import os
import random
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import tangent_io  # noqa: E402  (F-curves and arguments in every Blender version)
import numpy as np

F32 = np.float32
A, AC, V, FR, AL = "AUTO", "AUTO_CLAMPED", "VECTOR", "FREE", "ALIGNED"
SNAP_AVOID = 1e-3  # frames


def K(f, v, lt=AC, rt=None, hl=None, hr=None):
    """A key at frame f with value v; hl/hr: (dframes, dvalue) for FREE/ALIGNED sides."""
    return {"f": f, "v": v, "lt": lt, "rt": rt if rt is not None else lt, "hl": hl, "hr": hr}


def typed(frames, values, typ):
    return [K(f, v, typ) for f, v in zip(frames, values)]


def seeded(seed, n, typ):
    rng = random.Random(seed)
    frames, f = [], 0.0
    for _ in range(n):
        frames.append(f)
        f += rng.choice([1.0, 2.0, 3.0, 5.0, 8.0, 13.0])
    values = [round(rng.uniform(-3.0, 3.0), 3) for _ in range(n)]
    return typed(frames, values, typ)


BASIC_F = [0.0, 10.0, 20.0, 30.0, 40.0]
BASIC_V = [0.0, 2.0, 1.0, 3.0, 0.0]
UNEVEN_F = [0.0, 8.0, 11.0, 35.0, 37.0, 80.0]
UNEVEN_V = [0.0, 1.0, 3.0, 2.0, 5.0, 4.0]
MONO_F = [0.0, 5.0, 20.0, 22.5, 40.0]
MONO_V = [0.0, 1.0, 2.0, 4.0, 5.0]
EXT_F = [0.0, 10.0, 30.0, 40.0, 60.0]
EXT_V = [0.0, 4.0, 3.0, -1.0, 0.5]

# Each case is made in both smoothing modes unless `smoothing` says otherwise.
CASES = [
    # --- handle types ---------------------------------------------------------------------
    dict(name="auto_basic", fps=24, keys=typed(BASIC_F, BASIC_V, A),
         desc="5 AUTO keys, even spacing: one run between the flat (locked) end keys."),
    dict(name="auto_clamped_basic", fps=24, keys=typed(BASIC_F, BASIC_V, AC),
         desc="5 AUTO_CLAMPED keys, even spacing, every interior key an extreme (all locked)."),
    dict(name="vector_basic", fps=24, keys=typed(BASIC_F, BASIC_V, V),
         desc="5 VECTOR keys: no automatic run; Vector beside Vector is left alone."),
    dict(name="auto_uneven", fps=30, keys=typed(UNEVEN_F, UNEVEN_V, A),
         desc="AUTO, interval ratios up to 21 (the 5:1 clamp in NONE; none in CONT_ACCEL)."),
    dict(name="auto_clamped_uneven", fps=30, keys=typed(UNEVEN_F, UNEVEN_V, AC),
         desc="AUTO_CLAMPED, uneven spacing, extremes and clamped neighbours."),
    dict(name="auto_monotone", fps=25, keys=typed(MONO_F, MONO_V, A),
         desc="AUTO, rising values, uneven spacing: interior keys all free."),
    dict(name="auto_clamped_monotone", fps=25, keys=typed(MONO_F, MONO_V, AC),
         desc="AUTO_CLAMPED, rising values: free interior keys whose handles the solve limits."),
    dict(name="auto_flat_run", fps=24, keys=typed([0, 10, 20, 30, 40, 50], [0, 1, 1, 1, 0, 0], A),
         desc="AUTO with a plateau 1,1,1 and a flat end."),
    dict(name="auto_clamped_flat_run", fps=24,
         keys=typed([0, 10, 20, 30, 40, 50], [0, 1, 1, 1, 0, 0], AC),
         desc="AUTO_CLAMPED with a plateau: keys equal to a neighbour are locked flat."),
    dict(name="auto_extreme", fps=24, keys=typed(EXT_F, EXT_V, A),
         desc="AUTO with a maximum and a minimum (not locked: plain AUTO overshoots)."),
    dict(name="auto_clamped_extreme", fps=24, keys=typed(EXT_F, EXT_V, AC),
         desc="AUTO_CLAMPED with extremes: locked flat, splitting the runs."),
    dict(name="auto_overshoot", fps=24, keys=typed([0, 10, 20, 30], [0, 0.1, 10, 10.1], A),
         desc="AUTO, monotone keys whose handles pass the neighbours' values."),
    dict(name="auto_clamped_overshoot", fps=24,
         keys=typed([0, 10, 20, 30, 40, 50], [0, 0.1, 10, 10.1, 10.2, 20], AC),
         desc="AUTO_CLAMPED, monotone, the solve locks handles at their limits."),
    dict(name="auto_clamped_zigzag", fps=30,
         keys=typed([0, 3, 5, 12, 13, 20, 28, 29, 40],
                    [0, 0.2, 5, 5.1, 5.3, 9, 9.05, 0, 0.1], AC),
         desc="AUTO_CLAMPED steps and near-plateaus: limits lock and unlock in the solve."),
    dict(name="auto_clamped_unlock", fps=24, extrapolation="LINEAR",
         keys=[K(0, 2.25, AC), K(8, 1.25, A), K(14, 2.25, AC), K(15, -0.75, AC), K(19, -1.75, A), K(30, -2.75, AC)],
         desc="AUTO_CLAMPED and AUTO, linear extrapolation: a handle locked at its limit is released again in the solve."),
    dict(name="auto_clamped_unlock_steep", fps=24, extrapolation="LINEAR",
         keys=[K(0, 4.0, AC), K(10, 3.5, AC), K(19, 2.25, AC), K(20, -3.75, AC), K(21, 3.0, A), K(32, 2.5, A)],
         desc="AUTO_CLAMPED beside a one-frame drop: locks and a release in the solve."),
    dict(name="random_auto_40", fps=24, keys=seeded(7, 40, A),
         desc="40 AUTO keys, seeded random values and spacing (1..13 frames)."),
    dict(name="random_clamped_40", fps=24, keys=seeded(11, 40, AC),
         desc="40 AUTO_CLAMPED keys, seeded random values and spacing."),
    dict(name="large_gap", fps=24, keys=typed([0, 1, 2, 200, 201, 203], [0, 1, 0.5, 3, 2, 2.5], A),
         desc="AUTO with intervals 1 and 198 side by side (interval ratio 198)."),
    dict(name="large_values", fps=60,
         keys=[K(0, 1000.0, A), K(20, 1500.0, AC), K(30, -750.0, AC), K(70, 2000.0, A), K(80, 1999.0, A)],
         desc="Values around 1e3, AUTO and AUTO_CLAMPED."),
    dict(name="small_values", fps=24, keys=typed([0, 10, 15, 30, 34], [0.001, 0.002, 0.0005, 0.0015, 0.001], A),
         desc="Values around 1e-3, AUTO."),
    # --- mixed types: run boundaries ---------------------------------------------------------
    dict(name="mixed_types", fps=25,
         keys=[K(0, 1, V, A), K(10, 3, A, V), K(20, 0, V, AC), K(35, 2, AC, FR, None, (5, 1)),
               K(45, 1, FR, V, (-2.5, 0.75), None), K(60, 2, A, A)],
         desc="(VECTOR,AUTO) (AUTO,VECTOR) (VECTOR,AUTO_CLAMPED) (AUTO_CLAMPED,FREE) (FREE,VECTOR) (AUTO,AUTO)."),
    dict(name="vector_beside_free", fps=24,
         keys=[K(0, 0, V, V), K(10, 2, FR, FR, (-3, -1), (3, 2)), K(20, 1, V, V), K(30, 3, V, V),
               K(40, 0, FR, FR, (-4, 1), (4, 0))],
         desc="VECTOR keys beside FREE keys, no automatic key: in CONT_ACCEL the Vector handle facing a Free one is solved for zero acceleration."),
    dict(name="free_in_auto_run", fps=24,
         keys=[K(0, 0, A), K(10, 2, A), K(20, 1, FR, FR, (-2, 0.5), (8, 3)), K(30, 2.5, A),
               K(40, 2, A), K(50, 0, A)],
         desc="A FREE key inside AUTO keys, its right handle 0.8 of the interval (longer than 2/3: scaled in the equations)."),
    dict(name="aligned_in_auto_run", fps=1,
         keys=[K(0, 0, AC), K(10, 2, A), K(20, 1, AL, AL, (-3, -1), (2, 1)), K(30, 3, A),
               K(40, 2, A, AL, None, (4, -1)), K(50, 0, AC)],
         desc="ALIGNED keys among AUTO keys (1 fps: Aligned lengths are in frames)."),
    dict(name="auto_side_aligned", fps=1,
         keys=[K(0, 0, A, AL, None, (3, 0.5)), K(10, 2, A), K(20, 1, A), K(30, 3, AL, A, (-2, 1), None), K(40, 0, A)],
         desc="End keys with one ALIGNED side and one AUTO side: not free, so run boundaries; the smoothed AUTO side turns the ALIGNED one."),
    dict(name="auto_end_mixed", fps=24,
         keys=[K(0, 0, V, A), K(10, 2, AC, AC), K(25, 1, AC, AC), K(40, 3, AC, V)],
         desc="End keys with a VECTOR outer side: not flattened, their inner AUTO side solved or fixed."),
    dict(name="duplicate_times", fps=1,
         keys=typed([0, 10, 10, 20, 30, 40], [0, 1, 2, 1.5, 3, 0], A),
         desc="Two AUTO keys at the same frame: both locked, the runs end there (1 fps: a zero interval counts as one frame)."),
    dict(name="duplicate_times_clamped", fps=1,
         keys=typed([0, 10, 20, 20, 30, 40], [0, 1, 2, 1, 3, 0], AC),
         desc="AUTO_CLAMPED with two keys at the same frame."),
    # --- small counts ----------------------------------------------------------------------
    dict(name="two_keys_auto", fps=24, keys=typed([0, 30], [1, 4], A), desc="Two AUTO keys."),
    dict(name="two_keys_clamped_linear", fps=24, keys=typed([0, 30], [1, 4], AC), extrapolation="LINEAR",
         desc="Two AUTO_CLAMPED keys, linear extrapolation."),
    dict(name="two_keys_vector_auto", fps=24, keys=[K(0, 0, V, V), K(20, 3, A, A)],
         desc="A VECTOR key then an AUTO key (flat end)."),
    dict(name="two_keys_vector_auto_linear", fps=24, keys=[K(0, 0, V, V), K(20, 3, A, A)], extrapolation="LINEAR",
         desc="A VECTOR key then an AUTO key, linear extrapolation (both ends solved)."),
    dict(name="three_keys_auto", fps=24, keys=typed([0, 10, 40], [0, 3, 1], A), desc="Three AUTO keys."),
    dict(name="three_keys_clamped_linear", fps=24, keys=typed([0, 10, 40], [0, 1, 3], AC),
         extrapolation="LINEAR", desc="Three AUTO_CLAMPED keys, rising, linear extrapolation."),
    # --- linear extrapolation ----------------------------------------------------------------
    dict(name="auto_linear", fps=24, keys=typed([0, 10, 25, 40, 48], [0, 2, 1, 3, 2.5], A),
         extrapolation="LINEAR", desc="AUTO, linear extrapolation: free end keys, zero acceleration at the ends."),
    dict(name="auto_clamped_linear", fps=24, keys=typed([0, 10, 25, 40, 48], [0, 1, 1.5, 3, 4], AC),
         extrapolation="LINEAR", desc="AUTO_CLAMPED rising, linear extrapolation: end handles limited too."),
    # --- cycles ------------------------------------------------------------------------------
    dict(name="cycle_repeat_auto", fps=24, keys=typed([0, 10, 25, 40], [0, 2, -1, 0], A),
         cycles=("REPEAT", "REPEAT"), desc="AUTO, Repeat both sides, last value = first: one full cycle."),
    dict(name="cycle_repeat_clamped", fps=24, keys=typed([0, 10, 25, 40], [0, 2, -1, 0], AC),
         cycles=("REPEAT", "REPEAT"), desc="AUTO_CLAMPED, Repeat: interior extremes locked, the run crosses the seam."),
    dict(name="cycle_offset_auto", fps=24, keys=typed([0, 10, 25, 40], [0, 2, 1, 3], A),
         cycles=("REPEAT_OFFSET", "REPEAT_OFFSET"), desc="AUTO, Repeat with Offset both sides: full cycle."),
    dict(name="cycle_offset_clamped", fps=30, keys=typed([0, 5, 12, 20, 33, 40], [0, 1, 3, 2.5, 4, 5], AC),
         cycles=("REPEAT_OFFSET", "REPEAT_OFFSET"),
         desc="AUTO_CLAMPED rising with one interior maximum (locked), Repeat with Offset: the run crosses the seam."),
    dict(name="cycle_repeat_unequal_ends", fps=24, keys=typed([0, 10, 25, 40], [0, 2, 1, 3], A),
         cycles=("REPEAT", "REPEAT"),
         desc="AUTO, Repeat (no offset) with last value != first: the handles still see the neighbours across the seam shifted by (last - first)."),
    dict(name="cycle_mixed_modes", fps=24, keys=typed([0, 10, 25, 40], [0, 2, 1, 3], A),
         cycles=("REPEAT", "REPEAT_OFFSET"), desc="Repeat before, Repeat with Offset after: still a cycle for handles."),
    dict(name="cycle_first_extreme", fps=24, keys=typed([0, 10, 20, 30, 40], [1, 0.5, 0.2, 0.6, 1], AC),
         cycles=("REPEAT", "REPEAT"),
         desc="AUTO_CLAMPED where the first/last key is an extreme across the seam: both end keys locked flat."),
    dict(name="cycle_vector_end", fps=24, keys=[K(0, 0, V, V), K(10, 2, A), K(25, 1, A), K(40, 0, A)],
         cycles=("REPEAT", "REPEAT"), desc="First key VECTOR: not a cycle for handles (ends as with constant extrapolation)."),
    dict(name="cycle_mirror", fps=24, keys=typed([0, 10, 25, 40], [0, 2, 1, 3], A),
         cycles=("MIRROR", "MIRROR"), desc="Mirror (ping-pong): not a cycle for handles."),
    dict(name="cycle_one_sided", fps=24, keys=typed([0, 10, 25, 40], [0, 2, 1, 3], A),
         cycles=("NONE", "REPEAT"), desc="Cycles only after: not a cycle for handles."),
    dict(name="cycle_one_sided_linear", fps=24, keys=typed([0, 10, 25, 40], [0, 2, 1, 3], A),
         cycles=("NONE", "REPEAT"), extrapolation="LINEAR",
         desc="Cycles only after, linear extrapolation: neither end key is flattened (one extrapolation per F-curve)."),
    dict(name="mirror_before_linear", fps=24, keys=typed([0, 10, 25, 40], [0, 2, 1, 3], AC),
         cycles=("MIRROR", "NONE"), extrapolation="LINEAR",
         desc="Mirror before, linear extrapolation after: neither end key is flattened."),
    dict(name="cycle_two_keys", fps=24, keys=typed([0, 20], [0, 2], A),
         cycles=("REPEAT_OFFSET", "REPEAT_OFFSET"), desc="Two AUTO keys, Repeat with Offset."),
    dict(name="cycle_three_keys", fps=24, keys=typed([0, 10, 30], [0, 2, 0], AC),
         cycles=("REPEAT", "REPEAT"), desc="Three AUTO_CLAMPED keys, Repeat."),
    dict(name="cycle_free_interior", fps=24,
         keys=[K(0, 0, A), K(10, 2, A), K(20, 1, FR, FR, (-3, 0), (3, 1)), K(30, 2, A), K(45, 0.5, A)],
         cycles=("REPEAT_OFFSET", "REPEAT_OFFSET"), desc="A FREE interior key in a cycle: the run crosses the seam."),
    dict(name="cycle_uneven", fps=30, keys=typed([0, 2, 11, 14, 40, 43], [0, 1, 3, 2, 5, 4], A),
         cycles=("REPEAT_OFFSET", "REPEAT_OFFSET"), desc="AUTO, uneven spacing, Repeat with Offset."),
    dict(name="cycle_clamped_seam_auto_first", fps=24,
         keys=[K(0, 0.5, A), K(1, 3.0, AC), K(9, 3.75, AC), K(18, 2.25, AC), K(19, -3.5, A), K(30, -1.0, AC)],
         cycles=("REPEAT", "REPEAT"),
         desc="First key AUTO, last AUTO_CLAMPED, a run across the seam: the seam's limits come from either end key."),
    dict(name="cycle_clamped_seam_offset", fps=24,
         keys=[K(0, -1.5, A), K(4, -2.5, AC), K(15, 3, AC), K(21, -0.25, AC), K(26, 0.5, AC), K(32, -4, AC),
               K(44, 0.75, A), K(45, -2, AC)],
         cycles=("REPEAT_OFFSET", "REPEAT_OFFSET"), desc="As above, Repeat with Offset, more keys."),
    dict(name="cycle_full_mixed_clamp", fps=24,
         keys=[K(0, 0, A), K(10, 1, AC), K(20, 3, AC), K(30, 3.5, AC), K(40, 5, AC)],
         cycles=("REPEAT_OFFSET", "REPEAT_OFFSET"),
         desc="Every key free (one periodic system), first key AUTO and the rest AUTO_CLAMPED."),
    dict(name="cycle_full_rising_clamped", fps=24, keys=typed([0, 1, 10], [1.0, 1.75, 2.5], AC),
         cycles=("REPEAT_OFFSET", "REPEAT_OFFSET"),
         desc="Three free AUTO_CLAMPED keys, Repeat with Offset: the seam's limits from both sides of the period."),
    dict(name="cycle_full_rising_mixed", fps=24,
         keys=[K(0, 0.25, A), K(6, 0.75, A), K(13, 4.25, AC), K(14, 7.25, A), K(24, 11.0, AC), K(25, 13.75, A),
               K(34, 15.25, AC)],
         cycles=("REPEAT_OFFSET", "REPEAT_OFFSET"), desc="Rising AUTO and AUTO_CLAMPED keys, all free, Repeat with Offset."),
    dict(name="cycle_random_clamped", fps=24, keys=seeded(5, 24, AC),
         cycles=("REPEAT", "REPEAT"), desc="24 seeded AUTO_CLAMPED keys, Repeat."),
]

INFINITY = {"REPEAT": "Cycle", "REPEAT_OFFSET": "CycleOffset", "MIRROR": "PingPong"}


def f32(x):
    return float(F32(x))


def sample_frames(frames, cycles):
    f0, f1 = frames[0], frames[-1]
    span = f1 - f0 if f1 > f0 else 1.0
    reach = 2.3 * span if cycles else 0.4 * span
    out = []
    for x in np.linspace(f0 - reach, f1 + reach, 211):
        fr = f32(x)
        rel = (fr - f0) % span if f1 > f0 else fr - f0
        near = [abs(fr - k) for k in frames] + [abs(rel - (k - f0)) for k in frames] + [abs(rel - span)]
        if min(near) > SNAP_AVOID:
            out.append(fr)
    return out


def build(action, idx, case, smoothing):
    fc = tangent_io.action_fcurves(action).new("location", index=idx)
    fc.auto_smoothing = smoothing
    fc.extrapolation = case.get("extrapolation", "CONSTANT")
    cycles = case.get("cycles")
    if cycles:
        mod = fc.modifiers.new("CYCLES")
        mod.mode_before, mod.mode_after = cycles
        mod.cycles_before = mod.cycles_after = 0
    keys = case["keys"]
    fc.keyframe_points.add(len(keys))
    for kp, k in zip(fc.keyframe_points, keys):
        kp.co = (k["f"], k["v"])
        kp.interpolation = "BEZIER"
        kp.handle_left_type = k["lt"]
        kp.handle_right_type = k["rt"]
        hl = k["hl"] if k["hl"] is not None else (-0.5, 0.0)
        hr = k["hr"] if k["hr"] is not None else (0.5, 0.0)
        kp.handle_left = (k["f"] + hl[0], k["v"] + hl[1])
        kp.handle_right = (k["f"] + hr[0], k["v"] + hr[1])
    fc.update()
    return fc


def key_record(kp, k, fps):
    co, hl, hr = kp.co, kp.handle_left, kp.handle_right
    rec = {
        "time": co[0] / fps,
        "value": co[1],
        "left_type": kp.handle_left_type,
        "right_type": kp.handle_right_type,
        "handle_left": [hl[0] / fps, hl[1]],
        "handle_right": [hr[0] / fps, hr[1]],
        "handle_left_offset": [(hl[0] - co[0]) / fps, hl[1] - co[1]],
        "handle_right_offset": [(hr[0] - co[0]) / fps, hr[1] - co[1]],
        "frame": co[0],
    }
    for side, typ, h in (("left", k["lt"], k["hl"]), ("right", k["rt"], k["hr"])):
        if typ in (FR, AL) and h is not None:
            # the handle as Blender held it before update(): float32 absolute, then the offset
            rec["input_handle_%s_offset" % side] = [(f32(k["f"] + h[0]) - f32(k["f"])) / fps,
                                                   f32(k["v"] + h[1]) - f32(k["v"])]
    return rec


def main():
    argv = tangent_io.script_args()
    out_dir = argv[0] if argv else os.path.join("tests", "reference", "blender_auto_smoothing")
    os.makedirs(out_dir, exist_ok=True)
    action = bpy.data.actions.new("tangent_auto_smoothing_reference")
    names, idx = set(), 0
    for case in CASES:
        assert case["name"] not in names, case["name"]
        names.add(case["name"])
        for smoothing in case.get("smoothing", ("NONE", "CONT_ACCEL")):
            fc = build(action, idx, case, smoothing)
            idx += 1
            fps = float(case["fps"])
            cycles = case.get("cycles")
            extrap = fc.extrapolation
            before = cycles[0] if cycles else "NONE"
            after = cycles[1] if cycles else "NONE"
            frames = [kp.co[0] for kp in fc.keyframe_points]
            samples = [[fr / fps, float(fc.evaluate(fr))] for fr in sample_frames(frames, cycles)]
            ext_name = {"CONSTANT": "Constant", "LINEAR": "Linear"}[extrap]
            data = {
                "case": case["name"],
                "description": case["desc"],
                "blender_version": bpy.app.version_string,
                "fps": fps,
                "auto_smoothing": fc.auto_smoothing,
                "extrapolation": extrap,
                "cycles": {"mode_before": before, "mode_after": after} if cycles else None,
                "pre_infinity": INFINITY.get(before, ext_name),
                "post_infinity": INFINITY.get(after, ext_name),
                "keys": [key_record(kp, k, fps) for kp, k in zip(fc.keyframe_points, case["keys"])],
                "samples": samples,
            }
            path = os.path.join(out_dir, "%s__%s.json" % (case["name"], smoothing.lower()))
            with open(path, "w") as fh:
                json.dump(data, fh, indent=None, separators=(",", ":"))
                fh.write("\n")
            print("%-34s %-10s keys=%2d samples=%d" % (case["name"], smoothing, len(case["keys"]), len(samples)))


main()
