#!/usr/bin/env bash
# Draws every figure whose CSV is present in a results directory, as PNG and
# SVG beside the CSVs.   plot/plot.sh DIR
set -euo pipefail
dir=${1:?usage: plot/plot.sh RESULTS_DIR}
here=$(cd "$(dirname "$0")" && pwd)
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
drawn=0
for csv in "$dir"/stream-*.csv; do
    [ -e "$csv" ] || continue
    case "$csv" in *.meta.csv) continue ;; esac
    base=${csv%.csv}
    name=$(awk -F, '$1 == "device.name" { sub(/^[^,]*,/, ""); gsub(/"/, ""); print; exit }' "$base.meta.csv" 2>/dev/null || true)
    name=${name//\'/}
    for fig in stream_footprint stream_concurrency; do
        gnuplot -e "csv='$csv'; out='${base}-${fig#stream_}'; name='$name'" "$here/$fig.gp"
        drawn=$((drawn + 1))
    done
done
echo "plot.sh: $drawn figure(s) in $dir"
