/* The latency benchmark's backend contract. The experiment design
 * (design.c) owns the permutation, the footprint sweep, the steps,
 * the verification and the CSV; a backend only uploads the chain, runs one
 * work-item along it and times the run. The host's own walk implements the
 * same contract.
 *
 * Kernel semantics: one work-item (one thread) starts at word `start` of
 * the uploaded buffer and follows it `steps` times, each load's value being
 * the word offset of the next load (chase.h, the one loop of the OpenCL
 * and host walkers):
 *     idx = start; repeat steps times: idx = next[idx]; *end = idx
 * Every load depends on the one before, so the time per step is the
 * latency of one load from wherever the footprint lives (Li's L_$ or L).
 * A chain in several pieces (pieces.h) is walked the same way, over word
 * indices of the whole chain, each load's piece chosen from its index.
 * A backend whose language has pointers to global memory (CUDA) may hold
 * each word's target as an address instead (address.h), so that no index
 * arithmetic lies between two loads; the contract is the same in words:
 * where the walk starts and where it ends. */
#ifndef CR_LATENCY_BACKEND_H
#define CR_LATENCY_BACKEND_H

#include "bench_main.h"
#include "cr.h"
#include "device.h"
#include "latency/address.h"
#include "latency/pieces.h"
#include "timer.h"

#include <stdbool.h>
#include <stdint.h>

#define LT_MAX_LEVELS 5

/* A cache level a single work-item can fill: the share of one core or SM
 * for private levels, the whole cache for shared ones. */
typedef struct {
    char name[8];        /* "L1", "L2", "L3"; "cache" where the API does not say which level */
    uint64_t bytes;
    char source[96];     /* where the size comes from, for the CSV */
} lt_cache_level;

typedef struct {
    unsigned line_bytes; /* element stride: one element per line, so every step loads a line of its own */
    char line_source[96];
    unsigned count;      /* levels, smallest first; 0 when the API reports none */
    lt_cache_level level[LT_MAX_LEVELS];
} lt_caches;

/* What one walk reports besides its timing. */
typedef struct {
    uint64_t end;    /* the word the walk ended on */
    bool has_cycles; /* false where the backend has no clock of the core that walked */
    uint64_t cycles; /* that core's clock cycles over the walk's loop, counted by the core itself */
} lt_walk_out;

typedef struct {
    cr_backend_base base;
    /* The line size and the cache levels the API reports about the open
     * device. A CPU device's levels come from the host topology instead
     * (the design's choice), so a CPU backend may report none. */
    void (*caches)(lt_caches *out);
    /* Allocates the chain of layout->words 64-bit words in
     * layout->pieces buffers, piece p holding words lt_piece_first(p) on
     * (replacing the earlier chain), and copies next into them. A layout
     * of more pieces than max_pieces is refused. */
    cr_status (*prepare)(const lt_layout *layout, const uint64_t *next, char *err, size_t errlen);
    /* Walks `steps` loads from word `start`, blocking; the word it ends on
     * and the cycles it counted go to *out (read back outside the timed
     * interval). A start outside the buffer is refused
     * (lt_chain_check_start). */
    cr_status (*run)(uint64_t steps, uint64_t start, cr_timing *t, lt_walk_out *out, char *err, size_t errlen);
    /* The most pieces prepare takes: LT_MAX_PIECES where the API caps one
     * allocation below the device's memory; 1 where one allocation can
     * always hold the chain, and the design then never splits it. */
    unsigned max_pieces;
    /* Why a backend of max_pieces 1 never splits a chain, for the error
     * that refuses a forced piece size. */
    const char *one_piece_why;
} lt_backend;

int latency_main(int argc, char **argv, const lt_backend *backend);

/* The host's own pointer chase: one thread, plain C, the host monotonic
 * clock around the walk. The reference row for CPU and APU devices. */
extern const lt_backend lt_host_backend;

#endif
