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

# Every name in only_names must name a benchmark: an executable of BIN_DIR,
# or a CUDA one that a descriptor names and that could not be built. Needs
# the descriptors read (common/descriptor.sh).
check_only_names() { # bin_dir, what to add to the error
    local w n found cuda_exes
    desc_executables cuda_exes cuda
    for w in "${only_names[@]}"; do
        found=0
        for n in "$1"/* "${cuda_exes[@]}"; do
            n=${n##*/}
            { [ "$n" = "$w" ] || [ "${n%-*}" = "$w" ]; } && found=1
        done
        [ $found = 1 ] || die "--only: no benchmark named '$w'$2"
    done
}
