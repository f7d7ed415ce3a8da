/* The CSV reader the post-processing tools share: RFC 4180 quoting,
 * comments, line numbers in every complaint, and the rules every file is
 * held to: text only, bounded lines, ended last line, the header its
 * schema says, every field what its column holds. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cr.h"
#include "results.h"
#include "row_names.h"
#include "shared/result_reader.h"
#include "tests/in_child.h"
#include "tests/result_text.h"
#include "timer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* Parses text as a file of schema s named name; the error, or "" when it
 * read (the table is freed). */
static const char *verdict(const char *name, const char *text, size_t len, const cr_csv_schema *s)
{
    static char err[1024];
    cr_csv_table t;
    err[0] = '\0';
    if (cr_csv_parse(&t, name, text, len, s, err, sizeof err) == 0)
        cr_csv_free(&t);
    else if (err[0] == '\0')
        fail_msg("%s refused without a message", name);
    return err;
}

static void expect_verdict(const char *text, const cr_csv_schema *s, const char *want)
{
    const char *got = verdict("f.csv", text, strlen(text), s);
    if (strcmp(got, want) != 0)
        fail_msg("'%.60s': '%s', want '%s'", text, got, want);
}

static void test_quoted_fields_and_line_numbers(void **state)
{
    (void)state;
    /* Line 1 the header, 2 a comment, 3 a row, 4-5 one row whose quoted note
     * spans two lines, 6 empty, 7 a CRLF row. */
    const char *text = "a,b,note\n"
                       "# source: a test\n"
                       "1,2.5,plain\n"
                       "3,4,\"two\nlines, \"\"quoted\"\"\"\n"
                       "\n"
                       "5,,x\r\n";
    cr_csv_table t;
    char err[256] = "";
    assert_int_equal(cr_csv_parse(&t, "t.csv", text, strlen(text), &cr_schema_any, err, sizeof err), 0);
    assert_int_equal(t.ncols, 3);
    assert_int_equal(t.nrows, 3);
    assert_int_equal(t.rows[0].line, 3);
    assert_int_equal(t.rows[1].line, 4);
    assert_int_equal(t.rows[2].line, 7);
    assert_string_equal(t.rows[1].fields[2], "two\nlines, \"quoted\"");
    assert_string_equal(t.rows[2].fields[2], "x");
    assert_int_equal(cr_csv_column(&t, "note"), 2);
    assert_int_equal(cr_csv_column(&t, "nope"), -1);

    double v;
    assert_int_equal(cr_csv_number(&t, 0, 1, false, &v, err, sizeof err), 0);
    assert_true(v == 2.5);
    assert_int_equal(cr_csv_number(&t, 2, 1, true, &v, err, sizeof err), 0);
    assert_true(isnan(v));
    assert_int_equal(cr_csv_number(&t, 2, 1, false, &v, err, sizeof err), -1);
    assert_string_equal(err, "t.csv:7: column 'b': '' is not a number");
    assert_int_equal(cr_csv_number(&t, 0, 2, false, &v, err, sizeof err), -1);
    assert_string_equal(err, "t.csv:3: column 'note': 'plain' is not a number");
    /* A field shown in a message stays on one line. */
    assert_int_equal(cr_csv_number(&t, 1, 2, false, &v, err, sizeof err), -1);
    assert_string_equal(err, "t.csv:4: column 'note': 'two lines, \"quoted\"' is not a number");

    static const char *const need[] = {"a", "missing"};
    int idx[2];
    assert_int_equal(cr_csv_require(&t, need, 2, idx, err, sizeof err), -1);
    assert_string_equal(err, "t.csv:1: no column 'missing' in the header");
    cr_csv_free(&t);
}

static void test_malformed(void **state)
{
    (void)state;
    cr_csv_table t;
    char err[256];
    assert_int_equal(cr_csv_load(&t, "/nonexistent/x.csv", &cr_schema_any, err, sizeof err), -1);
    assert_string_equal(err, "/nonexistent/x.csv: No such file or directory");
    /* Numbers the suite never writes are rejected too. */
    const char *text = "v\ninf\n0x10\n1e999\n";
    assert_int_equal(cr_csv_parse(&t, "n.csv", text, strlen(text), &cr_schema_any, err, sizeof err), 0);
    double v;
    for (size_t i = 0; i < 3; ++i)
        assert_int_equal(cr_csv_number(&t, i, 0, false, &v, err, sizeof err), -1);
    assert_string_equal(err, "n.csv:4: column 'v': '1e999' is not a finite number");
    cr_csv_free(&t);
}

/* ---- whole files: text, header, keys ---- */

typedef struct {
    const cr_csv_schema *schema;
    const char *text;
    const char *want; /* the error; "" when it reads */
} verdict_case;

#define ANY (&cr_schema_any)
#define META (&cr_schema_metadata)
#define REF (&cr_schema_reference)
#define NO_COMMENT "a line starting with '#': this kind of file has no comments"

static const verdict_case verdict_cases[] = {
    /* Records: as many fields as the header, quotes closed and alone. */
    {ANY, "a,b\n1,2\n1,2,3\n", "f.csv:3: 3 fields, the header has 2"},
    {ANY, "a,b,c\n1,2,3\n1,2\n", "f.csv:3: 2 fields, the header has 3"},
    {ANY, "a,b,c\n1,2,3\n\"x\"\n", "f.csv:3: 1 field, the header has 3"},
    {ANY, "a,b\n1,\"open\n", "f.csv:2: malformed quoting"},
    {ANY, "a,b\n1,x\"y\n", "f.csv:2: malformed quoting"},
    {ANY, "# only a comment\n", "f.csv:2: empty file: no header"},
    /* What the suite writes has no comments: a '#' line is refused, not
     * skipped (a row of results gone unsaid). */
    {&cr_schema_results, "benchmark,figure\n# stream,1\n", "f.csv:2: " NO_COMMENT},
    {&cr_schema_results, "# benchmark,figure\n", "f.csv:1: " NO_COMMENT},
    {META, "key,value\n\n#device.name,x\n", "f.csv:3: " NO_COMMENT},
    {&cr_schema_run_log, "# a note\n", "f.csv:1: " NO_COMMENT},
    {ANY, "", "f.csv:1: empty file: no header"},
    /* Text only: no control byte, ... */
    {ANY, "a,b\n1,x\x01y\n", "f.csv:2: binary data (byte 0x01): not a CSV text file"},
    {ANY, "a,b\n1,x\x7f\n", "f.csv:2: binary data (byte 0x7f): not a CSV text file"},
    /* ... and UTF-8: no stray continuation byte, overlong '/', surrogate,
     * code point past U+10FFFF, sequence cut short by the line's end. */
    {ANY, "a,b\n\x80,1\n", "f.csv:2: binary data (byte 0x80): not a CSV text file"},
    {ANY, "a,b\n1,\xc0\xaf\n", "f.csv:2: binary data (byte 0xc0): not a CSV text file"},
    {ANY, "a,b\n1,\xed\xa0\x80\n", "f.csv:2: binary data (byte 0xed): not a CSV text file"},
    {ANY, "a,b\n1,\xf4\x90\x80\x80\n", "f.csv:2: binary data (byte 0xf4): not a CSV text file"},
    {ANY, "a,b\n1,\xe2\x82\n", "f.csv:2: binary data (byte 0xe2): not a CSV text file"},
    /* UTF-8, tabs and CRLF are text. */
    {ANY, "a,b\r\n\xce\xb4,\tx \xe2\x80\x93 \xf0\x9f\x98\x80\r\n", ""},
    /* The last line ended: anything else was cut short. */
    {ANY, "a,b\n1,2\n3,4", "f.csv:3: the last line has no end: the file is cut short"},
    {ANY, "a,b", "f.csv:1: the last line has no end: the file is cut short"},
    /* The header: every column of the schema, each once, no other, in
     * any order. */
    {META, "key,value\ndevice.name,x\n", ""},
    {META, "value,key\n1,x\n", ""},
    {META, "device.name,x\nhost,y\n", "f.csv:1: no header: the first line names no column of a metadata file"},
    {META, "key\nx\n", "f.csv:1: no column 'value' in the header"},
    {META, "key,value,extra\nx,1,2\n", "f.csv:1: column 'extra' is not a column of a metadata file"},
    {META, "key,value,value\nx,1,2\n", "f.csv:1: column 'value' appears twice in the header"},
    /* A table of one's own may carry more columns; its header follows the
     * comments. */
    {REF, "# from somewhere\ngpu,dtype,delta_warps,R_GBps,mwarps,year\nX,float,4,100,64,2016\n", ""},
    {REF, "# from somewhere\ngpu,dtype,R_GBps,mwarps\nX,float,100,64\n",
     "f.csv:2: no column 'delta_warps' in the header"},
    /* A CSV of no known kind: a data row is no header. */
    {ANY, "stream,x1\nx,2\n", ""},
    {ANY, "1.5,stream\nx,2\n", "f.csv:1: no header: '1.5' is not a column name"},
    {ANY, "a,,b\n1,2,3\n", "f.csv:1: no header: '' is not a column name"},
    {ANY, "a,b,a\n1,2,3\n", "f.csv:1: column 'a' appears twice in the header"},
    /* Metadata: the numeric keys' values of their kind, each key once. */
    {META, "key,value\ndevice.compute_units,2\ndevice.fp64,1\nonline_cpus,-1\nnotes,\"a, b\"\n", ""},
    {META, "key,value\ndevice.compute_units,-2\n",
     "f.csv:2: key 'device.compute_units': '-2' is not a count (a whole number from 0 to 18446744073709551615)"},
    {META, "key,value\ndevice.timer_resolution_ns,nan\n",
     "f.csv:2: key 'device.timer_resolution_ns': 'nan' is not a number"},
    {META, "key,value\n,1\n", "f.csv:2: column 'key': '' is empty"},
    {META, "key,value\na,1\nb,2\nb,3\na,4\n", "f.csv:4: key 'b' appears twice (first on line 3)"},
};

static void test_verdicts(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof verdict_cases / sizeof *verdict_cases; ++i)
        expect_verdict(verdict_cases[i].text, verdict_cases[i].schema, verdict_cases[i].want);
    /* A NUL byte, which a C string cannot hold. */
    assert_string_equal(verdict("f.csv", "a,b\n1,\0\n", 8, ANY),
                        "f.csv:2: binary data (byte 0x00): not a CSV text file");
}

static void test_line_length(void **state)
{
    (void)state;
    size_t n = CR_CSV_MAX_LINE;
    char *text = malloc(n + 16);
    assert_non_null(text);
    memcpy(text, "a\n", 2);
    memset(text + 2, 'x', n);
    memcpy(text + 2 + n, "\n", 2);
    expect_verdict(text, ANY, "");
    memcpy(text + 2 + n, "x\n", 3);
    expect_verdict(text, ANY, "f.csv:2: a line longer than 65536 bytes");
    free(text);
    /* The size is looked at before the bytes. */
    static const char none[1];
    assert_string_equal(verdict("big.csv", none, CR_CSV_MAX_BYTES + 1, ANY),
                        "big.csv: more than a results file may hold (64 MiB, read in at most 1600 MiB of memory)");
    /* A file's, by what it says of its size: not read at all. */
    char path[] = "/tmp/crossroof-reader-big-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)CR_CSV_MAX_BYTES + 1), 0);
    close(fd);
    cr_csv_table t;
    char err[256], want[256];
    assert_int_equal(cr_csv_load(&t, path, ANY, err, sizeof err), -1);
    unlink(path);
    snprintf(want, sizeof want, "%s: more than a results file may hold (64 MiB, read in at most 1600 MiB of memory)",
             path);
    assert_string_equal(err, want);
}

typedef struct {
    const char *text;
    size_t len;
} text_args;

/* The verdict on the text, read with an address space of what this process
 * uses now and twice the text more. */
static int parse_short_of_memory(void *ctx, void *out, size_t len)
{
    const text_args *a = ctx;
    long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL || fscanf(f, "%ld", &pages) != 1)
        return 1;
    fclose(f);
    struct rlimit lim = {.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + 2 * a->len};
    lim.rlim_max = lim.rlim_cur;
    if (setrlimit(RLIMIT_AS, &lim) != 0)
        return 1;
    cr_csv_table t;
    if (cr_csv_parse(&t, "big.csv", a->text, a->len, ANY, out, len) == 0) {
        cr_csv_free(&t);
        snprintf(out, len, "read");
    }
    return 0;
}

/* Memory that runs out while a file is read is said to, never taken for
 * a fault of the file. */
static void test_out_of_memory_is_said(void **state)
{
    (void)state;
#ifdef __SANITIZE_ADDRESS__
    skip(); /* ASan's allocator stops the process where malloc would fail */
#endif
    /* A million records of two fields: 4 MiB of text, 24 MiB to hold. */
    size_t rows = 1 << 20, len = 4 + 4 * rows;
    char *text = malloc(len + 1), err[256];
    assert_non_null(text);
    memcpy(text, "a,b\n", 4);
    for (size_t r = 0; r < rows; ++r)
        memcpy(text + 4 + 4 * r, "1,2\n", 4);
    text[len] = '\0';
    text_args a = {text, len};
    assert_int_equal(run_in_child(parse_short_of_memory, &a, 60, err, sizeof err), 0);
    free(text);
    assert_string_equal(err, "out of memory reading big.csv");
}

static void test_only_regular_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/crossroof-reader-XXXXXX", fifo[64];
    assert_non_null(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/pipe.csv", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    cr_csv_table t;
    char err[256], want[128];
    assert_int_equal(cr_csv_load(&t, fifo, &cr_schema_any, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: not a regular file", fifo);
    assert_string_equal(err, want);
    assert_int_equal(cr_csv_load(&t, dir, &cr_schema_any, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: not a regular file", dir);
    assert_string_equal(err, want);
    unlink(fifo);
    rmdir(dir);
}

/* The results schema is the writer's: the same columns in the same order,
 * and what the writer writes reads back, at the edges of every kind. */
static void test_results_round_trip(void **state)
{
    (void)state;
    assert_int_equal(cr_schema_results.ncols, cr_result_ncolumns);
    for (size_t i = 0; i < cr_result_ncolumns; ++i)
        assert_string_equal(cr_schema_results.cols[i].name, cr_result_columns[i]);

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_result_write_header(f);
    cr_result r = {.size_bytes = UINT64_MAX, .work_items = 0, .work_group = 1, .bytes_per_rep = NAN,
                   .ops_per_rep = 0, .figure = -43.8, .figure_best = NAN, .ref_ratio = 1e-300, .valid = false,
                   .stats = {.n = 0, .min = NAN, .median = NAN, .mean = NAN, .max = NAN, .stddev = NAN,
                             .ci_rel = INFINITY}};
    snprintf(r.benchmark, sizeof r.benchmark, "bandwidth");
    snprintf(r.backend, sizeof r.backend, "opencl");
    snprintf(r.device, sizeof r.device, "GPU \"X\", rev. 2");
    snprintf(r.params, sizeof r.params, "composed_ms=0.25;k=1,2");
    snprintf(r.note, sizeof r.note, "two\nlines");
    snprintf(r.unit, sizeof r.unit, "%%"); /* a fit's error may be below 0 */
    cr_result_write_row(f, &r);
    r.valid = true;
    r.stats = (cr_summary){.n = 20, .min = 1e-9, .median = 2e-9, .mean = 2e-9, .max = 3e-9, .stddev = 0, .ci_rel = 0};
    r.cycles = 33.5;
    cr_result_write_row(f, &r);
    fclose(f);
    cr_csv_table t;
    char err[512] = "";
    if (cr_csv_parse(&t, "w.csv", text, len, &cr_schema_results, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(t.nrows, 2);
    /* The same figure in GB/s is no bandwidth: refused, with its line. */
    char *gbs = malloc(len + 8), *unit = strstr(text, ",%,");
    assert_non_null(gbs);
    assert_non_null(unit);
    snprintf(gbs, len + 8, "%.*s,GB/s,%s", (int)(unit - text), text, unit + 3);
    cr_csv_table bad;
    assert_int_not_equal(cr_csv_parse(&bad, "g.csv", gbs, strlen(gbs), &cr_schema_results, err, sizeof err), 0);
    assert_non_null(strstr(err, "g.csv:2: a figure below 0"));
    free(gbs);
    assert_string_equal(t.rows[0].fields[cr_csv_column(&t, "size_bytes")], "18446744073709551615");
    assert_string_equal(t.rows[0].fields[cr_csv_column(&t, "note")], "two\nlines");
    /* cycles: empty where a row never set it (0), the count where it did */
    assert_string_equal(t.rows[0].fields[cr_csv_column(&t, "cycles")], "");
    assert_string_equal(t.rows[1].fields[cr_csv_column(&t, "cycles")], "33.5");
    cr_csv_free(&t);
    free(text);
}

/* Results written before the flags column was added read as they are; a
 * file without any other column is still refused. */
static void test_results_without_flags_read(void **state)
{
    (void)state;
    char header[1024] = "", row[256] = "";
    for (size_t i = 0; i < cr_result_ncolumns; ++i) {
        if (strcmp(cr_result_columns[i], "flags") == 0)
            continue;
        snprintf(header + strlen(header), sizeof header - strlen(header), "%s%s", *header ? "," : "",
                 cr_result_columns[i]);
        const char *v = strcmp(cr_result_columns[i], "benchmark") == 0 ? "stream"
                        : strcmp(cr_result_columns[i], "backend") == 0 ? "opencl"
                        : strcmp(cr_result_columns[i], "n") == 0 || strcmp(cr_result_columns[i], "valid") == 0 ? "1"
                                                                                                                : "";
        snprintf(row + strlen(row), sizeof row - strlen(row), "%s%s", *row ? "," : "", v);
    }
    char text[1400];
    snprintf(text, sizeof text, "%s\n%s\n", header, row);
    cr_csv_table t;
    char err[512] = "";
    if (cr_csv_parse(&t, "old.csv", text, strlen(text), &cr_schema_results, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(t.nrows, 1);
    assert_true(cr_csv_column(&t, "flags") < 0);
    cr_csv_free(&t);
    /* Without note, a column that was always there: refused. */
    char *note = strstr(text, ",note");
    assert_non_null(note);
    memmove(note, note + 5, strlen(note + 5) + 1);
    char *last = strrchr(text, ','); /* and the row's empty note */
    memmove(last, last + 1, strlen(last + 1) + 1);
    assert_int_equal(cr_csv_parse(&t, "old.csv", text, strlen(text), &cr_schema_results, err, sizeof err), -1);
    assert_non_null(strstr(err, "no column 'note'"));
}

/* ---- the fields ---- */

typedef struct {
    cr_field_kind kind;
    bool required;
    const char *text, *fault; /* NULL: fine */
} field_case;

static const char not_a_count[] = "is not a count (a whole number from 0 to 18446744073709551615)";

static const field_case field_cases[] = {
    {CR_COUNT, false, "", NULL},
    {CR_COUNT, true, "", not_a_count},
    {CR_COUNT, false, "0", NULL},
    {CR_COUNT, false, "18446744073709551615", NULL},
    {CR_COUNT, false, "18446744073709551616", not_a_count},
    {CR_COUNT, false, "99999999999999999999999", not_a_count},
    {CR_COUNT, false, "-1", not_a_count},
    {CR_COUNT, false, "+1", not_a_count},
    {CR_COUNT, false, " 1", not_a_count},
    {CR_COUNT, false, "1.0", not_a_count},
    {CR_COUNT, false, "1e3", not_a_count},
    {CR_NUMBER, false, "", NULL},
    {CR_NUMBER, false, "-43.8", NULL},
    {CR_NUMBER, false, "1.7976931348623157e308", NULL},
    {CR_NUMBER, false, "4.9406564584124654e-324", NULL},
    {CR_NUMBER, false, "-0", NULL},
    {CR_NUMBER, false, "1e400", "is not a finite number"},
    {CR_NUMBER, false, "-1e400", "is not a finite number"},
    {CR_NUMBER, false, "nan", "is not a number"},
    {CR_NUMBER, false, "NaN", "is not a number"},
    {CR_NUMBER, false, "inf", "is not a number"},
    {CR_NUMBER, false, "-Infinity", "is not a number"},
    {CR_NUMBER, false, "0x10", "is not a number"},
    {CR_NUMBER, false, "1,5", "is not a number"},
    {CR_NUMBER, false, " 1", "is not a number"},
    {CR_NUMBER, false, "1.2.3", "is not a number"},
    {CR_NUMBER, false, "e", "is not a number"},
    {CR_NUMBER, true, "", "is not a number"},
    {CR_NONNEG, false, "0", NULL},
    {CR_NONNEG, false, "2.5e-9", NULL},
    {CR_NONNEG, false, "-1e-9", "is negative"},
    {CR_NONNEG, false, "nan", "is not a number"},
    {CR_NONNEG, false, "inf", "is not a number"},
    /* An error may be infinite, written "inf" (sfu's summary table). */
    {CR_ERROR, false, "inf", NULL},
    {CR_ERROR, false, "32768", NULL},
    {CR_ERROR, false, "-inf", "is not a number"},
    {CR_ERROR, false, "-2", "is negative"},
    {CR_ERROR, false, "nan", "is not a number"},
    {CR_ERROR, false, "infinity", "is not a number"},
    {CR_FLAG, true, "0", NULL},
    {CR_FLAG, true, "1", NULL},
    {CR_FLAG, true, "", "is neither 0 nor 1"},
    {CR_FLAG, true, "2", "is neither 0 nor 1"},
    {CR_FLAG, true, "01", "is neither 0 nor 1"},
    {CR_STATUS, true, "0", NULL},
    {CR_STATUS, true, "255", NULL},
    {CR_STATUS, true, "256", "is not an exit status (0 to 255)"},
    {CR_STATUS, true, "-1", "is not an exit status (0 to 255)"},
    {CR_TEXT, false, "", NULL},
    {CR_TEXT, true, "", "is empty"},
    {CR_TEXT, true, "anything, \"at all\"", NULL},
};

static void test_field_kinds(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof field_cases / sizeof *field_cases; ++i) {
        const field_case *c = &field_cases[i];
        cr_column_spec spec = {"x", c->kind, c->required ? CR_NEVER_EMPTY : CR_MAY_BE_EMPTY};
        const char *got = cr_field_fault(&spec, c->text);
        if ((got == NULL) != (c->fault == NULL) || (got && strcmp(got, c->fault) != 0))
            fail_msg("kind %d, '%s': %s, want %s", c->kind, c->text, got ? got : "fine", c->fault ? c->fault : "fine");
    }
}

static void test_fields_in_files(void **state)
{
    (void)state;
    const cr_csv_schema *log = &cr_schema_run_log;
    const char *head = "task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n";
    char text[512];
    snprintf(text, sizeof text, "%sstream-opencl,opencl,0,d,dir,passed,0,1.5,quick,now,\n", head);
    expect_verdict(text, log, "");
    snprintf(text, sizeof text, "%sstream-opencl,opencl,-1,d,dir,passed,0,1.5,quick,now,\n", head);
    expect_verdict(text, log, "f.csv:2: column 'device_index': '-1' is not a count (a whole number from 0 to "
                              "18446744073709551615)");
    snprintf(text, sizeof text, "%s,opencl,0,d,dir,passed,0,1.5,quick,now,\n", head);
    expect_verdict(text, log, "f.csv:2: column 'task': '' is empty");
    /* A field in a message: at most 40 bytes, whole characters (delta is
     * two bytes: 3 + 19 x 2 = 41, cut to 3 + 18 x 2). */
#define DELTA3 "\xce\xb4\xce\xb4\xce\xb4"
#define DELTA18 DELTA3 DELTA3 DELTA3 DELTA3 DELTA3 DELTA3
    snprintf(text, sizeof text, "%sstream-opencl,opencl,0,d,dir,passed,0,1.5" DELTA18 "\xce\xb4,quick,now,\n", head);
    expect_verdict(text, log, "f.csv:2: column 'seconds': '1.5" DELTA18 "' is not a number");
}

static void test_schema_by_name(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const cr_csv_schema *schema;
    } names[] = {
        {"results/x/opencl-0-gpu/stream-opencl.csv", &cr_schema_results},
        {"regspill-offline.csv", &cr_schema_results},
        {"stream-opencl.meta.csv", &cr_schema_metadata},
        {"run-log.csv", &cr_schema_run_log},
        {"xgraph-params.csv", &cr_schema_xgraph_params},
        {"xgraph-app.csv", &cr_schema_xgraph_app},
        {"newbench-opencl.csv", &cr_schema_any},
        {"streamx.csv", &cr_schema_any},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
        if (cr_schema_for(names[i].name) != names[i].schema)
            fail_msg("%s: read as %s", names[i].name, cr_schema_for(names[i].name)->what);
    /* A benchmark's own extra file, from its folder's list; only its own name. */
    assert_string_equal(cr_schema_for("results/r/cuda-0-h200/sfu-cuda.table.csv")->what, "the SFU summary table");
    assert_ptr_equal(cr_schema_for("stream-cuda.table.csv"), &cr_schema_results);
    assert_ptr_equal(cr_schema_for("sfu-.table.csv"), &cr_schema_results);
}

static void test_params(void **state)
{
    (void)state;
    char buf[16];
    assert_true(cr_params_get("ilp=4;per_cu=16;per_cu_unit=warps", "per_cu", buf, sizeof buf));
    assert_string_equal(buf, "16");
    assert_true(cr_params_get("ilp=4;per_cu=16;per_cu_unit=warps", "per_cu_unit", buf, sizeof buf));
    assert_string_equal(buf, "warps");
    assert_false(cr_params_get("ilp=4", "il", buf, sizeof buf));
    assert_false(cr_params_get("", "ilp", buf, sizeof buf));
}

/* A run log's status is one run_all.sh writes, with the exit status that
 * goes with it: a task of another status would drop out of every count. */
static void test_run_log_statuses(void **state)
{
    (void)state;
    static const struct {
        const char *row, *fault;
    } cases[] = {
        {"stream-opencl,opencl,0,X,d,passed,0,1,quick,,", NULL},
        {"stream-opencl,opencl,,,,skipped,77,0,quick,,no device", NULL},
        {"stream-opencl,opencl,0,X,d,failed,124,1,quick,,timed out", NULL},
        {"stream-opencl,opencl,0,X,d,interrupted,143,1,quick,,stopped", NULL},
        {"stream-opencl,opencl,0,X,d,exploded,0,1,quick,,", "status is none of passed, skipped, failed, interrupted"},
        {"stream-opencl,opencl,0,X,d,passed,1,1,quick,,", "passed with an exit status other than 0"},
        {"stream-opencl,opencl,0,X,d,failed,0,1,quick,,", "failed with exit status 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        char text[512], err[512] = "";
        snprintf(text, sizeof text,
                 "task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n%s\n",
                 cases[i].row);
        cr_csv_table t;
        int rc = cr_csv_parse(&t, "run-log.csv", text, strlen(text), &cr_schema_run_log, err, sizeof err);
        if (cases[i].fault == NULL) {
            if (rc != 0)
                fail_msg("%s: refused: %s", cases[i].row, err);
            cr_csv_free(&t);
        } else if (rc == 0 || strstr(err, cases[i].fault) == NULL || strstr(err, "run-log.csv:2: ") == NULL) {
            fail_msg("%s: said '%s', want '%s'", cases[i].row, err, cases[i].fault);
        }
    }
}

/* ---- the values a results row may name ---- */

/* A row of a results file: the file's name and the row's fields; timer
 * NULL for a row with no measurement. */
typedef struct {
    const char *name, *benchmark, *variant, *sweep, *dtype, *timer, *unit;
} row_case;

/* The row as the writer writes it, read back as a file of that name: the
 * reader's verdict, "" when it reads. */
static const char *result_verdict(const char *name, const cr_result *r)
{
    size_t len;
    char *text = result_text(r, &len);
    const char *got = verdict(name, text, len, &cr_schema_results);
    free(text);
    return got;
}

static const char *row_verdict(const row_case *c, const char *params)
{
    cr_result r;
    cr_result_begin(&r, c->benchmark, "opencl", "cpu", c->variant, c->dtype, c->sweep, c->unit);
    r.figure = r.figure_best = 1.5;
    if (c->timer)
        snprintf(r.timer, sizeof r.timer, "%s", c->timer);
    else
        cr_result_unmeasured(&r);
    snprintf(r.params, sizeof r.params, "%s", params);
    return result_verdict(c->name, &r);
}

/* Every case's verdict what it wants (with params[i] its params, where
 * params is not NULL), or the test fails listing those that read
 * otherwise. */
static void expect_row_verdicts(const row_case *cases, const char *const *params, const char *const *wants, size_t n)
{
    int wrong = 0;
    for (size_t i = 0; i < n; ++i) {
        const row_case *c = &cases[i];
        const char *got = row_verdict(c, params ? params[i] : "");
        if (strcmp(got, wants[i]) != 0 && ++wrong)
            print_error("%s (%s, %s, %s, %s, %s, %s, %s): '%s', want '%s'\n", c->name, c->benchmark, c->variant,
                        c->sweep, c->dtype, c->timer ? c->timer : "none", c->unit, params ? params[i] : "", got,
                        wants[i]);
    }
    if (wrong)
        fail_msg("%d of the rows read otherwise", wrong);
}

/* A unit, a type or a timer no benchmark writes, or a row of another
 * benchmark than the file's name says, would drop out of every headline
 * unseen: refused, naming the field and its value. */
static void test_results_values_the_suite_writes(void **state)
{
    (void)state;
    static const row_case cases[] = {
        {"stream-opencl.csv", "stream", "triad", "fixed", "double", "event", "GB/s"},
        {"stream-opencl.csv", "stream", "triad", "fixed", "float", "event", "furlongs"},
        {"fma-cuda.csv", "fma", "fma", "concurrency", "quad", "event", "Gflop/s"},
        {"latency-opencl.csv", "latency", "L2", "level", "uint64", "sundial", "ns"},
        {"run/opencl-0-cpu/stream-opencl.csv", "latency", "memory", "level", "uint64", "event", "ns"},
        /* A value in a message stays on one line, at most 40 bytes. */
        {"stream-opencl.csv", "stream", "triad", "fixed", "float", "event", "GB/s\nper second"},
        /* What the benchmarks write reads. */
        {"bandwidth-opencl.csv", "bandwidth", "host-memcpy-openmp", "size", "", "host", "ms"},
        {"bandwidth-cuda.csv", "bandwidth", "h2d-memcpy-pinned", "fit-error", "", "event", "%"},
        {"atomics-opencl.csv", "atomics", "add", "ratio", "uint32", "event", "x"},
        {"cache-opencl.csv", "cache", "L1d-size", "detect", "uint64", NULL, "B"},
        {"regspill-offline.csv", "regspill", "offline-cap", "registers", "uint32", NULL, "B/thread"},
        {"sfu-cuda.csv", "sfu", "sin/ptx-approx", "special", "float", NULL, "ok"},
        {"latency-cuda.csv", "latency", "pointer-chase", "footprint", "", NULL, ""},
        /* A file whose name names no benchmark says none. */
        {"w.csv", "bandwidth", "kernel-read-device", "size", "", "event", "GB/s"},
    };
    static const char *const wants[] = {
        "",
        "stream-opencl.csv:2: unit 'furlongs' is no unit the suite writes",
        "fma-cuda.csv:2: dtype 'quad' is no type the suite writes",
        "latency-opencl.csv:2: timer 'sundial' is no timer the suite writes",
        "run/opencl-0-cpu/stream-opencl.csv:2: benchmark 'latency' is not the file's benchmark, stream",
        "stream-opencl.csv:2: unit 'GB/s per second' is no unit the suite writes",
        "", "", "", "", "", "", "", "",
    };
    expect_row_verdicts(cases, NULL, wants, sizeof cases / sizeof *cases);
    /* Every timer and type the harness names reads. */
    static const cr_timer_kind timers[] = {CR_TIMER_EVENT, CR_TIMER_HOST, CR_TIMER_HOST_FALLBACK};
    for (size_t i = 0; i < sizeof timers / sizeof *timers; ++i) {
        row_case c = {"fma-opencl.csv", "fma", "fma", "concurrency", "float", cr_timer_kind_name(timers[i]), "Gflop/s"};
        assert_string_equal(row_verdict(&c, ""), "");
    }
    for (int t = 0; t < CR_NDTYPES; ++t) {
        row_case c = {"fma-opencl.csv", "fma", "fma", "concurrency", cr_dtype_name((cr_dtype)t), "event", "Gflop/s"};
        assert_string_equal(row_verdict(&c, ""), "");
    }
}

/* A sweep or a variant its benchmark's descriptor does not list is no row
 * any benchmark writes: refused, naming it; the harness's energy row is
 * every benchmark's, and a benchmark no descriptor names has no list. */
static void test_results_sweeps_and_variants_the_benchmarks_write(void **state)
{
    (void)state;
    static const row_case cases[] = {
        {"stream-opencl.csv", "stream", "triad", "sideways", "float", "event", "GB/s"},
        {"stream-opencl.csv", "stream", "quad-triad", "fixed", "float", "event", "GB/s"},
        {"sfu-opencl.csv", "sfu", "sin-precise", "accuracy", "float", NULL, "ulp"},
        {"latency-opencl.csv", "latency", "L2", "footprint\nlevel", "uint64", "event", "ns"},
        {"w.csv", "cache", "random", "fixed", "uint64", "event", "ns"},
        /* the patterns: a function's version, a level's parameter */
        {"sfu-opencl.csv", "sfu", "div/precise+native", "partition", "float", "event", "Gop/s"},
        {"cache-cuda.csv", "cache", "L2-line", "detect", "uint64", NULL, "B"},
        /* the one cache level of an OpenCL GPU, which names none */
        {"latency-opencl.csv", "latency", "cache", "level", "uint64", "event", "ns"},
        {"atomics-opencl.csv", "atomics", CR_ENERGY_ROW_VARIANT, CR_ENERGY_ROW_SWEEP, "", NULL, ""},
        {"toy-opencl.csv", "toy", "anything", "at all", "", "event", "GB/s"},
        /* an empty one says nothing */
        {"stream-opencl.csv", "stream", "", "", "float", NULL, ""},
    };
    static const char *const wants[] = {
        "stream-opencl.csv:2: sweep 'sideways' is no sweep stream writes",
        "stream-opencl.csv:2: variant 'quad-triad' is no variant stream writes",
        "sfu-opencl.csv:2: variant 'sin-precise' is no variant sfu writes",
        "latency-opencl.csv:2: sweep 'footprint level' is no sweep latency writes",
        "w.csv:2: sweep 'fixed' is no sweep cache writes",
        "", "", "", "", "", "",
    };
    expect_row_verdicts(cases, NULL, wants, sizeof cases / sizeof *cases);
}

/* A number inside params is a finite decimal number, not below 0 where
 * its key's unit is a size, a rate or a time; text that is no number (a
 * ratio written 3/4, a name) is not one. */
static void test_results_params_numbers(void **state)
{
    (void)state;
    static const char *const params[] = {
        "host_limit_GBps=-5",
        "ilp=4;composed_ms=nan",
        "iters=1e999",
        "x=-inf",
        "cache_bytes=0x10",
        "energy_window_s=-0.1",
        "host_limit_GBps=46.95;energy_reps=89927;energy_window_s=2.01",
        "model_error_pct=-4.5;drop=-0.25;c_us=0",
        "special_ok=3/4;ftz_probes=1+1;arch=sm_90;level=L1;k=1,2;kernel=",
    };
    static const char *const wants[] = {
        "f.csv:2: param 'host_limit_GBps': '-5' is negative",
        "f.csv:2: param 'composed_ms': 'nan' is not a number",
        "f.csv:2: param 'iters': '1e999' is not a finite number",
        "f.csv:2: param 'x': '-inf' is not a number",
        "f.csv:2: param 'cache_bytes': '0x10' is not a number",
        "f.csv:2: param 'energy_window_s': '-0.1' is negative",
        "", "", "",
    };
    row_case cases[sizeof params / sizeof *params];
    for (size_t i = 0; i < sizeof params / sizeof *params; ++i)
        cases[i] = (row_case){"f.csv", "stream", "triad", "fixed", "float", "event", "GB/s"};
    expect_row_verdicts(cases, params, wants, sizeof cases / sizeof *cases);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quoted_fields_and_line_numbers),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_line_length),
        cmocka_unit_test(test_out_of_memory_is_said),
        cmocka_unit_test(test_only_regular_files),
        cmocka_unit_test(test_results_round_trip),
        cmocka_unit_test(test_results_without_flags_read),
        cmocka_unit_test(test_field_kinds),
        cmocka_unit_test(test_fields_in_files),
        cmocka_unit_test(test_schema_by_name),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_run_log_statuses),
        cmocka_unit_test(test_results_values_the_suite_writes),
        cmocka_unit_test(test_results_sweeps_and_variants_the_benchmarks_write),
        cmocka_unit_test(test_results_params_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
