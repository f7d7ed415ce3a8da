#define _GNU_SOURCE
#include "metadata.h"

#include "cr.h"
#include "csv.h"
#include "options.h"
#include "timer.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef CR_GIT_REV
#define CR_GIT_REV "unknown"
#endif

void cr_meta_init(cr_meta *m) { memset(m, 0, sizeof *m); }

void cr_meta_free(cr_meta *m)
{
    free(m->keys);
    free(m->values);
    memset(m, 0, sizeof *m);
}

void cr_meta_set(cr_meta *m, const char *key, const char *fmt, ...)
{
    size_t i = 0;
    while (i < m->n && strcmp(m->keys[i], key) != 0)
        ++i;
    if (i == m->n) {
        if (m->n == m->cap) {
            size_t cap = m->cap ? 2 * m->cap : 32;
            void *k = realloc(m->keys, cap * sizeof *m->keys);
            if (k == NULL)
                return;
            m->keys = k;
            void *v = realloc(m->values, cap * sizeof *m->values);
            if (v == NULL)
                return;
            m->values = v;
            m->cap = cap;
        }
        snprintf(m->keys[i], sizeof m->keys[i], "%s", key);
        m->n++;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->values[i], sizeof m->values[i], fmt, ap);
    va_end(ap);
}

const char *cr_meta_get(const cr_meta *m, const char *key)
{
    for (size_t i = 0; i < m->n; ++i)
        if (strcmp(m->keys[i], key) == 0)
            return m->values[i];
    return NULL;
}

void cr_cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                colon += 2;
                colon[strcspn(colon, "\n")] = '\0';
                snprintf(buf, len, "%s", colon);
            }
            break;
        }
    }
    fclose(f);
}

void cr_meta_collect_host(cr_meta *m, cr_topology *topo, int argc, char **argv)
{
    char buf[512];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cr_meta_set(m, "date", "%s", buf);
    if (gethostname(buf, sizeof buf) != 0)
        snprintf(buf, sizeof buf, "unknown");
    buf[sizeof buf - 1] = '\0';
    cr_meta_set(m, "host", "%s", buf);
    struct utsname u;
    if (uname(&u) == 0)
        cr_meta_set(m, "os", "%s %s %s", u.sysname, u.release, u.machine);
    cr_cpu_model(buf, sizeof buf);
    cr_meta_set(m, "cpu", "%s", buf);
    cr_meta_set(m, "online_cpus", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
    if (topo) {
        cr_topo_summary(topo, buf, sizeof buf);
        cr_meta_set(m, "topology", "%s", buf);
        cr_meta_set(m, "llc_bytes", "%" PRIu64, cr_topo_llc_bytes(topo));
    } else {
        cr_meta_set(m, "topology", "unavailable (hwloc failed to load the topology)");
    }
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && used < sizeof buf; ++i)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? " " : "", argv[i]);
    cr_meta_set(m, "command_line", "%s", buf);
    cr_meta_set(m, "crossroof_version", "%s", CR_VERSION);
    cr_meta_set(m, "git_revision", "%s", CR_GIT_REV);
    cr_meta_set(m, "compiler", "%s", __VERSION__);
    cr_meta_set(m, "host_timer_granularity_ns", "%" PRIu64, cr_host_granularity_ns());
}

/* The PCIe link's limit is what a host-device copy is judged by; every key
 * is written, empty where it is unknown. */
static void add_pcie_link(cr_meta *m, const char *pci_bus_id)
{
    cr_pci_link l;
    cr_pci_link_read("/sys/bus/pci/devices", pci_bus_id, &l);
    static const char *const keys[] = {"device.pcie_max_GTps", "device.pcie_max_width", "device.pcie_current_GTps",
                                       "device.pcie_current_width", "device.pcie_link_GBps"};
    double values[] = {l.max_gtps, l.max_width, l.current_gtps, l.current_width, l.link_gbps};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i)
        if (values[i] > 0)
            cr_meta_set(m, keys[i], "%.6g", values[i]);
        else
            cr_meta_set(m, keys[i], "%s", "");
    cr_meta_set(m, "device.pcie_link_source", "%s", l.source);
}

void cr_meta_add_device(cr_meta *m, const cr_device_info *d)
{
    cr_meta_set(m, "device.name", "%s", d->name);
    cr_meta_set(m, "device.vendor", "%s", d->vendor);
    cr_meta_set(m, "device.platform", "%s", d->platform);
    cr_meta_set(m, "device.driver", "%s", d->driver);
    cr_meta_set(m, "device.api_version", "%s", d->api_version);
    cr_meta_set(m, "device.type", "%s", d->is_cpu ? "cpu" : "gpu/accelerator");
    cr_meta_set(m, "device.unified_memory", "%d", d->unified_memory);
    cr_meta_set(m, "device.compute_units", "%u", d->compute_units);
    cr_meta_set(m, "device.clock_mhz", "%u", d->clock_mhz);
    cr_meta_set(m, "device.global_mem_bytes", "%" PRIu64, d->global_mem_bytes);
    cr_meta_set(m, "device.max_alloc_bytes", "%" PRIu64, d->max_alloc_bytes);
    cr_meta_set(m, "device.local_mem_bytes", "%" PRIu64, d->local_mem_bytes);
    if (d->local_mem_default_bytes)
        cr_meta_set(m, "device.local_mem_default_bytes", "%" PRIu64, d->local_mem_default_bytes);
    else
        cr_meta_set(m, "device.local_mem_default_bytes", "%s", "");
    cr_meta_set(m, "device.local_mem_source", "%s", d->local_mem_source);
    cr_meta_set(m, "device.cache_bytes", "%" PRIu64, d->cache_bytes);
    cr_meta_set(m, "device.max_work_group", "%" PRIu64, d->max_work_group);
    cr_meta_set(m, "device.fp64", "%d", d->has_fp64);
    cr_meta_set(m, "device.timer_resolution_ns", "%g", d->timer_resolution_ns);
    cr_meta_set(m, "device.pci_bus_id", "%s", d->pci_bus_id);
    add_pcie_link(m, d->pci_bus_id);
}

static int write_meta(FILE *f, void *ctx)
{
    const cr_meta *m = ctx;
    fputs("key,value\n", f);
    for (size_t i = 0; i < m->n; ++i) {
        cr_csv_field(f, m->keys[i]);
        fputc(',', f);
        cr_csv_field(f, m->values[i]);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int cr_meta_write(const cr_meta *m, const char *path, char *err, size_t errlen)
{
    return cr_write_atomic(path, write_meta, (void *)m, err, errlen);
}
