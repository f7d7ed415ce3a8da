/* The OpenCL pattern kernels of the cache benchmark (cache/pattern_ops.h), on
 * the device the shared walker opened (chase/walker.h): the
 * program is built there on the first prepare, and released with the
 * buffers by release, before the walker closes the device. */
#include "cache/pattern_index.h"
#include "cache/pattern_ops.h"
#include "cl_device.h"
#include "chase/walker.h"
#include "patterns.h"

#include <string.h>

/* bench/cache/pattern_index.h and opencl/cache/patterns.cl, embedded */
extern const char cache_pattern_index_h[], cache_patterns_cl[];

static struct {
    cl_program program;
    cl_kernel kernel;
    cl_mem buffer[3], out;
    cc_pattern_shape shape;
} P;

static void cl_patterns_release(void)
{
    cr_cl_release_mems(P.buffer, 3);
    cr_cl_release_mem(&P.out);
    cr_cl_release_kernel(&P.kernel);
    cr_cl_release_program(&P.program);
    memset(&P, 0, sizeof P);
}

static cr_status build(cr_cl *cl, char *err, size_t errlen)
{
    const char *const sources[] = {cache_pattern_index_h, cache_patterns_cl};
    if (cr_cl_build_kernel(cl, sources, 2, "-cl-std=CL1.2", &P.program, "cc_pattern", &P.kernel, err, errlen) != CR_OK)
        return CR_ERR;
    cl_int rc;
    P.out = clCreateBuffer(cl->context, CL_MEM_WRITE_ONLY, sizeof(cl_ulong), NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(out)", err, errlen);
    return CR_OK;
}

static cr_status cl_patterns_prepare(const cc_pattern_shape *shape, const void *init, uint64_t init_bytes, char *err,
                                     size_t errlen)
{
    cr_cl *cl = lt_opencl_device();
    if (cl == NULL) {
        snprintf(err, errlen, "no OpenCL device is open for the pattern kernels");
        return CR_ERR;
    }
    if (P.kernel == NULL && build(cl, err, errlen) != CR_OK)
        return CR_ERR;
    cr_cl_release_mems(P.buffer, 3);
    if (cc_shape_check_init(shape, init_bytes, err, errlen) != CR_OK)
        return CR_ERR;
    uint64_t bytes = shape->words * sizeof(cl_ulong);
    for (unsigned b = 0; b < shape->buffers; ++b) {
        cl_int rc;
        P.buffer[b] = clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)bytes,
                                     (void *)((const char *)init + b * bytes), &rc);
        CR_CL_CHECK(rc, "clCreateBuffer(pattern)", err, errlen);
    }
    P.shape = *shape;
    return CR_OK;
}

static cr_status cl_patterns_run(cr_timing *t, uint64_t *check, char *err, size_t errlen)
{
    cr_cl *cl = lt_opencl_device();
    if (cl == NULL || P.buffer[0] == NULL) {
        snprintf(err, errlen, "no pattern prepared");
        return CR_ERR;
    }
    cl_mem b1 = P.buffer[1] ? P.buffer[1] : P.buffer[0], b2 = P.buffer[2] ? P.buffer[2] : P.buffer[0];
    cl_uint kind = P.shape.kind, buffers = P.shape.buffers, bits = P.shape.bits;
    cl_ulong words = P.shape.words, n = P.shape.n, step = P.shape.step, pass = P.shape.pass,
             accesses = P.shape.accesses, mask = 0;
    const cr_cl_arg args[] = {CR_CL_ARG(P.buffer[0]), CR_CL_ARG(b1),    CR_CL_ARG(b2),   CR_CL_ARG(kind),
                              CR_CL_ARG(buffers),     CR_CL_ARG(bits),  CR_CL_ARG(words), CR_CL_ARG(n),
                              CR_CL_ARG(step),        CR_CL_ARG(pass),  CR_CL_ARG(accesses), CR_CL_ARG(mask),
                              CR_CL_ARG(P.out)};
    *t = (cr_timing){0};
    if (cr_cl_set_args(P.kernel, "cc_pattern", args, 13, err, errlen) != CR_OK ||
        cr_cl_launch_timed(cl, P.kernel, 1, 1, t, err, errlen) != CR_OK)
        return CR_ERR;
    cl_ulong sum = 0;
    CR_CL_CHECK(clEnqueueReadBuffer(cl->queue, P.out, CL_TRUE, 0, sizeof sum, &sum, 0, NULL, NULL),
                "clEnqueueReadBuffer(out)", err, errlen);
    *check = sum;
    return CR_OK;
}

const cc_pattern_ops cc_opencl_patterns = {
    .prepare = cl_patterns_prepare, .run = cl_patterns_run, .release = cl_patterns_release};
