#define _XOPEN_SOURCE 700 /* realpath */
#include "topology.h"

#include "options.h"

#include <hwloc.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cr_topology {
    hwloc_topology_t topo;
    hwloc_nodeset_t near_nodes; /* NULL: no binding active */
};

cr_topology *cr_topo_open(void)
{
    cr_topology *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    if (hwloc_topology_init(&t->topo) != 0) {
        free(t);
        return NULL;
    }
    hwloc_topology_set_io_types_filter(t->topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if (hwloc_topology_load(t->topo) != 0) {
        hwloc_topology_destroy(t->topo);
        free(t);
        return NULL;
    }
    return t;
}

void cr_topo_close(cr_topology *t)
{
    if (t == NULL)
        return;
    if (t->near_nodes)
        hwloc_bitmap_free(t->near_nodes);
    hwloc_topology_destroy(t->topo);
    free(t);
}

/* 0 without a topology: the session runs on where hwloc failed. */
static unsigned count_type(cr_topology *t, hwloc_obj_type_t type)
{
    if (t == NULL)
        return 0;
    int n = hwloc_get_nbobjs_by_type(t->topo, type);
    return n > 0 ? (unsigned)n : 0;
}

unsigned cr_topo_numa_nodes(cr_topology *t) { return count_type(t, HWLOC_OBJ_NUMANODE); }
unsigned cr_topo_cores(cr_topology *t) { return count_type(t, HWLOC_OBJ_CORE); }

bool cr_topo_bind_thread_to_core(cr_topology *t, unsigned index)
{
    unsigned cores = cr_topo_cores(t);
    if (cores == 0)
        return false;
    hwloc_obj_t core = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_CORE, index % cores);
    return core != NULL && hwloc_set_cpubind(t->topo, core->cpuset, HWLOC_CPUBIND_THREAD) == 0;
}

static void append(char *buf, size_t len, const char *fmt, const char *a, unsigned n, uint64_t bytes)
{
    size_t used = strlen(buf);
    if (used >= len)
        return;
    char size[32];
    cr_format_bytes(bytes, size, sizeof size);
    snprintf(buf + used, len - used, fmt, a, n, size);
}

void cr_topo_summary(cr_topology *t, char *buf, size_t len)
{
    snprintf(buf, len, "%u package(s), %u cores, %u PUs", count_type(t, HWLOC_OBJ_PACKAGE),
             count_type(t, HWLOC_OBJ_CORE), count_type(t, HWLOC_OBJ_PU));
    unsigned nodes = cr_topo_numa_nodes(t);
    uint64_t mem = 0;
    for (unsigned i = 0; i < nodes; ++i) {
        hwloc_obj_t o = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_NUMANODE, i);
        mem += o->attr->numanode.local_memory;
    }
    append(buf, len, "; %sNUMA nodes: %u (%s)", "", nodes, mem);
    static const struct { hwloc_obj_type_t type; const char *name; } caches[] = {
        {HWLOC_OBJ_L1CACHE, "L1d"}, {HWLOC_OBJ_L2CACHE, "L2"}, {HWLOC_OBJ_L3CACHE, "L3"},
        {HWLOC_OBJ_L4CACHE, "L4"},
    };
    for (size_t i = 0; i < sizeof caches / sizeof caches[0]; ++i) {
        unsigned n = count_type(t, caches[i].type);
        if (n == 0)
            continue;
        hwloc_obj_t o = hwloc_get_obj_by_type(t->topo, caches[i].type, 0);
        append(buf, len, "; %s %ux%s", caches[i].name, n, o->attr->cache.size);
    }
}

uint64_t cr_host_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

uint64_t cr_topo_llc_bytes(cr_topology *t)
{
    static const hwloc_obj_type_t order[] = {HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE,
                                             HWLOC_OBJ_L1CACHE};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; ++i) {
        hwloc_obj_t o = hwloc_get_obj_by_type(t->topo, order[i], 0);
        if (o != NULL)
            return o->attr->cache.size;
    }
    return 0;
}

uint64_t cr_topo_cache_bytes(cr_topology *t, unsigned level, unsigned *line_bytes)
{
    static const hwloc_obj_type_t types[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
                                             HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE};
    if (line_bytes)
        *line_bytes = 0;
    if (t == NULL || level < 1 || level > sizeof types / sizeof types[0])
        return 0;
    hwloc_obj_t o = hwloc_get_obj_by_type(t->topo, types[level - 1], 0);
    if (o == NULL)
        return 0;
    if (line_bytes)
        *line_bytes = o->attr->cache.linesize;
    return o->attr->cache.size;
}

bool cr_topo_bind_near_pci(cr_topology *t, const char *pci_bus_id, char *note, size_t len)
{
    if (pci_bus_id == NULL || pci_bus_id[0] == '\0') {
        snprintf(note, len, "not bound: the device reports no PCI location");
        return false;
    }
    hwloc_obj_t pci = hwloc_get_pcidev_by_busidstring(t->topo, pci_bus_id);
    if (pci == NULL) {
        snprintf(note, len, "not bound: PCI device %s not in the hwloc topology", pci_bus_id);
        return false;
    }
    hwloc_obj_t parent = hwloc_get_non_io_ancestor_obj(t->topo, pci);
    if (parent == NULL || parent->cpuset == NULL) {
        snprintf(note, len, "not bound: no CPU locality for %s", pci_bus_id);
        return false;
    }
    if (hwloc_set_cpubind(t->topo, parent->cpuset, HWLOC_CPUBIND_THREAD) != 0) {
        snprintf(note, len, "not bound: binding to the CPUs near %s failed", pci_bus_id);
        return false;
    }
    if (t->near_nodes == NULL)
        t->near_nodes = hwloc_bitmap_alloc();
    hwloc_cpuset_to_nodeset(t->topo, parent->cpuset, t->near_nodes);
    char *cpus = NULL;
    hwloc_bitmap_list_asprintf(&cpus, parent->cpuset);
    snprintf(note, len, "bound to CPUs %s near %s", cpus ? cpus : "?", pci_bus_id);
    free(cpus);
    return true;
}

void *cr_topo_alloc(cr_topology *t, size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    if (t == NULL) {
        void *p = NULL;
        return posix_memalign(&p, 4096, bytes) == 0 ? p : NULL;
    }
    /* Both hwloc paths return memory that hwloc_free releases. */
    if (t->near_nodes != NULL) {
        void *p = hwloc_alloc_membind(t->topo, bytes, t->near_nodes, HWLOC_MEMBIND_BIND, HWLOC_MEMBIND_BYNODESET);
        if (p != NULL)
            return p;
    }
    return hwloc_alloc(t->topo, bytes);
}

void cr_topo_free(cr_topology *t, void *p, size_t bytes)
{
    if (p == NULL)
        return;
    if (t == NULL)
        free(p);
    else
        hwloc_free(t->topo, p, bytes ? bytes : 1);
}

double cr_pci_link_gbps(double gtps, unsigned width)
{
    double encoding = gtps >= 64 ? 242.0 / 256.0 : gtps >= 8 ? 128.0 / 130.0 : 8.0 / 10.0;
    return gtps > 0 && width > 0 ? gtps * width * encoding / 8.0 : 0;
}

/* The number a sysfs link file starts with ("32.0 GT/s PCIe", "16"); 0 when
 * the file is absent or says "Unknown". */
static double sysfs_number(const char *dir, const char *file)
{
    char path[PATH_MAX + 64], text[64] = "";
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    if (fgets(text, sizeof text, f) == NULL)
        text[0] = '\0';
    fclose(f);
    char *end;
    double v = strtod(text, &end);
    return end != text && v > 0 && v < 1e6 ? v : 0;
}

bool cr_pci_link_read(const char *sysfs_devices, const char *pci_bus_id, cr_pci_link *out)
{
    memset(out, 0, sizeof *out);
    if (pci_bus_id == NULL || pci_bus_id[0] == '\0' || strchr(pci_bus_id, '/') != NULL) {
        snprintf(out->source, sizeof out->source, "unknown: the device reports no PCI location");
        return false;
    }
    char path[PATH_MAX], dev[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", sysfs_devices, pci_bus_id);
    if (realpath(path, dev) == NULL) {
        snprintf(out->source, sizeof out->source, "unknown: no %.200s", path);
        return false;
    }
    out->current_gtps = sysfs_number(dev, "current_link_speed");
    out->current_width = (unsigned)sysfs_number(dev, "current_link_width");
    out->max_gtps = sysfs_number(dev, "max_link_speed");
    out->max_width = (unsigned)sysfs_number(dev, "max_link_width");
    if (out->max_gtps == 0 || out->max_width == 0) {
        snprintf(out->source, sizeof out->source, "unknown: %.200s reports no max_link_speed and max_link_width", dev);
        return false;
    }
    /* The port above (the directory above, in sysfs) trains the link too. */
    char *slash = strrchr(dev, '/');
    bool capped = false;
    if (slash != NULL && slash != dev) {
        *slash = '\0';
        double up_gtps = sysfs_number(dev, "max_link_speed");
        unsigned up_width = (unsigned)sysfs_number(dev, "max_link_width");
        if (up_gtps > 0 && up_gtps < out->max_gtps)
            out->max_gtps = up_gtps, capped = true;
        if (up_width > 0 && up_width < out->max_width)
            out->max_width = up_width, capped = true;
    }
    out->link_gbps = cr_pci_link_gbps(out->max_gtps, out->max_width);
    snprintf(out->source, sizeof out->source,
             "sysfs max_link_speed x max_link_width of %s%s, after line encoding; the link now: %g GT/s x%u",
             pci_bus_id, capped ? " capped by its upstream port" : "", out->current_gtps, out->current_width);
    return true;
}
