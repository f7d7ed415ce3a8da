/* OpenCL backend of the latency benchmark: uploads the chain, runs one
 * work-item along it and times it with profiling events. */
#include "cl_device.h"
#include "latency/backend.h"
#include "latency/perm.h"

#include <string.h>

/* bench/latency/chase.h and opencl/latency/kernels.cl, embedded */
extern const char latency_chase_h[], latency_kernels_cl[];

static struct {
    cr_cl cl;
    cl_program program;
    cl_kernel kernel;
    cl_mem chain, end;
    uint64_t words;
} S;

static void cl_close(void)
{
    cr_cl_release_mem(&S.chain);
    cr_cl_release_mem(&S.end);
    cr_cl_release_kernel(&S.kernel);
    cr_cl_release_program(&S.program);
    cr_cl_close_state(&S, sizeof S, &S.cl);
}

/* The kernel and the word it ends on, made once: every run reuses them. */
static cr_status build_chase(char *err, size_t errlen)
{
    const char *const sources[] = {latency_chase_h, latency_kernels_cl};
    if (cr_cl_build(&S.cl, sources, 2, "-cl-std=CL1.2", &S.program, err, errlen) != CR_OK)
        return CR_ERR;
    cl_int rc;
    S.kernel = clCreateKernel(S.program, "chase", &rc);
    CR_CL_CHECK(rc, "clCreateKernel(chase)", err, errlen);
    S.end = clCreateBuffer(S.cl.context, CL_MEM_WRITE_ONLY, sizeof(cl_ulong), NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(end)", err, errlen);
    return CR_OK;
}

static cr_status cl_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    cr_status st = cr_cl_open_state(spec, &S, sizeof S, &S.cl, err, errlen);
    if (st == CR_OK && (st = build_chase(err, errlen)) != CR_OK)
        cl_close();
    if (st == CR_OK)
        *info = S.cl.info;
    return st;
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
    cr_cl_release_mem(&S.chain);
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
    if (lt_chain_check_start(start, S.words, err, errlen) != CR_OK)
        return CR_ERR;
    cl_ulong a_start = start, a_steps = steps;
    const cr_cl_arg args[] = {CR_CL_ARG(S.chain), CR_CL_ARG(a_start), CR_CL_ARG(a_steps), CR_CL_ARG(S.end)};
    *t = (cr_timing){0};
    if (cr_cl_set_args(S.kernel, "chase", args, 4, err, errlen) != CR_OK ||
        cr_cl_launch_timed(&S.cl, S.kernel, 1, 1, t, err, errlen) != CR_OK)
        return CR_ERR;
    cl_ulong e = 0;
    CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.end, CL_TRUE, 0, sizeof e, &e, 0, NULL, NULL),
                "clEnqueueReadBuffer(end)", err, errlen);
    *end = e;
    return CR_OK;
}

const lt_backend latency_opencl_backend = {
    .base = {.name = "opencl", .list_devices = cr_cl_list, .open = cl_open, .close = cl_close},
    .caches = cl_caches, .prepare = cl_prepare, .run = cl_run,
};

int main(int argc, char **argv) { return latency_main(argc, argv, &latency_opencl_backend); }
