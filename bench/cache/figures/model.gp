# The cache model against the measurement: for each pattern and footprint
# of the cache benchmark's `model` rows, the time per access the simulator
# predicts (hits per level x the level's latency) beside the time measured
# on the device, log scale; below, the percentage error of Crawford's eq.
# 7.1, 100 |(measured - predicted) / measured|. Reads the CSV directly:
#   gnuplot -c bench/cache/figures/model.gp DIR/cache-opencl.csv DIR/cache-opencl-model "device name"
csv = ARGC >= 1 ? ARG1 : "results/cache-opencl.csv"
out = ARGC >= 2 ? ARG2 : "cache_model"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
# gnuplot's real() rejects trailing text, so cut each value at its ";".
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
model_row = 'strcol("sweep") eq "model" && strcol("valid") eq "1" && column("figure") == column("figure")'

# footprint, predicted, measured, error, pattern
set table $M
plot csv using (column("size_bytes")):(column("figure")):(param(strcol("params"), "measured_ns")):\
    (param(strcol("params"), "error_pct")):(strcol("variant")) with table if (@model_row)
unset table
if (|$M| == 0) {
    print "cache_model: no valid model rows in " . csv
    exit
}

set datafile separator whitespace
set datafile nocolumnheaders
size(b) = b >= 1048576 ? sprintf("%.0f MiB", b / 1048576) : b >= 1024 ? sprintf("%.0f KiB", b / 1024) : sprintf("%.0f B", b)
label(p, b) = p . "\n" . size(b)
set style fill solid 0.6 border -1
set boxwidth 0.6
set grid ytics
set xtics rotate by 0 font ",8" noenhanced
set xrange [-0.7:|$M| - 0.3]

do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1200,760 font ",10" } else { set terminal svg size 1200,760 dynamic }
    set output out . "." . fmt
    set multiplot layout 2,1
    # The device name is data: no enhanced-text markup may read it.
    set title "Cache model: predicted against measured time per access (dependent accesses)\n" . name noenhanced
    set logscale y
    set ylabel "ns per access"
    set key top left
    set format x ""
    plot $M using 0:3 with points pt 7 ps 1.3 lc rgb "#1f77b4" title "measured (median)", \
         $M using 0:2 with points pt 6 ps 1.8 lw 2 lc rgb "#d62728" title "predicted by the model"
    unset title
    unset logscale y
    set ylabel "error, eq. 7.1 (%)"
    set format x "% g"
    set key off
    set yrange [0:*]
    plot $M using 0:4:xticlabels(label(strcol(5), column(1))) with boxes lc rgb "#ff7f0e" notitle, \
         $M using 0:4:(sprintf("%.0f", column(4))) with labels offset 0, 0.7 font ",8" notitle
    unset yrange
    unset multiplot
}
