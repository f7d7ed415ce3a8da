#include "fma/truth.h"

#include "fma/chain.h"
#include "random.h"

#include <math.h>
#include <string.h>

/* Chains are advanced a block at a time, all steps of the block together,
 * so that the compiler can run a block's chains in SIMD lanes side by side
 * (this file is built for the host's own vector width) and the host keeps
 * up with the device it checks. */
#define BLOCK 128

/* C's fmaf and fma: correctly rounded, as the kernels' are. */
#define FMA_FUSED(x, a, b) _Generic((x), float: fmaf, default: fma)((x), (a), (b))

void fma_fill_seeds(cr_dtype dtype, void *seeds, uint64_t n, uint64_t rng)
{
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t r = cr_splitmix64(&rng);
        if (dtype == CR_FLOAT) {
            uint32_t bits = UINT32_C(0x3f800000) | (uint32_t)(r & UINT32_C(0x7fffff));
            memcpy((float *)seeds + i, &bits, sizeof bits);
        } else {
            uint64_t bits = UINT64_C(0x3ff0000000000000) | (r & UINT64_C(0xfffffffffffff));
            memcpy((double *)seeds + i, &bits, sizeof bits);
        }
    }
}

uint64_t fma_sample_count(uint64_t chains) { return chains < FMA_VERIFY_SAMPLE ? chains : FMA_VERIFY_SAMPLE; }

uint64_t fma_sample_chain(uint64_t i, uint64_t count, uint64_t chains)
{
    if (count <= 1)
        return 0;
    /* i * (chains - 1) / (count - 1) without overflowing 64 bits. */
    uint64_t span = chains - 1, steps = count - 1;
    return i / steps * span + (i % steps) * (span / steps) + (i % steps) * (span % steps) / steps;
}

static void advance_float(float *x, float a, float b, uint32_t iters)
{
    for (uint32_t s = 0; s < iters; ++s)
        for (int c = 0; c < BLOCK; ++c)
            FMA_CHAIN_STEP(x[c], a, b);
}

static void advance_double(double *x, double a, double b, uint32_t iters)
{
    for (uint32_t s = 0; s < iters; ++s)
        for (int c = 0; c < BLOCK; ++c)
            FMA_CHAIN_STEP(x[c], a, b);
}

void fma_truth_chains(cr_dtype dtype, const void *seeds, const uint64_t *idx, uint64_t n, double a, double b,
                  uint32_t iters, void *expected)
{
    int64_t blocks = (int64_t)((n + BLOCK - 1) / BLOCK);
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t k = 0; k < blocks; ++k) {
        uint64_t first = (uint64_t)k * BLOCK;
        uint64_t count = n - first < BLOCK ? n - first : BLOCK;
        if (dtype == CR_FLOAT) {
            float x[BLOCK] = {0};
            for (uint64_t c = 0; c < count; ++c)
                x[c] = ((const float *)seeds)[idx[first + c]];
            advance_float(x, (float)a, (float)b, iters);
            memcpy((float *)expected + first, x, count * sizeof *x);
        } else {
            double x[BLOCK] = {0};
            for (uint64_t c = 0; c < count; ++c)
                x[c] = ((const double *)seeds)[idx[first + c]];
            advance_double(x, a, b, iters);
            memcpy((double *)expected + first, x, count * sizeof *x);
        }
    }
}

uint64_t fma_compare(cr_dtype dtype, const void *got, const uint64_t *idx, const void *expected, uint64_t n,
                     uint64_t *first)
{
    size_t size = cr_dtype_size(dtype);
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; ++i)
        if (memcmp((const char *)got + idx[i] * size, (const char *)expected + i * size, size) != 0 && bad++ == 0)
            *first = i;
    return bad;
}
