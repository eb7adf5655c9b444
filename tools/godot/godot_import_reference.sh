#!/usr/bin/env bash
# Makes tests/reference/godot_gltf_import/: GLB and glTF files imported by Godot 3.2.3 (the
# distribution's godot3-server, headless) and played: for each file the channels it holds
# (gltf_channels.py) and every track of the imported animation at 601 times (sample_import.gd),
# imported with Godot's defaults except the lossy animation optimizer, which is turned off
# (`<name>.json`); the demo's adaptive export is also sampled with the optimizer on
# (`<name>_optimized.json`). Run after `cargo build`; commit the JSON it writes. With
# GODOT_REFERENCE_OUT=DIR it writes there instead (.ci/run: Godot itself, then the test on
# what it wrote: TANGENT_GODOT_REFERENCE=DIR).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
tangent=${TANGENT:-target/debug/tangent}
out=${GODOT_REFERENCE_OUT:-$root/tests/reference/godot_gltf_import}
mkdir -p "$out"
proj=$(mktemp -d)
printf 'config_version=4\n\n[application]\nconfig/name="tangent reference"\n' > "$proj/project.godot"
cp tools/godot/sample_import.gd "$proj/"
bake() { "$tangent" bake assets/demo.ron -o "$proj/$1" "${@:2}" >/dev/null 2>&1; }
bake demo.glb --format glb
bake demo_adaptive.glb --format glb --adaptive 1e-4
bake demo_linear.glb --format glb --adaptive 1e-3 --adaptive-linear
cp tests/import-samples/bezier_mover.glb tests/import-samples/mixed_interp.gltf "$proj/"
names="demo demo_adaptive demo_linear bezier_mover mixed_interp"
godot() { timeout 300 godot3-server --path "$proj" "$@" >>"$proj/godot.log" 2>&1; }
file_of() { if [ "$1" = mixed_interp ]; then echo "$1.gltf"; else echo "$1.glb"; fi; }
# The first start writes each file's .import settings, the second imports with them.
godot --editor --quit
godot --editor --quit
sample() { # NAME SUFFIX
  local f; f=$(file_of "$1")
  godot -s sample_import.gd "$f" "$proj/$1$2.godot.json"
  python3 tools/godot/gltf_channels.py "$proj/$f" > "$proj/$1.channels.json"
  python3 - "$proj/$1$2.godot.json" "$proj/$1.channels.json" "$out/$1$2.json" <<'PY'
import json, sys
played = json.load(open(sys.argv[1]))
played["channels"] = json.load(open(sys.argv[2]))
json.dump(played, open(sys.argv[3], "w"))
PY
  echo "$1$2: $(python3 -c "import json,sys; d=json.load(open('$out/$1$2.json')); print(len(d['channels']), 'channels,', len(d['tracks']), 'Godot tracks')")"
}
sample demo_adaptive _optimized
# The optimizer off, and everything imported again.
for n in $names; do sed -i 's#^animation/optimizer/enabled=true#animation/optimizer/enabled=false#' "$proj/$(file_of "$n").import"; done
rm -rf "$proj/.import"
godot --editor --quit
for n in $names; do sample "$n" ""; done
