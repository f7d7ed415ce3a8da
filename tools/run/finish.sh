# shellcheck shell=bash
# After the tasks: the energy levels, the figures and the report of every
# device; the summary, from the log; and the GPU check's verdict. Sourced by
# run_all.sh, never run.

# ---- figures and the report ----
# The energy levels of every device (the GPU check's too): a table of its
# own beside the CSVs, which the figures and the report read.
# Whether a device folder holds what a benchmark wrote: its metadata, which
# every benchmark writes beside its results.
has_metadata() { # dir/
    local f
    for f in "$1"*.meta.csv; do [ -e "$f" ] && return 0; done
    return 1
}
energy_levels() {
    local d
    [ $interrupted = 0 ] || return 0
    for d in "$out"/*/; do
        [ -d "$d" ] && [ "$d" != "$out/peers/" ] || continue
        # A device whose benchmarks all ended before writing has nothing to judge.
        has_metadata "$d" || continue
        if [ ! -x "$tools/energy-levels" ]; then
            extra_failed+=("the energy levels: $tools/energy-levels is missing")
            break
        fi
        start_child "$tools/energy-levels" "${d%/}" >/dev/null
        wait_child
        [ $interrupted = 0 ] || break
        [ $rc = 0 ] || extra_failed+=("the energy levels in ${d%/} ($tools/energy-levels ${d%/})")
    done
}
# A host tool on the whole run: the theses held against every device
# (reproduce: RUN/reproduce.md and each device's reproduce.csv, which the
# report reads), then the report.
run_tool() { # tool what
    [ $interrupted = 0 ] || return 0
    if [ ! -x "$tools/$1" ]; then
        extra_failed+=("$2: $tools/$1 is missing")
        return
    fi
    start_child "$tools/$1" "$out" >/dev/null
    wait_child
    [ $rc = 0 ] || [ $interrupted = 1 ] || extra_failed+=("$2 ($tools/$1 $out)")
}
# The GPU check's short sweeps are not what the figures are drawn from;
# without gnuplot there are none (said at the start). A signal while they
# are drawn leaves those of the folder under way and of every folder after
# it owed: each is recorded as interrupted, as a benchmark is.
draw_figures() {
    local d folders=() k
    if [ $interrupted = 0 ] && { [ "$gpu_check" = 1 ] || [ "$gnuplot_found" = 0 ]; }; then
        say "crossroof: writing the report"
    elif [ $interrupted = 0 ]; then
        say "crossroof: drawing the figures and writing the report"
        for d in "$out"/*/; do [ -d "$d" ] && folders+=("${d%/}"); done
        for ((k = 0; k < ${#folders[@]}; k++)); do
            if [ $interrupted = 0 ]; then
                draw_figures_in "${folders[k]}"
            else
                figures_record "${folders[k]}" interrupted "$stop_status" 0 \
                    "not started: the run was $(stopped_by) before them; --resume draws them"
            fi
        done
    fi
}
# plot.sh on one device folder, and how it ended.
draw_figures_in() { # folder
    local t0 secs
    # Figures a plot.sh killed outright left under their drawing names.
    rm -f -- "$1"/.*.drawing.*
    t0=$(now_ms)
    CROSSROOF_TOOLS=$tools start_child plot/plot.sh "$1/" >/dev/null
    wait_child
    secs=$(tenths_since "$t0")
    if [ $interrupted = 1 ] && [ $rc != 0 ]; then
        figures_record "$1" interrupted "$rc" "$secs" "$(stopped_by) after $secs s; --resume draws them again"
    elif [ $rc = 0 ]; then
        figures_record "$1" passed 0 "$secs" ""
    else
        figures_record "$1" failed "$rc" "$secs" "plot.sh exit $rc (plot/plot.sh $1 says why)" ||
            extra_failed+=("figures in $1")
    fi
}
# A folder's figures (task figures) in the run log: where they are owed,
# and how they were drawn once the log owed them, its last word on them
# for the summary, the report and --resume; false where nothing is
# recorded (a run that draws them uninterrupted records none).
figures_record() { # folder status exit_code seconds reason
    local dir=${1#"$out/"}
    [ "$2" = interrupted ] || [ -n "${owed[$dir/figures]:-}" ] || return 1
    record figures host "" "" "$dir" "$2" "$3" "$4" "$5"
}
finish_run() {
    extra_failed=()
    energy_levels
    run_tool reproduce "the reproduction of the theses"
    draw_figures
    run_tool report "the report"
}

# ---- the summary, from the log: this invocation and any before it ----
# A task run again (the X-model fit after a resume) counts once, as it ended last.
summarize() {
    local k=0 what why log
    declare -A last=()
    passed=() skipped=() failed=() unfinished=()
    while csv_read; do
        last["${F[4]:-}/${F[0]:-}"]=$k
        k=$((k + 1))
    done < <(csv_records "$log_csv")
    k=0
    while csv_read; do
        k=$((k + 1))
        [ "${F[0]:-}" = task ] || [ "${last["${F[4]:-}/${F[0]:-}"]}" != $((k - 1)) ] && continue
        what="${F[0]}${F[3]:+ on ${F[3]}}"
        [ "${F[0]}" = xgraph ] && what="xgraph on ${F[4]}"
        log=" (log: $out/${F[4]:-}/${F[0]}.log)"
        [ "${F[0]}" = figures ] && what="figures of ${F[4]}" log="" # plot.sh keeps none
        why=${F[10]:-}
        why=${why//$'\n'/ } # one line per entry, of a readable length
        [ ${#why} -le 300 ] || why="${why:0:300}... (the whole reason: run-log.csv)"
        case ${F[5]:-} in
            passed) passed+=("$what (${F[7]:-} s)") ;;
            skipped) skipped+=("$what: $why") ;;
            interrupted) unfinished+=("$what: $why") ;;
            *) failed+=("$what: $why$log") ;;
        esac
    done < <(csv_records "$log_csv")
    failed+=("${extra_failed[@]}")
}
summary_text() {
    local p s f
    echo
    echo "crossroof summary ($out), $(clock $(( ($(now_ms) - start_ms) / 1000 ))) elapsed:"
    for p in "${passed[@]}"; do echo "  passed   $p"; done
    for s in "${skipped[@]}"; do echo "  skipped  $s"; done
    for f in "${failed[@]}"; do echo "  FAILED   $f"; done
    for f in "${unfinished[@]}"; do echo "  INTERRUPTED $f"; done
    if [ $interrupted = 1 ]; then
        echo "Interrupted: completed benchmarks keep their results. Finish the run with:"
        echo "  ./run_all.sh --resume $(printf '%q' "$out")"
    elif [ -e "$out/report.html" ]; then
        echo "Report: $out/report.html (and report.md)"
    fi
}
# Printed, and kept whole as summary.txt, or not there at all; an
# interrupted run ends here.
write_summary() {
    local summary
    summarize
    summary=$(summary_text)
    say "$summary"
    printf '%s\n' "$summary" | write_atomically "$out/summary.txt" || exit 1
    [ $interrupted = 1 ] && exit "$stop_status"
}

# ---- the GPU check's verdict: its table, kept as <run>/gpu-check.txt ----
gpu_check_verdict() {
    local verdict=$out/gpu-check.txt judged err
    [ "$gpu_check" = 1 ] || return 0
    [ -x "$tools/gpu-check" ] || fail "$tools/gpu-check is missing"
    { start_child "$tools/gpu-check" "$out" --gpus-visible "$gpus_visible" >"$verdict.tmp.$$" 2>&1 </dev/null; } \
        2>/dev/null || fail "cannot write $verdict"
    wait_child
    [ $interrupted = 1 ] && { rm -f -- "$verdict.tmp.$$"; exit "$stop_status"; }
    judged=$rc
    err=$(mv -f -- "$verdict.tmp.$$" "$verdict" 2>&1) || fail "cannot write $verdict: $(reason "$err")"
    say ""
    say "$(cat -- "$verdict")"
    case $judged in
        0) ;;
        77) exit 77 ;; # no GPU, and no CUDA benchmark found a device
        1) exit 1 ;;
        *) say_error "$tools/gpu-check could not judge $out (exit $judged)"; exit 1 ;;
    esac
}
