# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034 # the shared options are tools/peers.sh's globals; what it defines, tools/peers.sh reads
# tools/peers.sh --babelstream-cuda: stream-cuda's fixed sweep beside
# BabelStream's CUDA build, at each array length and data type, in slices
# that alternate which suite goes first. BabelStream prints the best, worst
# and mean of its iterations (its first discarded), so the two are compared
# on the best and the mean: crossroof's min_s and mean_s (the mean weighted
# by each slice's repetitions) against its min_runtime and avg_runtime, as
# GB/s of BabelStream's byte count (2 or 3 arrays of N elements per kernel,
# 10^9 bytes). A mode of tools/peers.sh (tools/peers/common.sh says what a
# mode defines).

peer_modes+=(babelstream_cuda)
babelstream_cuda_option=--babelstream-cuda
babelstream_cuda_needs=stream-cuda
babelstream_cuda_rows=babelstream-cuda
babelstream_cuda_help="BabelStream's CUDA build beside stream-cuda:
[--cuda-elements 33554432,134217728] [--cuda-reps 50]
[--babelstream-cuda-budget 25]"
cuda_elements_text=33554432,134217728 cuda_reps=50 babelstream_cuda_budget=25

babelstream_cuda_options="--cuda-elements --cuda-reps --babelstream-cuda-budget"
babelstream_cuda_parse() { # option value
    case $1 in
        --cuda-elements) cuda_elements_text=$2 ;;
        --cuda-reps) positive "$1" "$2"; cuda_reps=$2 ;;
        --babelstream-cuda-budget) seconds "$1" "$2"; babelstream_cuda_budget=$2 ;;
    esac
}

babelstream_cuda_check() {
    local e
    split_list cuda_elements --cuda-elements "$cuda_elements_text"
    for e in "${cuda_elements[@]}"; do positive --cuda-elements "$e"; done
}

# Bytes one repetition of a kernel moves, BabelStream's count.
bs_cuda_bytes() { # kernel elements width
    case $1 in add | triad) echo $((3 * $2 * $3)) ;; *) echo $((2 * $2 * $3)) ;; esac
}

# "kernel min mean n" of each valid fixed-sweep row of stream-cuda's CSV.
bs_cuda_crossroof_rows() { # csv
    csv_records "$1" | awk -F '\037' '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["sweep"] == "fixed" && $col["backend"] == "cuda" && $col["valid"] == "1" {
            print $col["variant"], $col["min_s"], $col["mean_s"], $col["n"]
        }'
}

# "kernel min mean n" of BabelStream's --csv lines (function,num_times,
# n_elements,sizeof,max_MB_per_sec,min_runtime,max_runtime,avg_runtime;
# the device lines it prints first are left out), checked to be of the
# length and width asked for; n is num_times less the discarded first.
bs_cuda_peer_rows() { # file elements width
    awk -F, -v e="$2" -v w="$3" '
        $1 ~ /^(Copy|Mul|Add|Triad|Dot)$/ && NF == 8 {
            if ($3 != e || $4 != w) { print "ran " $3 " elements of " $4 " bytes, not " e " of " w > "/dev/stderr"; exit 1 }
            print tolower($1), $6, $8, $2 - 1
        }' "$1"
}

# One suite's run of one combination in slice s: its samples into the
# slice's file; 124 where the budget ended, else dies on a failure.
bs_cuda_one() { # suite slice elements dtype
    local width=4 dir=$out/babelstream-cuda/slice$2 what="$1 $3 $4, slice $2" rc=0 rows
    [ "$4" = double ] && width=8
    local log=$dir/$1-$3-$4.log
    if [ "$1" = crossroof ]; then
        run_within_budget "$log" "$bin/stream-cuda" --sweeps fixed --dtype "$4" --size $(($3 * width)) \
            --host-ref off --energy off --reps "$cuda_reps:$cuda_reps" --min-time 0.001 --max-time 600 \
            --device "$cuda_device" --out "$dir/crossroof-$3-$4" || rc=$?
        [ $rc = 0 ] && rows=$(bs_cuda_crossroof_rows "$dir/crossroof-$3-$4/stream-cuda.csv")
    else
        local args=(--arraysize "$3" --numtimes $((cuda_reps + 1)) --device "$cuda_device" --csv)
        [ "$4" = float ] && args+=(--float)
        run_within_budget "$log" "${peer_path[babelstream_cuda]}" "${args[@]}" || rc=$?
        local said
        [ $rc = 0 ] && { rows=$(bs_cuda_peer_rows "$log" "$3" "$width" 2>&1) || { rc=1 said=$rows; }; }
        [ -z "${said:-}" ] || die 1 "babelstream-cuda: $what: BabelStream $said (log: $log)"
    fi
    [ $rc = 124 ] && return 124
    [ $rc = 0 ] || die 1 "babelstream-cuda: $what failed: $(last_line "$log") (log: $log)"
    [ "$(wc -l <<<"$rows")" = 5 ] || die 1 "babelstream-cuda: $what: not the 5 kernels' rows (log: $log)"
    local side=cr k min mean n
    [ "$1" = crossroof ] || side=peer
    while read -r k min mean n; do
        local b
        b=$(bs_cuda_bytes "$k" "$3" "$width")
        printf '%s %s %s %s %s best %s %s %s\n' "$k" "$k" "$4" $(($3 * width)) "$b" "$side" "$min" "$n"
        printf '%s %s %s %s %s mean %s %s %s\n' "$k" "$k" "$4" $(($3 * width)) "$b" "$side" "$mean" "$n"
    done <<<"$rows" >>"$dir/samples"
}

# One slice: every combination of length and data type, the suites in
# turn, which goes first alternating.
bs_cuda_slice() { # slice dir
    local e t ci=0 first second
    for e in "${cuda_elements[@]}"; do
        for t in "${dtype_list[@]}"; do
            ci=$((ci + 1)) first=crossroof second=babelstream
            (((${1} + ci) % 2)) || { first=babelstream second=crossroof; }
            bs_cuda_one "$first" "$1" "$e" "$t" && bs_cuda_one "$second" "$1" "$e" "$t" || return
        done
    done
}

babelstream_cuda_run() {
    run_slices babelstream-cuda "$babelstream_cuda_budget" "$cuda_slices" bs_cuda_slice
}
