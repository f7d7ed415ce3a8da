/* Which rows stand for each level. The levels, and which of a benchmark's
 * rows stand for each, are the benchmarks' own (bench/<name>/energy_levels.c,
 * tools/energy_levels/rule.h). Every rule starts from the device's own rows
 * (not the host references measured beside them) that verified (valid = 1),
 * that measured something (not "unsupported") and that the plausibility
 * gate did not call an artifact (flags above-peak, above-host-limit;
 * energy-idle and energy-below-static leave the row's energy out); it picks
 * from them the rows of one benchmark that stress the level alone, and the
 * level's value is the median of their picojoules per byte (pj_per_byte) or
 * per operation (pj_per_op), the dynamic energy with the static power
 * subtracted. A level whose rows carry no energy says so with the reason of
 * the benchmark's sensor row; a level no row stands for says why. */
#define _GNU_SOURCE
#include "energy_levels/levels.h"

#include "options.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *el_basis_name(el_basis b)
{
    return b == EL_PER_BYTE ? "per-byte" : "per-op";
}

const char *el_status_name(el_status s)
{
    return s == EL_MEASURED ? "measured" : s == EL_NO_SENSOR ? "no-sensor" : "no-rows";
}

/* ---- which rows count ---- */

static bool has_flag(const char *flags, const char *token)
{
    size_t n = strlen(token);
    for (const char *p = flags; *p; p += strcspn(p, ";"), p += *p == ';') {
        if (strncmp(p, token, n) == 0 && (p[n] == ';' || p[n] == '\0'))
            return true;
    }
    return false;
}

static bool usable(const el_results *f, size_t i)
{
    const char *flags = el_field(f, i, "flags");
    return strncmp(el_field(f, i, "backend"), "host", 4) != 0 && el_is(f, i, "valid", "1") &&
           !el_is(f, i, "stop", "unsupported") && !has_flag(flags, "above-peak") &&
           !has_flag(flags, "above-host-limit");
}

size_t el_rule_count(void)
{
    return cr_bench_parts_count(el_rule_lists, el_nrule_lists);
}

const el_rule *el_rule_at(size_t i)
{
    return cr_bench_parts_at(el_rule_lists, el_nrule_lists, sizeof(el_rule), i);
}

bool el_level_known(const char *name, el_basis *basis)
{
    for (size_t r = 0; r < el_rule_count(); ++r) {
        if (strcmp(el_rule_at(r)->level, name) == 0) {
            *basis = el_rule_at(r)->basis;
            return true;
        }
    }
    return false;
}

/* ---- picking ---- */

typedef struct {
    const el_results *f;
    size_t row;
    double key;
} pick;

typedef struct {
    pick *v;
    size_t n, cap;
} picks;

static void push(picks *p, const el_results *f, size_t row, double key)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        pick *v = realloc(p->v, p->cap * sizeof *v);
        if (v == NULL) {
            fputs("energy-levels: error: out of memory\n", stderr);
            exit(1);
        }
        p->v = v;
    }
    p->v[p->n++] = (pick){f, row, key};
}

static bool same_kind(const pick *a, const pick *b)
{
    return strcmp(el_field(a->f, a->row, "variant"), el_field(b->f, b->row, "variant")) == 0 &&
           strcmp(el_field(a->f, a->row, "dtype"), el_field(b->f, b->row, "dtype")) == 0;
}

static double figure(const pick *p) { return el_number(p->f, p->row, "figure"); }

/* Keeps the candidates the rule picks, in their order. */
static void narrow(picks *p, el_pick_rule how)
{
    if (how == EL_PICK_ALL || p->n == 0)
        return;
    double lo = p->v[0].key, hi = p->v[0].key;
    for (size_t i = 1; i < p->n; ++i) {
        lo = fmin(lo, p->v[i].key);
        hi = fmax(hi, p->v[i].key);
    }
    size_t kept = 0, fastest = SIZE_MAX;
    for (size_t i = 0; i < p->n; ++i)
        if (p->v[i].key == hi && (fastest == SIZE_MAX || figure(&p->v[i]) > figure(&p->v[fastest])))
            fastest = i;
    for (size_t i = 0; i < p->n; ++i) {
        bool keep = how == EL_PICK_LARGEST           ? p->v[i].key == hi
                    : how == EL_PICK_SMALLEST        ? p->v[i].key == lo
                    : how == EL_PICK_LARGEST_FASTEST ? i == fastest
                                                  : true;
        if (how == EL_PICK_LARGEST_PER_KIND)
            for (size_t j = 0; j < p->n && keep; ++j)
                keep = !(same_kind(&p->v[i], &p->v[j]) &&
                         (p->v[j].key > p->v[i].key || (p->v[j].key == p->v[i].key && j < i)));
        if (keep)
            p->v[kept++] = p->v[i];
    }
    p->n = kept;
}

/* ---- describing the rows used ---- */

static void append(char *buf, size_t len, const char *fmt, const char *text)
{
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, fmt, text);
}

static void format_key(el_key_kind k, double v, char *out, size_t len)
{
    if (k == EL_KEY_WORKING_SET || k == EL_KEY_TRANSFER)
        cr_format_bytes((uint64_t)v, out, len);
    else if (k == EL_KEY_DEGREE)
        snprintf(out, len, "%.0f", v);
    else
        snprintf(out, len, "%.4g Gop/s", v);
}

/* "stream-cuda.csv: copy/float, triad/double at working sets 1 GiB to 1.5 GiB" */
static void describe(const el_rule *r, const picks *p, char *out, size_t len)
{
    out[0] = '\0';
    for (size_t i = 0; i < p->n; ++i) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; ++j)
            seen = p->v[j].f == p->v[i].f;
        if (!seen)
            append(out, len, i ? "+%s" : "%s", p->v[i].f->name);
    }
    append(out, len, "%s", ":");
    size_t shown = 0;
    for (size_t i = 0; i < p->n; ++i) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; ++j)
            seen = same_kind(&p->v[i], &p->v[j]);
        if (seen)
            continue;
        if (shown++ == 8) {
            append(out, len, "%s", " ...");
            break;
        }
        const char *dtype = el_field(p->v[i].f, p->v[i].row, "dtype");
        append(out, len, shown > 1 ? ", %s" : " %s", el_field(p->v[i].f, p->v[i].row, "variant"));
        if (*dtype)
            append(out, len, "/%s", dtype);
    }
    double lo = p->v[0].key, hi = p->v[0].key;
    for (size_t i = 1; i < p->n; ++i) {
        lo = fmin(lo, p->v[i].key);
        hi = fmax(hi, p->v[i].key);
    }
    static const char *const words[] = {[EL_KEY_WORKING_SET] = "working set", [EL_KEY_TRANSFER] = "transfers of",
                                        [EL_KEY_DEGREE] = "degree", [EL_KEY_GOPS] = "at"};
    char a[32], b[32];
    format_key(r->key, lo, a, sizeof a);
    format_key(r->key, hi, b, sizeof b);
    append(out, len, "; %s", words[r->key]);
    append(out, len, " %s", a);
    if (hi != lo)
        append(out, len, " to %s", b);
}

/* ---- one level ---- */

static bool any_file(const el_device *d, const char *benchmark)
{
    for (size_t i = 0; i < d->nfiles; ++i)
        if (strcmp(d->files[i].benchmark, benchmark) == 0)
            return true;
    return false;
}

/* Energy the device idled through, or below the static power, is the
 * sensor's window, not a cost: a row with a sensor flagged so has its
 * energy left out (empty; negative in files written before that). */
static bool energy_left_out(const el_results *f, size_t row)
{
    const char *flags = el_field(f, row, "flags"), *sensor = el_field(f, row, "energy_sensor");
    return *sensor && strcmp(sensor, "none") != 0 &&
           (has_flag(flags, "energy-idle") || has_flag(flags, "energy-below-static"));
}

static void measure(const el_rule *r, const picks *p, el_level *out)
{
    const char *col = r->basis == EL_PER_BYTE ? "pj_per_byte" : "pj_per_op";
    double *v = malloc(p->n * sizeof *v);
    if (v == NULL) {
        fputs("energy-levels: error: out of memory\n", stderr);
        exit(1);
    }
    size_t n = 0, left_out = 0;
    for (size_t i = 0; i < p->n; ++i) {
        if (energy_left_out(p->v[i].f, p->v[i].row)) {
            left_out++;
            continue;
        }
        double pj = el_number(p->v[i].f, p->v[i].row, col);
        if (!isfinite(pj))
            continue;
        v[n++] = pj;
        const char *sensor = el_field(p->v[i].f, p->v[i].row, "energy_sensor");
        if (*sensor && strstr(out->sensor, sensor) == NULL)
            append(out->sensor, sizeof out->sensor, out->sensor[0] ? ";%s" : "%s", sensor);
    }
    describe(r, p, out->source, sizeof out->source);
    out->rows = n;
    if (n > 0) {
        out->status = EL_MEASURED;
        cr_summary spread;
        cr_summarize(v, n, &spread);
        out->pj = spread.median;
        if (!(out->pj > 0))
            snprintf(out->reason, sizeof out->reason,
                     "the dynamic energy is not above zero: the static power subtracted is as large as what the "
                     "rows drew");
        else if (left_out)
            snprintf(out->reason, sizeof out->reason,
                     "%zu of the %zu rows left out: their energy was the idle device's (energy-idle) or below the "
                     "static power (energy-below-static)",
                     left_out, p->n);
        else if (n < p->n)
            snprintf(out->reason, sizeof out->reason, "%zu of the %zu rows carry no energy", p->n - n, p->n);
    } else if (left_out) {
        out->status = EL_NO_SENSOR;
        snprintf(out->reason, sizeof out->reason,
                 "the energy of every row was the idle device's (energy-idle) or below the static power "
                 "(energy-below-static): the sensor did not resolve the points");
    } else {
        out->status = EL_NO_SENSOR;
        const char *why = NULL;
        for (size_t i = 0; i < p->n && why == NULL; ++i)
            why = p->v[i].f->sensor_reason[0] ? p->v[i].f->sensor_reason : NULL;
        if (why)
            snprintf(out->reason, sizeof out->reason, "%s", why);
        else if (cr_csv_column(&p->v[0].f->table, col) < 0)
            snprintf(out->reason, sizeof out->reason, "%s has no energy columns: it was written before energy was measured",
                     p->v[0].f->name);
        else
            snprintf(out->reason, sizeof out->reason, "the rows carry no energy and %s has no sensor row saying why",
                     p->v[0].f->name);
    }
    free(v);
}

/* Fills out for rule r; false where the level is left out. */
static bool level(const el_device *d, const el_rule *r, el_level *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->level, sizeof out->level, "%s", r->level);
    out->basis = r->basis;
    out->status = EL_NO_ROWS;
    out->pj = out->thesis_pj = NAN;
    const char *cannot = r->cannot ? r->cannot(d) : NULL;
    if (cannot) {
        snprintf(out->reason, sizeof out->reason, "%s", cannot);
        return !r->only_with_rows;
    }
    if (!any_file(d, r->benchmark)) {
        snprintf(out->reason, sizeof out->reason, "no %s-*.csv here: the %s benchmark did not run on this device",
                 r->benchmark, r->benchmark);
        return !r->only_with_rows;
    }
    picks p = {0};
    for (size_t k = 0; k < d->nfiles; ++k) {
        const el_results *f = &d->files[k];
        if (strcmp(f->benchmark, r->benchmark) != 0)
            continue;
        for (size_t i = 0; i < f->table.nrows; ++i) {
            double key;
            if (usable(f, i) && r->wants(d, f, i, &key) && isfinite(key))
                push(&p, f, i, key);
        }
    }
    narrow(&p, r->pick);
    if (p.n == 0) {
        char llc[32];
        cr_format_bytes(d->llc_bytes, llc, sizeof llc);
        snprintf(out->reason, sizeof out->reason, r->none, llc);
    } else {
        measure(r, &p, out);
    }
    free(p.v);
    return p.n > 0 || !r->only_with_rows;
}

size_t el_levels_compute(const el_device *d, el_level *out, size_t max)
{
    size_t n = 0;
    for (size_t r = 0; r < el_rule_count() && n < max; ++r)
        if (level(d, el_rule_at(r), &out[n]))
            n++;
    return n;
}
