/* run_all.sh --gpu-check end to end: on a machine without a GPU it says so
 * in one line and exits 77; on stand-in CUDA benchmarks that list a device
 * it runs each with its short options and its budget, and the judge's
 * verdict decides the exit status. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

static const char *const cuda_benchmarks[] = {"stream", "bandwidth", "atomics", "regspill", "sfu", "fma", "latency",
                                              "cache"};

/* A stand-in for every CUDA benchmark: it lists one H100, records its
 * arguments, writes plausible rows, and sleeps where FAKE_SLEEP names it. */
static const char fake_script[] =
    "#!/bin/bash\n"
    "name=${0##*/}; bench=${name%-cuda}; out=''; args=\"$*\"\n"
    "while [ $# -gt 0 ]; do case $1 in --list-devices) echo '0  NVIDIA H100 80GB HBM3'; exit 0;;"
    " --out) out=$2; shift;; esac; shift; done\n"
    "echo \"$args\" > \"$out/$bench.args\"\n"
    "H=benchmark,backend,device,variant,dtype,sweep,size_bytes,work_items,work_group,params,bytes_per_rep,"
    "ops_per_rep,n,min_s,median_s,mean_s,max_s,stddev_s,ci_rel,timer,stop,figure,figure_best,unit,ref_ratio,valid,"
    "flags,note\n"
    "row() { echo \"$bench,cuda,NVIDIA H100 80GB HBM3,$1,$2,$3,$4,,,,,,5,1,1,1,1,0,0,event,stable,$5,,$6,,1,,\"; }\n"
    "{ echo $H; case $bench in\n"
    "stream) row triad double footprint 268435456 3010 GB/s; row triad float footprint 268435456 2950 GB/s;;\n"
    "bandwidth) row kernel-read-device '' size 1073741824 3100 GB/s; row h2d-memcpy-pinned '' size 1073741824 52 GB/s\n"
    "  row d2h-memcpy-pinned '' size 1073741824 53 GB/s; row kernel-read-managed '' size 1073741824 12 GB/s;;\n"
    "fma) row fma float concurrency 65536 60100 Gflop/s; row fma double concurrency 65536 30050 Gflop/s;;\n"
    "latency) row L2 uint64 level 16777216 140 ns; row memory uint64 level 268435456 620 ns;;\n"
    "*) row x '' fixed 1 1 GB/s;; esac; } > \"$out/$name.csv\"\n"
    "printf 'key,value\\ndevice.cache_bytes,52428800\\npeak.memory_GBps,3352.32\\npeak.float_GFLOPs,66908.2\\n"
    "peak.double_GFLOPs,33454.1\\ndevice.pcie_link_GBps,63.0154\\n' > \"$out/$name.meta.csv\"\n"
    "[ \"${FAKE_SLEEP:-}\" != \"$bench\" ] || sleep 60\n";

/* tmp/fake-bin holding the stand-ins; returns the environment to run
 * run_all.sh with them and the real host tools. */
static const char *fake_bin_env(void)
{
    static char env[1024];
    char path[512];
    snprintf(path, sizeof path, "%s/fake-bin", tmp);
    mkdir(path, 0777);
    for (size_t i = 0; i < countof(cuda_benchmarks); ++i) {
        char file[700];
        snprintf(file, sizeof file, "%s/%s-cuda", path, cuda_benchmarks[i]);
        FILE *f = fopen(file, "w");
        assert_non_null(f);
        fputs(fake_script, f);
        fclose(f);
        assert_int_equal(chmod(file, 0755), 0);
    }
    snprintf(env, sizeof env, "CROSSROOF_BIN=%s CROSSROOF_TOOLS=%s/../tools", path, bin_dir);
    return env;
}

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
    char env[1200];
    snprintf(env, sizeof env, "CROSSROOF_GPU_CHECK_BUDGET_S=soon %s", fake_bin_env());
    run_result r = run_all(env, "--gpu-check");
    if (r.status != 2 || count_lines(r.err) != 1 ||
        strstr(r.err, "CROSSROOF_GPU_CHECK_BUDGET_S: 'soon' is not a whole number of seconds") == NULL)
        fail_msg("status %d (want 2), stderr: %s", r.status, r.err);
    run_free(&r);
}

CLI_TEST_MAIN(test_no_gpu_is_one_line_and_exit_77, test_each_benchmark_runs_short_and_is_judged,
              test_a_benchmark_past_its_budget_fails_and_keeps_its_rows, test_bad_usage_is_one_line_and_exit_2)
