/* NVIDIA energy through a stand-in for NVML at its device boundary: the
 * total-energy counter, the power sampled where the counter is not
 * supported, and the reasons when NVML cannot give either. The fake clock
 * drives the stand-in's sensor: a reading updates every 20 ms. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "energy.h"
#include "measure.h"
#include "tests/energy_fakes.h"
#include "tests/energy_row.h"
#include "tests/test_main.h"

#include <string.h>

#define BUS_ID "0000:17:00.0"
#define UPDATE_NS 20000000ull /* 20 ms */
#define MJ_PER_UPDATE 3000ull /* 150 W */

static struct {
    int init_rc, counter_rc, power_rc;
    int inits, shutdowns;
    unsigned long long counter_start_mj;
    int device; /* what the handle points to */
} nvml;

static uint64_t updates_since_start(void) { return (fake_clock_ns() - FAKE_START_NS) / UPDATE_NS; }

static int fake_init(void)
{
    nvml.inits += nvml.init_rc == 0;
    return nvml.init_rc;
}

static int fake_shutdown(void)
{
    ++nvml.shutdowns;
    return 0;
}

static int fake_by_bus_id(const char *bus_id, void **dev)
{
    if (strcmp(bus_id, BUS_ID) != 0)
        return CR_NVML_ERROR_NOT_FOUND;
    *dev = &nvml.device;
    return 0;
}

static int fake_total_energy(void *dev, unsigned long long *mj)
{
    assert_ptr_equal(dev, &nvml.device);
    if (nvml.counter_rc != 0)
        return nvml.counter_rc;
    *mj = nvml.counter_start_mj + updates_since_start() * MJ_PER_UPDATE;
    return 0;
}

/* 150 W, with a milliwatt more at every other update: the reading changes
 * at each update, so its interval can be seen. */
static int fake_power(void *dev, unsigned *mw)
{
    assert_ptr_equal(dev, &nvml.device);
    int rc = __atomic_load_n(&nvml.power_rc, __ATOMIC_SEQ_CST);
    if (rc != 0)
        return rc;
    *mw = 150000u + (unsigned)(updates_since_start() % 2);
    return 0;
}

static const char *fake_error_string(int rc)
{
    switch (rc) {
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 6: return "Not Found";
    case 9: return "Driver Not Loaded";
    case 15: return "GPU is lost";
    default: return "Unknown Error";
    }
}

static const cr_nvml_api fake_api = {fake_init,         fake_shutdown, fake_by_bus_id, fake_total_energy,
                                     fake_power,        fake_error_string};

/* Each test starts from an NVML that works and a clock at its start. */
static void reset(void)
{
    memset(&nvml, 0, sizeof nvml);
    nvml.counter_start_mj = 123456789ull;
    fake_clock_reset(NULL);
}

static cr_device_info nvidia_gpu(const char *bus_id)
{
    cr_device_info info = {.unified_memory = false};
    snprintf(info.name, sizeof info.name, "NVIDIA H100 80GB HBM3");
    snprintf(info.vendor, sizeof info.vendor, "NVIDIA");
    snprintf(info.pci_bus_id, sizeof info.pci_bus_id, "%s", bus_id);
    return info;
}

static cr_status open_gpu(const char *bus_id, cr_energy_meter **m, char *why, size_t len)
{
    cr_device_info info = nvidia_gpu(bus_id);
    /* A powercap tree is there too: an NVIDIA device must not be given it. */
    cr_energy_source src = fake_source("common/tests/data/powercap-package-dram", &fake_api);
    return cr_energy_open(&info, &src, m, why, len);
}

static cr_energy_meter *open_ok(void) { return open_meter_ok(open_gpu, BUS_ID); }

static void assert_unsupported(const char *bus_id, const char *expected_why)
{
    char why[CR_ERRLEN];
    open_meter_unsupported(open_gpu, bus_id, why, sizeof why);
    assert_string_equal(why, expected_why);
    assert_int_equal(nvml.shutdowns, nvml.inits);
}

static void test_the_total_energy_counter_is_read(void **state)
{
    (void)state;
    reset();
    cr_energy_meter *m = open_ok();
    assert_string_equal(cr_energy_sensor(m), "nvml:total-energy");
    assert_close(cr_energy_interval_s(m), 0.02, 1e-12);
    assert_close(read_joules(m), 0.0, 0);
    fake_clock_advance_s(10.0);
    assert_close(read_joules(m), 1500.0, 1e-9);
    cr_energy_close(m);
    assert_int_equal(nvml.inits, 1);
    assert_int_equal(nvml.shutdowns, 1);
}

static void test_static_power_of_the_counter(void **state)
{
    (void)state;
    reset();
    cr_energy_meter *m = open_ok();
    double watts;
    char err[CR_ERRLEN];
    assert_int_equal(cr_energy_static_w(m, 0.1, &watts, err, sizeof err), CR_OK);
    /* 20 updates of 20 ms: 0.4 s, longer than the 0.1 s asked for. */
    assert_close(watts, 150.0, 1e-6);
    cr_energy_close(m);
}

static void test_a_counter_going_back_is_an_error(void **state)
{
    (void)state;
    reset();
    cr_energy_meter *m = open_ok();
    nvml.counter_start_mj -= 5000;
    double j;
    char err[CR_ERRLEN];
    assert_int_equal(cr_energy_read(m, &j, err, sizeof err), CR_ERR);
    assert_non_null(strstr(err, "nvml:total-energy: the energy counter went back from"));
    cr_energy_close(m);
}

static void test_the_power_is_sampled_without_a_counter(void **state)
{
    (void)state;
    reset();
    nvml.counter_rc = CR_NVML_ERROR_NOT_SUPPORTED;
    cr_energy_meter *m = open_ok();
    assert_string_equal(cr_energy_sensor(m), "nvml:power-samples");
    assert_close(cr_energy_interval_s(m), 0.02, 1e-12);
    double start = read_joules(m);
    fake_clock_advance_s(10.0);
    /* 150 W, or 150.001 W over some updates, for 10 s. */
    assert_close(read_joules(m) - start, 1500.0, 0.011);
    double watts;
    char err[CR_ERRLEN];
    assert_int_equal(cr_energy_static_w(m, 0.2, &watts, err, sizeof err), CR_OK);
    assert_close(watts, 150.0, 1.1e-3);
    cr_energy_close(m);
    assert_int_equal(nvml.shutdowns, 1);
}

/* The sampling thread's failure reaches the next reading. */
static void test_a_failed_sample_is_reported(void **state)
{
    (void)state;
    reset();
    nvml.counter_rc = CR_NVML_ERROR_NOT_SUPPORTED;
    cr_energy_meter *m = open_ok();
    __atomic_store_n(&nvml.power_rc, 15, __ATOMIC_SEQ_CST);
    double j;
    char err[CR_ERRLEN] = "";
    cr_status st = CR_OK;
    for (int i = 0; i < 2000 && (st = cr_energy_read(m, &j, err, sizeof err)) == CR_OK; ++i)
        nanosleep(&(struct timespec){0, 1000000}, NULL); /* the thread samples every 0.1 ms */
    assert_int_equal(st, CR_ERR);
    assert_string_equal(err, "nvmlDeviceGetPowerUsage: GPU is lost");
    cr_energy_close(m);
}

/* ---- a point's energy through the counter ---- */

/* A repetition as a small stream kernel on an H200 makes it: 3.2 us on the
 * device's events, about a millisecond on the host's clock, the GPU drawing
 * 150 W meanwhile (the fake clock, which drives the counter, moves with it). */
static cr_status launched_alone(void *arg, cr_timing *t, char *err, size_t errlen)
{
    (void)arg, (void)err, (void)errlen;
    uint64_t start = cr_now_ns();
    nanosleep(&(struct timespec){0, 1000000}, NULL);
    fake_clock_advance_s(1e-3);
    *t = (cr_timing){.has_event = true, .ev_start_ns = 1000, .ev_end_ns = 4200, .host_ns = cr_now_ns() - start};
    return CR_OK;
}

/* A repetition that keeps the device busy (a millisecond on its events)
 * while the counter stands still: no update falls in the window. */
static cr_status busy_unseen(void *arg, cr_timing *t, char *err, size_t errlen)
{
    (void)arg, (void)err, (void)errlen;
    *t = (cr_timing){.has_event = true, .ev_start_ns = 0, .ev_end_ns = 1000000, .host_ns = 1000000};
    return CR_OK;
}

/* One point measured on the counter of a working NVML, with the static
 * power and window given. */
static cr_measurement measure_on_counter(double static_w, double window_s, cr_rep_fn fn)
{
    reset();
    cr_energy_meter *m = open_ok();
    cr_energy_ctx e = {m, static_w, window_s};
    cr_stop_rule rule = {.min_reps = 3, .max_reps = 3, .min_time_s = 0, .max_time_s = 10, .target_ci = 0.5};
    cr_measure_ctx ctx;
    cr_measure_init(&ctx, &rule, 0, 0);
    ctx.energy = &e;
    cr_measurement out;
    char err[CR_ERRLEN];
    if (cr_measure(&ctx, fn, NULL, &out, err, sizeof err) != CR_OK)
        fail_msg("%s", err);
    cr_energy_close(m);
    return out;
}

static void test_a_point_the_gpu_idles_through_has_no_energy(void **state)
{
    (void)state;
    cr_measurement out = measure_on_counter(0, 0.1, launched_alone);
    expect_idle_point(&out);
    assert_string_equal(out.energy.sensor, "nvml:total-energy");
}

static void test_a_point_below_the_static_power_is_not_negative(void **state)
{
    (void)state;
    expect_below_static_point((cr_measurement[]){measure_on_counter(150, 0.01, busy_unseen)});
}

/* A counter that stands still through a window of several of its updates
 * has stopped (it moved for the static power): the point has no energy,
 * and says why, rather than the static power's negative. */
static void test_a_counter_that_stops_leaves_the_point_without_energy(void **state)
{
    (void)state;
    cr_measurement out = measure_on_counter(150, 0.3, busy_unseen);
    assert_false(out.energy.measured);
    assert_non_null(strstr(out.energy.why, "nvml:total-energy: the energy counter did not move in the point's"));
}

/* Each way NVML cannot be read: the reason, and NVML started (inits) and
 * shut down again as often. */
static void test_devices_nvml_cannot_read(void **state)
{
    (void)state;
    static const struct {
        const char *bus_id;
        int init_rc, counter_rc, power_rc, inits;
        const char *why;
    } cases[] = {
        {"0000:65:00.0", 0, 0, 0, 1, "NVML has no device with PCI bus id 0000:65:00.0: Not Found"},
        {BUS_ID, 9, 0, 0, 0, "nvmlInit failed: Driver Not Loaded"},
        {BUS_ID, 0, CR_NVML_ERROR_NOT_SUPPORTED, CR_NVML_ERROR_NO_PERMISSION, 1,
         "NVML reads neither the total energy (Not Supported) nor the power (Insufficient Permissions) of " BUS_ID},
        {"", 0, 0, 0, 0, "the NVIDIA device has no PCI bus id to find it by in NVML"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        reset();
        nvml.init_rc = cases[i].init_rc;
        nvml.counter_rc = cases[i].counter_rc;
        nvml.power_rc = cases[i].power_rc;
        assert_unsupported(cases[i].bus_id, cases[i].why);
        assert_int_equal(nvml.inits, cases[i].inits);
    }
}

/* The library itself, where the machine has one; its absence is a reason,
 * not an error. */
static void test_the_library_is_found_at_run_time_or_named(void **state)
{
    (void)state;
    reset();
    cr_nvml_library *lib;
    cr_nvml_api api;
    char why[CR_ERRLEN] = "";
    cr_status st = cr_nvml_load(&lib, &api, why, sizeof why);
    if (st == CR_OK) {
        assert_non_null(api.init);
        assert_non_null(api.total_energy_mj);
        cr_nvml_unload(lib);
        return;
    }
    assert_int_equal(st, CR_UNSUPPORTED);
    assert_null(lib);
    assert_true(strncmp(why, "libnvidia-ml.so.1 not found (", 29) == 0 || strstr(why, "libnvidia-ml.so.1 has no "));
}

TEST_MAIN(NULL, NULL, test_the_total_energy_counter_is_read, test_static_power_of_the_counter,
          test_a_counter_going_back_is_an_error, test_the_power_is_sampled_without_a_counter,
          test_a_failed_sample_is_reported, test_a_point_the_gpu_idles_through_has_no_energy,
          test_a_point_below_the_static_power_is_not_negative, test_a_counter_that_stops_leaves_the_point_without_energy,
          test_devices_nvml_cannot_read,
          test_the_library_is_found_at_run_time_or_named)
