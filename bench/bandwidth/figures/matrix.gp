# The paths matrix (nvbandwidth's tables): one panel per engine (the API's
# copy, kernels, the CPU through a map), rows the memory the bytes start in,
# columns the memory they end in, each cell the bandwidth of its fastest
# verified path at the largest size (the "matrix" rows). A path that makes
# several transfers at once (a duplex copy) has a row of its own, "(N at
# once)". A cell whose paths cannot run here says why, short: "needs 2
# devices" or "n/a".
#   gnuplot -c bench/bandwidth/figures/matrix.gp DIR/bandwidth-opencl.csv DIR/bandwidth-opencl-matrix "device name"
csv = ARGC >= 1 ? ARG1 : "results/bandwidth-opencl.csv"
out = ARGC >= 2 ? ARG2 : "bandwidth_matrix"
name = ARGC >= 3 ? ARG3 : ""

mems = "host-pageable host-pinned device local shared malloc peer"
engines = "copy kernel cpu"

# The value of key in "k=v;k=v" params, "" when absent.
after(s, k) = (p_ = strstrt(";".s, ";".k."="), p_ == 0 ? "" : s[p_ + strlen(k) + 1:])
param(s, k) = (v_ = after(s, k), q_ = strstrt(v_, ";"), q_ == 0 ? v_ : v_[1:q_ - 1])
# A row of the figure: the source memory, and how many transfers at once beyond one.
rowkey(s) = param(s, "from") . (param(s, "transfers") eq "" ? "" : ":" . param(s, "transfers"))
rowlabel(k) = strstrt(k, ":") == 0 ? k : sprintf("%s (%s at once)", k[1:strstrt(k, ":") - 1], k[strstrt(k, ":") + 1:])
# 1-based position of word w in the list l, NaN when absent.
pos(l, w, i) = i > words(l) ? NaN : word(l, i) eq w ? i : pos(l, w, i + 1)
# Whether |w| is in a "|a||b|" set, and the set with it added.
has(set, w) = strstrt(set, "|" . w . "|") > 0
with_word(set, w) = has(set, w) ? set : set . "|" . w . "|"
# A cell's text in the table is one word; the label is written from it.
short_reason(note) = strstrt(note, "needs >= 2 devices") > 0 ? "needs-2" : "n/a"
cell_text(w) = w eq "needs-2" ? "needs 2\ndevices" : w

set datafile separator comma
set datafile columnheaders
# Which sources, destinations and several-transfer rows the matrix has.
from_seen = ""; to_seen = ""; multi = ""
stats csv using (strcol("sweep") eq "matrix" ? \
    (from_seen = with_word(from_seen, param(strcol("params"), "from")), \
     to_seen = with_word(to_seen, param(strcol("params"), "to")), \
     k_ = rowkey(strcol("params")), \
     multi = (strstrt(k_, ":") > 0 && !has(multi, k_)) ? multi . "|" . k_ . "|" : multi, 1) : 0) nooutput
if (from_seen eq "") { print "bandwidth_matrix.gp: no matrix rows in the CSV"; exit status 1 }
stats csv using (strcol("sweep") eq "matrix" && strcol("valid") eq "1" ? column("figure") : NaN) nooutput
top = STATS_records > 0 && STATS_max > 0 ? STATS_max : 1
stats csv using (strcol("sweep") eq "matrix" ? column("size_bytes") : NaN) nooutput
largest = STATS_records > 0 ? STATS_max : 0

rows = ""
do for [i = 1:words(mems)] { if (has(from_seen, word(mems, i))) { rows = rows . " " . word(mems, i) } }
multi_words = ""
do for [i = 1:strlen(multi)] { multi_words = multi_words . (multi[i:i] eq "|" ? " " : multi[i:i]) }
rows = rows . " " . multi_words
cols = ""
do for [i = 1:words(mems)] { if (has(to_seen, word(mems, i))) { cols = cols . " " . word(mems, i) } }

# One line per cell: column, row, GB/s (-1 where unsupported), engine, label.
set table $CELLS
plot csv using (strcol("sweep") eq "matrix" ? pos(cols, param(strcol("params"), "to"), 1) : NaN): \
               (pos(rows, rowkey(strcol("params")), 1)): \
               (strcol("stop") eq "unsupported" ? -1 : column("figure")): \
               (param(strcol("params"), "engine")): \
               (strcol("stop") eq "unsupported" ? short_reason(strcol("note")) : sprintf("%.1f", column("figure"))) \
    with table if (strcol("sweep") eq "matrix" && (strcol("valid") eq "1" || strcol("stop") eq "unsupported"))
unset table

set datafile separator "\t"
set datafile nocolumnheaders
set xrange [0.5:words(cols) + 0.5]
set yrange [words(rows) + 0.5:0.5]
set xtics () scale 0 rotate by -30 font ",9"
set ytics () scale 0 font ",9"
do for [i = 1:words(cols)] { set xtics add (word(cols, i) i) }
do for [i = 1:words(rows)] { set ytics add (rowlabel(word(rows, i)) i) }
set cbrange [0:top]
set palette defined (0 "#f7fbff", 0.5 "#6baed6", 1 "#08306b")
set cblabel "GB/s (median)"
set style fill solid 1.0 border lc rgb "#ffffff"
set key off
in_panel(e, x) = word(strcol(4), 1) eq e ? x : NaN  # "with table" pads its fields
measured(v) = v >= 0

do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1800,620 font ",10" } else { set terminal svg size 1800,620 dynamic font ",10" }
    set output out . "." . fmt
    set multiplot layout 1,3 title sprintf("paths matrix at %.0f MiB: rows from, columns to, fastest verified path per cell  %s", \
        largest / 1048576.0, name) noenhanced
    do for [e = 1:words(engines)] {
        engine = word(engines, e)
        set title (e == 1 ? "the API's copy (copy engine)" : e == 2 ? "kernels (SM copies)" : "the CPU through a map") noenhanced
        if (e == words(engines)) { set colorbox } else { unset colorbox }
        plot $CELLS using (in_panel(engine, $1)):(measured($3) ? $2 : NaN):(0.5):(0.5):3 \
                 with boxxyerror fc palette, \
             $CELLS using (in_panel(engine, $1)):(measured($3) ? NaN : $2):(0.5):(0.5) \
                 with boxxyerror fc rgb "#d9d9d9", \
             $CELLS using (in_panel(engine, $1)):2:(cell_text(word(strcol(5), 1))):($3 > 0.6 * top ? 0xffffff : 0) \
                 with labels font ",9" noenhanced tc rgb variable
    }
    unset multiplot
}
