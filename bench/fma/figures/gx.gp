# The X-model's g(x), the compute side of Li 2016 Fig. 3.10, measured by
# Volkov's method: FMA throughput against the concurrency per compute unit
# (warps per SM on a GPU, work-items per core on a CPU), one curve per
# number E of independent chains per work-item, one panel per type. The
# curves rise while more operations in flight hide the FMA latency and
# flatten at the compute units' peak M; the larger E, the fewer units reach
# it (the transition point pi moves left). Medians; the fit is xgraph's.
#   gnuplot -c bench/fma/figures/gx.gp DIR/fma-opencl.csv DIR/fma-opencl-gx "device name"
csv = ARGC >= 1 ? ARG1 : "results/fma-opencl.csv"
out = ARGC >= 2 ? ARG2 : "fma_gx"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
# gnuplot's real() rejects trailing text, so cut each value at its ";".
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
is_point(dt) = strcol("benchmark") eq "fma" && strcol("sweep") eq "concurrency" && strcol("dtype") eq dt && \
               strcol("valid") eq "1"
types = "float double"

# (The loop variable must not be "e" or "pos": num() and param() assign those.)
do for [dt in types] {
    do for [ilp = 1:8] {
        eval sprintf('set table $G_%s_%d', dt, ilp)
        plot csv using (param(strcol("params"), "per_cu")):(column("figure")) with table \
            if (is_point(dt) && param(strcol("params"), "ilp") == ilp)
        unset table
    }
}
# The unit the concurrency is counted in, as the rows say.
set table $WARPS
plot csv using (strstrt(strcol("params"), "per_cu_unit=warps") > 0 ? 1 : 0):(0) with table if (is_point("float") || is_point("double"))
unset table
unit = "work-items"
if (|$WARPS| > 0) {
    stats $WARPS using 1 nooutput
    if (STATS_max > 0) { unit = "warps" }
}

set datafile separator whitespace
set datafile nocolumnheaders
# One plot command per type from the tables that have points; an empty
# table is a datablock of no lines, which plot refuses.
present = ""
do for [dt in types] {
    cmd = ""
    do for [ilp = 1:8] {
        block = sprintf('$G_%s_%d', dt, ilp)
        eval sprintf('n = |%s|', block)
        if (n > 0) {
            cmd = cmd . sprintf("%s using 1:2 with linespoints lc %d pt 7 ps 0.7 title 'E = %d', ", block, ilp, ilp)
        }
    }
    if (strlen(cmd) > 0) {
        present = present . " " . dt
        eval sprintf('cmd_%s = "plot " . cmd[1:strlen(cmd) - 2]', dt)
    }
}
if (words(present) == 0) {
    print "fma_gx: no valid concurrency rows in " . csv
    exit
}

set logscale x 2
set format x "%.0f"
set xlabel "concurrency per compute unit x (" . unit . ")"
set ylabel "FMA throughput g(x) (Gflop/s, median)"
set yrange [0:*]
set grid
set key top left
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 700 * words(present),560 font ",10" } \
    else { set terminal svg size 700 * words(present),560 dynamic }
    set output out . "." . fmt
    set multiplot layout 1,words(present) title "fma: g(x), Li Fig. 3.10 compute side (Volkov method)  " . name noenhanced
    do for [dt in present] {
        set title dt . ": E independent FMA chains per work-item"
        eval sprintf('eval cmd_%s', dt)
    }
    unset multiplot
}
