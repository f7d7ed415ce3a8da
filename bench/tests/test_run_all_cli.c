/* End-to-end tests of run_all.sh with a directory of stand-in benchmarks
 * (CROSSROOF_BIN) beside one real one: a planted failure does not stop the
 * others and makes the exit status non-zero, every benchmark ends up in the
 * summary and the log, the report of the run passes its check; an
 * interrupted run keeps what completed and --resume finishes it without
 * touching it; bad input. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#ifndef CR_SOURCE_DIR
#define CR_SOURCE_DIR "."
#endif

static char real_bin[PATH_MAX]; /* the benchmarks as built, absolute */
static char fake_bin[256];      /* the stand-ins, and links to real ones */

static void script(const char *name, const char *body)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", fake_bin, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n%s", body);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
}

/* An OpenCL stand-in lists one device and reads --out like the real ones. */
#define LISTS_A_DEVICE "[ \"$1\" = --list-devices ] && { echo '0  (0:0)  Fake device  [Fake; CPU]'; exit 0; }\n"
#define READS_OUT "out=.; while [ $# -gt 0 ]; do [ \"$1\" = --out ] && out=$2; shift; done\n"

static int setup_all(void **state)
{
    if (setup(state) != 0)
        return -1;
    if (realpath(bin_dir, real_bin) == NULL)
        return -1;
    snprintf(fake_bin, sizeof fake_bin, "%s/bin", tmp);
    return mkdir(fake_bin, 0755);
}

static void make_fakes(void)
{
    char body[2048];
    snprintf(body, sizeof body,
             LISTS_A_DEVICE READS_OUT "echo call >> %s/calls-ok\n"
             "printf 'benchmark,variant,valid\\nok,a,1\\n' > \"$out/ok-opencl.csv\"\n"
             "printf 'key,value\\ndevice.name,Fake device\\nbackend,opencl\\n' > \"$out/ok-opencl.meta.csv\"\n",
             tmp);
    script("ok-opencl", body);
    script("broken-opencl", LISTS_A_DEVICE "echo 'broken-opencl: error: planted failure' >&2\nexit 1\n");
    script("nogpu-cuda", "[ \"$1\" = --list-devices ] && { echo 'no CUDA device' >&2; exit 77; }\n"
                         "echo 'nogpu-cuda: skipped: no CUDA device: planted' >&2\nexit 77\n");
    /* Writes a partial CSV first, as a real benchmark does point by point;
     * holds there while the file "hold" exists. */
    snprintf(body, sizeof body,
             LISTS_A_DEVICE READS_OUT "echo call >> %s/calls-slow\n"
             "printf 'benchmark,variant,valid\\nslow,first,1\\n' > \"$out/slow-opencl.csv\"\n"
             "[ -e %s/hold ] && exec sleep 120.%d\n"
             "printf 'benchmark,variant,valid\\nslow,first,1\\nslow,second,1\\n' > \"$out/slow-opencl.csv\"\n",
             tmp, tmp, (int)getpid());
    script("slow-opencl", body);
    char link[512], target[PATH_MAX + 32];
    snprintf(link, sizeof link, "%s/regspill-opencl", fake_bin);
    snprintf(target, sizeof target, "%s/regspill-opencl", real_bin);
    unlink(link);
    assert_int_equal(symlink(target, link), 0);
}

static const char *env(void)
{
    static char e[PATH_MAX * 2 + 64];
    snprintf(e, sizeof e, "CROSSROOF_BIN=%s CROSSROOF_TOOLS=%s/../tools", fake_bin, real_bin);
    return e;
}

static run_result run_all(const char *args)
{
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "%s %s/run_all.sh %s", env(), CR_SOURCE_DIR, args);
    return run_shell(cmd);
}

static bool exists(const char *fmt, ...)
{
    char path[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    return access(path, F_OK) == 0;
}

/* The log's rows as "task status" lines, in order. */
static char *log_summary(const char *run)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/run-log.csv", tmp, run);
    char *text = csv_slurp(path);
    assert_non_null(text);
    const char *p = text;
    csv_record rec;
    assert_true(csv_next(&p, rec) == 11);
    assert_string_equal(rec[0], "task");
    assert_string_equal(rec[5], "status");
    static char out[2048];
    out[0] = '\0';
    int n;
    while ((n = csv_next(&p, rec)) > 0) {
        assert_int_equal(n, 11);
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s %s\n", rec[0], rec[5]);
    }
    assert_int_equal(n, 0);
    free(text);
    return out;
}

static void test_failure_skip_and_completeness(void **state)
{
    (void)state;
    make_fakes();
    char args[512];
    snprintf(args, sizeof args,
             "--only ok-opencl,broken-opencl,nogpu-cuda,regspill-opencl --out %s/r1 -- --live 4,8 --reps 3:3", tmp);
    run_result r = run_all(args);
    if (r.status != 1)
        fail_msg("status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    /* Device by device, each in alphabetical order: the failure ran first
     * and stopped nothing. */
    expect_all_in(r.out, "  passed   ok-opencl on Fake device (", "  passed   regspill-opencl on ",
                  "  skipped  nogpu-cuda: no CUDA device: planted",
                  "  FAILED   broken-opencl on Fake device: exit 1: error: planted failure", "Report: ");
    assert_string_equal(log_summary("r1"), "broken-opencl failed\n"
                                           "ok-opencl passed\n"
                                           "nogpu-cuda skipped\n"
                                           "regspill-opencl passed\n");
    assert_true(exists("%s/r1/opencl-0-Fake_device/ok-opencl.csv", tmp));
    assert_true(exists("%s/r1/opencl-0-Fake_device/broken-opencl.log", tmp));
    assert_true(exists("%s/r1/cuda/nogpu-cuda.log", tmp));
    assert_true(exists("%s/r1/summary.txt", tmp));
    run_free(&r);

    /* The real benchmark's results, its figure, and a report that checks out. */
    char dev[512] = "";
    snprintf(args, sizeof args, "ls -d %s/r1/opencl-0-*/regspill-opencl.csv > %s/found", tmp, tmp);
    sh("%s", args);
    char *found = slurp_tmp("found");
    snprintf(dev, sizeof dev, "%.*s", (int)(strrchr(found, '/') - found), found);
    free(found);
    assert_true(exists("%s/regspill-opencl.meta.csv", dev));
    assert_true(exists("%s/regspill-opencl-live.png", dev));
    assert_true(exists("%s/r1/report.html", tmp));
    snprintf(args, sizeof args, "--check %s/r1", tmp);
    r = run_with_status(0, NULL, "../tools/report", args);
    run_free(&r);

    /* Never over an earlier run. */
    snprintf(args, sizeof args, "--only ok-opencl --out %s/r1", tmp);
    r = run_all(args);
    assert_int_equal(r.status, 2);
    expect_in(r.err, "never overwritten");
    run_free(&r);
}

static long long mtime_ns(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

static int lines_in(const char *path)
{
    char *text = csv_slurp(path);
    if (text == NULL)
        return 0;
    int n = count_lines(text);
    free(text);
    return n;
}

static void test_interrupt_and_resume(void **state)
{
    (void)state;
    make_fakes();
    sh("touch %s/hold", tmp);
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "exec env %s %s/run_all.sh --only ok-opencl,slow-opencl --out %s/r2 >%s/r2.out 2>&1",
             env(), CR_SOURCE_DIR, tmp, tmp);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    /* Until the first benchmark completed and the second is under way. */
    char calls[512], log[512];
    snprintf(calls, sizeof calls, "%s/calls-slow", tmp);
    snprintf(log, sizeof log, "%s/r2/run-log.csv", tmp);
    for (int i = 0; i < 600 && !(exists("%s", calls) && lines_in(log) == 2); ++i)
        nanosleep(&(struct timespec){0, 50000000}, NULL);
    assert_int_equal(lines_in(log), 2);
    assert_int_equal(kill(pid, SIGINT), 0);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    char *out = slurp_tmp("r2.out");
    if (WEXITSTATUS(st) != 130)
        fail_msg("status %d:\n%s", WEXITSTATUS(st), out);
    expect_all_in(out, "slow-opencl on Fake device: interrupted", "./run_all.sh --resume ");
    free(out);
    assert_string_equal(log_summary("r2"), "ok-opencl passed\n");
    /* The stand-in held in its sleep is gone, not left running. The sleep's
     * argument carries this test's pid, so that no other process matches. */
    snprintf(cmd, sizeof cmd, "pgrep -f 'slee[p] 120[.]%d$' >/dev/null", (int)getpid()); /* not matching itself */
    int alive = system(cmd);
    assert_true(WIFEXITED(alive) && WEXITSTATUS(alive) == 1);

    char ok_csv[512], slow_csv[512];
    snprintf(ok_csv, sizeof ok_csv, "%s/r2/opencl-0-Fake_device/ok-opencl.csv", tmp);
    snprintf(slow_csv, sizeof slow_csv, "%s/r2/opencl-0-Fake_device/slow-opencl.csv", tmp);
    long long ok_mtime = mtime_ns(ok_csv);
    char *ok_before = csv_slurp(ok_csv);
    assert_int_equal(lines_in(slow_csv), 2); /* the partial file */

    sh("rm %s/hold", tmp);
    char args[512];
    snprintf(args, sizeof args, "--resume %s/r2", tmp);
    run_result r = run_all(args);
    if (r.status != 0)
        fail_msg("status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    expect_all_in(r.out, "1 benchmark run(s) on 1 device(s), 1 done before", "  passed   ok-opencl on Fake device",
                  "  passed   slow-opencl on Fake device");
    run_free(&r);
    assert_string_equal(log_summary("r2"), "ok-opencl passed\nslow-opencl passed\n");
    char ok_calls[512];
    snprintf(ok_calls, sizeof ok_calls, "%s/calls-ok", tmp);
    assert_int_equal(lines_in(ok_calls), 1 + 1); /* once here, once in the first test */
    assert_int_equal(lines_in(calls), 2);        /* interrupted, then from the start */
    assert_int_equal(lines_in(slow_csv), 3);
    assert_true(mtime_ns(ok_csv) == ok_mtime);
    char *ok_after = csv_slurp(ok_csv);
    assert_string_equal(ok_after, ok_before);
    free(ok_before);
    free(ok_after);
    assert_true(exists("%s/r2/report.html", tmp));

    /* A finished run resumes to nothing. */
    r = run_all(args);
    assert_int_equal(r.status, 0);
    expect_in(r.out, "0 benchmark run(s)");
    run_free(&r);
    assert_int_equal(lines_in(calls), 2);
}

static void expect_refused(const char *args, const char *text)
{
    run_result r = run_all(args);
    expect_error_line(&r, "run_all.sh", args, 2, text);
    run_free(&r);
}

static void test_bad_input(void **state)
{
    (void)state;
    char args[512];
    expect_refused("--bogus", "unknown option '--bogus'");
    expect_refused("--device", "--device needs a value");
    expect_refused("--resume /nonexistent/crossroof-run", "not a run of run_all.sh");
    snprintf(args, sizeof args, "--resume %s", tmp);
    expect_refused(args, "not a run of run_all.sh");
    snprintf(args, sizeof args, "--resume %s/r2 --quick", tmp);
    expect_refused(args, "--quick cannot change them");
    expect_refused("--compare /tmp", "--compare needs two run directories");
    expect_refused("--compare /tmp /tmp --quick", "--compare takes two run directories and nothing else");
    snprintf(args, sizeof args, "--only no-such-benchmark --out %s/r3", tmp);
    expect_refused(args, "--only: no benchmark named 'no-such-benchmark'");
    assert_false(exists("%s/r3", tmp)); /* bad input leaves no run behind */
}

TEST_MAIN(setup_all, teardown, test_failure_skip_and_completeness, test_interrupt_and_resume, test_bad_input)
