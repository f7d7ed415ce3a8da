# One headline figure across the nodes of a cluster run: a bar per node
# and device, the nodes' median as a line, and the outliers (the cluster
# report's verdict) in red, so that the slow node stands out at a glance.
#   gnuplot -c plot/cluster_headline.gp RUN/cluster-report.csv RUN/cluster-headline "" BENCHMARK VARIANT DTYPE
# BENCHMARK VARIANT DTYPE pick the headline (plot.sh: the triad in double of
# the benchmark that gives the X-model its memory side; none given: the
# report's first figure); an empty DTYPE matches rows without one. Node and device names reach
# gnuplot only as data read from the CSV.
csv = ARGC >= 1 ? ARG1 : "cluster-report.csv"
out = ARGC >= 2 ? ARG2 : "cluster-headline"
bench = ARGC >= 4 ? ARG4 : ""
variant = ARGC >= 5 ? ARG5 : ""
dtype = ARGC >= 6 ? ARG6 : ""

set datafile separator comma
set datafile columnheaders
# Where the run has no such figure (a cluster run of other benchmarks),
# the report's first figure stands in.
set table $ANY separator tab
plot csv using 0:(0):(strcol("benchmark")):(strcol("variant")):(strcol("dtype")) with table if (strcol("value") ne "")
unset table
# A table's text fields come back with a space before each tab.
rtrim(t) = strlen(t) > 0 && t[strlen(t):strlen(t)] eq " " ? rtrim(t[1:strlen(t) - 1]) : t
found = 0
wanted = 0
set datafile separator tab
set datafile nocolumnheaders
set table $DISCARD
plot $ANY using 1:(found == 0 ? (first_b = rtrim(strcol(3)), first_v = rtrim(strcol(4)), first_d = rtrim(strcol(5))) : 0, \
                   found = found + 1, \
                   wanted = wanted || (rtrim(strcol(3)) eq bench && rtrim(strcol(4)) eq variant && rtrim(strcol(5)) eq dtype), 0) with table
unset table
if (found > 0 && !wanted) { bench = first_b; variant = first_v; dtype = first_d }
set datafile separator comma
set datafile columnheaders
is_figure(dummy) = strcol("benchmark") eq bench && strcol("variant") eq variant && strcol("dtype") eq dtype && \
              strcol("value") ne ""
# The bars' table (tab-separated: a node's name may hold a space): line,
# value, outlier (1) or not (0), node; the bars are drawn in its order.
set table $BARS separator tab
plot csv using 0:(column("value")):(strcol("verdict") eq "outlier" ? 1 : 0):(strcol("node")) with table \
    if (is_figure(0))
unset table
set table $MEDIAN
plot csv using 0:(column("median")) with table if (is_figure(0))
unset table
set table $UNIT separator tab
plot csv using 0:(0):(strcol("unit")) with table if (is_figure(0))
unset table
set datafile separator tab
set datafile nocolumnheaders

if (|$BARS| == 0) {
    print sprintf("cluster_headline.gp: no %s %s %s figure in the cluster report", bench, variant, dtype)
    exit
}
stats $MEDIAN using 2 nooutput
median = STATS_median
unit = ""
set table $DISCARD
plot $UNIT using 1:(unit = rtrim(strcol(3)), 0) with table
unset table

set style fill solid 0.8 border -1
set boxwidth 0.7
set yrange [0:*]
set ylabel unit
set xtics rotate by -30 noenhanced
set key outside bottom center horizontal noenhanced
set xrange [-0.5:|$BARS| - 0.5]
set grid ytics
title_text = sprintf("%s %s %s across nodes (median %.4g %s)", bench, variant, dtype, median, unit)
set title title_text noenhanced

do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 900,520 } else { set terminal svg size 900,520 }
    set output out . "." . fmt
    plot $BARS using 0:($3 == 0 ? $2 : NaN):xtic(stringcolumn(4)) with boxes lc rgb "#4477aa" title "node", \
         $BARS using 0:($3 == 1 ? $2 : NaN) with boxes lc rgb "#cc3311" title "outlier", \
         median with lines lw 2 dt 2 lc rgb "black" title "median of the nodes"
    unset output
}
