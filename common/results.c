#include "results.h"

#include "csv.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const cr_result_columns[] = {
    "benchmark", "backend",  "device",        "variant",   "dtype",    "sweep",     "size_bytes",
    "work_items", "work_group", "params",     "bytes_per_rep", "ops_per_rep", "n",   "min_s",
    "median_s",  "mean_s",   "max_s",         "stddev_s",  "ci_rel",   "timer",     "stop",
    "figure",    "figure_best", "unit",       "ref_ratio", "valid",    "note",
};
const size_t cr_result_ncolumns = sizeof cr_result_columns / sizeof cr_result_columns[0];

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

static void sep(FILE *f) { fputc(',', f); }

static void u64_or_empty(FILE *f, uint64_t v)
{
    if (v)
        fprintf(f, "%" PRIu64, v);
}

void cr_result_write_row(FILE *f, const cr_result *r)
{
    cr_csv_field(f, r->benchmark), sep(f);
    cr_csv_field(f, r->backend), sep(f);
    cr_csv_field(f, r->device), sep(f);
    cr_csv_field(f, r->variant), sep(f);
    cr_csv_field(f, r->dtype), sep(f);
    cr_csv_field(f, r->sweep), sep(f);
    u64_or_empty(f, r->size_bytes), sep(f);
    u64_or_empty(f, r->work_items), sep(f);
    u64_or_empty(f, r->work_group), sep(f);
    cr_csv_field(f, r->params), sep(f);
    cr_csv_double(f, r->bytes_per_rep), sep(f);
    cr_csv_double(f, r->ops_per_rep), sep(f);
    fprintf(f, "%zu", r->stats.n), sep(f);
    cr_csv_double(f, r->stats.min), sep(f);
    cr_csv_double(f, r->stats.median), sep(f);
    cr_csv_double(f, r->stats.mean), sep(f);
    cr_csv_double(f, r->stats.max), sep(f);
    cr_csv_double(f, r->stats.stddev), sep(f);
    cr_csv_double(f, isfinite(r->stats.ci_rel) ? r->stats.ci_rel : NAN), sep(f);
    cr_csv_field(f, r->timer), sep(f);
    cr_csv_field(f, r->stop), sep(f);
    cr_csv_double(f, r->figure), sep(f);
    cr_csv_double(f, r->figure_best), sep(f);
    cr_csv_field(f, r->unit), sep(f);
    cr_csv_double(f, r->ref_ratio), sep(f);
    fputs(r->valid ? "1" : "0", f), sep(f);
    cr_csv_field(f, r->note);
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
