/* Latency in cycles (cycles.h) and the chain of addresses (address.h): the
 * arithmetic behind the cycles= and cycles_from_clock= params and the
 * CUDA walk's start and end words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "latency/address.h"
#include "latency/cycles.h"

#include <math.h>

static void test_cycles_per_access(void **state)
{
    (void)state;
    assert_true(lt_cycles_per_access(500000, 1000) == 500.0);
    assert_true(lt_cycles_per_access(1001, 2) == 500.5);
    assert_true(lt_cycles_per_access(0, 1024) == 0.0); /* a count of 0 is a count */
    assert_true(isnan(lt_cycles_per_access(1000, 0)));
}

/* An unknown clock (CUDA 13 drivers may report none) gives no figure: not
 * 0 cycles, and not an infinity or NaN from a division. */
static void test_cycles_from_clock(void **state)
{
    (void)state;
    assert_true(fabs(lt_cycles_from_clock(250.0, 1980) - 495.0) < 1e-9);
    assert_true(isnan(lt_cycles_from_clock(250.0, 0)));
    assert_true(isnan(lt_cycles_from_clock(NAN, 1980)));
}

static lt_walk_out counted(uint64_t cycles) { return (lt_walk_out){.has_cycles = true, .cycles = cycles}; }

/* The median is the last n walks': the warm-up's walks before them, here
 * 10 times slower, do not count. */
static void test_median_of_the_last_walks(void **state)
{
    (void)state;
    lt_cycle_log log;
    assert_int_equal(lt_cycle_log_init(&log, 8), 0);
    assert_true(isnan(lt_cycle_log_median(&log, 1))); /* nothing logged */
    lt_walk_out warm = counted(10000);
    lt_cycle_log_add(&log, &warm, 10);
    lt_cycle_log_add(&log, &warm, 10);
    const uint64_t measured[] = {3000, 1000, 2000};
    for (int i = 0; i < 3; ++i) {
        lt_walk_out o = counted(measured[i]);
        lt_cycle_log_add(&log, &o, 10);
    }
    assert_true(lt_cycle_log_median(&log, 3) == 200.0);
    assert_true(lt_cycle_log_median(&log, 2) == 150.0); /* 100 and 200 */
    assert_true(lt_cycle_log_median(&log, 5) == 300.0); /* 1000, 1000, 300, 100, 200 */
    assert_true(isnan(lt_cycle_log_median(&log, 6)));   /* more than were logged */
    assert_true(isnan(lt_cycle_log_median(&log, 0)));
    lt_cycle_log_free(&log);
}

/* More walks than the log keeps: it keeps the latest, and refuses a
 * median over more than it holds. */
static void test_log_keeps_the_latest(void **state)
{
    (void)state;
    lt_cycle_log log;
    assert_int_equal(lt_cycle_log_init(&log, 4), 0);
    for (uint64_t i = 1; i <= 10; ++i) {
        lt_walk_out o = counted(i * 100);
        lt_cycle_log_add(&log, &o, 1);
    }
    assert_true(lt_cycle_log_median(&log, 4) == 850.0); /* 700..1000 */
    assert_true(lt_cycle_log_median(&log, 1) == 1000.0);
    assert_true(isnan(lt_cycle_log_median(&log, 5)));
    lt_cycle_log_free(&log);
    assert_int_equal(lt_cycle_log_init(&log, 0), -1);
}

/* A backend without a counter (OpenCL, the host) gives no cycles: a
 * median over walks without them is no number, not 0. */
static void test_walks_without_cycles_have_none(void **state)
{
    (void)state;
    lt_cycle_log log;
    assert_int_equal(lt_cycle_log_init(&log, 4), 0);
    lt_walk_out none = {.end = 7}, some = counted(500);
    lt_cycle_log_add(&log, &none, 10);
    lt_cycle_log_add(&log, &none, 10);
    assert_true(isnan(lt_cycle_log_median(&log, 2)));
    lt_cycle_log_add(&log, &some, 10);
    assert_true(lt_cycle_log_median(&log, 1) == 50.0);
    assert_true(isnan(lt_cycle_log_median(&log, 2))); /* one of them has none */
    lt_cycle_log_free(&log);
}

/* Words to addresses and back: the CUDA walk starts at the address of its
 * start word and its end address must be a word of the chain. */
static void test_word_addresses(void **state)
{
    (void)state;
    const uint64_t base = UINT64_C(0x7f0000200000), words = 1024;
    uint64_t w = 99;
    assert_true(LT_WORD_ADDRESS(base, UINT64_C(0)) == base);
    assert_true(LT_WORD_ADDRESS(base, UINT64_C(16)) == base + 128);
    for (uint64_t word = 0; word < words; word += 16) {
        assert_true(lt_word_of_address(LT_WORD_ADDRESS(base, word), base, words, &w));
        assert_true(w == word);
    }
    w = 99;
    assert_false(lt_word_of_address(base - 8, base, words, &w));                 /* before the chain */
    assert_false(lt_word_of_address(LT_WORD_ADDRESS(base, words), base, words, &w)); /* just past it */
    assert_false(lt_word_of_address(base + 4, base, words, &w));                 /* inside a word */
    assert_false(lt_word_of_address(0, base, words, &w));
    assert_true(w == 99); /* untouched by a refusal */
}

TEST_MAIN(NULL, NULL, test_cycles_per_access, test_cycles_from_clock, test_median_of_the_last_walks,
          test_log_keeps_the_latest, test_walks_without_cycles_have_none, test_word_addresses)
