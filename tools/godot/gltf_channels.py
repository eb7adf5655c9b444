"""Prints the animation channels of a glTF or GLB file as JSON: for each channel its node (index
and name), path, interpolation, and the sampler's times and values as the file holds them
(float32). Used by godot_import_reference.sh beside what Godot plays of the same file.

usage: python3 gltf_channels.py FILE > channels.json
"""
import base64
import json
import struct
import sys

COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}


def load(path):
    data = open(path, "rb").read()
    if data[:4] == b"glTF":
        length = struct.unpack_from("<I", data, 12)[0]
        doc = json.loads(data[20 : 20 + length])
        rest = 20 + length
        bin_length = struct.unpack_from("<I", data, rest)[0]
        binary = data[rest + 8 : rest + 8 + bin_length]
        return doc, [binary]
    doc = json.loads(data)
    buffers = []
    for b in doc["buffers"]:
        uri = b["uri"]
        if uri.startswith("data:"):
            buffers.append(base64.b64decode(uri.split(",", 1)[1]))
        else:
            buffers.append(open(uri, "rb").read())
    return doc, buffers


def accessor(doc, buffers, index):
    a = doc["accessors"][index]
    assert a["componentType"] == 5126, "float accessors only"
    view = doc["bufferViews"][a["bufferView"]]
    n = a["count"] * COMPONENTS[a["type"]]
    start = view.get("byteOffset", 0) + a.get("byteOffset", 0)
    assert view.get("byteStride", 4 * COMPONENTS[a["type"]]) == 4 * COMPONENTS[a["type"]], "packed accessors only"
    return list(struct.unpack_from("<%df" % n, buffers[view["buffer"]], start))


def main():
    doc, buffers = load(sys.argv[1])
    channels = []
    for anim in doc.get("animations", []):
        for c in anim["channels"]:
            s = anim["samplers"][c["sampler"]]
            node = c["target"]["node"]
            channels.append({
                "node": node,
                "name": doc["nodes"][node].get("name", ""),
                "path": c["target"]["path"],
                "interpolation": s.get("interpolation", "LINEAR"),
                "times": accessor(doc, buffers, s["input"]),
                "values": accessor(doc, buffers, s["output"]),
            })
    json.dump(channels, sys.stdout)


main()
