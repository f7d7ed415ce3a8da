/* The chains every cache sweep walks: each is one cycle through exactly
 * the words its order names, in that order, whatever the stride, the
 * number of elements or the pairing; a walk's end is the order's word. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cache/chains.h"
#include "cache/hostmem.h"
#include "tests/order_steps.h"
#include "tests/test_main.h"

#include <stdlib.h>

/* Links the order into fresh words and checks the cycle by walking it. */
static void expect_one_cycle(const cc_order *o)
{
    uint64_t n = cc_order_words(o);
    uint64_t *w = calloc((size_t)n, sizeof *w);
    assert_non_null(w);
    cc_chain_link(o, w);
    assert_true(cc_chain_is_cycle(o, w, n));
    /* A walk of any length from position 0 ends on the order's word. */
    for (uint64_t steps = 0; steps < 3 * o->count; steps += 1 + o->count / 5) {
        uint64_t at = o->order[0];
        for (uint64_t k = 0; k < steps; ++k)
            at = w[at];
        assert_int_equal(at, o->order[cc_order_advance(o, 0, steps)]);
    }
    free(w);
}

static void test_random_orders_are_one_cycle(void **state)
{
    (void)state;
    const uint64_t counts[] = {1, 2, 3, 9, 640, 4096};
    const uint64_t strides[] = {1, 8, 4096};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i)
        for (size_t j = 0; j < sizeof strides / sizeof strides[0]; ++j) {
            cc_order o;
            assert_int_equal(cc_order_random(&o, counts[i], strides[j], 7), 0);
            assert_int_equal(o.count, counts[i]);
            assert_int_equal(o.order[0], 0);
            /* every element once, each a multiple of the stride */
            uint64_t sum = 0;
            for (uint64_t k = 0; k < o.count; ++k) {
                assert_int_equal(o.order[k] % strides[j], 0);
                sum += o.order[k] / strides[j];
            }
            assert_int_equal(sum, counts[i] * (counts[i] - 1) / 2);
            assert_int_equal(cc_order_words(&o), (counts[i] - 1) * strides[j] + 1);
            expect_one_cycle(&o);
            cc_order_free(&o);
        }
}

static void test_random_order_is_shuffled(void **state)
{
    (void)state;
    cc_order o;
    assert_int_equal(cc_order_random(&o, 1000, 8, 3), 0);
    /* A sequential walk would be prefetched: few neighbours follow each other. */
    assert_true(order_steps_within(o.order, o.count, 8, 8) < 20);
    cc_order_free(&o);
}

static void test_pairs_visit_block_then_offset(void **state)
{
    (void)state;
    cc_order o;
    assert_int_equal(cc_order_pairs(&o, 64, 128, 8, 5), 0);
    assert_int_equal(o.count, 128);
    assert_int_equal(o.order[0], 0);
    for (uint64_t k = 0; k < 64; ++k) {
        assert_int_equal(o.order[2 * k] % 128, 0);
        assert_int_equal(o.order[2 * k + 1], o.order[2 * k] + 8);
    }
    expect_one_cycle(&o);
    cc_order_free(&o);
}

static void test_bad_orders_are_refused(void **state)
{
    (void)state;
    cc_order o;
    assert_int_equal(cc_order_random(&o, 0, 8, 1), -1);
    assert_int_equal(cc_order_random(&o, 4, 0, 1), -1);
    assert_int_equal(cc_order_random(&o, 4, UINT64_MAX / 2, 1), -1);
    assert_int_equal(cc_order_pairs(&o, 4, 128, 0, 1), -1);
    assert_int_equal(cc_order_pairs(&o, 4, 128, 128, 1), -1);
}

/* The set-conflict chain: n addresses one capacity apart, all of them. */
static void test_conflict_chain_spans_the_capacity(void **state)
{
    (void)state;
    cc_order o;
    assert_int_equal(cc_order_random(&o, 9, 32768 / 8, 1), 0);
    uint64_t seen = 0;
    for (uint64_t k = 0; k < 9; ++k)
        seen |= UINT64_C(1) << (o.order[k] / 4096);
    assert_int_equal(seen, 0x1ff);
    expect_one_cycle(&o);
    cc_order_free(&o);
}

/* The host words: aligned to a huge page and zeroed, whatever was asked. */
static void test_host_words_are_aligned_and_zero(void **state)
{
    (void)state;
    cc_host_words h;
    assert_int_equal(cc_host_words_map(&h, 1000, true), 0);
    assert_int_equal((uintptr_t)h.words % CC_HUGE_PAGE, 0);
    for (uint64_t i = 0; i < 1000; ++i)
        assert_int_equal(h.words[i], 0);
    h.words[999] = 1;
    cc_host_words_unmap(&h);
    assert_null(h.words);
    assert_int_equal(cc_host_words_map(&h, 0, false), -1);
}

TEST_MAIN(NULL, NULL, test_random_orders_are_one_cycle, test_random_order_is_shuffled,
          test_pairs_visit_block_then_offset, test_bad_orders_are_refused, test_conflict_chain_spans_the_capacity,
          test_host_words_are_aligned_and_zero)
