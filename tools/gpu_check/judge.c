#define _POSIX_C_SOURCE 200809L
#include "gpu_check/judge.h"

#include "gpu_check/rules.h"
#include "options.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *gc_state_word(gc_state s)
{
    static const char *const words[] = {"ok", "FAILED", "unjudged", "skipped"};
    return words[s];
}

static gc_line *add_line(gc_verdicts *v, const char *section, gc_state state, const char *what)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 32;
        gc_line *more = realloc(v->lines, cap * sizeof *more);
        if (more == NULL) {
            fprintf(stderr, "gpu-check: error: out of memory\n");
            exit(2);
        }
        v->lines = more;
        v->cap = cap;
    }
    gc_line *l = &v->lines[v->n++];
    memset(l, 0, sizeof *l);
    l->section = section;
    l->state = state;
    snprintf(l->what, sizeof l->what, "%s", what);
    v->count[state]++;
    return l;
}

/* Writes a reason: buf is a gc_line's or a gc_eval's. */
__attribute__((format(printf, 2, 3))) static void say(char *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, GC_REASON_LEN, fmt, ap);
    va_end(ap);
}

/* ---- the benchmarks, from the run log ---- */

static bool ran_on_a_device(const gc_run *run)
{
    for (size_t i = 0; i < run->ntasks; ++i)
        if (run->tasks[i].device_index[0] != '\0')
            return true;
    return false;
}

static void judge_tasks(const gc_run *run, unsigned gpus_visible, gc_verdicts *v)
{
    bool device_seen = ran_on_a_device(run);
    for (size_t i = 0; i < run->ntasks; ++i) {
        const gc_task *t = &run->tasks[i];
        char what[128];
        snprintf(what, sizeof what, "%s%s%s", t->task, t->device[0] ? " on " : "", t->device);
        if (strcmp(t->status, "passed") == 0) {
            say(add_line(v, "benchmarks", GC_OK, what)->reason, "passed");
        } else if (strcmp(t->status, "skipped") == 0) {
            gc_state st = gpus_visible > 0 || device_seen ? GC_FAILED : GC_SKIPPED;
            gc_line *l = add_line(v, "benchmarks", st, what);
            if (st == GC_SKIPPED)
                say(l->reason, "skipped (exit %u): %s", t->exit_code, t->reason);
            else if (gpus_visible > 0)
                say(l->reason, "skipped (exit %u) where %u GPU(s) are visible: %s", t->exit_code, gpus_visible,
                    t->reason);
            else
                say(l->reason, "skipped (exit %u) where other CUDA benchmarks found a device: %s", t->exit_code,
                    t->reason);
        } else {
            say(add_line(v, "benchmarks", GC_FAILED, what)->reason, "%s (exit %u): %s", t->status, t->exit_code,
                t->reason);
        }
    }
    if (run->ntasks == 0 && gpus_visible > 0)
        say(add_line(v, "benchmarks", GC_FAILED, "CUDA benchmarks")->reason,
            "none in the run log, where %u GPU(s) are visible", gpus_visible);
}

/* ---- the rows each file marks invalid ---- */

/* The rows of a results file that its benchmark wrote on CUDA. None: it
 * ended (or was stopped) before it wrote one, whatever the file holds. */
static size_t rows_of(const cr_csv_table *t, const char *benchmark)
{
    int bench = cr_csv_column(t, "benchmark"), backend = cr_csv_column(t, "backend");
    size_t n = 0;
    for (size_t i = 0; bench >= 0 && backend >= 0 && i < t->nrows; ++i)
        n += strcmp(t->rows[i].fields[bench], benchmark) == 0 && strcmp(t->rows[i].fields[backend], "cuda") == 0;
    return n;
}

/* Why a results file holds nothing to judge: "" where it holds rows of its
 * benchmark. */
static const char *why_empty(const cr_csv_table *t, const char *benchmark, char *buf, size_t len)
{
    buf[0] = '\0';
    if (t->ncols == 0)
        snprintf(buf, len, "an empty file, not even a header");
    else if (t->nrows == 0)
        snprintf(buf, len, "the header only, no rows: the benchmark ended before it wrote one");
    else if (rows_of(t, benchmark) == 0)
        snprintf(buf, len, "none of its %zu rows is %s's on cuda", t->nrows, benchmark);
    return buf;
}

/* The benchmark of a results file ("stream" of "stream-cuda.csv"), or NULL
 * for any other file (metadata, summary tables). */
static const char *results_benchmark(const char *name, char *buf, size_t len)
{
    static const char suffix[] = "-cuda.csv";
    size_t n = strlen(name), k = sizeof suffix - 1;
    if (n <= k || strcmp(name + n - k, suffix) != 0 || n - k >= len)
        return NULL;
    snprintf(buf, len, "%.*s", (int)(n - k), name);
    return buf;
}

static void judge_validity(const gc_device *d, gc_verdicts *v)
{
    for (size_t i = 0; i < d->nfiles; ++i) {
        const cr_csv_table *t = &d->files[i].table;
        char bench[128], why[200];
        if (results_benchmark(d->files[i].name, bench, sizeof bench) &&
            why_empty(t, bench, why, sizeof why)[0] != '\0') {
            say(add_line(v, d->dir, GC_FAILED, d->files[i].name)->reason, "missing: %s", why);
            continue;
        }
        int valid = cr_csv_column(t, "valid");
        if (valid < 0)
            continue;
        int note = cr_csv_column(t, "note");
        size_t bad = 0, first = 0;
        for (size_t r = 0; r < t->nrows; ++r)
            if (strcmp(t->rows[r].fields[valid], "0") == 0 && bad++ == 0)
                first = r;
        gc_line *l = add_line(v, d->dir, bad ? GC_FAILED : GC_OK, d->files[i].name);
        if (bad)
            say(l->reason, "%zu of %zu rows invalid; the first at %s:%u: %s", bad, t->nrows, d->files[i].name,
                t->rows[first].line, note >= 0 && t->rows[first].fields[note][0] ? t->rows[first].fields[note]
                                                                                   : "(no note)");
        else
            say(l->reason, "%zu row%s, all valid", t->nrows, t->nrows == 1 ? "" : "s");
    }
}

/* ---- the figures ---- */

typedef struct {
    gc_state state;
    bool have;    /* a measured value */
    double value;
    char measured[48], range[160], reason[GC_REASON_LEN];
} gc_eval;

/* A number as the table shows it: whole above a thousand (60100, not
 * 6.01e+04), four significant digits below. */
static const char *num(char *buf, size_t len, double v)
{
    snprintf(buf, len, fabs(v) >= 1000 ? "%.0f" : "%.4g", v);
    return buf;
}

static const char *base_name(const char *path)
{
    return strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
}

static void results_name(const gc_rule *r, const char *suffix, char *buf, size_t len)
{
    snprintf(buf, len, "%s-cuda%s", r->benchmark, suffix);
}

static bool field_is(const cr_csv_table *t, size_t row, const char *col, const char *want)
{
    int c = cr_csv_column(t, col);
    return want == NULL || (c >= 0 && strcmp(t->rows[row].fields[c], want) == 0);
}

/* The row that stands for the figure, or -1. */
static long pick_row(const cr_csv_table *t, const gc_rule *r)
{
    int size = cr_csv_column(t, "size_bytes"), figure = cr_csv_column(t, "figure"),
        valid = cr_csv_column(t, "valid");
    long best = -1;
    double best_key = -INFINITY;
    for (size_t i = 0; i < t->nrows; ++i) {
        if (!field_is(t, i, "backend", "cuda") || !field_is(t, i, "variant", r->variant) ||
            !field_is(t, i, "dtype", r->dtype) || !field_is(t, i, "sweep", r->sweep))
            continue;
        char **f = t->rows[i].fields;
        double key;
        if (r->pick == GC_LARGEST_SIZE) {
            key = f[size][0] ? strtod(f[size], NULL) : -1;
        } else {
            /* The plateau is the best valid point; an invalid row is
             * picked only where no row is valid, to fail as one. */
            key = f[figure][0] ? strtod(f[figure], NULL) : -HUGE_VAL;
            if (strcmp(f[valid], "1") != 0)
                key = -INFINITY;
        }
        if (best < 0 || key > best_key) {
            best = (long)i;
            best_key = key;
        }
    }
    return best;
}

static void eval_rule(const gc_device *d, const gc_rule *r, int depth, gc_eval *e);

/* The limit the range is a fraction of: 1 for absolute bounds; false with
 * e's verdict set where it is unknown. */
static bool find_limit(const gc_device *d, const gc_rule *r, int depth, gc_eval *e, double *limit)
{
    *limit = 1;
    if (r->limit_kind == GC_ABSOLUTE)
        return true;
    gc_state unknown = r->limit_required ? GC_FAILED : GC_UNJUDGED;
    const char *required = r->limit_required ? "; a CUDA device must report it" : "";
    if (r->limit_kind == GC_OTHER_FIGURE) {
        const gc_rule *other = gc_rule_named(r->limit);
        gc_eval o = {0};
        if (other && depth < 2)
            eval_rule(d, other, depth + 1, &o);
        if (!o.have || o.value <= 0) {
            e->state = unknown;
            say(e->reason, "limit unknown: the figure '%s' has no measured value%s", r->limit, required);
            return false;
        }
        *limit = o.value;
        return true;
    }
    char meta_name[128];
    results_name(r, ".meta.csv", meta_name, sizeof meta_name);
    const cr_csv_table *meta = gc_device_file(d, meta_name);
    const char *text = meta ? gc_meta_value(meta, r->limit) : NULL;
    const char *source = meta && r->limit_source ? gc_meta_value(meta, r->limit_source) : NULL;
    double v = 0;
    if (text == NULL || text[0] == '\0' || cr_number_fault(text, &v) != NULL || v <= 0) {
        char why[400];
        if (meta == NULL)
            snprintf(why, sizeof why, "no %s", meta_name);
        else if (text == NULL)
            snprintf(why, sizeof why, "%s has no key %s", meta_name, r->limit);
        else
            snprintf(why, sizeof why, "%s is '%s' in %s%s%.200s%s", r->limit, text, meta_name,
                     source && source[0] ? " (" : "", source ? source : "", source && source[0] ? ")" : "");
        e->state = unknown;
        say(e->reason, "limit unknown: %s%s", why, required);
        return false;
    }
    *limit = v;
    return true;
}

/* The row's size is at least min_cache_multiple x the device's cache; false
 * with e's verdict set where it is not, or the cache is unknown. */
static bool beyond_cache(const gc_device *d, const gc_rule *r, const cr_csv_table *t, long row, gc_eval *e)
{
    if (r->min_cache_multiple == 0)
        return true;
    char meta_name[128];
    results_name(r, ".meta.csv", meta_name, sizeof meta_name);
    const cr_csv_table *meta = gc_device_file(d, meta_name);
    const char *cache_text = meta ? gc_meta_value(meta, "device.cache_bytes") : NULL;
    uint64_t cache = 0, size = 0;
    if (cache_text == NULL || cr_count_fault(cache_text, &cache) != NULL || cache == 0) {
        e->state = GC_UNJUDGED;
        say(e->reason, "the device's L2 size is unknown (device.cache_bytes in %s): memory cannot be told from cache",
            meta_name);
        return false;
    }
    int size_col = cr_csv_column(t, "size_bytes");
    const char *size_text = t->rows[row].fields[size_col];
    if (cr_count_fault(size_text, &size) != NULL || size / r->min_cache_multiple < cache) {
        char a[32], c[32];
        cr_format_bytes(size, a, sizeof a);
        cr_format_bytes(cache, c, sizeof c);
        e->state = GC_FAILED;
        say(e->reason, "missing: the largest point (%s:%u) is %s, below %ux the %s L2: a cache figure, not memory's",
            base_name(t->path), t->rows[row].line,
            size_text[0] ? a : "of unknown size", r->min_cache_multiple, c);
        return false;
    }
    return true;
}

/* The measured value of the rule's row; false with e's verdict set where
 * there is none. */
static bool measure(const gc_rule *r, const cr_csv_table *t, long row, gc_eval *e)
{
    const char *file = base_name(t->path);
    unsigned line = t->rows[row].line;
    char **f = t->rows[row].fields;
    int note = cr_csv_column(t, "note");
    if (strcmp(f[cr_csv_column(t, "valid")], "1") != 0) {
        e->state = GC_FAILED;
        say(e->reason, "the row at %s:%u is invalid: %s", file, line, note >= 0 && f[note][0] ? f[note] : "(no note)");
        return false;
    }
    if (r->value == GC_FIGURE && strcmp(f[cr_csv_column(t, "unit")], r->unit) != 0) {
        e->state = GC_FAILED;
        say(e->reason, "the row at %s:%u is in '%s', not %s", file, line, f[cr_csv_column(t, "unit")], r->unit);
        return false;
    }
    const char *col_name = r->value == GC_CYCLES ? "cycles" : "figure";
    int col = cr_csv_column(t, col_name);
    if (col < 0 || f[col][0] == '\0') {
        /* A figure column is always there; cycles came later, and the
         * OpenCL backends have no clock counter to fill it. */
        e->state = r->value == GC_CYCLES ? GC_UNJUDGED : GC_FAILED;
        if (col < 0)
            say(e->reason, "%s has no %s column", file, col_name);
        else
            say(e->reason, "%sthe row at %s:%u has no %s", r->value == GC_CYCLES ? "" : "missing: ", file, line,
                col_name);
        return false;
    }
    if (cr_number_fault(f[col], &e->value) != NULL) {
        e->state = GC_FAILED;
        say(e->reason, "the row at %s:%u: %s '%s' is not a number", file, line, col_name, f[col]);
        return false;
    }
    e->have = true;
    char v[32];
    snprintf(e->measured, sizeof e->measured, "%s %s", num(v, sizeof v, e->value), r->unit);
    return true;
}

static void eval_rule(const gc_device *d, const gc_rule *r, int depth, gc_eval *e)
{
    memset(e, 0, sizeof *e);
    char file[128];
    results_name(r, ".csv", file, sizeof file);
    const cr_csv_table *t = gc_device_file(d, file);
    char why[200];
    if (t == NULL) {
        e->state = GC_FAILED;
        say(e->reason, "missing: no %s (the benchmark failed or did not run)", file);
        return;
    }
    if (why_empty(t, r->benchmark, why, sizeof why)[0] != '\0') {
        e->state = GC_FAILED;
        say(e->reason, "missing: %s: %s", file, why);
        return;
    }
    long row = pick_row(t, r);
    if (row < 0) {
        e->state = GC_FAILED;
        say(e->reason, "missing: no row of variant %s%s%s%s%s in %s", r->variant, r->dtype ? ", dtype " : "",
            r->dtype ? r->dtype : "", r->sweep ? ", sweep " : "", r->sweep ? r->sweep : "", file);
        return;
    }
    if (!measure(r, t, row, e) || !beyond_cache(d, r, t, row, e))
        return;
    double limit;
    bool known = find_limit(d, r, depth, e, &limit);
    if (!known) {
        snprintf(e->range, sizeof e->range, "%g..%g x %s", r->low, r->high, r->limit);
        return;
    }
    double lo = r->low * limit, hi = r->high * limit;
    char a[32], b[32], c[32];
    if (r->limit_kind == GC_ABSOLUTE)
        snprintf(e->range, sizeof e->range, "%s..%s %s", num(a, sizeof a, lo), num(b, sizeof b, hi), r->unit);
    else
        snprintf(e->range, sizeof e->range, "%s..%s %s (%.2f..%.2f x %s, %s)", num(a, sizeof a, lo),
                 num(b, sizeof b, hi), r->unit, r->low, r->high, num(c, sizeof c, limit), r->limit);
    char where[200];
    snprintf(where, sizeof where, "%s:%u", file, t->rows[row].line);
    if (e->value <= 0 || e->value < lo || e->value > hi) {
        bool below = e->value <= 0 || e->value < lo;
        e->state = GC_FAILED;
        if (r->limit_kind == GC_ABSOLUTE)
            say(e->reason, "%s the plausible range: %s %s %s %s %s (%s)", below ? "below" : "above",
                num(a, sizeof a, e->value), r->unit, below ? "<" : ">", num(b, sizeof b, below ? lo : hi), r->unit,
                where);
        else
            say(e->reason, "%s the plausible range: %.3g x %s (%s)", below ? "below" : "above", e->value / limit,
                r->limit, where);
    } else {
        e->state = GC_OK;
        say(e->reason, "%s", where);
    }
}

static void judge_figures(const gc_device *d, gc_verdicts *v)
{
    for (size_t i = 0; i < gc_rule_count(); ++i) {
        gc_eval e;
        eval_rule(d, gc_rule_at(i), 0, &e);
        gc_line *l = add_line(v, d->dir, e.state, gc_rule_at(i)->figure);
        snprintf(l->measured, sizeof l->measured, "%s", e.have ? e.measured : "-");
        snprintf(l->range, sizeof l->range, "%s", e.range[0] ? e.range : "-");
        snprintf(l->reason, sizeof l->reason, "%s", e.reason);
    }
}

void gc_judge(const gc_run *run, unsigned gpus_visible, gc_verdicts *v)
{
    memset(v, 0, sizeof *v);
    judge_tasks(run, gpus_visible, v);
    for (size_t i = 0; i < run->ndevices; ++i) {
        judge_validity(&run->devices[i], v);
        judge_figures(&run->devices[i], v);
    }
    if (gpus_visible == 0 && !ran_on_a_device(run) && v->count[GC_FAILED] == 0) {
        v->nothing_to_check = true;
        snprintf(v->why_none, sizeof v->why_none, "%s",
                 run->ntasks ? run->tasks[0].reason : "no CUDA benchmark in the run log");
    }
}

void gc_verdicts_free(gc_verdicts *v)
{
    free(v->lines);
    memset(v, 0, sizeof *v);
}
