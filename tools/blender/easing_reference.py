"""Blender 3.4's easing interpolation modes evaluated by Blender itself, for src/easing.rs.
Writes tests/reference/blender_easing.json (or the path given after `--`); read by
tests/easing_reference.rs.

Run: blender -b --factory-startup --python tools/blender/easing_reference.py -- [OUT.json]

F-Curves are built in a new Action (no object needed), one per case, with keys whose
`interpolation` is set per segment to CONSTANT, LINEAR or one of the ten easing modes (BEZIER is
left out: it needs handles, which src/easing.rs does not take) and `easing` to AUTO, EASE_IN,
EASE_OUT or EASE_IN_OUT, with seeded random `back`, `amplitude` and `period` (including back 0,
amplitude 0, period 0, amplitude below, equal to and above |change|, negative period, zero and
negative change). Cases:

- `grid_MODE_EASING` (12 modes x 4 easings, scene fps 24): 5 keys, 4 segments, each with its own
  parameters;
- `elastic_edges_EASING` (4, fps 24): 11 keys, 10 Elastic segments, one per amplitude/period rule;
- `fps30_mixed` (fps 30): 13 keys cycling through the easing modes and easings with non-zero
  periods, to check the seconds <-> frames conversion of the period.

Blender evaluates F-Curves in frames, whatever the scene fps; Tangent keeps seconds. Per curve the
JSON has the fps, its keys (time in SECONDS = frame / fps, value, interpolation and easing as
Blender's identifiers, back, amplitude, period in SECONDS = period frames / fps; every number the
float32 that Blender holds, widened) and per segment (key i to key i + 1) its samples
[time in seconds, fcurve.evaluate(frame)]: 50 frames k/50 of the way across (k = 0..49, so the
segment's own key and not the next one, which starts the next segment) plus 0.2% and 99.8% of the
way. Sample frames are rounded to float32 before Blender evaluates them, so the recorded time is
exactly the one Blender used. `sample_count` is the total number of samples.
"""
import json
import os
import random
import struct
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import tangent_io  # noqa: E402  (F-curves and arguments in every Blender version)

argv = tangent_io.script_args()
here = os.path.dirname(os.path.abspath(__file__))
out_path = argv[0] if argv else os.path.join(here, "..", "..", "tests", "reference", "blender_easing.json")

EASING_MODES = ["BACK", "BOUNCE", "CIRC", "CUBIC", "ELASTIC", "EXPO", "QUAD", "QUART", "QUINT", "SINE"]
MODES = ["CONSTANT", "LINEAR"] + EASING_MODES
EASINGS = ["AUTO", "EASE_IN", "EASE_OUT", "EASE_IN_OUT"]
FRACTIONS = [k / 50 for k in range(50)] + [0.002, 0.998]

rng = random.Random(20240615)
scene = bpy.context.scene
action = bpy.data.actions.new("easing_reference")


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def random_keys(n):
    """n keys: frames from 1 with gaps of 2..14 frames (some fractional), values in -5..5, one
    segment with no change and one with a negative change."""
    frames, values = [1.0], [round(rng.uniform(-3, 3), 3)]
    for i in range(1, n):
        frames.append(frames[-1] + rng.choice([2, 3, 5, 8, 10, 12.5, 14]))
        if i == 2:
            values.append(values[-1])  # change 0
        elif i == 1:
            values.append(values[-1] - rng.uniform(0.5, 4))  # negative change
        else:
            values.append(round(rng.uniform(-5, 5), 3))
    return frames, values


def random_params(change):
    back = rng.choice([0.0, 1.70158, rng.uniform(0.1, 4.0)])
    c = abs(change)
    amplitude = rng.choice([0.0, 0.5 * c, c, 2.0 * c + 0.1, rng.uniform(0.0, 3.0)])
    period = rng.choice([0.0, rng.uniform(1.5, 8.0), rng.uniform(1.5, 8.0)])
    return back, amplitude, period


def build(name, fps, frames, values, segments):
    """segments: per segment (mode, easing, back, amplitude, period in frames)."""
    scene.render.fps = fps
    scene.render.fps_base = 1.0
    fc = tangent_io.action_fcurves(action).new(f'["{name}"]', index=0)  # a path of its own: curves never clash
    fc.keyframe_points.add(len(frames))
    for kp, frame, value in zip(fc.keyframe_points, frames, values):
        kp.co = (frame, value)
        kp.interpolation = "LINEAR"
    for kp, (mode, easing, back, amplitude, period) in zip(fc.keyframe_points, segments):
        kp.interpolation = mode
        kp.easing = easing
        kp.back, kp.amplitude, kp.period = back, amplitude, period
    fc.update()
    real_fps = scene.render.fps / scene.render.fps_base
    keys = []
    for kp in fc.keyframe_points:
        keys.append(dict(time=kp.co[0] / real_fps, value=kp.co[1], interpolation=kp.interpolation,
                         easing=kp.easing, back=kp.back, amplitude=kp.amplitude,
                         period=kp.period / real_fps))
    out_segments = []
    points = fc.keyframe_points
    for i in range(len(points) - 1):
        f0, f1 = points[i].co[0], points[i + 1].co[0]
        samples = []
        for u in FRACTIONS:
            frame = f32(f0 + (f1 - f0) * u)
            samples.append([frame / real_fps, fc.evaluate(frame)])
        out_segments.append(samples)
    return dict(name=name, fps=real_fps, keys=keys, segments=out_segments)


curves = []
for mode in MODES:
    for easing in EASINGS:
        frames, values = random_keys(5)
        segments = [(mode, easing) + random_params(values[i + 1] - values[i]) for i in range(4)]
        segments.append(("LINEAR", "AUTO", 0.0, 0.0, 0.0))  # the last key: no segment after it
        curves.append(build(f"grid_{mode}_{easing}", 24, frames, values, segments))

# (change, amplitude, period in frames): amplitude as a multiple of |change|, or absolute where
# the change is 0. Values are multiples of 0.25, so float32 holds changes exactly and
# "amplitude = |change|" is exact in Blender too.
P = 3.25
ELASTIC_EDGES = [
    (2.0, 0.0, 0.0),  # amplitude 0, period 0 (automatic)
    (-1.5, 0.0, P),  # amplitude 0
    (3.0, 0.4, 0.0),  # amplitude < |change|, period 0
    (-2.5, 0.4, P),  # amplitude < |change|
    (1.75, 1.0, P),  # amplitude = |change|
    (-1.25, 1.0, 0.0),  # amplitude = |change|, period 0
    (2.0, 2.5, 0.0),  # amplitude > |change|, period 0
    (-4.0, 1.6, -P),  # amplitude > |change|, negative period
    (0.0, 0.7, P),  # no change, an amplitude: Blender still oscillates
    (0.0, 0.0, P),  # no change, amplitude 0
]
for easing in EASINGS:
    frames = [1.0 + 9.0 * i for i in range(len(ELASTIC_EDGES) + 1)]
    frames[4] += 2.5
    values, segments = [0.5], []
    for change, amp, period in ELASTIC_EDGES:
        values.append(values[-1] + change)
        amplitude = amp * abs(change) if change else amp
        segments.append(("ELASTIC", easing, 0.0, amplitude, period))
    segments.append(("LINEAR", "AUTO", 0.0, 0.0, 0.0))
    curves.append(build(f"elastic_edges_{easing}", 24, frames, values, segments))

frames, values, segments = [2.0], [0.0], []
for i in range(12):
    mode = ["ELASTIC", "BACK", "BOUNCE", "EXPO", "ELASTIC", "CIRC"][i % 6]
    easing = EASINGS[i % 4]
    change = rng.uniform(-4, 4)
    frames.append(frames[-1] + rng.choice([6, 9, 15]))
    values.append(round(values[-1] + change, 3))
    amplitude = rng.choice([0.5 * abs(change), 2.0 * abs(change) + 0.1])
    segments.append((mode, easing, rng.uniform(0.5, 3.0), amplitude, rng.uniform(2.0, 7.0)))
segments.append(("LINEAR", "AUTO", 0.0, 0.0, 0.0))
curves.append(build("fps30_mixed", 30, frames, values, segments))

doc = dict(
    generator="tools/blender/easing_reference.py",
    blender_version=bpy.app.version_string,
    sample_count=sum(len(s) for c in curves for s in c["segments"]),
    curves=curves,
)

# One line per key and per segment: small, and diffs stay readable.
lines = ["{"]
for k in ("generator", "blender_version", "sample_count"):
    lines.append(f" {json.dumps(k)}: {json.dumps(doc[k])},")
lines.append(' "curves": [')
for ci, c in enumerate(curves):
    lines.append(f'  {{"name": {json.dumps(c["name"])}, "fps": {json.dumps(c["fps"])}, "keys": [')
    lines.append(",\n".join("   " + json.dumps(k) for k in c["keys"]))
    lines.append('  ], "segments": [')
    lines.append(",\n".join("   " + json.dumps(s, separators=(",", ":")) for s in c["segments"]))
    lines.append("  ]}" + ("," if ci + 1 < len(curves) else ""))
lines.append(" ]")
lines.append("}")
text = "\n".join(lines) + "\n"
json.loads(text)
with open(out_path, "w") as f:
    f.write(text)
print(f"wrote {out_path}: {len(curves)} curves, {doc['sample_count']} samples, Blender {doc['blender_version']}")
