# shellcheck shell=bash
# Argument checks that run_all.sh and the cluster scripts share, so that a
# list the submitter accepts is one every node's run_all.sh accepts too.
# The caller defines die (one line, exit 2). Sourced, never run.

# --only's list into the array only_names. An empty list or an empty name in
# it is refused: it would select every benchmark, or none, without a word.
parse_only() { # list, what to call it in an error
    local rest=$1 name
    only_names=()
    [ -n "$rest" ] || die "$2: the list of benchmarks is empty"
    while :; do
        name=${rest%%,*}
        [ -n "$name" ] || die "$2: empty name in '$1'"
        only_names+=("$name")
        [[ $rest == *,* ]] || break
        rest=${rest#*,}
    done
}
