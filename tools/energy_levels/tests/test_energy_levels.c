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
#include "shared/tests/put_file.h"
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

static void fresh_dir(char *dir, size_t len, const char *name)
{
    snprintf(dir, len, "%s/%s", root, name);
    assert_int_equal(mkdir(dir, 0755), 0);
}

/* One benchmark's results file being written, BENCH-cuda.csv: the header
 * from common/results.c's own list of columns, so that the rows are what
 * the benchmarks write. */
typedef struct {
    const char *bench;
    char *text;
    size_t len;
    FILE *f;
} results_file;

static void results_open(results_file *r, const char *bench)
{
    r->bench = bench;
    r->f = open_memstream(&r->text, &r->len);
    assert_non_null(r->f);
    for (size_t c = 0; c < cr_result_ncolumns; ++c)
        fprintf(r->f, "%s%s", c ? "," : "", cr_result_columns[c]);
    fputc('\n', r->f);
}

/* One row from "column=value|column=value"; the columns every row has
 * (benchmark from the file, backend, n, valid) default to a verified
 * device row. */
static void row(results_file *r, const char *pairs)
{
    for (size_t c = 0; c < cr_result_ncolumns; ++c) {
        const char *col = cr_result_columns[c];
        char value[256] = "";
        if (strcmp(col, "benchmark") == 0)
            snprintf(value, sizeof value, "%s", r->bench);
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

static void results_close(results_file *r, const char *dir)
{
    assert_int_equal(fclose(r->f), 0);
    char name[64];
    snprintf(name, sizeof name, "%s-cuda.csv", r->bench);
    put_file(dir, name, r->text);
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

/* A row of the device directory: its columns (a format taking x), and the
 * energy column col with pj where there is a sensor (no col: a row that
 * measured nothing). */
typedef struct {
    const char *bench, *fmt, *col;
    double pj, x;
} fixture_row;

/* Every benchmark's rows: for each level the rows its rule must take (pJ
 * values whose median is known) beside rows it must leave (other sizes,
 * other variants, host rows, invalid or flagged rows, all with values that
 * would move the median). Grouped by benchmark, one file each. */
static const fixture_row gpu_rows[] = {
    /* dram: per kernel the largest working set >= 4 x 32 MiB: copy 256 MiB (500), triad 384 MiB (600). */
    {"stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 300.0, MIB(128)},
    {"stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 500.0, MIB(256)},
    {"stream", "variant=triad|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 600.0, MIB(384)},
    {"stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f|valid=0", "pj_per_byte", 9000.0, MIB(512)},
    {"stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f|flags=above-peak", "pj_per_byte", 9000.0,
     MIB(1024)},
    {"stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f|backend=host-openmp", "pj_per_byte", 9000.0,
     MIB(2048)},
    {"stream", "variant=copy|dtype=float|sweep=concurrency|bytes_per_rep=%.0f", "pj_per_byte", 9000.0, MIB(4096)},
    /* Kernels whose energy the sensor did not resolve: the rows stand for dram, their energy does not count,
     * whether written negative (older files) or left empty, as the idle device's. */
    {"stream", "variant=add|dtype=float|sweep=footprint|bytes_per_rep=%.0f|flags=energy-below-static", "pj_per_byte",
     -50.0, MIB(512)},
    {"stream", "variant=mul|dtype=float|sweep=footprint|bytes_per_rep=%.0f|flags=energy-idle", "pj_per_byte", NAN,
     MIB(512)},
    /* llc: per kernel the largest in [4 MiB, 16 MiB]: copy 16 MiB (10), triad 12 MiB (20). */
    {"stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 90.0, MIB(8)},
    {"stream", "variant=copy|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 10.0, MIB(16)},
    {"stream", "variant=triad|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 20.0, MIB(12)},
    {"stream", "variant=triad|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 90.0, MIB(1)},
    {"stream", "variant=triad|dtype=float|sweep=footprint|bytes_per_rep=%.0f", "pj_per_byte", 90.0, MIB(24)},
    /* pcie: pinned copies at the largest size, 1 GiB: 100 and 140. */
    {"bandwidth", "variant=h2d-memcpy-pinned|sweep=size|size_bytes=%.0f", "pj_per_byte", 100.0, MIB(1024)},
    {"bandwidth", "variant=d2h-memcpy-pinned-async|sweep=size|size_bytes=%.0f", "pj_per_byte", 140.0, MIB(1024)},
    {"bandwidth", "variant=h2d-memcpy-pinned|sweep=size|size_bytes=%.0f", "pj_per_byte", 9000.0, MIB(1)},
    {"bandwidth", "variant=h2d-memcpy-pageable|sweep=size|size_bytes=%.0f", "pj_per_byte", 9000.0, MIB(1024)},
    /* A path the device does not have: its row, at a larger size, measured nothing. */
    {"bandwidth",
     "variant=h2d-memcpy-pinned-wc|sweep=size|size_bytes=%.0f|stop=unsupported|"
     "note=not supported: no write-combined memory",
     NULL, 0.0, MIB(2048)},
    /* shared: the local-memory path at its largest verified size, 1 GiB: 1.5 (a failed 2 GiB point left out). */
    {"bandwidth", "variant=kernel-local-memory|sweep=size|size_bytes=%.0f", "pj_per_byte", 1.5, MIB(1024)},
    {"bandwidth", "variant=kernel-local-memory|sweep=size|valid=0|note=destination differs|size_bytes=%.0f",
     "pj_per_byte", 9000.0, MIB(2048)},
    /* zero-copy: the mapped read at its largest size, 1 GiB: 300. */
    {"bandwidth", "variant=kernel-read-mapped|sweep=size|size_bytes=%.0f", "pj_per_byte", 300.0, MIB(1024)},
    {"bandwidth", "variant=kernel-read-mapped|sweep=size|size_bytes=%.0f", "pj_per_byte", 9000.0, MIB(64)},
    {"bandwidth", "variant=kernel-read-device|sweep=size|size_bytes=%.0f", "pj_per_byte", 9000.0, MIB(1024)},
    {"bandwidth", "variant=kernel-read-managed|sweep=size|size_bytes=%.0f", "pj_per_byte", 9000.0, MIB(1024)},
    /* atomic: global memory, the lowest degree, read-modify-write operations: 2 and 4. */
    {"atomics", "variant=add|dtype=uint32|sweep=degree|params=space=global;degree=%.0f;stride=1", "pj_per_op", 2.0, 1},
    {"atomics", "variant=cas|dtype=uint32|sweep=degree|params=space=global;degree=%.0f;stride=1", "pj_per_op", 4.0, 1},
    {"atomics", "variant=read|dtype=uint32|sweep=degree|params=space=global;degree=%.0f;stride=1", "pj_per_op", 900.0,
     1},
    {"atomics", "variant=add|dtype=uint32|sweep=degree|params=space=global;degree=%.0f;stride=1", "pj_per_op", 900.0,
     32},
    {"atomics", "variant=add|dtype=uint32|sweep=degree|params=space=local;degree=%.0f;stride=1", "pj_per_op", 900.0, 1},
    {"atomics", "variant=add|dtype=uint32|sweep=stride|params=space=global;degree=1;stride=%.0f", "pj_per_op", 900.0,
     1},
    /* sfu-op: the fast versions in float: 5 and 7. */
    {"sfu", "variant=sin/ptx-approx|dtype=float|sweep=throughput|figure=%.0f", "pj_per_op", 5.0, 900},
    {"sfu", "variant=exp/ptx-approx|dtype=float|sweep=throughput|figure=%.0f", "pj_per_op", 7.0, 800},
    {"sfu", "variant=sin/precise|dtype=float|sweep=throughput|figure=%.0f", "pj_per_op", 900.0, 100},
    {"sfu", "variant=sin/ptx-approx|dtype=double|sweep=throughput|figure=%.0f", "pj_per_op", 900.0, 100},
    {"sfu", "variant=sin/ptx-approx|dtype=float|sweep=latency|figure=%.0f", "pj_per_op", 900.0, 100},
    /* sp-op and dp-op: the row at the highest throughput of each type: 20 and 60. */
    {"fma", "variant=fma|dtype=float|sweep=concurrency|figure=%.0f", "pj_per_op", 30.0, 1000},
    {"fma", "variant=fma|dtype=float|sweep=concurrency|figure=%.0f", "pj_per_op", 20.0, 2000},
    {"fma", "variant=fma|dtype=double|sweep=concurrency|figure=%.0f", "pj_per_op", 60.0, 900},
};

/* The rows of gpu_rows, one file a benchmark; without a sensor each
 * measured row lacks its energy, and each file ends in the row that says
 * why. */
static void write_gpu_dir(const char *dir, bool sensor, const char *meta)
{
    static const char *const benches[] = {"stream", "bandwidth", "atomics", "sfu", "fma"};
    for (size_t b = 0; b < sizeof benches / sizeof *benches; ++b) {
        results_file r;
        results_open(&r, benches[b]);
        for (size_t i = 0; i < sizeof gpu_rows / sizeof *gpu_rows; ++i) {
            const fixture_row *g = &gpu_rows[i];
            if (strcmp(g->bench, benches[b]) != 0)
                continue;
            char line[512];
            int at = snprintf(line, sizeof line, g->fmt, g->x);
            assert_true(at > 0 && (size_t)at < sizeof line);
            /* NaN: the sensor was there, the row's energy left out (empty). */
            char pj[32] = "", joules[4] = "";
            if (!isnan(g->pj)) {
                snprintf(pj, sizeof pj, "%g", g->pj);
                snprintf(joules, sizeof joules, "1");
            }
            if (sensor && g->col)
                snprintf(line + at, sizeof line - (size_t)at,
                         "|%s=%s|energy_sensor=nvml:total-energy|energy_j=%s|energy_interval_s=0.02", g->col, pj,
                         joules);
            row(&r, line);
        }
        if (!sensor)
            row(&r, "variant=energy|sweep=sensor|stop=unsupported|energy_sensor=none|"
                    "note=no energy sensor: NVML is not there");
        results_close(&r, dir);
    }
    put_file(dir, "stream-cuda.meta.csv", meta);
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

/* A fresh device directory NAME of gpu_rows, and the table the tool,
 * succeeding, wrote there; *r is what it said. */
static cr_csv_table levels_of_gpu_dir(const char *name, bool sensor, const char *meta, run_result *r)
{
    char dir[256];
    fresh_dir(dir, sizeof dir, name);
    write_gpu_dir(dir, sensor, meta);
    *r = run(dir);
    assert_int_equal(r->status, EL_EXIT_OK);
    return levels_of(dir);
}

/* A refusal is one line. */
static void assert_one_line(const char *err)
{
    assert_int_equal(strchr(err, '\n') - err + 1, (long)strlen(err));
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
    run_result r;
    cr_csv_table t = levels_of_gpu_dir("measured", true, gpu_meta, &r);
    assert_string_equal(r.err, "");
    static const struct {
        const char *level;
        double pj;
        const char *rows;
    } want[] = {{"dram", 550, "2"},     {"llc", 15, "2"},    {"pcie", 120, "2"},  {"zero-copy", 300, "1"},
                {"shared", 1.5, "1"},   {"atomic", 3, "2"},  {"sfu-op", 6, "2"},  {"sp-op", 20, "1"},
                {"dp-op", 60, "1"}};
    for (size_t i = 0; i < sizeof want / sizeof *want; ++i) {
        assert_level(&t, want[i].level, "measured", NULL);
        assert_pj(&t, want[i].level, "pj", want[i].pj);
        assert_string_equal(level_field(&t, want[i].level, "rows"), want[i].rows);
        assert_string_equal(level_field(&t, want[i].level, "sensor"), "nvml:total-energy");
    }
    assert_string_equal(level_field(&t, "dram", "basis"), "per-byte");
    assert_non_null(strstr(level_field(&t, "dram", "reason"), "2 of the 4 rows left out"));
    assert_non_null(strstr(level_field(&t, "dram", "reason"), "energy-idle"));
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
    assert_non_null(strstr(level_field(&t, "shared", "source"), "1 GiB"));
    assert_non_null(strstr(r.out, "dram"));
    cr_csv_free(&t);
}

static void test_without_a_sensor_each_level_says_why(void **state)
{
    (void)state;
    run_result r;
    cr_csv_table t = levels_of_gpu_dir("no-sensor", false, gpu_meta, &r);
    static const char *const levels[] = {"dram",   "llc",    "shared", "pcie", "zero-copy",
                                         "atomic", "sfu-op", "sp-op",  "dp-op"};
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
    run_result r;
    /* The CPU's last-level cache is the host's 32 MiB, as on the GPU: the same levels but PCIe. */
    cr_csv_table t = levels_of_gpu_dir("cpu", true, cpu_meta, &r);
    assert_level(&t, "pcie", "no-rows", "shares the host's memory");
    assert_pj(&t, "dram", "pj", 550);
    assert_pj(&t, "llc", "pj", 15);
    assert_pj(&t, "zero-copy", "pj", 300);
    cr_csv_free(&t);
}

/* A folder of no benchmark's output is no device's: refused, naming it.
 * One that holds a benchmark's metadata and no results gives every level
 * without rows, each saying why. */
static void test_an_empty_directory_has_no_rows_anywhere(void **state)
{
    (void)state;
    char dir[256];
    fresh_dir(dir, sizeof dir, "empty");
    run_result r = run(dir);
    assert_int_equal(r.status, EL_EXIT_USAGE);
    assert_non_null(strstr(r.err, "holds no results (no benchmark's CSV or metadata): not a device directory"));
    put_file(dir, "stream-opencl.meta.csv", "key,value\ndevice.name,Some device\nbackend,opencl\n");
    r = run(dir);
    assert_int_equal(r.status, EL_EXIT_OK);
    cr_csv_table t = levels_of(dir);
    /* Every level but dp-op, which appears only with double rows. */
    assert_int_equal(t.nrows, 8);
    assert_null(level_field(&t, "dp-op", "status"));
    assert_level(&t, "dram", "no-rows", "last-level cache is unknown");
    assert_level(&t, "pcie", "no-rows", "does not say whether the device has memory of its own");
    assert_level(&t, "zero-copy", "no-rows", "no bandwidth-*.csv here");
    assert_level(&t, "shared", "no-rows", "no bandwidth-*.csv here");
    assert_level(&t, "atomic", "no-rows", "the atomics benchmark did not run");
    assert_level(&t, "sp-op", "no-rows", "no fma-*.csv here");
    cr_csv_free(&t);
}

/* The levels of a fresh directory name holding one results file of bench
 * with rows (NULL-terminated) and the GPU's metadata (free it). */
static cr_csv_table levels_of_rows(const char *name, const char *bench, const char *const *rows)
{
    char dir[256], meta[64];
    fresh_dir(dir, sizeof dir, name);
    results_file r;
    results_open(&r, bench);
    for (; *rows; ++rows)
        row(&r, *rows);
    results_close(&r, dir);
    snprintf(meta, sizeof meta, "%s-cuda.meta.csv", bench);
    put_file(dir, meta, gpu_meta);
    assert_int_equal(run(dir).status, EL_EXIT_OK);
    return levels_of(dir);
}

static void test_a_quick_sweep_reaches_no_memory_level(void **state)
{
    (void)state;
    static const char *const rows[] = {"variant=copy|dtype=float|sweep=footprint|bytes_per_rep=4194304|pj_per_byte=5",
                                       NULL};
    cr_csv_table t = levels_of_rows("quick", "stream", rows);
    assert_level(&t, "dram", "no-rows", "at least 4x the 32 MiB last-level cache");
    assert_level(&t, "llc", "measured", NULL);
    assert_pj(&t, "llc", "pj", 5);
    cr_csv_free(&t);
}

/* A bandwidth run without the local-memory path: the level says so. */
static void test_shared_needs_the_local_memory_path(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "variant=kernel-read-device|sweep=size|size_bytes=1048576|pj_per_byte=5",
        "variant=kernel-local-memory|sweep=size|stop=unsupported|note=not supported: too small work-groups", NULL};
    cr_csv_table t = levels_of_rows("no-local", "bandwidth", rows);
    assert_level(&t, "shared", "no-rows", "no kernel-local-memory row verified");
    assert_string_equal(level_field(&t, "shared", "pj"), "");
    cr_csv_free(&t);
}

/* The local-memory path's rows per vector width, all over one buffer: the
 * level is the fastest verified width's, not an invalid, flagged or
 * unsupported one's, nor the median of the widths (2). */
static void test_shared_takes_the_fastest_local_width(void **state)
{
    (void)state;
#define LOCAL_ROW "variant=kernel-local-memory|sweep=local-width|size_bytes=69206016|"
    static const char *const rows[] = {
        LOCAL_ROW "params=vector=1;loads_per_barrier=32|figure=9000|pj_per_byte=3",
        LOCAL_ROW "params=vector=2;loads_per_barrier=16|figure=18000|pj_per_byte=2",
        LOCAL_ROW "params=vector=4;loads_per_barrier=8|figure=30000|pj_per_byte=1.25",
        LOCAL_ROW "params=vector=4;loads_per_barrier=8|figure=40000|pj_per_byte=9|valid=0|note=destination differs",
        LOCAL_ROW "params=vector=4;loads_per_barrier=8|figure=50000|pj_per_byte=9|flags=above-peak",
        LOCAL_ROW "params=vector=8;loads_per_barrier=4|stop=unsupported|note=not supported: 4 words at most",
        NULL};
#undef LOCAL_ROW
    cr_csv_table t = levels_of_rows("local-width", "bandwidth", rows);
    assert_level(&t, "shared", "measured", NULL);
    assert_pj(&t, "shared", "pj", 1.25);
    assert_string_equal(level_field(&t, "shared", "rows"), "1");
    assert_non_null(strstr(level_field(&t, "shared", "source"), "bandwidth-cuda.csv: kernel-local-memory"));
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
    put_file(dir, "energy-levels.csv", "an older table\n");
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
    assert_one_line(r.err);
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
    assert_one_line(r.err);
    assert_string_equal(r.out, "");

    /* A results CSV with a record one field short: FILE:LINE, exit 1, nothing written. */
    char dir[256], path[300];
    fresh_dir(dir, sizeof dir, "malformed");
    write_gpu_dir(dir, true, gpu_meta);
    results_file f;
    results_open(&f, "atomics");
    row(&f, "variant=add|sweep=degree|params=space=global;degree=1|pj_per_op=2");
    fputs("atomics,cuda,cut short\n", f.f);
    results_close(&f, dir);
    r = run(dir);
    assert_int_equal(r.status, EL_EXIT_BAD_DATA);
    assert_non_null(strstr(r.err, "atomics-cuda.csv:3:"));
    assert_one_line(r.err);
    assert_string_equal(r.out, "");
    snprintf(path, sizeof path, "%s/energy-levels.csv", dir);
    struct stat st;
    assert_int_equal(stat(path, &st), -1);

    /* A number that is not one, in an energy column. */
    fresh_dir(dir, sizeof dir, "bad-number");
    results_open(&f, "stream");
    row(&f, "variant=copy|sweep=footprint|bytes_per_rep=4194304|pj_per_byte=lots");
    results_close(&f, dir);
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

    /* Each case: the reference table's header and one bad row. */
#define TABLE_HEADER "symbol,value,unit,level,basis,access_bytes,meaning\n"
    static const struct {
        const char *text, *says;
    } bad[] = {
        {TABLE_HEADER "e_x,1e-9,J,l3,per-byte,4,\n", "t.csv:2: level 'l3'"},
        {TABLE_HEADER "e_x,1e-9,J,dram,per-byte,,\n", "t.csv:2: a per-byte"},
        {TABLE_HEADER "e_x,1e-9,J,dram,per-op,4,\n", "t.csv:2: basis"},
        {TABLE_HEADER "e_x,1,W,dram,per-byte,4,\n", "t.csv:2: unit"},
        {"symbol,value,unit,level\ne_x,1,J,dram\n", "t.csv:1:"},
    };
#undef TABLE_HEADER
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
          test_shared_needs_the_local_memory_path, test_shared_takes_the_fastest_local_width,
          test_an_empty_directory_has_no_rows_anywhere, test_a_quick_sweep_reaches_no_memory_level,
          test_the_table_is_replaced_whole, test_bad_input_is_one_line_and_writes_nothing,
          test_the_reference_table_is_checked)
