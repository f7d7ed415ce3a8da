/* run_all.sh --gpu-check end to end: on a machine without a GPU it says so
 * in one line and exits 77; on stand-in CUDA benchmarks that list a device
 * it runs each with its short options and its budget, and the judge's
 * verdict decides the exit status; stand-ins that take an H200's times
 * (scaled down, with the budgets) pass within the check's limit, and one
 * that overruns is stopped at its budget. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

#include <time.h>

static const char *const cuda_benchmarks[] = {"stream", "bandwidth", "atomics", "regspill", "sfu", "fma", "latency",
                                              "cache"};

/* What every stand-in does first: it takes its name and --out, lists one
 * device, dev, records its arguments, and has row() write a CSV row. */
#define STAND_IN_HEAD(dev)                                                                                             \
    "#!/bin/bash\nDEV='" dev "'\n"                                                                                     \
    "name=${0##*/}; bench=${name%-cuda}; out=''; args=\"$*\"\n"                                                        \
    "while [ $# -gt 0 ]; do case $1 in --list-devices) echo \"0  $DEV\"; exit 0;;"                                     \
    " --out) out=$2; shift;; esac; shift; done\n"                                                                      \
    "echo \"$args\" > \"$out/$bench.args\"\n"                                                                          \
    "H=benchmark,backend,device,variant,dtype,sweep,size_bytes,work_items,work_group,params,bytes_per_rep,"            \
    "ops_per_rep,n,min_s,median_s,mean_s,max_s,stddev_s,ci_rel,timer,stop,figure,figure_best,unit,ref_ratio,valid,"    \
    "flags,cycles,note\n"                                                                                              \
    "row() { echo \"$bench,cuda,$DEV,$1,$2,$3,$4,,,,,,5,1,1,1,1,0,0,event,stable,$5,,$6,,1,,$7,\"; }\n"
/* What every stand-in does last: it sleeps where FAKE_SLEEP names it, a
 * minute, far past any budget. */
#define STAND_IN_TAIL "[ \"${FAKE_SLEEP:-}\" != \"$bench\" ] || sleep 60\n"

/* A stand-in for every CUDA benchmark on an H100: plausible rows. */
static const char fake_script[] =
    STAND_IN_HEAD("NVIDIA H100 80GB HBM3")
    "{ echo $H; case $bench in\n"
    "stream) row triad double footprint 268435456 3010 GB/s; row triad float footprint 268435456 2950 GB/s;;\n"
    "bandwidth) row kernel-read-device '' size 1073741824 3100 GB/s; row h2d-memcpy-pinned '' size 1073741824 52 GB/s\n"
    "  row d2h-memcpy-pinned '' size 1073741824 53 GB/s; row kernel-read-managed '' size 1073741824 12 GB/s;;\n"
    "fma) row fma float concurrency 65536 60100 Gflop/s; row fma double concurrency 65536 30050 Gflop/s;;\n"
    "latency) row L2 uint64 level 16777216 140 ns; row memory uint64 level 268435456 620 ns;;\n"
    "*) row x '' fixed 1 1 GB/s;; esac; } > \"$out/$name.csv\"\n"
    "printf 'key,value\\ndevice.cache_bytes,52428800\\npeak.memory_GBps,3352.32\\npeak.float_GFLOPs,66908.2\\n"
    "peak.double_GFLOPs,33454.1\\ndevice.pcie_link_GBps,63.0154\\n' > \"$out/$name.meta.csv\"\n" STAND_IN_TAIL;

/* A stand-in for every CUDA benchmark on an H200: the figures and limits
 * of results/reference/NVIDIA_H200 where it has them (kernel read, pinned
 * copies, L2 latency, the device's limits), plausible ones elsewhere; the
 * memory latency inside the rule's range, which the H200's own 319 ns at
 * 4x L2 falls below. It sleeps the seconds FAKE_SECONDS gives it
 * ("stream=0.39 bandwidth=0.45 ..."). */
static const char h200_script[] =
    STAND_IN_HEAD("NVIDIA H200")
    "for kv in ${FAKE_SECONDS:-}; do [ \"${kv%%=*}\" != \"$bench\" ] || sleep \"${kv#*=}\"; done\n"
    "{ echo $H; case $bench in\n"
    "stream) row triad double footprint 268435456 4050 GB/s; row triad float footprint 268435456 4030 GB/s;;\n"
    "bandwidth) row kernel-read-device '' size 1073741824 4093 GB/s; row h2d-memcpy-pinned '' size 1073741824 55.3 GB/s\n"
    "  row d2h-memcpy-pinned '' size 1073741824 55.3 GB/s; row kernel-read-managed '' size 1073741824 12 GB/s;;\n"
    "fma) row fma float concurrency 65536 64100 Gflop/s; row fma double concurrency 65536 32050 Gflop/s;;\n"
    "latency) row L2 uint64 level 16777216 141.7 ns 280; row memory uint64 level 268435456 450 ns;;\n"
    "*) row x '' fixed 1 1 GB/s;; esac; } > \"$out/$name.csv\"\n"
    "printf 'key,value\\ndevice.cache_bytes,62914560\\npeak.memory_GBps,4814.3\\npeak.float_GFLOPs,66908.2\\n"
    "peak.double_GFLOPs,33454.1\\ndevice.pcie_link_GBps,63.0154\\n' > \"$out/$name.meta.csv\"\n" STAND_IN_TAIL;

/* tmp/DIR holding the stand-ins written from script; returns the
 * environment to run run_all.sh with them and the real host tools. */
static const char *stand_in_env(const char *dir, const char *script)
{
    static char env[1024];
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp, dir);
    mkdir(path, 0777);
    for (size_t i = 0; i < countof(cuda_benchmarks); ++i) {
        char file[700];
        snprintf(file, sizeof file, "%s/%s-cuda", path, cuda_benchmarks[i]);
        FILE *f = fopen(file, "w");
        assert_non_null(f);
        fputs(script, f);
        fclose(f);
        assert_int_equal(chmod(file, 0755), 0);
    }
    snprintf(env, sizeof env, "CROSSROOF_BIN=%s CROSSROOF_TOOLS=%s/../tools", path, bin_dir);
    return env;
}

/* The H100 stand-ins in tmp/fake-bin. */
static const char *fake_bin_env(void) { return stand_in_env("fake-bin", fake_script); }

static run_result run_all(const char *env, const char *args)
{
    char cmd[2048];
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

/* A file the run left under tmp holds each of the texts (the failure shows
 * the whole file, so it says which one lacks what). */
static void expect_tmp_file_has_(const char *name, const char *const *texts, size_t n)
{
    char *text = slurp_tmp("%s", name);
    expect_all_in_(text, texts, n);
    free(text);
}
#define expect_tmp_file_has(name, ...) expect_tmp_file_has_(name, TEXTS(__VA_ARGS__))

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
    if (r.status != 77 || count_lines(r.out) != 1 || r.err[0] != '\0')
        fail_msg("status %d (want 77), stdout (want one line):\n%s\nstderr:\n%s", r.status, r.out, r.err);
    expect_in(r.out, "crossroof: --gpu-check: nothing to check: no GPU is visible (");
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
    for (size_t i = 0; i < countof(cuda_benchmarks); ++i) {
        char exe[64];
        snprintf(exe, sizeof exe, "%s-cuda", cuda_benchmarks[i]);
        if (!cuda_binary_built(exe))
            continue;
        char *args = slurp_tmp("%s/%s.args", dir, cuda_benchmarks[i]);
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
    run_free(&r);
    expect_real_executables_take("judged/cuda-0-NVIDIA_H100_80GB_HBM3");
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
 * the budgets, scaled from results/reference/NVIDIA_H200), the order being
 * cuda_benchmarks'. */
static const double h200_seconds[] = {13, 15, 30, 20, 28, 6, 2, 15};
/* The stand-ins sleep this percentage of those seconds, and run_all.sh's
 * budgets are scaled alike (CROSSROOF_GPU_CHECK_BUDGET_PERCENT): a run of
 * a few seconds that stands for the real one. */
#define STAND_IN_PERCENT 3
/* On an H100 or H200 the whole check ends within 8 minutes, the CUDA
 * benchmarks within 330 s of them. */
#define CHECK_LIMIT_S 480.0
#define CUDA_LIMIT_S 330.0

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
    char env[2048], args[300], times[256] = "";
    for (size_t i = 0; i < countof(cuda_benchmarks); ++i)
        snprintf(times + strlen(times), sizeof times - strlen(times), "%s%s=%.3f", i ? " " : "", cuda_benchmarks[i],
                 h200_seconds[i] * STAND_IN_PERCENT / 100);
    snprintf(env, sizeof env, "FAKE_SECONDS='%s' CROSSROOF_GPU_CHECK_BUDGET_PERCENT=%d %s %s", times,
             STAND_IN_PERCENT, extra, stand_in_env("h200-bin", h200_script));
    snprintf(args, sizeof args, "--gpu-check --out %s/%s", tmp, run);
    double start = now_s();
    run_result r = run_all_with_status(status, env, args);
    *seconds = now_s() - start;
    return r;
}

/* The seconds run-log.csv of tmp/RUN gives the CUDA benchmarks, summed;
 * *timed_out gets that of the one stopped at its budget (or stays). */
static double cuda_seconds(const char *run, double *timed_out)
{
    char *text = slurp_tmp("%s/run-log.csv", run);
    double sum = 0;
    for (size_t i = 0; i < countof(cuda_benchmarks); ++i) {
        char start[64];
        snprintf(start, sizeof start, "\n%s-cuda,cuda,", cuda_benchmarks[i]);
        const char *p = strstr(text, start);
        assert_non_null(p);
        ++p;
        csv_record rec; /* task, backend, index, device, dir, status, exit_code, seconds, ... */
        assert_int_equal(csv_next(&p, rec), 11);
        sum += atof(rec[7]);
        if (strcmp(rec[6], "124") == 0)
            *timed_out = atof(rec[7]);
    }
    free(text);
    return sum;
}

/* Every CUDA benchmark taking what it takes on an H200 passes within its
 * budget; they take less than their 330 s and the whole check less than
 * its 8 minutes (scaled), and the verdict's table is printed. */
static void test_h200_check_ends_within_its_limit(void **state)
{
    (void)state;
    double wall, timed_out = -1;
    run_result r = run_h200_check("h200", "", 0, &wall);
    expect_all_in(r.out, "gpu-check: passed: ", "triad double", "4050 GB/s", "H2D pinned", "55.3 GB/s", "FMA double",
                  "L2 latency", "280 cycles", "memory latency");
    for (size_t i = 0; i < countof(cuda_benchmarks); ++i) {
        char line[128];
        snprintf(line, sizeof line, "%s-cuda on NVIDIA H200: passed", cuda_benchmarks[i]);
        expect_in(r.out, line);
    }
    double cuda = cuda_seconds("h200", &timed_out);
    if (cuda > CUDA_LIMIT_S * STAND_IN_PERCENT / 100 || wall > CHECK_LIMIT_S * STAND_IN_PERCENT / 100)
        fail_msg("the CUDA benchmarks took %.2f s (limit %.2f), the check %.2f s (limit %.2f)", cuda,
                 CUDA_LIMIT_S * STAND_IN_PERCENT / 100, wall, CHECK_LIMIT_S * STAND_IN_PERCENT / 100);
    assert_true(timed_out < 0);
    run_free(&r);
}

/* One stand-in runs on past its budget (cache's 40 s, scaled: 1.2 s): it is
 * stopped there, recorded as timed out with exit 124, the check fails and
 * still ends within its limit. */
static void test_h200_overrun_is_stopped_at_its_budget(void **state)
{
    (void)state;
    double wall, stopped = -1;
    run_result r = run_h200_check("h200-overrun", "FAKE_SLEEP=cache", 1, &wall);
    expect_all_in(r.out, "cache-cuda on NVIDIA H200: failed", "gpu-check: FAILED: ", "triad double");
    expect_tmp_file_has("h200-overrun/run-log.csv", "cache-cuda,cuda,0,NVIDIA H200,cuda-0-NVIDIA_H200,failed,124,",
                        "timed out: stopped at its budget of 1.2 s; the rows it completed are kept");
    expect_tmp_file_has("h200-overrun/gpu-check.txt", "FAILED: failed (exit 124): timed out");
    double cuda = cuda_seconds("h200-overrun", &stopped);
    if (stopped < 1.2 || stopped > 1.2 + 2 || wall > CHECK_LIMIT_S * STAND_IN_PERCENT / 100)
        fail_msg("cache-cuda stopped after %.2f s (budget 1.2 s); the CUDA benchmarks took %.2f s, the check %.2f s",
                 stopped, cuda, wall);
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

CLI_TEST_MAIN(test_no_gpu_is_one_line_and_exit_77, test_each_benchmark_runs_short_and_is_judged,
              test_a_benchmark_past_its_budget_fails_and_keeps_its_rows, test_h200_check_ends_within_its_limit,
              test_h200_overrun_is_stopped_at_its_budget, test_bad_usage_is_one_line_and_exit_2)
