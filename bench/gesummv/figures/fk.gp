# The f(k) of an application whose work-items reuse their own data:
# gesummv's MS throughput (A and B once, x and y, over the kernel's time)
# against the work-items in flight, one line per data type (Li 2016, Fig.
# 3.12: on a GPU it rises, peaks at the cache peak psi, falls as the cache
# thrashes and rises again to the memory plateau). Verified rows only.
#   gnuplot -c bench/gesummv/figures/fk.gp DIR/gesummv-opencl.csv DIR/gesummv-opencl-fk "device name"
csv = ARGC >= 1 ? ARG1 : "results/gesummv-opencl.csv"
out = ARGC >= 2 ? ARG2 : "gesummv-fk"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
is_point(dt) = strcol("sweep") eq "concurrency" && strcol("dtype") eq dt && strcol("valid") eq "1"

# One table per type, made empty first (set print): a plot that keeps no
# row makes none.
do for [dt in "float double"] {
    eval sprintf('set print $F_%s', dt)
    unset print
    eval sprintf('set table $F_%s', dt)
    plot csv using (column("work_items")):(column("figure")) with table if (is_point(dt))
    unset table
}

# The tables are whitespace-separated and have no header.
set datafile separator whitespace
set datafile nocolumnheaders
set logscale x 2
set xlabel "concurrent work-items k"
set ylabel "MS throughput f(k) (GB/s, median)"
set yrange [0:*]
set grid
set key outside right top
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1000,560 font ",10" } else { set terminal svg size 1000,560 dynamic }
    set output out . "." . fmt
    set title "gesummv: f(k), MS throughput against concurrency (the f(k) of Li Fig. 3.12)  " . name noenhanced
    curves = ""
    do for [i=1:2] {
        dt = word("float double", i)
        eval sprintf('n = |$F_%s|', dt)
        if (n > 0) {
            curves = curves . sprintf(", $F_%s using 1:2 with linespoints lc %d pt 7 ps 0.6 title '%s'", dt, i, dt)
        }
    }
    if (strlen(curves) > 0) {
        eval 'plot ' . curves[3:]
    } else {
        set title "gesummv: no verified rows in this run  " . name noenhanced
        plot [1:2] [0:1] NaN notitle
    }
}
