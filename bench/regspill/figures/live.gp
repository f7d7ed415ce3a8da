# Register pressure on the device: throughput of the live-value kernel
# against the number of values each work-item keeps live. Where the values
# stop fitting in the registers (on a CPU: its vector registers) the
# compiler spills and the throughput falls off a cliff, marked by the
# dashed line between the last point that fits and the first that spills
# (the benchmark's own "cliff" row).
#   gnuplot -c bench/regspill/figures/live.gp DIR/regspill-opencl.csv DIR/regspill-opencl-live "device name"
csv = ARGC >= 1 ? ARG1 : "results/regspill-opencl.csv"
out = ARGC >= 2 ? ARG2 : "regspill_live"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
# The number after "key=" in a "k=v;k=v" parameter list, NaN when absent.
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
is_row(v) = strcol("variant") eq v && strcol("valid") eq "1"

set table $LIVE
plot csv using (param(strcol("params"), "live")):(column("figure")):(column("figure_best")) with table if (is_row("live-values"))
unset table
set table $CLIFF
plot csv using (sqrt(param(strcol("params"), "last_fitting") * param(strcol("params"), "first_spilling"))):(0) \
    with table if (strcol("variant") eq "cliff" && strstrt(strcol("params"), "first_spilling="))
unset table

set datafile separator whitespace
set datafile nocolumnheaders
if (|$CLIFF| > 0) {
    stats $CLIFF using 1 nooutput
    set arrow 1 from STATS_min, graph 0 to STATS_min, graph 1 nohead lc black dt 2
    set label 1 "cliff" at STATS_min, graph 0.95 offset 0.5, 0
}
set logscale x 2
set xlabel "live 32-bit values per work-item (per lane)"
set ylabel "throughput (Gop/s)"
set yrange [0:*]
set grid
set key top right
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 900,560 font ",10" } else { set terminal svg size 900,560 dynamic }
    set output out . "." . fmt
    set title "regspill: throughput against live values (the spill cliff)  " . name noenhanced
    plot $LIVE using 1:2 with linespoints lc 1 pt 7 ps 0.7 title "median", \
         $LIVE using 1:3 with points lc 1 pt 6 ps 0.7 title "best"
}
