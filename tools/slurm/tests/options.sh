#!/usr/bin/env bash
# run_all.sh --slurm without a cluster: bad options refused in one line with
# exit 2 and nothing created, the sbatch commands of --dry-run, and which
# nodes --resume submits again. Needs no Slurm and no build.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd) || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf -- "$tmp"' EXIT
failures=0
say() { printf 'slurm options: %s\n' "$*"; }
check() { # description command...
    if "${@:2}"; then say "ok    $1"; else say "FAIL  $1"; failures=$((failures + 1)); fi
}
mkdir -p "$tmp/bin"
# Stand-ins that take every benchmark option but --bogus, as --check-options says.
for b in fma-opencl stream-opencl; do
    printf '#!/bin/sh\ncase " $* " in *" --bogus "*) echo "%s: error: unknown option '"'"'--bogus'"'"'" >&2; exit 2;; esac\nexit 0\n' \
        "$b" >"$tmp/bin/$b"
    chmod +x "$tmp/bin/$b"
done
export CROSSROOF_BIN=$tmp/bin CROSSROOF_TOOLS=$tmp/tools
slurm() { "$repo/run_all.sh" --slurm "$@"; }

# One line on stderr, exit 2, and no run directory.
refused() { # what-the-error-says options...
    local err rc
    err=$(slurm --out "$tmp/run" "${@:2}" 2>&1 >/dev/null)
    rc=$?
    [ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ $err == *"$1"* ]] && [ ! -e "$tmp/run" ] ||
        { say "      got exit $rc: $err"; return 1; }
}
check "--nodes 0 refused" refused "--nodes: '0'" --nodes 0
check "--nodes x refused" refused "--nodes: 'x'" --nodes x
check "--gpus-per-node -1 refused" refused "--gpus-per-node" --gpus-per-node -1
check "--below 0 refused" refused "--below: '0'" --below 0
check "--below 1.5 refused" refused "--below: '1.5'" --below 1.5
check "a newline in --partition refused" refused "--partition: 'a\\nb' is not a list of partition names" --partition $'a\nb'
check "a blank in --partition refused" refused "--partition: 'gpu a'" --partition 'gpu a'
check "an empty partition name refused" refused "--partition: 'gpu,'" --partition gpu,
check "--below with no value refused" refused "--below needs a value" --below
check "an unknown option refused" refused "unknown option '--nodez'" --nodez 2
check "--only naming no benchmark refused" refused "no benchmark named 'nope'" --only fma,nope
check "--only with an empty name refused" refused "--only: empty name in 'fma,'" --only fma,
check "an sbatch word that is no option refused" refused "'bad' is not an option" -- bad
check "a short sbatch option refused (bundles pass any check)" refused "'-D/tmp' is not an option in its long form" -- -D/tmp
check "an sbatch option crossroof gives refused" refused "--chdir is crossroof-slurm's to give" -- --chdir=/tmp
check "a short form of one refused" refused "--out is crossroof-slurm's to give" -- --out=/tmp/x
check "--export refused" refused "--export would change what every node runs" -- --export=ALL,LD_PRELOAD=/tmp/x.so
check "a benchmark option run_all.sh gives refused" refused "-- BENCHMARK OPTIONS: --out is run_all.sh's to give" -- -- --out /tmp
check "a benchmark option a benchmark refuses refused" \
    refused "-- BENCHMARK OPTIONS: fma-opencl refuses the options: unknown option '--bogus'" --only fma -- -- --bogus
check "--gpu-check refused" refused "not a cluster run" --gpu-check
check "a newline in a value: still one line" refused "--nodes: 'a\\nb'" --nodes $'a\nb'
check "--resume with another option refused" refused "cannot change them" --resume "$tmp" --quick
empty_tools() { CROSSROOF_TOOLS='' refused "$@"; }
check "an empty CROSSROOF_TOOLS refused, not taken for unset" empty_tools "CROSSROOF_TOOLS is set but empty" --nodes 1
mkdir "$tmp/exists"
err=$(slurm --out "$tmp/exists" 2>&1 >/dev/null)
check "an existing --out refused" test $? = 2 -a -n "$err"
err=$(slurm --out "$tmp/a\\b" 2>&1 >/dev/null)
check "a backslash in --out refused (Slurm drops it)" test $? = 2 -a ! -e "$tmp/a\\b"

# --dry-run: the two sbatch commands, nothing created.
dry=$(slurm --dry-run --nodes 3 --partition gpu --below 0.9 --quick --only fma \
      --out "$tmp/run 50%" -- --time=10 --account=lab -- --reps 3)
check "dry run: exit 0, nothing created" test $? = 0 -a ! -e "$tmp/run 50%"
node_line=$(sed -n 1p <<<"$dry") report_line=$(sed -n 2p <<<"$dry")
has() { [[ $1 == *"$2"* ]] || { say "      '$2' not in: $1"; return 1; }; }
check "dry run: 3 nodes, one task each" has "$node_line" "'--nodes=3' '--ntasks-per-node=1'"
check "dry run: the partition" has "$node_line" "'--partition=gpu'"
check "dry run: % in the run's path doubled in the output pattern" has "$node_line" "run 50%%/slurm/submission-1-job-%j.out"
check "dry run: the sbatch options after crossroof's" has "$node_line" "'--time=10' '--account=lab' '$repo/tools/slurm/job.sh'"
check "dry run: the suite's options, benchmark options after --" has "$node_line" "'--' '--quick' '--only' 'fma' '--' '--reps' '3'"
check "dry run: the report after the nodes, however they end" has "$report_line" "--dependency=afterany:"
check "dry run: the report job charged to the same account" has "$report_line" "'--account=lab'"
check "dry run: the report with --below" has "$report_line" "'0.9'"
check "dry run: --gpus, an sbatch option of its own" has "$(slurm --dry-run --out "$tmp/run" -- --gpus=2)" "'--gpus=2'"
dry=$(slurm --dry-run --nodes 2 --gpus-per-node 4 --out "$tmp/run")
check "per GPU: 4 tasks a node, one GPU each" has "$dry" "'--ntasks-per-node=4' '--gpus-per-task=1'"

# --resume: only the nodes that did not complete, by name.
run=$tmp/cluster
mkdir -p "$run/status" "$run/slurm" "$run/nodes"
printf 'nodes=4\ngpus_per_node=0\npartition=\nbelow=\ndb=\nrun_all=--quick\n' >"$run/cluster-options"
printf 'n1\nn2\nn3\nn4\n' >"$run/slurm/submission-1.nodes"
printf 'submission,kind,job_id,nodes,submitted\n1,nodes,7,4,x\n1,report,8,1,x\n' >"$run/jobs.csv"
printf 'state=finished\nexit=0\n' >"$run/status/n1"   # passed
printf 'state=finished\nexit=1\n' >"$run/status/n2"   # a benchmark failed: complete
printf 'state=running\n' >"$run/status/n3"            # killed: no end recorded
# n4: no status, never began
dry=$(slurm --resume "$run" --dry-run -- --time=20)
check "resume: n3 and n4 again, by name" has "$dry" "'--nodes=2' '--ntasks-per-node=1' '--nodelist=n3,n4'"
check "resume: the second submission" has "$dry" "submission-2-job-%j.out"
check "resume: the options of the run" has "$dry" "'--' '--quick'"
check "resume: a later sbatch option added" has "$dry" "'--time=20'"
printf 'state=finished\nexit=143\n' >"$run/status/n3"
printf 'state=finished\nexit=0\n' >"$run/status/n4"
dry=$(slurm --resume "$run" --dry-run)
check "resume: a node ended by a signal again, alone" has "$dry" "'--nodes=1' '--ntasks-per-node=1' '--nodelist=n3'"
printf 'state=finished\nexit=0\n' >"$run/status/n3"
dry=$(slurm --resume "$run" --dry-run)
check "resume: every node complete, nothing submitted" has "$dry" "nothing to submit"
printf 'nodes=4\nbelow=$(touch x)\n' >"$run/cluster-options"
err=$(slurm --resume "$run" --dry-run 2>&1 >/dev/null)
check "resume: a below= that is no fraction refused with file:line" has "$err" "cluster-options:2: below: '\$(touch x)' is not a fraction"
printf 'nodes=4\npartition=gpu a\n' >"$run/cluster-options"
err=$(slurm --resume "$run" --dry-run 2>&1 >/dev/null)
check "resume: a partition= with a blank refused" has "$err" "cluster-options:2: partition: 'gpu a' is not a list"
printf 'nodes=4\nbelow=1.5\n' >"$run/cluster-options"
err=$(slurm --resume "$run" --dry-run 2>&1 >/dev/null)
check "resume: below=1.5 refused" has "$err" "cluster-options:2: below: '1.5' is not a fraction"
rm "$run/cluster-options" && mkfifo "$run/cluster-options"
err=$(timeout 10 "$repo/run_all.sh" --slurm --resume "$run" --dry-run 2>&1 >/dev/null)
check "resume: a cluster-options that is a FIFO refused at once" has "$err" "no cluster-options file in it"
rm "$run/cluster-options"
printf 'nodes=4\nbogus=1\n' >"$run/cluster-options"
err=$(slurm --resume "$run" --dry-run 2>&1 >/dev/null)
check "resume: a bad cluster-options refused with file:line" has "$err" "cluster-options:2: unknown key 'bogus'"

# A crafted cluster-options: each value read back is refused as on the
# command line, in one line and exit 2, before anything is written or
# submitted (a stand-in sbatch records a submission; the report's exit
# code of the last submission stays).
mkdir -p "$tmp/slurm-bin"
printf '#!/bin/sh\necho "$*" >>"%s/submitted"; echo 1\n' "$tmp" >"$tmp/slurm-bin/sbatch"
printf '#!/bin/sh\nexit 0\n' >"$tmp/slurm-bin/squeue"
cp "$tmp/slurm-bin/squeue" "$tmp/slurm-bin/scontrol"
chmod +x "$tmp/slurm-bin/"*
resume_refused() { # what-the-error-says cluster-options-line...
    local err rc
    printf '%s\n' "${@:2}" >"$run/cluster-options"
    printf '0\n' >"$run/slurm/report-exit"
    err=$(PATH=$tmp/slurm-bin:$PATH slurm --resume "$run" 2>&1 >/dev/null)
    rc=$?
    [ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ $err == *"$1"* ]] &&
        [ ! -e "$tmp/submitted" ] && [ -e "$run/slurm/report-exit" ] ||
        { say "      got exit $rc: $err"; return 1; }
}
printf 'state=running\n' >"$run/status/n3" # a node to submit again
check "resume: an sbatch= that sets the nodes' environment refused" resume_refused \
    "cluster-options:2: sbatch: --export would change" nodes=4 "sbatch=--export=ALL,LD_PRELOAD=$tmp/x.so"
check "resume: an sbatch= crossroof gives refused" resume_refused \
    "cluster-options:2: sbatch: --chdir is crossroof" nodes=4 sbatch=--chdir=/
check "resume: an sbatch= that is no long option refused" resume_refused \
    "cluster-options:2: sbatch: '-o/tmp/x' is not an option" nodes=4 sbatch=-o/tmp/x
check "resume: a run_all= --out refused" resume_refused \
    "run_all: '--out' is not an option of the nodes' run_all.sh" nodes=4 run_all=--out "run_all=$tmp/elsewhere"
check "resume: a run_all= benchmark option --out refused" resume_refused \
    "run_all: -- BENCHMARK OPTIONS: --out is run_all.sh's to give" nodes=4 run_all=-- "run_all=--out=$tmp/x"
check "resume: a run_all= benchmark option a benchmark refuses refused" resume_refused \
    "run_all: -- BENCHMARK OPTIONS: fma-opencl refuses the options" nodes=4 run_all=--only run_all=fma run_all=-- run_all=--bogus
check "resume: a run_all= --only with an empty name refused" resume_refused \
    "run_all: --only: empty name in 'fma,'" nodes=4 run_all=--only run_all=fma,
check "resume: a db= that is no absolute path refused" resume_refused \
    "cluster-options:2: db: 'x.db' is not an absolute path" nodes=4 db=x.db
check "resume: nodes= refused as --nodes is" resume_refused \
    "cluster-options:1: nodes: '0' is not a whole number of nodes" nodes=0

[ $failures = 0 ] || { say "$failures check(s) failed"; exit 1; }
say "passed"
