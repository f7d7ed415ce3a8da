/* tools/peers.sh end to end on stand-ins of both suites: the ratios of
 * each CUDA mode against hand-computed values, the order the suites run in
 * (alternating by slice), how each side's output is read, the budget that
 * stops a mode (its rows then say so, or it fails where no slice
 * completed, and the other mode's rows are still written), a peer or a
 * crossroof run that fails, no device, a signal to peers.sh alone, and bad
 * usage. The peers' stand-ins are in peer_fakes.h, which says where the
 * output they print comes from. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"
#include "peers/tests/peer_fakes.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#ifndef CR_SOURCE_DIR
#define CR_SOURCE_DIR "."
#endif

/* The results header (common/results.c), for the crossroof stand-ins. */
#define RESULTS_HEADER                                                                                                  \
    "benchmark,backend,device,variant,dtype,sweep,size_bytes,work_items,work_group,params,bytes_per_rep,ops_per_rep,"  \
    "n,min_s,median_s,mean_s,max_s,stddev_s,ci_rel,timer,stop,figure,figure_best,unit,ref_ratio,valid,flags,note"

/* stream-cuda: the fixed sweep's rows of each kernel; slice 1 at min
 * 1 ms and mean 2 ms, slice 2 at 0.8 ms and 3 ms, n the repetitions asked. */
static const char stream_cuda[] =
    FAKE_PROLOGUE
    "out=. dtype= size= reps=\n"
    "while [ $# -gt 0 ]; do case $1 in --out) out=$2;; --dtype) dtype=$2;; --size) size=$2;; --reps) reps=${2%%:*};;"
    " esac; shift; done\n"
    "min=0.001 mean=0.002; [ $slice = 1 ] || { min=0.0008 mean=0.003; }\n"
    "mkdir -p \"$out\"; { echo '" RESULTS_HEADER "'\n"
    "for k in copy mul add triad dot; do\n"
    "  echo \"stream,cuda,Fake GPU,$k,$dtype,fixed,$size,,,,,,$reps,$min,$min,$mean,0.01,0,0,event,fixed,1,1,GB/s,,1,,\"\n"
    "  echo \"stream,cuda,Fake GPU,$k,$dtype,footprint,$size,,,,,,$reps,1,1,1,1,0,0,event,fixed,1,1,GB/s,,1,,\"\n"
    "done; } > \"$out/stream-cuda.csv\"\n";

/* bandwidth-cuda: the four paths at the size asked (h2d 52 GB/s in slice
 * 1, 54 in 2; d2h 53; duplex 100, both directions; d2d FAKE_D2D or 1800),
 * and the rows peers.sh must not take: the host's, another size's, the
 * matrix's. */
static const char bandwidth_cuda[] =
    FAKE_PROLOGUE
    "out=. size= reps=\n"
    "while [ $# -gt 0 ]; do case $1 in --out) out=$2;; --sizes) size=$2;; --reps) reps=${2%%:*};; esac; shift; done\n"
    "h2d=52; [ $slice = 1 ] || h2d=54\n"
    "row() { echo \"bandwidth,$1,Fake,$2,,$3,$4,,,,$4,,$reps,0.01,0.01,0.01,0.01,0,0,event,fixed,$5,$5,GB/s,1,1,,\"; }\n"
    "mkdir -p \"$out\"; { echo '" RESULTS_HEADER "'\n"
    "row host host-memcpy-1thread size $size 9; row cuda h2d-memcpy-pinned size 1048576 7\n"
    "row cuda h2d-memcpy-pinned size $size $h2d; row cuda d2h-memcpy-pinned size $size 53\n"
    "row cuda duplex-copy-pinned size $size 100; row cuda d2d-memcpy size $size ${FAKE_D2D:-1800}\n"
    "row cuda d2d-memcpy matrix $size 3; } > \"$out/bandwidth-cuda.csv\"\n";

static void put_script(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", tmp, dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
}

/* tmp/bin and tmp/peers with the stand-ins, tmp/state empty. */
static void make_fakes(void)
{
    sh("rm -rf %s/state %s/out && mkdir -p %s/bin %s/peers %s/state", tmp, tmp, tmp, tmp, tmp);
    put_script("bin", "stream-cuda", stream_cuda);
    put_script("bin", "bandwidth-cuda", bandwidth_cuda);
    put_script("peers", "cuda-stream", cuda_stream);
    put_script("bin", "stream-opencl", stream_opencl);
    char nvb[sizeof nvbandwidth_fmt + 32];
    snprintf(nvb, sizeof nvb, nvbandwidth_fmt, (int)getpid());
    put_script("peers", "nvbandwidth", nvb);
}

/* peers.sh ARGS with ENV, the stand-ins' state and bin directory given,
 * its stdout sent where redirect says ("": taken). */
static run_result peers_to(const char *env, const char *args, const char *redirect)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "( cd %s && env FAKE_STATE=%s/state %s timeout -k 5 60 %s/tools/peers.sh --bin bin %s %s )",
             tmp, tmp, env ? env : "", CR_SOURCE_DIR, args, redirect);
    return run_shell(cmd);
}

/* peers_to(), its stdout taken, failing with all it said unless it exits
 * with status want. */
static run_result peers(int want, const char *env, const char *args)
{
    run_result r = peers_to(env, args, "");
    if (r.status != want)
        fail_msg("peers.sh %s: status %d (want %d)\nstdout:\n%s\nstderr:\n%s", args, r.status, want, r.out, r.err);
    return r;
}

/* The stand-ins' calls, one line. */
static char *calls(void)
{
    char *text = slurp_tmp("state/calls");
    for (char *p = text; *p; ++p)
        if (*p == '\n')
            *p = ' ';
    return text;
}

/* Best: 0.8 ms against 1 ms, ratio 1.25; mean: (2 + 3) / 2 ms pooled
 * against 2.5 ms, ratio 1. GB/s of BabelStream's bytes: triad at 1024
 * floats moves 3 x 4 KiB = 12288 B, 12288 / 0.8 ms = 0.01536 GB/s; dot at
 * 2048 doubles 2 x 16 KiB = 32768 B, / 1 ms = 0.032768 GB/s; copy at 1024
 * doubles 16384 B over the mean 2.5 ms, 0.0065536 GB/s on both sides. */
static void test_babelstream_cuda_ratios_and_order(void **state)
{
    (void)state;
    make_fakes();
    run_result r = peers(0, "FAKE_COMBOS=4",
                                     "--babelstream-cuda peers/cuda-stream --cuda-elements 1024,2048 --cuda-reps 4 "
                                     "--out out");
    expect_tmp_file_has("out/peers.csv",
                    "suite,test,crossroof_test,dtype,size_bytes,statistic,crossroof,peer,unit,ratio,n_crossroof,n_peer,"
                    "slices,flags,note\n",
                    "\nbabelstream-cuda,triad,triad,float,4096,best,0.01536,0.012288,GB/s,1.2500,8,8,2,,\n",
                    "\nbabelstream-cuda,triad,triad,float,4096,mean,0.0049152,0.0049152,GB/s,1.0000,8,8,2,,\n",
                    "\nbabelstream-cuda,dot,dot,double,16384,best,0.04096,0.032768,GB/s,1.2500,8,8,2,,\n",
                    "\nbabelstream-cuda,copy,copy,double,8192,mean,0.0065536,0.0065536,GB/s,1.0000,8,8,2,,\n");
    char *text = slurp_tmp("out/peers.csv");
    assert_int_equal(count_lines(text), 1 + 2 * 5 * 4);
    free(text);
    /* Per slice, length by data type, which suite goes first alternating. */
    char *order = calls();
    assert_string_equal(order, "cuda-stream stream-cuda stream-cuda cuda-stream cuda-stream stream-cuda stream-cuda "
                               "cuda-stream stream-cuda cuda-stream cuda-stream stream-cuda stream-cuda cuda-stream "
                               "cuda-stream stream-cuda ");
    free(order);
    expect_tmp_file_has("state/args", "cuda-stream --arraysize 1024 --numtimes 5 --device 0 --csv --float\n",
                    "cuda-stream --arraysize 2048 --numtimes 5 --device 0 --csv\n",
                    "stream-cuda --sweeps fixed --dtype double --size 16384 --host-ref off --energy off --reps 4:4 ");
    expect_in(r.out, "babelstream-cuda triad                                    float");
    expect_in(r.out, "1.250x");
    run_free(&r);
}

/* h2d: the median of 52 and 54 against 55.12, 0.9615; d2h 53 / 53; the
 * duplex's 100 halved against the bidirectional 48, 1.0417; d2d 1800 /
 * 1750.5, 1.0283 (and 4000 / 1750.5, 2.2851, flagged far apart). */
static void test_nvbandwidth_ratios_counting_and_device(void **state)
{
    (void)state;
    make_fakes();
    run_result r = peers(0, NULL, "--nvbandwidth peers/nvbandwidth --device 1 --out out");
    expect_tmp_file_has("out/peers.csv",
                    "\nnvbandwidth,host_to_device_memcpy_ce,h2d-memcpy-pinned,,536870912,median,53,55.12,GB/s,0.9615,"
                    "6,6,2,,\n",
                    "\nnvbandwidth,device_to_host_memcpy_ce,d2h-memcpy-pinned,,536870912,median,53,53,GB/s,1.0000,6,6,"
                    "2,,\n",
                    "\nnvbandwidth,host_to_device_bidirectional_memcpy_ce,duplex-copy-pinned,,536870912,median,50,48,"
                    "GB/s,1.0417,6,6,2,,\"crossroof's duplex figure halved: one direction's bytes",
                    "\nnvbandwidth,device_local_copy,d2d-memcpy,,536870912,median,1800,1750.5,GB/s,1.0283,6,6,2,,\n");
    char *order = calls();
    assert_string_equal(order, "bandwidth-cuda nvbandwidth nvbandwidth bandwidth-cuda ");
    free(order);
    expect_tmp_file_has("state/args",
                    "bandwidth-cuda --paths h2d-memcpy-pinned,d2h-memcpy-pinned,duplex-copy-pinned,d2d-memcpy "
                    "--sizes 536870912 --reps 3:3 ",
                    "--device 1 --out out/nvbandwidth/slice1/crossroof\n",
                    "nvbandwidth -b 512 -i 3 -t host_to_device_memcpy_ce device_to_host_memcpy_ce "
                    "host_to_device_bidirectional_memcpy_ce device_local_copy\n");
    run_free(&r);
    /* nvbandwidth is shown the one device: the second of those already visible. */
    make_fakes();
    sh("cd %s && printf '#!/bin/sh\\necho \"$CUDA_VISIBLE_DEVICES\" > state/visible\\nexec \"$0.real\" \"$@\"\\n' > v && "
       "mv peers/nvbandwidth peers/nvbandwidth.real && mv v peers/nvbandwidth && chmod +x peers/nvbandwidth", tmp);
    r = peers(0, "CUDA_VISIBLE_DEVICES=GPU-aaa,GPU-bbb FAKE_D2D=4000",
                          "--nvbandwidth peers/nvbandwidth --device 1 --samples 2 --out out");
    expect_tmp_file_has("state/visible", "GPU-bbb\n");
    expect_tmp_file_has("out/peers.csv", ",median,4000,1750.5,GB/s,2.2851,4,4,2,far-apart,the suites are more than 2x apart");
    run_free(&r);
}

/* nvbandwidth's second run sleeps: the budget of 3 s stops it, slice 2 is
 * left out, the rows are slice 1's (52 / 55.12) and say so. On its first
 * run, no slice completes: the mode fails, and the BabelStream mode's rows
 * are still written. */
static void test_budget_stops_a_mode(void **state)
{
    (void)state;
    make_fakes();
    time_t t0 = time(NULL);
    run_result r = peers(0, "FAKE_SLOW=2", "--nvbandwidth peers/nvbandwidth --nvbandwidth-budget 3 --out out");
    assert_true(time(NULL) - t0 < 15);
    expect_tmp_file_has("out/peers.csv",
                    "\nnvbandwidth,host_to_device_memcpy_ce,h2d-memcpy-pinned,,536870912,median,52,55.12,GB/s,0.9434,"
                    "3,3,1,,stopped at its budget after 1 of 2 slices\n");
    run_free(&r);
    char probe[128];
    snprintf(probe, sizeof probe, "pgrep -f 'slee[p] 61.%d' >/dev/null", (int)getpid());
    assert_int_not_equal(system(probe), 0); /* the stopped run is gone */

    make_fakes();
    r = peers(1, "FAKE_SLOW=1",
                          "--nvbandwidth peers/nvbandwidth --nvbandwidth-budget 2 --babelstream-cuda peers/cuda-stream "
                          "--cuda-elements 1024 --dtype float --cuda-reps 4 --out out");
    expect_in(r.err, "peers.sh: error: nvbandwidth: its budget of 2 s ended before one slice completed (logs in out/nvbandwidth)\n");
    expect_tmp_file_has("out/peers.csv", "\nbabelstream-cuda,triad,triad,float,4096,best,0.01536,0.012288,GB/s,1.2500,");
    char *text = slurp_tmp("out/peers.csv");
    assert_null(strstr(text, "nvbandwidth,"));
    free(text);
    run_free(&r);
}

/* A peer whose check fails, a testcase that fails, a crossroof run that
 * fails: exit 1, one line naming the run and its log. */
static void test_failed_runs(void **state)
{
    (void)state;
    make_fakes();
    run_result r = peers(1, "FAKE_BS_FAIL=1",
                                     "--babelstream-cuda peers/cuda-stream --cuda-elements 1024 --dtype float --out out");
    expect_in(r.err, "peers.sh: error: babelstream-cuda: babelstream 1024 float, slice 1 failed: FAILED validation of "
                     "a[0]: 0.1 (is) != 0.2 (should)");
    expect_in(r.err, "(log: out/babelstream-cuda/slice1/babelstream-1024-float.log)\n");
    run_free(&r);
    make_fakes();
    r = peers(1, "FAKE_NVB_ERROR=host_to_device_bidirectional_memcpy_ce",
                          "--nvbandwidth peers/nvbandwidth --out out");
    expect_in(r.err, "peers.sh: error: nvbandwidth: slice 1: no figure for host_to_device_bidirectional_memcpy_ce "
                     "(it said: Error: cuMemHostAlloc failed) (log: out/nvbandwidth/slice1/nvbandwidth.log)\n");
    run_free(&r);
    make_fakes();
    sh("printf '#!/bin/sh\\necho \"bandwidth-cuda: error: h2d-memcpy-pinned: destination differs\" >&2\\nexit 1\\n' > "
       "%s/bin/bandwidth-cuda", tmp);
    r = peers(1, NULL, "--nvbandwidth peers/nvbandwidth --out out");
    expect_in(r.err, "nvbandwidth: crossroof, slice 1, failed: bandwidth-cuda: error: h2d-memcpy-pinned: destination "
                     "differs (log: out/nvbandwidth/slice1/crossroof.log)\n");
    run_free(&r);
}

/* The OpenCL mode on a BabelStream that prints no times (garbage, a crash
 * message) beside a stream-opencl that writes its five kernels: exit 1 and
 * one line naming the output, never a table of missing rows. */
static void test_opencl_peer_without_times_fails(void **state)
{
    (void)state;
    make_fakes();
    put_script("peers", "ocl-garbage", "#!/bin/sh\necho 'Running kernels 2 times'\necho 'Copy,garbage'\n");
    run_result r = peers(1, NULL,
                         "--babelstream peers/ocl-garbage --rounds 1 --slices 1 --elements 1024 --reps 2 "
                         "--median-runs 1 --dtype float --out out");
    expect_in(r.err, "peers.sh: error: BabelStream round 1 float: no time of each of Copy, Mul, Add, Triad and Dot in "
                     "its output: see out/");
    const char *first = strstr(r.err, "error:");
    assert_null(strstr(first + 1, "error:")); /* one error, whatever the progress lines */
    assert_null(strstr(r.out, "missing rows"));
    run_free(&r);
}

/* No CUDA device, as the crossroof executable of each mode says it (exit
 * 77): each mode skipped, in a line, and peers.sh exits 77 having run and
 * made nothing. */
static void test_no_device_is_skipped(void **state)
{
    (void)state;
    static const char *const made[] = {"state/calls", "out"}; /* what a mode that ran would leave */
    make_fakes();
    run_result r = peers(77, "FAKE_NO_DEVICE=planted",
                         "--babelstream-cuda peers/cuda-stream --nvbandwidth peers/nvbandwidth --out out");
    assert_string_equal(r.err, "peers.sh: skipped: --nvbandwidth: no CUDA device: planted\n"
                               "peers.sh: skipped: --babelstream-cuda: no CUDA device: planted\n");
    run_free(&r);
    for (size_t i = 0; i < countof(made); ++i) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", tmp, made[i]);
        if (access(path, F_OK) == 0)
            fail_msg("%s is there: a mode ran without a device", path);
    }
}

/* SIGTERM to peers.sh alone, while a peer runs: the mode's subshell, its
 * timeout and the peer end with it (none is left running), exit 143. */
static void test_sigterm_ends_the_mode(void **state)
{
    (void)state;
    make_fakes();
    char cmd[4096], probe[128];
    snprintf(cmd, sizeof cmd, "cd %s && exec env FAKE_STATE=%s/state FAKE_SLOW=1 %s/tools/peers.sh --bin bin "
             "--nvbandwidth peers/nvbandwidth --out out >/dev/null 2>&1 </dev/null", tmp, tmp, CR_SOURCE_DIR);
    snprintf(probe, sizeof probe, "pgrep -f 'slee[p] 61.%d' >/dev/null", (int)getpid());
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGTERM, SIG_DFL);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 400 && system(probe) != 0; ++i) /* the peer's sleep under way */
        nanosleep(&(struct timespec){0, 25000000}, NULL);
    assert_int_equal(system(probe), 0);
    assert_int_equal(kill(pid, SIGTERM), 0);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    for (int i = 0; i < 40 && system(probe) == 0; ++i)
        nanosleep(&(struct timespec){0, 25000000}, NULL);
    bool orphan = system(probe) == 0;
    if (orphan) /* not left to run on after the test */
        sh("kill $(pgrep -f 'slee[p] 61.%d')", (int)getpid());
    assert_false(orphan);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 143);
}

static void test_bad_usage_is_one_line_and_exit_2(void **state)
{
    (void)state;
    make_fakes();
    FILE *f = fopen(CR_SOURCE_DIR "/tools/peers/tests/bad_inputs.txt", "r");
    assert_non_null(f);
    char line[1024];
    size_t cases = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *args = strstr(line, " | "), *text = args ? strstr(args + 3, " | ") : NULL;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (text == NULL)
            fail_msg("bad_inputs.txt: '%s' is not ENV | ARGS | TEXT", line);
        *args = *text = '\0';
        args += 3, text += 3;
        run_result r = peers(2, line, args);
        if (count_lines(r.err) != 1 || strstr(r.err, text) == NULL || strncmp(r.err, "peers.sh: error: ", 17) != 0)
            fail_msg("%s: stderr: %s(want one line with '%s')", args, r.err, text);
        run_free(&r);
        ++cases;
    }
    fclose(f);
    assert_true(cases >= 19);
    char calls_file[256];
    snprintf(calls_file, sizeof calls_file, "%s/state/calls", tmp);
    assert_int_not_equal(access(calls_file, F_OK), 0); /* nothing ran */
}

/* What peers.sh prints must arrive: --help, or a mode's table, into a full
 * disk or a closed stdout is one error line and exit 1; peers.csv is still
 * written. */
static void test_unwritable_stdout_fails(void **state)
{
    (void)state;
    make_fakes();
    static const struct {
        const char *args, *redirect, *why;
    } cases[] = {
        {"--help", ">/dev/full", "No space left on device"},
        {"--help", ">&-", "Bad file descriptor"},
        {"--babelstream-cuda peers/cuda-stream --cuda-elements 1024 --cuda-reps 2 --out out", ">/dev/full",
         "No space left on device"},
    };
    for (size_t i = 0; i < countof(cases); ++i) {
        run_result r = peers_to("FAKE_COMBOS=2", cases[i].args, cases[i].redirect);
        char want[200];
        snprintf(want, sizeof want, "peers.sh: error: cannot write standard output: %s\n", cases[i].why);
        const char *line = strstr(r.err, want); /* beside the progress lines, the one error */
        if (r.status != 1 || line == NULL || strstr(r.err, "error:") != line + 10 || strstr(line + 16, "error:"))
            fail_msg("%s %s: status %d (want 1), stderr:\n%s(want the one error line '%s')", cases[i].args,
                     cases[i].redirect, r.status, r.err, want);
        run_free(&r);
    }
    expect_tmp_file_has("out/peers.csv", "\nbabelstream-cuda,triad,triad,float,4096,best,");
}

CLI_TEST_MAIN(test_babelstream_cuda_ratios_and_order, test_nvbandwidth_ratios_counting_and_device,
              test_budget_stops_a_mode, test_failed_runs, test_opencl_peer_without_times_fails, test_no_device_is_skipped,
              test_sigterm_ends_the_mode, test_bad_usage_is_one_line_and_exit_2,
              test_unwritable_stdout_fails)
