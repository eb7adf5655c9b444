#!/usr/bin/env bash
# README's test command: install what the tests need on a Debian/Ubuntu machine with apt-get
# (through sudo when not root, and only the packages that are missing), then run
# `cargo test` (engine, references, properties, CLI, UI) with any arguments given
# (`tools/test.sh --lib`, `tools/test.sh -- NAME`).
# The UI tests render with wgpu on Mesa's software drivers (no display needed); one test
# runs the real window under Xvfb. `.ci/run` calls this.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
    # wgpu's software rendering for egui_kittest snapshots: Vulkan (lavapipe) or GL (llvmpipe)
    mesa-vulkan-drivers libgl1-mesa-dri libegl1
    # run-time libraries winit and the window need (the same list README gives users)
    libxkbcommon-x11-0 libx11-xcb1 libxcursor1 libxi6 libfontconfig1
    # a virtual display, a window manager (keyboard focus) and xdotool: tests/window_recovery.rs
    # drives the real editor window with them
    xvfb xauth openbox xdotool
    # unshare and mount (util-linux): tests/save_errors.rs mounts a small tmpfs in a private
    # namespace for real disk-full and read-only errors
    util-linux mount
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "tools/test.sh: installing ${missing[*]} with apt-get" >&2
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
unset WGPU_BACKEND  # an empty value makes wgpu find no adapter

cargo test "$@"
