# Bandwidth of every path against transfer size, log-log, with Lee's fitted
# transfer model B(S) = S/(c + S/b) drawn over the measurements (Lee 2012,
# Fig. 3.9 analogue). Panels: API copies, CPU access through a map, kernels.
#   gnuplot -c bench/bandwidth/figures/size.gp DIR/bandwidth-opencl.csv DIR/bandwidth-opencl-size "device name"
csv = ARGC >= 1 ? ARG1 : "results/bandwidth-opencl.csv"
out = ARGC >= 2 ? ARG2 : "bandwidth_size"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
# One fit row per measured path: the list of paths.
$EMPTY << EOD
EOD
set table $PATHS
plot csv using (strcol("variant")) with table if (strcol("sweep") eq "fit" && strcol("valid") eq "1")
unset table
n = |$PATHS|
# The number after key in "k1=v1;k2=v2" (NaN if absent).
rest(p, key) = p[strstrt(p, key) + strlen(key):]
param(p, key) = strstrt(p, key) == 0 ? NaN : \
    (strstrt(rest(p, key), ";") ? real(rest(p, key)[1:strstrt(rest(p, key), ";") - 1]) : real(rest(p, key)))
panel_of(v) = v[1:7] eq "kernel-" ? 3 : (v[1:4] eq "cpu-" ? 2 : 1)
array panel[n]
array rows[n]
do for [i=1:n] {
    v = $PATHS[i]
    panel[i] = panel_of(v)
    # The fit-error rows hold both sides of the fit at every size: the
    # bandwidth the fit saw (CPU access: map + memcpy + unmap) and the model's.
    eval sprintf('set table $M_%d', i)
    plot csv using (column("size_bytes")):(param(strcol("params"), "measured_GBps=")) \
        with table if (strcol("sweep") eq "fit-error" && strcol("variant") eq v && strcol("valid") eq "1")
    unset table
    eval sprintf('set table $F_%d', i)
    plot csv using (column("size_bytes")):(param(strcol("params"), "fit_GBps=")) \
        with table if (strcol("sweep") eq "fit-error" && strcol("variant") eq v && strcol("valid") eq "1")
    unset table
    eval sprintf('rows[%d] = |$M_%d|', i, i)
}
set table $REF
plot csv using (column("size_bytes")):(column("figure")):(strcol("variant")) with table \
    if (strcol("backend") eq "host" && strcol("variant") eq "host-memcpy-1thread")
unset table
# The same copy over all the host's cores: what the memory could give a copy.
set table $REFMT
plot csv using (column("size_bytes")):(column("figure")) with table \
    if (strcol("backend") eq "host" && strcol("variant") eq "host-memcpy-openmp")
unset table
set table $REFREAD
plot csv using (column("size_bytes")):(column("figure")) with table \
    if (strcol("backend") eq "host" && strcol("variant") eq "host-read-openmp")
unset table

# A path's table, or $EMPTY where the run has no fit-error rows for it
# (gnuplot cannot plot a table that a plot selecting no row left).
block(kind, i) = rows[i] > 0 ? sprintf('$%s_%d', kind, i) : '$EMPTY'

set datafile separator whitespace
set datafile nocolumnheaders
set logscale xy 2
set format x "%.0b %BB"
set xlabel "transfer size"
set ylabel "bandwidth (GB/s, median)"
set grid
set key outside below maxrows 6 font ",8"
array titles[3] = ["API copies", "CPU access through a map (map + memcpy + unmap)", "kernels reading and writing"]
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1800,720 font ",10" } else { set terminal svg size 1800,720 dynamic }
    set output out . "." . fmt
    set multiplot layout 1,3 title "bandwidth against transfer size, points measured, lines the fitted model (Lee Fig. 3.9)  " . name noenhanced
    do for [k=1:3] {
        set title titles[k]
        # A panel none of whose paths the run measured says so.
        if (sum [i=1:n] (panel[i] == k ? rows[i] : 0) + (k < 3 ? |$REF| : |$REFREAD|) == 0) {
            set label 1 "no fitted path in this run" at graph 0.5, 0.5 center
            plot [1:2] [1:2] NaN notitle
            unset label 1
            continue
        }
        plot for [i=1:n] (panel[i] == k ? block("M", i) : '$EMPTY') using 1:2 with points lc i pt 4 + i % 4 ps 0.6 \
                 title (panel[i] == k ? $PATHS[i] : ""), \
             for [i=1:n] (panel[i] == k ? block("F", i) : '$EMPTY') using 1:2 with lines lc i dt 1 + i % 3 notitle, \
             (k < 3 ? (|$REF| > 0 ? '$REF' : '$EMPTY') : (|$REFREAD| > 0 ? '$REFREAD' : '$EMPTY')) using 1:2 with lines lc black dt 2 lw 2 \
                 title (k < 3 ? "host memcpy, 1 thread" : "host read, OpenMP"), \
             (k < 3 && |$REFMT| > 0 ? '$REFMT' : '$EMPTY') using 1:2 with lines lc rgb "gray40" dt 3 lw 2 \
                 title (k < 3 && |$REFMT| > 0 ? "host memcpy, all cores" : "")
    }
    unset multiplot
}
