# What the compiler does when registers are capped: spill traffic (bytes
# of spill stores plus loads per thread, from ptxas -v) and the registers it
# used, against the cap r, over the kernel's register effective region
# [r_min, r_max] (Li Eq. 4.1; the static side of Li Figs. 4.7-4.9). One line per
# architecture compiled offline; no GPU involved.
#   gnuplot -c bench/regspill/figures/spill.gp DIR/regspill-cuda.csv DIR/regspill-cuda-spill "device name"
csv = ARGC >= 1 ? ARG1 : "results/regspill-cuda.csv"
out = ARGC >= 2 ? ARG2 : "regspill_spill"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
archs = "sm_75 sm_80 sm_86 sm_87 sm_89 sm_90 sm_100 sm_103 sm_120"
spill(p) = param(p, "spill_store_bytes") + param(p, "spill_load_bytes")

do for [a in archs] {
    eval sprintf('set table $S_%s', a)
    plot csv using (param(strcol("params"), "cap")):(spill(strcol("params"))):(param(strcol("params"), "registers")) \
        with table if (strcol("variant") eq "offline-cap" && strcol("device") eq a && strcol("valid") eq "1")
    unset table
}

# Only the architectures with rows (an empty table defines no datablock).
present = ""
do for [a in archs] {
    eval sprintf('if (|$S_%s| > 0) { present = present . " %s" }', a, a)
}

set datafile separator whitespace
set datafile nocolumnheaders
set xlabel "register cap r (-maxrregcount)"
set grid
set key top right
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1400,560 font ",10" } else { set terminal svg size 1400,560 dynamic }
    set output out . "." . fmt
    set multiplot layout 1,2 title "regspill: what a register cap costs, offline compile (the spill side of Li Figs. 4.7-4.9)  " . name noenhanced
    set title "spill traffic per thread"
    set ylabel "spill stores + loads (bytes per thread)"
    set yrange [0:*]
    plot for [i=1:words(present)] sprintf('$S_%s', word(present, i)) using 1:2 with linespoints pt 7 ps 0.5 \
        title word(present, i) noenhanced
    set title "registers used"
    set ylabel "registers per thread"
    plot for [i=1:words(present)] sprintf('$S_%s', word(present, i)) using 1:3 with linespoints pt 7 ps 0.5 \
        title word(present, i) noenhanced, x with lines lc black dt 2 title "r = cap"
    unset multiplot
}
