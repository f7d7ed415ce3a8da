#define _GNU_SOURCE
#include "cl_device.h"

#include "bench_main.h"

#include "device_spec.h"
#include "nv_arch.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif
#ifndef CL_DEVICE_PCI_BUS_INFO_KHR
#define CL_DEVICE_PCI_BUS_INFO_KHR 0x410F
typedef struct {
    cl_uint pci_domain, pci_bus, pci_device, pci_function;
} cl_device_pci_bus_info_khr;
#endif
#define CR_CL_DEVICE_PCI_BUS_ID_NV 0x4008
#define CR_CL_DEVICE_PCI_SLOT_ID_NV 0x4009
#define CR_CL_DEVICE_PCI_DOMAIN_ID_NV 0x400A
#define CR_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CR_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define CR_CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD 0x4040
#define CR_CL_DEVICE_SIMD_WIDTH_AMD 0x4041

const char *cr_cl_strerror(cl_int code)
{
    switch (code) {
#define E(x) case x: return #x;
        E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
        E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
        E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
        E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_INVALID_VALUE) E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM)
        E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT) E(CL_INVALID_QUEUE_PROPERTIES) E(CL_INVALID_COMMAND_QUEUE)
        E(CL_INVALID_HOST_PTR) E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_PROGRAM)
        E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX)
        E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION)
        E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET)
        E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_BUILD_OPTIONS)
        E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY) E(CL_PLATFORM_NOT_FOUND_KHR)
#undef E
    default: return "unknown OpenCL error";
    }
}

/* Every device of every platform, in listing order. */
typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    unsigned p, d;
} dev_ref;

static cl_int enumerate(dev_ref **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    cl_uint np = 0;
    cl_int rc = clGetPlatformIDs(0, NULL, &np);
    if (rc != CL_SUCCESS || np == 0)
        return rc == CL_SUCCESS ? CL_PLATFORM_NOT_FOUND_KHR : rc;
    cl_platform_id *plats = calloc(np, sizeof *plats);
    if (plats == NULL)
        return CL_OUT_OF_HOST_MEMORY;
    clGetPlatformIDs(np, plats, NULL);
    size_t cap = 0;
    for (cl_uint p = 0; p < np; ++p) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0)
            continue;
        cl_device_id *devs = calloc(nd, sizeof *devs);
        if (devs == NULL)
            break;
        clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, devs, NULL);
        for (cl_uint d = 0; d < nd; ++d) {
            if (*count == cap) {
                cap = cap ? 2 * cap : 8;
                dev_ref *grown = realloc(*out, cap * sizeof **out);
                if (grown == NULL)
                    break;
                *out = grown;
            }
            (*out)[(*count)++] = (dev_ref){plats[p], devs[d], p, d};
        }
        free(devs);
    }
    free(plats);
    return *count ? CL_SUCCESS : CL_DEVICE_NOT_FOUND;
}

static void str_info(cl_device_id d, cl_device_info what, char *buf, size_t len)
{
    buf[0] = '\0';
    if (clGetDeviceInfo(d, what, len, buf, NULL) != CL_SUCCESS)
        snprintf(buf, len, "unknown");
    buf[len - 1] = '\0';
}

static uint64_t u64_info(cl_device_id d, cl_device_info what, size_t size)
{
    uint64_t v = 0; /* little-endian hosts: smaller integers land in the low bytes */
    if (clGetDeviceInfo(d, what, size, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

static void fill_pci(cl_device_id d, const char *extensions, cr_device_info *info)
{
    info->pci_bus_id[0] = '\0';
    if (strstr(extensions, "cl_khr_pci_bus_info")) {
        cl_device_pci_bus_info_khr pci;
        if (clGetDeviceInfo(d, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof pci, &pci, NULL) == CL_SUCCESS)
            snprintf(info->pci_bus_id, sizeof info->pci_bus_id, "%04x:%02x:%02x.%x", pci.pci_domain,
                     pci.pci_bus, pci.pci_device, pci.pci_function);
    } else if (strstr(extensions, "cl_nv_device_attribute_query")) {
        cl_uint bus = 0, slot = 0, domain = 0;
        if (clGetDeviceInfo(d, CR_CL_DEVICE_PCI_BUS_ID_NV, sizeof bus, &bus, NULL) == CL_SUCCESS &&
            clGetDeviceInfo(d, CR_CL_DEVICE_PCI_SLOT_ID_NV, sizeof slot, &slot, NULL) == CL_SUCCESS) {
            clGetDeviceInfo(d, CR_CL_DEVICE_PCI_DOMAIN_ID_NV, sizeof domain, &domain, NULL);
            snprintf(info->pci_bus_id, sizeof info->pci_bus_id, "%04x:%02x:%02x.%x", domain, bus, slot >> 3,
                     slot & 7);
        }
    }
}

/* FMA lanes and pipes per compute unit, for the compute peak. A CPU
 * compute unit is a hardware thread whose widest vector is the native
 * vector width; x86 cores have one or two FMA pipes, and the peak counts
 * two, so that it is a ceiling. GPUs: from the vendor's extension, where
 * there is one; NVIDIA's also gives the local-memory peak's bytes per
 * clock. */
static void fill_fma(cl_device_id d, const char *extensions, cr_device_info *info)
{
    if (info->is_cpu) {
        info->fma_lanes[0] = (unsigned)u64_info(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof(cl_uint));
        info->fma_lanes[1] = info->has_fp64 ? (unsigned)u64_info(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, sizeof(cl_uint)) : 0;
        info->fma_pipes = 2;
        snprintf(info->fma_basis, sizeof info->fma_basis,
                 "lanes: native vector width; 2 FMA pipes per core, the most x86 cores have");
    } else if (strstr(extensions, "cl_nv_device_attribute_query")) {
        cl_uint major = 0, minor = 0;
        if (clGetDeviceInfo(d, CR_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL) == CL_SUCCESS &&
            clGetDeviceInfo(d, CR_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL) == CL_SUCCESS &&
            cr_nv_fma_lanes((int)major, (int)minor, info->fma_lanes) == 0) {
            info->fma_pipes = 1;
            snprintf(info->fma_basis, sizeof info->fma_basis, "FMA units per SM of compute capability %u.%u", major,
                     minor);
            info->local_bytes_per_clock =
                cr_nv_shared_bytes_per_clock((int)major, (int)minor, info->local_basis, sizeof info->local_basis);
        }
    } else if (strstr(extensions, "cl_amd_device_attribute_query")) {
        cl_uint simds = 0, width = 0;
        if (clGetDeviceInfo(d, CR_CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD, sizeof simds, &simds, NULL) == CL_SUCCESS &&
            clGetDeviceInfo(d, CR_CL_DEVICE_SIMD_WIDTH_AMD, sizeof width, &width, NULL) == CL_SUCCESS) {
            info->fma_lanes[0] = simds * width;
            info->fma_pipes = 1;
            snprintf(info->fma_basis, sizeof info->fma_basis, "%u SIMDs x %u lanes per CU (float only)", simds, width);
        }
    }
}

static void fill_info(const dev_ref *r, cr_device_info *info)
{
    cl_device_id d = r->device;
    memset(info, 0, sizeof *info);
    str_info(d, CL_DEVICE_NAME, info->name, sizeof info->name);
    str_info(d, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
    str_info(d, CL_DRIVER_VERSION, info->driver, sizeof info->driver);
    str_info(d, CL_DEVICE_VERSION, info->api_version, sizeof info->api_version);
    if (clGetPlatformInfo(r->platform, CL_PLATFORM_NAME, sizeof info->platform, info->platform, NULL) != CL_SUCCESS)
        snprintf(info->platform, sizeof info->platform, "unknown");
    cl_device_type type = u64_info(d, CL_DEVICE_TYPE, sizeof(cl_device_type));
    info->is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    info->unified_memory = info->is_cpu || u64_info(d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof(cl_bool)) != 0;
    info->has_fp64 = u64_info(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(cl_device_fp_config)) != 0;
    info->compute_units = (unsigned)u64_info(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cl_uint));
    info->clock_mhz = (unsigned)u64_info(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof(cl_uint));
    info->global_mem_bytes = u64_info(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(cl_ulong));
    info->max_alloc_bytes = u64_info(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cl_ulong));
    info->local_mem_bytes = u64_info(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(cl_ulong));
    snprintf(info->local_mem_source, sizeof info->local_mem_source,
             "CL_DEVICE_LOCAL_MEM_SIZE: the local memory one work-group can have (OpenCL has no opt-in)");
    info->cache_bytes = u64_info(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(cl_ulong));
    info->max_work_group = u64_info(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(size_t));
    info->timer_resolution_ns = (double)u64_info(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof(size_t));
    info->warp_size = 1;
    /* OpenCL does not report resident work-items per compute unit. A CPU
     * compute unit is one thread; sixteen per unit are enough to show the
     * plateau. GPUs of every vendor hold up to 2048 per unit. */
    info->max_threads_per_cu = info->is_cpu ? 16 : 2048;
    char ext[8192];
    str_info(d, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
    fill_pci(d, ext, info);
    fill_fma(d, ext, info);
}

cr_status cr_cl_list(FILE *f)
{
    dev_ref *devs;
    size_t n;
    cl_int rc = enumerate(&devs, &n);
    if (rc != CL_SUCCESS) {
        return cr_list_failed(CR_NO_DEVICE, "no OpenCL device: %s", cr_cl_strerror(rc));
    }
    for (size_t i = 0; i < n; ++i) {
        cr_device_info info;
        fill_info(&devs[i], &info);
        char mem[32];
        snprintf(mem, sizeof mem, "%.1f GiB", (double)info.global_mem_bytes / (1u << 30));
        fprintf(f, "%zu  (%u:%u)  %s  [%s; %s; %u CUs; %s]\n", i, devs[i].p, devs[i].d, info.name, info.platform,
                info.is_cpu ? "CPU" : "GPU/accelerator", info.compute_units, mem);
    }
    free(devs);
    return CR_OK;
}

static int pick(const dev_ref *devs, size_t n, const char *spec, char *err, size_t errlen)
{
    if (spec == NULL)
        return 0;
    const char *colon = strchr(spec, ':');
    if (cr_spec_is_index(spec)) {
        unsigned long i = strtoul(spec, NULL, 10);
        if (i < n)
            return (int)i;
        snprintf(err, errlen, "no OpenCL device with index %s (%zu found; see --list-devices)", spec, n);
        return -1;
    }
    if (colon && colon != spec && cr_spec_is_index(colon + 1)) {
        char pbuf[16];
        size_t plen = (size_t)(colon - spec);
        if (plen < sizeof pbuf) {
            memcpy(pbuf, spec, plen);
            pbuf[plen] = '\0';
            if (cr_spec_is_index(pbuf)) {
                unsigned long p = strtoul(pbuf, NULL, 10), d = strtoul(colon + 1, NULL, 10);
                for (size_t i = 0; i < n; ++i)
                    if (devs[i].p == p && devs[i].d == d)
                        return (int)i;
                snprintf(err, errlen, "no OpenCL device %s (platform:device; see --list-devices)", spec);
                return -1;
            }
        }
    }
    for (size_t i = 0; i < n; ++i) {
        cr_device_info info;
        fill_info(&devs[i], &info);
        if (cr_spec_matches(info.name, spec) || cr_spec_matches(info.platform, spec))
            return (int)i;
    }
    snprintf(err, errlen, "no OpenCL device matches '%s' (see --list-devices)", spec);
    return -1;
}

cr_status cr_cl_open(const char *spec, cr_cl *cl, char *err, size_t errlen)
{
    memset(cl, 0, sizeof *cl);
    dev_ref *devs;
    size_t n;
    cl_int rc = enumerate(&devs, &n);
    if (rc != CL_SUCCESS) {
        snprintf(err, errlen, "no OpenCL device: %s", cr_cl_strerror(rc));
        return CR_NO_DEVICE;
    }
    int i = pick(devs, n, spec, err, errlen);
    if (i < 0) {
        free(devs);
        return CR_NO_MATCH;
    }
    cl->platform = devs[i].platform;
    cl->device = devs[i].device;
    fill_info(&devs[i], &cl->info);
    free(devs);

    cl->context = clCreateContext(NULL, 1, &cl->device, NULL, NULL, &rc);
    if (rc != CL_SUCCESS) {
        snprintf(err, errlen, "clCreateContext: %s", cr_cl_strerror(rc));
        return CR_ERR;
    }
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl->queue = clCreateCommandQueueWithProperties(cl->context, cl->device, props, &rc);
    if (rc != CL_SUCCESS) {
        snprintf(err, errlen, "clCreateCommandQueueWithProperties: %s", cr_cl_strerror(rc));
        clReleaseContext(cl->context);
        cl->context = NULL;
        return CR_ERR;
    }
    return CR_OK;
}

void cr_cl_close(cr_cl *cl)
{
    if (cl->queue)
        clReleaseCommandQueue(cl->queue);
    if (cl->context)
        clReleaseContext(cl->context);
    cl->queue = NULL;
    cl->context = NULL;
}

cr_status cr_cl_open_state(const char *spec, void *state, size_t size, cr_cl *cl, char *err, size_t errlen)
{
    memset(state, 0, size);
    return cr_cl_open(spec, cl, err, errlen);
}

void cr_cl_close_state(void *state, size_t size, cr_cl *cl)
{
    cr_cl_close(cl);
    memset(state, 0, size);
}

cr_status cr_cl_open_built(const char *spec, void *state, size_t size, cr_cl *cl,
                           cr_status (*build)(char *err, size_t errlen), void (*close)(void), char *err,
                           size_t errlen)
{
    cr_status st = cr_cl_open_state(spec, state, size, cl, err, errlen);
    if (st != CR_OK)
        return st;
    if (build(err, errlen) != CR_OK) {
        close();
        return CR_ERR;
    }
    return CR_OK;
}

cr_status cr_cl_build(cr_cl *cl, const char *const *sources, unsigned count, const char *options, cl_program *out,
                      char *err, size_t errlen)
{
    cl_int rc;
    cl_program p = clCreateProgramWithSource(cl->context, count, (const char **)sources, NULL, &rc);
    if (rc != CL_SUCCESS) {
        snprintf(err, errlen, "clCreateProgramWithSource: %s", cr_cl_strerror(rc));
        return CR_ERR;
    }
    rc = clBuildProgram(p, 1, &cl->device, options, NULL, NULL);
    if (rc != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(p, cl->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        log[sizeof log - 1] = '\0';
        /* The first error line names the problem; the rest is noise for a one-line report. */
        char *line = strstr(log, "error");
        if (line == NULL)
            line = log;
        line[strcspn(line, "\n")] = '\0';
        snprintf(err, errlen, "clBuildProgram: %s: %s", cr_cl_strerror(rc), line);
        clReleaseProgram(p);
        return CR_ERR;
    }
    *out = p;
    return CR_OK;
}

cr_status cr_cl_build_kernel(cr_cl *cl, const char *const *sources, unsigned count, const char *options,
                             cl_program *program, const char *name, cl_kernel *kernel, char *err, size_t errlen)
{
    if (cr_cl_build(cl, sources, count, options, program, err, errlen) != CR_OK)
        return CR_ERR;
    cl_int rc;
    *kernel = clCreateKernel(*program, name, &rc);
    if (rc != CL_SUCCESS) {
        snprintf(err, errlen, "clCreateKernel(%s): %s", name, cr_cl_strerror(rc));
        return CR_ERR;
    }
    return CR_OK;
}

void cr_cl_event_times(cl_event ev, cr_timing *t)
{
    cl_ulong start = 0, end = 0;
    t->has_event = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) == CL_SUCCESS &&
                   clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) == CL_SUCCESS;
    t->ev_start_ns = start;
    t->ev_end_ns = end;
}

void cr_cl_default_geometry(const cr_cl *cl, uint64_t n, uint64_t *work_items, uint64_t *work_group)
{
    const cr_device_info *d = &cl->info;
    uint64_t cus = d->compute_units ? d->compute_units : 1;
    if (cr_cl_contiguous(cl)) {
        /* A few slices per thread balance the load without tiny slices. */
        uint64_t items = cus * 8;
        if (items > n / 1024)
            items = n / 1024 ? n / 1024 : 1;
        *work_items = items;
        *work_group = 1;
        return;
    }
    uint64_t wg = d->max_work_group >= 256 ? 256 : d->max_work_group;
    uint64_t items = (n + wg - 1) / wg * wg;
    if (items > cus * d->max_threads_per_cu)
        items = cus * d->max_threads_per_cu / wg * wg;
    *work_items = items;
    *work_group = wg;
}

uint64_t cr_cl_work_group_for(const cr_cl *cl, uint64_t work_items)
{
    if (cr_cl_contiguous(cl))
        return 1;
    const cr_device_info *d = &cl->info;
    uint64_t cus = d->compute_units ? d->compute_units : 1;
    uint64_t cap = d->max_work_group < 256 ? d->max_work_group : 256;
    uint64_t wg = work_items >= cus ? work_items / cus : 1;
    if (wg > cap)
        wg = cap;
    while (wg > 1 && work_items % wg != 0)
        --wg;
    return wg;
}

void cr_cl_fill_geometry(const cr_cl *cl, unsigned gpu_waves, uint64_t *work_items, uint64_t *work_group)
{
    const cr_device_info *d = &cl->info;
    uint64_t cus = d->compute_units ? d->compute_units : 1;
    uint64_t wg = d->is_cpu ? 16 : 256;
    if (d->max_work_group && wg > d->max_work_group)
        wg = d->max_work_group;
    *work_group = wg;
    *work_items = d->is_cpu ? cus * wg * 4 : cus * 2048 * gpu_waves;
    *work_items -= *work_items % wg;
}

cr_status cr_cl_set_args(cl_kernel k, const char *name, const cr_cl_arg *args, unsigned count, char *err,
                         size_t errlen)
{
    for (unsigned i = 0; i < count; ++i) {
        cl_int rc = clSetKernelArg(k, i, args[i].size, args[i].value);
        if (rc != CL_SUCCESS) {
            snprintf(err, errlen, "clSetKernelArg(%s, %u): %s", name, i, cr_cl_strerror(rc));
            return CR_ERR;
        }
    }
    return CR_OK;
}

cr_status cr_cl_launch_timed(const cr_cl *cl, cl_kernel k, size_t global, size_t local, cr_timing *t, char *err,
                             size_t errlen)
{
    cl_event ev = NULL;
    uint64_t t0 = cr_now_ns();
    CR_CL_CHECK(clEnqueueNDRangeKernel(cl->queue, k, 1, NULL, &global, &local, 0, NULL, &ev),
                "clEnqueueNDRangeKernel", err, errlen);
    cl_int rc = clFinish(cl->queue);
    t->host_ns = cr_now_ns() - t0;
    if (rc == CL_SUCCESS)
        cr_cl_event_times(ev, t);
    clReleaseEvent(ev);
    CR_CL_CHECK(rc, "clFinish", err, errlen);
    return CR_OK;
}

void cr_cl_release_mem(cl_mem *m)
{
    if (*m)
        clReleaseMemObject(*m);
    *m = NULL;
}

void cr_cl_release_mems(cl_mem *m, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        cr_cl_release_mem(&m[i]);
}

void cr_cl_release_kernel(cl_kernel *k)
{
    if (*k)
        clReleaseKernel(*k);
    *k = NULL;
}

void cr_cl_release_program(cl_program *p)
{
    if (*p)
        clReleaseProgram(*p);
    *p = NULL;
}

cr_status cr_cl_kernel_group_limit(const cr_cl *cl, cl_kernel k, uint64_t local_per_item, uint64_t *limit, char *err,
                                   size_t errlen)
{
    size_t group = 0;
    cl_ulong local = 0;
    CR_CL_CHECK(clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof group, &group, NULL),
                "clGetKernelWorkGroupInfo(work-group size)", err, errlen);
    CR_CL_CHECK(clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, NULL),
                "clGetKernelWorkGroupInfo(local memory)", err, errlen);
    uint64_t most = cl->info.max_work_group && cl->info.max_work_group < group ? cl->info.max_work_group : group;
    uint64_t room = cl->info.local_mem_bytes > local ? cl->info.local_mem_bytes - local : 0;
    if (local_per_item && room / local_per_item < most)
        most = room / local_per_item;
    *limit = most;
    return CR_OK;
}

unsigned cr_cl_preferred_width(const cr_cl *cl, cl_device_info what)
{
    cl_uint width = 1;
    if (clGetDeviceInfo(cl->device, what, sizeof width, &width, NULL) != CL_SUCCESS)
        return 1;
    return width == 2 || width == 4 || width == 8 || width == 16 ? width : 1;
}
