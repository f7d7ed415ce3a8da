/* OpenCL backend of the FMA benchmark: builds the chain kernels of each
 * type (opencl/fma_kernels.cl), allocates, launches and times. On a CPU
 * device each chain is a vector of the device's preferred width and the
 * work-items of a group meet at a barrier before every segment of steps
 * (the kernel file says why); GPUs run scalar chains and schedule their
 * warps themselves. */
#include "cl_device.h"
#include "fma.h"

#include <stdlib.h>
#include <string.h>

/* opencl/fma_kernels.cl, embedded */
extern const char fma_kernels_cl[];

static struct {
    cr_cl cl;
    cl_program program[CR_NDTYPES];
    cl_kernel kernel[CR_NDTYPES][FMA_MAX_ILP + 1];
    cl_mem seeds, out;
    uint64_t chains;      /* capacity of seeds and out, in chains of the prepared type */
    size_t esize;         /* bytes per element of the prepared type */
    unsigned lanes[CR_NDTYPES];
    uint64_t unit_items;  /* the kernels' preferred work-group multiple on GPUs */
    uint64_t max_work_group;
} S;

static cr_status cl_list(FILE *f) { return cr_cl_list(f); }

static void release_buffers(void)
{
    if (S.seeds)
        clReleaseMemObject(S.seeds);
    if (S.out)
        clReleaseMemObject(S.out);
    S.seeds = S.out = NULL;
    S.chains = 0;
    S.esize = 0;
}

static void cl_close(void)
{
    release_buffers();
    for (int t = 0; t < CR_NDTYPES; ++t) {
        for (unsigned e = 0; e <= FMA_MAX_ILP; ++e)
            if (S.kernel[t][e])
                clReleaseKernel(S.kernel[t][e]);
        if (S.program[t])
            clReleaseProgram(S.program[t]);
    }
    cr_cl_close(&S.cl);
    memset(&S, 0, sizeof S);
}

/* A CPU's preferred vector width for the type, where the kernel has it. */
static unsigned cpu_lanes(cl_device_info what)
{
    cl_uint width = 1;
    if (clGetDeviceInfo(S.cl.device, what, sizeof width, &width, NULL) != CL_SUCCESS)
        return 1;
    return width == 2 || width == 4 || width == 8 || width == 16 ? width : 1;
}

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
        const char *const sources[] = {fma_kernels_cl};
        if (cr_cl_build(&S.cl, sources, 1, options, &S.program[t], err, errlen) != CR_OK)
            return CR_ERR;
    }
    if (!S.kernel[t][ilp]) {
        char name[32];
        snprintf(name, sizeof name, "fma_chains_%u", ilp);
        cl_int rc;
        S.kernel[t][ilp] = clCreateKernel(S.program[t], name, &rc);
        CR_CL_CHECK(rc, "clCreateKernel", err, errlen);
    }
    *out = S.kernel[t][ilp];
    return CR_OK;
}

/* The warp or wavefront width is the kernels' preferred work-group
 * multiple; the work-group limit is the smaller of the device's and the
 * widest kernel's. */
static cr_status probe_kernels(char *err, size_t errlen)
{
    cl_kernel k;
    if (kernel_for(CR_FLOAT, FMA_MAX_ILP, &k, err, errlen) != CR_OK)
        return CR_ERR;
    size_t multiple = 1, limit = 0;
    CR_CL_CHECK(clGetKernelWorkGroupInfo(k, S.cl.device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                         sizeof multiple, &multiple, NULL),
                "clGetKernelWorkGroupInfo(preferred multiple)", err, errlen);
    CR_CL_CHECK(clGetKernelWorkGroupInfo(k, S.cl.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof limit, &limit, NULL),
                "clGetKernelWorkGroupInfo(work-group size)", err, errlen);
    S.unit_items = S.cl.info.is_cpu || multiple == 0 ? 1 : multiple;
    S.max_work_group = limit < S.cl.info.max_work_group ? limit : S.cl.info.max_work_group;
    return CR_OK;
}

static cr_status cl_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    memset(&S, 0, sizeof S);
    cr_status st = cr_cl_open(spec, &S.cl, err, errlen);
    if (st != CR_OK)
        return st;
    S.lanes[CR_FLOAT] = S.cl.info.is_cpu ? cpu_lanes(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT) : 1;
    S.lanes[CR_DOUBLE] = S.cl.info.is_cpu ? cpu_lanes(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) : 1;
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
    CR_CL_CHECK(clSetKernelArg(k, 0, sizeof S.seeds, &S.seeds), "clSetKernelArg(seeds)", err, errlen);
    CR_CL_CHECK(clSetKernelArg(k, 1, sizeof S.out, &S.out), "clSetKernelArg(out)", err, errlen);
    if (t == CR_FLOAT) {
        CR_CL_CHECK(clSetKernelArg(k, 2, sizeof af, &af), "clSetKernelArg(a)", err, errlen);
        CR_CL_CHECK(clSetKernelArg(k, 3, sizeof bf, &bf), "clSetKernelArg(b)", err, errlen);
    } else {
        CR_CL_CHECK(clSetKernelArg(k, 2, sizeof ad, &ad), "clSetKernelArg(a)", err, errlen);
        CR_CL_CHECK(clSetKernelArg(k, 3, sizeof bd, &bd), "clSetKernelArg(b)", err, errlen);
    }
    CR_CL_CHECK(clSetKernelArg(k, 4, sizeof n, &n), "clSetKernelArg(iters)", err, errlen);
    size_t global = (size_t)work_items, local = (size_t)work_group;
    cl_event ev = NULL;
    uint64_t t0 = cr_now_ns();
    CR_CL_CHECK(clEnqueueNDRangeKernel(S.cl.queue, k, 1, NULL, &global, &local, 0, NULL, &ev),
                "clEnqueueNDRangeKernel", err, errlen);
    cl_int rc = clFinish(S.cl.queue);
    tm->host_ns = cr_now_ns() - t0;
    if (rc == CL_SUCCESS)
        cr_cl_event_times(ev, tm);
    clReleaseEvent(ev);
    CR_CL_CHECK(rc, "clFinish", err, errlen);
    return CR_OK;
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
    g->max_work_group = S.max_work_group;
}

const fma_backend fma_opencl_backend = {
    .name = "opencl",
    .list_devices = cl_list,
    .open = cl_open,
    .supports = cl_supports,
    .lanes = cl_lanes,
    .schedule = cl_schedule,
    .prepare = cl_prepare,
    .run = cl_run,
    .download = cl_download,
    .geometry = cl_geometry,
    .close = cl_close,
};

int main(int argc, char **argv) { return fma_main(argc, argv, &fma_opencl_backend); }
