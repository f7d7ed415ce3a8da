/* A run directory as the GPU check reads it: run_all.sh's run log, and the
 * CSVs of every CUDA device directory it names, all loaded (and checked by
 * the shared reader) before anything is judged, so that bad input is one
 * line and exit 2 before any verdict is printed. */
#ifndef CR_GPU_CHECK_RUN_DATA_H
#define CR_GPU_CHECK_RUN_DATA_H

#include "shared/result_reader.h"

#include <stddef.h>

/* One CUDA benchmark's last record in the run log (a task run again after a
 * resume counts as it ended last). */
typedef struct {
    const char *task, *device_index, *device, *dir, *status, *reason; /* fields of the log's table */
    unsigned exit_code;
    unsigned line;
} gc_task;

typedef struct {
    char name[256]; /* "stream-cuda.csv", "stream-cuda.meta.csv" */
    cr_csv_table table; /* a file of no bytes: no columns and no rows */
} gc_file;

/* A directory where a CUDA benchmark ran on a device. */
typedef struct {
    const char *dir, *device;
    gc_file *files; /* every <benchmark>-cuda*.csv in it, by name */
    size_t nfiles;
} gc_device;

typedef struct {
    char root[4096];
    cr_csv_table log;
    gc_task *tasks;
    size_t ntasks;
    gc_device *devices;
    size_t ndevices;
} gc_run;

/* Loads root/run-log.csv and the CUDA CSVs of every device directory it
 * names. Returns 0, or -1 with err "PATH: why" or "PATH:LINE: why". */
int gc_run_load(gc_run *run, const char *root, char *err, size_t errlen);
void gc_run_free(gc_run *run);

/* The device directory's file of that name, or NULL. */
const cr_csv_table *gc_device_file(const gc_device *d, const char *name);

/* A key's value in a metadata table, or NULL where the key is absent. */
const char *gc_meta_value(const cr_csv_table *meta, const char *key);

#endif
