#!/usr/bin/env bash
# crossroof: characterise every device on this machine.
#   ./run_all.sh [--quick] [--device SPEC] [--only NAMES] [--out DIR] [-- BENCHMARK OPTIONS]
#   ./run_all.sh --gpu-check [--device SPEC] [--out DIR]
#                                        every CUDA benchmark, short and bounded, judged
#   ./run_all.sh --resume DIR            finish an interrupted run, with its own options
#   ./run_all.sh --compare DIR_A DIR_B   two runs side by side, with ratios B/A
#   ./run_all.sh --reproduce DIR         the theses' tables and figures held against a run
#                                        (DIR/reproduce.md), its report written again
#   ./run_all.sh --check                 install what is missing, build, run every test
#   ./run_all.sh --slurm [--nodes N] ... every node of a Slurm cluster, one cluster report
#                                        (tools/slurm/crossroof-slurm.sh; --slurm --help)
# As root, missing Debian packages are installed; otherwise the exact
# install command is printed and nothing runs.
#   --quick        a small sweep of every benchmark (about two minutes on two cores)
#   --device SPEC  only the devices whose index or name contains SPEC
#   --only NAMES   only these benchmarks, comma-separated: stream-opencl, or stream for every backend
#   --out DIR      the run directory (default results/<UTC date>-<host>; never overwritten)
#   --gpu-check    every CUDA benchmark in a short configuration, each within a time
#                  budget (350 s for the CUDA ones, twice or more what each timed takes on an
#                  H200; 450 s with OpenCL on the GPU and the peers), then build/tools/gpu-check
#                  judges the figures against the device's own limits (docs/gpu-check.md)
# One run at a time writes a run directory: another run_all.sh into it, or
# a --resume of it, is refused while it lasts.
# Exit status: 0 everything passed or was skipped; 1 a benchmark, a figure, the energy levels,
# the reproduction of the theses,
# the report or a write of run_all.sh failed (its summary or any line it prints
# too: a full disk, a closed stdout; with --gpu-check: or a figure
# was implausible, a row invalid, a benchmark over its budget); 2 bad usage,
# nothing run (a directory another run is writing included); 77 --gpu-check
# with no GPU visible and no CUDA benchmark finding a device (nothing to
# check); 128+N interrupted by signal N (130 Ctrl-C, 143 SIGTERM, 129
# SIGHUP), which --resume DIR finishes.
# Environment: CROSSROOF_BIN, a directory of benchmark executables to run
# instead of build/bin (nothing is then installed or built); CROSSROOF_TOOLS,
# the host tools (xgraph, energy-levels, reproduce, report, gpu-check; default beside CROSSROOF_BIN, else build/tools);
# either set but empty is refused, not taken for unset;
# CROSSROOF_GPU_CHECK_BUDGET_S, one time budget in seconds for every benchmark of --gpu-check;
# CROSSROOF_GPU_CHECK_BUDGET_PERCENT, every budget of --gpu-check scaled (200: twice as long, 2: a fiftieth).
# In a GPU bundle (make gpu-bundle; gpu-bundle.txt beside run_all.sh) the
# executables come built, under build/: nothing is installed or built either.
set -uo pipefail

# A cluster run is the Slurm submitter's, options and all; run from where
# run_all.sh was started, so that relative paths keep their meaning.
for a in "$@"; do
    [ "$a" = -- ] && break
    [ "$a" = --slurm ] && exec "$(dirname "$0")/tools/slurm/crossroof-slurm.sh" "$@"
done

caller=$PWD
cd "$(dirname "$0")" || exit 1

usage() {
    sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "${0##*/}" # from its own folder, where it went
    echo "Results go to <run>/<backend>-<index>-<device>/: CSVs, metadata, logs and figures;"
    echo "<run>/report.html and report.md are the characterization report, run-log.csv what ran."
}
# Errors are one line, even where a value the user gave holds a newline or
# another control character (common/say_error.sh).
. common/say_error.sh
say_error() { say_error_of run_all.sh "$*"; }
# What the run prints (its progress, the summary, --help): the first write
# to stdout that fails (a full disk, a closed stdout) is said once, nothing
# more is printed, and the run ends with 1 at least, its files all written.
. common/print_out.sh
stdout_lost=0
say() { # text
    [ $stdout_lost = 0 ] || return 0
    print_out "$1" && return 0
    stdout_lost=1
    say_error "cannot write standard output: $out_error"
}
die() { say_error "$@"; exit 2; }  # bad usage: nothing has run
fail() { say_error "$@"; exit 1; } # it cannot go on
# The cause in a tool's error message ("mkdir: cannot create directory 'x': File exists").
reason() {
    local r=${1##*$'\n'}
    r=${r##*: }
    printf '%s' "${r:-unknown error}"
}
# A path the user gave, relative to where run_all.sh was started, into the
# variable named first. No command substitution: it would drop a trailing
# newline of the path.
absolute() { # variable path
    local p=$2
    [[ $p == /* ]] || p=$caller/$p
    while [[ $p == */ && $p != / ]]; do p=${p%/}; done
    printf -v "$1" '%s' "$p"
}
. common/run_args.sh # --only, the benchmarks' options, the environment's folders
. common/kv.sh
. common/descriptor.sh
. common/csv_records.sh # csv_records: a CSV's records, one a line
# Each step of a run, by what it is responsible for.
. tools/run/options.sh || exit 1  # the command line, run-options
. tools/run/run_dir.sh || exit 1  # the run directory, its lock, whole files
. tools/run/setup.sh || exit 1    # the executables, the descriptors, --only, --gpu-check's names
. tools/run/tasks.sh || exit 1    # every executable on every device, the order
. tools/run/log.sh || exit 1      # run-log.csv, clocks
. tools/run/estimate.sh || exit 1 # how long, the GPU check's budgets
. tools/run/children.sh || exit 1 # process groups, signals, deadlines
. tools/run/execute.sh || exit 1  # the benchmarks, the X-model fits, the peers
. tools/run/finish.sh || exit 1   # energy levels, figures, report, summary, verdict

parse_options "$@"
check_options
choose_out
find_executables
need_util_linux
read_descriptors
open_resumed_run
gpu_check_names
check_only_names "$bin_dir" ""
check_benchmark_options "after --"
say_lacking
list_tasks
check_device_matched
count_gpus
[ -n "$resume" ] || create_run_dir
open_log
read_done_tasks
record_unrunnable
order_tasks
estimate_all
announce
catch_signals
run_tasks
run_peers
finish_run
write_summary
gpu_check_verdict
[ ${#failed[@]} -eq 0 ] && [ $stdout_lost = 0 ]
