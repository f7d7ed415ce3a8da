/* OpenCL backend of the stream benchmark: allocates, launches and times. */
#include "cl_device.h"
#include "stream/backend.h"

#include <stdlib.h>
#include <string.h>

/* opencl/layout.cl, bench/stream/elements.h and opencl/stream/kernels.cl, embedded at build time */
extern const char layout_cl[], stream_elements_h[], stream_kernels_cl[];

static const char *const kernel_names[STREAM_NKERNELS] = {
    "stream_copy", "stream_mul", "stream_add", "stream_triad", "stream_dot",
};

static struct {
    cr_cl cl;
    cl_program program[CR_NDTYPES];
    cl_kernel kernel[CR_NDTYPES][STREAM_NKERNELS];
    cl_mem array[3];
    cl_mem partial;
    uint64_t partial_count;
    void *partial_host;
    cr_dtype dtype;
    uint64_t n;
} S;

static cr_status build_programs(char *err, size_t errlen)
{
    for (int t = 0; t < CR_NDTYPES; ++t) {
        if (t == CR_DOUBLE && !S.cl.info.has_fp64)
            continue;
        char options[128];
        snprintf(options, sizeof options, "-cl-std=CL1.2 -DIS_DOUBLE=%d -DCONTIGUOUS=%d -DDOT_BLOCK=%u",
                 t == CR_DOUBLE, cr_cl_contiguous(&S.cl), STREAM_DOT_BLOCK);
        const char *const sources[] = {layout_cl, stream_elements_h, stream_kernels_cl};
        if (cr_cl_build(&S.cl, sources, 3, options, &S.program[t], err, errlen) != CR_OK)
            return CR_ERR;
        for (int k = 0; k < STREAM_NKERNELS; ++k) {
            cl_int rc;
            S.kernel[t][k] = clCreateKernel(S.program[t], kernel_names[k], &rc);
            CR_CL_CHECK(rc, "clCreateKernel", err, errlen);
        }
    }
    return CR_OK;
}

static void cl_close(void)
{
    cr_cl_release_mems(S.array, 3);
    cr_cl_release_mem(&S.partial);
    free(S.partial_host);
    for (int t = 0; t < CR_NDTYPES; ++t) {
        for (int k = 0; k < STREAM_NKERNELS; ++k)
            cr_cl_release_kernel(&S.kernel[t][k]);
        cr_cl_release_program(&S.program[t]);
    }
    cr_cl_close_state(&S, sizeof S, &S.cl);
}

static cr_status cl_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    cr_status st = cr_cl_open_built(spec, &S, sizeof S, &S.cl, build_programs, cl_close, err, errlen);
    if (st == CR_OK)
        *info = S.cl.info;
    return st;
}

static cr_status cl_prepare(cr_dtype t, uint64_t n, char *err, size_t errlen)
{
    cr_cl_release_mems(S.array, 3);
    size_t bytes = (size_t)n * cr_dtype_size(t);
    for (int i = 0; i < 3; ++i) {
        cl_int rc;
        S.array[i] = clCreateBuffer(S.cl.context, CL_MEM_READ_WRITE, bytes, NULL, &rc);
        CR_CL_CHECK(rc, "clCreateBuffer", err, errlen);
    }
    S.dtype = t;
    S.n = n;
    return CR_OK;
}

static cr_status cl_upload(stream_array which, const void *src, char *err, size_t errlen)
{
    size_t bytes = (size_t)S.n * cr_dtype_size(S.dtype);
    CR_CL_CHECK(clEnqueueWriteBuffer(S.cl.queue, S.array[which], CL_TRUE, 0, bytes, src, 0, NULL, NULL),
                "clEnqueueWriteBuffer", err, errlen);
    return CR_OK;
}

static cr_status cl_download(stream_array which, void *dst, char *err, size_t errlen)
{
    size_t bytes = (size_t)S.n * cr_dtype_size(S.dtype);
    CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.array[which], CL_TRUE, 0, bytes, dst, 0, NULL, NULL),
                "clEnqueueReadBuffer", err, errlen);
    return CR_OK;
}

static cr_status ensure_partials(uint64_t groups, char *err, size_t errlen)
{
    if (groups <= S.partial_count)
        return CR_OK;
    cr_cl_release_mem(&S.partial);
    free(S.partial_host);
    S.partial_count = 0;
    cl_int rc;
    S.partial = clCreateBuffer(S.cl.context, CL_MEM_READ_WRITE, (size_t)groups * sizeof(double), NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(partial sums)", err, errlen);
    S.partial_host = malloc((size_t)groups * sizeof(double));
    if (S.partial_host == NULL) {
        snprintf(err, errlen, "out of memory for %llu partial sums", (unsigned long long)groups);
        return CR_ERR;
    }
    S.partial_count = groups;
    return CR_OK;
}

static cr_status set_args(stream_kernel k, cl_kernel kern, const stream_geometry *g, double scalar, char *err,
                          size_t errlen)
{
    cl_ulong first = g->first, n = g->count;
    float sf = (float)scalar;
    size_t ss = cr_dtype_size(S.dtype);
    const cr_cl_arg A = CR_CL_ARG(S.array[STREAM_A]), B = CR_CL_ARG(S.array[STREAM_B]),
                    C = CR_CL_ARG(S.array[STREAM_C]), F = CR_CL_ARG(first), N = CR_CL_ARG(n),
                    P = CR_CL_ARG(S.partial), L = CR_CL_LOCAL((size_t)g->work_group * ss),
                    s = {ss, S.dtype == CR_DOUBLE ? (const void *)&scalar : (const void *)&sf};
    cr_cl_arg args[6];
    unsigned count = 0;
#define PUSH(x) (args[count++] = (x))
    switch (k) {
    case STREAM_COPY: PUSH(A), PUSH(C), PUSH(F), PUSH(N); break;
    case STREAM_MUL: PUSH(B), PUSH(C), PUSH(s), PUSH(F), PUSH(N); break;
    case STREAM_ADD: PUSH(A), PUSH(B), PUSH(C), PUSH(F), PUSH(N); break;
    case STREAM_TRIAD: PUSH(A), PUSH(B), PUSH(C), PUSH(s), PUSH(F), PUSH(N); break;
    case STREAM_DOT:
        if (ensure_partials(g->work_items / g->work_group, err, errlen) != CR_OK)
            return CR_ERR;
        PUSH(A), PUSH(B), PUSH(P), PUSH(L), PUSH(F), PUSH(N);
        break;
    default: break;
    }
#undef PUSH
    return cr_cl_set_args(kern, kernel_names[k], args, count, err, errlen);
}

static double sum_partials(uint64_t groups)
{
    double sum = 0;
    for (uint64_t i = 0; i < groups; ++i)
        sum += S.dtype == CR_DOUBLE ? ((double *)S.partial_host)[i] : ((float *)S.partial_host)[i];
    return sum;
}

/* Every kernel is timed alone; dot's partial sums are read after the
 * interval, so that its figure, like the others', is the kernel's. */
static cr_status cl_run(stream_kernel k, const stream_geometry *g, double scalar, cr_timing *t, double *dot,
                        char *err, size_t errlen)
{
    if (stream_check_window(g, S.n, err, errlen) != CR_OK)
        return CR_ERR;
    cl_kernel kern = S.kernel[S.dtype][k];
    if (set_args(k, kern, g, scalar, err, errlen) != CR_OK)
        return CR_ERR;
    if (cr_cl_launch_timed(&S.cl, kern, (size_t)g->work_items, (size_t)g->work_group, t, err, errlen) != CR_OK)
        return CR_ERR;
    if (k != STREAM_DOT)
        return CR_OK;
    uint64_t groups = g->work_items / g->work_group;
    CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.partial, CL_TRUE, 0, (size_t)groups * cr_dtype_size(S.dtype),
                                    S.partial_host, 0, NULL, NULL),
                "clEnqueueReadBuffer(partial sums)", err, errlen);
    *dot = sum_partials(groups);
    return CR_OK;
}

static stream_geometry cl_default_geometry(uint64_t n)
{
    stream_geometry g;
    cr_cl_default_geometry(&S.cl, n, &g.work_items, &g.work_group);
    g.first = 0, g.count = n;
    return g;
}

static uint64_t cl_work_group_for(uint64_t work_items) { return cr_cl_work_group_for(&S.cl, work_items); }

/* Measured on PoCL, one slice per work-item and BabelStream's one element
 * per work-item run within a few percent of each other, interleaved in one
 * process; the slices keep what the concurrency sweep needs, exactly k
 * work-items each streaming its own part. */
static const char *cl_layout(void)
{
    return cr_cl_contiguous(&S.cl) ? "one contiguous slice per work-item (a CPU device: each core streams)"
                                   : "neighbouring work-items on neighbouring elements (coalesced)";
}

const stream_backend stream_opencl_backend = {
    .base = {.name = "opencl", .list_devices = cr_cl_list, .open = cl_open, .close = cl_close},
    .prepare = cl_prepare,
    .upload = cl_upload,
    .download = cl_download,
    .run = cl_run,
    .default_geometry = cl_default_geometry,
    .work_group_for = cl_work_group_for,
    .layout = cl_layout,
};
