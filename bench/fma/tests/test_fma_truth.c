/* The FMA benchmark's host logic: the reference chains against values
 * worked out by hand, the fused rounding that tells fma from a multiply and
 * an add, the range the chains stay in, the verification sample, the
 * comparison and the launch shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "fma/launch.h"
#include "fma/truth.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static const uint64_t all8[8] = {0, 1, 2, 3, 4, 5, 6, 7};

/* One step from 1: 1 - 2^-20 + b with b = 0x1.921fb6p-19 = 3.14159274... *
 * 2^-20, i.e. 1 + 2.14159274 * 2^-20 = 1 + 17.13 ulps of float (2^-23):
 * 17 ulps. In double the sum needs 43 bits and is exact. Two steps in
 * float: 1 + 17u - 8u(1 + 17u) + 25.1327u = 1 + 34.1327u: 34 ulps. */
static void test_reference_steps_by_hand(void **state)
{
    (void)state;
    float seeds_f[1] = {1.0f}, out_f[1];
    fma_truth_chains(CR_FLOAT, seeds_f, all8, 1, FMA_OPERAND_A, FMA_OPERAND_B, 1, out_f);
    assert_true(out_f[0] == 1.0f + 17 * 0x1p-23f);
    fma_truth_chains(CR_FLOAT, seeds_f, all8, 1, FMA_OPERAND_A, FMA_OPERAND_B, 2, out_f);
    assert_true(out_f[0] == 1.0f + 34 * 0x1p-23f);
    fma_truth_chains(CR_FLOAT, seeds_f, all8, 1, FMA_OPERAND_A, FMA_OPERAND_B, 0, out_f);
    assert_true(out_f[0] == 1.0f);

    double seeds_d[1] = {1.0}, out_d[1];
    fma_truth_chains(CR_DOUBLE, seeds_d, all8, 1, FMA_OPERAND_A, FMA_OPERAND_B, 1, out_d);
    assert_true(out_d[0] == 1.0 + 0x1.921fb6p-19 - 0x1p-20);
    assert_true(out_d[0] != (double)(1.0f + 17 * 0x1p-23f)); /* the types really differ */
}

/* (1 + 2^-13)(1 - 2^-13) - 1 = -2^-26 exactly; a float multiply rounds the
 * product to 1 first and gives 0. Likewise in double with 2^-27: the product
 * 1 - 2^-54 is a tie that rounds to 1. */
static void test_reference_is_fused(void **state)
{
    (void)state;
    float xf[1] = {1.0f + 0x1p-13f}, of[1];
    fma_truth_chains(CR_FLOAT, xf, all8, 1, 1.0 - 0x1p-13, -1.0, 1, of);
    assert_true(of[0] == -0x1p-26f);
    double xd[1] = {1.0 + 0x1p-27}, od[1];
    fma_truth_chains(CR_DOUBLE, xd, all8, 1, 1.0 - 0x1p-27, -1.0, 1, od);
    assert_true(od[0] == -0x1p-54);
}

/* The design's promises: normal values between 1 and 3.15 however long a
 * chain runs, still changing after a million steps, and the same value for
 * a chain wherever it sits in a block. */
static void test_chains_stay_normal_and_keep_moving(void **state)
{
    (void)state;
    enum { N = 200 }; /* more than one block, the last one partial */
    static float sf[N], ef[N], ef2[N];
    static double sd[N], ed[N], ed2[N];
    static uint64_t idx[N];
    for (uint64_t i = 0; i < N; ++i)
        idx[i] = i;
    fma_fill_seeds(CR_FLOAT, sf, N, 7);
    fma_fill_seeds(CR_DOUBLE, sd, N, 7);
    fma_truth_chains(CR_FLOAT, sf, idx, N, FMA_OPERAND_A, FMA_OPERAND_B, 1000000, ef);
    fma_truth_chains(CR_FLOAT, sf, idx, N, FMA_OPERAND_A, FMA_OPERAND_B, 1000001, ef2);
    fma_truth_chains(CR_DOUBLE, sd, idx, N, FMA_OPERAND_A, FMA_OPERAND_B, 1000000, ed);
    fma_truth_chains(CR_DOUBLE, sd, idx, N, FMA_OPERAND_A, FMA_OPERAND_B, 1000001, ed2);
    int moved_f = 0, moved_d = 0;
    for (int i = 0; i < N; ++i) {
        assert_true(isnormal(ef[i]) && ef[i] > 1.0f && ef[i] < 3.15f);
        assert_true(isnormal(ed[i]) && ed[i] > 1.0 && ed[i] < 3.15);
        moved_f += ef[i] != ef2[i];
        moved_d += ed[i] != ed2[i];
    }
    assert_int_equal(moved_f, N);
    assert_int_equal(moved_d, N);

    /* Past where float stops moving (about 3 million steps) it is still
     * in range. */
    float far[N];
    fma_truth_chains(CR_FLOAT, sf, idx, N, FMA_OPERAND_A, FMA_OPERAND_B, 8000000, far);
    for (int i = 0; i < N; ++i)
        assert_true(isnormal(far[i]) && far[i] > 3.0f && far[i] < 3.15f);

    /* Chain 150 alone gives what it gave in the batch. */
    uint64_t one[1] = {150};
    float alone[1];
    fma_truth_chains(CR_FLOAT, sf, one, 1, FMA_OPERAND_A, FMA_OPERAND_B, 1000000, alone);
    assert_memory_equal(alone, &ef[150], sizeof alone);
}

static void test_seeds(void **state)
{
    (void)state;
    float a[64], b[64], c[64];
    fma_fill_seeds(CR_FLOAT, a, 64, 1);
    fma_fill_seeds(CR_FLOAT, b, 64, 1);
    fma_fill_seeds(CR_FLOAT, c, 64, 2);
    assert_memory_equal(a, b, sizeof a);
    assert_memory_not_equal(a, c, sizeof a);
    double d[64];
    fma_fill_seeds(CR_DOUBLE, d, 64, 1);
    int distinct = 0;
    for (int i = 0; i < 64; ++i) {
        assert_true(a[i] >= 1.0f && a[i] < 2.0f);
        assert_true(d[i] >= 1.0 && d[i] < 2.0);
        distinct += i > 0 && a[i] != a[i - 1];
    }
    assert_true(distinct > 60);
}

static void test_sample(void **state)
{
    (void)state;
    assert_int_equal(fma_sample_count(1), 1);
    assert_int_equal(fma_sample_count(4096), 4096);
    assert_int_equal(fma_sample_count(4097), 4096);
    assert_int_equal(fma_sample_count(UINT64_C(1) << 40), 4096);
    /* Every chain while they fit. */
    for (uint64_t i = 0; i < 100; ++i)
        assert_int_equal(fma_sample_chain(i, 100, 100), i);
    assert_int_equal(fma_sample_chain(0, 1, 1), 0);
    /* 131072 chains: i * 131071 / 4095, floored. */
    assert_int_equal(fma_sample_chain(0, 4096, 131072), 0);
    assert_int_equal(fma_sample_chain(1, 4096, 131072), 32);
    assert_int_equal(fma_sample_chain(4094, 4096, 131072), 131038);
    assert_int_equal(fma_sample_chain(4095, 4096, 131072), 131071);
    uint64_t prev = 0;
    for (uint64_t i = 1; i < 4096; ++i) {
        uint64_t c = fma_sample_chain(i, 4096, 131072);
        assert_true(c > prev);
        prev = c;
    }
    /* 2^40 + 1 chains: i * 2^40 / 4095 needs more than 64 bits. */
    uint64_t big = (UINT64_C(1) << 40) + 1;
    assert_int_equal(fma_sample_chain(1, 4096, big), UINT64_C(268501008));
    assert_int_equal(fma_sample_chain(2047, 4096, big), UINT64_C(549621563383));
    assert_int_equal(fma_sample_chain(4094, 4096, big), UINT64_C(1099243126767));
    assert_int_equal(fma_sample_chain(4095, 4096, big), UINT64_C(1) << 40);
}

static void test_compare(void **state)
{
    (void)state;
    float got[6] = {1, 2, 3, 4, 5, 6};
    uint64_t idx[3] = {1, 3, 5};
    float want[3] = {2, 4, 6};
    uint64_t first = 99;
    assert_int_equal(fma_compare(CR_FLOAT, got, idx, want, 3, &first), 0);
    assert_int_equal(first, 99);
    got[3] = nextafterf(4.0f, 5.0f); /* one ulp off */
    got[5] = -6.0f;
    assert_int_equal(fma_compare(CR_FLOAT, got, idx, want, 3, &first), 2);
    assert_int_equal(first, 1);
    /* Bit for bit: -0 is not 0. */
    double dg[2] = {0.0, -0.0}, dw[2] = {0.0, 0.0};
    uint64_t di[2] = {0, 1};
    assert_int_equal(fma_compare(CR_DOUBLE, dg, di, dw, 2, &first), 1);
    assert_int_equal(first, 1);
}

/* per_cu on g launches wi work-items in work-groups of wg. */
static void expect_shape(const fma_geometry *g, uint64_t per_cu, uint64_t want_wi, uint64_t want_wg)
{
    char err[256] = "";
    uint64_t wi = 0, wg = 0;
    if (fma_launch_shape(g, per_cu, &wi, &wg, err, sizeof err) != 0)
        fail_msg("%" PRIu64 " per unit: %s", per_cu, err);
    if (wi != want_wi || wg != want_wg)
        fail_msg("%" PRIu64 " per unit: %" PRIu64 " work-items in groups of %" PRIu64 ", want %" PRIu64
                 " in groups of %" PRIu64,
                 per_cu, wi, wg, want_wi, want_wg);
}

static void test_launch_shapes(void **state)
{
    (void)state;
    /* Eight groups per core, each of per_cu work-items. */
    fma_geometry cpu = {2, 1, "work-items", 0, 4096, 8};
    expect_shape(&cpu, 1, 16, 1);
    expect_shape(&cpu, 512, 8192, 512);

    /* An H100-like GPU: 132 SMs, warps of 32, 64 warps per SM, blocks of
     * at most 1024: full occupancy is two blocks of 1024 per SM. */
    fma_geometry gpu = {132, 32, "warps", 64, 1024, 1};
    expect_shape(&gpu, 1, 4224, 32);
    expect_shape(&gpu, 32, 135168, 1024);
    expect_shape(&gpu, 64, 270336, 1024);
    expect_shape(&gpu, 48, 202752, 768);

    fma_geometry odd = {1, 1, "work-items", 0, 1000, 1};
    expect_shape(&odd, 3000, 3000, 750);
    char err[256];
    uint64_t wi, wg;
    assert_int_equal(fma_launch_shape(&odd, 1001, &wi, &wg, err, sizeof err), -1);
    assert_non_null(strstr(err, "do not split"));
    assert_int_equal(fma_launch_shape(&gpu, 0, &wi, &wg, err, sizeof err), -1);
    assert_int_equal(fma_launch_shape(&gpu, UINT64_C(1) << 40, &wi, &wg, err, sizeof err), -1);
    assert_non_null(strstr(err, "out of range"));
}

TEST_MAIN(NULL, NULL, test_reference_steps_by_hand, test_reference_is_fused, test_chains_stay_normal_and_keep_moving,
          test_seeds, test_sample, test_compare, test_launch_shapes)
