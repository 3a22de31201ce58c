#!/usr/bin/env sh
# Creates a local Python virtual environment with the peer planners that the
# PDDL comparison runs beside searchlab: Fast Downward (compiled, shipped in
# the PyPI package up-fast-downward) and pyperplan. Not used by CI.
#
#   scripts/install-peers.sh [venv-dir]     (default: .peers, where the
#                                           suite looks first; or set
#                                           SEARCHLAB_PEERS=venv-dir)
#
# Then:
#   FD="$(venv-dir)/lib/python3*/site-packages/up_fast_downward/downward/fast-downward.py"
#   venv-dir/bin/python $FD --plan-file plan.txt domain.pddl problem.pddl --search "astar(blind())"
#   venv-dir/bin/pyperplan -s astar -H hmax domain.pddl problem.pddl
set -eu
VENV="${1:-.peers}"
python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet up-fast-downward==1.0.0 pyperplan==2.1
FD=$(ls "$VENV"/lib/python3*/site-packages/up_fast_downward/downward/fast-downward.py)
echo "fast downward: $VENV/bin/python $FD"
echo "pyperplan:     $VENV/bin/pyperplan"
