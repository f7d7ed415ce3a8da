/* run_all.sh --gpu-check end to end: on a machine without a GPU it says so
 * in one line and exits 77; on stand-in CUDA benchmarks that list a device
 * it runs each with its short options and its budget, and the judge's
 * verdict decides the exit status; the peers (tools/peers.sh) run after
 * them where their executables are, held to their budget, and are in the
 * report. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"
#include "peers/tests/peer_fakes.h"

#include <time.h>

static const char *const cuda_benchmarks[] = {"stream", "bandwidth", "atomics", "regspill", "sfu", "fma", "latency",
                                              "cache"};

/* A stand-in for every CUDA benchmark: it lists one H100, records its
 * arguments, writes plausible rows, and sleeps where FAKE_SLEEP names it. */
static const char fake_script[] =
    "#!/bin/bash\n"
    "name=${0##*/}; bench=${name%-cuda}; out=''; paths=''; args=\"$*\"\n"
    "while [ $# -gt 0 ]; do case $1 in --list-devices) echo '0  NVIDIA H100 80GB HBM3'; exit 0;;"
    " --out) out=$2; shift;; --paths) paths=$2; shift;; --sizes) size=$2; shift;; esac; shift; done\n"
    "mkdir -p \"$out\"; echo \"$args\" > \"$out/$bench.args\"\n"
    "H=benchmark,backend,device,variant,dtype,sweep,size_bytes,work_items,work_group,params,bytes_per_rep,"
    "ops_per_rep,n,min_s,median_s,mean_s,max_s,stddev_s,ci_rel,timer,stop,figure,figure_best,unit,ref_ratio,valid,"
    "flags,note\n"
    "row() { echo \"$bench,cuda,NVIDIA H100 80GB HBM3,$1,$2,$3,$4,,,,,,5,1,1,1,1,0,0,event,stable,$5,,$6,,1,,\"; }\n"
    "{ echo $H; case $bench in\n"
    "stream) row triad double footprint 268435456 3010 GB/s; row triad float footprint 268435456 2950 GB/s;;\n"
    "bandwidth) if [ -n \"$paths\" ]; then for p in h2d-memcpy-pinned:52 d2h-memcpy-pinned:53 duplex-copy-pinned:100"
    " d2d-memcpy:1800; do row ${p%:*} '' size $size ${p#*:} GB/s; done\n"
    "  else row kernel-read-device '' size 1073741824 3100 GB/s; row h2d-memcpy-pinned '' size 1073741824 52 GB/s\n"
    "  row d2h-memcpy-pinned '' size 1073741824 53 GB/s; row kernel-read-managed '' size 1073741824 12 GB/s\n"
    "  row kernel-local-memory '' local-width 268435456 29100 GB/s; fi;;\n"
    "fma) row fma float concurrency 65536 60100 Gflop/s; row fma double concurrency 65536 30050 Gflop/s;;\n"
    "latency) row L2 uint64 level 16777216 140 ns; row memory uint64 level 268435456 354 ns;;\n"
    "*) row x '' fixed 1 1 GB/s;; esac; } > \"$out/$name.csv\"\n"
    "printf 'key,value\\ndevice.cache_bytes,52428800\\npeak.memory_GBps,3352.32\\npeak.float_GFLOPs,66908.2\\n"
    "peak.double_GFLOPs,33454.1\\npeak.local_GBps,33454.1\\ndevice.pcie_link_GBps,63.0154\\n'"
    " > \"$out/$name.meta.csv\"\n"
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
    snprintf(env, sizeof env, "CROSSROOF_BIN=%s CROSSROOF_TOOLS=%s/../tools CROSSROOF_PEERS=%s/no-peers", path, bin_dir,
             tmp);
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
    expect_tmp_file_has("judged/run-options", "gpu_check=1\n");
    expect_tmp_file_has("judged/run-log.csv", "\npeers,host,,,peers,skipped,77,0,gpu-check,", "no peer executables in ");
    expect_in(r.out, "peers: skipped (no peer executables in ");
    run_free(&r);
}

/* tmp/peer-bin with nvbandwidth's stand-in; returns the environment of
 * fake_bin_env() with CROSSROOF_PEERS there and FAKE_STATE for it. */
static const char *peers_env(const char *more)
{
    static char env[2048];
    char dir[300], file[400], script[sizeof nvbandwidth_fmt + 32];
    snprintf(dir, sizeof dir, "%s/peer-bin", tmp);
    sh("rm -rf %s %s/peer-state && mkdir -p %s %s/peer-state", dir, tmp, dir, tmp);
    snprintf(file, sizeof file, "%s/nvbandwidth", dir);
    snprintf(script, sizeof script, nvbandwidth_fmt, (int)getpid());
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs(script, f);
    fclose(f);
    assert_int_equal(chmod(file, 0755), 0);
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
                        "| nvbandwidth host_to_device_memcpy_ce (h2d-memcpy-pinned) 512 MiB median | 52 | 55.12 | "
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
              test_peers_run_after_the_benchmarks, test_a_failed_or_stopped_peer_fails_the_task,
              test_a_benchmark_past_its_budget_fails_and_keeps_its_rows, test_bad_usage_is_one_line_and_exit_2)
