/* The plausibility gate on planted rows: each verdict fires on the row that
 * deserves it, with its reason, and on nothing else. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "device.h"
#include "host_limit.h"
#include "nv_arch.h"
#include "peaks.h"
#include "plausibility.h"
#include "results.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MiB (UINT64_C(1) << 20)

static cr_peaks planted_peaks(void)
{
    cr_peaks p;
    cr_peaks_unknown(&p);
    p.memory_gbs = 30;
    snprintf(p.memory_source, sizeof p.memory_source, "planted");
    p.compute_gflops[0] = 300;
    p.compute_gflops[1] = 150;
    snprintf(p.compute_source, sizeof p.compute_source, "planted");
    p.llc_bytes = 32 * MiB;
    p.target_ci = 0.01;
    return p;
}

/* A stable, unimodal memory row at 25 GB/s from a 512 MiB working set. */
static cr_result clean_memory_row(void)
{
    const double secs[] = {0.0400, 0.0401, 0.0402, 0.0403, 0.0404, 0.0405, 0.0406};
    cr_result r = {.valid = true, .ref_ratio = NAN, .peak_kind = CR_PEAK_MEMORY};
    cr_summarize(secs, 7, &r.stats);
    snprintf(r.timer, sizeof r.timer, "event");
    snprintf(r.stop, sizeof r.stop, "stable");
    snprintf(r.unit, sizeof r.unit, "GB/s");
    r.bytes_per_rep = 1e9;
    r.working_set_bytes = 512 * MiB;
    r.figure = r.bytes_per_rep / r.stats.median * 1e-9;
    r.figure_best = r.bytes_per_rep / r.stats.min * 1e-9;
    return r;
}

static bool has_flag(const cr_result *r, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *p = r->flags; (p = strstr(p, flag)) != NULL; p += n)
        if ((p == r->flags || p[-1] == ';') && (p[n] == '\0' || p[n] == ';'))
            return true;
    return false;
}

static void test_a_clean_row_passes(void **state)
{
    (void)state;
    cr_peaks p = planted_peaks();
    cr_result r = clean_memory_row();
    assert_int_equal(cr_plausibility_check(&p, &r), 0);
    assert_string_equal(r.flags, "");
    assert_string_equal(r.note, "");
}

static void test_a_row_above_the_memory_peak_is_flagged(void **state)
{
    (void)state;
    cr_peaks p = planted_peaks();
    cr_result r = clean_memory_row();
    r.figure = 31;      /* within the 5% margin: not flagged */
    r.figure_best = 31.4;
    assert_int_equal(cr_plausibility_check(&p, &r), 0);
    r.figure_best = 32; /* 1.067x the 30 GB/s peak */
    assert_int_equal(cr_plausibility_check(&p, &r), 1);
    assert_true(has_flag(&r, "above-peak"));
    assert_non_null(strstr(r.note, "above-peak: 32 GB/s is 1.07x the memory peak of 30 GB/s (planted)"));
}

static void test_a_row_above_the_compute_peak_of_its_type_is_flagged(void **state)
{
    (void)state;
    cr_peaks p = planted_peaks();
    cr_result r = clean_memory_row();
    r.peak_kind = CR_PEAK_COMPUTE;
    snprintf(r.unit, sizeof r.unit, "Gflop/s");
    snprintf(r.dtype, sizeof r.dtype, "double");
    r.figure = r.figure_best = 200; /* below the float peak, above the double one */
    assert_int_equal(cr_plausibility_check(&p, &r), 1);
    assert_true(has_flag(&r, "above-peak"));
    assert_non_null(strstr(r.note, "the double peak of 150 GFLOP/s"));

    cr_result f = r;
    snprintf(f.dtype, sizeof f.dtype, "float");
    f.flags[0] = f.note[0] = '\0';
    assert_int_equal(cr_plausibility_check(&p, &f), 0);
}

/* A local-memory row is judged against the local-memory peak alone: a
 * figure far above the memory peak is no verdict, one above the local
 * peak is; where the local peak is unknown, none. */
static void test_a_row_above_the_local_memory_peak_is_flagged(void **state)
{
    (void)state;
    cr_peaks p = planted_peaks();
    p.local_gbs = 33454.08;
    snprintf(p.local_source, sizeof p.local_source, "planted local");
    cr_result r = clean_memory_row();
    r.peak_kind = CR_PEAK_LOCAL;
    r.working_set_bytes = 0;
    r.figure = r.figure_best = 19000; /* 630x the memory peak: no memory row */
    assert_int_equal(cr_plausibility_check(&p, &r), 0);
    r.figure_best = 35000; /* 1.046x: within the margin */
    assert_int_equal(cr_plausibility_check(&p, &r), 0);
    r.figure_best = 36000;
    assert_int_equal(cr_plausibility_check(&p, &r), 1);
    assert_true(has_flag(&r, "above-peak"));
    assert_non_null(strstr(r.note, "above-peak: 3.6e+04 GB/s is 1.08x the local-memory peak of 3.345e+04 GB/s (planted local)"));

    cr_result u = clean_memory_row();
    u.peak_kind = CR_PEAK_LOCAL;
    u.figure = u.figure_best = 1e9;
    cr_peaks unknown = planted_peaks(); /* no local peak */
    assert_int_equal(cr_plausibility_check(&unknown, &u), 0);
}

static void test_bimodal_repetitions_are_flagged(void **state)
{
    (void)state;
    cr_peaks p = planted_peaks();
    /* Half the repetitions on one core, half on two: the best is half the median. */
    const double secs[] = {0.02, 0.02, 0.02, 0.04, 0.04, 0.04, 0.04};
    cr_result r = clean_memory_row();
    cr_summarize(secs, 7, &r.stats);
    r.figure = r.bytes_per_rep / r.stats.median * 1e-9;
    r.figure_best = 29; /* keep the peak verdict out of it */
    assert_int_equal(cr_plausibility_check(&p, &r), 1);
    assert_string_equal(r.flags, "bimodal");
    assert_non_null(strstr(r.note, "bimodal: the best repetition took 0.5 of the median's time"));
}

static void test_a_row_that_missed_the_stopping_rule_is_unstable(void **state)
{
    (void)state;
    cr_peaks p = planted_peaks();
    cr_result r = clean_memory_row();
    snprintf(r.stop, sizeof r.stop, "max-reps");
    r.stats.ci_rel = 0.071;
    assert_int_equal(cr_plausibility_check(&p, &r), 1);
    assert_string_equal(r.flags, "unstable");
    assert_non_null(strstr(r.note, "CI +-7.1%, target +-1%"));

    const char *missed[] = {"time-budget", "out-of-reach"};
    for (int i = 0; i < 2; ++i) {
        cr_result b = clean_memory_row();
        snprintf(b.stop, sizeof b.stop, "%s", missed[i]);
        assert_int_equal(cr_plausibility_check(&p, &b), 1);
        assert_string_equal(b.flags, "unstable");
        assert_non_null(strstr(b.note, missed[i]));
    }
}

static void test_a_cache_resident_memory_row_is_labelled_cache_not_above_peak(void **state)
{
    (void)state;
    cr_peaks p = planted_peaks();
    cr_result r = clean_memory_row();
    r.working_set_bytes = 96 * MiB; /* below 4 x 32 MiB */
    r.figure = r.figure_best = 140;  /* a cache's bandwidth: not judged against memory's peak */
    assert_int_equal(cr_plausibility_check(&p, &r), 1);
    assert_string_equal(r.flags, "cache");
    assert_non_null(strstr(r.note, "96 MiB working set is below 4x the 32 MiB last-level cache"));

    cr_result m = clean_memory_row();
    m.working_set_bytes = 128 * MiB; /* exactly 4x: memory */
    assert_int_equal(cr_plausibility_check(&p, &m), 0);
}

static void test_above_the_host_limit_is_flagged_only_against_a_limit(void **state)
{
    (void)state;
    cr_peaks p = planted_peaks();
    cr_result r = clean_memory_row();
    r.ref_ratio = 1.99;
    assert_int_equal(cr_plausibility_check(&p, &r), 0); /* a ratio to some other reference */
    r.ref_is_limit = true;
    assert_int_equal(cr_plausibility_check(&p, &r), 1);
    assert_string_equal(r.flags, "above-host-limit");
    r.flags[0] = r.note[0] = '\0';
    r.ref_ratio = 1.04;
    assert_int_equal(cr_plausibility_check(&p, &r), 0);
}

/* A limit measured in the same rounds: median to median and best to best,
 * each allowed 1.05x widened by the spread, which stops widening at 10%:
 * a figure 30% over its limit is flagged however noisy the two were. */
/* A memory row judged against a limit measured in its own rounds. */
static cr_result phase_limited_row(double ratio, double best_ratio, double spread)
{
    cr_result r = clean_memory_row();
    r.ref_is_limit = true;
    r.limit_best = 26;
    r.ref_ratio = ratio;
    r.ref_best_ratio = best_ratio;
    r.ref_spread = spread;
    return r;
}

static void test_a_limit_in_the_same_rounds_allows_for_the_spread(void **state)
{
    (void)state;
    cr_peaks p = planted_peaks();
    cr_result r = phase_limited_row(1.09, 1.0, 0.05); /* 1.05 x 1.05 = 1.1025 allowed */
    assert_int_equal(cr_plausibility_check(&p, &r), 0);
    r.ref_spread = 0.02; /* 1.071 allowed */
    assert_int_equal(cr_plausibility_check(&p, &r), 1);
    assert_string_equal(r.flags, "above-host-limit");
    assert_non_null(strstr(r.note, "median to median 1.09x the host's own limit for the same work, best to best 1x"));

    cr_result best = phase_limited_row(1.0, 1.2, 0.5); /* the spread capped: 1.155 allowed */
    assert_int_equal(cr_plausibility_check(&p, &best), 1);
    assert_string_equal(best.flags, "above-host-limit");
    best = phase_limited_row(1.0, 1.15, 0.5);
    assert_int_equal(cr_plausibility_check(&p, &best), 0);
}

/* Such a row's memory ceiling is the higher of the peak measured before
 * the run and its own limit's best, with the same allowance: memory that
 * ran faster in the row's phase raises it. */
static void test_the_phase_limit_can_raise_the_memory_ceiling(void **state)
{
    (void)state;
    cr_peaks p = planted_peaks(); /* 30 GB/s */
    cr_result r = phase_limited_row(1.0, 1.0, 0);
    r.figure_best = r.figure = 36;
    r.limit_best = 36; /* this phase's memory was faster than the peak's */
    assert_int_equal(cr_plausibility_check(&p, &r), 0);
    r.limit_best = 20; /* the peak's 30 is the ceiling: 36 is 1.2x it */
    r.ref_best_ratio = 1.8;
    assert_int_equal(cr_plausibility_check(&p, &r), 2);
    assert_string_equal(r.flags, "above-peak;above-host-limit");
    assert_non_null(strstr(r.note, "36 GB/s is 1.2x the memory peak of 30 GB/s, beyond the 1.05x"));
}

static void test_unknown_peaks_and_unmeasured_rows_get_no_verdict(void **state)
{
    (void)state;
    cr_peaks p;
    cr_peaks_unknown(&p);
    cr_result r = clean_memory_row();
    r.figure = r.figure_best = 1e6;
    assert_int_equal(cr_plausibility_check(&p, &r), 0);

    cr_peaks k = planted_peaks();
    cr_result u = clean_memory_row();
    cr_result_unmeasured(&u);
    snprintf(u.stop, sizeof u.stop, "max-reps");
    assert_int_equal(cr_plausibility_check(&k, &u), 0);
}

static void test_several_verdicts_are_all_listed(void **state)
{
    (void)state;
    cr_peaks p = planted_peaks();
    const double secs[] = {0.01, 0.03, 0.03, 0.03, 0.03};
    cr_result r = clean_memory_row();
    cr_summarize(secs, 5, &r.stats);
    snprintf(r.stop, sizeof r.stop, "max-reps");
    r.figure = r.bytes_per_rep / r.stats.median * 1e-9;
    r.figure_best = r.bytes_per_rep / r.stats.min * 1e-9; /* 100 GB/s from 512 MiB: above the peak */
    assert_int_equal(cr_plausibility_check(&p, &r), 3);
    assert_string_equal(r.flags, "unstable;bimodal;above-peak");

    /* The longest list a row can have: both energy verdicts and every
     * figure verdict that can stand with them, none of it cut. */
    cr_result all = clean_memory_row();
    cr_summarize(secs, 5, &all.stats);
    snprintf(all.stop, sizeof all.stop, "max-reps");
    all.ref_ratio = 2;
    all.ref_is_limit = true;
    all.energy_j = -1e-6;
    all.power_w = -0.2;
    all.energy_busy = 0.1;
    cr_result_energy_per_unit(&all);
    assert_int_equal(cr_plausibility_check(&p, &all), 3);
    assert_string_equal(all.flags, "energy-idle;energy-below-static;unstable;bimodal;above-host-limit");
}

static void test_peaks_from_a_cpu_device_name_their_clock(void **state)
{
    (void)state;
    cr_device_info d = {.is_cpu = true, .unified_memory = true, .compute_units = 2, .clock_mhz = 2600,
                        .fma_lanes = {16, 8}, .fma_pipes = 2, .cache_bytes = 16 * MiB};
    snprintf(d.fma_basis, sizeof d.fma_basis, "planted");
    cr_peaks p;
    cr_peaks_for_device(&d, 32 * MiB, 0.01, &p);
    assert_true(fabs(p.compute_gflops[0] - 332.8) < 1e-9); /* 2 x 2.6 GHz x 16 x 2 x 2 */
    assert_true(fabs(p.compute_gflops[1] - 166.4) < 1e-9);
    assert_non_null(strstr(p.compute_source, "2600 MHz"));
    assert_int_equal(p.llc_bytes, 32 * MiB); /* the host's, larger than the device's */
    assert_true(isnan(p.memory_gbs));        /* until measured */

    assert_true(isnan(p.local_gbs)); /* no local bytes per clock known */
    assert_string_equal(p.local_source, "unknown: the API reports no local-memory bytes per clock");

    cr_device_info g = {.compute_units = 132, .clock_mhz = 1980, .cache_bytes = 50 * MiB, .memory_peak_gbs = 3352};
    cr_peaks_for_device(&g, 32 * MiB, 0.01, &p);
    assert_true(isnan(p.compute_gflops[0])); /* no FMA lanes known */
    assert_non_null(strstr(p.compute_source, "unknown"));
    assert_true(p.memory_gbs == 3352);
    assert_int_equal(p.llc_bytes, 50 * MiB); /* a discrete device: its own cache only */
}

/* An H200 (compute capability 9.0): 132 SMs x 1.98 GHz x 128 bytes per
 * clock; a Pascal SM (6.1), whose bytes per clock are not tabulated, or a
 * device without a clock, has no local peak and says why. */
static void test_the_local_memory_peak_names_its_basis(void **state)
{
    (void)state;
    cr_device_info g = {.compute_units = 132, .clock_mhz = 1980};
    g.local_bytes_per_clock = cr_nv_shared_bytes_per_clock(9, 0, g.local_basis, sizeof g.local_basis);
    assert_int_equal(g.local_bytes_per_clock, 128);
    cr_peaks p;
    cr_peaks_for_device(&g, 0, 0.01, &p);
    assert_true(fabs(p.local_gbs - 33454.08) < 1e-6);
    assert_string_equal(p.local_source, "132 CUs x 1980 MHz (the clock the device reports) x 128 bytes per clock per "
                                        "CU; 32 shared-memory banks of 4 bytes per SM, compute capability 9.0 (7.0 "
                                        "and later)");
    g.clock_mhz = 0;
    cr_peaks_for_device(&g, 0, 0.01, &p);
    assert_true(isnan(p.local_gbs));
    assert_string_equal(p.local_source, "unknown: the device reports no clock");
    cr_device_info old = {.compute_units = 28, .clock_mhz = 1500};
    old.local_bytes_per_clock = cr_nv_shared_bytes_per_clock(6, 1, old.local_basis, sizeof old.local_basis);
    assert_int_equal(old.local_bytes_per_clock, 0);
    cr_peaks_for_device(&old, 0, 0.01, &p);
    assert_true(isnan(p.local_gbs));
    assert_string_equal(p.local_source, "unknown: shared-memory bytes per clock of compute capability 6.1 (before "
                                        "7.0) are not tabulated");
}

/* The host's limit: verified, best at least the median, and refused
 * with a reason rather than measured from nothing. */
static void test_the_host_limit_is_measured_and_verified(void **state)
{
    (void)state;
    cr_host_limit lim;
    char err[200] = "";
    assert_int_equal(cr_host_limit_measure(4 * MiB, 3, &lim, err, sizeof err), 0);
    assert_int_equal(lim.array_bytes, 4 * MiB);
    assert_int_equal(lim.reps, 3);
    assert_true(lim.threads >= 1);
    assert_true(lim.triad.median_gbs > 0 && lim.triad.best_gbs >= lim.triad.median_gbs);
    assert_true(lim.read.median_gbs > 0 && lim.read.best_gbs >= lim.read.median_gbs);
    assert_true(lim.streamed.median_gbs > 0 && lim.streamed.best_gbs >= lim.streamed.median_gbs);
#if defined(__x86_64__)
    assert_non_null(lim.streamed_isa); /* every x86-64 has SSE2's streaming stores */
#endif
    assert_int_equal(cr_host_limit_measure(4 * MiB, 0, &lim, err, sizeof err), -1);
    assert_non_null(strstr(err, "host limit"));
}

TEST_MAIN(NULL, NULL, test_a_clean_row_passes, test_a_row_above_the_memory_peak_is_flagged,
          test_a_row_above_the_compute_peak_of_its_type_is_flagged,
          test_a_row_above_the_local_memory_peak_is_flagged, test_bimodal_repetitions_are_flagged,
          test_a_row_that_missed_the_stopping_rule_is_unstable,
          test_a_cache_resident_memory_row_is_labelled_cache_not_above_peak,
          test_above_the_host_limit_is_flagged_only_against_a_limit,
          test_a_limit_in_the_same_rounds_allows_for_the_spread, test_the_phase_limit_can_raise_the_memory_ceiling,
          test_unknown_peaks_and_unmeasured_rows_get_no_verdict, test_several_verdicts_are_all_listed,
          test_peaks_from_a_cpu_device_name_their_clock, test_the_local_memory_peak_names_its_basis,
          test_the_host_limit_is_measured_and_verified)
