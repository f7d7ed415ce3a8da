# toy's one figure: the fill's bandwidth, one bar.
#   gnuplot -c bench/toy/figures/bar.gp DIR/toy-opencl.csv DIR/toy-opencl-bar "device name"
csv = ARG1
out = ARG2
set datafile separator comma
set datafile columnheaders
set terminal pngcairo size 400,300
set output out . ".png"
set title "toy on " . ARG3 noenhanced
set style fill solid
set xrange [-1:1]
set yrange [0:*]
plot csv using (0):(column("figure")) with boxes notitle
set terminal svg size 400,300
set output out . ".svg"
replot
