"""A large BVH take for the import benchmark and the size measurement of issue 30: JOINTS
joints in a chain of branches (6 channels each: positions, then `Zrotation Xrotation
Yrotation`), FRAMES frames at 120 fps, smooth motion with a little noise, as a capture suite
writes it (six decimals). Default: 100 joints, 36,000 frames (5 minutes), about 200 MB.

Run: python3 tools/make_big_bvh.py OUT.bvh [JOINTS] [FRAMES]
"""
import math
import random
import sys

out = sys.argv[1]
joints = int(sys.argv[2]) if len(sys.argv) > 2 else 100
frames = int(sys.argv[3]) if len(sys.argv) > 3 else 36000
random.seed(30)

with open(out, "w") as f:
    f.write("HIERARCHY\n")
    # Joints in branches of 10: joint i's parent is i - 1 unless i starts a branch (then 0).
    depth = 0
    for i in range(joints):
        starts_branch = i > 0 and i % 10 == 1
        if starts_branch:
            # close the previous branch back to the root
            while depth > 1:
                depth -= 1
                f.write("\t" * depth + "}\n")
        kind = "ROOT" if i == 0 else "JOINT"
        ind = "\t" * depth
        f.write(f"{ind}{kind} joint{i:03d}\n{ind}{{\n")
        f.write(f"{ind}\tOFFSET {0.0 if i == 0 else 0.1:.6f} {1.0 if i == 0 else 0.2:.6f} 0.000000\n")
        f.write(f"{ind}\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n")
        depth += 1
    while depth > 0:
        depth -= 1
        f.write("\t" * depth + "}\n")
    f.write(f"MOTION\nFrames: {frames}\nFrame Time: 0.008333\n")
    phases = [random.uniform(0, 6.28) for _ in range(joints)]
    for n in range(frames):
        t = n / 120.0
        row = []
        for i in range(joints):
            p = phases[i]
            row.append(f"{0.1 * math.sin(t + p):.6f} {0.2 + 0.05 * math.cos(0.7 * t + p):.6f} {0.01 * random.random():.6f}")
            row.append(f"{30 * math.sin(1.3 * t + p):.6f} {20 * math.sin(0.9 * t + 2 * p):.6f} {(40 * t + p * 57) % 360 - 180:.6f}")
        f.write(" ".join(row) + "\n")
