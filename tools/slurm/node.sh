#!/usr/bin/env bash
# One task of a cluster run, started by srun on its node: the suite into
# <run>/nodes/<node> (<node>-gpu<i> where each GPU of a node is a task), or a
# --resume of it where an earlier submission began it. Its status file
# (<run>/status/<node>) says it is running, then how run_all.sh ended.
#   node.sh RUN REPO BIN_DIR TOOLS_DIR PER_GPU -- RUN_ALL OPTIONS
set -uo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 6 ] && [ "$6" = -- ] || die "node.sh: usage: RUN REPO BIN_DIR TOOLS_DIR PER_GPU -- RUN_ALL OPTIONS"
run=$1 repo=$2 bin_dir=$3 tools=$4 per_gpu=$5
shift 6

node=${SLURMD_NODENAME:-}
[ -n "$node" ] || fail "SLURMD_NODENAME is not set: node.sh runs under srun"
[[ $node != */* && $node != .* ]] || fail "node name '$node' cannot name a directory"
name=$node
# Each task its own GPU (--gpus-per-task=1): Slurm's CUDA_VISIBLE_DEVICES
# shows it one device, and its local id tells the tasks of a node apart.
[ "$per_gpu" = 1 ] && name=$node-gpu${SLURM_LOCALID:-0}
dir=$run/nodes/$name
status=$run/status/$name
log=$run/slurm/$name.out

exec >>"$log" 2>&1 || fail "cannot write $log"
echo "== $(utc_now) job ${SLURM_JOB_ID:-?} step ${SLURM_STEP_ID:-?} task ${SLURM_PROCID:-?} on $node" \
     "(CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset})"

if node_complete "$status"; then
    echo "$name: complete in an earlier submission ($(node_state "$status")); nothing to run"
    exit 0
fi

write_status() { # state [exit]
    {
        printf 'node=%s\n' "$(kv_escape "$node")"
        printf 'job=%s\n' "$(kv_escape "${SLURM_JOB_ID:-}")"
        printf 'cuda_visible_devices=%s\n' "$(kv_escape "${CUDA_VISIBLE_DEVICES-}")"
        printf 'state=%s\n' "$1"
        printf 'started=%s\n' "$started"
        [ $# -lt 2 ] || printf 'exit=%s\nfinished=%s\n' "$2" "$(utc_now)"
    } | write_whole "$status" || fail "cannot write $status"
}
started=$(utc_now)
write_status running

# The binaries were built once, by the submission: no node builds or installs.
export CROSSROOF_BIN=$bin_dir CROSSROOF_TOOLS=$tools
if [ -f "$dir/run-options" ]; then
    cmd=("$repo/run_all.sh" --resume "$dir")
else
    cmd=("$repo/run_all.sh" --out "$dir" "$@")
fi
echo "+ ${cmd[*]@Q}"
# Slurm ends a step with SIGTERM (scancel, the time limit): run_all.sh then
# stops its benchmark and keeps what completed; this script waits for it, so
# that the status says how it ended.
"${cmd[@]}" </dev/null &
child=$!
trap 'kill -TERM "$child" 2>/dev/null' TERM INT HUP
while :; do
    wait "$child"
    rc=$?
    kill -0 "$child" 2>/dev/null || break # a signal ended the wait, not the child
done
write_status finished "$rc"
echo "== $(utc_now) $name: run_all.sh exit $rc ($(node_state "$status"))"
exit "$rc"
