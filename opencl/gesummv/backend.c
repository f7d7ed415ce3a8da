/* OpenCL backend of the gesummv benchmark: allocates, launches and times. */
#include "cl_device.h"
#include "gesummv/backend.h"

/* bench/gesummv/row.h and opencl/gesummv/kernels.cl, embedded at build time */
extern const char gesummv_row_h[], gesummv_kernels_cl[];

static struct {
    cr_cl cl;
    cl_kernel kernel[CR_NDTYPES]; /* each holds its program */
    cl_mem array[GESUMMV_NARRAYS];
    cr_dtype dtype;
    uint64_t n;
} S;

/* A kernel per type the device has: float, and double where it has fp64. */
static cr_status build_programs(char *err, size_t errlen)
{
    const char *const sources[] = {gesummv_row_h, gesummv_kernels_cl};
    const int types = S.cl.info.has_fp64 ? CR_NDTYPES : 1;
    for (int t = 0; t < types; ++t) {
        char options[64];
        snprintf(options, sizeof options, "-cl-std=CL1.2 -DIS_DOUBLE=%d -DT=%s", t == CR_DOUBLE,
                 cr_dtype_name((cr_dtype)t));
        cl_program program = NULL;
        cr_status st = cr_cl_build_kernel(&S.cl, sources, 2, options, &program, "gesummv", &S.kernel[t], err, errlen);
        cr_cl_release_program(&program);
        if (st != CR_OK)
            return st;
    }
    return CR_OK;
}

static void cl_close(void)
{
    cr_cl_release_mems(S.array, GESUMMV_NARRAYS);
    cr_cl_release_kernel(&S.kernel[CR_FLOAT]);
    cr_cl_release_kernel(&S.kernel[CR_DOUBLE]);
    cr_cl_close_state(&S, sizeof S, &S.cl);
}

static cr_status cl_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    cr_status st = cr_cl_open_built(spec, &S, sizeof S, &S.cl, build_programs, cl_close, err, errlen);
    return st == CR_OK ? (*info = S.cl.info, CR_OK) : st;
}

static size_t array_bytes(gesummv_array which)
{
    return (size_t)(gesummv_elements(which, S.n) * cr_dtype_size(S.dtype));
}

static cr_status cl_prepare(cr_dtype t, uint64_t n, char *err, size_t errlen)
{
    cr_cl_release_mems(S.array, GESUMMV_NARRAYS);
    S.dtype = t;
    S.n = n;
    for (int i = 0; i < GESUMMV_NARRAYS; ++i) {
        cl_int rc;
        S.array[i] = clCreateBuffer(S.cl.context, CL_MEM_READ_WRITE, array_bytes((gesummv_array)i), NULL, &rc);
        CR_CL_CHECK(rc, "clCreateBuffer", err, errlen);
    }
    return CR_OK;
}

static cr_status cl_upload(gesummv_array which, const void *src, char *err, size_t errlen)
{
    cl_int rc = clEnqueueWriteBuffer(S.cl.queue, S.array[which], CL_TRUE, 0, array_bytes(which), src, 0, NULL, NULL);
    CR_CL_CHECK(rc, "clEnqueueWriteBuffer", err, errlen);
    return CR_OK;
}

static cr_status cl_download(gesummv_array which, void *dst, char *err, size_t errlen)
{
    cl_int rc = clEnqueueReadBuffer(S.cl.queue, S.array[which], CL_TRUE, 0, array_bytes(which), dst, 0, NULL, NULL);
    CR_CL_CHECK(rc, "clEnqueueReadBuffer", err, errlen);
    return CR_OK;
}

static cr_status cl_run(uint64_t work_items, uint64_t work_group, double alpha, double beta, cr_timing *t,
                        char *err, size_t errlen)
{
    cl_ulong n = S.n;
    float af = (float)alpha, bf = (float)beta;
    size_t es = cr_dtype_size(S.dtype);
    bool dbl = S.dtype == CR_DOUBLE;
    const cr_cl_arg args[] = {
        CR_CL_ARG(S.array[GESUMMV_A]), CR_CL_ARG(S.array[GESUMMV_B]), CR_CL_ARG(S.array[GESUMMV_X]),
        CR_CL_ARG(S.array[GESUMMV_Y]), {es, dbl ? (const void *)&alpha : (const void *)&af},
        {es, dbl ? (const void *)&beta : (const void *)&bf}, CR_CL_ARG(n),
    };
    cl_kernel k = S.kernel[S.dtype];
    if (cr_cl_set_args(k, "gesummv", args, 7, err, errlen) != CR_OK)
        return CR_ERR;
    return cr_cl_launch_timed(&S.cl, k, (size_t)work_items, (size_t)work_group, t, err, errlen);
}

static uint64_t cl_work_group_for(uint64_t work_items) { return cr_cl_work_group_for(&S.cl, work_items); }

const gesummv_backend gesummv_opencl_backend = {
    {"opencl", cr_cl_list, cl_open, cl_close}, cl_prepare, cl_upload, cl_download, cl_run, cl_work_group_for,
};
