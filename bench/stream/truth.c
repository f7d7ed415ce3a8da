#include "stream/truth.h"

#include "ones_window.h"
#include "random.h"
#include "stream/elements.h"

#include <float.h>
#include <math.h>

/* Bytes moved per kernel follow STREAM's convention: every array read or
 * written counts once; write-allocate traffic is not counted. */
const stream_kernel_desc stream_kernels[STREAM_NKERNELS] = {
    [STREAM_COPY] = {"copy", 2, STREAM_C},
    [STREAM_MUL] = {"mul", 2, STREAM_B},
    [STREAM_ADD] = {"add", 3, STREAM_C},
    [STREAM_TRIAD] = {"triad", 3, STREAM_A},
    [STREAM_DOT] = {"dot", 2, STREAM_A},
};

/* The gold dot: a compensated (Neumaier) sum of the products in long
 * double. A float product is exact there; the whole error is then about
 * 2 ulp of long double, negligible beside any device's (see
 * stream_dot_tolerance). */
static long double dot_reference(const void *a, const void *b, uint64_t n, bool is_double)
{
    long double sum = 0, comp = 0;
    for (uint64_t i = 0; i < n; ++i) {
        long double p = is_double ? (long double)((const double *)a)[i] * ((const double *)b)[i]
                                  : (long double)((const float *)a)[i] * ((const float *)b)[i];
        long double t = sum + p;
        comp += fabsl(sum) >= fabsl(p) ? (sum - t) + p : (p - t) + sum;
        sum = t;
    }
    return sum + comp;
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
        case STREAM_DOT: return dot_reference(A, B, n, sizeof *A == sizeof(double));                    \
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

/* gamma_k = k u / (1 - k u): the bound on prod (1 + d_j), |d_j| <= u, over k
 * roundings (Higham, Accuracy and Stability of Numerical Algorithms, 3.1). */
static double gamma_k(double k, double u) { return k * u < 1 ? k * u / (1 - k * u) : INFINITY; }

double stream_dot_tolerance(cr_dtype t, uint64_t n, uint64_t work_items)
{
    /* Rigorous, not a rule of thumb. Every term is positive, so whatever
     * the summation tree, the computed sum is sum p_i (1 + e_i) with
     * |e_i| <= gamma_D when no product meets more than D roundings on its
     * way to the result; then |dot - exact| <= gamma_D * exact. Under the
     * contract of backend.h a product meets, in type T: its own rounding
     * (none with an FMA), at most STREAM_DOT_BLOCK - 1 additions inside its
     * block whatever their order (vectorised, several accumulators), at
     * most one per block of its work-item's running sum, and ceil(log2)
     * levels of the tree over a work-group; then, in double, at most one
     * per work-item (the host's sum of the partials). Counting roundings
     * in double as T's would only loosen it. The gold is compensated and
     * its error, a few ulp of long double, is added. */
    bool dbl = t == CR_DOUBLE;
    double u = (dbl ? DBL_EPSILON : FLT_EPSILON) / 2, ud = DBL_EPSILON / 2;
    if (work_items == 0)
        work_items = 1;
    uint64_t per_item = n / work_items + (n % work_items != 0);
    double blocks = (double)(per_item / STREAM_DOT_BLOCK + (per_item % STREAM_DOT_BLOCK != 0));
    double depth = (double)STREAM_DOT_BLOCK + blocks + ceil(log2((double)work_items));
    double g = gamma_k(depth, u), gd = gamma_k((double)work_items, ud);
    double reference = 4 * (double)LDBL_EPSILON * (1 + (double)n * (double)LDBL_EPSILON);
    return g + gd + g * gd + reference;
}

/* T holds every integer up to 2^24 (float) or 2^53 (double) exactly; a
 * run has one product fewer, so a single extra product still lands on an
 * exact 2^24 (see truth.h). */
static uint64_t check_chunk(cr_dtype t)
{
    return t == CR_DOUBLE ? (UINT64_C(1) << 53) - 1 : (UINT64_C(1) << 24) - 1;
}

uint64_t stream_dot_check_runs(cr_dtype t, uint64_t n) { return cr_ones_windows(n, check_chunk(t)); }

void stream_dot_check_ones(cr_dtype t, void *dst, uint64_t n) { cr_fill_ones(t, dst, n); }

uint64_t stream_dot_check_fill(cr_dtype t, void *dst, uint64_t n, uint64_t run, uint64_t *first)
{
    return cr_fill_ones_window(t, dst, n, check_chunk(t), run, first);
}

bool stream_dot_check_ok(double got, uint64_t want) { return got == (double)want; }
