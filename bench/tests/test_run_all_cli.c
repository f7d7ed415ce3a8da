/* End-to-end tests of run_all.sh with a directory of stand-in benchmarks
 * (CROSSROOF_BIN) beside one real one: a planted failure does not stop the
 * others and makes the exit status non-zero, every benchmark ends up in the
 * summary and the log, the report of the run passes its check; an
 * interrupted run keeps what completed and --resume finishes it without
 * touching it; a signal to run_all, or its death, ends everything a
 * benchmark started; one run at a time in a directory; --resume reads its
 * options as data; a full disk is reported, never hidden behind a partial
 * file; odd paths and device names are data; bad input. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
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
#define LISTS_A_DEVICE                                                                                         \
    "[ \"$1\" = --check-options ] && exit 0\n"                                                               \
    "[ \"$1\" = --list-devices ] && { echo '0  (0:0)  Fake device  [Fake; CPU]'; exit 0; }\n"
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

/* The file that the commands planted in paths, names and options create,
 * were a shell ever to run them: TMP/PWNED. */
static const char *pwned(void)
{
    static char p[sizeof tmp + 8];
    snprintf(p, sizeof p, "%s/PWNED", tmp);
    return p;
}

static const char *odd_label(void)
{
    static char label[1024];
    snprintf(label, sizeof label, "Odd \"dev\", $(touch %s) `touch %s`; x", pwned(), pwned());
    return label;
}

static void make_fakes(void)
{
    unlink(pwned()); /* each test looks for it anew, and holds nothing yet */
    sh("rm -f %s/hold %s/group-hold %s/ignore-term", tmp, tmp, tmp);
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
    /* While the file "group-hold" exists, starts a process of its own (and
     * a second, which ignores SIGTERM, where "ignore-term" exists) and
     * waits for them; otherwise ends at once. */
    snprintf(body, sizeof body,
             LISTS_A_DEVICE READS_OUT "[ -e %s/group-hold ] || exit 0\n"
             "sleep 100.%d &\n"
             "[ -e %s/ignore-term ] && { (trap '' TERM; exec sleep 101.%d) & }\n"
             ": > \"$out/started\"\nwait\n",
             tmp, (int)getpid(), tmp, (int)getpid());
    script("group-opencl", body);
    /* Writes the arguments it was given, less --out and --device, each
     * ended by a NUL byte, into args.bin. */
    script("args-opencl", LISTS_A_DEVICE "out=.; prev=\n"
                          "for a do [ \"$prev\" = --out ] && out=$a; prev=$a; done\n"
                          ": > \"$out/args.bin\"; skip=0\n"
                          "for a do\n"
                          "    if [ $skip = 1 ]; then skip=0; continue; fi\n"
                          "    case $a in --out|--device) skip=1; continue ;; esac\n"
                          "    printf '%s\\0' \"$a\" >> \"$out/args.bin\"\n"
                          "done\n");
    /* A device whose name holds what a shell would run. */
    snprintf(body, sizeof body,
             "[ \"$1\" = --list-devices ] && { echo '0  (0:0)  %s  [Odd; CPU]'; exit 0; }\n" READS_OUT
             "printf 'benchmark,variant,valid\\nodd,a,1\\n' > \"$out/odd-opencl.csv\"\n",
             odd_label());
    script("odd-opencl", body);
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

/* run_all.sh ARGS (sh syntax), failing with status 124 where it hangs. */
static run_result run_all(const char *args)
{
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "timeout -k 5 120 env %s %s/run_all.sh %s", env(), CR_SOURCE_DIR, args);
    return run_shell(cmd);
}

/* run_all() that must exit 0; fails with what it said otherwise. */
static run_result run_all_ok(const char *args)
{
    run_result r = run_all(args);
    if (r.status != 0)
        fail_msg("%s: status %d\nstdout:\n%s\nstderr:\n%s", args, r.status, r.out, r.err);
    return r;
}

static bool exists(const char *fmt, ...)
{
    char path[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    return access(path, F_OK) == 0;
}

/* The log's rows as "task status" lines, in order. */
static char *log_summary(const char *run)
{
    char path[2048];
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
             "--only ok-opencl,broken-opencl,nogpu-cuda,regspill-opencl --out %s/r1 -- --live 4,8 --reps 3:3 --updates 4096", tmp);
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

/* Starts run_all.sh ARGS (sh syntax) in the background, its stdout and
 * stderr into TMP/NAME. The exec chain keeps the pid: a signal sent to it
 * reaches run_all.sh itself. */
static pid_t start_run_all(const char *args, const char *name)
{
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "exec env %s %s/run_all.sh %s >%s/%s 2>&1 </dev/null", env(), CR_SOURCE_DIR, args, tmp,
             name);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* A shell started in the background gets SIGINT ignored, and a
         * signal ignored on entry cannot be trapped: the test's Ctrl-C must
         * reach run_all.sh whatever started the tests. */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* The exit status of a child, 1000 + the signal where a signal ended it. */
static int exit_status(pid_t pid)
{
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
}

static void nap(void)
{
    nanosleep(&(struct timespec){0, 50000000}, NULL);
}

/* Waits up to 30 s for the file to appear. */
static void await_file(const char *path)
{
    for (int i = 0; i < 600 && access(path, F_OK) != 0; ++i)
        nap();
    if (access(path, F_OK) != 0)
        fail_msg("%s never appeared", path);
}

/* How many live processes have needle in their command line (its
 * arguments joined by spaces); a zombie's is empty. */
static int processes_with(const char *needle)
{
    DIR *d = opendir("/proc");
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!isdigit((unsigned char)e->d_name[0]) || atoi(e->d_name) == (int)getpid())
            continue;
        char path[300], buf[16384];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        for (size_t i = 0; i < len; ++i)
            buf[i] = buf[i] ? buf[i] : ' ';
        buf[len] = '\0';
        n += strstr(buf, needle) != NULL;
    }
    closedir(d);
    return n;
}

/* No process has needle in its command line, at the latest after seconds. */
static void expect_no_process(const char *needle, int seconds)
{
    for (int i = 0; i < seconds * 20 && processes_with(needle) > 0; ++i)
        nap();
    int n = processes_with(needle);
    if (n != 0)
        fail_msg("%d process(es) with '%s' in their command line still run", n, needle);
}

/* The report of an interrupted run says so first, naming the task (as
 * Markdown writes it: an underscore is &#95;). */
static void expect_report_says_interrupted(const char *run, const char *task_and_why)
{
    char args[512];
    snprintf(args, sizeof args, "%s/%s", tmp, run);
    run_result r = run_with_status(0, NULL, "../tools/report", args);
    run_free(&r);
    char *md = slurp_tmp("%s/report.md", run);
    const char *said = strstr(md, "Interrupted:");
    if (said == NULL || strstr(said, task_and_why) == NULL || strstr(md, "./run_all.sh --resume ") == NULL)
        fail_msg("the report of an interrupted run does not say '%s':\n%s", task_and_why, md);
    /* Before the numbers: in the first paragraph after the title. */
    const char *first = strstr(md, "\n\n");
    assert_true(first != NULL && said < strstr(first + 2, "\n\n"));
    free(md);
}

static void test_interrupt_and_resume(void **state)
{
    (void)state;
    make_fakes();
    sh("touch %s/hold", tmp);
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "--only ok-opencl,slow-opencl --out %s/r2", tmp);
    pid_t pid = start_run_all(cmd, "r2.out");
    /* Until the first benchmark completed and the second is under way. */
    char calls[512], log[512];
    snprintf(calls, sizeof calls, "%s/calls-slow", tmp);
    snprintf(log, sizeof log, "%s/r2/run-log.csv", tmp);
    for (int i = 0; i < 600 && !(exists("%s", calls) && lines_in(log) == 2); ++i)
        nap();
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
    assert_string_equal(log_summary("r2"), "ok-opencl passed\nslow-opencl interrupted\n");
    expect_report_says_interrupted("r2", "opencl-0-Fake&#95;device/slow-opencl (stopped by SIGINT after ");
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
    /* What a plot.sh killed outright would leave: its figure under the drawing name. */
    sh("printf partial > %s/r2/opencl-0-Fake_device/.ok-opencl-x.drawing.123.png", tmp);
    char args[512];
    snprintf(args, sizeof args, "--resume %s/r2", tmp);
    run_result r = run_all_ok(args);
    expect_all_in(r.out, "1 benchmark run(s) on 1 device(s), 1 done before", "  passed   ok-opencl on Fake device",
                  "  passed   slow-opencl on Fake device");
    run_free(&r);
    assert_string_equal(log_summary("r2"), "ok-opencl passed\nslow-opencl interrupted\nslow-opencl passed\n");
    assert_false(exists("%s/r2/opencl-0-Fake_device/.ok-opencl-x.drawing.123.png", tmp));
    char *md = slurp_tmp("r2/report.md");
    if (strstr(md, "Interrupted") != NULL)
        fail_msg("the report of the finished run still says it was interrupted:\n%s", md);
    free(md);
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

/* A signal while plot.sh draws: the run log records the figures it owes,
 * the summary and the report say so, and --resume draws them and records
 * that it did. A gnuplot first on PATH holds while the file "plot-hold"
 * exists. */
static void test_interrupted_figures_are_owed(void **state)
{
    (void)state;
    make_fakes();
    char path[512], body[1024], *old_path = strdup(getenv("PATH"));
    snprintf(path, sizeof path, "%s/plot-bin", tmp);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(body, sizeof body, "#!/bin/sh\n: > %s/plotting\n[ -e %s/plot-hold ] && exec sleep 118.%d\n"
             "exec /usr/bin/env PATH='%s' gnuplot \"$@\"\n", tmp, tmp, (int)getpid(), old_path);
    snprintf(path, sizeof path, "%s/plot-bin/gnuplot", tmp);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(body, f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, 0755), 0);
    sh("touch %s/plot-hold", tmp);
    snprintf(body, sizeof body, "%s/plot-bin:%s", tmp, old_path);
    setenv("PATH", body, 1);
    char args[512];
    snprintf(args, sizeof args, "--only ok-opencl --out %s/rfig", tmp);
    pid_t pid = start_run_all(args, "rfig.out");
    snprintf(path, sizeof path, "%s/plotting", tmp);
    await_file(path);
    assert_int_equal(kill(pid, SIGTERM), 0);
    int status = exit_status(pid);
    setenv("PATH", old_path, 1); /* the other tests draw with gnuplot itself */
    free(old_path);
    sh("rm %s/plot-hold", tmp);
    char *out = slurp_tmp("rfig.out");
    if (status != 128 + SIGTERM)
        fail_msg("status %d:\n%s", status, out);
    expect_all_in(out, "INTERRUPTED figures of opencl-0-Fake_device: stopped by SIGTERM after ", "--resume ");
    free(out);
    assert_string_equal(log_summary("rfig"), "ok-opencl passed\nfigures interrupted\n");
    expect_report_says_interrupted("rfig", "opencl-0-Fake&#95;device/figures (stopped by SIGTERM after ");
    snprintf(body, sizeof body, "sleep 118.%d", (int)getpid());
    expect_no_process(body, 2);

    snprintf(args, sizeof args, "--resume %s/rfig", tmp);
    run_result r = run_all_ok(args);
    expect_in(r.out, "  passed   figures of opencl-0-Fake_device (");
    run_free(&r);
    assert_string_equal(log_summary("rfig"), "ok-opencl passed\nfigures interrupted\nfigures passed\n");
    char *md = slurp_tmp("rfig/report.md");
    if (strstr(md, "Interrupted") != NULL)
        fail_msg("the report of the finished run still says it was interrupted:\n%s", md);
    free(md);
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
    /* A folder of executables that holds no benchmark: refused before a run directory is made. */
    char cmd[2048];
    sh("mkdir -p %s/nobench && touch %s/nobench/readme", tmp, tmp);
    snprintf(cmd, sizeof cmd, "CROSSROOF_BIN=%s/nobench %s/run_all.sh --only stream --out %s/rnobench", tmp,
             CR_SOURCE_DIR, tmp);
    run_result nb = run_shell(cmd);
    expect_error_line(&nb, "run_all.sh", "CROSSROOF_BIN of no benchmark", 2, "nobench holds no benchmark executable");
    run_free(&nb);
    assert_false(exists("%s/rnobench", tmp));
    /* Either folder's variable set but empty: refused before anything runs,
     * not taken for unset (the tools were then found missing after the
     * benchmarks). */
    static const char *const empty[] = {"CROSSROOF_TOOLS", "CROSSROOF_BIN"};
    for (size_t i = 0; i < countof(empty); ++i) {
        char ecmd[PATH_MAX * 3];
        snprintf(ecmd, sizeof ecmd, "env %s %s= %s/run_all.sh --only ok-opencl --out %s/rempty", env(), empty[i],
                 CR_SOURCE_DIR, tmp);
        run_result r = run_shell(ecmd);
        snprintf(args, sizeof args, "%s is set but empty", empty[i]);
        expect_error_line(&r, "run_all.sh", empty[i], 2, args);
        run_free(&r);
        assert_false(exists("%s/rempty", tmp));
    }
    expect_refused("--bogus", "unknown option '--bogus'");
    expect_refused("--device", "--device needs a value");
    expect_refused("--out ''", "--out: the DIR is empty");
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

/* The usage errors that ran, or half-ran, before: an empty --only or an
 * empty name in it, a --device no benchmark lists, an --out that cannot be
 * created or is a file, a --resume of a file, a --compare of a missing
 * directory. Each is one line and exit 2, and leaves no run behind. */
static void test_more_bad_input(void **state)
{
    (void)state;
    make_fakes();
    char args[1024], text[1024];
    static const struct {
        const char *args, *text;
    } lists[] = {
        {"--only ''", "--only: the list of benchmarks is empty"},
        {"--only ,", "--only: empty name in ','"},
        {"--only ok-opencl,", "--only: empty name in 'ok-opencl,'"},
        {"--only ,ok-opencl", "--only: empty name in ',ok-opencl'"},
        {"--only ok-opencl,,broken-opencl", "--only: empty name in 'ok-opencl,,broken-opencl'"},
        {"--device '' --only ok-opencl", "--device: the SPEC is empty"},
        /* a control character quoted back is no escape sequence to the terminal */
        {"--only \"$(printf 'ok\\033[31m')\"", "--only: no benchmark named 'ok?[31m'"},
        {"--only ok-opencl -- --reps 3 --out /tmp", "after --: --out is run_all.sh's to give"},
        {"--only ok-opencl -- --device=0", "after --: --device is run_all.sh's to give"},
        {"--only ok-opencl -- --ou /tmp", "after --: --ou is short for --out, which is run_all.sh's to give"},
        {"--only ok-opencl -- --dev=1", "after --: --dev is short for --device, which is run_all.sh's to give"},
        /* what a benchmark refuses is refused before the run, not by each task */
        {"--only ok-opencl,regspill-opencl -- --bogus",
         "after --: regspill-opencl refuses the options: unknown or ambiguous option '--bogus'"},
        {"--quick --only regspill -- --reps 3:2", "after --: regspill-opencl refuses the options: --reps:"},
        {"--only regspill -- --help", "refuses the options: --check-options: --help prints and exits"},
        {"--only regspill -- --list-devices", "refuses the options: --check-options: --list-devices prints"},
        {"--only regspill -- --regs 16:32", "after --: regspill-opencl refuses the options: --regs: the opencl toolchain"},
        {"--only regspill -- --", "after --: a second -- would end the benchmarks' options"},
        {"--only regspill -- --check-options", "after --: --check-options checks the options and measures nothing"},
        {"--only regspill -- --check", "after --: --check checks the options and measures nothing"},
        /* a CUDA benchmark the descriptors name, not built here: nothing would run */
        {"--only stream-cuda", "--only stream-cuda: no executable of it in "},
    };
    for (size_t i = 0; i < countof(lists); ++i) {
        snprintf(args, sizeof args, "--out %s/r4 %s", tmp, lists[i].args);
        expect_refused(args, lists[i].text);
        assert_false(exists("%s/r4", tmp));
    }

    /* A number is an index, as the benchmarks read it, not part of a name. */
    script("digit-opencl", "[ \"$1\" = --check-options ] && exit 0\n"
                           "[ \"$1\" = --list-devices ] && { echo '0  (0:0)  Xeon 8175M  [Fake; CPU]'; exit 0; }\n");
    static const char *const unmatched[][2] = {{"8", "digit-opencl"}, {"nosuchdev", "ok-opencl"}};
    for (size_t i = 0; i < countof(unmatched); ++i) {
        snprintf(args, sizeof args, "--device %s --only %s --out %s/r5", unmatched[i][0], unmatched[i][1], tmp);
        snprintf(text, sizeof text,
                 "--device: no device of the selected benchmarks matches '%s' (see %s/%s --list-devices)",
                 unmatched[i][0], fake_bin, unmatched[i][1]);
        expect_refused(args, text);
        assert_false(exists("%s/r5", tmp));
    }
    sh("rm -f %s/digit-opencl", fake_bin);

    sh("echo not a directory > %s/afile", tmp);
    snprintf(args, sizeof args, "--only ok-opencl --out %s/afile", tmp);
    snprintf(text, sizeof text, "--out: %s/afile exists and is not a directory", tmp);
    expect_refused(args, text);
    /* A path below a file cannot be created, by root either. */
    snprintf(args, sizeof args, "--only ok-opencl --out %s/afile/run", tmp);
    snprintf(text, sizeof text, "--out: cannot create %s/afile/run: %s/afile is not a directory", tmp, tmp);
    expect_refused(args, text);
    if (geteuid() != 0) { /* root writes where the mode says no */
        sh("mkdir -p %s/ro && chmod 0500 %s/ro", tmp, tmp);
        snprintf(args, sizeof args, "--only ok-opencl --out %s/ro/run", tmp);
        snprintf(text, sizeof text, "--out: cannot create %s/ro/run: permission denied in %s/ro", tmp, tmp);
        expect_refused(args, text);
        assert_false(exists("%s/ro/run", tmp));
    }
    snprintf(args, sizeof args, "--resume %s/afile", tmp);
    expect_refused(args, "not a run of run_all.sh");
    snprintf(args, sizeof args, "--compare %s/no-such-run %s", tmp, tmp);
    snprintf(text, sizeof text, "--compare: %s/no-such-run is not a directory", tmp);
    expect_refused(args, text);
    snprintf(args, sizeof args, "--compare %s %s/afile", tmp, tmp);
    snprintf(text, sizeof text, "--compare: %s/afile is not a directory", tmp);
    expect_refused(args, text);
    /* Folders that are no run: one of CSVs without a run's log (the report
     * took it for a run and compared it), a run log alone. Nothing is
     * written into either. */
    sh("mkdir -p %s/notrun/sub %s/logonly && echo a,b > %s/notrun/sub/x.csv && "
       "echo task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason > %s/logonly/run-log.csv",
       tmp, tmp, tmp, tmp);
    static const char *const not_runs[][2] = {{"notrun", "no run-log.csv in it"},
                                              {"logonly", "no device directory in it"}};
    for (size_t i = 0; i < countof(not_runs); ++i) {
        snprintf(args, sizeof args, "--compare %s/%s %s/%s", tmp, not_runs[i][0], tmp, not_runs[i][0]);
        snprintf(text, sizeof text, "--compare: %s/%s is not a run of run_all.sh (%s)", tmp, not_runs[i][0],
                 not_runs[i][1]);
        expect_refused(args, text);
        assert_false(exists("%s/%s/compare-%s.md", tmp, not_runs[i][0], not_runs[i][0]));
    }
}

/* Sends sig to a run whose benchmark started two processes of its own:
 * run_all ends the benchmark's whole process group, exits with
 * want_status, says the benchmark was interrupted, and leaves no process
 * of it behind. */
static void expect_group_ended(int sig, const char *run, int want_status)
{
    char args[512], path[512], needle[64];
    snprintf(args, sizeof args, "--only group-opencl,ok-opencl --out %s/%s", tmp, run);
    pid_t pid = start_run_all(args, "signal.out");
    snprintf(path, sizeof path, "%s/%s/opencl-0-Fake_device/started", tmp, run);
    await_file(path);
    assert_int_equal(kill(pid, sig), 0);
    int status = exit_status(pid);
    char *out = slurp_tmp("signal.out");
    if (status != want_status)
        fail_msg("%s: status %d (want %d):\n%s", strsignal(sig), status, want_status, out);
    expect_all_in(out, "group-opencl on Fake device: interrupted", "./run_all.sh --resume ");
    free(out);
    /* Both still to run: --resume runs them. */
    assert_string_equal(log_summary(run), "group-opencl interrupted\nok-opencl interrupted\n");
    expect_report_says_interrupted(run, "opencl-0-Fake&#95;device/ok-opencl (not started: the run was stopped by SIG");
    snprintf(needle, sizeof needle, "sleep 100.%d", (int)getpid());
    expect_no_process(needle, 2);
    snprintf(needle, sizeof needle, "sleep 101.%d", (int)getpid());
    expect_no_process(needle, 2);
    snprintf(path, sizeof path, "%s/%s/", tmp, run);
    expect_no_process(path, 2); /* the benchmark itself, by its --out */
}

/* One of the benchmark's processes ignores SIGTERM: SIGKILL ends it after
 * the grace period. */
static void test_sigterm_ends_the_benchmark_group(void **state)
{
    (void)state;
    make_fakes();
    sh("touch %s/group-hold %s/ignore-term", tmp, tmp);
    expect_group_ended(SIGTERM, "rterm", 128 + SIGTERM);
    sh("rm %s/group-hold %s/ignore-term", tmp, tmp);
}

static void test_sighup_ends_the_benchmark_group(void **state)
{
    (void)state;
    make_fakes();
    sh("touch %s/group-hold", tmp);
    expect_group_ended(SIGHUP, "rhup", 128 + SIGHUP);
    sh("rm %s/group-hold", tmp);
}

/* Starts run_all.sh on slow-opencl alone into TMP/RUN, held in its sleep
 * (the file "hold"), and waits until that sleep is under way. */
static pid_t start_held_run(const char *run)
{
    sh("touch %s/hold", tmp);
    char args[512], needle[64];
    snprintf(args, sizeof args, "--only slow-opencl --out %s/%s", tmp, run);
    pid_t pid = start_run_all(args, "held.out");
    snprintf(needle, sizeof needle, "sleep 120.%d", (int)getpid());
    for (int i = 0; i < 600 && processes_with(needle) == 0; ++i)
        nap();
    assert_int_equal(processes_with(needle), 1);
    return pid;
}

/* Without the hold, --resume of TMP/RUN finishes slow-opencl; the log
 * then holds before (what the stopped run recorded) and the passed run. */
static void expect_resume_finishes(const char *run, const char *before)
{
    sh("rm -f %s/hold", tmp);
    char args[512];
    snprintf(args, sizeof args, "--resume %s/%s", tmp, run);
    run_result r = run_all_ok(args);
    run_free(&r);
    char want[256];
    snprintf(want, sizeof want, "%sslow-opencl passed\n", before);
    assert_string_equal(log_summary(run), want);
}

/* run_all killed outright: its benchmark learns that its parent died and
 * stops, the run's lock goes with them, and --resume finishes the run. */
static void test_sigkill_leaves_no_orphan(void **state)
{
    (void)state;
    make_fakes();
    pid_t pid = start_held_run("rkill");
    assert_int_equal(kill(pid, SIGKILL), 0);
    assert_int_equal(exit_status(pid), 1000 + SIGKILL);
    char needle[64];
    snprintf(needle, sizeof needle, "sleep 120.%d", (int)getpid());
    expect_no_process(needle, 5);
    expect_resume_finishes("rkill", ""); /* killed outright: nothing recorded */
}

/* A run holds its directory: a second run into it and a --resume of it
 * are refused, naming the run that holds it, and change nothing there;
 * once that run ended, --resume goes ahead. */
static void test_one_run_per_directory(void **state)
{
    (void)state;
    make_fakes();
    pid_t pid = start_held_run("rlock");
    char args[512], text[128];
    snprintf(args, sizeof args, "--only slow-opencl --out %s/rlock", tmp);
    sh("cd %s/rlock && find . -printf '%%p %%s %%T@\\n' | sort > %s/rlock.before", tmp, tmp);
    snprintf(text, sizeof text, "is being written by another run (pid %d)", (int)pid);
    expect_refused(args, text);
    snprintf(args, sizeof args, "--resume %s/rlock", tmp);
    expect_refused(args, text);
    sh("cd %s/rlock && find . -printf '%%p %%s %%T@\\n' | sort > %s/rlock.after", tmp, tmp);
    char *before = slurp_tmp("rlock.before"), *after = slurp_tmp("rlock.after");
    assert_string_equal(after, before);
    free(before);
    free(after);

    assert_int_equal(kill(pid, SIGINT), 0);
    assert_int_equal(exit_status(pid), 130);
    expect_resume_finishes("rlock", "slow-opencl interrupted\n");
}

/* A run directory made by hand with these run-options. */
static void hand_made_run(const char *run, const char *options)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp, run);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/%s/run-options", tmp, run);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(options, f);
    assert_int_equal(fclose(f), 0);
}

/* run-options is data: what a shell would run, in a value or as a line of
 * its own, is never run; it is refused, or taken literally. A benchmark
 * option that would take the results out of the run (--out) or to another
 * device is refused, as after -- on the command line. */
static void test_resume_reads_options_as_data(void **state)
{
    (void)state;
    /* A run log that is no file: refused in one line before anything runs. */
    hand_made_run("rlogdir", "quick=0\ndevice=\nonly=ok-opencl\n");
    sh("mkdir %s/rlogdir/run-log.csv", tmp);
    char dargs[512];
    snprintf(dargs, sizeof dargs, "--resume %s/rlogdir", tmp);
    expect_refused(dargs, "run-log.csv is not a regular file");
    /* A lock that is a link: refused, and nothing written where it points. */
    hand_made_run("rlink", "quick=0\ndevice=\nonly=ok-opencl\n");
    sh("ln -s %s/lock-target %s/rlink/run_all.lock", tmp, tmp);
    char largs[512];
    snprintf(largs, sizeof largs, "--resume %s/rlink", tmp);
    expect_refused(largs, "run_all.lock is a symbolic link");
    assert_false(exists("%s/lock-target", tmp));
    make_fakes();
    const char *p = pwned();
    struct {
        const char *options, *text; /* options: printf format, every %s the payload's file */
    } cases[] = {
        {"quick=0\ndevice=\nonly=$(touch %s)\n", "--only: no benchmark named '$(touch %s)'"},
        {"quick=0\ndevice=`touch %s`\nonly=ok-opencl\n",
         "--device: no device of the selected benchmarks matches '`touch %s`'"},
        {"quick=0; touch %s\ndevice=\nonly=ok-opencl\n", "run-options:1: quick is 0 or 1, not '0; touch %s'"},
        {"quick=0\ndevice=\nonly=ok-opencl\n; touch %s\n", "run-options:4: not a key=value line"},
        {"quick=0\ndevice=\nonly=ok-opencl\n$(touch %s)=1\n", "run-options:4: unknown key '$(touch %s)'"},
        {"# the format the shell once read back\ndeclare -a quick=()\ndeclare -- device=\"\"; touch %s\n",
         "run-options:2: written by an older run_all.sh"},
        {"quick=0\ndevice=\nonly=ok-opencl\nonly=$(touch %s)\n", "run-options:4: only is given twice"},
        {"quick=0\nonly=ok-opencl\n", "run-options: no device= line"},
        {"quick=0\ndevice=\nonly=ok-opencl\nextra=a\\qb%s\n", "run-options:4: extra: unknown escape '\\q'"},
        /* a benchmark option that would write elsewhere than the run */
        {"quick=0\ndevice=\nonly=ok-opencl\nextra=--out\nextra=%s.d\n",
         "run-options:4: extra: --out is run_all.sh's to give"},
        {"quick=0\ndevice=\nonly=ok-opencl\nextra=--out=%s.d\n", "run-options:4: extra: --out is run_all.sh's to give"},
        {"quick=0\ndevice=\nonly=ok-opencl\nextra=--ou\nextra=%s.d\n",
         "run-options:4: extra: --ou is short for --out, which is run_all.sh's to give"},
        {"quick=0\ndevice=\nonly=ok-opencl\nextra=--o=%s.d\n",
         "run-options:4: extra: --o is short for --out, which is run_all.sh's to give"},
        {"quick=0\ndevice=\nonly=ok-opencl\nextra=--device\nextra=1\n",
         "run-options:4: extra: --device is run_all.sh's to give"},
        /* the GPU check with what the command line refuses beside it */
        {"quick=1\ngpu_check=1\ndevice=\nonly=\n",
         "run-options: --gpu-check runs its own short configuration; --quick cannot change it"},
        {"quick=0\ngpu_check=1\ndevice=\nonly=ok-opencl\n",
         "run-options: --gpu-check runs every CUDA benchmark; --only cannot change that"},
        {"quick=0\ngpu_check=1\ndevice=\nonly=\nextra=--reps\nextra=3\n",
         "run-options: --gpu-check chooses the benchmarks' options; -- cannot change them"},
    };
    for (size_t i = 0; i < countof(cases); ++i) {
        char run[32], options[1024], args[512], text[1024];
        snprintf(run, sizeof run, "rdata%zu", i);
        snprintf(options, sizeof options, cases[i].options, p, p);
        snprintf(text, sizeof text, cases[i].text, p, p);
        hand_made_run(run, options);
        snprintf(args, sizeof args, "--resume %s/%s", tmp, run);
        expect_refused(args, text);
        if (exists("%s", p))
            fail_msg("run-options %zu ran a command:\n%s", i, options);
        if (exists("%s.d", p))
            fail_msg("run-options %zu wrote outside its run:\n%s", i, options);
    }
}

/* Benchmark options after -- that hold every character a shell treats
 * specially reach the benchmark unchanged, in the run and in a --resume
 * that reads them back from run-options. */
static void test_options_round_trip(void **state)
{
    (void)state;
    make_fakes();
    char payload[3][600];
    snprintf(payload[0], sizeof payload[0], "$(touch %s)", pwned());
    snprintf(payload[1], sizeof payload[1], "`touch %s`", pwned());
    snprintf(payload[2], sizeof payload[2], "; touch %s", pwned());
    const char *const values[] = {"a b",         payload[0], payload[1], payload[2],  "line1\nline2",
                                  "back\\slash \\n", "\"dq\" 'sq'", "x=y",      "",          "trailing newline\n",
                                  "\\",          "-- --quick"};
    char args[4096], want[8192];
    size_t want_len = 0;
    snprintf(args, sizeof args, "--only args-opencl --out %s/rargs --", tmp);
    for (size_t i = 0; i < countof(values); ++i) {
        char name[32];
        snprintf(name, sizeof name, "CR_ODD_ARG_%zu", i);
        setenv(name, values[i], 1);
        snprintf(args + strlen(args), sizeof args - strlen(args), " \"$%s\"", name);
        memcpy(want + want_len, values[i], strlen(values[i]) + 1);
        want_len += strlen(values[i]) + 1;
    }
    run_result r = run_all_ok(args);
    run_free(&r);
    sh("mkdir %s/rargs2 && cp %s/rargs/run-options %s/rargs2/", tmp, tmp, tmp);
    snprintf(args, sizeof args, "--resume %s/rargs2", tmp);
    r = run_all_ok(args);
    run_free(&r);
    for (int k = 0; k < 2; ++k) {
        char path[512], got[8192];
        snprintf(path, sizeof path, "%s/%s/opencl-0-Fake_device/args.bin", tmp, k ? "rargs2" : "rargs");
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        size_t len = fread(got, 1, sizeof got, f);
        fclose(f);
        if (len != want_len || memcmp(got, want, len) != 0)
            fail_msg("%s: the benchmark got %zu bytes of arguments, want %zu", path, len, want_len);
    }
    assert_false(exists("%s", pwned()));
}

/* run_all.sh ARGS on a disk that takes at most limit bytes per file, as a
 * full one: SIGXFSZ ignored (inherited across exec) and RLIMIT_FSIZE set
 * before the exec. A file collecting stdout or stderr would be under the
 * limit too: they come back through a pipe each, which it does not touch. */
static run_result run_all_on_full_disk(rlim_t limit, const char *args)
{
    int out[2], err[2];
    assert_int_equal(pipe(out), 0);
    assert_int_equal(pipe(err), 0);
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "exec env %s %s/run_all.sh %s </dev/null", env(), CR_SOURCE_DIR, args);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(err[1], 2);
        close(out[0]), close(out[1]), close(err[0]), close(err[1]);
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {limit, limit};
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(126);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    /* Both pipes at once: neither writer may block on a full pipe. */
    struct pollfd fds[2] = {{.fd = out[0], .events = POLLIN}, {.fd = err[0], .events = POLLIN}};
    char *text[2] = {malloc(1), malloc(1)};
    size_t len[2] = {0, 0};
    text[0][0] = text[1][0] = '\0';
    for (int open_fds = 2; open_fds > 0;) {
        if (poll(fds, 2, -1) < 0) {
            assert_int_equal(errno, EINTR);
            continue;
        }
        for (int k = 0; k < 2; ++k) {
            if (fds[k].fd < 0 || fds[k].revents == 0)
                continue;
            char buf[4096];
            ssize_t n = read(fds[k].fd, buf, sizeof buf);
            if (n <= 0) {
                close(fds[k].fd);
                fds[k].fd = -1;
                --open_fds;
                continue;
            }
            text[k] = realloc(text[k], len[k] + (size_t)n + 1);
            memcpy(text[k] + len[k], buf, (size_t)n);
            len[k] += (size_t)n;
            text[k][len[k]] = '\0';
        }
    }
    return (run_result){.status = exit_status(pid), .out = text[0], .err = text[1]};
}

/* Its last line on stderr is "run_all.sh: error: cannot write PATH: File too large". */
static void expect_write_refused(const run_result *r, const char *path)
{
    char want[2200];
    snprintf(want, sizeof want, "run_all.sh: error: cannot write %s: File too large\n", path);
    size_t n = strlen(r->err), w = strlen(want);
    if (r->status != 1 || n < w || strcmp(r->err + n - w, want) != 0 || (n > w && r->err[n - w - 1] != '\n'))
        fail_msg("status %d (want 1), stderr:\n%s(want its last line: %s)", r->status, r->err, want);
}

/* ok-opencl into TMP/RUN on a full disk that takes limit bytes a file: the
 * write of RUN/FILE is refused, with exit 1 (the caller frees the result). */
static run_result run_until_full(rlim_t limit, const char *run, const char *file)
{
    char args[2048], path[2048];
    snprintf(args, sizeof args, "--only ok-opencl --out %s/%s", tmp, run);
    run_result r = run_all_on_full_disk(limit, args);
    snprintf(path, sizeof path, "%s/%s/%s", tmp, run, file);
    expect_write_refused(&r, path);
    return r;
}

/* A full disk at each of run_all's own writes: the write is reported in
 * one line, exit 1, and no file is left half written or empty where a
 * complete one is expected. First no byte fits: run-options, the first
 * write, fails, and the run directory goes. */
static void test_full_disk_at_run_options(void **state)
{
    (void)state;
    make_fakes();
    run_result r = run_until_full(0, "rfull0", "run-options");
    if (count_lines(r.err) != 1 || r.out[0] != '\0')
        fail_msg("want one line on stderr, nothing on stdout; stdout:\n%s\nstderr:\n%s", r.out, r.err);
    run_free(&r);
    assert_false(exists("%s/rfull0", tmp));
}

/* run-options and the log's header fit, not its first record: the log
 * keeps only whole lines, and the run stops there. */
static void test_full_disk_at_the_log(void **state)
{
    (void)state;
    make_fakes();
    run_result r = run_until_full(150, "rfull1", "run-log.csv");
    run_free(&r);
    assert_string_equal(log_summary("rfull1"), "");
    assert_false(exists("%s/rfull1/summary.txt", tmp));
}

/* Everything fits but the summary, which names the long run directory
 * three times (and the report, which fails): the summary is on stdout,
 * and summary.txt is not written at all. */
static void test_full_disk_at_the_summary(void **state)
{
    (void)state;
    make_fakes();
    char run[1024];
    snprintf(run, sizeof run, "rfull2/%0200d/%0200d/%0200d", 0, 0, 0);
    run_result r = run_until_full(1024, run, "summary.txt");
    expect_all_in(r.out, "crossroof summary (", "  passed   ok-opencl on Fake device");
    run_free(&r);
    assert_false(exists("%s/%s/summary.txt", tmp, run));
    assert_string_equal(log_summary(run), "ok-opencl passed\n");
}

/* Paths are data: an --out holding a space, quotes, $(...), backticks, ;
 * and a newline runs, and nothing in it is run. */
static void test_odd_out_path(void **state)
{
    (void)state;
    make_fakes();
    char odd[1024], path[2048];
    snprintf(odd, sizeof odd, "odd dir 'q' \"dq\" $(touch %s) `touch %s`; touch %s\nline2", pwned(), pwned(), pwned());
    snprintf(path, sizeof path, "%s/%s", tmp, odd);
    setenv("CR_ODD_OUT", path, 1);
    run_result r = run_all_ok("--only ok-opencl --out \"$CR_ODD_OUT\"");
    run_free(&r);
    assert_true(exists("%s/opencl-0-Fake_device/ok-opencl.csv", path));
    assert_string_equal(log_summary(odd), "ok-opencl passed\n");
    assert_false(exists("%s", pwned()));
}

/* A device name with quotes, a comma and what a shell would run goes into
 * run-log.csv and comes back from it as it was. */
static void test_odd_device_name(void **state)
{
    (void)state;
    make_fakes();
    char args[512], path[512];
    snprintf(args, sizeof args, "--only odd-opencl --out %s/rodd", tmp);
    run_result r = run_all_ok(args);
    expect_in(r.out, "  passed   odd-opencl on Odd \"dev\", $(touch ");
    run_free(&r);
    snprintf(path, sizeof path, "%s/rodd/run-log.csv", tmp);
    char *text = csv_slurp(path);
    assert_non_null(text);
    const char *p = text;
    csv_record rec;
    assert_int_equal(csv_next(&p, rec), 11);
    assert_int_equal(csv_next(&p, rec), 11);
    assert_string_equal(rec[0], "odd-opencl");
    assert_string_equal(rec[3], odd_label());
    free(text);
    assert_false(exists("%s", pwned()));
}

/* TMP/DIR/run-log.csv: the log's header, then one record: "ok-opencl" on
 * the fake device with status, seconds, mode and reason (a CSV field, as
 * given: quoted where it must be). */
static void put_run_log(const char *dir, const char *status, const char *seconds, const char *mode,
                        const char *reason)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/run-log.csv", tmp, dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n"
            "ok-opencl,opencl,0,Fake device,opencl-0-Fake_device,%s,%d,%s,%s,2024-01-01T00:00:00Z,%s\n",
            status, strcmp(status, "passed") ? 1 : 0, seconds, mode, reason);
    assert_int_equal(fclose(f), 0);
}

/* The time estimate reads the newest run beside this one: a time there
 * that bash arithmetic would evaluate (and run what its subscript holds)
 * is ignored. */
static void test_earlier_run_is_data(void **state)
{
    (void)state;
    make_fakes();
    char args[512], seconds[512];
    sh("mkdir -p %s/rhist/old", tmp);
    snprintf(seconds, sizeof seconds, "quick_default[$(touch %s)]", pwned());
    put_run_log("rhist/old", "passed", seconds, "full", "");
    snprintf(args, sizeof args, "--only ok-opencl --out %s/rhist/new", tmp);
    run_result r = run_all_ok(args);
    run_free(&r);
    assert_false(exists("%s", pwned()));
}

/* A field of megabytes in an earlier run's log (read for the estimate) and
 * in this run's own (read on --resume) is read whole, at once: not one
 * character at a time, which took minutes. The run must end well within
 * its hang guard. */
static void test_huge_field_in_a_log(void **state)
{
    (void)state;
    make_fakes();
    size_t huge = (size_t)2 << 20;
    char *reason = malloc(huge + 3), args[512];
    assert_non_null(reason);
    memset(reason, 'x', huge + 2);
    reason[0] = reason[huge + 1] = '"';
    reason[huge + 2] = '\0';
    sh("mkdir -p %s/rhuge/old", tmp);
    put_run_log("rhuge/old", "failed", "3", "full", reason);
    snprintf(args, sizeof args, "--only ok-opencl --out %s/rhuge/new", tmp);
    run_result r = run_all_ok(args);
    run_free(&r);
    hand_made_run("rhuge/resumed", "quick=0\ndevice=\nonly=ok-opencl\n");
    put_run_log("rhuge/resumed", "failed", "0.1", "full", reason);
    free(reason);
    snprintf(args, sizeof args, "--resume %s/rhuge/resumed", tmp);
    r = run_all(args);
    if (r.status != 1)
        fail_msg("--resume: status %d (want 1: the failed task stays failed)\nstderr:\n%.2000s", r.status, r.err);
    expect_in(r.out, "  FAILED   ok-opencl on Fake device: xxxx");
    run_free(&r);
}

/* An earlier run's log that is a FIFO (which would block its reader) or a
 * link to /dev/zero (which never ends) is not read for the estimate: the
 * new run goes on, saying which file it left. */
static void test_a_log_that_is_no_file_is_left(void **state)
{
    (void)state;
    make_fakes();
    char args[512];
    sh("mkdir -p %s/rodd/fifo %s/rodd/zero && mkfifo %s/rodd/fifo/run-log.csv && "
       "ln -s /dev/zero %s/rodd/zero/run-log.csv",
       tmp, tmp, tmp, tmp);
    snprintf(args, sizeof args, "--only ok-opencl --out %s/rodd/new", tmp);
    run_result r = run_all_ok(args);
    expect_all_in(r.out, "crossroof: not read for the estimate: ", "rodd/fifo/run-log.csv (not a regular file)",
                  "rodd/zero/run-log.csv (not a regular file)");
    assert_string_equal(r.err, "");
    run_free(&r);
}

/* On a terminal the progress line is cut to COLUMNS, which comes from the
 * environment: a value bash arithmetic would evaluate (and run what an array
 * subscript in it holds) is ignored. script(1) gives run_all a terminal. */
static void test_terminal_width_is_data(void **state)
{
    (void)state;
    if (system("command -v script >/dev/null 2>&1") != 0)
        skip();
    make_fakes();
    /* what a shell would run; and 08, digits that arithmetic reads as octal */
    char planted[sizeof tmp + 64], cmd[16384];
    snprintf(planted, sizeof planted, "'est[\\$(touch %s)]'", pwned());
    const char *const widths[] = {planted, "08"};
    for (size_t i = 0; i < countof(widths); ++i) {
        snprintf(cmd, sizeof cmd, "script -qec \"env %s COLUMNS=%s %s/run_all.sh --only ok-opencl --out %s/rcols%zu\" "
                 "/dev/null", env(), widths[i], CR_SOURCE_DIR, tmp, i);
        run_result r = run_shell(cmd);
        if (r.status != 0 || strstr(r.out, "value too great") != NULL)
            fail_msg("COLUMNS=%s: status %d\nstdout:\n%s\nstderr:\n%s", widths[i], r.status, r.out, r.err);
        expect_in(r.out, "  passed   ok-opencl on Fake device");
        run_free(&r);
    }
    assert_false(exists("%s", pwned()));
}

/* A resumed run writes only inside its folder: a device folder that is a
 * symbolic link to elsewhere, or a task's log that is a link or a FIFO,
 * stops it with one line before the task runs, and nothing is written
 * through. */
static void test_a_resumed_run_writes_only_in_its_folder(void **state)
{
    (void)state;
    make_fakes();
    char args[1024];
    static const char *const plants[] = {
        "rm -rf %1$s/rown/opencl-0-Fake_device && mkdir -p %1$s/elsewhere && "
        "ln -s %1$s/elsewhere %1$s/rown/opencl-0-Fake_device",
        "rm -rf %1$s/rown/opencl-0-Fake_device && mkdir %1$s/rown/opencl-0-Fake_device && "
        "ln -s %1$s/victim %1$s/rown/opencl-0-Fake_device/ok-opencl.log",
        "rm -rf %1$s/rown/opencl-0-Fake_device && mkdir %1$s/rown/opencl-0-Fake_device && "
        "mkfifo %1$s/rown/opencl-0-Fake_device/ok-opencl.log",
    };
    static const char *const said[] = {"is a symbolic link: a run writes only inside its own folder",
                                       "is a symbolic link: a run writes only inside its own folder",
                                       "is there but no regular file"};
    for (size_t i = 0; i < countof(plants); ++i) {
        sh("rm -rf %s/rown %s/elsewhere %s/victim", tmp, tmp, tmp);
        snprintf(args, sizeof args, "--only ok-opencl --out %s/rown", tmp);
        run_result r = run_all_ok(args);
        run_free(&r);
        /* the task interrupted, so that a resume runs it again */
        sh("sed -i 's/^ok-opencl,\\(.*\\),passed,0,/ok-opencl,\\1,interrupted,130,/' %s/rown/run-log.csv", tmp);
        char plant[2048];
        snprintf(plant, sizeof plant, plants[i], tmp);
        sh("%s", plant);
        snprintf(args, sizeof args, "--resume %s/rown", tmp);
        r = run_all(args);
        if (r.status != 1 || strstr(r.err, said[i]) == NULL)
            fail_msg("plant %zu: status %d (want 1)\nstderr:\n%s", i, r.status, r.err);
        run_free(&r);
        assert_false(exists("%s/elsewhere/ok-opencl.csv", tmp));
        assert_false(exists("%s/victim", tmp));
    }
}

/* A record whose quoted reason spans two lines is one record. */
static void test_record_on_two_lines(void **state)
{
    (void)state;
    make_fakes();
    char args[512];
    hand_made_run("rlines", "quick=0\ndevice=\nonly=ok-opencl\n");
    put_run_log("rlines", "failed", "0.1", "full", "\"first line\nsecond, \"\"line\"\"\"");
    snprintf(args, sizeof args, "--resume %s/rlines", tmp);
    run_result r = run_all(args);
    if (r.status != 1 || strstr(r.out, "FAILED   second") != NULL)
        fail_msg("status %d (want 1)\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    expect_all_in(r.out, "0 benchmark run(s)",
                  "  FAILED   ok-opencl on Fake device: first line second, \"line\" (log: ");
    run_free(&r);
}

TEST_MAIN(setup_all, teardown, test_failure_skip_and_completeness, test_interrupt_and_resume,
          test_interrupted_figures_are_owed, test_bad_input,
          test_more_bad_input, test_sigterm_ends_the_benchmark_group, test_sighup_ends_the_benchmark_group,
          test_sigkill_leaves_no_orphan, test_one_run_per_directory, test_resume_reads_options_as_data,
          test_options_round_trip, test_full_disk_at_run_options, test_full_disk_at_the_log,
          test_full_disk_at_the_summary, test_odd_out_path, test_odd_device_name, test_earlier_run_is_data,
          test_terminal_width_is_data, test_a_resumed_run_writes_only_in_its_folder, test_record_on_two_lines, test_huge_field_in_a_log, test_a_log_that_is_no_file_is_left)
