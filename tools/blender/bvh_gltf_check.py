"""Blender's side of "a BVH take to glTF" (issue 30): the GLB Tangent exported from a BVH
must put every joint where Blender's own BVH importer puts it.

    blender -b --factory-startup --python tools/blender/bvh_gltf_check.py -- TAKE.bvh TAKE.glb \
        [--frames 10] [--tolerance 1e-4]

1. Imports the original TAKE.bvh with Blender's BVH importer (bpy.ops.import_anim.bvh, default
   options; its `open(path, 'rU')`, which Python 3.11 refuses, given 'r') and reads, at --frames frames spread over the take (the first and the last
   included), every joint's head in world space (the armature's matrix_world @ pose bone
   head) and, for a joint with an End Site, its bone's tail (where the importer puts the end
   site).
2. In a fresh scene (factory settings, empty) with the frame rate set to the take's (1 / Frame
   Time, rounded), imports TAKE.glb with Blender's glTF importer: a node per joint becomes an
   empty, `JOINT_end` the end site's. At the same instants (BVH frame f is Blender frame 1 + f
   after the BVH import, which starts at frame 1; glTF time f × Frame Time is frame
   f × Frame Time × fps after the glTF import, which puts keys at time × fps: reached with
   frame_set's subframe) it reads each node's world position.
3. Compares them: the largest distance must be within --tolerance × the skeleton's height (the
   largest extent of the BVH armature's rest pose, heads and tails). It prints the largest
   difference, where, and exits 1 when it is over (or when a joint is missing).

Axes: the BVH importer's defaults, axis_forward='-Z' and axis_up='Y' (passed explicitly here),
turn the file's Y-up coordinates into Blender's Z-up as (x, y, z) → (x, −z, y), which is what
the glTF importer does to glTF's Y-up (loc_gltf_to_blender), so both land in the same frame
and positions are compared as Blender shows them, with no conversion in this script.

.ci/run runs it on tests/import-samples/bvh/*.bvh exported with `tangent bake --format glb`.
"""

import argparse
import math
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import tangent_io  # noqa: E402  (arguments under blender and the bpy module)

# Blender 3.4's glTF add-on uses numpy.bool, which numpy 1.24 removed.
import numpy

if "bool" not in vars(numpy):  # (numpy 1.26 warns on a hasattr)
    numpy.bool = bool


def parse_args():
    argv = tangent_io.script_args()
    p = argparse.ArgumentParser(prog="bvh_gltf_check.py")
    p.add_argument("bvh")
    p.add_argument("glb")
    p.add_argument("--frames", type=int, default=10, help="frames compared, spread over the take")
    p.add_argument("--tolerance", type=float, default=1e-4, help="relative to the skeleton's height")
    return p.parse_args(argv)


def bvh_timing(path):
    """`Frames:` and `Frame Time:` of the file."""
    frames = frame_time = None
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            words = line.split()
            if len(words) == 2 and words[0].lower() == "frames:":
                frames = int(words[1])
            elif len(words) == 3 and words[0].lower() == "frame" and words[1].lower() == "time:":
                frame_time = float(words[2])
                break
    if frames is None or frame_time is None:
        sys.exit(f"{path}: no Frames: / Frame Time:")
    return frames, frame_time


def end_site_joints(path):
    """Names of the joints with an End Site."""
    names, stack, ends = [], [], set()
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if words[0] in ("ROOT", "JOINT"):
                names.append(" ".join(words[1:]))
                stack.append(names[-1])
            elif words[0] == "End":
                ends.add(stack[-1])
                stack.append(None)
            elif words[0] == "}":
                stack.pop()
            elif words[0] == "MOTION":
                break
    return ends


def bvh_importer_opens_files():
    """Blender 3.4's BVH importer opens the file with mode 'rU', which Python 3.11 (the
    distribution's Blender runs on the system Python) refuses; 'U' has meant nothing since
    Python 3.0, so the importer's `open` is given the mode without it. Nothing else changes."""
    import builtins

    from io_anim_bvh import import_bvh

    def open_without_u(file, mode="r", *rest, **named):
        return builtins.open(file, mode.replace("U", ""), *rest, **named)

    import_bvh.open = open_without_u


def empty_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    return bpy.context.scene


def main():
    args = parse_args()
    frames, frame_time = bvh_timing(args.bvh)
    ends = end_site_joints(args.bvh)
    count = min(args.frames, frames)
    chosen = sorted({round(i * (frames - 1) / max(count - 1, 1)) for i in range(count)})

    # 1. Blender's BVH importer.
    scene = empty_scene()
    bvh_importer_opens_files()
    bpy.ops.import_anim.bvh(filepath=args.bvh, axis_forward="-Z", axis_up="Y")
    arm = next(o for o in scene.objects if o.type == "ARMATURE")
    mw = arm.matrix_world.copy()
    rest = [mw @ b.head_local for b in arm.data.bones] + [mw @ b.tail_local for b in arm.data.bones if b.name in ends]
    height = max(max(p[c] for p in rest) - min(p[c] for p in rest) for c in range(3))
    truth = {}
    for f in chosen:
        scene.frame_set(1 + f)
        mw = arm.matrix_world
        for pb in arm.pose.bones:
            truth[(pb.name, f)] = (mw @ pb.head).copy()
            if pb.name in ends:
                truth[(pb.name + "_end", f)] = (mw @ pb.tail).copy()
    names = [pb.name for pb in arm.pose.bones] + [pb.name + "_end" for pb in arm.pose.bones if pb.name in ends]

    # 2. Blender's glTF importer, in a fresh scene at the take's frame rate.
    scene = empty_scene()
    fps = max(1, round(1.0 / frame_time))
    scene.render.fps = fps
    scene.render.fps_base = 1.0
    bpy.ops.import_scene.gltf(filepath=args.glb)
    objects = {o.name: o for o in scene.objects}
    missing = [n for n in names if n not in objects]
    if missing:
        print(f"FAIL: {args.glb}: no node for {missing}")
        sys.exit(1)

    # 3. Compare.
    worst, where, per_frame = 0.0, None, []
    for f in chosen:
        at = f * frame_time * fps
        whole = math.floor(at)
        scene.frame_set(whole, subframe=at - whole)
        frame_worst = 0.0
        for n in names:
            d = (objects[n].matrix_world.translation - truth[(n, f)]).length
            frame_worst = max(frame_worst, d)
            if d >= worst:
                worst, where = d, (n, f)
        per_frame.append(frame_worst)

    bound = args.tolerance * height
    print(f"Blender {bpy.app.version_string}: {args.bvh} (BVH importer) against {args.glb} (glTF importer)")
    print(f"  {len(names)} points ({len(names) - len(ends)} joint heads, {len(ends)} end sites) at {len(chosen)} frames {chosen}, {fps} fps")
    print(f"  largest difference per frame: {', '.join(f'{d:.2e}' for d in per_frame)}")
    print(
        f"largest difference {worst:.3e} ({worst / height:.3e} x height {height:.6g}) at {where[0]!r} frame {where[1]}; "
        f"allowed {bound:.3e} ({args.tolerance:g} x height)"
    )
    if not worst <= bound:
        print("FAIL")
        tangent_io.script_exit(1)
    print("OK")
    tangent_io.script_exit(0)


try:
    main()
except SystemExit as e:
    tangent_io.script_exit(0 if e.code is None else e.code if isinstance(e.code, int) else 1)
except BaseException:  # noqa: BLE001 (any error fails the check, with its trace)
    import traceback

    traceback.print_exc()
    tangent_io.script_exit(1)
