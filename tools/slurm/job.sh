#!/usr/bin/env bash
# The batch script of a cluster run's node job: records the nodes Slurm gave
# it, then one task per node (or per GPU) runs tools/slurm/node.sh. sbatch
# copies this file: the repository comes as an argument.
#   job.sh RUN REPO BIN_DIR TOOLS_DIR PER_GPU SUBMISSION -- RUN_ALL OPTIONS
set -uo pipefail
[ $# -ge 7 ] && [ "$7" = -- ] || { echo "crossroof-slurm: error: job.sh: usage: RUN REPO BIN_DIR TOOLS_DIR PER_GPU SUBMISSION -- RUN_ALL OPTIONS" >&2; exit 2; }
run=$1 repo=$2 bin_dir=$3 tools=$4 per_gpu=$5 submission=$6
shift 7
. "$repo/tools/slurm/lib.sh"

# The node directories this job is to fill, one a line: what the report's
# gathering expects, so that a node that never wrote anything is named.
nodes=$(scontrol show hostnames "$SLURM_JOB_NODELIST") || fail "scontrol show hostnames $SLURM_JOB_NODELIST failed"
tasks=${SLURM_NTASKS_PER_NODE:-1}
[[ $tasks =~ ^[0-9]+$ ]] || tasks=1
while IFS= read -r n; do
    [ -n "$n" ] || continue
    if [ "$per_gpu" = 1 ]; then
        for ((i = 0; i < tasks; i++)); do printf '%s\n' "$n-gpu$i"; done
    else
        printf '%s\n' "$n"
    fi
done <<<"$nodes" | write_whole "$run/slurm/submission-$submission.nodes" || fail "cannot write $run/slurm/submission-$submission.nodes"

echo "crossroof-slurm: job $SLURM_JOB_ID, submission $submission: $(tr '\n' ' ' <"$run/slurm/submission-$submission.nodes")"
# A task that fails leaves the others running: every node gets its run.
srun --kill-on-bad-exit=0 "$repo/tools/slurm/node.sh" "$run" "$repo" "$bin_dir" "$tools" "$per_gpu" -- "$@"
rc=$?
echo "crossroof-slurm: srun exit $rc"
exit "$rc"
