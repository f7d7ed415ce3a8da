# An application's X-graph (Li 2016, §3.4): the memory system's f(k) as the
# model used it (the fit, or the measured points joined), the computation
# system's demand g_E(x)/Z for the application's E and Z on the reversed
# axis x = n - k, and the crossings: filled where stable, open where not
# (Li's Eq. 3.6), labelled with the machine state. Left axis MS throughput,
# right axis CS throughput = Z x MS. build/tools/xgraph --app writes the data
# file and sets the variables. (gnuplot 5.4 crashes on a label at NaN: with
# no crossing, none is drawn.)
if (!exists("dat")) dat = "xgraph-app-float.dat"
if (!exists("out")) out = "xgraph-app-float"
if (!exists("device")) device = ""
if (!exists("dtype")) dtype = "float"
if (!exists("unit")) unit = "work-items/CU"
if (!exists("n")) n = 16
if (!exists("Z")) Z = 1
if (!exists("E")) E = 1
if (!exists("ymax")) ymax = NaN
if (!exists("ncross")) ncross = 0
if (!exists("t_fm")) t_fm = "f(k) measured"
if (!exists("t_ff")) t_ff = "f(k) used"
if (!exists("t_g")) t_g = "g(x)/Z"

do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo enhanced size 1280,800 font ",11" } \
    else { set terminal svg enhanced size 1280,800 dynamic font ",11" }
    set output out . "." . fmt
    reset
    set title sprintf("X-graph of an application on %s, %s: Z = %g flop/B, E = %d, n = %g %s", device, dtype, Z, E, \
                      n, unit) noenhanced
    set lmargin 11
    set rmargin 13
    set xrange [0:n]
    set xtics nomirror
    set xlabel sprintf("k: %s in the memory system (MS)  →", unit) noenhanced
    set x2range [n:0]
    set x2tics
    set x2label sprintf("←  x = n - k: %s in the computation system (CS)", unit) noenhanced
    if (ymax == ymax && ymax > 0) { set yrange [0:ymax] } else { set yrange [0:*] }
    set ytics nomirror
    set ylabel "MS throughput (GB/s)"
    set y2range [0:ymax * Z]
    set y2tics
    set y2label "CS throughput Z·MS (Gflop/s)"
    set grid xtics ytics lc rgb "#dddddd"
    set key below vertical maxrows 3 samplen 2 font ",10"
    plot dat index 0 using 1:2 with points pt 7 ps 1.1 lc rgb "#9ecae1" title t_fm, \
         dat index 1 using 1:2 with lines lw 3 lc rgb "#1f77b4" title t_ff noenhanced, \
         dat index 2 using 1:2 with lines lw 2 lc rgb "#d62728" title t_g, \
         dat index 3 using 1:2 with points pt 6 lc rgb "#d62728" notitle, \
         for [j=1:(ncross > 0)] dat index 4 using 1:($3 == 1 ? $2 : NaN) with points pt 7 ps 2.2 lc rgb "black" \
             title "stable crossing", \
         for [j=1:(ncross > 0)] dat index 4 using 1:($3 == 1 ? NaN : $2) with points pt 6 ps 2.2 lw 2 \
             lc rgb "black" title "unstable or marginal crossing", \
         for [j=1:(ncross > 0)] dat index 4 using 1:2:4 with labels left offset 1.2, -1.2 font ",10" notitle, \
         for [j=1:(ncross > 0)] dat index 4 using 1:2:5 with labels right offset -1.2, -1.2 font ",10" notitle
}
