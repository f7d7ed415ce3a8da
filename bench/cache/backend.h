/* The cache benchmark's backend contract. Every chase of the benchmark is
 * the latency benchmark's walker (latency/backend.h: prepare uploads a
 * chain of 64-bit next-word indices, run walks it with one work-item and
 * times it): the design builds the chains in whatever order a sweep needs
 * and hands them to that walker, which `chase` points at. What the walker
 * cannot do lies here: a chain the device reads in place from host memory
 * (huge pages on a CPU device), stores into the chain's buffer (the write
 * policy) and, where the API has them, chases with other kinds of load
 * (CUDA's cache operators).
 *
 * Store semantics (cc_store_pass, backend_common.h; the loop of both
 * kernels: store.h): one work-item writes `value` to word
 * first + i * stride_words of the prepared chain's buffer, for i < count,
 * `passes` times over, every store kept (volatile): the design never
 * lets these words be chain words. */
#ifndef CR_CACHE_BACKEND_H
#define CR_CACHE_BACKEND_H

#include "bench_main.h"
#include "cache/backend_common.h"
#include "cache/pattern_ops.h"
#include "cache/store.h"
#include "cr.h"
#include "latency/backend.h"
#include "timer.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    cr_backend_base base; /* opens the walker's device, and what the stores need */
    const lt_backend *chase;
    /* A chain of count words in one buffer that the stores may write:
     * in_place (only where in_place_ok) reads the caller's memory itself,
     * which must outlive the chain; else the words are copied. */
    cr_status (*prepare_writable)(uint64_t *words, uint64_t count, bool in_place, char *err, size_t errlen);
    bool in_place_ok; /* the device reads host memory in place at its own speed (a CPU device) */
    cr_status (*store)(const cc_store_pass *pass, cr_timing *t, char *err, size_t errlen);
    /* Copies count words from word first of the chain's buffer, to check
     * what the stores left. */
    cr_status (*read_words)(uint64_t first, uint64_t count, uint64_t *out, char *err, size_t errlen);
    /* Load kinds the chase can be made with besides the walker's own
     * (n_load_kinds 0: none; at most 4), and the walk with kind k <
     * n_load_kinds, semantics as the walker's run. Kind 0 is cached in
     * the first level, kind 1 bypasses it: the bypass footprint is where
     * 1 starts to win. */
    unsigned n_load_kinds;
    const char *const *load_kinds;
    const char *load_kinds_why; /* where there are none: why */
    cr_status (*run_kind)(unsigned kind, uint64_t steps, uint64_t start, cr_timing *t, lt_walk_out *out, char *err,
                          size_t errlen);
    const cc_pattern_ops *patterns; /* NULL: no pattern kernels */
} cc_backend;

int cache_main(int argc, char **argv, const cc_backend *backend);

#endif
