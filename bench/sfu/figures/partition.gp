# Li's partition trade-off (section 6.4, Figs. 6.3/6.4): a fraction lambda of
# the partition units (OpenCL work-groups, CUDA warps) computes the fast
# version, the rest the precise one. Above: throughput against the mean
# relative error of the mixed kernel, one curve per function, each point
# labelled with its lambda: the performance/accuracy curve. Below: both
# against lambda, as Li draws them (throughput solid, error dashed).
#   gnuplot -c bench/sfu/figures/partition.gp DIR/sfu-opencl.csv DIR/sfu-opencl-partition "device name"
csv = ARGC >= 1 ? ARG1 : "results/sfu-opencl.csv"
out = ARGC >= 2 ? ARG2 : "sfu_partition"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
funcs = "div rcp sqrt rsqrt pow exp log sin cos exp2 log2 tan"
types = "float double"
# variant "<func>/precise+<fast>"
func_of(v) = (s = strstrt(v, "/"), s ? v[1:s - 1] : v)
is_point(f, dt) = strcol("sweep") eq "partition" && func_of(strcol("variant")) eq f && strcol("dtype") eq dt && \
                  strcol("valid") eq "1" && column("figure") > 0
fast_name = ""

do for [f in funcs] {
    do for [dt in types] {
        eval sprintf('set table $P_%s_%s', f, dt)
        plot csv using (param(strcol("params"), "mean_rel")):(column("figure")):(param(strcol("params"), "lambda")) \
            with table if (is_point(f, dt))
        unset table
    }
}
# The fast version's name, for the title.
set table $NAMES
plot csv using (0):(0):(strcol("variant")) with table if (strcol("sweep") eq "partition")
unset table

set datafile separator whitespace
set datafile nocolumnheaders
colours = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #393b79 #ad494a"
cmd_t = ""
cmd_l = ""
n_curves = 0
do for [i = 1:words(funcs)] {
    f = word(funcs, i)
    do for [dt in types] {
        block = sprintf('$P_%s_%s', f, dt)
        eval sprintf('n = |%s|', block)
        if (n > 0) {
            n_curves = n_curves + 1
            c = word(colours, i)
            label = f . (dt eq "double" ? " (f64)" : "")
            cmd_t = cmd_t . sprintf("%s using 1:2 with linespoints lc rgb '%s' pt 7 ps 0.6 dt %d title '%s', ", \
                block, c, dt eq "double" ? 2 : 1, label)
            cmd_t = cmd_t . sprintf("%s using 1:2:(sprintf('%%.3g', $3)) with labels offset 0.6, 0.5 font ',7' tc rgb '%s' notitle, ", \
                block, c)
            cmd_l = cmd_l . sprintf("%s using 3:2 with linespoints lc rgb '%s' pt 7 ps 0.6 title '%s Gop/s', ", block, c, label)
            cmd_l = cmd_l . sprintf("%s using 3:1 axes x1y2 with linespoints lc rgb '%s' dt 2 pt 4 ps 0.5 title '%s error', ", \
                block, c, label)
        }
    }
}
if (n_curves == 0) {
    print "sfu_partition: no valid partition rows in " . csv
    exit
}
variant = ""
if (|$NAMES| > 0) { variant = word($NAMES[1], 3) }
plus = strstrt(variant, "+")
fast_name = plus ? variant[plus + 1:] : "fast"
fast_name = fast_name[1:strstrt(fast_name . "\"", "\"") - 1]

set grid
set key outside right top font ",9"
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1100,1000 font ",10" } else { set terminal svg size 1100,1000 dynamic }
    set output out . "." . fmt
    set multiplot layout 2,1 title "sfu: precise/" . fast_name . " partition, performance against accuracy (analogue of Li Fig. 6.3/6.4)  " . name noenhanced
    set title "throughput against mean relative error; labels: lambda, the fraction of units on the fast path"
    set logscale x
    set logscale y
    set format x "%.0e"
    set xlabel "mean relative error against the correctly rounded value"
    set ylabel "Gop/s (device)"
    eval "plot " . cmd_t[1:strlen(cmd_t) - 2]
    set title "throughput (solid) and mean relative error (dashed) against lambda"
    unset logscale x
    set format x "%g"
    set xrange [0:1]
    set xlabel "lambda (fraction of units on the fast path)"
    set ylabel "Gop/s (device)"
    set y2label "mean relative error"
    set logscale y2
    set format y2 "%.0e"
    set y2tics
    set ytics nomirror
    eval "plot " . cmd_l[1:strlen(cmd_l) - 2]
    unset multiplot
    unset logscale
    unset y2tics
    unset y2label
    set ytics mirror
    set xrange [*:*]
}
