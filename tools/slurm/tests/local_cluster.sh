#!/usr/bin/env bash
# The Slurm path for real: a private cluster on this machine (munged,
# slurmctld and four slurmd, each its own node on its own port of
# localhost), the quick suite submitted through run_all.sh --slurm, and the
# cluster report checked:
#   n1, n2  run the suite; n2's fma figures cut to a tenth in a copy of the
#           run: the report of the copy names n2 an outlier
#   n3      fma-opencl made to fail there: reported failed
#   n4      its second benchmark hangs, and its run_all.sh gets SIGTERM as from
#           scancel: reported interrupted (though its first benchmark passed),
#           then --resume submits n4 alone, and it completes
#   n1, n2  then --gpus-per-node 2, on two stand-in GPUs each: four runs,
#           each task with its own CUDA_VISIBLE_DEVICES
# Run as root (make check-slurm). Needs slurm-wlm and munge (common/deps.sh
# --slurm installs them), CROSSROOF_BIN and CROSSROOF_TOOLS (default build/),
# with crossroof-db among the tools. Everything lives in a temporary
# directory (SLURM_CONF points there); every daemon is stopped at the end.
# Exit status: 0 passed, 1 failed, 77 the daemons cannot run here (why on
# stderr). CROSSROOF_SLURM_KEEP=1 keeps the temporary directory.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd) || exit 1
say() { printf 'local_cluster: %s\n' "$*"; }
skip() { printf 'local_cluster: skipped: %s\n' "$*" >&2; exit 77; }
failures=0
check() { # description command...
    if "${@:2}"; then say "ok    $1"; else say "FAIL  $1"; failures=$((failures + 1)); fi
}

# ---- can the daemons run here? ----
[ "$(id -u)" = 0 ] || skip "munged, slurmctld and slurmd are started as root here (run as root: make check-slurm)"
for t in munged munge slurmctld slurmd sbatch squeue sinfo scontrol ss; do
    command -v "$t" >/dev/null || skip "$t not found: install slurm-wlm and munge (common/deps.sh --slurm)"
done
bin=${CROSSROOF_BIN:-$repo/build/bin}
tools=${CROSSROOF_TOOLS:-${CROSSROOF_BIN:+$CROSSROOF_BIN/../tools}}
tools=${tools:-$repo/build/tools}
for b in fma-opencl latency-opencl stream-opencl; do
    [ -x "$bin/$b" ] || { say "FAIL  $bin/$b is not built"; exit 1; }
done
. "$repo/tools/slurm/lib.sh"
db_tool=$(db_tool_in "$tools") || { say "FAIL  no results database tool (crossroof-db) in $tools: no cluster report"; exit 1; }

tmp=$(mktemp -d /tmp/crossroof-slurm.XXXXXX) || exit 1
chmod 755 "$tmp"
export SLURM_CONF=$tmp/slurm.conf
nodes=(n1 n2 n3 n4)
# Each daemon by the pid it wrote, then the directory.
stop_all() {
    local p pid t ids
    # Jobs still there (a failed check): cancelled, so that no step outlives its slurmd.
    ids=$(squeue -h -o %i 2>/dev/null | paste -sd' ')
    if [ -n "$ids" ]; then
        scancel $ids 2>/dev/null
        for ((t = 0; t < 40; t++)); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.5; done
    fi
    for p in "$tmp"/slurmd-*.pid "$tmp/slurmctld.pid" "$tmp/munge/munged.pid"; do
        [ -f "$p" ] && IFS= read -r pid <"$p" && [[ $pid =~ ^[0-9]+$ ]] || continue
        kill -TERM "$pid" 2>/dev/null || continue
        for ((t = 0; t < 50; t++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null
    done
    if [ "${CROSSROOF_SLURM_KEEP:-0}" = 1 ]; then say "kept $tmp"; else rm -rf -- "$tmp"; fi
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Ports: six in a row that nothing listens on.
free_base() {
    local base p used
    used=$(ss -Htln 2>/dev/null | awk '{ n = split($4, a, ":"); print a[n] }')
    for ((base = 17000 + RANDOM % 20000; ; base += 7)); do
        for ((p = base; p < base + 6; p++)); do grep -qx "$p" <<<"$used" && continue 2; done
        echo "$base"
        return
    done
}
base=$(free_base)

# ---- munge ----
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/log" && chmod 711 "$tmp/munge" || exit 1
head -c 1024 /dev/urandom >"$tmp/munge/munge.key" && chmod 400 "$tmp/munge/munge.key" || exit 1
munged --force --socket="$tmp/munge/socket" --key-file="$tmp/munge/munge.key" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/seed" ||
    skip "munged would not start: $(tail -n 1 "$tmp/log/munged.log" 2>/dev/null)"
munge -S "$tmp/munge/socket" -n | unmunge -S "$tmp/munge/socket" >/dev/null 2>&1 ||
    skip "munge credentials do not round-trip: $(tail -n 1 "$tmp/log/munged.log" 2>/dev/null)"

# ---- slurm.conf: four nodes on one host, each slurmd on its own port ----
# n1 and n2 each have two GPUs where four block devices can stand in for
# them: Slurm sets CUDA_VISIBLE_DEVICES from a GPU's place among its node's
# devices, which must be devices (loop devices are).
fake_gpus=1
for d in /dev/loop0 /dev/loop1 /dev/loop2 /dev/loop3; do [ -b "$d" ] || fake_gpus=0; done
gres=("" "")
if [ $fake_gpus = 1 ]; then
    gres=(" Gres=gpu:2" " Gres=gpu:2")
    printf 'NodeName=n1 Name=gpu File=/dev/loop[0-1]\nNodeName=n2 Name=gpu File=/dev/loop[2-3]\n' >"$tmp/gres.conf"
fi
{
    cat <<CONF
ClusterName=crossroof-test
SlurmctldHost=localhost
SlurmctldPort=$base
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd-%n.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MinJobAge=600
SlurmdParameters=config_overrides
GresTypes=gpu
CONF
    for i in "${!nodes[@]}"; do
        echo "NodeName=${nodes[i]} NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((base + 1 + i)) CPUs=2${gres[i]:-} RealMemory=1000 State=UNKNOWN"
    done
    echo "PartitionName=test Nodes=$(IFS=,; echo "${nodes[*]}") Default=YES MaxTime=INFINITE State=UP"
} >"$SLURM_CONF"

slurmctld -f "$SLURM_CONF" || skip "slurmctld would not start: $(tail -n 1 "$tmp/log/slurmctld.log" 2>/dev/null)"
for n in "${nodes[@]}"; do
    mkdir -p "$tmp/spool/$n"
    # -N: one slurmd per node name on this one host
    slurmd -f "$SLURM_CONF" -N "$n" || skip "slurmd -N $n would not start: $(tail -n 1 "$tmp/log/slurmd-$n.log" 2>/dev/null)"
done
for ((t = 0; t < 60; t++)); do
    idle=$(sinfo -h -N -o '%N %t' 2>/dev/null | awk '$2 == "idle"' | wc -l)
    [ "$idle" = ${#nodes[@]} ] && break
    sleep 0.5
done
[ "$idle" = ${#nodes[@]} ] || skip "the nodes did not come up in 30 s: $(sinfo -h -N -o '%N %t %E' 2>&1 | tr '\n' ';')"
say "cluster up: slurmctld on port $base, ${nodes[*]} each a slurmd ($(slurmctld -V))"

# ---- the fixture benchmarks: the real ones, with one planted failure and one hang ----
mkdir -p "$tmp/bin"
cat >"$tmp/fixture.sh" <<'FIXTURE'
#!/usr/bin/env bash
# fixture.sh STATE_DIR REAL_BINARY ARGS...: the benchmark, except on the nodes
# where the test makes it fail or hang (a run, not a listing or run_all.sh's
# check of the options).
state=$1 real=$2
shift 2
name=${real##*/}
if [ "${1:-}" != --list-devices ] && [ "${1:-}" != --check-options ]; then
    case ${SLURMD_NODENAME:-}:$name in
        n3:fma-opencl) echo "$name: error: failure planted by the cluster test" >&2; exit 1 ;;
        n4:latency-opencl) if [ -e "$state/hang" ]; then : >"$state/hanging"; exec sleep 600; fi ;;
    esac
fi
exec "$real" "$@"
FIXTURE
chmod +x "$tmp/fixture.sh"
for b in "$bin"/*; do
    [ -f "$b" ] && [ -x "$b" ] || continue
    printf '#!/bin/sh\nexec %q %q %q "$@"\n' "$tmp/fixture.sh" "$tmp" "$b" >"$tmp/bin/${b##*/}"
    chmod +x "$tmp/bin/${b##*/}"
done
export CROSSROOF_BIN=$tmp/bin CROSSROOF_TOOLS=$tools

# The nodes are processes of this one machine, and each sizes its sweeps to
# the whole of it: where the last-level cache is large (260 MiB on one host)
# the quick latency walk alone took 4 GiB on every node, and four at once
# were killed for memory. Each node's OpenCL device gets half of its share
# of the machine's memory (PoCL reads the limit in whole GB).
mem_gb=$(awk '/^MemTotal:/ { print int($2 / 1048576) }' /proc/meminfo)
pocl_gb=$((mem_gb / (2 * ${#nodes[@]})))
export POCL_MEMORY_LIMIT=$((pocl_gb > 0 ? pocl_gb : 1))

# ---- the cluster run ----
run="$tmp/cluster run"
only=fma-opencl,latency-opencl,stream-opencl
: >"$tmp/hang"
say "submitting the quick suite ($only) on ${#nodes[@]} nodes"
# The benchmarks' own option after the second --: kept for every node and
# its --resume (the quick repetitions stay: the planted outlier below needs
# figures that agree across nodes).
"$repo/run_all.sh" --slurm --nodes ${#nodes[@]} --quick --only "$only" --below 0.8 \
    --db "$tmp/cluster.db" --out "$run" -- -- --warmup 2 ||
    { say "FAIL  run_all.sh --slurm would not submit"; exit 1; }

# n4 hangs in its second benchmark: its run_all.sh gets what scancel sends.
for ((t = 0; t < 600; t++)); do [ -e "$tmp/hanging" ] && break; sleep 0.5; done
pid=""
[ -e "$tmp/hanging" ] && IFS= read -r pid <"$run/nodes/n4/run_all.lock"
check "n4 hangs in its second benchmark" test -n "$pid"
[ -z "$pid" ] || kill -TERM "$pid"
rm -f -- "$tmp/hang"

# Until every job of the run has left the queue.
wait_jobs() {
    local ids t
    ids=$(tail -n +2 "$run/jobs.csv" | cut -d, -f3 | paste -sd,)
    for ((t = 0; t < 900; t++)); do
        [ -z "$(squeue -h -o %i -j "$ids" 2>/dev/null)" ] && return 0
        sleep 1
    done
    say "FAIL  jobs $ids still in the queue after 15 min"
    return 1
}
wait_jobs || exit 1

state_of() { awk -F, -v n="$1" '$1 == n { print $2 }' "$run/nodes.csv"; }
says() { grep -q -- "$2" "$1"; }
node_line() { grep -i -- "$2" "$1" | grep -qi -- "$3"; } # file node what
check "nodes.csv: n1 passed" test "$(state_of n1)" = passed
check "nodes.csv: n2 passed" test "$(state_of n2)" = passed
check "nodes.csv: n3 failed" test "$(state_of n3)" = failed
check "nodes.csv: n4 interrupted" test "$(state_of n4)" = interrupted
check "nodes.csv: n4's run_all.sh ended by SIGTERM (exit 143)" \
    test "$(awk -F, '$1 == "n4" { print $3 }' "$run/nodes.csv")" = 143
check "every node ran in its own directory" test -s "$run/nodes/n1/run-log.csv" -a -s "$run/nodes/n2/run-log.csv" -a -s "$run/nodes/n3/run-log.csv"
report=$run/cluster-report.md
check "the report job wrote cluster-report.md and .csv" test -s "$report" -a -s "$run/cluster-report.csv"
check "the report job drew the headline across the nodes" test -s "$run/cluster-report-headline.png"
check "the report names n3 failed, with the benchmark" node_line "$report" "| n3 |" "failed.*fma-opencl"
check "the report names n4 interrupted, exit 143" node_line "$report" "| n4 |" "interrupted.*exit 143"
check "the report does not name n1 or n2 as not ok" sh -c "! grep -E '^\\| n[12] \\| (failed|interrupted|missing)' \"\$1\"" - "$report"
say "the first report:"; sed 's/^/    /' "$report"

# ---- --resume: n4 alone, and it completes ----
"$repo/run_all.sh" --slurm --resume "$run" --wait >"$tmp/resume.out" 2>&1
check "--resume --wait exit 0" test $? = 0
check "--resume submitted n4 alone" test "$(cat "$run/slurm/submission-2.nodes" 2>/dev/null)" = n4
check "jobs.csv: the second submission on n4" says "$run/jobs.csv" '^2,nodes,[0-9]*,n4,'
check "nodes.csv: n4 passed after the resume" test "$(state_of n4)" = passed
check "nodes.csv: n3 still failed (complete: not run again)" test "$(state_of n3)" = failed
check "n4's run finished its own directory (--resume)" says "$run/slurm/n4.out" "run_all.sh' '--resume'"
check "n4's run kept the benchmarks' options (--warmup 2)" says "$run/nodes/n4/run-options" '^extra=--warmup$'
check "n4's resumed run ran what the SIGTERM stopped or kept from starting" \
    test "$(grep -c ',interrupted,' "$run/nodes/n4/run-log.csv")" -ge 1 -a \
    "$(awk -F, '$1 == "latency-opencl" { s = $6 } END { print s }' "$run/nodes/n4/run-log.csv")" = passed
check "the new report has n4's figures" node_line "$run/cluster-report.csv" "^n4," "fma"

# ---- a planted outlier: n2's fma figures cut to a tenth, in a copy ----
# A tenth, not a half: the nodes share this machine's cores while they run,
# and their fma figures were seen to differ by up to 2x from that alone, so a
# halved figure could sit inside the others' spread.
planted="$tmp/planted run"
cp -a -- "$run" "$planted"
rm -f -- "$planted/cluster-report.md" "$planted/cluster-report.csv"
python3 - "$planted"/nodes/n2/*/fma-opencl.csv <<'PY' || { say "FAIL  cannot plant the outlier in $planted/nodes/n2"; exit 1; }
import csv, sys
for path in sys.argv[1:]:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
        fields = list(rows[0].keys())
    for r in rows:
        for k in ("figure", "figure_best"):
            if r[k]:
                r[k] = repr(float(r[k]) * 0.1)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
PY
"$db_tool" --db "$tmp/planted.db" cluster-report "$planted" --below 0.8 >"$tmp/planted.out" 2>&1
check "crossroof-db cluster-report on the planted run: exit 0" test $? = 0
check "the planted report names n2 an outlier on fma" node_line "$planted/cluster-report.md" "^| n2 |" "| fma fma "
check "the planted report's CSV has n2 fma as an outlier" node_line "$planted/cluster-report.csv" "^n2,.*fma" "outlier"
# The value named is the measured one cut to a tenth: the plant, not the noise.
fma_of() { awk -F, '$1 == "n2" && $3 == "fma" && $5 == "double" { print $7 }' "$1"; }
measured=$(fma_of "$run/cluster-report.csv") planted_fma=$(fma_of "$planted/cluster-report.csv")
check "the outlier named is n2's measured fma cut to a tenth ($measured -> $planted_fma)" \
    awk -v m="$measured" -v h="$planted_fma" 'BEGIN { exit !(m > 0 && h > 0 && (h / m - 0.1) ^ 2 < 1e-10) }'
"$repo/plot/plot.sh" "$planted" >"$tmp/planted-plot.out" 2>&1
check "the planted run's headline figure is drawn" test -s "$planted/cluster-report-headline.png"
check "n2's fma outliers: both data types" test "$(grep -c '^n2,[^,]*,fma,.*,outlier,' "$planted/cluster-report.csv")" = 2
say "the planted report:"; sed 's/^/    /' "$planted/cluster-report.md"

# ---- one run per GPU: two nodes of two GPUs each ----
if [ $fake_gpus = 1 ]; then
    per_gpu="$tmp/per gpu"
    "$repo/run_all.sh" --slurm --nodes 2 --gpus-per-node 2 --quick --only fma-opencl \
        --db "$tmp/per-gpu.db" --out "$per_gpu" --wait >"$tmp/per-gpu.out" 2>&1
    check "per GPU: --wait exit 0" test $? = 0
    states=$(tail -n +2 "$per_gpu/nodes.csv" | cut -d, -f1,2 | sort | paste -sd' ')
    check "per GPU: a run for each GPU of n1 and n2, each passed ($states)" \
        test "$states" = "n1-gpu0,passed n1-gpu1,passed n2-gpu0,passed n2-gpu1,passed"
    visible() { grep '^cuda_visible_devices=' "$per_gpu/status/$1" | cut -d= -f2; }
    check "per GPU: each task of a node saw its own GPU ($(visible n1-gpu0), $(visible n1-gpu1))" \
        test -n "$(visible n1-gpu0)" -a -n "$(visible n1-gpu1)" -a "$(visible n1-gpu0)" != "$(visible n1-gpu1)"
    runs=$(awk -F, '$3 == "fma" && $5 == "float" { print $1 }' "$per_gpu/cluster-report.csv" | sort | paste -sd' ')
    check "per GPU: the report has fma float of the four runs ($runs)" test "$runs" = "n1-gpu0 n1-gpu1 n2-gpu0 n2-gpu1"
else
    say "not run: one run per GPU (no /dev/loop0 to /dev/loop3 to stand in for GPUs)"
fi

if [ $failures -gt 0 ]; then
    say "$failures check(s) failed; logs: $tmp/log, $run/slurm (CROSSROOF_SLURM_KEEP=1 keeps them)"
    exit 1
fi
say "passed"
