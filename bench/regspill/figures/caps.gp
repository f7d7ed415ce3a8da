# The register–concurrency trade-off measured on a GPU (Li Fig. 4.1
# analogue): for each register cap r, the kernel's time, the occupancy the
# calculator gives (NVIDIA's per-warp rule, checked against the runtime's
# occupancy API), and the critical points, the last r of each concurrency
# level, marked; below, the registers used and the spill traffic.
#   gnuplot -c bench/regspill/figures/caps.gp DIR/regspill-cuda.csv DIR/regspill-cuda-caps "device name"
csv = ARGC >= 1 ? ARG1 : "results/regspill-cuda.csv"
out = ARGC >= 2 ? ARG2 : "regspill_caps"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
is_cap() = strcol("variant") eq "reg-cap" && strcol("valid") eq "1"

set table $CAPS
plot csv using (param(strcol("params"), "cap")):(column("median_s") * 1e3):(param(strcol("params"), "occupancy")): \
    (param(strcol("params"), "critical_point")):(param(strcol("params"), "registers")): \
    (param(strcol("params"), "spill_store_bytes") + param(strcol("params"), "spill_load_bytes")) \
    with table if (is_cap())
unset table

set datafile separator whitespace
set datafile nocolumnheaders
set xlabel "register cap r"
set grid
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1000,900 font ",10" } else { set terminal svg size 1000,900 dynamic }
    set output out . "." . fmt
    set multiplot layout 2,1 title "regspill: time and occupancy against registers per thread (Li Fig. 4.1; Figs. 4.7-4.9)  " . name noenhanced
    set title "time (left) and occupancy (right); critical points circled"
    set ylabel "time per launch (ms, median)"
    set y2label "occupancy (warps / max warps)"
    set yrange [0:*]
    set y2range [0:1.05]
    set ytics nomirror
    set y2tics
    set key top center
    plot $CAPS using 1:2 with linespoints lc 1 pt 7 ps 0.5 title "time", \
         $CAPS using 1:3 axes x1y2 with steps lc 2 title "occupancy", \
         $CAPS using 1:($4 > 0 ? $2 : NaN) with points lc black pt 6 ps 1.8 title "critical point"
    unset y2label
    unset y2tics
    set ytics mirror
    set title "registers used (left) and spill traffic (right)"
    set ylabel "registers per thread"
    set y2label "spill stores + loads (bytes per thread)"
    set y2range [0:*]
    set y2tics
    set ytics nomirror
    plot $CAPS using 1:5 with linespoints lc 3 pt 7 ps 0.5 title "registers", \
         $CAPS using 1:6 axes x1y2 with linespoints lc 4 pt 7 ps 0.5 title "spill bytes"
    unset multiplot
}
