#define _POSIX_C_SOURCE 200809L
#include "energy.h"

#include "energy_powercap.h"
#include "energy_sampler.h"
#include "timer.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The reading is polled this often to see it change: a tenth of RAPL's
 * update interval, the shortest there is. */
#define POLL_S 1e-4
/* Observing the interval stops after this many changes or this long. */
#define OBSERVED_CHANGES 5
#define OBSERVE_LIMIT_S 1.0
/* A long wait is cut into steps this long, each ending with a reading, so
 * that no counter wraps twice unseen. */
#define KEEP_UP_S 1.0
/* Where the interval cannot be observed. The Intel SDM gives about 1 ms
 * for the RAPL energy status; nvidia-smi gives 1/6 s to 1 s for a power
 * sample, depending on the product, and the longer is taken. */
#define RAPL_DOCUMENTED_S 1e-3
#define NVML_DOCUMENTED_S 1.0

typedef enum { SENSOR_POWERCAP, SENSOR_NVML_COUNTER, SENSOR_NVML_SAMPLES } sensor_kind;

typedef struct {
    uint64_t last;   /* the raw reading last seen */
    uint64_t max;    /* it wraps to 0 after this */
    uint64_t counts; /* gained since open, unfolded */
} counter;

struct cr_energy_meter {
    sensor_kind kind;
    char sensor[192];
    double interval_s;
    char interval_basis[160];
    double (*now_s)(void);
    void (*sleep_s)(double);
    double joules_per_count;
    size_t n;
    counter counters[CR_POWERCAP_MAX_DOMAINS];
    cr_powercap_domain domains[CR_POWERCAP_MAX_DOMAINS];
    cr_nvml_api nvml;
    cr_nvml_library *nvml_library; /* NULL where the caller gave the functions */
    void *nvml_device;
    bool nvml_started;
    cr_power_sampler *sampler;
};

static double monotonic_s(void) { return (double)cr_now_ns() * 1e-9; }

static void nanosleep_s(double s)
{
    if (!(s > 0))
        return;
    struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

uint64_t cr_energy_counter_delta(uint64_t last, uint64_t now, uint64_t max)
{
    /* Written so that max = UINT64_MAX (no wrap but the type's) cannot
     * overflow: now < last there. */
    return now >= last ? now - last : (max - last) + now + 1;
}

static bool contains_nocase(const char *text, const char *word)
{
    for (size_t n = strlen(word); *text; ++text) {
        size_t i = 0;
        while (i < n && tolower((unsigned char)text[i]) == word[i])
            ++i;
        if (i == n)
            return true;
    }
    return false;
}

/* "call: NVML's words for rc" into err. */
static cr_status nvml_failed(const cr_energy_meter *m, const char *call, int rc, char *err, size_t len)
{
    char text[128];
    snprintf(err, len, "%s: %s", call, cr_nvml_text(&m->nvml, rc, text, sizeof text));
    return CR_ERR;
}

static cr_status nvml_power_w(void *ctx, double *watts, char *err, size_t len)
{
    cr_energy_meter *m = ctx;
    unsigned mw;
    int rc = m->nvml.power_mw(m->nvml_device, &mw);
    if (rc != CR_NVML_SUCCESS)
        return nvml_failed(m, "nvmlDeviceGetPowerUsage", rc, err, len);
    *watts = mw * 1e-3;
    return CR_OK;
}

/* Counter i's raw reading. */
static cr_status read_raw(cr_energy_meter *m, size_t i, uint64_t *raw, char *err, size_t len)
{
    if (m->kind == SENSOR_POWERCAP)
        return cr_powercap_read_uj(&m->domains[i], raw, err, len);
    if (m->kind == SENSOR_NVML_SAMPLES) {
        double j;
        if (cr_sampler_joules(m->sampler, &j, err, len) != CR_OK)
            return CR_ERR;
        *raw = (uint64_t)llround(j / m->joules_per_count);
        return CR_OK;
    }
    unsigned long long mj;
    int rc = m->nvml.total_energy_mj(m->nvml_device, &mj);
    if (rc != CR_NVML_SUCCESS)
        return nvml_failed(m, "nvmlDeviceGetTotalEnergyConsumption", rc, err, len);
    *raw = mj;
    return CR_OK;
}

/* What is polled to see the sensor update: the power itself where it is
 * sampled (its integral changes at every reading), else the first counter
 * alone (a package's and its DRAM's counters update out of phase: their
 * sum would change twice as often as either). */
static cr_status probe(cr_energy_meter *m, uint64_t *value, char *err, size_t len)
{
    if (m->kind != SENSOR_NVML_SAMPLES)
        return read_raw(m, 0, value, err, len);
    double w;
    if (nvml_power_w(m, &w, err, len) != CR_OK)
        return CR_ERR;
    *value = (uint64_t)llround(w * 1e3);
    return CR_OK;
}

static cr_status observe_interval(cr_energy_meter *m, char *err, size_t len)
{
    uint64_t seen, v;
    if (probe(m, &seen, err, len) != CR_OK)
        return CR_ERR;
    double start = m->now_s(), first = 0, last = 0;
    int changes = 0;
    while (changes < OBSERVED_CHANGES && m->now_s() - start < OBSERVE_LIMIT_S) {
        m->sleep_s(POLL_S);
        if (probe(m, &v, err, len) != CR_OK)
            return CR_ERR;
        if (v == seen)
            continue;
        last = m->now_s();
        if (changes++ == 0)
            first = last;
        seen = v;
    }
    if (changes >= 2) {
        m->interval_s = (last - first) / (changes - 1);
        snprintf(m->interval_basis, sizeof m->interval_basis, "observed: %d updates in %.6f s", changes - 1,
                 last - first);
    } else if (m->kind == SENSOR_POWERCAP) {
        m->interval_s = RAPL_DOCUMENTED_S;
        snprintf(m->interval_basis, sizeof m->interval_basis,
                 "documented: about 1 ms (Intel SDM); the reading changed %d times in %g s", changes, OBSERVE_LIMIT_S);
    } else {
        m->interval_s = NVML_DOCUMENTED_S;
        snprintf(m->interval_basis, sizeof m->interval_basis,
                 "documented: at most 1 s (nvidia-smi's power sample); the reading changed %d times in %g s", changes,
                 OBSERVE_LIMIT_S);
    }
    return CR_OK;
}

static cr_status open_powercap(cr_energy_meter *m, const char *root, char *why, size_t len)
{
    if (root == NULL)
        root = getenv("CROSSROOF_POWERCAP_ROOT");
    if (root == NULL || root[0] == '\0')
        root = "/sys/class/powercap";
    cr_status st = cr_powercap_find(root, m->domains, &m->n, why, len);
    if (st != CR_OK)
        return st;
    m->kind = SENSOR_POWERCAP;
    m->joules_per_count = 1e-6;
    size_t used = (size_t)snprintf(m->sensor, sizeof m->sensor, "powercap:");
    for (size_t i = 0; i < m->n; ++i) {
        m->counters[i].max = m->domains[i].max_uj;
        if (used < sizeof m->sensor)
            used += (size_t)snprintf(m->sensor + used, sizeof m->sensor - used, "%s%s", i ? "+" : "",
                                     m->domains[i].name);
    }
    return CR_OK;
}

static cr_status open_nvml(cr_energy_meter *m, const char *bus_id, const cr_nvml_api *api, char *why, size_t len)
{
    if (bus_id[0] == '\0') {
        snprintf(why, len, "the NVIDIA device has no PCI bus id to find it by in NVML");
        return CR_UNSUPPORTED;
    }
    if (api != NULL)
        m->nvml = *api;
    else if (cr_nvml_load(&m->nvml_library, &m->nvml, why, len) != CR_OK)
        return CR_UNSUPPORTED;
    bool has_counter;
    cr_status st = cr_nvml_open_device(&m->nvml, bus_id, &m->nvml_device, &has_counter, why, len);
    if (st != CR_OK)
        return st;
    m->nvml_started = true;
    m->n = 1;
    m->counters[0].max = UINT64_MAX;
    m->kind = has_counter ? SENSOR_NVML_COUNTER : SENSOR_NVML_SAMPLES;
    m->joules_per_count = has_counter ? 1e-3 : 1e-6;
    snprintf(m->sensor, sizeof m->sensor, "%s", has_counter ? "nvml:total-energy" : "nvml:power-samples");
    return CR_OK;
}

/* The sensor for the device, its interval, the sampler where the power is
 * sampled (half the interval apart, so that an update is not missed when a
 * sleep runs long), and every counter's first reading. */
static cr_status open_sensor(cr_energy_meter *m, const cr_device_info *info, const cr_energy_source *src, char *why,
                             size_t len)
{
    cr_status st;
    bool nvidia = contains_nocase(info->vendor, "nvidia");
    if (nvidia)
        st = open_nvml(m, info->pci_bus_id, src ? src->nvml : NULL, why, len);
    else if (info->is_cpu || info->unified_memory)
        st = open_powercap(m, src ? src->powercap_root : NULL, why, len);
    else {
        snprintf(why, len,
                 "no energy sensor for %s (NVML covers NVIDIA devices, powercap the host CPU and devices sharing its "
                 "memory)",
                 info->name[0] ? info->name : "this device");
        return CR_UNSUPPORTED;
    }
    if (st != CR_OK || (st = observe_interval(m, why, len)) != CR_OK)
        return st;
    if (m->kind == SENSOR_NVML_SAMPLES) {
        m->sampler = cr_sampler_start(nvml_power_w, m, m->interval_s / 2, m->now_s, m->sleep_s, why, len);
        if (m->sampler == NULL)
            return CR_ERR;
    }
    for (size_t i = 0; i < m->n; ++i)
        if (read_raw(m, i, &m->counters[i].last, why, len) != CR_OK)
            return CR_ERR;
    return CR_OK;
}

cr_status cr_energy_open(const cr_device_info *info, const cr_energy_source *src, cr_energy_meter **out, char *why,
                         size_t len)
{
    *out = NULL;
    cr_energy_meter *m = calloc(1, sizeof *m);
    if (m == NULL) {
        snprintf(why, len, "out of memory for the energy meter");
        return CR_ERR;
    }
    m->now_s = src && src->now_s ? src->now_s : monotonic_s;
    m->sleep_s = src && src->sleep_s ? src->sleep_s : nanosleep_s;
    cr_status st = open_sensor(m, info, src, why, len);
    if (st != CR_OK) {
        cr_energy_close(m);
        return st;
    }
    *out = m;
    return CR_OK;
}

const char *cr_energy_sensor(const cr_energy_meter *m) { return m->sensor; }
double cr_energy_interval_s(const cr_energy_meter *m) { return m->interval_s; }
const char *cr_energy_interval_basis(const cr_energy_meter *m) { return m->interval_basis; }

cr_status cr_energy_read(cr_energy_meter *m, double *joules, char *err, size_t len)
{
    uint64_t total = 0;
    for (size_t i = 0; i < m->n; ++i) {
        counter *c = &m->counters[i];
        uint64_t now;
        if (read_raw(m, i, &now, err, len) != CR_OK)
            return CR_ERR;
        if (now < c->last && c->max == UINT64_MAX) {
            snprintf(err, len, "%s: the energy counter went back from %llu to %llu (driver reloaded?)", m->sensor,
                     (unsigned long long)c->last, (unsigned long long)now);
            return CR_ERR;
        }
        c->counts += cr_energy_counter_delta(c->last, now, c->max);
        c->last = now;
        total += c->counts;
    }
    *joules = (double)total * m->joules_per_count;
    return CR_OK;
}

double cr_energy_window_s(const cr_energy_meter *m, double min_s, unsigned updates)
{
    double by_updates = updates * m->interval_s;
    return by_updates > min_s ? by_updates : min_s;
}

/* A reading taken just after the sensor updated, and its time: polled
 * until the first counter changes (the one whose interval was observed),
 * for at most two intervals (a reading that stands still that long is as
 * current as it gets). */
static cr_status read_at_update(cr_energy_meter *m, double *joules, double *t, char *err, size_t len)
{
    double start = m->now_s();
    if (cr_energy_read(m, joules, err, len) != CR_OK)
        return CR_ERR;
    uint64_t first = m->counters[0].counts;
    do {
        m->sleep_s(POLL_S);
        if (cr_energy_read(m, joules, err, len) != CR_OK)
            return CR_ERR;
        *t = m->now_s();
    } while (m->counters[0].counts == first && *t - start <= 2 * m->interval_s + POLL_S);
    return CR_OK;
}

cr_status cr_energy_static_w(cr_energy_meter *m, double seconds, double *watts, char *err, size_t len)
{
    if (!(seconds >= 0) || !isfinite(seconds)) {
        snprintf(err, len, "static power over %g s: the time must be a finite number >= 0", seconds);
        return CR_ERR;
    }
    double span = cr_energy_window_s(m, seconds, 20), j0, t0, j1, t1, j;
    if (read_at_update(m, &j0, &t0, err, len) != CR_OK)
        return CR_ERR;
    for (double left; (left = span - (m->now_s() - t0)) > 0;) {
        m->sleep_s(left < KEEP_UP_S ? left : KEEP_UP_S);
        if (cr_energy_read(m, &j, err, len) != CR_OK)
            return CR_ERR;
    }
    if (read_at_update(m, &j1, &t1, err, len) != CR_OK)
        return CR_ERR;
    /* A counter that stood still for 20 of its updates or more is not
     * counting: a host that exposes a sensor it does not update (a
     * virtual machine's RAPL). Zero watts from it would read as a fact. */
    if (j1 == j0) {
        snprintf(err, len,
                 "%s: the energy counter did not move in %.3g s (%.0f of its updates): the sensor is not updated "
                 "here",
                 m->sensor, t1 - t0, (t1 - t0) / m->interval_s);
        return CR_ERR;
    }
    *watts = (j1 - j0) / (t1 - t0);
    return CR_OK;
}

void cr_energy_close(cr_energy_meter *m)
{
    if (m == NULL)
        return;
    cr_sampler_stop(m->sampler);
    if (m->nvml_started)
        m->nvml.shutdown();
    cr_nvml_unload(m->nvml_library);
    free(m);
}
