#!/usr/bin/env bash
# Checks that the Debian packages crossroof builds and runs with are present.
# As root it installs what is missing with apt-get; otherwise it prints the
# exact command to run and fails.
#   common/deps.sh [--run]   --run: also what running needs (PoCL device, gnuplot, clinfo)
set -euo pipefail

build_pkgs=(gcc make libc6-dev ocl-icd-opencl-dev opencl-headers libhwloc-dev libcmocka-dev libmpfr-dev)
# util-linux: run_all.sh's setsid (a process group per benchmark), setpriv
# --pdeathsig (a benchmark stops when run_all.sh dies) and flock (one run
# per directory).
run_pkgs=(pocl-opencl-icd gnuplot-nox clinfo hwloc-nox util-linux)
wanted=("${build_pkgs[@]}" "${run_pkgs[@]}")

if ! command -v dpkg-query >/dev/null 2>&1; then
    # Not Debian: check the files instead and name the Debian packages.
    missing=()
    [ -f /usr/include/CL/cl.h ] || missing+=(opencl-headers)
    [ -f /usr/include/hwloc.h ] || missing+=(libhwloc-dev)
    [ -f /usr/include/cmocka.h ] || missing+=(libcmocka-dev)
    [ -f /usr/include/mpfr.h ] || missing+=(libmpfr-dev)
    command -v gnuplot >/dev/null || missing+=(gnuplot)
    for t in setsid setpriv flock; do
        command -v "$t" >/dev/null || { missing+=(util-linux); break; }
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "crossroof: missing dependencies (Debian package names): ${missing[*]}" >&2
        exit 1
    fi
    exit 0
fi

missing=()
for p in "${wanted[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "crossroof: missing packages: ${missing[*]}" >&2
    echo "crossroof: install them with: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
fi
echo "crossroof: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
