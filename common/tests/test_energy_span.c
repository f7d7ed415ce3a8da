/* How long a reading must span, and the idle power over such a span, with
 * a recorded powercap tree whose package counter the fake clock drives: it
 * gains 20 mJ at every millisecond (20 W), wrapping as RAPL's does. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "energy.h"
#include "tests/energy_fakes.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <string.h>

#define UPDATE_NS 1000000ull   /* the fake RAPL's update interval: 1 ms */
#define UJ_PER_UPDATE 20000ull /* 20 W */
static uint64_t uj_per_update = UJ_PER_UPDATE; /* 0: a counter the host never updates */

static char dir[128];
CR_SCRATCH_FIXTURES(dir, "energy-span")

static char root[256];
static uint64_t start_uj, range_uj; /* the package counter at the clock's start, its max_energy_range_uj */
static bool dram_too; /* the DRAM counter updates as well, half an interval after the package's */

/* What the counter files hold, so that a file is written only when its
 * counter moves (a counter that never moves is polled ten thousand times). */
static uint64_t written_package, written_dram;
#define NOTHING_WRITTEN UINT64_MAX

static void write_counter(const char *zone, uint64_t uj, uint64_t *written)
{
    if (uj == *written)
        return;
    assert_int_equal(write_zone_file(root, zone, "energy_uj", uj), 0);
    *written = uj;
}

/* The counters at the fake clock's time: whole updates only. */
static void update_package(void)
{
    uint64_t ns = fake_clock_ns() - FAKE_START_NS;
    write_counter("intel-rapl:0", (start_uj + ns / UPDATE_NS * uj_per_update) % (range_uj + 1), &written_package);
    if (dram_too)
        write_counter("intel-rapl:0:1", (ns + UPDATE_NS / 2) / UPDATE_NS * 5000, &written_dram);
}

/* A meter on a fresh copy of the server tree, its package counter at start
 * and wrapping after range. */
static cr_energy_meter *open_driven(uint64_t start, uint64_t range)
{
    snprintf(root, sizeof root, "%s/tree", dir);
    assert_int_equal(copy_tree("package-dram", root), 0);
    start_uj = start;
    range_uj = range;
    dram_too = false;
    assert_int_equal(write_zone_file(root, "intel-rapl:0", "max_energy_range_uj", range), 0);
    written_package = written_dram = NOTHING_WRITTEN;
    fake_clock_reset(update_package);
    update_package();
    cr_device_info info = host_cpu();
    cr_energy_source src = fake_source(root, NULL);
    cr_energy_meter *m;
    char why[CR_ERRLEN];
    if (cr_energy_open(&info, &src, &m, why, sizeof why) != CR_OK)
        fail_msg("%s", why);
    return m;
}

static double static_w(cr_energy_meter *m, double seconds, double *elapsed)
{
    double watts, t = fake_now_s();
    char err[CR_ERRLEN];
    if (cr_energy_static_w(m, seconds, &watts, err, sizeof err) != CR_OK)
        fail_msg("%s", err);
    *elapsed = fake_now_s() - t;
    return watts;
}

static void test_the_interval_is_observed(void **state)
{
    (void)state;
    cr_energy_meter *m = open_driven(1000, 262143328850ull);
    assert_close(cr_energy_interval_s(m), 1e-3, 1e-12);
    assert_string_equal(cr_energy_interval_basis(m), "observed: 4 updates in 0.004000 s");
    cr_energy_close(m);
}

/* A package and its DRAM update at different times: the interval is that of
 * one counter, not of their sum, which changes twice as often. */
static void test_the_interval_is_that_of_one_counter(void **state)
{
    (void)state;
    cr_energy_meter *m = open_driven(1000, 262143328850ull);
    cr_energy_close(m);
    dram_too = true;
    update_package();
    cr_device_info info = host_cpu();
    cr_energy_source src = fake_source(root, NULL);
    char why[CR_ERRLEN];
    if (cr_energy_open(&info, &src, &m, why, sizeof why) != CR_OK)
        fail_msg("%s", why);
    assert_close(cr_energy_interval_s(m), 1e-3, 1e-12);
    cr_energy_close(m);
}

static void test_a_window_is_long_enough_for_both_bounds(void **state)
{
    (void)state;
    cr_energy_meter *m = open_driven(1000, 262143328850ull);
    assert_close(cr_energy_window_s(m, 0.5, 100), 0.5, 1e-12);
    assert_close(cr_energy_window_s(m, 0.01, 100), 0.1, 1e-12);
    assert_close(cr_energy_window_s(m, 0.0, 0), 0.0, 0);
    cr_energy_close(m);
}

static void test_static_power_spans_whole_updates(void **state)
{
    (void)state;
    cr_energy_meter *m = open_driven(1000, 262143328850ull);
    double elapsed;
    assert_close(static_w(m, 0.3, &elapsed), 20.0, 1e-9);
    assert_true(elapsed >= 0.3);
    /* No time asked for: 20 updates all the same. */
    assert_close(static_w(m, 0.0, &elapsed), 20.0, 1e-9);
    assert_true(elapsed >= 20e-3);
    cr_energy_close(m);
}

/* A counter that wraps every 1.5 s at 20 W, twice in a 3 s span: the wait
 * reads it often enough to see each wrap. */
static void test_static_power_across_wraps(void **state)
{
    (void)state;
    cr_energy_meter *m = open_driven(29000000, 30000000);
    double elapsed, before;
    char err[CR_ERRLEN];
    assert_int_equal(cr_energy_read(m, &before, err, sizeof err), CR_OK);
    assert_close(static_w(m, 3.0, &elapsed), 20.0, 1e-9);
    assert_true(elapsed >= 3.0);
    double after;
    assert_int_equal(cr_energy_read(m, &after, err, sizeof err), CR_OK);
    assert_true(after - before >= 20.0 * 3.0);
    cr_energy_close(m);
}

/* A counter that never moves (a host exposing a sensor it does not
 * update): the static power is refused, naming why, not read as 0 W. */
static void test_a_counter_that_never_moves_is_refused(void **state)
{
    (void)state;
    uj_per_update = 0;
    cr_energy_meter *m = open_driven(1000, 262143328850ull);
    double watts = -1;
    char err[CR_ERRLEN];
    assert_int_equal(cr_energy_static_w(m, 0.3, &watts, err, sizeof err), CR_ERR);
    assert_non_null(strstr(err, "powercap:package-0+dram: the energy counter did not move in "));
    assert_non_null(strstr(err, "the sensor is not updated here"));
    assert_close(watts, -1.0, 0);
    uj_per_update = UJ_PER_UPDATE;
    cr_energy_close(m);
}

static void test_a_negative_or_nan_time_is_refused(void **state)
{
    (void)state;
    cr_energy_meter *m = open_driven(1000, 262143328850ull);
    double watts = -1;
    char err[CR_ERRLEN];
    assert_int_equal(cr_energy_static_w(m, -1.0, &watts, err, sizeof err), CR_ERR);
    assert_string_equal(err, "static power over -1 s: the time must be a finite number >= 0");
    assert_int_equal(cr_energy_static_w(m, NAN, &watts, err, sizeof err), CR_ERR);
    assert_int_equal(cr_energy_static_w(m, INFINITY, &watts, err, sizeof err), CR_ERR);
    assert_close(watts, -1.0, 0);
    cr_energy_close(m);
}

/* A discrete GPU that is not NVIDIA's has no sensor here; an APU shares
 * the host's memory and its package counters. */
static void test_the_sensor_follows_the_device(void **state)
{
    (void)state;
    cr_device_info gpu = {.unified_memory = false};
    snprintf(gpu.name, sizeof gpu.name, "gfx90a");
    snprintf(gpu.vendor, sizeof gpu.vendor, "Advanced Micro Devices, Inc.");
    cr_energy_source src = fake_source("common/tests/data/powercap-amd", NULL);
    fake_clock_reset(NULL);
    cr_energy_meter *m;
    char why[CR_ERRLEN];
    assert_int_equal(cr_energy_open(&gpu, &src, &m, why, sizeof why), CR_UNSUPPORTED);
    assert_string_equal(why, "no energy sensor for gfx90a (NVML covers NVIDIA devices, powercap the host CPU and "
                             "devices sharing its memory)");
    cr_device_info apu = gpu;
    apu.unified_memory = true;
    assert_int_equal(cr_energy_open(&apu, &src, &m, why, sizeof why), CR_OK);
    assert_string_equal(cr_energy_sensor(m), "powercap:package-0");
    cr_energy_close(m);
}

TEST_MAIN(scratch_setup, scratch_teardown, test_the_interval_is_observed, test_the_interval_is_that_of_one_counter,
          test_a_window_is_long_enough_for_both_bounds,
          test_static_power_spans_whole_updates, test_static_power_across_wraps, test_a_negative_or_nan_time_is_refused,
          test_a_counter_that_never_moves_is_refused,
          test_the_sensor_follows_the_device)
