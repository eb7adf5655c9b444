"""Blender's values of Cycles-modifier F-curves at their seams (issue 45), for
tests/blender_cycles_seam.rs:

    blender -b --factory-startup --python tools/blender/cycles_seam_reference.py -- [OUTDIR]
    python tools/blender/cycles_seam_reference.py [--] [OUTDIR]         (the bpy module)

OUTDIR defaults to tests/reference/blender_cycles_seam; the files are named after Blender's
version (`seams_3.4.1.ron`, `seams_3.4.1.json`, ...), so the references of several versions sit
side by side.

Blender's `fcm_cycles_time` (the Cycles modifier) maps a frame beyond the keys into the key
range; exactly at a seam (`fmod(frame - end key, period) == 0`, in float32) it takes the end
key on that side: **after** the keys, `last + k x period` plays the last key (plus k x the
value change for Repeat with Offset), **before** them, `first - k x period` plays the first
key (minus k x the change); Mirror takes the other end on odd cycles. Just beyond a seam
(0.01 frames) the next cycle has begun. The curves here have first and last values that
differ (a plain Repeat jumps at each seam), uneven key frames that are not binary fractions,
automatic, Free and Vector end handles, an Elastic last segment (which ends away from the
key's value) and Repeat, Repeat with Offset and Mirror on either side, with Constant and
Linear extrapolation. Each is exported with the add-on (tools/blender/tangent_io.py); Mirror,
which the add-on does not export, becomes Tangent's PingPong in the file (the test checks
PingPong against it).

Samples of each curve (seconds, Blender's value, what the sample is):
- every seam from 3 periods before the keys to 3 after, the end keys included (`seam`): the
  float32 frame nearest `first - k x period` or `last + k x period` that is a seam in Blender's
  float32 arithmetic (within 8 float32 steps; none there is reported and left out);
- 0.01 frames before and after each seam (`near`): the two sides of the jump;
- 60 frames spread over the same range, at least 2e-3 frames from every seam (`spread`).

Seconds are the float32 frame / fps (as the key times in the file are).
"""

import json
import math
import os
import struct
import sys

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import tangent_io  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
FPS = 24
CYCLES = 3  # seams on each side
NEAR = 0.01  # frames either side of a seam
SPREAD = 60


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_fmod(a, b):
    """C's fmodf of float32 operands (exact, as fmod is)."""
    return f32(math.fmod(f32(a), f32(b)))


def f32_step(x, n):
    """The float32 n steps from float32 x (toward +inf for n > 0)."""
    i = struct.unpack("<i", struct.pack("<f", x))[0]
    # float32 bit patterns order as sign-magnitude integers
    if x >= 0:
        i += n
    else:
        i -= n
    return struct.unpack("<f", struct.pack("<i", i))[0]


def is_seam(frame, end, period):
    """Whether fcm_cycles_time sees a seam at `frame`: fmodf(frame - end, period) == 0 in
    float32 (end: the end key on the frame's side)."""
    return f32_fmod(f32(frame - end), period) == 0.0


# Each case: (name, keys [(frame, value, handle types (left, right), handle offsets or None,
# interpolation)], smoothing, extrapolation, (mode before, mode after)).
def K(frame, value, types=("AUTO_CLAMPED", "AUTO_CLAMPED"), handles=None, ipo="BEZIER"):
    return (frame, value, types, handles, ipo)


CASES = [
    ("repeat both, auto clamped", [K(1.3, 0.5), K(7.7, 2.0), K(12.1, -1.0), K(19.9, 3.5)], "NONE", "CONSTANT", ("REPEAT", "REPEAT")),
    ("repeat offset both, auto", [K(-4.2, 1.0, ("AUTO", "AUTO")), K(3.3, -0.5, ("AUTO", "AUTO")), K(9.6, 2.5, ("AUTO", "AUTO")), K(15.05, -2.0, ("AUTO", "AUTO"))], "CONT_ACCEL", "CONSTANT", ("REPEAT_OFFSET", "REPEAT_OFFSET")),
    ("repeat both, Free ends, elastic last segment", [K(2.0, -1.0, ("FREE", "FREE"), ((-2.0, 0.5), (3.0, 1.5))), K(9.4, 1.25, ipo="ELASTIC"), K(17.8, 2.0, ("FREE", "FREE"), ((-2.5, -1.0), (2.0, 0.25)))], "NONE", "CONSTANT", ("REPEAT", "REPEAT")),
    ("repeat after, offset before, linear extrapolation, vector ends", [K(0.0, 0.0, ("VECTOR", "VECTOR")), K(5.5, 2.0), K(10.7, 1.0, ("VECTOR", "VECTOR"))], "NONE", "LINEAR", ("REPEAT_OFFSET", "REPEAT")),
    ("repeat before only, linear after", [K(-10.4, 3.0), K(-2.2, 0.0, ipo="LINEAR"), K(6.1, 1.5)], "CONT_ACCEL", "LINEAR", ("REPEAT", "NONE")),
    ("mirror both (PingPong), auto clamped", [K(1.3, 0.5), K(6.9, 2.0), K(14.45, -1.0)], "NONE", "CONSTANT", ("MIRROR", "MIRROR")),
    ("mirror after, repeat before", [K(0.5, 2.0, ("AUTO", "AUTO")), K(4.75, -1.0, ("AUTO", "AUTO")), K(11.3, 0.25, ("AUTO", "AUTO"))], "CONT_ACCEL", "CONSTANT", ("REPEAT", "MIRROR")),
    ("repeat both, a large frame range", [K(1000.3, 1.0), K(1037.9, -2.0), K(1061.7, 0.5), K(1100.1, 3.0)], "CONT_ACCEL", "CONSTANT", ("REPEAT", "REPEAT")),
]
SLOTS = [(p, i) for p in ("location", "rotation_euler", "scale") for i in range(3)]
TANGENT_MODE = {"REPEAT": "Cycle", "REPEAT_OFFSET": "CycleOffset", "MIRROR": "PingPong"}


def build(obj, path, index, keys, smoothing, extrapolation, modes):
    fc = tangent_io.fcurve_collection(obj).new(path, index=index)
    fc.auto_smoothing, fc.extrapolation = smoothing, extrapolation
    m = fc.modifiers.new("CYCLES")
    m.mode_before, m.mode_after = modes
    for frame, value, _, _, _ in keys:
        fc.keyframe_points.insert(frame, value)
    for point, (_, _, types, handles, ipo) in zip(fc.keyframe_points, keys):
        point.handle_left_type, point.handle_right_type = types
        if handles:
            x, y = point.co
            point.handle_left = (x + handles[0][0], y + handles[0][1])
            point.handle_right = (x + handles[1][0], y + handles[1][1])
        point.interpolation = ipo
    fc.update()
    return fc


def seams(fc):
    """[(frame, side, k)] of the seams Blender's float32 arithmetic sees as seams."""
    first, last = fc.keyframe_points[0].co[0], fc.keyframe_points[-1].co[0]
    period = f32(last - first)
    out, missed = [], []
    for k in range(0, CYCLES + 1):
        for side, end in (("after", last), ("before", first)):
            target = f32(end + k * period if side == "after" else end - k * period)
            if k == 0:  # the key itself (no cycling there)
                out.append((target, side, k))
                continue
            # fcm_cycles_time: the time in the cycle is fmodf(frame - end, period); 0 is the
            # seam. The float32 nearest end ± k x period may not be one: the nearest that is.
            found = None
            for n in sorted(range(-8, 9), key=abs):
                frame = f32_step(target, n)
                if is_seam(frame, end, period):
                    found = frame
                    break
            if found is None:
                missed.append((target, side, k))
            else:
                out.append((found, side, k))
    return out, missed


def sample(fc, modes):
    first, last = fc.keyframe_points[0].co[0], fc.keyframe_points[-1].co[0]
    period = last - first
    found, missed = seams(fc)
    series = []
    for frame, side, k in found:
        series.append((frame, "seam", side, k))
        for d in (-NEAR, NEAR):
            series.append((f32(frame + d), "near", side, k))
    lo, hi = first - CYCLES * period, last + CYCLES * period
    images = [first + j * period for j in range(-CYCLES - 1, CYCLES + 2)]
    for i in range(SPREAD):
        frame = f32(lo + (hi - lo) * (i + 0.37) / SPREAD)
        while any(abs(frame - s) < 2e-3 for s in images):
            frame = f32(frame + 5e-3)
        series.append((frame, "spread", None, None))
    out = []
    for frame, what, side, k in sorted(series):
        value = fc.evaluate(frame)
        out.append({"t": frame / FPS, "frame": frame, "value": value, "what": what, "side": side, "k": k})
    return out, missed


def main():
    argv = tangent_io.script_args()
    outdir = argv[0] if argv else os.path.join(REPO, "tests", "reference", "blender_cycles_seam")
    os.makedirs(outdir, exist_ok=True)
    if tangent_io.running_as_module():
        bpy.ops.wm.read_factory_settings()
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o)
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = FPS, 1.0
    obj = bpy.data.objects.new("Seams", None)
    scene.collection.objects.link(obj)
    obj.animation_data_create()
    obj.animation_data.action = bpy.data.actions.new("SeamsAction")
    curves, record, problems = [], {}, []
    for (desc, keys, smoothing, extrapolation, modes), (path, index) in zip(CASES, SLOTS):
        fc = build(obj, path, index, keys, smoothing, extrapolation, modes)
        name = tangent_io.track_name(obj.name, path, index)
        samples, missed = sample(fc, modes)
        for frame, side, k in missed:
            problems.append(f"{name}: frame {frame!r} ({side}, k = {k}) is not a seam in float32; left out")
        record[name] = {"case": desc, "modes": list(modes), "extrapolation": extrapolation, "samples": samples}
        curves.append((fc, modes))
    # The add-on's export, with Mirror sides (which it leaves out, with a warning) as PingPong.
    warnings = []
    tracks = []
    for fc, modes in curves:
        text = tangent_io.fcurve_track_text(obj, fc, FPS, warnings)
        for side, mode in (("pre_infinity", modes[0]), ("post_infinity", modes[1])):
            if mode == "MIRROR":
                start = text.index(f"{side}: ") + len(side) + 2
                end = text.index(",", start)
                text = text[:start] + "PingPong" + text[end:]
        tracks.append(text)
    # The rule, on Blender's own numbers: at a seam after the keys the last key's value (+ k x
    # change with offset; Mirror: the first key's on odd k), before them the first's (- k x
    # change; Mirror: the last key's on odd k). Each seam sample records it as `rule`.
    bad, quirks = [], []
    for (fc, modes), (name, r) in zip(curves, record.items()):
        v0, v1 = fc.keyframe_points[0].co[1], fc.keyframe_points[-1].co[1]
        for smp in r["samples"]:
            if smp["what"] != "seam" or smp["k"] == 0:
                continue
            k = smp["k"]
            mode = modes[1] if smp["side"] == "after" else modes[0]
            if mode == "NONE":
                continue
            change = v1 - v0
            if smp["side"] == "after":
                want = (v0 if k % 2 else v1) if mode == "MIRROR" else v1 + (k * change if mode == "REPEAT_OFFSET" else 0.0)
            else:
                want = (v1 if k % 2 else v0) if mode == "MIRROR" else v0 - (k * change if mode == "REPEAT_OFFSET" else 0.0)
            smp["rule"] = want
            if abs(smp["value"] - want) > 1e-5 * (1 + abs(want)):
                line = f"{name}: {mode} seam {smp['side']} k = {k} (frame {smp['frame']!r}): Blender {smp['value']}, the rule {want}"
                (quirks if mode == "MIRROR" else bad).append(line)
    version = bpy.app.version_string.split()[0]
    header = f"// Exported from Blender {bpy.app.version_string} by tools/blender/cycles_seam_reference.py (tangent_io.py's track text; Mirror written as PingPong)\n"
    ron = f"{header}(\n    version: {tangent_io.FORMAT_VERSION},\n    fps: {tangent_io.ron_float(FPS)},\n    tracks: [\n" + ",\n".join(tracks) + ",\n    ],\n)\n"
    base = os.path.join(outdir, f"seams_{version}")
    with open(base + ".ron", "w", encoding="utf-8", newline="\n") as f:
        f.write(ron)
    note = ("made by tools/blender/cycles_seam_reference.py: fcurve.evaluate at float32 frames (t = frame / fps), "
            "at each seam of the Cycles modifier (what: seam, with side and k; rule: the value fcm_cycles_time's rule gives there), "
            "0.01 frames either side (near), and spread over three periods each side (spread)")
    with open(base + ".json", "w", encoding="utf-8") as f:
        f.write('{\n"blender": ' + json.dumps(bpy.app.version_string) + ',\n"fps": ' + json.dumps(FPS) + ',\n"note": ' + json.dumps(note) + ',\n"tracks": {\n')
        f.write(",\n".join(json.dumps(name) + ": " + json.dumps(r, separators=(",", ":")) for name, r in record.items()))
        f.write("\n}\n}\n")
    counts = {w: sum(1 for r in record.values() for s in r["samples"] if s["what"] == w) for w in ("seam", "near", "spread")}
    print(f"Blender {bpy.app.version_string}: {len(record)} Cycles curves, {counts} samples -> {base}.ron/.json")
    for p in problems:
        print("  ", p)
    for line in quirks:
        print(f"  Mirror off the rule (float rounding in this Blender; the test takes the rule there): {line}")
    for line in bad:
        print(f"  FAIL {line}")
    print(f"  {len(bad)} Repeat seams off the rule, {len(quirks)} Mirror seams")
    tangent_io.script_exit(1 if bad else 0)


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except BaseException:  # noqa: BLE001
        import traceback

        traceback.print_exc()
        tangent_io.script_exit(1)
