#!/usr/bin/env bash
# The CPU one pointer move costs the real editor window (issue 33): opens target/release/tangent
# on FILE (or the demo) under Xvfb with openbox, waits until it is idle, then moves the pointer
# across the graph in 20 steps (20 ms apart) and reports the process's CPU time (user + system,
# /proc/PID/stat) from the first step until 1 s after the last, and the frames it drew
# (TANGENT_FRAME_LOG). Usage: tools/measure_pointer_move.sh [FILE] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
file="${1:-}"
rounds="${2:-5}"
display=":$((90 + RANDOM % 9))"
work="$(mktemp -d)"
Xvfb "$display" -screen 0 1400x900x24 >/dev/null 2>&1 &
xvfb=$!
sleep 1
DISPLAY="$display" openbox >/dev/null 2>&1 &
wm=$!
rm -rf "${XDG_STATE_HOME:-$HOME/.local/state}/tangent/recovery/"* 2>/dev/null || true
DISPLAY="$display" TANGENT_FRAME_LOG="$work/frames.log" target/release/tangent $file >/dev/null 2>&1 &
app=$!
trap 'kill $app $wm $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
cpu() { awk '{print $14 + $15}' "/proc/$app/stat"; }
tick=$(getconf CLK_TCK)
# Idle: no CPU for a second.
for _ in $(seq 60); do
    a=$(cpu); sleep 1; b=$(cpu)
    [ "$a" = "$b" ] && break
done
# Keys to press first (PRE_KEYS="g n"), e.g. to hide the speed graph while measuring.
for key in ${PRE_KEYS:-}; do
    DISPLAY="$display" xdotool mousemove 700 400
    DISPLAY="$display" xdotool key --window "$(DISPLAY="$display" xdotool search --pid $app | tail -1)" "$key"
    sleep 1
done
threads() { for t in /proc/$app/task/*; do echo "$(cat "$t/comm") $(awk '{print $14 + $15}' "$t/stat")"; done | sort; }
threads >"$work/threads.before"
total=0
for r in $(seq "$rounds"); do
    DISPLAY="$display" xdotool mousemove 500 300
    sleep 1.5
    lines_before=$(wc -l <"$work/frames.log")
    a=$(cpu)
    for s in $(seq 20); do
        DISPLAY="$display" xdotool mousemove $((500 + 15 * s)) $((300 + 5 * s))
        sleep 0.02
    done
    sleep 1
    b=$(cpu)
    frames=$(( $(wc -l <"$work/frames.log") - lines_before ))
    ms=$(( (b - a) * 1000 / tick ))
    total=$((total + ms))
    echo "round $r: ${ms} ms CPU, ${frames} frames"
done
echo "mean: $((total / rounds)) ms CPU per move (${file:-demo})"
threads >"$work/threads.after"
# Where the CPU went, by thread name (llvmpipe-N: Mesa's software rasterizer).
paste "$work/threads.before" "$work/threads.after" | awk -v tick="$tick" -v n="$rounds" '{d[$1] += $4 - $2} END {for (k in d) if (d[k] > 0) printf "  thread %s: %d ms per move\n", k, d[k] * 1000 / tick / n}' | sort
tail -n 30 "$work/frames.log" >"/tmp/last_frames_$(basename "${file:-demo}").log"
