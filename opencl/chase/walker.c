/* The OpenCL pointer-chase walker (walker.h): uploads the chain, runs one
 * work-item along it and times it with profiling events. A chain larger
 * than the device's largest allocation comes in pieces (pieces.h), each a
 * buffer of its own, walked by chase_pieces; one piece keeps the plain
 * chase kernel. */
#include "walker.h"

#include <string.h>

/* bench/latency/chase.h and opencl/chase/kernels.cl, embedded */
extern const char latency_chase_h[], chase_kernels_cl[];

static struct {
    cr_cl cl;
    cl_program program;
    cl_kernel kernel, pieces_kernel;
    cl_mem chain[LT_MAX_PIECES], end;
    lt_layout layout; /* of the uploaded chain; words 0 while there is none */
} S;

static void release_chain(void)
{
    for (unsigned p = 0; p < LT_MAX_PIECES; ++p)
        cr_cl_release_mem(&S.chain[p]);
    S.layout = (lt_layout){0};
}

static void cl_close(void)
{
    release_chain();
    cr_cl_release_mem(&S.end);
    cr_cl_release_kernel(&S.kernel);
    cr_cl_release_kernel(&S.pieces_kernel);
    cr_cl_release_program(&S.program);
    cr_cl_close_state(&S, sizeof S, &S.cl);
}

/* The kernel and the word it ends on, made once: every run reuses them. */
static cr_status build_chase(char *err, size_t errlen)
{
    const char *const sources[] = {latency_chase_h, chase_kernels_cl};
    if (cr_cl_build(&S.cl, sources, 2, "-cl-std=CL1.2", &S.program, err, errlen) != CR_OK)
        return CR_ERR;
    cl_int rc;
    S.kernel = clCreateKernel(S.program, "chase", &rc);
    CR_CL_CHECK(rc, "clCreateKernel(chase)", err, errlen);
    S.pieces_kernel = clCreateKernel(S.program, "chase_pieces", &rc);
    CR_CL_CHECK(rc, "clCreateKernel(chase_pieces)", err, errlen);
    S.end = clCreateBuffer(S.cl.context, CL_MEM_WRITE_ONLY, sizeof(cl_ulong), NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(end)", err, errlen);
    return CR_OK;
}

static cr_status cl_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    cr_status st = cr_cl_open_built(spec, &S, sizeof S, &S.cl, build_chase, cl_close, err, errlen);
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

cr_cl *lt_opencl_device(void) { return S.cl.context ? &S.cl : NULL; }

cl_mem lt_opencl_chain(void) { return S.layout.pieces == 1 ? S.chain[0] : NULL; }

cr_status lt_opencl_prepare_writable(uint64_t *words, uint64_t count, bool in_place, char *err, size_t errlen)
{
    release_chain();
    cl_int rc;
    cl_mem_flags flags = CL_MEM_READ_WRITE | (in_place ? CL_MEM_USE_HOST_PTR : CL_MEM_COPY_HOST_PTR);
    S.chain[0] = clCreateBuffer(S.cl.context, flags, (size_t)count * sizeof(cl_ulong), words, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(writable chain)", err, errlen);
    lt_layout_make(&S.layout, count, 0);
    return CR_OK;
}

static cr_status cl_prepare(const lt_layout *layout, const uint64_t *next, char *err, size_t errlen)
{
    release_chain();
    if (lt_layout_check(layout, LT_MAX_PIECES, "the opencl backend", err, errlen) != CR_OK)
        return CR_ERR;
    for (unsigned p = 0; p < layout->pieces; ++p) {
        cl_int rc;
        size_t bytes = (size_t)lt_piece_words(layout, p) * sizeof(cl_ulong);
        S.chain[p] = clCreateBuffer(S.cl.context, CL_MEM_READ_ONLY, bytes, NULL, &rc);
        CR_CL_CHECK(rc, "clCreateBuffer(chain)", err, errlen);
        CR_CL_CHECK(clEnqueueWriteBuffer(S.cl.queue, S.chain[p], CL_TRUE, 0, bytes, next + lt_piece_first(layout, p),
                                         0, NULL, NULL),
                    "clEnqueueWriteBuffer(chain)", err, errlen);
    }
    S.layout = *layout;
    return CR_OK;
}

/* The kernel for the uploaded chain, its arguments set. */
static cr_status set_chase_args(cl_ulong *start, cl_ulong *steps, cl_uint *shift, cl_kernel *k, char *err,
                                size_t errlen)
{
    if (S.layout.pieces == 1) {
        const cr_cl_arg args[] = {CR_CL_ARG(S.chain[0]), CR_CL_ARG(*start), CR_CL_ARG(*steps), CR_CL_ARG(S.end)};
        *k = S.kernel;
        return cr_cl_set_args(*k, "chase", args, 4, err, errlen);
    }
    cr_cl_arg args[LT_MAX_PIECES + 4];
    for (unsigned p = 0; p < LT_MAX_PIECES; ++p)
        args[p] = CR_CL_ARG(S.chain[p < S.layout.pieces ? p : 0]);
    *shift = S.layout.shift;
    args[LT_MAX_PIECES] = CR_CL_ARG(*start);
    args[LT_MAX_PIECES + 1] = CR_CL_ARG(*steps);
    args[LT_MAX_PIECES + 2] = CR_CL_ARG(*shift);
    args[LT_MAX_PIECES + 3] = CR_CL_ARG(S.end);
    *k = S.pieces_kernel;
    return cr_cl_set_args(*k, "chase_pieces", args, LT_MAX_PIECES + 4, err, errlen);
}

/* No cycles: OpenCL C has no clock of the compute unit. */
static cr_status cl_run(uint64_t steps, uint64_t start, cr_timing *t, lt_walk_out *out, char *err, size_t errlen)
{
    if (lt_chain_check_start(start, S.layout.words, err, errlen) != CR_OK)
        return CR_ERR;
    cl_ulong a_start = start, a_steps = steps;
    cl_uint a_shift = 0;
    cl_kernel k;
    *t = (cr_timing){0};
    if (set_chase_args(&a_start, &a_steps, &a_shift, &k, err, errlen) != CR_OK ||
        cr_cl_launch_timed(&S.cl, k, 1, 1, t, err, errlen) != CR_OK)
        return CR_ERR;
    cl_ulong e = 0;
    CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.end, CL_TRUE, 0, sizeof e, &e, 0, NULL, NULL),
                "clEnqueueReadBuffer(end)", err, errlen);
    *out = (lt_walk_out){.end = e};
    return CR_OK;
}

const lt_backend lt_opencl_walker = {
    .base = {.name = "opencl", .list_devices = cr_cl_list, .open = cl_open, .close = cl_close},
    .caches = cl_caches, .prepare = cl_prepare, .run = cl_run, .max_pieces = LT_MAX_PIECES,
};
