# The largest error of every function's versions in ulps of the result's
# type, against the correctly rounded value (MPFR), over the typical domain
# (bars) and the wide one (triangles: where range reduction of a fast
# version fails, they stand far above the bar). One bar group per function
# and type, one bar per version; the Rel-Err column of Li's Tables 6.4 and
# 6.5 in ulps. A NaN or infinite result is drawn at the top, marked "inf".
#   gnuplot -c bench/sfu/figures/accuracy.gp DIR/sfu-opencl.csv DIR/sfu-opencl-accuracy "device name"
csv = ARGC >= 1 ? ARG1 : "results/sfu-opencl.csv"
out = ARGC >= 2 ? ARG2 : "sfu_accuracy"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
funcs = "div rcp sqrt rsqrt pow exp log sin cos exp2 log2 tan"
types = "float double"
versions = "precise relaxed-math native half intrinsic ptx-approx"
domains = "typical wide"
in_domain(d) = strstrt(";" . strcol("params") . ";", ";domain=" . d . ";") > 0
is_row(f, dt, v, d) = strcol("sweep") eq "accuracy" && strcol("variant") eq f . "/" . v && strcol("dtype") eq dt && \
                      in_domain(d)
# An infinite error (a NaN or infinite result) has no figure and
# max_ulp=inf in its params.
ulps(c) = strstrt(strcol("params"), "max_ulp=inf") > 0 || strcol(c) eq "inf" ? 1e300 : column(c)

do for [f in funcs] {
    do for [dt in types] {
        do for [k = 1:words(versions)] {
            do for [d in domains] {
                eval sprintf('set table $A_%s_%s_%d_%s', f, dt, k, d)
                plot csv using (ulps("figure")) with table if (is_row(f, dt, word(versions, k), d))
                unset table
            }
        }
    }
}

set datafile separator whitespace
set datafile nocolumnheaders
set print $BARS
n_groups = 0
high = 1
any_inf = 0
do for [k = 1:words(versions)] { eval sprintf('seen_%d = 0', k) }
do for [dt in types] {
    do for [f in funcs] {
        line = ""
        have = 0
        do for [k = 1:words(versions)] {
            do for [d in domains] {
                eval sprintf('n = |$A_%s_%s_%d_%s|', f, dt, k, d)
                u = NaN
                if (n > 0) {
                    eval sprintf('stats $A_%s_%s_%d_%s using 1 nooutput', f, dt, k, d)
                    u = STATS_max
                    high = u < 1e300 && u > high ? u : high
                    any_inf = any_inf || u >= 1e300
                    have = 1
                    eval sprintf('seen_%d = 1', k)
                }
                line = line . sprintf(" %g", u)
            }
        }
        if (have) {
            print sprintf('"%s%s"%s', f, dt eq "double" ? " (f64)" : "", line)
            n_groups = n_groups + 1
        }
    }
}
unset print
if (n_groups == 0) {
    print "sfu_accuracy: no accuracy rows in " . csv
    exit
}

top = high * 10
floor_ulp = 0.01
clip(u) = u >= 1e300 ? top : u < floor_ulp ? floor_ulp : u
n_series = 0
do for [k = 1:words(versions)] { n_series = n_series + value(sprintf('seen_%d', k)) }
colours = "#4a7fb5 #e08a3c #3a9a4a #c0392b #8e6bb8 #7f6a4f"
half = 0.8 / (2 * n_series)
cmd = ""
j = 0
do for [k = 1:words(versions)] {
    if (value(sprintf('seen_%d', k))) {
        j = j + 1
        shift = (2 * j - n_series - 1) * half
        tc = 2 * k     # typical
        wc = 2 * k + 1 # wide
        cmd = cmd . sprintf("$BARS using ($0 + %g):(clip($%d)):($0 + %g):($0 + %g):(%g):(clip($%d))%s with boxxyerror lc rgb '%s' title '%s', ", \
            shift, tc, shift - half + 0.01, shift + half - 0.01, floor_ulp, tc, j == 1 ? ":xtic(1)" : "", \
            word(colours, k), word(versions, k))
        cmd = cmd . sprintf("$BARS using ($0 + %g):(clip($%d)) with points pt 9 ps 1.1 lc rgb '%s' notitle, ", \
            shift, wc, word(colours, k))
        # Only where some error is infinite: gnuplot 5.4 crashes on labels
        # none of whose points is valid.
        if (any_inf) {
            cmd = cmd . sprintf("$BARS using ($0 + %g):($%d >= 1e300 || $%d >= 1e300 ? top : NaN):('inf') with labels offset 0, 0.7 font ',7' notitle, ", \
                shift, tc, wc)
        }
    }
}
cmd = cmd . "NaN with points pt 9 lc black title 'wide domain', "

set style fill solid 0.8 border -1
set grid ytics
set logscale y
set yrange [floor_ulp:top * 3]
set xrange [-0.6:n_groups - 0.4]
set xtics rotate by -35 scale 0 font ",9"
set key top left horizontal font ",9"
set ylabel "max error (ulp of the result type)"
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 90 * n_groups + 300,600 font ",10" } \
    else { set terminal svg size 90 * n_groups + 300,600 dynamic }
    set output out . "." . fmt
    set title "sfu: max ulp error, typical domain (bars) and wide domain (triangles) (analogue of Li Table 6.4/6.5, Rel-Err)  " . name noenhanced
    eval "plot " . cmd[1:strlen(cmd) - 2]
}
