# Lee's contentious / non-contentious gap (Lee 2012, Fig. 4.3): for each
# operation and type, the throughput with one counter per work-item divided
# by that with every work-item of the span on one counter (global: all the
# work-items that run; local: one work-group), one bar per memory space.
# Bars grow from 1 on a log axis, so one above the line is that many times
# slower under contention and one below it is faster. The dashed lines are
# the factors Lee's text gives for his four GPUs (results/reference/).
#   gnuplot -c bench/atomics/figures/ratio.gp DIR/atomics-opencl.csv DIR/atomics-opencl-ratio "device name" [REFERENCE.csv]
csv = ARGC >= 1 ? ARG1 : "results/atomics-opencl.csv"
out = ARGC >= 2 ? ARG2 : "atomics_ratio"
name = ARGC >= 3 ? ARG3 : ""
# The reference table: the fourth argument, empty where there is none
# (plot.sh checks it is readable: gnuplot gets no shell to ask); by default
# found from this script's own path (bench/ beside results/).
ref = ARGC >= 4 ? ARG4 : ARG0[1:strlen(ARG0) - strlen("bench/atomics/figures/ratio.gp")] . "results/reference/lee2012-fig4.3.csv"

set datafile separator comma
set datafile columnheaders
# gnuplot's real() rejects trailing text, so cut each value at its ";".
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
in_space(sp) = strstrt(";" . strcol("params") . ";", ";space=" . sp . ";") > 0
is_ratio(sp, op, dt) = strcol("sweep") eq "ratio" && strcol("variant") eq op && strcol("dtype") eq dt && \
                       strcol("valid") eq "1" && in_space(sp)
ops = "add inc xchg cas min max read"
types = "uint32 uint64 float"
spaces = "global local"
short(dt) = dt eq "uint32" ? "u32" : dt eq "uint64" ? "u64" : dt
# Rows written before the sweep named its two ends compared one counter
# each with "degree" on one.
or_else(v, w) = v == v ? v : w
low_of(p) = or_else(param(p, "degree_low"), 1)
high_of(p) = or_else(param(p, "degree_high"), param(p, "degree"))

do for [sp in spaces] {
    do for [op in ops] {
        do for [dt in types] {
            eval sprintf('set table $R_%s_%s_%s', sp, op, dt)
            plot csv using (column("figure")):(low_of(strcol("params"))):(high_of(strcol("params"))) with table \
                if (is_ratio(sp, op, dt) && column("figure") > 0)
            unset table
        }
    }
}

set datafile separator whitespace
set datafile nocolumnheaders
# One bar group per operation and type that has a ratio in some space, in
# the benchmark's order; a missing side is NaN and draws no bar.
set print $BARS
n_bars = 0
low = 1
high = 1
do for [sp in spaces] { eval sprintf('low_%s = 1e300; high_%s = 0', sp, sp) }
do for [op in ops] {
    do for [dt in types] {
        line = ""
        have = 0
        do for [sp in spaces] {
            eval sprintf('n = |$R_%s_%s_%s|', sp, op, dt)
            v = NaN
            if (n > 0) {
                eval sprintf('stats $R_%s_%s_%s using 1 nooutput', sp, op, dt)
                v = STATS_max
                eval sprintf('stats $R_%s_%s_%s using 2 nooutput', sp, op, dt)
                eval sprintf('low_%s = STATS_min < low_%s ? STATS_min : low_%s', sp, sp, sp)
                eval sprintf('stats $R_%s_%s_%s using 3 nooutput', sp, op, dt)
                eval sprintf('high_%s = STATS_max > high_%s ? STATS_max : high_%s', sp, sp, sp)
                low = v < low ? v : low
                high = v > high ? v : high
                have = 1
            }
            line = line . sprintf(" %g", v)
        }
        if (have) {
            print sprintf('"%s %s"%s', op, short(dt), line)
            n_bars = n_bars + 1
        }
    }
}
unset print
if (n_bars == 0) {
    print "atomics_ratio: no valid ratio rows in " . csv
    exit
}

# Lee's factors as dashed lines across the bars, where the table is there.
n_lee = 0
if (ref ne "") {
    set datafile separator comma
    set datafile columnheaders
    set table $LEE_R
    plot ref using (column("ratio")) with table
    unset table
    set table $LEE_N
    plot ref using (strcol("gpu") . " (" . strcol("lee_name") . ")") with table
    unset table
    n_lee = |$LEE_R|
    do for [i = 1:n_lee] {
        r = real(word($LEE_R[i], 1))
        # gnuplot may end a table's text with a blank
        who = $LEE_N[i]
        do for [k = 1:2] { e = strlen(who); if (who[e:e] eq " " || who[e:e] eq "\t") { who = who[1:e - 1] } }
        high = r > high ? r : high
        set arrow 10 + i from graph 0, first r to graph 1, first r nohead lc rgb "#777777" dt 2 lw 1
        set label 10 + i sprintf("Lee: %s, %g\303\227", who, r) at graph 0.005 + 0.245 * (i - 1), first r offset 0, 0.45 \
            font ",8" tc rgb "#555555" noenhanced
    }
    set datafile separator whitespace
    set datafile nocolumnheaders
}

set logscale y
# 1-2-5 tics: a decade or two of ratios has few tics of its own.
y0 = low / 1.4
y1 = high * 1.4
set yrange [y0:y1]
tics = ""
do for [d = floor(log10(y0)):ceil(log10(y1))] {
    do for [m in "1 2 5"] {
        v = m * 10.0**d
        if (v >= y0 && v <= y1) { tics = tics . sprintf('"%g" %g, ', v, v) }
    }
}
eval 'set ytics (' . tics[1:strlen(tics) - 2] . ')'
set ylabel "uncontended ÷ one address (x)"
set xrange [-0.6:n_bars - 0.4]
set xtics rotate by -40 scale 0 font ",9"
set grid ytics
set style fill solid 0.75 border -1
set key bmargin center horizontal
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc black lw 1
half = 0.19
colours = "#4a7fb5 #e08a3c"
# Only the spaces with a ratio get a bar series and a key entry, centred
# together on their tic.
n_sp = 0
do for [sp in spaces] { n_sp = n_sp + (value("high_" . sp) > 0) }
cmd = ""
j = 0
do for [k = 1:2] {
    sp = word(spaces, k)
    if (value("high_" . sp) > 0) {
        j = j + 1
        c = k + 1
        shift = (2 * j - n_sp - 1) * half
        mid = sprintf("($0 + %g)", shift)
        lo = sprintf("($0 + %g)", shift - half + 0.02)
        hi = sprintf("($0 + %g)", shift + half - 0.02)
        # A bar from 1 to the ratio, whichever side of 1 it lies.
        cmd = cmd . sprintf("$BARS using %s:%d:%s:%s:($%d < 1 ? $%d : 1):($%d < 1 ? 1 : $%d)%s with boxxyerror lc rgb '%s' title '%s (%d vs %d work-items per counter)', ", \
            mid, c, lo, hi, c, c, c, c, j == 1 ? ":xtic(1)" : "", word(colours, k), sp, \
            value("low_" . sp), value("high_" . sp))
        cmd = cmd . sprintf("$BARS using %s:($%d >= 1 ? $%d : NaN):(sprintf('%%.2g', $%d)) with labels offset 0, 0.6 font ',7' notitle, ", \
            mid, c, c, c)
        cmd = cmd . sprintf("$BARS using %s:($%d < 1 ? $%d : NaN):(sprintf('%%.2g', $%d)) with labels offset 0, -0.6 font ',7' notitle, ", \
            mid, c, c, c)
    }
}
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 60 * n_bars + 300,560 font ",10" } \
    else { set terminal svg size 60 * n_bars + 300,560 dynamic }
    set output out . "." . fmt
    set title "atomics: throughput lost to contention, per operation (Lee Fig. 4.3" . \
        (n_lee > 0 ? "; dashed: Lee's GPUs" : "") . ")  " . name noenhanced
    eval "plot " . cmd[1:strlen(cmd) - 2]
}
