#!/usr/bin/env bash
# Tangent and three.js r187 side by side on the same curves: runs the whole criterion
# evaluation benchmark (every mode in both orders, the binary-search baselines, sample_many),
# which also writes the tracks and query times as JSON, then times three.js' Bezier, Cubic,
# Linear and QuaternionLinear interpolants on them in Node (conformance/bench.mjs) and prints
# "case | Tangent ns | three.js ns | ratio" with the largest value difference per case, then
# every ratio issues 11 and 15 set a target for, all from this one run.
#
# Then it plays one clip both ways (issue 33): Tangent's clip player (examples/player_bench.rs,
# a release build) and three.js r187's AnimationMixer (conformance/player_bench.mjs), on the
# same 60 tracks × 2,000 keys, and prints these four lines, with the ratios, the data checksum
# both sides computed and how far their quaternions agree:
#   three mixer 60 tracks sequential: N ns/frame
#   three mixer 60 tracks random: N ns/frame
#   tangent player 60 tracks sequential: N ns/frame
#   tangent player 60 tracks random: N ns/frame
#
# usage: tools/bench_vs_three.sh [criterion options]   (default: --warm-up-time 1 --measurement-time 3)
#        BENCH_VS_THREE=player tools/bench_vs_three.sh  (the clip alone, without the criterion bench)
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
if [ "${BENCH_VS_THREE:-}" != player ]; then
    TANGENT_BENCH_TRACKS="$tracks" cargo bench --bench eval --quiet -- "${options[@]}" >&2
    node conformance/bench.mjs "$tracks" --criterion "$target/criterion"
    echo
fi

# Issue 33: the clip played by Tangent's player (its figures and values written to JSON),
# then by three.js' mixer, which checks the data and values and prints both sides' lines.
mkdir -p "$target/bench-tracks"
clip="$target/bench-tracks/player-clip.json"
cargo build --release --quiet --example player_bench
"$target/release/examples/player_bench" "$clip" >&2
node conformance/player_bench.mjs "$clip"
