/* One device directory of a run, as energy-levels reads it: every results
 * CSV through the shared reader, the facts of the device its metadata
 * records (the last-level cache, whether the device has memory of its own),
 * and each benchmark's word on its energy sensor. */
#ifndef CR_ENERGY_LEVELS_DEVICE_DIR_H
#define CR_ENERGY_LEVELS_DEVICE_DIR_H

#include "shared/result_reader.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    char name[256];           /* the file's name in the directory: "stream-cuda.csv" */
    char benchmark[32];       /* what the name starts with: "stream" */
    cr_csv_table table;
    /* Why the benchmark measured no energy, from its sensor row (variant
     * "energy", sweep "sensor"): "" where the file has no such row. */
    char sensor_reason[480];
} el_results;

typedef enum { EL_UNKNOWN = -1, EL_NO = 0, EL_YES = 1 } el_tristate;

typedef struct {
    char path[4096];
    el_results *files; /* in name order */
    size_t nfiles;
    /* The last-level cache the device's arrays must outgrow, as the stream
     * benchmark sizes its sweep: the device's own cache, or on a CPU or a
     * device sharing the host's memory the larger of it and the host's;
     * 0 where the metadata says neither. */
    uint64_t llc_bytes;
    /* Whether the device has memory of its own behind a link (not a CPU,
     * not sharing the host's memory). */
    el_tristate discrete;
} el_device;

/* Reads the directory. Returns 0; EL_BAD_DIR with "PATH: why" in err (not
 * a directory, cannot be read); or EL_BAD_FILE with "PATH:LINE: why" (a
 * CSV the reader refuses). */
enum { EL_BAD_DIR = -1, EL_BAD_FILE = -2 };
int el_device_load(el_device *d, const char *path, char *err, size_t errlen);
void el_device_free(el_device *d);

/* A field of a row by column name; "" where the file has no such column. */
const char *el_field(const el_results *f, size_t row, const char *col);

#endif
