/* Shared by the end-to-end tests: run an executable of the suite with its
 * output captured, and read back the CSV it wrote. Include after cmocka.h. */
#ifndef CR_CLI_HARNESS_H
#define CR_CLI_HARNESS_H

#include "results.h"
#include "tests/csv_reader.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *bin_dir;
static char tmp[128]; /* a fresh directory per test program */

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

/* Runs "ENV BIN ARGS" through the shell with outputs captured. */
static inline run_result run(const char *env, const char *bin, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s/%s %s >%s/stdout 2>%s/stderr </dev/null", env ? env : "", bin_dir, bin, args,
             tmp, tmp);
    int st = system(cmd);
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

/* ---- the two ways a benchmark is skipped ---- */

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
    char want[128];
    snprintf(want, sizeof want, "%s: skipped: no OpenCL device", bin);
    run_result r = run(no_opencl_env(), bin, "--quick");
    assert_int_equal(r.status, 77);
    assert_int_equal(count_lines(r.err), 1);
    assert_non_null(strstr(r.err, want));
    run_free(&r);
}

/* A CUDA executable is built wherever nvcc is; without nvcc the test has
 * nothing to run and is skipped. */
static inline void require_cuda_binary(const char *bin)
{
    if (has_binary(bin))
        return;
    if (system("command -v nvcc >/dev/null 2>&1") == 0)
        fail_msg("nvcc is installed but %s/%s was not built", bin_dir, bin);
    skip();
}

/* `bin --quick` on a machine without an NVIDIA GPU: one line saying so, exit
 * 77. Where a GPU is present that path cannot be reached: skipped. */
static inline void expect_skip_without_gpu(const char *bin)
{
    if (system("nvidia-smi -L >/dev/null 2>&1") == 0)
        skip();
    char want[128];
    snprintf(want, sizeof want, "%s: skipped: no CUDA device", bin);
    run_result r = run(NULL, bin, "--quick");
    assert_int_equal(r.status, 77);
    assert_int_equal(count_lines(r.err), 1);
    assert_non_null(strstr(r.err, want));
    run_free(&r);
}

/* ---- the CSV as written ---- */

typedef struct {
    csv_record header;
    int ncols;
    csv_record *rows;
    int nrows;
} table;

static inline table read_table(const char *path)
{
    table t = {0};
    char *text = csv_slurp(path);
    assert_non_null(text);
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

static inline const char *cell(const table *t, int row, const char *col)
{
    int c = csv_column((char (*)[CSV_FIELD_LEN])t->header, t->ncols, col);
    assert_true(c >= 0);
    return t->rows[row][c];
}

static inline int setup(void **state)
{
    (void)state;
    bin_dir = getenv("CROSSROOF_BIN") ? getenv("CROSSROOF_BIN") : "build/bin";
    snprintf(tmp, sizeof tmp, "/tmp/crossroof-cli-XXXXXX");
    return mkdtemp(tmp) ? 0 : -1;
}

static inline int teardown(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    return system(cmd) == 0 ? 0 : -1;
}


#endif
