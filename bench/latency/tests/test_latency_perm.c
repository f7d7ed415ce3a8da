/* The pointer-chase chain: one cycle through every line, reproducible from
 * its seed, lines in an order a prefetcher cannot follow, the end of any
 * walk known without walking; and the host's walk along it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "latency/backend.h"
#include "latency/perm.h"
#include "tests/order_steps.h"

#include <stdlib.h>
#include <string.h>

/* Walks the chain from word 0 and checks that it returns there after
 * exactly `lines` loads, every load on the first word of a line not seen
 * before; every other word is zero. */
static void assert_single_cycle(const lt_chain *c)
{
    uint64_t lines = c->lines, w = c->line_words;
    unsigned char *seen = calloc(lines, 1);
    assert_non_null(seen);
    uint64_t idx = 0;
    for (uint64_t k = 0; k < lines; ++k) {
        assert_true(idx % w == 0);
        assert_true(idx / w < lines);
        assert_false(seen[idx / w]);
        seen[idx / w] = 1;
        assert_int_equal(idx, lt_chain_word(c, k));
        idx = c->next[idx];
    }
    assert_int_equal(idx, 0); /* back at the start after every line, not before */
    for (uint64_t i = 0; i < lines * w; ++i)
        if (i % w != 0)
            assert_int_equal(c->next[i], 0);
    free(seen);
}

static void test_one_cycle_through_every_line(void **state)
{
    (void)state;
    /* Powers of two and not, the smallest chains, and one line per word. */
    static const uint64_t sizes[] = {1, 2, 3, 5, 7, 64, 100, 1000, 4097, 65539};
    static const uint64_t words[] = {1, 8, 16};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
        for (size_t j = 0; j < sizeof words / sizeof words[0]; ++j) {
            lt_chain c;
            assert_int_equal(lt_chain_build(&c, sizes[i], words[j], 1 + i), 0);
            assert_int_equal(c.lines, sizes[i]);
            assert_int_equal(c.order[0], 0);
            assert_single_cycle(&c);
            lt_chain_free(&c);
        }
}

static void test_reproducible_from_the_seed(void **state)
{
    (void)state;
    lt_chain a, b, other;
    assert_int_equal(lt_chain_build(&a, 5000, 8, 42), 0);
    assert_int_equal(lt_chain_build(&b, 5000, 8, 42), 0);
    assert_int_equal(lt_chain_build(&other, 5000, 8, 43), 0);
    assert_memory_equal(a.next, b.next, 5000 * 8 * sizeof(uint64_t));
    assert_memory_equal(a.order, b.order, 5000 * sizeof(uint64_t));
    assert_memory_not_equal(a.order, other.order, 5000 * sizeof(uint64_t));
    lt_chain_free(&a);
    lt_chain_free(&b);
    lt_chain_free(&other);
}

/* A walk in address order (line i to i + 1), or back and forth over a few
 * lines, is what a stream or stride prefetcher catches; in a random cycle
 * of n lines a step goes to a given line with probability about 1/n, so
 * among 100000 steps the next line or the one before follows about twice. */
static void test_no_stride_for_a_prefetcher(void **state)
{
    (void)state;
    lt_chain c;
    assert_int_equal(lt_chain_build(&c, 100000, 8, 1), 0);
    /* The next line or the one before (a step to the same line cannot be: each line comes once). */
    assert_true(order_steps_within(c.order, c.lines, -1, 1) <= 10);
    /* 64 lines of 64 B: one 4 KiB page; about 126 expected */
    assert_true(order_steps_within(c.order, c.lines, -63, 63) <= 300);
    lt_chain_free(&c);
}

static void test_end_of_a_walk(void **state)
{
    (void)state;
    lt_chain c;
    assert_int_equal(lt_chain_build(&c, 5, 8, 7), 0);
    /* Position 3 plus 7 steps is position (3 + 7) mod 5 = 0: line 0. */
    assert_int_equal(lt_chain_advance(&c, 3, 7), 0);
    assert_int_equal(lt_chain_word(&c, lt_chain_advance(&c, 3, 7)), 0);
    /* Whole turns come back where they started. */
    assert_int_equal(lt_chain_advance(&c, 2, 5), 2);
    assert_int_equal(lt_chain_advance(&c, 2, 5000000000), 2);
    assert_int_equal(lt_chain_advance(&c, 4, 1), 0);
    lt_chain_free(&c);
    /* Steps are reduced modulo the cycle first, so no length overflows:
     * 2^63 = 2 (mod 3), position 1 goes to (1 + 2) mod 3 = 0; 2^64 - 1 = 0
     * (mod 3), position 2 stays. */
    assert_int_equal(lt_chain_build(&c, 3, 1, 7), 0);
    assert_int_equal(lt_chain_advance(&c, 1, UINT64_C(1) << 63), 0);
    assert_int_equal(lt_chain_advance(&c, 2, UINT64_MAX), 2);
    lt_chain_free(&c);

    /* Against a step-by-step walk, from several positions and lengths. */
    assert_int_equal(lt_chain_build(&c, 1001, 16, 3), 0);
    static const uint64_t lengths[] = {0, 1, 999, 1000, 1001, 1002, 5 * 1001 + 17};
    for (uint64_t start = 0; start < c.lines; start += 97)
        for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; ++i) {
            uint64_t idx = lt_chain_word(&c, start);
            for (uint64_t s = 0; s < lengths[i]; ++s)
                idx = c.next[idx];
            assert_int_equal(idx, lt_chain_word(&c, lt_chain_advance(&c, start, lengths[i])));
        }
    lt_chain_free(&c);
}

static void test_refuses_impossible_chains(void **state)
{
    (void)state;
    lt_chain c;
    assert_int_equal(lt_chain_build(&c, 0, 8, 1), -1);
    assert_int_equal(lt_chain_build(&c, 8, 0, 1), -1);
    /* 2^62 lines of 8 words: the byte count overflows 64 bits. */
    assert_int_equal(lt_chain_build(&c, UINT64_C(1) << 62, 8, 1), -1);
    assert_null(c.next);
    assert_null(c.order);
}

static void test_uniform_below(void **state)
{
    (void)state;
    uint64_t st = 9;
    unsigned counts[3] = {0};
    for (int i = 0; i < 30000; ++i) {
        uint64_t v = lt_uniform_below(3, &st);
        assert_true(v < 3);
        counts[v]++;
    }
    for (int i = 0; i < 3; ++i) /* 10000 each; 5 standard deviations is about 400 */
        assert_in_range(counts[i], 9600, 10400);
    assert_int_equal(lt_uniform_below(1, &st), 0);
    uint64_t big = UINT64_MAX - 5;
    for (int i = 0; i < 100; ++i)
        assert_true(lt_uniform_below(big, &st) < big);
}

/* The host backend walks the uploaded chain to the word the cycle says. */
static void test_host_walk_ends_where_the_cycle_says(void **state)
{
    (void)state;
    const lt_backend *be = &lt_host_backend;
    cr_device_info info;
    char err[CR_ERRLEN];
    assert_int_equal(be->base.open(NULL, &info, err, sizeof err), CR_OK);
    assert_true(info.is_cpu);
    lt_chain c;
    assert_int_equal(lt_chain_build(&c, 513, 8, 11), 0);
    lt_layout one, two;
    assert_int_equal(lt_layout_make(&one, c.lines * c.line_words, 0), 0);
    /* The host's walk takes one buffer: a chain in pieces is refused. */
    assert_int_equal(lt_layout_make(&two, c.lines * c.line_words, 4096), 0);
    assert_int_equal(be->prepare(&two, c.next, err, sizeof err), CR_ERR);
    assert_non_null(strstr(err, "pieces"));
    assert_int_equal(be->max_pieces, 1);
    assert_int_equal(be->prepare(&one, c.next, err, sizeof err), CR_OK);
    uint64_t pos = 0;
    static const uint64_t lengths[] = {1, 512, 513, 3 * 513 + 5, 100000};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; ++i) {
        cr_timing t;
        lt_walk_out out = {.end = UINT64_MAX, .has_cycles = true};
        assert_int_equal(be->run(lengths[i], lt_chain_word(&c, pos), &t, &out, err, sizeof err), CR_OK);
        pos = lt_chain_advance(&c, pos, lengths[i]);
        assert_int_equal(out.end, lt_chain_word(&c, pos));
        assert_false(t.has_event);
        assert_false(out.has_cycles); /* no counter of the core's own clock */
    }
    /* 100000 dependent loads cannot take under 10 us (0.1 ns each). */
    cr_timing t;
    lt_walk_out out;
    assert_int_equal(be->run(100000, 0, &t, &out, err, sizeof err), CR_OK);
    assert_true(t.host_ns > 10000);
    /* A start outside the chain is an error, not a wild read. */
    assert_int_equal(be->run(1, c.lines * c.line_words, &t, &out, err, sizeof err), CR_ERR);
    assert_non_null(strstr(err, "outside"));
    lt_caches caches;
    be->caches(&caches);
    assert_int_equal(caches.count, 0); /* the design reads the host's levels from hwloc */
    be->base.close();
    lt_chain_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_cycle_through_every_line),
        cmocka_unit_test(test_reproducible_from_the_seed),
        cmocka_unit_test(test_no_stride_for_a_prefetcher),
        cmocka_unit_test(test_end_of_a_walk),
        cmocka_unit_test(test_refuses_impossible_chains),
        cmocka_unit_test(test_uniform_below),
        cmocka_unit_test(test_host_walk_ends_where_the_cycle_says),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
