#!/usr/bin/env bash
# Draws every figure whose CSV is present in a results directory, as PNG and
# SVG beside the CSVs.   plot/plot.sh DIR
# Exit status: 0 drawn (or nothing to draw), 1 a CSV the suite's readers
# refuse, a metadata file that is a link to nothing or no regular file, or a
# directory in a figure's place (the other figures are still drawn), gnuplot failed, a figure could not be written whole (a full disk)
# or the report tool is missing,
# 2 bad usage. A figure is drawn under a temporary name and renamed once
# whole: stopped at any point, it leaves the figure whole or absent, and no
# temporary.
#
# Each CSV a figure is drawn from is read first as every tool reads it
# (build/tools/report --read: the shared reader, by what its name says the
# file is); the report tool is where run_all.sh finds its tools,
# CROSSROOF_TOOLS, else the build beside plot/.
#
# Paths and the device name are data: gnuplot gets them as script arguments
# (gnuplot -c), never inside a command string, and the directory as an
# absolute path, so that no file name can start with gnuplot's "<" (read
# through a shell) or "|" (write through a shell).
set -euo pipefail

say_error() { # message
    local m=$1
    m=${m//$'\n'/\\n}
    printf 'plot.sh: error: %s\n' "${m//[[:cntrl:]]/?}" >&2
}
die() { # status message
    say_error "$2"
    exit "$1"
}

[ $# -eq 1 ] || die 2 "usage: plot/plot.sh RESULTS_DIR"
[ -n "$1" ] || die 2 "RESULTS_DIR is empty"
[ -d "$1" ] || die 2 "$1 is not a directory"
dir=$(cd -- "$1" && pwd -P) || die 2 "cannot enter $1"
here=$(cd -- "$(dirname -- "$0")" && pwd -P)
# shellcheck source=common/csv_records.sh
. "$here/../common/csv_records.sh"
command -v gnuplot >/dev/null || die 1 "gnuplot not found (apt-get install gnuplot-nox)"
report=${CROSSROOF_TOOLS:-$here/../build/tools}/report
[ -x "$report" ] || die 1 "$report not found: no CSV can be read as the suite reads it (make tools)"

# The figure being drawn, under its temporary name: removed on every exit.
drawing=""
trap '[ -z "$drawing" ] || rm -f -- "$drawing.png" "$drawing.svg"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# The device name in DIR's NAME.meta.csv: the value of its device.name record.
device_name() { # meta.csv
    [ -r "$1" ] || return 0
    csv_records "$1" | awk -F '\037' '$1 == "device.name" { print $2; exit }'
}

# Why the energy-levels table has no measured value (empty where it has
# one): the reason of its first level whose rows had no sensor, else of its
# first level. gnuplot cuts a quoted field at its first comma, and a reason
# is a sentence: it is read here and given to the figure as an argument.
energy_reason() { # energy-levels.csv
    csv_records "$1" | awk -F '\037' '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["status"] == "measured" { measured = 1 }
        $col["status"] == "no-sensor" && sensor == "" { sensor = $col["reason"] }
        any == "" { any = $col["reason"] }
        END { if (!measured) print (sensor != "" ? sensor : any) }'
}

# Why the suite's readers refuse these CSVs, in their words (the report's
# one line, its prefix left out); false when every one reads.
refusal() { # csv...
    local said status=0
    said=$("$report" --read "$@" 2>&1 >/dev/null) || status=$?
    [ "$status" != 0 ] || return 1
    said=${said#report: error: }
    printf '%s' "${said:-"$report --read $1 failed (status $status)"}"
}

# Why a device's metadata file is refused before it is read: a link to
# nothing, or something there that is no regular file (a FIFO, a folder);
# false where it is a file or absent.
meta_refusal() { # meta.csv
    if [ -L "$1" ] && [ ! -e "$1" ]; then
        printf '%s: a symbolic link to nothing' "$1"
    elif [ -e "$1" ] && [ ! -f "$1" ]; then
        printf '%s: not a regular file' "$1"
    else
        return 1
    fi
}

# Whether a figure file was written to its end: a PNG ends with its IEND
# chunk, an SVG with its closing tag. A full disk leaves neither.
whole() { # file
    case "$1" in
        *.png) [ "$(tail -c 8 -- "$1" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ] ;;
        *.svg) tail -c 64 -- "$1" | grep -q '</svg>' ;;
        *) return 1 ;;
    esac
}

# The line of gnuplot's complaint that says what went wrong.
complaint() { # log
    local line
    line=$(grep -m1 -E 'rror|arning|annot' <<<"$1" || true)
    [ -n "$line" ] || line=$(tail -n 1 <<<"$1")
    printf '%s' "${line:0:300}"
}

# The benchmarks' figures, from their descriptors (common/descriptor.sh).
# shellcheck source=common/kv.sh
. "$here/../common/kv.sh"
# shellcheck source=common/descriptor.sh
. "$here/../common/descriptor.sh"
desc_read_all "$here/.." || die 1 "$desc_error"

# The benchmark of a results file <name>-<backend>.csv, into the variable
# bench; false for any other file (a summary table, sfu-opencl.table.csv).
benchmark_of() { # csv base name
    local b
    for b in "${DESC_NAMES[@]}"; do
        [[ $1 == "$b-"* && ${1#"$b-"} =~ ^[a-z0-9]+$ ]] && { bench=$b; return 0; }
    done
    return 1
}

# The figures of one CSV, in order: each one's name (in messages), its
# script, the suffix of its output (<csv base>-SUFFIX; empty: the base
# itself) and up to three arguments after the device name.
reset_figures() { figures=() fig_name=() fig_script=() fig_suffix=() fig_nargs=() fig_arg1=() fig_arg2=() fig_arg3=(); }
add_figure() { # name script suffix [argument...]
    figures+=("${#figures[@]}")
    fig_name+=("$1") fig_script+=("$2") fig_suffix+=("$3") fig_nargs+=($(($# - 3)))
    fig_arg1+=("${4:-}") fig_arg2+=("${5:-}") fig_arg3+=("${6:-}")
}
# Those its benchmark's descriptor names: each where its rows are there
# (rows=; every one where the CSV is not to be read) and for its backend
# (backend=), with its reference table where that is there to read (""
# where not; reference=).
benchmark_figures() { # benchmark csv readable(0|1)
    local line name w rows backend ref words
    while read -r line; do
        [ -n "$line" ] || continue
        read -ra words <<<"$line"
        name=${words[0]} rows="" backend="" ref=()
        for w in "${words[@]:1}"; do
            case $w in
                rows=*) rows=${w#rows=} ;;
                backend=*) backend=${w#backend=} ;;
                reference=*) ref=("$here/../${w#reference=}")
                             [ -r "${ref[0]}" ] || ref=("") ;;
            esac
        done
        [ -z "$rows" ] || [ "$3" = 0 ] || grep -qE ",($rows)," "$2" || continue
        [ -z "$backend" ] || [[ $2 == *"-$backend.csv" ]] || continue
        add_figure "${1}_$name" "$here/../bench/$1/figures/$name.gp" "$name" "${ref[@]}"
    done <<<"${DESC[$1:figure]:-}"
}

ranasinghe_ref="$here/../results/reference/ranasinghe2014-table5.1.csv"
memory_bench="" # the benchmark of the X-model's memory side (desc_find)
# The figures of one CSV (figures, fig_*); where it is not to be read (its
# reader refused it), every figure it could give, none read from it.
list_figures() { # csv readable(0|1)
    local table51="" reason=""
    reset_figures
    case "$(basename -- "${1%.csv}")" in
        # build/tools/energy-levels' table, beside Ranasinghe's values where
        # the reference table is there to read; a table of one figure names
        # it: energy-levels.png, not energy-levels-levels.png.
        energy-levels)
            [ ! -r "$ranasinghe_ref" ] || table51=$ranasinghe_ref
            [ "$2" = 0 ] || reason=$(energy_reason "$1")
            add_figure energy_levels "$here/energy_levels.gp" "" "$table51" "$reason"
            ;;
        # The theses against the device (build/tools/reproduce): one point a
        # pair of values, a colour a target; the targets are the ids of the
        # file's first column that read as ids (data, never code).
        reproduce-values)
            local targets=""
            [ "$2" = 0 ] || targets=$(awk -F, 'NR > 1 && $1 ~ /^[a-z0-9][a-z0-9.-]*$/ && !seen[$1]++ { print $1 }' "$1" |
                                      tr '\n' ' ')
            add_figure reproduce "$here/reproduce.gp" "" "${targets% }"
            ;;
        # A cluster run's report: one headline across the nodes, the triad in
        # double of the benchmark that gives the X-model its memory side.
        cluster-report)
            if desc_find memory_bench xmodel memory; then
                add_figure cluster_headline "$here/cluster_headline.gp" headline "$memory_bench" triad double
            else
                add_figure cluster_headline "$here/cluster_headline.gp" headline
            fi ;;
        *) benchmark_of "$(basename -- "${1%.csv}")" || return 0
           benchmark_figures "$bench" "$1" "$2" ;;
    esac
}
# The file a figure is drawn to: <csv base>-SUFFIX, or the base itself.
figure_out() { # base figure
    out=$1${fig_suffix[$2]:+-${fig_suffix[$2]}}
}
# Removes the figure an earlier drawing left at OUT.png and OUT.svg; false,
# said in one line, where that cannot be (a directory stands there): the
# figure is not drawn, the others are.
clear_figure() { # out
    local kind
    for kind in png svg; do
        if [ -d "$1.$kind" ] && [ ! -L "$1.$kind" ]; then
            say_error "$1.$kind: a directory stands where the figure goes: not drawn"
            return 1
        fi
    done
    rm -f -- "$1.png" "$1.svg" 2>/dev/null || { say_error "$1.png, $1.svg: cannot remove the earlier figure"; return 1; }
}

drawn=0
refused=0
for csv in "$dir"/*.csv; do
    [ -e "$csv" ] || [ -L "$csv" ] || continue
    case "$csv" in *.meta.csv) continue ;; esac
    # gnuplot would wait on a FIFO for ever and read /dev/zero without end:
    # a results file is a regular file, as every tool of the suite reads it.
    [ -f "$csv" ] || die 1 "$csv: not a regular file"
    base=${csv%.csv}
    list_figures "$csv" 0
    [ ${#figures[@]} -gt 0 ] || continue
    # Nothing is drawn from a CSV the readers refuse (nor from its device's
    # name, nor where that name's file is a link to nothing or no file),
    # and no figure of an earlier drawing passes for one of it.
    meta=()
    [ ! -e "$base.meta.csv" ] || meta=("$base.meta.csv")
    if why=$(meta_refusal "$base.meta.csv") || why=$(refusal "$csv" "${meta[@]}"); then
        say_error "$why"
        refused=1
        for i in "${figures[@]}"; do
            figure_out "$base" "$i"
            clear_figure "$out" || true
        done
        continue
    fi
    list_figures "$csv" 1
    name=$(device_name "$base.meta.csv")
    for i in "${figures[@]}"; do
        figure_out "$base" "$i"
        extra=("${fig_arg1[i]}" "${fig_arg2[i]}" "${fig_arg3[i]}")
        extra=("${extra[@]:0:fig_nargs[i]}")
        # A figure left from an earlier drawing must not pass for this one's.
        clear_figure "$out" || { refused=1; continue; }
        drawing=$(dirname -- "$out")/.$(basename -- "$out").drawing.$$
        # Panels without data for a backend are normal, and so is a range of
        # one point (one size, one thread count), which gnuplot widens;
        # other messages show.
        if ! log=$(gnuplot -c "${fig_script[i]}" "$csv" "$drawing" "$name" "${extra[@]}" 2>&1); then
            die 1 "${fig_name[i]} on $csv: gnuplot failed: $(complaint "$log")"
        fi
        for kind in png svg; do
            [ -e "$drawing.$kind" ] || continue
            whole "$drawing.$kind" || die 1 "cannot write $out.$kind: gnuplot left it incomplete (is the disk full?)"
        done
        for kind in png svg; do
            [ ! -e "$drawing.$kind" ] || mv -f -- "$drawing.$kind" "$out.$kind" || die 1 "cannot write $out.$kind"
        done
        drawing=""
        [ -z "$log" ] || grep -vE "Skipping data file with no valid points|Warning: empty [xy]2? range" <<<"$log" >&2 ||
            true
        [ -e "$out.png" ] && drawn=$((drawn + 1))
    done
done
echo "plot.sh: $drawn figure(s) in $dir"
exit "$refused"
