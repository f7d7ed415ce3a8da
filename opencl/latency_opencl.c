/* OpenCL backend of the latency benchmark: uploads the chain, runs one
 * work-item along it and times it with profiling events. */
#include "cl_device.h"
#include "latency.h"

#include <inttypes.h>
#include <string.h>

/* opencl/latency_kernels.cl, embedded */
extern const char latency_kernels_cl[];

static struct {
    cr_cl cl;
    cl_program program;
    cl_kernel kernel;
    cl_mem chain, end;
    uint64_t words;
} S;

static cr_status cl_list(FILE *f) { return cr_cl_list(f); }

static void release(cl_mem *m)
{
    if (*m)
        clReleaseMemObject(*m);
    *m = NULL;
}

static void cl_close(void)
{
    release(&S.chain);
    release(&S.end);
    if (S.kernel)
        clReleaseKernel(S.kernel);
    if (S.program)
        clReleaseProgram(S.program);
    cr_cl_close(&S.cl);
    memset(&S, 0, sizeof S);
}

static cr_status cl_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    memset(&S, 0, sizeof S);
    cr_status st = cr_cl_open(spec, &S.cl, err, errlen);
    if (st != CR_OK)
        return st;
    const char *const sources[] = {latency_kernels_cl};
    if (cr_cl_build(&S.cl, sources, 1, "-cl-std=CL1.2", &S.program, err, errlen) != CR_OK)
        return CR_ERR;
    cl_int rc;
    S.kernel = clCreateKernel(S.program, "chase", &rc);
    CR_CL_CHECK(rc, "clCreateKernel(chase)", err, errlen);
    S.end = clCreateBuffer(S.cl.context, CL_MEM_WRITE_ONLY, sizeof(cl_ulong), NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(end)", err, errlen);
    *info = S.cl.info;
    return CR_OK;
}

/* OpenCL reports one global-memory cache (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE)
 * and does not say which level it is. */
static void cl_caches(lt_caches *out)
{
    memset(out, 0, sizeof *out);
    cl_uint line = 0;
    if (clGetDeviceInfo(S.cl.device, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof line, &line, NULL) == CL_SUCCESS &&
        line > 0) {
        out->line_bytes = line;
        snprintf(out->line_source, sizeof out->line_source, "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE");
    } else {
        /* No line size reported: 128 B is the longest line of current
         * GPUs, so elements never share one. */
        out->line_bytes = 128;
        snprintf(out->line_source, sizeof out->line_source, "not reported; 128 B assumed");
    }
    if (S.cl.info.cache_bytes) {
        lt_cache_level *l = &out->level[out->count++];
        snprintf(l->name, sizeof l->name, "cache");
        l->bytes = S.cl.info.cache_bytes;
        snprintf(l->source, sizeof l->source, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE");
    }
}

static cr_status cl_prepare(uint64_t words, const uint64_t *next, char *err, size_t errlen)
{
    release(&S.chain);
    S.words = 0;
    cl_int rc;
    size_t bytes = (size_t)words * sizeof(cl_ulong);
    S.chain = clCreateBuffer(S.cl.context, CL_MEM_READ_ONLY, bytes, NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(chain)", err, errlen);
    CR_CL_CHECK(clEnqueueWriteBuffer(S.cl.queue, S.chain, CL_TRUE, 0, bytes, next, 0, NULL, NULL),
                "clEnqueueWriteBuffer(chain)", err, errlen);
    S.words = words;
    return CR_OK;
}

static cr_status cl_run(uint64_t steps, uint64_t start, cr_timing *t, uint64_t *end, char *err, size_t errlen)
{
    if (!S.chain || start >= S.words) {
        snprintf(err, errlen, "start word %" PRIu64 " outside the %" PRIu64 "-word chain", start, S.words);
        return CR_ERR;
    }
    cl_ulong a_start = start, a_steps = steps;
    CR_CL_CHECK(clSetKernelArg(S.kernel, 0, sizeof S.chain, &S.chain), "clSetKernelArg(next)", err, errlen);
    CR_CL_CHECK(clSetKernelArg(S.kernel, 1, sizeof a_start, &a_start), "clSetKernelArg(start)", err, errlen);
    CR_CL_CHECK(clSetKernelArg(S.kernel, 2, sizeof a_steps, &a_steps), "clSetKernelArg(steps)", err, errlen);
    CR_CL_CHECK(clSetKernelArg(S.kernel, 3, sizeof S.end, &S.end), "clSetKernelArg(end)", err, errlen);
    size_t one = 1;
    cl_event ev = NULL;
    *t = (cr_timing){0};
    uint64_t t0 = cr_now_ns();
    CR_CL_CHECK(clEnqueueNDRangeKernel(S.cl.queue, S.kernel, 1, NULL, &one, &one, 0, NULL, &ev),
                "clEnqueueNDRangeKernel(chase)", err, errlen);
    cl_int rc = clFinish(S.cl.queue);
    t->host_ns = cr_now_ns() - t0;
    if (rc == CL_SUCCESS)
        cr_cl_event_times(ev, t);
    clReleaseEvent(ev);
    CR_CL_CHECK(rc, "clFinish", err, errlen);
    cl_ulong e = 0;
    CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.end, CL_TRUE, 0, sizeof e, &e, 0, NULL, NULL),
                "clEnqueueReadBuffer(end)", err, errlen);
    *end = e;
    return CR_OK;
}

const lt_backend latency_opencl_backend = {
    .name = "opencl",
    .list_devices = cl_list,
    .open = cl_open,
    .caches = cl_caches,
    .prepare = cl_prepare,
    .run = cl_run,
    .close = cl_close,
};

int main(int argc, char **argv) { return latency_main(argc, argv, &latency_opencl_backend); }
