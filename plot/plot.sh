#!/usr/bin/env bash
# Draws every figure whose CSV is present in a results directory, as PNG and
# SVG beside the CSVs.   plot/plot.sh DIR
# Exit status: 0 drawn (or nothing to draw), 1 gnuplot failed or a figure
# could not be written whole (a full disk), 2 bad usage.
#
# Paths and the device name are data: gnuplot gets them as script arguments
# (gnuplot -c), never inside a command string, and the directory as an
# absolute path, so that no file name can start with gnuplot's "<" (read
# through a shell) or "|" (write through a shell).
set -euo pipefail

die() { # status message
    local m=$2
    printf 'plot.sh: error: %s\n' "${m//$'\n'/\\n}" >&2
    exit "$1"
}

[ $# -eq 1 ] || die 2 "usage: plot/plot.sh RESULTS_DIR"
[ -n "$1" ] || die 2 "RESULTS_DIR is empty"
[ -d "$1" ] || die 2 "$1 is not a directory"
dir=$(cd -- "$1" && pwd -P) || die 2 "cannot enter $1"
here=$(cd -- "$(dirname -- "$0")" && pwd -P)
command -v gnuplot >/dev/null || die 1 "gnuplot not found (apt-get install gnuplot-nox)"

# The device name in DIR's NAME.meta.csv: the value of its device.name
# record, read as CSV (quoted fields, doubled quotes, line breaks inside
# quotes), line breaks turned into spaces.
device_name() { # meta.csv
    [ -r "$1" ] || return 0
    awk '
        {
            line = $0
            if (inq) field = field " "
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (inq) {
                    if (c != "\"") field = field c
                    else if (substr(line, i + 1, 1) == "\"") { field = field c; i++ }
                    else inq = 0
                } else if (c == "\"") inq = 1
                else if (c == ",") { f[++nf] = field; field = "" }
                else if (c != "\r") field = field c
            }
            if (inq) next
            f[++nf] = field
            if (nf >= 2 && f[1] == "device.name") { print f[2]; exit }
            nf = 0; field = ""
        }' "$1" 2>/dev/null || true
}

# Whether a figure file was written to its end: a PNG ends with its IEND
# chunk, an SVG with its closing tag. A full disk leaves neither.
whole() { # file
    case "$1" in
        *.png) [ "$(tail -c 8 -- "$1" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ] ;;
        *.svg) tail -c 64 -- "$1" | grep -q '</svg>' ;;
        *) return 1 ;;
    esac
}

# The line of gnuplot's complaint that says what went wrong.
complaint() { # log
    local line
    line=$(grep -m1 -E 'rror|arning|annot' <<<"$1" || true)
    [ -n "$line" ] || line=$(tail -n 1 <<<"$1")
    printf '%s' "${line:0:300}"
}

lee_ratio_ref="$here/../results/reference/lee2012-fig4.3.csv"
drawn=0
for csv in "$dir"/*.csv; do
    [ -e "$csv" ] || continue
    case "$csv" in *.meta.csv) continue ;; esac
    base=${csv%.csv}
    extra=()
    case "$(basename -- "$base")" in
        stream-*) figures="stream_footprint stream_concurrency" ;;
        bandwidth-*)
            figures="bandwidth_size bandwidth_paths"
            grep -q ',technique,' "$csv" && figures+=" bandwidth_techniques"
            # Lee's tables name OpenCL paths.
            [[ $csv == *-opencl.csv ]] && figures+=" bandwidth_lee"
            ;;
        regspill-*)
            # Each figure needs its rows: caps only where a toolchain takes
            # them, the offline table only where a compiler exists.
            figures=""
            grep -q ',live-values,' "$csv" && figures+=" regspill_live"
            grep -q ',reg-cap,' "$csv" && figures+=" regspill_caps"
            grep -q ',offline-cap,' "$csv" && figures+=" regspill_spill"
            ;;
        atomics-*)
            # --sweeps and --spaces leave sweeps out; the ratios come with
            # the degree sweep, the locks share a figure with the groups.
            figures=""
            grep -q ',degree,' "$csv" && figures+=" atomics_degree"
            grep -q ',stride,' "$csv" && figures+=" atomics_stride"
            grep -qE ',(groups|groups-one-address|locks),' "$csv" && figures+=" atomics_groups"
            grep -q ',ratio,' "$csv" && figures+=" atomics_ratio"
            # Lee's factors, where the reference table is there to read.
            if [ -r "$lee_ratio_ref" ]; then extra=("$lee_ratio_ref"); else extra=(""); fi
            ;;
        latency-*) figures="latency_footprint" ;;
        # A cluster run's report: one headline across the nodes.
        cluster-report) figures="cluster_headline" ;;
        fma-*) figures="fma_gx" ;;
        sfu-*.table) continue ;; # the summary table beside the rows
        sfu-*)
            # Sweeps the run's --versions and --partition-functions left out draw nothing.
            figures=""
            grep -q ',throughput,' "$csv" && figures+=" sfu_throughput"
            grep -q ',accuracy,' "$csv" && figures+=" sfu_accuracy"
            grep -q ',partition,' "$csv" && figures+=" sfu_partition"
            ;;
        *) continue ;;
    esac
    name=$(device_name "$base.meta.csv")
    for fig in $figures; do
        out="${base}-${fig#*_}"
        # A figure left from an earlier drawing must not pass for this one's.
        rm -f -- "$out.png" "$out.svg"
        # Panels without data for a backend are normal; other messages show.
        if ! log=$(gnuplot -c "$here/$fig.gp" "$csv" "$out" "$name" "${extra[@]}" 2>&1); then
            rm -f -- "$out.png" "$out.svg"
            die 1 "$fig on $csv: gnuplot failed: $(complaint "$log")"
        fi
        for f in "$out.png" "$out.svg"; do
            [ -e "$f" ] || continue
            if ! whole "$f"; then
                rm -f -- "$out.png" "$out.svg"
                die 1 "cannot write $f: gnuplot left it incomplete (is the disk full?)"
            fi
        done
        [ -z "$log" ] || grep -v "Skipping data file with no valid points" <<<"$log" >&2 || true
        [ -e "$out.png" ] && drawn=$((drawn + 1))
    done
done
echo "plot.sh: $drawn figure(s) in $dir"
