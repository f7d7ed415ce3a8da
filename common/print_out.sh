# shellcheck shell=bash
# Text on standard output that must arrive (a table, a summary, --help): a
# write that fails (a full disk, a closed stdout) is no silent loss but a
# false status, its reason in out_error, for the script to say in its own
# one line and exit 1, as the host tools do. Sourced, never run.

print_out() { # text: printed with a newline
    local rc=0
    out_error=""
    # fd 3 is stdout, beside the substitution that takes printf's complaint
    # ("...: printf: write error: No space left on device").
    { out_error=$(printf '%s\n' "$1" 2>&1 >&3); } 2>/dev/null 3>&1 || rc=$?
    [ $rc = 0 ] && return 0
    # A reader that went away (SIGPIPE) ends this shell as a write of its
    # own would have.
    [ $rc -gt 128 ] && kill -s $((rc - 128)) "$BASHPID"
    out_error=${out_error##*: }
    # Empty only where stdout could not even be duplicated: it is closed.
    out_error=${out_error:-Bad file descriptor}
    return 1
}
