#define _POSIX_C_SOURCE 200809L
#include "xgraph/data.h"

#include "error.h"
#include "shared/descriptors.h"
#include "shared/result_reader.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Whether anything stands at path, a dangling link too: a name there that
 * is no regular file is the reader's to refuse, not an absent input. */
static bool named(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 || errno != ENOENT;
}

static int push(xg_point **v, size_t *n, xg_point p)
{
    /* The capacity doubles whenever n reaches a power of two, so n is the
     * only size to keep. */
    if ((*n & (*n - 1)) == 0) {
        xg_point *b = realloc(*v, (*n ? 2 * *n : 1) * sizeof *b);
        if (b == NULL)
            return -1;
        *v = b;
    }
    (*v)[(*n)++] = p;
    return 0;
}

static int by_k(const void *a, const void *b)
{
    const xg_point *p = a, *q = b;
    return (p->k > q->k) - (p->k < q->k);
}

static int dtype_index(const char *s)
{
    return strcmp(s, "float") == 0 ? 0 : strcmp(s, "double") == 0 ? 1 : -1;
}

/* ---- which benchmarks: the parts their descriptors give them (xmodel=) ---- */

static int find_parts(xg_data *d, char *err, size_t errlen)
{
    static const char *const parts[] = {"memory", "compute", "latency"};
    char *names[] = {d->memory_bench, d->compute_bench, d->latency_bench};
    cr_xmodel_rows *rows[] = {&d->memory_rows, &d->compute_rows, &d->latency_rows};
    for (size_t i = 0; i < 3; ++i) {
        const cr_descriptor *b = cr_descriptor_xmodel(parts[i]);
        snprintf(names[i], sizeof d->memory_bench, "%s", b ? b->name : "");
        *rows[i] = b ? b->xmodel_rows : (cr_xmodel_rows){0};
    }
    if (d->memory_bench[0] == '\0')
        return cr_errf(err, errlen, "no benchmark gives f(k): none has xmodel=memory in its descriptor");
    const char *v = d->memory_rows.variant;
    snprintf(d->fixed_param, sizeof d->fixed_param, "R_%.24s", v);
    snprintf(d->over_fixed_param, sizeof d->over_fixed_param, "R_over_%.24s", v);
    snprintf(d->fixed_ratio_param, sizeof d->fixed_ratio_param, "R_%.24s_host_ratio", v);
    return 0;
}

/* ---- which CSV of the memory side ---- */

/* The --sweeps that give the memory part its rows: "S" or "S,FIXED". */
static const char *memory_sweeps(const xg_data *d)
{
    static char s[64];
    const cr_xmodel_rows *r = &d->memory_rows;
    snprintf(s, sizeof s, "%s%s%s", r->sweep, r->fixed_sweep ? "," : "", r->fixed_sweep ? r->fixed_sweep : "");
    return s;
}

static int find_memory_csv(xg_data *d, const char *backend, char *err, size_t errlen)
{
    const char *bench = d->memory_bench;
    size_t pre = strlen(bench) + 1; /* "<bench>-" */
    if (backend) {
        snprintf(d->backend, sizeof d->backend, "%s", backend);
        snprintf(d->memory_csv, sizeof d->memory_csv, "%s/%s-%s.csv", d->dir, bench, backend);
        if (!named(d->memory_csv))
            return cr_errf(err, errlen, "%s: no such file: f(k) comes from the %s %s sweep", d->memory_csv, bench,
                           d->memory_rows.sweep);
        return 0;
    }
    DIR *dp = opendir(d->dir);
    if (dp == NULL)
        return cr_errf(err, errlen, "%s: %s", d->dir, strerror(errno));
    int found = 0;
    struct dirent *e;
    char names[2][sizeof e->d_name] = {"", ""};
    while ((e = readdir(dp)) != NULL) {
        const char *n = e->d_name;
        size_t len = strlen(n);
        if (strncmp(n, bench, pre - 1) != 0 || n[pre - 1] != '-' || len <= pre + 4 ||
            strcmp(n + len - 4, ".csv") != 0 || (len > 9 && strcmp(n + len - 9, ".meta.csv") == 0) ||
            len - pre - 4 >= sizeof d->backend)
            continue;
        if (found < 2)
            snprintf(names[found], sizeof names[found], "%s", n);
        if (found == 0)
            snprintf(d->backend, sizeof d->backend, "%.*s", (int)(len - pre - 4), n + pre);
        ++found;
    }
    closedir(dp);
    if (found == 0)
        return cr_errf(err, errlen, "%s: no %s-<backend>.csv: f(k) comes from the %s %s sweep "
                                    "(%s-opencl --sweeps %s --out %s)",
                       d->dir, bench, bench, d->memory_rows.sweep, bench, memory_sweeps(d), d->dir);
    if (found > 1)
        return cr_errf(err, errlen, "%s: %d %s CSVs (%s, %s, ...): pick one with --backend", d->dir, found, bench,
                       names[0], names[1]);
    snprintf(d->memory_csv, sizeof d->memory_csv, "%s/%s-%s.csv", d->dir, bench, d->backend);
    return 0;
}

/* ---- metadata: the compute-unit count ---- */

static int load_meta(xg_data *d, char *err, size_t errlen)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s-%s.meta.csv", d->dir, d->memory_bench, d->backend);
    cr_csv_table t;
    if (cr_csv_load(&t, path, &cr_schema_metadata, err, errlen) != 0) {
        if (named(path))
            return -1;
        return cr_errf(err, errlen, "%s: no such file: the compute-unit count comes from the %s run's metadata",
                       path, d->memory_bench);
    }
    static const char *const cols[] = {"key", "value"};
    int c[2];
    int rc = cr_csv_require(&t, cols, 2, c, err, errlen);
    double warp = NAN;
    d->compute_units = NAN;
    d->llc_bytes = NAN;
    double device_cache = NAN;
    d->peak_memory_gbs = d->peak_gflops[0] = d->peak_gflops[1] = NAN;
    static const char *const peak_keys[] = {"peak.memory_GBps", "peak.float_GFLOPs", "peak.double_GFLOPs"};
    double *peaks[] = {&d->peak_memory_gbs, &d->peak_gflops[0], &d->peak_gflops[1]};
    for (size_t i = 0; rc == 0 && i < t.nrows; ++i) {
        const char *key = t.rows[i].fields[c[0]], *val = t.rows[i].fields[c[1]];
        for (size_t k = 0; k < sizeof peak_keys / sizeof *peak_keys; ++k)
            if (strcmp(key, peak_keys[k]) == 0)
                rc = cr_csv_number(&t, i, c[1], true, peaks[k], err, errlen);
        if (strcmp(key, "peak.memory_source") == 0)
            snprintf(d->peak_memory_source, sizeof d->peak_memory_source, "%s", val);
        else if (strcmp(key, "peak.compute_source") == 0)
            snprintf(d->peak_compute_source, sizeof d->peak_compute_source, "%s", val);
        else if (strcmp(key, "device.compute_units") == 0) {
            rc = cr_csv_number(&t, i, c[1], false, &d->compute_units, err, errlen);
            if (rc == 0 && !(d->compute_units >= 1))
                rc = cr_errf(err, errlen, "%s:%u: device.compute_units is %s: no compute unit", path, t.rows[i].line,
                             val);
        } else if (strcmp(key, "llc_bytes") == 0) {
            rc = cr_csv_number(&t, i, c[1], true, &d->llc_bytes, err, errlen);
            if (rc == 0 && !(d->llc_bytes > 0))
                d->llc_bytes = NAN; /* 0: the topology did not tell */
        } else if (strcmp(key, "device.cache_bytes") == 0) {
            rc = cr_csv_number(&t, i, c[1], true, &device_cache, err, errlen);
        } else if (strcmp(key, "device.warp_size") == 0) {
            rc = cr_csv_number(&t, i, c[1], true, &warp, err, errlen);
        } else if (strcmp(key, "device.name") == 0) {
            snprintf(d->device, sizeof d->device, "%s", val);
        } else if (strcmp(key, "device.type") == 0) {
            d->is_cpu = strcmp(val, "cpu") == 0;
        }
    }
    /* A discrete GPU's arrays live behind its own cache, not the host's:
     * the larger of the two is the one they must outgrow. */
    if (device_cache > 0 && !(d->llc_bytes >= device_cache))
        d->llc_bytes = device_cache;
    if (rc == 0 && isnan(d->compute_units))
        rc = cr_errf(err, errlen, "%s: no device.compute_units row", path);
    cr_csv_free(&t);
    if (rc != 0)
        return -1;
    /* CUDA counts Li's way, warps per SM; OpenCL devices work-items per
     * compute unit (PoCL's CPU work-items are not grouped into warps). */
    if (strcmp(d->backend, "cuda") == 0) {
        d->threads_per_unit = warp > 1 ? warp : 32;
        snprintf(d->unit, sizeof d->unit, "warps/SM");
    } else {
        d->threads_per_unit = 1;
        snprintf(d->unit, sizeof d->unit, "work-items/CU");
    }
    return 0;
}

/* ---- the result CSVs ---- */

enum { C_BENCH, C_BACKEND, C_VARIANT, C_DTYPE, C_SWEEP, C_WI, C_PARAMS, C_FIGURE, C_VALID, C_NOTE, C_N };

static int open_results(cr_csv_table *t, const char *path, int *c, char *err, size_t errlen)
{
    static const char *const cols[C_N] = {"benchmark", "backend", "variant", "dtype",  "sweep",
                                          "work_items", "params", "figure",  "valid", "note"};
    if (cr_csv_load(t, path, &cr_schema_results, err, errlen) != 0)
        return -1;
    if (cr_csv_require(t, cols, C_N, c, err, errlen) != 0) {
        cr_csv_free(t);
        return -1;
    }
    return 0;
}

/* DIR/<bench>-<backend>.csv, whose name goes into path, opened into t
 * where it exists: an optional input. Returns 1 when open, 0 when there is
 * no such file (or no benchmark plays that part), -1 with err when it does
 * not read. */
static int open_optional(const xg_data *d, const char *bench, char *path, size_t len, cr_csv_table *t, int *c,
                         char *err, size_t errlen)
{
    snprintf(path, len, "%s/%s-%s.csv", d->dir, bench, d->backend);
    if (bench[0] == '\0' || !named(path))
        return 0;
    return open_results(t, path, c, err, errlen) == 0 ? 1 : -1;
}

/* A row's concurrency and figure (NaN where empty); the reader has checked
 * every field against the results schema already. */
static int check_row(const cr_csv_table *t, size_t i, const int *c, double *wi, double *fig, char *err,
                     size_t errlen)
{
    if (cr_csv_number(t, i, c[C_WI], true, wi, err, errlen) != 0 ||
        cr_csv_number(t, i, c[C_FIGURE], true, fig, err, errlen) != 0)
        return -1;
    return 0;
}

static bool used(const cr_csv_table *t, size_t i, const int *c, const char *bench, const xg_data *d)
{
    char **f = t->rows[i].fields;
    return strcmp(f[c[C_BENCH]], bench) == 0 && strcmp(f[c[C_BACKEND]], d->backend) == 0 &&
           strcmp(f[c[C_VALID]], "1") == 0;
}

/* A row of the sweep (and variant) that gives a part of the X-model. */
static bool of_part(char **f, const int *c, const cr_xmodel_rows *rows)
{
    return strcmp(f[c[C_SWEEP]], rows->sweep) == 0 && (!rows->variant || strcmp(f[c[C_VARIANT]], rows->variant) == 0);
}

/* Row i read (its concurrency and figure) and, where it is a valid row of
 * this backend from bench's rows of a part, the index of its type; -1
 * where it is not such a row, -2 with err where it does not read. */
static int part_row(const cr_csv_table *t, size_t i, const int *c, const xg_data *d, const char *bench,
                    const cr_xmodel_rows *rows, double *wi, double *fig, char *err, size_t errlen)
{
    if (check_row(t, i, c, wi, fig, err, errlen) != 0)
        return -2;
    char **f = t->rows[i].fields;
    return used(t, i, c, bench, d) && of_part(f, c, rows) ? dtype_index(f[c[C_DTYPE]]) : -1;
}

static int need_positive(const cr_csv_table *t, size_t i, const char *what, double v, char *err, size_t errlen)
{
    if (!(v > 0))
        return cr_errf(err, errlen, "%s:%u: %s is %s: a measured point needs a positive value", t->path,
                       t->rows[i].line, what, isnan(v) ? "empty" : "not positive");
    return 0;
}

static int load_memory(xg_data *d, char *err, size_t errlen)
{
    const cr_xmodel_rows *rows = &d->memory_rows;
    /* One iteration's accesses are all in flight together: Little's law
     * counts each. */
    for (int k = 0; k < XG_NDTYPES; ++k)
        d->dt[k].bytes_per_thread = rows->accesses * d->dt[k].element_bytes;
    cr_csv_table t;
    int c[C_N];
    if (open_results(&t, d->memory_csv, c, err, errlen) != 0)
        return -1;
    int rc = 0;
    double per_unit = d->threads_per_unit * d->compute_units;
    int c_ref = cr_csv_column(&t, "ref_ratio");   /* optional */
    int c_size = cr_csv_column(&t, "size_bytes"); /* optional */
    for (size_t i = 0; rc == 0 && i < t.nrows; ++i) {
        double wi, fig, ref = NAN, size = NAN;
        if ((rc = check_row(&t, i, c, &wi, &fig, err, errlen)) != 0 ||
            (c_ref >= 0 && (rc = cr_csv_number(&t, i, c_ref, true, &ref, err, errlen)) != 0) ||
            (c_size >= 0 && (rc = cr_csv_number(&t, i, c_size, true, &size, err, errlen)) != 0))
            break;
        char **f = t.rows[i].fields;
        int di = dtype_index(f[c[C_DTYPE]]);
        if (!used(&t, i, c, d->memory_bench, d) || strcmp(f[c[C_VARIANT]], rows->variant) != 0 || di < 0)
            continue;
        xg_dtype_data *dt = &d->dt[di];
        if (strcmp(f[c[C_SWEEP]], rows->sweep) == 0) {
            if ((rc = need_positive(&t, i, "work_items", wi, err, errlen)) != 0 ||
                (rc = need_positive(&t, i, "figure", fig, err, errlen)) != 0)
                break;
            if (push(&dt->f, &dt->nf, (xg_point){wi / per_unit, fig}) != 0 ||
                (ref > 0 && push(&dt->f_ref, &dt->nf_ref, (xg_point){wi / per_unit, ref}) != 0))
                rc = cr_errf(err, errlen, "out of memory");
            if (size > 0) {
                if (!(size >= dt->array_bytes_min))
                    dt->array_bytes_min = size;
                if (!(size <= dt->array_bytes_max))
                    dt->array_bytes_max = size;
            }
        } else if (rows->fixed_sweep && strcmp(f[c[C_SWEEP]], rows->fixed_sweep) == 0) {
            if ((rc = need_positive(&t, i, "figure", fig, err, errlen)) != 0)
                break;
            dt->fixed_figure = fig;
            dt->fixed_ref = ref > 0 ? ref : NAN;
            dt->fixed_line = t.rows[i].line;
        }
    }
    cr_csv_free(&t);
    for (int k = 0; rc == 0 && k < XG_NDTYPES; ++k)
        if (d->dt[k].nf)
            qsort(d->dt[k].f, d->dt[k].nf, sizeof *d->dt[k].f, by_k);
    if (rc == 0 && d->dt[0].nf + d->dt[1].nf == 0)
        rc = cr_errf(err, errlen, "%s: no valid %s rows of the %s sweep for backend %s: run %s-%s --sweeps %s",
                     d->memory_csv, rows->variant, rows->sweep, d->backend, d->memory_bench, d->backend,
                     memory_sweeps(d));
    return rc;
}

static xg_ilp_series *series_for(xg_dtype_data *dt, int ilp)
{
    for (size_t i = 0; i < dt->ng; ++i)
        if (dt->g[i].ilp == ilp)
            return &dt->g[i];
    if (dt->ng == XG_MAX_ILP)
        return NULL;
    xg_ilp_series *s = &dt->g[dt->ng++];
    *s = (xg_ilp_series){.ilp = ilp};
    return s;
}

static int by_ilp(const void *a, const void *b)
{
    const xg_ilp_series *p = a, *q = b;
    return (p->ilp > q->ilp) - (p->ilp < q->ilp);
}

/* A params value as a positive number, or an error naming the row. */
static int param_number(const cr_csv_table *t, size_t i, const char *params, const char *key, bool required,
                        double *out, char *err, size_t errlen)
{
    char buf[64];
    *out = NAN;
    if (!cr_params_get(params, key, buf, sizeof buf))
        return required ? cr_errf(err, errlen, "%s:%u: params has no %s=", t->path, t->rows[i].line, key) : 0;
    if (cr_number_fault(buf, out) != NULL || !(*out > 0))
        return cr_errf(err, errlen, "%s:%u: params %s='%s' is not a positive number", t->path, t->rows[i].line, key,
                       buf);
    return 0;
}

static int load_compute(xg_data *d, char *err, size_t errlen)
{
    cr_csv_table t;
    int c[C_N];
    int open = open_optional(d, d->compute_bench, d->compute_csv, sizeof d->compute_csv, &t, c, err, errlen);
    if (open <= 0)
        return open;
    d->have_compute = true;
    int rc = 0;
    double per_unit = d->threads_per_unit * d->compute_units;
    const char *want_unit = d->threads_per_unit > 1 ? "warps" : "work-items";
    for (size_t i = 0; rc == 0 && i < t.nrows; ++i) {
        double wi, fig, ilp, per_cu;
        int di = part_row(&t, i, c, d, d->compute_bench, &d->compute_rows, &wi, &fig, err, errlen);
        if (di < 0) {
            rc = di == -2 ? -1 : 0;
            continue;
        }
        const char *params = t.rows[i].fields[c[C_PARAMS]];
        if ((rc = param_number(&t, i, params, "ilp", true, &ilp, err, errlen)) != 0 ||
            (rc = param_number(&t, i, params, "per_cu", false, &per_cu, err, errlen)) != 0 ||
            (rc = need_positive(&t, i, "figure", fig, err, errlen)) != 0)
            break;
        char unit[32];
        if (!isnan(per_cu) && cr_params_get(params, "per_cu_unit", unit, sizeof unit) && strcmp(unit, want_unit)) {
            rc = cr_errf(err, errlen, "%s:%u: per_cu_unit=%s, but %s concurrency counts %s", t.path, t.rows[i].line,
                         unit, d->backend, want_unit);
            break;
        }
        if (isnan(per_cu)) {
            if ((rc = need_positive(&t, i, "work_items", wi, err, errlen)) != 0)
                break;
            per_cu = wi / per_unit;
        }
        if (ilp != floor(ilp) || ilp > 1024) {
            rc = cr_errf(err, errlen, "%s:%u: params ilp=%g is not a whole number up to 1024", t.path, t.rows[i].line,
                         ilp);
            break;
        }
        xg_dtype_data *dt = &d->dt[di];
        xg_ilp_series *s = series_for(dt, (int)ilp);
        if (s == NULL) {
            rc = cr_errf(err, errlen, "%s:%u: more than %d ILP values", t.path, t.rows[i].line, XG_MAX_ILP);
            break;
        }
        if (push(&s->pts, &s->n, (xg_point){per_cu, fig}) != 0)
            rc = cr_errf(err, errlen, "out of memory");
        if (!(fig <= dt->compute_best)) {
            dt->compute_best = fig;
            dt->compute_best_line = t.rows[i].line;
        }
    }
    cr_csv_free(&t);
    for (int k = 0; k < XG_NDTYPES; ++k) {
        xg_dtype_data *dt = &d->dt[k];
        qsort(dt->g, dt->ng, sizeof *dt->g, by_ilp);
        for (size_t e = 0; e < dt->ng; ++e)
            qsort(dt->g[e].pts, dt->g[e].n, sizeof *dt->g[e].pts, by_k);
    }
    return rc;
}

static int load_latency(xg_data *d, char *err, size_t errlen)
{
    cr_csv_table t;
    int c[C_N];
    int open = open_optional(d, d->latency_bench, d->latency_csv, sizeof d->latency_csv, &t, c, err, errlen);
    if (open == 0)
        snprintf(d->l_chase_note, sizeof d->l_chase_note, "no %s-%s.csv in the directory", d->latency_bench,
                 d->backend);
    if (open <= 0)
        return open;
    d->have_latency = true;
    snprintf(d->l_chase_note, sizeof d->l_chase_note, "no valid '%s' %s row for backend %s",
             d->latency_rows.variant, d->latency_rows.sweep, d->backend);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < t.nrows; ++i) {
        double wi, fig;
        if ((rc = check_row(&t, i, c, &wi, &fig, err, errlen)) != 0)
            break;
        char **f = t.rows[i].fields;
        if (!used(&t, i, c, d->latency_bench, d) || !of_part(f, c, &d->latency_rows))
            continue;
        if (isnan(fig)) {
            snprintf(d->l_chase_note, sizeof d->l_chase_note, "line %u: %s", t.rows[i].line, f[c[C_NOTE]]);
            continue;
        }
        if ((rc = need_positive(&t, i, "figure", fig, err, errlen)) != 0)
            break;
        d->l_chase_ns = fig;
        snprintf(d->l_chase_note, sizeof d->l_chase_note, "%s, '%s' %s (line %u; %s)", d->latency_bench,
                 d->latency_rows.variant, d->latency_rows.sweep, t.rows[i].line, f[c[C_PARAMS]]);
    }
    cr_csv_free(&t);
    return rc;
}

/* ---- an application's own f(k) ---- */

int xg_data_load_app(xg_data *d, const cr_descriptor *app, char *err, size_t errlen)
{
    snprintf(d->app_bench, sizeof d->app_bench, "%s", app->name);
    d->app_rows = app->xmodel_rows;
    cr_csv_table t;
    int c[C_N];
    int open = open_optional(d, d->app_bench, d->app_csv, sizeof d->app_csv, &t, c, err, errlen);
    if (open == 0)
        return cr_errf(err, errlen, "%s: no such file: --f-curve %s takes f(k) from its %s sweep", d->app_csv,
                       d->app_bench, d->app_rows.sweep);
    if (open < 0)
        return -1;
    int rc = 0;
    double per_unit = d->threads_per_unit * d->compute_units;
    for (size_t i = 0; rc == 0 && i < t.nrows; ++i) {
        double wi, fig;
        int di = part_row(&t, i, c, d, d->app_bench, &d->app_rows, &wi, &fig, err, errlen);
        if (di < 0) {
            rc = di == -2 ? -1 : 0;
            continue;
        }
        xg_dtype_data *dt = &d->dt[di];
        if ((rc = need_positive(&t, i, "work_items", wi, err, errlen)) == 0 &&
            (rc = need_positive(&t, i, "figure", fig, err, errlen)) == 0 &&
            push(&dt->app_f, &dt->napp, (xg_point){wi / per_unit, fig}) != 0)
            rc = cr_errf(err, errlen, "out of memory");
    }
    cr_csv_free(&t);
    for (int k = 0; rc == 0 && k < XG_NDTYPES; ++k)
        if (d->dt[k].napp)
            qsort(d->dt[k].app_f, d->dt[k].napp, sizeof *d->dt[k].app_f, by_k);
    if (rc == 0 && d->dt[0].napp + d->dt[1].napp == 0)
        rc = cr_errf(err, errlen, "%s: no valid %s rows of the %s sweep for backend %s", d->app_csv,
                     d->app_rows.variant, d->app_rows.sweep, d->backend);
    return rc;
}

int xg_data_load(xg_data *d, const char *dir, const char *backend, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    snprintf(d->dir, sizeof d->dir, "%s", dir);
    d->l_chase_ns = NAN;
    for (int k = 0; k < XG_NDTYPES; ++k) {
        xg_dtype_data *dt = &d->dt[k];
        dt->name = k ? "double" : "float";
        dt->element_bytes = k ? 8 : 4;
        dt->fixed_figure = dt->fixed_ref = NAN;
        dt->array_bytes_min = dt->array_bytes_max = NAN;
        dt->compute_best = NAN;
    }
    if (find_parts(d, err, errlen) != 0 || find_memory_csv(d, backend, err, errlen) != 0 ||
        load_meta(d, err, errlen) != 0 || load_memory(d, err, errlen) != 0 || load_compute(d, err, errlen) != 0 ||
        load_latency(d, err, errlen) != 0) {
        xg_data_free(d);
        return -1;
    }
    return 0;
}

void xg_data_free(xg_data *d)
{
    for (int k = 0; k < XG_NDTYPES; ++k) {
        free(d->dt[k].f);
        free(d->dt[k].f_ref);
        free(d->dt[k].app_f);
        d->dt[k].f = d->dt[k].f_ref = d->dt[k].app_f = NULL;
        d->dt[k].nf = d->dt[k].nf_ref = d->dt[k].napp = 0;
        for (size_t e = 0; e < d->dt[k].ng; ++e)
            free(d->dt[k].g[e].pts);
        d->dt[k].ng = 0;
    }
}
