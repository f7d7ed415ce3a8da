# What one byte costs in energy at each level of the device's memory system
# (left) and what one operation costs (right), log scale: this device's
# measured picojoules (build/tools/energy-levels, the median over the rows
# that stand for the level, static power subtracted) beside Ranasinghe's
# Table 5.1 (2014, a K20c, e_gs and e_sr read as the energy of one 4-byte
# word). A level with no measurement says why under its place ("no
# sensor", "no rows"); the thesis's parameters that no level of the suite
# measures (integer add and max) stand alone at the right. Where nothing
# was measured the title gives the sensor's reason.
#   gnuplot -c plot/energy_levels.gp DIR/energy-levels.csv DIR/energy-levels "device name" \
#       results/reference/ranasinghe2014-table5.1.csv "why nothing was measured"
csv = ARGC >= 1 ? ARG1 : "results/energy-levels.csv"
out = ARGC >= 2 ? ARG2 : "energy-levels"
name = ARGC >= 3 ? ARG3 : ""
ref = ARGC >= 4 ? ARG4 : ""
reason = ARGC >= 5 ? ARG5 : ""

set datafile separator comma
set datafile columnheaders
# A missing value is written as -1, never NaN: gnuplot reads "nan" back as
# no point at all, and crashes (5.4) on a labels plot with no point.
# real() takes no exponent after a mantissa without a dot ("1e-05"), which
# the results reader does: the exponent is applied apart.
exp_at(s) = strstrt(s, "e") > 0 ? strstrt(s, "e") : strstrt(s, "E")
scientific(s, e) = e > 0 ? real(s[1:e - 1]) * 10.0 ** real(s[e + 1:]) : real(s)
num(s) = s eq "" ? -1 : scientific(s, exp_at(s))
word_or_dash(s) = s eq "" ? "-" : s
# One table per panel: level, measured pJ, thesis pJ, status, thesis symbol
# (text read back as whitespace-separated words: none empty, none spaced).
# A table no row goes into stays as declared here, empty.
$BYTE << EOD
EOD
$OP << EOD
EOD
set table $BYTE
plot csv using (strcol("level")):(num(strcol("pj"))):(num(strcol("thesis_pj"))):(strcol("status")):\
    (word_or_dash(strcol("thesis_symbol"))) with table if (strcol("basis") eq "per-byte")
unset table
set table $OP
plot csv using (strcol("level")):(num(strcol("pj"))):(num(strcol("thesis_pj"))):(strcol("status")):\
    (word_or_dash(strcol("thesis_symbol"))) with table if (strcol("basis") eq "per-op")
unset table
if (ref ne "") {
    set table $OP append
    plot ref using (strcol("symbol")):(-1):(column("value") * 1e12):("thesis-only"):(strcol("symbol")) with table \
        if (strcol("level") eq "" && strcol("basis") eq "per-op" && strcol("unit") eq "J")
    unset table
}

# Whether anything was measured; where nothing was, why (plot.sh reads the
# reason: gnuplot cuts a quoted field at its first comma).
measured = 0
set table $IGNORED
plot csv using (measured = measured + (strcol("status") eq "measured"), 0):(0) with table
unset table

set datafile separator whitespace
set datafile nocolumnheaders
# The value range of both panels, for one log axis each.
lo = 1e300
hi = 0
widen(a, b) = (lo = a > 0 && a < lo ? a : lo, lo = b > 0 && b < lo ? b : lo, \
               hi = a > hi ? a : hi, hi = b > hi ? b : hi, 0)
set table $IGNORED
if (|$BYTE| > 0) { plot $BYTE using (widen($2, $3)):(0) with table }
if (|$OP| > 0) { plot $OP using (widen($2, $3)):(0) with table }
unset table
if (hi <= 0) { lo = 1; hi = 1000 }
ylow = 10 ** floor(log10(lo) - 0.5)
yhigh = 10 ** ceil(log10(hi) + 0.5)

why = measured > 0 ? "" : "\nno measured value" . (reason ne "" ? ": " . reason : "")
thesis_key = "Ranasinghe 2014 Table 5.1 (K20c, e_gs/e_sr per 4-byte word)"
# Under a level without a bar: why. A measured median at or below zero (the
# static power as large as what the rows drew) has no place on a log axis.
status_word(s, v) = s eq "no-sensor" ? "no sensor" : s eq "no-rows" ? "no rows" : \
                    s eq "thesis-only" ? "thesis only" : s eq "measured" && v <= 0 ? "not above 0" : ""
# A bar where there is a value (a log axis shows none at or below zero);
# a label where its bar ends, an empty one on the axis where there is none.
bar(v) = v > 0 ? v : NaN
on_axis(v) = v > 0 ? v : ylow
value_label(v) = v <= 0 ? "" : v >= 1000 ? sprintf("%.0f", v) : sprintf("%.3g", v)

set logscale y
set yrange [ylow:yhigh]
set format y "%g"
set grid ytics
set xtics rotate by -30 left noenhanced
set style fill solid 0.85 border -1
set boxwidth 0.38
set key top left noenhanced font ",9"
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1400,640 font ",10" } \
    else { set terminal svg size 1400,640 dynamic }
    set output out . "." . fmt
    set multiplot layout 1,2 title "energy per byte and per operation (dynamic, static power subtracted)  " . name . why \
        noenhanced
    do for [panel = 1:2] {
        # A datablock by its name: the same plot for both panels.
        block = panel == 1 ? '$BYTE' : '$OP'
        set title panel == 1 ? "per byte moved" : "per operation"
        set ylabel panel == 1 ? "pJ per byte" : "pJ per operation"
        n = panel == 1 ? |$BYTE| : |$OP|
        set xrange [-0.6:(n > 0 ? n : 1) - 0.4]
        if (n == 0) {
            set label 1 "no level of this kind" at graph 0.5, graph 0.5 center
            plot NaN notitle
            unset label 1
        } else {
            plot block using 0:(ylow):xtic(1) with points pt -1 notitle, \
                 block using ($0 - 0.2):(bar($2)) with boxes lc rgb "#1f77b4" title "measured on this device", \
                 block using ($0 + 0.2):(bar($3)) with boxes lc rgb "#ff9f4a" title thesis_key, \
                 block using ($0 - 0.2):(on_axis($2)):(value_label($2)) with labels offset 0,0.6 font ",8" notitle, \
                 block using ($0 + 0.2):(on_axis($3)):($3 > 0 ? value_label($3) . " " . strcol(5) : "") \
                     with labels rotate by 90 left \
                     offset 0,0.4 font ",7" noenhanced notitle, \
                 block using ($0 - 0.2):(ylow * 1.3):(status_word(strcol(4), $2)) with labels rotate by 90 left \
                     font ",8" tc rgb "#666666" notitle
        }
    }
    unset multiplot
}
