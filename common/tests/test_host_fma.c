/* The host's FMA reference and the compute peak it makes for a CPU device:
 * it runs and checks itself (every lane's count of steps), its rates and
 * the clock chain's step are numbers, and the peaks take its best, with
 * the microarchitecture's model and their agreement beside it. No speed is
 * asserted: that is the benchmark's to show, not a test's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpu_model.h"
#include "host_fma.h"
#include "peaks.h"
#include "tests/test_main.h"

#include <math.h>
#include <omp.h>
#include <string.h>

static void test_the_reference_measures_and_checks_itself(void **state)
{
    (void)state;
    cr_host_fma m;
    char err[200] = "";
    if (cr_host_fma_measure(2, &m, err, sizeof err) != 0)
        fail_msg("%s", err);
    for (int t = 0; t < 2; ++t) {
        assert_true(isfinite(m.best_gflops[t]) && m.best_gflops[t] > 0);
        assert_true(m.best_gflops[t] >= m.median_gflops[t]);
        assert_true(m.median_gflops[t] > 0);
    }
    assert_int_equal(m.lanes[0], m.lanes[1] == 1 ? 1 : 2 * m.lanes[1]);
    assert_int_equal(m.threads, omp_get_max_threads());
    assert_int_equal(m.reps, 2);
    assert_true(m.chains >= 10);
    assert_true(isfinite(m.chain_step_s) && m.chain_step_s > 0);
    assert_true(strcmp(m.isa, "AVX-512") == 0 || strcmp(m.isa, "AVX2+FMA") == 0 || strcmp(m.isa, "scalar") == 0);
}

static void test_no_repetition_is_refused(void **state)
{
    (void)state;
    cr_host_fma m;
    char err[200] = "";
    assert_int_equal(cr_host_fma_measure(0, &m, err, sizeof err), -1);
    assert_string_equal(err, "the host FMA reference needs a repetition at least, not 0");
}

/* The peaks of a CPU device: the measured best replaces the device's own,
 * and says how it was taken; the model beside it where the host's
 * microarchitecture is in the table, with a verdict either way. */
static void test_a_cpu_device_takes_the_measured_peak(void **state)
{
    (void)state;
    cr_device_info d = {.is_cpu = true, .unified_memory = true, .compute_units = 2, .clock_mhz = 2600,
                        .fma_lanes = {16, 8}, .fma_pipes = 2};
    snprintf(d.fma_basis, sizeof d.fma_basis, "planted");
    cr_peaks p;
    cr_peaks_for_device(&d, 0, 0.01, &p);
    double device_float = p.compute_gflops[0];
    cr_peaks_measure_host_compute(&p, 2);
    assert_true(isfinite(p.compute_gflops[0]) && p.compute_gflops[0] > 0);
    assert_true(p.compute_gflops[0] != device_float);
    assert_non_null(strstr(p.compute_source, "the host's peak measured alone before the run"));
    cr_cpu_id id;
    if (cr_cpu_id_read(&id) == 0 && cr_cpu_arch_of(&id) != NULL) {
        assert_true(p.compute_model_gflops[0] > 0 && p.host_clock_mhz > 0);
        assert_true(strncmp(p.compute_check, "agree within 15%: ", 18) == 0 ||
                    strncmp(p.compute_check, "disagree: ", 10) == 0);
        assert_non_null(strstr(p.compute_model_source, "FMA pipes"));
    } else {
        assert_true(isnan(p.compute_model_gflops[0]));
        assert_non_null(strstr(p.compute_model_source, "is not in the table"));
    }
}

TEST_MAIN(NULL, NULL, test_the_reference_measures_and_checks_itself, test_no_repetition_is_refused,
          test_a_cpu_device_takes_the_measured_peak)
