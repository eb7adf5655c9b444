"""The BVH takes in tests/body/ (the forward-kinematics references; see tests/body/README.md).

    python3 tools/body_takes.py hand tests/body/hand_cmu.bvh

writes the hand-written CMU-style take: ROOT Hips with 6 channels (Xposition Yposition Zposition
Zrotation Xrotation Yrotation) and a nonzero OFFSET (which the position channels replace), legs
and spine-neck-head chains of 3-channel joints (Zrotation Xrotation Yrotation) and a right arm
branching from the Spine whose joints have Yrotation Xrotation Zrotation; 10 joints, 3 End Sites,
30 frames at Frame Time 0.0083333 (120 fps). The motion is a formula of the frame (no randomness):
every channel a sum of two sines of t = f / (Frames - 1) with amplitudes such that the largest
angles reach ±170° (each joint's first rotation channel is ±170° at frame 0 and ∓170° at frame
29, the middle one — the gimbal axis — sweeps through ±90° up to ±150°, the last reaches about
±120°); the root travels 50 units along Z.

    blender -b --factory-startup --python-exit-code 1 --python tools/body_takes.py -- \
        export IN.bvh ORDER OUT.bvh [--frames 120]

imports IN.bvh with Blender's BVH importer (identity axes: axis_forward='Y', axis_up='Z',
global_scale=1, rotate_mode='NATIVE', update_scene_fps=True so the scene's frame rate is the
take's; the importer's `open(path, 'rU')`, which Python 3.11 refuses, given 'r') and writes it
back with Blender's BVH exporter, bpy.ops.export_anim.bvh(rotate_mode=ORDER,
root_transform_only=False), frames 1 .. min(Frames, --frames) (BVH frame f is Blender frame 1 + f).
"""

import math
import sys

FRAMES = 30
FRAME_TIME = "0.0083333"

ZXY = "Zrotation Xrotation Yrotation"
YXZ = "Yrotation Xrotation Zrotation"

# name, parent, offset, rotation channels, End Site offset (or None)
JOINTS = [
    ("Hips", None, (1.0, 2.0, -0.5), ZXY, None),
    ("LeftUpLeg", "Hips", (3.5, -2.0, 0.4), ZXY, None),
    ("LeftLeg", "LeftUpLeg", (0.3, -16.5, 0.6), ZXY, None),
    ("LeftFoot", "LeftLeg", (0.0, -15.8, -0.9), ZXY, (0.2, -1.8, 5.5)),
    ("Spine", "Hips", (0.0, 4.2, -0.3), ZXY, None),
    ("Neck", "Spine", (0.1, 18.5, 0.4), ZXY, None),
    ("Head", "Neck", (0.0, 4.9, 1.1), ZXY, (0.0, 7.2, 0.3)),
    ("RightArm", "Spine", (-6.5, 16.0, -0.2), YXZ, None),
    ("RightForeArm", "RightArm", (-11.2, -0.4, 0.1), YXZ, None),
    ("RightHand", "RightForeArm", (-9.6, 0.2, 0.8), YXZ, (-4.1, 0.0, 0.5)),
]


def angle(i, k, t):
    """Joint i's k-th rotation channel (in its channel order) at t in [0, 1], degrees.
    k = 0: from ±170° to ∓170° (170 cos(π t + a wobble that vanishes at both ends));
    k = 1: the middle angle, sweeping through ±90° (up to ±150°);
    k = 2: a sum of two sines, up to about ±120°."""
    if k == 0:
        sign = 1 if i % 2 == 0 else -1
        return sign * 170.0 * math.cos(math.pi * t + 0.3 * math.sin(2 * math.pi * t * (1 + i % 3)))
    if k == 1:
        return 150.0 * math.sin(2 * math.pi * t + 0.4 * i) * (1 if i % 3 else -1)
    return 80.0 * math.sin(3 * math.pi * t + 0.9 * i) + 40.0 * math.cos(5 * math.pi * t + 0.3 * i)


def root_position(t):
    return (
        1.0 + 12.0 * math.sin(2 * math.pi * t),
        36.0 + 4.0 * math.sin(4 * math.pi * t + 0.5),
        -25.0 + 50.0 * t,
    )


def hand_take(path):
    out = ["HIERARCHY"]
    children = {}
    for j in JOINTS:
        children.setdefault(j[1], []).append(j)

    def node(j, depth):
        name, parent, offset, rot, end = j
        ind = "\t" * depth
        out.append(f"{ind}{'ROOT' if parent is None else 'JOINT'} {name}")
        out.append(f"{ind}{{")
        out.append(f"{ind}\tOFFSET {offset[0]:.5f} {offset[1]:.5f} {offset[2]:.5f}")
        if parent is None:
            out.append(f"{ind}\tCHANNELS 6 Xposition Yposition Zposition {rot}")
        else:
            out.append(f"{ind}\tCHANNELS 3 {rot}")
        for c in children.get(name, []):
            node(c, depth + 1)
        if end is not None:
            out.append(f"{ind}\tEnd Site")
            out.append(f"{ind}\t{{")
            out.append(f"{ind}\t\tOFFSET {end[0]:.5f} {end[1]:.5f} {end[2]:.5f}")
            out.append(f"{ind}\t}}")
        out.append(f"{ind}}}")

    node(JOINTS[0], 0)
    out += ["MOTION", f"Frames: {FRAMES}", f"Frame Time: {FRAME_TIME}"]
    order = []  # joints in file order (depth first), as the motion lines list them

    def walk(j):
        order.append(j)
        for c in children.get(j[0], []):
            walk(c)

    walk(JOINTS[0])
    index = {j[0]: i for i, j in enumerate(JOINTS)}
    for f in range(FRAMES):
        t = f / (FRAMES - 1)
        values = []
        for j in order:
            if j[1] is None:
                values += root_position(t)
            values += [angle(index[j[0]], k, t) for k in range(3)]
        out.append(" ".join(f"{v:.6f}" for v in values))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out) + "\n")
    print(f"{path}: {len(JOINTS)} joints, {FRAMES} frames")


def blender_export(argv):
    import argparse

    import bpy
    from io_anim_bvh import import_bvh

    p = argparse.ArgumentParser(prog="body_takes.py export")
    p.add_argument("bvh")
    p.add_argument("order", choices=["NATIVE", "XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"])
    p.add_argument("out")
    p.add_argument("--frames", type=int, default=120, help="at most this many frames, from the first")
    args = p.parse_args(argv)

    import builtins

    def open_without_u(file, mode="r", *rest, **named):
        return builtins.open(file, mode.replace("U", ""), *rest, **named)

    import_bvh.open = open_without_u

    frames = None
    with open(args.bvh, encoding="utf-8-sig") as f:
        for line in f:
            w = line.split()
            if len(w) == 2 and w[0].lower() == "frames:":
                frames = int(w[1])
                break
    if frames is None:
        sys.exit(f"{args.bvh}: no Frames:")

    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    bpy.ops.import_anim.bvh(
        filepath=args.bvh,
        axis_forward="Y",
        axis_up="Z",
        global_scale=1.0,
        rotate_mode="NATIVE",
        update_scene_fps=True,
    )
    arm = next(o for o in scene.objects if o.type == "ARMATURE")
    bpy.context.view_layer.objects.active = arm
    scene.frame_start = 1
    scene.frame_end = min(frames, args.frames)
    bpy.ops.export_anim.bvh(
        filepath=args.out,
        frame_start=scene.frame_start,
        frame_end=scene.frame_end,
        rotate_mode=args.order,
        root_transform_only=False,
    )
    print(
        f"Blender {bpy.app.version_string}: {args.bvh} -> {args.out} (rotate_mode {args.order}, "
        f"frames {scene.frame_start}..{scene.frame_end}, fps {scene.render.fps}/{scene.render.fps_base!r})"
    )


def main():
    argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else sys.argv[1:]
    if len(argv) == 2 and argv[0] == "hand":
        hand_take(argv[1])
    elif argv and argv[0] == "export":
        blender_export(argv[1:])
    else:
        sys.exit(__doc__)


main()
