"""Blender 3.4's Graph Editor Euler Filter on wrapped, flipped Euler keys, for the Euler filter
tests. Writes tests/reference/blender_euler_filter.json (or the path given after `--`).

Run: blender -b --factory-startup --python tools/blender/euler_filter_reference.py -- [OUT.json]

For each of the six rotation orders (XYZ XZY YXZ YZX ZXY ZYX) four motions are made (seeded):
`tumble` (random orientations joined by smoothstepped slerps), `tilted_spin` (a spin past 450°
about a tilted axis, after a random base orientation), `near_gimbal` (Euler angles of that order
whose middle-applied angle swings through ±π/2, so the motion passes through and near the
gimbal-lock pose) and `fast_spin` (steps of 100–170° between keys about a slowly turning axis).
Each key's quaternion is turned into Euler angles on its own with mathutils
`Quaternion.to_euler(ORDER)` (no `compatible` argument, so the values wrap and flip), keyed on the
default Cube (`rotation_mode = ORDER`) with keyframe_insert on rotation_euler (all three channels at
the same frames, default interpolation). Then every curve is selected and
`bpy.ops.graph.euler_filter()` runs under a Graph Editor context override.

Per curve the JSON has: order, name, fps, frames, times (s, = frame / fps, frames start at 0),
"quats" ([x, y, z, w], the float32 values mathutils held), "before" ([x, y, z] per key as read back
from the fcurves' keyframe_points co[1] before the filter, i.e. Blender's float32 values) and
"after" (the same after the filter), and, measured with mathutils, "before_after_max_matrix_diff"
(max |R(before) - R(after)| over keys) and "keys_rotation_changed" (indices of keys whose rotation
the filter changed by more than 1e-4: Blender 3.4's filter does its flip and gimbal-lock handling
in XYZ order whatever the rotation mode, so it changes the rotation for other orders). Angles are radians about X, Y, Z whatever the order; the
order names the axis applied first first (XYZ: R = Rz·Ry·Rx on column vectors).
"""
import json
import math
import os
import random
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import tangent_io  # noqa: E402  (F-curves and arguments in every Blender version)
from mathutils import Euler, Quaternion, Vector

argv = tangent_io.script_args()
here = os.path.dirname(os.path.abspath(__file__))
out_path = argv[0] if argv else os.path.join(here, "..", "..", "tests", "reference", "blender_euler_filter.json")

ORDERS = ["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"]
AXIS = {"X": 0, "Y": 1, "Z": 2}


def random_quat(rng):
    q = Quaternion([rng.gauss(0, 1) for _ in range(4)])
    q.normalize()
    return q


def random_axis(rng):
    v = Vector([rng.gauss(0, 1) for _ in range(3)])
    v.normalize()
    return v


def smoothstep(u):
    return u * u * (3 - 2 * u)


def tumble(rng, n):
    controls = [random_quat(rng) for _ in range(5)]
    for i in range(1, len(controls)):
        if controls[i].dot(controls[i - 1]) < 0:
            controls[i].negate()
    out = []
    for k in range(n):
        s = k / (n - 1) * (len(controls) - 1)
        i = min(int(s), len(controls) - 2)
        out.append(controls[i].slerp(controls[i + 1], smoothstep(s - i)))
    return out


def tilted_spin(rng, n):
    axis = Vector((rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), 1.0))
    axis.normalize()
    base = random_quat(rng)
    total = math.radians(rng.uniform(480.0, 620.0))
    return [Quaternion(axis, total * smoothstep(k / (n - 1))) @ base for k in range(n)]


def near_gimbal(rng, order, n):
    sign = rng.choice([1.0, -1.0])
    a0, a2 = rng.uniform(-3, 3), rng.uniform(-3, 3)
    w0, w2 = rng.uniform(-4, 4), rng.uniform(-4, 4)
    out = []
    for k in range(n):
        u = k / (n - 1)
        e = [0.0, 0.0, 0.0]
        e[AXIS[order[0]]] = a0 + w0 * u
        e[AXIS[order[1]]] = sign * math.pi / 2 + 0.4 * math.sin(3 * math.pi * u)  # exactly on the pole at u = 0
        e[AXIS[order[2]]] = a2 + w2 * u
        out.append(Euler(e, order).to_quaternion())
    return out


def fast_spin(rng, n):
    q = random_quat(rng)
    axis = random_axis(rng)
    drift = random_axis(rng)
    out = [q.copy()]
    for _ in range(n - 1):
        axis = (axis + 0.15 * drift.cross(axis)).normalized()
        q = Quaternion(axis, math.radians(rng.uniform(100.0, 170.0))) @ q
        q.normalize()
        out.append(q.copy())
    return out


def graph_context():
    window = bpy.context.window_manager.windows[0]
    screen = window.screen
    area = max(screen.areas, key=lambda a: a.width * a.height)
    area.type = "GRAPH_EDITOR"
    region = next(r for r in area.regions if r.type == "WINDOW")
    return dict(window=window, screen=screen, area=area, region=region)


def read_keys(cube):
    fcs = [tangent_io.fcurve_collection(cube).find("rotation_euler", index=i) for i in range(3)]
    n = len(fcs[0].keyframe_points)
    assert all(len(fc.keyframe_points) == n for fc in fcs)
    frames = [kp.co[0] for kp in fcs[0].keyframe_points]
    for fc in fcs:
        assert [kp.co[0] for kp in fc.keyframe_points] == frames
    return frames, [[fcs[i].keyframe_points[k].co[1] for i in range(3)] for k in range(n)]


def run_curve(cube, order, name, quats, fps, step):
    scene = bpy.context.scene
    scene.render.fps = fps
    scene.render.fps_base = 1.0
    cube.animation_data_clear()
    cube.rotation_mode = order
    frames = [k * step for k in range(len(quats))]
    for f, q in zip(frames, quats):
        cube.rotation_euler = q.to_euler(order)
        cube.keyframe_insert("rotation_euler", frame=f)
    for fc in tangent_io.id_fcurves(cube)[0]:
        fc.select = True
        for kp in fc.keyframe_points:
            kp.select_control_point = True
    got_frames, before = read_keys(cube)
    assert got_frames == frames, (got_frames, frames)
    with bpy.context.temp_override(**graph_context()):
        bpy.ops.graph.select_all(action="SELECT")
        result = bpy.ops.graph.euler_filter()
    _, after = read_keys(cube)
    # Sanity: the keyed values are the quaternion's rotation.
    worst = 0.0
    for q, e in zip(quats, before):
        m = Euler(e, order).to_matrix() - q.to_matrix()
        worst = max(worst, max(abs(v) for row in m for v in row))
    changed = sum(1 for b, a in zip(before, after) if b != a)
    diffs = []
    for b, a in zip(before, after):
        m = Euler(b, order).to_matrix() - Euler(a, order).to_matrix()
        diffs.append(max(abs(v) for row in m for v in row))
    print(order, name, len(quats), "keys; op", result, "; keys changed", changed, "; before-vs-quat", worst,
          "; before-vs-after", max(diffs))
    return {
        "order": order,
        "name": name,
        "fps": fps,
        "frames": frames,
        "times": [f / fps for f in frames],
        "quats": [[q.x, q.y, q.z, q.w] for q in quats],
        "before": before,
        "after": after,
        "before_vs_quat_max_matrix_error": worst,
        "before_after_max_matrix_diff": max(diffs),
        "keys_rotation_changed": [k for k, v in enumerate(diffs) if v > 1e-4],
    }


cube = bpy.data.objects["Cube"]
for ob in bpy.context.scene.objects:
    ob.select_set(ob == cube)
bpy.context.view_layer.objects.active = cube

curves = []
for oi, order in enumerate(ORDERS):
    rng = random.Random(1000 + oi)
    motions = [
        ("tumble", tumble(rng, rng.randint(40, 60)), 24, 2),
        ("tilted_spin", tilted_spin(rng, rng.randint(30, 50)), 30, 3),
        ("near_gimbal", near_gimbal(rng, order, rng.randint(36, 50)), 24, 1),
        ("fast_spin", fast_spin(rng, rng.randint(30, 45)), 30, 2),
    ]
    for name, quats, fps, step in motions:
        curves.append(run_curve(cube, order, name, quats, fps, step))

os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
with open(out_path, "w") as fh:
    json.dump({
        "generator": "tools/blender/euler_filter_reference.py",
        "blender": bpy.app.version_string,
        "conventions": (
            "angles [x, y, z] radians about X, Y, Z whatever the order; order names the axis applied first first "
            "(XYZ: R = Rz*Ry*Rx on column vectors); quats [x, y, z, w]; times = frame / fps; before/after are "
            "fcurve keyframe_points co[1] (float32) read back before and after bpy.ops.graph.euler_filter()."
        ),
        "curves": curves,
    }, fh, indent=1)
print("wrote", out_path, len(curves), "curves")
