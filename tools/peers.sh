#!/usr/bin/env bash
# crossroof beside the suites it means to beat, on the same work and the
# same device, in slices that alternate which suite goes first, and the
# ratio table. Nothing is fetched or built here: the peers are given by
# path (docs/peers.md says where they come from).
#
#   tools/peers.sh [--babelstream PATH] [--babelstream-cuda PATH] [--nvbandwidth PATH]
#                  [--bin DIR] [--out DIR] [--device N] [--dtype float,double]
#     --babelstream PATH       BabelStream's OpenCL build beside stream-opencl:
#                              [--rounds 3] [--slices 4] [--elements 33554432]
#                              [--reps 100] [--median-runs 16]
#     --babelstream-cuda PATH  BabelStream's CUDA build beside stream-cuda:
#                              [--cuda-elements 33554432,134217728] [--cuda-reps 50]
#                              [--babelstream-cuda-budget 25]
#     --nvbandwidth PATH       nvbandwidth beside bandwidth-cuda's copies:
#                              [--buffer-mib 512] [--samples 3] [--nvbandwidth-budget 20]
#     --cuda-slices 2          slices of each CUDA mode, as its budget allows
#
# At least one mode. The OpenCL mode prints its table of times (ratio =
# BabelStream's time / crossroof's); the CUDA modes write OUT/peers.csv
# (suite, test, crossroof_test, dtype, size_bytes, statistic, crossroof and
# peer in GB/s of the same bytes, ratio = crossroof's / the peer's, above 1
# where crossroof is faster, n of each, slices, flags, note) and print it.
# A CUDA mode starts a slice only where its budget (seconds) still holds one
# as long as its longest so far, stops a run where the budget ends (that
# slice is left out), and says so in its rows. --device is the index each
# suite is given (OpenCL's in the OpenCL mode; the CUDA ordinal, default 0,
# in the CUDA modes). The runs stay in OUT (a temporary directory by default).
# Exit status: 0 every mode's table written; 1 a run failed, or a mode's
# budget ended before one slice (the other modes' rows are still written);
# 2 bad usage.
set -euo pipefail

here=$(cd -- "$(dirname -- "$0")/.." && pwd -P)
# shellcheck source=tools/peers/common.sh
. "$here/tools/peers/common.sh"
# shellcheck source=common/csv_records.sh
. "$here/common/csv_records.sh"

babel="" babel_cuda="" nvbandwidth="" bin="" out="" device="" dtypes="float,double"
rounds=3 slices=4 elements=33554432 reps=100 median_runs=16
cuda_slices=2 cuda_elements_text=33554432,134217728 cuda_reps=50 babelstream_cuda_budget=25
nvb_mib=512 nvb_samples=3 nvbandwidth_budget=20
need_value() { [ $# -ge 2 ] || die 2 "$1 needs a value"; }
positive() { [[ $2 =~ ^[1-9][0-9]{0,9}$ ]] || die 2 "$1: '$2' is not a positive whole number"; }
seconds() { [[ $2 =~ ^[1-9][0-9]{0,4}$ ]] || die 2 "$1: '$2' is not a whole number of seconds (1 to 99999)"; }
while [ $# -gt 0 ]; do
    case $1 in
        --babelstream) need_value "$@"; babel=$2 ;;
        --babelstream-cuda) need_value "$@"; babel_cuda=$2 ;;
        --nvbandwidth) need_value "$@"; nvbandwidth=$2 ;;
        --rounds) need_value "$@"; positive "$1" "$2"; rounds=$2 ;;
        --slices) need_value "$@"; positive "$1" "$2"; slices=$2 ;;
        --elements) need_value "$@"; positive "$1" "$2"; elements=$2 ;;
        --dtype) need_value "$@"; dtypes=$2 ;;
        --reps) need_value "$@"; positive "$1" "$2"; reps=$2 ;;
        --median-runs) need_value "$@"; positive "$1" "$2"; median_runs=$2 ;;
        --cuda-slices) need_value "$@"; positive "$1" "$2"; cuda_slices=$2 ;;
        --cuda-elements) need_value "$@"; cuda_elements_text=$2 ;;
        --cuda-reps) need_value "$@"; positive "$1" "$2"; cuda_reps=$2 ;;
        --babelstream-cuda-budget) need_value "$@"; seconds "$1" "$2"; babelstream_cuda_budget=$2 ;;
        --buffer-mib) need_value "$@"; positive "$1" "$2"; nvb_mib=$2 ;;
        --samples) need_value "$@"; positive "$1" "$2"; nvb_samples=$2 ;;
        --nvbandwidth-budget) need_value "$@"; seconds "$1" "$2"; nvbandwidth_budget=$2 ;;
        --device) need_value "$@"; [[ $2 =~ ^[0-9]{1,4}$ ]] || die 2 "--device: '$2' is not an index"; device=$2 ;;
        --bin) need_value "$@"; bin=$2 ;;
        --out) need_value "$@"; out=$2 ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die 2 "unknown argument '$1' (see --help)" ;;
    esac
    shift 2
done
[ -n "$babel$babel_cuda$nvbandwidth" ] ||
    die 2 "no peer given: --babelstream, --babelstream-cuda or --nvbandwidth PATH (see --help)"
for peer in "--babelstream:$babel" "--babelstream-cuda:$babel_cuda" "--nvbandwidth:$nvbandwidth"; do
    p=${peer#*:}
    [ -z "$p" ] || { [ -f "$p" ] && [ -x "$p" ]; } || die 2 "${peer%%:*}: '$p' is not an executable file"
done
IFS=, read -r -a dtype_list <<<"$dtypes"
[ ${#dtype_list[@]} -gt 0 ] || die 2 "--dtype: empty list"
for t in "${dtype_list[@]}"; do
    [ "$t" = float ] || [ "$t" = double ] || die 2 "--dtype: '$t' is not float or double"
done
IFS=, read -r -a cuda_elements <<<"$cuda_elements_text"
[ ${#cuda_elements[@]} -gt 0 ] || die 2 "--cuda-elements: empty list"
for e in "${cuda_elements[@]}"; do positive --cuda-elements "$e"; done
if [ -n "$babel" ]; then
    [ $((reps / slices)) -ge 2 ] || die 2 "--reps $reps over --slices $slices: at least 2 repetitions a slice"
    [ $((median_runs / slices)) -ge 1 ] || die 2 "--median-runs $median_runs over --slices $slices: at least 1 a slice"
fi
[ "$nvb_mib" -le 1048576 ] || die 2 "--buffer-mib: $nvb_mib MiB is more than any device holds (at most 1048576)"
nvb_bytes=$((nvb_mib * 1048576)) cuda_device=${device:-0}
bin=${bin:-$here/build/bin}
need_bin() { [ -x "$bin/$1" ] || die 2 "$bin/$1 is missing (build it: make)"; }
[ -z "$babel" ] || need_bin stream-opencl
[ -z "$babel_cuda" ] || need_bin stream-cuda
[ -z "$nvbandwidth" ] || need_bin bandwidth-cuda
if [ -n "$nvbandwidth" ]; then
    . "$here/tools/peers/nvbandwidth.sh"
    nvb_choose_device
fi
out=${out:-$(mktemp -d /tmp/crossroof-peers-XXXXXX)}
mkdir -p -- "$out" || die 2 "--out: cannot create '$out'"
rm -f -- "$out"/rows-*.csv "$out/peers.csv"

# Each mode in a subshell: one that fails says why and the others still run.
failed=0
if [ -n "$babel" ]; then
    . "$here/tools/peers/babelstream_opencl.sh"
    (run_babelstream_opencl) || failed=1
fi
if [ -n "$babel_cuda" ]; then
    . "$here/tools/peers/babelstream_cuda.sh"
    (run_babelstream_cuda) || failed=1
fi
if [ -n "$nvbandwidth" ]; then
    (run_nvbandwidth) || failed=1
fi

# peers.csv: every CUDA mode's rows, written whole or not at all.
header=suite,test,crossroof_test,dtype,size_bytes,statistic,crossroof,peer,unit,ratio,n_crossroof,n_peer,slices,flags,note
rows=()
for suite in babelstream-cuda nvbandwidth; do
    [ -s "$out/rows-$suite.csv" ] && rows+=("$out/rows-$suite.csv")
done
if [ ${#rows[@]} -gt 0 ]; then
    if ! { echo "$header" && cat -- "${rows[@]}"; } >"$out/peers.csv.tmp" ||
        ! mv -f -- "$out/peers.csv.tmp" "$out/peers.csv"; then
        die 1 "cannot write $out/peers.csv"
    fi
    print_table "$out/peers.csv"
fi
printf 'peers.sh: runs kept in %s\n' "$out" >&2
exit $failed
