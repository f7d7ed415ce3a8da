# The theses against one device: each pair of build/tools/reproduce's
# reproduce-values.csv as a point, the thesis's value across, this
# device's up, both in the same terms (the basis column: ratios, shares,
# ms, pJ), log-log; on the solid diagonal the device does as the thesis's
# hardware did, between the dashed lines within 2x. One colour a target.
# A pair with no thesis value (a figure the thesis only drew) or no value
# here has no point.
#   gnuplot -c plot/reproduce.gp DIR/reproduce-values.csv OUT "device name" "target target ..."
csv = ARGC >= 1 ? ARG1 : "reproduce-values.csv"
out = ARGC >= 2 ? ARG2 : "reproduce-values"
name = ARGC >= 3 ? ARG3 : ""
targets = ARGC >= 4 ? ARG4 : ""

set datafile separator comma
set datafile columnheaders
# real() takes no exponent after a mantissa without a dot ("1e-05"): the
# exponent is applied apart; an empty or non-positive value is no point.
exp_at(s) = strstrt(s, "e") > 0 ? strstrt(s, "e") : strstrt(s, "E")
scientific(s, e) = e > 0 ? real(s[1:e - 1]) * 10.0 ** real(s[e + 1:]) : real(s)
num(s) = s eq "" ? NaN : scientific(s, exp_at(s))
positive(v) = v > 0 ? v : NaN
mine(t, v) = strcol("target") eq t ? positive(v) : NaN

# One range for both axes, so that the diagonal is the diagonal.
lo = 1e300
hi = 0
set table $IGNORED
plot csv using (v = positive(num(strcol("thesis"))), w = positive(num(strcol("run"))), \
    (v == v && w == w) ? (lo = (v < lo ? v : lo), lo = (w < lo ? w : lo), hi = (v > hi ? v : hi), \
                          hi = (w > hi ? w : hi)) : 0, 0):(0) with table
unset table
points = hi > 0
if (!points) { lo = 0.1; hi = 10 }
lo = lo / 3
hi = hi * 3

do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 900,760 font ",10" } \
    else { set terminal svg size 900,760 dynamic }
    set output out . "." . fmt
    set title (name eq "" ? "The theses against this device" : "The theses against " . name) . \
        (points ? "" : ": no pair with a value on both sides") noenhanced
    set logscale xy
    set xrange [lo:hi]
    set yrange [lo:hi]
    set xlabel "the thesis's value (its hardware)"
    set ylabel "this device's value, in the same terms"
    set key outside right top noenhanced
    set grid
    plot x with lines lc rgb "black" lw 1.5 title "as the thesis", \
         2 * x with lines dt 2 lc rgb "gray40" title "2x", \
         x / 2 with lines dt 2 lc rgb "gray40" title "1/2x", \
         for [i = 1:words(targets)] csv using (mine(word(targets, i), num(strcol("thesis")))):\
             (mine(word(targets, i), num(strcol("run")))) with points pt (4 + i % 6) ps 1.4 lc i \
             title word(targets, i)
    unset output
}
