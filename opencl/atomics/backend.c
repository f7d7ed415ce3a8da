/* OpenCL backend of the atomics benchmark: builds the kernels of each
 * counter type when first needed, allocates, launches and times. */
#include "atomics/backend.h"
#include "cl_device.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* bench/atomics/pattern.h and opencl/atomics/kernels.cl, embedded */
extern const char atomics_pattern_h[], atomics_kernels_cl[];

static struct {
    cr_cl cl;
    cl_program program[AT_NTYPES];
    bool has_int64;
    cl_mem counters, out, lock_word, lock_serving, lock_counter;
    at_type type;
    uint64_t counters_n, outs_n;
} S;

/* Whether the device has the 64-bit atomics of the uint64 counters. */
static bool has_int64_atomics(void)
{
    char ext[8192] = "";
    clGetDeviceInfo(S.cl.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    ext[sizeof ext - 1] = '\0';
    return strstr(ext, "cl_khr_int64_base_atomics") && strstr(ext, "cl_khr_int64_extended_atomics");
}

static void cl_close(void)
{
    cl_mem *bufs[] = {&S.counters, &S.out, &S.lock_word, &S.lock_serving, &S.lock_counter};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
        cr_cl_release_mem(bufs[i]);
    for (int t = 0; t < AT_NTYPES; ++t)
        cr_cl_release_program(&S.program[t]);
    cr_cl_close_state(&S, sizeof S, &S.cl);
}

/* The kernels of counter type t, built when first needed: a run on uint32
 * only never compiles the 64-bit atomics a device may lack. */
static cr_status program_for(at_type t, cl_program *out, char *err, size_t errlen)
{
    if (!S.program[t]) {
        char options[64];
        snprintf(options, sizeof options, "-cl-std=CL1.2 -DAT_TYPE=%d", (int)t);
        const char *const sources[] = {atomics_pattern_h, atomics_kernels_cl};
        if (cr_cl_build(&S.cl, sources, 2, options, &S.program[t], err, errlen) != CR_OK)
            return CR_ERR;
    }
    *out = S.program[t];
    return CR_OK;
}

static cr_status cl_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    cr_status st = cr_cl_open_state(spec, &S, sizeof S, &S.cl, err, errlen);
    if (st == CR_OK) {
        S.has_int64 = has_int64_atomics();
        *info = S.cl.info;
    }
    return st;
}

static cr_status cl_supports(at_op op, at_type type, at_space space, const char **how, char *err, size_t errlen)
{
    cr_status st = at_check_kind(op, type, space, err, errlen);
    if (st != CR_OK)
        return st;
    if (how) /* OpenCL 1.2 has no float atomic add */
        *how = type == AT_TYPE_F32 ? "cas-loop" : "native";
    if (type == AT_TYPE_U64 && !S.has_int64) {
        snprintf(err, errlen, "the device lacks cl_khr_int64_base_atomics / cl_khr_int64_extended_atomics");
        return CR_UNSUPPORTED;
    }
    return CR_OK;
}

static cr_status cl_prepare(at_type type, uint64_t counters, uint64_t outs, char *err, size_t errlen)
{
    cr_cl_release_mem(&S.counters);
    cr_cl_release_mem(&S.out);
    cl_int rc;
    S.counters = clCreateBuffer(S.cl.context, CL_MEM_READ_WRITE, (size_t)(counters * at_type_size(type)), NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(counters)", err, errlen);
    S.out = clCreateBuffer(S.cl.context, CL_MEM_READ_WRITE, (size_t)(outs * sizeof(cl_ulong)), NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(read sums)", err, errlen);
    S.type = type;
    S.counters_n = counters;
    S.outs_n = outs;
    return CR_OK;
}

static cr_status cl_upload(const void *src, uint64_t n, char *err, size_t errlen)
{
    CR_CL_CHECK(clEnqueueWriteBuffer(S.cl.queue, S.counters, CL_TRUE, 0, (size_t)(n * at_type_size(S.type)), src, 0,
                                     NULL, NULL),
                "clEnqueueWriteBuffer(counters)", err, errlen);
    return CR_OK;
}

static cr_status cl_download(void *dst, uint64_t n, char *err, size_t errlen)
{
    CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.counters, CL_TRUE, 0, (size_t)(n * at_type_size(S.type)), dst, 0,
                                    NULL, NULL),
                "clEnqueueReadBuffer(counters)", err, errlen);
    return CR_OK;
}

static cr_status cl_download_out(uint64_t *dst, uint64_t n, char *err, size_t errlen)
{
    CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.out, CL_TRUE, 0, (size_t)(n * sizeof(cl_ulong)), dst, 0, NULL, NULL),
                "clEnqueueReadBuffer(read sums)", err, errlen);
    return CR_OK;
}

/* The local counters of a local run: its slots, stride elements apart. */
static cr_status local_counters(const at_run *r, cr_cl_arg *arg, char *err, size_t errlen)
{
    cr_status st = at_local_fits(r, S.cl.info.local_mem_bytes, err, errlen);
    if (st == CR_OK)
        *arg = CR_CL_LOCAL((size_t)at_local_bytes(r));
    return st;
}

static cr_status cl_run(const at_run *r, cr_timing *t, char *err, size_t errlen)
{
    cl_program p;
    if (program_for(r->type, &p, err, errlen) != CR_OK)
        return CR_ERR;
    char name[48];
    snprintf(name, sizeof name, "at_%s_%s", at_op_names[r->op], at_space_names[r->space]);
    cl_int rc;
    cl_kernel k = clCreateKernel(p, name, &rc);
    CR_CL_CHECK(rc, "clCreateKernel", err, errlen);
    cl_ulong stride = r->stride, degree = r->degree, init64 = r->init, zero64 = 0;
    cl_uint iters = r->iters, init32 = (cl_uint)r->init, zero32 = 0;
    size_t es = at_type_size(r->type);
    /* init and zero have the counter's type, 4 or 8 bytes. */
    cr_cl_arg args[8] = {CR_CL_ARG(S.counters), CR_CL_ARG(S.out), CR_CL_ARG(stride), CR_CL_ARG(degree),
                         CR_CL_ARG(iters), {es, es == 8 ? (const void *)&init64 : (const void *)&init32},
                         {es, es == 8 ? (const void *)&zero64 : (const void *)&zero32}};
    unsigned nargs = 7;
    cr_status st = r->space == AT_LOCAL ? local_counters(r, &args[nargs++], err, errlen) : CR_OK;
    if (st == CR_OK)
        st = cr_cl_set_args(k, name, args, nargs, err, errlen);
    if (st == CR_OK)
        st = cr_cl_launch_timed(&S.cl, k, (size_t)r->work_items, (size_t)r->work_group, t, err, errlen);
    clReleaseKernel(k);
    return st;
}

static cr_status cl_launch_empty(double *enqueue_to_start_s, double *round_trip_s, char *err, size_t errlen)
{
    cl_program p;
    if (program_for(AT_TYPE_U32, &p, err, errlen) != CR_OK)
        return CR_ERR;
    cl_int rc;
    cl_kernel k = clCreateKernel(p, "at_empty", &rc);
    CR_CL_CHECK(rc, "clCreateKernel(at_empty)", err, errlen);
    size_t one = 1;
    cl_event ev = NULL;
    uint64_t t0 = cr_now_ns();
    rc = clEnqueueNDRangeKernel(S.cl.queue, k, 1, NULL, &one, &one, 0, NULL, &ev);
    if (rc == CL_SUCCESS)
        rc = clFinish(S.cl.queue);
    *round_trip_s = (double)(cr_now_ns() - t0) * 1e-9;
    cl_ulong queued = 0, start = 0;
    *enqueue_to_start_s = NAN;
    if (rc == CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, sizeof queued, &queued, NULL) == CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) == CL_SUCCESS &&
        start >= queued)
        *enqueue_to_start_s = (double)(start - queued) * 1e-9;
    if (ev)
        clReleaseEvent(ev);
    clReleaseKernel(k);
    CR_CL_CHECK(rc, "empty kernel", err, errlen);
    return CR_OK;
}

static cr_status cl_run_lock(at_lock kind, uint64_t groups, uint32_t iters, cr_timing *t, uint64_t *counter,
                             char *err, size_t errlen)
{
    cl_program p;
    if (program_for(AT_TYPE_U32, &p, err, errlen) != CR_OK)
        return CR_ERR;
    cl_int rc;
    cl_mem *bufs[3] = {&S.lock_word, &S.lock_serving, &S.lock_counter};
    for (int i = 0; i < 3; ++i) {
        if (!*bufs[i]) {
            *bufs[i] = clCreateBuffer(S.cl.context, CL_MEM_READ_WRITE, sizeof(cl_ulong), NULL, &rc);
            CR_CL_CHECK(rc, "clCreateBuffer(lock)", err, errlen);
        }
        cl_ulong zero = 0;
        CR_CL_CHECK(clEnqueueWriteBuffer(S.cl.queue, *bufs[i], CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL),
                    "clEnqueueWriteBuffer(lock)", err, errlen);
    }
    const char *name = kind == AT_SPIN_LOCK ? "at_spin_lock" : "at_ticket_lock";
    cl_kernel k = clCreateKernel(p, name, &rc);
    CR_CL_CHECK(rc, "clCreateKernel(lock)", err, errlen);
    cl_uint n = iters;
    const cr_cl_arg args[] = {CR_CL_ARG(S.lock_word), CR_CL_ARG(S.lock_serving), CR_CL_ARG(S.lock_counter),
                              CR_CL_ARG(n)};
    cr_status st = cr_cl_set_args(k, name, args, 4, err, errlen);
    if (st == CR_OK)
        st = cr_cl_launch_timed(&S.cl, k, (size_t)groups, 1, t, err, errlen);
    clReleaseKernel(k);
    if (st != CR_OK)
        return st;
    cl_ulong value = 0;
    CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.lock_counter, CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL),
                "clEnqueueReadBuffer(lock counter)", err, errlen);
    *counter = value;
    return CR_OK;
}

/* One wave on a GPU: every work-item resident, so contention is between
 * work-items that really run at once. */
static void cl_geometry(uint64_t *work_items, uint64_t *work_group, uint64_t *max_work_group)
{
    cr_cl_fill_geometry(&S.cl, 1, work_items, work_group);
    *max_work_group = S.cl.info.max_work_group ? S.cl.info.max_work_group : *work_group;
}

const at_backend atomics_opencl_backend = {
    .base = {.name = "opencl", .list_devices = cr_cl_list, .open = cl_open, .close = cl_close},
    .supports = cl_supports, .prepare = cl_prepare, .upload = cl_upload, .download = cl_download,
    .download_out = cl_download_out, .run = cl_run, .launch_empty = cl_launch_empty, .run_lock = cl_run_lock,
    .geometry = cl_geometry,
};
