/* The register-spill benchmark's host logic: the compiler-log reader, the
 * reference the device output is checked against and the sample of outputs
 * it is checked on, and the cliff finder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "regspill/ptxas_log.h"
#include "regspill/backend.h"
#include "regspill/truth.h"

#include <stdbool.h>
#include <stdlib.h>

/* Real ptxas 13.0 output for a kernel capped below its lower bound. */
static const char capped_log[] =
    "ptxas warning : For profile sm_90 adjusting per thread register count of 1 to lower bound of 24\n"
    "ptxas info    : Overriding maximum register limit 256 for 'regspill_live' with  24 of maxrregcount option\n"
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'regspill_live' for 'sm_90'\n"
    "ptxas info    : Function properties for regspill_live\n"
    "    304 bytes stack frame, 544 bytes spill stores, 536 bytes spill loads\n"
    "ptxas info    : Used 24 registers, used 0 barriers, 304 bytes cumulative stack size\n"
    "ptxas info    : Compile time = 24.276 ms\n";

/* Two entries; the second one spills nothing. */
static const char two_entries[] =
    "ptxas info    : Compiling entry function 'first' for 'sm_80'\n"
    "ptxas info    : Function properties for first\n"
    "    8 bytes stack frame, 12 bytes spill stores, 16 bytes spill loads\n"
    "ptxas info    : Used 255 registers, 380 bytes cmem[0]\n"
    "ptxas info    : Compiling entry function 'second' for 'sm_80'\n"
    "ptxas info    : Function properties for second\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 70 registers, used 0 barriers\n";

static void test_ptxas_log_reader(void **state)
{
    (void)state;
    ptxas_report p;
    ptxas_parse(capped_log, NULL, &p);
    assert_true(p.found);
    assert_int_equal(p.registers, 24);
    assert_int_equal(p.stack_frame_bytes, 304);
    assert_int_equal(p.spill_store_bytes, 544);
    assert_int_equal(p.spill_load_bytes, 536);
    assert_int_equal(p.lower_bound, 24);

    ptxas_parse(two_entries, NULL, &p);
    assert_int_equal(p.registers, 255);
    assert_int_equal(p.spill_store_bytes, 12);
    assert_int_equal(p.spill_load_bytes, 16);
    assert_int_equal(p.lower_bound, 0);
    ptxas_parse(two_entries, "second", &p);
    assert_true(p.found);
    assert_int_equal(p.registers, 70);
    assert_int_equal(p.spill_store_bytes, 0);
    assert_int_equal(p.stack_frame_bytes, 0);
    ptxas_parse(two_entries, "third", &p);
    assert_false(p.found);

    /* Nothing to read: every figure unknown, never made up. */
    const char *empty[] = {"", "error : unknown option\n", "ptxas info    : Used registers\n", NULL};
    for (int i = 0; i < 4; ++i) {
        ptxas_parse(empty[i], NULL, &p);
        assert_false(p.found);
        assert_int_equal(p.spill_store_bytes, -1);
        assert_int_equal(p.spill_load_bytes, -1);
        assert_int_equal(p.stack_frame_bytes, -1);
    }
}

static void test_reference_matches_hand_computed_values(void **state)
{
    (void)state;
    /* live 1, gid 0: v = 0x85EBCA6B; a step of v against itself is
     * rotl7(0) + 0x2545F491. */
    assert_int_equal(regspill_truth(0, 1, 0), 0x85EBCA6Bu);
    assert_int_equal(regspill_truth(0, 1, 1), 0x2545F491u);
    /* Values computed independently of the C code. */
    assert_int_equal(regspill_truth(1, 2, 1), 0x9B5A2824u);
    assert_int_equal(regspill_truth(12345, 5, 3), 0x3B507ADCu);
    /* The kernel's gid is 32-bit: work-item 2^32 + 7 computes what 7 does. */
    assert_int_equal(regspill_truth(7, 3, 2), 0x8D6C7074u);
    assert_int_equal(regspill_truth((UINT64_C(1) << 32) + 7, 3, 2), 0x8D6C7074u);

    uint32_t some[3];
    const uint64_t at[3] = {0, 17, 36};
    regspill_truth_sample(some, at, 3, 9, 4);
    for (unsigned i = 0; i < 3; ++i)
        assert_int_equal(some[i], regspill_truth(at[i], 9, 4));
    /* Every live value matters: changing the count changes the result. */
    assert_int_not_equal(regspill_truth(5, 63, 10), regspill_truth(5, 64, 10));
    /* The largest count runs without overflowing anything. */
    (void)regspill_truth(3, RS_LIVE_MAX, 2);
}

/* Whether idx[0..n) holds i. */
static bool sampled(const uint64_t *idx, uint64_t n, uint64_t i)
{
    for (uint64_t k = 0; k < n; ++k)
        if (idx[k] == i)
            return true;
    return false;
}

/* The verification's sample on an H200's geometry (132 SMs, 1081344
 * work-items in groups of 256) and a CPU's (8 lanes, groups of 7 with a
 * short last one): ascending, each once, in range; every lane of the first
 * and the last work-item; an output in every work-group; the random ones
 * spread over the whole; the same sample each time; and every output
 * where there are few. */
static void test_sample_covers_ends_groups_and_more(void **state)
{
    (void)state;
    const struct {
        uint64_t work_items, work_group;
        unsigned lanes;
    } geo[] = {{1081344, 256, 1}, {7 * 1000 + 3, 7, 8}};
    for (size_t c = 0; c < 2; ++c) {
        uint64_t wi = geo[c].work_items, wg = geo[c].work_group, all = wi * geo[c].lanes;
        unsigned lanes = geo[c].lanes;
        uint64_t cap = regspill_sample_cap(wi, wg, lanes);
        uint64_t *idx = malloc(cap * sizeof *idx), *again = malloc(cap * sizeof *again);
        uint64_t n = regspill_sample(wi, wg, lanes, idx);
        assert_true(n <= cap && n < all / 4 && n > REGSPILL_VERIFY_RANDOM);
        for (uint64_t k = 1; k < n; ++k)
            assert_true(idx[k] > idx[k - 1]);
        assert_true(idx[n - 1] < all);
        for (unsigned l = 0; l < lanes; ++l)
            assert_true(sampled(idx, n, l) && sampled(idx, n, all - lanes + l));
        uint64_t k = 0, beyond_first_lane = 0;
        for (uint64_t first = 0; first < wi; first += wg) {
            uint64_t end = (first + wg < wi ? first + wg : wi) * lanes;
            while (k < n && idx[k] < first * lanes)
                ++k;
            if (!(k < n && idx[k] < end))
                fail_msg("work-group of work-items %llu.. has no output checked", (unsigned long long)first);
        }
        for (uint64_t i = 0; i < n; ++i)
            beyond_first_lane += idx[i] % lanes != 0;
        if (lanes > 1)
            assert_true(beyond_first_lane > n / 2); /* lanes at random, not lane 0 alone */
        uint64_t in_first_half = 0;
        for (uint64_t i = 0; i < n; ++i)
            in_first_half += idx[i] < all / 2;
        assert_true(in_first_half > n / 3 && in_first_half < 2 * n / 3);
        assert_int_equal(regspill_sample(wi, wg, lanes, again), n);
        assert_memory_equal(idx, again, n * sizeof *idx);
        free(idx);
        free(again);
    }
    /* Few outputs: all of them. */
    uint64_t idx[300];
    assert_int_equal(regspill_sample_cap(100, 10, 3), 300);
    assert_int_equal(regspill_sample(100, 10, 3, idx), 300);
    for (uint64_t i = 0; i < 300; ++i)
        assert_int_equal(idx[i], i);
}

/* A wrong output the sample holds is caught, wherever it is: in the
 * first or the last work-item, in the one checked output of a work-group,
 * among the random ones; an output right beside it does not disturb the
 * check of those that are right. On the H200's geometry, where the sample
 * is a few thousand outputs of a million. */
static void test_wrong_sampled_output_is_caught(void **state)
{
    (void)state;
    const uint64_t wi = 1081344, wg = 256;
    const unsigned live = 4;
    const uint32_t rounds = 3;
    uint64_t cap = regspill_sample_cap(wi, wg, 1), first = 0;
    uint64_t *idx = malloc(cap * sizeof *idx);
    uint32_t *truth = malloc(cap * sizeof *truth), *got = malloc(wi * sizeof *got);
    uint64_t n = regspill_sample(wi, wg, 1, idx);
    regspill_truth_sample(truth, idx, n, live, rounds);
    for (uint64_t g = 0; g < wi; ++g)
        got[g] = regspill_truth(g, live, rounds);
    assert_int_equal(regspill_compare(got, idx, truth, n, &first), 0);
    const uint64_t planted[] = {0, n - 1, n / 2, n / 3};
    for (size_t k = 0; k < 4; ++k) {
        got[idx[planted[k]]] ^= 1u << (k + 3);
        assert_int_equal(regspill_compare(got, idx, truth, n, &first), 1);
        assert_int_equal(first, planted[k]);
        got[idx[planted[k]]] ^= 1u << (k + 3);
    }
    assert_int_equal(idx[0], 0);
    assert_int_equal(idx[n - 1], wi - 1);
    free(idx);
    free(truth);
    free(got);
}

static void test_cliff_finder(void **state)
{
    (void)state;
    /* Rises (latency-bound at few values), plateaus, then falls. */
    const double curve[] = {80, 150, 200, 195, 190, 110, 90};
    assert_int_equal(regspill_find_cliff(curve, 7, 0.7), 5);
    /* The drop is measured against the best so far, not the neighbour. */
    const double slow_slide[] = {200, 180, 160, 150, 139};
    assert_int_equal(regspill_find_cliff(slow_slide, 5, 0.7), 4);
    const double flat[] = {100, 98, 102, 99};
    assert_int_equal(regspill_find_cliff(flat, 4, 0.7), 0);
    assert_int_equal(regspill_find_cliff(curve, 1, 0.7), 0);
    assert_int_equal(regspill_find_cliff(curve, 0, 0.7), 0);
}

static void test_standard_live_counts(void **state)
{
    (void)state;
    assert_true(regspill_standard_live_count >= 10);
    for (unsigned i = 1; i < regspill_standard_live_count; ++i)
        assert_true(regspill_standard_live[i] > regspill_standard_live[i - 1]);
    assert_true(regspill_standard_live[regspill_standard_live_count - 1] <= RS_LIVE_MAX);
    /* Past every GPU's 255 registers per thread, so the table shows spills. */
    assert_true(regspill_standard_live[regspill_standard_live_count - 1] >= 256);
}

TEST_MAIN(NULL, NULL, test_ptxas_log_reader, test_reference_matches_hand_computed_values,
          test_sample_covers_ends_groups_and_more, test_wrong_sampled_output_is_caught, test_cliff_finder,
          test_standard_live_counts)
