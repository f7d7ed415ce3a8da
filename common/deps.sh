#!/usr/bin/env bash
# Checks that the Debian packages crossroof builds and runs with are present.
# As root it installs what is missing with apt-get; otherwise it prints the
# exact command to run and fails.
#   common/deps.sh [--run]   --run: also what running needs (PoCL device, gnuplot, clinfo)
#   common/deps.sh --slurm   also Slurm and munge, for make check-slurm's local cluster
set -euo pipefail

# patchelf: the run paths of a GPU bundle (make gpu-bundle) and its test.
build_pkgs=(gcc make libc6-dev ocl-icd-opencl-dev opencl-headers libhwloc-dev libcmocka-dev libmpfr-dev libsqlite3-dev
            patchelf)
# util-linux: run_all.sh's setsid (a process group per benchmark), setpriv
# --pdeathsig (a benchmark stops when run_all.sh dies) and flock (one run
# per directory).
run_pkgs=(pocl-opencl-icd gnuplot-nox clinfo hwloc-nox util-linux)
wanted=("${build_pkgs[@]}" "${run_pkgs[@]}")
# Optional: the daemons of the private Slurm cluster that make check-slurm
# starts (tools/slurm/tests/local_cluster.sh). Nothing else needs them.
slurm=0
[ "${1:-}" = --slurm ] && slurm=1 && wanted+=(slurm-wlm munge)

# Optional, where nvcc is: NVIDIA's cuobjdump and nvdisasm, for the offline
# checks of the CUDA machine code (the Makefile's CUOBJDUMP and NVDISASM).
# The toolkit does not always carry them; PyPI has them as wheels. Without
# them those checks skip, so a failure here fails nothing.
cuda_binary_tools() {
    # Where the Makefile looks for nvcc, in its order.
    local nvcc=${NVCC:-} d
    for d in "${CUDA_HOME:-}" "${CUDA_PATH:-}"; do
        if [ -z "$nvcc" ] && [ -n "$d" ] && [ -x "$d/bin/nvcc" ]; then
            nvcc=$d/bin/nvcc
        fi
    done
    [ -n "$nvcc" ] || nvcc=$(command -v nvcc 2>/dev/null || true)
    [ -n "$nvcc" ] || return 0
    local bin
    bin=$(dirname "$nvcc")
    if [ -x "$bin/cuobjdump" ] && [ -x "$bin/nvdisasm" ]; then
        return 0
    fi
    if python3 -c 'import nvidia, glob, sys; d = nvidia.__path__; \
sys.exit(not all(any(glob.glob(p + "/*/bin/" + t) for p in d) for t in ("cuobjdump", "nvdisasm")))' \
        2>/dev/null; then
        return 0
    fi
    python3 -m pip --version >/dev/null 2>&1 || {
        echo "crossroof: optional: no pip for nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm; the SASS checks will skip" >&2
        return 0
    }
    echo "crossroof: optional: installing nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm with pip" >&2
    local said
    if ! said=$(python3 -m pip install --quiet nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm 2>&1); then
        echo "crossroof: optional: pip could not install them ($(printf '%s\n' "$said" | grep -m1 -i error || true));" \
            "the SASS checks will skip" >&2
    fi
    return 0
}

if ! command -v dpkg-query >/dev/null 2>&1; then
    # Not Debian: check the files instead and name the Debian packages.
    missing=()
    [ -f /usr/include/CL/cl.h ] || missing+=(opencl-headers)
    [ -f /usr/include/hwloc.h ] || missing+=(libhwloc-dev)
    [ -f /usr/include/cmocka.h ] || missing+=(libcmocka-dev)
    [ -f /usr/include/mpfr.h ] || missing+=(libmpfr-dev)
    [ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
    command -v gnuplot >/dev/null || missing+=(gnuplot)
    command -v patchelf >/dev/null || missing+=(patchelf)
    for t in setsid setpriv flock; do
        command -v "$t" >/dev/null || { missing+=(util-linux); break; }
    done
    if [ $slurm = 1 ]; then
        command -v slurmctld >/dev/null && command -v slurmd >/dev/null || missing+=(slurm-wlm)
        command -v munged >/dev/null || missing+=(munge)
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        echo "crossroof: missing dependencies (Debian package names): ${missing[*]}" >&2
        exit 1
    fi
    cuda_binary_tools
    exit 0
fi

missing=()
for p in "${wanted[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    cuda_binary_tools
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "crossroof: missing packages: ${missing[*]}" >&2
    echo "crossroof: install them with: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
fi
echo "crossroof: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
cuda_binary_tools
