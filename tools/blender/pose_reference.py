"""Blender 3.4's BVH importer as the reference for forward kinematics: where it puts every joint
of a take, at every frame. Writes the references in tests/body/ (see tests/body/README.md).

    blender -b --factory-startup --python-exit-code 1 \
        --python tools/blender/pose_reference.py -- TAKE.bvh OUT.txt [--tolerance 1e-5]

1. Imports TAKE.bvh into an empty scene with Blender's BVH importer, bpy.ops.import_anim.bvh,
   with identity axes (axis_forward='Y', axis_up='Z', so the armature's matrix_world is the
   identity and positions are the file's own coordinates), global_scale=1, rotate_mode='NATIVE'
   (each pose bone's Euler order the file's channel order), the other options left at their
   defaults (use_fps_scale off: BVH frame f is Blender frame 1 + f). Its `open(path, 'rU')`,
   which Python 3.11 refuses, is given 'r' (as in bvh_gltf_check.py).
2. Checks the rest pose against the file: every bone's head (armature matrix_world @
   bone.head_local) must be the sum of the OFFSETs from the root, and for a joint with an End
   Site its tail must be head + the End Site's OFFSET. The importer lengthens a bone whose tail
   would be within 0.001 of its head by 0.1 along +Y (a zero End Site OFFSET, a childless joint
   without End Site, or children whose heads average to the head), so its tail would no longer be
   the end site: the script then stops with an error (exit 1) instead of writing it.
3. For every frame f = 0 .. Frames-1 of the take (scene.frame_set(1 + f)) writes, for each joint
   in the file's ROOT/JOINT order, a line

       f NAME X Y Z

   with the pose bone's head in world space (armature matrix_world @ pose_bone.head), and right
   after a joint with an End Site a line `f NAME_end X Y Z` with the bone's tail (where the
   importer puts the end site). Numbers are repr() of the values Blender computed (float32,
   widened to Python floats). The first line is a comment:

       # Blender 3.4.1 BVH importer, axis_forward=Y axis_up=Z scale 1, FRAMES frames, frame time FT

   NAME is the importer's bone name: a joint name with spaces has them joined by '_'.
   BVH frame f is at time f × Frame Time.
4. As a check of the conventions (not of Blender), recomputes every point in double precision
   from the file alone (textbook BVH FK: a joint with position channels is placed at those
   values in its parent's frame, missing ones 0, instead of at its OFFSET; the rotation is the
   product of the per-axis rotations in channel order, R = R1·R2·R3 on column vectors; the end
   site at head + R_world·OFFSET) and prints the largest difference from Blender's; over
   --tolerance × the skeleton's height (largest extent of the rest pose, heads and end sites),
   exits 1 (after writing OUT.txt).
"""

import argparse
import math
import sys

import bpy


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
    p = argparse.ArgumentParser(prog="pose_reference.py")
    p.add_argument("bvh")
    p.add_argument("out")
    p.add_argument("--tolerance", type=float, default=1e-5, help="relative to the skeleton's height")
    return p.parse_args(argv)


class Joint:
    def __init__(self, name, parent, offset):
        self.name = name
        self.parent = parent
        self.offset = offset
        self.channels = []  # (kind, axis) per channel: kind "position"/"rotation", axis 0..2
        self.first = 0  # index of its first channel in a motion line
        self.end = None  # End Site OFFSET


def read_bvh(path):
    """Joints in file order (ROOT/JOINT, names joined by '_' as Blender's importer does), their
    OFFSETs, channels and End Sites; Frames, Frame Time and the motion lines."""
    with open(path, encoding="utf-8-sig") as f:
        lines = [l.split() for l in f.read().replace("\r", "\n").split("\n")]
    lines = [l for l in lines if l]
    joints, stack, i, count = [], [], 0, 0
    while i < len(lines):
        w = lines[i]
        key = w[0].lower()
        if key in ("root", "joint"):
            name = "_".join(w[1:])
            parent = stack[-1] if stack else None
            off = lines[i + 2]
            assert off[0].lower() == "offset", (path, off)
            j = Joint(name, parent, tuple(float(x) for x in off[1:4]))
            ch = lines[i + 3]
            assert ch[0].lower() == "channels", (path, ch)
            j.first = count
            for c in ch[2 : 2 + int(ch[1])]:
                c = c.lower()
                j.channels.append((c[1:], "xyz".index(c[0])))
            count += len(j.channels)
            joints.append(j)
            stack.append(j)
            i += 4
            continue
        if key == "end":
            off = lines[i + 2]
            stack[-1].end = tuple(float(x) for x in off[1:4])
            stack.append(None)
            i += 3
            continue
        if key == "}":
            stack.pop()
        elif key == "motion":
            frames = int(lines[i + 1][1])
            frame_time = float(lines[i + 2][2])
            motion = [[float(x) for x in l] for l in lines[i + 3 :]]
            if len(motion) != frames:
                sys.exit(f"{path}: Frames: {frames} but {len(motion)} motion lines")
            if any(len(m) != count for m in motion):
                sys.exit(f"{path}: a motion line without {count} values")
            return joints, frames, frame_time, motion
        i += 1
    sys.exit(f"{path}: no MOTION")


def mat_mul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(3)) for c in range(3)] for r in range(3)]


def mat_vec(a, v):
    return tuple(sum(a[r][k] * v[k] for k in range(3)) for r in range(3))


def axis_rotation(axis, degrees):
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    if axis == 0:
        return [[1, 0, 0], [0, c, -s], [0, s, c]]
    if axis == 1:
        return [[c, 0, s], [0, 1, 0], [-s, 0, c]]
    return [[c, -s, 0], [s, c, 0], [0, 0, 1]]


def textbook_fk(joints, values):
    """{name: head, name_end: end site} of one motion line, in double precision."""
    world, out = {}, {}
    for j in joints:
        pos = [0.0, 0.0, 0.0]
        rot = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
        has_pos = False
        for k, (kind, axis) in enumerate(j.channels):
            v = values[j.first + k]
            if kind == "position":
                pos[axis] = v
                has_pos = True
            elif kind == "rotation":
                rot = mat_mul(rot, axis_rotation(axis, v))
        local = tuple(pos) if has_pos else j.offset
        if j.parent is None:
            head, r = local, rot
        else:
            ph, pr = world[j.parent.name]
            head = tuple(a + b for a, b in zip(ph, mat_vec(pr, local)))
            r = mat_mul(pr, rot)
        world[j.name] = (head, r)
        out[j.name] = head
        if j.end is not None:
            out[j.name + "_end"] = tuple(a + b for a, b in zip(head, mat_vec(r, j.end)))
    return out


def bvh_importer_opens_files():
    """Blender 3.4's BVH importer opens the file with mode 'rU', which Python 3.11 (the
    distribution's Blender runs on the system Python) refuses; 'U' has meant nothing since
    Python 3.0, so the importer's `open` is given the mode without it. Nothing else changes."""
    import builtins

    from io_anim_bvh import import_bvh

    def open_without_u(file, mode="r", *rest, **named):
        return builtins.open(file, mode.replace("U", ""), *rest, **named)

    import_bvh.open = open_without_u


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def main():
    args = parse_args()
    joints, frames, frame_time, motion = read_bvh(args.bvh)

    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    bvh_importer_opens_files()
    bpy.ops.import_anim.bvh(
        filepath=args.bvh, axis_forward="Y", axis_up="Z", global_scale=1.0, rotate_mode="NATIVE"
    )
    arm = next(o for o in scene.objects if o.type == "ARMATURE")
    bones = arm.data.bones
    missing = [j.name for j in joints if j.name not in bones]
    if missing:
        sys.exit(f"{args.bvh}: no bone for {missing}")
    if len(bones) != len(joints):
        sys.exit(f"{args.bvh}: {len(bones)} bones for {len(joints)} joints")

    # 2. The rest pose against the file's offsets.
    rest, mw = {}, arm.matrix_world
    for j in joints:
        ph = rest[j.parent.name] if j.parent else (0.0, 0.0, 0.0)
        rest[j.name] = tuple(a + b for a, b in zip(ph, j.offset))
        if j.end is not None:
            rest[j.name + "_end"] = tuple(a + b for a, b in zip(rest[j.name], j.end))
    height = max(max(p[c] for p in rest.values()) - min(p[c] for p in rest.values()) for c in range(3))
    bound = args.tolerance * height
    worst_rest = (0.0, None)
    for j in joints:
        b = bones[j.name]
        points = [(j.name, mw @ b.head_local)]
        if j.end is not None:
            points.append((j.name + "_end", mw @ b.tail_local))
        for name, p in points:
            d = dist(p, rest[name])
            worst_rest = max(worst_rest, (d, name), key=lambda t: t[0])
            if not d <= bound:
                what = "tail" if name.endswith("_end") else "head"
                sys.exit(
                    f"FAIL: {args.bvh}: at rest, bone {j.name!r}'s {what} is {tuple(p)}, the file's offsets "
                    f"give {rest[name]} ({d:.3e} apart; the importer moves the tail of a bone shorter "
                    f"than 0.001 by 0.1 along +Y)"
                )

    # 3. Every frame.
    out = [
        f"# Blender {bpy.app.version_string} BVH importer, axis_forward=Y axis_up=Z scale 1, "
        f"{frames} frames, frame time {frame_time!r}"
    ]
    worst = (0.0, None, None)
    for f in range(frames):
        scene.frame_set(1 + f)
        mw = arm.matrix_world
        fk = textbook_fk(joints, motion[f])
        for j in joints:
            pb = arm.pose.bones[j.name]
            points = [(j.name, mw @ pb.head)]
            if j.end is not None:
                points.append((j.name + "_end", mw @ pb.tail))
            for name, p in points:
                out.append(f"{f} {name} {p[0]!r} {p[1]!r} {p[2]!r}")
                d = dist(p, fk[name])
                if d >= worst[0]:
                    worst = (d, name, f)
    with open(args.out, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join(out) + "\n")

    ends = sum(j.end is not None for j in joints)
    print(f"Blender {bpy.app.version_string}: {args.bvh} -> {args.out}")
    print(f"  {frames} frames, frame time {frame_time!r}; {len(joints)} joints, {ends} end sites; height {height:.6g}")
    print(f"  rest pose against the file's offsets: largest difference {worst_rest[0]:.3e} ({worst_rest[1]})")
    print(
        f"  against textbook FK in double precision: largest difference {worst[0]:.3e} "
        f"({worst[0] / height:.3e} x height) at {worst[1]!r} frame {worst[2]}; allowed {bound:.3e}"
    )
    if not worst[0] <= bound:
        print("FAIL")
        sys.exit(1)
    print("OK")


main()
