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
# shellcheck source=common/csv_records.sh
. "$here/../common/csv_records.sh"
command -v gnuplot >/dev/null || die 1 "gnuplot not found (apt-get install gnuplot-nox)"

# The device name in DIR's NAME.meta.csv: the value of its device.name record.
device_name() { # meta.csv
    [ -r "$1" ] || return 0
    csv_records "$1" | awk -F '\037' '$1 == "device.name" { print $2; exit }'
}

# Why the energy-levels table has no measured value (empty where it has
# one): the reason of its first level whose rows had no sensor, else of its
# first level. gnuplot cuts a quoted field at its first comma, and a reason
# is a sentence: it is read here and given to the figure as an argument.
energy_reason() { # energy-levels.csv
    csv_records "$1" | awk -F '\037' '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["status"] == "measured" { measured = 1 }
        $col["status"] == "no-sensor" && sensor == "" { sensor = $col["reason"] }
        any == "" { any = $col["reason"] }
        END { if (!measured) print (sensor != "" ? sensor : any) }'
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
ranasinghe_ref="$here/../results/reference/ranasinghe2014-table5.1.csv"
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
            # The paths matrix: one row per cell, where the run made one.
            grep -q ',matrix,' "$csv" && figures+=" bandwidth_matrix"
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
        cache-*)
            figures=""
            # The heat map, where the run swept the grid.
            grep -q ',grid,' "$csv" && figures+=" cache_heatmap"
            # The model against the measurement, where the run had pattern kernels.
            grep -q ',model,' "$csv" && figures+=" cache_model"
            ;;
        # build/tools/energy-levels' table, beside Ranasinghe's values where
        # the reference table is there to read.
        energy-levels)
            figures="energy_levels"
            if [ -r "$ranasinghe_ref" ]; then extra=("$ranasinghe_ref"); else extra=(""); fi
            extra+=("$(energy_reason "$csv")")
            ;;
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
        # A table of one figure names it: energy-levels.png, not energy-levels-levels.png.
        [ "$(basename -- "$base")" = "${fig//_/-}" ] && out=$base
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
