/* What each CSV the suite writes may hold, for the reader that every tool
 * reads results through (shared/result_reader.h): the header's columns and
 * what every field of each column must be, so that a file cut short,
 * garbled or written by something else is refused where it is read, with
 * the file and line at fault, rather than shown as numbers. */
#ifndef CR_CSV_SCHEMA_H
#define CR_CSV_SCHEMA_H

#include "shared/bench_parts.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a field may hold. Every kind but CR_TEXT takes only what the
 * suite's writers write: plain decimal text, no sign where none can be. */
typedef enum {
    CR_TEXT,   /* anything (the reader has already refused binary data) */
    CR_COUNT,  /* a whole number from 0 to 2^64 - 1 */
    CR_NUMBER, /* a finite decimal or exponent number */
    CR_NONNEG, /* a CR_NUMBER that is not negative: seconds, bytes, ratios of them */
    CR_FLAG,   /* 0 or 1 */
    CR_STATUS, /* an exit status, 0 to 255 */
    CR_ERROR,  /* a CR_NONNEG, or "inf": an error that is infinite (a NaN or an
                * infinite result where the exact value is finite) */
} cr_field_kind;

typedef enum {
    CR_MAY_BE_EMPTY = 0, /* an empty field is "not known" */
    CR_NEVER_EMPTY,
    CR_ADDED_LATER,      /* may be empty, and a file written before the column was added lacks it */
} cr_column_presence;

typedef struct {
    const char *name;
    cr_field_kind kind;
    cr_column_presence presence;
} cr_column_spec;

typedef struct {
    const char *what; /* in messages: "no column of <what>" */
    const cr_column_spec *cols;
    size_t ncols;
    /* Every column of cols but those added later must be in the header,
     * each once; other columns are refused unless open (a hand-written
     * table may carry more). */
    bool open;
    /* A key,value file: keys unique and never empty, each known key's value
     * of its kind (keys[].name is the key), any other key's value text. */
    const cr_column_spec *keys;
    size_t nkeys;
} cr_csv_schema;

extern const cr_csv_schema cr_schema_results;      /* <benchmark>-<backend>.csv (common/results.h) */
extern const cr_csv_schema cr_schema_metadata;     /* *.meta.csv */
extern const cr_csv_schema cr_schema_run_log;

/* The rules across a row's fields, for the file at path that holds it:
 * NULL, or why the row breaks one, a sentence that names the field and its
 * value where one is at fault (written into buf, len bytes, where it quotes
 * the value). A results row: its benchmark the one the file's name says
 * (cr_results_benchmark; none where the name says none), its sweep and
 * variant among those its benchmark's descriptor lists (common/row_names.h),
 * its unit, dtype and timer values the benchmarks write, a figure below 0 only where its
 * unit is no rate or time. */
const char *cr_results_row_fault(const char *path, const char *const *names, char *const *fields, size_t n,
                                 char *buf, size_t len);
/* A run-log row (run_all.sh's run-log.csv): a status run_all.sh writes, and
 * the exit status that goes with it (a task counted as neither passed nor
 * failed would drop out of the report's counts). */
const char *cr_run_log_row_fault(const char *path, const char *const *names, char *const *fields, size_t n,
                                 char *buf, size_t len);
extern const cr_csv_schema cr_schema_xgraph_params; /* xgraph-params.csv */
extern const cr_csv_schema cr_schema_xgraph_app;   /* xgraph-app.csv */
extern const cr_csv_schema cr_schema_reference;    /* xgraph --reference, Li's Table 3.2 */
/* A file a benchmark writes beside its results, <benchmark>-<backend>.<kind>.csv,
 * and what it holds: bench/<benchmark>/csv_schemas.c lists them (a
 * cr_bench_part of these, cr_csv_schemas_<benchmark>), gathered in the
 * benchmarks' order at build time (common/descriptor_gen.sh csv-schemas). */
typedef struct {
    const char *benchmark, *kind;
    const cr_csv_schema *schema;
} cr_extra_schema;
extern const cr_bench_part *const cr_csv_schema_lists[];
extern const size_t cr_ncsv_schema_lists;
/* A CSV of no known kind: a header of distinct names (a letter or '_'
 * first, so that a data row is not taken for one), as many fields in every
 * row, text anywhere. */
extern const cr_csv_schema cr_schema_any;

/* The schema of a file in a results directory, by its name (a path's last
 * component decides); cr_schema_any for a name the suite does not write. */
const cr_csv_schema *cr_schema_for(const char *path);

/* The benchmark whose results a file of that name holds,
 * <benchmark>-<backend>.csv (a path's last component decides), as the
 * benchmarks' descriptors name them; NULL for any other name. */
const char *cr_results_benchmark(const char *path);

/* The column's spec in the schema, or NULL. */
const cr_column_spec *cr_schema_column(const cr_csv_schema *s, const char *name);

/* A field as a message shows it, into buf: at most 40 bytes (whole UTF-8
 * characters), line breaks and tabs as spaces. Returns buf. */
const char *cr_field_excerpt(const char *s, char *buf, size_t len);

/* What is wrong with text as a field of this kind, as the end of a
 * sentence ("is not a count (...)"), or NULL when it is fine. */
const char *cr_field_fault(const cr_column_spec *spec, const char *text);

/* The strict readings of a number and a count that the fields are checked
 * with, for the numbers inside a field (params "key=value" values): NULL
 * and the value, or why not ("is not a number", "is not a finite number",
 * "is not a count (...)"). */
const char *cr_number_fault(const char *text, double *out);
const char *cr_count_fault(const char *text, uint64_t *out);

#endif
