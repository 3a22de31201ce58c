#!/usr/bin/env sh
# ENHSP's reference costs on the first three tasks of each numeric domain
# (benchmarks/pddl-numeric): enhsp-opt-hrmax and enhsp-opt-blind (A*) and
# enhsp-sat-hmrp (greedy), one task at a time, 60 s and a 2 GiB heap each,
# with the command line searchlab's suites use. Writes
# benchmarks/pddl-numeric/enhsp-costs.tsv. Not used by CI.
#
#   scripts/enhsp-costs.sh [venv-dir] [output-dir]
#
# venv-dir: where scripts/install-peers.sh put ENHSP (default .peers);
# output-dir: ENHSP's output and plan per run (default target/enhsp-costs),
# a run whose output is there already is not run again. PLANNERS (default
# "opt-hrmax opt-blind sat-hmrp") picks ENHSP's presets to run; the table
# has every run found in output-dir.
set -eu
VENV="${1:-.peers}"
OUT="${2:-target/enhsp-costs}"
JAR=$(ls "$VENV"/lib/python3*/site-packages/up_enhsp/ENHSP/enhsp.jar)
VERSION="up-enhsp $("$VENV/bin/pip" show up-enhsp 2>/dev/null | sed -n 's/^Version: //p')"
TSV=benchmarks/pddl-numeric/enhsp-costs.tsv
DOMAINS="block-grouping counters drone farmland fo-counters rover sailing sugar tpp zenotravel"
ALL="opt-hrmax opt-blind sat-hmrp"
mkdir -p "$OUT"
for planner in ${PLANNERS:-$ALL}; do
    for d in $DOMAINS; do
        for i in 1 2 3; do
            tag="$planner.$d.$i"
            [ -f "$OUT/$tag.rc" ] && continue
            began=$(date +%s.%N)
            set +e
            timeout --kill-after=5 60 java -Xmx2048m -jar "$JAR" \
                -o "benchmarks/pddl-numeric/$d/domain.pddl" \
                -f "benchmarks/pddl-numeric/$d/instances/instance-$i.pddl" \
                -planner "$planner" -sp "$OUT/$tag.plan" >"$OUT/$tag.out" 2>&1
            echo $? >"$OUT/$tag.rc"
            set -e
            echo "$began $(date +%s.%N)" | awk '{ printf "%.3f\n", $2 - $1 }' >"$OUT/$tag.wall"
        done
    done
done

# One row per run: the outcome as searchlab's records name it, the metric's
# value at the plan's end (the plan's cost), ENHSP's own search time (Java's
# start-up, parsing and grounding excluded) and the process's wall time.
{
    printf 'domain\tinstance\tconfiguration\tenhsp_version\toutcome\tcost\tplan_length\texpanded\tsearch_time_s\tprocess_wall_s\n'
    for planner in $ALL; do
        for d in $DOMAINS; do
            for i in 1 2 3; do
                tag="$planner.$d.$i"
                [ -f "$OUT/$tag.rc" ] || continue
                awk -v d="$d" -v i="instance-$i" -v c="enhsp-$planner" -v v="$VERSION" \
                    -v rc="$(cat "$OUT/$tag.rc")" -v wall="$(cat "$OUT/$tag.wall")" '
                    /^Problem Solved/ { solved = 1 }
                    /^Problem unsolvable/ { unsolvable = 1 }
                    /Grammar is violated|Some Syntax Error|^Exception|^java\./ { failed = 1 }
                    /OutOfMemoryError/ { oom = 1 }
                    /^Metric \(Search\):/ { sub(/^Metric \(Search\):/, ""); cost = $0 + 0 }
                    /^Plan-Length:/ { sub(/^Plan-Length:/, ""); steps = $0 }
                    /^Search Time \(msec\):/ { sub(/^Search Time \(msec\): */, ""); time = $0 / 1000 }
                    /Expanded Nodes:/ { s = $0; sub(/.*Expanded Nodes: */, "", s); sub(/[^0-9].*/, "", s); expanded = s }
                    END {
                        if (rc == 124 || rc == 137) outcome = "limit: time"
                        else if (oom) outcome = "limit: memory"
                        else if (rc == 0 && solved && !failed) outcome = "solved"
                        else if (rc == 0 && unsolvable && !failed) outcome = "unsolvable"
                        else outcome = "error"
                        if (outcome != "solved") { cost = "-"; steps = "-" }
                        printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", d, i, c, v, outcome,
                            cost, steps, expanded == "" ? "-" : expanded,
                            time == "" ? "-" : time, wall
                    }' "$OUT/$tag.out"
            done
        done
    done
} >"$TSV"
echo "wrote $TSV"
