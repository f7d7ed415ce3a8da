#include "stream/truth.h"

#include "random.h"
#include "stream/elements.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Bytes moved per kernel follow STREAM's convention: every array read or
 * written counts once; write-allocate traffic is not counted. */
const stream_kernel_desc stream_kernels[STREAM_NKERNELS] = {
    [STREAM_COPY] = {"copy", 2, STREAM_C},
    [STREAM_MUL] = {"mul", 2, STREAM_B},
    [STREAM_ADD] = {"add", 3, STREAM_C},
    [STREAM_TRIAD] = {"triad", 3, STREAM_A},
    [STREAM_DOT] = {"dot", 2, STREAM_A},
};

void stream_fill_random(cr_dtype t, void *dst, uint64_t n, uint64_t *state)
{
    if (t == CR_DOUBLE) {
        double *d = dst;
        for (uint64_t i = 0; i < n; ++i) {
            uint64_t bits = UINT64_C(0x3FF0000000000000) | (cr_splitmix64(state) >> 12);
            memcpy(&d[i], &bits, sizeof bits);
        }
    } else {
        float *f = dst;
        for (uint64_t i = 0; i < n; i += 2) {
            uint64_t r = cr_splitmix64(state);
            uint32_t lo = UINT32_C(0x3F800000) | (uint32_t)(r & 0x7FFFFF);
            memcpy(&f[i], &lo, sizeof lo);
            if (i + 1 < n) {
                uint32_t hi = UINT32_C(0x3F800000) | (uint32_t)((r >> 32) & 0x7FFFFF);
                memcpy(&f[i + 1], &hi, sizeof hi);
            }
        }
    }
}

/* Every element of the arrays through one element operation of elements.h. */
#define EACH(OP) for (uint64_t i = 0; i < n; ++i) OP(A, B, C, s, i)

#define APPLY(T)                                                                                         \
    do {                                                                                                 \
        T *A = a, *B = b, *C = c;                                                                        \
        const T s = (T)scalar;                                                                           \
        switch (k) {                                                                                     \
        case STREAM_COPY: EACH(STREAM_COPY_AT); break;                                                   \
        case STREAM_MUL: EACH(STREAM_MUL_AT); break;                                                     \
        case STREAM_ADD: EACH(STREAM_ADD_AT); break;                                                     \
        case STREAM_TRIAD: EACH(STREAM_TRIAD_AT); break;                                                 \
        case STREAM_DOT: {                                                                               \
            long double sum = 0;                                                                         \
            for (uint64_t i = 0; i < n; ++i) sum += (long double)A[i] * (long double)B[i];               \
            return sum;                                                                                  \
        }                                                                                                \
        default: break;                                                                                  \
        }                                                                                                \
    } while (0)

long double stream_apply_gold(stream_kernel k, cr_dtype t, void *a, void *b, void *c, uint64_t n, double scalar)
{
    if (t == CR_DOUBLE)
        APPLY(double);
    else
        APPLY(float);
    return 0;
}

uint64_t stream_compare(stream_kernel k, cr_dtype t, const void *got, const void *want, uint64_t n,
                        uint64_t *first_bad)
{
    uint64_t bad = 0;
    /* A fused multiply-add on the device and separate operations in the
     * gold code differ by about one rounding; 4 eps is safely above that and
     * far below any real error. Copy must be bit-exact. */
    double rel = k == STREAM_COPY ? 0.0 : 4.0 * (t == CR_DOUBLE ? DBL_EPSILON : FLT_EPSILON);
    for (uint64_t i = 0; i < n; ++i) {
        double g = t == CR_DOUBLE ? ((const double *)got)[i] : ((const float *)got)[i];
        double w = t == CR_DOUBLE ? ((const double *)want)[i] : ((const float *)want)[i];
        if (!(fabs(g - w) <= rel * fabs(w))) { /* also catches NaN */
            if (bad == 0)
                *first_bad = i;
            ++bad;
        }
    }
    return bad;
}

double stream_dot_tolerance(cr_dtype t, uint64_t n, uint64_t work_items)
{
    /* With positive terms, a sum whose longest chain of dependent additions
     * has m steps has relative error at most about m*eps. The longest chain:
     * one block, the block sums of one work-item, and a log2 tree across
     * work-items; the multiplications add one rounding each. */
    double eps = t == CR_DOUBLE ? DBL_EPSILON : FLT_EPSILON;
    if (work_items == 0)
        work_items = 1;
    uint64_t per_item = (n + work_items - 1) / work_items;
    double chain = (double)STREAM_DOT_BLOCK + ceil((double)per_item / STREAM_DOT_BLOCK) +
                   ceil(log2((double)work_items + 1)) + 4;
    return chain * eps;
}
