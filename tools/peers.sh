#!/usr/bin/env bash
# crossroof beside the suites it means to beat, on the same work: the stream
# kernels against BabelStream's OpenCL build, in interleaved rounds, and the
# ratio table. Nothing is fetched or built here: the peers are given by path
# (README, "Comparing with the peers", says how to build them).
#
#   tools/peers.sh --babelstream PATH [--rounds 3] [--elements 33554432]
#                  [--dtype float,double] [--reps 100] [--median-runs 15]
#                  [--device N] [--bin DIR] [--out DIR]
#
# Per round and data type: crossroof's fixed sweep (`--reps R:R`, no host
# reference, no energy), BabelStream's best of R (`--numtimes R`, its own
# first iteration discarded), and BabelStream's median, from K processes of
# `--numtimes 2` (it prints no median; each process times one iteration
# after one it discards). The order of the two alternates from round to
# round. Times are compared, not bandwidths, so that no unit (MB vs MiB)
# or byte count can differ: ratio = BabelStream's time / crossroof's, above
# 1 where crossroof is faster.
# Exit status: 0 table printed, 1 a run failed, 2 bad usage.
set -euo pipefail

die() { # status message
    printf 'peers.sh: error: %s\n' "$2" >&2
    exit "$1"
}

babel="" rounds=3 elements=33554432 dtypes="float,double" reps=100 median_runs=15 device="" bin="" out=""
need_value() { [ $# -ge 2 ] || die 2 "$1 needs a value"; }
positive() { [[ $2 =~ ^[1-9][0-9]{0,9}$ ]] || die 2 "$1: '$2' is not a positive whole number"; }
while [ $# -gt 0 ]; do
    case $1 in
        --babelstream) need_value "$@"; babel=$2; shift 2 ;;
        --rounds) need_value "$@"; positive "$1" "$2"; rounds=$2; shift 2 ;;
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
[ "$reps" -ge 2 ] || die 2 "--reps: BabelStream discards its first iteration: at least 2"
here=$(cd -- "$(dirname -- "$0")/.." && pwd -P)
bin=${bin:-$here/build/bin}
[ -x "$bin/stream-opencl" ] || die 2 "$bin/stream-opencl is missing (build it: make)"
out=${out:-$(mktemp -d /tmp/crossroof-peers-XXXXXX)}
mkdir -p -- "$out" || die 2 "--out: cannot create '$out'"

# "kernel min median" of each stream row of a crossroof CSV, the row's
# fields read as CSV (quoted fields may hold commas).
crossroof_times() { # csv
    awk '
        function split_csv(line, f,    n, i, c, inq, field) {
            n = 0; field = ""; inq = 0
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (inq) {
                    if (c != "\"") field = field c
                    else if (substr(line, i + 1, 1) == "\"") { field = field c; i++ }
                    else inq = 0
                } else if (c == "\"") inq = 1
                else if (c == ",") { f[++n] = field; field = "" }
                else field = field c
            }
            f[++n] = field
            return n
        }
        NR == 1 { n = split_csv($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; next }
        {
            split_csv($0, f)
            if (f[col["sweep"]] == "fixed" && f[col["backend"]] == "opencl" && f[col["valid"]] == "1")
                print f[col["variant"]], f[col["min_s"]], f[col["median_s"]]
        }' "$1"
}

# "kernel min" of BabelStream's --csv output (Copy, Mul, ... lower-cased).
babel_times() { # file
    awk -F, '$1 ~ /^(Copy|Mul|Add|Triad|Dot)$/ { print tolower($1), $6 }' "$1"
}

run_crossroof() { # round dtype
    local dir=$out/round$1/crossroof-$2 width=4
    [ "$2" = double ] && width=8
    local args=(--sweeps fixed --dtype "$2" --size $((elements * width)) --host-ref off
        --energy off --reps "$reps:$reps" --min-time 0.001 --max-time 600 --out "$dir")
    [ -n "$device" ] && args+=(--device "$device")
    "$bin/stream-opencl" "${args[@]}" >"$dir.log" 2>&1 || die 1 "crossroof round $1 $2 failed: see $dir.log"
    crossroof_times "$dir/stream-opencl.csv" >"$out/round$1/crossroof-$2.times"
}

run_babel() { # round dtype
    local base=$out/round$1/babelstream-$2 args=(--arraysize "$elements" --csv)
    [ "$2" = float ] && args+=(--float)
    [ -n "$device" ] && args+=(--device "$device")
    "$babel" "${args[@]}" --numtimes "$reps" >"$base-best.csv" 2>"$base.log" ||
        die 1 "BabelStream round $1 $2 failed: see $base.log"
    babel_times "$base-best.csv" >"$base-best.times"
    : >"$base-single.times"
    for ((k = 0; k < median_runs; k++)); do
        "$babel" "${args[@]}" --numtimes 2 >"$base-single.csv" 2>>"$base.log" ||
            die 1 "BabelStream round $1 $2 (single) failed: see $base.log"
        babel_times "$base-single.csv" >>"$base-single.times"
    done
}

for ((r = 1; r <= rounds; r++)); do
    mkdir -p -- "$out/round$r"
    for t in "${dtype_list[@]}"; do
        printf 'peers.sh: round %d/%d, %s\n' "$r" "$rounds" "$t" >&2
        if ((r % 2)); then run_crossroof "$r" "$t"; run_babel "$r" "$t"
        else run_babel "$r" "$t"; run_crossroof "$r" "$t"; fi
    done
done

# The table: per data type and kernel, best of every round's best, and the
# median of the round medians (crossroof) against the median of every
# single-iteration BabelStream process.
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
    {
        key = $1 " " $4
        keys[key] = 1
        if ($3 == "crossroof") { cbest[key] = least(cbest[key], $5); cmed[key] = cmed[key] " " $6 }
        else if ($3 == "babel-best") bbest[key] = least(bbest[key], $5)
        else bsingle[key] = bsingle[key] " " $5
    }
    END {
        order["copy"] = 1; order["mul"] = 2; order["add"] = 3; order["triad"] = 4; order["dot"] = 5
        words["copy"] = 2; words["mul"] = 2; words["add"] = 3; words["triad"] = 3; words["dot"] = 2
        printf "%-6s %-6s %12s %12s %8s %12s %12s %8s\n", "dtype", "kernel", "crossroof", "BabelStream", "best", \
            "crossroof", "BabelStream", "median"
        printf "%-6s %-6s %12s %12s %8s %12s %12s %8s\n", "", "", "best GB/s", "best GB/s", "ratio", "median GB/s", \
            "median GB/s", "ratio"
        for (t = 1; t <= 2; t++) {
            dt = t == 1 ? "float" : "double"
            size = t == 1 ? 4 : 8
            for (k in order) sorted[order[k]] = k
            for (i = 1; i <= 5; i++) {
                key = dt " " sorted[i]
                if (!(key in keys)) continue
                bytes = words[sorted[i]] * size * elements
                if (!(key in cbest) || !(key in bbest) || bsingle[key] == "") {
                    printf "%-6s %-6s  missing rows: see the logs\n", dt, sorted[i]; continue
                }
                cm = median(cmed[key]); bm = median(bsingle[key])
                printf "%-6s %-6s %12.2f %12.2f %7.3fx %12.2f %12.2f %7.3fx\n", dt, sorted[i], bytes / cbest[key] * 1e-9, \
                    bytes / bbest[key] * 1e-9, bbest[key] / cbest[key], bytes / cm * 1e-9, bytes / bm * 1e-9, bm / cm
            }
        }
        printf "(%d rounds; ratio = BabelStream time / crossroof time, above 1 where crossroof is faster)\n", rounds
    }'
printf 'peers.sh: runs kept in %s\n' "$out" >&2
