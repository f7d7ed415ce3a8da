# Lee's memory-movement techniques on each workload: measured time (points)
# and the transfer model's prediction from the fitted paths (lines), against
# input size (Lee 2012, Figs. 3.13-3.15 analogue).
#   gnuplot -c bench/bandwidth/figures/techniques.gp DIR/bandwidth-opencl.csv DIR/bandwidth-opencl-techniques "device name"
csv = ARGC >= 1 ? ARG1 : "results/bandwidth-opencl.csv"
out = ARGC >= 2 ? ARG2 : "bandwidth_techniques"
name = ARGC >= 3 ? ARG3 : ""

$EMPTY << EOD
EOD
set datafile separator comma
set datafile columnheaders
rest(p, key) = p[strstrt(p, key) + strlen(key):]
param(p, key) = strstrt(p, key) == 0 ? NaN : \
    (strstrt(rest(p, key), ";") ? real(rest(p, key)[1:strstrt(rest(p, key), ";") - 1]) : real(rest(p, key)))
techniques = "default cpu-resident gpu-resident mixed"
array workloads[2] = ["vectoradd", "reduce"]
do for [w=1:2] {
    do for [t=1:4] {
        v = workloads[w] . "-" . word(techniques, t)
        eval sprintf('set table $T_%d_%d', w, t)
        plot csv using (column("size_bytes")):(column("figure")):(param(strcol("params"), "predicted_ms=")) \
            with table if (strcol("sweep") eq "technique" && strcol("variant") eq v)
        unset table
    }
}

set datafile separator whitespace
set datafile nocolumnheaders
set logscale xy 2
set format x "%.0b %BB"
set xlabel "input size"
set ylabel "time, host input to host output (ms)"
set grid
set key top left
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1400,560 font ",10" } else { set terminal svg size 1400,560 dynamic }
    set output out . "." . fmt
    set multiplot layout 1,2 title "memory-movement techniques: measured (points) and predicted by the transfer model (lines; Lee Figs. 3.13-3.15)  " . name noenhanced
    do for [w=1:2] {
        set title (w == 1 ? "vector add" : "reduce")
        plot for [t=1:4] sprintf('$T_%d_%d', w, t) using 1:2 with points lc t pt 7 ps 0.7 title word(techniques, t), \
             for [t=1:4] sprintf('$T_%d_%d', w, t) using 1:3 with lines lc t notitle
    }
    unset multiplot
}
