#!/usr/bin/env bash
# Runs a small suite as a Slurm array job on a one-node cluster started on
# this machine, and checks that the merged results are those of a local run
# (all but the times). Not used by CI.
#
#   scripts/slurm-smoke.sh [work-dir]     (as root, on Debian or Ubuntu;
#                                          default /tmp/searchlab-slurm-smoke)
#
# It installs slurm-wlm and munge with apt-get if they are missing, creates
# a munge key if there is none, starts munged (unless it runs), slurmctld
# and slurmd in the background with a slurm.conf of its own (SLURM_CONF, in
# work-dir: nothing under /etc/slurm is touched), builds searchlab (release),
# submits benches/suites/slurm-smoke.toml with
#   searchlab bench SUITE --slurm work-dir/job --shards 4 --submit
# waits for the array and the merge, runs the suite locally, compares, and
# stops the daemons it started. Prints PASS or FAIL (exit code 0 or 1).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-/tmp/searchlab-slurm-smoke}
SUITE="$ROOT/benches/suites/slurm-smoke.toml"
SHARDS=4
TIMEOUT=${SLURM_SMOKE_TIMEOUT:-900}

say() { printf '== %s\n' "$*"; }
fail() {
    printf 'FAIL: %s\n' "$*"
    exit 1
}

[ "$(id -u)" = 0 ] || fail "run as root: it installs packages and starts daemons"

say "packages"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge
fi
slurmctld -V

STARTED=()
cleanup() {
    for pid in "${STARTED[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT

say "munge"
install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
install -d -o munge -g munge -m 0755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    runuser -u munge -- munged
    sleep 1
    STARTED+=("$(cat /run/munge/munged.pid)")
fi
munge -n </dev/null | unmunge >/dev/null || fail "munge does not work"

say "slurm (one node: $(hostname -s))"
CONF_DIR="$WORK/slurm"
# Daemons of an earlier run of this script, by their pid files.
for pidfile in "$CONF_DIR"/slurmctld.pid "$CONF_DIR"/slurmd.pid; do
    if [ -s "$pidfile" ]; then
        kill "$(cat "$pidfile")" 2>/dev/null || true
    fi
done
sleep 1
rm -rf "$CONF_DIR" "$WORK/job" "$WORK/local"
mkdir -p "$CONF_DIR/state" "$CONF_DIR/spool"
HOST=$(hostname -s)
# This machine as slurmd sees it (CPUs, sockets, memory), on localhost.
NODE=$(slurmd -C | head -n 1)
export SLURM_CONF="$CONF_DIR/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=searchlab-smoke
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$CONF_DIR/state
SlurmdSpoolDir=$CONF_DIR/spool
SlurmctldPidFile=$CONF_DIR/slurmctld.pid
SlurmdPidFile=$CONF_DIR/slurmd.pid
SlurmctldLogFile=$CONF_DIR/slurmctld.log
SlurmdLogFile=$CONF_DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
$NODE NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=smoke Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D >"$CONF_DIR/slurmctld.out" 2>&1 &
STARTED+=("$!")
slurmd -D >"$CONF_DIR/slurmd.out" 2>&1 &
STARTED+=("$!")
for _ in $(seq 60); do
    state=$(sinfo -h -N -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 1
done
if [ "$state" != idle ]; then
    tail -n 20 "$CONF_DIR"/slurmctld.log "$CONF_DIR"/slurmd.log "$CONF_DIR"/*.out || true
    fail "the node is not idle after a minute (sinfo: '${state:-no answer}')"
fi
sinfo

say "searchlab (release)"
(cd "$ROOT" && cargo build --release -q -p searchlab)
SEARCHLAB="$ROOT/target/release/searchlab"

say "the suite as a $SHARDS-task array job"
JOB="$WORK/job"
began=$(date +%s)
submitted=$("$SEARCHLAB" bench "$SUITE" --slurm "$JOB" --shards "$SHARDS" \
    --partition smoke --slurm-time 10 --submit)
echo "$submitted"
ids=$(echo "$submitted" | sed -n 's/^submitted array job \([0-9]*\) .* merge job \([0-9]*\):.*/\1,\2/p')
[ -n "$ids" ] || fail "no job ids in searchlab's output"
while [ -n "$(squeue -h -j "$ids" 2>/dev/null)" ]; do
    if [ $(($(date +%s) - began)) -gt "$TIMEOUT" ]; then
        squeue
        fail "the jobs still run after $TIMEOUT s"
    fi
    sleep 2
done
took=$(($(date +%s) - began))
for id in ${ids/,/ }; do
    echo "job $id: $(scontrol show job "$id" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | xargs)"
done
if [ ! -s "$JOB/results.jsonl" ]; then
    tail -n 20 "$JOB"/logs/* "$CONF_DIR"/slurmctld.log || true
    fail "no merged results in $JOB/results.jsonl"
fi
cat "$JOB/logs/merge.out"

say "the suite locally"
"$SEARCHLAB" bench "$SUITE" --no-progress --out "$WORK/local" | grep " runs, .* solved"

say "compare (all but the times)"
fields='[.run, .domain, .problem, .config, .outcome, .limit, .cost, .plan_length, .expanded, .generated, .evaluated, .reopened, .validated]'
jq -c "$fields" "$JOB/results.jsonl" >"$WORK/merged.txt"
jq -c "$fields" "$WORK/local/results.jsonl" >"$WORK/local.txt"
runs=$(wc -l <"$WORK/local.txt")
shard_runs=$(cat "$JOB"/shard-*/results-*-of-"$SHARDS".jsonl | wc -l)
if ! diff -u "$WORK/local.txt" "$WORK/merged.txt"; then
    fail "the merged results differ from the local run's"
fi
[ "$shard_runs" = "$runs" ] || fail "the shards hold $shard_runs runs, the suite $runs"
echo "PASS: $SHARDS array tasks, $runs runs in ${took} s, merged == local"
