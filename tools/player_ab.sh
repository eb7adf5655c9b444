#!/usr/bin/env bash
# Two or more builds of the clip player's benchmark (examples/player_bench) run in turn, N
# times each (default 8), each run with `--breakdown` at the 10th percentile of its rounds
# (PLAYER_BENCH_QUANTILE=0.1); prints, per build, the median and the least of its runs for the
# two halves of issue 33's clip (30 Vec3 Tcb, 30 Quat Slerp) and all 60 tracks, sequential.
# The halves fit in the caches and hardly move between runs on this shared machine; all 60
# moves with what the other machines do to the shared cache (docs/measured.md).
#
# usage: N=8 tools/player_ab.sh BUILD_A BUILD_B [...]
#   (copies of target/release/examples/player_bench made before and after a change)
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: N=8 $0 BUILD_A BUILD_B [...]" >&2; exit 2; }
out="$(mktemp)"
for _ in $(seq "${N:-8}"); do
    for build in "$@"; do
        PLAYER_BENCH_QUANTILE=0.1 "$build" "$out" --breakdown 2>&1 \
            | sed -nE 's/^(30 Vec3 Tcb|30 Quat Slerp|all 60): sequential ([0-9.]+).*/\1|\2/p' \
            | sed "s#^#$build|#"
    done
done | python3 -c '
import statistics, sys
runs = {}
for line in sys.stdin:
    build, part, ns = line.strip().split("|")
    runs.setdefault((part, build), []).append(float(ns))
for (part, build), ns in sorted(runs.items()):
    print(f"{part:14} {build}: median {statistics.median(ns):6.1f} ns, least {min(ns):6.1f} ns ({len(ns)} runs)")
'
rm -f "$out"
