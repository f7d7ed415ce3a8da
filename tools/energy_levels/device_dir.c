#define _GNU_SOURCE
#include "energy_levels/device_dir.h"
#include "shared/names.h"

#include "error.h"
#include "shared/descriptors.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *el_field(const el_results *f, size_t row, const char *col)
{
    int c = cr_csv_column(&f->table, col);
    return c < 0 ? "" : f->table.rows[row].fields[c];
}

static const char sensor_prefix[] = "no energy sensor: ";

/* The reason the sensor row gives, without the words every such row starts with. */
static void find_sensor_reason(el_results *f)
{
    for (size_t i = 0; i < f->table.nrows; ++i) {
        if (strcmp(el_field(f, i, "variant"), "energy") != 0 || strcmp(el_field(f, i, "sweep"), "sensor") != 0)
            continue;
        const char *note = el_field(f, i, "note");
        if (strncmp(note, sensor_prefix, sizeof sensor_prefix - 1) == 0)
            note += sizeof sensor_prefix - 1;
        snprintf(f->sensor_reason, sizeof f->sensor_reason, "%s", *note ? note : "the sensor row gives no reason");
        return;
    }
}

/* The device facts of one metadata file, each kept only where no file read
 * before gave it (the stream benchmark's is read first: its sweep is sized
 * by the same cache). */
typedef struct {
    uint64_t device_cache, host_llc;
    el_tristate is_cpu, unified;
    bool have_cache, have_llc;
} meta_facts;

static int read_meta(const char *path, meta_facts *m, char *err, size_t errlen)
{
    cr_csv_table t;
    if (cr_csv_load(&t, path, cr_schema_for(path), err, errlen) != 0)
        return -1;
    int kc = cr_csv_column(&t, "key"), vc = cr_csv_column(&t, "value");
    for (size_t i = 0; kc >= 0 && vc >= 0 && i < t.nrows; ++i) {
        const char *key = t.rows[i].fields[kc], *val = t.rows[i].fields[vc];
        uint64_t n;
        if (strcmp(key, "device.cache_bytes") == 0 && !m->have_cache && cr_count_fault(val, &n) == NULL) {
            m->device_cache = n;
            m->have_cache = true;
        } else if (strcmp(key, "llc_bytes") == 0 && !m->have_llc && cr_count_fault(val, &n) == NULL) {
            m->host_llc = n;
            m->have_llc = true;
        } else if (strcmp(key, "device.type") == 0 && m->is_cpu == EL_UNKNOWN && *val) {
            m->is_cpu = strcmp(val, "cpu") == 0 ? EL_YES : EL_NO;
        } else if (strcmp(key, "device.unified_memory") == 0 && m->unified == EL_UNKNOWN && *val) {
            m->unified = strcmp(val, "1") == 0 ? EL_YES : EL_NO;
        }
    }
    cr_csv_free(&t);
    return 0;
}

/* The metadata of the X-model's memory side first (the benchmark whose
 * descriptor says xmodel=memory, which sizes its sweep by the last-level
 * cache), then the others in name order. */
static int meta_rank(const char *name)
{
    const cr_descriptor *memory = cr_descriptor_xmodel("memory");
    size_t n = memory ? strlen(memory->name) : 0;
    return memory && strncmp(name, memory->name, n) == 0 && name[n] == '-' ? 0 : 1;
}

static int load_files(el_device *d, struct dirent **ents, int n, char *err, size_t errlen)
{
    meta_facts m = {.is_cpu = EL_UNKNOWN, .unified = EL_UNKNOWN};
    char path[sizeof d->path + 300];
    size_t metas = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < n; ++i) {
            const char *name = ents[i]->d_name;
            if (name[0] == '.' || !cr_ends_with(name, ".meta.csv") || meta_rank(name) != pass)
                continue;
            snprintf(path, sizeof path, "%s/%s", d->path, name);
            if (read_meta(path, &m, err, errlen) != 0)
                return EL_BAD_FILE;
            ++metas;
        }
    }
    for (int i = 0; i < n; ++i) {
        const char *name = ents[i]->d_name;
        if (name[0] == '.' || strlen(name) >= sizeof d->files[0].name)
            continue;
        snprintf(path, sizeof path, "%s/%s", d->path, name);
        if (cr_schema_for(path) != &cr_schema_results)
            continue;
        el_results *v = realloc(d->files, (d->nfiles + 1) * sizeof *v);
        if (v == NULL)
            return cr_errf(err, errlen, "%s: out of memory", path), EL_BAD_FILE;
        d->files = v;
        el_results *f = &v[d->nfiles];
        memset(f, 0, sizeof *f);
        if (cr_csv_load(&f->table, path, &cr_schema_results, err, errlen) != 0)
            return EL_BAD_FILE;
        d->nfiles++;
        snprintf(f->name, sizeof f->name, "%s", name);
        snprintf(f->benchmark, sizeof f->benchmark, "%.*s", (int)strcspn(name, "-"), name);
        find_sensor_reason(f);
    }
    /* A table of levels of nothing, written into any folder, would read
     * as a device's. */
    if (d->nfiles == 0 && metas == 0)
        return cr_errf(err, errlen, "%s holds no results (no benchmark's CSV or metadata): not a device directory",
                       d->path),
               EL_BAD_DIR;
    bool shares_host = m.is_cpu == EL_YES || m.unified == EL_YES;
    d->llc_bytes = m.device_cache;
    if (shares_host && m.host_llc > d->llc_bytes)
        d->llc_bytes = m.host_llc;
    d->discrete = shares_host ? EL_NO : m.is_cpu == EL_NO && m.unified == EL_NO ? EL_YES : EL_UNKNOWN;
    return 0;
}

int el_device_load(el_device *d, const char *path, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->discrete = EL_UNKNOWN;
    if (strlen(path) >= sizeof d->path)
        return cr_errf(err, errlen, "%.200s...: the path is too long", path), EL_BAD_DIR;
    snprintf(d->path, sizeof d->path, "%s", path);
    struct stat st;
    if (stat(path, &st) != 0)
        return cr_errf(err, errlen, "%s: %s", path, strerror(errno)), EL_BAD_DIR;
    if (!S_ISDIR(st.st_mode))
        return cr_errf(err, errlen, "%s: not a directory", path), EL_BAD_DIR;
    struct dirent **ents;
    int n = scandir(path, &ents, NULL, cr_dirent_by_name);
    if (n < 0)
        return cr_errf(err, errlen, "%s: %s", path, strerror(errno)), EL_BAD_DIR;
    int rc = load_files(d, ents, n, err, errlen);
    for (int i = 0; i < n; ++i)
        free(ents[i]);
    free(ents);
    if (rc != 0)
        el_device_free(d);
    return rc;
}

void el_device_free(el_device *d)
{
    for (size_t i = 0; i < d->nfiles; ++i)
        cr_csv_free(&d->files[i].table);
    free(d->files);
    d->files = NULL;
    d->nfiles = 0;
}
