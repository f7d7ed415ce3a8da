/* The energy a measurement gives each point: repetitions run back to back
 * over the window before the timed ones, the sensor read around them, the
 * static power taken off, and the joules per byte and per operation that a
 * row then carries. The sensor is a powercap tree whose counters the
 * repetitions themselves advance, by known amounts. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/energy_fakes.h"
#include "tests/energy_row.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include "measure.h"
#include "plausibility.h"
#include "results.h"

#include <math.h>
#include <string.h>

#define PACKAGE "intel-rapl:0"
#define DRAM "intel-rapl:0:1" /* :0 is "core", inside the package */
#define RANGE_UJ UINT64_C(262143328850)

static char scratch[128], tree[256];
static uint64_t package_uj, dram_uj;

/* Where the counters stand; the package starts just below its wrap, so
 * that every measurement below crosses it. */
static void set_counters(uint64_t package, uint64_t dram)
{
    package_uj = package % (RANGE_UJ + 1);
    dram_uj = dram % (RANGE_UJ + 1);
    assert_int_equal(write_zone_file(tree, PACKAGE, "energy_uj", package_uj), 0);
    assert_int_equal(write_zone_file(tree, DRAM, "energy_uj", dram_uj), 0);
}

typedef struct {
    uint64_t package_uj, dram_uj; /* what one repetition costs */
    unsigned calls;
} rep_cost;

static cr_status costly_rep(void *arg, cr_timing *t, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    rep_cost *c = arg;
    set_counters(package_uj + c->package_uj, dram_uj + c->dram_uj);
    ++c->calls;
    *t = (cr_timing){.host_ns = 1000000};
    return CR_OK;
}

/* A repetition while the package's counter is gone: it leaves it gone. */
static cr_status costly_rep_no_package(void *arg, cr_timing *t, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    ++((rep_cost *)arg)->calls;
    *t = (cr_timing){.host_ns = 1000000};
    return CR_OK;
}

/* A microsecond kernel launched on its own, as a small stream point is:
 * 10 us on the device's events within a millisecond of the host's, so that
 * the device idles through most of the window. */
static cr_status idle_rep(void *arg, cr_timing *t, char *err, size_t errlen)
{
    uint64_t start = cr_now_ns();
    nanosleep(&(struct timespec){0, 1000000}, NULL);
    cr_status st = costly_rep(arg, t, err, errlen);
    *t = (cr_timing){.has_event = true, .ev_start_ns = 5000, .ev_end_ns = 15000, .host_ns = cr_now_ns() - start};
    return st;
}

/* A repetition the device is busy with for longer than any window here
 * lasts: whatever the machine's load, the window counts as busy. */
static cr_status busy_rep(void *arg, cr_timing *t, char *err, size_t errlen)
{
    cr_status st = costly_rep(arg, t, err, errlen);
    t->host_ns = 1000000000;
    return st;
}

static cr_energy_meter *meter;

static int open_meter(void **state)
{
    (void)state;
    if (cr_scratch_make(scratch, sizeof scratch, "measure-energy") != 0)
        return -1;
    snprintf(tree, sizeof tree, "%s/powercap", scratch);
    if (copy_tree("package-dram", tree) != 0)
        return -1;
    set_counters(RANGE_UJ - 500, 0);
    fake_clock_reset(NULL);
    cr_device_info cpu = host_cpu();
    cr_energy_source src = fake_source(tree, NULL);
    char why[256];
    return cr_energy_open(&cpu, &src, &meter, why, sizeof why) == CR_OK ? 0 : -1;
}

static int close_meter(void **state)
{
    (void)state;
    cr_energy_close(meter);
    return cr_scratch_remove(scratch);
}

/* Few repetitions, no warm-up: the tests are about energy, not stopping. */
static void init_ctx(cr_measure_ctx *m, const cr_energy_ctx *e)
{
    cr_stop_rule rule = {.min_reps = 3, .max_reps = 3, .min_time_s = 0, .max_time_s = 10, .target_ci = 0.5};
    cr_measure_init(m, &rule, 0, 0);
    m->energy = e;
}

/* One point measured through a context with the meter (NULL: none), its
 * static power and its window. */
static cr_measurement measure_point(cr_energy_meter *with, double static_w, double window_s, cr_rep_fn fn,
                                    rep_cost *cost)
{
    cr_energy_ctx e = {with, static_w, window_s};
    cr_measure_ctx m;
    init_ctx(&m, with ? &e : NULL);
    cr_measurement out;
    char err[256];
    assert_int_equal(cr_measure(&m, fn, cost, &out, err, sizeof err), CR_OK);
    return out;
}

static void test_one_point_gets_its_repetitions_energy(void **state)
{
    (void)state;
    rep_cost cost = {1000, 250, 0};
    set_counters(RANGE_UJ - 500, 0);
    cr_measurement out = measure_point(meter, 0, 0, costly_rep, &cost);
    const cr_energy_point *p = &out.energy;
    assert_true(p->measured);
    assert_string_equal(p->sensor, "powercap:package-0+dram");
    /* A zero window still takes two repetitions, then the three timed. */
    assert_int_equal(p->reps, 2);
    assert_int_equal(cost.calls, 5);
    /* Across the package counter's wrap, and with nothing static. */
    assert_close(p->energy_j, 1250e-6, 1e-12);
    assert_close(p->power_w * p->window_s, 2 * 1250e-6, 1e-12);
    assert_int_equal(out.stats.n, 3);
}

static void test_static_power_is_taken_off(void **state)
{
    (void)state;
    rep_cost cost = {5000, 0, 0};
    cr_measurement out = measure_point(meter, 2.0, 0.02, costly_rep, &cost);
    const cr_energy_point *p = &out.energy;
    assert_true(p->measured);
    assert_true(p->window_s >= 0.02);
    assert_int_equal(p->reps, cost.calls - 3);
    assert_close(p->static_w, 2.0, 0);
    assert_close(p->energy_j, 5000e-6 - 2.0 * p->window_s / (double)p->reps, 1e-12);
    assert_close(p->power_w, (5000e-6 * (double)p->reps - 2.0 * p->window_s) / p->window_s, 1e-9);
}

/* A sweep's points each have their own energy; the phases of one
 * operation (interleaved series) share one round's. */
static void test_points_apart_phases_together(void **state)
{
    (void)state;
    cr_energy_ctx e = {meter, 0, 0};
    cr_measure_ctx m;
    init_ctx(&m, &e);
    rep_cost cost[2] = {{1000, 0, 0}, {3000, 0, 0}};
    cr_series s[2] = {{.ctx = &m, .fn = costly_rep, .arg = &cost[0]}, {.ctx = &m, .fn = costly_rep, .arg = &cost[1]}};
    char err[256];
    assert_int_equal(cr_measure_sweep_interleaved(s, 2, 2, err, sizeof err), CR_OK);
    assert_close(s[0].out.energy.energy_j, 1000e-6, 1e-12);
    assert_close(s[1].out.energy.energy_j, 3000e-6, 1e-12);

    cost[0].calls = cost[1].calls = 0;
    assert_int_equal(cr_measure_interleaved(s, 2, err, sizeof err), CR_OK);
    assert_close(s[0].out.energy.energy_j, 4000e-6, 1e-12);
    assert_close(s[1].out.energy.energy_j, 4000e-6, 1e-12);
    assert_int_equal(cost[0].calls, cost[1].calls); /* in rounds: never one phase without the other */
}

/* No sensor in the context: nothing is run for energy, nothing reported. */
static void test_no_sensor_no_energy_runs(void **state)
{
    (void)state;
    rep_cost cost = {1000, 0, 0};
    cr_measurement out = measure_point(NULL, 0, 0, costly_rep, &cost);
    assert_int_equal(cost.calls, 3);
    assert_false(out.energy.measured);
    assert_string_equal(out.energy.sensor, "");
    cr_result r = {.bytes_per_rep = 100};
    cr_measurement_to_row(&out, &r);
    cr_result_energy_per_unit(&r);
    assert_true(r.energy_j == 0 && r.pj_per_byte == 0 && r.energy_sensor[0] == '\0');
}

/* A counter the sensor cannot read any more: the point keeps its times and
 * says why it has no energy. */
static void test_unreadable_sensor_leaves_the_point_without_energy(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/%s/energy_uj", tree, PACKAGE);
    assert_int_equal(remove(path), 0);
    rep_cost cost = {0, 0, 0};
    cr_measurement out = measure_point(meter, 0, 0, costly_rep_no_package, &cost);
    assert_false(out.energy.measured);
    assert_non_null(strstr(out.energy.why, "energy_uj"));
    assert_int_equal(out.stats.n, 3);
    cr_result r = {0};
    cr_measurement_to_row(&out, &r);
    assert_string_equal(r.energy_sensor, "powercap:package-0+dram");
    assert_non_null(strstr(r.params, "energy_error="));
    set_counters(RANGE_UJ - 500, 0);
}

/* The row's per-byte and per-operation energies, and the flag of a point
 * that drew less than the static power. */
static void test_row_energy_per_byte_and_op(void **state)
{
    (void)state;
    cr_measurement out = {.timer = "host", .stop = CR_STOP_STABLE};
    out.energy = (cr_energy_point){.measured = true, .energy_j = 2e-3, .power_w = 4, .static_w = 30,
                                   .window_s = 0.5, .reps = 1000, .interval_s = 0.001, .busy = 0.95};
    snprintf(out.energy.sensor, sizeof out.energy.sensor, "powercap:package-0");
    cr_result r = {.bytes_per_rep = 1e6, .ops_per_rep = 4e6};
    cr_measurement_to_row(&out, &r);
    cr_result_energy_per_unit(&r);
    assert_close(r.pj_per_byte, 2000, 1e-9);
    assert_close(r.pj_per_op, 500, 1e-9);
    assert_close(r.static_w, 30, 0);
    assert_close(r.energy_interval_s, 0.001, 0);
    assert_non_null(strstr(r.params, "energy_reps=1000"));
    assert_non_null(strstr(r.params, "energy_busy=0.95"));
    assert_string_equal(r.flags, "");

    out.energy.energy_j = -1e-4;
    out.energy.power_w = -0.2;
    cr_result neg = {.bytes_per_rep = 1e6};
    cr_measurement_to_row(&out, &neg);
    cr_result_energy_per_unit(&neg);
    assert_string_equal(neg.flags, "energy-below-static");
    assert_non_null(strstr(neg.note, "0.2 W less"));
    expect_energy_left_out(&neg, "energy-below-static");
}

/* Repetitions that leave the device idle for most of the window: the
 * energy counted is the idle device's, so the row has none of its own. */
static void test_an_idle_window_gives_no_energy(void **state)
{
    (void)state;
    rep_cost cost = {1000, 0, 0};
    /* 10 us of each millisecond or more. */
    cr_measurement out = measure_point(meter, 0, 0.02, idle_rep, &cost);
    expect_idle_point(&out);
}

/* A busy window that still drew less than the static power: flagged, and
 * its energy left out rather than written negative. */
static void test_energy_below_static_is_never_negative(void **state)
{
    (void)state;
    rep_cost cost = {1000, 0, 0};
    cr_measurement out = measure_point(meter, 1e4, 0.02, busy_rep, &cost);
    expect_below_static_point(&out);
}

TEST_MAIN(open_meter, close_meter, test_one_point_gets_its_repetitions_energy, test_static_power_is_taken_off,
          test_points_apart_phases_together, test_no_sensor_no_energy_runs,
          test_unreadable_sensor_leaves_the_point_without_energy, test_row_energy_per_byte_and_op,
          test_an_idle_window_gives_no_energy, test_energy_below_static_is_never_negative)
