/* OpenCL backend of the FMA benchmark: builds the chain kernels of each
 * type (opencl/fma/kernels.cl), allocates, launches and times. On a CPU
 * device each chain is a vector of the device's preferred width and the
 * work-items of a group meet at a barrier before every segment of steps
 * (the kernel file says why); GPUs run scalar chains and schedule their
 * warps themselves. */
#include "cl_device.h"
#include "fma/backend.h"

#include <stdlib.h>
#include <string.h>

/* bench/fma/chain.h and opencl/fma/kernels.cl, embedded */
extern const char fma_chain_h[], fma_kernels_cl[];

static struct {
    cr_cl cl;
    cl_program program[CR_NDTYPES];
    cl_kernel kernel[CR_NDTYPES][FMA_MAX_ILP + 1];
    cl_mem seeds, out;
    uint64_t chains;      /* capacity of seeds and out, in chains of the prepared type */
    size_t esize;         /* bytes per element of the prepared type */
    unsigned lanes[CR_NDTYPES];
    uint64_t unit_items;  /* the kernels' preferred work-group multiple on GPUs */
} S;

static void release_buffers(void)
{
    cr_cl_release_mem(&S.seeds);
    cr_cl_release_mem(&S.out);
    S.chains = 0;
    S.esize = 0;
}

static void cl_close(void)
{
    release_buffers();
    for (int t = 0; t < CR_NDTYPES; ++t) {
        for (unsigned e = 0; e <= FMA_MAX_ILP; ++e)
            cr_cl_release_kernel(&S.kernel[t][e]);
        cr_cl_release_program(&S.program[t]);
    }
    cr_cl_close_state(&S, sizeof S, &S.cl);
}

static void kernel_name(unsigned ilp, char *name, size_t len) { snprintf(name, len, "fma_chains_%u", ilp); }

static cr_status kernel_for(cr_dtype t, unsigned ilp, cl_kernel *out, char *err, size_t errlen)
{
    if (ilp == 0 || ilp > FMA_MAX_ILP) {
        snprintf(err, errlen, "%u chains per work-item is outside 1..%u", ilp, FMA_MAX_ILP);
        return CR_ERR;
    }
    if (!S.program[t]) {
        char options[128];
        snprintf(options, sizeof options, "-cl-std=CL1.2 -DFMA_DOUBLE=%d -DFMA_LANES=%u -DFMA_SYNC=%d", t == CR_DOUBLE,
                 S.lanes[t], S.cl.info.is_cpu ? 1 : 0);
        const char *const sources[] = {fma_chain_h, fma_kernels_cl};
        if (cr_cl_build(&S.cl, sources, 2, options, &S.program[t], err, errlen) != CR_OK)
            return CR_ERR;
    }
    if (!S.kernel[t][ilp]) {
        char name[32];
        kernel_name(ilp, name, sizeof name);
        cl_int rc;
        S.kernel[t][ilp] = clCreateKernel(S.program[t], name, &rc);
        CR_CL_CHECK(rc, "clCreateKernel", err, errlen);
    }
    *out = S.kernel[t][ilp];
    return CR_OK;
}

/* The warp or wavefront width is the kernels' preferred work-group
 * multiple; each kernel's own work-group limit is asked of it
 * (cl_work_group_limit) before the sweep is planned. */
static cr_status probe_kernels(char *err, size_t errlen)
{
    cl_kernel k;
    if (kernel_for(CR_FLOAT, FMA_MAX_ILP, &k, err, errlen) != CR_OK)
        return CR_ERR;
    size_t multiple = 1;
    CR_CL_CHECK(clGetKernelWorkGroupInfo(k, S.cl.device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                         sizeof multiple, &multiple, NULL),
                "clGetKernelWorkGroupInfo(preferred multiple)", err, errlen);
    S.unit_items = S.cl.info.is_cpu || multiple == 0 ? 1 : multiple;
    return CR_OK;
}

static cr_status cl_work_group_limit(cr_dtype t, unsigned ilp, uint64_t *limit, char *err, size_t errlen)
{
    cl_kernel k;
    if (kernel_for(t, ilp, &k, err, errlen) != CR_OK)
        return CR_ERR;
    return cr_cl_kernel_group_limit(&S.cl, k, 0, limit, err, errlen);
}

static cr_status cl_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    cr_status st = cr_cl_open_state(spec, &S, sizeof S, &S.cl, err, errlen);
    if (st != CR_OK)
        return st;
    /* A CPU runs one vector of its preferred width per chain. */
    S.lanes[CR_FLOAT] = S.cl.info.is_cpu ? cr_cl_preferred_width(&S.cl, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT) : 1;
    S.lanes[CR_DOUBLE] = S.cl.info.is_cpu ? cr_cl_preferred_width(&S.cl, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) : 1;
    if (probe_kernels(err, errlen) != CR_OK) {
        cl_close();
        return CR_ERR;
    }
    *info = S.cl.info;
    return CR_OK;
}

static cr_status cl_supports(cr_dtype t, char *err, size_t errlen)
{
    if (t == CR_DOUBLE && !S.cl.info.has_fp64) {
        snprintf(err, errlen, "the device has no double precision (cl_khr_fp64)");
        return CR_UNSUPPORTED;
    }
    return CR_OK;
}

static unsigned cl_lanes(cr_dtype t) { return S.lanes[t] ? S.lanes[t] : 1; }

static const char *cl_schedule(void)
{
    return S.cl.info.is_cpu ? "work-items of a group meet at a barrier every 32·E steps (the runtime interleaves them)"
                            : "the device's own warp scheduling";
}

static cr_status cl_prepare(cr_dtype t, uint64_t work_items, unsigned ilp, const void *seeds, char *err,
                            size_t errlen)
{
    release_buffers();
    uint64_t chains = work_items * ilp * cl_lanes(t);
    size_t bytes = (size_t)(chains * cr_dtype_size(t));
    cl_int rc;
    S.seeds = clCreateBuffer(S.cl.context, CL_MEM_READ_ONLY, bytes, NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(seeds)", err, errlen);
    S.out = clCreateBuffer(S.cl.context, CL_MEM_WRITE_ONLY, bytes, NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(out)", err, errlen);
    CR_CL_CHECK(clEnqueueWriteBuffer(S.cl.queue, S.seeds, CL_TRUE, 0, bytes, seeds, 0, NULL, NULL),
                "clEnqueueWriteBuffer(seeds)", err, errlen);
    S.chains = chains;
    S.esize = cr_dtype_size(t);
    return CR_OK;
}

static cr_status cl_run(cr_dtype t, unsigned ilp, uint32_t iters, uint64_t work_items, uint64_t work_group, double a,
                        double b, cr_timing *tm, char *err, size_t errlen)
{
    cl_kernel k;
    if (kernel_for(t, ilp, &k, err, errlen) != CR_OK)
        return CR_ERR;
    if (work_items * ilp * cl_lanes(t) > S.chains) {
        snprintf(err, errlen, "%llu work-items with %u chains need more than the %llu chains prepared",
                 (unsigned long long)work_items, ilp, (unsigned long long)S.chains);
        return CR_ERR;
    }
    cl_float af = (cl_float)a, bf = (cl_float)b;
    cl_double ad = a, bd = b;
    cl_uint n = iters;
    const bool f = t == CR_FLOAT;
    const cr_cl_arg args[] = {CR_CL_ARG(S.seeds), CR_CL_ARG(S.out), f ? CR_CL_ARG(af) : CR_CL_ARG(ad),
                              f ? CR_CL_ARG(bf) : CR_CL_ARG(bd), CR_CL_ARG(n)};
    char name[32];
    kernel_name(ilp, name, sizeof name);
    if (cr_cl_set_args(k, name, args, 5, err, errlen) != CR_OK)
        return CR_ERR;
    return cr_cl_launch_timed(&S.cl, k, (size_t)work_items, (size_t)work_group, tm, err, errlen);
}

static cr_status cl_download(void *dst, uint64_t n, char *err, size_t errlen)
{
    if (n > S.chains) {
        snprintf(err, errlen, "%llu chains requested, %llu prepared", (unsigned long long)n,
                 (unsigned long long)S.chains);
        return CR_ERR;
    }
    CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.out, CL_TRUE, 0, (size_t)n * S.esize, dst, 0, NULL, NULL),
                "clEnqueueReadBuffer(out)", err, errlen);
    return CR_OK;
}

static void cl_geometry(fma_geometry *g)
{
    const cr_device_info *d = &S.cl.info;
    g->compute_units = d->compute_units ? d->compute_units : 1;
    g->unit_items = S.unit_items;
    g->unit_name = d->is_cpu ? "work-items" : "warps";
    g->max_units_per_cu = d->is_cpu || d->max_threads_per_cu == 0 ? 0 : d->max_threads_per_cu / S.unit_items;
    g->max_work_group = S.cl.info.max_work_group;
    g->groups_per_cu = d->is_cpu ? 8 : 1;
}

const fma_backend fma_opencl_backend = {
    .base = {.name = "opencl", .list_devices = cr_cl_list, .open = cl_open, .close = cl_close},
    .supports = cl_supports,
    .lanes = cl_lanes,
    .schedule = cl_schedule,
    .prepare = cl_prepare,
    .run = cl_run,
    .download = cl_download,
    .geometry = cl_geometry,
    .work_group_limit = cl_work_group_limit,
};
