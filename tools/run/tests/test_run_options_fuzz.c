/* run_all.sh --resume reads a run's run-options file, which anyone who can
 * write the run directory can craft. Mutants of a good one (the general
 * mutations of every fuzz test, and key=value ones: keys given twice or
 * unknown, values that are shell code, escapes, run_all.sh's own options)
 * are read by the real reading code (tools/run/options.sh, through
 * read_run_options.sh), each in a shell of its own. Each is taken or
 * refused with one line and exit 2, never run: no mutant's command leaves
 * its file behind. What is taken obeys the rules (quick and gpu_check 0 or
 * 1, gpu_check=1 alone with none of quick, only and extra, no --out or
 * --device after --) and reads back the same when written again. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "shared/tests/fuzz.h"
#include "tests/test_main.h"

#include <sys/wait.h>
#include <unistd.h>

#define DRIVER CR_SOURCE_DIR "/tools/run/tests/read_run_options.sh"
enum { BATCH = 200 };

static char dir[64];
CR_SCRATCH_FIXTURES(dir, "run-options-fuzz")

/* A run-options file as run_all.sh writes it, with every key. */
static const char seed_file[] = "# read back by run_all.sh --resume: key=value; in values \\\\ is \\, \\n a newline\n"
                                "quick=1\n"
                                "gpu_check=0\n"
                                "device=Intel\\\\CPU\\nx\n"
                                "only=stream,atomics-opencl\n"
                                "extra=--reps\n"
                                "extra=3:5\n";

static const char *const keys[] = {"quick", "gpu_check", "device", "only", "extra", "Extra", "out", "", " quick",
                                   "quick ", "declare -a x", "extra[0]"};
static const char *const values[] = {
    "0", "1", "2", "", "--out", "--out=/tmp/elsewhere", "--device", "--device=1", "--out ", " --out", "-- --out",
    "--ou", "--o=/tmp/elsewhere", "--dev", "--devic=1", "--", "--outer",
    "$(touch pwned)", "`touch pwned`", "x[$(touch pwned)]", "a[`touch pwned`]", "${x:=$(touch pwned)}",
    "'; touch pwned; '", "\\", "\\n", "\\\\", "\\x", "\\", "a,,b", ",", "stream,", "*", "?", "[", "\x01", "\r",
    "-1", "01", "1\\n", "=", "==", "#", "declare -x quick=1",
};

/* One key=value mutation: a line's value replaced, or a line added. */
static void mutate_pair(fuzz_rng *r, fuzz_buf *b)
{
    const char *v = values[fuzz_below(r, sizeof values / sizeof *values)];
    size_t start, len;
    fuzz_line(r, b, &start, &len);
    const char *eq = memchr(b->bytes + start, '=', len);
    if (eq && fuzz_below(r, 2)) {
        size_t at = (size_t)(eq - b->bytes) + 1, end = start + len;
        while (end > at && (b->bytes[end - 1] == '\n' || b->bytes[end - 1] == '\r'))
            --end;
        fuzz_splice(b, at, end - at, v, strlen(v));
        return;
    }
    char line[256];
    int n = snprintf(line, sizeof line, "%s=%s\n", keys[fuzz_below(r, sizeof keys / sizeof *keys)], v);
    fuzz_splice(b, start, 0, line, (size_t)n);
}

static fuzz_buf mutant(fuzz_rng *r)
{
    fuzz_buf seed = {(char *)seed_file, sizeof seed_file - 1}, b = fuzz_mutant(r, &seed);
    /* The general mutations start from the seed; key=value ones on top. */
    for (size_t k = fuzz_below(r, 4); k > 0; --k)
        mutate_pair(r, &b);
    return b;
}

static fuzz_buf read_back(size_t i, const char *ext)
{
    char path[128];
    snprintf(path, sizeof path, "%s/m%zu%s", dir, i, ext);
    if (access(path, F_OK) != 0)
        return (fuzz_buf){NULL, 0};
    return fuzz_read(path);
}

/* Runs the driver on mutants first..first+n-1 (files m<i> in dir), within
 * a minute. */
static void read_all(size_t first, size_t n)
{
    char *argv[BATCH + 5], names[BATCH][32];
    size_t k = 0;
    argv[k++] = "timeout";
    argv[k++] = "60";
    argv[k++] = DRIVER;
    argv[k++] = dir;
    for (size_t j = 0; j < n; ++j) {
        snprintf(names[j], sizeof names[j], "m%zu", first + j);
        argv[k++] = names[j];
    }
    argv[k] = NULL;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("%s on mutants %zu..%zu: status %d (124: it took over a minute)", DRIVER, first, first + n - 1,
                 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* Whether a taken file's options hold what run_all.sh allows. */
static const char *rule_broken(const char *text)
{
    if (!strstr(text, "\nquick=0\n") && !strstr(text, "\nquick=1\n"))
        return "quick is not 0 or 1";
    if (!strstr(text, "\ngpu_check=0\n") && !strstr(text, "\ngpu_check=1\n"))
        return "gpu_check is not 0 or 1";
    /* the GPU check chooses its own configuration, of every CUDA benchmark */
    if (strstr(text, "\ngpu_check=1\n") && (strstr(text, "\nquick=1\n") || !strstr(text, "\nonly=\n") ||
                                            strstr(text, "\nextra=")))
        return "gpu_check=1 with quick=1, an only= or an extra=";
    /* --out or --device, or what a benchmark's parser would take for one
     * (a prefix of three letters or more) */
    for (const char *p = strstr(text, "\nextra="); p; p = strstr(p + 1, "\nextra=")) {
        const char *v = p + strlen("\nextra=");
        size_t len = strcspn(v, "=\n");
        if (len >= 3 && len <= 5 && strncmp(v, "--out", len) == 0)
            return "--out, or a short form of it, after --";
        if (len >= 3 && len <= 8 && strncmp(v, "--device", len) == 0)
            return "--device, or a short form of it, after --";
    }
    return NULL;
}

static void check(const fuzz_run *f, size_t i)
{
    fuzz_buf rc = read_back(i, ".rc"), err = read_back(i, ".err"), out = read_back(i, ".out"),
             again = read_back(i, ".again"), input = read_back(i, "");
    assert_non_null(rc.bytes);
    const char *why = NULL;
    if (strcmp(rc.bytes, "0\n") == 0) {
        if (err.len)
            why = "taken, with a message";
        else if (out.bytes == NULL || again.bytes == NULL || strcmp(out.bytes, again.bytes) != 0)
            why = "taken, but what it wrote back reads otherwise";
        else
            why = rule_broken(out.bytes);
    } else if (strcmp(rc.bytes, "2\n") == 0) {
        const char *prefix = "run_all.sh: error: --resume: ";
        if (strncmp(err.bytes, prefix, strlen(prefix)) != 0 || strchr(err.bytes, '\n') != err.bytes + err.len - 1)
            why = "refused, but not in one line naming --resume";
        else if (out.bytes)
            why = "taken, then refused when written back and read again";
    } else {
        why = "exit status neither 0 (taken) nor 2 (refused)";
    }
    if (why)
        fail_msg("seed %llu, mutant %zu: %s; exit %d, said '%s', file:\n%s", (unsigned long long)f->seed, i, why,
                 atoi(rc.bytes), err.bytes ? err.bytes : "", input.bytes);
    free(rc.bytes), free(err.bytes), free(out.bytes), free(again.bytes), free(input.bytes);
}

static void test_run_options_mutants(void **state)
{
    (void)state;
    fuzz_run f = fuzz_start("run-options", 4000, 4);
    char canary[128];
    snprintf(canary, sizeof canary, "%s/pwned", dir);
    for (size_t first = 0; fuzz_more(&f, first); first += BATCH) {
        size_t n = 0;
        for (; n < BATCH && first + n < f.iters; ++n) {
            fuzz_rng r = fuzz_rng_for(f.seed, first + n);
            fuzz_buf b = mutant(&r);
            char path[128];
            snprintf(path, sizeof path, "%s/m%zu", dir, first + n);
            fuzz_write(path, &b);
            free(b.bytes);
        }
        read_all(first, n);
        for (size_t j = 0; j < n; ++j, ++f.done) {
            check(&f, first + j);
            fuzz_buf rc = read_back(first + j, ".rc");
            f.accepted += strcmp(rc.bytes, "0\n") == 0;
            free(rc.bytes);
        }
        if (access(canary, F_OK) == 0)
            fail_msg("seed %llu: a mutant among %zu..%zu was run as code: %s exists", (unsigned long long)f.seed,
                     first, first + n - 1, canary);
        char cmd[192];
        snprintf(cmd, sizeof cmd, "rm -f '%s'/m*", dir);
        assert_int_equal(system(cmd), 0);
    }
    fuzz_report("run-options", &f);
    assert_true(f.accepted > 0 && f.accepted < f.done);
}

TEST_MAIN(scratch_setup, scratch_teardown, test_run_options_mutants)
