#!/usr/bin/env sh
# Creates a local Python virtual environment with the peer planners that the
# PDDL comparison runs beside searchlab: Fast Downward (compiled, shipped in
# the PyPI package up-fast-downward), pyperplan and ENHSP (the numeric
# planner, a Java jar shipped in the PyPI package up-enhsp). Not used by CI.
#
# ENHSP needs Java 17 or newer on the PATH (or in $JAVA_HOME, or linked as
# venv-dir/bin/java); on Debian and Ubuntu:
#   apt-get install openjdk-17-jre-headless
#
#   scripts/install-peers.sh [venv-dir]     (default: .peers, where the
#                                           suite looks first; or set
#                                           SEARCHLAB_PEERS=venv-dir)
#
# Then:
#   FD="$(venv-dir)/lib/python3*/site-packages/up_fast_downward/downward/fast-downward.py"
#   venv-dir/bin/python $FD --plan-file plan.txt domain.pddl problem.pddl --search "astar(blind())"
#   venv-dir/bin/pyperplan -s astar -H hmax domain.pddl problem.pddl
#   java -Xmx2048m -jar $(ENHSP jar) -o domain.pddl -f problem.pddl -planner opt-hrmax -sp plan.txt
set -eu
VENV="${1:-.peers}"
python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet up-fast-downward==1.0.0 pyperplan==2.1 up-enhsp==0.1.1
FD=$(ls "$VENV"/lib/python3*/site-packages/up_fast_downward/downward/fast-downward.py)
ENHSP=$(ls "$VENV"/lib/python3*/site-packages/up_enhsp/ENHSP/enhsp.jar)
echo "fast downward: $VENV/bin/python $FD"
echo "pyperplan:     $VENV/bin/pyperplan"
echo "enhsp:         java -jar $ENHSP"
if ! command -v java >/dev/null 2>&1 && [ ! -x "${JAVA_HOME:-/nonexistent}/bin/java" ]; then
    echo "warning: no java found; ENHSP needs Java 17 or newer (Debian: apt-get install openjdk-17-jre-headless)" >&2
fi
