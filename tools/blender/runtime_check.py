"""Blender's side of "exports for a runtime" (issue 34): Tangent exports each SOURCE with
`--adaptive E --runtime RUNTIME` (`tangent bake`), Blender's glTF importer reads the GLB, and
every F-curve it made (location, rotation, scale, shape-key weights) is evaluated at --times
frames over its keys and compared with Tangent's own curve (`tangent eval` at the same times).

    blender -b --factory-startup --python-exit-code 1 --python tools/blender/runtime_check.py -- \
        --tangent target/debug/tangent [--adaptive 1e-3] [--times 400] [--fps 24] \
        [--runtime blender-3.4] SOURCE...
    python tools/blender/runtime_check.py [--] --tangent ... SOURCE...      (the bpy module)

RUNTIME is passed to `tangent bake --runtime` as given: `blender` (the default: the glTF importer
of Blender 4.2 and later, Auto handles, keys within 0.01 frames merged) for 4.2, 4.5 and 5.0,
`blender-3.4` for Blender 3.4 (Auto Clamped handles), `spec` to see the check fail. Checked with
Blender 3.4 (the distribution's, `--runtime blender-3.4`) and the bpy module of 4.2, 4.5 and 5.0
(`--runtime blender`); .ci/run runs 3.4, 4.5 and 5.0 (docs/blender.md). The F-curves are read
from the channel bag of each object's action slot where Blender has slotted actions (4.4 and
later).

A SOURCE is a project (.ron) or a file Tangent imports (.glb, .gltf...), which is imported
first (`tangent import`). The scene's frame rate is --fps before the import (the importer puts
keys at time x fps frames). Locations, scales and weights must be within E of Tangent's values
(through the importer's axis conversion: location (x, -z, y), scale (x, z, y)); a rotation's
four F-curves, normalised as Blender does when it builds the object's matrix, must be within E
of Tangent's unit quaternion (w, x, -z, y), component by component (the sign aligned), which
holds when the angle is within E. Float32 slack: 4e-6 x (1 + |value|). Samples within 1e-3
frames of a jump (a CONSTANT key) are skipped and counted. Prints per source the F-curves,
samples and the largest difference; exits 1 on any sample beyond, or when nothing was compared.
"""

import argparse
import math
import os
import subprocess
import sys
import tempfile

import bpy

# Blender 3.4's glTF add-on uses numpy.bool, which numpy 1.24 removed (2.0 has it again).
import numpy

if "bool" not in vars(numpy):  # (not hasattr: numpy 1.26 warns on the lookup)
    numpy.bool = bool

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import tangent_io  # noqa: E402  (where an ID's F-curves are in each Blender version)

PATHS = {"location": "translation", "rotation_quaternion": "rotation", "scale": "scale"}

# Samples this close (in frames) to a jump are skipped: there the curves differ by the jump for
# any shift of the time (Blender also plays a key's value within about 1e-4 frames before it).
JUMP = 1e-3


def parse_args():
    argv = tangent_io.script_args()
    p = argparse.ArgumentParser(prog="runtime_check.py")
    p.add_argument("sources", nargs="+")
    p.add_argument("--tangent", required=True)
    p.add_argument("--adaptive", type=float, default=1e-3)
    p.add_argument("--times", type=int, default=400)
    p.add_argument("--fps", type=int, default=24)
    p.add_argument(
        "--runtime",
        default="blender",
        help="the runtime to export for: blender (4.2 and later), blender-3.4 (Blender 3.4), spec shows the check failing",
    )
    p.add_argument("--within", type=float, default=None, help="the bound the check holds Blender to (default: the --adaptive tolerance)")
    return p.parse_args(argv)


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {out.stderr.strip()}")
    return out.stdout


def tangent_values(args, project, names, times):
    """Tangent's values at `times` for the first of `names` that is a track, or None."""
    joined = ",".join(repr(t) for t in times)
    for name in names:
        try:
            text = run([args.tangent, "eval", project, "--track", name, "--times", joined])
        except RuntimeError:
            continue
        return name, [[float(x) for x in line.split()] for line in text.splitlines()]
    return None, None


def to_blender(path, v):
    """Tangent's glTF-space value as the importer converts it."""
    if path == "location":
        return [v[0], -v[2], v[1]]
    if path == "scale":
        return [v[0], v[2], v[1]]
    if path == "rotation_quaternion":
        n = math.sqrt(sum(x * x for x in v))
        return [v[3] / n, v[0] / n, -v[2] / n, v[1] / n]
    return v


def animated():
    """(object name, data path, fcurves by index, shape-key names) per animated property."""
    out = []
    for obj in bpy.data.objects:
        groups = {}
        for fc in tangent_io.id_fcurves(obj)[0]:
            groups.setdefault(fc.data_path, {})[fc.array_index] = fc
        out.extend((obj.name, path, fcs) for path, fcs in groups.items())
        keys = getattr(obj.data, "shape_keys", None) if obj.data else None
        weights = tangent_io.id_fcurves(keys)[0] if keys else []
        if weights:
            fcs = {i: fc for i, fc in enumerate(sorted(weights, key=lambda f: f.data_path))}
            out.append((obj.name, "weights", fcs))
    return out


def frames_of(fcs, count):
    keys = [k.co[0] for fc in fcs.values() for k in fc.keyframe_points]
    first, last = min(keys), max(keys)
    return [first + (last - first) * i / (count - 1) for i in range(count)]


def jumps_of(fcs):
    """Frames where a curve jumps: CONSTANT keys, and keys closer than JUMP frames."""
    out = []
    for fc in fcs.values():
        keys = list(fc.keyframe_points)
        for k, n in zip(keys, keys[1:]):
            if k.interpolation == "CONSTANT" or n.co[0] - k.co[0] < JUMP:
                out.append(n.co[0])
    return out


def check_property(args, project, obj, path, fcs, stats):
    frames = frames_of(fcs, args.times)
    jumps = jumps_of(fcs)
    near = [f for f in frames if any(abs(f - j) < JUMP for j in jumps)]
    stats["skipped"] += len(near) * len(fcs)
    frames = [f for f in frames if f not in near]
    times = [f / args.fps for f in frames]
    suffix = PATHS.get(path, "weights")
    names = [obj, f"{obj}.{suffix}"] if path != "weights" else [obj] + [f"{obj}.weights[{i}]" for i in range(len(fcs))]
    name, values = tangent_values(args, project, names[:2], times)
    if values is None:
        raise RuntimeError(f"{obj} {path}: no track of {project} named {names[:2]}")
    worst = largest = 0.0
    for j, f in enumerate(frames):
        blender = [fcs[i].evaluate(f) for i in sorted(fcs)]
        want = to_blender(path, values[j])
        if path == "rotation_quaternion":
            n = math.sqrt(sum(x * x for x in blender))
            blender = [x / n for x in blender]
            if sum(a * b for a, b in zip(blender, want)) < 0:
                want = [-x for x in want]
        for c, (got, expect) in enumerate(zip(blender, want)):
            d = abs(got - expect)
            largest = max(largest, d)
            if d > args.adaptive + 4e-6 * (1 + abs(expect)):
                stats["beyond_adaptive"] += 1
            allowed = args.within + 4e-6 * (1 + abs(expect))
            worst = max(worst, d / allowed)
            stats["largest"] = max(stats["largest"], (d, f"{obj} {path}[{c}] frame {f:.3f}"))
            if d > allowed:
                stats["failures"].append(f"{obj} {path}[{c}] frame {f:.4f}: Blender {got:.7g}, Tangent {expect:.7g} (track {name})")
            stats["samples"] += 1
    stats["fcurves"] += len(fcs)
    stats["worst_ratio"] = max(stats["worst_ratio"], worst)
    keys = sum(len(fc.keyframe_points) for fc in fcs.values())
    stats["properties"].append(f"    {obj} {path}: {len(fcs)} F-curves, {keys} keys, largest difference {largest:.3e}")


def check_source(args, source, work):
    base = os.path.splitext(os.path.basename(source))[0]
    project = source
    if not source.endswith(".ron"):
        project = os.path.join(work, f"{base}.ron")
        run([args.tangent, "import", source, "-o", project])
    glb = os.path.join(work, f"{base}.glb")
    report = run([args.tangent, "bake", project, "--format", "glb", "--adaptive", repr(args.adaptive), "--runtime", args.runtime, "-o", glb])
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = args.fps
    scene.render.fps_base = 1.0
    bpy.ops.import_scene.gltf(filepath=glb)
    stats = {"fcurves": 0, "samples": 0, "skipped": 0, "failures": [], "largest": (0.0, ""), "worst_ratio": 0.0, "beyond_adaptive": 0, "properties": []}
    for obj, path, fcs in animated():
        check_property(args, project, obj, path, fcs, stats)
    print(f"Blender {bpy.app.version_string}: {source} exported with --adaptive {args.adaptive:g} --runtime {args.runtime}, imported at {args.fps} fps")
    for line in report.splitlines():
        print(f"  {line}")
    d, where = stats["largest"]
    print(
        f"  {stats['fcurves']} F-curves, {stats['samples']} samples ({stats['skipped']} at jumps skipped): largest difference {d:.3e} ({where}), {stats['worst_ratio']:.3f} of the allowed {args.within:g}"
    )
    if args.within != args.adaptive:
        print(f"  {stats['beyond_adaptive']} samples beyond the export's tolerance {args.adaptive:g}")
    for line in stats["properties"]:
        print(line)
    return stats


def main():
    args = parse_args()
    if args.within is None:
        args.within = args.adaptive
    failures, compared = [], 0
    with tempfile.TemporaryDirectory() as work:
        for source in args.sources:
            stats = check_source(args, source, work)
            failures += stats["failures"]
            compared += stats["samples"]
    if failures or compared == 0:
        for f in failures[:20]:
            print(f"  beyond: {f}")
        print(f"FAIL: {len(failures)} of {compared} samples beyond {args.within:g} (+float32)")
        tangent_io.script_exit(1)
    print(f"ok: {compared} samples within {args.within:g} (+float32)")
    tangent_io.script_exit(0)


try:
    main()
except SystemExit as e:
    tangent_io.script_exit(0 if e.code is None else e.code if isinstance(e.code, int) else 2)
except BaseException:  # noqa: BLE001 (any error fails the check, with its trace)
    import traceback

    traceback.print_exc()
    tangent_io.script_exit(1)
