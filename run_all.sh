#!/usr/bin/env bash
# crossroof: characterise every device on this machine.
#   ./run_all.sh [--quick] [--device SPEC] [--only NAMES] [--out DIR] [-- BENCHMARK OPTIONS]
#   ./run_all.sh --gpu-check [--device SPEC] [--out DIR]
#                                        every CUDA benchmark, short and bounded, judged
#   ./run_all.sh --resume DIR            finish an interrupted run, with its own options
#   ./run_all.sh --compare DIR_A DIR_B   two runs side by side, with ratios B/A
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
#                  budget (330 s in all, twice or more what each takes on an H200), then build/tools/gpu-check
#                  judges the figures against the device's own limits (README, GPU check)
# One run at a time writes a run directory: another run_all.sh into it, or
# a --resume of it, is refused while it lasts.
# Exit status: 0 everything passed or was skipped; 1 a benchmark, a figure, the energy levels,
# the report or a write of run_all.sh failed (with --gpu-check: or a figure
# was implausible, a row invalid, a benchmark over its budget); 2 bad usage,
# nothing run (a directory another run is writing included); 77 --gpu-check
# with no GPU visible and no CUDA benchmark finding a device (nothing to
# check); 128+N interrupted by signal N (130 Ctrl-C, 143 SIGTERM, 129
# SIGHUP), which --resume DIR finishes.
# Environment: CROSSROOF_BIN, a directory of benchmark executables to run
# instead of build/bin (nothing is then installed or built); CROSSROOF_TOOLS,
# the host tools (xgraph, energy-levels, report, gpu-check; default beside CROSSROOF_BIN, else build/tools);
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
# Errors are one line, even where a value the user gave holds a newline.
say_error() {
    local m="$*"
    printf 'run_all.sh: error: %s\n' "${m//$'\n'/\\n}" >&2
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
. common/run_args.sh # parse_only

quick=() device="" only="" only_names=() out="" extra=() check=0 resume="" compare=() given=() gpu_check=0
bin_dir="" tools=""
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=(--quick) given+=("$1") ;;
        --device) [ $# -ge 2 ] || die "--device needs a value"
                  [ -n "$2" ] || die "--device: the SPEC is empty; give a device's index or part of its name"
                  device=$2 given+=("$1"); shift ;;
        --only) [ $# -ge 2 ] || die "--only needs a list of benchmark names"
                parse_only "$2" --only
                only=$2 given+=("$1"); shift ;;
        --out) [ $# -ge 2 ] || die "--out needs a value"
               absolute out "$2"; given+=("$1"); shift ;;
        --resume) [ $# -ge 2 ] || die "--resume needs the run directory to finish"
                  absolute resume "$2"; shift ;;
        --compare) [ $# -ge 3 ] || die "--compare needs two run directories, DIR_A and DIR_B"
                   absolute dir_a "$2"; absolute dir_b "$3"; compare=("$dir_a" "$dir_b"); shift 2 ;;
        --check) check=1 ;;
        --gpu-check) gpu_check=1 given+=("$1") ;;
        -h|--help) usage; exit 0 ;;
        --) shift; extra=("$@"); given+=(--); break ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done
if [ -n "$resume" ] && [ ${#given[@]} -gt 0 ]; then
    die "--resume takes the options of the run it finishes; ${given[0]} cannot change them"
fi
if [ ${#compare[@]} -gt 0 ] && { [ ${#given[@]} -gt 0 ] || [ -n "$resume" ] || [ "$check" = 1 ]; }; then
    die "--compare takes two run directories and nothing else"
fi
# The GPU check chooses each benchmark's options itself: the figures it
# judges must be in the run.
if [ "$gpu_check" = 1 ]; then
    [ "$check" = 0 ] || die "--gpu-check and --check are two runs; give one"
    [ ${#quick[@]} -eq 0 ] || die "--gpu-check runs its own short configuration; --quick cannot change it"
    [ -z "$only" ] || die "--gpu-check runs every CUDA benchmark; --only cannot change that"
    [ ${#given[@]} -eq 0 ] || [ "${given[-1]}" != -- ] ||
        die "--gpu-check chooses the benchmarks' options; -- cannot change them"
fi
if [ -n "${CROSSROOF_GPU_CHECK_BUDGET_S:-}" ] && ! [[ $CROSSROOF_GPU_CHECK_BUDGET_S =~ ^[1-9][0-9]{0,5}$ ]]; then
    die "CROSSROOF_GPU_CHECK_BUDGET_S: '$CROSSROOF_GPU_CHECK_BUDGET_S' is not a whole number of seconds (1 to 999999)"
fi
if [ -n "${CROSSROOF_GPU_CHECK_BUDGET_PERCENT:-}" ] && ! [[ $CROSSROOF_GPU_CHECK_BUDGET_PERCENT =~ ^[1-9][0-9]{0,5}$ ]]; then
    die "CROSSROOF_GPU_CHECK_BUDGET_PERCENT: '$CROSSROOF_GPU_CHECK_BUDGET_PERCENT' is not a whole number of percent (1 to 999999)"
fi
for d in "${compare[@]}"; do
    [ -d "$d" ] || die "--compare: $d is not a directory"
done
if [ -n "$resume" ] && { [ ! -d "$resume" ] || [ ! -f "$resume/run-options" ]; }; then
    die "--resume: $resume is not a run of run_all.sh (no run-options in it)"
fi

# ---- the lock of a run directory ----
# DIR/run_all.lock, held (flock) by the run_all.sh writing DIR, which wrote
# its pid there for the message of the one refused.
lock_pid() { # lock file
    local pid=""
    IFS= read -r pid 2>/dev/null <"$1"
    [[ $pid =~ ^[0-9]+$ ]] && printf ' (pid %s)' "$pid"
}
# Whether another run holds DIR's lock. Looks without changing anything: the
# file is opened read-only, and only where it exists.
lock_is_held() { # dir
    local lock=$1/run_all.lock fd held=1
    [ -f "$lock" ] || return 1
    { exec {fd}<"$lock"; } 2>/dev/null || return 1
    flock -n "$fd" && held=0
    exec {fd}<&-
    [ $held = 1 ]
}
# Holds DIR's lock for the rest of run_all's life, or refuses. The descriptor
# stays open and children inherit it, so the lock lasts while anything
# run_all started may still write there; the kernel drops it when the last of
# them has gone, however they ended.
lock_run_dir() { # dir
    local lock=$1/run_all.lock err
    # Opened for appending, which changes nothing in a file another run holds.
    err=$({ : >>"$lock"; } 2>&1) || die "cannot lock $1: cannot write $lock: $(reason "$err")"
    exec {lock_fd}>>"$lock"
    flock -n "$lock_fd" || die "$1 is being written by another run$(lock_pid "$lock")"
    # A pid cut short by a full disk would name another process: then none.
    printf '%s\n' "$$" 2>/dev/null >"$lock" || : >"$lock"
}

# ---- the run directory of a new run: checked now, created once the benchmarks are known ----
# An --out that exists: a run being written, an earlier run, or something else.
refuse_existing() { # dir
    [ -d "$1" ] || die "--out: $1 exists and is not a directory"
    lock_is_held "$1" && die "$1 is being written by another run$(lock_pid "$1/run_all.lock")"
    [ -f "$1/run-options" ] && die "$1 exists; an earlier run is never overwritten (--resume $1 finishes it)"
    die "$1 exists; an earlier run is never overwritten"
}
# Whether --out can be created, without creating anything: bad input leaves
# nothing behind. The nearest existing ancestor must be a directory we may
# write in.
check_new_out() { # dir
    local up=${1%/*}
    { [ -e "$1" ] || [ -L "$1" ]; } && refuse_existing "$1"
    while [ -n "$up" ] && [ ! -e "$up" ]; do up=${up%/*}; done
    [ -n "$up" ] || up=/
    [ -d "$up" ] || die "--out: cannot create $1: $up is not a directory"
    { [ -w "$up" ] && [ -x "$up" ]; } || die "--out: cannot create $1: permission denied in $up"
}
if [ -z "$resume" ] && [ ${#compare[@]} -eq 0 ] && [ "$check" = 0 ]; then
    [ -n "$out" ] || out="$PWD/results/$(date -u +%Y%m%dT%H%M%SZ)-$(hostname -s 2>/dev/null || echo host)"
    check_new_out "$out"
fi

# ---- dependencies and the build ----
# Executables given (CROSSROOF_BIN) or come built (a GPU bundle of make
# gpu-bundle, marked by gpu-bundle.txt): nothing is installed or built.
if [ -n "${CROSSROOF_BIN:-}" ]; then
    absolute bin_dir "$CROSSROOF_BIN"
    [ -d "$bin_dir" ] || die "CROSSROOF_BIN: $bin_dir is not a directory"
    absolute tools "${CROSSROOF_TOOLS:-$bin_dir/../tools}"
elif [ -f gpu-bundle.txt ]; then
    [ "$check" = 0 ] || die "--check builds and tests the source tree; a GPU bundle holds none"
    bin_dir=$PWD/build/bin
    absolute tools "${CROSSROOF_TOOLS:-$PWD/build/tools}"
    # regspill-cuda's offline compiler, where the bundle carries one.
    [ -n "${CUDA_HOME:-}" ] || [ ! -x build/cuda/bin/ptxas ] || export CUDA_HOME=$PWD/build/cuda
else
    common/deps.sh || exit 1
    if [ "$check" = 1 ]; then
        exec make check
    fi
    if [ ${#compare[@]} -gt 0 ]; then
        make -s tools || fail "the build failed"
    else
        make -s all || fail "the build failed"
    fi
    bin_dir=$PWD/build/bin
    absolute tools "${CROSSROOF_TOOLS:-$PWD/build/tools}"
fi
[ "$check" = 1 ] && exec make check

if [ ${#compare[@]} -gt 0 ]; then
    [ -x "$tools/report" ] || fail "$tools/report is missing"
    exec "$tools/report" --compare "${compare[@]}"
fi

# A run holds together with util-linux: process groups (setsid), the signal
# a benchmark gets when run_all dies (setpriv --pdeathsig), the lock (flock).
lacking=()
for t in setsid setpriv flock; do
    command -v "$t" >/dev/null || lacking+=("$t")
done
[ ${#lacking[@]} -eq 0 ] || fail "${lacking[*]} not found: install util-linux (common/deps.sh checks for it)"

# ---- run-options: the options of a run, for --resume ----
# One key=value line each (extra once per benchmark option, in order),
# escaped as common/kv.sh says; read by parsing, never run.
. common/kv.sh
run_options_text() {
    local v
    printf '%s\n' '# read back by run_all.sh --resume: key=value; in values \\ is \, \n a newline'
    echo "quick=${#quick[@]}"
    echo "gpu_check=$gpu_check"
    printf 'device=%s\n' "$(kv_escape "$device")"
    printf 'only=%s\n' "$(kv_escape "$only")"
    for v in "${extra[@]}"; do
        printf 'extra=%s\n' "$(kv_escape "$v")"
    done
}
# Every key and value checked: a bad one is one line and exit 2.
read_run_options() { # file
    local file=$1 line key value n=0 seen=" " where
    [ -r "$file" ] || die "--resume: cannot read $file"
    quick=() device="" only="" only_names=() extra=() gpu_check=0
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        where="--resume: $file:$n"
        case $line in
            '' | '#'*) continue ;;
            'declare '*) # the shell code earlier versions wrote, and ran to read it back
                die "$where: written by an older run_all.sh, whose run-options --resume no longer reads; start a new run" ;;
            *=*) ;;
            *) die "$where: not a key=value line: '$line'" ;;
        esac
        key=${line%%=*}
        kv_unescape value "${line#*=}" || die "$where: $key: unknown escape '$bad_escape'"
        case $key in
            quick | device | only | gpu_check)
                [[ $seen == *" $key "* ]] && die "$where: $key is given twice"
                seen+="$key " ;;
        esac
        case $key in
            quick) case $value in
                       0) quick=() ;;
                       1) quick=(--quick) ;;
                       *) die "$where: quick is 0 or 1, not '$value'" ;;
                   esac ;;
            gpu_check) case $value in
                           0 | 1) gpu_check=$value ;;
                           *) die "$where: gpu_check is 0 or 1, not '$value'" ;;
                       esac ;;
            device) device=$value ;;
            only) only=$value
                  [ -z "$only" ] || parse_only "$only" "$where: only" ;;
            extra) extra+=("$value") ;;
            *) die "$where: unknown key '$key'" ;;
        esac
    done <"$file"
    for key in quick device only; do
        [[ $seen == *" $key "* ]] || die "--resume: $file: no $key= line"
    done
}

# ---- files written whole ----
# Writes stdin to PATH through PATH.tmp.PID renamed over it: PATH is then
# complete, or as it was. A full disk leaves no empty or half-written file
# behind, and is one line on stderr.
write_atomically() { # path
    local tmp=$1.tmp.$$ err
    if err=$(cat 2>&1 >"$tmp") && err=$(mv -f -- "$tmp" "$1" 2>&1); then
        return 0
    fi
    rm -f -- "$tmp"
    say_error "cannot write $1: $(reason "$err")"
    return 1
}

# Every name in --only must name a benchmark: an executable, or a CUDA one
# that could not be built.
check_only() {
    local w b n found
    for w in "${only_names[@]}"; do
        found=0
        for b in "$bin_dir"/* cuda/*/main.c; do
            n=${b##*/}
            [[ $b == cuda/* ]] && { n=${b%/main.c}; n=${n##*/}-cuda; }
            { [ "$n" = "$w" ] || [ "${n%-*}" = "$w" ]; } && found=1
        done
        [ $found = 1 ] || die "--only: no benchmark named '$w'"
    done
}

# The benchmarks --gpu-check also runs through OpenCL, on GPU devices only.
gpu_check_opencl=(stream bandwidth latency)
# NVIDIA's OpenCL driver, where the ICD loader would not find it: a driver
# mounted into a container brings libnvidia-opencl.so.1 without its
# /etc/OpenCL/vendors/nvidia.icd. Then the loader reads a vendors directory
# of its own (OCL_ICD_VENDORS): the system's .icd files and one for NVIDIA's.
use_nvidia_opencl() {
    [ -z "${OCL_ICD_VENDORS:-}" ] || return 0
    grep -qs nvidia /etc/OpenCL/vendors/*.icd && return 0
    local lib="" d
    lib=$(ldconfig -p 2>/dev/null | awk '$1 == "libnvidia-opencl.so.1" { print $NF; exit }')
    for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/lib64; do
        [ -n "$lib" ] || [ ! -e "$d/libnvidia-opencl.so.1" ] || lib=$d/libnvidia-opencl.so.1
    done
    [ -n "$lib" ] || return 0
    icd_dir=$(mktemp -d "${TMPDIR:-/tmp}/crossroof-icd.XXXXXX") || return 0
    trap 'rm -rf -- "$icd_dir"' EXIT
    cp -- /etc/OpenCL/vendors/*.icd "$icd_dir/" 2>/dev/null
    printf '%s\n' "$lib" >"$icd_dir/nvidia.icd"
    export OCL_ICD_VENDORS=$icd_dir
    echo "crossroof: NVIDIA's OpenCL driver $lib has no .icd file in /etc/OpenCL/vendors; using it through OCL_ICD_VENDORS"
}

# A run's run-options never change once written (write_atomically): they are
# read before the lock, so that a bad file leaves the directory as it was.
if [ -n "$resume" ]; then
    out=$resume
    read_run_options "$out/run-options"
    lock_run_dir "$out"
fi
# The GPU check runs the CUDA benchmarks, each of them: those of cuda/ (one
# that could not be built is recorded as skipped, which fails the check
# where a GPU is) and those built, all that a GPU bundle knows of.
if [ "$gpu_check" = 1 ]; then
    declare -A cuda_names=()
    for main in cuda/*/main.c "$bin_dir"/*-cuda; do
        [ -e "$main" ] || continue
        [[ $main == */main.c ]] && main=${main%/main.c}-cuda
        cuda_names[${main##*/}]=1
    done
    only_names=("${!cuda_names[@]}")
    [ ${#only_names[@]} -gt 0 ] || fail "--gpu-check: no CUDA benchmark in cuda/ or $bin_dir"
    # The same GPU through OpenCL, where its driver has an OpenCL ICD: the
    # memory paths and the latency, beside CUDA's, as the theses measured.
    for b in "${gpu_check_opencl[@]}"; do
        [ -x "$bin_dir/$b-opencl" ] && only_names+=("$b-opencl")
    done
    use_nvidia_opencl
fi
check_only

# What is not here and can be done without (in a GPU bundle, or with
# CROSSROOF_BIN, nothing installs it) is said in one line; the run goes on.
lacking=()
if [ "$gpu_check" = 1 ] && ! command -v nvidia-smi >/dev/null; then
    lacking+=("nvidia-smi (the GPUs are not counted; the CUDA benchmarks look for themselves)")
fi
gnuplot_found=1
if ! command -v gnuplot >/dev/null; then
    gnuplot_found=0
    lacking+=("gnuplot (the figures are skipped; the CSVs, the report and the verdict are written)")
fi
if [ ${#lacking[@]} -gt 0 ]; then
    printf -v said '%s; ' "${lacking[@]}"
    echo "crossroof: not found: ${said%; }"
fi

# ---- what to run: every executable on every device it lists ----
selected() { # NAME: is it in --only?
    [ ${#only_names[@]} -eq 0 ] && return 0
    local w
    for w in "${only_names[@]}"; do
        [ "$1" = "$w" ] || [ "${1%-*}" = "$w" ] && return 0
    done
    return 1
}
slug() { tr -c 'A-Za-z0-9.\n-' '_' <<<"$1" | tr -s '_' | cut -c1-60; }
t_name=() t_bin=() t_backend=() t_index=() t_label=() t_dir=()
declare -A first_seen=()
dirs=()
lister="" # the first benchmark that listed a device, for --device's error
no_opencl_gpu=() # --gpu-check: OpenCL benchmarks that list no GPU device
for bin in "$bin_dir"/*; do
    [ -f "$bin" ] && [ -x "$bin" ] || continue
    name=${bin##*/}
    selected "$name" || continue
    backend=${name##*-}
    # One run per device the backend lists ("INDEX  NAME ..."), or one that
    # reports why there is none.
    mapfile -t devices < <("$bin" --list-devices 2>/dev/null </dev/null |
                           awk '$1 ~ /^[0-9]+$/ { i = $1; $1 = ""; sub(/^ +/, ""); print i "\t" $0 }')
    [ ${#devices[@]} -eq 0 ] && devices=("")
    gpu_seen=0
    for entry in "${devices[@]}"; do
        # The GPU check measures GPUs: through OpenCL, a CPU device is left out.
        if [ "$gpu_check" = 1 ] && [ "$backend" = opencl ]; then
            [[ $entry == *"; GPU/accelerator;"* ]] || continue
            gpu_seen=1
        fi
        index=${entry%%$'\t'*}
        label=${entry#*$'\t'}
        label=${label#(*) }          # OpenCL lists "(platform:device) name [details]"
        label=${label%% \[*}
        if [ -n "$entry" ]; then
            lister=${lister:-$bin}
            if [ -n "$device" ] && [[ "${label,,}" != *"${device,,}"* ]] && [ "$index" != "$device" ]; then
                continue
            fi
        fi
        dir="$backend${index:+-$index-$(slug "$label")}"
        t_name+=("$name") t_bin+=("$bin") t_backend+=("$backend") t_index+=("$index") t_label+=("$label") t_dir+=("$dir")
        [ -n "${first_seen[$dir]:-}" ] || { first_seen[$dir]=1; dirs+=("$dir"); }
    done
    if [ "$gpu_check" = 1 ] && [ "$backend" = opencl ] && [ $gpu_seen = 0 ]; then
        no_opencl_gpu+=("$name")
    fi
done
# A --device that matches nothing listed would measure nothing. Where no
# benchmark lists any device, each runs to say why it found none.
if [ -n "$device" ] && [ -n "$lister" ]; then
    matched=0
    for index in "${t_index[@]}"; do [ -n "$index" ] && matched=1; done
    [ $matched = 1 ] ||
        die "--device: no device of the selected benchmarks matches '$device' (see $lister --list-devices)"
fi

# ---- the GPU check where there is no GPU ----
# nvidia-smi -L lists one "GPU i: ..." line per GPU its driver sees. Where
# it lists none and every CUDA benchmark says it finds no device (exit 77),
# there is nothing to check: one line, exit 77, and no run directory. A
# benchmark that says anything else runs, so that the check judges it.
gpus_visible=0
if [ "$gpu_check" = 1 ]; then
    if command -v nvidia-smi >/dev/null; then
        gpus_visible=$(nvidia-smi -L 2>/dev/null </dev/null | grep -c '^GPU ')
        smi_says="nvidia-smi -L lists no GPU"
    else
        smi_says="no nvidia-smi"
    fi
    listed=0
    for index in "${t_index[@]}"; do [ -n "$index" ] && listed=1; done
    if [ "$gpus_visible" = 0 ] && [ $listed = 0 ] && [ -z "$resume" ]; then
        why="" all_skip=1
        for i in "${!t_bin[@]}"; do
            said=$("${t_bin[$i]}" --list-devices 2>&1 </dev/null)
            [ $? = 77 ] || all_skip=0
            said=${said##*$'\n'}
            said=${said#"${t_name[$i]}: "}
            [ -n "$why" ] || why="${t_name[$i]}: ${said#skipped: }"
        done
        if [ $all_skip = 1 ]; then
            echo "crossroof: --gpu-check: nothing to check: no GPU is visible ($smi_says) and no CUDA benchmark finds a device (${why:-none is built})"
            exit 77
        fi
    fi
fi

# ---- the run directory and its options ----
# Created (its parents too), locked and given its run-options; where they
# cannot be written it goes again, since it would be no run to resume.
create_run_dir() {
    local err parent=${out%/*}
    err=$(mkdir -p -- "${parent:-/}" 2>&1) || die "--out: cannot create $out: $(reason "$err")"
    if ! err=$(mkdir -- "$out" 2>&1); then
        [ -e "$out" ] && refuse_existing "$out" # another run took it since it was checked
        die "--out: cannot create $out: $(reason "$err")"
    fi
    lock_run_dir "$out"
    if ! run_options_text | write_atomically "$out/run-options"; then
        rm -f -- "$out/run-options" "$out/run_all.lock"
        rmdir -- "$out"
        exit 1
    fi
}
[ -n "$resume" ] || create_run_dir

mode=full
[ ${#quick[@]} -gt 0 ] && mode=quick
[ "$gpu_check" = 1 ] && mode=gpu-check
log_csv=$out/run-log.csv
log_header="task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason"
if [ ! -s "$log_csv" ]; then
    printf '%s\n' "$log_header" | write_atomically "$log_csv" || exit 1
fi

# ---- small helpers ----
now_ms() {
    if [ -n "${EPOCHREALTIME:-}" ]; then
        local t=${EPOCHREALTIME//[.,]/}
        echo $((10#$t / 1000))
    else
        date +%s%3N
    fi
}
# m:ss, or h:mm:ss past an hour.
clock() {
    local s=$(($1 < 0 ? 0 : $1))
    if [ "$s" -ge 3600 ]; then printf '%d:%02d:%02d' $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
    else printf '%d:%02d' $((s / 60)) $((s % 60)); fi
}
words_time() {
    local s=$1
    if [ "$s" -ge 120 ]; then printf 'about %d min' $(((s + 30) / 60))
    elif [ "$s" -ge 60 ]; then printf 'about 1 min %d s' $((s - 60))
    else printf 'about %d s' "$s"; fi
}
# One CSV field (RFC 4180): quoted where it holds a comma, a quote or a line break.
csv_field() {
    local s=$1
    if [[ $s == *[,\"$'\n'$'\r']* ]]; then s=${s//\"/\"\"}; s="\"$s\""; fi
    printf '%s' "$s"
}
# Splits one CSV record into the array F.
csv_split() {
    local line=$1 f="" q=0 c i
    F=()
    for ((i = 0; i < ${#line}; i++)); do
        c=${line:i:1}
        if [ $q = 1 ]; then
            if [ "$c" = '"' ]; then
                if [ "${line:i+1:1}" = '"' ]; then f+='"'; i=$((i + 1)); else q=0; fi
            else f+=$c; fi
        else
            case $c in '"') q=1 ;; ,) F+=("$f"); f="" ;; *) f+=$c ;; esac
        fi
    done
    F+=("$f")
}
# Reads one CSV record from stdin into F; a quoted field may span lines (an
# odd number of quotes so far: the record goes on). False at the end.
csv_read() {
    local rec line quotes
    IFS= read -r rec || [ -n "$rec" ] || return 1
    while quotes=${rec//[^\"]/}; [ $((${#quotes} % 2)) = 1 ] && IFS= read -r line; do
        rec+=$'\n'$line
    done
    csv_split "$rec"
}
# A log's last line, without the program's name and "skipped: " before it:
# why a benchmark was skipped or failed.
last_words() { # log name
    local w
    w=$(grep -v '^ *$' "$1" 2>/dev/null | tail -n 1)
    w=${w#"$2: "}
    printf '%s' "${w#skipped: }"
}
# Appends a record by writing the log anew (write_atomically): a record is
# in the log whole or not at all. The run stops where it cannot be written.
record() { # task backend index label dir status rc seconds reason
    local line="" v
    for v in "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$mode" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$9"; do
        line+=$(csv_field "$v"),
    done
    { cat -- "$log_csv" && printf '%s\n' "${line%,}"; } | write_atomically "$log_csv" || exit 1
}

# Done before (a resumed run): every task with a record in the log.
declare -A done_task=()
while csv_read; do
    [ "${F[0]}" = task ] && continue
    done_task["${F[4]:-}/${F[0]}"]=1
done <"$log_csv"
done_before=${#done_task[@]}

# A CUDA benchmark that make could not build (no nvcc) is skipped, not silent.
for main in cuda/*/main.c; do
    [ -e "$main" ] || continue
    name=${main%/main.c}
    name=${name##*/}-cuda
    selected "$name" || continue
    if [ ! -e "$bin_dir/$name" ] && [ -z "${done_task[/$name]:-}" ]; then
        if [ -n "${CROSSROOF_BIN:-}" ]; then why="not in $bin_dir"; else why="not built (nvcc not found; see README, Building)"; fi
        record "$name" cuda "" "" "" skipped 77 0 "$why"
    fi
done

# Through OpenCL, the GPU check found no GPU: said once per benchmark.
for name in "${no_opencl_gpu[@]}"; do
    [ -z "${done_task[/$name]:-}" ] &&
        record "$name" opencl "" "" "" skipped 77 0 "no OpenCL GPU device (no GPU driver's .icd in ${OCL_ICD_VENDORS:-/etc/OpenCL/vendors})"
done

# The order to run: device by device, so that each device's X-model fit
# follows its own benchmarks.
order=()
for d in "${dirs[@]}"; do
    for i in "${!t_name[@]}"; do
        [ "${t_dir[$i]}" = "$d" ] && [ -z "${done_task[$d/${t_name[$i]}]:-}" ] && order+=("$i")
    done
done

# ---- how long it will take ----
# From the newest earlier run of the same mode beside this one, else from
# these defaults: seconds each benchmark took on the PoCL device of a shared
# 2-core AMD EPYC VM (regspill-cuda: its offline table, without a GPU); a
# benchmark not listed is guessed at 10 s quick, 120 s full.
declare -A quick_default=([stream]=16 [bandwidth]=6 [regspill]=3 [atomics]=40 [sfu]=17 [fma]=2 [latency]=3
                          [cache]=10 [regspill-cuda]=3)
declare -A full_default=([stream]=221 [bandwidth]=237 [regspill]=13 [atomics]=119 [sfu]=46 [fma]=125 [latency]=6
                         [cache]=24 [regspill-cuda]=3)
# The GPU check's configuration: each CUDA benchmark's options, chosen so
# that every figure tools/gpu_check/rules.c judges is measured (stream's
# working-set sweep ends at 4x L2 or more; bandwidth's largest transfer is
# 1 GiB, beyond any L2, on the paths the rules judge, pinned copies each
# way and kernel reads of device and managed memory, and the headline
# ones; latency's quick sweep has an L2 point and a memory point of 4x L2;
# cache's quick sweeps reach 2x L2 and probe every level found below it),
# and its time budget in seconds: a benchmark still running at the end of
# it is stopped and fails, keeping the rows it completed (every row is
# written as it completes, fma's as each type does). The CUDA budgets add
# up to 320 s; with OpenCL's on the same GPU (50 s) and the peers' (50 s)
# the check's budgets are 420 s, the rest of eight minutes being for the
# start, the energy levels, the report and the verdict. Each CUDA budget
# is twice or more what the benchmark takes on an H200, scaled from
# results/reference/NVIDIA_H200 (its README and CSVs: one H200 with a
# limit per benchmark; its stream and fma spent 2 s a point on NVML
# energy, which --energy auto now leaves out):
#   stream     ~13 s: 150 points (16K..256M x2, 5 kernels, 2 types) of 22
#              runs under 0.2 ms, ~30 ms a point with its check; the host's
#              filling and checking of the arrays ~3 s a type; the
#              reference's points took under 0.25 s each beside energy -> 40
#   bandwidth  ~15 s: at 1 GiB a PCIe copy is 19.4 ms (55.3 GB/s) x 22 runs,
#              the 8 paths ~6 s with their checks, managed memory migrating
#              on demand ~3.5 s, the host's 4 references ~2 s; 1 and 32 MiB
#              ~2 s (12 paths at 1..256 MiB, 200 runs a point: under 30 s) -> 45
#   atomics    ~30 s: 174 points of ~15 runs of 4 ms and their pilots, ~0.1 s
#              each, and one trial, over budget, of each compare-and-swap
#              point on one word (uint32: 5.1 s; the reference spent 10.2 s
#              trying it twice, and seconds checking min by trying every
#              operation) -> 60
#   regspill   ~20 s: 11 live counts and 46 register caps (24..69 on sm_90),
#              each a JIT build (~0.1 s) and 8 runs of ~10 ms, longer where
#              the cap spills; the reference's ~7 s a point was the host
#              checking a million outputs, now a sample -> 50
#   sfu        ~28 s: the reference wrote 344 rows in its 20 s and stopped in
#              log2; tan, the four double functions and their partitions
#              are ~150 rows more -> 60
#   fma        ~6 s: 2 x 28 points interleaved, 22 runs of 1 ms each, a check
#              of 4096 chains a point; the reference had 56 s of energy
#              windows before its first row -> 20
#   latency    ~2 s: the reference's whole run -> 15
#   cache      ~15 s: not in the reference; ~300 points of 3..10 chases of
#              0.3 ms and a 10 ms warm-up, chains up to 2x L2 built on the
#              host (260 points in 10 s on a 2-core VM's PoCL device) -> 40
# Through OpenCL on the same GPU (no rule judges these; the report sets them
# beside CUDA's), each a short form of its CUDA configuration, its program
# built at the start (about a second): stream's working-set sweep -> 20;
# bandwidth at the same sizes on the copies each way, both at once, device
# to device, the kernel reads and writes and local memory -> 20; latency
# --quick -> 10. The peers: peers.sh's two CUDA modes take 45 s -> 50.
short_reps="--reps 5:20 --min-time 0.01 --max-time 0.5"
gpu_check_paths=h2d-memcpy-pinned,d2h-memcpy-pinned,kernel-read-device,kernel-read-managed
gpu_check_paths+=,duplex-copy-pinned,d2d-memcpy,kernel-write-device,kernel-local-memory
declare -A gpu_check_options=([stream]="--sweeps footprint $short_reps"
                              [bandwidth]="--sizes 1M:1G:x32 --paths $gpu_check_paths $short_reps"
                              [latency]=--quick [cache]=--quick [fma]=--quick [atomics]=--quick [regspill]=--quick
                              [sfu]=--quick)
gpu_check_opencl_paths=h2d-write-pinned,d2h-read-pinned,duplex-copy-pinned,d2d-copy,kernel-read-device
gpu_check_opencl_paths+=,kernel-write-device,kernel-local-memory
gpu_check_options+=([stream-opencl]="--sweeps footprint $short_reps"
                    [bandwidth-opencl]="--sizes 1M:1G:x32 --paths $gpu_check_opencl_paths $short_reps"
                    [latency-opencl]=--quick)
declare -A gpu_check_budget_s=([stream]=35 [bandwidth]=45 [atomics]=60 [regspill]=45 [sfu]=60 [fma]=20
                               [latency]=15 [cache]=40 [stream-opencl]=20 [bandwidth-opencl]=20
                               [latency-opencl]=10 [peers]=50)
# A task's budget in milliseconds: CROSSROOF_GPU_CHECK_BUDGET_S, one
# budget for every benchmark (a slower GPU), whole seconds; else the
# table's for the executable (stream-opencl) or the benchmark (stream, its
# CUDA executable), else 60 s; scaled by CROSSROOF_GPU_CHECK_BUDGET_PERCENT.
gpu_check_budget_ms() { # executable or benchmark
    local s=${CROSSROOF_GPU_CHECK_BUDGET_S:-${gpu_check_budget_s[$1]:-${gpu_check_budget_s[${1%-cuda}]:-60}}}
    printf '%s' $((s * ${CROSSROOF_GPU_CHECK_BUDGET_PERCENT:-100} * 10))
}
# Milliseconds as seconds, as few digits as they need: 2, 1.2, 0.35.
seconds_of() {
    printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)) | sed 's/\.\{0,1\}0*$//'
}
declare -A history=()
history_from=""
# The run logs beside this run, newest first, whatever their names hold.
earlier_logs() {
    local parent=${out%/*}
    find -L "${parent:-/}" -mindepth 2 -maxdepth 2 -name run-log.csv -printf '%T@\t%p\0' 2>/dev/null |
        sort -z -rn
}
while IFS= read -r -d '' f; do
    f=${f#*$'\t'}
    [ "$f" = "$log_csv" ] && continue
    found=0
    while csv_read; do
        [ "${F[8]:-}" = "$mode" ] || continue
        # Whole seconds only, in decimal: bash arithmetic would evaluate
        # anything else, and run what an array subscript in it holds.
        [[ ${F[7]:-} =~ ^0*([0-9]{1,9})(\.[0-9]*)?$ ]] || continue
        history["${F[4]:-}/${F[0]}"]=${BASH_REMATCH[1]}
        history["${F[0]}"]=${BASH_REMATCH[1]}
        found=1
    done <"$f"
    if [ $found = 1 ]; then
        history_from=${f%/*}
        history_from=${history_from##*/}
        break
    fi
done < <(earlier_logs)
estimate() { # task index -> seconds
    local i=$1 name=${t_name[$1]} base=${t_name[$1]%-*} s
    s=${history["${t_dir[$i]}/$name"]:-${history[$name]:-}}
    if [ -z "$s" ]; then
        if [ -z "${t_index[$i]}" ]; then
            s=${quick_default[$name]:-1}      # no device: it only says why
        elif [ "$mode" = gpu-check ]; then
            s=$((($(gpu_check_budget_ms "$name") + 999) / 1000))
        elif [ "$mode" = quick ]; then
            s=${quick_default[$base]:-10}
        else
            s=${full_default[$base]:-120}
        fi
    fi
    echo "$s"
}
# Figures (plot.sh) and the report, per device directory.
finish_estimate=$((5 * ${#dirs[@]}))
est=() total_est=$finish_estimate
for i in "${order[@]}"; do est[$i]=$(estimate "$i"); total_est=$((total_est + est[i])); done

tty=0 columns=100
if [ -t 1 ]; then
    tty=1
    columns=${COLUMNS:-$(tput cols 2>/dev/null)}
    [[ $columns =~ ^[0-9]+$ ]] || columns=100 # it goes into arithmetic: a number only
fi
n=${#order[@]}
before=""
[ "$done_before" -gt 0 ] && before=", $done_before done before"
echo "crossroof: $mode run in $out"
echo "crossroof: $n benchmark run(s) on ${#dirs[@]} device(s)$before; expected $(words_time "$total_est") (${history_from:+the times of }${history_from:-built-in estimates})"

# ---- children: each in a process group of its own, ended with it ----
# A benchmark, xgraph, plot.sh or the report runs in a session and process
# group of its own (setsid): a signal to the group reaches everything it
# started, and a Ctrl-C on the terminal reaches run_all alone, which then
# ends the group in order: SIGTERM, and SIGKILL after grace_s seconds.
# setpriv's parent-death signal stops the child where run_all dies without a
# word (SIGKILL); it reaches that process, not its own children.
grace_s=5
interrupted=0 stop_status=0 child="" rc=0
deadline_ms=0 timed_out=0 # a child's time budget (0: none), and whether it ran out
on_signal() { # exit status: 128 + the signal's number
    interrupted=1
    [ "$stop_status" != 0 ] || stop_status=$1
}
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
trap 'on_signal 129' HUP

start_child() { # command... (the caller redirects it)
    setsid setpriv --pdeathsig TERM -- "$@" &
    child=$!
    # setsid runs just after the fork: until then there is no group to signal.
    local t
    for ((t = 0; t < 100; t++)); do
        kill -0 -- -"$child" 2>/dev/null || ! kill -0 "$child" 2>/dev/null && break
        sleep 0.01
    done
}
end_group() { # group id, the pid of the child that made it
    kill -0 -- -"$1" 2>/dev/null || return 0
    kill -TERM -- -"$1" 2>/dev/null
    local t
    for ((t = 0; t < grace_s * 10; t++)); do
        kill -0 -- -"$1" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL -- -"$1" 2>/dev/null
}
# Waits for the child, waking every 0.2 s: to run the command given (the
# progress line), to see a signal that came just before a wait began (a
# signal ends a wait only while it waits), and to see the end of deadline_ms
# (timed_out=1). Then ends what is left of its group, all of it after a
# signal or the deadline. The child's exit status goes to rc.
wait_child() { # [command to run at each wake]
    timed_out=0
    while kill -0 "$child" 2>/dev/null && [ $interrupted = 0 ]; do
        if [ "$deadline_ms" -gt 0 ] && [ "$(now_ms)" -ge "$deadline_ms" ]; then
            timed_out=1
            break
        fi
        [ $# -eq 0 ] || "$@"
        sleep 0.2 {lock_fd}>&- & # it may outlive run_all: without the lock
        wait $!
    done
    end_group "$child"
    wait "$child"
    rc=$?
    child=""
}

# ---- running, interruptible ----
start_ms=$(now_ms)
left_after=() # estimated seconds of the work after each position
acc=$finish_estimate
for ((k = n - 1; k >= 0; k--)); do left_after[k]=$acc; acc=$((acc + est[order[k]])); done

live() { # position, task, when it started (ms)
    local text in_task=$(( ($(now_ms) - $3) / 1000 ))
    text="[$(($1 + 1))/$n] ${t_name[$2]}${t_label[$2]:+ on ${t_label[$2]}}  elapsed $(clock $(( ($(now_ms) - start_ms) / 1000 )))"
    text+="  about $(clock $(( left_after[$1] + (est[$2] > in_task ? est[$2] - in_task : 0) ))) left"
    printf '\r\033[K%s' "${text:0:$((columns - 1))}"
}

declare -A ran_in=()   # device directories where something ran in this invocation
run_one() { # task index, position -> records the result; returns 1 when interrupted
    local i=$1 p=$2 name=${t_name[$1]} dir=$out/${t_dir[$1]} t0 secs ms what status reason="" err
    err=$(mkdir -p -- "$dir" 2>&1) || fail "cannot create $dir: $(reason "$err")"
    local args=("${quick[@]}" --out "$dir" "${extra[@]}") budget=0
    if [ "$gpu_check" = 1 ]; then
        read -ra args <<<"${gpu_check_options[$name]:-${gpu_check_options[${name%-cuda}]:---quick}}"
        args+=(--out "$dir")
        budget=$(gpu_check_budget_ms "$name")
    fi
    [ -n "${t_index[$i]}" ] && args+=(--device "${t_index[$i]}")
    what="[$((p + 1))/$n] $name${t_label[$i]:+ on ${t_label[$i]}}"
    if [ $tty = 0 ]; then
        echo "$what: started (elapsed $(clock $(( ($(now_ms) - start_ms) / 1000 ))), about $(clock $(( left_after[p] + est[i] ))) left)"
    fi
    t0=$(now_ms)
    { start_child "${t_bin[$i]}" "${args[@]}" >"$dir/$name.log" 2>&1 </dev/null; } 2>/dev/null ||
        fail "cannot write $dir/$name.log"
    [ "$budget" -gt 0 ] && deadline_ms=$((t0 + budget))
    if [ $tty = 1 ]; then wait_child live "$p" "$i" "$t0"; else wait_child; fi
    deadline_ms=0
    ms=$(( $(now_ms) - t0 ))
    secs=$(printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)))
    [ $tty = 1 ] && printf '\r\033[K'
    if [ $interrupted = 1 ] && [ $rc -ne 0 ]; then
        echo "$what: interrupted after ${secs} s; --resume runs it again from the start"
        return 1
    fi
    case $rc in
        0) status=passed ;;
        77) status=skipped; reason=$(last_words "$dir/$name.log" "$name") ;;
        *) status=failed; reason="exit $rc: $(last_words "$dir/$name.log" "$name")" ;;
    esac
    if [ "$timed_out" = 1 ]; then # 124, as timeout(1) says it
        status=failed rc=124 reason="timed out: stopped at its budget of $(seconds_of "$budget") s; the rows it completed are kept"
    fi
    record "$name" "${t_backend[$i]}" "${t_index[$i]}" "${t_label[$i]}" "${t_dir[$i]}" "$status" "$rc" "$secs" "$reason"
    ran_in[${t_dir[$i]}]=1
    echo "$what: $status in ${secs} s${reason:+ ($reason)}"
    [ "$status" = failed ] && echo "    log: $dir/$name.log"
    return 0
}

has_stream_csv() { # dir
    local f
    for f in "$1"/stream-*.csv; do [ -e "$f" ] && return 0; done
    return 1
}
# The X-model fit of one device, after its benchmarks: where the tool exists
# and the device has a stream CSV; again when a benchmark there ran anew.
xgraph() { # dir
    local d=$1 dir=$out/$1 ms t0 secs status reason=""
    [ -x "$tools/xgraph" ] || return 0
    # The GPU check runs no concurrency sweep, which the fit needs.
    [ "$gpu_check" = 1 ] && return 0
    has_stream_csv "$dir" || return 0
    [ -n "${done_task[$d/xgraph]:-}" ] && [ -z "${ran_in[$d]:-}" ] && return 0
    t0=$(now_ms)
    local no_plot=()
    [ "$gnuplot_found" = 1 ] || no_plot=(--no-plot)
    { start_child "$tools/xgraph" "$dir" "${no_plot[@]}" >"$dir/xgraph.log" 2>&1 </dev/null; } 2>/dev/null ||
        fail "cannot write $dir/xgraph.log"
    wait_child
    [ $interrupted = 1 ] && [ $rc -ne 0 ] && return 1
    ms=$(( $(now_ms) - t0 ))
    secs=$(printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)))
    case $rc in
        0) status=passed ;;
        77) status=skipped; reason=$(last_words "$dir/xgraph.log" xgraph) ;;
        *) status=failed; reason="exit $rc: $(last_words "$dir/xgraph.log" xgraph)" ;;
    esac
    record xgraph host "" "" "$d" "$status" "$rc" "$secs" "$reason"
    echo "xgraph on $d: $status in ${secs} s${reason:+ ($reason)}"
    return 0
}

for ((k = 0; k < n && interrupted == 0; k++)); do
    i=${order[k]}
    run_one "$i" "$k" || break
    # The last benchmark of its device: the device's X-model.
    if [ $((k + 1)) -eq "$n" ] || [ "${t_dir[${order[k + 1]}]}" != "${t_dir[$i]}" ]; then
        [ $interrupted = 0 ] && { xgraph "${t_dir[$i]}" || break; }
    fi
done
# Devices whose benchmarks all ran before a resume may still lack their fit.
if [ $interrupted = 0 ]; then
    for d in "${dirs[@]}"; do
        [ -z "${ran_in[$d]:-}" ] && { xgraph "$d" || break; }
    done
fi

# ---- the GPU check's peers: crossroof beside BabelStream and nvbandwidth ----
# tools/peers.sh with the peers' executables (cuda-stream, nvbandwidth) from
# CROSSROOF_PEERS, else build/peers/ beside run_all.sh (the tree's, or a
# bundle's), on the first CUDA device the check ran on; into <run>/peers/,
# held to its budget (50 s: peers.sh's two CUDA modes take 45 s) like a
# benchmark, and recorded as task peers.
run_peers() {
    local dir=${CROSSROOF_PEERS:-} args=() i index="" label="" t0 ms secs status reason="" budget err said
    [ -n "$dir" ] || dir=build/peers
    [ -x "$dir/cuda-stream" ] && args+=(--babelstream-cuda "$dir/cuda-stream")
    [ -x "$dir/nvbandwidth" ] && args+=(--nvbandwidth "$dir/nvbandwidth")
    for i in "${!t_name[@]}"; do
        [ "${t_backend[$i]}" = cuda ] && [ -n "${t_index[$i]}" ] && { index=${t_index[$i]} label=${t_label[$i]}; break; }
    done
    if [ ${#args[@]} = 0 ] || [ -z "$index" ]; then
        [ ${#args[@]} = 0 ] && reason="no peer executables in $dir" || reason="no CUDA device listed"
        record peers host "" "" peers skipped 77 0 "$reason"
        echo "peers: skipped ($reason)"
        return 0
    fi
    err=$(mkdir -p -- "$out/peers" 2>&1) || fail "cannot create $out/peers: $(reason "$err")"
    budget=$(gpu_check_budget_ms peers)
    t0=$(now_ms)
    { start_child tools/peers.sh "${args[@]}" --bin "$bin_dir" --device "$index" --out "$out/peers" \
        >"$out/peers/peers.log" 2>&1 </dev/null; } 2>/dev/null || fail "cannot write $out/peers/peers.log"
    deadline_ms=$((t0 + budget))
    wait_child
    deadline_ms=0
    ms=$(($(now_ms) - t0))
    secs=$(printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)))
    [ $interrupted = 1 ] && [ $rc -ne 0 ] && return 1
    # Its first error says why: the table of the modes that ran comes after it.
    said=$(grep -m 1 '^peers.sh: error: ' "$out/peers/peers.log")
    said=${said#peers.sh: error: }
    [ -n "$said" ] || said=$(last_words "$out/peers/peers.log" peers.sh)
    case $rc in
        0) status=passed ;;
        *) status=failed reason="exit $rc: $said" ;;
    esac
    [ "$timed_out" = 1 ] && status=failed rc=124 reason="timed out: stopped at its budget of $(seconds_of "$budget") s"
    record peers host "$index" "$label" peers "$status" "$rc" "$secs" "$reason"
    echo "peers on $label: $status in ${secs} s${reason:+ ($reason)}"
    return 0
}
if [ $interrupted = 0 ] && [ "$gpu_check" = 1 ] && [ -z "${done_task[peers/peers]:-}" ]; then
    run_peers
fi

# ---- figures and the report ----
extra_failed=()
# The energy levels of every device (the GPU check's too): a table of its
# own beside the CSVs, which the figures and the report read.
if [ $interrupted = 0 ]; then
    for d in "$out"/*/; do
        [ -d "$d" ] && [ "$d" != "$out/peers/" ] || continue
        if [ ! -x "$tools/energy-levels" ]; then
            extra_failed+=("the energy levels: $tools/energy-levels is missing")
            break
        fi
        start_child "$tools/energy-levels" "${d%/}" >/dev/null
        wait_child
        [ $interrupted = 0 ] || break
        [ $rc = 0 ] || extra_failed+=("the energy levels in ${d%/} ($tools/energy-levels ${d%/})")
    done
fi
# The GPU check's short sweeps are not what the figures are drawn from;
# without gnuplot there are none (said at the start).
if [ $interrupted = 0 ] && { [ "$gpu_check" = 1 ] || [ "$gnuplot_found" = 0 ]; }; then
    echo "crossroof: writing the report"
elif [ $interrupted = 0 ]; then
    echo "crossroof: drawing the figures and writing the report"
    for d in "$out"/*/; do
        [ -d "$d" ] || continue
        start_child plot/plot.sh "$d" >/dev/null
        wait_child
        [ $interrupted = 0 ] || break
        [ $rc = 0 ] || extra_failed+=("figures in ${d%/}")
    done
fi
if [ $interrupted = 0 ]; then
    if [ -x "$tools/report" ]; then
        start_child "$tools/report" "$out" >/dev/null
        wait_child
        [ $rc = 0 ] || [ $interrupted = 1 ] || extra_failed+=("the report ($tools/report $out)")
    else
        extra_failed+=("the report: $tools/report is missing")
    fi
fi

# ---- the summary, from the log: this invocation and any before it ----
passed=() skipped=() failed=()
# A task run again (the X-model fit after a resume) counts once, as it ended last.
declare -A last=()
k=0
while csv_read; do
    last["${F[4]:-}/${F[0]}"]=$k
    k=$((k + 1))
done <"$log_csv"
k=0
while csv_read; do
    k=$((k + 1))
    [ "${F[0]}" = task ] || [ "${last["${F[4]:-}/${F[0]}"]}" != $((k - 1)) ] && continue
    what="${F[0]}${F[3]:+ on ${F[3]}}"
    [ "${F[0]}" = xgraph ] && what="xgraph on ${F[4]}"
    why=${F[10]:-}
    why=${why//$'\n'/ } # one line per entry
    case ${F[5]:-} in
        passed) passed+=("$what (${F[7]:-} s)") ;;
        skipped) skipped+=("$what: $why") ;;
        *) failed+=("$what: $why (log: $out/${F[4]:-}/${F[0]}.log)") ;;
    esac
done <"$log_csv"
failed+=("${extra_failed[@]}")

summary_text() {
    echo
    echo "crossroof summary ($out), $(clock $(( ($(now_ms) - start_ms) / 1000 ))) elapsed:"
    for p in "${passed[@]}"; do echo "  passed   $p"; done
    for s in "${skipped[@]}"; do echo "  skipped  $s"; done
    for f in "${failed[@]}"; do echo "  FAILED   $f"; done
    if [ $interrupted = 1 ]; then
        echo "Interrupted: completed benchmarks keep their results. Finish the run with:"
        echo "  ./run_all.sh --resume $(printf '%q' "$out")"
    elif [ -e "$out/report.html" ]; then
        echo "Report: $out/report.html (and report.md)"
    fi
}
summary=$(summary_text)
printf '%s\n' "$summary"
# summary.txt is the summary whole, or not there at all.
printf '%s\n' "$summary" | write_atomically "$out/summary.txt" || exit 1
[ $interrupted = 1 ] && exit "$stop_status"

# ---- the GPU check's verdict: its table, kept as <run>/gpu-check.txt ----
if [ "$gpu_check" = 1 ]; then
    [ -x "$tools/gpu-check" ] || fail "$tools/gpu-check is missing"
    verdict=$out/gpu-check.txt
    { start_child "$tools/gpu-check" "$out" --gpus-visible "$gpus_visible" >"$verdict.tmp.$$" 2>&1 </dev/null; } \
        2>/dev/null || fail "cannot write $verdict"
    wait_child
    [ $interrupted = 1 ] && { rm -f -- "$verdict.tmp.$$"; exit "$stop_status"; }
    judged=$rc
    err=$(mv -f -- "$verdict.tmp.$$" "$verdict" 2>&1) || fail "cannot write $verdict: $(reason "$err")"
    echo
    cat -- "$verdict"
    case $judged in
        0) ;;
        77) exit 77 ;; # no GPU, and no CUDA benchmark found a device
        1) exit 1 ;;
        *) say_error "$tools/gpu-check could not judge $out (exit $judged)"; exit 1 ;;
    esac
fi
[ ${#failed[@]} -eq 0 ]
