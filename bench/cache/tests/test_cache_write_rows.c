/* The write sweep's per-load figures (cc_per_load_figures): a pass of n
 * loads less the one-load walk, median from median and best from best; a
 * pass no slower than the one load gives no figure and says why, never a
 * negative time (the shared reader refuses one, and the whole run's report
 * with it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cache/state.h"
#include "tests/test_main.h"

#include <math.h>
#include <string.h>

static cr_measurement timed(double median_ns, double min_ns)
{
    return (cr_measurement){.stats = {.n = 5, .min = min_ns * 1e-9, .median = median_ns * 1e-9}};
}

/* A pass slower than the one load, also where its best repetition is
 * below the one-load median (the old rule subtracted the median from both
 * figures): the differences per load, medians and bests apart. */
static void test_a_slower_pass_gives_its_time_per_load(void **state)
{
    (void)state;
    static const struct {
        double one_median, one_min, median, min, figure, best;
    } cases[] = {
        {1000, 900, 1000 + 99 * 4.0, 900 + 99 * 3.5, 4.0, 3.5},
        {1000, 600, 1099, 800, 1.0, 200.0 / 99},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        cr_result row = {0};
        cr_measurement one = timed(cases[i].one_median, cases[i].one_min), pass = timed(cases[i].median, cases[i].min);
        cc_per_load_figures(&row, &pass, &one, 100);
        assert_float_equal(row.figure, cases[i].figure, 1e-9);
        assert_float_equal(row.figure_best, cases[i].best, 1e-9);
        assert_string_equal(row.flags, "");
    }
}

static void test_a_pass_no_slower_than_one_load_is_unresolved(void **state)
{
    (void)state;
    cr_result row = {0};
    cr_measurement one = timed(1000, 900), pass = timed(990, 905);
    cc_per_load_figures(&row, &pass, &one, 100);
    assert_true(isnan(row.figure));
    assert_float_equal(row.figure_best, 5.0 / 99, 1e-9);
    assert_string_equal(row.flags, "unresolved");
    assert_non_null(strstr(row.note, "unresolved: the 100-load pass (median 990 ns, best 905) took no longer than the "
                                     "one-load walk (median 1000 ns, best 900)"));
    cr_result both = {0};
    pass = timed(1000, 880);
    cc_per_load_figures(&both, &pass, &one, 100);
    assert_true(isnan(both.figure));
    assert_true(isnan(both.figure_best));
    assert_string_equal(both.flags, "unresolved");
}

TEST_MAIN(NULL, NULL, test_a_slower_pass_gives_its_time_per_load, test_a_pass_no_slower_than_one_load_is_unresolved)
