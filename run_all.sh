#!/usr/bin/env bash
# crossroof: characterise every device on this machine.
#   ./run_all.sh [--quick] [--device SPEC] [--only NAMES] [--out DIR] [-- BENCHMARK OPTIONS]
#   ./run_all.sh --resume DIR            finish an interrupted run, with its own options
#   ./run_all.sh --compare DIR_A DIR_B   two runs side by side, with ratios B/A
#   ./run_all.sh --check                 install what is missing, build, run every test
# As root, missing Debian packages are installed; otherwise the exact
# install command is printed and nothing runs.
#   --quick        a small sweep of every benchmark (about two minutes on two cores)
#   --device SPEC  only the devices whose index or name contains SPEC
#   --only NAMES   only these benchmarks, comma-separated: stream-opencl, or stream for every backend
#   --out DIR      the run directory (default results/<UTC date>-<host>; never overwritten)
# Environment: CROSSROOF_BIN, a directory of benchmark executables to run
# instead of build/bin (nothing is then installed or built); CROSSROOF_TOOLS,
# the host tools (xgraph, report; default beside CROSSROOF_BIN, else build/tools).
set -uo pipefail

caller=$PWD
cd "$(dirname "$0")" || exit 1

usage() {
    sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"
    echo "Results go to <run>/<backend>-<index>-<device>/: CSVs, metadata, logs and figures;"
    echo "<run>/report.html and report.md are the characterization report, run-log.csv what ran."
}
die() {
    echo "run_all.sh: error: $*" >&2
    exit 2
}
# A path the user gave, relative to where run_all.sh was started.
absolute() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$caller/$1" ;; esac; }

quick=() device="" only="" out="" extra=() check=0 resume="" compare=() given=()
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=(--quick) given+=("$1") ;;
        --device) [ $# -ge 2 ] || die "--device needs a value"
                  device=$2 given+=("$1"); shift ;;
        --only) [ $# -ge 2 ] || die "--only needs a list of benchmark names"
                only=$2 given+=("$1"); shift ;;
        --out) [ $# -ge 2 ] || die "--out needs a value"
               out=$(absolute "$2") given+=("$1"); shift ;;
        --resume) [ $# -ge 2 ] || die "--resume needs the run directory to finish"
                  resume=$(absolute "$2"); shift ;;
        --compare) [ $# -ge 3 ] || die "--compare needs two run directories, DIR_A and DIR_B"
                   compare=("$(absolute "$2")" "$(absolute "$3")"); shift 2 ;;
        --check) check=1 ;;
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
if [ -n "$resume" ] && { [ ! -d "$resume" ] || [ ! -f "$resume/run-options" ]; }; then
    die "--resume: $resume is not a run of run_all.sh (no run-options in it)"
fi

# ---- dependencies and the build ----
if [ -n "${CROSSROOF_BIN:-}" ]; then
    bin_dir=$(absolute "$CROSSROOF_BIN")
    [ -d "$bin_dir" ] || die "CROSSROOF_BIN: $bin_dir is not a directory"
    tools=$(absolute "${CROSSROOF_TOOLS:-$bin_dir/../tools}")
else
    common/deps.sh || exit 1
    if [ "$check" = 1 ]; then
        exec make check
    fi
    if [ ${#compare[@]} -gt 0 ]; then
        make -s tools || { echo "run_all.sh: error: the build failed" >&2; exit 1; }
    else
        make -s all || { echo "run_all.sh: error: the build failed" >&2; exit 1; }
    fi
    bin_dir=$PWD/build/bin
    tools=$(absolute "${CROSSROOF_TOOLS:-$PWD/build/tools}")
fi
[ "$check" = 1 ] && exec make check

if [ ${#compare[@]} -gt 0 ]; then
    [ -x "$tools/report" ] || { echo "run_all.sh: error: $tools/report is missing" >&2; exit 1; }
    exec "$tools/report" --compare "${compare[@]}"
fi

# Every name in --only must name a benchmark: an executable, or a CUDA one
# that could not be built.
check_only() {
    local w b n found wanted
    [ -n "$only" ] || return 0
    IFS=, read -r -a wanted <<<"$only"
    for w in "${wanted[@]}"; do
        found=0
        for b in "$bin_dir"/* cuda/*/main.c; do
            n=$(basename "$b"); [[ $b == cuda/* ]] && n=$(basename "$(dirname "$b")")-cuda
            { [ "$n" = "$w" ] || [ "${n%-*}" = "$w" ]; } && found=1
        done
        [ $found = 1 ] || die "--only: no benchmark named '$w'"
    done
}

# ---- the run directory and its options ----
if [ -n "$resume" ]; then
    out=$resume
    # shellcheck disable=SC1091
    source "$out/run-options" || die "--resume: cannot read $out/run-options"
    check_only
else
    check_only
    if [ -z "$out" ]; then
        out="$PWD/results/$(date -u +%Y%m%dT%H%M%SZ)-$(hostname -s 2>/dev/null || echo host)"
    fi
    if [ -e "$out" ]; then
        die "$out exists; an earlier run is never overwritten (--resume $out finishes it)"
    fi
    mkdir -p "$out" || exit 1
    { echo "# run_all.sh's options for this run, read back by --resume"
      declare -p quick device only extra; } > "$out/run-options"
fi
mode=full
[ ${#quick[@]} -gt 0 ] && mode=quick
log_csv=$out/run-log.csv
log_header="task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason"
[ -s "$log_csv" ] || echo "$log_header" > "$log_csv"

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
slug() { tr -c 'A-Za-z0-9.\n-' '_' <<<"$1" | tr -s '_' | cut -c1-60; }
csv_field() {
    local s=${1//$'\n'/ }
    if [[ $s == *[,\"]* ]]; then s=${s//\"/\"\"}; s="\"$s\""; fi
    printf '%s' "$s"
}
# Splits one CSV line (no line breaks inside fields) into the array F.
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
# A log's last line, without the program's name and "skipped: " before it:
# why a benchmark was skipped or failed.
last_words() { # log name
    local w
    w=$(grep -v '^ *$' "$1" | tail -n 1)
    w=${w#"$2: "}
    printf '%s' "${w#skipped: }"
}
record() { # task backend index label dir status rc seconds reason
    local line="" v
    for v in "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$mode" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$9"; do
        line+=$(csv_field "$v"),
    done
    printf '%s\n' "${line%,}" >> "$log_csv"
}

# ---- what to run: every executable on every device it lists ----
selected() { # NAME: is it in --only?
    [ -z "$only" ] && return 0
    local want
    IFS=, read -r -a want <<<"$only"
    for w in "${want[@]}"; do
        [ "$1" = "$w" ] || [ "${1%-*}" = "$w" ] && return 0
    done
    return 1
}
t_name=() t_bin=() t_backend=() t_index=() t_label=() t_dir=()
declare -A first_seen=()
dirs=()
for bin in "$bin_dir"/*; do
    [ -f "$bin" ] && [ -x "$bin" ] || continue
    name=$(basename "$bin")
    selected "$name" || continue
    backend=${name##*-}
    # One run per device the backend lists ("INDEX  NAME ..."), or one that
    # reports why there is none.
    mapfile -t devices < <("$bin" --list-devices 2>/dev/null </dev/null |
                           awk '$1 ~ /^[0-9]+$/ { i = $1; $1 = ""; sub(/^ +/, ""); print i "\t" $0 }')
    [ ${#devices[@]} -eq 0 ] && devices=("")
    for entry in "${devices[@]}"; do
        index=${entry%%$'\t'*}
        label=${entry#*$'\t'}
        label=${label#(*) }          # OpenCL lists "(platform:device) name [details]"
        label=${label%% \[*}
        if [ -n "$device" ] && [ -n "$entry" ] && [[ "${label,,}" != *"${device,,}"* ]] && [ "$index" != "$device" ]; then
            continue
        fi
        dir="$backend${index:+-$index-$(slug "$label")}"
        t_name+=("$name") t_bin+=("$bin") t_backend+=("$backend") t_index+=("$index") t_label+=("$label") t_dir+=("$dir")
        [ -n "${first_seen[$dir]:-}" ] || { first_seen[$dir]=1; dirs+=("$dir"); }
    done
done

# Done before (a resumed run): every task with a record in the log.
declare -A done_task=()
while IFS= read -r line; do
    csv_split "$line"
    [ "${F[0]}" = task ] && continue
    done_task["${F[4]}/${F[0]}"]=1
done < "$log_csv"
done_before=${#done_task[@]}

# A CUDA benchmark that make could not build (no nvcc) is skipped, not silent.
for main in cuda/*/main.c; do
    [ -e "$main" ] || continue
    name=$(basename "$(dirname "$main")")-cuda
    selected "$name" || continue
    if [ ! -e "$bin_dir/$name" ] && [ -z "${done_task[/$name]:-}" ]; then
        if [ -n "${CROSSROOF_BIN:-}" ]; then why="not in $bin_dir"; else why="not built (nvcc not found; see README, Building)"; fi
        record "$name" cuda "" "" "" skipped 77 0 "$why"
    fi
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
                          [regspill-cuda]=3)
declare -A full_default=([stream]=259 [bandwidth]=916 [regspill]=43 [atomics]=485 [sfu]=67 [fma]=157 [latency]=22
                         [regspill-cuda]=3)
declare -A history=()
history_from=""
while IFS= read -r f; do
    [ "$f" = "$log_csv" ] && continue
    found=0
    while IFS= read -r line; do
        csv_split "$line"
        [ "${F[8]:-}" = "$mode" ] || continue
        secs=${F[7]%.*}
        history["${F[4]}/${F[0]}"]=$secs
        history["${F[0]}"]=$secs
        found=1
    done < "$f"
    if [ $found = 1 ]; then history_from=$(basename "$(dirname "$f")"); break; fi
done < <(ls -t "$(dirname "$out")"/*/run-log.csv 2>/dev/null)
estimate() { # task index -> seconds
    local i=$1 name=${t_name[$1]} base=${t_name[$1]%-*} s
    s=${history["${t_dir[$i]}/$name"]:-${history[$name]:-}}
    if [ -z "$s" ]; then
        if [ -z "${t_index[$i]}" ]; then
            s=${quick_default[$name]:-1}      # no device: it only says why
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

tty=0
[ -t 1 ] && tty=1
n=${#order[@]}
before=""
[ "$done_before" -gt 0 ] && before=", $done_before done before"
echo "crossroof: $mode run in $out"
echo "crossroof: $n benchmark run(s) on ${#dirs[@]} device(s)$before; expected $(words_time "$total_est") (${history_from:+the times of }${history_from:-built-in estimates})"

# ---- running, interruptible ----
interrupted=0 child=""
on_signal() {
    interrupted=1
    # Benchmarks run in the background, where a script's children ignore
    # SIGINT: they are told to stop with SIGTERM.
    [ -n "$child" ] && kill -TERM "$child" 2>/dev/null
}
trap on_signal INT TERM

start_ms=$(now_ms)
left_after=() # estimated seconds of the work after each position
acc=$finish_estimate
for ((k = n - 1; k >= 0; k--)); do left_after[k]=$acc; acc=$((acc + est[order[k]])); done

live() { # position, task, elapsed in this task (s)
    local text
    text="[$(($1 + 1))/$n] ${t_name[$2]}${t_label[$2]:+ on ${t_label[$2]}}  elapsed $(clock $(( ($(now_ms) - start_ms) / 1000 )))"
    text+="  about $(clock $(( left_after[$1] + (est[$2] > $3 ? est[$2] - $3 : 0) ))) left"
    printf '\r\033[K%s' "${text:0:$(( ${COLUMNS:-$(tput cols 2>/dev/null || echo 100)} - 1 ))}"
}

declare -A ran_in=()   # device directories where something ran in this invocation
run_one() { # task index, position -> records the result; returns 1 when interrupted
    local i=$1 p=$2 name=${t_name[$1]} dir=$out/${t_dir[$1]} rc t0 secs ms what status reason=""
    mkdir -p "$dir"
    local args=("${quick[@]}" --out "$dir" "${extra[@]}")
    [ -n "${t_index[$i]}" ] && args+=(--device "${t_index[$i]}")
    what="[$((p + 1))/$n] $name${t_label[$i]:+ on ${t_label[$i]}}"
    if [ $tty = 0 ]; then
        echo "$what: started (elapsed $(clock $(( ($(now_ms) - start_ms) / 1000 ))), about $(clock $(( left_after[p] + est[i] ))) left)"
    fi
    t0=$(now_ms)
    "${t_bin[$i]}" "${args[@]}" >"$dir/$name.log" 2>&1 </dev/null &
    child=$!
    if [ $tty = 1 ]; then
        while kill -0 "$child" 2>/dev/null && [ $interrupted = 0 ]; do
            live "$p" "$i" $(( ($(now_ms) - t0) / 1000 ))
            sleep 0.2 &
            wait $!
        done
    fi
    wait "$child"; rc=$?
    while kill -0 "$child" 2>/dev/null; do wait "$child"; rc=$?; done
    child=""
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
    record "$name" "${t_backend[$i]}" "${t_index[$i]}" "${t_label[$i]}" "${t_dir[$i]}" "$status" "$rc" "$secs" "$reason"
    ran_in[${t_dir[$i]}]=1
    echo "$what: $status in ${secs} s${reason:+ ($reason)}"
    [ "$status" = failed ] && echo "    log: $dir/$name.log"
    return 0
}

# The X-model fit of one device, after its benchmarks: where the tool exists
# and the device has a stream CSV; again when a benchmark there ran anew.
xgraph() { # dir
    local d=$1 dir=$out/$1 rc ms t0 secs status reason=""
    [ -x "$tools/xgraph" ] || return 0
    compgen -G "$dir/stream-*.csv" >/dev/null || return 0
    [ -n "${done_task[$d/xgraph]:-}" ] && [ -z "${ran_in[$d]:-}" ] && return 0
    t0=$(now_ms)
    "$tools/xgraph" "$dir" >"$dir/xgraph.log" 2>&1 </dev/null &
    child=$!
    wait "$child"; rc=$?
    while kill -0 "$child" 2>/dev/null; do wait "$child"; rc=$?; done
    child=""
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

# ---- figures and the report ----
extra_failed=()
if [ $interrupted = 0 ]; then
    echo "crossroof: drawing the figures and writing the report"
    for d in "$out"/*/; do
        [ -d "$d" ] || continue
        [ $interrupted = 0 ] || break
        plot/plot.sh "$d" >/dev/null || extra_failed+=("figures in ${d%/}")
    done
fi
if [ $interrupted = 0 ]; then
    if [ -x "$tools/report" ]; then
        "$tools/report" "$out" >/dev/null || extra_failed+=("the report ($tools/report $out)")
    else
        extra_failed+=("the report: $tools/report is missing")
    fi
fi

# ---- the summary, from the log: this invocation and any before it ----
passed=() skipped=() failed=()
# A task run again (the X-model fit after a resume) counts once, as it ended last.
declare -A last=()
k=0
while IFS= read -r line; do
    csv_split "$line"
    last["${F[4]}/${F[0]}"]=$k
    k=$((k + 1))
done < "$log_csv"
k=0
while IFS= read -r line; do
    csv_split "$line"
    k=$((k + 1))
    [ "${F[0]}" = task ] || [ "${last["${F[4]}/${F[0]}"]}" != $((k - 1)) ] && continue
    what="${F[0]}${F[3]:+ on ${F[3]}}"
    [ "${F[0]}" = xgraph ] && what="xgraph on ${F[4]}"
    case ${F[5]} in
        passed) passed+=("$what (${F[7]} s)") ;;
        skipped) skipped+=("$what: ${F[10]}") ;;
        *) failed+=("$what: ${F[10]} (log: $out/${F[4]}/${F[0]}.log)") ;;
    esac
done < "$log_csv"
failed+=("${extra_failed[@]}")

{
    echo
    echo "crossroof summary ($out), $(clock $(( ($(now_ms) - start_ms) / 1000 ))) elapsed:"
    for p in "${passed[@]}"; do echo "  passed   $p"; done
    for s in "${skipped[@]}"; do echo "  skipped  $s"; done
    for f in "${failed[@]}"; do echo "  FAILED   $f"; done
    if [ $interrupted = 1 ]; then
        echo "Interrupted: completed benchmarks keep their results. Finish the run with:"
        echo "  ./run_all.sh --resume $out"
    elif [ -e "$out/report.html" ]; then
        echo "Report: $out/report.html (and report.md)"
    fi
} | tee "$out/summary.txt"
[ $interrupted = 1 ] && exit 130
[ ${#failed[@]} -eq 0 ]
