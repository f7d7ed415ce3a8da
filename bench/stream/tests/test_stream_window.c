/* The concurrency sweep's windows (stream/window.h): sized so that a
 * repetition takes milliseconds at any concurrency, the whole array where
 * that is as quick, every work-item given the same share, and no
 * arithmetic that wraps at 64 bits. The device is modelled: a launch costs
 * overhead_s, and a work-item streams an element per latency_s until the
 * memory's bandwidth caps them all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stream/window.h"
#include "tests/test_main.h"

#include <stdbool.h>

#define TARGET STREAM_WINDOW_TARGET_S
#define LONG_S (STREAM_WINDOW_LONG_FACTOR * STREAM_WINDOW_TARGET_S)
#define GPU_ARRAY (UINT64_C(64) << 20) /* 256 MiB of floats */

typedef struct {
    double overhead_s, latency_s, bytes_per_s, bytes_per_element;
} model;

/* An H100-like GPU on triad in float: ~1 us a round trip per element and
 * thread, 3 TB/s, 5 us a launch. */
static const model gpu = {5e-6, 1e-6, 3e12, 12};
/* A CPU core: a work-item streams at 5 GB/s, a launch costs 50 us. */
static const model cpu = {50e-6, 12.0 / 5e9, 40e9, 12};

static double seconds(const model *d, uint64_t work_items, uint64_t m)
{
    double by_latency = (double)m / (double)work_items * d->latency_s;
    double by_bandwidth = (double)m * d->bytes_per_element / d->bytes_per_s;
    return d->overhead_s + (by_latency > by_bandwidth ? by_latency : by_bandwidth);
}

/* The calibration as the design runs it; counts its runs. */
static uint64_t calibrate(const model *d, uint64_t n, uint64_t work_items, int *runs)
{
    bool done = false;
    uint64_t m = stream_window_first(n, work_items);
    *runs = 0;
    while (!done) {
        assert_true(++*runs < 64);
        m = stream_window_next(n, work_items, m, seconds(d, work_items, m), TARGET, &done);
    }
    return m;
}

/* Every window is the whole array or whole units of 16 elements per
 * work-item. */
static void assert_whole_units(uint64_t n, uint64_t work_items, uint64_t m)
{
    if (m != n) {
        assert_true(m < n);
        assert_int_equal(m % (work_items * STREAM_WINDOW_PER_ITEM), 0);
        assert_true(m >= work_items * STREAM_WINDOW_PER_ITEM);
    }
}

static void test_one_gpu_thread_gets_milliseconds_not_a_minute(void **state)
{
    (void)state;
    int runs;
    uint64_t m = calibrate(&gpu, GPU_ARRAY, 1, &runs);
    /* The whole array would take 67 s; the window takes the target's
     * order, and is some ten thousand elements. */
    assert_true(seconds(&gpu, 1, GPU_ARRAY) > 60);
    double s = seconds(&gpu, 1, m);
    assert_true(s >= STREAM_WINDOW_TARGET_S / 2 && s <= LONG_S);
    assert_true(m >= 5000 && m <= 40000);
    assert_whole_units(GPU_ARRAY, 1, m);
    assert_true(runs <= 8);
}

static void test_every_concurrency_is_bounded_and_full_occupancy_gets_the_array(void **state)
{
    (void)state;
    for (uint64_t k = 1; k <= 132 * 2048; k *= 2) {
        int runs;
        uint64_t m = calibrate(&gpu, GPU_ARRAY, k, &runs);
        assert_whole_units(GPU_ARRAY, k, m);
        assert_true(seconds(&gpu, k, m) <= LONG_S);
    }
    /* Full occupancy streams the whole 768 MB in a quarter millisecond. */
    int runs;
    assert_int_equal(calibrate(&gpu, GPU_ARRAY, 132 * 2048, &runs), GPU_ARRAY);
}

static void test_a_cpu_work_item_gets_a_window_long_against_its_launch(void **state)
{
    (void)state;
    int runs;
    uint64_t m = calibrate(&cpu, GPU_ARRAY, 1, &runs);
    assert_whole_units(GPU_ARRAY, 1, m);
    /* Megabytes, not the 16 elements of the first run: the launch's 50 us
     * are at most 1% of the repetition. */
    assert_true(seconds(&cpu, 1, m) >= STREAM_WINDOW_TARGET_S / 2);
    assert_true(m > (UINT64_C(1) << 20));
}

/* A shorter target (the test hook's) gives proportionally smaller windows. */
static void test_the_target_scales_the_window(void **state)
{
    (void)state;
    bool done;
    assert_int_equal(stream_window_next(GPU_ARRAY, 1, GPU_ARRAY, 10 * TARGET, TARGET / 100, &done),
                     GPU_ARRAY / 1000 / 16 * 16);
    assert_true(done);
    assert_int_equal(stream_window_next(GPU_ARRAY, 1, 16, TARGET / 1000, TARGET / 100, &done), 160);
    assert_false(done);
}

static void test_overshoot_shrinks_once(void **state)
{
    (void)state;
    bool done = false;
    /* Up to the long limit the whole array stays. */
    assert_int_equal(stream_window_next(GPU_ARRAY, 1, GPU_ARRAY, LONG_S, TARGET, &done), GPU_ARRAY);
    assert_true(done);
    uint64_t m = stream_window_next(GPU_ARRAY, 4, 4 * 1024, 100 * TARGET, TARGET, &done);
    assert_true(done);
    assert_int_equal(m, 64); /* one unit: 4 work-items x 16 */
    /* Ten times the target: shrinks to the target. */
    m = stream_window_next(GPU_ARRAY, 1, GPU_ARRAY, 10 * TARGET, TARGET, &done);
    assert_true(done);
    assert_int_equal(m, GPU_ARRAY / 10 / 16 * 16); /* whole units of 16 elements */
}

static void test_more_work_items_than_a_unit_of_elements_take_the_array(void **state)
{
    (void)state;
    assert_int_equal(stream_window_first(1000, 63), 1000);
    assert_int_equal(stream_window_first(1000, 62), 992);
    assert_int_equal(stream_window_first(1000, 1000), 1000);
    bool done;
    assert_int_equal(stream_window_next(1000, 1000, 1000, 1e-6, TARGET, &done), 1000);
    assert_true(done);
}

static void test_sixty_four_bit_safe(void **state)
{
    (void)state;
    const uint64_t huge = UINT64_MAX - 7;
    /* 16 x work_items would wrap: the whole array, not a wrapped product. */
    assert_int_equal(stream_window_first(huge, UINT64_MAX / 8), huge);
    assert_int_equal(stream_window_first(huge, UINT64_C(1) << 60), huge);
    assert_int_equal(stream_window_first(huge, UINT64_C(1) << 59), UINT64_C(1) << 63);
    bool done;
    uint64_t m = stream_window_next(huge, 1, 16, 1e-9, TARGET, &done); /* wants 10^7x, gets 1024x */
    assert_false(done);
    assert_int_equal(m, 16384);
    /* A quarter of the array in a nanosecond: the whole of it is quick. */
    m = stream_window_next(huge, UINT64_C(1) << 58, UINT64_C(1) << 62, 1e-9, TARGET, &done);
    assert_true(done);
    assert_int_equal(m, huge);
    /* Growth stops short of the end: 2^52 elements in 4 ms make the whole
     * array 16 s, so 2.5x, not the whole. */
    m = stream_window_next(huge, 1, UINT64_C(1) << 52, 4e-3, TARGET, &done);
    assert_false(done);
    assert_int_equal(m, (uint64_t)(0x1p52 * (TARGET / 4e-3)) / 16 * 16);
    assert_int_equal(stream_window_next(huge, UINT64_C(1) << 58, huge, 1e-9, TARGET, &done), huge);
    assert_true(done);
    uint64_t cursor = huge - 5;
    assert_int_equal(stream_window_place(huge, 10, &cursor), 0); /* would pass the end: wraps */
    assert_int_equal(cursor, 10);
    assert_int_equal(stream_window_span(huge, UINT64_C(1) << 63), UINT64_C(1) << 63);
}

static void test_windows_take_turns_through_the_array(void **state)
{
    (void)state;
    uint64_t cursor = 0;
    /* Two points of windows 30 and 20 over 100 elements, interleaved: each
     * repetition starts where the last ended, and wraps before the end. */
    const uint64_t want[][2] = {{30, 0}, {20, 30}, {30, 50}, {20, 80}, {30, 0}, {20, 30}};
    for (int r = 0; r < 6; ++r)
        assert_int_equal(stream_window_place(100, want[r][0], &cursor), want[r][1]);
    assert_int_equal(stream_window_place(100, 100, &cursor), 0);
    assert_int_equal(stream_window_span(100, 30), 90);
    assert_int_equal(stream_window_span(100, 100), 100);
}

TEST_MAIN(NULL, NULL, test_one_gpu_thread_gets_milliseconds_not_a_minute,
          test_every_concurrency_is_bounded_and_full_occupancy_gets_the_array,
          test_a_cpu_work_item_gets_a_window_long_against_its_launch, test_the_target_scales_the_window,
          test_overshoot_shrinks_once, test_more_work_items_than_a_unit_of_elements_take_the_array,
          test_sixty_four_bit_safe, test_windows_take_turns_through_the_array)
