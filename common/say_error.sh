# shellcheck shell=bash
# An error as one line a terminal shows as it is, even where a value the
# user gave holds a newline (written \n) or another control character, an
# escape sequence among them (written ?): run_all.sh's and the cluster
# scripts'. Sourced, never run.

say_error_of() { # program message
    local m=${2//$'\n'/\\n}
    printf '%s: error: %s\n' "$1" "${m//[[:cntrl:]]/?}" >&2
}
