# Stream bandwidth against the per-array working set, log-log, one panel per
# data type: the device solid, the host OpenMP reference dashed. Cache levels
# show as steps. Reads the CSV directly:
#   gnuplot -c bench/stream/figures/footprint.gp DIR/stream-opencl.csv DIR/stream_footprint "device name"
csv = ARGC >= 1 ? ARG1 : "results/stream-opencl.csv"
out = ARGC >= 2 ? ARG2 : "stream_footprint"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
kernels = "copy mul add triad dot"

# One table per (type, kernel, side): $D_<type>_<kernel>_<dev|host>. Each
# is made empty first (set print), as a plot that keeps no row makes none:
# a run of some kernels or types (--kernels, --dtype) has empty ones.
do for [dt in "float double"] {
    do for [k in kernels] {
        do for [side in "dev host"] {
            eval sprintf('set print $D_%s_%s_%s', dt, k, side)
            unset print
            eval sprintf('set table $D_%s_%s_%s', dt, k, side)
            plot csv using (column("size_bytes")):(column("figure")) with table \
                if (strcol("sweep") eq "footprint" && strcol("dtype") eq dt && strcol("variant") eq k && \
                    strcol("valid") eq "1" && ((strcol("backend") eq "host-openmp") == (side eq "host")))
            unset table
        }
    }
}

# The tables are whitespace-separated and have no header.
set datafile separator whitespace
set datafile nocolumnheaders
set logscale xy 2
set format x "%.0b %BB"
set xlabel "array size (bytes, per array)"
set ylabel "bandwidth (GB/s, median)"
set grid
set key outside right top
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1400,560 font ",10" } else { set terminal svg size 1400,560 dynamic }
    set output out . "." . fmt
    set multiplot layout 1,2 title "stream: bandwidth against working set  " . name noenhanced
    do for [dt in "float double"] {
        set title dt
        # The curves that have rows; a panel without any says so.
        curves = ""
        do for [i=1:5] {
            eval sprintf('n = |$D_%s_%s_dev|', dt, word(kernels, i))
            if (n > 0) {
                curves = curves . sprintf(", $D_%s_%s_dev using 1:2 with linespoints lc %d pt 7 ps 0.6 title '%s'", \
                                          dt, word(kernels, i), i, word(kernels, i))
            }
            eval sprintf('n = |$D_%s_%s_host|', dt, word(kernels, i))
            if (n > 0) {
                curves = curves . sprintf(", $D_%s_%s_host using 1:2 with lines lc %d dt 2 title '%s (host)'", \
                                          dt, word(kernels, i), i, word(kernels, i))
            }
        }
        if (strlen(curves) > 0) {
            eval 'plot ' . curves[3:]
        } else {
            set title dt . ": no rows in this run"
            plot [1024:2048] [1:2] NaN notitle
        }
    }
    unset multiplot
}
