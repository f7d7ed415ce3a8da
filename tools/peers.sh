#!/usr/bin/env bash
# crossroof beside the suites it means to beat, on the same work: the stream
# kernels against BabelStream's OpenCL build, in interleaved rounds, and the
# ratio table. Nothing is fetched or built here: the peers are given by path
# (README, "Comparing with the peers", says how to build them).
#
#   tools/peers.sh --babelstream PATH [--rounds 3] [--slices 4] [--elements 33554432]
#                  [--dtype float,double] [--reps 100] [--median-runs 16]
#                  [--device N] [--bin DIR] [--out DIR]
#
# Per round and data type, in S slices that alternate which suite goes
# first: crossroof's fixed sweep (`--reps R/S`, no host reference, no
# energy), BabelStream's best of R/S (`--numtimes R/S+1`, its own first
# iteration discarded), and K/S processes of BabelStream with
# `--numtimes 2` for its median (it prints none; each process times one
# iteration after one it discards). A shared machine's memory bandwidth
# drifts between phases tens of percent apart; slices a few seconds long
# give both suites the same phases. Times are compared, not bandwidths, so that no unit (MB vs MiB)
# or byte count can differ: ratio = BabelStream's time / crossroof's, above
# 1 where crossroof is faster.
# Exit status: 0 table printed, 1 a run failed, 2 bad usage.
set -euo pipefail

die() { # status message
    printf 'peers.sh: error: %s\n' "$2" >&2
    exit "$1"
}

babel="" rounds=3 slices=4 elements=33554432 dtypes="float,double" reps=100 median_runs=16 device="" bin="" out=""
need_value() { [ $# -ge 2 ] || die 2 "$1 needs a value"; }
positive() { [[ $2 =~ ^[1-9][0-9]{0,9}$ ]] || die 2 "$1: '$2' is not a positive whole number"; }
while [ $# -gt 0 ]; do
    case $1 in
        --babelstream) need_value "$@"; babel=$2; shift 2 ;;
        --rounds) need_value "$@"; positive "$1" "$2"; rounds=$2; shift 2 ;;
        --slices) need_value "$@"; positive "$1" "$2"; slices=$2; shift 2 ;;
        --elements) need_value "$@"; positive "$1" "$2"; elements=$2; shift 2 ;;
        --dtype) need_value "$@"; dtypes=$2; shift 2 ;;
        --reps) need_value "$@"; positive "$1" "$2"; reps=$2; shift 2 ;;
        --median-runs) need_value "$@"; positive "$1" "$2"; median_runs=$2; shift 2 ;;
        --device) need_value "$@"; [[ $2 =~ ^[0-9]{1,4}$ ]] || die 2 "--device: '$2' is not an index"; device=$2; shift 2 ;;
        --bin) need_value "$@"; bin=$2; shift 2 ;;
        --out) need_value "$@"; out=$2; shift 2 ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die 2 "unknown argument '$1' (see --help)" ;;
    esac
done
[ -n "$babel" ] || die 2 "--babelstream PATH is required (the peer's OpenCL executable)"
[ -f "$babel" ] && [ -x "$babel" ] || die 2 "--babelstream: '$babel' is not an executable file"
IFS=, read -r -a dtype_list <<<"$dtypes"
[ ${#dtype_list[@]} -gt 0 ] || die 2 "--dtype: empty list"
for t in "${dtype_list[@]}"; do
    [ "$t" = float ] || [ "$t" = double ] || die 2 "--dtype: '$t' is not float or double"
done
[ $((reps / slices)) -ge 2 ] || die 2 "--reps $reps over --slices $slices: at least 2 repetitions a slice"
[ $((median_runs / slices)) -ge 1 ] || die 2 "--median-runs $median_runs over --slices $slices: at least 1 a slice"
here=$(cd -- "$(dirname -- "$0")/.." && pwd -P)
# shellcheck source=common/csv_records.sh
. "$here/common/csv_records.sh"
bin=${bin:-$here/build/bin}
[ -x "$bin/stream-opencl" ] || die 2 "$bin/stream-opencl is missing (build it: make)"
out=${out:-$(mktemp -d /tmp/crossroof-peers-XXXXXX)}
mkdir -p -- "$out" || die 2 "--out: cannot create '$out'"

# "kernel min median" of each valid stream row of the fixed sweep.
crossroof_times() { # csv
    csv_records "$1" | awk -F '\037' '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["sweep"] == "fixed" && $col["backend"] == "opencl" && $col["valid"] == "1" {
            print $col["variant"], $col["min_s"], $col["median_s"]
        }'
}

# "kernel min" of BabelStream's --csv output (Copy, Mul, ... lower-cased).
babel_times() { # file
    awk -F, '$1 ~ /^(Copy|Mul|Add|Triad|Dot)$/ { print tolower($1), $6 }' "$1"
}

run_crossroof() { # round dtype slice
    local dir=$out/round$1/crossroof-$2-$3 width=4
    [ "$2" = double ] && width=8
    local args=(--sweeps fixed --dtype "$2" --size $((elements * width)) --host-ref off
        --energy off --reps "$((reps / slices)):$((reps / slices))" --min-time 0.001 --max-time 600 --out "$dir")
    [ -n "$device" ] && args+=(--device "$device")
    "$bin/stream-opencl" "${args[@]}" >"$dir.log" 2>&1 || die 1 "crossroof round $1 $2 failed: see $dir.log"
    crossroof_times "$dir/stream-opencl.csv" >>"$out/round$1/crossroof-$2.times"
}

run_babel() { # round dtype slice
    local base=$out/round$1/babelstream-$2 args=(--arraysize "$elements" --csv)
    [ "$2" = float ] && args+=(--float)
    [ -n "$device" ] && args+=(--device "$device")
    "$babel" "${args[@]}" --numtimes $((reps / slices + 1)) >"$base-best-$3.csv" 2>>"$base.log" ||
        die 1 "BabelStream round $1 $2 failed: see $base.log"
    babel_times "$base-best-$3.csv" >>"$base-best.times"
    for ((k = 0; k < median_runs / slices; k++)); do
        "$babel" "${args[@]}" --numtimes 2 >"$base-single.csv" 2>>"$base.log" ||
            die 1 "BabelStream round $1 $2 (single) failed: see $base.log"
        babel_times "$base-single.csv" >>"$base-single.times"
    done
}

for ((r = 1; r <= rounds; r++)); do
    mkdir -p -- "$out/round$r"
    for t in "${dtype_list[@]}"; do
        printf 'peers.sh: round %d/%d, %s\n' "$r" "$rounds" "$t" >&2
        for ((s = 1; s <= slices; s++)); do
            if (((r + s) % 2)); then run_crossroof "$r" "$t" "$s"; run_babel "$r" "$t" "$s"
            else run_babel "$r" "$t" "$s"; run_crossroof "$r" "$t" "$s"; fi
        done
    done
done

# The table: per data type and kernel, the best of every slice's best, and
# the median of the slices' medians (crossroof) against the median of every
# single-iteration BabelStream process; then each round's ratios alone.
for t in "${dtype_list[@]}"; do
    for ((r = 1; r <= rounds; r++)); do
        sed "s/^/$t $r crossroof /" "$out/round$r/crossroof-$t.times"
        sed "s/^/$t $r babel-best /" "$out/round$r/babelstream-$t-best.times"
        sed "s/^/$t $r babel-single /" "$out/round$r/babelstream-$t-single.times"
    done
done | awk -v elements="$elements" -v rounds="$rounds" '
    function median(list,    n, v, i, j, x) {
        n = split(list, v, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j] + 0 < v[j - 1] + 0; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    function least(a, b) { return a == "" || b + 0 < a + 0 ? b : a }
    # Every figure twice: for its round and for all rounds ("all").
    function take(key, r,    g) {
        for (g = 0; g < 2; g++) {
            at = key SUBSEP (g ? r : "all")
            if ($3 == "crossroof") { cbest[at] = least(cbest[at], $5); cmed[at] = cmed[at] " " $6 }
            else if ($3 == "babel-best") bbest[at] = least(bbest[at], $5)
            else bsingle[at] = bsingle[at] " " $5
        }
    }
    { keys[$1 " " $4] = 1; take($1 " " $4, $2) }
    # "best-ratio median-ratio" of key in group g, or "" where a suite has no rows.
    function ratios(key, g,    at) {
        at = key SUBSEP g
        if (!(at in cbest) || !(at in bbest) || bsingle[at] == "") return ""
        return sprintf("%.3f %.3f", bbest[at] / cbest[at], median(bsingle[at]) / median(cmed[at]))
    }
    END {
        split("copy mul add triad dot", kernel, " ")
        words["copy"] = 2; words["mul"] = 2; words["add"] = 3; words["triad"] = 3; words["dot"] = 2
        printf "%-6s %-6s %12s %12s %8s %12s %12s %8s  %s\n", "dtype", "kernel", "crossroof", "BabelStream", "best", \
            "crossroof", "BabelStream", "median", "per round (best/median)"
        printf "%-6s %-6s %12s %12s %8s %12s %12s %8s\n", "", "", "best GB/s", "best GB/s", "ratio", "median GB/s", \
            "median GB/s", "ratio"
        for (t = 1; t <= 2; t++) {
            dt = t == 1 ? "float" : "double"
            for (i = 1; i <= 5; i++) {
                key = dt " " kernel[i]
                if (!(key in keys)) continue
                if (ratios(key, "all") == "") { printf "%-6s %-6s  missing rows: see the logs\n", dt, kernel[i]; continue }
                bytes = words[kernel[i]] * (t == 1 ? 4 : 8) * elements
                at = key SUBSEP "all"
                cm = median(cmed[at]); bm = median(bsingle[at])
                per = ""
                for (r = 1; r <= rounds; r++) {
                    split(ratios(key, r), rr, " ")
                    per = per sprintf(" %.3f/%.3f", rr[1], rr[2])
                }
                printf "%-6s %-6s %12.2f %12.2f %7.3fx %12.2f %12.2f %7.3fx %s\n", dt, kernel[i], bytes / cbest[at] * 1e-9, \
                    bytes / bbest[at] * 1e-9, bbest[at] / cbest[at], bytes / cm * 1e-9, bytes / bm * 1e-9, bm / cm, per
            }
        }
        printf "(%d rounds; ratio = BabelStream time / crossroof time, above 1 where crossroof is faster)\n", rounds
    }'
printf 'peers.sh: runs kept in %s\n' "$out" >&2
