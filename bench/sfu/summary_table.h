/* The SFU benchmark's summary, the analogue of Li's Tables 6.4 (single
 * precision) and 6.5 (double): one line per function, type and version
 * with latency, error, registers and throughput, written as CSV and as a
 * readable Markdown table beside the run's CSV. */
#ifndef CR_SFU_SUMMARY_TABLE_H
#define CR_SFU_SUMMARY_TABLE_H

#include "sfu/functions.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    bool present;        /* the function, type and version ran */
    double latency_ns, latency_cycles;
    double mean_rel, max_rel, max_ulp; /* typical domain */
    double max_ulp_wide;
    double bound_ulp;    /* the specification's bound; NaN where none */
    char ftz[16];        /* "none", "inputs", "results", "both", "" (not probed) */
    int registers;       /* -1: the API does not say */
    double gops, per_cu_gops, speedup; /* plateau throughput; speedup over the precise version */
    bool valid;          /* every row of it verified */
    char flags[96];      /* the throughput row's plausibility flags, and their reasons */
    char note[480];
} sfu_summary_entry;

typedef sfu_summary_entry sfu_summary_table[SFU_NFUNCS][CR_NDTYPES][SFU_NVERSIONS];

/* A fast version faster or slower than precise by more than this, with
 * errors identical to precise's, is no difference in code that the errors
 * show: the speed-up is flagged. */
#define SFU_UNBACKED_SPEEDUP 0.15

/* Flags every speed-up that SFU_UNBACKED_SPEEDUP says is not backed by a
 * difference in error ("unbacked-speedup", with the reason in the note). */
void sfu_summary_flag_unbacked(sfu_summary_table *table);

/* CSV column names of the table, in order. */
extern const char *const sfu_summary_table_columns[];
extern const size_t sfu_summary_table_ncolumns;

/* Writes <base>.table.csv and <base>.table.md atomically, the versions in
 * the backend's order. Returns 0, or -1 with err set. */
int sfu_summary_table_write(const char *base, const sfu_summary_table *table, const sfu_version *versions,
                            size_t nversions, char *err, size_t errlen);

#endif
