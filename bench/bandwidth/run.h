/* The state of one bandwidth run, shared by the design's modules, and what
 * each of them offers the others: the rows (rows.c), the host references
 * and the checks (references.c, checks.c), one path at one size
 * (measure_path.c), the transfer-model fits (fit_rows.c), the techniques
 * against the model (techniques.c), the topology and the paths matrix
 * (matrix_rows.c), the --paths selection (path_select.c). Backends never
 * see it; they are reached through bw_backend. */
#ifndef CR_BANDWIDTH_RUN_H
#define CR_BANDWIDTH_RUN_H

#include "bandwidth/backend.h"

#include "bandwidth/transfer_model.h"
#include "measure.h"
#include "options.h"
#include "results.h"
#include "session.h"

#include <stdbool.h>
#include <stdint.h>

/* A geometric range over 64-bit sizes has at most 64 values. */
#define BW_MAX_SIZES 64

/* Copies keep the single-thread memcpy as their reference (what a runtime's
 * copy does at best without help); the all-cores copy beside it shows what
 * the memory could give, in each copy's params. */
enum { BW_REF_MEMCPY, BW_REF_MEMCPY_MT, BW_REF_READ, BW_REF_WRITE, BW_NREFS };
extern const char *const bw_ref_names[BW_NREFS];

typedef struct {
    cr_range sizes;    /* all 0 until given */
    const char *paths; /* comma list of keys, NULL = all */
    bool list_paths;
    uint64_t seed;
    bool oversubscribe;
} bw_config;

typedef struct {
    cr_session ses;
    bw_config cfg;
    const bw_backend *be;
    const bw_path *paths; /* the backend's, in run order */
    size_t npaths;
    /* Per path, decided once the device is open: whether it runs (else
     * why not) and how many transfers of the size one repetition makes. */
    bool *runnable;
    char (*why)[CR_ERRLEN];
    unsigned *transfers;
    unsigned max_transfers; /* over the runnable paths: the check buffer holds that many of the largest size */
    cr_result *largest;     /* each path's latest verified row; the matrix takes it at the largest size */
    bool *has_largest;
    unsigned local_width;   /* the vector width of the local-memory path's best verified row, 0 none */
    cr_measure_ctx dev_meas, host_meas;
    uint64_t max_bytes;
    uint64_t local_bytes; /* the local-memory path's buffer (bw_local_buffer_bytes) */
    void *src, *check; /* the pattern of the current size, and a buffer to verify into */
    float *floats;     /* the techniques' inputs at the current size: floats in [1, 2) */
    double ref_figure[BW_NREFS]; /* host bandwidth at the current size, GB/s */
    const char *binding; /* how the OpenMP references' threads are placed */
} bw_run;

/* Transfers of the size one repetition of path p makes (only an API copy
 * makes several); 1 for a path that does not run. */
static inline unsigned bw_transfers_of(const bw_run *run, const bw_path *p) { return run->transfers[p - run->paths]; }

/* Whether the path moves bytes between memories the host also reaches:
 * then a host reference stands beside it and Lee's transfer model fits
 * it. A technique runs a whole workload, and the local-memory path
 * streams on-chip memory the host has no counterpart of. */
static inline bool bw_is_transfer(const bw_path *p) { return p->kind != BW_TECHNIQUE && p->kind != BW_KERNEL_LOCAL; }

/* ---- rows.c ---- */
void bw_init_row(cr_result *r, const char *backend, const char *device, const char *variant, const char *sweep,
                 uint64_t bytes);
/* A device row of this run: its backend and device. */
void bw_init_device_row(const bw_run *run, cr_result *r, const char *variant, const char *sweep, uint64_t bytes);
void bw_set_stats(cr_result *r, const cr_measurement *m);
/* Records a row, judged against the memory's peak where memory bounds it. */
int bw_record(bw_run *run, const cr_result *row);
/* A row that measures nothing: an unsupported path or cell, a topology link. */
void bw_init_unmeasured_row(const bw_run *run, cr_result *r, const char *variant, const char *sweep);
int bw_record_unsupported_row(bw_run *run, cr_result *r, const char *why);
int bw_record_unsupported(bw_run *run, const bw_path *p, const char *why);

/* ---- references.c ---- */
/* One repetition of reference `which` over bytes of the run's buffers. */
typedef struct {
    bw_run *run;
    int which;
    uint64_t bytes;
    uint64_t sum;
    /* The calls a repetition's timed loop took, and one call's time
     * (cr_host_loop_ns): kept for the next repetition of the same size. */
    uint64_t calls, call_ns;
} bw_ref_ctx;
cr_status bw_ref_rep(void *arg, cr_timing *t, char *err, size_t errlen);
/* The reference a path stands beside. */
int bw_reference_of(const bw_path *p);
/* Every reference at bytes, its row recorded and its figure kept in
 * run->ref_figure; 0, or -1. */
int bw_measure_references(bw_run *run, uint64_t bytes, uint64_t expected_sum);

/* ---- checks.c ---- */
uint64_t bw_word_sum(const void *p, uint64_t bytes);
/* Index of the first 32-bit word that is not bw_pattern_word(i, seed), or
 * UINT64_MAX when all are. */
uint64_t bw_first_pattern_mismatch(const void *p, uint64_t bytes, uint32_t seed);
uint64_t bw_first_byte_mismatch(const void *a, const void *b, uint64_t bytes);
/* Every byte of the copies' destinations (segments of bytes, one after
 * another) unlike the source's, so that a copy that misses a byte cannot
 * pass on what an earlier copy left there. */
void bw_spoil_copy_target(bw_run *run, uint64_t bytes, unsigned segments);
/* Checks what the repetitions of path p left behind; fills note on failure. */
bool bw_verify_path(bw_run *run, const bw_path *p, uint64_t bytes, uint64_t expected_sum, char *note, size_t len);

/* ---- measure_path.c ---- */
/* Measures one path at one size and records its rows; its total seconds
 * per repetition (all phases) go to *seconds, NaN if it did not run, and
 * whether its row passed verification to *valid (a valid point always has
 * a time). 0, or -1 where a row could not be written. */
int bw_measure_path(bw_run *run, const bw_path *p, uint64_t bytes, uint64_t expected_sum, double *seconds,
                    bool *valid);

/* ---- fit_rows.c ---- */
/* Fits the path over its valid points and records the fit row and a
 * fit-error row per size it has a time at; *fit and *fitted tell the
 * techniques' model whether there is a fit to predict from. */
int bw_record_fit(bw_run *run, const bw_path *p, const uint64_t *sizes, const double *seconds, const bool *valid,
                  size_t n, bw_fit *fit, bool *fitted);

/* ---- techniques.c ---- */
/* The techniques' rows against the model of their stages, and each
 * workload's ranking. */
int bw_record_techniques(bw_run *run, const uint64_t *sizes, size_t nsizes, double (*seconds)[BW_MAX_SIZES],
                         const bw_fit *fits, const bool *fitted);

/* ---- matrix_rows.c ---- */
int bw_record_topology(bw_run *run);
int bw_record_matrix(bw_run *run);

/* ---- path_select.c ---- */
bool bw_path_selected(const bw_run *run, const bw_path *p);
/* Every name in --paths must be a path of this backend: 0, or -1 having
 * said which is not. */
int bw_check_paths(const bw_run *run);

#endif
