"""Motion-capture takes with known artefacts, for tests/problems.rs (issue 43), written by a
program that shares no code with Tangent:

    python3 tools/problem_takes.py tests/problems

writes, all with the same skeleton (10 joints, CMU-style channels: the root with
`Xposition Yposition Zposition Zrotation Xrotation Yrotation`, the others `Zrotation Xrotation
Yrotation`), 300 frames at Frame Time 0.0083333 (120 fps), smooth motion (per channel two sines
of at most 40 degrees at up to 0.9 Hz):

- clean.bvh: the motion alone;
- spiked.bvh: the same with two artefacts: LeftForeArm's X channel + 140 degrees at frames 100
  and 101 (a marker swap: out and back), and Hips' Y channel + 161 degrees from frame 200 to
  the end (a solver flip that lasts);
- wrap.bvh: clean.bvh with Spine's Z channel written wrapped into [-180, 180) after adding
  170 degrees (it crosses +-180 several times: a wrap, no jump);
- body31.bvh: a CMU-style skeleton of 31 joints (CMU's names and chains, offsets in inches),
  600 frames at 120 fps of smooth motion (per channel two sines of at most 25 degrees) with
  capture noise (uniform, up to 0.15 degrees per channel and 0.01 inches on the root's
  position, from a seeded generator), the root walking forward: the take `tangent reduce
  --body` is measured on.
"""

import math
import os
import random
import sys

NOISE = random.Random(43)

FRAMES = 300
FRAME_TIME = 0.0083333
JOINTS = [
    ("Hips", None, (0.0, 0.0, 0.0), None),
    ("LeftUpLeg", "Hips", (3.5, -2.0, 0.4), None),
    ("LeftLeg", "LeftUpLeg", (0.3, -16.5, 0.6), None),
    ("LeftFoot", "LeftLeg", (0.0, -15.8, -0.9), (0.2, -1.8, 5.5)),
    ("Spine", "Hips", (0.0, 4.2, -0.3), None),
    ("Neck", "Spine", (0.0, 14.0, 0.5), None),
    ("Head", "Neck", (0.0, 4.0, 0.8), (0.0, 4.5, 0.0)),
    ("LeftArm", "Spine", (6.0, 12.0, 0.0), None),
    ("LeftForeArm", "LeftArm", (10.0, 0.0, 0.0), None),
    ("LeftHand", "LeftForeArm", (9.0, 0.0, 0.0), (3.0, 0.0, 0.0)),
]


def channel(j, c, f, scale=1.0):
    """Degrees: two sines per channel, amplitudes and frequencies fixed by the indices."""
    t = f * FRAME_TIME
    a1 = scale * (10.0 + 7.0 * ((3 * j + c) % 5))
    a2 = scale * (5.0 + 3.0 * ((j + 2 * c) % 3))
    f1 = 0.2 + 0.1 * ((j + c) % 7)
    f2 = 0.3 + 0.05 * ((2 * j + c) % 5)
    return a1 * math.sin(2 * math.pi * f1 * t + j) + a2 * math.sin(2 * math.pi * f2 * t + 0.5 * c)


def frame_values(f, kind):
    out = []
    for j, (name, parent, _, _) in enumerate(JOINTS):
        rot = [channel(j, c, f, 0.5 if kind == "body31" else 1.0) for c in range(3)]  # Z, X, Y as listed
        if kind == "spiked" and name == "LeftForeArm" and f in (100, 101):
            rot[1] += 140.0
        if kind == "spiked" and name == "Hips" and f >= 200:
            rot[2] += 161.0
        if kind == "body31":
            rot = [x + NOISE.uniform(-0.15, 0.15) for x in rot]
        if kind == "wrap" and name == "Spine":
            rot[0] = (rot[0] + 170.0 + 180.0) % 360.0 - 180.0
        if parent is None:
            pos = [5.0 * math.sin(0.4 * f * FRAME_TIME), 38.0 + math.sin(f * FRAME_TIME), 20.0 * f * FRAME_TIME]
            if kind == "body31":
                pos = [x + NOISE.uniform(-0.01, 0.01) for x in pos]
            out += pos
        out += rot
    return out


def write(path, kind):
    with open(path, "w") as w:
        w.write("HIERARCHY\n")
        depth = 0
        stack = []
        for name, parent, offset, end in JOINTS:
            while stack and stack[-1] != parent:
                stack.pop()
                depth -= 1
                w.write("\t" * depth + "}\n")
            ind = "\t" * depth
            w.write(f"{ind}{'ROOT' if parent is None else 'JOINT'} {name}\n{ind}{{\n")
            w.write(f"{ind}\tOFFSET {offset[0]:.6f} {offset[1]:.6f} {offset[2]:.6f}\n")
            if parent is None:
                w.write(f"{ind}\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n")
            else:
                w.write(f"{ind}\tCHANNELS 3 Zrotation Xrotation Yrotation\n")
            if end is not None:
                w.write(f"{ind}\tEnd Site\n{ind}\t{{\n{ind}\t\tOFFSET {end[0]:.6f} {end[1]:.6f} {end[2]:.6f}\n{ind}\t}}\n")
            stack.append(name)
            depth += 1
        while depth > 0:
            depth -= 1
            w.write("\t" * depth + "}\n")
        w.write(f"MOTION\nFrames: {FRAMES}\nFrame Time: {FRAME_TIME}\n")
        for f in range(FRAMES):
            w.write(" ".join(f"{v:.6f}" for v in frame_values(f, kind)) + "\n")


CMU = [
    ("Hips", None, (0, 0, 0), None),
    ("LHipJoint", "Hips", (0, 0, 0), None),
    ("LeftUpLeg", "LHipJoint", (1.65, -1.80, 0.84), None),
    ("LeftLeg", "LeftUpLeg", (2.59, -7.11, 0), None),
    ("LeftFoot", "LeftLeg", (2.49, -6.84, 0), None),
    ("LeftToeBase", "LeftFoot", (0.16, -0.44, 2.18), (0, 0, 1.1)),
    ("RHipJoint", "Hips", (0, 0, 0), None),
    ("RightUpLeg", "RHipJoint", (-1.61, -1.80, 0.84), None),
    ("RightLeg", "RightUpLeg", (-2.59, -7.11, 0), None),
    ("RightFoot", "RightLeg", (-2.49, -6.84, 0), None),
    ("RightToeBase", "RightFoot", (-0.16, -0.44, 2.18), (0, 0, 1.1)),
    ("LowerBack", "Hips", (0, 0, 0), None),
    ("Spine", "LowerBack", (0.03, 2.06, -0.01), None),
    ("Spine1", "Spine", (0.05, 2.06, -0.01), None),
    ("Neck", "Spine1", (0, 0, 0), None),
    ("Neck1", "Neck", (-0.04, 1.76, 0.11), None),
    ("Head", "Neck1", (-0.04, 1.76, 0.11), (0, 3.0, 0)),
    ("LeftShoulder", "Spine1", (0, 0, 0), None),
    ("LeftArm", "LeftShoulder", (3.36, 1.20, 0), None),
    ("LeftForeArm", "LeftArm", (4.98, 0, 0), None),
    ("LeftHand", "LeftForeArm", (3.48, 0, 0), None),
    ("LeftFingerBase", "LeftHand", (0.72, 0, 0), None),
    ("LeftHandIndex1", "LeftFingerBase", (0.58, 0, 0), (0.5, 0, 0)),
    ("LThumb", "LeftHand", (0.41, 0, 0.41), (0.4, 0, 0.4)),
    ("RightShoulder", "Spine1", (0, 0, 0), None),
    ("RightArm", "RightShoulder", (-3.36, 1.20, 0), None),
    ("RightForeArm", "RightArm", (-4.98, 0, 0), None),
    ("RightHand", "RightForeArm", (-3.48, 0, 0), None),
    ("RightFingerBase", "RightHand", (-0.72, 0, 0), None),
    ("RightHandIndex1", "RightFingerBase", (-0.58, 0, 0), (-0.5, 0, 0)),
    ("RThumb", "RightHand", (-0.41, 0, 0.41), (-0.4, 0, 0.4)),
]


def write_body31(path):
    global JOINTS, FRAMES
    saved = (JOINTS, FRAMES)
    JOINTS, FRAMES = CMU, 600
    try:
        write(path, "body31")
    finally:
        JOINTS, FRAMES = saved


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for kind in ("clean", "spiked", "wrap"):
        write(os.path.join(out, f"{kind}.bvh"), kind)
    write_body31(os.path.join(out, "body31.bvh"))


main()
