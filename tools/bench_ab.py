#!/usr/bin/env python3
"""Back-to-back criterion runs of two builds of one bench, for ratios on a noisy machine.

Usage: python3 tools/bench_ab.py BASE_DIR BASE_BIN NEW_DIR NEW_BIN [FILTER] [ROUNDS]

Runs BASE_BIN (in BASE_DIR) then NEW_BIN (in NEW_DIR), ROUNDS times (default 2), each with a
CRITERION_HOME of its own, and prints each benchmark's median per run and the ratio
new/base of each round. Build the base in a work tree of the older commit:
  git worktree add /tmp/base COMMIT && (cd /tmp/base && cargo bench --no-run --bench NAME)
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

base_dir, base_bin, new_dir, new_bin = sys.argv[1:5]
filt = sys.argv[5] if len(sys.argv) > 5 else ""
rounds = int(sys.argv[6]) if len(sys.argv) > 6 else 2
medians = {}
with tempfile.TemporaryDirectory() as scratch:
    for r in range(rounds):
        for side, binary, cwd in (("base", base_bin, base_dir), ("new", new_bin, new_dir)):
            home = pathlib.Path(scratch) / f"{side}-{r}"
            env = dict(os.environ, CRITERION_HOME=str(home))
            args = [binary, "--bench"] + ([filt] if filt else [])
            subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            for est in home.rglob("new/estimates.json"):
                bench = str(est.parent.parent.relative_to(home))
                median = json.loads(est.read_text())["median"]["point_estimate"]
                medians.setdefault(bench, {}).setdefault(side, []).append(median)


def fmt(ns):
    return f"{ns / 1e6:.3f} ms" if ns > 1e5 else f"{ns / 1e3:.2f} µs" if ns > 1e3 else f"{ns:.1f} ns"


for bench in sorted(medians):
    b, n = medians[bench].get("base", []), medians[bench].get("new", [])
    if b and n:
        ratios = ", ".join(f"{y / x:.2f}" for x, y in zip(b, n))
        print(f"{bench}: base {', '.join(map(fmt, b))} | new {', '.join(map(fmt, n))} | new/base {ratios}")
