"""Blender 3.4's glTF importer as a reference (issue 34): imports GLB files and writes, per file,
the animation samplers it read and every F-curve it made, evaluated at many frames, as JSON for
tests/runtime_blender_reference.rs (the model of Blender's playback in src/runtime/blender.rs).

    blender -b --factory-startup --python tools/blender/gltf_import_reference.py -- OUT_DIR \
        NAME=FILE.glb[@FPS] ...

FILE `synthetic` is a GLB this script writes (beside the JSON, as NAME.glb): rotations whose
neighbouring keys lie in opposite hemispheres (which the importer turns before interpolating
the components), as CUBICSPLINE with non-zero tangents and as LINEAR, and a CUBICSPLINE
translation at uneven times between frames; no exporter at hand writes such keys.

Each NAME=FILE.glb is imported into an empty scene whose frame rate is FPS (default 24, the
factory scene's): the importer puts a key at `time * fps` frames (not rounded to frames). The
JSON (OUT_DIR/NAME.json) holds:

- `samplers`: every animation channel of the file as the GLB stores it (read here with
  `struct`, not through the importer): node name, path, interpolation, `times` (float32 as
  read) and flat `values` (per key 3, 4 or N components; CUBICSPLINE keys as in-tangent,
  value, out-tangent);
- `fcurves`: every F-curve the import made, with the node (object) it animates, `data_path`,
  `array_index`, the keys (`co`, handles, handle types, interpolation), `auto_smoothing`,
  `extrapolation`, and `samples`: `[frame, fcurve.evaluate(frame)]` at the key frames, halfway
  between keys and at 600 frames spread over the keys' span and 2 frames beyond each end
  (frames rounded to float32, as Blender evaluates them).
"""

import json
import os
import struct
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import tangent_io  # noqa: E402  (F-curves and arguments in every Blender version)

# Blender 3.4's glTF add-on uses numpy.bool, which numpy 1.24 removed.
import numpy

numpy.bool = bool

SPREAD = 600
COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def read_glb(path):
    """The JSON chunk and the BIN chunk of a GLB."""
    data = open(path, "rb").read()
    magic, version, _length = struct.unpack_from("<4sII", data, 0)
    assert magic == b"glTF" and version == 2, f"{path}: not a GLB 2.0"
    offset, doc, binary = 12, None, b""
    while offset < len(data):
        size, kind = struct.unpack_from("<I4s", data, offset)
        chunk = data[offset + 8 : offset + 8 + size]
        if kind == b"JSON":
            doc = json.loads(chunk.decode("utf-8"))
        elif kind == b"BIN\0":
            binary = chunk
        offset += 8 + size
    return doc, binary


def accessor_floats(doc, binary, index):
    """An accessor's FLOAT components, flat (Tangent writes FLOAT and no sparse accessors)."""
    acc = doc["accessors"][index]
    assert acc["componentType"] == 5126 and "sparse" not in acc, "only FLOAT accessors"
    view = doc["bufferViews"][acc["bufferView"]]
    comps = COMPONENTS[acc["type"]]
    stride = view.get("byteStride", 4 * comps)
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    out = []
    for i in range(acc["count"]):
        out.extend(struct.unpack_from(f"<{comps}f", binary, start + i * stride))
    return out


def samplers_of(doc, binary):
    out = []
    for a, anim in enumerate(doc.get("animations", [])):
        for ch in anim["channels"]:
            s = anim["samplers"][ch["sampler"]]
            node = doc["nodes"][ch["target"]["node"]]
            out.append(
                {
                    "animation": anim.get("name", f"animation{a}"),
                    "node": node.get("name"),
                    "path": ch["target"]["path"],
                    "interpolation": s.get("interpolation", "LINEAR"),
                    "times": accessor_floats(doc, binary, s["input"]),
                    "values": accessor_floats(doc, binary, s["output"]),
                }
            )
    return out


def synthetic_glb(path):
    """Writes the `synthetic` GLB (see the module's docs)."""
    import math

    def quat(axis, angle, sign):
        n = math.sqrt(sum(a * a for a in axis))
        s = math.sin(angle / 2) / n
        return [sign * axis[0] * s, sign * axis[1] * s, sign * axis[2] * s, sign * math.cos(angle / 2)]

    times = [0.0, 0.37, 0.81, 1.3, 1.77, 2.05]
    rots = [quat((0.2, 1.0, 0.3), 0.9 * i, -1 if i % 2 else 1) for i in range(len(times))]
    tangents = [[0.4 * ((i + c) % 3 - 1) for c in range(4)] for i in range(len(times))]
    cubic_rot = [x for i in range(len(times)) for x in tangents[i] + rots[i] + [-t for t in tangents[i]]]
    linear_rot = [x for q in rots for x in q]
    locs = [[math.sin(1.3 * t) * 2.0, t * t - 1.0, math.cos(2.1 * t)] for t in times]
    cubic_loc = [x for i, l in enumerate(locs) for x in [3.0, -1.0, 0.5] + l + [-2.0, 0.25, 1.0]]
    blobs, views, accessors = b"", [], []

    def add(values, kind, minmax=False):
        nonlocal blobs
        comps = COMPONENTS[kind]
        data = struct.pack(f"<{len(values)}f", *values)
        views.append({"buffer": 0, "byteOffset": len(blobs), "byteLength": len(data)})
        blobs += data
        acc = {"bufferView": len(views) - 1, "componentType": 5126, "count": len(values) // comps, "type": kind}
        if minmax:
            acc["min"], acc["max"] = [min(values)], [max(values)]
        accessors.append(acc)
        return len(accessors) - 1

    t = add(times, "SCALAR", True)
    samplers = [
        {"input": t, "output": add(cubic_rot, "VEC4"), "interpolation": "CUBICSPLINE"},
        {"input": t, "output": add(linear_rot, "VEC4"), "interpolation": "LINEAR"},
        {"input": t, "output": add(cubic_loc, "VEC3"), "interpolation": "CUBICSPLINE"},
    ]
    doc = {
        "asset": {"version": "2.0", "generator": "tools/blender/gltf_import_reference.py"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [{"name": "Flip"}, {"name": "FlipLinear"}],
        "animations": [
            {
                "name": "Synthetic",
                "samplers": samplers,
                "channels": [
                    {"sampler": 0, "target": {"node": 0, "path": "rotation"}},
                    {"sampler": 1, "target": {"node": 1, "path": "rotation"}},
                    {"sampler": 2, "target": {"node": 0, "path": "translation"}},
                ],
            }
        ],
        "buffers": [{"byteLength": len(blobs)}],
        "bufferViews": views,
        "accessors": accessors,
    }
    text = json.dumps(doc).encode("utf-8")
    text += b" " * ((4 - len(text) % 4) % 4)
    blobs += b"\0" * ((4 - len(blobs) % 4) % 4)
    total = 12 + 8 + len(text) + 8 + len(blobs)
    with open(path, "wb") as f:
        f.write(struct.pack("<4sII", b"glTF", 2, total))
        f.write(struct.pack("<I4s", len(text), b"JSON") + text)
        f.write(struct.pack("<I4s", len(blobs), b"BIN\0") + blobs)


def frames_for(fc):
    keys = [k.co[0] for k in fc.keyframe_points]
    first, last = min(keys), max(keys)
    frames = set(keys)
    frames.update((a + b) / 2 for a, b in zip(keys, keys[1:]))
    lo, hi = first - 2.0, last + 2.0
    frames.update(lo + (hi - lo) * i / SPREAD for i in range(SPREAD + 1))
    return sorted({f32(f) for f in frames})


def fcurve_record(owner, fc):
    keys = [
        {
            "co": list(k.co),
            "left": list(k.handle_left),
            "right": list(k.handle_right),
            "left_type": k.handle_left_type,
            "right_type": k.handle_right_type,
            "interpolation": k.interpolation,
        }
        for k in fc.keyframe_points
    ]
    return {
        "node": owner,
        "data_path": fc.data_path,
        "array_index": fc.array_index,
        "auto_smoothing": fc.auto_smoothing,
        "extrapolation": fc.extrapolation,
        "keys": keys,
        "samples": [[f, fc.evaluate(f)] for f in frames_for(fc)],
    }


def actions_by_owner():
    """(node name, F-curves) for every object's action and its shape keys' action (the
    channel bag of their slots where Blender has slotted actions)."""
    out = []
    for obj in bpy.data.objects:
        fcurves = tangent_io.id_fcurves(obj)[0]
        if fcurves:
            out.append((obj.name, fcurves))
        keys = getattr(obj.data, "shape_keys", None) if obj.data else None
        weights = tangent_io.id_fcurves(keys)[0] if keys else []
        if weights:
            out.append((obj.name, weights))
    return out


def one(out_dir, name, glb, fps):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = fps
    scene.render.fps_base = 1.0
    doc, binary = read_glb(glb)
    bpy.ops.import_scene.gltf(filepath=glb)
    fcurves = [fcurve_record(owner, fc) for owner, curves in actions_by_owner() for fc in curves]
    record = {
        "name": name,
        "file": os.path.basename(glb),
        "blender_version": bpy.app.version_string,
        "fps": fps,
        "samplers": samplers_of(doc, binary),
        "fcurves": fcurves,
    }
    path = os.path.join(out_dir, f"{name}.json")
    with open(path, "w") as f:
        json.dump(record, f, separators=(",", ":"))
        f.write("\n")
    samples = sum(len(c["samples"]) for c in fcurves)
    print(f"{name}: {len(record['samplers'])} samplers, {len(fcurves)} F-curves, {samples} samples at {fps} fps -> {path}")


def main():
    argv = tangent_io.script_args()
    if len(argv) < 2:
        print(__doc__)
        sys.exit(2)
    out_dir = argv[0]
    os.makedirs(out_dir, exist_ok=True)
    for arg in argv[1:]:
        name, spec = arg.split("=", 1)
        glb, _, fps = spec.partition("@")
        if glb == "synthetic":
            glb = os.path.join(out_dir, f"{name}.glb")
            synthetic_glb(glb)
        one(out_dir, name, glb, int(fps) if fps else 24)


main()
