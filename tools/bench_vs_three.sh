#!/usr/bin/env bash
# Tangent and three.js r187 side by side on the same curves: runs the whole criterion
# evaluation benchmark (every mode in both orders, the binary-search baselines, sample_many),
# which also writes the tracks and query times as JSON, then times three.js' Bezier, Cubic,
# Linear and QuaternionLinear interpolants on them in Node (conformance/bench.mjs) and prints
# "case | Tangent ns | three.js ns | ratio" with the largest value difference per case, then
# every ratio issues 11 and 15 set a target for, all from this one run.
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
TANGENT_BENCH_TRACKS="$tracks" cargo bench --bench eval --quiet -- "${options[@]}" >&2
node conformance/bench.mjs "$tracks" --criterion "$target/criterion"
