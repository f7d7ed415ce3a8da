#!/usr/bin/env bash
# crossroof beside the suites it means to beat, on the same work and the
# same device, in slices that alternate which suite goes first, and the
# ratio table. Nothing is fetched or built here: the peers are given by
# path (docs/peers.md says where they come from).
#
#   tools/peers.sh MODE PATH... [--bin DIR] [--out DIR] [--device N]
#                  [--dtype float,double] [--cuda-slices 2] [a mode's options]
#
# The modes are the benchmarks' (bench/<name>/peers/<mode>.sh; --help lists
# them with their options); at least one. A mode that writes rows writes
# them to OUT/peers.csv (suite, test, crossroof_test, dtype, size_bytes,
# statistic, crossroof and peer in GB/s of the same bytes, ratio =
# crossroof's / the peer's, above 1 where crossroof is faster, n of each,
# slices, flags, note), which is printed; a mode that writes none prints its
# own table. A mode with a budget (seconds) starts a slice only where it
# still holds one as long as its longest so far, stops a run where the
# budget ends (that slice is left out), and says so in its rows;
# --cuda-slices is how many slices a CUDA mode plans. --device is the index
# each suite is given (OpenCL's in an OpenCL mode; the CUDA ordinal, default
# 0, in a CUDA mode). The runs stay in OUT (a temporary directory by default).
# Exit status: 0 every mode's table written; 1 a run failed, a mode's
# budget ended before one slice (the other modes' rows are still written),
# or a table or --help could not be printed (a full disk, a closed stdout:
# one line says so; peers.csv is still written); 2 bad usage; 77 no device for any mode given (its crossroof executable
# says so; a mode without one is skipped, the others run); 128+N ended by
# signal N (and the mode under way with it).
set -euo pipefail

here=$(cd -- "$(dirname -- "$0")/.." && pwd -P)
# shellcheck source=tools/peers/common.sh
. "$here/tools/peers/common.sh"
# shellcheck source=common/csv_records.sh
. "$here/common/csv_records.sh"
# shellcheck source=common/print_out.sh
. "$here/common/print_out.sh"

declare -A peer_path=()
peer_modes=()
for mode_file in "$here"/bench/*/peers/*.sh; do
    # shellcheck disable=SC1090 # the benchmarks' modes
    [ -f "$mode_file" ] && . "$mode_file"
done
[ ${#peer_modes[@]} -gt 0 ] || die 2 "no mode: no bench/*/peers/*.sh under $here"
option_of() { local v=${1}_option; printf '%s' "${!v}"; }

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    local m v line first
    printf '\nThe modes:\n'
    for m in "${peer_modes[@]}"; do
        v=${m}_help first=1
        while IFS= read -r line; do
            if [ $first = 1 ]; then printf '  %-25s%s\n' "$(option_of "$m") PATH" "$line"; first=0
            else printf '  %-25s%s\n' "" "$line"; fi
        done <<<"${!v}"
    done
}

bin="" out="" device="" dtypes="float,double" cuda_slices=2 mode_options=()
need_value() { [ $# -ge 2 ] || die 2 "$1 needs a value"; }
# shellcheck disable=SC2034 # cuda_slices: the CUDA modes read it
while [ $# -gt 0 ]; do
    case $1 in
        -h | --help) print_out "$(usage)" || die 1 "cannot write standard output: $out_error"; exit 0 ;;
        --dtype) need_value "$@"; dtypes=$2 ;;
        --cuda-slices) need_value "$@"; positive "$1" "$2"; cuda_slices=$2 ;;
        --device) need_value "$@"; [[ $2 =~ ^[0-9]{1,4}$ ]] || die 2 "--device: '$2' is not an index"; device=$2 ;;
        --bin) need_value "$@"; [ -n "$2" ] || die 2 "--bin: the directory is empty"; bin=$2 ;;
        --out) need_value "$@"; [ -n "$2" ] || die 2 "--out: the directory is empty"; out=$2 ;;
        *)
            taken=0
            for m in "${peer_modes[@]}"; do
                if [ "$1" = "$(option_of "$m")" ]; then
                    need_value "$@"
                    peer_path[$m]=$2 taken=1
                    break
                fi
            done
            for m in "${peer_modes[@]}"; do
                [ $taken = 0 ] || break
                v=${m}_options
                [[ " ${!v} " == *" $1 "* ]] || continue
                need_value "$@"
                "${m}_parse" "$1" "$2"
                mode_options+=("$1")
                taken=1
            done
            [ $taken = 1 ] || die 2 "unknown argument '$1' (see --help)"
            ;;
    esac
    shift 2
done
# An option of a mode not asked for would be ignored unsaid.
for o in "${mode_options[@]}"; do
    used=0
    for m in "${peer_modes[@]}"; do
        v=${m}_options
        [ -n "${peer_path[$m]+set}" ] && [[ " ${!v} " == *" $o "* ]] && used=1
    done
    [ $used = 1 ] || [ ${#peer_path[@]} = 0 ] ||
        die 2 "$o: an option of a mode not given (see --help: each mode's options)"
done
if [ ${#peer_path[@]} = 0 ]; then
    options=()
    for m in "${peer_modes[@]}"; do options+=("$(option_of "$m")"); done
    last=${options[-1]}
    unset 'options[-1]'
    list=$(IFS=,; printf '%s' "${options[*]}")
    die 2 "no peer given: ${list//,/, }${list:+ or }$last PATH (see --help)"
fi
for m in "${peer_modes[@]}"; do
    [ -n "${peer_path[$m]+set}" ] || continue
    p=${peer_path[$m]}
    { [ -f "$p" ] && [ -x "$p" ]; } || die 2 "$(option_of "$m"): '$p' is not an executable file"
done
split_list dtype_list --dtype "$dtypes"
# shellcheck disable=SC2154 # split_list sets it
for t in "${dtype_list[@]}"; do
    [ "$t" = float ] || [ "$t" = double ] || die 2 "--dtype: '$t' is not float or double"
done
# shellcheck disable=SC2034 # the CUDA modes read it
cuda_device=${device:-0}
bin=${bin:-$here/build/bin}
for m in "${peer_modes[@]}"; do
    [ -n "${peer_path[$m]+set}" ] || continue
    needs=${m}_needs
    [ -x "$bin/${!needs}" ] || die 2 "$bin/${!needs} is missing (build it: make)"
    "${m}_check"
done
# An --out that is a file is bad usage whether or not a device is found
# (made only once a mode is to run).
if [ -n "$out" ] && [ -e "$out" ] && [ ! -d "$out" ]; then
    die 2 "--out: cannot create '$out': File exists"
fi
# A mode whose crossroof executable finds no device (exit 77, as each
# benchmark's --list-devices says) is skipped, in a line; where every mode
# is, peers.sh exits 77 too, having run and made nothing.
for m in "${peer_modes[@]}"; do
    [ -n "${peer_path[$m]+set}" ] || continue
    needs=${m}_needs rc=0
    said=$("$bin/${!needs}" --list-devices 2>&1 </dev/null) || rc=$?
    [ $rc = 77 ] || continue
    said=${said##*$'\n'} said=${said#"${!needs}: "}
    printf 'peers.sh: skipped: %s: %s\n' "$(option_of "$m")" "${said#skipped: }" >&2
    unset "peer_path[$m]"
done
[ ${#peer_path[@]} -gt 0 ] || exit 77
out=${out:-$(mktemp -d /tmp/crossroof-peers-XXXXXX)}
err=$(mkdir -p -- "$out" 2>&1) || die 2 "--out: cannot create '$out': ${err##*: }"
rm -f -- "$out"/rows-*.csv "$out/peers.csv"

# Each mode in a subshell: one that fails says why and the others still
# run. A signal ends the one under way, whole, before peers.sh goes.
mode_pid=""
# shellcheck disable=SC2317 # the traps call it
stop() { # exit status
    [ -z "$mode_pid" ] || end_process_tree "$mode_pid"
    exit "$1"
}
trap 'stop 143' TERM
trap 'stop 130' INT
trap 'stop 129' HUP
failed=0
for m in "${peer_modes[@]}"; do
    [ -n "${peer_path[$m]+set}" ] || continue
    ("${m}_run") &
    mode_pid=$!
    wait "$mode_pid" || failed=1
    mode_pid=""
done

# peers.csv: every mode's rows, written whole or not at all.
header=suite,test,crossroof_test,dtype,size_bytes,statistic,crossroof,peer,unit,ratio,n_crossroof,n_peer,slices,flags,note
rows=()
for m in "${peer_modes[@]}"; do
    suite=${m}_rows
    [ -n "${!suite}" ] && [ -s "$out/rows-${!suite}.csv" ] && rows+=("$out/rows-${!suite}.csv")
done
if [ ${#rows[@]} -gt 0 ]; then
    if ! { echo "$header" && cat -- "${rows[@]}"; } >"$out/peers.csv.tmp" ||
        ! mv -f -- "$out/peers.csv.tmp" "$out/peers.csv"; then
        die 1 "cannot write $out/peers.csv"
    fi
    table=$(print_table "$out/peers.csv")
    print_out "$table" || { say_error "cannot write standard output: $out_error"; failed=1; }
fi
printf 'peers.sh: runs kept in %s\n' "$out" >&2
exit $failed
