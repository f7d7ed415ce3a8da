#!/usr/bin/env bash
# Draws every figure whose CSV is present in a results directory, as PNG and
# SVG beside the CSVs.   plot/plot.sh DIR
set -euo pipefail
dir=${1:?usage: plot/plot.sh RESULTS_DIR}
here=$(cd "$(dirname "$0")" && pwd)
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
drawn=0
for csv in "$dir"/*.csv; do
    [ -e "$csv" ] || continue
    case "$csv" in *.meta.csv) continue ;; esac
    base=${csv%.csv}
    case "$(basename "$base")" in
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
            ;;
        latency-*) figures="latency_footprint" ;;
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
    name=$(awk -F, '$1 == "device.name" { sub(/^[^,]*,/, ""); gsub(/"/, ""); print; exit }' "$base.meta.csv" 2>/dev/null || true)
    name=${name//\'/}
    for fig in $figures; do
        # Panels without data for a backend are normal; other messages show.
        if ! log=$(gnuplot -e "csv='$csv'; out='${base}-${fig#*_}'; name='$name'" "$here/$fig.gp" 2>&1); then
            echo "$log" >&2
            echo "plot.sh: $fig failed on $csv" >&2
            exit 1
        fi
        [ -z "$log" ] || grep -v "Skipping data file with no valid points" <<<"$log" >&2 || true
        drawn=$((drawn + 1))
    done
done
echo "plot.sh: $drawn figure(s) in $dir"
