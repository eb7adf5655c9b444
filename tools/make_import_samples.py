#!/usr/bin/env python3
"""Writes glTF test files for Tangent's import (SPEC.md section 11) that no exporter at
hand produces: Blender and three.js' GLTFExporter write float outputs and dense accessors
only.  Pure Python (struct); the layout follows the glTF 2.0 specification and every file
passes the Khronos glTF validator (conformance/import_check.mjs checks it).

Usage: python3 tools/make_import_samples.py [OUT_DIR]   (default tests/import-samples)

It writes synthetic_quantized_sparse.glb (below) and hierarchy_rest.gltf (a node hierarchy
with rest rotations, scales and a matrix, for the skeleton of a glTF import: see
hierarchy()).

synthetic_quantized_sparse.glb, two animations:

animation 0 (unnamed), key times 0.25, 0.75, 1.5, 2.0 in one input accessor shared by
every sampler:
  - node 0 (unnamed): rotation LINEAR, normalized SHORT
  - node 1 "Byte Spin": rotation STEP, normalized BYTE
  - node 2 "Morph" (a mesh with 3 morph targets): weights LINEAR, normalized UNSIGNED_BYTE
  - node 3 "Sparse": translation LINEAR from a sparse accessor over a base buffer view
    (UNSIGNED_BYTE indices)
  - a KHR_animation_pointer channel (a material's base colour), which Tangent skips with
    a warning
  - nodes 4 and 5, both named "Twin": translation, one sampler shared by both channels
animation 1 "Second", key times 0.1, 0.6, 1.1:
  - node 0: rotation CUBICSPLINE, normalized SHORT (tangents too)
  - node 1: rotation LINEAR, normalized UNSIGNED_BYTE
  - node 2: weights STEP, normalized UNSIGNED_SHORT
  - node 3: scale CUBICSPLINE from a sparse accessor without a buffer view (zeros, with
    the values set sparsely; UNSIGNED_SHORT indices)
"""

import base64
import json
import math
import os
import struct
import sys

FLOAT, BYTE, UBYTE, SHORT, USHORT, UINT = 5126, 5120, 5121, 5122, 5123, 5125
FORMAT = {FLOAT: "f", BYTE: "b", UBYTE: "B", SHORT: "h", USHORT: "H", UINT: "I"}
COMPONENTS = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}


class Builder:
    def __init__(self):
        self.bin = bytearray()
        self.gltf = {
            "asset": {"version": "2.0", "generator": "Tangent tools/make_import_samples.py"},
            "buffers": [],
            "bufferViews": [],
            "accessors": [],
            "nodes": [],
            "meshes": [],
            "animations": [],
        }

    def view(self, values, component):
        while len(self.bin) % 4:
            self.bin.append(0)
        data = struct.pack("<%d%s" % (len(values), FORMAT[component]), *values)
        self.gltf["bufferViews"].append({"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)})
        self.bin += data
        return len(self.gltf["bufferViews"]) - 1

    def accessor(self, values, type_, component=FLOAT, normalized=False, min_max=False, sparse=None, count=None):
        comps = COMPONENTS[type_]
        acc = {"componentType": component, "type": type_, "count": count if count is not None else len(values) // comps}
        if values is not None:
            acc["bufferView"] = self.view(values, component)
        if normalized:
            acc["normalized"] = True
        if min_max:
            acc["min"] = [min(values[i::comps]) for i in range(comps)]
            acc["max"] = [max(values[i::comps]) for i in range(comps)]
        if sparse:
            indices, index_component, sparse_values = sparse
            acc["sparse"] = {
                "count": len(indices),
                "indices": {"bufferView": self.view(indices, index_component), "componentType": index_component},
                "values": {"bufferView": self.view(sparse_values, component)},
            }
        self.gltf["accessors"].append(acc)
        return len(self.gltf["accessors"]) - 1

    def glb(self):
        self.gltf["buffers"].append({"byteLength": len(self.bin)})
        text = json.dumps(self.gltf, separators=(",", ":")).encode()
        text += b" " * ((4 - len(text) % 4) % 4)
        binary = bytes(self.bin) + b"\0" * ((4 - len(self.bin) % 4) % 4)
        total = 12 + 8 + len(text) + 8 + len(binary)
        return (
            struct.pack("<4sII", b"glTF", 2, total)
            + struct.pack("<I4s", len(text), b"JSON") + text
            + struct.pack("<I4s", len(binary), b"BIN\0") + binary
        )


def normalize(q):
    n = math.sqrt(sum(x * x for x in q))
    return [x / n for x in q]


def quantize(values, component):
    """glTF's normalized-integer encoding: round(f * max)."""
    top = {BYTE: 127, UBYTE: 255, SHORT: 32767, USHORT: 65535}[component]
    return [int(round(v * top)) for v in values]


def flat(rows):
    return [x for row in rows for x in row]


def morph_mesh(b, targets):
    tri = [0, 0, 0, 1, 0, 0, 0, 1, 0]
    position = b.accessor(tri, "VEC3", min_max=True)
    target_list = []
    for t in range(targets):
        d = [0.0] * 9
        d[3 + t % 3] = 0.5
        target_list.append({"POSITION": b.accessor(d, "VEC3", min_max=True)})
    b.gltf["meshes"].append({"name": "Morph", "primitives": [{"attributes": {"POSITION": position}, "targets": target_list}], "weights": [0.0] * targets})
    return len(b.gltf["meshes"]) - 1


def synthetic():
    b = Builder()
    mesh = morph_mesh(b, 3)
    b.gltf["materials"] = [{"name": "Glow", "pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1]}}]
    b.gltf["nodes"] = [
        {},
        {"name": "Byte Spin"},
        {"name": "Morph", "mesh": mesh},
        {"name": "Sparse"},
        {"name": "Twin"},
        {"name": "Twin"},
    ]
    b.gltf["scenes"] = [{"nodes": list(range(6))}]
    b.gltf["scene"] = 0
    b.gltf["extensionsUsed"] = ["KHR_animation_pointer"]

    # Animation 0: one input for every sampler.
    times = b.accessor([0.25, 0.75, 1.5, 2.0], "SCALAR", min_max=True)
    quats = [normalize(q) for q in ([0, 0, 0, 1], [0.3, -0.2, 0.1, 0.9], [-0.6, 0.5, 0.2, 0.4], [0.1, 0.9, -0.3, 0.2])]
    rot_short = b.accessor(quantize(flat(quats), SHORT), "VEC4", SHORT, normalized=True)
    rot_byte = b.accessor(quantize(flat(quats), BYTE), "VEC4", BYTE, normalized=True)
    weights = b.accessor(quantize([0, 0.5, 1, 0.2, 0.4, 0.6, 1, 0, 0.25, 0.9, 0.1, 0.3], UBYTE), "SCALAR", UBYTE, normalized=True)
    base = [0, 0, 0, 1, 1, 1, 2, 0, -1, 3, 1, 0]
    sparse_translation = b.accessor(base, "VEC3", sparse=([1, 3], UBYTE, [5, -2, 0.5, -4, 4, 2.5]))
    colour = b.accessor(flat([[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [1, 1, 1, 1]]), "VEC4")
    twin = b.accessor([0, 0, 0, 1, 2, 3, 2, 2, 2, -1, 0, 1], "VEC3")
    samplers0 = [
        {"input": times, "output": rot_short, "interpolation": "LINEAR"},
        {"input": times, "output": rot_byte, "interpolation": "STEP"},
        {"input": times, "output": weights, "interpolation": "LINEAR"},
        {"input": times, "output": sparse_translation, "interpolation": "LINEAR"},
        {"input": times, "output": colour, "interpolation": "LINEAR"},
        {"input": times, "output": twin, "interpolation": "LINEAR"},
    ]
    channels0 = [
        {"sampler": 0, "target": {"node": 0, "path": "rotation"}},
        {"sampler": 1, "target": {"node": 1, "path": "rotation"}},
        {"sampler": 2, "target": {"node": 2, "path": "weights"}},
        {"sampler": 3, "target": {"node": 3, "path": "translation"}},
        {"sampler": 4, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/materials/0/pbrMetallicRoughness/baseColorFactor"}}}},
        {"sampler": 5, "target": {"node": 4, "path": "translation"}},
        {"sampler": 5, "target": {"node": 5, "path": "translation"}},
    ]
    b.gltf["animations"].append({"channels": channels0, "samplers": samplers0})

    # Animation 1 "Second".
    times1 = b.accessor([0.1, 0.6, 1.1], "SCALAR", min_max=True)
    q1 = [normalize(q) for q in ([0.2, 0.1, 0, 0.97], [0.5, -0.5, 0.5, 0.5], [-0.1, 0.3, 0.8, 0.5])]
    tangents = [[0.1, -0.2, 0.3, 0.05], [0.4, 0.1, -0.3, -0.2], [-0.25, 0.2, 0.1, 0.0]]
    cubic_rot = flat([tangents[k], q1[k], [-x for x in tangents[(k + 1) % 3]]] for k in range(3))
    rot_cubic = b.accessor(quantize(flat(cubic_rot), SHORT), "VEC4", SHORT, normalized=True)
    positive = [normalize(q) for q in ([0.1, 0.2, 0.3, 0.9], [0.7, 0.1, 0.1, 0.7], [0.3, 0.6, 0.2, 0.7])]
    rot_ubyte = b.accessor(quantize(flat(positive), UBYTE), "VEC4", UBYTE, normalized=True)
    weights_step = b.accessor(quantize([1, 0, 0.5, 0, 1, 0.25, 0.75, 0.75, 0], USHORT), "SCALAR", USHORT, normalized=True)
    # CUBICSPLINE scale, 3 keys × (in, value, out): only the values are set (sparsely).
    scale_sparse = b.accessor(None, "VEC3", count=9, sparse=([1, 4, 7], USHORT, [1, 1, 1, 2, 0.5, 1.5, 0.8, 1.2, 1])) 
    samplers1 = [
        {"input": times1, "output": rot_cubic, "interpolation": "CUBICSPLINE"},
        {"input": times1, "output": rot_ubyte, "interpolation": "LINEAR"},
        {"input": times1, "output": weights_step, "interpolation": "STEP"},
        {"input": times1, "output": scale_sparse, "interpolation": "CUBICSPLINE"},
    ]
    channels1 = [
        {"sampler": 0, "target": {"node": 0, "path": "rotation"}},
        {"sampler": 1, "target": {"node": 1, "path": "rotation"}},
        {"sampler": 2, "target": {"node": 2, "path": "weights"}},
        {"sampler": 3, "target": {"node": 3, "path": "scale"}},
    ]
    b.gltf["animations"].append({"name": "Second", "channels": channels1, "samplers": samplers1})
    return b.glb()


def f32(x):
    """x rounded to float32, so three.js (which reads the JSON's numbers as doubles) and
    Tangent (float32, as the gltf crate reads node transforms) start from the same value."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def axis_angle(axis, degrees):
    n = math.sqrt(sum(a * a for a in axis))
    h = math.radians(degrees) / 2
    return [a / n * math.sin(h) for a in axis] + [math.cos(h)]


def quat_mul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz]


def trs_matrix(t, q, s):
    """Column-major 4x4 of T * R * S."""
    x, y, z, w = q
    r = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ]
    m = []
    for c in range(3):
        m += [r[row][c] * s[c] for row in range(3)] + [0.0]
    return m + list(t) + [1.0]


def hierarchy():
    """hierarchy_rest.gltf: a small body, for the skeleton of a glTF import (SPEC 14,
    conformance/pose_check.mjs). The default scene (scene 0) is

      0 "Hips"  T (0, 1, 0), R 10 deg about Y; translation LINEAR
      |- 1 "Spine"  T (0, 0.3, 0), R -15 deg about X, S (1.2, 1, 0.9); rotation CUBICSPLINE
      |  `- 2 "Neck"  a matrix: T (0, 0.4, 0.02) R 20 deg about (1, 0.2, 0) S (1, 1.1, 1)
      |     `- 3 (unnamed)  T (0, 0.2, 0.05); rotation STEP
      |        `- 4 "Tip"  T (0, 0.15, 0)
      |- 5 "Arm"  T (0.2, 0.25, 0), R 90 deg about Z; scale LINEAR
      |  `- 6 "Arm"  T (0.3, 0, 0), R -30 deg about Y; rotation LINEAR
      |     `- 7 "Hand"  T (0.25, 0, 0), S (-1, 1, 1), a one-triangle mesh
      `- 8 "Cam"  T (0, 0.5, 2), R -10 deg about X, a perspective camera
    and scene 1 holds node 9 "Other", in no default scene. One animation, "Walk", keys at
    0, 0.5, 1, 1.5 and 2 s. The JSON with its buffer as a data URI."""
    b = Builder()
    tri = b.accessor([0, 0, 0, 0.1, 0, 0, 0, 0.1, 0], "VEC3", min_max=True)
    b.gltf["meshes"].append({"name": "Palm", "primitives": [{"attributes": {"POSITION": tri}}]})
    b.gltf["cameras"] = [{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}}]
    r = lambda axis, deg: [f32(x) for x in axis_angle(axis, deg)]
    v = lambda *xs: [f32(x) for x in xs]
    neck = [f32(x) for x in trs_matrix([0, 0.4, 0.02], axis_angle([1, 0.2, 0], 20), [1, 1.1, 1])]
    b.gltf["nodes"] = [
        {"name": "Hips", "translation": v(0, 1, 0), "rotation": r([0, 1, 0], 10), "children": [1, 5, 8]},
        {"name": "Spine", "translation": v(0, 0.3, 0), "rotation": r([1, 0, 0], -15), "scale": v(1.2, 1, 0.9), "children": [2]},
        {"name": "Neck", "matrix": neck, "children": [3]},
        {"translation": v(0, 0.2, 0.05), "children": [4]},
        {"name": "Tip", "translation": v(0, 0.15, 0)},
        {"name": "Arm", "translation": v(0.2, 0.25, 0), "rotation": r([0, 0, 1], 90), "children": [6]},
        {"name": "Arm", "translation": v(0.3, 0, 0), "rotation": r([0, 1, 0], -30), "children": [7]},
        {"name": "Hand", "translation": v(0.25, 0, 0), "scale": v(-1, 1, 1), "mesh": 0},
        {"name": "Cam", "translation": v(0, 0.5, 2), "rotation": r([1, 0, 0], -10), "camera": 0},
        {"name": "Other", "translation": v(5, 5, 5)},
    ]
    b.gltf["scenes"] = [{"name": "Body", "nodes": [0]}, {"name": "Elsewhere", "nodes": [9]}]
    b.gltf["scene"] = 0
    times = b.accessor([0, 0.5, 1.0, 1.5, 2.0], "SCALAR", min_max=True)
    hips = b.accessor(flat([[0, 1, 0], [0.3, 1.1, 0], [0.6, 1, 0.1], [0.9, 0.95, -0.1], [1.2, 1, 0]]), "VEC3")
    spine_keys = [axis_angle([1, 0, 0], -15), axis_angle([1, 0.3, 0], 10), axis_angle([0, 0, 1], 25), axis_angle([1, -1, 0.5], -40), axis_angle([1, 0, 0], -15)]
    spine_tangents = [[0.2, 0.1, 0, 0], [0.5, -0.3, 0.2, 0.1], [-0.4, 0.2, 0.6, 0], [0.1, 0.1, -0.2, 0.05], [0, 0, 0.3, 0]]
    spine = b.accessor(flat(flat([[-x for x in spine_tangents[k]], spine_keys[k], spine_tangents[k]] for k in range(5))), "VEC4")
    head = b.accessor(flat([axis_angle([0, 1, 0], 0), axis_angle([0, 1, 0], 30), axis_angle([1, 0, 1], -45), axis_angle([0, 1, 0], 60), axis_angle([0, 0, 1], 5)]), "VEC4")
    arm_scale = b.accessor(flat([[1, 1, 1], [1.5, 1, 1], [1, 0.5, 1], [2, 2, 2], [1, 1, 1]]), "VEC3")
    forearm = b.accessor(flat([axis_angle([0, 1, 0], -30), axis_angle([0, 1, 0], -90), axis_angle([0, 0, 1], 70), quat_mul(axis_angle([0, 1, 0], -30), axis_angle([1, 0, 0], 120)), axis_angle([0, 1, 0], -30)]), "VEC4")
    b.gltf["animations"].append({
        "name": "Walk",
        "samplers": [
            {"input": times, "output": hips, "interpolation": "LINEAR"},
            {"input": times, "output": spine, "interpolation": "CUBICSPLINE"},
            {"input": times, "output": head, "interpolation": "STEP"},
            {"input": times, "output": arm_scale, "interpolation": "LINEAR"},
            {"input": times, "output": forearm, "interpolation": "LINEAR"},
        ],
        "channels": [
            {"sampler": 0, "target": {"node": 0, "path": "translation"}},
            {"sampler": 1, "target": {"node": 1, "path": "rotation"}},
            {"sampler": 2, "target": {"node": 3, "path": "rotation"}},
            {"sampler": 3, "target": {"node": 5, "path": "scale"}},
            {"sampler": 4, "target": {"node": 6, "path": "rotation"}},
        ],
    })
    b.gltf["buffers"].append({"byteLength": len(b.bin), "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(b.bin)).decode()})
    return json.dumps(b.gltf, indent=1).encode() + b"\n"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/import-samples"
    os.makedirs(out, exist_ok=True)
    for name, make in [("synthetic_quantized_sparse.glb", synthetic), ("hierarchy_rest.gltf", hierarchy)]:
        path = os.path.join(out, name)
        with open(path, "wb") as f:
            f.write(make())
        print("wrote", path)


if __name__ == "__main__":
    main()
