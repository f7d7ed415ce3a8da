#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "timer.h"

#include <math.h>

static bool near(double x, double want) { return fabs(x - want) <= 1e-6 * want; }

static cr_timing ev(uint64_t start, uint64_t end, uint64_t host)
{
    return (cr_timing){.has_event = true, .ev_start_ns = start, .ev_end_ns = end, .host_ns = host};
}

static void test_event_verdicts(void **state)
{
    (void)state;
    cr_timing t = ev(100, 600, 1000);
    assert_int_equal(cr_check_event(&t, 0), CR_EVENT_OK);
    t = ev(600, 100, 1000);
    assert_int_equal(cr_check_event(&t, 0), CR_EVENT_END_BEFORE_START);
    t = ev(600, 600, 1000);
    assert_int_equal(cr_check_event(&t, 0), CR_EVENT_ZERO);
    t = ev(0, 2000, 1000); /* longer than the host interval around it */
    assert_int_equal(cr_check_event(&t, 0), CR_EVENT_LONGER_THAN_HOST);
    assert_int_equal(cr_check_event(&t, 1000), CR_EVENT_OK); /* within slack */
    assert_int_equal(cr_check_event(&t, 999), CR_EVENT_LONGER_THAN_HOST);
    t.has_event = false;
    assert_int_equal(cr_check_event(&t, 0), CR_EVENT_MISSING);
    /* Timestamps near the top of 64 bits must not wrap. */
    t = ev(UINT64_MAX - 10, UINT64_MAX, 100);
    assert_int_equal(cr_check_event(&t, 0), CR_EVENT_OK);
    assert_string_equal(cr_event_verdict_text(CR_EVENT_END_BEFORE_START), "event end before start");
}

static void test_fallback_is_sticky(void **state)
{
    (void)state;
    cr_timer_state st = {0};
    cr_timer_kind kind;
    bool first;
    cr_timing good = ev(0, 500, 800), bad = ev(500, 0, 900);
    assert_true(near(cr_timer_pick(&st, &good, &kind, &first), 500e-9));
    assert_int_equal(kind, CR_TIMER_EVENT);
    assert_false(first);
    assert_true(near(cr_timer_pick(&st, &bad, &kind, &first), 900e-9));
    assert_int_equal(kind, CR_TIMER_HOST_FALLBACK);
    assert_true(first);
    assert_int_equal(st.why, CR_EVENT_END_BEFORE_START);
    /* A good event later does not restore trust in the driver. */
    assert_true(near(cr_timer_pick(&st, &good, &kind, &first), 800e-9));
    assert_int_equal(kind, CR_TIMER_HOST_FALLBACK);
    assert_false(first);
    assert_string_equal(cr_timer_kind_name(kind), "host-fallback");
}

static void test_missing_events_are_not_news(void **state)
{
    (void)state;
    cr_timer_state st = {0};
    cr_timer_kind kind;
    bool first = true;
    cr_timing host_only = {.has_event = false, .host_ns = 1234};
    assert_true(near(cr_timer_pick(&st, &host_only, &kind, &first), 1234e-9));
    assert_int_equal(kind, CR_TIMER_HOST);
    assert_false(first);
    /* Host-timed work beside device work leaves the events trusted. */
    assert_false(st.fell_back);
    cr_timing good = ev(0, 500, 800);
    assert_true(near(cr_timer_pick(&st, &good, &kind, &first), 500e-9));
    assert_int_equal(kind, CR_TIMER_EVENT);
    assert_string_equal(cr_timer_kind_name(CR_TIMER_HOST), "host");
}

static void test_host_clock(void **state)
{
    (void)state;
    uint64_t g = cr_host_granularity_ns();
    assert_true(g > 0 && g < 1000000);
    uint64_t a = cr_now_ns(), b = cr_now_ns();
    assert_true(b >= a);
}

/* A call that lasts at least 10 us, and how many there were. */
static uint64_t calls_made;
static void ten_us(void *ctx)
{
    (void)ctx;
    ++calls_made;
    uint64_t t0 = cr_now_ns();
    while (cr_now_ns() - t0 < 10000)
        ;
}

/* A short call is timed over a loop of at least CR_HOST_LOOP_MIN_NS, the
 * calls doubled from 1 (so the loop before the last was too short); a
 * coarse clock asks for 100 of its steps; the count found is where the
 * next repetition starts, which then makes no more calls than it needs. */
static void test_host_loop(void **state)
{
    (void)state;
    uint64_t calls = 0;
    calls_made = 0;
    uint64_t ns = cr_host_loop_ns(ten_us, NULL, 1, &calls);
    assert_true(ns >= 10000);
    assert_true((calls & (calls - 1)) == 0);              /* a power of two */
    assert_true(calls * ns + calls / 2 >= CR_HOST_LOOP_MIN_NS); /* the last loop long enough */
    assert_true(calls <= 2 * (CR_HOST_LOOP_MIN_NS / 10000 + 1)); /* as many as 10 us calls need, doubled */
    assert_int_equal(calls_made, 2 * calls - 1);          /* 1 + 2 + ... + calls */
    calls_made = 0;
    uint64_t again = calls;
    ns = cr_host_loop_ns(ten_us, NULL, 1, &again);
    assert_true(again >= calls && calls_made == 2 * again - calls); /* calls + 2 calls + ... + again */
    /* 100 steps of a 50 us clock: 5 ms. */
    calls = 1;
    ns = cr_host_loop_ns(ten_us, NULL, 50000, &calls);
    assert_true(calls * ns + calls / 2 >= 100 * 50000u && calls <= 512);
}

TEST_MAIN(NULL, NULL, test_event_verdicts, test_fallback_is_sticky, test_missing_events_are_not_news, test_host_clock,
          test_host_loop)
