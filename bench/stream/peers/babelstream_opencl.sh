# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034 # the shared options are tools/peers.sh's globals; what it defines, tools/peers.sh reads
# tools/peers.sh --babelstream: the stream kernels of stream-opencl beside
# BabelStream's OpenCL build, in interleaved rounds, and the ratio table.
# Per round and data type, in S slices that alternate which suite goes
# first: crossroof's fixed sweep (`--reps R/S`, no host reference, no
# energy), BabelStream's best of R/S (`--numtimes R/S+1`, its own first
# iteration discarded), and K/S processes of BabelStream with
# `--numtimes 2` for its median (it prints none; each process times one
# iteration after one it discards). Times are compared, not bandwidths, so
# that no unit (MB vs MiB) or byte count can differ: ratio = BabelStream's
# time / crossroof's, above 1 where crossroof is faster. A mode of
# tools/peers.sh (tools/peers/common.sh says what a mode defines).

peer_modes+=(babelstream_opencl)
babelstream_opencl_option=--babelstream
babelstream_opencl_needs=stream-opencl
babelstream_opencl_rows=""
babelstream_opencl_help="BabelStream's OpenCL build beside stream-opencl:
[--rounds 3] [--slices 4] [--elements 33554432]
[--reps 100] [--median-runs 16]"
babelstream_opencl_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
rounds=3 slices=4 elements=33554432 reps=100 median_runs=16

babelstream_opencl_options="--rounds --slices --elements --reps --median-runs"
babelstream_opencl_parse() { # option value
    case $1 in
        --rounds) positive "$1" "$2"; rounds=$2 ;;
        --slices) positive "$1" "$2"; slices=$2 ;;
        --elements) [[ $2 =~ ^[1-9][0-9]{0,14}$ ]] || die 2 "$1: '$2' is not a positive whole number (at most 15 digits)"
                    elements=$2 ;;
        --reps) positive "$1" "$2"; reps=$2 ;;
        --median-runs) positive "$1" "$2"; median_runs=$2 ;;
    esac
}

babelstream_opencl_check() {
    # Both suites keep the three arrays on the host too (BabelStream checks
    # them there): arrays that the host's memory cannot hold cannot run.
    local width=4 t mem_kb
    for t in "${dtype_list[@]}"; do [ "$t" = double ] && width=8; done
    mem_kb=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo 2>/dev/null)
    if [[ $mem_kb =~ ^[0-9]+$ ]] && [ $((3 * elements * width / 1024)) -gt "$mem_kb" ]; then
        die 2 "--elements $elements: three arrays of $((elements * width)) bytes are more than this host's $((mem_kb / 1024)) MiB of memory"
    fi
    [ $((reps / slices)) -ge 2 ] || die 2 "--reps $reps over --slices $slices: at least 2 repetitions a slice"
    [ $((median_runs / slices)) -ge 1 ] || die 2 "--median-runs $median_runs over --slices $slices: at least 1 a slice"
}

# A time in seconds as the runs print it: a positive decimal number.
ocl_time_re='^[0-9]*[.]?[0-9]+([eE][-+]?[0-9]+)?$'

# "kernel min median" of each valid stream row of the fixed sweep; false
# unless each of the five kernels has one with positive times.
ocl_crossroof_times() { # csv
    csv_records "$1" | awk -F '\037' -v re="$ocl_time_re" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["sweep"] == "fixed" && $col["backend"] == "opencl" && $col["valid"] == "1" &&
        $col["min_s"] ~ re && $col["median_s"] ~ re && $col["min_s"] + 0 > 0 {
            print $col["variant"], $col["min_s"], $col["median_s"]; seen[$col["variant"]] = 1
        }
        END { exit !(("copy" in seen) && ("mul" in seen) && ("add" in seen) && ("triad" in seen) && ("dot" in seen)) }'
}

# "kernel min" of BabelStream's --csv output (Copy, Mul, ... lower-cased);
# false unless each of the five kernels has a positive time.
ocl_babel_times() { # file
    awk -F, -v re="$ocl_time_re" '
        $1 ~ /^(Copy|Mul|Add|Triad|Dot)$/ && $6 ~ re && $6 + 0 > 0 { print tolower($1), $6; seen[$1] = 1 }
        END { exit !(("Copy" in seen) && ("Mul" in seen) && ("Add" in seen) && ("Triad" in seen) && ("Dot" in seen)) }' "$1"
}

ocl_run_crossroof() { # round dtype slice
    local dir=$out/round$1/crossroof-$2-$3 width=4
    [ "$2" = double ] && width=8
    local args=(--sweeps fixed --dtype "$2" --size $((elements * width)) --host-ref off
        --energy off --reps "$((reps / slices)):$((reps / slices))" --min-time 0.001 --max-time 600 --out "$dir")
    [ -n "$device" ] && args+=(--device "$device")
    "$bin/stream-opencl" "${args[@]}" >"$dir.log" 2>&1 || die 1 "crossroof round $1 $2 failed: see $dir.log"
    ocl_crossroof_times "$dir/stream-opencl.csv" >>"$out/round$1/crossroof-$2.times" ||
        die 1 "crossroof round $1 $2: no valid fixed-size time of each kernel in $dir/stream-opencl.csv"
}

ocl_run_babel() { # round dtype slice
    local base=$out/round$1/babelstream-$2 args=(--arraysize "$elements" --csv)
    [ "$2" = float ] && args+=(--float)
    [ -n "$device" ] && args+=(--device "$device")
    "${peer_path[babelstream_opencl]}" "${args[@]}" --numtimes $((reps / slices + 1)) >"$base-best-$3.csv" 2>>"$base.log" ||
        die 1 "BabelStream round $1 $2 failed: see $base.log"
    ocl_babel_times "$base-best-$3.csv" >>"$base-best.times" ||
        die 1 "BabelStream round $1 $2: no time of each of Copy, Mul, Add, Triad and Dot in its output: see $base-best-$3.csv"
    for ((k = 0; k < median_runs / slices; k++)); do
        "${peer_path[babelstream_opencl]}" "${args[@]}" --numtimes 2 >"$base-single.csv" 2>>"$base.log" ||
            die 1 "BabelStream round $1 $2 (single) failed: see $base.log"
        ocl_babel_times "$base-single.csv" >>"$base-single.times" ||
            die 1 "BabelStream round $1 $2 (single): no time of each of Copy, Mul, Add, Triad and Dot in its output: see $base-single.csv"
    done
}

babelstream_opencl_run() {
    local r t s table
    for ((r = 1; r <= rounds; r++)); do
        mkdir -p -- "$out/round$r"
        for t in "${dtype_list[@]}"; do
            printf 'peers.sh: round %d/%d, %s\n' "$r" "$rounds" "$t" >&2
            for ((s = 1; s <= slices; s++)); do
                if (((r + s) % 2)); then ocl_run_crossroof "$r" "$t" "$s"; ocl_run_babel "$r" "$t" "$s"
                else ocl_run_babel "$r" "$t" "$s"; ocl_run_crossroof "$r" "$t" "$s"; fi
            done
        done
    done
    # The table: per data type and kernel, the best of every slice's best,
    # and the median of the slices' medians (crossroof) against the median
    # of every single-iteration BabelStream process; then each round's
    # ratios alone.
    table=$(for t in "${dtype_list[@]}"; do
        for ((r = 1; r <= rounds; r++)); do
            sed "s/^/$t $r crossroof /" "$out/round$r/crossroof-$t.times"
            sed "s/^/$t $r babel-best /" "$out/round$r/babelstream-$t-best.times"
            sed "s/^/$t $r babel-single /" "$out/round$r/babelstream-$t-single.times"
        done
    done | awk -v elements="$elements" -v rounds="$rounds" -f "$babelstream_opencl_dir/babelstream_opencl_table.awk")
    print_out "$table" || die 1 "cannot write standard output: $out_error"
}
