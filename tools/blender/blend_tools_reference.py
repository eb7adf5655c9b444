"""Blender 3.4's Graph Editor blend sliders on a selection of keys, for Tangent's blend tools
(issue 32): Blend to Neighbor, Breakdown and Blend to Ease, each at several factors, on a
curve of 9 keys with a run of selected keys in the middle (and one at an end), written as JSON
(`tests/reference/blender_blend_tools.json`): the key values before, which keys were
selected, the factor, and the key values after; with the Blender version. An operator this
Blender does not have is recorded as missing.

Run: blender -b --factory-startup --python tools/blender/blend_tools_reference.py -- OUT.json
"""
import json
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import tangent_io  # noqa: E402  (F-curves and arguments in every Blender version)

out = tangent_io.script_args()[0]

VALUES = [0.0, 1.0, 3.5, 2.0, -1.0, 0.5, 4.0, 2.5, 1.0]
FRAMES = [1, 5, 9, 14, 20, 24, 30, 33, 40]
SELECTIONS = [[3, 4, 5], [2], [0, 1], [7, 8]]
FACTORS = {
    "blend_to_neighbor": [0.0, 0.2, 0.5, 0.8, 1.0],
    "breakdown": [0.0, 0.25, 0.5, 0.9, 1.0],
    "blend_to_ease": [0.0, 0.3, 0.5, 0.7, 1.0],
}


def graph_context():
    window = bpy.context.window_manager.windows[0]
    screen = window.screen
    area = max(screen.areas, key=lambda a: a.width * a.height)
    area.type = "GRAPH_EDITOR"
    region = next(r for r in area.regions if r.type == "WINDOW")
    return dict(window=window, screen=screen, area=area, region=region)


def run(op, selected, factor):
    cube = bpy.data.objects["Cube"]
    cube.animation_data_clear()
    for f, v in zip(FRAMES, VALUES):
        cube.location[0] = v
        cube.keyframe_insert("location", index=0, frame=f)
    fc = tangent_io.fcurve_collection(cube).find("location", index=0)
    for i, kp in enumerate(fc.keyframe_points):
        kp.select_control_point = i in selected
        kp.select_left_handle = False
        kp.select_right_handle = False
        kp.interpolation = "BEZIER"
    with bpy.context.temp_override(**graph_context()):
        getattr(bpy.ops.graph, op)(factor=factor)
    return [kp.co[1] for kp in fc.keyframe_points]


cases = []
missing = []
for op, factors in FACTORS.items():
    try:
        run(op, [3], 0.5)
    except (AttributeError, RuntimeError, TypeError) as e:
        missing.append({"operator": op, "error": str(e)})
        continue
    for selected in SELECTIONS:
        for factor in factors:
            cases.append({"operator": op, "selected": selected, "factor": factor, "after": run(op, selected, factor)})

with open(out, "w") as f:
    json.dump({"generator": "tools/blender/blend_tools_reference.py", "blender": bpy.app.version_string, "frames": FRAMES, "before": VALUES, "cases": cases, "missing": missing}, f, indent=1)
print("cases", len(cases), "missing", [m["operator"] for m in missing])
