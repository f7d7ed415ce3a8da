#define _POSIX_C_SOURCE 200809L
#include "shared/csv_schema.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* ---- the suite's files ---- */

/* common/results.c's columns, in its order; test_result_reader holds the
 * two lists equal. */
static const cr_column_spec results_cols[] = {
    {"benchmark", CR_TEXT, true},    {"backend", CR_TEXT, true},       {"device", CR_TEXT, false},
    {"variant", CR_TEXT, false},     {"dtype", CR_TEXT, false},        {"sweep", CR_TEXT, false},
    {"size_bytes", CR_COUNT, false}, {"work_items", CR_COUNT, false},  {"work_group", CR_COUNT, false},
    {"params", CR_TEXT, false},      {"bytes_per_rep", CR_NONNEG, false}, {"ops_per_rep", CR_NONNEG, false},
    {"n", CR_COUNT, true},           {"min_s", CR_NONNEG, false},      {"median_s", CR_NONNEG, false},
    {"mean_s", CR_NONNEG, false},    {"max_s", CR_NONNEG, false},      {"stddev_s", CR_NONNEG, false},
    {"ci_rel", CR_NONNEG, false},    {"timer", CR_TEXT, false},        {"stop", CR_TEXT, false},
    {"figure", CR_NUMBER, false},    {"figure_best", CR_NUMBER, false}, {"unit", CR_TEXT, false},
    {"ref_ratio", CR_NUMBER, false}, {"valid", CR_FLAG, true},         {"note", CR_TEXT, false},
};
const cr_csv_schema cr_schema_results = {"a benchmark's results", results_cols, COUNT(results_cols), false, NULL, 0};

/* common/metadata.c's numeric keys; every other key is text. */
static const cr_column_spec meta_cols[] = {{"key", CR_TEXT, true}, {"value", CR_TEXT, false}};
static const cr_column_spec meta_keys[] = {
    {"device.compute_units", CR_COUNT, false},     {"device.clock_mhz", CR_COUNT, false},
    {"device.global_mem_bytes", CR_COUNT, false},  {"device.max_alloc_bytes", CR_COUNT, false},
    {"device.local_mem_bytes", CR_COUNT, false},   {"device.cache_bytes", CR_COUNT, false},
    {"device.max_work_group", CR_COUNT, false},    {"device.warp_size", CR_COUNT, false},
    {"device.unified_memory", CR_FLAG, false},     {"device.fp64", CR_FLAG, false},
    {"device.timer_resolution_ns", CR_NONNEG, false}, {"llc_bytes", CR_COUNT, false},
    {"host_timer_granularity_ns", CR_COUNT, false},
};
const cr_csv_schema cr_schema_metadata = {"a metadata file", meta_cols, COUNT(meta_cols), false, meta_keys,
                                          COUNT(meta_keys)};

/* run_all.sh's record(). */
static const cr_column_spec run_log_cols[] = {
    {"task", CR_TEXT, true},      {"backend", CR_TEXT, false},   {"device_index", CR_COUNT, false},
    {"device", CR_TEXT, false},   {"dir", CR_TEXT, false},       {"status", CR_TEXT, true},
    {"exit_code", CR_STATUS, true}, {"seconds", CR_NONNEG, true}, {"mode", CR_TEXT, false},
    {"finished", CR_TEXT, false}, {"reason", CR_TEXT, false},
};
const cr_csv_schema cr_schema_run_log = {"run_all.sh's run log", run_log_cols, COUNT(run_log_cols), false, NULL, 0};

/* bench/sfu/summary_table.c's columns. */
static const cr_column_spec sfu_table_cols[] = {
    {"func", CR_TEXT, true},           {"math", CR_TEXT, false},          {"dtype", CR_TEXT, false},
    {"version", CR_TEXT, false},       {"latency_ns", CR_NUMBER, false},  {"latency_cycles", CR_NUMBER, false},
    {"mean_rel_err", CR_ERROR, false}, {"max_rel_err", CR_ERROR, false}, {"max_ulp", CR_ERROR, false},
    {"max_ulp_wide", CR_ERROR, false}, {"bound_ulp", CR_ERROR, false},  {"ftz", CR_TEXT, false},
    {"registers", CR_COUNT, false},    {"throughput_Gops", CR_NUMBER, false}, {"per_cu_Gops", CR_NUMBER, false},
    {"speedup_vs_precise", CR_NUMBER, false}, {"valid", CR_FLAG, true},
};
const cr_csv_schema cr_schema_sfu_table = {"the SFU summary table", sfu_table_cols, COUNT(sfu_table_cols), false,
                                           NULL, 0};

/* tools/xgraph/params.c and app.c. */
static const cr_column_spec xgraph_params_cols[] = {
    {"parameter", CR_TEXT, true}, {"dtype", CR_TEXT, false},      {"ilp", CR_COUNT, false},
    {"value", CR_NUMBER, false},  {"unit", CR_TEXT, false},       {"fit_quality", CR_NUMBER, false},
    {"source", CR_TEXT, false},   {"note", CR_TEXT, false},
};
const cr_csv_schema cr_schema_xgraph_params = {"xgraph's parameters", xgraph_params_cols, COUNT(xgraph_params_cols),
                                               false, NULL, 0};

static const cr_column_spec xgraph_app_cols[] = {
    {"dtype", CR_TEXT, true},      {"Z", CR_NUMBER, true},         {"E", CR_COUNT, true},
    {"n", CR_NUMBER, true},        {"unit", CR_TEXT, false},       {"f_curve", CR_TEXT, false},
    {"crossing", CR_COUNT, true},  {"k", CR_NUMBER, true},         {"x", CR_NUMBER, true},
    {"ms_GBps", CR_NUMBER, true},  {"cs_Gflops", CR_NUMBER, true}, {"stability", CR_TEXT, false},
    {"state", CR_TEXT, false},     {"dfdk", CR_NUMBER, false},     {"dgdx_over_Z", CR_NUMBER, false},
    {"k_end", CR_NUMBER, false},   {"note", CR_TEXT, false},
};
const cr_csv_schema cr_schema_xgraph_app = {"xgraph's application crossings", xgraph_app_cols,
                                            COUNT(xgraph_app_cols), false, NULL, 0};

/* results/reference/li2016-table3.2.csv, or a table of one's own with the
 * same columns and any more. */
static const cr_column_spec reference_cols[] = {
    {"gpu", CR_TEXT, true},           {"dtype", CR_TEXT, true}, {"delta_warps", CR_NUMBER, true},
    {"R_GBps", CR_NUMBER, true},      {"mwarps", CR_NUMBER, true},
};
const cr_csv_schema cr_schema_reference = {"a reference table (gpu,dtype,delta_warps,R_GBps,mwarps)", reference_cols,
                                           COUNT(reference_cols), true, NULL, 0};

const cr_csv_schema cr_schema_any = {"a CSV file", NULL, 0, true, NULL, 0};

/* ---- which file is which ---- */

/* The Makefile's BENCHMARKS: their results are <benchmark>-<backend>.csv. */
static const char *const benchmarks[] = {"stream", "bandwidth", "atomics", "regspill", "sfu", "fma", "latency"};

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

const cr_csv_schema *cr_schema_for(const char *path)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (ends_with(name, ".meta.csv"))
        return &cr_schema_metadata;
    if (strcmp(name, "run-log.csv") == 0)
        return &cr_schema_run_log;
    if (strcmp(name, "xgraph-params.csv") == 0)
        return &cr_schema_xgraph_params;
    if (strcmp(name, "xgraph-app.csv") == 0)
        return &cr_schema_xgraph_app;
    if (strncmp(name, "sfu-", 4) == 0 && ends_with(name, ".table.csv"))
        return &cr_schema_sfu_table;
    for (size_t i = 0; i < COUNT(benchmarks); ++i) {
        size_t n = strlen(benchmarks[i]);
        if (strncmp(name, benchmarks[i], n) == 0 && name[n] == '-' && ends_with(name, ".csv"))
            return &cr_schema_results;
    }
    return &cr_schema_any;
}

const cr_column_spec *cr_schema_column(const cr_csv_schema *s, const char *name)
{
    for (size_t i = 0; i < s->ncols; ++i)
        if (strcmp(s->cols[i].name, name) == 0)
            return &s->cols[i];
    return NULL;
}

/* ---- fields ---- */

const char *cr_number_fault(const char *text, double *out)
{
    /* strtod also takes "inf", "nan", hex floats and leading blanks; the
     * suite writes none of them. */
    if (*text == '\0' || strspn(text, "0123456789+-.eE") != strlen(text))
        return "is not a number";
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0')
        return "is not a number";
    if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1))
        return "is not a finite number";
    *out = v;
    return NULL;
}

const char *cr_count_fault(const char *text, uint64_t *out)
{
    static const char why[] = "is not a count (a whole number from 0 to 18446744073709551615)";
    if (*text == '\0' || strspn(text, "0123456789") != strlen(text))
        return why;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return why;
    *out = (uint64_t)v;
    return NULL;
}

const char *cr_field_fault(const cr_column_spec *spec, const char *text)
{
    if (*text == '\0') {
        if (!spec->required)
            return NULL;
        if (spec->kind == CR_TEXT)
            return "is empty";
    }
    double v;
    uint64_t n;
    const char *why;
    switch (spec->kind) {
    case CR_TEXT: return NULL;
    case CR_COUNT: return cr_count_fault(text, &n);
    case CR_NUMBER: return cr_number_fault(text, &v);
    case CR_ERROR:
    case CR_NONNEG:
        if (spec->kind == CR_ERROR && strcmp(text, "inf") == 0)
            return NULL; /* any other error is a non-negative number */
        why = cr_number_fault(text, &v);
        return why ? why : v < 0 ? "is negative" : NULL;
    case CR_FLAG: return strcmp(text, "0") == 0 || strcmp(text, "1") == 0 ? NULL : "is neither 0 nor 1";
    case CR_STATUS:
        return cr_count_fault(text, &n) == NULL && n <= 255 ? NULL : "is not an exit status (0 to 255)";
    }
    return NULL;
}
