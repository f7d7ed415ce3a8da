# The architectural X-graph (Li 2016, Fig. 3.10): the memory system's
# supply f(k) against k, threads in the memory system (MS), and the
# computation system's demand g_E(x)/Z, one curve per ILP E, against
# x = n - k, threads in the computation system (CS): Li's reversed axis, its
# origin n to the right of f's. Left axis: MS throughput; right axis: CS
# throughput = Z x MS. Z is an application's parameter; the architectural
# graph takes Z = M/R, the machine's ridge point, so that the best g meets
# f's plateau. Li's Table 3.2 GPUs are drawn as reference f(k) lines (warps
# per SM): on the same axes for CUDA devices, in a panel beside otherwise.
# build/tools/xgraph writes the data file and sets every variable below;
# by hand, after a run of xgraph (which also leaves the .dat):
#   gnuplot -e "dat='DIR/xgraph-float.dat'; out='DIR/xgraph-float'; n=16; nE=0; haveg=0; nref=0" plot/xgraph_arch.gp
if (!exists("dat")) dat = "xgraph-float.dat"
if (!exists("out")) out = "xgraph-float"
if (!exists("device")) device = ""
if (!exists("dtype")) dtype = "float"
if (!exists("unit")) unit = "work-items/CU"
if (!exists("n")) n = 16
if (!exists("Z")) Z = NaN
if (!exists("haveg")) haveg = 0
if (!exists("nE")) nE = 0
if (!exists("R")) R = NaN
if (!exists("delta")) delta = NaN
if (!exists("ymax")) ymax = NaN
if (!exists("nref")) nref = 0
if (!exists("refside")) refside = 1
if (!exists("refxmax")) refxmax = 64
if (!exists("refymax")) refymax = NaN
if (!exists("t_fm")) t_fm = "f(k) measured"
if (!exists("t_ff")) t_ff = "f(k) fit"

# The first block of references: after f measured, f fit, nE lines, nE point sets.
ref0 = 2 + 2 * nE
# Colours: f in blue, g_E along a fixed palette, references in greys.
gcol(i) = word("#d62728 #2ca02c #9467bd #ff7f0e #8c564b #e377c2 #17becf #bcbd22", (i - 1) % 8 + 1)
rcol(i) = word("#555555 #888888 #aaaaaa #333333", (i - 1) % 4 + 1)
tg(i) = exists(sprintf("t_g%d", i)) ? value(sprintf("t_g%d", i)) : sprintf("g(x)/Z %d", i)
tr(i) = exists(sprintf("t_r%d", i)) ? value(sprintf("t_r%d", i)) : sprintf("reference %d", i)

do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo enhanced size 1400,820 font ",11" } \
    else { set terminal svg enhanced size 1400,820 dynamic font ",11" }
    set output out . "." . fmt
    reset
    set multiplot
    set title sprintf("X-graph (architectural), %s: %s", dtype, device) noenhanced
    # The right quarter holds the key and, where Li's lines count another
    # unit than the device's (warps per SM against work-items per CU), a
    # panel of their own above it; else they share the X-graph's axes.
    side = refside && nref > 0
    nsame = refside ? 0 : nref
    set size 0.75, 1
    set origin 0, 0
    set lmargin 11
    set rmargin 13
    set tmargin 5
    set xrange [0:n]
    set xtics nomirror
    set xlabel sprintf("k: %s in the memory system (MS)  →", unit) noenhanced
    set x2range [n:0]
    set x2tics
    set x2label sprintf("←  x = n - k: %s in the computation system (CS);  n = %g, the graph's width", unit, n) \
        noenhanced
    if (ymax == ymax && ymax > 0) { set yrange [0:ymax] } else { set yrange [0:*] }
    set ytics nomirror
    set ylabel "MS throughput f(k), g(x)/Z (GB/s)"
    if (haveg) {
        set y2range [0:ymax * Z]
        set y2tics
        set y2label sprintf("CS throughput Z·MS (Gflop/s), Z = M/R = %.3g flop/B", Z)
    }
    set grid xtics ytics lc rgb "#dddddd"
    set key at screen 0.76, (side ? 0.40 : 0.90) left top vertical Left reverse samplen 2 font ",10" nobox
    if (delta == delta && delta > 0 && delta < n) {
        set arrow 1 from delta, 0 to delta, R nohead dt 3 lc rgb "#1f77b4"
        set label 1 sprintf("δ") at delta, 0 offset 0.5, 0.8 textcolor rgb "#1f77b4"
    }
    plot dat index 0 using 1:2 with points pt 7 ps 1.2 lc rgb "#1f77b4" title t_fm, \
         dat index 1 using 1:2 with lines lw 3 lc rgb "#1f77b4" title t_ff, \
         for [i=1:nE] dat index (1 + i) using 1:2 with lines lw 2 lc rgb gcol(i) title tg(i), \
         for [i=1:nE] dat index (1 + nE + i) using 1:2 with points pt 6 ps 1.1 lc rgb gcol(i) notitle, \
         for [i=1:nsame] dat index (ref0 + i - 1) using 1:2 with lines lw 1.5 dt 2 lc rgb rcol(i) \
             title "Li 2016, " . tr(i)
    if (refside && nref > 0) {
        # Li's GPUs in warps per SM: another unit, so another pair of axes,
        # beside the X-graph rather than over its curves.
        unset title
        unset arrow 1
        unset label 1
        set y2range [*:*]
        unset x2tics
        unset x2label
        unset y2tics
        unset y2label
        unset grid
        set origin 0.75, 0.42
        set size 0.25, 0.52
        set lmargin 7
        set rmargin 4
        set tmargin 3
        set bmargin 3
        set xrange [0:refxmax]
        set yrange [0:refymax]
        set xtics 16 font ",9"
        set ytics font ",9"
        set xlabel "warps/SM" font ",9" offset 0, 0.8
        set ylabel "GB/s" font ",9" offset 2.5, 0
        set title sprintf("for comparison: Li 2016, Table 3.2,\n%s f(k) of three GPUs", dtype) font ",10"
        set key default
        set key inside top left reverse Left nobox font ",8" samplen 1.5 spacing 0.9
        plot for [i=1:nref] dat index (ref0 + i - 1) using 1:2 with lines lw 2 lc rgb rcol(i) title tr(i)
    }
    unset multiplot
}
