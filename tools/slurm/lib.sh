# shellcheck shell=bash
# Shared by the cluster scripts of tools/slurm: errors, key=value files,
# node states. Sourced, never run.

. "$(dirname "${BASH_SOURCE[0]}")/../../common/say_error.sh"
say_error() { say_error_of crossroof-slurm "$*"; }
die() { say_error "$@"; exit 2; }  # bad usage: nothing was submitted
fail() { say_error "$@"; exit 1; } # it cannot go on

# key=value files (cluster-options, status/<node>): kv_escape, kv_unescape.
. "$(dirname "${BASH_SOURCE[0]}")/../../common/kv.sh"

# Writes stdin to PATH through PATH.tmp.PID renamed over it: a reader on
# another node sees the file whole or as it was.
write_whole() { # path
    local tmp=$1.tmp.$$
    if cat >"$tmp" && mv -f -- "$tmp" "$1"; then return 0; fi
    rm -f -- "$tmp"
    return 1
}

# One value of a node's status file (status/<node>), into the variable named.
status_value() { # variable file key
    local line v=""
    while IFS= read -r line; do
        [ "${line%%=*}" = "$3" ] && { kv_unescape v "${line#*=}" || v=""; }
    done <"$2"
    printf -v "$1" '%s' "$v"
}

# What a node's run came to, from its status file: passed (run_all.sh exit 0),
# failed (exit 1: a benchmark, a figure or the report failed; every task ran),
# interrupted (a signal, or no end recorded: the job was killed), error (any
# other exit: run_all.sh refused to run), missing (no status: it never began).
# Only passed and failed are complete: --resume runs the others again.
node_state() { # status file -> state on stdout
    local exit_code state
    [ -f "$1" ] || { echo missing; return; }
    status_value state "$1" state
    status_value exit_code "$1" exit
    if [ "$state" != finished ]; then echo interrupted; return; fi
    case $exit_code in
        0) echo passed ;;
        1) echo failed ;;
        1[2-9][0-9] | 2[0-5][0-9]) echo interrupted ;;
        *) echo error ;;
    esac
}
node_complete() { # status file
    case $(node_state "$1") in passed | failed) return 0 ;; esac
    return 1
}

# One CSV field (RFC 4180): quoted where it holds a comma, a quote or a line break.
csv_field() {
    local s=$1
    if [[ $s == *[,\"$'\n'$'\r']* ]]; then s=${s//\"/\"\"}; s="\"$s\""; fi
    printf '%s' "$s"
}
csv_row() { # fields...
    local line="" v
    for v in "$@"; do line+=$(csv_field "$v"),; done
    printf '%s\n' "${line%,}"
}
# The jobs of a comma-separated list still queued or running, on one line;
# false, with squeue's words, where squeue cannot say. A job that ended long
# enough ago for the controller to forget it is "Invalid job id": gone.
queued() { # ids
    local said
    if said=$(squeue -h -o %i -j "$1" 2>&1); then
        printf '%s' "$(tr '\n' ' ' <<<"$said" | sed 's/ *$//')"
        return 0
    fi
    [[ $said == *"Invalid job id"* ]] && return 0
    printf '%s' "${said//$'\n'/ }"
    return 1
}
utc_now() { date -u +%Y-%m-%dT%H:%M:%SZ; }
# The results database tool among the host tools, on stdout; false where
# it is not built.
db_tool_in() { # tools dir
    [ -f "$1/crossroof-db" ] && [ -x "$1/crossroof-db" ] || return 1
    printf '%s' "$1/crossroof-db"
}
