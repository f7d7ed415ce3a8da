# shellcheck shell=bash
# shellcheck disable=SC2154 # check_benchmark_options reads its caller's globals
# Argument checks that run_all.sh and the cluster scripts share, so that a
# list the submitter accepts is one every node's run_all.sh accepts too.
# The caller defines die (one line, exit 2); check_benchmark_options reads
# its bin_dir, quick, extra, only and only_names. Sourced, never run.

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

# Whether an executable's NAME is one --only selects (every one without it).
selected() { # name
    [ ${#only_names[@]} -eq 0 ] && return 0
    local w
    for w in "${only_names[@]}"; do
        [ "$1" = "$w" ] || [ "${1%-*}" = "$w" ] && return 0
    done
    return 1
}

# CROSSROOF_BIN and CROSSROOF_TOOLS name folders. Unset, each has its
# default (the build; the tools beside CROSSROOF_BIN, else the build's);
# set but empty, neither a folder nor its default: refused before anything
# runs, where it would otherwise be found missing after the benchmarks.
check_env_dirs() {
    local v
    for v in CROSSROOF_BIN CROSSROOF_TOOLS; do
        [ -z "${!v+set}" ] || [ -n "${!v}" ] ||
            die "$v is set but empty: give it a directory, or unset it for its default"
    done
}

# What run_all.sh gives every benchmark itself, and so no option after --
# nor run-options line may: where it writes (--out: the run's folder of
# its device; another would take a resumed run's results anywhere) and on
# which device (--device: each device of the run in turn); nor a short
# form of either (--ou), which the benchmarks refuse but which must not
# get that far.
check_extra() { # where value
    local name=${2%%=*} whole
    # A second -- would end each benchmark's options before run_all.sh's own
    # (--out, --device); --check-options would make every task pass having
    # measured nothing.
    [ "$2" != -- ] || die "$1: a second -- would end the benchmarks' options before run_all.sh's own"
    [[ --check-options == "$name"* && $name == --c?* ]] &&
        die "$1: $name checks the options and measures nothing; run_all.sh checks them itself"
    [[ $name == --?* ]] || return 0
    for whole in --out --device; do
        [ "$name" = "$whole" ] &&
            die "$1: $whole is run_all.sh's to give (the run's folder of each device, each device in turn); use run_all.sh's own $whole"
        [[ $whole == "$name"* ]] &&
            die "$1: $name is short for $whole, which is run_all.sh's to give (the run's folder of each device, each device in turn); use run_all.sh's own $whole"
    done
    return 0
}

# The benchmarks' options (extra, with quick) go to every benchmark of the
# run: each executable of BIN_DIR that --only selects checks them first
# (--check-options: no device opened, nothing written), so that a bad one
# is refused in one line before anything is made or submitted, not by
# every task. An --only that selects no executable (a CUDA benchmark not
# built) would run nothing at all.
check_benchmark_options() { # where (the options' place in an error)
    local bin name found=0 why rc
    for bin in "$bin_dir"/*; do
        [ -f "$bin" ] && [ -x "$bin" ] || continue
        name=${bin##*/}
        selected "$name" || continue
        found=1
        [ ${#extra[@]} -gt 0 ] || continue
        why=$("$bin" --check-options "${quick[@]}" "${extra[@]}" 2>&1 >/dev/null </dev/null)
        rc=$?
        # An executable that cannot start fails as its task, as without --.
        [ $rc = 2 ] || continue
        why=${why%%$'\n'*}
        die "$1: $name refuses the options: ${why#"$name: error: "}"
    done
    [ $found = 1 ] || [ -z "$only" ] ||
        die "--only $only: no executable of it in $bin_dir (a CUDA benchmark is built only where nvcc is found)"
}
