# shellcheck shell=bash
# How long a run will take: each task's seconds from the newest earlier run
# of the same mode beside this one, else from its benchmark's descriptor;
# and the GPU check's time budgets. Sourced by run_all.sh, never run.

# The GPU check's peers (tools/peers.sh's two CUDA modes take 45 s).
peers_budget_s=50
# A task's budget in milliseconds: CROSSROOF_GPU_CHECK_BUDGET_S, one
# budget for every benchmark (a slower GPU), whole seconds; else the
# descriptor's gpu_check_seconds for the executable (stream-opencl,
# stream-cuda), else 60 s; scaled by CROSSROOF_GPU_CHECK_BUDGET_PERCENT.
gpu_check_budget_ms() { # executable, or peers
    local s=$peers_budget_s
    [ "$1" = peers ] || desc_get s "$1" gpu_check_seconds || s=60
    s=${CROSSROOF_GPU_CHECK_BUDGET_S:-$s}
    printf '%s' $((s * ${CROSSROOF_GPU_CHECK_BUDGET_PERCENT:-100} * 10))
}
# Milliseconds as seconds, as few digits as they need: 2, 1.2, 0.35.
seconds_of() {
    printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)) | sed 's/\.\{0,1\}0*$//'
}

# The run logs beside this run, newest first, whatever their names hold.
earlier_logs() {
    local parent=${out%/*}
    find -L "${parent:-/}" -mindepth 2 -maxdepth 2 -name run-log.csv -printf '%T@\t%p\0' 2>/dev/null |
        sort -z -rn
}
# The seconds each task took in the newest earlier log of this mode
# (history), and that run's name (history_from).
read_history() {
    local f found
    declare -gA history=()
    history_from=""
    while IFS= read -r -d '' f; do
        f=${f#*$'\t'}
        [ "$f" = "$log_csv" ] && continue
        # Another run's log that is no file of its own is no estimate: said,
        # in the run's own words, and passed over.
        if [ ! -f "$f" ] || [ -L "$f" ]; then
            say "crossroof: not read for the estimate: ${f//$'\n'/\\n} (not a regular file)"
            continue
        fi
        found=0
        while csv_read; do
            # An interrupted task's seconds are not what it takes.
            [ "${F[8]:-}" = "$mode" ] && [ "${F[5]:-}" != interrupted ] || continue
            # Whole seconds only, in decimal: bash arithmetic would evaluate
            # anything else, and run what an array subscript in it holds.
            [[ ${F[7]:-} =~ ^0*([0-9]{1,9})(\.[0-9]*)?$ ]] || continue
            history["${F[4]:-}/${F[0]:-}"]=${BASH_REMATCH[1]}
            history["${F[0]:-}"]=${BASH_REMATCH[1]}
            found=1
        done < <(csv_records "$f" 2>/dev/null)
        if [ $found = 1 ]; then
            history_from=${f%/*}
            history_from=${history_from##*/}
            break
        fi
    done < <(earlier_logs)
}
# Without history, the descriptor's seconds, measured on the PoCL device of
# a shared 2-core AMD EPYC VM: no_device_seconds where the task found no
# device (default 1: it only says why), the GPU check's budget, or
# quick_seconds or full_seconds (a benchmark without a descriptor: 10 s
# quick, 120 s full).
estimate() { # task index -> seconds
    local i=$1 name=${t_name[$1]} s
    s=${history["${t_dir[$i]}/$name"]:-${history[$name]:-}}
    if [ -z "$s" ]; then
        if [ -z "${t_index[$i]}" ]; then
            desc_get s "$name" no_device_seconds || s=1
        elif [ "$mode" = gpu-check ]; then
            s=$((($(gpu_check_budget_ms "$name") + 999) / 1000))
        elif [ "$mode" = quick ]; then
            desc_get s "$name" quick_seconds || s=10
        else
            desc_get s "$name" full_seconds || s=120
        fi
    fi
    echo "$s"
}
# Every task's estimate (est), the whole run's (total_est) with the figures
# (plot.sh) and the report, per device directory (finish_estimate), and
# what is left after each position (left_after).
estimate_all() {
    local i k acc
    read_history
    finish_estimate=$((5 * ${#dirs[@]}))
    est=() total_est=$finish_estimate
    for i in "${order[@]}"; do est[$i]=$(estimate "$i"); total_est=$((total_est + est[i])); done
    n=${#order[@]}
    left_after=()
    acc=$finish_estimate
    for ((k = n - 1; k >= 0; k--)); do left_after[k]=$acc; acc=$((acc + est[order[k]])); done
}

# The terminal, for the progress line; and what the run will do.
announce() {
    local before=""
    tty=0 columns=100
    if [ -t 1 ]; then
        tty=1
        columns=${COLUMNS:-$(tput cols 2>/dev/null)}
        # It goes into arithmetic: a decimal number only (08 would be octal).
        [[ $columns =~ ^[1-9][0-9]{0,4}$ ]] || columns=100
    fi
    [ "$done_before" -gt 0 ] && before=", $done_before done before"
    say "crossroof: $mode run in $out"
    say "crossroof: $n benchmark run(s) on ${#dirs[@]} device(s)$before; expected $(words_time "$total_est") (${history_from:+the times of }${history_from:-built-in estimates})"
}
