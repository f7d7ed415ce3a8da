# shellcheck shell=bash
# run_all.sh's options: the command line, every value checked before
# anything runs, and the run-options file of a run, which --resume reads
# back. Sourced by run_all.sh, never run.

parse_options() { # "$@"
    quick=() device="" only="" only_names=() out="" extra=() check=0 resume="" compare=() given=() gpu_check=0
    bin_dir="" tools="" reproduce=""
    local dir_a dir_b
    while [ $# -gt 0 ]; do
        case "$1" in
            --quick) quick=(--quick) given+=("$1") ;;
            --device) [ $# -ge 2 ] || die "--device needs a value"
                      [ -n "$2" ] || die "--device: the SPEC is empty; give a device's index or part of its name"
                      device=$2 given+=("$1"); shift ;;
            --only) [ $# -ge 2 ] || die "--only needs a list of benchmark names"
                    parse_only "$2" --only
                    only=$2 given+=("$1"); shift ;;
            --out) [ $# -ge 2 ] || die "--out needs a value"
                   [ -n "$2" ] || die "--out: the DIR is empty; give the run's directory"
                   absolute out "$2"; given+=("$1"); shift ;;
            --resume) [ $# -ge 2 ] || die "--resume needs the run directory to finish"
                      [ -n "$2" ] || die "--resume: the run directory is empty"
                      absolute resume "$2"; shift ;;
            --compare) [ $# -ge 3 ] || die "--compare needs two run directories, DIR_A and DIR_B"
                       [ -n "$2" ] && [ -n "$3" ] || die "--compare: a run directory is empty"
                       absolute dir_a "$2"; absolute dir_b "$3"; compare=("$dir_a" "$dir_b"); shift 2 ;;
            --reproduce) [ $# -ge 2 ] || die "--reproduce needs a run directory"
                         [ -n "$2" ] || die "--reproduce: the run directory is empty"
                         absolute reproduce "$2"; shift ;;
            --check) check=1 ;;
            --gpu-check) gpu_check=1 given+=("$1") ;;
            -h|--help) say "$(usage)"; exit $stdout_lost ;;
            --) shift; extra=("$@"); given+=(--)
                for v in "${extra[@]}"; do check_extra "after --" "$v"; done
                break ;;
            *) die "unknown option '$1' (see --help)" ;;
        esac
        shift
    done
}

# Options that cannot go together, the environment's budgets, and the
# directories given.
check_options() {
    local d
    check_env_dirs
    if [ -n "$resume" ] && [ ${#given[@]} -gt 0 ]; then
        die "--resume takes the options of the run it finishes; ${given[0]} cannot change them"
    fi
    if [ ${#compare[@]} -gt 0 ] && { [ ${#given[@]} -gt 0 ] || [ -n "$resume" ] || [ "$check" = 1 ]; }; then
        die "--compare takes two run directories and nothing else"
    fi
    [ "$gpu_check" = 0 ] || [ "$check" = 0 ] || die "--gpu-check and --check are two runs; give one"
    check_gpu_check ""
    if [ -n "${CROSSROOF_GPU_CHECK_BUDGET_S:-}" ] && ! [[ $CROSSROOF_GPU_CHECK_BUDGET_S =~ ^[1-9][0-9]{0,5}$ ]]; then
        die "CROSSROOF_GPU_CHECK_BUDGET_S: '$CROSSROOF_GPU_CHECK_BUDGET_S' is not a whole number of seconds (1 to 999999)"
    fi
    if [ -n "${CROSSROOF_GPU_CHECK_BUDGET_PERCENT:-}" ] && ! [[ $CROSSROOF_GPU_CHECK_BUDGET_PERCENT =~ ^[1-9][0-9]{0,5}$ ]]; then
        die "CROSSROOF_GPU_CHECK_BUDGET_PERCENT: '$CROSSROOF_GPU_CHECK_BUDGET_PERCENT' is not a whole number of percent (1 to 999999)"
    fi
    for d in "${compare[@]}"; do
        [ -d "$d" ] || die "--compare: $d is not a directory"
    done
    for d in "${compare[@]}"; do
        not_a_run "$d" && die "--compare: $d is not a run of run_all.sh ($why_not)"
    done
    if [ -n "$reproduce" ]; then
        [ ${#given[@]} -eq 0 ] && [ -z "$resume" ] && [ "$check" = 0 ] && [ ${#compare[@]} -eq 0 ] ||
            die "--reproduce takes a run directory and nothing else"
        [ -d "$reproduce" ] || die "--reproduce: $reproduce is not a directory"
        not_a_run "$reproduce" && die "--reproduce: $reproduce is not a run of run_all.sh ($why_not)"
    fi
    if [ -n "$resume" ] && { [ ! -d "$resume" ] || [ ! -f "$resume/run-options" ]; }; then
        die "--resume: $resume is not a run of run_all.sh (no run-options in it)"
    fi
}

# The GPU check chooses each benchmark's options itself: the figures it
# judges must be in the run. The command line's and a resumed run's
# options alike.
check_gpu_check() { # where (before the words of an error)
    [ "$gpu_check" = 1 ] || return 0
    [ ${#quick[@]} -eq 0 ] || die "$1--gpu-check runs its own short configuration; --quick cannot change it"
    [ -z "$only" ] || die "$1--gpu-check runs every CUDA benchmark; --only cannot change that"
    [ ${#extra[@]} -eq 0 ] && [[ " ${given[*]} " != *" -- "* ]] ||
        die "$1--gpu-check chooses the benchmarks' options; -- cannot change them"
}

# Why DIR is no run to compare, into why_not; false where it is one: a
# directory with the log every run of run_all.sh keeps (a reference run's
# too) beside its device directories. The report would take any folder of
# CSVs for one device's, and compare two folders of anything.
not_a_run() { # dir
    local d
    why_not="no run-log.csv in it"
    [ -f "$1/run-log.csv" ] || return 0
    why_not="no device directory in it"
    for d in "$1"/*/; do [ -d "$d" ] && return 1; done
    return 0
}

# ---- run-options: the options of a run, for --resume ----
# One key=value line each (extra once per benchmark option, in order),
# escaped as common/kv.sh says; read by parsing, never run.
run_options_text() {
    local v
    printf '%s\n' '# read back by run_all.sh --resume: key=value; in values \\ is \, \n a newline'
    echo "quick=${#quick[@]}"
    echo "gpu_check=$gpu_check"
    printf 'device=%s\n' "$(kv_escape "$device")"
    printf 'only=%s\n' "$(kv_escape "$only")"
    for v in "${extra[@]}"; do
        printf 'extra=%s\n' "$(kv_escape "$v")"
    done
}
# Every key and value checked: a bad one is one line and exit 2.
read_run_options() { # file
    local file=$1 line key value n=0 seen=" " where
    [ -r "$file" ] || die "--resume: cannot read $file"
    quick=() device="" only="" only_names=() extra=() gpu_check=0
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        where="--resume: $file:$n"
        case $line in
            '' | '#'*) continue ;;
            'declare '*) # the shell code earlier versions wrote, and ran to read it back
                die "$where: written by an older run_all.sh, whose run-options --resume no longer reads; start a new run" ;;
            *=*) ;;
            *) die "$where: not a key=value line: '$line'" ;;
        esac
        key=${line%%=*}
        kv_unescape value "${line#*=}" || die "$where: $key: unknown escape '$bad_escape'"
        case $key in
            quick | device | only | gpu_check)
                [[ $seen == *" $key "* ]] && die "$where: $key is given twice"
                seen+="$key " ;;
        esac
        run_option "$key" "$value" "$where"
    done <"$file"
    for key in quick device only; do
        [[ $seen == *" $key "* ]] || die "--resume: $file: no $key= line"
    done
    check_gpu_check "--resume: $file: "
}
run_option() { # key value where
    case $1 in
        quick) case $2 in
                   0) quick=() ;;
                   1) quick=(--quick) ;;
                   *) die "$3: quick is 0 or 1, not '$2'" ;;
               esac ;;
        gpu_check) case $2 in
                       0 | 1) gpu_check=$2 ;;
                       *) die "$3: gpu_check is 0 or 1, not '$2'" ;;
                   esac ;;
        device) device=$2 ;;
        only) only=$2
              [ -z "$only" ] || parse_only "$only" "$3: only" ;;
        extra) check_extra "$3: extra" "$2"
               extra+=("$2") ;;
        *) die "$3: unknown key '$1'" ;;
    esac
}
