# shellcheck shell=bash
# Running the tasks, interruptible, each recorded in the run log: the
# benchmarks, each device's X-model fit after its benchmarks, and the GPU
# check's peers. Sourced by run_all.sh, never run.

live() { # position, task, when it started (ms)
    local text in_task=$(( ($(now_ms) - $3) / 1000 ))
    text="[$(($1 + 1))/$n] ${t_name[$2]}${t_label[$2]:+ on ${t_label[$2]}}  elapsed $(clock $(( ($(now_ms) - start_ms) / 1000 )))"
    text+="  about $(clock $(( left_after[$1] + (est[$2] > in_task ? est[$2] - in_task : 0) ))) left"
    printf '\r\033[K%s' "${text:0:$((columns - 1))}"
}

# What a benchmark's exit status says: status and reason.
outcome() { # log name
    case $rc in
        0) status=passed ;;
        77) status=skipped; reason=$(last_words "$1" "$2") ;;
        *) status=failed; reason="exit $rc: $(last_words "$1" "$2")" ;;
    esac
}

# The task's options into args: the run's, or the GPU check's (its
# descriptor's), and its time budget in ms into budget (0: none).
task_args() { # task index, its directory
    local name=${t_name[$1]} options
    args=("${quick[@]}" --out "$2" "${extra[@]}") budget=0
    if [ "$gpu_check" = 1 ]; then
        desc_get options "$name" gpu_check_options || options=--quick
        read -ra args <<<"$options"
        args+=(--out "$2")
        budget=$(gpu_check_budget_ms "$name")
    fi
    [ -n "${t_index[$1]}" ] && args+=(--device "${t_index[$1]}")
}

# What a task writes stays in the run's folder: its device folder a real
# one (a symbolic link there, in a run resumed from elsewhere, would take
# the results anywhere), and its log a file or nothing (a FIFO would hold
# the run, a link be written through). One line and exit 1 otherwise.
own_place() { # device folder, log
    [ ! -L "$1" ] || fail "$1 is a symbolic link: a run writes only inside its own folder"
    [ ! -L "$2" ] || fail "$2 is a symbolic link: a run writes only inside its own folder"
    [ ! -e "$2" ] || [ -f "$2" ] || fail "$2 is there but no regular file: a task's log is written whole in its place"
}

run_one() { # task index, position -> records the result; returns 1 when interrupted
    local i=$1 p=$2 name=${t_name[$1]} dir=$out/${t_dir[$1]} t0 secs what status reason="" err args budget
    err=$(mkdir -p -- "$dir" 2>&1) || fail "cannot create $dir: $(reason "$err")"
    own_place "$dir" "$dir/$name.log"
    task_args "$i" "$dir"
    what="[$((p + 1))/$n] $name${t_label[$i]:+ on ${t_label[$i]}}"
    if [ $tty = 0 ]; then
        say "$what: started (elapsed $(clock $(( ($(now_ms) - start_ms) / 1000 ))), about $(clock $(( left_after[p] + est[i] ))) left)"
    fi
    t0=$(now_ms)
    { start_child "${t_bin[$i]}" "${args[@]}" >"$dir/$name.log" 2>&1 </dev/null; } 2>/dev/null ||
        fail "cannot write $dir/$name.log"
    [ "$budget" -gt 0 ] && deadline_ms=$((t0 + budget))
    if [ $tty = 1 ]; then wait_child live "$p" "$i" "$t0"; else wait_child; fi
    deadline_ms=0
    secs=$(tenths_since "$t0")
    [ $tty = 1 ] && printf '\r\033[K'
    if [ $interrupted = 1 ] && [ $rc -ne 0 ]; then
        record "$name" "${t_backend[$i]}" "${t_index[$i]}" "${t_label[$i]}" "${t_dir[$i]}" interrupted "$rc" "$secs" \
            "$(stopped_by) after $secs s: the rows it completed are kept; --resume runs it again"
        say "$what: interrupted after ${secs} s; --resume runs it again from the start"
        return 1
    fi
    outcome "$dir/$name.log" "$name"
    if [ "$timed_out" = 1 ]; then # 124, as timeout(1) says it
        status=failed rc=124 reason="timed out: stopped at its budget of $(seconds_of "$budget") s; the rows it completed are kept"
    fi
    record "$name" "${t_backend[$i]}" "${t_index[$i]}" "${t_label[$i]}" "${t_dir[$i]}" "$status" "$rc" "$secs" "$reason"
    ran_in[${t_dir[$i]}]=1
    say "$what: $status in ${secs} s${reason:+ ($reason)}"
    [ "$status" = failed ] && say "    log: $dir/$name.log"
    return 0
}

# Whether the device has results of the benchmark that gives the X-model
# its memory side (xmodel=memory in its descriptor).
has_memory_csv() { # dir
    local f b
    desc_find b xmodel memory || return 1
    for f in "$1/$b"-*.csv; do [ -e "$f" ] && return 0; done
    return 1
}
# The X-model fit of one device, after its benchmarks: where the tool exists
# and the device has those results; again when a benchmark there ran anew.
xgraph() { # dir
    local d=$1 dir=$out/$1 t0 secs status reason=""
    [ -x "$tools/xgraph" ] || return 0
    # The GPU check runs no concurrency sweep, which the fit needs.
    [ "$gpu_check" = 1 ] && return 0
    has_memory_csv "$dir" || return 0
    [ -n "${done_task[$d/xgraph]:-}" ] && [ -z "${ran_in[$d]:-}" ] && return 0
    # What an xgraph killed outright (SIGKILL: no handler runs) left: its
    # hidden temporaries. The run's lock says no other xgraph writes here.
    rm -f -- "$dir"/.xgraph-*
    t0=$(now_ms)
    local no_plot=()
    [ "$gnuplot_found" = 1 ] || no_plot=(--no-plot)
    { start_child "$tools/xgraph" "$dir" "${no_plot[@]}" >"$dir/xgraph.log" 2>&1 </dev/null; } 2>/dev/null ||
        fail "cannot write $dir/xgraph.log"
    wait_child
    secs=$(tenths_since "$t0")
    if [ $interrupted = 1 ] && [ $rc -ne 0 ]; then
        record xgraph host "" "" "$d" interrupted "$rc" "$secs" "$(stopped_by) after $secs s; --resume fits it again"
        return 1
    fi
    outcome "$dir/xgraph.log" xgraph
    record xgraph host "" "" "$d" "$status" "$rc" "$secs" "$reason"
    say "xgraph on $d: $status in ${secs} s${reason:+ ($reason)}"
    return 0
}

# What stopped the run, in words: "stopped by SIGINT".
stopped_by() {
    case $stop_status in
        130) echo "stopped by SIGINT" ;;
        143) echo "stopped by SIGTERM" ;;
        129) echo "stopped by SIGHUP" ;;
        *) echo "stopped" ;;
    esac
}
# The tasks from position k on, which an interruption kept from starting:
# each is recorded as interrupted, so that the log (and the report) lists
# every task the run still owes, and --resume runs them.
record_not_started() { # position
    local k i
    for ((k = $1; k < n; k++)); do
        i=${order[k]}
        record "${t_name[$i]}" "${t_backend[$i]}" "${t_index[$i]}" "${t_label[$i]}" "${t_dir[$i]}" interrupted "$stop_status" 0 \
            "not started: the run was $(stopped_by) before it; --resume runs it"
    done
}

# Every task in order, each device's fit after its last one; then the fit
# of devices whose benchmarks all ran before a resume.
run_tasks() {
    local k i d
    declare -gA ran_in=() # device directories where something ran in this invocation
    start_ms=$(now_ms)
    for ((k = 0; k < n && interrupted == 0; k++)); do
        i=${order[k]}
        run_one "$i" "$k" || { k=$((k + 1)); break; }
        # The last benchmark of its device: the device's X-model.
        if [ $((k + 1)) -eq "$n" ] || [ "${t_dir[${order[k + 1]}]}" != "${t_dir[$i]}" ]; then
            [ $interrupted = 0 ] && { xgraph "${t_dir[$i]}" || { k=$((k + 1)); break; }; }
        fi
    done
    [ $interrupted = 1 ] && record_not_started "$k"
    if [ $interrupted = 0 ]; then
        for d in "${dirs[@]}"; do
            [ -z "${ran_in[$d]:-}" ] && { xgraph "$d" || break; }
        done
    fi
}

# ---- the GPU check's peers: crossroof beside BabelStream and nvbandwidth ----
# tools/peers.sh with the peers' executables (cuda-stream, nvbandwidth) from
# CROSSROOF_PEERS, else build/peers/ beside run_all.sh (the tree's, or a
# bundle's), on the first CUDA device the check ran on; into <run>/peers/,
# held to its budget like a benchmark, and recorded as task peers.
run_peers() {
    local dir=${CROSSROOF_PEERS:-} args=() i index="" label="" t0 secs status reason="" budget err said
    [ $interrupted = 0 ] && [ "$gpu_check" = 1 ] && [ -z "${done_task[peers/peers]:-}" ] || return 0
    [ -n "$dir" ] || dir=build/peers
    [ -x "$dir/cuda-stream" ] && args+=(--babelstream-cuda "$dir/cuda-stream")
    [ -x "$dir/nvbandwidth" ] && args+=(--nvbandwidth "$dir/nvbandwidth")
    for i in "${!t_name[@]}"; do
        [ "${t_backend[$i]}" = cuda ] && [ -n "${t_index[$i]}" ] && { index=${t_index[$i]} label=${t_label[$i]}; break; }
    done
    if [ ${#args[@]} = 0 ] || [ -z "$index" ]; then
        [ ${#args[@]} = 0 ] && reason="no peer executables in $dir" || reason="no CUDA device listed"
        record peers host "" "" peers skipped 77 0 "$reason"
        say "peers: skipped ($reason)"
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
    secs=$(tenths_since "$t0")
    if [ $interrupted = 1 ] && [ $rc -ne 0 ]; then
        record peers host "$index" "$label" peers interrupted "$rc" "$secs" "$(stopped_by) after $secs s; --resume runs it again"
        return 1
    fi
    # Its first error says why: the table of the modes that ran comes after it.
    said=$(grep -m 1 '^peers.sh: error: ' "$out/peers/peers.log")
    said=${said#peers.sh: error: }
    [ -n "$said" ] || said=$(last_words "$out/peers/peers.log" peers.sh)
    case $rc in
        0) status=passed ;;
        77) status=skipped reason=$said ;; # no device for any peer's mode
        *) status=failed reason="exit $rc: $said" ;;
    esac
    [ "$timed_out" = 1 ] && status=failed rc=124 reason="timed out: stopped at its budget of $(seconds_of "$budget") s"
    record peers host "$index" "$label" peers "$status" "$rc" "$secs" "$reason"
    say "peers on $label: $status in ${secs} s${reason:+ ($reason)}"
    return 0
}
