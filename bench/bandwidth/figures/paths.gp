# Every path's bandwidth at the largest transfer size, as bars (Lee 2012,
# Table 3.2 analogue), with the host's own references. Unsupported paths
# and maps (latencies, not bandwidths) have no bar.
#   gnuplot -c bench/bandwidth/figures/paths.gp DIR/bandwidth-opencl.csv DIR/bandwidth-opencl-paths "device name"
csv = ARGC >= 1 ? ARG1 : "results/bandwidth-opencl.csv"
out = ARGC >= 2 ? ARG2 : "bandwidth_paths"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
stats csv using (strcol("sweep") eq "size" ? column("size_bytes") : NaN) nooutput
largest = STATS_max
set table $BARS
plot csv using (column("figure")):(strcol("variant")) with table \
    if (strcol("sweep") eq "size" && column("size_bytes") == largest && strcol("unit") eq "GB/s" && \
        strcol("valid") eq "1")
unset table

set datafile separator "\t"
set datafile nocolumnheaders
set style fill solid 0.7 border -1
set boxwidth 0.7
set xtics rotate by -50 scale 0 font ",9"
set ylabel "bandwidth (GB/s, median)"
set grid ytics
set yrange [0:*]
set key off
set bmargin 12
set rmargin 8
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1400,700 font ",10" } else { set terminal svg size 1400,700 dynamic }
    set output out . "." . fmt
    set title sprintf("every path at %.0f MiB (Lee Table 3.2; Lee's own numbers in the -lee figure)  %s", largest / 1048576.0, name) noenhanced
    plot $BARS using 0:1:xtic(2) with boxes lc rgb "#4a7fb5", \
         $BARS using 0:1:(sprintf("%.1f", $1)) with labels offset 0,0.7 font ",8"
}
