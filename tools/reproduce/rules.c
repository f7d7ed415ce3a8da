#define _GNU_SOURCE
#include "reproduce/rules.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t rr_thesis_range(const rr_thesis *th, const char *target, const char *quantity, double *lo, double *hi)
{
    *lo = *hi = NAN;
    size_t n = 0, i = 0;
    for (const rr_value *v; (v = rr_next_value(th, target, quantity, &i)) != NULL;) {
        if (isnan(v->value))
            continue;
        *lo = n == 0 || v->value < *lo ? v->value : *lo;
        *hi = n == 0 || v->value > *hi ? v->value : *hi;
        ++n;
    }
    return n;
}

void rr_cite(const rr_value *v, char *buf, size_t len)
{
    snprintf(buf, len, "%s, p. %s (%s line %u)", v->source, v->page, v->seed, v->seed_line);
}

void rr_pair_each(rr_outcome *o, const rr_thesis *th, const char *target, const char *quantity, const char *unit,
                  double run, const char *basis)
{
    size_t i = 0;
    char cite[200];
    for (const rr_value *v; (v = rr_next_value(th, target, quantity, &i)) != NULL;) {
        rr_cite(v, cite, sizeof cite);
        rr_add_pair(o, v->quantity, v->key, unit, v->value, run, basis, cite);
    }
}

/* Ranks of v (1-based, ties their mean). */
static void ranks(const double *v, size_t n, double *r)
{
    for (size_t i = 0; i < n; ++i) {
        size_t below = 0, equal = 0;
        for (size_t j = 0; j < n; ++j) {
            below += v[j] < v[i];
            equal += v[j] == v[i];
        }
        r[i] = (double)below + (double)(equal + 1) / 2.0;
    }
}

double rr_spearman(const double *x, const double *y, size_t n)
{
    if (n < 3)
        return NAN;
    double *rx = malloc(n * sizeof *rx), *ry = malloc(n * sizeof *ry);
    if (rx == NULL || ry == NULL) {
        free(rx);
        free(ry);
        return NAN;
    }
    ranks(x, n, rx);
    ranks(y, n, ry);
    double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; ++i) {
        mx += rx[i] / (double)n;
        my += ry[i] / (double)n;
    }
    for (size_t i = 0; i < n; ++i) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    free(rx);
    free(ry);
    return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

static bool row_matches(const rr_file *f, size_t i, const char *variant, const char *sweep, const char *dtype)
{
    return strcmp(rr_get(f, i, "variant"), variant) == 0 && strcmp(rr_get(f, i, "sweep"), sweep) == 0 &&
           (dtype == NULL || strcmp(rr_get(f, i, "dtype"), dtype) == 0) && strcmp(rr_get(f, i, "valid"), "1") == 0 &&
           isfinite(rr_num(f, i, "figure"));
}

size_t rr_largest_row(const rr_file *f, const char *variant, const char *sweep, const char *dtype)
{
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < f->table.nrows; ++i)
        if (row_matches(f, i, variant, sweep, dtype) &&
            (best == SIZE_MAX || rr_num(f, i, "size_bytes") > rr_num(f, best, "size_bytes")))
            best = i;
    return best;
}

size_t rr_first_row(const rr_file *f, const char *variant, const char *sweep, const char *dtype)
{
    for (size_t i = 0; i < f->table.nrows; ++i)
        if (row_matches(f, i, variant, sweep, dtype))
            return i;
    return SIZE_MAX;
}

void rr_rests_on(rr_outcome *o, const rr_file *f, size_t i)
{
    char mark[300];
    snprintf(mark, sizeof mark, "%s:%u", f->name, f->table.rows[i].line);
    if (strstr(o->evidence, mark) == NULL)
        RR_SAY(o, evidence, "%s%s", *o->evidence ? " " : "", mark);
    rr_add_flags(o, rr_get(f, i, "flags"));
}

void rr_rests_on_rows(rr_outcome *o, const rr_file *f, size_t first, size_t last)
{
    if (first == last)
        return rr_rests_on(o, f, first);
    RR_SAY(o, evidence, "%s%s:%u-%u", *o->evidence ? " " : "", f->name, f->table.rows[first].line,
           f->table.rows[last].line);
}

bool rr_row_is(const rr_file *f, size_t i, const char *variant, const char *sweep)
{
    return strcmp(rr_get(f, i, "variant"), variant) == 0 && strcmp(rr_get(f, i, "sweep"), sweep) == 0 &&
           strcmp(rr_get(f, i, "valid"), "1") == 0;
}
