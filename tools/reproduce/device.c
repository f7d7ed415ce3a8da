#define _GNU_SOURCE
#include "reproduce/device.h"
#include "shared/names.h"

#include "error.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What the directory holds that a comparison reads: every CSV but the
 * reproduction's own, which a second run would otherwise read back. */
static bool is_input(const char *name)
{
    return name[0] != '.' && cr_ends_with(name, ".csv") && strncmp(name, "reproduce", 9) != 0 &&
           strlen(name) < sizeof ((rr_file *)0)->name;
}

static int load_one(rr_device *d, const char *name, char *err, size_t errlen)
{
    char path[sizeof d->path + 300];
    snprintf(path, sizeof path, "%s/%s", d->path, name);
    rr_file *v = realloc(d->files, (d->nfiles + 1) * sizeof *v);
    if (v == NULL)
        return cr_errf(err, errlen, "%s: out of memory", path);
    d->files = v;
    rr_file *f = &v[d->nfiles];
    memset(f, 0, sizeof *f);
    if (cr_csv_load(&f->table, path, cr_schema_for(path), err, errlen) != 0)
        return -1;
    snprintf(f->name, sizeof f->name, "%s", name);
    d->nfiles++;
    return 0;
}

int rr_device_load(rr_device *d, const char *path, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (strlen(path) >= sizeof d->path)
        return cr_errf(err, errlen, "%s: the path is over %zu bytes", path, sizeof d->path - 1), RR_BAD_DIR;
    snprintf(d->path, sizeof d->path, "%s", path);
    struct dirent **ents;
    int n = scandir(path, &ents, NULL, cr_dirent_by_name);
    if (n < 0)
        return cr_errf(err, errlen, "%s: %s", path, strerror(errno)), RR_BAD_DIR;
    int status = 0;
    for (int i = 0; i < n; ++i) {
        if (status == 0 && is_input(ents[i]->d_name) && load_one(d, ents[i]->d_name, err, errlen) != 0)
            status = RR_BAD_FILE;
        free(ents[i]);
    }
    free(ents);
    if (status == 0 && rr_results_any(d) == NULL)
        return cr_errf(err, errlen, "%s holds no benchmark's results: not a device directory of a run", path),
               RR_BAD_DIR;
    return status;
}

void rr_device_free(rr_device *d)
{
    while (d->nfiles > 0)
        cr_csv_free(&d->files[--d->nfiles].table);
    free(d->files);
    d->files = NULL;
}

const rr_file *rr_results_any(const rr_device *d)
{
    for (size_t i = 0; i < d->nfiles; ++i)
        if (d->files[i].table.nrows > 0 && cr_results_benchmark(d->files[i].name) != NULL)
            return &d->files[i];
    return NULL;
}

/* The first file whose name is what, or holds what's results. */
static const rr_file *find(const rr_device *d, const char *what, bool results)
{
    for (size_t i = 0; i < d->nfiles; ++i) {
        const char *name = d->files[i].name, *b = results ? cr_results_benchmark(name) : name;
        if (b != NULL && strcmp(b, what) == 0)
            return &d->files[i];
    }
    return NULL;
}

const rr_file *rr_results(const rr_device *d, const char *benchmark)
{
    return find(d, benchmark, true);
}

const rr_file *rr_named(const rr_device *d, const char *name)
{
    return find(d, name, false);
}

const rr_file *rr_beside(const rr_device *d, const char *benchmark, const char *kind)
{
    const rr_file *r = rr_results(d, benchmark);
    if (r == NULL)
        return NULL;
    char name[sizeof r->name + 40];
    snprintf(name, sizeof name, "%.*s.%s.csv", (int)(strlen(r->name) - 4), r->name, kind);
    return rr_named(d, name);
}

const char *rr_get(const rr_file *f, size_t row, const char *col)
{
    int c = cr_csv_column(&f->table, col);
    return c < 0 || row >= f->table.nrows ? "" : f->table.rows[row].fields[c];
}

double rr_num(const rr_file *f, size_t row, const char *col)
{
    double v;
    const char *s = rr_get(f, row, col);
    return *s && cr_number_fault(s, &v) == NULL ? v : NAN;
}

double rr_param(const rr_file *f, size_t row, const char *key)
{
    char buf[64];
    double v;
    if (!cr_params_get(rr_get(f, row, "params"), key, buf, sizeof buf))
        return NAN;
    return cr_number_fault(buf, &v) == NULL ? v : NAN;
}

static const char *meta_in(const rr_file *f, const char *key)
{
    const char *found = "";
    for (size_t i = 0; i < f->table.nrows; ++i)
        if (strcmp(rr_get(f, i, "key"), key) == 0 && *rr_get(f, i, "value"))
            found = rr_get(f, i, "value");
    return found;
}

const char *rr_meta(const rr_device *d, const char *benchmark, const char *key)
{
    const rr_file *own = benchmark ? rr_beside(d, benchmark, "meta") : NULL;
    if (own != NULL && *meta_in(own, key))
        return meta_in(own, key);
    const char *found = "";
    for (size_t i = 0; i < d->nfiles; ++i)
        if (cr_ends_with(d->files[i].name, ".meta.csv") && *meta_in(&d->files[i], key))
            found = meta_in(&d->files[i], key);
    return found;
}
