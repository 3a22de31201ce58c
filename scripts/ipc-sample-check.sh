#!/usr/bin/env sh
# Cross-checks the claims of an ipc-sample experiment: no two configurations
# that claim optimal costs (A* with an admissible heuristic, Dijkstra; Fast
# Downward's fd-astar-lmcut among them) disagree on a cost, no
# `unsolvable` where another configuration found a valid plan, no invalid
# plan. Run after
#
#   cargo run --release -- bench benches/suites/ipc-sample.toml --out ipc-sample/
#
#   scripts/ipc-sample-check.sh [RESULTS.jsonl]   (default ipc-sample/results.jsonl)
#
# Prints the summary (unsolved runs by cause, disagreements) and exits 1
# when the check fails, 2 on unreadable results.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RESULTS=${1:-ipc-sample/results.jsonl}
case $RESULTS in
    /*) ;;
    *) RESULTS=$PWD/$RESULTS ;;
esac
cd "$ROOT"
exec cargo run --quiet --release -p searchlab -- report "$RESULTS" --check
