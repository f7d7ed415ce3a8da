/* What a backend reports about the device it opened; recorded in metadata
 * and used by experiment designs to size sweeps. */
#ifndef CR_DEVICE_H
#define CR_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    char name[256];
    char vendor[128];
    char driver[128];      /* driver version string */
    char api_version[128]; /* e.g. "OpenCL 3.0 PoCL ..." or "CUDA runtime 13000" */
    char platform[128];
    bool is_cpu;           /* the device is the host CPU (PoCL, Intel CPU runtime) */
    bool unified_memory;   /* host and device share physical memory (CPU or APU) */
    bool has_fp64;
    unsigned compute_units;
    unsigned clock_mhz;
    unsigned warp_size;    /* SIMD width the scheduler uses; 1 when unknown */
    uint64_t global_mem_bytes;
    uint64_t max_alloc_bytes;
    /* Local (CUDA: shared) memory: the most one work-group can have, and
     * what it gets without opting in where the API has an opt-in (CUDA;
     * else 0); local_mem_source names the attributes they are. */
    uint64_t local_mem_bytes;
    uint64_t local_mem_default_bytes;
    char local_mem_source[224];
    uint64_t cache_bytes;  /* last-level cache the device reports, 0 if none */
    uint64_t max_work_group;
    uint64_t max_threads_per_cu; /* resident work-items per compute unit, 0 if unknown */
    double timer_resolution_ns;  /* device timer resolution the API reports */
    /* What the theoretical peaks are built from (common/peaks.h); 0 unknown. */
    unsigned fma_lanes[2];       /* float, double FMA lanes of one pipe of a compute unit */
    unsigned fma_pipes;          /* FMA pipes per compute unit */
    char fma_basis[96];          /* where lanes and pipes come from */
    double memory_peak_gbs;      /* memory clock x bus width, where the API reports both */
    unsigned local_bytes_per_clock; /* local (shared) memory bytes a compute unit serves per clock; 0 unknown */
    char local_basis[128];       /* where that number comes from, or why it is unknown */
    char pci_bus_id[32];         /* "0000:17:00.0", empty if unknown */
} cr_device_info;

#endif
