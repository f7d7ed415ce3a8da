# shellcheck shell=bash
# What a run needs before it lists anything: the executables (built here,
# given, or come in a GPU bundle), util-linux, the benchmarks' descriptors,
# the benchmarks --only or --gpu-check names, NVIDIA's OpenCL driver, and
# what can be done without. Sourced by run_all.sh, never run.

# ---- dependencies and the build ----
# Executables given (CROSSROOF_BIN) or come built (a GPU bundle of make
# gpu-bundle, marked by gpu-bundle.txt): nothing is installed or built.
# --check and --compare go no further.
find_executables() {
    if [ -n "${CROSSROOF_BIN:-}" ]; then
        absolute bin_dir "$CROSSROOF_BIN"
        [ -d "$bin_dir" ] || die "CROSSROOF_BIN: $bin_dir is not a directory"
        has_benchmarks "$bin_dir" || die "CROSSROOF_BIN: $bin_dir holds no benchmark executable (*-opencl, *-cuda)"
        absolute tools "${CROSSROOF_TOOLS:-$bin_dir/../tools}"
        [ -z "${CROSSROOF_TOOLS:-}" ] || [ -d "$tools" ] || die "CROSSROOF_TOOLS: $tools is not a directory"
    elif [ -f gpu-bundle.txt ]; then
        [ "$check" = 0 ] || die "--check builds and tests the source tree; a GPU bundle holds none"
        bin_dir=$PWD/build/bin
        absolute tools "${CROSSROOF_TOOLS:-$PWD/build/tools}"
        # The CUDA offline compiler, where the bundle carries one.
        [ -n "${CUDA_HOME:-}" ] || [ ! -x build/cuda/bin/ptxas ] || export CUDA_HOME=$PWD/build/cuda
    else
        build_here
    fi
    [ "$check" = 1 ] && exec make check
    if [ ${#compare[@]} -gt 0 ]; then
        [ -x "$tools/report" ] || fail "$tools/report is missing"
        exec "$tools/report" --compare "${compare[@]}"
    fi
    [ -z "$reproduce" ] || reproduce_and_report
}
# --reproduce: the theses held against a run made before, its report written
# again with their section.
reproduce_and_report() {
    local t
    for t in reproduce report; do
        [ -x "$tools/$t" ] || fail "$tools/$t is missing"
    done
    "$tools/reproduce" "$reproduce" || exit
    exec "$tools/report" "$reproduce"
}
# Whether a folder holds an executable of a benchmark: a run of none
# would make a run directory of skipped tasks.
has_benchmarks() { # dir
    local f
    for f in "$1"/*-opencl "$1"/*-cuda; do [ -f "$f" ] && [ -x "$f" ] && return 0; done
    return 1
}
build_here() {
    common/deps.sh || exit 1
    if [ "$check" = 1 ]; then
        exec make check
    fi
    if [ ${#compare[@]} -gt 0 ] || [ -n "$reproduce" ]; then
        make -s tools || fail "the build failed"
    else
        make -s all || fail "the build failed"
    fi
    bin_dir=$PWD/build/bin
    absolute tools "${CROSSROOF_TOOLS:-$PWD/build/tools}"
}

# A run holds together with util-linux: process groups (setsid), the signal
# a benchmark gets when run_all dies (setpriv --pdeathsig), the lock (flock).
need_util_linux() {
    local t lacking=()
    for t in setsid setpriv flock; do
        command -v "$t" >/dev/null || lacking+=("$t")
    done
    [ ${#lacking[@]} -eq 0 ] || fail "${lacking[*]} not found: install util-linux (common/deps.sh checks for it)"
}

# The benchmarks' descriptors (common/descriptor.sh): their estimates, their
# options and budgets in the GPU check, their CUDA executables.
read_descriptors() {
    desc_read_all . || fail "$desc_error"
}

# NVIDIA's OpenCL driver, where the ICD loader would not find it: a driver
# mounted into a container brings libnvidia-opencl.so.1 without its
# /etc/OpenCL/vendors/nvidia.icd. Then the loader reads a vendors directory
# of its own (OCL_ICD_VENDORS): the system's .icd files and one for NVIDIA's.
use_nvidia_opencl() {
    [ -z "${OCL_ICD_VENDORS:-}" ] || return 0
    grep -qs nvidia /etc/OpenCL/vendors/*.icd && return 0
    local lib="" d
    lib=$(ldconfig -p 2>/dev/null | awk '$1 == "libnvidia-opencl.so.1" { print $NF; exit }')
    for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/lib64; do
        [ -n "$lib" ] || [ ! -e "$d/libnvidia-opencl.so.1" ] || lib=$d/libnvidia-opencl.so.1
    done
    [ -n "$lib" ] || return 0
    icd_dir=$(mktemp -d "${TMPDIR:-/tmp}/crossroof-icd.XXXXXX") || return 0
    trap 'rm -rf -- "$icd_dir"' EXIT
    cp -- /etc/OpenCL/vendors/*.icd "$icd_dir/" 2>/dev/null
    printf '%s\n' "$lib" >"$icd_dir/nvidia.icd"
    export OCL_ICD_VENDORS=$icd_dir
    say "crossroof: NVIDIA's OpenCL driver $lib has no .icd file in /etc/OpenCL/vendors; using it through OCL_ICD_VENDORS"
}

# The GPU check runs the CUDA benchmarks, each of them: those the
# descriptors name (one that could not be built is recorded as skipped,
# which fails the check where a GPU is) and those built, all that a GPU
# bundle knows of; and, where its driver has an OpenCL ICD, the same GPU
# through OpenCL, for the benchmarks whose descriptor gives OpenCL options
# for it (the memory paths and the latency, beside CUDA's, as the theses
# measured).
gpu_check_names() {
    [ "$gpu_check" = 1 ] || return 0
    local exe cuda_exes opencl_exes options
    declare -A cuda_names=()
    desc_executables cuda_exes cuda
    for exe in "${cuda_exes[@]}" "$bin_dir"/*-cuda; do
        [ -e "$exe" ] || [[ $exe != */* ]] || continue
        cuda_names[${exe##*/}]=1
    done
    only_names=("${!cuda_names[@]}")
    [ ${#only_names[@]} -gt 0 ] || fail "--gpu-check: no CUDA benchmark in the descriptors or $bin_dir"
    desc_executables opencl_exes opencl
    for exe in "${opencl_exes[@]}"; do
        desc_get options "$exe" gpu_check_options && [ -x "$bin_dir/$exe" ] && only_names+=("$exe")
    done
    use_nvidia_opencl
}

# What is not here and can be done without (in a GPU bundle, or with
# CROSSROOF_BIN, nothing installs it) is said in one line; the run goes on.
say_lacking() {
    local lacking=() said
    if [ "$gpu_check" = 1 ] && ! command -v nvidia-smi >/dev/null; then
        lacking+=("nvidia-smi (the GPUs are not counted; the CUDA benchmarks look for themselves)")
    fi
    gnuplot_found=1
    if ! command -v gnuplot >/dev/null; then
        gnuplot_found=0
        lacking+=("gnuplot (the figures are skipped; the CSVs, the report and the verdict are written)")
    fi
    if [ ${#lacking[@]} -gt 0 ]; then
        printf -v said '%s; ' "${lacking[@]}"
        say "crossroof: not found: ${said%; }"
    fi
}
