#!/usr/bin/env bash
# Makes tests/reference/three_runtime/: the demo project exported by Tangent in each three.js
# JSON and glTF form, and the glTF and three.js samples of tests/import-samples, played by
# three.js r187 itself (conformance/three_runtime_reference.mjs). Run after `cargo build` and
# `npm ci` in conformance/; commit the JSON it writes.
set -euo pipefail
cd "$(dirname "$0")/.."
tangent=${TANGENT:-target/debug/tangent}
work=$(mktemp -d)
bake() { "$tangent" bake assets/demo.ron -o "$work/$1" "${@:2}" >/dev/null 2>&1; }
bake demo.json --format json
bake demo_adaptive.json --format json --adaptive 1e-4
bake demo_before_r187.json --format json --three-before-r187
bake demo.glb --format glb
bake demo_adaptive.glb --format glb --adaptive 1e-4
bake demo_blender.glb --format glb --adaptive 1e-3 --runtime blender
samples=tests/import-samples
out=$PWD/tests/reference/three_runtime
cd conformance
node three_runtime_reference.mjs "$out" \
  "demo_json=$work/demo.json" "demo_adaptive_json=$work/demo_adaptive.json" "demo_before_r187_json=$work/demo_before_r187.json" \
  "demo_glb=$work/demo.glb" "demo_adaptive_glb=$work/demo_adaptive.glb" "demo_blender_glb=$work/demo_blender.glb" \
  "three_all_interpolations=../$samples/three_all_interpolations.json" "character_clip=../$samples/character_clip.json" \
  "bezier_mover=../$samples/bezier_mover.glb" "mixed_interp=../$samples/mixed_interp.gltf"
