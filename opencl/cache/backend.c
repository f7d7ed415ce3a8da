/* OpenCL backend of the cache benchmark: the shared walker's device and
 * chase (opencl/chase, walker.h), and a store kernel built on the same
 * context. OpenCL C has no cache operators, so the chase has one kind
 * of load. */
#include "cache/backend.h"
#include "cache/backend_common.h"
#include "cl_device.h"
#include "chase/walker.h"
#include "patterns.h"

#include <stdio.h>

/* bench/cache/store.h and opencl/cache/kernels.cl, embedded */
extern const char cache_store_h[], cache_kernels_cl[];

static struct {
    cl_program program;
    cl_kernel store;
} S;

/* The store kernel, built on the walker's context. */
static cr_status build_store(char *err, size_t errlen)
{
    const char *const sources[] = {cache_store_h, cache_kernels_cl};
    return cr_cl_build_kernel(lt_opencl_device(), sources, 2, "-cl-std=CL1.2", &S.program, "store_pass", &S.store, err,
                              errlen);
}

static void cc_cl_close(void)
{
    cr_cl_release_kernel(&S.store);
    cr_cl_release_program(&S.program);
    lt_opencl_walker.base.close();
}

static cr_status cc_cl_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    return cc_open_on_chase(&lt_opencl_walker, &S, sizeof S, build_store, cc_cl_close, spec, info, err, errlen);
}

/* The prepared chain's buffer and its words, or why there is none. */
static cl_mem chain(uint64_t *words, char *err, size_t errlen)
{
    cl_mem buf = lt_opencl_chain();
    size_t bytes = 0;
    if (!buf || clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof bytes, &bytes, NULL) != CL_SUCCESS) {
        snprintf(err, errlen, "no writable chain prepared");
        return NULL;
    }
    *words = bytes / sizeof(cl_ulong);
    return buf;
}

static cr_status cc_cl_store(const cc_store_pass *p, cr_timing *t, char *err, size_t errlen)
{
    uint64_t words;
    cl_mem buf = chain(&words, err, errlen);
    if (!buf)
        return CR_ERR;
    if (cc_check_store_pass(p, words, err, errlen) != CR_OK)
        return CR_ERR;
    cl_ulong first = p->first, count = p->count, stride = p->stride_words, passes = p->passes, value = p->value;
    const cr_cl_arg args[] = {CR_CL_ARG(buf),    CR_CL_ARG(first),  CR_CL_ARG(count),
                              CR_CL_ARG(stride), CR_CL_ARG(passes), CR_CL_ARG(value)};
    *t = (cr_timing){0};
    if (cr_cl_set_args(S.store, "store_pass", args, 6, err, errlen) != CR_OK)
        return CR_ERR;
    return cr_cl_launch_timed(lt_opencl_device(), S.store, 1, 1, t, err, errlen);
}

static cr_status cc_cl_read(uint64_t first, uint64_t count, uint64_t *out, char *err, size_t errlen)
{
    uint64_t words;
    cl_mem buf = chain(&words, err, errlen);
    if (!buf)
        return CR_ERR;
    if (cc_check_read(first, count, words, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CL_CHECK(clEnqueueReadBuffer(lt_opencl_device()->queue, buf, CL_TRUE, (size_t)first * 8, (size_t)count * 8, out,
                                    0, NULL, NULL),
                "clEnqueueReadBuffer(chain)", err, errlen);
    return CR_OK;
}

const cc_backend cache_opencl_backend = {
    .base = {.name = "opencl", .list_devices = cr_cl_list, .open = cc_cl_open, .close = cc_cl_close},
    .chase = &lt_opencl_walker,
    .prepare_writable = lt_opencl_prepare_writable,
    .in_place_ok = true,
    .store = cc_cl_store,
    .read_words = cc_cl_read,
    .load_kinds_why = "OpenCL C has one kind of global load: no cache operators to choose L1 or not",
    .patterns = &cc_opencl_patterns,
};
