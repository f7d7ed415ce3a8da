#!/usr/bin/env bash
# crossroof on a Slurm cluster: the suite on every node of one allocation,
# then one cluster report.
#   run_all.sh --slurm [--nodes N] [--gpus-per-node G] [--partition P] [--below F]
#                      [--db FILE] [--out DIR] [--quick] [--only NAMES] [--device SPEC]
#                      [--wait] [--dry-run] [-- SBATCH OPTIONS [-- BENCHMARK OPTIONS]]
#   run_all.sh --slurm --resume DIR [--wait] [--dry-run] [-- SBATCH OPTIONS]
#   --nodes N          nodes to characterise, one run each (default 1)
#   --gpus-per-node G  one run per GPU instead: G tasks a node, each given one GPU
#                      by Slurm (--gpus-per-task=1), into <node>-gpu<i>
#   --partition P      the partition of both jobs
#   --below F          also name as outliers the figures below F times the
#                      median of the nodes (0 < F <= 1); beyond 3 median absolute
#                      deviations is always named
#   --db FILE          the results database the report imports into
#                      (default results/crossroof.db in this repository)
#   --out DIR          the cluster run (default results/<UTC date>-slurm)
#   --quick, --only, --device, -- BENCHMARK OPTIONS: as for run_all.sh, on every node
#   -- SBATCH OPTIONS  given to the nodes' sbatch, each as --name=value; those
#                      crossroof-slurm gives itself (--chdir, --output, --nodes,
#                      --partition, ...) and those that change what the nodes run
#                      (--export, --container) are refused
#   --resume DIR       submit again the nodes of DIR whose run did not complete
#                      (interrupted, never started); each finishes its own run
#   --wait             wait for the report, then print every node's state
#   --dry-run          print the sbatch commands, submit and create nothing
# Two jobs: the nodes' job (one task a node, each run_all.sh into
# <run>/nodes/<node>), and after it, however it ended (afterany), the report's
# job: <run>/nodes.csv and the results database tool's cluster-report <run>
# (build/tools/crossroof-db).
# The binaries are built once, here, before submitting: the repository and
# the build must be on a filesystem every node sees. Nothing goes through ssh.
# Exit status: 0 submitted (with --wait: the report was written); 1 sbatch or
# the build failed (with --wait: no report); 2 bad usage, nothing submitted.
set -uo pipefail
caller=$PWD
repo=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
. "$repo/tools/slurm/lib.sh"
. "$repo/common/run_args.sh" # --only, the benchmarks' options, the environment's folders
. "$repo/common/descriptor.sh"
. "$repo/tools/slurm/checks.sh" # every option, given or read back

usage() { sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; }
absolute() { # variable path
    local p=$2
    [[ $p == /* ]] || p=$caller/$p
    while [[ $p == */ && $p != / ]]; do p=${p%/}; done
    printf -v "$1" '%s' "$p"
}
need_value() { # option count-left value
    [ "$2" -ge 2 ] || die "$1 needs a value"
    [ -n "$3" ] || die "$1: the value is empty"
}

nodes="" gpus_per_node=0 partition="" below="" db="" out="" resume="" wait=0 dry_run=0
run_all_args=() sbatch_args=() bench_args=() given=()
while [ $# -gt 0 ]; do
    case $1 in
        --slurm) ;;
        --nodes) need_value "$1" $# "${2-}"; nodes=$2 given+=("$1"); shift ;;
        --gpus-per-node) need_value "$1" $# "${2-}"; gpus_per_node=$2 given+=("$1"); shift ;;
        --partition) need_value "$1" $# "${2-}"; partition=$2 given+=("$1"); shift ;;
        --below) need_value "$1" $# "${2-}"; below=$2 given+=("$1"); shift ;;
        --db) need_value "$1" $# "${2-}"; absolute db "$2"; given+=("$1"); shift ;;
        --out) need_value "$1" $# "${2-}"; absolute out "$2"; given+=("$1"); shift ;;
        --quick) run_all_args+=("$1") given+=("$1") ;;
        --only | --device) need_value "$1" $# "${2-}"; run_all_args+=("$1" "$2") given+=("$1"); shift ;;
        --resume) need_value "$1" $# "${2-}"; absolute resume "$2"; shift ;;
        --wait) wait=1 ;;
        --dry-run) dry_run=1 ;;
        -h | --help) usage; exit 0 ;;
        --) shift
            while [ $# -gt 0 ] && [ "$1" != -- ]; do sbatch_args+=("$1"); shift; done
            if [ $# -gt 0 ]; then shift; bench_args=("$@"); given+=(--); fi
            break ;;
        --compare | --check | --gpu-check) die "$1 is not a cluster run (run it without --slurm)" ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done

# ---- every value checked before anything is built, created or submitted ----
check_env_dirs
[ -z "$nodes" ] || check_nodes --nodes "$nodes"
check_gpus_per_node --gpus-per-node "$gpus_per_node"
check_below --below "$below"
check_partition --partition "$partition"
check_db --db "$db"
if [ -n "$resume" ] && [ ${#given[@]} -gt 0 ]; then
    die "--resume takes the options of the cluster run it finishes; ${given[0]} cannot change them"
fi
for a in "${sbatch_args[@]}"; do check_sbatch_option "-- SBATCH OPTIONS" "$a"; done
# The jobs' output files are in the run: Slurm reads % in their names as a
# pattern (%% is a %, see pattern below), drops every backslash, and its job
# descriptions carry no newline.
slurm_path_ok() { # what path
    [[ $2 != *\\* ]] || die "$1: $2 holds a backslash, which Slurm removes from the names of its output files"
    [[ $2 != *$'\n'* ]] || die "$1: $2 holds a newline, which a Slurm job description cannot carry"
}
[ -z "$out" ] || slurm_path_ok --out "$out"
[ -z "$resume" ] || slurm_path_ok --resume "$resume"
if [ "$dry_run" = 0 ]; then
    for t in sbatch squeue scontrol; do
        command -v "$t" >/dev/null || fail "$t not found: --slurm submits from a host of a Slurm cluster"
    done
fi

# ---- a resumed cluster run: its options, read back ----
stored_sbatch=()
if [ -n "$resume" ]; then
    [ -d "$resume" ] || die "--resume: $resume is not a directory"
    out=$resume
    read_cluster_options "$resume/cluster-options"
    sbatch_args=("${stored_sbatch[@]}" "${sbatch_args[@]}") # later options win in sbatch
else
    [ -n "$out" ] || out=$repo/results/$(date -u +%Y%m%dT%H%M%SZ)-slurm
    { [ -e "$out" ] || [ -L "$out" ]; } && die "--out: $out exists; a cluster run is never overwritten (--resume $out finishes it)"
    up=${out%/*}
    while [ -n "$up" ] && [ ! -e "$up" ]; do up=${up%/*}; done
    [ -d "${up:-/}" ] && [ -w "${up:-/}" ] || die "--out: cannot create $out: ${up:-/} is not a directory we may write in"
    nodes=${nodes:-1}
    [ ${#bench_args[@]} -eq 0 ] || run_all_args+=(-- "${bench_args[@]}")
    check_node_options "" "${run_all_args[@]}"
fi

# ---- the build, once, for every node ----
if [ -n "${CROSSROOF_BIN:-}" ]; then
    absolute bin_dir "$CROSSROOF_BIN"
    [ -d "$bin_dir" ] || die "CROSSROOF_BIN: $bin_dir is not a directory"
    absolute tools "${CROSSROOF_TOOLS:-$bin_dir/../tools}"
elif [ "$dry_run" = 1 ]; then
    bin_dir=$repo/build/bin tools=$repo/build/tools
else
    (cd "$repo" && common/deps.sh && make -s all) || fail "the build failed"
    bin_dir=$repo/build/bin
    absolute tools "${CROSSROOF_TOOLS:-$repo/build/tools}"
fi
# Every --only name must name a benchmark, and every benchmark it selects
# take the benchmarks' options, as run_all.sh would check on each node, too
# late to say.
if [ -n "$only" ]; then
    desc_read_all "$repo" || fail "$desc_error"
    check_only_names "$bin_dir" " in $bin_dir"
fi
check_benchmark_options "$extra_where"

# ---- what to submit ----
jobs_csv=$out/jobs.csv
submission=1
nodelist=() count=$nodes
if [ -n "$resume" ]; then
    ids=()
    if [ -f "$jobs_csv" ]; then
        while IFS=, read -r s _ id _; do
            [[ $id =~ ^[0-9]+$ ]] && ids+=("$id")
            [[ $s =~ ^[0-9]+$ ]] && [ "$s" -ge "$submission" ] && submission=$((s + 1))
        done <"$jobs_csv"
    fi
    if [ "$dry_run" = 0 ] && [ ${#ids[@]} -gt 0 ]; then
        # Not while a job of the run is queued or running: its nodes would be run twice.
        still=$(queued "$(IFS=,; echo "${ids[*]}")") || fail "squeue cannot say whether the jobs of $out are still there: $still"
        [ -z "$still" ] || die "--resume: job(s) ${still% } of $out are still queued or running (scancel them, or wait)"
    fi
    # The nodes whose run did not complete, by name (Slurm gives the same
    # nodes again); where the nodes' job never began, as many nodes as before.
    declare -A want=() expected_seen=()
    any_nodes_file=0
    for f in "$out"/slurm/submission-*.nodes; do
        [ -f "$f" ] || continue
        any_nodes_file=1
        while IFS= read -r d; do
            [ -n "$d" ] && [ -z "${expected_seen[$d]:-}" ] || continue
            expected_seen[$d]=1
            node_complete "$out/status/$d" && continue
            n=$d
            [ "$gpus_per_node" -gt 0 ] && n=${d%-gpu*}
            [ -n "${want[$n]:-}" ] || { want[$n]=1; nodelist+=("$n"); }
        done <"$f"
    done
    if [ $any_nodes_file = 1 ]; then
        if [ ${#nodelist[@]} -eq 0 ]; then
            echo "crossroof-slurm: every node of $out completed; nothing to submit"
            exit 0
        fi
        count=${#nodelist[@]}
    fi
fi

# Output files: Slurm expands % patterns in their names (%% is one %).
pattern() { printf '%s' "${1//%/%%}"; }
common=(--parsable --chdir="$out")
[ -z "$partition" ] && part=() || part=(--partition="$partition")
node_job=(sbatch "${common[@]}" "${part[@]}" --job-name=crossroof --nodes="$count")
if [ "$gpus_per_node" -gt 0 ]; then
    node_job+=(--ntasks-per-node="$gpus_per_node" --gpus-per-task=1)
else
    node_job+=(--ntasks-per-node=1)
fi
[ ${#nodelist[@]} -eq 0 ] || node_job+=(--nodelist="$(IFS=,; echo "${nodelist[*]}")")
node_job+=(--output="$(pattern "$out")/slurm/submission-$submission-job-%j.out"
           "${sbatch_args[@]}"
           "$repo/tools/slurm/job.sh" "$out" "$repo" "$bin_dir" "$tools" "$((gpus_per_node > 0))" "$submission"
           -- "${run_all_args[@]}")
# The report's job: one task anywhere, charged as the nodes' job is.
report_sbatch=()
for a in "${sbatch_args[@]}"; do
    case $a in --account=* | --qos=* | --reservation=* | --clusters=* | --time=*) report_sbatch+=("$a") ;; esac
done
report_job=(sbatch "${common[@]}" "${part[@]}" --job-name=crossroof-report --nodes=1 --ntasks=1
            --kill-on-invalid-dep=yes --output="$(pattern "$out")/slurm/submission-$submission-report-%j.out"
            "${report_sbatch[@]}")
report_args=("$repo/tools/slurm/gather.sh" "$out" "$repo" "$tools" "$below" "$db")

if [ "$dry_run" = 1 ]; then
    echo "${node_job[*]@Q}"
    echo "${report_job[*]@Q} --dependency=afterany:<the job above> ${report_args[*]@Q}"
    exit 0
fi

# ---- the cluster run's directory and options ----
if [ -z "$resume" ]; then
    err=$(mkdir -p -- "$out/nodes" "$out/status" "$out/slurm" 2>&1) || fail "--out: cannot create $out: ${err##*: }"
    {
        printf '%s\n' '# read back by crossroof-slurm --resume: key=value; in values \\ is \, \n a newline'
        printf 'nodes=%s\ngpus_per_node=%s\n' "$nodes" "$gpus_per_node"
        printf 'partition=%s\n' "$(kv_escape "$partition")"
        printf 'below=%s\n' "$below"
        printf 'db=%s\n' "$(kv_escape "$db")"
        for a in "${run_all_args[@]}"; do printf 'run_all=%s\n' "$(kv_escape "$a")"; done
        for a in "${sbatch_args[@]}"; do printf 'sbatch=%s\n' "$(kv_escape "$a")"; done
    } | write_whole "$out/cluster-options" || fail "cannot write $out/cluster-options"
    printf 'submission,kind,job_id,nodes,submitted\n' | write_whole "$jobs_csv" || fail "cannot write $jobs_csv"
fi

rm -f -- "$out/slurm/report-exit" # a report of an earlier submission
submit() { # variable command... : the job id into the variable
    local said
    said=$("${@:2}" 2>&1) || fail "sbatch refused the job: ${said//$'\n'/ }"
    said=${said##*$'\n'}
    said=${said%%;*}
    [[ $said =~ ^[0-9]+$ ]] || fail "sbatch gave no job id: $said"
    printf -v "$1" '%s' "$said"
}
node_id="" report_id=""
submit node_id "${node_job[@]}"
csv_row "$submission" nodes "$node_id" "${nodelist[*]:-$count}" "$(utc_now)" >>"$jobs_csv" || fail "cannot write $jobs_csv"
submit report_id "${report_job[@]}" --dependency=afterany:"$node_id" "${report_args[@]}"
csv_row "$submission" report "$report_id" 1 "$(utc_now)" >>"$jobs_csv" || fail "cannot write $jobs_csv"

echo "crossroof-slurm: cluster run $out"
echo "crossroof-slurm: job $node_id runs the suite on ${nodelist[*]:-$count node(s)}; job $report_id writes the report after it"
echo "crossroof-slurm: follow with: squeue -j $node_id,$report_id; the report will be $out/cluster-report.md"
[ "$wait" = 1 ] || exit 0

# ---- --wait: until both jobs have left the queue ----
# squeue failing a while (the controller restarting) is waited out.
tries=0
while :; do
    if still=$(queued "$node_id,$report_id"); then
        [ -z "$still" ] && break
        tries=0
    else
        tries=$((tries + 1))
        [ $tries -lt 60 ] || fail "squeue has failed for 2 minutes: $still"
    fi
    sleep 2
done
if [ -f "$out/nodes.csv" ]; then
    echo "crossroof-slurm: nodes ($out/nodes.csv):"
    tail -n +2 "$out/nodes.csv" | while IFS=, read -r n state rc rest; do
        printf '  %-12s %s%s\n' "$state" "$n" "${rc:+ (exit $rc)}"
    done
fi
rc=""
[ -f "$out/slurm/report-exit" ] && IFS= read -r rc <"$out/slurm/report-exit"
case $rc in
    0) echo "crossroof-slurm: report: $out/cluster-report.md"; exit 0 ;;
    "") fail "the report's job $report_id wrote no report (see $out/slurm/submission-$submission-report-$report_id.out)" ;;
    *) fail "crossroof-db cluster-report exit $rc (see $out/slurm/submission-$submission-report-$report_id.out)" ;;
esac
