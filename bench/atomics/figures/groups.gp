# Atomic add against the number of work-groups (Lee 2012, Fig. 4.5):
# left, every work-item on a counter of its own against all of them on one
# address, so the gap is what serialising on one address costs as the
# device fills; right, lock+unlock pairs of a spin lock and a ticket lock
# with one work-item per group contending, on the device and (dashed) with
# the host's C11 threads, for which a "group" is a thread. The host's own
# add is drawn dashed on the left the same way. A side without rows has no
# panel.
#   gnuplot -c bench/atomics/figures/groups.gp DIR/atomics-opencl.csv DIR/atomics-opencl-groups "device name"
csv = ARGC >= 1 ? ARG1 : "results/atomics-opencl.csv"
out = ARGC >= 2 ? ARG2 : "atomics_groups"
name = ARGC >= 3 ? ARG3 : ""

set datafile separator comma
set datafile columnheaders
# gnuplot's real() rejects trailing text, so cut each value at its ";".
num(s) = (e = strstrt(s, ";"), real(e ? s[1:e - 1] : s))
param(p, key) = (pos = strstrt(";" . p, ";" . key . "="), pos ? num(p[pos + strlen(key) + 1:]) : NaN)
is_row(sweep) = strcol("sweep") eq sweep && strcol("valid") eq "1"
is_device = '(strcol("backend") ne "host-c11")'
groups = '(column("work_items") / column("work_group"))'

set table $G_each
plot csv using (@groups):(column("figure")) with table if (is_row("groups") && @is_device)
unset table
set table $G_one
plot csv using (@groups):(column("figure")) with table if (is_row("groups-one-address") && @is_device)
unset table
# The host's add at every thread count: a cache line each (the stride that
# fills one, 64 bytes of uint32) against all threads on one address.
host_add = 'is_row("host-threads") && strcol("backend") eq "host-c11" && strcol("variant") eq "add" && strcol("dtype") eq "uint32"'
set table $H_each
plot csv using (column("work_items")):(column("figure")) with table \
    if (@host_add && param(strcol("params"), "degree") == 1 && param(strcol("params"), "stride") == 16)
unset table
set table $H_one
plot csv using (column("work_items")):(column("figure")) with table \
    if (@host_add && param(strcol("params"), "degree") == column("work_items") && param(strcol("params"), "stride") == 1)
unset table
do for [lock in "spin-lock ticket-lock"] {
    do for [side in "device host"] {
        eval sprintf('set table $L_%s_%s', side, lock eq "spin-lock" ? "spin" : "ticket")
        plot csv using (param(strcol("params"), "groups")):(column("figure")) with table \
            if (is_row("locks") && strcol("variant") eq lock && (side eq "device" ? @is_device : !@is_device))
        unset table
    }
}

set datafile separator whitespace
set datafile nocolumnheaders
# Each panel's plot command from the tables that have points (an empty
# table is a datablock of no lines, which plot refuses), and the range of
# its rates for the y axis.
line(block, style, title) = sprintf("%s using 1:2 smooth unique with linespoints %s ps 0.8 title '%s', ", block, style, title)
do for [panel in "add lock"] {
    cmd = ""
    low = 1e300
    high = 0
    if (panel eq "add") {
        blocks = "$G_each $G_one $H_each $H_one"
        styles = "'lc 1 pt 7' 'lc 2 pt 5' 'lc 1 dt 2 pt 6' 'lc 2 dt 2 pt 4'"
        titles = "'one counter each' 'one address' 'host C11 threads, one counter each' 'host C11 threads, one address'"
    } else {
        blocks = "$L_device_spin $L_device_ticket $L_host_spin $L_host_ticket"
        styles = "'lc 3 pt 7' 'lc 4 pt 5' 'lc 3 dt 2 pt 6' 'lc 4 dt 2 pt 4'"
        titles = "'spin lock' 'ticket lock' 'host C11 spin lock' 'host C11 ticket lock'"
    }
    do for [i = 1:4] {
        eval sprintf('n = |%s|', word(blocks, i))
        # The host's add only beside the device's: alone it would be a
        # panel about the host.
        if (n > 0 && (panel eq "lock" || i <= 2 || strlen(cmd) > 0)) {
            cmd = cmd . line(word(blocks, i), word(styles, i), word(titles, i))
            eval sprintf('stats %s using 2 nooutput', word(blocks, i))
            low = STATS_min < low ? STATS_min : low
            high = STATS_max > high ? STATS_max : high
        }
    }
    eval sprintf('cmd_%s = cmd; low_%s = low; high_%s = high', panel, panel, panel)
}
panels = (strlen(cmd_add) > 0) + (strlen(cmd_lock) > 0)
if (panels == 0) {
    print "atomics_groups: no valid groups or locks rows in " . csv
    exit
}

set logscale x 2
set format x "%.0f"
set xlabel "work-groups (host: threads)" offset 0,0.5
set grid
set key below horizontal maxcols 2 Left reverse width 2 spacing 1.2 font ",9"
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 700 * panels + 100,600 font ",10" } \
    else { set terminal svg size 700 * panels + 100,600 dynamic }
    set output out . "." . fmt
    set multiplot layout 1,panels title "atomics: contention across work-groups (Lee Fig. 4.5)  " . name noenhanced
    do for [panel in "add lock"] {
        eval sprintf('cmd = cmd_%s; low = low_%s; high = high_%s', panel, panel, panel)
        if (strlen(cmd) > 0) {
            if (panel eq "add") {
                set title "atomic add (uint32, global)"
                set ylabel "throughput (Mop/s, median)"
            } else {
                set title "one lock, taken by one work-item per group"
                set ylabel "lock+unlock pairs (M/s, median)"
            }
            # Serialised rates sit decades below parallel ones on a GPU, a
            # few times on a CPU: a log axis only where they span a decade.
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
            eval "plot " . cmd[1:strlen(cmd) - 2]
        }
    }
    unset multiplot
}
