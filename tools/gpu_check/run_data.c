#define _DEFAULT_SOURCE
#include "gpu_check/run_data.h"
#include "shared/names.h"

#include "error.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The run log's columns, in cr_schema_run_log's order. */
enum { L_TASK, L_BACKEND, L_INDEX, L_DEVICE, L_DIR, L_STATUS, L_EXIT, L_SECONDS, L_MODE, L_FINISHED, L_REASON, L_N };
static const char *const log_columns[L_N] = {"task",    "backend", "device_index", "device", "dir",   "status",
                                             "exit_code", "seconds", "mode",       "finished", "reason"};

/* The CUDA tasks of the log, the last record of each dir/task. */
static int collect_tasks(gc_run *run, const int *col, char *err, size_t errlen)
{
    const cr_csv_table *t = &run->log;
    run->tasks = calloc(t->nrows ? t->nrows : 1, sizeof *run->tasks);
    if (run->tasks == NULL)
        return cr_errf(err, errlen, "%s: out of memory", t->path);
    for (size_t i = 0; i < t->nrows; ++i) {
        char **f = t->rows[i].fields;
        if (strcmp(f[col[L_BACKEND]], "cuda") != 0)
            continue;
        gc_task task = {f[col[L_TASK]], f[col[L_INDEX]], f[col[L_DEVICE]], f[col[L_DIR]], f[col[L_STATUS]],
                        f[col[L_REASON]], (unsigned)strtoul(f[col[L_EXIT]], NULL, 10), t->rows[i].line};
        size_t k = 0;
        while (k < run->ntasks && !(strcmp(run->tasks[k].task, task.task) == 0 && strcmp(run->tasks[k].dir, task.dir) == 0))
            ++k;
        run->tasks[k] = task;
        if (k == run->ntasks)
            run->ntasks++;
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const gc_file *)a)->name, ((const gc_file *)b)->name);
}

/* Every <benchmark>-cuda*.csv of the device's directory, checked by the
 * schema its name says. A directory that is not there holds none: the
 * figures it should have had are then missing, which is a verdict. */
static int load_device_files(gc_run *run, gc_device *d, char *err, size_t errlen)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", run->root, d->dir);
    DIR *dir = opendir(path);
    if (dir == NULL)
        return 0;
    size_t cap = 0;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(dir)) != NULL) {
        if (!cr_ends_with(e->d_name, ".csv") || strstr(e->d_name, "-cuda") == NULL || strlen(e->d_name) >= 256)
            continue;
        if (d->nfiles == cap) {
            cap = cap ? 2 * cap : 8;
            gc_file *more = realloc(d->files, cap * sizeof *more);
            if (more == NULL) {
                rc = cr_errf(err, errlen, "%s: out of memory", path);
                break;
            }
            d->files = more;
        }
        gc_file *f = &d->files[d->nfiles];
        memset(f, 0, sizeof *f);
        snprintf(f->name, sizeof f->name, "%s", e->d_name);
        char file[8500];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        struct stat st;
        /* A file with nothing in it, not even a header, holds no rows:
         * its figures are missing, which is a verdict, not bad input. */
        if (stat(file, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
            snprintf(f->table.path, sizeof f->table.path, "%.4095s", file);
        else if (cr_csv_load(&f->table, file, cr_schema_for(file), err, errlen) != 0)
            rc = -1;
        if (rc == 0)
            d->nfiles++;
    }
    closedir(dir);
    if (rc == 0 && d->nfiles > 1)
        qsort(d->files, d->nfiles, sizeof *d->files, by_name);
    return rc;
}

int gc_run_load(gc_run *run, const char *root, char *err, size_t errlen)
{
    memset(run, 0, sizeof *run);
    snprintf(run->root, sizeof run->root, "%s", root);
    char path[4200];
    snprintf(path, sizeof path, "%s/run-log.csv", root);
    if (cr_csv_load(&run->log, path, &cr_schema_run_log, err, errlen) != 0)
        return -1;
    int col[L_N];
    if (cr_csv_require(&run->log, log_columns, L_N, col, err, errlen) != 0 ||
        collect_tasks(run, col, err, errlen) != 0)
        return -1;
    run->devices = calloc(run->ntasks ? run->ntasks : 1, sizeof *run->devices);
    if (run->devices == NULL)
        return cr_errf(err, errlen, "%s: out of memory", path);
    for (size_t i = 0; i < run->ntasks; ++i) {
        const gc_task *t = &run->tasks[i];
        /* A device's folder is a name within the run: another path would
         * judge files of some other place as this run's. */
        if (strchr(t->dir, '/') != NULL || strcmp(t->dir, ".") == 0 || strcmp(t->dir, "..") == 0)
            return cr_errf(err, errlen, "%s: %s's dir '%.200s' is not the name of a folder of the run", path,
                           t->task, t->dir);
        /* A benchmark that found no device ran in no device's directory; one
         * that ran on a device wrote into one, or nothing of it is judged. */
        if (t->device_index[0] != '\0' && t->dir[0] == '\0')
            return cr_errf(err, errlen, "%s: %s ran on device %s but names no folder of the run", path, t->task,
                           t->device_index);
        if (t->device_index[0] == '\0')
            continue;
        size_t k = 0;
        while (k < run->ndevices && strcmp(run->devices[k].dir, t->dir) != 0)
            ++k;
        if (k < run->ndevices)
            continue;
        run->devices[k] = (gc_device){.dir = t->dir, .device = t->device};
        run->ndevices++;
        if (load_device_files(run, &run->devices[k], err, errlen) != 0)
            return -1;
    }
    return 0;
}

void gc_run_free(gc_run *run)
{
    for (size_t i = 0; i < run->ndevices; ++i) {
        for (size_t k = 0; k < run->devices[i].nfiles; ++k)
            cr_csv_free(&run->devices[i].files[k].table);
        free(run->devices[i].files);
    }
    free(run->devices);
    free(run->tasks);
    cr_csv_free(&run->log);
    memset(run, 0, sizeof *run);
}

const cr_csv_table *gc_device_file(const gc_device *d, const char *name)
{
    for (size_t i = 0; i < d->nfiles; ++i)
        if (strcmp(d->files[i].name, name) == 0)
            return &d->files[i].table;
    return NULL;
}

const char *gc_meta_value(const cr_csv_table *meta, const char *key)
{
    int k = cr_csv_column(meta, "key"), v = cr_csv_column(meta, "value");
    if (k < 0 || v < 0)
        return NULL;
    for (size_t i = 0; i < meta->nrows; ++i)
        if (strcmp(meta->rows[i].fields[k], key) == 0)
            return meta->rows[i].fields[v];
    return NULL;
}
