# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034 # the shared options are tools/peers.sh's globals; what it defines, tools/peers.sh reads
# tools/peers.sh --nvbandwidth: bandwidth-cuda's copies beside nvbandwidth's
# at nvbandwidth's buffer size, in slices that alternate which suite goes
# first. nvbandwidth reports the median over its samples of each sample's
# bandwidth (16 back-to-back copies between events), in GB/s of 10^9 bytes
# of one buffer per copy; crossroof's figure is the median over its
# repetitions, in the same unit. Both count a copy's bytes once, the
# device-local copy too; nvbandwidth's bidirectional figure is the bytes of
# its measured direction over that direction's time while the other runs,
# so crossroof's duplex figure (both directions counted) is halved. Each
# statistic is the median of the slices'. A mode of tools/peers.sh
# (tools/peers/common.sh says what a mode defines).

peer_modes+=(nvbandwidth)
nvbandwidth_option=--nvbandwidth
nvbandwidth_needs=bandwidth-cuda
nvbandwidth_rows=nvbandwidth
nvbandwidth_help="nvbandwidth beside bandwidth-cuda's copies:
[--buffer-mib 512] [--samples 3] [--nvbandwidth-budget 20]"
nvb_mib=512 nvb_samples=3 nvbandwidth_budget=20

nvbandwidth_options="--buffer-mib --samples --nvbandwidth-budget"
nvbandwidth_parse() { # option value
    case $1 in
        --buffer-mib) positive "$1" "$2"; nvb_mib=$2 ;;
        --samples) positive "$1" "$2"; nvb_samples=$2 ;;
        --nvbandwidth-budget) seconds "$1" "$2"; nvbandwidth_budget=$2 ;;
    esac
}

nvbandwidth_check() {
    [ "$nvb_mib" -le 1048576 ] || die 2 "--buffer-mib: $nvb_mib MiB is more than any device holds (at most 1048576)"
    nvb_bytes=$((nvb_mib * 1048576))
    nvb_choose_device
}

# crossroof's path, nvbandwidth's testcase, and the factor on crossroof's
# figure that makes it count as nvbandwidth does.
nvb_pairs=("h2d-memcpy-pinned host_to_device_memcpy_ce 1"
           "d2h-memcpy-pinned device_to_host_memcpy_ce 1"
           "duplex-copy-pinned host_to_device_bidirectional_memcpy_ce 0.5"
           "d2d-memcpy device_local_copy 1")

# "path figure n" of each valid size row of bandwidth-cuda's CSV at bytes.
nvb_crossroof_rows() { # csv bytes
    csv_records "$1" | awk -F '\037' -v bytes="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["sweep"] == "size" && $col["backend"] == "cuda" && $col["valid"] == "1" && $col["size_bytes"] == bytes {
            print $col["variant"], $col["figure"], $col["n"]
        }'
}

# "testcase figure" of nvbandwidth's plain-text output: after "Running
# <testcase>." come its description, the header of the device columns and
# the row of device 0 (the one device it is shown), "0  <GB/s>"; a testcase
# that fails prints "Error: <why>" or "Waived: ..." in their place.
nvb_peer_rows() { # file
    awk '
        /^Running [A-Za-z0-9_]+\.$/ { test = substr($2, 1, length($2) - 1); line = 0; next }
        test != "" && /^(Error|Waived|ERROR)/ { print test, "-", $0; test = ""; next }
        test != "" && ++line == 3 { print test, ($1 == "0" && NF == 2 ? $2 : "-"), $0; test = "" }
    ' "$1"
}

# The one device nvbandwidth is to see, into nvb_visible: the
# cuda_device-th of those CUDA_VISIBLE_DEVICES already shows, or that
# ordinal. Called once, before any run.
nvb_choose_device() {
    nvb_visible=$cuda_device
    [ -n "${CUDA_VISIBLE_DEVICES+set}" ] || return 0
    local list
    IFS=, read -r -a list <<<"$CUDA_VISIBLE_DEVICES"
    [ "$cuda_device" -lt ${#list[@]} ] ||
        die 2 "--device $cuda_device: CUDA_VISIBLE_DEVICES ('$CUDA_VISIBLE_DEVICES') shows ${#list[@]} device(s)"
    nvb_visible=${list[$cuda_device]}
}

nvb_crossroof() { # slice dir -> samples; 124 where the budget ended
    local log=$2/crossroof.log paths="" p rc=0 rows
    for p in "${nvb_pairs[@]}"; do paths+=${paths:+,}${p%% *}; done
    run_within_budget "$log" "$bin/bandwidth-cuda" --paths "$paths" --sizes "$nvb_bytes" --reps "$nvb_samples:$nvb_samples" \
        --min-time 0.001 --max-time 600 --energy off --device "$cuda_device" --out "$2/crossroof" || rc=$?
    [ $rc = 124 ] && return 124
    [ $rc = 0 ] || die 1 "nvbandwidth: crossroof, slice $1, failed: $(last_line "$log") (log: $log)"
    rows=$(nvb_crossroof_rows "$2/crossroof/bandwidth-cuda.csv" "$nvb_bytes")
    local path test factor figure n
    for p in "${nvb_pairs[@]}"; do
        read -r path test factor <<<"$p"
        read -r _ figure n < <(grep "^$path " <<<"$rows") ||
            die 1 "nvbandwidth: crossroof, slice $1: no valid $path row at $nvb_bytes bytes (log: $log)"
        printf '%s %s - %s - median cr %s %s\n' "$test" "$path" "$nvb_bytes" \
            "$(awk -v f="$figure" -v k="$factor" 'BEGIN { printf "%.9g", f * k }')" "$n"
    done >>"$2/samples"
    printf 'note host_to_device_bidirectional_memcpy_ce duplex-copy-pinned - %s %s\n' "$nvb_bytes" \
        "crossroof's duplex figure halved: one direction's bytes over the time of both, as nvbandwidth counts its measured direction" \
        >>"$2/samples"
}

nvb_peer() { # slice dir -> samples; 124 where the budget ended
    local log=$2/nvbandwidth.log rc=0 tests=() p rows
    for p in "${nvb_pairs[@]}"; do read -r _ p _ <<<"$p"; tests+=("$p"); done
    run_within_budget "$log" env CUDA_VISIBLE_DEVICES="$nvb_visible" "${peer_path[nvbandwidth]}" -b "$nvb_mib" -i "$nvb_samples" \
        -t "${tests[@]}" || rc=$?
    [ $rc = 124 ] && return 124
    [ $rc = 0 ] || die 1 "nvbandwidth: nvbandwidth, slice $1, failed: $(last_line "$log") (log: $log)"
    rows=$(nvb_peer_rows "$log")
    local path test factor figure said
    for p in "${nvb_pairs[@]}"; do
        read -r path test factor <<<"$p"
        figure=$(awk -v t="$test" '$1 == t { print $2; exit }' <<<"$rows")
        said=$(awk -v t="$test" '$1 == t { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' <<<"$rows")
        [[ $figure =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
            die 1 "nvbandwidth: slice $1: no figure for $test${said:+ (it said: $said)} (log: $log)"
        printf '%s %s - %s - median peer %s %s\n' "$test" "$path" "$nvb_bytes" "$figure" "$nvb_samples"
    done >>"$2/samples"
}

nvb_slice() { # slice dir
    if (($1 % 2)); then nvb_crossroof "$1" "$2" && nvb_peer "$1" "$2"
    else nvb_peer "$1" "$2" && nvb_crossroof "$1" "$2"; fi
}

nvbandwidth_run() {
    run_slices nvbandwidth "$nvbandwidth_budget" "$cuda_slices" nvb_slice
}
