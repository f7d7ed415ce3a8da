/* run_all.sh --gpu-check end to end: on a machine without a GPU it says so
 * in one line and exits 77; on stand-in CUDA benchmarks that list a device
 * it runs each with its short options and its budget, and the judge's
 * verdict decides the exit status; stand-ins that take an H200's times
 * (scaled down, with the budgets) pass within the check's limit, and one
 * that overruns is stopped at its budget; the peers (tools/peers.sh) run
 * after them where their executables are, held to their budget, and are in
 * the report. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"
#include "peers/tests/peer_fakes.h"

#include <time.h>

/* The CUDA benchmarks: every descriptor whose backends hold cuda (read by
 * cuda_benchmarks_of_the_tree), as run_all.sh --gpu-check finds them. */
static char cuda_benchmarks[32][32];
static size_t n_cuda;

/* The header of a results CSV, in H, and row() that writes one valid row
 * of the benchmark on DEV through backend: variant, dtype, sweep,
 * size_bytes, figure, unit and cycles. */
#define STAND_IN_ROWS(backend)                                                                                         \
    "H=benchmark,backend,device,variant,dtype,sweep,size_bytes,work_items,work_group,params,bytes_per_rep,"            \
    "ops_per_rep,n,min_s,median_s,mean_s,max_s,stddev_s,ci_rel,timer,stop,figure,figure_best,unit,ref_ratio,valid,"    \
    "flags,cycles,note\n"                                                                                              \
    "row() { echo \"$bench," backend ",$DEV,$1,$2,$3,$4,,,,,,5,1,1,1,1,0,0,event,stable,$5,,$6,,1,,$7,\"; }\n"

/* What every stand-in does first: it takes its name and --out, lists one
 * device, dev, records its arguments, and has row() write a CSV row. */
#define STAND_IN_HEAD(dev)                                                                                             \
    "#!/bin/bash\nDEV='" dev "'\n"                                                                                     \
    "name=${0##*/}; bench=${name%-cuda}; out=''; paths=''; args=\"$*\"\n"                                                        \
    "while [ $# -gt 0 ]; do case $1 in --list-devices) echo \"0  $DEV\"; exit 0;;"                                     \
    " --out) out=$2; shift;; --paths) paths=$2; shift;; --sizes) size=$2; shift;; --sweeps) sweeps=$2; shift;;"       \
    " --dtype) dtype=$2; shift;; esac; shift; done\n"                                                                  \
    "mkdir -p \"$out\"; echo \"$args\" > \"$out/$bench.args\"\n"                                                      \
    STAND_IN_ROWS("cuda")
/* What every stand-in does last: it sleeps where FAKE_SLEEP names it, a
 * minute, far past any budget. */
#define STAND_IN_TAIL "[ \"${FAKE_SLEEP:-}\" != \"$bench\" ] || sleep 60\n"

/* The row a stand-in of a benchmark the check does not judge writes: one
 * of a sweep and variant its benchmark writes (bench/<name>/descriptor:
 * the first of each where they are plain names, FAKE_SRC the tree).
 * SUFFIX follows each name in the case pattern (a slash and a star where
 * the case is of $bench/$peer). */
#define OTHER_ROWS(suffix)                                                                                             \
    "atomics" suffix ") row add uint32 degree 1 1 Mop/s;;\n"                                                            \
    "cache" suffix ") row random uint64 capacity 1 1 ns;;\n"                                                            \
    "regspill" suffix ") row live-values uint32 live 1 1 Gop/s;;\n"                                                     \
    "sfu" suffix ") row sin/precise float throughput 1 1 Gop/s;;\n"                                                     \
    "*) d=$FAKE_SRC/bench/$bench/descriptor; v=$(sed -n 's/^variants=\\([^ ]*\\).*/\\1/p' \"$d\")\n"                 \
    "  row \"$v\" float \"$(sed -n 's/^sweeps=\\([^ ]*\\).*/\\1/p' \"$d\")\" 1 1 GB/s;;\n"

/* A stand-in for every CUDA benchmark on an H100: plausible rows. */
static const char fake_script[] =
    STAND_IN_HEAD("NVIDIA H100 80GB HBM3")
    "{ echo $H; case $bench in\n"
    "stream) row triad double footprint 268435456 3010 GB/s; row triad float footprint 268435456 2950 GB/s;;\n"
    /* peers.sh asks for nvbandwidth's one size; the check for a sweep */
    "bandwidth) if [[ $size != *:* ]]; then for p in h2d-memcpy-pinned:52 d2h-memcpy-pinned:53"
    " duplex-copy-pinned:100 d2d-memcpy:1800; do row ${p%:*} '' size $size ${p#*:} GB/s; done\n"
    "  else row kernel-read-device '' size 1073741824 3100 GB/s; row h2d-memcpy-pinned '' size 1073741824 52 GB/s\n"
    "  row d2h-memcpy-pinned '' size 1073741824 53 GB/s; row kernel-read-managed '' size 1073741824 12 GB/s\n"
    "  row kernel-local-memory '' local-width 268435456 29100 GB/s; fi;;\n"
    "fma) row fma float concurrency 65536 60100 Gflop/s; row fma double concurrency 65536 30050 Gflop/s;;\n"
    "latency) row L2 uint64 level 16777216 140 ns; row memory uint64 level 268435456 354 ns;;\n"
    OTHER_ROWS("") "esac; } > \"$out/$name.csv\"\n"
    "printf 'key,value\\ndevice.cache_bytes,52428800\\npeak.memory_GBps,3352.32\\npeak.float_GFLOPs,66908.2\\n"
    "peak.double_GFLOPs,33454.1\\npeak.local_GBps,33454.1\\ndevice.pcie_link_GBps,63.0154\\n'"
    " > \"$out/$name.meta.csv\"\n" STAND_IN_TAIL;

/* A stand-in for every CUDA benchmark on an H200: the figures and limits
 * of results/reference/NVIDIA_H200 where it has them (kernel read, pinned
 * copies, L2 and memory latency, the device's limits), plausible ones
 * elsewhere. It sleeps the seconds FAKE_SECONDS gives it ("stream=0.39
 * bandwidth=0.45 ..."). */
static const char h200_script[] =
    STAND_IN_HEAD("NVIDIA H200")
    /* tools/peers.sh's calls: stream's fixed sweep, bandwidth at one size */
    "peer=0; [ \"${sweeps:-}\" != fixed ] && [[ ${size:-:} == *:* ]] || peer=1\n"
    "for kv in ${FAKE_SECONDS:-}; do [ $peer = 1 ] || [ \"${kv%%=*}\" != \"$bench\" ] || sleep \"${kv#*=}\"; done\n"
    "{ echo $H; case $bench/$peer in\n"
    "stream/1) for k in copy mul add triad dot; do row $k $dtype fixed 1 4000 GB/s; done;;\n"
    "bandwidth/1) for p in h2d-memcpy-pinned d2h-memcpy-pinned duplex-copy-pinned d2d-memcpy; do"
    " row $p '' size $size 55 GB/s; done;;\n"
    "stream/0) row triad double footprint 268435456 4050 GB/s; row triad float footprint 268435456 4030 GB/s;;\n"
    "bandwidth/0) row kernel-read-device '' size 1073741824 4093 GB/s\n"
    "  row h2d-memcpy-pinned '' size 1073741824 55.3 GB/s\n"
    "  row d2h-memcpy-pinned '' size 1073741824 55.3 GB/s; row kernel-read-managed '' size 1073741824 12 GB/s\n"
    "  row kernel-local-memory '' local-width 268435456 30100 GB/s;;\n"
    "fma/0) row fma float concurrency 65536 64100 Gflop/s; row fma double concurrency 65536 32050 Gflop/s;;\n"
    "latency/0) row L2 uint64 level 16777216 141.7 ns 280; row memory uint64 level 268435456 318.7 ns 630;;\n"
    OTHER_ROWS("/*") "esac; } > \"$out/$name.csv\"\n"
    "printf 'key,value\\ndevice.name,NVIDIA H200\\nbackend,cuda\\ndevice.cache_bytes,62914560\\n"
    "peak.memory_GBps,4814.3\\npeak.float_GFLOPs,66908.2\\n"
    "peak.double_GFLOPs,33454.1\\npeak.local_GBps,33454.1\\ndevice.pcie_link_GBps,63.0154\\n'"
    " > \"$out/$name.meta.csv\"\n" STAND_IN_TAIL;

/* stream, bandwidth and latency through OpenCL on a machine with PoCL and
 * the H200's OpenCL driver: it lists the CPU first and the GPU second, and
 * fails where it is run on anything but the GPU. It sleeps the seconds
 * FAKE_SECONDS gives it by its name ("stream-opencl=0.24 ..."). */
static const char opencl_script[] =
    "#!/bin/bash\nname=${0##*/}; bench=${name%-opencl}; out=''; dev=''; args=\"$*\"\n"
    "while [ $# -gt 0 ]; do case $1 in --list-devices)"
    " echo '0  (0:0)  pthread-cpu  [Portable Computing Language; CPU; 2 CUs; 3.8 GiB]';"
    " echo '1  (1:0)  NVIDIA H200  [NVIDIA CUDA; GPU/accelerator; 132 CUs; 139.8 GiB]'; exit 0;;"
    " --out) out=$2; shift;; --device) dev=$2; shift;; esac; shift; done\n"
    "[ \"$dev\" = 1 ] || { echo \"$name: run on device '$dev', not the GPU\" >&2; exit 1; }\n"
    "for kv in ${FAKE_SECONDS:-}; do [ \"${kv%%=*}\" != \"$name\" ] || sleep \"${kv#*=}\"; done\n"
    "mkdir -p \"$out\"; echo \"$args\" > \"$out/$name.args\"; DEV='NVIDIA H200'\n" STAND_IN_ROWS("opencl")
    "{ echo $H; case $bench in stream) row triad double footprint 268435456 3900 GB/s;;\n"
    "  bandwidth) row kernel-read-device '' size 1073741824 3950 GB/s;;\n"
    "  latency) row memory uint64 level 268435456 330 ns;; esac; } > \"$out/$name.csv\"\n"
    "printf 'key,value\\ndevice.name,NVIDIA H200\\nbackend,opencl\\n' > \"$out/$name.meta.csv\"\n";

/* An executable file at the path (printf-style) holding script. */
static void write_script(const char *script, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void write_script(const char *script, const char *fmt, ...)
{
    char file[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(file, sizeof file, fmt, ap);
    va_end(ap);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs(script, f);
    fclose(f);
    assert_int_equal(chmod(file, 0755), 0);
}

/* tmp/DIR holding the stand-ins written from script; returns the
 * environment to run run_all.sh with them and the real host tools. */
static const char *stand_in_env(const char *dir, const char *script)
{
    static char env[1024];
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp, dir);
    mkdir(path, 0777);
    for (size_t i = 0; i < n_cuda; ++i)
        write_script(script, "%s/%.31s-cuda", path, cuda_benchmarks[i]);
    snprintf(env, sizeof env, "CROSSROOF_BIN=%s CROSSROOF_TOOLS=%s/../tools CROSSROOF_PEERS=%s/no-peers FAKE_SRC=%s",
             path, bin_dir, tmp, CR_SOURCE_DIR);
    return env;
}

/* The H100 stand-ins in tmp/fake-bin. */
static const char *fake_bin_env(void) { return stand_in_env("fake-bin", fake_script); }

static run_result run_all(const char *env, const char *args)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s/run_all.sh %s", env, CR_SOURCE_DIR, args);
    return run_shell(cmd);
}

/* run_all(), failing with all it said unless it exits with status: a
 * verdict's reasons are on stdout, a script's faults on stderr. */
static run_result run_all_with_status(int status, const char *env, const char *args)
{
    run_result r = run_all(env, args);
    if (r.status != status)
        fail_msg("status %d (want %d), stdout:\n%s\nstderr:\n%s", r.status, status, r.out, r.err);
    return r;
}

static void test_no_gpu_is_one_line_and_exit_77(void **state)
{
    (void)state;
    require_no_gpu();
    require_cuda_binary("stream-cuda");
    char env[1024], args[400], out[300];
    snprintf(env, sizeof env, "CROSSROOF_BIN=%s CROSSROOF_TOOLS=%s/../tools", bin_dir, bin_dir);
    snprintf(out, sizeof out, "%s/no-gpu-run", tmp);
    snprintf(args, sizeof args, "--gpu-check --out %s", out);
    run_result r = run_all(env, args);
    /* Before it, at most the line of what is not here (nvidia-smi, gnuplot). */
    const char *said = r.out;
    if (strncmp(said, "crossroof: not found: ", 22) == 0 && strchr(said, '\n'))
        said = strchr(said, '\n') + 1;
    if (r.status != 77 || count_lines(said) != 1 || r.err[0] != '\0')
        fail_msg("status %d (want 77), stdout (want one line):\n%s\nstderr:\n%s", r.status, r.out, r.err);
    expect_in(said, "crossroof: --gpu-check: nothing to check: no GPU is visible (");
    expect_in(r.out, "and no CUDA benchmark finds a device (");
    expect_in(r.out, "no CUDA device");
    assert_null(strstr(r.out, "passed"));
    struct stat st;
    assert_int_not_equal(stat(out, &st), 0); /* nothing to keep: no run directory */
    run_free(&r);
}

/* The options each stand-in was given in tmp/DIR (less --out and
 * --device) are ones the real CUDA executable takes: listing devices after
 * them is no usage error. */
static void expect_real_executables_take(const char *dir)
{
    for (size_t i = 0; i < n_cuda; ++i) {
        char exe[64];
        snprintf(exe, sizeof exe, "%.32s-cuda", cuda_benchmarks[i]);
        if (!cuda_binary_built(exe))
            continue;
        char *args = slurp_tmp("%s/%.31s.args", dir, cuda_benchmarks[i]);
        char *out = strstr(args, " --out ");
        assert_non_null(out);
        *out = '\0';
        char with[1024];
        snprintf(with, sizeof with, "%.900s --list-devices", args);
        run_result r = run(NULL, exe, with);
        if (r.status != 0 && r.status != 77)
            fail_msg("%s %s: status %d, stderr:\n%s", exe, with, r.status, r.err);
        run_free(&r);
        free(args);
    }
}

static void test_each_benchmark_runs_short_and_is_judged(void **state)
{
    (void)state;
    char args[300];
    snprintf(args, sizeof args, "--gpu-check --out %s/judged", tmp);
    run_result r = run_all_with_status(0, fake_bin_env(), args);
    expect_in(r.out, "crossroof: gpu-check run in ");
    expect_in(r.out, "gpu-check: passed: ");
    expect_tmp_file_has("judged/gpu-check.txt", "triad double", "3010 GB/s", "gpu-check: passed: ");
    expect_tmp_file_has("judged/run-log.csv",
                        "stream-cuda,cuda,0,NVIDIA H100 80GB HBM3,cuda-0-NVIDIA_H100_80GB_HBM3,passed,0,",
                        ",gpu-check,");
    expect_tmp_file_has("judged/cuda-0-NVIDIA_H100_80GB_HBM3/stream.args", "--sweeps footprint --reps 5:20",
                        "--device 0");
    expect_tmp_file_has("judged/cuda-0-NVIDIA_H100_80GB_HBM3/latency.args", "--quick --out ");
    /* bandwidth: the paths the rules judge and the headline ones, not all */
    expect_tmp_file_has("judged/cuda-0-NVIDIA_H100_80GB_HBM3/bandwidth.args",
                        "--sizes 1M:1G:x32 --paths h2d-memcpy-pinned,d2h-memcpy-pinned,kernel-read-device,"
                        "kernel-read-managed,duplex-copy-pinned,d2d-memcpy,kernel-write-device,kernel-local-memory "
                        "--reps 5:20");
    expect_tmp_file_has("judged/run-options", "gpu_check=1\n");
    expect_tmp_file_has("judged/run-log.csv", "\npeers,host,,,peers,skipped,77,0,gpu-check,", "no peer executables in ");
    expect_in(r.out, "peers: skipped (no peer executables in ");
    run_free(&r);
    expect_real_executables_take("judged/cuda-0-NVIDIA_H100_80GB_HBM3");
}

/* tmp/peer-bin with nvbandwidth's stand-in; returns the environment of
 * fake_bin_env() with CROSSROOF_PEERS there and FAKE_STATE for it. */
static const char *peers_env(const char *more)
{
    static char env[2048];
    char dir[300], script[sizeof nvbandwidth_fmt + 32];
    snprintf(dir, sizeof dir, "%s/peer-bin", tmp);
    sh("rm -rf %s %s/peer-state && mkdir -p %s %s/peer-state", dir, tmp, dir, tmp);
    snprintf(script, sizeof script, nvbandwidth_fmt, (int)getpid());
    write_script(script, "%s/nvbandwidth", dir);
    snprintf(env, sizeof env, "%s %s FAKE_STATE=%s/peer-state CROSSROOF_PEERS=%s", fake_bin_env(), more, tmp, dir);
    return env;
}

/* After the benchmarks: nvbandwidth beside bandwidth-cuda on the device
 * the check ran on, its ratio table in <run>/peers/ and in the report,
 * recorded as the task peers; no device of its own anywhere. h2d: 52 GB/s
 * in both slices against 55.12, 0.9434. */
static void test_peers_run_after_the_benchmarks(void **state)
{
    (void)state;
    char args[300];
    snprintf(args, sizeof args, "--gpu-check --out %s/with-peers", tmp);
    run_result r = run_all_with_status(0, peers_env(""), args);
    expect_in(r.out, "peers on NVIDIA H100 80GB HBM3: passed in ");
    expect_tmp_file_has("with-peers/run-log.csv", "\npeers,host,0,NVIDIA H100 80GB HBM3,peers,passed,0,");
    expect_tmp_file_has("with-peers/peers/peers.csv",
                        "\nnvbandwidth,host_to_device_memcpy_ce,h2d-memcpy-pinned,,536870912,median,52,55.12,GB/s,"
                        "0.9434,10,6,2,,\n");
    expect_tmp_file_has("peer-state/args", "nvbandwidth -b 512 -i 3 -t host_to_device_memcpy_ce ");
    expect_tmp_file_has("with-peers/peers/nvbandwidth/slice1/crossroof/bandwidth.args", "--sizes 536870912 ",
                        "--device 0 --out ");
    expect_tmp_file_has("with-peers/report.md", "## Peers\n",
                        "| nvbandwidth host&#95;to&#95;device&#95;memcpy&#95;ce (h2d-memcpy-pinned) 512 MiB median | 52 | 55.12 | "
                        "0.9434 | 10 | 6 | 2 |");
    char *md = slurp_tmp("with-peers/report.md");
    assert_null(strstr(md, "Results in peers/"));
    free(md);
    char path[400];
    snprintf(path, sizeof path, "%s/with-peers/peers/energy-levels.csv", tmp);
    assert_int_not_equal(access(path, F_OK), 0);
    run_free(&r);
    /* Its link to peers/peers.csv reads as the report read it. */
    snprintf(path, sizeof path, "--check %s/with-peers", tmp);
    r = run_with_status(0, NULL, "../tools/report", path);
    expect_in(r.out, "linked file(s): ok");
    run_free(&r);
}

/* A peer run that fails fails the task, its first error the reason; one
 * that never ends is stopped at the budget like a benchmark, fails with
 * 124, and nothing of it is left running. */
static void test_a_failed_or_stopped_peer_fails_the_task(void **state)
{
    (void)state;
    static const struct {
        const char *run, *env, *status, *reason;
    } cases[] = {
        {"peers-failed", "FAKE_NVB_ERROR=device_local_copy", "failed,1,",
         ",exit 1: nvbandwidth: slice 1: no figure for device_local_copy (it said: Error: cuMemHostAlloc failed) "
         "(log: "},
        {"peers-slow", "FAKE_SLOW=1 CROSSROOF_GPU_CHECK_BUDGET_S=2", "failed,124,",
         ",timed out: stopped at its budget of 2 s\n"},
    };
    for (size_t i = 0; i < countof(cases); ++i) {
        char args[300], log[300], row[200];
        snprintf(args, sizeof args, "--gpu-check --out %s/%s", tmp, cases[i].run);
        time_t t0 = time(NULL);
        run_result r = run_all_with_status(1, peers_env(cases[i].env), args);
        assert_true(time(NULL) - t0 < 60);
        expect_in(r.out, "FAILED   peers on NVIDIA H100 80GB HBM3: ");
        snprintf(log, sizeof log, "%s/run-log.csv", cases[i].run);
        snprintf(row, sizeof row, "\npeers,host,0,NVIDIA H100 80GB HBM3,peers,%s", cases[i].status);
        expect_tmp_file_has(log, row, cases[i].reason);
        run_free(&r);
    }
    char probe[128];
    snprintf(probe, sizeof probe, "pgrep -f 'slee[p] 61.%d' >/dev/null", (int)getpid());
    assert_int_not_equal(system(probe), 0);
}

static void test_a_benchmark_past_its_budget_fails_and_keeps_its_rows(void **state)
{
    (void)state;
    char env[1200], args[300];
    snprintf(env, sizeof env, "FAKE_SLEEP=regspill CROSSROOF_GPU_CHECK_BUDGET_S=2 %s", fake_bin_env());
    snprintf(args, sizeof args, "--gpu-check --out %s/timed-out", tmp);
    run_result r = run_all_with_status(1, env, args);
    expect_in(r.out, "regspill-cuda on NVIDIA H100 80GB HBM3: failed");
    expect_in(r.out, "gpu-check: FAILED: ");
    expect_tmp_file_has("timed-out/run-log.csv",
                        "regspill-cuda,cuda,0,NVIDIA H100 80GB HBM3,cuda-0-NVIDIA_H100_80GB_HBM3,failed,124,",
                        "timed out: stopped at its budget of 2 s; the rows it completed are kept");
    expect_tmp_file_has("timed-out/cuda-0-NVIDIA_H100_80GB_HBM3/regspill-cuda.csv", "regspill,cuda,");
    expect_tmp_file_has("timed-out/gpu-check.txt", "FAILED: failed (exit 124): timed out");
    run_free(&r);
}

/* ---- the check's time on an H200, with stand-ins ---- */

/* Seconds each CUDA benchmark takes on an H200 (run_all.sh's comment on
 * the budgets, scaled from results/reference/NVIDIA_H200). A benchmark not
 * timed there yet is taken at half its budget (its descriptor's, else
 * run_all.sh's 60 s): a budget is twice or more what a benchmark takes,
 * and a stand-in sleeping all of it would be stopped there. */
static const struct {
    const char *name;
    double seconds;
} h200_seconds[] = {{"stream", 13}, {"bandwidth", 15}, {"atomics", 30}, {"regspill", 20},
                    {"sfu", 28},    {"fma", 6},        {"latency", 2},  {"cache", 15}};

static double h200_seconds_of(const char *bench)
{
    for (size_t i = 0; i < countof(h200_seconds); ++i)
        if (strcmp(h200_seconds[i].name, bench) == 0)
            return h200_seconds[i].seconds;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "sed -n 's/^\\(cuda_\\)\\{0,1\\}gpu_check_seconds=//p' '%.600s/bench/%.32s/descriptor' | tail -1",
             CR_SOURCE_DIR, bench);
    run_result r = run_shell(cmd);
    double budget = r.out[0] ? atof(r.out) : 60;
    run_free(&r);
    return budget / 2;
}

/* Through OpenCL on the same GPU: run_all.sh's comment on their budgets. */
static const char *const opencl_benchmarks[] = {"stream", "bandwidth", "latency"};
static const double h200_opencl_seconds[] = {9, 9, 3};
/* The stand-ins sleep this percentage of those seconds, and run_all.sh's
 * budgets are scaled alike (CROSSROOF_GPU_CHECK_BUDGET_PERCENT): a run of
 * a few seconds that stands for the real one. */
#define STAND_IN_PERCENT 3
/* On an H100 or H200 the whole check ends within 8 minutes: its tasks
 * (the CUDA benchmarks, OpenCL on the GPU, the peers) within their 450 s
 * of budgets, the CUDA benchmarks within their 350 s, and the check's own
 * work (run_all.sh, the verdict, the report) within the 30 s left. That
 * work is the same with stand-ins and on a GPU machine: it is not scaled. */
#define CHECK_LIMIT_S 480.0
#define TASKS_LIMIT_S 450.0
#define CUDA_LIMIT_S 350.0
#define scaled(seconds) ((seconds)*STAND_IN_PERCENT / 100)

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* run_all.sh --gpu-check --out tmp/RUN with the H200 stand-ins at their
 * scaled times, more given in extra (an environment assignment or ""),
 * failing unless it exits with status; *seconds gets how long it took. */
static run_result run_h200_check(const char *run, const char *extra, int status, double *seconds)
{
    char env[3072], args[300], times[512] = "";
    for (size_t i = 0; i < n_cuda; ++i)
        snprintf(times + strlen(times), sizeof times - strlen(times), "%s%.31s=%.3f", i ? " " : "", cuda_benchmarks[i],
                 scaled(h200_seconds_of(cuda_benchmarks[i])));
    for (size_t i = 0; i < countof(opencl_benchmarks); ++i)
        snprintf(times + strlen(times), sizeof times - strlen(times), " %s-opencl=%.3f", opencl_benchmarks[i],
                 scaled(h200_opencl_seconds[i]));
    const char *bin_env = stand_in_env("h200-bin", h200_script);
    for (size_t i = 0; i < countof(opencl_benchmarks); ++i)
        write_script(opencl_script, "%s/h200-bin/%s-opencl", tmp, opencl_benchmarks[i]);
    sh("rm -rf %s/h200-peers %s/h200-peer-state && mkdir -p %s/h200-peers %s/h200-peer-state", tmp, tmp, tmp, tmp);
    char nvbandwidth[sizeof nvbandwidth_fmt + 32];
    snprintf(nvbandwidth, sizeof nvbandwidth, nvbandwidth_fmt, (int)getpid());
    write_script(nvbandwidth, "%s/h200-peers/nvbandwidth", tmp);
    write_script(cuda_stream, "%s/h200-peers/cuda-stream", tmp);
    snprintf(env, sizeof env,
             "FAKE_SECONDS='%s' CROSSROOF_GPU_CHECK_BUDGET_PERCENT=%d %s %s CROSSROOF_PEERS=%s/h200-peers "
             "FAKE_STATE=%s/h200-peer-state",
             times, STAND_IN_PERCENT, bin_env, extra, tmp, tmp);
    snprintf(args, sizeof args, "--gpu-check --out %s/%s", tmp, run);
    double start = now_s();
    run_result r = run_all(env, args);
    *seconds = now_s() - start;
    if (r.status != status) {
        /* The run log first: cmocka cuts a long message, and it says which task ended how. */
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/run-log.csv", tmp, run);
        char *log = csv_slurp(path);
        fail_msg("status %d (want %d); run-log.csv:\n%.1800s\nstderr: %.600s", r.status, status,
                 log ? log : "(none)", r.err);
    }
    return r;
}

/* What run-log.csv of tmp/RUN gives the tasks: their seconds, all and
 * the CUDA benchmarks', summed, and that of the one stopped at its budget
 * (-1: none). */
typedef struct {
    double tasks, cuda, timed_out;
} task_seconds;

static task_seconds run_log_seconds(const char *run)
{
    char *text = slurp_tmp("%s/run-log.csv", run);
    task_seconds t = {0, 0, -1};
    const char *p = text;
    csv_record rec; /* task, backend, index, device, dir, status, exit_code, seconds, ... */
    assert_int_equal(csv_next(&p, rec), 11);
    assert_string_equal(rec[7], "seconds");
    int n, rows = 0;
    while ((n = csv_next(&p, rec)) > 0) {
        assert_int_equal(n, 11);
        ++rows;
        double s = atof(rec[7]);
        t.tasks += s;
        if (strcmp(rec[1], "cuda") == 0)
            t.cuda += s;
        if (strcmp(rec[6], "124") == 0)
            t.timed_out = s;
    }
    assert_int_equal(n, 0);
    /* the CUDA benchmarks, OpenCL's three and the peers */
    assert_int_equal(rows, (int)(n_cuda + countof(opencl_benchmarks) + 1));
    free(text);
    return t;
}

/* The check's time against its limits (above); "" when within them. */
static const char *over_limits(task_seconds t, double wall)
{
    static char why[256];
    snprintf(why, sizeof why,
             "the CUDA benchmarks took %.2f s (limit %.2f), all tasks %.2f s (limit %.2f), "
             "the check's own work %.2f s (limit %.0f)",
             t.cuda, scaled(CUDA_LIMIT_S), t.tasks, scaled(TASKS_LIMIT_S), wall - t.tasks,
             CHECK_LIMIT_S - TASKS_LIMIT_S);
    bool over = t.cuda > scaled(CUDA_LIMIT_S) || t.tasks > scaled(TASKS_LIMIT_S) ||
                wall - t.tasks > CHECK_LIMIT_S - TASKS_LIMIT_S;
    return over ? why : "";
}

/* Every CUDA benchmark taking what it takes on an H200 passes within its
 * budget, and so do stream, bandwidth and latency through OpenCL on the
 * GPU and the peers (BabelStream's and nvbandwidth's stand-ins, which take
 * no time of their own here), all within the limits above, and the
 * verdict's table is printed. */
static void test_h200_check_ends_within_its_limit(void **state)
{
    (void)state;
    double wall;
    run_result r = run_h200_check("h200", "", 0, &wall);
    expect_all_in(r.out, "gpu-check: passed: ", "triad double", "4050 GB/s", "H2D pinned", "55.3 GB/s", "FMA double",
                  "L2 latency", "280 cycles", "memory latency", "local memory", "peers on NVIDIA H200: passed");
    for (size_t i = 0; i < n_cuda; ++i) {
        char line[128];
        snprintf(line, sizeof line, "%.31s-cuda on NVIDIA H200: passed", cuda_benchmarks[i]);
        expect_in(r.out, line);
    }
    /* OpenCL on the GPU, not on the CPU device listed first */
    for (size_t i = 0; i < countof(opencl_benchmarks); ++i) {
        char line[128];
        snprintf(line, sizeof line, "%s-opencl on NVIDIA H200: passed", opencl_benchmarks[i]);
        expect_in(r.out, line);
    }
    assert_null(strstr(r.out, "pthread-cpu"));
    expect_tmp_file_has("h200/opencl-1-NVIDIA_H200/stream-opencl.args", "--sweeps footprint --reps 5:20",
                        "--device 1");
    expect_tmp_file_has("h200/opencl-1-NVIDIA_H200/bandwidth-opencl.args", "--paths h2d-write-pinned,");
    /* the two APIs side by side, and the peers, in the report */
    expect_tmp_file_has("h200/report.md", "## One device, two APIs", "**NVIDIA H200: cuda and opencl**", "## Peers");
    expect_tmp_file_has("h200/peers/peers.csv", "\nbabelstream-cuda,", "\nnvbandwidth,");
    task_seconds t = run_log_seconds("h200");
    const char *over = over_limits(t, wall);
    if (*over)
        fail_msg("%s", over);
    assert_true(t.timed_out < 0);
    run_free(&r);
}

/* One stand-in runs on past its budget (cache's 40 s, scaled: 1.2 s): it is
 * stopped there, not after the 60 s it would sleep, recorded as timed out
 * with exit 124, the check fails and still ends within its limit. The stop
 * may take the poll's 0.2 s and the SIGTERM's grace (5 s) on a loaded
 * machine. */
static void test_h200_overrun_is_stopped_at_its_budget(void **state)
{
    (void)state;
    double wall;
    run_result r = run_h200_check("h200-overrun", "FAKE_SLEEP=cache", 1, &wall);
    expect_all_in(r.out, "cache-cuda on NVIDIA H200: failed", "gpu-check: FAILED: ", "triad double");
    expect_tmp_file_has("h200-overrun/run-log.csv", "cache-cuda,cuda,0,NVIDIA H200,cuda-0-NVIDIA_H200,failed,124,",
                        "timed out: stopped at its budget of 1.2 s; the rows it completed are kept");
    expect_tmp_file_has("h200-overrun/gpu-check.txt", "FAILED: failed (exit 124): timed out");
    task_seconds t = run_log_seconds("h200-overrun");
    const char *over = over_limits(t, wall);
    if (t.timed_out < 1.2 || t.timed_out > 1.2 + 0.2 + 5 + 2 || *over)
        fail_msg("cache-cuda stopped after %.2f s (budget 1.2 s); %s", t.timed_out, over);
    run_free(&r);
}

static void test_bad_usage_is_one_line_and_exit_2(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"--gpu-check --quick", "--gpu-check runs its own short configuration; --quick cannot change it"},
        {"--gpu-check --only stream", "--gpu-check runs every CUDA benchmark; --only cannot change that"},
        {"--gpu-check -- --reps 3", "--gpu-check chooses the benchmarks' options; -- cannot change them"},
    };
    for (size_t i = 0; i < countof(cases); ++i) {
        run_result r = run_all(fake_bin_env(), cases[i][0]);
        if (r.status != 2 || count_lines(r.err) != 1 || strstr(r.err, cases[i][1]) == NULL || r.out[0] != '\0')
            fail_msg("%s: status %d (want 2), stderr: %s (want one line '%s')", cases[i][0], r.status, r.err,
                     cases[i][1]);
        run_free(&r);
    }
    static const char *const knobs[][2] = {
        {"CROSSROOF_GPU_CHECK_BUDGET_S=soon", "CROSSROOF_GPU_CHECK_BUDGET_S: 'soon' is not a whole number of seconds"},
        {"CROSSROOF_GPU_CHECK_BUDGET_PERCENT=0",
         "CROSSROOF_GPU_CHECK_BUDGET_PERCENT: '0' is not a whole number of percent (1 to 999999)"},
        {"CROSSROOF_GPU_CHECK_BUDGET_PERCENT='a[$(id>&2)]'",
         "CROSSROOF_GPU_CHECK_BUDGET_PERCENT: 'a[$(id>&2)]' is not a whole number of percent"},
    };
    for (size_t i = 0; i < countof(knobs); ++i) {
        char env[1200];
        snprintf(env, sizeof env, "%s %s", knobs[i][0], fake_bin_env());
        run_result r = run_all(env, "--gpu-check");
        if (r.status != 2 || count_lines(r.err) != 1 || strstr(r.err, knobs[i][1]) == NULL)
            fail_msg("%s: status %d (want 2), stderr: %s", knobs[i][0], r.status, r.err);
        run_free(&r);
    }
}

/* What it prints must arrive: into a full disk or a closed stdout it is
 * one line and exit 1, not exit 0 with the output lost. */
static void test_unwritable_stdout_of_the_tool_fails(void **state)
{
    (void)state;
    expect_output_must_arrive("../tools/gpu-check", "--rules");
}

/* run_all.sh's --help, and a whole run's progress, summary and verdict,
 * into a full disk or a closed stdout: one line, exit 1, the run's files
 * all written. */
static void test_unwritable_stdout_fails_the_run(void **state)
{
    (void)state;
    static const char *const cases[][3] = {
        {"--help", ">/dev/full", "No space left on device"},
        {"--help", ">&-", "Bad file descriptor"},
        {"--gpu-check --out %s/lost", ">/dev/full", "No space left on device"},
    };
    for (size_t i = 0; i < countof(cases); ++i) {
        char args[300], cmd[2000], want[200];
        snprintf(args, sizeof args, cases[i][0], tmp);
        snprintf(cmd, sizeof cmd, "( %s %s/run_all.sh %s %s )", fake_bin_env(), CR_SOURCE_DIR, args, cases[i][1]);
        snprintf(want, sizeof want, "run_all.sh: error: cannot write standard output: %s\n", cases[i][2]);
        run_result r = run_shell(cmd);
        if (r.status != 1 || strcmp(r.err, want) != 0)
            fail_msg("%s %s: status %d (want 1), stderr:\n%s(want the one line %s)", args, cases[i][1], r.status,
                     r.err, want);
        run_free(&r);
    }
    expect_tmp_file_has("lost/summary.txt", "crossroof summary (");
    expect_tmp_file_has("lost/gpu-check.txt", "gpu-check: passed: ");
}

/* The CUDA benchmarks of the tree, before the tests. */
static int cuda_benchmarks_of_the_tree(void **state)
{
    if (setup(state) != 0)
        return -1;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "(cd '%s' && grep -l '^backends=.*cuda' bench/*/descriptor | cut -d/ -f2)",
             CR_SOURCE_DIR);
    run_result r = run_shell(cmd);
    n_cuda = 0;
    for (char *line = strtok(r.out, "\n"); line && n_cuda < countof(cuda_benchmarks); line = strtok(NULL, "\n"))
        snprintf(cuda_benchmarks[n_cuda++], sizeof cuda_benchmarks[0], "%s", line);
    run_free(&r);
    return n_cuda > 0 ? 0 : -1;
}

TEST_MAIN(cuda_benchmarks_of_the_tree, teardown, test_no_gpu_is_one_line_and_exit_77,
          test_each_benchmark_runs_short_and_is_judged, test_peers_run_after_the_benchmarks,
          test_a_failed_or_stopped_peer_fails_the_task, test_a_benchmark_past_its_budget_fails_and_keeps_its_rows,
          TIMED(test_h200_check_ends_within_its_limit), TIMED(test_h200_overrun_is_stopped_at_its_budget),
          test_bad_usage_is_one_line_and_exit_2, test_unwritable_stdout_of_the_tool_fails,
          test_unwritable_stdout_fails_the_run)
