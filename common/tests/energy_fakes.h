/* What the energy tests stand in for: a clock that moves only when the
 * test's thread sleeps (so that a sensor's updates fall at known times), and
 * powercap trees copied from the recorded ones under common/tests/data
 * (tests run from the top of the tree), whose counters a test rewrites.
 * Include after cmocka.h. */
#ifndef CR_ENERGY_FAKES_H
#define CR_ENERGY_FAKES_H

#include "energy.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define FAKE_START_NS 1000000000ull

/* cmocka's assert_float_equal compares floats: too coarse for joules
 * counted in microjoules. */
#define assert_close(actual, expected, tolerance)                                                                      \
    do {                                                                                                               \
        double a_ = (actual), e_ = (expected);                                                                         \
        if (!(fabs(a_ - e_) <= (tolerance)))                                                                           \
            fail_msg("%.12g is not %.12g within %g", a_, e_, (double)(tolerance));                                   \
    } while (0)

static uint64_t fake_ns;
static pthread_t fake_owner;
static void (*fake_after_sleep)(void);

static inline uint64_t fake_clock_ns(void) { return __atomic_load_n(&fake_ns, __ATOMIC_SEQ_CST); }
static inline double fake_now_s(void) { return (double)fake_clock_ns() * 1e-9; }

/* The test's thread moves the clock by what it asks for, then lets the
 * test update its sensor; any other thread (a power sampler) sleeps a real
 * 0.1 ms and leaves the clock alone. */
static inline void fake_sleep_s(double s)
{
    if (!pthread_equal(pthread_self(), fake_owner)) {
        nanosleep(&(struct timespec){0, 100000}, NULL);
        return;
    }
    /* A real sleep never returns at the same time: at least a nanosecond. */
    uint64_t ns = (uint64_t)llround(s * 1e9);
    __atomic_add_fetch(&fake_ns, ns > 0 ? ns : 1, __ATOMIC_SEQ_CST);
    if (fake_after_sleep)
        fake_after_sleep();
}

/* The clock back at its start, owned by the calling thread; after_sleep
 * (NULL: none) runs after each of its sleeps. */
static inline void fake_clock_reset(void (*after_sleep)(void))
{
    __atomic_store_n(&fake_ns, FAKE_START_NS, __ATOMIC_SEQ_CST);
    fake_owner = pthread_self();
    fake_after_sleep = after_sleep;
}

/* The clock moved by the test itself, as if time had passed elsewhere. */
static inline void fake_clock_advance_s(double s)
{
    __atomic_add_fetch(&fake_ns, (uint64_t)llround(s * 1e9), __ATOMIC_SEQ_CST);
}

/* The meter's joules since open; a failed reading fails the test. */
static inline double read_joules(cr_energy_meter *m)
{
    double j;
    char err[CR_ERRLEN];
    if (cr_energy_read(m, &j, err, sizeof err) != CR_OK)
        fail_msg("%s", err);
    return j;
}

static inline cr_energy_source fake_source(const char *powercap_root, const cr_nvml_api *nvml)
{
    return (cr_energy_source){
        .powercap_root = powercap_root, .nvml = nvml, .now_s = fake_now_s, .sleep_s = fake_sleep_s};
}

/* A host CPU, as an OpenCL CPU runtime reports it. */
static inline cr_device_info host_cpu(void)
{
    cr_device_info info = {.is_cpu = true, .unified_memory = true};
    snprintf(info.name, sizeof info.name, "test CPU");
    snprintf(info.vendor, sizeof info.vendor, "GenuineIntel");
    return info;
}

/* A copy of the recorded tree common/tests/data/powercap-NAME at dest. */
static inline int copy_tree(const char *name, const char *dest)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -R 'common/tests/data/powercap-%s' '%s'", dest, name, dest);
    return system(cmd);
}

/* How a test opens a meter on WHERE (a powercap root, a GPU's bus id). */
typedef cr_status (*meter_open_fn)(const char *where, cr_energy_meter **m, char *why, size_t len);

/* The meter open() gives, failing the test with its reason otherwise. */
static inline cr_energy_meter *open_meter_ok(meter_open_fn open, const char *where)
{
    cr_energy_meter *m;
    char why[256] = "";
    if (open(where, &m, why, sizeof why) != CR_OK)
        fail_msg("%s", why);
    return m;
}

/* open() refuses WHERE as unsupported, gives no meter, and says why. */
static inline void open_meter_unsupported(meter_open_fn open, const char *where, char *why, size_t len)
{
    cr_energy_meter *m = (cr_energy_meter *)&m;
    why[0] = '\0';
    assert_int_equal(open(where, &m, why, len), CR_UNSUPPORTED);
    assert_null(m);
}

/* Writes a count into dir/zone/file, as the kernel shows one. */
static inline int write_zone_file(const char *dir, const char *zone, const char *file, uint64_t value)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", dir, zone, file);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fprintf(f, "%llu\n", (unsigned long long)value);
    return fclose(f);
}

#endif
