# Throughput of every function's versions at the concurrency plateau (the
# T/M column of Li's Tables 6.4 and 6.5, for the whole device): one bar
# group per function and type, one bar per version, precise first; below,
# each fast version's speed-up over the precise one (Li's SFU/SPU ratio).
#   gnuplot -c bench/sfu/figures/throughput.gp DIR/sfu-opencl.csv DIR/sfu-opencl-throughput "device name"
csv = ARGC >= 1 ? ARG1 : "results/sfu-opencl.csv"
out = ARGC >= 2 ? ARG2 : "sfu_throughput"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
funcs = "div rcp sqrt rsqrt pow exp log sin cos exp2 log2 tan"
types = "float double"
versions = "precise relaxed-math native half intrinsic ptx-approx"
is_row(f, dt, v) = strcol("sweep") eq "throughput" && strcol("variant") eq f . "/" . v && strcol("dtype") eq dt && \
                   strcol("valid") eq "1"

# One table per function, type and version (versions by index: names
# with '-' are no datablock names).
do for [f in funcs] {
    do for [dt in types] {
        do for [k = 1:words(versions)] {
            eval sprintf('set table $T_%s_%s_%d', f, dt, k)
            plot csv using (column("figure")) with table if (is_row(f, dt, word(versions, k)))
            unset table
            eval sprintf('set table $S_%s_%s_%d', f, dt, k)
            plot csv using (param(strcol("params"), "speedup_vs_precise")) with table \
                if (is_row(f, dt, word(versions, k)) && param(strcol("params"), "speedup_vs_precise") > 0)
            unset table
        }
    }
}

set datafile separator whitespace
set datafile nocolumnheaders
# Bar groups: "label" then a throughput and a speed-up per version, NaN
# where that version did not run.
set print $BARS
n_groups = 0
low = 1e300
high = 0
do for [k = 1:words(versions)] { eval sprintf('seen_%d = 0', k) }
do for [dt in types] {
    do for [f in funcs] {
        line = ""
        have = 0
        do for [k = 1:words(versions)] {
            eval sprintf('n = |$T_%s_%s_%d|', f, dt, k)
            g = NaN
            sp = NaN
            if (n > 0) {
                eval sprintf('stats $T_%s_%s_%d using 1 nooutput', f, dt, k)
                g = STATS_max
                eval sprintf('m = |$S_%s_%s_%d|', f, dt, k)
                if (m > 0) {
                    eval sprintf('stats $S_%s_%s_%d using 1 nooutput', f, dt, k)
                    sp = STATS_max
                }
                low = g < low ? g : low
                high = g > high ? g : high
                have = 1
                eval sprintf('seen_%d = 1', k)
            }
            line = line . sprintf(" %g %g", g, sp)
        }
        if (have) {
            print sprintf('"%s%s"%s', f, dt eq "double" ? " (f64)" : "", line)
            n_groups = n_groups + 1
        }
    }
}
unset print
if (n_groups == 0) {
    print "sfu_throughput: no valid throughput rows in " . csv
    exit
}

n_series = 0
do for [k = 1:words(versions)] { n_series = n_series + value(sprintf('seen_%d', k)) }
colours = "#4a7fb5 #e08a3c #3a9a4a #c0392b #8e6bb8 #7f6a4f"
half = 0.8 / (2 * n_series)
cmd_g = ""
cmd_s = ""
j = 0
do for [k = 1:words(versions)] {
    if (value(sprintf('seen_%d', k))) {
        j = j + 1
        shift = (2 * j - n_series - 1) * half
        gcol = 2 * k
        scol = 2 * k + 1
        cmd_g = cmd_g . sprintf("$BARS using ($0 + %g):%d:($0 + %g):($0 + %g):(%g):%d%s with boxxyerror lc rgb '%s' title '%s', ", \
            shift, gcol, shift - half + 0.01, shift + half - 0.01, low / 2, gcol, j == 1 ? ":xtic(1)" : "", \
            word(colours, k), word(versions, k))
        if (k > 1) {
            cmd_s = cmd_s . sprintf("$BARS using ($0 + %g):%d:($0 + %g):($0 + %g):($%d < 1 ? $%d : 1):($%d < 1 ? 1 : $%d)%s with boxxyerror lc rgb '%s' title '%s', ", \
                shift, scol, shift - half + 0.01, shift + half - 0.01, scol, scol, scol, scol, \
                cmd_s eq "" ? ":xtic(1)" : "", word(colours, k), word(versions, k))
            cmd_s = cmd_s . sprintf("$BARS using ($0 + %g):%d:(sprintf('%%.2g', $%d)) with labels offset 0, 0.5 font ',7' notitle, ", \
                shift, scol, scol)
        }
    }
}

set style fill solid 0.8 border -1
set grid ytics
set xrange [-0.6:n_groups - 0.4]
set xtics rotate by -35 scale 0 font ",9"
set key top right horizontal font ",9"
set logscale y
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 90 * n_groups + 300,900 font ",10" } \
    else { set terminal svg size 90 * n_groups + 300,900 dynamic }
    set output out . "." . fmt
    set multiplot layout 2,1 title "sfu: throughput of precise and fast math (analogue of Li Table 6.4/6.5, T/M)  " . name noenhanced
    set title "throughput at the concurrency plateau (median)"
    set ylabel "Gop/s (device)"
    set yrange [low / 2:high * 2]
    eval "plot " . cmd_g[1:strlen(cmd_g) - 2]
    set title "speed-up of each fast version over the precise one (Li's SFU/SPU ratio)"
    set ylabel "x precise"
    set yrange [*:*]
    set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc black lw 1
    if (strlen(cmd_s) > 0) { eval "plot " . cmd_s[1:strlen(cmd_s) - 2] }
    unset arrow 1
    unset multiplot
}
