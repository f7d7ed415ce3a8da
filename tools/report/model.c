/* The report's tables and string lists: building, looking up, formatting
 * and freeing. */
#define _GNU_SOURCE
#include "report/model.h"

#include "error.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *grow(void *v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return v;
    size_t c = *cap ? 2 * *cap : 16;
    void *nv = realloc(v, c * size);
    if (nv == NULL)
        cr_die("report", 1, "out of memory");
    *cap = c;
    return nv;
}

void rp_strings_push(rp_strings *s, const char *fmt, ...)
{
    s->v = grow(s->v, &s->cap, s->n, sizeof *s->v);
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&s->v[s->n], fmt, ap) < 0)
        cr_die("report", 1, "out of memory");
    va_end(ap);
    ++s->n;
}

bool rp_strings_has(const rp_strings *s, const char *text)
{
    for (size_t i = 0; i < s->n; ++i)
        if (strcmp(s->v[i], text) == 0)
            return true;
    return false;
}

void rp_strings_free(rp_strings *s)
{
    for (size_t i = 0; i < s->n; ++i)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

rp_table *rp_add_table(rp_section *sec, const char *id, const char *title, const char *key_head, ...)
{
    if (sec->ntables == RP_MAX_TABLES)
        cr_die("report", 1, "more than %d tables in a section", RP_MAX_TABLES);
    rp_table *t = &sec->tables[sec->ntables++];
    memset(t, 0, sizeof *t);
    snprintf(t->id, sizeof t->id, "%s", id);
    snprintf(t->title, sizeof t->title, "%s", title);
    snprintf(t->key_head, sizeof t->key_head, "%s", key_head);
    va_list ap;
    va_start(ap, key_head);
    const char *col;
    /* A column cut short or left out would be found by no reader of the
     * table: a section that asks for one is wrong, and says so. */
    while ((col = va_arg(ap, const char *)) != NULL) {
        if (t->ncols == RP_MAX_COLS || strlen(col) >= sizeof t->cols[0])
            cr_die("report", 1, "table %s: column '%s' is column %d or longer than %zu bytes", id, col,
                   t->ncols + 1, sizeof t->cols[0] - 1);
        snprintf(t->cols[t->ncols++], sizeof t->cols[0], "%s", col);
    }
    va_end(ap);
    return t;
}

const rp_row *rp_find_row(const rp_table *t, const char *key)
{
    for (size_t i = 0; i < t->nrows; ++i)
        if (strcmp(t->rows[i].key, key) == 0)
            return &t->rows[i];
    return NULL;
}

rp_row *rp_row_for(rp_table *t, const char *fmt, ...)
{
    char key[sizeof t->rows[0].key];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(key, sizeof key, fmt, ap);
    va_end(ap);
    rp_row *r = (rp_row *)rp_find_row(t, key);
    if (r)
        return r;
    t->rows = grow(t->rows, &t->cap, t->nrows, sizeof *t->rows);
    r = &t->rows[t->nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->key, sizeof r->key, "%s", key);
    for (int c = 0; c < RP_MAX_COLS; ++c)
        r->cells[c].num = NAN;
    return r;
}

void rp_remove_row(rp_table *t, const char *key)
{
    const rp_row *r = rp_find_row(t, key);
    if (r == NULL)
        return;
    size_t i = (size_t)(r - t->rows);
    memmove(&t->rows[i], &t->rows[i + 1], (t->nrows - i - 1) * sizeof *t->rows);
    t->nrows--;
}

int rp_col_index(const rp_table *t, const char *col)
{
    for (int c = 0; c < t->ncols; ++c)
        if (strcmp(t->cols[c], col) == 0)
            return c;
    return -1;
}

const rp_table *rp_find_table(const rp_section *sec, const char *id)
{
    for (size_t i = 0; i < sec->ntables; ++i)
        if (strcmp(sec->tables[i].id, id) == 0)
            return &sec->tables[i];
    return NULL;
}

void rp_set_num(rp_row *r, int col, double v, int digits)
{
    if (col < 0 || col >= RP_MAX_COLS)
        return;
    rp_cell *c = &r->cells[col];
    c->num = isfinite(v) ? v : NAN;
    if (!isfinite(v))
        snprintf(c->text, sizeof c->text, "%s", "");
    else
        snprintf(c->text, sizeof c->text, "%.*g", digits, v);
}

void rp_set_int(rp_row *r, int col, double v)
{
    if (col < 0 || col >= RP_MAX_COLS)
        return;
    rp_cell *c = &r->cells[col];
    c->num = isfinite(v) ? v : NAN;
    if (!isfinite(v))
        c->text[0] = '\0';
    else
        snprintf(c->text, sizeof c->text, "%.0f", v);
}

void rp_set_text(rp_row *r, int col, const char *fmt, ...)
{
    if (col < 0 || col >= RP_MAX_COLS)
        return;
    rp_cell *c = &r->cells[col];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->text, sizeof c->text, fmt, ap);
    va_end(ap);
    c->num = NAN;
}

void rp_format_past_double(double v, char *out, size_t len)
{
    snprintf(out, len, v < 0 ? "below %.3g" : "over %.3g", v < 0 ? -DBL_MAX : DBL_MAX);
}

void rp_format_bytes(double bytes, char *out, size_t len)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    if (!isfinite(bytes) || bytes < 0) {
        snprintf(out, len, "%s", "");
        return;
    }
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        ++u;
    }
    snprintf(out, len, "%.4g %s", bytes, units[u]);
}

const char *rp_get(const cr_csv_table *t, size_t row, const char *col)
{
    int c = cr_csv_column(t, col);
    return c < 0 || row >= t->nrows ? "" : t->rows[row].fields[c];
}

double rp_number(const char *text)
{
    double v;
    return text && cr_number_fault(text, &v) == NULL ? v : NAN;
}

void *rp_grow(void *v, size_t *n, size_t size)
{
    unsigned char *grown = realloc(v, (*n + 1) * size);
    if (grown == NULL)
        cr_die("report", 1, "out of memory");
    memset(grown + *n * size, 0, size);
    ++*n;
    return grown;
}

void rp_table_free(rp_table *t)
{
    free(t->rows);
    memset(t, 0, sizeof *t);
}

void rp_device_free(rp_device *d)
{
    for (int s = 0; s < RP_MAX_SECTIONS; ++s) {
        rp_section *sec = &d->sections[s];
        for (size_t i = 0; i < sec->ntables; ++i)
            rp_table_free(&sec->tables[i]);
        rp_strings_free(&sec->notes);
        rp_strings_free(&sec->sources);
        rp_strings_free(&sec->figures);
    }
    free(d->headlines);
    rp_strings_free(&d->lead);
    memset(d, 0, sizeof *d);
}

void rp_run_free(rp_run *r)
{
    for (size_t i = 0; i < r->ndevices; ++i)
        rp_device_free(&r->devices[i]);
    free(r->devices);
    rp_table_free(&r->log);
    rp_table_free(&r->peers);
    memset(r, 0, sizeof *r);
}
