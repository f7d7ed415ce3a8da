/* Unit tests of the SFU benchmark's speed-up estimate (sfu_paired_speedup):
 * runs of the precise version and a fast one measured interleaved, on a
 * machine whose load comes and goes. A CPU device with two cores that other
 * work shares runs a repetition at the full rate or at half of it; two
 * throughput rows measured seconds apart can each land on either, which
 * made identical code look twice as fast or half as fast; and the summary's
 * flag on a speed-up that no difference in error backs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sfu/summary_table.h"
#include "sfu/timing.h"
#include "stats.h"

#include <math.h>
#include <string.h>

#define ROUNDS 21

/* Round i's slowdown by other load: 2 (half the cores) or 1, in stretches
 * of a few rounds as a build next door starts and stops. */
static double load(size_t i)
{
    return (i / 4) % 2 ? 2.0 : 1.0;
}

/* Times of ROUNDS interleaved pairs, the version `gain` times faster than
 * precise; in the rounds of `split` the load changed between the two runs
 * (the precise one slowed, the version not). */
static void pairs(double gain, const bool *split, double *tp, double *tv)
{
    for (size_t i = 0; i < ROUNDS; ++i) {
        double l = load(i);
        tp[i] = 1e-3 * l * (split && split[i] ? 2 : 1);
        tv[i] = 1e-3 * l / gain;
    }
}

/* The paired speed-up of a version gain times faster than precise, with
 * the rounds in split run on half the machine by precise alone: the
 * median must be gain, and so the best where no round is split. */
static void expect_speedup(double gain, const bool *split)
{
    double tp[ROUNDS], tv[ROUNDS];
    pairs(gain, split, tp, tv);
    sfu_speedup sp = sfu_paired_speedup(tp, tv, ROUNDS);
    assert_true(fabs(sp.median - gain) < 1e-9);
    if (split == NULL)
        assert_true(fabs(sp.best - gain) < 1e-9);
}

static void test_same_code_under_changing_load_is_no_speedup(void **state)
{
    (void)state;
    expect_speedup(1.0, NULL);
    /* What two rows measured apart would say: one in a loaded stretch,
     * one in a quiet one. */
    double tp[ROUNDS], tv[ROUNDS];
    pairs(1.0, NULL, tp, tv);
    cr_summary loaded, quiet;
    cr_summarize(tp + 4, 4, &loaded);
    cr_summarize(tv, 4, &quiet);
    assert_true(fabs(loaded.median / quiet.median - 2) < 1e-12);
}

static void test_a_real_speedup_is_found(void **state)
{
    (void)state;
    expect_speedup(1.35, NULL);
}

/* A minority of rounds where the load changed mid-round moves the median
 * of the pairs' ratios not at all. */
static void test_rounds_split_by_the_load_are_outvoted(void **state)
{
    (void)state;
    bool split[ROUNDS] = {false};
    for (size_t i = 0; i < ROUNDS; i += 3)
        split[i] = true; /* 7 of 21 */
    expect_speedup(1.0, split);
}

static void test_no_pairs_no_speedup(void **state)
{
    (void)state;
    double t = 1e-3;
    sfu_speedup sp = sfu_paired_speedup(&t, &t, 0);
    assert_true(isnan(sp.median) && isnan(sp.best));
    sp = sfu_paired_speedup(&t, &t, 1);
    assert_true(sp.median == 1 && sp.best == 1);
}

/* Planted summary lines: a speed-up beyond 15% with errors identical to
 * precise's is flagged; one within 15%, or with errors of its own, is not. */
static void test_an_unbacked_speedup_is_flagged(void **state)
{
    (void)state;
    static sfu_summary_table table;
    memset(&table, 0, sizeof table);
    sfu_summary_entry base = {.present = true, .mean_rel = 1e-8, .max_rel = 5e-8, .max_ulp = 0.5,
                              .max_ulp_wide = 0.5, .speedup = NAN, .valid = true};
    sfu_summary_entry *line = table[SFU_RCP][CR_FLOAT];
    line[SFU_PRECISE] = base;
    line[SFU_NATIVE] = base;
    line[SFU_NATIVE].speedup = 1.97;
    line[SFU_HALF] = base;
    line[SFU_HALF].speedup = 1.1;
    line[SFU_RELAXED] = base;
    line[SFU_RELAXED].speedup = 1.35;
    line[SFU_RELAXED].max_ulp = 1.45;
    sfu_summary_flag_unbacked(&table);
    assert_string_equal(line[SFU_NATIVE].flags, "unbacked-speedup");
    assert_non_null(strstr(line[SFU_NATIVE].note, "unbacked-speedup: 1.97x over precise with errors identical"));
    assert_string_equal(line[SFU_HALF].flags, "");
    assert_string_equal(line[SFU_RELAXED].flags, "");
    assert_string_equal(line[SFU_PRECISE].flags, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_code_under_changing_load_is_no_speedup),
        cmocka_unit_test(test_a_real_speedup_is_found),
        cmocka_unit_test(test_rounds_split_by_the_load_are_outvoted),
        cmocka_unit_test(test_no_pairs_no_speedup),
        cmocka_unit_test(test_an_unbacked_speedup_is_flagged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
