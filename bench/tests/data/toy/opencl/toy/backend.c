/* toy's OpenCL backend: the words in one buffer, the fill kernel over them. */
#include "toy/backend.h"

#include "cl_device.h"

extern const char toy_kernels_cl[]; /* opencl/toy/kernels.cl, embedded */

static struct {
    cr_cl cl;
    cl_program program;
    cl_kernel fill;
    cl_mem words;
    uint64_t n;
} S;

static cr_status build(char *err, size_t errlen)
{
    const char *const sources[] = {toy_kernels_cl};
    return cr_cl_build_kernel(&S.cl, sources, 1, "-cl-std=CL1.2", &S.program, "fill", &S.fill, err, errlen);
}

static void toy_cl_close(void)
{
    cr_cl_release_mem(&S.words);
    cr_cl_release_kernel(&S.fill);
    cr_cl_release_program(&S.program);
    cr_cl_close_state(&S, sizeof S, &S.cl);
}

static cr_status toy_cl_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    cr_status st = cr_cl_open_built(spec, &S, sizeof S, &S.cl, build, toy_cl_close, err, errlen);
    if (st == CR_OK)
        *info = S.cl.info;
    return st;
}

static cr_status toy_cl_prepare(uint64_t n, char *err, size_t errlen)
{
    cl_int rc;
    S.n = n;
    S.words = clCreateBuffer(S.cl.context, CL_MEM_WRITE_ONLY, (size_t)n * 4, NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(words)", err, errlen);
    const cr_cl_arg args[] = {CR_CL_ARG(S.words)};
    return cr_cl_set_args(S.fill, "fill", args, 1, err, errlen);
}

static cr_status toy_cl_fill(cr_timing *t, char *err, size_t errlen)
{
    *t = (cr_timing){0};
    return cr_cl_launch_timed(&S.cl, S.fill, (size_t)S.n, 64, t, err, errlen);
}

static cr_status toy_cl_download(uint32_t *words, char *err, size_t errlen)
{
    CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.words, CL_TRUE, 0, (size_t)S.n * 4, words, 0, NULL, NULL),
                "clEnqueueReadBuffer(words)", err, errlen);
    return CR_OK;
}

const toy_backend toy_opencl_backend = {
    .base = {.name = "opencl", .list_devices = cr_cl_list, .open = toy_cl_open, .close = toy_cl_close},
    .prepare = toy_cl_prepare,
    .fill = toy_cl_fill,
    .download = toy_cl_download,
};
