# Latency of one load against the footprint walked by the pointer chase,
# log-log: the device solid, the host's own walk dashed. The cache levels
# show as plateaus; a dotted vertical line marks each level's size (from
# the level rows), and the level rows' latencies, the L_$ and L of Li's
# Eq. 3.1, are circled where they were taken. Reads the CSV directly:
#   gnuplot -c bench/latency/figures/footprint.gp DIR/latency-opencl.csv DIR/latency-opencl-footprint "device name"
csv = ARGC >= 1 ? ARG1 : "results/latency-opencl.csv"
out = ARGC >= 2 ? ARG2 : "latency_footprint"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
# gnuplot's real() rejects trailing text, so cut each value at its ";".
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
is_host = 'strcol("backend") eq "host"'
footprint_row(host) = strcol("sweep") eq "footprint" && strcol("valid") eq "1" && (@is_host) == host
level_row(host) = strcol("sweep") eq "level" && strcol("valid") eq "1" && (@is_host) == host && \
                  column("figure") == column("figure")

set table $DEV
plot csv using (column("size_bytes")):(column("figure")) with table if (footprint_row(0))
unset table
set table $HOST
plot csv using (column("size_bytes")):(column("figure")) with table if (footprint_row(1))
unset table
# Level rows: the footprint each was taken at, its latency and its name.
set table $LEVELS
plot csv using (column("size_bytes")):(column("figure")):(strcol("variant")) with table if (level_row(0))
unset table
# Cache sizes, one line each; the device's levels, or the host's when the
# device reports none.
set table $SIZES
plot csv using (param(strcol("params"), "cache_bytes")):(0):(strcol("variant")) with table \
    if (strcol("sweep") eq "level" && strcol("variant") ne "memory" && !(@is_host))
unset table
if (|$SIZES| == 0) {
    set table $SIZES
    plot csv using (param(strcol("params"), "cache_bytes")):(0):(strcol("variant")) with table \
        if (strcol("sweep") eq "level" && strcol("variant") ne "memory" && (@is_host))
    unset table
}
if (|$DEV| == 0 && |$HOST| == 0) {
    print "latency_footprint: no valid footprint rows in " . csv
    exit
}

set datafile separator whitespace
set datafile nocolumnheaders
set logscale xy 2
set format x "%.0b %BB"
set format y "%g"
set xlabel "footprint walked (bytes)"
set ylabel "latency of one load (ns, median)"
set grid
set key bottom right
# Room on the right for the last level label.
set offsets graph 0, graph 0.08, 0, 0
# One plot command from the tables that have rows: plot refuses a datablock
# that holds none.
cmd = ""
if (|$SIZES| > 0) {
    cmd = cmd . '$SIZES using 1:(0):(0):(1) with vectors nohead lc rgb "gray40" dt 3 notitle axes x1y2, '
    cmd = cmd . '$SIZES using 1:(1):3 with labels rotate by 90 right offset -0.8, -0.5 font ",9" tc rgb "gray30" notitle axes x1y2, '
}
if (|$DEV| > 0) {
    cmd = cmd . '$DEV using 1:2 with linespoints lc rgb "#1f77b4" pt 7 ps 0.7 lw 1.5 title "device", '
}
if (|$HOST| > 0) {
    cmd = cmd . '$HOST using 1:2 with linespoints lc rgb "#d62728" pt 6 ps 0.7 dt 2 title "host (one thread)", '
}
if (|$LEVELS| > 0) {
    cmd = cmd . '$LEVELS using 1:2 with points lc rgb "black" pt 6 ps 2.2 title "level rows (L_{\$}, L)", '
    cmd = cmd . '$LEVELS using 1:2:3 with labels left offset 1.4, 0 font ",9" notitle, '
}
cmd = "plot " . cmd[1:strlen(cmd) - 2]
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1000,620 font ",10" } else { set terminal svg size 1000,620 dynamic }
    set output out . "." . fmt
    # The device name is data: no enhanced-text markup may read it.
    set title "Memory latency by pointer chase (L$ and L of Li Eq. 3.1)\n" . name noenhanced
    eval cmd
}
