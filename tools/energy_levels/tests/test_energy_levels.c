/* energy-levels on synthetic device directories laid out as the benchmarks
 * leave them: a discrete GPU whose rows carry energy (each level's rule
 * picks its rows, and only those), the same rows without a sensor, a
 * device sharing the host's memory, an empty directory; the atomic write;
 * and what it refuses: no directory, a malformed CSV, a bad reference. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "energy_levels/cli.h"
#include "energy_levels/levels.h"
#include "energy_levels/thesis.h"
#include "results.h"
#include "shared/result_reader.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char root[128];
CR_SCRATCH_FIXTURES(root, "energy-levels")

#define MIB(n) ((double)(n) * 1048576.0)

/* ---- writing a device directory ---- */

static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void fresh_dir(char *dir, size_t len, const char *name)
{
    snprintf(dir, len, "%s/%s", root, name);
    assert_int_equal(mkdir(dir, 0755), 0);
}

/* A results file being written: the header from common/results.c's own
 * list of columns, so that the rows are what the benchmarks write. */
typedef struct {
    char *text;
    size_t len;
    FILE *f;
} results_file;

static void results_open(results_file *r)
{
    r->f = open_memstream(&r->text, &r->len);
    assert_non_null(r->f);
    for (size_t c = 0; c < cr_result_ncolumns; ++c)
        fprintf(r->f, "%s%s", c ? "," : "", cr_result_columns[c]);
    fputc('\n', r->f);
}

/* One row from "column=value|column=value"; the columns every row has
 * (benchmark from the file, backend, n, valid) default to a verified
 * device row. */
static void row(results_file *r, const char *bench, const char *pairs)
{
    for (size_t c = 0; c < cr_result_ncolumns; ++c) {
        const char *col = cr_result_columns[c];
        char value[256] = "";
        if (strcmp(col, "benchmark") == 0)
            snprintf(value, sizeof value, "%s", bench);
        else if (strcmp(col, "backend") == 0)
            snprintf(value, sizeof value, "cuda");
        else if (strcmp(col, "n") == 0)
            snprintf(value, sizeof value, "10");
        else if (strcmp(col, "valid") == 0)
            snprintf(value, sizeof value, "1");
        size_t n = strlen(col);
        for (const char *p = pairs; *p; p += strcspn(p, "|"), p += *p == '|') {
            if (strncmp(p, col, n) == 0 && p[n] == '=')
                snprintf(value, sizeof value, "%.*s", (int)strcspn(p + n + 1, "|"), p + n + 1);
        }
        fprintf(r->f, "%s%s%s%s", c ? "," : "", strchr(value, ';') || strchr(value, ',') ? "\"" : "", value,
                strchr(value, ';') || strchr(value, ',') ? "\"" : "");
    }
    fputc('\n', r->f);
}

static void results_close(results_file *r, const char *dir, const char *name)
{
    assert_int_equal(fclose(r->f), 0);
    put(dir, name, r->text);
    free(r->text);
}

/* A discrete GPU with a 32 MiB L2 on a host whose own last-level cache is
 * 256 MiB (which must not count: the device's arrays live behind its L2). */
static const char gpu_meta[] = "key,value\n"
                               "device.name,Test GPU\n"
                               "device.type,gpu\n"
                               "device.unified_memory,0\n"
                               "device.cache_bytes,33554432\n"
                               "llc_bytes,268435456\n";

/* A CPU device: its last-level cache is the host's (the larger). */
static const char cpu_meta[] = "key,value\n"
                               "device.name,Test CPU\n"
                               "device.type,cpu\n"
                               "device.unified_memory,1\n"
                               "device.cache_bytes,1048576\n"
                               "llc_bytes,33554432\n";

/* The energy columns of a measured row, or nothing where there is no sensor. */
static void energy(char *out, size_t len, bool sensor, const char *col, double pj)
{
    if (sensor)
        snprintf(out, len, "%s=%g|energy_sensor=nvml:total-energy|energy_j=1|energy_interval_s=0.02", col, pj);
    else
        out[0] = '\0';
}

/* Every benchmark's rows: for each level the rows its rule must take (pJ
 * values whose median is known) beside rows it must leave (other sizes,
 * other variants, host rows, invalid or flagged rows, all with values that
 * would move the median). */
static void write_gpu_dir(const char *dir, bool sensor, const char *meta)
{
    results_file r;
    char e[160], line[512];
    const char *why = "variant=energy|sweep=sensor|stop=unsupported|energy_sensor=none|"
                      "note=no energy sensor: NVML is not there";
#define ROW(bench, fmt, col, pj, ...)                                                                                  \
    do {                                                                                                               \
        energy(e, sizeof e, sensor, col, pj);                                                                          \
        snprintf(line, sizeof line, fmt "|%s", __VA_ARGS__, e);                                                        \
        row(&r, bench, line);                                                                                          \
    } while (0)

    results_open(&r);
    /* dram: per kernel the largest working set >= 4 x 32 MiB: copy 256 MiB (500), triad 384 MiB (600). */
    ROW("stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 300.0, MIB(128));
    ROW("stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 500.0, MIB(256));
    ROW("stream", "variant=triad|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 600.0, MIB(384));
    ROW("stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f|valid=0", "pj_per_byte", 9000.0,
        MIB(512));
    ROW("stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f|flags=above-peak", "pj_per_byte",
        9000.0, MIB(1024));
    ROW("stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f|backend=host-openmp", "pj_per_byte",
        9000.0, MIB(2048));
    ROW("stream", "variant=copy|dtype=float|sweep=concurrency|bytes_per_rep=%.0f", "pj_per_byte", 9000.0, MIB(4096));
    /* A kernel whose energy the sensor did not resolve: the row stands for dram, its energy does not count. */
    ROW("stream", "variant=add|dtype=float|sweep=footprint|bytes_per_rep=%.0f|flags=energy-below-static",
        "pj_per_byte", -50.0, MIB(512));
    /* llc: per kernel the largest in [4 MiB, 16 MiB]: copy 16 MiB (10), triad 12 MiB (20). */
    ROW("stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 90.0, MIB(8));
    ROW("stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 10.0, MIB(16));
    ROW("stream", "variant=triad|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 20.0, MIB(12));
    ROW("stream", "variant=triad|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 90.0, MIB(1));
    ROW("stream", "variant=triad|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 90.0, MIB(24));
    if (!sensor)
        row(&r, "stream", why);
    results_close(&r, dir, "stream-cuda.csv");

    results_open(&r);
    /* pcie: pinned copies at the largest size, 1 GiB: 100 and 140. */
    ROW("bandwidth", "variant=h2d-memcpy-pinned|sweep=size|size_bytes=%.0f", "pj_per_byte", 100.0, MIB(1024));
    ROW("bandwidth", "variant=d2h-memcpy-pinned-async|sweep=size|size_bytes=%.0f", "pj_per_byte", 140.0, MIB(1024));
    ROW("bandwidth", "variant=h2d-memcpy-pinned|sweep=size|size_bytes=%.0f", "pj_per_byte", 9000.0, MIB(1));
    ROW("bandwidth", "variant=h2d-memcpy-pageable|sweep=size|size_bytes=%.0f", "pj_per_byte", 9000.0, MIB(1024));
    /* A path the device does not have: its row, at a larger size, measured nothing. */
    row(&r, "bandwidth", "variant=h2d-memcpy-pinned-wc|sweep=size|size_bytes=2147483648|stop=unsupported|"
                         "note=not supported: no write-combined memory");
    /* zero-copy: the mapped read at its largest size, 1 GiB: 300. */
    ROW("bandwidth", "variant=kernel-read-mapped|sweep=size|size_bytes=%.0f", "pj_per_byte", 300.0, MIB(1024));
    ROW("bandwidth", "variant=kernel-read-mapped|sweep=size|size_bytes=%.0f", "pj_per_byte", 9000.0, MIB(64));
    ROW("bandwidth", "variant=kernel-read-device|sweep=size|size_bytes=%.0f", "pj_per_byte", 9000.0, MIB(1024));
    ROW("bandwidth", "variant=kernel-read-managed|sweep=size|size_bytes=%.0f", "pj_per_byte", 9000.0, MIB(1024));
    if (!sensor)
        row(&r, "bandwidth", why);
    results_close(&r, dir, "bandwidth-cuda.csv");

    results_open(&r);
    /* atomic: global memory, the lowest degree, read-modify-write operations: 2 and 4. */
    ROW("atomics", "variant=add|dtype=uint32|sweep=degree|params=space=global;degree=%d;stride=1", "pj_per_op", 2.0, 1);
    ROW("atomics", "variant=cas|dtype=uint32|sweep=degree|params=space=global;degree=%d;stride=1", "pj_per_op", 4.0, 1);
    ROW("atomics", "variant=read|dtype=uint32|sweep=degree|params=space=global;degree=%d;stride=1", "pj_per_op", 900.0,
        1);
    ROW("atomics", "variant=add|dtype=uint32|sweep=degree|params=space=global;degree=%d;stride=1", "pj_per_op", 900.0,
        32);
    ROW("atomics", "variant=add|dtype=uint32|sweep=degree|params=space=local;degree=%d;stride=1", "pj_per_op", 900.0, 1);
    ROW("atomics", "variant=add|dtype=uint32|sweep=stride|params=space=global;degree=1;stride=%d", "pj_per_op", 900.0, 1);
    if (!sensor)
        row(&r, "atomics", why);
    results_close(&r, dir, "atomics-cuda.csv");

    results_open(&r);
    /* sfu-op: the fast versions in float: 5 and 7. */
    ROW("sfu", "variant=sin/ptx-approx|dtype=float|sweep=throughput|figure=%d", "pj_per_op", 5.0, 900);
    ROW("sfu", "variant=exp/ptx-approx|dtype=float|sweep=throughput|figure=%d", "pj_per_op", 7.0, 800);
    ROW("sfu", "variant=sin/precise|dtype=float|sweep=throughput|figure=%d", "pj_per_op", 900.0, 100);
    ROW("sfu", "variant=sin/ptx-approx|dtype=double|sweep=throughput|figure=%d", "pj_per_op", 900.0, 100);
    ROW("sfu", "variant=sin/ptx-approx|dtype=float|sweep=latency|figure=%d", "pj_per_op", 900.0, 100);
    if (!sensor)
        row(&r, "sfu", why);
    results_close(&r, dir, "sfu-cuda.csv");

    results_open(&r);
    /* sp-op and dp-op: the row at the highest throughput of each type: 20 and 60. */
    ROW("fma", "variant=fma|dtype=float|sweep=concurrency|figure=%d", "pj_per_op", 30.0, 1000);
    ROW("fma", "variant=fma|dtype=float|sweep=concurrency|figure=%d", "pj_per_op", 20.0, 2000);
    ROW("fma", "variant=fma|dtype=double|sweep=concurrency|figure=%d", "pj_per_op", 60.0, 900);
    if (!sensor)
        row(&r, "fma", why);
    results_close(&r, dir, "fma-cuda.csv");
#undef ROW
    put(dir, "stream-cuda.meta.csv", meta);
}

/* ---- running it and reading what it wrote ---- */

typedef struct {
    int status;
    char out[8192], err[2048];
} run_result;

static run_result run(const char *dir)
{
    run_result r = {0};
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    char *argv[] = {"energy-levels", (char *)dir, NULL};
    r.status = el_main(dir ? 2 : 1, argv, out, err);
    rewind(out);
    rewind(err);
    r.out[fread(r.out, 1, sizeof r.out - 1, out)] = '\0';
    r.err[fread(r.err, 1, sizeof r.err - 1, err)] = '\0';
    fclose(out);
    fclose(err);
    return r;
}

static cr_csv_table levels_of(const char *dir)
{
    char path[512], err[1024];
    snprintf(path, sizeof path, "%s/energy-levels.csv", dir);
    cr_csv_table t;
    if (cr_csv_load(&t, path, cr_schema_for(path), err, sizeof err) != 0)
        fail_msg("%s", err);
    return t;
}

/* The field of the level's row; NULL where there is no such row. */
static const char *level_field(const cr_csv_table *t, const char *level, const char *col)
{
    int lc = cr_csv_column(t, "level"), c = cr_csv_column(t, col);
    assert_true(lc >= 0 && c >= 0);
    for (size_t i = 0; i < t->nrows; ++i)
        if (strcmp(t->rows[i].fields[lc], level) == 0)
            return t->rows[i].fields[c];
    return NULL;
}

static void assert_pj(const cr_csv_table *t, const char *level, const char *col, double want)
{
    const char *v = level_field(t, level, col);
    assert_non_null(v);
    if (fabs(atof(v) - want) > 1e-9 * fabs(want) || *v == '\0')
        fail_msg("%s %s: %s, want %g", level, col, v, want);
}

static void assert_level(const cr_csv_table *t, const char *level, const char *status, const char *reason_part)
{
    const char *s = level_field(t, level, "status"), *why = level_field(t, level, "reason");
    assert_non_null(s);
    if (strcmp(s, status) != 0)
        fail_msg("%s: status %s, want %s (%s)", level, s, status, why);
    if (reason_part && strstr(why, reason_part) == NULL)
        fail_msg("%s: reason '%s' lacks '%s'", level, why, reason_part);
}

/* ---- the tests ---- */

static void test_measured_levels_take_their_rows(void **state)
{
    (void)state;
    char dir[256];
    fresh_dir(dir, sizeof dir, "measured");
    write_gpu_dir(dir, true, gpu_meta);
    run_result r = run(dir);
    assert_int_equal(r.status, EL_EXIT_OK);
    assert_string_equal(r.err, "");
    cr_csv_table t = levels_of(dir);
    static const struct {
        const char *level;
        double pj;
        const char *rows;
    } want[] = {{"dram", 550, "2"},     {"llc", 15, "2"},    {"pcie", 120, "2"},  {"zero-copy", 300, "1"},
                {"atomic", 3, "2"},     {"sfu-op", 6, "2"},  {"sp-op", 20, "1"},  {"dp-op", 60, "1"}};
    for (size_t i = 0; i < sizeof want / sizeof *want; ++i) {
        assert_level(&t, want[i].level, "measured", NULL);
        assert_pj(&t, want[i].level, "pj", want[i].pj);
        assert_string_equal(level_field(&t, want[i].level, "rows"), want[i].rows);
        assert_string_equal(level_field(&t, want[i].level, "sensor"), "nvml:total-energy");
    }
    assert_string_equal(level_field(&t, "dram", "basis"), "per-byte");
    assert_non_null(strstr(level_field(&t, "dram", "reason"), "1 of the 3 rows left out"));
    assert_string_equal(level_field(&t, "atomic", "basis"), "per-op");
    /* The rows used are named: file, kernels, sizes. */
    assert_non_null(strstr(level_field(&t, "dram", "source"), "stream-cuda.csv: copy/float, triad/float"));
    assert_non_null(strstr(level_field(&t, "dram", "source"), "256 MiB to 512 MiB"));
    assert_non_null(strstr(level_field(&t, "pcie", "source"), "1 GiB"));
    /* Ranasinghe's values beside them, per 4-byte word and per operation. */
    assert_pj(&t, "dram", "thesis_pj", 550);
    assert_string_equal(level_field(&t, "dram", "thesis_symbol"), "e_gs/4B");
    assert_pj(&t, "shared", "thesis_pj", 55.75);
    assert_pj(&t, "sp-op", "thesis_pj", 45);
    assert_string_equal(level_field(&t, "llc", "thesis_pj"), "");
    assert_string_equal(level_field(&t, "atomic", "thesis_pj"), "");
    /* No benchmark streams shared memory: said, not invented. */
    assert_level(&t, "shared", "no-rows", "no benchmark of the suite streams local (shared) memory");
    assert_string_equal(level_field(&t, "shared", "pj"), "");
    assert_non_null(strstr(r.out, "dram"));
    cr_csv_free(&t);
}

static void test_without_a_sensor_each_level_says_why(void **state)
{
    (void)state;
    char dir[256];
    fresh_dir(dir, sizeof dir, "no-sensor");
    write_gpu_dir(dir, false, gpu_meta);
    run_result r = run(dir);
    assert_int_equal(r.status, EL_EXIT_OK);
    cr_csv_table t = levels_of(dir);
    static const char *const levels[] = {"dram", "llc", "pcie", "zero-copy", "atomic", "sfu-op", "sp-op", "dp-op"};
    for (size_t i = 0; i < sizeof levels / sizeof *levels; ++i) {
        assert_level(&t, levels[i], "no-sensor", "NVML is not there");
        assert_string_equal(level_field(&t, levels[i], "pj"), "");
        assert_string_equal(level_field(&t, levels[i], "rows"), "0");
    }
    /* The thesis's values stay, for the figure to draw alone. */
    assert_pj(&t, "dram", "thesis_pj", 550);
    cr_csv_free(&t);
}

static void test_a_device_sharing_host_memory_has_no_pcie(void **state)
{
    (void)state;
    char dir[256];
    fresh_dir(dir, sizeof dir, "cpu");
    /* The CPU's last-level cache is the host's 32 MiB, as on the GPU: the same levels but PCIe. */
    write_gpu_dir(dir, true, cpu_meta);
    assert_int_equal(run(dir).status, EL_EXIT_OK);
    cr_csv_table t = levels_of(dir);
    assert_level(&t, "pcie", "no-rows", "shares the host's memory");
    assert_pj(&t, "dram", "pj", 550);
    assert_pj(&t, "llc", "pj", 15);
    assert_pj(&t, "zero-copy", "pj", 300);
    cr_csv_free(&t);
}

static void test_an_empty_directory_has_no_rows_anywhere(void **state)
{
    (void)state;
    char dir[256];
    fresh_dir(dir, sizeof dir, "empty");
    run_result r = run(dir);
    assert_int_equal(r.status, EL_EXIT_OK);
    cr_csv_table t = levels_of(dir);
    /* Every level but dp-op, which appears only with double rows. */
    assert_int_equal(t.nrows, 8);
    assert_null(level_field(&t, "dp-op", "status"));
    assert_level(&t, "dram", "no-rows", "last-level cache is unknown");
    assert_level(&t, "pcie", "no-rows", "does not say whether the device has memory of its own");
    assert_level(&t, "zero-copy", "no-rows", "no bandwidth-*.csv here");
    assert_level(&t, "atomic", "no-rows", "the atomics benchmark did not run");
    assert_level(&t, "sp-op", "no-rows", "no fma-*.csv here");
    cr_csv_free(&t);
}

static void test_a_quick_sweep_reaches_no_memory_level(void **state)
{
    (void)state;
    char dir[256];
    fresh_dir(dir, sizeof dir, "quick");
    results_file r;
    results_open(&r);
    row(&r, "stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=4194304|pj_per_byte=5");
    results_close(&r, dir, "stream-cuda.csv");
    put(dir, "stream-cuda.meta.csv", gpu_meta);
    assert_int_equal(run(dir).status, EL_EXIT_OK);
    cr_csv_table t = levels_of(dir);
    assert_level(&t, "dram", "no-rows", "at least 4x the 32 MiB last-level cache");
    assert_level(&t, "llc", "measured", NULL);
    assert_pj(&t, "llc", "pj", 5);
    cr_csv_free(&t);
}

static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void test_the_table_is_replaced_whole(void **state)
{
    (void)state;
    char dir[256], path[300];
    fresh_dir(dir, sizeof dir, "atomic");
    write_gpu_dir(dir, true, gpu_meta);
    snprintf(path, sizeof path, "%s/energy-levels.csv", dir);
    put(dir, "energy-levels.csv", "an older table\n");
    size_t before = count_entries(dir);
    assert_int_equal(run(dir).status, EL_EXIT_OK);
    /* Replaced by a rename: no temporary file left beside it. */
    assert_int_equal(count_entries(dir), before);
    cr_csv_table t = levels_of(dir);
    assert_pj(&t, "dram", "pj", 550);
    cr_csv_free(&t);

    /* Where it cannot be written (a directory in its place), one line and exit 1. */
    char blocked[256];
    fresh_dir(blocked, sizeof blocked, "blocked");
    write_gpu_dir(blocked, true, gpu_meta);
    snprintf(path, sizeof path, "%s/energy-levels.csv", blocked);
    assert_int_equal(mkdir(path, 0755), 0);
    before = count_entries(blocked);
    run_result r = run(blocked);
    assert_int_equal(r.status, EL_EXIT_BAD_DATA);
    assert_non_null(strstr(r.err, "energy-levels: error: "));
    assert_non_null(strstr(r.err, "energy-levels.csv"));
    assert_int_equal(strchr(r.err, '\n') - r.err + 1, (long)strlen(r.err));
    assert_int_equal(count_entries(blocked), before);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
}

static void test_bad_input_is_one_line_and_writes_nothing(void **state)
{
    (void)state;
    /* No argument, or an option: usage. */
    run_result r = run(NULL);
    assert_int_equal(r.status, EL_EXIT_USAGE);
    assert_non_null(strstr(r.err, "usage"));

    /* A directory that is not there. */
    char missing[256];
    snprintf(missing, sizeof missing, "%s/not-there", root);
    r = run(missing);
    assert_int_equal(r.status, EL_EXIT_USAGE);
    assert_non_null(strstr(r.err, "not-there"));
    assert_int_equal(strchr(r.err, '\n') - r.err + 1, (long)strlen(r.err));
    assert_string_equal(r.out, "");

    /* A results CSV with a record one field short: FILE:LINE, exit 1, nothing written. */
    char dir[256], path[300];
    fresh_dir(dir, sizeof dir, "malformed");
    write_gpu_dir(dir, true, gpu_meta);
    results_file f;
    results_open(&f);
    row(&f, "atomics", "variant=add|sweep=degree|params=space=global;degree=1|pj_per_op=2");
    fputs("atomics,cuda,cut short\n", f.f);
    results_close(&f, dir, "atomics-cuda.csv");
    r = run(dir);
    assert_int_equal(r.status, EL_EXIT_BAD_DATA);
    assert_non_null(strstr(r.err, "atomics-cuda.csv:3:"));
    assert_int_equal(strchr(r.err, '\n') - r.err + 1, (long)strlen(r.err));
    assert_string_equal(r.out, "");
    snprintf(path, sizeof path, "%s/energy-levels.csv", dir);
    struct stat st;
    assert_int_equal(stat(path, &st), -1);

    /* A number that is not one, in an energy column. */
    fresh_dir(dir, sizeof dir, "bad-number");
    results_open(&f);
    row(&f, "stream", "variant=copy|sweep=footprint|bytes_per_rep=4194304|pj_per_byte=lots");
    results_close(&f, dir, "stream-cuda.csv");
    r = run(dir);
    assert_int_equal(r.status, EL_EXIT_BAD_DATA);
    assert_non_null(strstr(r.err, "stream-cuda.csv:2:"));
}

static el_level blank(const char *name, el_basis basis)
{
    el_level l = {.basis = basis, .pj = NAN, .thesis_pj = NAN};
    snprintf(l.level, sizeof l.level, "%s", name);
    return l;
}

static void test_the_reference_table_is_checked(void **state)
{
    (void)state;
    el_level l[2] = {blank("dram", EL_PER_BYTE), blank("sp-op", EL_PER_OP)};
    char err[512];
    assert_int_equal(el_thesis_apply_builtin(l, 2, err, sizeof err), 0);
    assert_true(fabs(l[0].thesis_pj - 550) < 1e-9);
    assert_true(fabs(l[1].thesis_pj - 45) < 1e-9);
    assert_string_equal(l[1].thesis_symbol, "(e_fadd+e_fmultiply)/2");

    static const struct {
        const char *text, *says;
    } bad[] = {
        {"symbol,value,unit,level,basis,access_bytes,meaning\ne_x,1e-9,J,l3,per-byte,4,\n", "t.csv:2: level 'l3'"},
        {"symbol,value,unit,level,basis,access_bytes,meaning\ne_x,1e-9,J,dram,per-byte,,\n", "t.csv:2: a per-byte"},
        {"symbol,value,unit,level,basis,access_bytes,meaning\ne_x,1e-9,J,dram,per-op,4,\n", "t.csv:2: basis"},
        {"symbol,value,unit,level,basis,access_bytes,meaning\ne_x,1,W,dram,per-byte,4,\n", "t.csv:2: unit"},
        {"symbol,value,unit,level\ne_x,1,J,dram\n", "t.csv:1:"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        el_level m = blank("dram", EL_PER_BYTE);
        err[0] = '\0';
        assert_int_equal(el_thesis_apply("t.csv", bad[i].text, strlen(bad[i].text), &m, 1, err, sizeof err), -1);
        if (strstr(err, bad[i].says) == NULL)
            fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].says);
    }
}

TEST_MAIN(scratch_setup, scratch_teardown, test_measured_levels_take_their_rows,
          test_without_a_sensor_each_level_says_why, test_a_device_sharing_host_memory_has_no_pcie,
          test_an_empty_directory_has_no_rows_anywhere, test_a_quick_sweep_reaches_no_memory_level,
          test_the_table_is_replaced_whole, test_bad_input_is_one_line_and_writes_nothing,
          test_the_reference_table_is_checked)
