/* Host topology through hwloc: a summary for the metadata, the last-level
 * cache size that sizes working-set sweeps, and placement of the host thread
 * and host buffers near the device under test. */
#ifndef CR_TOPOLOGY_H
#define CR_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cr_topology cr_topology;

/* Loads the topology (with PCI devices, for locality). NULL on failure. */
cr_topology *cr_topo_open(void);
void cr_topo_close(cr_topology *t);

/* "1 package, 2 cores, 2 PUs; NUMA: 1 node (23.4 GiB); L1d 2x48 KiB; L2 2x1 MiB; L3 1x32 MiB" */
void cr_topo_summary(cr_topology *t, char *buf, size_t len);
uint64_t cr_topo_llc_bytes(cr_topology *t);
/* The host's physical memory, 0 where the system does not say. */
uint64_t cr_host_memory_bytes(void);
/* One data (or unified) cache of level 1..5 as hwloc reports it: its size
 * (0 when the host has no such level, or t is NULL) and, when line_bytes
 * is not NULL, its line size (0 when unknown). Private levels give one
 * core's share, which is what a single thread can fill. */
uint64_t cr_topo_cache_bytes(cr_topology *t, unsigned level, unsigned *line_bytes);
unsigned cr_topo_numa_nodes(cr_topology *t);
unsigned cr_topo_cores(cr_topology *t);

/* Binds the calling thread to core index modulo the host's cores. False
 * where t is NULL, the host shows no core or the binding fails. */
bool cr_topo_bind_thread_to_core(cr_topology *t, unsigned index);

/* Binds the calling thread to the CPUs nearest the PCI device
 * ("0000:17:00.0") and remembers their NUMA nodes for cr_topo_alloc.
 * Writes what was done (or why not) into note. Returns true if bound. */
bool cr_topo_bind_near_pci(cr_topology *t, const char *pci_bus_id, char *note, size_t len);

/* The PCIe link of a PCI device, as the kernel's sysfs reports it (what
 * hwloc's linkspeed is computed from). The limit is the link the device can
 * train to: its own maximum, capped by its upstream port's. A GPU drops its
 * link to a lower speed while idle, so the current speed, recorded beside,
 * says little about what a copy will reach. */
typedef struct {
    double current_gtps, max_gtps; /* transfer rate per lane; 0: unknown */
    unsigned current_width, max_width;
    double link_gbps;   /* bytes per second and direction at max_gtps x max_width after line encoding, in GB/s; 0: unknown */
    char source[256];   /* where the numbers came from, or why they are unknown */
} cr_pci_link;

/* Reads the link of pci_bus_id ("0000:17:00.0") under sysfs_devices
 * (/sys/bus/pci/devices, or a copy of it). Returns true where link_gbps is
 * known; out->source says why not otherwise. */
bool cr_pci_link_read(const char *sysfs_devices, const char *pci_bus_id, cr_pci_link *out);

/* The rate of a link per direction in GB/s after line encoding (8b/10b up
 * to 5 GT/s, 128b/130b from 8 GT/s, 242B/256B flits from 64 GT/s); 0 when
 * either is 0. */
double cr_pci_link_gbps(double gtps, unsigned width);

/* Page-aligned host allocation, on the NUMA nodes near the device when a
 * binding is active. Free with cr_topo_free, the same topology and size;
 * the topology may be NULL (plain aligned memory). */
void *cr_topo_alloc(cr_topology *t, size_t bytes);
void cr_topo_free(cr_topology *t, void *p, size_t bytes);

#endif
