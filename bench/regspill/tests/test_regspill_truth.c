/* The register-spill benchmark's host logic: the compiler-log reader, the
 * reference the device output is checked against, and the cliff finder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "regspill/ptxas_log.h"
#include "regspill/backend.h"
#include "regspill/truth.h"

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

    uint32_t all[37];
    regspill_truth_all(all, 37, 9, 4);
    for (unsigned g = 0; g < 37; ++g)
        assert_int_equal(all[g], regspill_truth(g, 9, 4));
    /* Every live value matters: changing the count changes the result. */
    assert_int_not_equal(regspill_truth(5, 63, 10), regspill_truth(5, 64, 10));
    /* The largest count runs without overflowing anything. */
    (void)regspill_truth(3, RS_LIVE_MAX, 2);
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

TEST_MAIN(NULL, NULL, test_ptxas_log_reader, test_reference_matches_hand_computed_values, test_cliff_finder,
          test_standard_live_counts)
