"""Reference numbers for inserting a key on a Bézier F-curve, from Blender 3.4's own
`keyframe_points.insert` (de Casteljau subdivision of the segment, handle types).

Run: blender -b --factory-startup --python tools/blender/insert_reference.py -- tests/reference/blender_insert/insert.json
Every case builds a 3-key F-curve (auto_smoothing NONE, as tests/reference/blender_bezier),
inserts one key at the curve's own value, and records every key before and after, and
fcurve.evaluate at a few frames after. Frames are seconds here (fps 1 in the test).
"""
import json
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import tangent_io  # noqa: E402  (F-curves and arguments in every Blender version)

POINTS = [(1.0, 0.0), (11.0, 10.0), (31.0, 2.0)]
# Handles set explicitly (absolute positions) on sides that are not automatic.
HANDLES = {0: {"right": (4.0, 6.0)}, 1: {"left": (8.0, 12.0), "right": (15.0, 8.0)}, 2: {"left": (25.0, -3.0)}}
T = {"F": "FREE", "A": "ALIGNED", "V": "VECTOR", "Au": "AUTO", "C": "AUTO_CLAMPED"}
CASES = [
    ("free", ["F F", "F F", "F F"], 5.0),
    ("aligned", ["A A", "A A", "A A"], 5.0),
    ("auto_clamped", ["C C", "C C", "C C"], 5.0),
    ("auto", ["Au Au", "Au Au", "Au Au"], 5.0),
    ("vector", ["V V", "V V", "V V"], 5.0),
    ("free_then_auto", ["F F", "C C", "F F"], 5.0),
    ("auto_then_free", ["C C", "F F", "F F"], 5.0),
    ("vector_then_free", ["V V", "F F", "F F"], 5.0),
    ("free_then_aligned", ["F F", "A A", "F F"], 5.0),
    ("second_segment_free", ["F F", "F F", "F F"], 20.0),
    ("before_first", ["F F", "F F", "F F"], -3.0),
    ("after_last", ["C C", "C C", "C C"], 40.0),
]


def make(types):
    ob = bpy.data.objects.new("o", None)
    bpy.context.scene.collection.objects.link(ob)
    ob.animation_data_create()
    act = bpy.data.actions.new("a")
    ob.animation_data.action = act
    fc = tangent_io.fcurve_collection(ob).new("location", index=0)
    fc.auto_smoothing = "NONE"
    fc.keyframe_points.add(len(POINTS))
    for i, (kp, (x, y), t) in enumerate(zip(fc.keyframe_points, POINTS, types)):
        kp.co = (x, y)
        left, right = t.split()
        kp.handle_left_type, kp.handle_right_type = T[left], T[right]
        kp.interpolation = "BEZIER"
    for i, hs in HANDLES.items():
        kp = fc.keyframe_points[i]
        if kp.handle_left_type in ("FREE", "ALIGNED") and "left" in hs:
            kp.handle_left = hs["left"]
        if kp.handle_right_type in ("FREE", "ALIGNED") and "right" in hs:
            kp.handle_right = hs["right"]
    fc.update()
    return fc


def keys(fc):
    return [
        {
            "co": list(kp.co),
            "left": list(kp.handle_left),
            "right": list(kp.handle_right),
            "types": [kp.handle_left_type, kp.handle_right_type],
        }
        for kp in fc.keyframe_points
    ]


out = []
for name, types, frame in CASES:
    fc = make(types)
    before = keys(fc)
    value = fc.evaluate(frame)
    fc.keyframe_points.insert(frame, value)
    frames = [0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 15.0, 20.0, 25.0, 35.0]
    out.append({
        "name": name,
        "insert": [frame, value],
        "before": before,
        "after": keys(fc),
        "samples": [[f, fc.evaluate(f)] for f in frames],
    })
    print(name, "inserted", frame, value)

path = tangent_io.script_args()[0]
with open(path, "w") as f:
    json.dump({"blender": bpy.app.version_string, "cases": out}, f, indent=1)
print("wrote", path)
