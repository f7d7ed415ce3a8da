#include "results.h"

#include "csv.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const cr_result_columns[] = {
    "benchmark", "backend",  "device",        "variant",   "dtype",    "sweep",     "size_bytes",
    "work_items", "work_group", "params",     "bytes_per_rep", "ops_per_rep", "n",   "min_s",
    "median_s",  "mean_s",   "max_s",         "stddev_s",  "ci_rel",   "timer",     "stop",
    "figure",    "figure_best", "unit",       "ref_ratio", "valid",    "flags",     "cycles",
    "energy_j",  "power_w",  "static_w",      "pj_per_byte", "pj_per_op", "energy_sensor", "energy_interval_s",
    "note",
};
const size_t cr_result_ncolumns = sizeof cr_result_columns / sizeof cr_result_columns[0];

/* How each column above, in the same order, is written and where its value
 * is in cr_result. Text is quoted as CSV needs; a count of 0 is empty (n/a);
 * a double that is NaN is empty, and so is an infinite ci_rel; an optional
 * double (one few rows set) is empty where 0 or not finite. */
typedef enum { COL_TEXT, COL_COUNT, COL_SIZE_T, COL_DOUBLE, COL_FINITE, COL_OPTIONAL, COL_BOOL } column_kind;
typedef struct {
    column_kind kind;
    size_t offset;
} column;

#define COL(kind, member) {kind, offsetof(cr_result, member)}
static const column columns[] = {
    COL(COL_TEXT, benchmark),     COL(COL_TEXT, backend),      COL(COL_TEXT, device),
    COL(COL_TEXT, variant),       COL(COL_TEXT, dtype),        COL(COL_TEXT, sweep),
    COL(COL_COUNT, size_bytes),   COL(COL_COUNT, work_items),  COL(COL_COUNT, work_group),
    COL(COL_TEXT, params),        COL(COL_DOUBLE, bytes_per_rep), COL(COL_DOUBLE, ops_per_rep),
    COL(COL_SIZE_T, stats.n),     COL(COL_DOUBLE, stats.min),  COL(COL_DOUBLE, stats.median),
    COL(COL_DOUBLE, stats.mean),  COL(COL_DOUBLE, stats.max),  COL(COL_DOUBLE, stats.stddev),
    COL(COL_FINITE, stats.ci_rel), COL(COL_TEXT, timer),       COL(COL_TEXT, stop),
    COL(COL_DOUBLE, figure),      COL(COL_DOUBLE, figure_best), COL(COL_TEXT, unit),
    COL(COL_DOUBLE, ref_ratio),   COL(COL_BOOL, valid),        COL(COL_TEXT, flags),
    COL(COL_OPTIONAL, cycles),    COL(COL_OPTIONAL, energy_j), COL(COL_OPTIONAL, power_w),
    COL(COL_OPTIONAL, static_w),  COL(COL_OPTIONAL, pj_per_byte), COL(COL_OPTIONAL, pj_per_op),
    COL(COL_TEXT, energy_sensor), COL(COL_OPTIONAL, energy_interval_s), COL(COL_TEXT, note),
};
#undef COL
_Static_assert(sizeof columns / sizeof columns[0] == sizeof cr_result_columns / sizeof cr_result_columns[0],
               "one writer per column name");

int cr_result_refuse_infinities(cr_result *r)
{
    int found = 0;
    for (size_t i = 0; i < cr_result_ncolumns; ++i) {
        if (columns[i].kind != COL_DOUBLE)
            continue;
        double *v = (double *)((char *)r + columns[i].offset);
        if (!isinf(*v))
            continue;
        *v = NAN;
        r->valid = false;
        size_t used = strlen(r->note);
        snprintf(r->note + used, sizeof r->note - used, "%s%s was infinite: no measurement", used ? "; " : "",
                 cr_result_columns[i]);
        ++found;
    }
    return found;
}

/* What the value of "key=value" (len bytes at item) is where strtod reads
 * it whole as a number that is not finite ("infinite", "not a number"),
 * else NULL. */
static const char *nonfinite_value(const char *item, size_t len)
{
    const char *eq = memchr(item, '=', len);
    char value[64], *end;
    if (eq == NULL || (size_t)(item + len - eq - 1) >= sizeof value)
        return NULL;
    snprintf(value, sizeof value, "%.*s", (int)(item + len - eq - 1), eq + 1);
    double v = strtod(value, &end);
    if (end == value || *end != '\0' || isfinite(v))
        return NULL;
    return isinf(v) ? "infinite" : "not a number";
}

int cr_result_drop_nonfinite_params(cr_result *r)
{
    char kept[sizeof r->params] = "";
    size_t used = 0;
    int found = 0;
    for (const char *p = r->params; *p;) {
        size_t len = strcspn(p, ";");
        const char *what = nonfinite_value(p, len);
        if (what) {
            size_t at = strlen(r->note), klen = strcspn(p, "=");
            snprintf(r->note + at, sizeof r->note - at, "%sparameter %.*s was %s: left out", at ? "; " : "",
                     (int)klen, p, what);
            ++found;
        } else {
            used += (size_t)snprintf(kept + used, sizeof kept - used, "%s%.*s", used ? ";" : "", (int)len, p);
        }
        p += len + (p[len] == ';');
    }
    snprintf(r->params, sizeof r->params, "%s", kept);
    return found;
}

void cr_result_begin(cr_result *r, const char *benchmark, const char *backend, const char *device,
                     const char *variant, const char *dtype, const char *sweep, const char *unit)
{
    *r = (cr_result){.valid = true, .ref_ratio = NAN, .figure = NAN, .figure_best = NAN};
    snprintf(r->benchmark, sizeof r->benchmark, "%s", benchmark);
    snprintf(r->backend, sizeof r->backend, "%s", backend);
    snprintf(r->device, sizeof r->device, "%.*s", (int)sizeof r->device - 1, device);
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    snprintf(r->dtype, sizeof r->dtype, "%s", dtype ? dtype : "");
    snprintf(r->sweep, sizeof r->sweep, "%s", sweep);
    snprintf(r->unit, sizeof r->unit, "%s", unit ? unit : "");
}

void cr_result_unmeasured(cr_result *r)
{
    size_t n = r->stats.n;
    r->stats = (cr_summary){.n = n, .min = NAN, .median = NAN, .mean = NAN, .max = NAN, .stddev = NAN, .ci_rel = NAN};
    snprintf(r->timer, sizeof r->timer, "none");
}

void cr_result_write_header(FILE *f)
{
    for (size_t i = 0; i < cr_result_ncolumns; ++i) {
        if (i)
            fputc(',', f);
        fputs(cr_result_columns[i], f);
    }
    fputc('\n', f);
}

void cr_result_write_row(FILE *f, const cr_result *r)
{
    for (size_t i = 0; i < cr_result_ncolumns; ++i) {
        const void *field = (const char *)r + columns[i].offset;
        if (i)
            fputc(',', f);
        switch (columns[i].kind) {
        case COL_TEXT: cr_csv_field(f, field); break;
        case COL_COUNT:
            if (*(const uint64_t *)field)
                fprintf(f, "%" PRIu64, *(const uint64_t *)field);
            break;
        case COL_SIZE_T: fprintf(f, "%zu", *(const size_t *)field); break;
        case COL_DOUBLE: cr_csv_double(f, *(const double *)field); break;
        case COL_FINITE: cr_csv_double(f, isfinite(*(const double *)field) ? *(const double *)field : NAN); break;
        case COL_OPTIONAL: {
            double v = *(const double *)field;
            cr_csv_double(f, isfinite(v) && v != 0 ? v : NAN);
            break;
        }
        case COL_BOOL: fputs(*(const bool *)field ? "1" : "0", f); break;
        }
    }
    fputc('\n', f);
}

void cr_table_init(cr_result_table *t, const char *path)
{
    memset(t, 0, sizeof *t);
    if (path)
        snprintf(t->path, sizeof t->path, "%s", path);
}

static int write_table(FILE *f, void *ctx)
{
    const cr_result_table *t = ctx;
    cr_result_write_header(f);
    for (size_t i = 0; i < t->n; ++i)
        cr_result_write_row(f, &t->rows[i]);
    return ferror(f) ? -1 : 0;
}

int cr_table_flush(cr_result_table *t, char *err, size_t errlen)
{
    if (t->path[0] == '\0')
        return 0;
    return cr_write_atomic(t->path, write_table, t, err, errlen);
}

int cr_table_add(cr_result_table *t, const cr_result *r, char *err, size_t errlen)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        cr_result *rows = realloc(t->rows, cap * sizeof *rows);
        if (rows == NULL) {
            snprintf(err, errlen, "out of memory for results");
            return -1;
        }
        t->rows = rows;
        t->cap = cap;
    }
    t->rows[t->n++] = *r;
    return cr_table_flush(t, err, errlen);
}

void cr_table_free(cr_result_table *t)
{
    free(t->rows);
    t->rows = NULL;
    t->n = t->cap = 0;
}

void cr_result_add_param(cr_result *r, const char *fmt, ...)
{
    size_t len = strlen(r->params);
    if (len >= sizeof r->params - 1)
        return;
    if (len > 0)
        r->params[len++] = ';';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->params + len, sizeof r->params - len, fmt, ap);
    va_end(ap);
}
