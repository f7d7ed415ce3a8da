/* The FMA benchmark's host truth, which needs no device: the operands and
 * seeds of the chains, which chains are checked, and the host's own
 * computation of them, bit for bit (fma is correctly rounded, so a device
 * that computes a true fused multiply-add in the run's type gets exactly
 * these values). */
#ifndef CR_FMA_TRUTH_H
#define CR_FMA_TRUTH_H

#include "cr.h"

#include <stdint.h>

/* x = fma(x, a, b) with a = 1 - 2^-20 and b = 0x1.921fb6p-19 (about
 * pi * 2^-20; both exact in float): the chains move from their seeds in
 * [1, 2) towards b / (1 - a), about 3.14, by a millionth of the distance
 * per step. Every value stays a normal number between 1 and 3.15; b's
 * mantissa is full, so each step rounds and a multiply followed by an add
 * gives other values than the fused operation within a few steps; and the
 * values keep changing for about 2 million steps in float and 23 million in
 * double, so the result also says how many steps were taken. */
#define FMA_OPERAND_A (1.0 - 0x1p-20)
#define FMA_OPERAND_B 0x1.921fb6p-19

/* Chains checked per run at most; more are sampled evenly. */
#define FMA_VERIFY_SAMPLE 4096u

/* Fills seeds[0..n) of dtype with values in [1, 2) with random mantissas,
 * reproducible from rng. */
void fma_fill_seeds(cr_dtype dtype, void *seeds, uint64_t n, uint64_t rng);

/* How many of `chains` chains are checked: all of them up to
 * FMA_VERIFY_SAMPLE, else FMA_VERIFY_SAMPLE. */
uint64_t fma_sample_count(uint64_t chains);

/* The i-th checked chain (i < count): evenly spread from the first chain
 * (i = 0) to the last (i = count - 1), strictly increasing. */
uint64_t fma_sample_chain(uint64_t i, uint64_t count, uint64_t chains);

/* expected[i] = chain idx[i] of seeds after iters steps x = fma(x, a, b),
 * computed in dtype with C's fmaf / fma, for i < n. */
void fma_truth_chains(cr_dtype dtype, const void *seeds, const uint64_t *idx, uint64_t n, double a, double b,
                  uint32_t iters, void *expected);

/* Compares got[idx[i]] with expected[i] bit for bit for i < n. Returns the
 * number of mismatches and, when there is one, the first in *first. */
uint64_t fma_compare(cr_dtype dtype, const void *got, const uint64_t *idx, const void *expected, uint64_t n,
                     uint64_t *first);

#endif
