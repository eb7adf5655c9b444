"""Blender's side of "export keeps every turn" (issue 29): imports a GLB that Tangent exported
from an Euler track and measures, frame by frame, how far the animated object turns.

    blender -b --factory-startup --python tools/blender/gltf_turns_check.py -- FILE.glb \
        [--object NAME] [--fps 30] [--sub 4] [--expect DEGREES]

The scene's frame rate is set to --fps before the import (Blender's glTF importer places keys
at time × fps). The object's world rotation (matrix_world.to_quaternion()) is read at every
frame and --sub points between frames (frame_set with subframes), and the angles between
consecutive orientations are summed: the accumulated turn. A 720° spin must give 720°, not
the 0° of a spin whose keys Blender would interpolate the short way. With --expect the script
exits 1 when the turn is not within 0.5° of it. Run by hand (docs/export.md quotes the
figures); .ci/run runs Blender only for the BVH take check (bvh_gltf_check.py).
"""

import argparse
import math
import sys

import bpy

# Blender 3.4's glTF add-on uses numpy.bool, which numpy 1.24 removed.
import numpy

numpy.bool = bool


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
    p = argparse.ArgumentParser(prog="gltf_turns_check.py")
    p.add_argument("glb")
    p.add_argument("--object", default=None, help="the animated object (default: the first with an action)")
    p.add_argument("--fps", type=int, default=30)
    p.add_argument("--sub", type=int, default=4, help="points per frame")
    p.add_argument("--expect", type=float, default=None)
    return p.parse_args(argv)


def angle_between(a, b):
    """The angle in degrees of the rotation taking a to b (either sign of b)."""
    d = a.rotation_difference(b)
    w = min(1.0, abs(d.w))
    v = math.sqrt(d.x * d.x + d.y * d.y + d.z * d.z)
    return math.degrees(2.0 * math.atan2(v, w))


def main():
    args = parse_args()
    scene = bpy.context.scene
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    scene.render.fps = args.fps
    scene.render.fps_base = 1.0
    bpy.ops.import_scene.gltf(filepath=args.glb)
    animated = [o for o in bpy.data.objects if o.animation_data and o.animation_data.action]
    if args.object:
        animated = [o for o in animated if o.name == args.object]
    if not animated:
        print(f"no animated object in {args.glb}")
        sys.exit(1)
    obj = animated[0]
    action = obj.animation_data.action
    first, last = (int(math.floor(action.frame_range[0])), int(math.ceil(action.frame_range[1])))
    curves = [f"{c.data_path}[{c.array_index}] {len(c.keyframe_points)} keys {c.keyframe_points[0].interpolation}" for c in action.fcurves]
    turned = 0.0
    widest = 0.0
    previous = None
    samples = 0
    for frame in range(first, last + 1):
        for k in range(args.sub if frame < last else 1):
            scene.frame_set(frame, subframe=k / args.sub)
            q = obj.matrix_world.to_quaternion()
            if previous is not None:
                step = angle_between(previous, q)
                turned += step
                widest = max(widest, step)
            previous = q.copy()
            samples += 1
    print(f"Blender {bpy.app.version_string}: {args.glb}: object {obj.name!r}, rotation mode {obj.rotation_mode}, frames {first}..{last} at {args.fps} fps")
    for c in curves:
        print(f"  fcurve {c}")
    print(f"accumulated turn {turned:.6f} degrees over {samples} samples ({args.sub} per frame; widest step {widest:.3f} degrees)")
    if args.expect is not None and abs(turned - args.expect) > 0.5:
        print(f"FAIL: expected {args.expect} degrees")
        sys.exit(1)


main()
