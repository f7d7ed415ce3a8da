# The footprint x stride heat map of the cache benchmark's grid sweep: the
# time of one load (ns, median, colour on a log scale) for a random-order
# chase over footprint bytes with elements stride bytes apart, both axes in
# powers of two. The capacities the benchmark detected (its detect rows,
# "<level>-capacity") are drawn as dashed horizontal lines, and the first
# level's line size ("<level>-line") as a dotted vertical one. Reads the
# CSV directly:
#   gnuplot -c bench/cache/figures/heatmap.gp DIR/cache-opencl.csv DIR/cache-opencl-heatmap "device name"
csv = ARGC >= 1 ? ARG1 : "results/cache-opencl.csv"
out = ARGC >= 2 ? ARG2 : "cache_heatmap"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
# gnuplot's real() rejects trailing text, so cut each value at its ";".
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
lg(x) = log(x) / log(2)
ends(s, tail) = strlen(s) >= strlen(tail) && s[strlen(s) - strlen(tail) + 1:] eq tail
measured(c) = column(c) == column(c)
grid_row = 'strcol("sweep") eq "grid" && strcol("valid") eq "1" && measured("figure")'
detect_row(tail) = strcol("sweep") eq "detect" && ends(strcol("variant"), tail) && measured("figure")

set table $GRID
plot csv using (lg(param(strcol("params"), "stride"))):(lg(column("size_bytes"))):(column("figure")) with table \
    if (@grid_row)
unset table
# Capacities: log2 of the bytes, half a row up (the edge between the last
# footprint that fits and the next), and the row's level name, as data.
set table $CAPS
plot csv using (lg(column("figure")) + 0.5):(0):(strcol("variant")) with table if (detect_row("-capacity"))
unset table
set table $LINE
plot csv using (lg(column("figure"))):(0):(strcol("variant")) with table if (detect_row("-line"))
unset table
if (|$GRID| == 0) {
    print "cache_heatmap: no valid grid rows in " . csv
    exit
}

set datafile separator whitespace
set datafile nocolumnheaders
set xlabel "stride (bytes)"
set ylabel "footprint (bytes)"
# Ticks at powers of two, labelled in bytes.
set xtics 1 format ""
set ytics 1 format ""
do for [k = 3:13] { set xtics add (sprintf("%.0f", 2**k) k) }
do for [k = 10:30:2] { set ytics add ((k >= 20 ? sprintf("%.0f MiB", 2**(k - 20)) : sprintf("%.0f KiB", 2**(k - 10))) k) }
set logscale cb
set cblabel "ns per load (median)"
set palette defined (0 "#fff7bc", 1 "#fec44f", 2 "#d95f0e", 3 "#662506")
set key outside bottom center horizontal
cmd = '$GRID using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette notitle, '
if (|$CAPS| > 0) {
    cmd = cmd . '$CAPS using (2.5):1:(11):(0) with vectors nohead lc rgb "black" dt 2 lw 1.5 title "detected capacity", '
    cmd = cmd . '$CAPS using (13.4):1:3 with labels right offset 0, 0.6 font ",9" notitle, '
}
if (|$LINE| > 0) {
    cmd = cmd . '$LINE every ::0::0 using 1:(9.5):(0):(21) with vectors nohead lc rgb "blue" dt 3 lw 1.5 title "detected line (first level)", '
}
cmd = "plot " . cmd[1:strlen(cmd) - 2]
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1000,700 font ",10" } else { set terminal svg size 1000,700 dynamic }
    set output out . "." . fmt
    # The device name is data: no enhanced-text markup may read it.
    set title "Cache geometry: time per load, footprint x stride (random order)\n" . name noenhanced
    eval cmd
}
