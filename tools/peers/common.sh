# shellcheck shell=bash
# shellcheck disable=SC2154 # the options are tools/peers.sh's globals
# What the modes of tools/peers.sh share: one-line errors, the checks of
# option values, the clock, a mode's time budget and the runs held to it,
# and the rows of peers.csv. Sourced, never run.
#
# A mode is a file of a benchmark's folder, bench/<name>/peers/<mode>.sh:
# crossroof's benchmark beside a peer suite on the same work. tools/peers.sh
# sources every one at its start, so a mode file only defines:
#   peer_modes+=(MODE)   MODE, a shell name
#   MODE_option          the option that gives the peer's executable
#                        (its path then in peer_path[MODE])
#   MODE_needs           the crossroof executable it runs beside the peer
#   MODE_help            the option's --help text, its lines
#   MODE_rows            the suite of its rows in peers.csv (rows-SUITE.csv),
#                        or empty where it prints a table of its own
#   MODE_options         its own options, each taking a value
#   MODE_parse OPT VAL   takes one of them
#   MODE_check           checks its options, where the mode runs
#   MODE_run             runs it (in a subshell: it may die)
# and its options' defaults.

say_error() { # message
    local m=${1//$'\n'/ }
    printf 'peers.sh: error: %s\n' "${m//[[:cntrl:]]/?}" >&2
}
die() { # status message
    say_error "$2"
    exit "$1"
}

now_ms() {
    local t=${EPOCHREALTIME//[.,]/}
    echo $((10#$t / 1000))
}

positive() { [[ $2 =~ ^[1-9][0-9]{0,9}$ ]] || die 2 "$1: '$2' is not a positive whole number"; }
seconds() { [[ $2 =~ ^[1-9][0-9]{0,4}$ ]] || die 2 "$1: '$2' is not a whole number of seconds (1 to 99999)"; }
# A comma-separated list into the array named. An empty list, or an empty
# item anywhere in it, is refused: read -a would drop a trailing one
# (--dtype float, ran float alone) and a line after a newline.
split_list() { # array option text
    local -n items_=$1
    local rest=$3
    [ -n "$rest" ] || die 2 "$2: empty list"
    items_=()
    while :; do
        [ -n "${rest%%,*}" ] || die 2 "$2: list '$3' has an empty item"
        items_+=("${rest%%,*}")
        [[ $rest == *,* ]] || break
        rest=${rest#*,}
    done
}

# ---- a signal: the mode under way ended whole ----
# PID and every process below it, parents first, one a line, from /proc
# (a process's parent is the fourth field of its stat, after its name in
# parentheses, which may hold anything).
process_tree() { # pid
    local stat line pid ppid todo=("$1")
    local -A children=()
    for stat in /proc/[0-9]*/stat; do
        { IFS= read -r line <"$stat"; } 2>/dev/null || continue
        line=${line##*) } ppid=${line#* } ppid=${ppid%% *}
        pid=${stat#/proc/} pid=${pid%/stat}
        children[$ppid]+=" $pid"
    done
    while [ ${#todo[@]} -gt 0 ]; do
        pid=${todo[0]}
        todo=("${todo[@]:1}")
        echo "$pid"
        read -ra line <<<"${children[$pid]:-}"
        todo+=("${line[@]}")
    done
}
# Ends PID, a child of this shell, and all it started: SIGTERM to each
# (the child reaped, so that it does not stay as a zombie), SIGKILL to
# those still there after 5 s. A signal to peers.sh alone (kill, a
# timeout(1) around it) would otherwise leave the mode's subshell, its
# timeout and the suite it runs going on without it; run_all.sh ends the
# whole process group, which this never leaves.
end_process_tree() { # pid
    local pids t
    mapfile -t pids < <(process_tree "$1")
    kill -TERM "${pids[@]}" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
    for ((t = 0; t < 50; t++)); do
        kill -0 "${pids[@]}" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "${pids[@]}" 2>/dev/null || true
}

# ---- a mode's budget ----
# A mode starts a slice only where one as long as its longest so far still
# fits in what is left; every run within it is stopped where the budget
# ends, and the slice it belonged to is then left out whole.
budget_start() { # seconds
    budget_ms=$(($1 * 1000)) budget_t0=$(now_ms) longest_ms=0
}
budget_left_ms() { echo $((budget_ms - ($(now_ms) - budget_t0))); }
slice_fits() { [ "$longest_ms" = 0 ] || [ "$(budget_left_ms)" -ge "$longest_ms" ]; }
slice_took() { # ms
    [ "$1" -le "$longest_ms" ] || longest_ms=$1
}

# Runs command with its output into log (appended), stopped where the
# budget ends: 124 then, else its own status. --foreground keeps it in this
# process group, which run_all.sh ends whole at its own deadline.
run_within_budget() { # log command...
    local log=$1 left
    shift
    left=$(budget_left_ms)
    [ "$left" -gt 0 ] || return 124
    local rc=0
    timeout --foreground -k 2 "$((left / 1000)).$(printf '%03d' $((left % 1000)))" "$@" >>"$log" 2>&1 </dev/null ||
        rc=$?
    [ $rc = 137 ] && rc=124
    return $rc
}

# A CUDA mode's slices, as many of planned as its budget allows: each runs
# "slice_fn S DIR" (0, or 124 where the budget ended: then it is left out),
# its samples in DIR/samples; then the rows of the slices that completed.
run_slices() { # suite budget planned slice_fn
    local suite=$1 planned=$3 base=$out/$1 s done=0 rc=0 t0
    mkdir -p -- "$base" || die 1 "cannot create $base"
    : >"$base/samples" || die 1 "cannot write $base/samples"
    budget_start "$2"
    for ((s = 1; s <= planned; s++)); do
        slice_fits || break
        printf 'peers.sh: %s slice %d/%d\n' "$suite" "$s" "$planned" >&2
        t0=$(now_ms)
        if ! mkdir -p -- "$base/slice$s" || ! : >"$base/slice$s/samples"; then
            die 1 "cannot create $base/slice$s"
        fi
        "$4" "$s" "$base/slice$s" || rc=$?
        [ $rc = 0 ] || break
        cat -- "$base/slice$s/samples" >>"$base/samples"
        slice_took $(($(now_ms) - t0))
        done=$s
    done
    [ "$done" -gt 0 ] || die 1 "$suite: its budget of $2 s ended before one slice completed (logs in $base)"
    write_rows "$suite" "$base/samples" "$done" "$planned"
}

# A run's last words, for its one-line error.
last_line() { # log
    grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n 1 | cut -c1-300
}

# The ratios of a mode's samples as rows of peers.csv (tools/peers/ratios.awk
# says how each statistic pools its slices), into out/rows-<suite>.csv.
write_rows() { # suite samples-file slices-done slices-planned
    awk -v suite="$1" -v done="$3" -v planned="$4" -f "$here/tools/peers/ratios.awk" "$2" \
        >"$out/rows-$1.csv" || die 1 "$1: cannot write $out/rows-$1.csv"
}

# peers.csv as a table on stdout.
print_table() { # csv
    csv_records "$1" | awk -F '\037' '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
                  printf "%-16s %-40s %-6s %10s %-6s %11s %11s %7s %9s  %s\n", "suite", "test", "dtype", "MiB", "stat",
                      "crossroof", "peer", "ratio", "n", "flags"
                  next }
        { printf "%-16s %-40s %-6s %10.4g %-6s %11.2f %11.2f %6.3fx %4d/%-4d  %s\n", $col["suite"],
              $col["test"] ($col["test"] == $col["crossroof_test"] ? "" : " (" $col["crossroof_test"] ")"),
              $col["dtype"], $col["size_bytes"] / 1048576, $col["statistic"], $col["crossroof"], $col["peer"],
              $col["ratio"], $col["n_crossroof"], $col["n_peer"], $col["flags"]
          if ($col["note"] != "") print "    " $col["note"] }
        END { print "(GB/s of the same bytes; ratio = crossroof / the peer, above 1 where crossroof is faster)" }'
}
