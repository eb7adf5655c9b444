"""Blender 3.4's Graph Editor Decimate (error mode) on more dense signals, for the key
reduction comparison (tests/reference/reduce_blender). Writes each signal as CSV (time,x) and
counts.json with Blender's kept key count and its max error at the samples, per E.

Run: blender -b --factory-startup --python tools/blender/decimate_reference.py -- OUT_DIR

Signals (24 fps unless said): `mocap_noisy` (two slow sines plus a fast one and uniform noise
of ±5e-4, 120 fps, 10 s, like a motion-capture channel), `bounce` (|sin| with sharp floor
contacts, decaying), `rotation_z` (a yaw angle in radians: turns, holds, a fast snap).
"""
import csv
import json
import math
import os
import random
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import tangent_io  # noqa: E402  (F-curves and arguments in every Blender version)

out_dir = tangent_io.script_args()[0]
os.makedirs(out_dir, exist_ok=True)
random.seed(7)


def mocap(t):
    return 0.6 * math.sin(0.9 * t) + 0.25 * math.sin(2.3 * t + 1.0) + 0.04 * math.sin(11.0 * t) + random.uniform(-5e-4, 5e-4)


def bounce(t):
    return abs(math.sin(2.5 * t)) * math.exp(-0.25 * t) * 2.0


def rotation(t):
    if t < 3.0:
        return 1.5 * (1 - math.cos(math.pi * t / 3.0)) / 2 * math.pi
    if t < 5.0:
        return 1.5 * math.pi
    if t < 5.5:
        u = (t - 5.0) / 0.5
        return 1.5 * math.pi - math.pi * u * u * (3 - 2 * u)
    return 0.5 * math.pi + 0.2 * math.sin(3 * (t - 5.5))


SIGNALS = [("mocap_noisy", mocap, 120.0, 10.0), ("bounce", bounce, 24.0, 10.0), ("rotation_z", rotation, 24.0, 10.0)]
ERRORS = [1e-2, 1e-3, 1e-4]


def graph_context():
    window = bpy.context.window_manager.windows[0]
    screen = window.screen
    area = max(screen.areas, key=lambda a: a.width * a.height)
    area.type = "GRAPH_EDITOR"
    region = next(r for r in area.regions if r.type == "WINDOW")
    return dict(window=window, screen=screen, area=area, region=region)


def decimate(samples, e):
    cube = bpy.data.objects["Cube"]
    cube.animation_data_clear()
    for t, x in samples:
        cube.location[0] = x
        cube.keyframe_insert("location", index=0, frame=t * 24.0)
    fc = tangent_io.fcurve_collection(cube).find("location", index=0)
    for kp in fc.keyframe_points:
        kp.select_control_point = True
    ctx = graph_context()
    with bpy.context.temp_override(**ctx):
        bpy.ops.graph.select_all(action="SELECT")
        bpy.ops.graph.decimate(mode="ERROR", remove_error_margin=e)
    worst = max(abs(fc.evaluate(t * 24.0) - x) for t, x in samples)
    return len(fc.keyframe_points), worst


counts = {}
for name, f, fps, duration in SIGNALS:
    samples = [(i / fps, f(i / fps)) for i in range(int(duration * fps))]
    with open(os.path.join(out_dir, name + ".csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["time", "x"])
        for t, x in samples:
            w.writerow([repr(t), repr(x)])
    counts[name] = []
    for e in ERRORS:
        keys, worst = decimate(samples, e)
        counts[name].append({"E": e, "blender_keys": keys, "blender_max_error": worst, "samples": len(samples)})
        print(name, e, keys, worst)

with open(os.path.join(out_dir, "counts.json"), "w") as fh:
    json.dump({"blender": bpy.app.version_string, "signals": counts}, fh, indent=1)
