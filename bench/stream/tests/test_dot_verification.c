/* The dot's verification at 16 Mi floats, where a single product is below
 * the float rounding of a correct dot: the rounding tolerance must pass
 * every order a backend may sum in (and cannot see one product), and the
 * coverage check must see any one product dropped, in every such order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "random.h"
#include "stream/truth.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N (UINT64_C(16) << 20)
#define SCALAR 0.4
#define NO_DROP UINT64_MAX

/* ---- float dots in the orders the backends use; product `drop` left out ---- */

/* Where a faulty kernel counts a product twice (NO_DROP: nowhere). */
static uint64_t repeated = NO_DROP;

static float product(const float *a, const float *b, uint64_t i, uint64_t drop)
{
    return i == drop ? 0.0f : i == repeated ? 2 * (a[i] * b[i]) : a[i] * b[i];
}

/* The OpenCL kernel on a CPU (CONTIGUOUS=1): w contiguous slices; per block
 * of STREAM_DOT_BLOCK four accumulators, then the running float sum; the
 * host adds the work-items' float partials in double. */
static double opencl_contiguous(const float *a, const float *b, uint64_t n, uint64_t w, uint64_t drop)
{
    double total = 0;
    uint64_t per = (n + w - 1) / w;
    for (uint64_t g = 0; g < w; ++g) {
        uint64_t beg = g * per < n ? g * per : n, end = beg + per < n ? beg + per : n;
        float mine = 0;
        for (uint64_t j0 = beg; j0 < end; j0 += STREAM_DOT_BLOCK) {
            uint64_t stop = j0 + STREAM_DOT_BLOCK < end ? j0 + STREAM_DOT_BLOCK : end, j = j0;
            float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (; j + 4 <= stop; j += 4) {
                s0 += product(a, b, j, drop);
                s1 += product(a, b, j + 1, drop);
                s2 += product(a, b, j + 2, drop);
                s3 += product(a, b, j + 3, drop);
            }
            for (; j < stop; ++j)
                s0 += product(a, b, j, drop);
            mine += (s0 + s1) + (s2 + s3);
        }
        total += mine;
    }
    return total;
}

/* The CUDA kernel: w work-items striding by w, one accumulator per block,
 * a float tree over work-groups of wg, pairwise double sum of the partials. */
static double cuda_strided(const float *a, const float *b, uint64_t n, uint64_t w, uint64_t wg, uint64_t drop)
{
    float *item = calloc(w, sizeof *item), *block = calloc(w, sizeof *block);
    unsigned *count = calloc(w, sizeof *count);
    double *partial = malloc(w / wg * sizeof *partial);
    assert_true(item && block && count && partial);
    /* Each work-item's additions in its own order, walked in memory order. */
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t g = i % w;
        block[g] += product(a, b, i, drop);
        if (++count[g] == STREAM_DOT_BLOCK) {
            item[g] += block[g];
            block[g] = 0;
            count[g] = 0;
        }
    }
    for (uint64_t g = 0; g < w; ++g)
        if (count[g])
            item[g] += block[g];
    free(block);
    free(count);
    for (uint64_t grp = 0; grp < w / wg; ++grp) {
        float *red = item + grp * wg;
        for (uint64_t active = wg; active > 1;) {
            uint64_t half = (active + 1) / 2;
            for (uint64_t t = 0; t < active - half; ++t)
                red[t] += red[t + half];
            active = half;
        }
        partial[grp] = red[0];
    }
    for (uint64_t step = 1; step < w / wg; step *= 2)
        for (uint64_t i = 0; i + step < w / wg; i += 2 * step)
            partial[i] += partial[i + step];
    double r = partial[0];
    free(item);
    free(partial);
    return r;
}

/* The host reference: blocks summed in 8 vector lanes (omp simd) in float,
 * the block sums in double. */
static double lanes_of_8(const float *a, const float *b, uint64_t n, uint64_t drop)
{
    double total = 0;
    for (uint64_t lo = 0; lo < n; lo += STREAM_DOT_BLOCK) {
        uint64_t hi = lo + STREAM_DOT_BLOCK < n ? lo + STREAM_DOT_BLOCK : n;
        float lane[8] = {0};
        for (uint64_t i = lo; i < hi; ++i)
            lane[i % 8] += product(a, b, i, drop);
        total += (double)(((lane[0] + lane[4]) + (lane[2] + lane[6])) + ((lane[1] + lane[5]) + (lane[3] + lane[7])));
    }
    return total;
}

/* Pairwise in float over the whole array. */
static float pairwise(const float *a, const float *b, uint64_t lo, uint64_t hi, uint64_t drop)
{
    if (hi - lo <= 8) {
        float s = 0;
        for (uint64_t i = lo; i < hi; ++i)
            s += product(a, b, i, drop);
        return s;
    }
    uint64_t mid = lo + (hi - lo) / 2;
    return pairwise(a, b, lo, mid, drop) + pairwise(a, b, mid, hi, drop);
}

/* One float accumulator over everything, the order no backend may use
 * (it breaks the block contract): only the check pattern survives it. */
static double sequential(const float *a, const float *b, uint64_t n, uint64_t drop)
{
    float s = 0;
    for (uint64_t i = 0; i < n; ++i)
        s += product(a, b, i, drop);
    return s;
}

enum { NORDERS = 11 };
static const char *const order_names[NORDERS] = {
    "opencl w=1", "opencl w=3", "opencl w=16", "opencl w=1000", "opencl w=65536", "cuda w=1",
    "cuda w=256x2", "cuda w=4096x256", "8 lanes", "pairwise", "sequential",
};

static double in_order(int o, const float *a, const float *b, uint64_t n, uint64_t drop)
{
    switch (o) {
    case 0: return opencl_contiguous(a, b, n, 1, drop);
    case 1: return opencl_contiguous(a, b, n, 3, drop);
    case 2: return opencl_contiguous(a, b, n, 16, drop);
    case 3: return opencl_contiguous(a, b, n, 1000, drop);
    case 4: return opencl_contiguous(a, b, n, 65536, drop);
    case 5: return cuda_strided(a, b, n, 1, 1, drop);
    case 6: return cuda_strided(a, b, n, 512, 256, drop);
    case 7: return cuda_strided(a, b, n, 4096 * 256, 256, drop);
    case 8: return lanes_of_8(a, b, n, drop);
    case 9: return pairwise(a, b, 0, n, drop);
    default: return sequential(a, b, n, drop);
    }
}

/* Work-items of each order, for the tolerance (-1: none applies). */
static const int64_t order_items[NORDERS] = {1, 3, 16, 1000, 65536, 1, 512, 4096 * 256, 1, 1, -1};

/* ---- the check pattern ---- */

#define CHUNK ((UINT64_C(1) << 24) - 1)

static void test_check_pattern_layout(void **state)
{
    (void)state;
    /* 2^24 - 1 ones per float run: 16 Mi elements take two, 64 Mi (a
     * 256 MiB array) five; double always one. */
    assert_int_equal(stream_dot_check_runs(CR_FLOAT, N), 2);
    assert_int_equal(stream_dot_check_runs(CR_FLOAT, N - 1), 1);
    assert_int_equal(stream_dot_check_runs(CR_FLOAT, 4 * N), 5);
    assert_int_equal(stream_dot_check_runs(CR_FLOAT, 1), 1);
    assert_int_equal(stream_dot_check_runs(CR_DOUBLE, 4 * N), 1);
    enum { M = 3000 };
    double d[M];
    uint64_t first = 99;
    assert_int_equal(stream_dot_check_fill(CR_DOUBLE, d, M, 0, &first), M);
    assert_int_equal(first, 0);
    for (int i = 0; i < M; ++i)
        assert_true(d[i] == 1.0);
    stream_dot_check_ones(CR_DOUBLE, d, M);
    for (int i = 0; i < M; ++i)
        assert_true(d[i] == 1.0);
    /* Every element is a one in exactly one run, a zero in the others. */
    uint64_t n = 2 * CHUNK + 5, covered = 0;
    float *f = malloc(n * sizeof *f);
    assert_non_null(f);
    assert_int_equal(stream_dot_check_runs(CR_FLOAT, n), 3);
    for (uint64_t r = 0; r < 3; ++r) {
        uint64_t count = stream_dot_check_fill(CR_FLOAT, f, n, r, &first);
        assert_int_equal(first, r * CHUNK);
        assert_int_equal(count, r < 2 ? CHUNK : 5);
        for (uint64_t i = 0; i < n; ++i)
            assert_true(f[i] == (i >= first && i < first + count ? 1.0f : 0.0f));
        covered += count;
    }
    assert_int_equal(covered, n);
    free(f);
    assert_true(stream_dot_check_ok(16777215.0, CHUNK));
    assert_false(stream_dot_check_ok(16777214.0, CHUNK));
    assert_false(stream_dot_check_ok(16777216.0, CHUNK));
    assert_false(stream_dot_check_ok(NAN, CHUNK));
}

/* 16 Mi floats: every order gives each run's count exactly; with one
 * product dropped (the first, two in the middle, the last of the first
 * run, the last of all) the orders are off by exactly one and fail, and
 * one product counted twice fails too. (Faults go through a sample of the
 * orders: the pattern's proof does not depend on the order, and every
 * order is already run once.) */
static const int fault_orders[] = {0, 2, 6, 8, 9, 10};

static void test_check_pattern_sees_one_dropped_product(void **state)
{
    (void)state;
    float *ones = malloc(N * sizeof *ones), *p = malloc(N * sizeof *p);
    assert_non_null(ones);
    assert_non_null(p);
    stream_dot_check_ones(CR_FLOAT, ones, N);
    const uint64_t drops[] = {0, N / 2 - 1, N / 2, CHUNK - 1, N - 1};
    uint64_t runs = stream_dot_check_runs(CR_FLOAT, N), seen = 0;
    for (uint64_t r = 0; r < runs; ++r) {
        uint64_t first, want = stream_dot_check_fill(CR_FLOAT, p, N, r, &first);
        assert_int_equal(want, r == 0 ? CHUNK : 1);
        for (int o = 0; o < NORDERS; ++o) {
            double got = in_order(o, ones, p, N, NO_DROP);
            if (!stream_dot_check_ok(got, want))
                fail_msg("%s, run %d: %.17g instead of %d", order_names[o], (int)r, got, (int)want);
        }
        for (size_t d = 0; d < sizeof drops / sizeof drops[0]; ++d) {
            if (drops[d] < first || drops[d] >= first + want)
                continue; /* a zero of this run: another run sees it */
            seen++;
            for (size_t k = 0; k < sizeof fault_orders / sizeof fault_orders[0]; ++k) {
                double got = in_order(fault_orders[k], ones, p, N, drops[d]);
                assert_true(got == (double)(want - 1));
                assert_false(stream_dot_check_ok(got, want));
            }
        }
    }
    assert_int_equal(seen, 5);
    /* One product counted twice: the sum reaches 2^24, still exact. */
    stream_dot_check_fill(CR_FLOAT, p, N, 0, &(uint64_t){0});
    repeated = N / 3;
    for (size_t k = 0; k < sizeof fault_orders / sizeof fault_orders[0]; ++k) {
        double got = in_order(fault_orders[k], ones, p, N, NO_DROP);
        assert_true(got == 16777216.0);
        assert_false(stream_dot_check_ok(got, CHUNK));
    }
    repeated = NO_DROP;
    free(ones);
    free(p);
}

/* ---- the rounding tolerance on the benchmark's own data ---- */

/* The arrays as dot finds them after copy, mul, add and triad: a in
 * [0.96, 1.92), b in [0.4, 0.8); products in [0.38, 1.54). */
static void stream_arrays(float *a, float *b, float *c, uint64_t n)
{
    uint64_t state = 0x2545F4914F6CDD1D + n;
    cr_fill_random_unit(CR_FLOAT, a, n, &state);
    cr_fill_random_unit(CR_FLOAT, b, n, &state);
    cr_fill_random_unit(CR_FLOAT, c, n, &state);
    for (int k = STREAM_COPY; k <= STREAM_TRIAD; ++k)
        stream_apply_gold((stream_kernel)k, CR_FLOAT, a, b, c, n, SCALAR);
}

/* The 16 Mi arrays and their gold, made once for the tests below. */
static struct {
    float *a, *b, *c;
    long double gold;
} D;

static int make_arrays(void **state)
{
    (void)state;
    D.a = malloc(N * sizeof *D.a), D.b = malloc(N * sizeof *D.b), D.c = malloc(N * sizeof *D.c);
    if (!D.a || !D.b || !D.c)
        return -1;
    stream_arrays(D.a, D.b, D.c, N);
    D.gold = stream_apply_gold(STREAM_DOT, CR_FLOAT, D.a, D.b, D.c, N, SCALAR);
    return 0;
}

static int free_arrays(void **state)
{
    (void)state;
    free(D.a), free(D.b), free(D.c);
    return 0;
}

/* The gold against the exact sum: float products are exact multiples of
 * 2^-49 here, so a 128-bit integer adds them without error. */
static void test_gold_is_exact_enough(void **state)
{
    (void)state;
    const float *a = D.a, *b = D.b;
    unsigned __int128 exact = 0;
    for (uint64_t i = 0; i < N; ++i) {
        double prod = (double)a[i] * b[i]; /* 48 bits: exact in double */
        double scaled = ldexp(prod, 49);
        assert_true(scaled == floor(scaled) && scaled < 0x1p53);
        exact += (uint64_t)scaled;
    }
    long double want = ldexpl((long double)(uint64_t)(exact >> 64), 64 - 49) + ldexpl((long double)(uint64_t)exact, -49);
    assert_true(fabsl(D.gold - want) <= 4 * LDBL_EPSILON * want);
    assert_true(want > 1.5e7L && want < 1.51e7L);
}

/* Every order a backend may use passes the tolerance; the tolerance is the
 * proven bound, e.g. 16 work-items: (1024 + 1024 + 4) roundings of 2^-24. */
static void test_tolerance_passes_every_backend_order(void **state)
{
    (void)state;
    const float *a = D.a, *b = D.b;
    long double gold = D.gold;
    for (int o = 0; o < NORDERS; ++o) {
        if (order_items[o] < 0)
            continue;
        double got = in_order(o, a, b, N, NO_DROP);
        double rel = fabs((double)((long double)got - gold)) / (double)gold;
        double tol = stream_dot_tolerance(CR_FLOAT, N, (uint64_t)order_items[o]);
        if (!(rel <= tol))
            fail_msg("%s: off by %.3g, tolerance %.3g", order_names[o], rel, tol);
        assert_true(rel < 1e-5); /* and the bound is not vacuous: real errors are far inside */
    }
    double t16 = stream_dot_tolerance(CR_FLOAT, N, 16);
    assert_true(t16 >= 2052 * 0x1p-24 && t16 < 2052 * 0x1p-24 * 1.001);
    double t1 = stream_dot_tolerance(CR_FLOAT, N, 1);
    assert_true(t1 >= (1024 + 16384) * 0x1p-24 && t1 < (1024 + 16384) * 0x1p-24 * 1.002);
    assert_true(stream_dot_tolerance(CR_DOUBLE, N, 16) < 2100 * 0x1p-53);
}

/* Why the coverage check exists: at 16 Mi floats a correct dot (one
 * work-item, as in the concurrency sweep) is already off by more than the
 * smallest product, so dropping that product is within any tolerance a
 * correct dot passes. With 1 Ki elements the tolerance still sees it. */
static void test_tolerance_cannot_see_one_product_at_16Mi(void **state)
{
    (void)state;
    const float *a = D.a, *b = D.b;
    long double gold = D.gold;
    uint64_t smallest = 0;
    for (uint64_t i = 1; i < N; ++i)
        if (a[i] * b[i] < a[smallest] * b[smallest])
            smallest = i;
    double pmin = (double)a[smallest] * b[smallest];
    assert_true(pmin >= 0.38 && pmin < 0.39);
    double err = fabs((double)((long double)opencl_contiguous(a, b, N, 1, NO_DROP) - gold));
    assert_true(err > 10 * pmin);
    double dropped = opencl_contiguous(a, b, N, 16, smallest);
    assert_true(fabs((double)((long double)dropped - gold)) / (double)gold <= stream_dot_tolerance(CR_FLOAT, N, 16));

    enum { SMALL = 1024 };
    float sa[SMALL], sb[SMALL], sc[SMALL];
    stream_arrays(sa, sb, sc, SMALL);
    gold = stream_apply_gold(STREAM_DOT, CR_FLOAT, sa, sb, sc, SMALL, SCALAR);
    double tol = stream_dot_tolerance(CR_FLOAT, SMALL, 1);
    for (uint64_t drop = 0; drop < SMALL; drop += 73) {
        double got = opencl_contiguous(sa, sb, SMALL, 1, drop);
        assert_false(fabs((double)((long double)got - gold)) / (double)gold <= tol);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_pattern_layout),
        cmocka_unit_test(test_check_pattern_sees_one_dropped_product),
        cmocka_unit_test(test_gold_is_exact_enough),
        cmocka_unit_test(test_tolerance_passes_every_backend_order),
        cmocka_unit_test(test_tolerance_cannot_see_one_product_at_16Mi),
    };
    return cmocka_run_group_tests_name("stream dot verification", tests, make_arrays, free_arrays);
}
