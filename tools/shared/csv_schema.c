#define _POSIX_C_SOURCE 200809L
#include "shared/csv_schema.h"
#include "shared/names.h"

#include "row_names.h"
#include "shared/descriptors.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* ---- the suite's files ---- */

/* common/results.c's columns, in its order; test_result_reader holds the
 * two lists equal. */
static const cr_column_spec results_cols[] = {
    {"benchmark", CR_TEXT, CR_NEVER_EMPTY},    {"backend", CR_TEXT, CR_NEVER_EMPTY},       {"device", CR_TEXT, CR_MAY_BE_EMPTY},
    {"variant", CR_TEXT, CR_MAY_BE_EMPTY},     {"dtype", CR_TEXT, CR_MAY_BE_EMPTY},        {"sweep", CR_TEXT, CR_MAY_BE_EMPTY},
    {"size_bytes", CR_COUNT, CR_MAY_BE_EMPTY}, {"work_items", CR_COUNT, CR_MAY_BE_EMPTY},  {"work_group", CR_COUNT, CR_MAY_BE_EMPTY},
    {"params", CR_TEXT, CR_MAY_BE_EMPTY},      {"bytes_per_rep", CR_NONNEG, CR_MAY_BE_EMPTY}, {"ops_per_rep", CR_NONNEG, CR_MAY_BE_EMPTY},
    {"n", CR_COUNT, CR_NEVER_EMPTY},           {"min_s", CR_NONNEG, CR_MAY_BE_EMPTY},      {"median_s", CR_NONNEG, CR_MAY_BE_EMPTY},
    {"mean_s", CR_NONNEG, CR_MAY_BE_EMPTY},    {"max_s", CR_NONNEG, CR_MAY_BE_EMPTY},      {"stddev_s", CR_NONNEG, CR_MAY_BE_EMPTY},
    {"ci_rel", CR_NONNEG, CR_MAY_BE_EMPTY},    {"timer", CR_TEXT, CR_MAY_BE_EMPTY},        {"stop", CR_TEXT, CR_MAY_BE_EMPTY},
    {"figure", CR_NUMBER, CR_MAY_BE_EMPTY},    {"figure_best", CR_NUMBER, CR_MAY_BE_EMPTY}, {"unit", CR_TEXT, CR_MAY_BE_EMPTY},
    {"ref_ratio", CR_NUMBER, CR_MAY_BE_EMPTY}, {"valid", CR_FLAG, CR_NEVER_EMPTY},         {"flags", CR_TEXT, CR_ADDED_LATER},
    {"cycles", CR_NUMBER, CR_ADDED_LATER},     {"energy_j", CR_NUMBER, CR_ADDED_LATER},    {"power_w", CR_NUMBER, CR_ADDED_LATER},
    {"static_w", CR_NONNEG, CR_ADDED_LATER},   {"pj_per_byte", CR_NUMBER, CR_ADDED_LATER}, {"pj_per_op", CR_NUMBER, CR_ADDED_LATER},
    {"energy_sensor", CR_TEXT, CR_ADDED_LATER}, {"energy_interval_s", CR_NONNEG, CR_ADDED_LATER},
    {"note", CR_TEXT, CR_MAY_BE_EMPTY},
};
static const char *field_named(const char *const *names, char *const *fields, size_t n, const char *name)
{
    for (size_t c = 0; c < n; ++c)
        if (strcmp(names[c], name) == 0)
            return fields[c];
    return "";
}

/* What the benchmarks write in a results row's unit, dtype and timer
 * columns (each may also be empty: a row with no figure, of no type, never
 * timed). A value of no set would drop out of every headline unseen. */
typedef struct {
    const char *name;
    bool rate_or_time; /* a figure in it is never below 0 (a percentage or a share measured may be) */
} results_unit;
static const results_unit results_units[] = {
    {"GB/s", true},      /* stream, bandwidth (rows.c, local_sweep.c) */
    {"Gop/s", true},     /* regspill (point.c), sfu (chain_run.c) */
    {"Mop/s", true},     /* atomics (measure_run.c, launch_locks.c) */
    {"Gflop/s", true},   /* fma */
    {"ns", true},        /* latency, cache (walk.c, detect.c), sfu (timing.c) */
    {"us", true},        /* atomics (launch_locks.c), bandwidth (measure_path.c) */
    {"ms", true},        /* bandwidth (measure_path.c, techniques.c) */
    {"ulp", true},       /* sfu (errors.c) */
    {"%", false},        /* bandwidth's fits (fit_rows.c) */
    {"x", false},        /* atomics' ratios (sweeps.c) */
    {"speedup", false},  /* regspill (sweep_caps.c) */
    {"values", false},   /* regspill (sweep_live.c) */
    {"B/thread", false}, /* regspill (offline.c) */
    {"ok", false},       /* sfu's special values (errors.c) */
    {"B", false},        /* cache's findings (detect.c): sizes, */
    {"ways", false},     /* geometry, */
    {"sets", false},
    {"share", false},    /* and the shares and ratios of its policies */
    {"ratio", false},
};
/* cr_dtype_name() (common/cr.h; fma, stream, sfu, atomics' float), atomics'
 * at_type_names, regspill's "uint32", latency's and cache's "uint64". */
static const char *const results_dtypes[] = {"float", "double", "uint32", "uint64"};
/* cr_timer_kind_name() (common/timer.c), and cr_result_unmeasured()'s
 * "none" (common/results.c). */
static const char *const results_timers[] = {"event", "host", "host-fallback", "none"};

static bool listed(const char *value, const char *const *set, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (strcmp(value, set[i]) == 0)
            return true;
    return false;
}

static const results_unit *unit_named(const char *name)
{
    for (size_t u = 0; u < COUNT(results_units); ++u)
        if (strcmp(name, results_units[u].name) == 0)
            return &results_units[u];
    return NULL;
}

static const char *say(char *buf, size_t len, const char *column, const char *value, const char *why)
{
    char x[64];
    snprintf(buf, len, "%s '%s' %s", column, cr_field_excerpt(value, x, sizeof x), why);
    return buf;
}

/* Whether a param's key names a size, a rate or a time by its unit: a
 * value of it is never below 0. */
static bool unit_key(const char *key, size_t n)
{
    static const char *const units[] = {"_bytes", "_GBps", "_Gops", "_Mops", "_s", "_ms", "_us", "_ns", "_MHz", "_mhz"};
    for (size_t u = 0; u < COUNT(units); ++u) {
        size_t k = strlen(units[u]);
        if (n > k && strncmp(key + n - k, units[u], k) == 0)
            return true;
    }
    return false;
}

/* What is wrong with a param's value where it reads as a number (strtod
 * takes it whole: "nan", "1e999" and "-5" do, "3/4" and "sm_90" do not):
 * no finite decimal number, or a negative one where its key's unit says it
 * cannot be; NULL where it is fine or no number. */
static const char *param_value_fault(const char *key, size_t klen, const char *value)
{
    char *end;
    double v;
    strtod(value, &end);
    if (end == value || *end != '\0')
        return NULL;
    const char *why = cr_number_fault(value, &v);
    return why ? why : v < 0 && unit_key(key, klen) ? "is negative" : NULL;
}

/* The first "key=value" of params at fault, as a sentence naming it in
 * buf; NULL where there is none. */
static const char *params_fault(const char *params, char *buf, size_t len)
{
    for (const char *p = params; *p;) {
        size_t item = strcspn(p, ";"), klen = strcspn(p, "=");
        char value[96];
        if (klen < item && item - klen - 1 < sizeof value) {
            snprintf(value, sizeof value, "%.*s", (int)(item - klen - 1), p + klen + 1);
            const char *why = param_value_fault(p, klen, value);
            if (why) {
                char key[64], x[64], y[64];
                snprintf(key, sizeof key, "%.*s", (int)(klen < sizeof key ? klen : sizeof key - 1), p);
                snprintf(buf, len, "param '%s': '%s' %s", cr_field_excerpt(key, x, sizeof x),
                         cr_field_excerpt(value, y, sizeof y), why);
                return buf;
            }
        }
        p += item + (p[item] == ';');
    }
    return NULL;
}

const char *cr_results_row_fault(const char *path, const char *const *names, char *const *fields, size_t n,
                                 char *buf, size_t len)
{
    const char *benchmark = field_named(names, fields, n, "benchmark"), *own = cr_results_benchmark(path);
    if (own && strcmp(benchmark, own) != 0) {
        char why[96];
        snprintf(why, sizeof why, "is not the file's benchmark, %s", own);
        return say(buf, len, "benchmark", benchmark, why);
    }
    const char *unit = field_named(names, fields, n, "unit"), *dtype = field_named(names, fields, n, "dtype"),
               *timer = field_named(names, fields, n, "timer");
    const char *unknown = cr_row_name_unknown(benchmark, field_named(names, fields, n, "variant"),
                                              field_named(names, fields, n, "sweep"));
    if (unknown) {
        char why[96];
        snprintf(why, sizeof why, "is no %s %s writes", unknown, benchmark);
        return say(buf, len, unknown, field_named(names, fields, n, unknown), why);
    }
    const results_unit *u = unit_named(unit);
    if (*unit && u == NULL)
        return say(buf, len, "unit", unit, "is no unit the suite writes");
    if (*dtype && !listed(dtype, results_dtypes, COUNT(results_dtypes)))
        return say(buf, len, "dtype", dtype, "is no type the suite writes");
    if (*timer && !listed(timer, results_timers, COUNT(results_timers)))
        return say(buf, len, "timer", timer, "is no timer the suite writes");
    const char *params = params_fault(field_named(names, fields, n, "params"), buf, len);
    if (params)
        return params;
    if (u && u->rate_or_time &&
        (field_named(names, fields, n, "figure")[0] == '-' || field_named(names, fields, n, "figure_best")[0] == '-'))
        return "a figure below 0 in a rate or a time";
    return NULL;
}
const cr_csv_schema cr_schema_results = {"a benchmark's results", results_cols, COUNT(results_cols), false, NULL, 0};

/* common/metadata.c's numeric keys; every other key is text. */
static const cr_column_spec meta_cols[] = {{"key", CR_TEXT, CR_NEVER_EMPTY}, {"value", CR_TEXT, CR_MAY_BE_EMPTY}};
static const cr_column_spec meta_keys[] = {
    {"device.compute_units", CR_COUNT, CR_MAY_BE_EMPTY},     {"device.clock_mhz", CR_COUNT, CR_MAY_BE_EMPTY},
    {"device.global_mem_bytes", CR_COUNT, CR_MAY_BE_EMPTY},  {"device.max_alloc_bytes", CR_COUNT, CR_MAY_BE_EMPTY},
    {"device.local_mem_bytes", CR_COUNT, CR_MAY_BE_EMPTY},   {"device.cache_bytes", CR_COUNT, CR_MAY_BE_EMPTY},
    {"device.local_mem_default_bytes", CR_COUNT, CR_MAY_BE_EMPTY},
    {"device.max_work_group", CR_COUNT, CR_MAY_BE_EMPTY},    {"device.warp_size", CR_COUNT, CR_MAY_BE_EMPTY},
    {"device.unified_memory", CR_FLAG, CR_MAY_BE_EMPTY},     {"device.fp64", CR_FLAG, CR_MAY_BE_EMPTY},
    {"device.timer_resolution_ns", CR_NONNEG, CR_MAY_BE_EMPTY}, {"llc_bytes", CR_COUNT, CR_MAY_BE_EMPTY},
    {"host_timer_granularity_ns", CR_COUNT, CR_MAY_BE_EMPTY}, {"peak.memory_GBps", CR_NONNEG, CR_MAY_BE_EMPTY},
    {"peak.float_GFLOPs", CR_NONNEG, CR_MAY_BE_EMPTY},       {"peak.double_GFLOPs", CR_NONNEG, CR_MAY_BE_EMPTY},
    {"peak.float_GFLOPs_modelled", CR_NONNEG, CR_MAY_BE_EMPTY}, {"peak.double_GFLOPs_modelled", CR_NONNEG, CR_MAY_BE_EMPTY},
    {"peak.host_clock_MHz", CR_NONNEG, CR_MAY_BE_EMPTY},
    {"peak.llc_bytes", CR_COUNT, CR_MAY_BE_EMPTY},          {"peak.local_GBps", CR_NONNEG, CR_MAY_BE_EMPTY},
    {"device.pcie_max_GTps", CR_NONNEG, CR_MAY_BE_EMPTY},    {"device.pcie_max_width", CR_COUNT, CR_MAY_BE_EMPTY},
    {"device.pcie_current_GTps", CR_NONNEG, CR_MAY_BE_EMPTY}, {"device.pcie_current_width", CR_COUNT, CR_MAY_BE_EMPTY},
    {"device.pcie_link_GBps", CR_NONNEG, CR_MAY_BE_EMPTY},
};
const cr_csv_schema cr_schema_metadata = {"a metadata file", meta_cols, COUNT(meta_cols), false, meta_keys,
                                          COUNT(meta_keys)};

/* run_all.sh's record(). */
static const cr_column_spec run_log_cols[] = {
    {"task", CR_TEXT, CR_NEVER_EMPTY},      {"backend", CR_TEXT, CR_MAY_BE_EMPTY},   {"device_index", CR_COUNT, CR_MAY_BE_EMPTY},
    {"device", CR_TEXT, CR_MAY_BE_EMPTY},   {"dir", CR_TEXT, CR_MAY_BE_EMPTY},       {"status", CR_TEXT, CR_NEVER_EMPTY},
    {"exit_code", CR_STATUS, CR_NEVER_EMPTY}, {"seconds", CR_NONNEG, CR_NEVER_EMPTY}, {"mode", CR_TEXT, CR_MAY_BE_EMPTY},
    {"finished", CR_TEXT, CR_MAY_BE_EMPTY}, {"reason", CR_TEXT, CR_MAY_BE_EMPTY},
};
const cr_csv_schema cr_schema_run_log = {"run_all.sh's run log", run_log_cols, COUNT(run_log_cols), false, NULL, 0};

const char *cr_run_log_row_fault(const char *path, const char *const *names, char *const *fields, size_t n,
                                 char *buf, size_t len)
{
    (void)path, (void)buf, (void)len; /* every fault is a sentence of its own */
    const char *status = field_named(names, fields, n, "status"), *code = field_named(names, fields, n, "exit_code");
    if (strcmp(status, "passed") == 0)
        return strcmp(code, "0") == 0 ? NULL : "passed with an exit status other than 0";
    if (strcmp(status, "skipped") == 0)
        return strcmp(code, "77") == 0 ? NULL : "skipped with an exit status other than 77";
    if (strcmp(status, "failed") == 0)
        return strcmp(code, "0") != 0 ? NULL : "failed with exit status 0";
    if (strcmp(status, "interrupted") == 0)
        return NULL;
    return "status is none of passed, skipped, failed, interrupted";
}

/* tools/xgraph/params.c and app.c. */
static const cr_column_spec xgraph_params_cols[] = {
    {"parameter", CR_TEXT, CR_NEVER_EMPTY}, {"dtype", CR_TEXT, CR_MAY_BE_EMPTY},      {"ilp", CR_COUNT, CR_MAY_BE_EMPTY},
    {"value", CR_NUMBER, CR_MAY_BE_EMPTY},  {"unit", CR_TEXT, CR_MAY_BE_EMPTY},       {"fit_quality", CR_NUMBER, CR_MAY_BE_EMPTY},
    {"source", CR_TEXT, CR_MAY_BE_EMPTY},   {"flags", CR_TEXT, CR_ADDED_LATER}, {"note", CR_TEXT, CR_MAY_BE_EMPTY},
};
const cr_csv_schema cr_schema_xgraph_params = {"xgraph's parameters", xgraph_params_cols, COUNT(xgraph_params_cols),
                                               false, NULL, 0};

static const cr_column_spec xgraph_app_cols[] = {
    {"dtype", CR_TEXT, CR_NEVER_EMPTY},      {"Z", CR_NUMBER, CR_NEVER_EMPTY},         {"E", CR_COUNT, CR_NEVER_EMPTY},
    {"n", CR_NUMBER, CR_NEVER_EMPTY},        {"unit", CR_TEXT, CR_MAY_BE_EMPTY},       {"f_curve", CR_TEXT, CR_MAY_BE_EMPTY},
    {"crossing", CR_COUNT, CR_NEVER_EMPTY},  {"k", CR_NUMBER, CR_NEVER_EMPTY},         {"x", CR_NUMBER, CR_NEVER_EMPTY},
    {"ms_GBps", CR_NUMBER, CR_NEVER_EMPTY},  {"cs_Gflops", CR_NUMBER, CR_NEVER_EMPTY}, {"stability", CR_TEXT, CR_MAY_BE_EMPTY},
    {"state", CR_TEXT, CR_MAY_BE_EMPTY},     {"dfdk", CR_NUMBER, CR_MAY_BE_EMPTY},     {"dgdx_over_Z", CR_NUMBER, CR_MAY_BE_EMPTY},
    {"k_end", CR_NUMBER, CR_MAY_BE_EMPTY},   {"note", CR_TEXT, CR_MAY_BE_EMPTY},
};
const cr_csv_schema cr_schema_xgraph_app = {"xgraph's application crossings", xgraph_app_cols,
                                            COUNT(xgraph_app_cols), false, NULL, 0};

/* results/reference/li2016-table3.2.csv, or a table of one's own with the
 * same columns and any more. */
static const cr_column_spec reference_cols[] = {
    {"gpu", CR_TEXT, CR_NEVER_EMPTY},           {"dtype", CR_TEXT, CR_NEVER_EMPTY}, {"delta_warps", CR_NUMBER, CR_NEVER_EMPTY},
    {"R_GBps", CR_NUMBER, CR_NEVER_EMPTY},      {"mwarps", CR_NUMBER, CR_NEVER_EMPTY},
};
const cr_csv_schema cr_schema_reference = {"a reference table (gpu,dtype,delta_warps,R_GBps,mwarps)", reference_cols,
                                           COUNT(reference_cols), true, NULL, 0};

/* tools/energy_levels/output.c: one row per level of the memory system and
 * kind of operation, what one byte or operation costs there in energy. */
static const cr_column_spec energy_levels_cols[] = {
    {"level", CR_TEXT, CR_NEVER_EMPTY},    {"basis", CR_TEXT, CR_NEVER_EMPTY},     {"pj", CR_NUMBER, CR_MAY_BE_EMPTY},
    {"rows", CR_COUNT, CR_NEVER_EMPTY},    {"sensor", CR_TEXT, CR_MAY_BE_EMPTY},   {"status", CR_TEXT, CR_NEVER_EMPTY},
    {"thesis_pj", CR_NONNEG, CR_MAY_BE_EMPTY}, {"thesis_symbol", CR_TEXT, CR_MAY_BE_EMPTY},
    {"source", CR_TEXT, CR_MAY_BE_EMPTY},  {"reason", CR_TEXT, CR_MAY_BE_EMPTY},
};
static const cr_csv_schema schema_energy_levels = {"the energy levels", energy_levels_cols,
                                                   COUNT(energy_levels_cols), false, NULL, 0};

/* results/reference/ranasinghe2014-table5.1.csv: the thesis's energy
 * parameters and the level each stands beside. */
static const cr_column_spec energy_reference_cols[] = {
    {"symbol", CR_TEXT, CR_NEVER_EMPTY}, {"value", CR_NONNEG, CR_NEVER_EMPTY}, {"unit", CR_TEXT, CR_NEVER_EMPTY},
    {"level", CR_TEXT, CR_MAY_BE_EMPTY}, {"basis", CR_TEXT, CR_MAY_BE_EMPTY},  {"access_bytes", CR_COUNT, CR_MAY_BE_EMPTY},
    {"meaning", CR_TEXT, CR_MAY_BE_EMPTY},
};
static const cr_csv_schema schema_energy_reference = {
    "an energy reference table (symbol,value,unit,level,basis,access_bytes,meaning)", energy_reference_cols,
    COUNT(energy_reference_cols), false, NULL, 0};

/* tools/peers.sh (tools/peers/ratios.awk): crossroof beside a peer suite on
 * the same work, one row per test, size and statistic. */
static const cr_column_spec peers_cols[] = {
    {"suite", CR_TEXT, CR_NEVER_EMPTY},          {"test", CR_TEXT, CR_NEVER_EMPTY},
    {"crossroof_test", CR_TEXT, CR_NEVER_EMPTY}, {"dtype", CR_TEXT, CR_MAY_BE_EMPTY},
    {"size_bytes", CR_COUNT, CR_NEVER_EMPTY},    {"statistic", CR_TEXT, CR_NEVER_EMPTY},
    {"crossroof", CR_NONNEG, CR_NEVER_EMPTY},    {"peer", CR_NONNEG, CR_NEVER_EMPTY},
    {"unit", CR_TEXT, CR_NEVER_EMPTY},           {"ratio", CR_NONNEG, CR_NEVER_EMPTY},
    {"n_crossroof", CR_COUNT, CR_NEVER_EMPTY},   {"n_peer", CR_COUNT, CR_NEVER_EMPTY},
    {"slices", CR_COUNT, CR_NEVER_EMPTY},        {"flags", CR_TEXT, CR_MAY_BE_EMPTY},
    {"note", CR_TEXT, CR_MAY_BE_EMPTY},
};
static const cr_csv_schema schema_peers = {"the peers' ratio table", peers_cols, COUNT(peers_cols), false, NULL, 0};

const cr_csv_schema cr_schema_any = {"a CSV file", NULL, 0, true, NULL, 0};

/* ---- which file is which ---- */

/* The schema of a benchmark's extra file of that name, or NULL. */
static const cr_csv_schema *extra_schema(const char *name)
{
    size_t n = cr_bench_parts_count(cr_csv_schema_lists, cr_ncsv_schema_lists);
    for (size_t i = 0; i < n; ++i) {
        const cr_extra_schema *x = cr_bench_parts_at(cr_csv_schema_lists, cr_ncsv_schema_lists, sizeof *x, i);
        size_t b = strlen(x->benchmark), k = strlen(x->kind), len = strlen(name);
        if (len > b + k + 6 && strncmp(name, x->benchmark, b) == 0 && name[b] == '-' &&
            name[len - k - 5] == '.' && strncmp(name + len - k - 4, x->kind, k) == 0 && cr_ends_with(name, ".csv"))
            return x->schema;
    }
    return NULL;
}

const char *cr_results_benchmark(const char *path)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path, *found = NULL;
    if (!cr_ends_with(name, ".csv"))
        return NULL;
    /* The longest name that fits: one benchmark's name may start another's. */
    for (size_t i = 0; i < cr_ndescriptors; ++i) {
        size_t n = strlen(cr_descriptors[i].name);
        if (strncmp(name, cr_descriptors[i].name, n) == 0 && name[n] == '-' && (found == NULL || n > strlen(found)))
            found = cr_descriptors[i].name;
    }
    return found;
}

const cr_csv_schema *cr_schema_for(const char *path)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (cr_ends_with(name, ".meta.csv"))
        return &cr_schema_metadata;
    if (strcmp(name, "run-log.csv") == 0)
        return &cr_schema_run_log;
    if (strcmp(name, "xgraph-params.csv") == 0)
        return &cr_schema_xgraph_params;
    if (strcmp(name, "xgraph-app.csv") == 0)
        return &cr_schema_xgraph_app;
    const cr_csv_schema *extra = extra_schema(name);
    if (extra)
        return extra;
    if (strcmp(name, "energy-levels.csv") == 0)
        return &schema_energy_levels;
    if (strcmp(name, "peers.csv") == 0)
        return &schema_peers;
    if (strcmp(name, "ranasinghe2014-table5.1.csv") == 0)
        return &schema_energy_reference;
    return cr_results_benchmark(name) ? &cr_schema_results : &cr_schema_any;
}

const cr_column_spec *cr_schema_column(const cr_csv_schema *s, const char *name)
{
    for (size_t i = 0; i < s->ncols; ++i)
        if (strcmp(s->cols[i].name, name) == 0)
            return &s->cols[i];
    return NULL;
}

/* ---- fields ---- */

const char *cr_field_excerpt(const char *s, char *buf, size_t len)
{
    size_t n = strlen(s);
    if (n > 40) {
        n = 40;
        while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
            --n;
    }
    if (n >= len)
        n = len - 1;
    for (size_t i = 0; i < n; ++i)
        buf[i] = s[i] == '\n' || s[i] == '\r' || s[i] == '\t' ? ' ' : s[i];
    buf[n] = '\0';
    return buf;
}

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
        if (spec->presence != CR_NEVER_EMPTY)
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
