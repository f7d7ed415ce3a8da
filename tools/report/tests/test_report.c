/* The report's pure parts: base64 against RFC 4648's vectors, the headline
 * numbers read from small synthetic results (by column name, verified rows
 * only, the largest size, the peak), sections of benchmarks that did not
 * run, the comparison's pairing and ratios, and the comparison read
 * through the results database written byte for byte as from the CSVs. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/base64.h"
#include "report/backends.h"
#include "report/compare.h"
#include "report/extract.h"
#include "report/model.h"
#include "report/registry.h"
#include "report/render.h"

#include "csv.h"
#include "db/import.h"
#include "db/schema.h"
#include "db/tables.h"
#include "report/tests/db_run.h"
#include "tests/scratch_dir.h"
#include "results.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- base64 ---- */

static const char *const rfc4648[][2] = {
    {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
    {"foobar", "Zm9vYmFy"},
};

static void test_base64_rfc4648_vectors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rfc4648 / sizeof *rfc4648; ++i) {
        const char *plain = rfc4648[i][0], *coded = rfc4648[i][1];
        char out[16];
        assert_int_equal(cr_base64_encoded_len(strlen(plain)), strlen(coded));
        cr_base64_encode((const unsigned char *)plain, strlen(plain), out);
        assert_string_equal(out, coded);
        unsigned char back[16];
        assert_int_equal(cr_base64_decode(coded, strlen(coded), back), (ssize_t)strlen(plain));
        assert_memory_equal(back, plain, strlen(plain));
    }
}

static void test_base64_every_byte_round_trips(void **state)
{
    (void)state;
    unsigned char bytes[256], back[258];
    for (int i = 0; i < 256; ++i)
        bytes[i] = (unsigned char)(255 - i);
    char coded[400];
    cr_base64_encode(bytes, sizeof bytes, coded);
    assert_int_equal(strlen(coded), 344); /* 256 bytes: 85 groups of 3 and one byte, padded */
    assert_string_equal(coded + 340, "AA==");
    assert_int_equal(cr_base64_decode(coded, strlen(coded), back), 256);
    assert_memory_equal(back, bytes, sizeof bytes);
}

static void test_base64_rejects_what_is_not_canonical(void **state)
{
    (void)state;
    unsigned char out[16];
    static const char *const bad[] = {
        "Zg=",      /* not a multiple of 4 */
        "Zg=a",     /* padding inside */
        "Zh==",     /* bits the padding drops are not zero */
        "Zm9v!A==", /* outside the alphabet */
        "====",     /* nothing but padding */
        "Zm9v\nYg==",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i)
        if (cr_base64_decode(bad[i], strlen(bad[i]), out) != -1)
            fail_msg("'%s' was accepted", bad[i]);
}

/* ---- synthetic results ---- */

/* The section of that slug, which the build's parts must define. */
static int section_of(const char *slug)
{
    int s = rp_section_index(slug);
    if (s < 0)
        fail_msg("no section '%s'", slug);
    return s;
}

static char root[64];

/* A results fixture gives only the columns the report reads, in an order
 * of its own (the report reads by name); the reader takes only the suite's
 * whole header, so the file gets the other columns too, after them: empty,
 * but for n (1) and backend (opencl), which are never. A fixture that does
 * not parse is written as it is. */
static void write_results(FILE *f, const char *text)
{
    cr_csv_table t;
    char err[256];
    if (cr_csv_parse(&t, "fixture", text, strlen(text), &cr_schema_any, err, sizeof err) != 0) {
        fputs(text, f);
        return;
    }
    bool missing[64] = {false};
    for (size_t c = 0; c < cr_result_ncolumns; ++c)
        missing[c] = cr_csv_column(&t, cr_result_columns[c]) < 0;
    for (size_t r = 0; r <= t.nrows; ++r) {
        char **fields = r == 0 ? t.names : t.rows[r - 1].fields;
        for (size_t c = 0; c < t.ncols; ++c) {
            fputs(c ? "," : "", f);
            cr_csv_field(f, fields[c]);
        }
        for (size_t c = 0; c < cr_result_ncolumns; ++c) {
            const char *name = cr_result_columns[c];
            if (!missing[c])
                continue;
            if (r == 0)
                fprintf(f, ",%s", name);
            else
                fprintf(f, ",%s", strcmp(name, "n") == 0 ? "1" : strcmp(name, "backend") == 0 ? "opencl" : "");
        }
        fputc('\n', f);
    }
    cr_csv_free(&t);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    if (cr_schema_for(name) == &cr_schema_results)
        write_results(f, text);
    else
        fputs(text, f);
    fclose(f);
}

static char *make_dir(const char *name)
{
    static char path[4][256];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 256, "%s/%s", root, name);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", p);
    assert_int_equal(system(cmd), 0);
    return p;
}

/* A path under the test's directory (one of four rotating buffers). */
static const char *under(const char *name)
{
    static char path[4][256];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 256, "%s/%s", root, name);
    return p;
}

CR_SCRATCH_FIXTURES(root, "report")

static const char meta[] = "key,value\n"
                           "device.name,Test device\n"
                           "device.compute_units,4\n"
                           "device.global_mem_bytes,8589934592\n"
                           "backend,opencl\n"
                           "host,testhost\n";

/* Only the columns the report reads, in an order of their own: it reads
 * by name. A host reference row, an invalid row and a larger-first size
 * order are the traps. */
static const char stream_csv[] =
    "valid,benchmark,backend,variant,dtype,sweep,size_bytes,work_items,params,figure,figure_best,ref_ratio,note\n"
    "1,stream,opencl,triad,float,fixed,268435456,16,host_limit_GBps=40,30,32,0.75,\n"
    "1,stream,host-openmp,triad,float,fixed,268435456,2,host_limit_GBps=40,39,41,0.975,\n"
    "0,stream,opencl,copy,double,fixed,268435456,16,host_limit_GBps=40,35,36,0.875,copy mismatch at 7\n"
    "1,stream,opencl,triad,float,concurrency,268435456,4,,10,11,,\n"
    "1,stream,opencl,triad,float,concurrency,268435456,16,,28,29,,\n"
    "1,stream,opencl,triad,float,concurrency,268435456,32,,27,30,,\n";

static const rp_cell *cell_of(const rp_device *d, const char *s, const char *table, const char *key,
                              const char *col)
{
    const rp_table *t = rp_find_table(&d->sections[section_of(s)], table);
    if (t == NULL)
        fail_msg("no table %s", table);
    const rp_row *r = rp_find_row(t, key);
    if (r == NULL)
        fail_msg("no row '%s' in %s", key, table);
    int c = rp_col_index(t, col);
    if (c < 0)
        fail_msg("no column '%s' in %s", col, table);
    return &r->cells[c];
}

/* Cells the report must hold: a number, compared exactly, or a text. */
typedef struct {
    const char *run; /* the case whose report shows it */
    const char *s; /* the section's slug */
    const char *table, *key, *col;
    double num;
} shown_num;

typedef struct {
    const char *run;
    const char *s; /* the section's slug */
    const char *table, *key, *col;
    const char *text;
} shown_text;

static void expect_num(const rp_device *d, const shown_num *w)
{
    const rp_cell *c = cell_of(d, w->s, w->table, w->key, w->col);
    if (!(c->num == w->num))
        fail_msg("%s, '%s', %s: %.12g, want %.12g", w->table, w->key, w->col, c->num, w->num);
}

static void expect_text(const rp_device *d, const shown_text *w)
{
    const rp_cell *c = cell_of(d, w->s, w->table, w->key, w->col);
    if (strcmp(c->text, w->text) != 0)
        fail_msg("%s, '%s', %s: '%s', want '%s'", w->table, w->key, w->col, c->text, w->text);
}

static bool has_note(const rp_section *sec, const char *text)
{
    for (size_t i = 0; i < sec->notes.n; ++i)
        if (strstr(sec->notes.v[i], text))
            return true;
    return false;
}

static void load(const char *dir, rp_run *run)
{
    char err[256] = "";
    if (rp_load_run(dir, run, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* A file of a device directory: its name and text. */
typedef struct {
    const char *name, *text;
} dev_file;

/* Writes the files into ROOT/<name>/opencl-0-test and loads ROOT/<name>:
 * a run of that one device. */
static const rp_device *load_device(const char *name, const dev_file *files, size_t n, rp_run *run)
{
    char sub[128];
    snprintf(sub, sizeof sub, "%s/opencl-0-test", name);
    char *dir = make_dir(sub);
    for (size_t i = 0; i < n; ++i)
        write_file(dir, files[i].name, files[i].text);
    load(under(name), run);
    assert_int_equal(run->ndevices, 1);
    return &run->devices[0];
}

/* The run's report.md, as text the caller frees. Not inlined: GCC then
 * takes the text for the stream's own local. */
__attribute__((noinline)) static char *markdown_of(const rp_run *run)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    rp_render_markdown(f, run);
    fclose(f);
    return text;
}

static void expect_in_text(const char *text, const char *want)
{
    if (strstr(text, want) == NULL)
        fail_msg("no '%s' in:\n%s", want, text);
}

/* ---- the headlines of one device directory ---- */

/* A directory of files, and what its report must hold beyond the cells
 * of headline_nums and headline_texts (also, may be NULL). */
typedef struct {
    const char *test;      /* the test's name */
    const char *run;       /* the run directory under the test's root */
    const dev_file *files; /* in its one device directory */
    size_t nfiles;
    void (*also)(const rp_device *d);
} headline_case;

#define LIST(a) (a), sizeof(a) / sizeof *(a)

/* Every headline cell the cases' directories must give, by case. */
static const shown_num headline_nums[] = {
    /* The launch rows' median and mean (test_launch_headline_has_mean_and_median). */
    {"launch", "atomics", "atomics-launch", "round-trip", "median (us)", 17},
    {"launch", "atomics", "atomics-launch", "round-trip", "mean (us)", 23.5},
    {"launch", "atomics", "atomics-launch", "round-trip", "best (us)", 9},
    {"launch", "atomics", "atomics-launch", "enqueue-to-start", "median (us)", 4},
    {"launch", "atomics", "atomics-launch", "enqueue-to-start", "mean (us)", 6.25},
    /* A flagged cell keeps its number: runs are still compared by it. */
    {"flags", "stream", "stream-fixed", "triad float", "GB/s", 40},
    {"stream", "stream", "stream-fixed", "triad float", "GB/s", 30},
    {"stream", "stream", "stream-fixed", "triad float", "best GB/s", 32},
    {"stream", "stream", "stream-fixed", "triad float", "host limit (GB/s)", 40},
    {"stream", "stream", "stream-fixed", "triad float", "vs host limit", 0.75},
    {"stream", "stream", "stream-concurrency", "triad float", "peak f(k) (GB/s)", 28},
    {"stream", "stream", "stream-concurrency", "triad float", "k at the peak", 16},
    {"stream", "stream", "stream-concurrency", "triad float", "largest k", 32},
    /* The device table; the benchmarks table counts rows. */
    {"stream", "device", "device", "compute units", "value", 4},
    {"stream", "device", "benchmarks", "stream-opencl", "rows", 6},
    {"stream", "device", "benchmarks", "stream-opencl", "invalid rows", 1},
    {"bw", "bandwidth", "bandwidth-paths", "h2d-write-pinned", "GB/s", 9},
    {"bw", "bandwidth", "bandwidth-paths", "h2d-write-pinned", "vs host", 0.9},
    /* The host's copy with all cores beside its one-thread copy, and a copy's ratio to each. */
    {"bw", "bandwidth", "bandwidth-paths", "host-memcpy-1thread", "GB/s", 10},
    {"bw", "bandwidth", "bandwidth-paths", "host-memcpy-openmp", "GB/s", 20},
    {"bw", "bandwidth", "bandwidth-paths", "h2d-write-pinned", "vs host all cores", 0.45},
    {"bw", "bandwidth", "bandwidth-paths", "h2d-write-pinned", "fit b (GB/s)", 10},
    {"bw", "bandwidth", "bandwidth-paths", "h2d-write-pinned", "fit c (us)", 2},
    {"bw", "bandwidth", "bandwidth-paths", "h2d-write-pinned", "fit max err (%)", 5},
    {"bw", "bandwidth", "bandwidth-maps", "cpu-read-host:map", "us", 0.5},
    /* The local-memory path, one line per vector width. */
    {"bw", "bandwidth", "bandwidth-local", "4", "loads per barrier", 8},
    {"bw", "bandwidth", "bandwidth-local", "4", "GB/s", 30000},
    {"bw", "bandwidth", "bandwidth-local", "4", "best GB/s", 31000},
    {"bw", "bandwidth", "bandwidth-local", "1", "GB/s", 12000},
    {"ar", "atomics", "atomics-ratio", "add uint32 global", "ratio", 150},
    {"ar", "atomics", "atomics-ratio", "add uint32 global", "work-items per counter", 128},
    {"ar", "atomics", "atomics-ratio", "add uint32 global", "one address (Mop/s)", 4},
    {"ar", "atomics", "atomics-ratio", "add uint32 local", "ratio", 0.8},
    {"ar", "atomics", "atomics-launch", "round-trip", "median (us)", 17},
    {"ar", "regspill", "regspill-cliff", "opencl uint32", "last fitting", 32},
    {"ar", "regspill", "regspill-cliff", "opencl uint32", "first spilling", 40},
    {"ar", "regspill", "regspill-region", "sm_90 live=64", "r_min", 24},
    {"ar", "regspill", "regspill-region", "sm_90 live=64", "r_max", 69},
    {"ar", "regspill", "regspill-region", "sm_90 live=64", "spill at r_min (B/thread)", 1704},
    {"ar", "regspill", "regspill-tuner", "live=64 rule=per-warp", "speed-up (CPs)", 1.25},
    {"ar", "regspill", "regspill-tuner", "live=64 rule=per-warp", "search reduction (x)", 13.3},
    {"sx", "sfu", "sfu-table", "sin float native", "speed-up", 3.5},
    {"sx", "sfu", "sfu-table", "sin float native", "max ulp", 4},
    {"sx", "sfu", "sfu-table", "sin float native", "max ulp (wide domain)", 32768},
    {"sx", "sfu", "sfu-table", "sin float precise", "latency (ns)", 9},
    {"sx", "xmodel", "xmodel-params", "R float", "value", 25.5},
    {"sx", "xmodel", "xmodel-params", "R float", "fit quality", 0.98},
    {"sx", "xmodel", "xmodel-params", "M float ilp=2", "value", 120},
    /* The fit's inputs belong to its section, anything unknown to the last. */
    {"sx", "xmodel", "other-files", "latency-opencl.csv", "rows", 2},
    {"sx", "xmodel", "other-files", "latency-opencl.csv", "invalid rows", 1},
    {"sx", "other", "other-files", "newbench-opencl.csv", "rows", 1},
    /* The energy levels: measured beside the thesis, and a level with neither measurement nor thesis. */
    {"energy", "energy", "energy-levels", "dram", "pJ", 523.5},
    {"energy", "energy", "energy-levels", "dram", "thesis pJ", 550},
    {"energy", "energy", "energy-levels", "sp-op", "pJ", 9.75},
    {"energy", "energy", "energy-levels", "sp-op", "thesis pJ", 45},
};

static const shown_text headline_texts[] = {
    /* Sizes in binary units. */
    {"stream", "device", "device", "global memory", "value", "8 GiB"},
    /* The largest valid size, whatever the order; the invalid 32 MiB row is not it. */
    {"bw", "bandwidth", "bandwidth-paths", "h2d-write-pinned", "size", "16 MiB"},
    {"bw", "bandwidth", "bandwidth-paths", "kernel-read-svm-fine", "GB/s", "not supported"},
    {"bw", "bandwidth", "bandwidth-maps", "cpu-read-host:map", "data moved", "no (zero-copy)"},
    {"bw", "bandwidth", "bandwidth-ranking", "vectoradd", "measured", "mixed<default"},
    {"bw", "bandwidth", "bandwidth-ranking", "vectoradd", "model agrees", "yes"},
    {"bw", "bandwidth", "bandwidth-local", "16", "GB/s", "not supported"},
    {"ar", "regspill", "regspill-tuner", "live=64 rule=per-warp", "critical points", "32/40/64"},
    {"sx", "sfu", "sfu-table", "exp float native", "verified", "NO"},
    {"sx", "other", "other-files", "newbench-opencl.csv", "units", "x/s"},
    {"energy", "energy", "energy-levels", "dram", "status", "measured"},
    {"energy", "energy", "energy-levels", "dram", "thesis", "e_gs/4B"},
    {"energy", "energy", "energy-levels", "dram", "rows used, or why none", "stream-cuda.csv: copy/float, triad/float"},
    {"energy", "energy", "energy-levels", "llc", "pJ", ""},
    {"energy", "energy", "energy-levels", "llc", "status", "no-sensor"},
    {"energy", "energy", "energy-levels", "llc", "rows used, or why none", "no energy sensor, here"},
    {"energy", "energy", "energy-levels", "shared", "status", "no-rows"},
};

/* Checks the cells of one case: there are some, or its name is wrong. */
static void expect_cells(const rp_device *d, const char *run)
{
    size_t checked = 0;
    for (size_t i = 0; i < sizeof headline_nums / sizeof *headline_nums; ++i)
        if (strcmp(headline_nums[i].run, run) == 0) {
            expect_num(d, &headline_nums[i]);
            ++checked;
        }
    for (size_t i = 0; i < sizeof headline_texts / sizeof *headline_texts; ++i)
        if (strcmp(headline_texts[i].run, run) == 0) {
            expect_text(d, &headline_texts[i]);
            ++checked;
        }
    assert_true(checked > 0);
}

static const dev_file stream_files[] = {{"stream-opencl.csv", stream_csv}, {"stream-opencl.meta.csv", meta}};

static void stream_also(const rp_device *d)
{
    assert_string_equal(d->dir, "opencl-0-test");
    assert_string_equal(d->label, "Test device (opencl)");
    const rp_table *fixed = rp_find_table(&d->sections[section_of("stream")], "stream-fixed");
    assert_non_null(fixed);
    assert_int_equal(fixed->nrows, 1); /* the host's row and the invalid row are not headlines */
    assert_non_null(strstr(fixed->title, "256 MiB"));
    assert_true(has_note(&d->sections[section_of("stream")], "1 of 6 rows of stream-opencl.csv failed verification"));
    assert_true(has_note(&d->sections[section_of("stream")], "copy mismatch at 7"));
    /* What did not run says so: no tables, not marked as run. */
    assert_false(d->sections[section_of("atomics")].ran);
    assert_int_equal(d->sections[section_of("atomics")].ntables, 0);
    assert_true(d->sections[section_of("stream")].ran);
    assert_string_equal(d->sections[section_of("stream")].sources.v[0], "stream-opencl.csv");
}

static const dev_file bandwidth_files[] = {
    {"bandwidth-opencl.meta.csv", meta},
    {"bandwidth-opencl.csv",
     "benchmark,backend,variant,sweep,size_bytes,params,stop,figure,unit,ref_ratio,valid,note,figure_best\n"
     "bandwidth,host,host-memcpy-1thread,size,16777216,,stable,10,GB/s,,1,,\n"
     "bandwidth,host,host-memcpy-openmp,size,16777216,threads=2;binding=hwloc-cores,stable,20,GB/s,,1,,\n"
     "bandwidth,opencl,h2d-write-pinned,size,16777216,ref=host-memcpy-1thread;mt_ref_ratio=0.45,stable,9,GB/s,0.9,1,,\n"
     "bandwidth,opencl,h2d-write-pinned,size,1048576,,stable,5,GB/s,0.5,1,,\n"
     "bandwidth,opencl,h2d-write-pinned,size,33554432,,stable,1,GB/s,0.1,0,bad bytes,\n"
     "bandwidth,opencl,kernel-read-svm-fine,size,16777216,,unsupported,,GB/s,,1,no fine-grained SVM,\n"
     "bandwidth,opencl,cpu-read-host:map,size,16777216,data_moved=no (zero-copy),stable,0.5,us,,1,,\n"
     "bandwidth,opencl,h2d-write-pinned,fit,,c_us=2;b_GBps=10;max_rel_err=0.05;rms_rel_err=0.02,,10,GB/s,"
     ",1,,\n"
     "bandwidth,opencl,vectoradd,ranking,16777216,measured=mixed<default;predicted=mixed<default;match=1,,,,"
     ",1,,\n"
     "bandwidth,opencl,kernel-local-memory,local-width,1048576,vector=1;loads_per_barrier=32,stable,12000,GB/s,,1,,"
     "12500\n"
     "bandwidth,opencl,kernel-local-memory,local-width,1048576,vector=4;loads_per_barrier=8,stable,30000,GB/s,,1,,"
     "31000\n"
     "bandwidth,opencl,kernel-local-memory,local-width,1048576,vector=2;loads_per_barrier=16,stable,99999,GB/s,,0,"
     "destination differs,99999\n"
     "bandwidth,opencl,kernel-local-memory,local-width,1048576,vector=16;loads_per_barrier=2,unsupported,,GB/s,,1,"
     "4 words at most,\n"},
};

static const dev_file atomics_regspill_files[] = {
    {"atomics-opencl.meta.csv", meta},
    {"atomics-opencl.csv",
     "benchmark,backend,variant,dtype,sweep,params,figure,figure_best,unit,valid\n"
     "atomics,opencl,add,uint32,ratio,space=global;degree_low=1;low_Mops=600;degree_high=128;"
     "high_Mops=4,150,,x,1\n"
     "atomics,opencl,add,uint32,ratio,space=local;degree_low=1;low_Mops=800;degree_high=16;"
     "high_Mops=1000,0.8,,x,1\n"
     "atomics,opencl,round-trip,,launch,,17,9,us,1\n"},
    {"regspill-opencl.csv",
     "benchmark,backend,device,variant,dtype,sweep,params,figure,unit,valid,note\n"
     "regspill,opencl,dev,cliff,uint32,live,lanes=16;last_fitting=32;first_spilling=40;best_Gops=224;"
     "after_Gops=149;drop=0.664,32,values,1,throughput falls\n"
     "regspill,offline,sm_90,offline-bound,uint32,registers,arch=sm_90;live=64;cap=1;registers=24;"
     "spill_store_bytes=852;spill_load_bytes=852,1704,B/thread,1,\n"
     "regspill,offline,sm_90,offline-bound,uint32,registers,arch=sm_90;live=64;cap=255;registers=69;"
     "spill_store_bytes=0;spill_load_bytes=0,0,B/thread,1,\n"
     "regspill,cuda,gpu,tuner,uint32,registers,live=64;rule=per-warp;critical_points=32/40/64;"
     "searched=3/40;best_cp=40;best=40;default=72;speedup_cp=1.25;speedup_best=1.25;reduction=13.3,1.25,"
     "speedup,1,the critical points contain the exhaustive optimum\n"},
};

static void atomics_regspill_also(const rp_device *d)
{
    /* 100 x 0.664, as a product of doubles. */
    assert_true(fabs(cell_of(d, "regspill", "regspill-cliff", "opencl uint32", "falls to (%)")->num - 66.4) < 1e-9);
    assert_false(d->sections[section_of("stream")].ran);
}

static const dev_file sfu_xmodel_other_files[] = {
    {"sfu-opencl.csv", "benchmark,valid\nsfu,1\n"},
    {"sfu-opencl.table.csv",
     "func,math,dtype,version,latency_ns,latency_cycles,mean_rel_err,max_rel_err,max_ulp,max_ulp_wide,"
     "bound_ulp,ftz,registers,throughput_Gops,per_cu_Gops,speedup_vs_precise,valid\n"
     "sin,sin(x),float,native,2.5,,1e-7,3e-6,4,32768,,,,12,,3.5,1\n"
     "sin,sin(x),float,precise,9,,5e-8,1e-7,1,,,,,3.4,,1,1\n"
     "exp,exp(x),float,native,,,,,,,,,,,,,0\n"},
    {"xgraph-params.csv", "parameter,dtype,ilp,value,unit,fit_quality,source,note\n"
                          "R,float,,25.5,GB/s,0.98,stream concurrency,\n"
                          "s,float,,51,GB/s per work-items/CU,0.98,stream,\n"
                          "M,float,2,120,Gflop/s,,fma,\n"},
    {"latency-opencl.csv", "benchmark,unit,valid\nlatency,ns,1\nlatency,ns,0\n"},
    {"latency-opencl-levels.png", "not really a png"},
    {"newbench-opencl.csv", "benchmark,unit,valid\nnew,x/s,1\n"},
};

static void sfu_xmodel_other_also(const rp_device *d)
{
    assert_true(rp_strings_has(&d->sections[section_of("sfu")].sources, "sfu-opencl.csv"));
    assert_true(rp_strings_has(&d->sections[section_of("sfu")].sources, "sfu-opencl.table.csv"));
    /* The fit's by-products stay in its CSV, with a note saying so. */
    assert_null(rp_find_row(rp_find_table(&d->sections[section_of("xmodel")], "xmodel-params"), "s float"));
    assert_true(has_note(&d->sections[section_of("xmodel")], "1 more rows of xgraph-params.csv"));
    assert_true(rp_strings_has(&d->sections[section_of("xmodel")].figures, "latency-opencl-levels.png"));
}

/* A figure the plausibility gate flagged carries its flags in its cell and
 * its reasons in the section's table of flagged figures; a cell whose
 * headline a later, unflagged row took (the peak of f(k)) leaves that table;
 * the X-model's parameters are marked the same way. Flags on a row's energy
 * alone leave its figure unmarked. */
static const dev_file flagged_files[] = {
    {"stream-opencl.meta.csv", meta},
    {"stream-opencl.csv",
     "valid,benchmark,backend,variant,dtype,sweep,size_bytes,work_items,params,figure,figure_best,ref_ratio,flags,"
     "note\n"
     "1,stream,opencl,triad,float,fixed,33554432,16,host_limit_GBps=20,40,46,2,cache;above-host-limit,"
     "cache: the 96 MiB working set is below 4x the 32 MiB last-level cache; above-host-limit: 2x the host's\n"
     "1,stream,opencl,copy,float,fixed,268435456,16,host_limit_GBps=20,19,20,0.95,energy-idle,"
     "energy-idle: the repetitions kept the device busy 14% of the energy window\n"
     "1,stream,opencl,triad,float,concurrency,268435456,4,,25,30,,bimodal,bimodal: the best took 0.5\n"
     "1,stream,opencl,triad,float,concurrency,268435456,16,,28,29,,,\n"
     "1,stream,opencl,add,float,concurrency,268435456,4,,26,40,,energy-below-static;unstable,"
     "median below 20 ticks; energy-below-static: 0.2 W less; unstable: CI\n"},
    {"xgraph-params.csv", "parameter,dtype,ilp,value,unit,fit_quality,source,flags,note\n"
                          "M,float,,474,Gflop/s,,fma,above-peak,above-peak: 474 Gflop/s is 1.43x the float peak\n"
                          "R,float,,30,GB/s,,stream,,\n"},
    {"sfu-opencl.table.csv",
     "func,math,dtype,version,latency_ns,latency_cycles,mean_rel_err,max_rel_err,max_ulp,max_ulp_wide,"
     "bound_ulp,ftz,registers,throughput_Gops,per_cu_Gops,speedup_vs_precise,valid,flags,note\n"
     "div,x/y,float,native,2.5,,1e-7,3e-6,0.5,0.5,,,,19,,1,1,bimodal,bimodal: the best took 0.5\n"
     "div,x/y,float,precise,9,,5e-8,1e-7,0.5,0.5,,,,18,,,1,,\n"},
    {"atomics-opencl.meta.csv", meta},
    {"atomics-opencl.csv",
     "benchmark,backend,variant,dtype,sweep,params,figure,figure_best,unit,valid,flags,note\n"
     "atomics,opencl,add,uint32,ratio,space=global;degree_low=1;low_Mops=493;degree_high=4096;high_Mops=500;"
     "host_ratio=5.39,0.986,,x,1,not-concurrent,not-concurrent: 0.986x where the host's own threads slow 5.39x\n"},
    {"bandwidth-opencl.meta.csv", meta},
    {"bandwidth-opencl.csv",
     "benchmark,backend,variant,sweep,size_bytes,params,stop,figure,unit,ref_ratio,valid,flags,note,figure_best\n"
     "bandwidth,opencl,kernel-read,size,16777216,,stable,20,GB/s,0.95,1,,,\n"
     "bandwidth,opencl,kernel-read,fit,,c_us=5;b_GBps=68.3;max_rel_err=1.47;rms_rel_err=0.9,,68.3,GB/s,,1,"
     "above-peak;poor-fit,above-peak: b is 2.3x the memory limit; poor-fit: 90% RMS,\n"
     "bandwidth,opencl,kernel-read,fit-regime,,regime=memory;b_GBps=21;c_us=5,,21,GB/s,,1,,,\n"
     "bandwidth,opencl,kernel-write,size,16777216,,stable,15,GB/s,0.9,1,unstable,unstable: CI,\n"
     "bandwidth,opencl,kernel-write,fit,,c_us=5;b_GBps=15;max_rel_err=0.05;rms_rel_err=0.02,,15,GB/s,,1,,,\n"},
};

static const char *text_of(const rp_device *d, const char *s, const char *table, const char *key, int col)
{
    const rp_row *r = rp_find_row(rp_find_table(&d->sections[section_of(s)], table), key);
    if (r == NULL)
        fail_msg("no row '%s' in %s", key, table);
    return r->cells[col].text;
}

static void flagged_also(const rp_device *d)
{
    assert_string_equal(text_of(d, "stream", "stream-fixed", "triad float", 0), "40 (flagged: cache;above-host-limit)");
    assert_string_equal(text_of(d, "stream", "stream-fixed", "copy float", 0), "19");
    assert_string_equal(text_of(d, "stream", "stream-concurrency", "triad float", 0), "28");
    assert_string_equal(text_of(d, "stream", "stream-concurrency", "add float", 0), "26 (flagged: unstable)");
    assert_string_equal(text_of(d, "xmodel", "xmodel-params", "M float", 0), "474 (flagged: above-peak)");
    assert_string_equal(text_of(d, "sfu", "sfu-table", "div float native", 1), "19 (flagged: bimodal)");
    assert_string_equal(text_of(d, "sfu", "sfu-table", "div float precise", 1), "18");
    assert_string_equal(text_of(d, "sfu", "flagged", "sfu-table: div float native", 1), "bimodal: the best took 0.5");
    /* A contention ratio that measured no contention says so, and so does a
     * transfer model's fit, apart from its path's bandwidth in the same row. */
    assert_string_equal(text_of(d, "atomics", "atomics-ratio", "add uint32 global", 0),
                        "0.986 (flagged: not-concurrent)");
    assert_string_equal(text_of(d, "atomics", "flagged", "atomics-ratio: add uint32 global", 0), "not-concurrent");
    assert_string_equal(text_of(d, "bandwidth", "bandwidth-paths", "kernel-read", 1), "20");
    assert_string_equal(text_of(d, "bandwidth", "bandwidth-paths", "kernel-read", 4),
                        "68.3 (flagged: above-peak;poor-fit)");
    assert_string_equal(text_of(d, "bandwidth", "bandwidth-paths", "kernel-read", 8), "21");
    assert_string_equal(text_of(d, "bandwidth", "flagged", "bandwidth-paths: kernel-read (fit)", 0),
                        "above-peak;poor-fit");
    assert_string_equal(text_of(d, "bandwidth", "flagged", "bandwidth-paths: kernel-write", 0), "unstable");
    assert_string_equal(text_of(d, "bandwidth", "bandwidth-paths", "kernel-write", 4), "15");
    const rp_table *flagged = rp_find_table(&d->sections[section_of("stream")], "flagged");
    assert_non_null(flagged);
    assert_int_equal(flagged->nrows, 2); /* the replaced peak left; the copy never came */
    assert_string_equal(text_of(d, "stream", "flagged", "stream-fixed: triad float", 0), "cache;above-host-limit");
    assert_non_null(strstr(text_of(d, "stream", "flagged", "stream-fixed: triad float", 1),
                           "cache: the 96 MiB working set is below 4x"));
    /* The reasons from the first verdict on, not the caveat before them. */
    assert_string_equal(text_of(d, "stream", "flagged", "stream-concurrency: add float", 1), "unstable: CI");
    assert_string_equal(text_of(d, "xmodel", "flagged", "xmodel-params: M float", 1),
                        "above-peak: 474 Gflop/s is 1.43x the float peak");
    assert_null(rp_find_row(rp_find_table(&d->sections[section_of("xmodel")], "flagged"), "xmodel-params: R float"));
}

/* The energy levels get a section of their own, with their figure; the
 * paths matrix figure goes with the bandwidth's. */
static const dev_file energy_files[] = {
    {"bandwidth-opencl.meta.csv", meta},
    {"bandwidth-opencl.csv", "benchmark,backend,variant,sweep,size_bytes,params,stop,figure,unit,valid\n"
                             "bandwidth,opencl,h2d-write-pinned,matrix,16777216,from=host-pinned;to=device;"
                             "engine=copy,stable,9,GB/s,1\n"},
    {"bandwidth-opencl-matrix.png", "not really a png"},
    {"energy-levels.csv", "level,basis,pj,rows,sensor,status,thesis_pj,thesis_symbol,source,reason\n"
                          "dram,per-byte,523.5,2,nvml:total-energy,measured,550,e_gs/4B,"
                          "\"stream-cuda.csv: copy/float, triad/float\",\n"
                          "llc,per-byte,,0,,no-sensor,,,stream-cuda.csv: copy/float,\"no energy sensor, here\"\n"
                          "shared,per-byte,,0,,no-rows,55.75,e_sr/4B,,no benchmark streams it\n"
                          "sp-op,per-op,9.75,1,nvml:total-energy,measured,45,(e_fadd+e_fmultiply)/2,fma-cuda.csv: fma/float,\n"},
    {"energy-levels.png", "not really a png"},
};

static void energy_also(const rp_device *d)
{
    const rp_section *sec = &d->sections[section_of("energy")];
    assert_true(sec->ran);
    assert_true(rp_strings_has(&sec->figures, "energy-levels.png"));
    assert_true(rp_strings_has(&sec->sources, "energy-levels.csv"));
    assert_true(rp_strings_has(&d->sections[section_of("bandwidth")].figures, "bandwidth-opencl-matrix.png"));
    assert_false(rp_strings_has(&d->sections[section_of("other")].figures, "energy-levels.png"));
    assert_false(has_note(sec, "No level was measured"));
}

static const headline_case headline_cases[] = {
    {"test_energy_levels_section", "energy", LIST(energy_files), energy_also},
    {"test_stream_headline", "stream", LIST(stream_files), stream_also},
    {"test_bandwidth_headline", "bw", LIST(bandwidth_files), NULL},
    {"test_atomics_and_regspill_headlines", "ar", LIST(atomics_regspill_files), atomics_regspill_also},
    {"test_sfu_xmodel_and_other", "sx", LIST(sfu_xmodel_other_files), sfu_xmodel_other_also},
    {"test_flagged_figures_say_so", "flags", LIST(flagged_files), flagged_also},
};

static void test_headlines(void **state)
{
    const headline_case *c = *state;
    rp_run run;
    const rp_device *d = load_device(c->run, c->files, c->nfiles, &run);
    expect_cells(d, c->run);
    if (c->also)
        c->also(d);
    rp_run_free(&run);
}

/* The launch headline gives the median and the mean (Lee's Table 4.1
 * reports the mean): from the row's mean_us= where it has one, else from
 * its mean_s column (results written before mean_us=). */
static void test_launch_headline_has_mean_and_median(void **state)
{
    (void)state;
    static const dev_file files[] = {
        {"atomics-opencl.meta.csv", meta},
        {"atomics-opencl.csv",
         "benchmark,backend,variant,dtype,sweep,params,median_s,mean_s,figure,figure_best,unit,valid\n"
         "atomics,opencl,round-trip,,launch,enqueue to completion;mean_us=23.5,1.7e-05,2.35e-05,17,9,us,1\n"
         "atomics,opencl,enqueue-to-start,,launch,from queued to start,4e-06,6.25e-06,4,3,us,1\n"},
    };
    rp_run run;
    const rp_device *d = load_device("launch", LIST(files), &run);
    expect_cells(d, "launch");
    const rp_table *launch = rp_find_table(&d->sections[section_of("atomics")], "atomics-launch");
    assert_non_null(strstr(launch->title, "Lee Table 4.1"));
    assert_non_null(strstr(launch->title, "mean"));
    /* The headline as the report writes it, and Lee's means beside it, in
     * microseconds (Table 4.1 gives milliseconds). */
    char *text = markdown_of(&run);
    static const char *const rows[] = {
        "| round-trip | 17 | 23.5 | 9 |",          "| enqueue-to-start | 4 | 6.25 | 3 |",
        "**Lee 2012 Table 4.1 (mean of 100 empty-kernel launches)**",
        "| GPU | Lee's name | mean (us) |",
        "| Radeon HD 5870 | AMD Low | 161 |",       "| Radeon HD 7970 | AMD High | 157 |",
        "| GTX 280 | NVIDIA Low | 87 |",           "| Tesla 2075 | NVIDIA High | 124 |",
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; ++i)
        expect_in_text(text, rows[i]);
    free(text);
    /* The thesis's numbers are no result of a run: comparing two runs
     * leaves them out. */
    text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rp_render_compare(f, &run, &run);
    fclose(f);
    expect_in_text(text, "| round-trip | mean (us) | 23.5 | 23.5 | 1 |");
    assert_null(strstr(text, "Radeon HD 5870"));
    free(text);
    rp_run_free(&run);
}

/* Without launch rows there is nothing to set Lee's launch times beside. */
static void test_no_launch_rows_no_lee_table(void **state)
{
    (void)state;
    static const dev_file files[] = {
        {"atomics-opencl.meta.csv", meta},
        {"atomics-opencl.csv", "benchmark,backend,variant,dtype,sweep,params,figure,unit,valid\n"
                               "atomics,opencl,add,uint32,ratio,space=global;degree_low=1;low_Mops=600;"
                               "degree_high=128;high_Mops=4,150,x,1\n"
                               "atomics,opencl,round-trip,,launch,,17,us,0\n"},
    };
    rp_run run;
    const rp_device *d = load_device("nolaunch", LIST(files), &run);
    assert_null(rp_find_table(&d->sections[section_of("atomics")], "atomics-lee-launch"));
    char *text = markdown_of(&run);
    expect_in_text(text, "| add uint32 global | 150 |");
    static const char *const absent[] = {"Lee 2012 Table 4.1", "Radeon HD 5870", "| 161 |", "| 157 |", "| 87 |",
                                         "| 124 |"};
    for (size_t i = 0; i < sizeof absent / sizeof *absent; ++i)
        if (strstr(text, absent[i]))
            fail_msg("'%s' without a launch row:\n%s", absent[i], text);
    free(text);
    rp_run_free(&run);
}

/* The SFU table gives the worst ulp of both domains, the wide one beside
 * the typical one: native cos and tan on PoCL are a few ulp off on the
 * typical domain and tens of thousands on the wide one. A large count reads
 * whole, an unknown one as a dash, as for the typical domain. */
static void test_sfu_wide_domain_ulp(void **state)
{
    (void)state;
    static const dev_file files[] = {
        {"sfu-opencl.table.csv",
         "func,math,dtype,version,latency_ns,latency_cycles,mean_rel_err,max_rel_err,max_ulp,max_ulp_wide,"
         "bound_ulp,ftz,registers,throughput_Gops,per_cu_Gops,speedup_vs_precise,valid\n"
         "cos,cos(x),float,native,2.5,,1e-7,3e-6,2,32768,,,,12,,3.5,1\n"
         "tan,tan(x),float,native,3,,2e-7,5e-6,3.5,9285,,,,10,,3,1\n"
         "cos,cos(x),float,precise,9,,5e-8,1e-7,1,,,,,3.4,,1,1\n"
         "exp,exp(x),float,native,2,,1e-7,inf,inf,inf,,,,11,,4,1\n"},
    };
    rp_run run;
    const rp_device *d = load_device("sfuwide", LIST(files), &run);
    const rp_table *s = rp_find_table(&d->sections[section_of("sfu")], "sfu-table");
    assert_non_null(s);
    assert_int_equal(rp_col_index(s, "max ulp (wide domain)"), rp_col_index(s, "max ulp") + 1);
    char *text = markdown_of(&run);
    expect_in_text(text, "| max ulp | max ulp (wide domain) | verified |");
    expect_in_text(text, "| cos float native | 2.5 | 12 | 3.5 | 1e-07 | 3e-06 | 2 | 32768 | yes |");
    expect_in_text(text, "| tan float native | 3 | 10 | 3 | 2e-07 | 5e-06 | 3.5 | 9285 | yes |");
    expect_in_text(text, "| cos float precise | 9 | 3.4 | 1 | 5e-08 | 1e-07 | 1 | \xe2\x80\x93 | yes |");
    /* A NaN or infinite result makes the error infinite: shown, not a dash. */
    expect_in_text(text, "| exp float native | 2 | 11 | 4 | 1e-07 | inf | inf | inf | yes |");
    free(text);
    rp_run_free(&run);
}

/* run_all.sh's log: a failed and a skipped benchmark are named in their
 * sections, which did not run. */
static void test_run_log_reasons(void **state)
{
    (void)state;
    char *run_dir = make_dir("logged");
    char *dir = make_dir("logged/opencl-0-test");
    write_file(dir, "stream-opencl.csv", stream_csv);
    write_file(run_dir, "run-log.csv",
               "task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n"
               "stream-opencl,opencl,0,Test,opencl-0-test,passed,0,12.5,quick,2026-01-01T00:00:00Z,\n"
               "atomics-opencl,opencl,0,Test,opencl-0-test,failed,1,3.0,quick,2026-01-01T00:00:03Z,"
               "\"exit 1: atomics-opencl: error: lost, an update\"\n"
               "stream-cuda,cuda,,,,skipped,77,0,quick,2026-01-01T00:00:04Z,not built\n");
    rp_run run;
    load(run_dir, &run);
    assert_true(run.has_log);
    assert_int_equal(run.log.nrows, 3);
    assert_int_equal(run.ndevices, 1);
    const rp_device *d = &run.devices[0];
    assert_false(d->sections[section_of("atomics")].ran);
    assert_true(
        has_note(&d->sections[section_of("atomics")], "atomics-opencl failed: exit 1: atomics-opencl: error: lost, an update"));
    assert_true(cell_of(d, "device", "benchmarks", "stream-opencl", "time (s)")->num == 12.5);
    assert_string_equal(cell_of(d, "device", "benchmarks", "atomics-opencl", "status")->text, "failed");
    rp_run_free(&run);
}

/* ---- comparing ---- */

static void test_compare_pairs_and_ratios(void **state)
{
    (void)state;
    assert_true(rp_ratio(2, 3) == 1.5);
    assert_true(isnan(rp_ratio(0, 1)));
    assert_true(isnan(rp_ratio(NAN, 1)));
    assert_true(isnan(rp_ratio(1, INFINITY)));
    /* two finite numbers whose ratio overflows: said as such */
    assert_true(isinf(rp_ratio(1e-308, 1e308)) && rp_ratio(-1e-308, 1e308) < 0);
    char past[32];
    rp_format_past_double(rp_ratio(1e-308, 1e308), past, sizeof past);
    assert_string_equal(past, "over 1.8e+308");
    rp_format_past_double(rp_ratio(-1e-308, 1e308), past, sizeof past);
    assert_string_equal(past, "below -1.8e+308");

    char *a_cl = make_dir("cmp-a/opencl-0-old_name"), *a_cu = make_dir("cmp-a/cuda");
    write_file(a_cl, "stream-opencl.csv", stream_csv);
    write_file(a_cu, "stream-cuda.log", "skipped\n");
    char *b_cl = make_dir("cmp-b/opencl-0-new_name"), *b_cu = make_dir("cmp-b/cuda");
    char faster[sizeof stream_csv + 16];
    snprintf(faster, sizeof faster, "%s", stream_csv);
    char *p = strstr(faster, ",30,32,0.75,"); /* the device's triad: 30 -> 45 GB/s */
    assert_non_null(p);
    memcpy(p, ",45,32,0.75,", 12);
    write_file(b_cl, "stream-opencl.csv", faster);
    write_file(b_cu, "stream-cuda.log", "skipped\n");

    rp_run a, b;
    load(under("cmp-a"), &a);
    load(under("cmp-b"), &b);
    rp_pair pairs[4];
    assert_int_equal(rp_pair_devices(&a, &b, pairs, 4), 2);
    assert_string_equal(pairs[0].a->dir, "cuda");
    assert_string_equal(pairs[0].b->dir, "cuda");
    assert_string_equal(pairs[1].a->dir, "opencl-0-old_name");
    assert_string_equal(pairs[1].b->dir, "opencl-0-new_name");
    assert_string_equal(pairs[1].how, "the same backend and index");

    /* Two machines' only devices pair whatever their names. */
    char *x = make_dir("cmp-x/opencl-1-one"), *y = make_dir("cmp-y/opencl-0-another");
    write_file(x, "stream-opencl.csv", stream_csv);
    write_file(y, "stream-opencl.csv", stream_csv);
    rp_run rx, ry;
    load(under("cmp-x"), &rx);
    load(under("cmp-y"), &ry);
    assert_int_equal(rp_pair_devices(&rx, &ry, pairs, 4), 1);
    assert_string_equal(pairs[0].how, "the only devices left");
    rp_run_free(&rx);
    rp_run_free(&ry);

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rp_render_compare(f, &a, &b);
    fclose(f);
    assert_non_null(strstr(text, "| triad float | GB/s | 30 | 45 | 1.5 |"));
    assert_non_null(strstr(text, "| triad float | best GB/s | 32 | 32 | 1 |"));
    free(text);
    rp_run_free(&a);
    rp_run_free(&b);
}

/* One GPU through CUDA and OpenCL in one run: its numbers side by side,
 * CUDA's first; devices of other names are not paired. */
static void write_device(const char *dir, const char *name, const char *backend, const char *triad)
{
    char *d = make_dir(dir);
    char m[256], csv[sizeof stream_csv + 64], file[64];
    snprintf(m, sizeof m, "key,value\ndevice.name,%s\ndevice.compute_units,4\nbackend,%s\nhost,testhost\n", name,
             backend);
    snprintf(csv, sizeof csv, "%s", stream_csv);
    char *p = strstr(csv, ",30,32,0.75,");
    assert_non_null(p);
    memcpy(p + 1, triad, 2);
    /* The device's rows under its own backend: ",opencl," becomes ",cuda,". */
    for (char *q; strcmp(backend, "opencl") != 0 && (q = strstr(csv, ",opencl,")) != NULL;) {
        memcpy(q + 1, "cuda", 4);
        memmove(q + 5, q + 7, strlen(q + 7) + 1);
    }
    snprintf(file, sizeof file, "stream-%s.meta.csv", backend);
    write_file(d, file, m);
    snprintf(file, sizeof file, "stream-%s.csv", backend);
    write_file(d, file, csv);
}

static void test_one_device_two_apis(void **state)
{
    (void)state;
    write_device("apis/opencl-1-Test_GPU", "Test GPU", "opencl", "45");
    write_device("apis/cuda-0-Test_GPU", "Test GPU", "cuda", "30");
    write_device("apis/opencl-0-Other", "Other CPU", "opencl", "12");
    rp_run run;
    load(under("apis"), &run);
    rp_section pairs;
    memset(&pairs, 0, sizeof pairs);
    assert_int_equal(rp_backend_tables(&run, &pairs), 1);
    const rp_table *t = &pairs.tables[0];
    assert_string_equal(t->title, "Test GPU: cuda and opencl");
    assert_string_equal(t->cols[2], "opencl / cuda");
    const rp_row *triad = NULL;
    for (size_t i = 0; i < t->nrows && !triad; ++i)
        if (strstr(t->rows[i].key, "triad float, GB/s") && !strstr(t->rows[i].key, "best"))
            triad = &t->rows[i];
    assert_non_null(triad);
    assert_true(triad->cells[0].num == 30 && triad->cells[1].num == 45);
    assert_true(fabs(triad->cells[2].num - 1.5) < 1e-12);
    for (size_t k = 0; k < pairs.ntables; ++k)
        rp_table_free(&pairs.tables[k]);
    char *md = markdown_of(&run);
    expect_in_text(md, "## One device, two APIs");
    expect_in_text(md, "**Test GPU: cuda and opencl**");
    assert_null(strstr(md, "Other CPU: "));
    free(md);
    rp_run_free(&run);
}

/* ---- the comparison through the results database ---- */

static void shell(const char *fmt, const char *a, const char *b)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, fmt, a, b);
    if (system(cmd) != 0)
        fail_msg("failed: %s", cmd);
}

static char *render_compare(const rp_run *a, const rp_run *b)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    rp_render_compare(f, a, b);
    fclose(f);
    return text;
}

/* report --compare's text for A and B: the runs read from their
 * directories, or imported into a database and read back from it. */
static char *compare_of(const char *dir_a, const char *dir_b, bool through_db)
{
    rp_run a, b;
    char err[2048] = "";
    if (through_db) {
        if (rp_load_compared(dir_a, dir_b, &a, &b, err, sizeof err) != 0)
            fail_msg("%s", err);
    } else {
        load(dir_a, &a);
        load(dir_b, &b);
    }
    char *text = render_compare(&a, &b);
    rp_run_free(&a);
    rp_run_free(&b);
    return text;
}

/* Both ways, the same bytes; returns how many values were compared. */
static unsigned expect_same_comparison(const char *dir_a, const char *dir_b)
{
    char *files = compare_of(dir_a, dir_b, false), *db = compare_of(dir_a, dir_b, true);
    assert_string_equal(db, files);
    unsigned compared = 0;
    for (const char *p = files; (p = strstr(p, " values compared")) != NULL; ++p) {
        const char *digits = p;
        while (digits > files && digits[-1] >= '0' && digits[-1] <= '9')
            --digits;
        compared += (unsigned)strtoul(digits, NULL, 10);
    }
    free(files);
    free(db);
    return compared;
}

static void test_compare_through_db_is_byte_identical(void **state)
{
    (void)state;
    /* The committed run of every benchmark, against a copy whose stream
     * figures grew by a quarter and are written in another form (4.0828e+01
     * for 40.828), which has a directory of logs only besides. */
    const char *a = under("db-a"), *b = under("db-b");
    shell("rm -rf '%s' && cp -R tools/shared/tests/data/run '%s'", a, a);
    shell("rm -rf '%s' && cp -R tools/shared/tests/data/run '%s'", b, b);
    shell("cd '%s/opencl-0-cpu' && awk -F, -v OFS=, 'NR > 1 { $22 = sprintf(\"%%.4e\", $22 * 1.25) } 1' "
          "stream-opencl.csv > t && mv t stream-opencl.csv && mkdir ../cuda-0-gpu && echo skipped > "
          "../cuda-0-gpu/stream-cuda.log%s",
          b, "");
    unsigned compared = expect_same_comparison(a, b);
    /* Every benchmark's headlines are there, not an empty frame. */
    assert_true(compared > 50);
    assert_int_equal(expect_same_comparison(b, a), compared);
    /* A directory of one device's CSVs against a run, trailing slashes and
     * all; the synthetic runs of one column order of their own. */
    char one[300];
    snprintf(one, sizeof one, "%s/opencl-0-cpu/", a);
    assert_true(expect_same_comparison(one, a) > 50);
    char *a_cl = make_dir("db-c/opencl-0-x"), *b_cl = make_dir("db-d/opencl-0-y");
    write_file(a_cl, "stream-opencl.csv", stream_csv);
    write_file(a_cl, "stream-opencl.meta.csv", meta);
    write_file(b_cl, "stream-opencl.csv", stream_csv);
    assert_true(expect_same_comparison(under("db-c"), under("db-d")) > 0);
}

/* Read from the database, a run needs its directory no more. */
static void test_run_read_back_from_db_alone(void **state)
{
    (void)state;
    const char *dir = under("db-gone");
    shell("rm -rf '%s' && cp -R tools/shared/tests/data/run '%s'", dir, dir);
    char *files = compare_of(dir, dir, false);
    char err[1024] = "";
    sqlite3_int64 id;
    sqlite3 *db = import_run(dir, &id);
    shell("rm -rf '%s'%s", dir, "");
    rp_run a, b;
    if (rp_load_run_db(db, id, dir, &a, err, sizeof err) != 0 || rp_load_run_db(db, id, dir, &b, err, sizeof err) != 0)
        fail_msg("%s", err);
    char *from_db = render_compare(&a, &b);
    assert_string_equal(from_db, files);
    free(from_db);
    free(files);
    rp_run_free(&a);
    rp_run_free(&b);
    sqlite3_close(db);
}

static void test_bad_directories(void **state)
{
    (void)state;
    rp_run run;
    char err[256];
    assert_int_equal(rp_load_run("/nonexistent/crossroof", &run, err, sizeof err), RP_NOT_A_RUN);
    assert_non_null(strstr(err, "not a directory"));
    char *empty = make_dir("empty/sub");
    (void)empty;
    assert_int_equal(rp_load_run(under("empty"), &run, err, sizeof err), RP_NOT_A_RUN);
    assert_non_null(strstr(err, "holds no results"));
    /* A malformed CSV is bad data: the run is refused, the file and line
     * named (a report with the file left out would look complete). */
    char *dir = make_dir("broken/opencl-0-test");
    write_file(dir, "stream-opencl.csv", "benchmark,valid\nstream,1,extra\n");
    assert_int_equal(rp_load_run(under("broken"), &run, err, sizeof err), RP_BAD_DATA);
    assert_non_null(strstr(err, "broken/opencl-0-test/stream-opencl.csv:2: 3 fields, the header has 2"));
    write_file(dir, "stream-opencl.csv", stream_csv);
    write_file(dir, "stream-opencl.meta.csv", "key,value\ndevice.compute_units,many\n");
    assert_int_equal(rp_load_run(under("broken"), &run, err, sizeof err), RP_BAD_DATA);
    assert_non_null(strstr(err, "stream-opencl.meta.csv:2: key 'device.compute_units': 'many' is not a count"));
}

/* The energy section and its figure are in the report where the run has
 * the energy levels, and absent (not "did not run") where it has none. */
static void test_energy_section_only_where_it_ran(void **state)
{
    (void)state;
    rp_run run;
    const rp_device *d = load_device("energy-md", energy_files, sizeof energy_files / sizeof *energy_files, &run);
    (void)d;
    char *md = markdown_of(&run);
    expect_in_text(md, "Energy per byte and per operation (Ranasinghe 2014, ch. 5)");
    expect_in_text(md, "energy-levels.png");
    expect_in_text(md, "bandwidth-opencl-matrix.png");
    expect_in_text(md, "e&#95;gs/4B");
    free(md);
    rp_run_free(&run);

    load_device("energy-none", stream_files, sizeof stream_files / sizeof *stream_files, &run);
    md = markdown_of(&run);
    if (strstr(md, "Energy per byte") != NULL)
        fail_msg("a run without energy levels has their section:\n%s", md);
    free(md);
    rp_run_free(&run);
}

/* A CPU device's compute peak measured where fma ran: the device table
 * shows that file's peaks, the modelled ones and their agreement, over
 * the device's own peak in the metadata the table comes from. */
static void test_measured_compute_peak_in_the_device_table(void **state)
{
    (void)state;
    const char *fma_meta =
        "key,value\ndevice.name,Test device\nbackend,opencl\npeak.float_GFLOPs,288.5\npeak.double_GFLOPs,141\n"
        "peak.float_GFLOPs_modelled,301.7\npeak.host_clock_MHz,2357\n"
        "peak.compute_check,agree within 15%: the measured float peak 288.5 GFLOP/s is 96% of the modelled 301.7\n";
    const dev_file files[] = {{"stream-opencl.csv", stream_csv},
                              {"stream-opencl.meta.csv",
                               "key,value\ndevice.name,Test device\nbackend,opencl\npeak.float_GFLOPs,320\n"},
                              {"fma-opencl.meta.csv", fma_meta}};
    rp_run run;
    load_device("compute-peak", files, sizeof files / sizeof *files, &run);
    char *md = markdown_of(&run);
    expect_in_text(md, "| float peak (GFLOP/s) | 288.5 (fma-opencl.meta.csv) |");
    expect_in_text(md, "| float peak modelled (GFLOP/s) | 301.7 (fma-opencl.meta.csv) |");
    expect_in_text(md, "| host clock of the compute peak (MHz) | 2357 (fma-opencl.meta.csv) |");
    expect_in_text(md, "agree within 15%: the measured float peak 288.5 GFLOP/s is 96% of the modelled 301.7");
    if (strstr(md, "| 320 |") != NULL)
        fail_msg("the device's own peak is still shown:\n%s", md);
    free(md);
    rp_run_free(&run);
}

/* ---- the order of the report ---- */

/* A run as run_all.sh leaves it without a GPU: a device with stream's
 * results, and a CUDA directory whose benchmarks were all skipped but for
 * regspill's offline table. */
static void write_answer_run(const char *name)
{
    char sub[128];
    snprintf(sub, sizeof sub, "%s/opencl-0-test", name);
    char *dev = make_dir(sub);
    write_file(dev, "stream-opencl.csv", stream_csv);
    write_file(dev, "stream-opencl.meta.csv",
               "key,value\ndevice.name,Test device\ndevice.compute_units,4\nbackend,opencl\nhost,testhost\n"
               "peak.memory_GBps,50\n");
    snprintf(sub, sizeof sub, "%s/cuda", name);
    char *cuda = make_dir(sub);
    write_file(cuda, "regspill-cuda.meta.csv", "key,value\ndevice.name,none (offline compiler only)\nbackend,cuda\n");
    write_file(cuda, "regspill-cuda.csv",
               "benchmark,backend,device,variant,dtype,sweep,params,figure,unit,valid\n"
               "regspill,offline,sm_90,offline-bound,uint32,registers,arch=sm_90;live=64;cap=1;registers=24;"
               "spill_store_bytes=852;spill_load_bytes=852,1704,B/thread,1\n");
    write_file(make_dir(name), "run-log.csv",
               "task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n"
               "stream-opencl,opencl,0,Test,opencl-0-test,passed,0,12.5,quick,2026-01-01T00:00:00Z,\n"
               "regspill-cuda,cuda,,,cuda,skipped,77,1.5,quick,2026-01-01T00:00:04Z,no CUDA device: planted\n"
               "stream-cuda,cuda,,,cuda,skipped,77,0,quick,2026-01-01T00:00:05Z,no CUDA device: planted\n");
}

/* The first thing after the title is the first device's headline
 * figures, each with its peak or limit; the directory whose benchmarks
 * were all skipped has no device section (a line says why, its offline
 * table is in the appendix); the run log comes last. */
static void test_report_opens_with_the_answer(void **state)
{
    (void)state;
    write_answer_run("answer");
    rp_run run;
    load(under("answer"), &run);
    assert_int_equal(run.ndevices, 2);
    assert_false(run.devices[0].no_device);
    assert_string_equal(run.devices[1].dir, "cuda");
    assert_true(run.devices[1].no_device);
    assert_string_equal(run.devices[1].why, "no CUDA device: planted");
    char *md = markdown_of(&run);
    static const char title[] = "# crossroof characterization: answer\n\n";
    assert_memory_equal(md, title, sizeof title - 1);
    /* Between the title and the device: the run's line and why cuda/ has no device, no table or heading. */
    const char *device = strstr(md, "\n## "), *first_table = strstr(md, "\n| ");
    assert_non_null(device);
    assert_true(strncmp(device, "\n## Test device (opencl)\n", 25) == 0);
    expect_in_text(md, "No device in cuda/ (cuda): no CUDA device: planted. Its 2 benchmark run(s) were skipped; "
                       "what they wrote without one is under [Without a device](#offline).");
    assert_true(first_table > device && first_table < strstr(md, "\n### "));
    expect_in_text(first_table, "\n| headline | value | peak, limit or reference | flags |\n");
    expect_in_text(md, "| [Stream triad, float](#device-1-stream) | 30 GB/s | host limit 40 GB/s (75%); "
                       "memory peak 50 GB/s (60%) |  |\n");
    /* cuda/ only in the appendix, one level down; the run log last. */
    assert_null(strstr(md, "## none (offline compiler only)"));
    const char *appendix = strstr(md, "\n## Without a device\n"), *log = strstr(md, "\n## The run\n");
    assert_non_null(appendix);
    assert_non_null(log);
    assert_true(appendix > device && log > appendix);
    expect_in_text(appendix, "\n### cuda/\n");
    expect_in_text(appendix, "\n#### Register pressure and spilling");
    expect_in_text(appendix, "| sm&#95;90 live=64 | 24 |");
    assert_null(strstr(log + 1, "\n## "));
    free(md);
    rp_run_free(&run);
}

int main(void)
{
    enum { FIRST = 3, NCASES = sizeof headline_cases / sizeof *headline_cases };
    /* The headline cases after base64's tests, each under its own name. */
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base64_rfc4648_vectors),
        cmocka_unit_test(test_base64_every_byte_round_trips),
        cmocka_unit_test(test_base64_rejects_what_is_not_canonical),
        [FIRST + NCASES] = cmocka_unit_test(test_run_log_reasons),
        cmocka_unit_test(test_launch_headline_has_mean_and_median),
        cmocka_unit_test(test_no_launch_rows_no_lee_table),
        cmocka_unit_test(test_sfu_wide_domain_ulp),
        cmocka_unit_test(test_compare_pairs_and_ratios),
        cmocka_unit_test(test_one_device_two_apis),
        cmocka_unit_test(test_compare_through_db_is_byte_identical),
        cmocka_unit_test(test_run_read_back_from_db_alone),
        cmocka_unit_test(test_bad_directories),
        cmocka_unit_test(test_energy_section_only_where_it_ran),
        cmocka_unit_test(test_report_opens_with_the_answer),
        cmocka_unit_test(test_measured_compute_peak_in_the_device_table),
    };
    for (size_t i = 0; i < NCASES; ++i)
        tests[FIRST + i] = (struct CMUnitTest){.name = headline_cases[i].test, .test_func = test_headlines,
                                               .initial_state = (void *)&headline_cases[i]};
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
