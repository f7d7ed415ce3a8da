# Atomic throughput against the contention degree (work-items sharing one
# counter), one line per operation, one panel per memory space: solid for
# uint32, dashed for uint64 and float add. Degrees up to 32 are the
# conflicts inside one warp or sub-group (Samadi's Fig. 5.3a); past it
# whole warps queue on one address. The long-dashed lines are the host's
# C11 atomics with every thread on a counter of its own (the best stride),
# the rate the device is compared with.
#   gnuplot -c bench/atomics/figures/degree.gp DIR/atomics-opencl.csv DIR/atomics-opencl-degree "device name"
csv = ARGC >= 1 ? ARG1 : "results/atomics-opencl.csv"
out = ARGC >= 2 ? ARG2 : "atomics_degree"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
# gnuplot's real() rejects trailing text, so cut each value at its ";".
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
in_space(sp) = strstrt(";" . strcol("params") . ";", ";space=" . sp . ";") > 0
is_point(sp, op, dt) = strcol("sweep") eq "degree" && strcol("backend") ne "host-c11" && strcol("variant") eq op && \
                       strcol("dtype") eq dt && strcol("valid") eq "1" && in_space(sp)
is_host(op) = strcol("sweep") eq "host-threads" && strcol("backend") eq "host-c11" && \
              (op eq "" || strcol("variant") eq op) && strcol("dtype") eq "uint32" && strcol("valid") eq "1" && \
              param(strcol("params"), "degree") == 1
ops = "add inc xchg cas min max read"
types = "uint32 uint64 float"
spaces = "global local"
short(dt) = dt eq "uint32" ? "u32" : dt eq "uint64" ? "u64" : dt

do for [sp in spaces] {
    do for [op in ops] {
        do for [dt in types] {
            if (dt ne "float" || op eq "add") {
                eval sprintf('set table $D_%s_%s_%s', sp, op, dt)
                plot csv using (param(strcol("params"), "degree")):(column("figure")) with table if (is_point(sp, op, dt))
                unset table
            }
        }
    }
}
# The host reference is the thread count the host has, not fewer.
set table $HT
plot csv using (column("work_items")):(column("figure")) with table if (is_host(""))
unset table
host_threads = 0
if (|$HT| > 0) {
    stats $HT using 1 nooutput
    host_threads = STATS_max
}
do for [op in ops] {
    eval sprintf('set table $H_%s', op)
    plot csv using (column("work_items")):(column("figure")) with table \
        if (is_host(op) && column("work_items") == host_threads)
    unset table
}

set datafile separator whitespace
set datafile nocolumnheaders
colours = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2"
# One plot command per space from the tables that have points; an empty
# table is a datablock of no lines, which plot refuses.
present = ""
do for [sp in spaces] {
    cmd = ""
    widest = 0
    low = 1e300
    high = 0
    do for [i = 1:words(ops)] {
        op = word(ops, i)
        do for [dt in types] {
            block = sprintf('$D_%s_%s_%s', sp, op, dt)
            if (dt ne "float" || op eq "add") { eval sprintf('n = |%s|', block) } else { n = 0 }
            if (n > 0) {
                eval sprintf('stats %s using 1 nooutput', block)
                widest = STATS_max > widest ? STATS_max : widest
                eval sprintf('stats %s using 2 nooutput', block)
                low = STATS_min < low ? STATS_min : low
                high = STATS_max > high ? STATS_max : high
                cmd = cmd . sprintf("%s using 1:2 with linespoints lc rgb '%s' dt %d pt %d ps 0.7 title '%s %s', ", \
                    block, dt eq "float" ? "black" : word(colours, i), dt eq "uint32" ? 1 : 2, \
                    dt eq "uint32" ? 7 : dt eq "uint64" ? 6 : 4, op, short(dt))
            }
        }
    }
    if (strlen(cmd) > 0) {
        present = present . " " . sp
        if (sp eq "global") {
            titled = 0
            do for [i = 1:words(ops)] {
                op = word(ops, i)
                eval sprintf('n = |$H_%s|', op)
                if (n > 0) {
                    eval sprintf('stats $H_%s using 2 nooutput', op)
                    # One key entry in black stands for the lines in each op's colour.
                    if (!titled) { cmd = cmd . "NaN with lines lc black dt (12,6) title 'host C11, all threads', " }
                    cmd = cmd . sprintf("%g with lines lc rgb '%s' dt (12,6) lw 1 notitle, ", STATS_max, word(colours, i))
                    low = STATS_max < low ? STATS_max : low
                    high = STATS_max > high ? STATS_max : high
                    titled = 1
                }
            }
        }
        eval sprintf('cmd_%s = "plot " . cmd[1:strlen(cmd) - 2]', sp)
        eval sprintf('widest_%s = widest; low_%s = low; high_%s = high', sp, sp, sp)
    }
}
if (words(present) == 0) {
    print "atomics_degree: no valid degree rows in " . csv
    exit
}

set logscale x 2
set format x "%.0f"
set xlabel "contention degree (work-items per counter)"
set ylabel "throughput (Mop/s, median)"
set grid
set key outside right top vertical Left reverse font ",9"
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 800 * words(present),600 font ",10" } \
    else { set terminal svg size 800 * words(present),600 dynamic }
    set output out . "." . fmt
    set multiplot layout 1,words(present) title "atomics: throughput against contention degree  " . name noenhanced
    do for [sp in present] {
        set title sp . " memory"
        unset arrow 1
        unset label 1
        eval sprintf('widest = widest_%s; low = low_%s; high = high_%s', sp, sp, sp)
        # Contention on a GPU costs decades, on a CPU a few times: a log
        # axis only where the rates span one, with 1-2-5 tics since a
        # decade or two has few of its own.
        if (high >= 10 * low) {
            set logscale y
            set yrange [low / 1.25:high * 1.25]
            tics = ""
            do for [d = floor(log10(low / 1.25)):ceil(log10(high * 1.25))] {
                do for [m in "1 2 5"] {
                    v = m * 10.0**d
                    if (v >= low / 1.25 && v <= high * 1.25) { tics = tics . sprintf('"%g" %g, ', v, v) }
                }
            }
            eval 'set ytics (' . tics[1:strlen(tics) - 2] . ')'
        } else {
            unset logscale y
            set yrange [0:*]
            set ytics autofreq
        }
        # The warp / sub-group boundary only where the space reaches it.
        if (widest >= 32) {
            set arrow 1 from 32, graph 0 to 32, graph 1 nohead lc black dt 3 lw 1.5
            set label 1 "warp/sub-group (Samadi Fig. 5.3a: 1..32 = conflicts per warp)" at 32, graph 0.03 \
                rotate by 90 left offset -1.2, 0 font ",8"
        }
        eval sprintf('eval cmd_%s', sp)
    }
    unset multiplot
}
