# This device's paths beside the numbers Lee measured in 2012 on two AMD
# APUs and a discrete GPU (Lee 2012, Table 3.2, left; Table 3.3, Garlic
# against Onion, right), log scale: the device's bandwidth of each path at
# its largest transfer size, then Lee's Zacate, Llano and Radeon HD 5870. A
# path the device lacks has no bar of its own. The reference tables live
# in results/reference/ and name the bandwidth-opencl path of each row.
#   gnuplot -c bench/bandwidth/figures/lee.gp DIR/bandwidth-opencl.csv DIR/bandwidth-opencl-lee "device name"
# (ref32 and ref33 name other reference tables).
csv = ARGC >= 1 ? ARG1 : "results/bandwidth-opencl.csv"
out = ARGC >= 2 ? ARG2 : "bandwidth_lee"
name = ARGC >= 3 ? ARG3 : ""
# The reference tables, found from this script's own path (bench/ beside results/).
root = ARG0[1:strlen(ARG0) - strlen("bench/bandwidth/figures/lee.gp")]
if (!exists("ref32")) ref32 = root . "results/reference/lee2012-table3.2.csv"
if (!exists("ref33")) ref33 = root . "results/reference/lee2012-table3.3.csv"

set datafile separator comma
set datafile columnheaders
stats csv using (strcol("sweep") eq "size" ? column("size_bytes") : NaN) nooutput
largest = STATS_max
set table $DEV
plot csv using (column("figure")):(strcol("variant")) with table \
    if (strcol("sweep") eq "size" && column("size_bytes") == largest && strcol("unit") eq "GB/s" && \
        strcol("valid") eq "1" && strcol("stop") ne "unsupported")
unset table
set table $R32
plot ref32 using (column("zacate_GBps")):(column("llano_GBps")):(column("discrete_GBps")):(strcol("path")) with table
unset table
set table $L32
plot ref32 using (strcol("lee_row")) with table
unset table
set table $R33
plot ref33 using (column("zacate_GBps")):(column("llano_GBps")):(strcol("path")) with table
unset table
set table $L33
plot ref33 using (strcol("lee_row")) with table
unset table

# The device's figure for a path, NaN where it has none.
dev_of(p) = (v = NaN, sum [j=1:|$DEV|] (word($DEV[j], 2) eq p ? (v = real(word($DEV[j], 1)), 0) : 0), v)
# gnuplot writes a table's string column with a trailing blank.
strip_blank(s) = (e = strlen(s), s[e:e] eq " " || s[e:e] eq "\t" ? s[1:e - 1] : s)
strip_blanks(s) = strip_blank(strip_blank(s))
low = 1e300
high = 0
set print $B32
do for [i=1:|$R32|] {
    line = $R32[i]
    v = dev_of(word(line, 4))
    print sprintf('"%s" %s %s %s %s', strip_blanks($L32[i]), v == v ? sprintf("%g", v) : "NaN", \
                  word(line, 1), word(line, 2), word(line, 3))
    do for [k=1:3] { r = real(word(line, k)); low = r < low ? r : low; high = r > high ? r : high }
    if (v == v) { low = v < low ? v : low; high = v > high ? v : high }
}
unset print
set print $B33
do for [i=1:|$R33|] {
    line = $R33[i]
    v = dev_of(word(line, 3))
    print sprintf('"%s" %s %s %s', strip_blanks($L33[i]), v == v ? sprintf("%g", v) : "NaN", word(line, 1), word(line, 2))
    if (v == v) { low = v < low ? v : low; high = v > high ? v : high }
}
unset print

set datafile separator whitespace
set datafile nocolumnheaders
set logscale y
y0 = low / 2
y1 = high * 2
set yrange [y0:y1]
tics = ""
do for [d = floor(log10(y0)):ceil(log10(y1))] {
    do for [m in "1 2 5"] {
        v = m * 10.0**d
        if (v >= y0 && v <= y1) { tics = tics . sprintf('"%g" %g, ', v, v) }
    }
}
eval 'set ytics (' . tics[1:strlen(tics) - 2] . ')'
set ylabel "bandwidth (GB/s)"
set grid ytics
set style fill solid 0.8 border -1
set xtics rotate by -35 scale 0 font ",9"
set key top left font ",9"
set bmargin 10
w = 0.19
colours = "#d62728 #4a7fb5 #7fa8d1 #b9b9b9"
titles = "'this device' 'Lee: Zacate APU' 'Lee: Llano APU' 'Lee: Radeon HD 5870'"
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1600,640 font ",10" } else { set terminal svg size 1600,640 dynamic }
    set output out . "." . fmt
    set multiplot title sprintf("bandwidth beside Lee 2012 (device at %.0f MiB)  %s", largest / 1048576.0, name) noenhanced
    set size 0.66, 0.94
    set origin 0, 0
    set title "Lee Table 3.2: every path of BufferBandwidth"
    set xrange [-0.6:|$B32| - 0.4]
    plot for [s=1:4] $B32 using ($0 + (s - 2.5) * w):(column(s + 1)):(w * 0.95) with boxes lc rgb word(colours, s) title word(titles, s), \
         $B32 using 0:(NaN):xtic(1) notitle
    set size 0.34, 0.94
    set origin 0.66, 0
    set title "Lee Table 3.3: kernels on a host buffer, Garlic and Onion"
    set xrange [-0.6:|$B33| - 0.4]
    plot for [s=1:3] $B33 using ($0 + (s - 2) * w):(column(s + 1)):(w * 0.95) with boxes lc rgb word(colours, s) title word(titles, s), \
         $B33 using 0:(NaN):xtic(1) notitle
    unset multiplot
}
