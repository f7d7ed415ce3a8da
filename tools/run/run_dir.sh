# shellcheck shell=bash
# The run directory: checked before anything runs, created once the
# benchmarks are known, locked while run_all.sh writes it, and its files
# written whole. Sourced by run_all.sh, never run.

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
    # Never through a link: the pid written into it would land wherever it points.
    [ ! -L "$lock" ] || die "cannot lock $1: $lock is a symbolic link, where the lock must be a file of its own"
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
# A new run's directory: --out, or results/<UTC date>-<host>.
choose_out() {
    if [ -z "$resume" ] && [ ${#compare[@]} -eq 0 ] && [ "$check" = 0 ]; then
        [ -n "$out" ] || out="$PWD/results/$(date -u +%Y%m%dT%H%M%SZ)-$(hostname -s 2>/dev/null || echo host)"
        check_new_out "$out"
    fi
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

# A run's run-options never change once written (write_atomically): they are
# read before the lock, so that a bad file leaves the directory as it was.
open_resumed_run() {
    [ -n "$resume" ] || return 0
    out=$resume
    read_run_options "$out/run-options"
    lock_run_dir "$out"
}

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
