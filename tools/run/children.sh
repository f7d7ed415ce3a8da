# shellcheck shell=bash
# ---- children: each in a process group of its own, ended with it ----
# A benchmark, xgraph, plot.sh or the report runs in a session and process
# group of its own (setsid): a signal to the group reaches everything it
# started, and a Ctrl-C on the terminal reaches run_all alone, which then
# ends the group in order: SIGTERM, and SIGKILL after grace_s seconds.
# setpriv's parent-death signal stops the child where run_all dies without a
# word (SIGKILL); it reaches that process, not its own children. Sourced by
# run_all.sh, never run.

grace_s=5
interrupted=0 stop_status=0 child="" rc=0
deadline_ms=0 timed_out=0 # a child's time budget (0: none), and whether it ran out
on_signal() { # exit status: 128 + the signal's number
    interrupted=1
    [ "$stop_status" != 0 ] || stop_status=$1
}
catch_signals() {
    trap 'on_signal 130' INT
    trap 'on_signal 143' TERM
    trap 'on_signal 129' HUP
}

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
# Waits for the child, waking every 0.2 s (sooner while it is young, so
# that a child of a few milliseconds costs no more): to run the command
# given (the progress line), to see a signal that came just before a wait
# began (a signal ends a wait only while it waits), and to see the end of
# deadline_ms (timed_out=1). Then ends what is left of its group, all of it
# after a signal or the deadline. The child's exit status goes to rc.
wait_child() { # [command to run at each wake]
    timed_out=0
    local ticks=(0.01 0.02 0.05 0.1 0.2) k=0
    while kill -0 "$child" 2>/dev/null && [ $interrupted = 0 ]; do
        if [ "$deadline_ms" -gt 0 ] && [ "$(now_ms)" -ge "$deadline_ms" ]; then
            timed_out=1
            break
        fi
        [ $# -eq 0 ] || "$@"
        sleep "${ticks[k]}" {lock_fd}>&- & # it may outlive run_all: without the lock
        wait $!
        [ $k = 4 ] || k=$((k + 1))
    done
    end_group "$child"
    wait "$child"
    rc=$?
    child=""
}
