#include "cuda_device.h"

extern "C" {
#include "bench_main.h"
#include "device_spec.h"
#include "nv_arch.h"
#include "options.h"
}

#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>

static void version_text(const char *prefix, int v, char *buf, size_t len)
{
    snprintf(buf, len, "%s %d.%d", prefix, v / 1000, v % 1000 / 10);
}

/* hwloc matches "0000:17:00.0": lowercase, 4-digit domain whatever the
 * runtime prints. Unknown stays empty rather than failing the open. */
static void fill_pci(int dev, cr_device_info *info)
{
    char raw[64];
    unsigned dom, bus, slot, fn;
    info->pci_bus_id[0] = '\0';
    if (cudaDeviceGetPCIBusId(raw, sizeof raw, dev) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    if (sscanf(raw, "%x:%x:%x.%x", &dom, &bus, &slot, &fn) == 4)
        snprintf(info->pci_bus_id, sizeof info->pci_bus_id, "%04x:%02x:%02x.%x", dom, bus, slot, fn);
}

/* An attribute, or 0 where this driver no longer reports it. */
static int attribute(cudaDeviceAttr a, int dev)
{
    int v = 0;
    if (cr_cuda_calls()->device_get_attribute(&v, a, dev) != cudaSuccess) {
        v = 0;
        cudaGetLastError();
    }
    return v;
}

/* FMA units and shared-memory bytes per clock per SM from the compute
 * capability; memory peak from the memory clock (kHz, double data rate)
 * and the bus width (bits). */
static void fill_peaks(int dev, int major, int minor, cr_device_info *info)
{
    if (cr_nv_fma_lanes(major, minor, info->fma_lanes) == 0) {
        info->fma_pipes = 1;
        snprintf(info->fma_basis, sizeof info->fma_basis, "FMA units per SM of compute capability %d.%d", major,
                 minor);
    }
    info->local_bytes_per_clock = cr_nv_shared_bytes_per_clock(major, minor, info->local_basis, sizeof info->local_basis);
    double khz = attribute(cudaDevAttrMemoryClockRate, dev), bits = attribute(cudaDevAttrGlobalMemoryBusWidth, dev);
    info->memory_peak_gbs = khz * 1e3 * 2.0 * bits / 8.0 * 1e-9;
}

/* Shared memory, one definition for every CUDA executable: the most one
 * block can have (what it may opt into, as a kernel that sizes its shared
 * memory by it must), and what it gets without opting in. */
static void fill_local_mem(int dev, cr_device_info *info)
{
    uint64_t optin = (uint64_t)attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    info->local_mem_default_bytes = (uint64_t)attribute(cudaDevAttrMaxSharedMemoryPerBlock, dev);
    info->local_mem_bytes = optin > 0 ? optin : info->local_mem_default_bytes;
    snprintf(info->local_mem_source, sizeof info->local_mem_source,
             "%s: the most shared memory one block can opt into; device.local_mem_default_bytes: "
             "cudaDevAttrMaxSharedMemoryPerBlock, a block's without opting in",
             optin > 0 ? "cudaDevAttrMaxSharedMemoryPerBlockOptin" : "cudaDevAttrMaxSharedMemoryPerBlock (no opt-in)");
}

static cr_status fill_info(int dev, cr_device_info *info, char *err, size_t errlen)
{
    cudaDeviceProp p;
    int drv = 0, rt = 0;
    CR_CUDA_CHECK(cr_cuda_calls()->get_device_properties(&p, dev), "cudaGetDeviceProperties", err, errlen);
    if (cr_cuda_versions(&drv, &rt, err, errlen) != CR_OK)
        return CR_ERR;
    int khz = attribute(cudaDevAttrClockRate, dev); /* not reported by every CUDA 13 driver: 0, unknown */
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s", p.name);
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
    version_text("CUDA driver", drv, info->driver, sizeof info->driver);
    version_text("CUDA runtime", rt, info->api_version, sizeof info->api_version);
    snprintf(info->platform, sizeof info->platform, "CUDA");
    info->unified_memory = p.integrated != 0;
    info->has_fp64 = true;
    info->compute_units = (unsigned)p.multiProcessorCount;
    info->clock_mhz = (unsigned)(khz / 1000);
    info->warp_size = (unsigned)p.warpSize;
    info->global_mem_bytes = p.totalGlobalMem;
    info->max_alloc_bytes = p.totalGlobalMem; /* CUDA has no per-allocation cap below the total */
    info->cache_bytes = (uint64_t)p.l2CacheSize;
    info->max_work_group = (uint64_t)p.maxThreadsPerBlock;
    info->max_threads_per_cu = (uint64_t)p.maxThreadsPerMultiProcessor;
    info->timer_resolution_ns = 500; /* documented resolution of cudaEventElapsedTime */
    fill_local_mem(dev, info);
    fill_pci(dev, info);
    fill_peaks(dev, p.major, p.minor, info);
    return CR_OK;
}

cr_status cr_cuda_list(FILE *f)
{
    char err[CR_ERRLEN];
    int n;
    cr_status st = cr_cuda_count_devices(&n, err, sizeof err);
    if (st != CR_OK)
        return cr_list_failed(st, "%s", err);
    for (int i = 0; i < n; ++i) {
        cr_device_info info;
        if (fill_info(i, &info, err, sizeof err) != CR_OK)
            return cr_list_failed(CR_ERR, "device %d: %s", i, err);
        fprintf(f, "%d  %s  [%u SMs; %.1f GiB; %s]\n", i, info.name, info.compute_units,
                (double)info.global_mem_bytes / (1u << 30), info.pci_bus_id[0] ? info.pci_bus_id : "no PCI id");
    }
    return CR_OK;
}

static cr_status pick(int n, const char *spec, int *dev, char *err, size_t errlen)
{
    *dev = 0;
    if (spec == NULL)
        return CR_OK;
    if (cr_spec_is_index(spec)) {
        unsigned long i = strtoul(spec, NULL, 10);
        if (i < (unsigned long)n) {
            *dev = (int)i;
            return CR_OK;
        }
    } else {
        for (int i = 0; i < n; ++i) {
            cudaDeviceProp p;
            CR_CUDA_CHECK(cr_cuda_calls()->get_device_properties(&p, i), "cudaGetDeviceProperties", err, errlen);
            if (cr_spec_matches(p.name, spec)) {
                *dev = i;
                return CR_OK;
            }
        }
    }
    snprintf(err, errlen, "no CUDA device matches '%s' (%d found; see --list-devices)", spec, n);
    return CR_NO_MATCH;
}

cr_status cr_cuda_open(const char *spec, int *dev, cr_device_info *info, char *err, size_t errlen)
{
    int n;
    cr_status st = cr_cuda_count_devices(&n, err, errlen);
    if (st == CR_OK)
        st = pick(n, spec, dev, err, errlen);
    if (st != CR_OK)
        return st;
    /* Creates the primary context here, so that no timed run pays for it. */
    CR_CUDA_CHECK(cr_cuda_calls()->set_device(*dev), "cudaSetDevice", err, errlen);
    return fill_info(*dev, info, err, errlen);
}

cr_status cr_cuda_open_timed(const char *spec, cr_cuda *c, cr_device_info *info, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    cr_status s = cr_cuda_open(spec, &c->dev, info, err, errlen);
    if (s != CR_OK)
        return s;
    c->sms = info->compute_units;
    c->threads_per_sm = info->max_threads_per_cu;
    c->max_group = info->max_work_group;
    s = cr_cuda_timer_create(&c->timer, err, errlen);
    if (s != CR_OK) {
        cr_cuda_timer_destroy(&c->timer);
        return s;
    }
    c->timer_made = true;
    return CR_OK;
}

void cr_cuda_close_timed(cr_cuda *c)
{
    if (c->timer_made)
        cr_cuda_timer_destroy(&c->timer);
    c->timer_made = false;
}

cr_status cr_cuda_check_free(uint64_t bytes, uint64_t held, bool oversubscribe, const char *what, char *err,
                             size_t errlen)
{
    size_t free_bytes = 0, total = 0;
    CR_CUDA_CHECK(cr_cuda_calls()->mem_get_info(&free_bytes, &total), "cudaMemGetInfo", err, errlen);
    if (oversubscribe || (held <= free_bytes && bytes <= free_bytes - held))
        return CR_OK;
    char want[32], have[32], had[32];
    cr_format_bytes(bytes, want, sizeof want);
    cr_format_bytes(free_bytes, have, sizeof have);
    cr_format_bytes(held, had, sizeof had);
    snprintf(err, errlen,
             "%s of %s%s%s%s refused: above the %s of device memory free now (cudaMemGetInfo); more than is free can "
             "hang the GPU (--oversubscribe allows it)",
             what, want, held ? " (beside " : "", held ? had : "", held ? " already allocated)" : "", have);
    return CR_ERR;
}

cr_status cr_cuda_malloc_managed(void **p, uint64_t bytes, uint64_t held, bool oversubscribe, char *err,
                                 size_t errlen)
{
    *p = NULL;
    if (cr_cuda_check_free(bytes, held, oversubscribe, "cudaMallocManaged", err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cr_cuda_calls()->malloc_managed(p, (size_t)bytes, cudaMemAttachGlobal), "cudaMallocManaged", err,
                  errlen);
    return CR_OK;
}

cr_status cr_cuda_prefer_l1(const void *kernel, const char *name, char *err, size_t errlen)
{
    cudaError_t e = cr_cuda_calls()->func_set_attribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                                         (int)cudaSharedmemCarveoutMaxL1);
    if (e == cudaSuccess)
        return CR_OK;
    char what[160];
    snprintf(what, sizeof what, "cudaFuncSetAttribute(the L1 carve-out of %s)", name);
    return cr_cuda_error(e, what, err, errlen);
}

void cr_cuda_free(void **p)
{
    if (*p)
        cudaFree(*p);
    *p = NULL;
}

void cr_cuda_free_host(void **p)
{
    if (*p)
        cudaFreeHost(*p);
    *p = NULL;
}

cr_status cr_cuda_download(void *dst, const void *src, uint64_t n, uint64_t have, size_t esize, const char *what,
                           char *err, size_t errlen)
{
    if (n > have) {
        snprintf(err, errlen, "%llu %s requested, %llu prepared", (unsigned long long)n, what,
                 (unsigned long long)have);
        return CR_ERR;
    }
    CR_CUDA_CHECK(cudaMemcpy(dst, src, (size_t)n * esize, cudaMemcpyDeviceToHost), "cudaMemcpy(out)", err, errlen);
    return CR_OK;
}

uint64_t cr_cuda_work_group_for(const cr_cuda *c, uint64_t work_items)
{
    uint64_t limit = c->sms ? work_items / c->sms : 1;
    if (limit > c->max_group)
        limit = c->max_group;
    uint64_t group = limit ? limit : 1;
    while (work_items % group != 0)
        --group;
    return group;
}

cr_status cr_cuda_check_geometry(uint64_t work_items, uint64_t work_group, uint64_t max_group, char *err,
                                 size_t errlen)
{
    if (work_group == 0 || work_group > max_group || work_items == 0 || work_items % work_group != 0 ||
        work_items / work_group > INT_MAX) {
        snprintf(err, errlen, "invalid geometry: %llu work-items in groups of %llu (at most %llu per group)",
                 (unsigned long long)work_items, (unsigned long long)work_group, (unsigned long long)max_group);
        return CR_ERR;
    }
    return CR_OK;
}
