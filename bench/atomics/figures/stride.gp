# Uncontended atomics (one counter per work-item) against the stride between
# neighbouring work-items' counters, one line per operation, one panel per
# memory space: what spreading the counters over cache lines (global) or
# banks (local) costs or gains (Lee 2012, Fig. 4.4). A space without rows
# has no panel.
#   gnuplot -c bench/atomics/figures/stride.gp DIR/atomics-opencl.csv DIR/atomics-opencl-stride "device name"
csv = ARGC >= 1 ? ARG1 : "results/atomics-opencl.csv"
out = ARGC >= 2 ? ARG2 : "atomics_stride"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
# gnuplot's real() rejects trailing text, so cut each value at its ";".
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
in_space(sp) = strstrt(";" . strcol("params") . ";", ";space=" . sp . ";") > 0
is_point(sp, op) = strcol("sweep") eq "stride" && strcol("backend") ne "host-c11" && strcol("variant") eq op && \
                   strcol("dtype") eq "uint32" && strcol("valid") eq "1" && in_space(sp)
ops = "read xchg add"
spaces = "global local"

do for [sp in spaces] {
    do for [op in ops] {
        eval sprintf('set table $S_%s_%s', sp, op)
        plot csv using (param(strcol("params"), "stride")):(column("figure")) with table if (is_point(sp, op))
        unset table
    }
}

# An empty table is a datablock of no lines, which plot refuses: keep only
# the operations, and the spaces, that have points.
present = ""
do for [sp in spaces] {
    do for [op in ops] {
        eval sprintf('if (|$S_%s_%s| > 0) { ops_%s = exists("ops_%s") ? ops_%s . " %s" : "%s" }', \
                     sp, op, sp, sp, sp, op, op)
    }
    if (exists("ops_" . sp)) { present = present . " " . sp }
}
if (words(present) == 0) {
    print "atomics_stride: no valid stride rows in " . csv
    exit
}

set datafile separator whitespace
set datafile nocolumnheaders
set logscale x 2
set format x "%.0f"
set xlabel "stride between neighbouring counters (4-byte elements)" offset 0,0.5
set ylabel "throughput (Mop/s, median)"
set yrange [0:*]
set grid
set key below horizontal spacing 1.2
colour(op) = op eq "read" ? 1 : op eq "xchg" ? 2 : 3
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 700 * words(present) + 200,560 font ",10" } \
    else { set terminal svg size 700 * words(present) + 200,560 dynamic }
    set output out . "." . fmt
    set multiplot layout 1,words(present) title "atomics: uncontended throughput against stride (Lee Fig. 4.4)  " . name noenhanced
    do for [sp in present] {
        set title sp . " memory, one counter per work-item"
        eval sprintf('sp_ops = ops_%s', sp)
        plot for [op in sp_ops] sprintf('$S_%s_%s', sp, op) using 1:2 with linespoints lc colour(op) pt 7 ps 0.7 \
            title op
    }
    unset multiplot
}
