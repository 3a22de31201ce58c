#!/usr/bin/env sh
# Grounding beside Fast Downward's translator, task by task: the
# translator's wall time and peak memory (from its log) against searchlab's
# parse and ground time and the peak resident memory of a `searchlab plan`
# that stops before its first expansion. Prints a Markdown table; each task
# is run once (run it again to see the spread).
#
#   scripts/grounding-check.sh [DIR/TASK.pddl ...]
#
# Default tasks: the first three of rubiks-cube, settlers and flashfill in
# benchmarks/ipc-sample (a task's domain is DIR/domain-TASK.pddl where there
# is one, else DIR/domain.pddl). Needs a release build
# (`cargo build --release -p searchlab`) and Fast Downward in .peers
# (`scripts/install-peers.sh`); SEARCHLAB and PEERS override where they are.
set -eu
cd "$(dirname "$0")/.."
SEARCHLAB="${SEARCHLAB:-./target/release/searchlab}"
PEERS=$(cd "${PEERS:-.peers}" && pwd)
FD=$(ls "$PEERS"/lib/python3*/site-packages/up_fast_downward/downward/fast-downward.py)
if [ $# -eq 0 ]; then
    set --
    for domain in rubiks-cube-sat23-adl settlers-opt18-adl flashfill-sat18-adl; do
        for task in p01 p02 p03; do
            set -- "$@" "benchmarks/ipc-sample/$domain/$task.pddl"
        done
    done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| task | FD translator | FD peak | searchlab parse + ground | searchlab peak (whole process) | time ratio |"
echo "|---|---:|---:|---:|---:|---:|"
for problem in "$@"; do
    dir=$(dirname "$problem")
    task=$(basename "$problem" .pddl)
    domain="$dir/domain-$task.pddl"
    [ -f "$domain" ] || domain="$dir/domain.pddl"
    log="$work/fd.log"
    (cd "$work" && "$PEERS/bin/python" "$FD" --translate "$OLDPWD/$domain" "$OLDPWD/$problem" >"$log" 2>&1) || true
    fd_time=$(sed -n 's/^Done! \[.*s CPU, \([0-9.]*\)s wall-clock\]/\1/p' "$log")
    fd_peak=$(sed -n 's/^Translator peak memory: \([0-9]*\) KB/\1/p' "$log")
    out="$work/searchlab.txt"
    /usr/bin/time -f "peak %M" "$SEARCHLAB" plan "$domain" "$problem" --max-expansions 0 \
        --max-memory-mb 2048 >"$out" 2>&1 || true
    ground=$(sed -n 's/^; parse + ground time *//p' "$out")
    peak=$(sed -n 's/^peak //p' "$out")
    ratio=$(python3 -c "
import re, sys
fd, ours = '${fd_time:-}', '$ground'
m = re.match(r'([0-9.]+)(ms|µs|s)', ours)
if not fd or not m:
    print('-'); sys.exit()
scale = {'s': 1, 'ms': 1e-3, 'µs': 1e-6}[m.group(2)]
print(f'{float(fd) / (float(m.group(1)) * scale):.0f}x')")
    echo "| ${dir##*/} $task | ${fd_time:-failed} s | ${fd_peak:--} KB | ${ground:-failed} | ${peak:--} KB | $ratio |"
done
