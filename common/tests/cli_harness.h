/* Shared by the end-to-end tests: run an executable of the suite with its
 * output captured, check what it said, and read back the files it wrote.
 * Include after cmocka.h. */
#ifndef CR_CLI_HARNESS_H
#define CR_CLI_HARNESS_H

#include "out_lock.h"
#include "results.h"
#include "tests/csv_reader.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *bin_dir;
/* The executables with a fault decorator (tests/planted_fault.h), named as
 * the real ones: CROSSROOF_FAULTY_BIN, else BIN_DIR/../faulty. */
static char faulty_dir[512];
static char tmp[128]; /* a fresh directory per test program */

#define countof(a) (sizeof(a) / sizeof((a)[0]))
/* A list of strings as the (array, count) pair the *_ functions take. */
#define TEXTS(...) (const char *const[]){__VA_ARGS__}, countof(((const char *const[]){__VA_ARGS__}))

typedef struct {
    int status;   /* exit status */
    char *out;    /* stdout */
    char *err;    /* stderr */
} run_result;

static inline void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
}

/* Runs a shell command line with nothing on stdin and both outputs captured. */
static inline run_result run_shell(const char *cmd)
{
    size_t len = strlen(cmd) + 2 * sizeof tmp + 64;
    char *full = malloc(len);
    assert_non_null(full);
    snprintf(full, len, "%s >%s/stdout 2>%s/stderr </dev/null", cmd, tmp, tmp);
    int st = system(full);
    free(full);
    run_result r = {.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1};
    char path[256];
    snprintf(path, sizeof path, "%s/stdout", tmp);
    r.out = csv_slurp(path);
    snprintf(path, sizeof path, "%s/stderr", tmp);
    r.err = csv_slurp(path);
    assert_non_null(r.out);
    assert_non_null(r.err);
    return r;
}

/* Runs "ENV DIR/BIN ARGS". */
static inline run_result run_from(const char *dir, const char *env, const char *bin, const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s/%s %s", env ? env : "", dir, bin, args);
    return run_shell(cmd);
}

/* Runs "ENV BIN ARGS", BIN from the directory of executables under test. */
static inline run_result run(const char *env, const char *bin, const char *args)
{
    return run_from(bin_dir, env, bin, args);
}

/* run_from(), failing (with what it said on stderr) unless it exits with status. */
static inline run_result run_from_with_status(const char *dir, int status, const char *env, const char *bin,
                                              const char *args)
{
    run_result r = run_from(dir, env, bin, args);
    if (r.status != status)
        fail_msg("%s/%s %s: status %d (want %d), stderr:\n%s", dir, bin, args, r.status, status, r.err);
    return r;
}

/* run(), failing (with what it said on stderr) unless it exits with status. */
static inline run_result run_with_status(int status, const char *env, const char *bin, const char *args)
{
    return run_from_with_status(bin_dir, status, env, bin, args);
}

static inline int count_lines(const char *s)
{
    int n = 0;
    for (; *s; ++s)
        n += *s == '\n';
    return n;
}

static inline bool has_binary(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", bin_dir, name);
    return access(path, X_OK) == 0;
}

/* A shell command that must succeed. */
__attribute__((format(printf, 1, 2))) static inline void sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (system(cmd) != 0)
        fail_msg("failed: %s", cmd);
}

/* The text of a file under the temporary directory, named as printf would
 * (caller frees); fails when it was not written. */
__attribute__((format(printf, 1, 2))) static inline char *slurp_tmp(const char *fmt, ...)
{
    char name[512], path[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    char *text = csv_slurp(path);
    if (text == NULL)
        fail_msg("%s was not written", path);
    return text;
}

/* What a program leaves behind when SIGTERM reaches it while gnuplot
 * draws: runs `cmd` (sh syntax) in a session of its own with gnuplot a
 * stand-in that runs `gnuplot_body` (sh) and waits, waits until a name in
 * the folder dir matches `ready` (grep -E), stops it, and fails where a
 * name in dir matches `left`. The signal goes to its process group, as
 * run_all.sh stops a task; or, group false, to the program alone, as a
 * user's kill does, and then the stand-in gnuplot must be gone too: the
 * program stops what it started. */
static inline void expect_nothing_left_after_sigterm_to(const char *cmd, const char *gnuplot_body, const char *dir,
                                                        const char *ready, const char *left, bool group)
{
    sh("mkdir -p %s/slowgp && printf '#!/bin/sh\\n%s\\nexec sleep 30.%d\\n' > %s/slowgp/gnuplot && "
       "chmod +x %s/slowgp/gnuplot",
       tmp, gnuplot_body, (int)getpid(), tmp, tmp);
    char full[4096];
    snprintf(full, sizeof full,
             /* in ( ): run_shell's redirection is for all of it */
             "( { PATH=\"%s/slowgp:$PATH\" setsid %s >/dev/null 2>&1 & }; pid=$!; "
             "for i in $(seq 100); do ls -a '%s' | grep -qE '%s' && break; sleep 0.1; done; "
             "kill -TERM %s$pid; wait $pid; ls -a '%s' | grep -E '%s'; "
             "pgrep -f 'slee[p] 30[.]%d$' >/dev/null && echo 'the stand-in gnuplot still runs'; true )",
             tmp, cmd, dir, ready, group ? "-" : "", dir, left, (int)getpid());
    run_result r = run_shell(full);
    if (r.out[0] != '\0')
        fail_msg("%s: left behind after SIGTERM to %s: %s", cmd, group ? "its group" : "it alone", r.out);
    run_free(&r);
}
#define expect_nothing_left_after_sigterm(cmd, gnuplot_body, dir, ready, left)                                          \
    expect_nothing_left_after_sigterm_to(cmd, gnuplot_body, dir, ready, left, true)

/* ---- what an executable says ---- */

static inline void expect_in(const char *text, const char *what)
{
    if (strstr(text, what) == NULL)
        fail_msg("'%s' is not in:\n%s", what, text);
}

static inline void expect_all_in_(const char *text, const char *const *whats, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        expect_in(text, whats[i]);
}
#define expect_all_in(text, ...) expect_all_in_(text, TEXTS(__VA_ARGS__))

/* A file the run left under tmp holds each of the texts (the failure shows
 * the whole file, so it says which one lacks what). */
static inline void expect_tmp_file_has_(const char *name, const char *const *texts, size_t n)
{
    char *text = slurp_tmp("%s", name);
    expect_all_in_(text, texts, n);
    free(text);
}
#define expect_tmp_file_has(name, ...) expect_tmp_file_has_(name, TEXTS(__VA_ARGS__))

/* `BIN ARGS` exits with status, and says each of the texts on stdout. */
static inline void expect_output_(const char *bin, const char *args, int status, const char *const *texts, size_t n)
{
    run_result r = run_with_status(status, NULL, bin, args);
    expect_all_in_(r.out, texts, n);
    run_free(&r);
}
#define expect_output(bin, args, status, ...) expect_output_(bin, args, status, TEXTS(__VA_ARGS__))

/* Refused input: exit status and one line on stderr, "PROG: error: ..."
 * saying text (PROG is the executable's file name). */
static inline void expect_error_on_stderr(const run_result *r, const char *bin, const char *args, int status,
                                          const char *text)
{
    const char *prog = strrchr(bin, '/') ? strrchr(bin, '/') + 1 : bin;
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s: error: ", prog);
    if (r->status != status || count_lines(r->err) != 1 || strstr(r->err, text) == NULL ||
        strncmp(r->err, prefix, strlen(prefix)) != 0)
        fail_msg("'%s': status %d (want %d), stderr: %s (want one line '%s...%s')", args, r->status, status, r->err,
                 prefix, text);
}

/* ... and, refused before it began, nothing on stdout. */
static inline void expect_error_line(const run_result *r, const char *bin, const char *args, int status,
                                     const char *text)
{
    expect_error_on_stderr(r, bin, args, status, text);
    if (r->out[0] != '\0')
        fail_msg("'%s': refused, yet wrote on stdout: %s", args, r->out);
}

static inline void expect_error(const char *bin, const char *args, int status, const char *text)
{
    run_result r = run(NULL, bin, args);
    expect_error_line(&r, bin, args, status, text);
    run_free(&r);
}

/* Refused only once it had begun, and had said so on stdout. */
static inline void expect_late_error(const char *bin, const char *args, int status, const char *text)
{
    run_result r = run(NULL, bin, args);
    expect_error_on_stderr(&r, bin, args, status, text);
    run_free(&r);
}

typedef struct {
    const char *args;
    int status; /* 2: refused as usage, 1: refused when it came to run */
    const char *text;
} bad_input;

/* Each case refused as expect_error() says, its arguments after before
 * (where not NULL). */
static inline void expect_bad_inputs_(const char *bin, const char *before, const bad_input *cases, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        char args[1024];
        snprintf(args, sizeof args, "%s%s%s", before ? before : "", before ? " " : "", cases[i].args);
        expect_error(bin, args, cases[i].status, cases[i].text);
    }
}
#define expect_bad_inputs(bin, cases) expect_bad_inputs_(bin, NULL, cases, countof(cases))

/* The environments a listed refusal is tried under: as it is, and with
 * PoCL reporting 1 GB and 2 GB of device memory (POCL_MEMORY_LIMIT, in GB).
 * The device's allocation limit decides which defaults a benchmark lowers,
 * and says so in a note; an error must still be the one line on stderr,
 * whatever the device reports. */
#define POCL_MEMORY_ENVS {NULL, "POCL_MEMORY_LIMIT=1", "POCL_MEMORY_LIMIT=2"}

/* expect_error() under each of POCL_MEMORY_ENVS; a failure names the
 * environment it happened under. The sanitizer pass tries the first alone:
 * the limited memories change which values are refused, not the code that
 * refuses them, and each opens the device again (a quarter of a second). */
static inline void expect_error_whatever_the_memory(const char *bin, const char *args, int status, const char *text)
{
    const char *const envs[] = POCL_MEMORY_ENVS;
    const char *pass = getenv("CROSSROOF_SANITIZED");
    size_t tried = pass != NULL && strcmp(pass, "1") == 0 ? 1 : countof(envs);
    for (size_t i = 0; i < tried; ++i) {
        char label[1200];
        snprintf(label, sizeof label, "%s%s%s%s", args, envs[i] ? " [PoCL memory limited: " : "",
                 envs[i] ? envs[i] : "", envs[i] ? " GB]" : "");
        run_result r = run(envs[i], bin, args);
        expect_error_line(&r, bin, label, status, text);
        run_free(&r);
    }
}

/* The same for the cases listed in a file of the source tree, one a line:
 * "STATUS | ARGUMENTS | TEXT" (ARGUMENTS may be empty), each after before
 * where it is not NULL (a results directory the options would apply to);
 * blank lines and lines starting with # are skipped. A list with no case
 * fails. Each case is tried as expect_error_whatever_the_memory() says. */
#ifdef CR_SOURCE_DIR
static inline void expect_listed_bad_inputs_after(const char *bin, const char *before, const char *list)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CR_SOURCE_DIR, list);
    char *text = csv_slurp(path);
    if (text == NULL)
        fail_msg("cannot read %s", path);
    int cases = 0, line_no = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        ++line_no;
        if (line[0] == '\0' || line[0] == '#')
            continue;
        char *args = strstr(line, " | "), *msg = args ? strstr(args + 2, " | ") : NULL;
        if (msg == NULL)
            fail_msg("%s:%d: not 'STATUS | ARGUMENTS | TEXT'", path, line_no);
        *args = *msg = '\0';
        char full[1024];
        snprintf(full, sizeof full, "%s%s%s", before ? before : "", before ? " " : "", args + 3);
        expect_error_whatever_the_memory(bin, full, atoi(line), msg + 3);
        ++cases;
    }
    free(text);
    if (cases == 0)
        fail_msg("%s lists no case", path);
}
#define expect_listed_bad_inputs(bin, list) expect_listed_bad_inputs_after(bin, NULL, list)
#endif
#define expect_bad_inputs_after(bin, before, cases) expect_bad_inputs_(bin, before, cases, countof(cases))

/* ---- the two ways a benchmark is skipped ---- */

/* Exit 77 with one line on stderr, "BIN: skipped: WHY...". */
static inline void expect_skip_line(const run_result *r, const char *bin, const char *why)
{
    char want[160];
    snprintf(want, sizeof want, "%s: skipped: %s", bin, why);
    if (r->status != 77 || count_lines(r->err) != 1 || strstr(r->err, want) == NULL)
        fail_msg("status %d (want 77), stderr: %s (want one line '%s')", r->status, r->err, want);
}

/* The environment (one VAR=value) under which the OpenCL loader finds no
 * platform at all. */
static inline const char *no_opencl_env(void)
{
    static char env[256];
    snprintf(env, sizeof env, "OCL_ICD_VENDORS=%s/no-icds", tmp);
    mkdir(strchr(env, '=') + 1, 0777);
    return env;
}

/* `bin --quick` without any OpenCL platform: one line saying so, exit 77. */
static inline void expect_skip_without_opencl(const char *bin)
{
    run_result r = run(no_opencl_env(), bin, "--quick");
    expect_skip_line(&r, bin, "no OpenCL device");
    run_free(&r);
}

/* Whether a CUDA executable was built. It is wherever nvcc is, so that its
 * absence beside nvcc fails. */
static inline bool cuda_binary_built(const char *bin)
{
    if (has_binary(bin))
        return true;
    if (system("command -v nvcc >/dev/null 2>&1") == 0)
        fail_msg("nvcc is installed but %s/%s was not built", bin_dir, bin);
    return false;
}

/* Without the executable (and without nvcc) the test has nothing to run. */
static inline void require_cuda_binary(const char *bin)
{
    if (!cuda_binary_built(bin))
        skip();
}

/* Where a GPU is present the no-GPU path cannot be reached: skipped. */
static inline void require_no_gpu(void)
{
    if (system("nvidia-smi -L >/dev/null 2>&1") == 0)
        skip();
}

/* The sanitizer pass (make integration-san, CROSSROOF_SANITIZED=1) repeats
 * every test on the executables and tools built with ASan+UBSan, but the
 * TIMED() ones (common/tests/test_main.h). A test that there would only
 * cost time, its host code run by the pass's other tests (sixteen million
 * lines read; executables the sanitizers do not build, the CUDA ones),
 * runs in the plain pass alone, saying so. */
static inline void plain_pass_only(const char *why)
{
    const char *pass = getenv("CROSSROOF_SANITIZED");
    if (pass != NULL && strcmp(pass, "1") == 0) {
        printf("in the plain pass only: %s\n", why);
        skip();
    }
}

/* `bin --quick` on a machine without an NVIDIA GPU: one line saying so, exit 77. */
static inline void expect_skip_without_gpu(const char *bin)
{
    require_no_gpu();
    run_result r = run(NULL, bin, "--quick");
    expect_skip_line(&r, bin, "no CUDA device");
    run_free(&r);
}

/* ---- the CSV as written ---- */

typedef struct {
    csv_record header;
    int ncols;
    csv_record *rows;
    int nrows;
} table;

/* The row every run without an energy sensor ends with (the tests' runs
 * see none: setup below); test_energy_cli reads it, the others leave it. */
static inline bool is_sensor_row(const csv_record header, int ncols, const csv_record row)
{
    int sweep = csv_column((char (*)[CSV_FIELD_LEN])header, ncols, "sweep");
    int variant = csv_column((char (*)[CSV_FIELD_LEN])header, ncols, "variant");
    return sweep >= 0 && variant >= 0 && strcmp(row[sweep], "sensor") == 0 && strcmp(row[variant], "energy") == 0;
}

/* A results CSV as written, every row (read_table: the measurement rows). */
static inline table read_table_with(const char *path, bool sensor_row)
{
    table t = {0};
    char *text = csv_slurp(path);
    if (text == NULL)
        fail_msg("%s was not written", path);
    const char *p = text;
    t.ncols = csv_next(&p, t.header);
    assert_int_equal(t.ncols, (int)cr_result_ncolumns);
    for (size_t i = 0; i < cr_result_ncolumns; ++i)
        assert_string_equal(t.header[i], cr_result_columns[i]);
    int cap = 0;
    csv_record rec;
    int n;
    while ((n = csv_next(&p, rec)) > 0) {
        assert_int_equal(n, t.ncols); /* every row complete */
        if (!sensor_row && is_sensor_row(t.header, t.ncols, rec))
            continue;
        if (t.nrows == cap) {
            cap = cap ? 2 * cap : 64;
            t.rows = realloc(t.rows, (size_t)cap * sizeof *t.rows);
        }
        memcpy(t.rows[t.nrows++], rec, sizeof rec);
    }
    assert_int_equal(n, 0); /* no malformed tail */
    free(text);
    return t;
}

static inline table read_table(const char *path) { return read_table_with(path, false); }

static inline void table_free(table *t)
{
    free(t->rows);
}

static inline const char *cell(const table *t, int row, const char *col)
{
    int c = csv_column((char (*)[CSV_FIELD_LEN])t->header, t->ncols, col);
    assert_true(c >= 0);
    return t->rows[row][c];
}

static inline bool cell_is(const table *t, int row, const char *col, const char *value)
{
    return strcmp(cell(t, row, col), value) == 0;
}

/* The cell contains text. */
static inline void expect_cell_has(const table *t, int row, const char *col, const char *text)
{
    if (strstr(cell(t, row, col), text) == NULL)
        fail_msg("row %d: %s '%s' lacks '%s'", row, col, cell(t, row, col), text);
}

/* Every row holds value in col (the note says why where one does not). */
static inline void expect_every_row(const table *t, const char *col, const char *value)
{
    for (int j = 0; j < t->nrows; ++j)
        if (!cell_is(t, j, col, value))
            fail_msg("row %d: %s '%s', want '%s'; note: %s", j, col, cell(t, j, col), value, cell(t, j, "note"));
}

static inline void expect_all_valid(const table *t)
{
    expect_every_row(t, "valid", "1");
}

/* The rows whose cells equal each (column, value) pair given, the list
 * ended by NULL: count_where(&t, "sweep", "degree", "backend", "host", NULL). */
__attribute__((sentinel)) static inline int count_where(const table *t, ...)
{
    int n = 0;
    for (int j = 0; j < t->nrows; ++j) {
        va_list ap;
        va_start(ap, t);
        bool all = true;
        for (const char *col; all && (col = va_arg(ap, const char *)) != NULL;)
            all = cell_is(t, j, col, va_arg(ap, const char *));
        va_end(ap);
        n += all;
    }
    return n;
}

/* The one row that failed verification (valid 0); fails unless there is
 * exactly one. */
static inline int only_invalid_row(const table *t)
{
    int found = -1, n = 0;
    for (int j = 0; j < t->nrows; ++j)
        if (cell_is(t, j, "valid", "0")) {
            found = j;
            ++n;
        }
    if (n != 1)
        fail_msg("%d rows failed verification, want 1", n);
    return found;
}

/* Where key's value starts in a row's "k=v;k=v" params, NULL if absent. */
static inline const char *param_at(const table *t, int row, const char *key)
{
    size_t klen = strlen(key);
    for (const char *p = cell(t, row, "params"); p; p = strchr(p, ';') ? strchr(p, ';') + 1 : NULL)
        if (strncmp(p, key, klen) == 0 && p[klen] == '=')
            return p + klen + 1;
    return NULL;
}

/* key's value as a whole number, -1 when absent. */
static inline long long param_ll(const table *t, int row, const char *key)
{
    const char *v = param_at(t, row, key);
    return v ? strtoll(v, NULL, 10) : -1;
}

/* key's value as text into buf ("" when absent). */
static inline const char *param_text(const table *t, int row, const char *key, char *buf, size_t len)
{
    const char *v = param_at(t, row, key);
    size_t n = v ? strcspn(v, ";") : 0;
    snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), v ? v : "");
    return buf;
}

/* The curves of a sweep: the rows of t whose sweep column is sweep,
 * grouped by key (the row's text from key_of, e.g. "float ilp=2"), each a
 * set of points, the row's x param. No curve may hold one x twice, and each
 * must have at least min points measured (a figure; a row without one,
 * such as an unsupported size, counts toward no curve's points). Returns
 * the number of curves. */
static inline int expect_curves_of(const table *t, const char *sweep, void (*key_of)(const table *, int, char *, size_t),
                                   const char *x, int min)
{
    enum { MAX_CURVES = 32, MAX_POINTS = 64 };
    static struct {
        char key[96];
        long long x[MAX_POINTS];
        int n, measured;
    } curves[MAX_CURVES];
    int ncurves = 0;
    for (int j = 0; j < t->nrows; ++j) {
        if (!cell_is(t, j, "sweep", sweep))
            continue;
        char key[96];
        key_of(t, j, key, sizeof key);
        long long v = param_ll(t, j, x);
        int c = 0;
        while (c < ncurves && strcmp(curves[c].key, key) != 0)
            ++c;
        if (c == ncurves) {
            assert_true(ncurves < MAX_CURVES);
            snprintf(curves[c].key, sizeof curves[c].key, "%s", key);
            curves[c].n = curves[c].measured = 0;
            ++ncurves;
        }
        for (int k = 0; k < curves[c].n; ++k)
            if (curves[c].x[k] == v)
                fail_msg("%s: %s=%lld twice", key, x, v);
        assert_true(curves[c].n < MAX_POINTS);
        curves[c].x[curves[c].n++] = v;
        curves[c].measured += cell(t, j, "figure")[0] != '\0';
    }
    for (int c = 0; c < ncurves; ++c)
        if (curves[c].measured < min)
            fail_msg("%s: %d %s points measured, want at least %d", curves[c].key, curves[c].measured, x, min);
    return ncurves;
}

/* Runs `BINS/BIN ARGS --out TMP/DIR` under env (NULL for none), failing
 * unless it exits with status, and reads the CSV it wrote, DIR/BIN.csv.
 * The run's outputs go to *kept when it is not NULL (the caller frees them). */
static inline table run_csv_from(const char *bins, const char *env, const char *bin, const char *args,
                                 const char *dir, int status, run_result *kept)
{
    char full[1024], path[512];
    snprintf(full, sizeof full, "%s --out %s/%s", args, tmp, dir);
    run_result r = run_from_with_status(bins, status, env, bin, full);
    snprintf(path, sizeof path, "%s/%s/%s.csv", tmp, dir, bin);
    table t = read_table(path);
    if (kept)
        *kept = r;
    else
        run_free(&r);
    return t;
}

/* run_csv_from() with the executables under test. */
static inline table run_csv(const char *env, const char *bin, const char *args, const char *dir, int status,
                            run_result *kept)
{
    return run_csv_from(bin_dir, env, bin, args, dir, status, kept);
}

/* run_csv() of BIN's build with the fault decorator, fault planted
 * (CROSSROOF_FAULT=fault), env beside it (NULL for none). */
static inline table run_faulty_csv(const char *fault, const char *env, const char *bin, const char *args,
                                   const char *dir, int status, run_result *kept)
{
    char full_env[256];
    snprintf(full_env, sizeof full_env, "%s CROSSROOF_FAULT=%s", env ? env : "", fault);
    return run_csv_from(faulty_dir, full_env, bin, args, dir, status, kept);
}

/* A run with a planted fault (run_faulty_csv) that one result's check
 * catches: exit 1, saying so; the CSV it wrote. */
static inline table run_planted(const char *fault, const char *bin, const char *args, const char *dir)
{
    run_result r;
    table t = run_faulty_csv(fault, NULL, bin, args, dir, 1, &r);
    expect_in(r.err, "1 result(s) failed verification");
    run_free(&r);
    return t;
}

/* A run with the fault planted (run_planted) whose one failed row, at
 * *row, has column equal to value and a note that holds each of the texts
 * after value, a NULL ending them. The caller frees the table. */
static inline table run_planted_failure(int *row, const char *fault, const char *bin, const char *args,
                                        const char *dir, const char *column, const char *value, ...)
{
    table t = run_planted(fault, bin, args, dir);
    *row = only_invalid_row(&t);
    assert_string_equal(cell(&t, *row, column), value);
    va_list ap;
    va_start(ap, value);
    for (const char *text; (text = va_arg(ap, const char *)) != NULL;)
        expect_cell_has(&t, *row, "note", text);
    va_end(ap);
    return t;
}

/* A number of the metadata of a run, TMP/DIR/BIN.meta.csv: its "key," line. */
static inline double meta_number(const char *dir, const char *bin, const char *key)
{
    char *meta = slurp_tmp("%s/%s.meta.csv", dir, bin), want[64];
    snprintf(want, sizeof want, "\n%s,", key);
    const char *at = strstr(meta, want);
    if (at == NULL)
        fail_msg("no %s in the metadata of %s", key, dir);
    double v = strtod(at + strlen(want), NULL);
    free(meta);
    return v;
}

/* Each key has a "key,value" line in the metadata of a run, TMP/DIR/BIN.meta.csv. */
static inline void expect_meta_keys_(const char *dir, const char *bin, const char *const *keys, size_t n)
{
    char *meta = slurp_tmp("%s/%s.meta.csv", dir, bin);
    for (size_t i = 0; i < n; ++i) {
        char line[128];
        snprintf(line, sizeof line, "\n%s,", keys[i]);
        expect_in(meta, line);
    }
    free(meta);
}
#define expect_meta_keys(dir, bin, ...) expect_meta_keys_(dir, bin, TEXTS(__VA_ARGS__))

/* `bin args` with stdout sent where no write goes (redirect: ">/dev/full",
 * a full disk, or ">&-", a closed descriptor): one line saying so, exit 1. */
static inline void expect_unwritable_stdout_said(const char *bin, const char *args, const char *redirect)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "( %s/%s %s %s )", bin_dir, bin, args, redirect);
    run_result r = run_shell(cmd);
    expect_error_on_stderr(&r, bin, cmd, 1, "cannot write standard output: ");
    run_free(&r);
}

/* What `bin --help`, and `bin args` where args is given, print must arrive:
 * into a full disk and into a closed stdout each is one line and exit 1. */
static inline void expect_output_must_arrive(const char *bin, const char *args)
{
    static const char *const redirects[] = {">/dev/full", ">&-"};
    for (size_t i = 0; i < countof(redirects); ++i) {
        expect_unwritable_stdout_said(bin, "--help", redirects[i]);
        if (args)
            expect_unwritable_stdout_said(bin, args, redirects[i]);
    }
}

/* ---- what every benchmark's executables do ----
 * A test program that defines BENCHMARK ("stream") before it includes this
 * header has these tests to list. */
#ifdef BENCHMARK
/* What every OpenCL executable refuses in the options they share. A device
 * that matches none of those present is bad usage (2); none at all is a
 * skip (77, test_no_device_is_skipped). */
static const bad_input opencl_bad_inputs[] = {
    {"--bogus", 2, "unknown or ambiguous option '--bogus'"},
    {"--device no-such-device-anywhere", 2, "no OpenCL device matches 'no-such-device-anywhere'"},
    {"--device 99", 2, "no OpenCL device with index 99"},
    {"--device 0:99", 2, "no OpenCL device 0:99"},
    {"--device 99999999999999999999999", 2, "no OpenCL device with index 99999999999999999999999"},
    {"--host-limit auto", 2, "--host-limit: 'auto' is not on or off"},
    /* A value with a newline still makes one line. */
    {"--device 'no\nsuch'", 2, "no OpenCL device matches 'no such'"},
    {"'--bogus\nline'", 2, "unknown or ambiguous option '--bogus line'"},
    /* run_all.sh checks a run's options with --check-options: one that
     * would print and exit would measure nothing */
    {"--check-options --help", 2, "--check-options: --help prints and exits, measuring nothing"},
    {"--check-options --list-devices", 2, "--check-options: --list-devices prints and exits, measuring nothing"},
    {"--check-options --reps 0", 2, "--reps"},
};

/* What an executable prints must arrive: --help into a full disk or a
 * closed stdout is a failure it says, not exit 0. */
static inline void test_unwritable_stdout_fails(void **state)
{
    (void)state;
    expect_output_must_arrive(BENCHMARK "-opencl", NULL);
}

/* Every refusal particular to the benchmark, from its tests/bad_inputs.txt. */
static inline void test_bad_inputs(void **state)
{
    (void)state;
    expect_listed_bad_inputs(BENCHMARK "-opencl", "bench/" BENCHMARK "/tests/bad_inputs.txt");
}

static inline void test_shared_options_are_refused(void **state)
{
    (void)state;
    expect_bad_inputs(BENCHMARK "-opencl", opencl_bad_inputs);
    run_result r = run("CROSSROOF_HOST_LIMIT=sometimes", BENCHMARK "-opencl", "--quick");
    expect_error_line(&r, BENCHMARK "-opencl", "--quick [CROSSROOF_HOST_LIMIT=sometimes]", 2,
                      "CROSSROOF_HOST_LIMIT: 'sometimes' is not on or off");
    run_free(&r);
    /* options that would run: exit 0, having opened and written nothing */
    char args[sizeof tmp + 64];
    snprintf(args, sizeof args, "--check-options --quick --out %s/checked-only", tmp);
    r = run("", BENCHMARK "-opencl", args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "");
    assert_int_equal(access(args + strlen("--check-options --quick --out "), F_OK), -1);
    run_free(&r);
}

/* Two runs writing into one output directory would lose one run's rows,
 * or pair one run's metadata with the other's CSV. While the directory's
 * lock is held (here by flock(1), its pid written in the lock file as a run
 * writes its own), a run into it is refused before it measures or writes
 * anything: exit 1, one line naming the directory and the holder. */
static inline void test_locked_output_is_refused(void **state)
{
    (void)state;
    const char *bin = BENCHMARK "-opencl";
    char cmd[2048];
    sh("mkdir -p %s/locked", tmp);
    /* The group's exec keeps the shell's pid, $$, for flock: the holder. */
    char lock[256];
    snprintf(lock, sizeof lock, "%s/locked/%s", tmp, CR_OUT_LOCK_NAME);
    snprintf(cmd, sizeof cmd, "{ echo $$; echo $$ >%s; exec flock %s %s/%s --quick --out %s/locked; }", lock, lock,
             bin_dir, bin, tmp);
    run_result r = run_shell(cmd);
    long holder = strtol(r.out, NULL, 10);
    char want[512];
    snprintf(want, sizeof want, "%s/locked is being written by another run (pid %ld)", tmp, holder);
    expect_error_on_stderr(&r, bin, "--quick --out <locked directory>", 1, want);
    if (holder <= 0 || strchr(r.out, '\n') != r.out + strlen(r.out) - 1)
        fail_msg("refused, yet wrote on stdout: %s", r.out);
    const char *const written[] = {"csv", "meta.csv"};
    for (size_t i = 0; i < countof(written); ++i) {
        char path[512];
        snprintf(path, sizeof path, "%s/locked/%s.%s", tmp, bin, written[i]);
        if (access(path, F_OK) == 0)
            fail_msg("refused, yet wrote %s", path);
    }
    char *pid = slurp_tmp("locked/%s", CR_OUT_LOCK_NAME); /* still the holder's */
    if (strtol(pid, NULL, 10) != holder)
        fail_msg("the refused run rewrote the lock file: '%s', holder %ld", pid, holder);
    free(pid);
    run_free(&r);
}

/* After a run the lock is free again: runs one after another share a
 * directory, as run_all.sh's runs of one device do. */
static inline void expect_output_lock_released(const char *dir)
{
    sh("test -f %s/%s/%s && flock -n %s/%s/%s true", tmp, dir, CR_OUT_LOCK_NAME, tmp, dir, CR_OUT_LOCK_NAME);
}

static inline void test_no_device_is_skipped(void **state)
{
    (void)state;
    expect_skip_without_opencl(BENCHMARK "-opencl");
}

static inline void test_cuda_binary_without_gpu(void **state)
{
    (void)state;
    require_cuda_binary(BENCHMARK "-cuda");
    expect_skip_without_gpu(BENCHMARK "-cuda");
}
#endif

/* ---- the test program ---- */

static inline int setup(void **state)
{
    (void)state;
    bin_dir = getenv("CROSSROOF_BIN") ? getenv("CROSSROOF_BIN") : "build/bin";
    if (getenv("CROSSROOF_FAULTY_BIN"))
        snprintf(faulty_dir, sizeof faulty_dir, "%s", getenv("CROSSROOF_FAULTY_BIN"));
    else
        snprintf(faulty_dir, sizeof faulty_dir, "%s/../faulty", bin_dir);
    /* Every run sees no energy sensor, whatever the machine has, so that
     * what a run writes does not depend on it; a test of the energy path
     * names a tree of its own. */
    setenv("CROSSROOF_POWERCAP_ROOT", "/nonexistent/powercap", 1);
    /* The host's memory limit takes most of a short run on a CPU device
     * (three arrays of 4x the last-level cache, 10-20 times): runs measure
     * it only where a test judges rows against it (--host-limit on). */
    setenv("CROSSROOF_HOST_LIMIT", "off", 1);
    return cr_scratch_make(tmp, sizeof tmp, "cli");
}

static inline int teardown(void **state)
{
    (void)state;
    return cr_scratch_remove(tmp);
}

/* The tests of an end-to-end test program, sharing one temporary directory. */
#define CLI_TEST_MAIN(...) TEST_MAIN_NAMED(#__VA_ARGS__, setup, teardown, __VA_ARGS__)

#endif
