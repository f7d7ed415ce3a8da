# The X-model's f(k): stream bandwidth against the number of concurrently
# running work-items on large arrays, one panel per data type (the f(k) side
# of Li 2016, Fig. 3.10). The dashed line is the host's own triad limit,
# measured interleaved with each point where a host reference ran.
#   gnuplot -c bench/stream/figures/concurrency.gp DIR/stream-opencl.csv DIR/stream_concurrency "device name"
csv = ARGC >= 1 ? ARG1 : "results/stream-opencl.csv"
out = ARGC >= 2 ? ARG2 : "stream_concurrency"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
kernels = "copy mul add triad dot"
is_point(dt, k) = strcol("sweep") eq "concurrency" && strcol("dtype") eq dt && strcol("variant") eq k && \
                  strcol("valid") eq "1"
# The value of the params' first key, host_limit_GBps, up to the next ';'.
value_end(p) = strstrt(p, ";") ? strstrt(p, ";") - 1 : strlen(p)
limit_of(p) = strstrt(p, "host_limit_GBps=") == 1 ? real(p[17:value_end(p)]) : NaN

# One table per (type, kernel) and one for the host limit per type, each
# made empty first (set print): a plot that keeps no row makes none.
do for [dt in "float double"] {
    do for [k in kernels] {
        eval sprintf('set print $C_%s_%s', dt, k)
        unset print
        eval sprintf('set table $C_%s_%s', dt, k)
        plot csv using (column("work_items")):(column("figure")) with table if (is_point(dt, k))
        unset table
    }
    eval sprintf('set print $L_%s', dt)
    unset print
    eval sprintf('set table $L_%s', dt)
    plot csv using (column("work_items")):(limit_of(strcol("params"))) with table \
        if (is_point(dt, "triad") && strstrt(strcol("params"), "host_limit_GBps=") == 1)
    unset table
}

# The tables are whitespace-separated and have no header.
set datafile separator whitespace
set datafile nocolumnheaders
set logscale x 2
set xlabel "concurrent work-items k"
set ylabel "bandwidth f(k) (GB/s, median)"
set yrange [0:*]
set grid
set key outside right top
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1400,560 font ",10" } else { set terminal svg size 1400,560 dynamic }
    set output out . "." . fmt
    set multiplot layout 1,2 title "stream: f(k), bandwidth against concurrency (the f(k) of Li Fig. 3.10)  " . name noenhanced
    do for [dt in "float double"] {
        set title dt . (dt eq "float" ? " (4-byte elements)" : " (8-byte elements)")
        # The curves that have rows (a run of some kernels or types); a
        # panel without any says so.
        curves = ""
        do for [i=1:5] {
            eval sprintf('n = |$C_%s_%s|', dt, word(kernels, i))
            if (n > 0) {
                curves = curves . sprintf(", $C_%s_%s using 1:2 with linespoints lc %d pt 7 ps 0.6 title '%s'", \
                                          dt, word(kernels, i), i, word(kernels, i))
            }
        }
        eval sprintf('n = |$L_%s|', dt)
        if (n > 0 && strlen(curves) > 0) {
            curves = curves . sprintf(", $L_%s using 1:2 with lines lc black dt 2 title 'host triad limit'", dt)
        }
        if (strlen(curves) > 0) {
            eval 'plot ' . curves[3:]
        } else {
            set title dt . ": no rows in this run"
            plot [1:2] [0:1] NaN notitle
        }
    }
    unset multiplot
}
