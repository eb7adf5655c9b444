"""Test files for Tangent's FBX import (issue 30) that the shared sample does not cover:
cubic keys with user and auto tangents and weights, constant and constant-next keys, curves
of one property with different key times and mixed interpolations, every rotation order,
pre-rotation and a pivot, blend shape weights, and extrapolation.

Run headless (Blender 3.4, Debian package):

    blender -b --factory-startup --python tools/blender/fbx_samples.py -- OUT_DIR

OUT_DIR defaults to tests/import-samples/fbx.  Blender's FBX exporter writes every curve as
baked Linear keys, so the scene is exported by it (identity axes, no unit scale), then the
file is read with Blender's own FBX parser (io_scene_fbx.parse_fbx), some curves and
properties are rewritten as below, and the file is written back with Blender's own FBX
encoder (io_scene_fbx.encode_bin).  Writes:

- curves_orders_shapes.fbx:
  - "Hinge" (RotationOrder ZXY, RotationActive): Lcl Rotation X cubic with broken user
    tangents and weights, Y linear at other times, Z constant, constant-next and linear
    keys (a track of union times with jumps); Lcl Translation cubic with auto tangents and
    one linear segment, pre-extrapolation mirror and post-extrapolation repeat; Lcl
    Scaling constant keys, Y at other times than X and Z.
  - "Order_XYZ" ... "Order_ZYX": the same baked Linear rotation keys, each node with that
    RotationOrder (RotationActive), so Blender's importer reads each through its own order.
  - "Offset": baked keys, with PreRotation (10, 20, 30) and RotationPivot (1, 2, 3).
  - "Face": a cube with shape keys "Smile" (DeformPercent cubic, weighted) and "Blink"
    (linear).
  - UnitScaleFactor 100 (meters), so Blender's importer applies no unit scale.
- curves_orders_shapes.blender_import.json: what Blender 3.4's own FBX importer reads from
  that file (identity axes, global_scale 1, anim_offset 0), as
  tests/import-samples/fbx/sample_props.blender_import.json: for each OBJECT.location[i],
  rotation_euler[i] (radians, XYZ whatever the file's order: Blender decomposes the matrix),
  scale[i], and Face's shape key values `Face.key_blocks["NAME"].value`, the keys as
  [seconds, value] and the interpolations Blender gave them (`ipo`).
  Blender's importer reads key values only: at a time where a curve has no key it
  interpolates linearly, whatever the curve's interpolation.
"""

import array
import json
import math
import os
import struct
import sys

import bpy
from io_scene_fbx import encode_bin, parse_fbx

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
out_dir = os.path.abspath(argv[0] if argv else "tests/import-samples/fbx")
os.makedirs(out_dir, exist_ok=True)
name = "curves_orders_shapes"
fbx_path = os.path.join(out_dir, name + ".fbx")
raw_path = os.path.join(out_dir, name + ".raw.fbx")

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 24
scene.frame_start, scene.frame_end = 0, 48


def key_transform(obj, frames):
    for frame, (loc, rot, sca) in frames:
        obj.location, obj.rotation_euler, obj.scale = loc, [math.radians(a) for a in rot], sca
        for path in ("location", "rotation_euler", "scale"):
            obj.keyframe_insert(path, frame=frame)


def empty(name):
    bpy.ops.object.empty_add(type="PLAIN_AXES")
    obj = bpy.context.active_object
    obj.name = name
    return obj


spin = [
    (0, ((0, 0, 0), (0, 0, 0), (1, 1, 1))),
    (24, ((1, 2, 3), (100, -60, 200), (1.5, 1.5, 1.5))),
    (48, ((2, 0, 1), (-170, 80, 400), (1, 2, 1))),
]
key_transform(empty("Hinge"), spin)
for order in ("XYZ", "XZY", "YZX", "YXZ", "ZXY", "ZYX"):
    key_transform(empty("Order_" + order), spin)
key_transform(empty("Offset"), spin)

bpy.ops.mesh.primitive_cube_add(size=1.0)
face = bpy.context.active_object
face.name = "Face"
face.shape_key_add(name="Basis")
for shape in ("Smile", "Blink"):
    sk = face.shape_key_add(name=shape)
    for i, v in enumerate(sk.data):
        v.co.z += 0.1 * (i % 3) + (0.2 if shape == "Blink" else 0.0)
    for frame, value in ((0, 0.0), (24, 1.0), (48, 0.3)):
        sk.value = value
        sk.keyframe_insert("value", frame=frame)

bpy.ops.export_scene.fbx(
    filepath=raw_path,
    axis_forward="Y",
    axis_up="Z",
    apply_unit_scale=False,
    apply_scale_options="FBX_SCALE_NONE",
    object_types={"EMPTY", "MESH"},
    bake_anim=True,
    bake_anim_use_all_actions=False,
    bake_anim_use_nla_strips=False,
    bake_anim_simplify_factor=0.0,
    add_leaf_bones=False,
)

# ---- Rewriting the exported file.

KTIME = 46186158000
CONSTANT, LINEAR, CUBIC = 0x2, 0x4, 0x8
CONSTANT_NEXT, AUTO, USER, BROKEN = 0x100, 0x100, 0x400, 0x800
WEIGHTED_RIGHT, WEIGHTED_NEXT_LEFT = 0x1000000, 0x2000000


def to_writer(elem):
    """A parsed element (parse_fbx) as an element encode_bin writes, props as they were."""
    out = encode_bin.FBXElem(elem.id)
    for value, kind in zip(elem.props, elem.props_type):
        add = {
            b"Y"[0]: out.add_int16, b"C"[0]: out.add_bool, b"I"[0]: out.add_int32, b"F"[0]: out.add_float32,
            b"D"[0]: out.add_float64, b"L"[0]: out.add_int64, b"R"[0]: out.add_bytes, b"S"[0]: out.add_string,
            b"f"[0]: out.add_float32_array, b"i"[0]: out.add_int32_array, b"d"[0]: out.add_float64_array,
            b"l"[0]: out.add_int64_array, b"b"[0]: out.add_bool_array, b"c"[0]: out.add_byte_array,
        }[kind]
        add(value)
    out.elems = [to_writer(e) for e in elem.elems]
    return out


def prop_value(elem, i):
    """Property i of a written element, decoded back."""
    kind = chr(elem.props_type[i])
    data = elem.props[i]
    if kind == "L":
        return struct.unpack("<q", data)[0]
    if kind == "S":
        return data[4:]
    raise ValueError(kind)


def child(elem, id):
    return next(e for e in elem.elems if e.id == id)


parsed, version = parse_fbx.parse(raw_path)
root = to_writer(parsed)
objects = child(root, b"Objects")
connections = child(root, b"Connections")

models = {}  # name -> Model element
curve_nodes = {}  # uid -> (model name, property)
curves = {}  # uid -> AnimationCurve element
for e in objects.elems:
    if e.id == b"Model":
        models[prop_value(e, 1).split(b"\x00")[0].decode()] = e
    elif e.id == b"AnimationCurve":
        curves[prop_value(e, 0)] = e
uid_model = {prop_value(e, 0): n for n, e in models.items()}
uid_channel = {
    prop_value(e, 0): prop_value(e, 1).split(b"\x00")[0].decode()
    for e in objects.elems
    if e.id == b"Deformer" and prop_value(e, 2) == b"BlendShapeChannel"
}
links = [(prop_value(c, 1), prop_value(c, 2), prop_value(c, 3) if len(c.props) > 3 else b"") for c in connections.elems]
for src, dst, p in links:
    if dst in uid_model and p:
        curve_nodes[src] = (uid_model[dst], p.decode())
    elif dst in uid_channel and p:
        curve_nodes[src] = ("Face." + uid_channel[dst], p.decode())
curve_of = {}  # (model, property, channel) -> curve element
for src, dst, p in links:
    if src in curves and dst in curve_nodes:
        model, prop = curve_nodes[dst]
        curve_of[(model, prop, p.decode())] = curves[src]


def set_prop(model, pname, ptype, label, *values):
    props = child(models[model], b"Properties70")
    props.elems = [p for p in props.elems if prop_value(p, 0) != pname.encode()]
    p = encode_bin.FBXElem(b"P")
    for s in (pname, ptype, label, ""):
        p.add_string(s.encode())
    for v in values:
        (p.add_int32 if isinstance(v, int) else p.add_float64)(v)
    props.elems.append(p)


def rewrite(curve, keys, pre=None, post=None):
    """keys: (seconds, value, flags, right slope, next-left slope, right weight, next-left weight)."""
    attr = array.array("f")
    for _t, _v, _flags, right, next_left, w_right, w_next in keys:
        packed = int(round(w_right * 10000)) | (int(round(w_next * 10000)) << 16)
        attr.extend([right, next_left])
        attr.frombytes(struct.pack("<I", packed) + struct.pack("<f", 0.0))
    new = {
        b"KeyTime": ("l", [int(round(t * KTIME)) for t, *_ in keys]),
        b"KeyValueFloat": ("f", [v for _t, v, *_ in keys]),
        b"KeyAttrFlags": ("i", [k[2] for k in keys]),
        b"KeyAttrDataFloat": ("raw", attr),
        b"KeyAttrRefCount": ("i", [1] * len(keys)),
    }
    kept = [e for e in curve.elems if e.id not in new and e.id not in (b"Pre-Extrapolation", b"Post-Extrapolation")]
    for id, (kind, data) in new.items():
        e = encode_bin.FBXElem(id)
        if kind == "l":
            e.add_int64_array(data)
        elif kind == "i":
            e.add_int32_array(data)
        elif kind == "f":
            e.add_float32_array(data)
        else:
            e.add_float32_array(data)
        kept.append(e)
    for id, mode in ((b"Pre-Extrapolation", pre), (b"Post-Extrapolation", post)):
        if mode:
            e = encode_bin.FBXElem(id)
            for sub, v in ((b"Type", ord(mode)), (b"Repetition", -1)):
                s = encode_bin.FBXElem(sub)
                s.add_int32(v)
                e.elems.append(s)
            kept.append(e)
    curve.elems = kept


U = CUBIC | USER | BROKEN
W = WEIGHTED_RIGHT | WEIGHTED_NEXT_LEFT
# Hinge rotation: X cubic (user, broken, weighted), Y linear, Z constant / constant-next / linear.
rewrite(curve_of[("Hinge", "Lcl Rotation", "d|X")], [
    (0.0, 0.0, U | W, 300.0, 50.0, 0.2, 0.6),
    (0.5, 90.0, U | W, -40.0, 400.0, 0.9, 0.1),
    (1.25, 200.0, U, 250.0, 120.0, 1 / 3, 1 / 3),
    (2.0, 370.0, U, 0.0, 0.0, 1 / 3, 1 / 3),
])
rewrite(curve_of[("Hinge", "Lcl Rotation", "d|Y")], [
    (0.0, -30.0, LINEAR, 0, 0, 1 / 3, 1 / 3), (0.75, 45.0, LINEAR, 0, 0, 1 / 3, 1 / 3), (2.0, 10.0, LINEAR, 0, 0, 1 / 3, 1 / 3),
])
rewrite(curve_of[("Hinge", "Lcl Rotation", "d|Z")], [
    (0.0, 0.0, CONSTANT, 0, 0, 1 / 3, 1 / 3), (1.0, 60.0, CONSTANT | CONSTANT_NEXT, 0, 0, 1 / 3, 1 / 3),
    (1.5, -20.0, LINEAR, 0, 0, 1 / 3, 1 / 3), (2.0, 15.0, LINEAR, 0, 0, 1 / 3, 1 / 3),
])
A = CUBIC | AUTO
for axis, values in zip("XYZ", ((0.0, 1.0, 1.5, 0.2), (2.0, -1.0, 0.5, 3.0), (0.0, 0.0, 1.0, 1.0))):
    rewrite(curve_of[("Hinge", "Lcl Translation", "d|" + axis)], [
        (0.0, values[0], A, 0, 0, 1 / 3, 1 / 3), (0.6, values[1], LINEAR, 0, 0, 1 / 3, 1 / 3),
        (1.2, values[2], A, 0, 0, 1 / 3, 1 / 3), (2.0, values[3], A, 0, 0, 1 / 3, 1 / 3),
    ], pre="M", post="R")
for axis, keys in zip("XYZ", (((0.0, 1.0), (1.0, 2.0), (2.0, 0.5)), ((0.0, 1.0), (0.4, 3.0), (2.0, 1.0)), ((0.0, 1.0), (1.0, 2.0), (2.0, 0.5)))):
    rewrite(curve_of[("Hinge", "Lcl Scaling", "d|" + axis)], [(t, v, CONSTANT, 0, 0, 1 / 3, 1 / 3) for t, v in keys])
# Face: Smile cubic weighted, Blink linear (DeformPercent, percent).
rewrite(curve_of[("Face.Smile", "DeformPercent", "d|DeformPercent")], [
    (0.0, 0.0, U | W, 200.0, -100.0, 0.5, 0.25), (1.0, 100.0, U | W, -50.0, 0.0, 0.75, 0.5), (2.0, 30.0, U, 0.0, 0.0, 1 / 3, 1 / 3),
])
rewrite(curve_of[("Face.Blink", "DeformPercent", "d|DeformPercent")], [
    (0.0, 10.0, LINEAR, 0, 0, 1 / 3, 1 / 3), (0.3, 90.0, LINEAR, 0, 0, 1 / 3, 1 / 3), (2.0, 0.0, LINEAR, 0, 0, 1 / 3, 1 / 3),
])

set_prop("Hinge", "RotationActive", "bool", "", 1)
set_prop("Hinge", "RotationOrder", "enum", "", 4)  # eEulerZXY
for i, order in enumerate(("XYZ", "XZY", "YZX", "YXZ", "ZXY", "ZYX")):
    set_prop("Order_" + order, "RotationActive", "bool", "", 1)
    set_prop("Order_" + order, "RotationOrder", "enum", "", i)
set_prop("Offset", "RotationActive", "bool", "", 1)
set_prop("Offset", "PreRotation", "Vector3D", "Vector", 10.0, 20.0, 30.0)
set_prop("Offset", "RotationPivot", "Vector3D", "Vector", 1.0, 2.0, 3.0)
settings = child(child(root, b"GlobalSettings"), b"Properties70")
for p in settings.elems:
    if prop_value(p, 0) in (b"UnitScaleFactor", b"OriginalUnitScaleFactor"):
        p.props[4] = struct.pack("<d", 100.0)

encode_bin.write(fbx_path, root, version)
os.remove(raw_path)

# ---- What Blender's own importer reads.

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 24
bpy.ops.import_scene.fbx(filepath=fbx_path, axis_forward="Y", axis_up="Z", global_scale=1.0, anim_offset=0.0)
fps = scene.render.fps / scene.render.fps_base
truth = {}
for obj in bpy.data.objects:
    holders = [(obj.name, obj.animation_data)]
    if obj.data is not None and getattr(obj.data, "shape_keys", None) is not None:
        holders.append((obj.name, obj.data.shape_keys.animation_data))
    for owner, data in holders:
        if data is None or data.action is None:
            continue
        for fc in data.action.fcurves:
            label = f"{owner}.{fc.data_path}[{fc.array_index}]" if fc.data_path in ("location", "rotation_euler", "scale") else f"{owner}.{fc.data_path}"
            truth[label] = {
                "keys": [[kp.co[0] / fps, kp.co[1]] for kp in fc.keyframe_points],
                "ipo": sorted({kp.interpolation for kp in fc.keyframe_points}),
            }
with open(os.path.join(out_dir, name + ".blender_import.json"), "w") as f:
    json.dump({name + ".fbx": truth}, f, indent=None)
print("wrote", fbx_path, "and", len(truth), "curves of truth")
