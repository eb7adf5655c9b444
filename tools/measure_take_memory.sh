#!/usr/bin/env bash
# The memory a 5-minute motion-capture take costs (issue 46): makes the take (100 joints, 6
# channels, 36,000 frames at 120 fps: 7.2 million keys) with tools/make_big_bvh.py unless
# TAKE names one, then
#   1. `tangent import take.bvh -o take.ron`: seconds and peak resident (/usr/bin/time);
#   2. the editor on take.ron under Xvfb with openbox: resident (VmRSS) and peak (VmHWM) from
#      /proc/PID/status 40 s after the start, and when the window first shows the take;
#   3. Ctrl+A, then Edit > Euler filter (Ctrl+Shift+F), then the autosave after the idle pause:
#      resident and peak 15 s later.
# Usage: tools/measure_take_memory.sh [BIN] (default target/release/tangent)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/release/tangent}"
work="$(mktemp -d)"
take="${TAKE:-$work/take.bvh}"
[ -f "$take" ] || python3 tools/make_big_bvh.py "$take"
echo "import: $(/usr/bin/time -f "%e s, peak %M kB" "$bin" import "$take" -o "$work/take.ron" 2>&1 >/dev/null | tail -1)"
display=":$((90 + RANDOM % 9))"
Xvfb "$display" -screen 0 1400x900x24 >/dev/null 2>&1 &
xvfb=$!
sleep 1
DISPLAY="$display" openbox >/dev/null 2>&1 &
wm=$!
export TANGENT_RECOVERY_DIR="$work/recovery"
start=$(date +%s.%N)
DISPLAY="$display" "$bin" "$work/take.ron" >/dev/null 2>&1 &
app=$!
trap 'kill $app $wm $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
mem() { awk '/VmRSS|VmHWM/ {printf "%s %.0f MB  ", $1, $2 / 1024}' "/proc/$app/status"; }
# The title names the file once the take is open.
for _ in $(seq 400); do
    w=$(DISPLAY="$display" xdotool search --pid $app 2>/dev/null | tail -1 || true)
    if [ -n "$w" ] && DISPLAY="$display" xdotool getwindowname "$w" 2>/dev/null | grep -q "take.ron"; then break; fi
    sleep 0.1
done
echo "open: title shows take.ron after $(echo "$(date +%s.%N) - $start" | bc | cut -c1-5) s; $(mem)"
sleep 40
echo "40 s after the start: $(mem)"
w=$(DISPLAY="$display" xdotool search --pid $app | tail -1)
DISPLAY="$display" xdotool mousemove 700 400
DISPLAY="$display" xdotool key --window "$w" ctrl+a
sleep 8
echo "8 s after Ctrl+A (every key selected): $(mem)"
DISPLAY="$display" xdotool key --window "$w" ctrl+shift+f
sleep 15
echo "15 s after Edit > Euler filter (autosave: $(du -sh "$TANGENT_RECOVERY_DIR" 2>/dev/null | cut -f1)): $(mem)"
[ -n "${SHOT:-}" ] && DISPLAY="$display" import -window root "$SHOT"
true
