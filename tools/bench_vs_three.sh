#!/usr/bin/env bash
# Tangent and three.js r187 side by side on the same curves: runs the criterion evaluation
# benchmark for the matching cases (Bezier Vec3, Cubic Vec3, and Tcb Vec3 as the in-run
# baseline), which also writes the tracks and query times as JSON, then times three.js'
# BezierInterpolant and CubicInterpolant on them in Node (conformance/bench.mjs) and prints
# "case | Tangent ns | three.js ns | ratio" with the largest value difference per case.
#
# usage: tools/bench_vs_three.sh [criterion options]   (default: --warm-up-time 1 --measurement-time 3)
# Honors CARGO_TARGET_DIR. Don't run it while compiling: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
tracks="$target/bench-tracks/eval-vec3.json"
options=("$@")
[ ${#options[@]} -gt 0 ] || options=(--warm-up-time 1 --measurement-time 3)

if [ ! -d conformance/node_modules/three ]; then
    (cd conformance && npm install --no-audit --no-fund --loglevel=error)
fi
TANGENT_BENCH_TRACKS="$tracks" cargo bench --bench eval --quiet -- "${options[@]}" 'Bezier Vec3|Cubic Vec3|/Tcb Vec3' >&2
node conformance/bench.mjs "$tracks" --criterion "$target/criterion"
