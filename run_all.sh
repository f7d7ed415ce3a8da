#!/usr/bin/env bash
# crossroof: characterise every device on this machine.
#   ./run_all.sh [--quick] [--device SPEC] [--out DIR] [-- BENCHMARK OPTIONS]
#   ./run_all.sh --check        install what is missing, build, run every test
# As root, missing Debian packages are installed; otherwise the exact
# install command is printed and nothing runs.
set -uo pipefail
cd "$(dirname "$0")" || exit 1

usage() {
    sed -n '2,6s/^# \{0,1\}//p' "$0"
    echo "Results go to results/<date>-<host>/<backend>-<device>/ (never overwritten)."
}

quick=() device="" out="" extra=() check=0
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=(--quick) ;;
        --device) [ $# -ge 2 ] || { echo "run_all.sh: error: --device needs a value" >&2; exit 2; }
                  device=$2; shift ;;
        --out) [ $# -ge 2 ] || { echo "run_all.sh: error: --out needs a value" >&2; exit 2; }
               out=$2; shift ;;
        --check) check=1 ;;
        -h|--help) usage; exit 0 ;;
        --) shift; extra=("$@"); break ;;
        *) echo "run_all.sh: error: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

common/deps.sh || exit 1
if [ "$check" = 1 ]; then
    exec make check
fi
make -s all || { echo "run_all.sh: error: the build failed" >&2; exit 1; }

if [ -z "$out" ]; then
    out="results/$(date -u +%Y%m%dT%H%M%SZ)-$(hostname -s 2>/dev/null || echo host)"
fi
if [ -e "$out" ]; then
    echo "run_all.sh: error: $out exists; an earlier run is never overwritten" >&2
    exit 2
fi
mkdir -p "$out" || exit 1

passed=() skipped=() failed=()
slug() { tr -c 'A-Za-z0-9.\n-' '_' <<<"$1" | tr -s '_' | cut -c1-60; }

for bin in build/bin/*; do
    name=$(basename "$bin")
    backend=${name##*-}
    # One run per device the backend lists ("INDEX  NAME ..."), or one that
    # reports why there is none.
    mapfile -t devices < <("$bin" --list-devices 2>/dev/null | awk '{ i = $1; $1 = ""; sub(/^ +/, ""); print i "\t" $0 }')
    if [ ${#devices[@]} -eq 0 ]; then
        devices=("")
    fi
    for entry in "${devices[@]}"; do
        index=${entry%%$'\t'*}
        label=${entry#*$'\t'}
        label=${label#(*) }          # OpenCL lists "(platform:device) name [details]"
        label=${label%% \[*}
        if [ -n "$device" ] && [ -n "$entry" ] && [[ "${label,,}" != *"${device,,}"* ]] && [ "$index" != "$device" ]; then
            continue
        fi
        dir="$out/$backend${index:+-$index-$(slug "$label")}"
        mkdir -p "$dir"
        args=("${quick[@]}" --out "$dir" "${extra[@]}")
        [ -n "$index" ] && args+=(--device "$index")
        echo "== $name ${label:+on $label}"
        start=$SECONDS
        "$bin" "${args[@]}" 2>&1 | tee "$dir/$name.log"
        rc=${PIPESTATUS[0]}
        what="$name${label:+ on $label} ($((SECONDS - start)) s)"
        case $rc in
            0) passed+=("$what") ;;
            77) skipped+=("$what: $(tail -n 1 "$dir/$name.log")") ;;
            *) failed+=("$what: exit $rc") ;;
        esac
    done
done

# A CUDA benchmark that make could not build (no nvcc) is skipped, not silent.
for main in cuda/*_cuda_main.c; do
    name=$(basename "$main" _cuda_main.c)-cuda
    [ -e "build/bin/$name" ] || skipped+=("$name: not built (nvcc not found; see README, Building)")
done

for d in "$out"/*/; do plot/plot.sh "$d" >/dev/null || failed+=("figures in $d"); done

echo
echo "crossroof summary ($out):"
for p in "${passed[@]}"; do echo "  passed   $p"; done
for s in "${skipped[@]}"; do echo "  skipped  $s"; done
for f in "${failed[@]}"; do echo "  FAILED   $f"; done
[ ${#failed[@]} -eq 0 ]
