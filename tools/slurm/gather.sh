#!/usr/bin/env bash
# The dependent job of a cluster run (afterany: it runs however the nodes
# ended): <run>/nodes.csv, what became of every node expected (and
# <run>/expected-nodes, their names), then the
# cluster report from the results database tool. sbatch copies this file:
# the repository comes as an argument.
#   gather.sh RUN REPO TOOLS_DIR BELOW DB
#   (BELOW and DB empty where not given)
set -uo pipefail
[ $# -eq 5 ] || { echo "crossroof-slurm: error: gather.sh: usage: RUN REPO TOOLS_DIR BELOW DB" >&2; exit 2; }
run=$1 repo=$2 tools=$3 below=$4 db=$5
. "$repo/tools/slurm/lib.sh"

# Every node directory expected (each submission's nodes), then any other
# that wrote a status, in the order first seen.
declare -A seen=()
expected=()
for f in "$run"/slurm/submission-*.nodes "$run"/status/*; do
    [ -f "$f" ] || continue
    case $f in
        *.tmp.*) continue ;;
        */status/*) names=("${f##*/}") ;;
        *) mapfile -t names <"$f" ;;
    esac
    for n in "${names[@]}"; do
        [ -n "$n" ] && [ -z "${seen[$n]:-}" ] || continue
        seen[$n]=1
        expected+=("$n")
    done
done

{
    csv_row node state exit_code job_id started finished dir
    for n in "${expected[@]}"; do
        s=$run/status/$n
        exit_code="" job="" started="" finished=""
        if [ -f "$s" ]; then
            status_value exit_code "$s" exit
            status_value job "$s" job
            status_value started "$s" started
            status_value finished "$s" finished
        fi
        d=nodes/$n
        [ -d "$run/$d" ] || d=""
        csv_row "$n" "$(node_state "$s")" "$exit_code" "$job" "$started" "$finished" "$d"
    done
} | write_whole "$run/nodes.csv" || fail "cannot write $run/nodes.csv"
# The same names alone, for the report to name a node that left no directory.
printf '%s\n' "${expected[@]}" | write_whole "$run/expected-nodes" || fail "cannot write $run/expected-nodes"

incomplete=()
for n in "${expected[@]}"; do
    node_complete "$run/status/$n" || incomplete+=("$n ($(node_state "$run/status/$n"))")
done
echo "crossroof-slurm: ${#expected[@]} node(s) expected; $run/nodes.csv written"
if [ ${#incomplete[@]} -gt 0 ]; then
    echo "crossroof-slurm: not complete: ${incomplete[*]}; finish them with: $repo/run_all.sh --slurm --resume ${run@Q}"
fi

db_tool=$(db_tool_in "$tools") || fail "no results database tool in $tools (crossroof-db): no cluster report (build it with make tools)"
# One database for every run of this repository unless --db named another.
args=(--db "${db:-$repo/results/crossroof.db}")
args+=(cluster-report "$run")
[ -z "$below" ] || args+=(--below "$below")
echo "+ ${db_tool@Q} ${args[*]@Q}"
"$db_tool" "${args[@]}"
rc=$?
if [ $rc = 0 ]; then
    echo "crossroof-slurm: report: $run/cluster-report.md (and cluster-report.csv)"
    # One headline across the nodes, drawn where gnuplot is; the report
    # stands without it.
    CROSSROOF_TOOLS=$tools "$repo/plot/plot.sh" "$run" || echo "crossroof-slurm: the headline figure was not drawn (see above)"
fi
printf '%s\n' "$rc" | write_whole "$run/slurm/report-exit" || :
exit "$rc"
