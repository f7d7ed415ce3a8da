# shellcheck shell=bash
# The descriptors of the benchmarks: bench/<name>/descriptor, one a
# benchmark, read by the Makefile (through common/descriptor_gen.sh),
# run_all.sh and plot/plot.sh. key=value lines, escaped as common/kv.sh
# says; '#' starts a comment line. Read by parsing, never run. Sourced,
# never run; needs common/kv.sh.
#
# Keys (a key marked "per executable" may be given for one backend by
# prefixing it: cuda_quick_seconds is that of <name>-cuda alone, and wins):
#   name              the folder's name: [a-z][a-z0-9_]*
#   title             what it measures, one line
#   backends          the APIs it has, among opencl and cuda: <name>-<api> each
#   order             where it comes in lists (the GPU check's table, the
#                     report): lower first, ties by name; default 1000
#   quick_seconds, full_seconds
#                     per executable: what a run takes on a device where no
#                     earlier run says (run_all.sh's estimate)
#   no_device_seconds per executable: the same where it finds no device (default 1)
#   gpu_check_options, gpu_check_seconds
#                     per executable: its options and time budget in
#                     run_all.sh --gpu-check (default --quick, 60 s); the
#                     check runs every CUDA executable, and an OpenCL one on
#                     the GPUs only where opencl_gpu_check_options is given
#   figure            one figure a line: NAME [rows=A|B...] [backend=API]
#                     [reference=PATH]: bench/<name>/figures/NAME.gp draws
#                     <csv base>-NAME from <name>-<api>.csv, only where a
#                     row has a field A or B (rows=), only for that backend
#                     (backend=), given the tree's PATH as its fourth
#                     argument ("" where it is absent; reference=)
#   report_section    the report's section its results go to (default its name)
#   report_title      that section's heading, where the section is its own
#   xmodel            its part in build/tools/xgraph's X-model: memory (f(k)),
#                     compute (g(x), rows with ilp=), latency (L) or
#                     application (an application's own measured f(k), which
#                     xgraph --f-curve NAME puts in the application X-graph;
#                     several benchmarks may play it)
#   xmodel_sweep, xmodel_variant
#                     the rows that give that part: those of this sweep (and
#                     of this variant, where given; memory and latency need one)
#   xmodel_fixed_sweep
#                     memory: the sweep whose row of that variant is the
#                     fixed-size check of f's plateau (optional)
#   xmodel_accesses   memory: the elements one work-item of that variant
#                     loads and stores per iteration, all in flight together
#                     (Little's law's b, in elements)
#   sweeps            the values its rows' sweep column takes, space-separated
#                     (the harness's own row, variant energy of sweep sensor,
#                     needs no word); the harness records no other row, and
#                     the tools' reader refuses any other (build/gen/row_names.c)
#   variants          the same for the variant column, each a pattern where
#                     the benchmark composes the name: '*' any run of
#                     characters, [...] one of them (*/precise: any function's
#                     precise version)
#   headline_sweep, headline_unit, headline_param, headline_pick,
#   headline_better, headline_what
#                     its headline figure in the results database (build/tools/
#                     crossroof-db): the valid rows of that sweep (and unit,
#                     and parameter KEY=VALUE, where given), per variant and
#                     type the one that pick names (only: the first,
#                     largest-size, max), better higher or lower, what says
#                     it in words; sweep, pick, better and what together or none
# bench/<name>/gpu_rules.c, where there is one, holds what the GPU check
# judges of its CUDA results (tools/gpu_check/rules.h); energy_levels.c,
# the energy levels its rows stand for (tools/energy_levels/rule.h);
# reproduce.c, the theses' tables and figures its rows answer
# (tools/reproduce/reproduce.h).

DESC_KEYS=" name title backends order report_section report_title xmodel figure"
DESC_KEYS+=" sweeps variants xmodel_sweep xmodel_variant xmodel_fixed_sweep xmodel_accesses"
DESC_KEYS+=" headline_sweep headline_unit headline_param headline_pick headline_better headline_what "
DESC_PER_EXE=" quick_seconds full_seconds no_device_seconds gpu_check_options gpu_check_seconds "
DESC_APIS=" opencl cuda "
DESC_REQUIRED="name title backends quick_seconds full_seconds sweeps variants"

declare -A DESC=()  # "<name>:<key>" -> value; figure lines joined by newlines
DESC_NAMES=()       # the benchmarks, in the order of their folders' names
desc_error=""       # why the last read failed: "FILE:LINE: what"

# False, with desc_error, where the value is not what the key takes.
desc_check_value() { # key value
    local k=$1 v=$2
    case $k in
        name) [[ $v =~ ^[a-z][a-z0-9_]{0,23}$ ]] || desc_error="name: '$v' is not [a-z][a-z0-9_]*, at most 24 characters" ;;
        title | report_title | gpu_check_options) [ -n "$v" ] || desc_error="$k: empty" ;;
        backends) desc_check_backends "$v" ;;
        order) [[ $v =~ ^[0-9]{1,4}$ ]] || desc_error="order: '$v' is not a whole number from 0 to 9999" ;;
        *_seconds) [[ $v =~ ^[1-9][0-9]{0,5}$ ]] || desc_error="$k: '$v' is not a whole number of seconds (1 to 999999)" ;;
        report_section) [[ $v =~ ^[a-z][a-z0-9_-]{0,23}$ ]] || desc_error="report_section: '$v' is not [a-z][a-z0-9_-]*" ;;
        xmodel) [[ $v =~ ^(memory|compute|latency|application)$ ]] ||
            desc_error="xmodel: '$v' is not memory, compute, latency or application" ;;
        xmodel_sweep | xmodel_variant | xmodel_fixed_sweep)
            [[ $v =~ ^[A-Za-z0-9_.-]{1,24}$ ]] || desc_error="$k: '$v' is not a word" ;;
        xmodel_accesses) [[ $v =~ ^[1-9][0-9]?$ ]] || desc_error="xmodel_accesses: '$v' is not a whole number from 1 to 99" ;;
        sweeps) [[ $v =~ ^[A-Za-z0-9_.-]{1,23}( [A-Za-z0-9_.-]{1,23})*$ ]] ||
            desc_error="sweeps: '$v' is not words of [A-Za-z0-9_.-], one space apart" ;;
        variants) [[ $v =~ ^[][A-Za-z0-9_.:/+*-]{1,47}( [][A-Za-z0-9_.:/+*-]{1,47})*$ ]] ||
            desc_error="variants: '$v' is not words of [A-Za-z0-9_.:/+*-] and [...], one space apart" ;;
        figure) desc_check_figure "$v" ;;
        headline_sweep | headline_unit) [[ $v =~ ^[A-Za-z0-9/%_.-]{1,24}$ ]] || desc_error="$k: '$v' is not a word" ;;
        headline_param) [[ $v =~ ^[a-z0-9_-]+=[^=\;]+$ ]] || desc_error="headline_param: '$v' is not KEY=VALUE" ;;
        headline_pick) [[ $v =~ ^(only|largest-size|max)$ ]] || desc_error="headline_pick: '$v' is not only, largest-size or max" ;;
        headline_better) [[ $v =~ ^(higher|lower)$ ]] || desc_error="headline_better: '$v' is not higher or lower" ;;
        headline_what) [ -n "$v" ] || desc_error="headline_what: empty" ;;
    esac
    [ -z "$desc_error" ]
}
desc_check_backends() { # value
    local api seen=" "
    [ -n "$1" ] || desc_error="backends: empty; give opencl, cuda or both"
    for api in $1; do
        [[ $DESC_APIS == *" $api "* ]] || desc_error="backends: '$api' is not opencl or cuda"
        [[ $seen == *" $api "* ]] && desc_error="backends: $api is given twice"
        seen+="$api "
    done
}
desc_check_figure() { # value: NAME [rows=...] [backend=...] [reference=...]
    local words w
    read -ra words <<<"$1"
    [[ ${words[0]:-} =~ ^[a-z0-9_]{1,24}$ ]] || { desc_error="figure: '${words[0]:-}' is not a figure name [a-z0-9_]"; return; }
    for w in "${words[@]:1}"; do
        case $w in
            rows=*) [[ ${w#rows=} =~ ^[A-Za-z0-9_.-]+(\|[A-Za-z0-9_.-]+)*$ ]] || desc_error="figure: '$w' is not rows=A|B..." ;;
            backend=*) [[ $DESC_APIS == *" ${w#backend=} "* ]] || desc_error="figure: '$w' is not backend=opencl or backend=cuda" ;;
            reference=*) [[ ${w#reference=} =~ ^[A-Za-z0-9_.][A-Za-z0-9_./-]*$ && $w != *..* ]] ||
                desc_error="figure: '$w' is not reference=PATH in the tree" ;;
            *) desc_error="figure: unknown field '$w' (rows=, backend= or reference=)" ;;
        esac
    done
}

# A figure's script is there: bench/<name>/figures/NAME.gp.
desc_check_script() { # benchmark folder, name, figure line
    local fig=${3%% *}
    [ -f "$1/figures/$fig.gp" ] || desc_error="figure $fig: there is no bench/$2/figures/$fig.gp"
}

# The key without its backend prefix, if it takes one; false where it is unknown.
desc_base_key() { # key -> variable desc_key
    desc_key=$1
    [[ $DESC_KEYS == *" $1 "* || $DESC_PER_EXE == *" $1 "* ]] && return 0
    desc_key=${1#*_}
    [[ $1 == *_* && $DESC_APIS == *" ${1%%_*} "* && $DESC_PER_EXE == *" $desc_key "* ]]
}

# One descriptor into DESC; false, with desc_error, at its first problem.
desc_read() { # file name-to-show
    local file=$1 shown=$2 line key value n=0 bench
    bench=${file%/descriptor}
    bench=${bench##*/}
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        desc_error=""
        case $line in
            '' | '#'*) continue ;;
            *=*) ;;
            *) desc_error="not a key=value line: '$line'" ;;
        esac
        key=${line%%=*}
        [ -n "$desc_error" ] || desc_base_key "$key" || desc_error="unknown key '$key'"
        [ -n "$desc_error" ] || kv_unescape value "${line#*=}" || desc_error="$key: unknown escape '$bad_escape'"
        [ -n "$desc_error" ] || [[ $value != *[[:cntrl:]]* ]] || desc_error="$key: a value is one line of text"
        [ -n "$desc_error" ] || desc_check_value "$desc_key" "$value"
        [ -n "$desc_error" ] || [ "$key" != figure ] || desc_check_script "${file%/descriptor}" "$bench" "$value"
        [ -n "$desc_error" ] || [ "$key" = figure ] || [ -z "${DESC[$bench:$key]+set}" ] || desc_error="$key is given twice"
        [ -n "$desc_error" ] || [ "$key" != name ] || [ "$value" = "$bench" ] ||
            desc_error="name: '$value' is not the folder's name, '$bench'"
        if [ -n "$desc_error" ]; then
            desc_error="$shown:$n: $desc_error"
            return 1
        fi
        if [ "$key" = figure ]; then DESC[$bench:figure]+=${DESC[$bench:figure]:+$'\n'}$value
        else DESC[$bench:$key]=$value; fi
    done <"$file" || { desc_error="$shown: cannot read it"; return 1; }
    desc_complete "$bench" "$shown"
}
# Every required key given, a headline whole or not at all, and the
# backend prefixes among its backends.
desc_complete() { # benchmark name-to-show
    local k api
    for k in $DESC_REQUIRED; do
        [ -n "${DESC[$1:$k]+set}" ] || { desc_error="$2: no $k= line"; return 1; }
    done
    for k in headline_sweep headline_pick headline_better headline_what headline_unit headline_param; do
        [ -n "${DESC[$1:headline_sweep]+set}" ] || [ -z "${DESC[$1:$k]+set}" ] ||
            { desc_error="$2: $k without headline_sweep"; return 1; }
        [ -z "${DESC[$1:headline_sweep]+set}" ] || [ -n "${DESC[$1:$k]+set}" ] || [[ $k == headline_[up]* ]] ||
            { desc_error="$2: headline_sweep without $k"; return 1; }
    done
    desc_complete_xmodel "$1" "$2" || return 1
    for k in headline_sweep xmodel_sweep xmodel_fixed_sweep; do
        [ -z "${DESC[$1:$k]+set}" ] || [[ " ${DESC[$1:sweeps]} " == *" ${DESC[$1:$k]} "* ]] ||
            { desc_error="$2: $k ${DESC[$1:$k]} is none of its sweeps"; return 1; }
    done
    for k in "${!DESC[@]}"; do
        [[ $k == "$1:"* ]] || continue
        k=${k#"$1:"}
        api=${k%%_*}
        [[ $DESC_APIS == *" $api "* && " ${DESC[$1:backends]} " != *" $api "* ]] &&
            { desc_error="$2: $k: $1 has no $api backend"; return 1; }
    done
    DESC_NAMES+=("$1")
}

# The X-model's rows named whole for the part it plays, and none without one.
desc_complete_xmodel() { # benchmark name-to-show
    local part=${DESC[$1:xmodel]:-} k need=""
    case $part in
        memory) need="xmodel_sweep xmodel_variant xmodel_accesses" ;;
        compute) need="xmodel_sweep" ;;
        latency | application) need="xmodel_sweep xmodel_variant" ;;
    esac
    for k in $need; do
        [ -n "${DESC[$1:$k]+set}" ] || { desc_error="$2: xmodel=$part without $k"; return 1; }
    done
    for k in xmodel_sweep xmodel_variant xmodel_fixed_sweep xmodel_accesses; do
        [ -z "${DESC[$1:$k]+set}" ] || [ -n "$part" ] || { desc_error="$2: $k without xmodel"; return 1; }
        [ -z "${DESC[$1:$k]+set}" ] || [[ $part == memory || $k == xmodel_sweep || $k == xmodel_variant ]] ||
            { desc_error="$2: $k is the memory part's, not $part's"; return 1; }
    done
}

# Every bench/*/descriptor under ROOT; false, with desc_error, at the first problem.
desc_read_all() { # root
    local f
    DESC=() DESC_NAMES=()
    for f in "$1"/bench/*/descriptor; do
        [ -e "$f" ] || continue
        desc_read "$f" "${f#"$1"/}" || return 1
    done
}

# A key's value for a benchmark, or for one of its executables
# (<name>-<api>: api_key, else key); false where it is not given.
desc_get() { # variable benchmark-or-executable key
    local desc_name=$2 desc_api="" desc_k
    [ -n "${DESC[$2:name]+set}" ] || { desc_name=${2%-*}; desc_api=${2##*-}; }
    for desc_k in ${desc_api:+${desc_api}_$3} "$3"; do
        if [ -n "${DESC[$desc_name:$desc_k]+set}" ]; then
            printf -v "$1" '%s' "${DESC[$desc_name:$desc_k]}"
            return 0
        fi
    done
    return 1
}

# The first benchmark (in DESC_NAMES' order) whose KEY is VALUE; false where none is.
desc_find() { # variable key value
    local desc_b
    for desc_b in "${DESC_NAMES[@]}"; do
        if [ "${DESC[$desc_b:$2]:-}" = "$3" ]; then
            printf -v "$1" '%s' "$desc_b"
            return 0
        fi
    done
    return 1
}

# The executables of the benchmarks with backend API, in DESC_NAMES' order.
desc_executables() { # variable(array) api
    local -n desc_out=$1
    local desc_b
    desc_out=()
    for desc_b in "${DESC_NAMES[@]}"; do
        [[ " ${DESC[$desc_b:backends]} " == *" $2 "* ]] && desc_out+=("$desc_b-$2")
    done
}
