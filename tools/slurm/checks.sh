# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # what it reads and sets are crossroof-slurm.sh's globals
# crossroof-slurm's options, each checked by one function whether it comes
# from the command line or is read back from a resumed run's
# cluster-options (which anyone who can write the run's folder can craft):
# what the command line refuses, --resume refuses too, in one line and
# exit 2, before anything is built, written or submitted. Sourced by
# crossroof-slurm.sh after lib.sh and common/run_args.sh, never run.

check_nodes() { # where value
    [[ $2 =~ ^[1-9][0-9]{0,4}$ ]] || die "$1: '$2' is not a whole number of nodes (1 to 99999)"
}
check_gpus_per_node() { # where value
    [[ $2 =~ ^(0|[1-9][0-9]{0,2})$ ]] || die "$1: '$2' is not a whole number of GPUs (1 to 999)"
}
# A fraction of the median, or nothing.
check_below() { # where value
    [ -z "$2" ] || [[ $2 =~ ^(0?\.[0-9]*[1-9][0-9]*|1(\.0*)?)$ ]] ||
        die "$1: '$2' is not a fraction of the median (0 < F <= 1, e.g. 0.9)"
}
# Slurm's partition list, or nothing: names split by commas. A blank or a
# control character would reach sbatch and its job description as part of
# a name, where Slurm finds no such partition only at submission.
check_partition() { # where value
    [ -z "$2" ] || [[ $2 =~ ^[^,[:space:][:cntrl:]]+(,[^,[:space:][:cntrl:]]+)*$ ]] ||
        die "$1: '$2' is not a list of partition names (no blank, control character or empty name)"
}
# The database, an absolute path (--db is made one), or nothing: the default.
check_db() { # where value
    [ -z "$2" ] || [[ $2 == /* ]] || die "$1: '$2' is not an absolute path"
}

# sbatch options that crossroof-slurm gives itself (the run's folder, the
# jobs' names, outputs, sizes, partition and order), and those that would
# change what every node runs (its environment, its filesystem). sbatch
# takes any unambiguous start of a name (--chd for --chdir), so those are
# refused too, but for --gpus, an option of its own.
sbatch_own="--chdir --output --error --input --job-name --nodes --ntasks --ntasks-per-node --gpus-per-task
            --nodelist --parsable --dependency --kill-on-invalid-dep --partition --wrap --array"
sbatch_environment="--export --export-file --get-user-env --container"
# One sbatch option: in its long form (a word that is no option would be
# taken for the batch script; short ones may be bundled, -Hv, past any
# check), --name=value.
check_sbatch_option() { # where option
    local name=${2%%=*} whole
    [ -n "$2" ] || die "$1: an empty option"
    [[ $name == --?* ]] || die "$1: '$2' is not an option in its long form; give sbatch options as --name=value"
    [ "$name" = --gpus ] && return 0
    for whole in $sbatch_own; do
        [[ $whole == "$name"* ]] &&
            die "$1: $name is crossroof-slurm's to give (the run's folder, the jobs and their sizes: see --help)"
    done
    for whole in $sbatch_environment; do
        [[ $whole == "$name"* ]] &&
            die "$1: $name would change what every node runs; set a variable in the environment of run_all.sh --slurm, which the jobs inherit"
    done
    return 0
}

# The options of every node's run_all.sh (--quick, --only, --device, then
# -- and the benchmarks' options), as the command line gives them or a
# resumed run's cluster-options holds them, each checked as run_all.sh
# checks it; into quick, only, only_names and extra, and where those come
# from into extra_where, for check_benchmark_options once the executables
# are known.
check_node_options() { # where words...
    local where=$1 v
    shift
    quick=() only="" only_names=() extra=() extra_where="$where-- BENCHMARK OPTIONS"
    while [ $# -gt 0 ]; do
        case $1 in
            --quick) quick=(--quick) ;;
            --only) [ $# -ge 2 ] || die "$where--only needs a list of benchmark names"
                    parse_only "$2" "$where--only"
                    only=$2; shift ;;
            --device) [ $# -ge 2 ] && [ -n "$2" ] || die "$where--device needs a SPEC"
                      shift ;;
            --) shift
                extra=("$@")
                for v in "$@"; do check_extra "$extra_where" "$v"; done
                return 0 ;;
            *) die "$where'$1' is not an option of the nodes' run_all.sh (--quick, --only, --device, -- BENCHMARK OPTIONS)" ;;
        esac
        shift
    done
}

# A resumed cluster run's options, read back: nodes, gpus_per_node,
# partition, below, db, run_all_args and stored_sbatch.
read_cluster_options() { # file
    local file=$1 line key value n=0 where
    [ -f "$file" ] && [ -r "$file" ] ||
        die "--resume: $resume is not a cluster run of crossroof-slurm (no cluster-options file in it)"
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        case $line in '' | '#'*) continue ;; *=*) ;; *) die "--resume: $file:$n: not a key=value line" ;; esac
        key=${line%%=*}
        kv_unescape value "${line#*=}" || die "--resume: $file:$n: $key: unknown escape"
        cluster_option "$key" "$value" "--resume: $file:$n"
    done <"$file"
    [ -n "$nodes" ] || die "--resume: $file: no nodes= line"
    check_node_options "--resume: $file: run_all: " "${run_all_args[@]}"
}
cluster_option() { # key value file:line
    local where="$3: $1"
    case $1 in
        nodes) check_nodes "$where" "$2"; nodes=$2 ;;
        gpus_per_node) check_gpus_per_node "$where" "$2"; gpus_per_node=$2 ;;
        partition) check_partition "$where" "$2"; partition=$2 ;;
        below) check_below "$where" "$2"; below=$2 ;;
        db) check_db "$where" "$2"; db=$2 ;;
        run_all) run_all_args+=("$2") ;;
        sbatch) check_sbatch_option "$where" "$2"; stored_sbatch+=("$2") ;;
        *) die "$3: unknown key '$1'" ;;
    esac
}
